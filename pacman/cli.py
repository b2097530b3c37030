"""The `pacman` command: the only place that reads argv and prints."""

from __future__ import annotations

import argparse
import os
import secrets
import sys
from collections.abc import Sequence
from typing import Any

from pacman.display.base import Display, GameRestart, NullDisplay
from pacman.game import run_game
from pacman.layout import LayoutError, load_layout, shipped_layouts
from pacman.record import GameRecord, Outcome


class UsageError(ValueError):
    """A user mistake on the command line: one line on stderr, exit code 2."""


def parse_settings(text: str | None) -> dict[str, Any]:
    """Parse `k=v,k=v` into typed values (int, float, bool, None, else str).

    A comma-separated piece without `=` continues the previous value, so weighted
    evaluations read naturally: `depth=3,evaluation=score:1,food:-1.5`.
    """
    settings: dict[str, Any] = {}
    if not text:
        return settings
    last: str | None = None
    raw: dict[str, str] = {}
    for piece in text.split(","):
        key, sep, value = piece.partition("=")
        if sep:
            key = key.strip()
            if not key.isidentifier():
                raise UsageError(f"bad agent setting {piece!r}: the name must be an identifier")
            if key in raw:
                raise UsageError(f"agent setting {key!r} given twice")
            raw[key] = value.strip()
            last = key
        elif last is not None and piece.strip():
            raw[last] += "," + piece.strip()
        else:
            raise UsageError(f"bad agent setting {piece!r}: write name=value, e.g. depth=3")
    for key, value in raw.items():
        settings[key] = _typed(value)
    return settings


def _typed(value: str) -> Any:
    lowered = value.lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    if lowered == "none":
        return None
    for kind in (int, float):
        try:
            return kind(value)
        except ValueError:
            pass
    return value


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number >= 1, got {value}")
    return value


def _non_negative_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a number >= 0, got {value}")
    return value


