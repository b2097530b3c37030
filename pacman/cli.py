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
    _add_output_options(play)
    play.add_argument("--record", metavar="FILE.json", default=None,
                      help="save the game as a JSON replay (see `pacman replay`)")
    play.add_argument("--record-dir", metavar="DIR", default=None,
                      help="save every game as DIR/game-NNN-seed-S.json")

    commands.add_parser("layouts", help="list the shipped layouts")

    grade = commands.add_parser("grade", help="run autograder test cases (TESTCASES.md)")
    grade.add_argument("paths", nargs="+", metavar="PATH",
                       help="folders of .test/.solution files, or single .test files")
    grade.add_argument("--agents", default=None, metavar="MODULE",
                       help="module name or .py file defining MinimaxAgent, AlphaBetaAgent "
                            "and ExpectimaxAgent (default: the shipped agents)")
    grade.add_argument("-v", "--verbose", action="store_true",
                       help="print passing cases' details too")

    replay = commands.add_parser("replay", help="re-simulate a recorded game and check it")
    replay.add_argument("file", metavar="FILE.json", help="a replay saved by play --record")
    replay_view = replay.add_mutually_exclusive_group()
    replay_view.add_argument("-q", "--quiet", action="store_true", help="no display")
    replay_view.add_argument("-t", "--text", action="store_true", help="text display")
    replay.add_argument("--frame-time", type=_non_negative_float, default=0.1,
                        help="seconds per move in the window or text display (default 0.1)")
    replay.add_argument("--zoom", type=float, default=1.0, help="window scale (default 1.0)")
    _add_output_options(replay)
    _add_batch_commands(commands)

    assumptions = commands.add_parser(
        "assumptions", help="the lecture's 'Assumptions vs. Reality' table, reproduced")
    assumptions.add_argument("--games", type=_positive_int, default=5,
                             help="games per cell (default 5, as in the lecture; 100 for the "
                                  "full run)")
    assumptions.add_argument("--seed", type=int, default=0, help="batch seed (default 0)")
    assumptions.add_argument("-j", "--jobs", type=_positive_int, default=None,
                             help="worker processes (default: all cores)")
    assumptions.add_argument("-o", "--out", default="results/assumptions.db",
                             help="results file; games already there are not played again "
                                  "(default results/assumptions.db)")
    assumptions.add_argument("--max-moves", type=_positive_int, default=300,
                             help="move cap per game (default 300)")
    return parser


def _ghost_count(layout_ghosts: int, requested: int | None) -> int:
    return layout_ghosts if requested is None else min(requested, layout_ghosts)


def _add_output_options(parser: argparse.ArgumentParser) -> None:
    """The window and frame-export flags shared by `play` and `replay`."""
    parser.add_argument("--no-wait", action="store_true",
                        help="do not wait for a key at the end of a game in the window "
                             "(default: wait for a key; with -n > 1, 1 s or a key)")
    parser.add_argument("--screenshot", metavar="FILE.png", default=None,
                        help="save the last frame as a PNG (works with -q/-t too)")
    parser.add_argument("--gif", metavar="FILE.gif", default=None,
                        help="save the game as an animated GIF (needs Pillow: "
                             "pip install 'pacman-adversarial[gif]'), or as PNG frames in a "
                             "folder when the name does not end in .gif")


def _make_display(args: argparse.Namespace) -> Display:
    if args.quiet:
        return NullDisplay()
    from pacman.display.text import TextDisplay
    if args.text:
        return TextDisplay(frame_time=args.frame_time)
    try:
        from pacman.display import window
        end_wait = 0.0 if args.no_wait else (None if getattr(args, "num_games", 1) == 1
                                             else 1.0)
        return window.open_window(frame_time=args.frame_time, zoom=args.zoom,
                                  end_wait=end_wait)
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
    if args.record and args.num_games > 1:
        raise UsageError("--record saves one game; use --record-dir DIR with -n")
    display = _make_display(args)
    keyboard = args.pacman.lower() in ("keyboard", "keyboardagent")
    if keyboard and not getattr(display, "takes_keyboard", False):
        raise UsageError("the keyboard agent needs the window, which could not be opened")
    display = _with_export(display, args)
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
        _save_replays(args, record, layout, num_ghosts, game)
        if record.outcome is Outcome.STOPPED or getattr(display, "quit_requested", False):
            break
    close = getattr(display, "close", None)
    if callable(close):
        close()
    print(summary(records))
    for written in getattr(display, "written", ()):
        print(f"wrote {written}")
    if args.record_dir and records:
        print(f"recorded {len(records)} game(s) in {args.record_dir}")
    return 0


