"""`pacman replay`: show a recorded game and check it against the rules."""

from __future__ import annotations

import argparse
from typing import Any

from pacman.cli.options import add_output_options, make_display, non_negative_float, with_export
from pacman.display.base import GameRestart
from pacman.game import run_game
from pacman.record import GameRecord, Outcome


def add_parser(commands: Any) -> None:
    """The `replay` subcommand."""
    replay = commands.add_parser("replay", help="re-simulate a recorded game and check it")
    replay.add_argument("file", metavar="FILE.json", help="a replay saved by play --record")
    replay_view = replay.add_mutually_exclusive_group()
    replay_view.add_argument("-q", "--quiet", action="store_true", help="no display")
    replay_view.add_argument("-t", "--text", action="store_true", help="text display")
    replay.add_argument("--frame-time", type=non_negative_float, default=0.1,
                        help="seconds per move in the window or text display (default 0.1)")
    replay.add_argument("--zoom", type=float, default=1.0, help="window scale (default 1.0)")
    add_output_options(replay)


def run(args: argparse.Namespace) -> int:
    """`pacman replay`: show a recorded game and check its outcome and score."""
    from pacman.replay import load_replay, scripted_agents, verify

    replay = load_replay(args.file)
    verdict = verify(replay)  # checks every action before anything is shown
    record = replay.record
    shown: GameRecord | None = None
    if not args.quiet or args.screenshot or args.gif:
        display = with_export(make_display(args), args)
        capped = record.pacman_moves if record.outcome is Outcome.CAPPED else None
        while True:
            agents = scripted_agents(replay)
            try:
                shown = run_game(replay.layout, agents[0], agents[1:], seed=record.seed,
                                 max_moves=capped, display=display)
            except GameRestart:
                continue
            break
        close = getattr(display, "close", None)
        if callable(close):
            close()
        for written in getattr(display, "written", ()):
            print(f"wrote {written}")
    if shown is not None and shown.outcome is Outcome.STOPPED and verdict.outcome \
            is not Outcome.STOPPED:
        print(f"replay stopped after {shown.pacman_moves} of {verdict.pacman_moves} moves")
    print(f"{replay.layout.name}, seed {record.seed}: {' vs '.join(record.agents)}")
    print(f"replayed: {verdict.outcome.value}, score {verdict.state.score} after "
          f"{verdict.pacman_moves} Pacman moves")
    if verdict.matches:
        print("OK: the replay matches the recorded outcome and score")
        return 0
    # readable and legal, but the actions do not lead where the file says: exit code 1
    print("MISMATCH: the replay does not match the record: " + "; ".join(verdict.differences))
    return 1
