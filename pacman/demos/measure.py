"""Playing a demo headless: every matchup over consecutive seeds, in worker processes.

Game `i` of every matchup uses seed `seed + i`. Each game depends on its matchup and seed only,
so the results are the same for any number of worker processes (`jobs`). Faults of agents are
the games' outcomes (`run_game` records crashes); a worker process that dies (killed from
outside, out of memory) leaves its unfinished games recorded as `crash`, never a traceback.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

from pacman.demos.demo import Demo, Matchup, Results, Summary, play_matchup, summarize
from pacman.record import GameRecord, Outcome

__all__ = ["DemoGame", "format_summary", "play_demo", "tasks_of"]

#: Called after each finished game with (games finished, games in all).
ProgressCallback = Callable[[int, int], None]


@dataclass(frozen=True)
class DemoGame:
    """One game of a demo: a matchup and the game's seed."""

    matchup: Matchup
    seed: int


def tasks_of(demo: Demo, games: int, seed: int = 0) -> list[DemoGame]:
    """The games `play_demo` plays: `games` per matchup, game `i` with seed `seed + i`."""
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    return [DemoGame(matchup, seed + i) for matchup in demo.matchups for i in range(games)]


def play_task(task: DemoGame) -> GameRecord:
    """Play one task (in a worker process or here)."""
    return play_matchup(task.matchup, task.seed)


def play_demo(demo: Demo, games: int, *, seed: int = 0, jobs: int | None = None,
              on_progress: ProgressCallback | None = None) -> Results:
    """Play `games` seeded games of each matchup of `demo`; the records by label, seed order.

    `jobs` worker processes (default: every core this process may use) play the games; with
    one job, or one game, they are played in this process.
    """
    from pacman.experiments.backends import default_jobs

    tasks = tasks_of(demo, games, seed)
    jobs = min(jobs or default_jobs(), len(tasks))
    report = on_progress or (lambda done, total: None)
    if jobs <= 1:
        records = []
        for task in tasks:
            records.append(play_task(task))
            report(len(records), len(tasks))
    else:
        records = _play_in_pool(tasks, jobs, report)
    results: dict[str, list[GameRecord]] = {m.label: [] for m in demo.matchups}
    for task, record in zip(tasks, records):
        results[task.matchup.label].append(record)
    return results


def _play_in_pool(tasks: Sequence[DemoGame], jobs: int,
                  report: ProgressCallback) -> list[GameRecord]:
    """Play the tasks in `jobs` worker processes; the records in task order."""
    from concurrent.futures import wait

    from pacman.experiments.backends import ProcessBackend

    backend = ProcessBackend(jobs)
    executor = backend.start()
    try:
        futures: list[Future[GameRecord]] = [executor.submit(play_task, t) for t in tasks]
        pending = set(futures)
        while pending:
            _, pending = wait(pending, return_when="FIRST_COMPLETED")
            report(len(tasks) - len(pending), len(tasks))
        records = [_record_of(task, future) for task, future in zip(tasks, futures)]
    except BaseException:  # Ctrl-C, or an error of the demo itself: end the workers first
        backend.stop(executor)
        raise
    backend.close(executor)
    return records


def _record_of(task: DemoGame, future: Future[GameRecord]) -> GameRecord:
    """The future's record; a game whose worker died is a `crash` with no moves."""
    try:
        return future.result()
    except BrokenProcessPool:
        matchup = task.matchup
        return GameRecord(layout=matchup.layout, seed=task.seed,
                          agents=(matchup.pacman.text(), *(g.text() for g in matchup.ghosts)),
                          outcome=Outcome.CRASH, score=0, pacman_moves=0, actions=(),
                          fault="the worker process playing this game died")


def format_summary(matchup: Matchup, summary: Summary) -> str:
    """A matchup's small table: agents, wins with their interval, mean score and moves."""
    rate = summary.wins / summary.games if summary.games else 0.0
    rows = [
        f"{matchup.label}: {matchup.versus()} on {matchup.layout} "
        f"(cap {matchup.max_moves} moves)",
        f"  wins        {summary.wins_text()} ({rate:.0%}; 95% Wilson interval "
        f"{summary.interval_text()})",
        f"  mean score  {summary.mean_score:.1f}",
        f"  mean moves  {summary.mean_moves:.1f}",
        f"  outcomes    {summary.outcomes_text() or 'none'}",
    ]
    return "\n".join(rows)


def summaries(demo: Demo, results: Results) -> list[tuple[Matchup, Summary]]:
    """Each matchup of `demo` with the summary of its games in `results`."""
    return [(m, summarize(results.get(m.label, ()))) for m in demo.matchups]