def _with_export(display: Display, args: argparse.Namespace) -> Display:
    """Wrap the display to write --screenshot/--gif (rendered off-screen, pygame needed)."""
    if not args.screenshot and not args.gif:
        return display
    from pacman.display.render import ExportError, FrameExport
    try:
        return FrameExport(display, screenshot=args.screenshot, gif=args.gif,
                           zoom=args.zoom, frame_time=args.frame_time)
    except ExportError as error:
        raise UsageError(str(error)) from None


def _save_replays(args: argparse.Namespace, record: GameRecord, layout: Any,
                  num_ghosts: int, index: int) -> None:
    if not args.record and not args.record_dir:
        return
    from pacman.replay import replay_file_name, save_replay
    if args.record:
        save_replay(args.record, record, layout, num_ghosts)
    if args.record_dir:
        save_replay(os.path.join(args.record_dir, replay_file_name(index, record.seed)),
                    record, layout, num_ghosts)


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


def command_replay(args: argparse.Namespace) -> int:
    """`pacman replay`: show a recorded game and check its outcome and score."""
    from pacman.replay import load_replay, scripted_agents, verify

    replay = load_replay(args.file)
    verdict = verify(replay)  # checks every action before anything is shown
    record = replay.record
    shown: GameRecord | None = None
    if not args.quiet or args.screenshot or args.gif:
        display = _with_export(_make_display(args), args)
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


def command_grade(args: argparse.Namespace) -> int:
    """`pacman grade`: a line per case, diagnostics on failure, `N passed, M failed`."""
    from pacman.grading import GradingError, format_case, format_summary, grade

    try:
        report = grade(args.paths, agents_module=args.agents)
    except GradingError as error:
        raise UsageError(str(error)) from None
    for result in report.results:
        print(format_case(result))
    print(format_summary(report))
    return 0 if report.ok else 1


# --- batch experiments: `pacman batch`, `pacman table`, `pacman plot` ------------------------

DEFAULT_RESULTS = "results/pacman.db"
_TABLE_COLUMNS = "agent,depth,evaluation,ghost,num_ghosts,layout"


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected a number > 0, got {text}")
    return value


def _add_batch_commands(commands: Any) -> None:
    """The `batch`, `table` and `plot` subcommands."""
    batch = commands.add_parser(
        "batch", help="play a grid of configurations x N seeds in parallel into SQLite",
        description="Play every configuration of a grid (Pacman agents x settings x ghosts x "
                    "numbers of ghosts x layouts) N times in parallel worker processes, storing "
                    "each game as it ends. Run the same command again to resume.")
    batch.add_argument("experiment", nargs="?", default=None, metavar="EXPERIMENT",
                       help="experiment file (.toml, or .json) with the grid; options given "
                            "on the command line replace its values")
    batch.add_argument("-p", "--pacman", action="append", metavar="AGENT[@SETTINGS]",
                       help="Pacman agent; repeat to compare several; settings after @ are "
                            "its own, e.g. 'alphabeta@depth=2|3,evaluation=better'")
    batch.add_argument("-a", "--agent-args", action="append", metavar="SETTINGS",
                       help="settings k=v,k=v for every -p without @; repeat to cross sets; "
                            "k=v1|v2 crosses values")
    batch.add_argument("-g", "--ghosts", action="append", metavar="AGENT[@SETTINGS]",
                       help="ghost agent; repeat to compare (default: RandomGhost)")
    batch.add_argument("--ghost-args", action="append", metavar="SETTINGS",
                       help="settings for every -g without @, as -a")
    batch.add_argument("-k", "--num-ghosts", action="append", type=_non_negative_int,
                       metavar="N", help="number of ghosts; repeat to compare (default: all "
                                         "the layout has)")
    batch.add_argument("-l", "--layout", action="append", metavar="LAYOUT",
                       help="layout name or .lay path; repeat to compare (default: "
                            "mediumClassic)")
    batch.add_argument("-n", "--games", type=_positive_int, default=None,
                       help="games (seeds) per configuration (default 10)")
    batch.add_argument("--seed", type=int, default=None,
                       help="batch seed (default 0): each game's seed is derived from it, "
                            "the configuration and the game's index")
    batch.add_argument("--max-moves", type=_positive_int, default=None,
                       help="cap on Pacman moves (outcome 'capped')")
    batch.add_argument("--move-timeout", type=_positive_float, default=None,
                       help="seconds allowed per move (outcome 'timeout')")
    batch.add_argument("--game-timeout", type=_positive_float, default=None,
                       help="seconds allowed per game: its worker is stopped and the game "
                            "recorded as 'timeout'")
    batch.add_argument("-j", "--jobs", type=_positive_int, default=None,
                       help="worker processes (default: all cores)")
    batch.add_argument("-o", "--out", default=DEFAULT_RESULTS, metavar="FILE.db",
                       help=f"results file (default {DEFAULT_RESULTS})")
    batch.add_argument("--backend", choices=("process", "dask"), default="process",
                       help="process pool on this machine (default) or a Dask cluster")
    batch.add_argument("--scheduler", default=None, metavar="ADDRESS",
                       help="Dask scheduler, e.g. tcp://host:8786 (default with --backend "
                            "dask: a local cluster of --jobs workers)")
    batch.add_argument("--dry-run", action="store_true",
                       help="list the configurations and how many games are stored, play none")

    table = commands.add_parser("table", help="win-rate table of a results file")
    table.add_argument("results", metavar="RESULTS.db", help="a file written by pacman batch")
    table.add_argument("--by", default=None, metavar="COLUMNS",
                       help=f"group by these comma-separated columns (default {_TABLE_COLUMNS});"
                            " also: settings, ghost_settings, max_moves, move_timeout, seed, "
                            "version, any Pacman setting, ghost.SETTING")
    table.add_argument("--format", choices=("markdown", "csv", "json"), default="markdown")

    plot = commands.add_parser("plot", help="win-rate and score plots (PNG) of a results file")
    plot.add_argument("results", metavar="RESULTS.db", help="a file written by pacman batch")
    plot.add_argument("-o", "--out", default=None, metavar="DIR",
                      help="folder for the PNG files (default: plots/ beside the results)")
    plot.add_argument("--by", default=None, metavar="COLUMNS",
                      help=f"group by these columns (default {_TABLE_COLUMNS})")


