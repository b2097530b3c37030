"""`pacman demo`: the lecture demos on adversarial search, shown in the window or measured.

`pacman demo` lists them; `pacman demo NAME` plays one game of each of the demo's matchups in
the window (as `pacman play` shows games) and prints the verdict of those games;
`pacman demo NAME -q` plays `--games` seeded games per matchup in worker processes, prints a
small table per matchup and the verdict, and exits 0 if the demo's point holds, 1 if not.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pacman.cli.options import make_display, number_in, positive_int, seed_int
from pacman.display.protocol import Display, GameRestart, MoveInfo
from pacman.errors import UsageError
from pacman.record import GameRecord, Outcome

if TYPE_CHECKING:
    from pacman.cli.options import Commands
    from pacman.demos.demo import Demo, Finding
    from pacman.state import GameState

#: Most games per matchup `--games` accepts: far beyond any sensible demo.
MAX_GAMES = 100_000


def add_parser(commands: Commands) -> None:
    """The `demo` subcommand."""
    demo = commands.add_parser(
        "demo", help="the lecture demos on adversarial search (list, watch, or measure)",
        description="Without a name: list the demos. With a name: play one game of each of "
                    "the demo's matchups in the window, then print the verdict. With -q: "
                    "play --games seeded games per matchup headless, print a table per "
                    "matchup and the verdict; exit 0 if the demo's point holds, 1 if not.")
    demo.add_argument("name", nargs="?", default=None, help="the demo to run (omit to list)")
    view = demo.add_mutually_exclusive_group()
    view.add_argument("-q", "--quiet", action="store_true",
                      help="no display: measure over --games games per matchup")
    view.add_argument("-t", "--text", action="store_true", help="text display")
    demo.add_argument("--games", type=number_in(1, MAX_GAMES, int), default=None,
                      help="games per matchup (default: 1 shown, or the demo's own number "
                           "with -q)")
    demo.add_argument("--seed", type=seed_int, default=0,
                      help="seed of game 1 of every matchup; game i uses seed+i (default 0)")
    demo.add_argument("-j", "--jobs", type=positive_int, default=None,
                      help="worker processes with -q (default: all cores); the results are "
                           "the same for any number")
    demo.add_argument("--frame-time", type=number_in(0, 60), default=0.1,
                      help="seconds per move in the window or text display (default 0.1)")
    demo.add_argument("-z", "--zoom", type=number_in(0.25, 8), default=1.0,
                      help="window scale, 0.25 to 8 (default 1.0)")
    demo.add_argument("--no-wait", action="store_true",
                      help="go on to the next game at once (default: 1 s or a key)")


def run(args: argparse.Namespace) -> int:
    """`pacman demo [NAME]`: list, show or measure a demo."""
    from pacman.demos import all_demos, find_demo

    if args.name is None:
        print(format_list(all_demos()))
        return 0
    demo = find_demo(args.name)
    if args.jobs is not None and not args.quiet:
        raise UsageError("-j/--jobs is for -q (the window plays one game at a time)")
    if args.quiet:
        return _measure(demo, args)
    return _show(demo, args)


def format_list(demos: Sequence[Demo]) -> str:
    """One line per demo: name, lecture title, summary."""
    if not demos:
        return "No demos."
    name_width = max(len(d.name) for d in demos)
    title_width = max(len(d.title) for d in demos)
    lines = [f"{d.name.ljust(name_width)}  {d.title.ljust(title_width)}  {d.summary}"
             for d in demos]
    lines.append("\nRun one with `pacman demo NAME` (window) or `pacman demo NAME -q` "
                 "(measured over many games).")
    return "\n".join(lines)


def _measure(demo: Demo, args: argparse.Namespace) -> int:
    """Play the games headless, print a table per matchup and the verdict."""
    from pacman.demos.measure import format_summary, play_demo, summaries

    games = args.games or demo.games
    show = sys.stderr.isatty()

    def progress(done: int, total: int) -> None:
        if show:
            print(f"\r{demo.name}: {done}/{total} games\033[K", end="", file=sys.stderr,
                  flush=True)

    try:
        results = play_demo(demo, games, seed=args.seed, jobs=args.jobs, on_progress=progress)
    finally:
        if show:
            print(file=sys.stderr)
    print(f"{demo.title} ({demo.name}): {demo.summary}")
    print(f"{games} game{'s' if games > 1 else ''} per matchup, seeds {_seeds(args.seed, games)}")
    for matchup, summary in summaries(demo, results):
        print()
        print(format_summary(matchup, summary))
    verdict = demo.judge(results)
    print()
    print(format_verdict(verdict))
    return 0 if verdict.holds else 1


def _seeds(seed: int, games: int) -> str:
    return str(seed) if games == 1 else f"{seed}-{seed + games - 1}"


def format_verdict(verdict: Finding) -> str:
    """`Verdict: the demo's point holds. <numbers>` (or does not hold)."""
    head = "the demo's point holds" if verdict.holds else "the demo's point does NOT hold"
    return f"Verdict: {head}. {verdict.text}"


class TitledDisplay:
    """A display that shows the demo and matchup before the agents in the status bar."""

    def __init__(self, inner: Display, title: str) -> None:
        self.inner = inner
        self.title = title

    def __getattr__(self, name: str) -> Any:  # close(), quit_requested, ... of the window
        return getattr(self.inner, name)

    def start(self, state: GameState, agents: tuple[str, ...]) -> None:
        """Start the inner display with the title before the Pacman agent."""
        shown = (f"{self.title}    {agents[0]}", *agents[1:]) if agents else (self.title,)
        self.inner.start(state, shown)

    def update(self, state: GameState, move: MoveInfo) -> None:
        """Pass the move on."""
        self.inner.update(state, move)

    def finish(self, state: GameState, record: GameRecord) -> None:
        """Pass the end on."""
        self.inner.finish(state, record)


def _show(demo: Demo, args: argparse.Namespace) -> int:
    """Play the matchups one after the other in the window (or as text), then judge them."""
    from pacman.demos.demo import play_matchup

    games = args.games or 1
    args.num_games = len(demo.matchups) * games  # several games: the end screen waits 1 s
    display = make_display(args)
    results: dict[str, list[GameRecord]] = {m.label: [] for m in demo.matchups}
    stopped = False
    print(f"{demo.title} ({demo.name}): {demo.summary}")
    try:
        for matchup in demo.matchups:
            print(f"\n== {demo.title}: {matchup.label} -- {matchup.versus()} on {matchup.layout}")
            titled = TitledDisplay(display, f"{demo.title}: {matchup.label}")
            game = 0
            while game < games and not stopped:
                seed = args.seed + game
                try:
                    record = play_matchup(matchup, seed, display=titled)
                except GameRestart:
                    continue
                fault = f" ({record.fault})" if record.fault else ""
                print(f"game {game + 1}: seed {seed}, {record.outcome.value}, score "
                      f"{record.score}, {record.pacman_moves} moves{fault}")
                game += 1
                stopped = (record.outcome is Outcome.STOPPED
                           or bool(getattr(display, "quit_requested", False)))
                if not stopped:
                    results[matchup.label].append(record)
            if stopped:
                break
    finally:
        close = getattr(display, "close", None)
        if callable(close):
            close()
    print()
    if stopped:
        print("Stopped before every matchup was played: no verdict.")
        return 1
    verdict = demo.judge(results)
    print(format_verdict(verdict))
    if games < demo.games:
        print(f"(A glimpse from {_count(games)} per matchup, not a measurement: "
              f"`pacman demo {demo.name} -q` plays {demo.games} per matchup.)")
    return 0 if verdict.holds else 1


def _count(games: int) -> str:
    return "one game" if games == 1 else f"{games} games"
