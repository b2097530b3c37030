"""What time limits cost: the same games unlimited, with in-process limits, and watched.

    python scripts/bench_limits.py [--games 200] [--repeat 3]

Random Pacman and random ghosts on mediumClassic (cheap agents, so the cost of the limits
shows): agent steps per second of `run_game` with no limit, of `run_game` with a per-move
limit (a timer set around every move), and of `pacman.hosting.watched.WatchedGames` (the game in a
child process that is stopped when late: one message per move).
"""

from __future__ import annotations

import argparse
import time

from pacman import load_layout, run_game
from pacman.agents.ghosts import RandomGhost
from pacman.agents.simple import RandomAgent
from pacman.hosting.watched import WatchedGames
from pacman.specs import AgentSpec, GameSpec

RANDOM, GHOST = AgentSpec("RandomAgent"), AgentSpec("RandomGhost")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    layout = load_layout("mediumClassic")

    def in_process(limit: float | None) -> tuple[int, float]:
        steps, started = 0, time.perf_counter()
        for seed in range(args.games):
            record = run_game(layout, RandomAgent(), [RandomGhost(1), RandomGhost(2)],
                              seed=seed, max_moves=300, move_time_limit=limit)
            steps += len(record.actions)
        return steps, time.perf_counter() - started

    def watched() -> tuple[int, float]:
        with WatchedGames() as games:
            games.play(GameSpec.of(layout, RANDOM, GHOST, 2, 0, max_moves=5,
                                   move_time_limit=10.0))
            steps, started = 0, time.perf_counter()  # the child's start-up is not counted
            for seed in range(args.games):
                record = games.play(GameSpec.of(layout, RANDOM, GHOST, 2, seed, max_moves=300,
                                                move_time_limit=10.0))
                steps += len(record.actions)
            return steps, time.perf_counter() - started

    started = time.perf_counter()
    with WatchedGames() as games:
        games.play(GameSpec.of(layout, RANDOM, GHOST, 2, 0, max_moves=1, move_time_limit=10.0))
    print(f"starting a watched child and its first game: {time.perf_counter() - started:.2f} s")
    for name, run in (("unlimited, in this process", lambda: in_process(None)),
                      ("--timeout 10, in this process", lambda: in_process(10.0)),
                      ("--timeout 10, watched child", watched)):
        best = max(steps / seconds for steps, seconds in (run() for _ in range(args.repeat)))
        print(f"{name:<34} {best:12,.0f} agent steps/s")


if __name__ == "__main__":
    main()