def _settings_grid(text: str | None) -> list[dict[str, Any]]:
    """`k=v,k=v` settings where a value `v1|v2` holds alternatives: one dict per combination."""
    import itertools

    settings = parse_settings(text)
    keys = list(settings)
    choices = [[_typed(piece.strip()) for piece in value.split("|")]
               if isinstance(value, str) and "|" in value else [value]
               for value in settings.values()]
    return [dict(zip(keys, combination)) for combination in itertools.product(*choices)]


def _agent_specs(entries: Sequence[str], shared: Sequence[str] | None) -> list[Any]:
    """`-p NAME[@SETTINGS]` entries crossed with the shared `-a` settings sets."""
    from pacman.store import AgentSpec

    texts: Sequence[str | None] = shared or [None]
    shared_sets = [grid for text in texts for grid in _settings_grid(text)]
    specs: list[AgentSpec] = []
    for entry in entries:
        name, at, inline = entry.partition("@")
        if not name.strip():
            raise UsageError(f"bad agent {entry!r}: write NAME or NAME@k=v,k=v")
        sets = _settings_grid(inline) if at else shared_sets
        specs.extend(AgentSpec.of(name.strip(), settings) for settings in sets)
    return specs


def _first(*values: Any) -> Any:
    return next((value for value in values if value is not None), None)


