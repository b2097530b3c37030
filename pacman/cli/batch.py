"""`pacman batch`: a grid of configurations x N seeds, played in parallel into a results file."""

from __future__ import annotations

import argparse
import itertools
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypeVar, overload

from pacman.cli.options import (
    DEFAULT_MAX_MOVES,
    add_isolation_option,
    non_negative_float,
    non_negative_int,
    parse_settings,
    seconds,
    split_agent,
    typed,
)
from pacman.cli.progress import LOG_EVERY, BatchProgress
from pacman.errors import UsageError

if TYPE_CHECKING:
    from types import FrameType

    from pacman.cli.options import Commands
    from pacman.experiments.config import GameConfig
    from pacman.experiments.grid import Experiment, ResolvedConfig
    from pacman.experiments.runner import BatchInterrupted, BatchResult
    from pacman.specs import AgentSpec, Setting

T = TypeVar("T")

DEFAULT_RESULTS = "results/pacman.db"


def add_parser(commands: Commands) -> None:
    """The `batch` subcommand."""
    batch = commands.add_parser(
        "batch", help="play a grid of configurations x N seeds in parallel into SQLite",
        description="Play every configuration of a grid (Pacman agents x settings x ghosts x "
                    "numbers of ghosts x layouts) N times in parallel worker processes, storing "
                    "each game as it ends. Run the same command again to resume. Two batches "
                    "on one results file at the same time share the work: each game is "
                    "claimed in the file before it is played, so none is played twice, and a "
                    "batch that is done waits for the games the other still plays (or plays "
                    "them itself if the other dies). A file that is not a pacman results file "
                    "is refused and left as it is.")
    batch.add_argument("experiment", nargs="?", default=None, metavar="EXPERIMENT",
                       help="experiment file (.toml, or .json) with the grid; options given "
                            "on the command line replace its values")
    batch.add_argument("-p", "--pacman", action="append", metavar="AGENT[@SETTINGS]",
                       help="Pacman agent; repeat to compare several; settings after @ are "
                            "its own, e.g. 'alphabeta@depth=2|3,evaluation=better'")
    batch.add_argument("--agents", metavar="FILE.py", default=None,
                       help="a file of agent classes (a CS188 multiAgents.py works unmodified):"
                            " -p/-g may then name its classes")
    batch.add_argument("-a", "--agent-args", action="append", metavar="SETTINGS",
                       help="settings k=v,k=v for every -p without @; repeat to cross sets; "
                            "k=v1|v2 crosses values")
    batch.add_argument("-g", "--ghosts", action="append", metavar="AGENT[@SETTINGS]",
                       help="ghost agent; repeat to compare (default: RandomGhost)")
    batch.add_argument("--ghost-args", action="append", metavar="SETTINGS",
                       help="settings for every -g without @, as -a (every ghost of a "
                            "configuration alike: the N:k=v form of pacman play, one ghost "
                            "by index, is refused here)")
    batch.add_argument("-k", "--num-ghosts", action="append", type=non_negative_int,
                       metavar="N", help="number of ghosts; repeat to compare (default, and "
                                         "at most: all the layout has, as in pacman play)")
    batch.add_argument("-l", "--layout", action="append", metavar="LAYOUT",
                       help="layout name or .lay path; repeat to compare (default: "
                            "mediumClassic)")
    batch.add_argument("-n", "--games", type=_whole("games"), default=None,
                       help="games (seeds) per configuration (default 10; a batch plays at "
                            "most a million)")
    batch.add_argument("--seed", type=_whole("seed"), default=None,
                       help="batch seed (default 0, any 64-bit integer): each game's seed is "
                            "derived from it, the configuration and the game's index")
    add_isolation_option(batch)
    batch.add_argument("--max-moves", type=_whole("max_moves"), default=None,
                       help="cap on Pacman moves, outcome 'capped' (default "
                            f"{DEFAULT_MAX_MOVES}; 0 lifts the cap)")
    batch.add_argument("--move-timeout", dest="move_time_limit", type=seconds, default=None,
                       help="seconds allowed per move (outcome 'timeout')")
    batch.add_argument("--game-timeout", dest="game_time_limit", type=seconds, default=None,
                       help="seconds allowed per game: the game is stopped and recorded as "
                            "'timeout' (on Dask, by its worker, which plays it in a child "
                            "process)")
    batch.add_argument("-j", "--jobs", type=_whole("jobs"), default=None,
                       help="worker processes (default: all cores); with --backend dask, the "
                            "workers of its local cluster (an error with a scheduler)")
    batch.add_argument("-o", "--out", default=DEFAULT_RESULTS, metavar="FILE.db",
                       help=f"results file (default {DEFAULT_RESULTS})")
    batch.add_argument("--backend", choices=("process", "dask"), default="process",
                       help="process pool on this machine (default) or a Dask cluster")
    batch.add_argument("--scheduler", default=None, metavar="ADDRESS",
                       help="Dask scheduler, e.g. tcp://host:8786 (default with --backend "
                            "dask: $DASK_SCHEDULER_ADDRESS, else a local cluster of --jobs "
                            "workers on 127.0.0.1)")
    batch.add_argument("--worker-wait", type=seconds, default=None, metavar="SECONDS",
                       help="with --backend dask, stop the batch (exit 2, the stored games "
                            "kept) when no usable worker has been there for this long "
                            "(default 60)")
    batch.add_argument("--progress-every", type=non_negative_float, default=LOG_EVERY,
                       metavar="SECONDS",
                       help="when stderr is not a terminal (a log), print a progress line this "
                            f"often (default {LOG_EVERY:g}; 0: never); a terminal gets a bar")
    batch.add_argument("--dry-run", action="store_true",
                       help="list the configurations and how many games are stored, play none")