def _non_negative_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a number >= 0, got {value}")
    return value


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # one line, exit code 2, no usage dump
        raise UsageError(message)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand."""
    parser = _Parser(prog="pacman", description="The classic Pacman multi-agent environment.")
    commands = parser.add_subparsers(dest="command", parser_class=_Parser)

    play = commands.add_parser("play", help="play games (window, text or headless)")
    play.add_argument("-l", "--layout", default="mediumClassic",
                      help="layout name or .lay path (default: mediumClassic)")
    play.add_argument("-p", "--pacman", default="keyboard",
                      help="Pacman agent: class name, short name or module:Class "
                           "(default: keyboard)")
    play.add_argument("-g", "--ghosts", default="RandomGhost",
                      help="ghost agent (default: RandomGhost)")
    play.add_argument("-k", "--num-ghosts", type=_non_negative_int, default=None,
                      help="number of ghosts (default: all the layout has)")
    play.add_argument("-n", "--num-games", type=_positive_int, default=1)
    play.add_argument("-a", "--agent-args", default=None,
                      help="Pacman settings k=v,k=v, e.g. depth=3,evaluation=better")
    play.add_argument("--ghost-args", default=None, help="ghost settings k=v,k=v")
    view = play.add_mutually_exclusive_group()
    view.add_argument("-q", "--quiet", action="store_true", help="no display")
    view.add_argument("-t", "--text", action="store_true", help="text display")
    play.add_argument("-f", "--fix-seed", action="store_true",
                      help="the same seed (0) for every game")
    play.add_argument("--seed", type=int, default=None,
                      help="seed of the first game; game i uses seed+i (default: random)")
    play.add_argument("--max-moves", type=_positive_int, default=None,
                      help="cap on Pacman moves; a capped game is recorded as 'capped'")
    play.add_argument("--timeout", type=_non_negative_float, default=None,
                      help="seconds allowed per move (outcome 'timeout' when exceeded)")
    play.add_argument("--frame-time", type=_non_negative_float, default=0.1,
                      help="seconds per move in the window or text display (default 0.1)")
    play.add_argument("--zoom", type=float, default=1.0, help="window scale (default 1.0)")

    commands.add_parser("layouts", help="list the shipped layouts")
    return parser


def _ghost_count(layout_ghosts: int, requested: int | None) -> int:
    return layout_ghosts if requested is None else min(requested, layout_ghosts)


def _make_display(args: argparse.Namespace) -> Display:
    if args.quiet:
        return NullDisplay()
    from pacman.display.text import TextDisplay
    if args.text:
        return TextDisplay(frame_time=args.frame_time)
    try:
        from pacman.display import window  # type: ignore[attr-defined]
        return window.open_window(frame_time=args.frame_time, zoom=args.zoom)  # type: ignore[no-any-return]
    except Exception as error:
        print(f"pacman: no window ({error}); using the text display", file=sys.stderr)
        return TextDisplay(frame_time=args.frame_time)


def command_play(args: argparse.Namespace) -> int:
    """`pacman play`: run games and print the CS188 summary."""
    from agents.registry import make_agent

    layout = load_layout(args.layout)
    pacman_settings = parse_settings(args.agent_args)
    ghost_settings = parse_settings(args.ghost_args)
    if args.pacman.lower() in ("keyboard", "keyboardagent") and (args.quiet or args.text):
        raise UsageError("the keyboard agent needs the window: drop -q/-t")
    num_ghosts = _ghost_count(len(layout.ghost_starts), args.num_ghosts)
    base_seed = 0 if args.fix_seed else args.seed
    if base_seed is None:
        base_seed = secrets.randbelow(2**31)
    display = _make_display(args)
    records: list[GameRecord] = []
    game = 0
    while game < args.num_games:
        seed = base_seed if args.fix_seed else base_seed + game
        pacman = make_agent(args.pacman, "pacman", pacman_settings, index=0)
        ghosts = [make_agent(args.ghosts, "ghost", ghost_settings, index=i + 1)
                  for i in range(num_ghosts)]
        if hasattr(pacman, "attach") and not isinstance(display, NullDisplay):
            pacman.attach(display)
        try:
            record = run_game(layout, pacman, ghosts, seed=seed, max_moves=args.max_moves,
                              move_time_limit=args.timeout, display=display)
        except GameRestart:
            continue
        records.append(record)
        if args.num_games > 1 or args.quiet:
            print(f"game {game + 1}: seed {seed}, {record.outcome.value}, score {record.score}, "
                  f"{record.pacman_moves} moves" + (f" ({record.fault})" if record.fault
                                                    else ""))
        game += 1
        if record.outcome is Outcome.STOPPED:
            break
    close = getattr(display, "close", None)
    if callable(close):
        close()
    print(summary(records))
    return 0


def summary(records: Sequence[GameRecord]) -> str:
    """The familiar CS188 summary lines, plus the outcome counts."""
    if not records:
        return "No games played."
    scores = [r.score for r in records]
    wins = sum(r.won for r in records)
    counts = {o.value: sum(r.outcome is o for r in records) for o in Outcome}
    lines = [
        f"Average Score: {sum(scores) / len(scores)}",
        f"Scores:        {', '.join(f'{float(s)}' for s in scores)}",
        f"Win Rate:      {wins}/{len(records)} ({wins / len(records):.2f})",
        f"Record:        {', '.join('Win' if r.won else 'Loss' if r.outcome is Outcome.LOSS else r.outcome.value.capitalize() for r in records)}",  # noqa: E501
        "Outcomes:      " + ", ".join(f"{name} {n}" for name, n in counts.items() if n),
    ]
    return "\n".join(lines)


def command_layouts(args: argparse.Namespace) -> int:
    """`pacman layouts`: the shipped layouts with size, food, capsules and ghosts."""
    rows = [("layout", "size", "food", "capsules", "ghosts")]
    for name in shipped_layouts():
        layout = load_layout(name)
        rows.append((name, f"{layout.width}x{layout.height}", str(len(layout.food)),
                     str(len(layout.capsules)), str(len(layout.ghost_starts))))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        print("  ".join(cell.ljust(w) if i == 0 else cell.rjust(w)
                        for i, (cell, w) in enumerate(zip(row, widths))))
    return 0


COMMANDS = {"play": command_play, "layouts": command_layouts}


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `pacman` console script."""
    from agents.registry import RegistryError

    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if args.command is None:
            parser.print_help()
            return 2
        return COMMANDS[args.command](args)
    except (UsageError, LayoutError, RegistryError) as error:
        print(f"pacman: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("pacman: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