def command_batch(args: argparse.Namespace) -> int:
    """`pacman batch`: play a grid of configurations x N seeds into a results file."""
    import signal

    from pacman.batch import (
        BatchError,
        BatchInterrupted,
        DaskBackend,
        Experiment,
        Grid,
        format_progress,
        load_experiment,
        plan,
        run_batch,
    )
    from pacman.store import AgentSpec, StoreError

    try:
        experiment = load_experiment(args.experiment) if args.experiment else Experiment()
        if args.agent_args and not args.pacman:
            raise UsageError("-a/--agent-args applies to -p agents: give -p too")
        if args.ghost_args and not args.ghosts:
            args.ghosts = ["RandomGhost"]
        pacman = (_agent_specs(args.pacman, args.agent_args) if args.pacman
                  else list(experiment.pacman))
        if not pacman:
            raise UsageError("no Pacman agent: give -p AGENT, or an experiment file with "
                             "'pacman'")
        ghosts = (_agent_specs(args.ghosts, args.ghost_args) if args.ghosts
                  else list(experiment.ghosts) or [AgentSpec("RandomGhost")])
        if args.scheduler and args.backend != "dask":
            raise UsageError("--scheduler needs --backend dask")
        grid = Grid(pacman=pacman, ghosts=ghosts,
                    layouts=args.layout or experiment.layouts or ("mediumClassic",),
                    num_ghosts=args.num_ghosts or experiment.num_ghosts or (None,),
                    max_moves=_first(args.max_moves, experiment.max_moves),
                    move_timeout=_first(args.move_timeout, experiment.move_timeout))
        games = _first(args.games, experiment.games, 10)
        seed = _first(args.seed, experiment.seed, 0)
        game_timeout = _first(args.game_timeout, experiment.game_timeout)
        configs = plan(grid)
        if args.dry_run:
            return _dry_run(configs, games, seed, args.out)
        backend = DaskBackend(args.scheduler, args.jobs) if args.backend == "dask" else None
        show = sys.stderr.isatty()

        def progress(state: Any) -> None:
            if show:
                print(f"\r{format_progress(state)}\033[K", end="", file=sys.stderr, flush=True)

        def terminate(signum: int, frame: Any) -> None:
            raise KeyboardInterrupt  # `kill` stops the batch like Ctrl-C: finished games stay

        previous = signal.signal(signal.SIGTERM, terminate)
        try:
            result = run_batch(configs, games=games, store=args.out, seed=seed, jobs=args.jobs,
                               backend=backend, game_timeout=game_timeout,
                               on_progress=progress)
        except BatchInterrupted as stop:
            done = stop.result.already + stop.result.stored
            if show:
                print(file=sys.stderr)
                show = False
            print(f"pacman: interrupted: {done} of {stop.result.planned} games are stored in "
                  f"{args.out}; run the same command again to resume", file=sys.stderr)
            return 130
        finally:
            signal.signal(signal.SIGTERM, previous)
            if backend is not None:
                backend.shutdown()
            if show:
                print(file=sys.stderr)
    except (BatchError, StoreError) as error:
        raise UsageError(str(error)) from None
    print(f"{result.stored} games played, {result.already} already stored: "
          f"{result.already + result.stored} of {result.planned} in {result.path}"
          + (f" ({result.elapsed:.1f}s)" if result.stored else ""))
    if result.outcomes:
        print("outcomes: " + ", ".join(f"{name} {count}" for name, count in
                                       sorted(result.outcomes.items())))
    if result.retried or result.killed:
        print(f"played again after a worker died: {result.retried}; stopped by the game "
              f"time limit: {result.killed}")
    print(f"see: pacman table {result.path}")
    return 0


def _dry_run(configs: Sequence[Any], games: int, seed: int, out: str) -> int:
    from pathlib import Path

    from pacman.store import GameTask, open_results

    done: set[tuple[str, int]] = set()
    if Path(out).is_file():
        with open_results(out) as store:
            done = store.done(seed)
    total = stored = 0
    for resolved in configs:
        key = resolved.config.key()
        have = sum((key, i) in done for i in range(games))
        total, stored = total + games, stored + have
        first = GameTask.of(resolved.config, seed, 0).seed
        print(f"{resolved.config.label()}: {have}/{games} stored (game 0 seed {first})")
    print(f"{len(configs)} configurations x {games} games = {total} games; {stored} stored in "
          f"{out}, {total - stored} to play")
    return 0


def _columns(text: str | None) -> tuple[list[str], bool]:
    """The --by columns, and whether they were given (else the default, shown compactly)."""
    if text is None:
        return _TABLE_COLUMNS.split(","), False
    columns = [c.strip() for c in text.split(",") if c.strip()]
    if not columns:
        raise UsageError("--by needs at least one column")
    return columns, True


def command_table(args: argparse.Namespace) -> int:
    """`pacman table`: win rates and averages with 95% intervals, grouped by columns."""
    from pacman.store import StoreError, open_results
    from pacman.table import TableError, constant_columns, summarize

    by, given = _columns(args.by)
    try:
        with open_results(args.results) as store:
            games = store.games()
        rows = summarize(games, by)
    except (StoreError, TableError) as error:
        raise UsageError(str(error)) from None
    if not rows:
        print(f"No games in {args.results}.", file=sys.stderr)
        return 0
    if args.format == "json":
        import json

        print(json.dumps([_row_dict(row) for row in rows], indent=2))
    elif args.format == "csv":
        import csv

        writer = csv.writer(sys.stdout, lineterminator="\n")
        fields = list(_row_dict(rows[0]))
        writer.writerow(fields)
        for row in rows:
            writer.writerow(["" if v is None else v for v in _row_dict(row).values()])
    else:
        hidden = set() if given else set(constant_columns(rows))
        print(_markdown(rows, hidden))
    return 0


def _row_dict(row: Any) -> dict[str, Any]:
    import dataclasses

    data = dict(row.group)
    data.update({k: v for k, v in dataclasses.asdict(row).items() if k != "group"})
    return data