def _limits() -> dict[str, tuple[int, int]]:
    """The range of each whole-number option (imported only when a batch is parsed)."""
    from pacman.experiments.backends import MAX_JOBS
    from pacman.experiments.runner import MAX_GAMES
    from pacman.experiments.store import INTEGER_MAX, INTEGER_MIN

    return {"games": (1, MAX_GAMES), "seed": (INTEGER_MIN, INTEGER_MAX),
            "max_moves": (0, INTEGER_MAX), "jobs": (1, MAX_JOBS)}


def _whole(option: str) -> Callable[[str], int]:
    """An argparse type: a whole number in the range `_limits` gives for `option`."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {_cut(text)}"
                                             ) from None
        low, high = _limits()[option]
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"expected a whole number from {low} to {high}, "
                                             f"got {_cut(text)}")
        return value
    return parse


def interrupted(stop: BatchInterrupted, out: str) -> int:
    """What a batch stopped by Ctrl-C prints (one line: what is stored, how to resume), and
    its exit code 130; `stop` is the `BatchInterrupted`."""
    done = stop.result.already + stop.result.stored + stop.result.others
    print(f"pacman: interrupted: {done} of {stop.result.planned} games are stored in {out}; "
          "run the same command again to resume", file=sys.stderr)
    return 130


def resumable(run: Callable[[argparse.Namespace], int], args: argparse.Namespace) -> int:
    """`run(args)`, a command that plays batches into `args.out`: Ctrl-C stops it as one line
    (`interrupted`, exit 130) and the games stored stay for the next run."""
    from pacman.experiments import BatchInterrupted

    try:
        return run(args)
    except BatchInterrupted as stop:
        return interrupted(stop, args.out)


def _cut(text: str) -> str:
    """A value as typed, cut short enough for a one-line error."""
    return repr(text) if len(text) <= 40 else repr(text[:37] + "...")


def _settings_grid(text: str | None) -> list[dict[str, Setting]]:
    """`k=v,k=v` settings where a value `v1|v2` holds alternatives: one dict per combination."""
    settings = parse_settings(text)
    keys = list(settings)
    choices = [[typed(piece.strip()) for piece in value.split("|")]
               if isinstance(value, str) and "|" in value else [value]
               for value in settings.values()]
    return [dict(zip(keys, combination)) for combination in itertools.product(*choices)]


def _resolve_limited(name: str, role: str, agents_file: str | None,
                     game_time_limit: float | None) -> str:
    """`resolve_name`; an `--agents FILE` is imported here, in the batch's own process, so
    within the load limit (`load_limit`; soft, as `play --agents`)."""
    from pacman.agents.registry import resolve_name

    if not agents_file:
        return resolve_name(name, role, agents_file)
    from pacman.hosting.local import loading
    from pacman.limits import load_limit

    with loading(agents_file, load_limit(game_time_limit)):
        return resolve_name(name, role, agents_file)


def _agent_specs(entries: Sequence[str], shared: Sequence[str] | None, role: str,
                 agents_file: str | None, game_time_limit: float | None = None
                 ) -> list[AgentSpec]:
    """`-p NAME[@SETTINGS]` entries crossed with the shared `-a` settings sets; with an agents
    file, a plain name of one of its classes names that class."""
    from pacman.specs import AgentSpec

    texts: Sequence[str | None] = shared or [None]
    shared_sets = [grid for text in texts for grid in _settings_grid(text)]
    specs: list[AgentSpec] = []
    for entry in entries:
        name, inline = split_agent(entry)
        sets = _settings_grid(inline) if inline is not None else shared_sets
        resolved = _resolve_limited(name, role, agents_file, game_time_limit)
        specs.extend(AgentSpec.of(resolved, settings) for settings in sets)
    return specs


def _refuse_ghost_index(texts: Sequence[str] | None) -> None:
    """UsageError for a `--ghost-args N:k=v` (one ghost by index, as `pacman play` takes it):
    a batch configuration, the key of its games in the results file, has one ghost agent
    with one set of settings for all its ghosts."""
    from pacman.cli.ghost_args import has_index

    indexed = has_index(texts)
    if indexed is not None:
        raise UsageError(f"--ghost-args {_cut(indexed)}: a batch configuration gives all its "
                         "ghosts the same settings, so one ghost's settings by index (N:) are "
                         "for pacman play only; write k=v,k=v for every ghost")


def _check_experiment(experiment: Experiment, path: str) -> None:
    """UsageError, naming the file, for a number of an experiment file out of range."""
    for option, value in (("games", experiment.games), ("seed", experiment.seed),
                          ("max_moves", experiment.max_moves)):
        low, high = _limits()[option]
        if value is not None and not low <= value <= high:
            raise UsageError(f"{path}: {option} must be a whole number from {low} to {high}, "
                             f"got {_cut(str(value))}")


def _clamp_ghosts(configs: Sequence[GameConfig]) -> list[GameConfig]:
    """The configurations with no more ghosts than their layout has, as `pacman play` does."""
    import dataclasses

    from pacman.layout import Layout, ghosts_in_play, load_layout

    layouts: dict[str, Layout] = {}
    clamped = []
    for config in configs:
        if config.num_ghosts is not None:
            if config.layout not in layouts:
                layouts[config.layout] = load_layout(config.layout)
            count = ghosts_in_play(layouts[config.layout], config.num_ghosts, clamp=True)
            config = dataclasses.replace(config, num_ghosts=count)
        clamped.append(config)
    return clamped


def _check_size(configs: Sequence[GameConfig], games: int) -> None:
    """UsageError if the grid, as written, holds more games than one batch plays: counted
    (configurations as given, exact repeats once, times games) before anything is resolved
    or listed, so a grid of millions is refused at once."""
    from pacman.experiments.runner import MAX_GAMES

    count = len({config.key() for config in configs})
    if count * games > MAX_GAMES:
        raise UsageError(f"{count} configurations x {games} games = {count * games:,} games, "
                         f"more than one batch plays ({MAX_GAMES:,}): split it")


@overload
def _first(first: T | None, second: T | None, default: T, /) -> T: ...


@overload
def _first(*values: T | None) -> T | None: ...


def _first(*values: T | None) -> T | None:
    """The first of `values` that is not None (None if all are): an option, else its default."""
    return next((value for value in values if value is not None), None)


def run(args: argparse.Namespace) -> int:
    """`pacman batch`: play a grid of configurations x N seeds into a results file."""
    import signal

    def terminate(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt  # `kill` stops the batch like Ctrl-C: finished games stay

    # from the start, not only once the games begin: a `kill` while a Dask cluster starts is
    # a Ctrl-C too (one line, exit 130), never the process killed with its workers left
    previous = signal.signal(signal.SIGTERM, terminate)
    try:
        return _run(args)
    finally:
        signal.signal(signal.SIGTERM, previous)


def _run(args: argparse.Namespace) -> int:
    """`run` with SIGTERM taken as Ctrl-C."""
    from pacman.experiments import (
        BatchInterrupted,
        DaskBackend,
        Grid,
        resolve_configs,
        run_batch,
    )
    from pacman.experiments.cluster import DEFAULT_WORKER_WAIT
    from pacman.limits import load_limit
    from pacman.specs import AgentSpec

    experiment = _experiment(args.experiment)
    if args.agent_args and not args.pacman:
        raise UsageError("-a/--agent-args applies to -p agents: give -p too")
    _refuse_ghost_index(args.ghost_args)
    if args.ghost_args and not args.ghosts:
        args.ghosts = ["RandomGhost"]
    pacman = (_agent_specs(args.pacman, args.agent_args, "pacman", args.agents,
                            args.game_time_limit)
              if args.pacman
              else list(experiment.pacman))
    if not pacman:
        raise UsageError("no Pacman agent: give -p AGENT, or an experiment file with "
                         "'pacman'")
    ghosts = (_agent_specs(args.ghosts, args.ghost_args, "ghost", args.agents,
                            args.game_time_limit)
              if args.ghosts
              else list(experiment.ghosts) or [AgentSpec("RandomGhost")])
    if args.backend != "dask":
        for given, option in ((args.scheduler, "--scheduler"),
                              (args.worker_wait, "--worker-wait")):
            if given is not None:
                raise UsageError(f"{option} needs --backend dask")
    grid = Grid(pacman=pacman, ghosts=ghosts,
                layouts=args.layout or experiment.layouts or ("mediumClassic",),
                num_ghosts=args.num_ghosts or experiment.num_ghosts or (None,),
                max_moves=_first(args.max_moves, experiment.max_moves,
                                 DEFAULT_MAX_MOVES) or None,
                move_time_limit=_first(args.move_time_limit, experiment.move_time_limit))
    games = _first(args.games, experiment.games, 10)
    seed = _first(args.seed, experiment.seed, 0)
    game_time_limit = _first(args.game_time_limit, experiment.game_time_limit)
    _check_size(grid.configs(), games)  # before resolving: that builds every agent
    configs = resolve_configs(_clamp_ghosts(grid.configs()), args.isolation,
                              load_limit(game_time_limit))
    if args.dry_run:
        return _dry_run(configs, games, seed, args.out)
    backend = None
    try:
        try:
            if args.backend == "dask":  # (a Ctrl-C while it starts: it stops what started)
                wait = DEFAULT_WORKER_WAIT if args.worker_wait is None else args.worker_wait
                backend = DaskBackend(args.scheduler, args.jobs, worker_wait=wait,
                                      on_notice=_notice)
            with BatchProgress(args.progress_every) as progress:
                result = run_batch(configs, games=games, store=args.out, seed=seed,
                                   isolation=args.isolation, jobs=args.jobs, backend=backend,
                                   game_time_limit=game_time_limit, on_progress=progress)
        finally:  # the cluster stopped before the line is printed (it ignores a second Ctrl-C)
            if backend is not None:
                backend.shutdown()
    except BatchInterrupted as stop:
        return interrupted(stop, args.out)
    _report(result)
    return 0


def _experiment(path: str | None) -> Experiment:
    """The experiment file's grid and numbers (an empty one without a file), checked."""
    from pacman.errors import BatchError
    from pacman.experiments import Experiment, load_experiment

    if not path:
        return Experiment()
    try:
        experiment = load_experiment(path)
    except RecursionError:  # in the JSON/TOML parser, or in our checks of its values
        raise UsageError(f"{path}: nested too deeply to be an experiment file") from None
    except BatchError:
        raise
    except ValueError as error:  # e.g. an integer of more than 4,300 digits
        raise UsageError(f"{path}: {error}") from None
    _check_experiment(experiment, path)
    return experiment


