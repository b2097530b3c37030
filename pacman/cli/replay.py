"""`pacman replay`: show a recorded game and check every field of the file against the rules.

`--html FILE.html` also writes the game as one self-contained page (`pacman.web.replay_page`,
docs/replay-viewer.md), before any window opens; with `-q` nothing else is shown.

Everything printed that comes from the file (the layout's and agents' names, unknown keys, the
package version) goes through `printable`: a replay cannot send escape sequences to the
terminal.

Exit codes: 0 the file adds up (fields a replay without a digest cannot prove are listed as
"not verified"; `--strict` makes them count as failure), 1 a readable file that does not add
up (every difference is listed), 2 a file that cannot be read as a replay (one line).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from pacman.cli.options import (
    add_output_options,
    check_output_paths,
    make_display,
    non_negative_float,
    number_in,
    with_export,
)
from pacman.display.protocol import GameRestart
from pacman.errors import UsageError
from pacman.record import GameRecord, Outcome

if TYPE_CHECKING:
    from pacman.cli.options import Commands
    from pacman.replay import Replay, Verdict


def add_parser(commands: Commands) -> None:
    """The `replay` subcommand."""
    replay = commands.add_parser(
        "replay", help="re-simulate a recorded game and check it",
        description="Re-simulate a recorded game and check every field of the file: the "
                    "actions, score, moves and outcome against the rules, and the rest against "
                    "the file's digest. Think times and the package version are informational. "
                    "Exit 0: it adds up; 1: it does not (each difference is listed); 2: not "
                    "a readable replay. --html FILE.html also writes the game as one "
                    "self-contained HTML page to play in any browser (no server needed).")
    replay.add_argument("file", metavar="FILE.json", help="a replay saved by play --record")
    replay_view = replay.add_mutually_exclusive_group()
    replay_view.add_argument("-q", "--quiet", action="store_true", help="no display")
    replay_view.add_argument("-t", "--text", action="store_true", help="text display")
    replay.add_argument("--frame-time", type=non_negative_float, default=0.1,
                        help="seconds per move in the window or text display (default 0.1)")
    replay.add_argument("--zoom", type=number_in(0.25, 8), default=1.0,
                        help="window scale, 0.25 to 8 (default 1.0)")
    replay.add_argument("--strict", action="store_true",
                        help="fail (exit 1) when a field cannot be verified, e.g. a replay "
                             "without a digest")
    replay.add_argument("--html", metavar="FILE.html", default=None,
                        help="also write the game as one self-contained HTML page: the maze, "
                             "play/pause, a scrub bar, the score and each Pacman search "
                             "(docs/replay-viewer.md); combine with -q for no window")
    add_output_options(replay)


def run(args: argparse.Namespace) -> int:
    """`pacman replay`: show a recorded game and check the file field by field."""
    from pacman.replay import load_replay, verify

    check_output_paths(args)  # --html, --gif, --screenshot: each writable, or one line
    html_path: str | None = args.html
    replay = load_replay(args.file)
    verdict = verify(replay)  # checks every action before anything is shown
    record = replay.record
    if html_path is not None:
        _write_html(replay, verdict, html_path)
    shown: GameRecord | None = None
    wants_view = not args.quiet or args.screenshot or args.gif
    if wants_view and verdict.complete:
        shown = _show(replay, args)
    elif wants_view:
        print("not shown: the recorded actions cannot be played (see below)")
    if shown is not None and shown.outcome is Outcome.STOPPED and verdict.outcome \
            is not Outcome.STOPPED:
        print(f"replay stopped after {shown.pacman_moves} of {verdict.pacman_moves} "
              f"move{'' if verdict.pacman_moves == 1 else 's'}")
    print(printable(f"{replay.layout.name}, seed {record.seed}: {' vs '.join(record.agents)}"))
    if verdict.complete:
        print(f"replayed: {verdict.outcome.value}, score {verdict.state.score} after "
              f"{verdict.pacman_moves} Pacman moves")
    else:
        print(f"replayed: action {verdict.played + 1} cannot be played; score "
              f"{verdict.state.score} after {verdict.pacman_moves} Pacman moves up to there")
    for line in report(replay, verdict):
        print(printable(line))
    if not verdict.matches:
        return 1
    return 1 if args.strict and verdict.unverified else 0


def _write_html(replay: Replay, verdict: Verdict, path: str) -> None:
    """Write the page (the playable prefix when the actions cannot all be played)."""
    from pacman.errors import PageError
    from pacman.web.replay_page import write_replay_page

    try:
        written = write_replay_page(replay, path, verdict)
    except PageError as error:
        raise UsageError(f"--html: {error}") from None
    if verdict.complete:
        print(f"wrote {written}")
    else:
        print(f"wrote {written} (the {verdict.played} playable actions only)")


def _show(replay: Replay, args: argparse.Namespace) -> GameRecord | None:
    from dataclasses import replace

    from pacman.game import run_game
    from pacman.replay import scripted_agents

    # the text display prints the agents' names: shown as printable text
    record = replace(replay.record, agents=tuple(printable(a) for a in replay.record.agents))
    replay = replace(replay, record=record)
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
    failure = getattr(display, "failure", None)  # a --gif/--screenshot not written: exit 2
    if failure is not None:
        raise failure
    return shown


def printable(text: str) -> str:
    """`text` safe to print on a terminal: each character that is not printable (an escape
    sequence's ESC, other control and format characters, a line break) written as its Python
    escape, e.g. `\\x1b`; letters of any script are kept."""
    if text.isprintable():
        return text
    return "".join(char if char.isprintable() else repr(char)[1:-1] for char in text)


def report(replay: Replay, verdict: Verdict) -> list[str]:
    """The lines saying what was checked how, what was not, and every difference."""
    from pacman.replay import DIGEST_FIELDS, INFORMATIONAL_FIELDS, SIMULATED_FIELDS

    lines = [f"checked by re-simulation: {', '.join(SIMULATED_FIELDS)}"]
    if verdict.digest == "verified":
        lines.append(f"checked by the digest: {', '.join(DIGEST_FIELDS)}")
    else:
        lines.append("no digest to check: the file has none (written before digests, or "
                     "removed)" if verdict.digest == "absent" else
                     "the digest could not be used (see below)")
    if verdict.shipped_layout is not None:
        lines.append(f"checked against the shipped layout {verdict.shipped_layout}: layout, "
                     "layout_text")
    informational = ", ".join(
        f"{name} {replay.package_version}" if name == "package_version"
        and replay.package_version else name for name in INFORMATIONAL_FIELDS)
    lines.append(f"informational, only their types and lengths checked: {informational}")
    if replay.ignored:
        lines.append(f"not read (unknown to this version): {', '.join(replay.ignored)}")
    if verdict.unverified:
        lines.append(f"not verified ({len(verdict.unverified)}):")
        lines += [f"  {name}: {why}" for name, why in verdict.unverified.items()]
    if verdict.matches:
        if verdict.unverified:
            lines.append("OK: the replay matches its record as far as it can be checked "
                         f"({len(verdict.unverified)} field(s) not verified, listed above)")
        else:
            lines.append("OK: the replay matches its record: every field verified")
        return lines
    # readable, but the file does not add up: exit code 1
    count = len(verdict.differences)
    lines.append(f"MISMATCH: the replay does not match the record ({count} "
                 f"difference{'s' if count > 1 else ''}):")
    lines += [f"  {difference}" for difference in verdict.differences]
    return lines