def _markdown(rows: Sequence[Any], hidden: set[str]) -> str:
    def number(value: float | None, digits: int = 1) -> str:
        return "–" if value is None else f"{value:,.{digits}f}"

    def interval(low: float | None, high: float | None, digits: int = 1) -> str:
        return "" if low is None or high is None else (
            f" [{number(low, digits)}, {number(high, digits)}]")

    shown = [column for column, _ in rows[0].group if column not in hidden]
    header = [*shown, "games", "wins", "win rate [95% CI]", "avg score [95% CI]", "avg moves",
              "ms/move", "nodes/move", "faults"]
    lines = []
    if hidden:
        lines.append("All games: " + ", ".join(f"{column} {value}" for column, value
                                                in rows[0].group if column in hidden) + "\n")
    lines.append("| " + " | ".join(header) + " |")
    lines.append("|" + "|".join("---" if i < len(shown) else "---:"
                                for i in range(len(header))) + "|")
    for row in rows:
        values = ["–" if value is None else str(value) for column, value in row.group
                  if column not in hidden]
        faults = ", ".join(f"{n} {name}" for name, n in (("crash", row.crashes),
                           ("timeout", row.timeouts), ("capped", row.capped)) if n) or "–"
        values += [str(row.games), str(row.wins),
                   f"{row.win_rate:.2f}{interval(row.win_low, row.win_high, 2)}",
                   number(row.score_mean) + interval(row.score_low, row.score_high),
                   number(row.moves_mean),
                   number(None if row.seconds_per_move is None else 1000 * row.seconds_per_move,
                          2),
                   number(row.nodes_per_move, 0), faults]
        lines.append("| " + " | ".join(values) + " |")
    lines.append("\nIntervals: Wilson score (win rate), Student t (average score); 95%.")
    return "\n".join(lines)


def command_plot(args: argparse.Namespace) -> int:
    """`pacman plot`: win rate with 95% intervals and score distributions, as PNG files."""
    from pathlib import Path

    from pacman.plot import PlotError, plot_results
    from pacman.store import StoreError, open_results
    from pacman.table import TableError

    by, _ = _columns(args.by)
    out = Path(args.out) if args.out else Path(args.results).parent / "plots"
    try:
        with open_results(args.results) as store:
            games = store.games()
        written = plot_results(games, out, by)
    except (StoreError, TableError, PlotError) as error:
        raise UsageError(str(error)) from None
    for path in written:
        print(f"wrote {path}")
    return 0


def command_assumptions(args: argparse.Namespace) -> int:
    """`pacman assumptions`: play (or resume) the headline experiment and print its table."""
    from pacman import experiments
    from pacman.batch import BatchError, BatchInterrupted, format_progress
    from pacman.store import StoreError

    show = sys.stderr.isatty()

    def progress(state: Any) -> None:
        if show:
            print(f"\r{format_progress(state)}\033[K", end="", file=sys.stderr, flush=True)

    try:
        cells, result = experiments.run(args.games, store=args.out, seed=args.seed,
                                         jobs=args.jobs, max_moves=args.max_moves,
                                         on_progress=progress)
    except BatchInterrupted as stop:
        done = stop.result.already + stop.result.stored
        print(f"\npacman: interrupted: {done} of {stop.result.planned} games are stored in "
              f"{args.out}; run the same command again to resume", file=sys.stderr)
        return 130
    except (BatchError, StoreError) as error:
        raise UsageError(str(error)) from None
    finally:
        if show:
            print(file=sys.stderr)
    print(experiments.format_table(cells))
    print()
    print(f"{result.stored} games played now, {result.already} were already in {result.path}"
          + (f" ({result.elapsed:.1f}s)" if result.stored else "") + ".")
    failures = experiments.pattern_failures(cells)
    if failures:
        print("The lecture's pattern does not hold here: " + "; ".join(failures) + ".")
    else:
        print("The lecture's pattern holds: Minimax wins against both ghosts; Expectimax "
              "wins against the random ghost, and faster, but loses to the adversarial one.")
    return 0


COMMANDS = {
    "play": command_play, "layouts": command_layouts, "grade": command_grade,
    "replay": command_replay, "batch": command_batch, "table": command_table,
    "plot": command_plot, "assumptions": command_assumptions,
}


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `pacman` console script."""
    from agents.registry import RegistryError
    from pacman.replay import ReplayError

    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if args.command is None:
            parser.print_help()
            return 2
        return COMMANDS[args.command](args)
    except (UsageError, LayoutError, RegistryError, ReplayError) as error:
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