def _report(result: BatchResult) -> None:
    """What the batch did, as its last lines."""
    others = (f", {result.others} played by another batch at the same time" if result.others
              else "")
    print(f"{result.stored} games played, {result.already} already stored{others}: "
          f"{result.already + result.stored + result.others} of {result.planned} in "
          f"{result.path}" + (f" ({result.elapsed:.1f}s)" if result.stored else ""))
    if result.superseded:
        print(f"{result.superseded} of the games to play were stored by another version of the "
              "code (the agents' or pacman's source changed since): played again by this "
              "version; the old games stay (pacman table --code all shows every version)")
    if result.forged:
        print(f"warning: {result.forged} rows appeared in the store for games only this batch "
              "could play (something wrote them: tampering); each was replaced by the game "
              "played", file=sys.stderr)
    if result.outcomes:
        print("outcomes: " + ", ".join(f"{name} {count}" for name, count in
                                       sorted(result.outcomes.items())))
    if result.retried or result.killed:
        print(f"played again after a worker died: {result.retried}; stopped by the game "
              f"time limit: {result.killed}")
    print(f"see: pacman table {result.path}")


def _notice(line: str) -> None:
    """A line about the batch's workers (a refused Dask worker), on stderr as it happens."""
    print(f"pacman: {line}", file=sys.stderr, flush=True)


def _dry_run(configs: Sequence[ResolvedConfig], games: int, seed: int, out: str) -> int:
    from collections import Counter
    from pathlib import Path

    from pacman.experiments.config import GameTask
    from pacman.experiments.store import open_results

    done: set[tuple[str, int, str]] = set()
    if Path(out).is_file() and Path(out).stat().st_size:  # (an empty file would become one)
        with open_results(out) as store:
            done = store.done(seed)
    # counted from what is stored (one pass), never game by game: a grid may plan a million
    this_code: Counter[tuple[str, str]] = Counter()
    any_code: dict[str, set[int]] = {}
    for key, index, code in done:
        if 0 <= index < games:
            this_code[key, code] += 1
            any_code.setdefault(key, set()).add(index)
    total = stored = 0
    for resolved in configs:
        key = resolved.config.key()
        have = this_code[key, resolved.code]
        older = len(any_code.get(key, ())) - have
        total, stored = total + games, stored + have
        first = GameTask.of(resolved.config, seed, 0).seed
        print(f"{resolved.config.label()}: {have}/{games} stored (game 0 seed {first}; "
              f"code {resolved.code})" + (f"; {older} more by another code version, to be "
                                         "played again" if older else ""))
    print(f"{len(configs)} configurations x {games} games = {total} games; {stored} stored in "
          f"{out}, {total - stored} to play")
    return 0

