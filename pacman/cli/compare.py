"""`pacman compare A B`: two Pacman agents on the same boards and seeds, with paired tests."""

from __future__ import annotations

import argparse
import json
import math
import signal
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, TypedDict

from pacman.cli.batch import _agent_specs, _clamp_ghosts, _whole, resumable
from pacman.cli.options import (
    DEFAULT_MAX_MOVES,
    add_isolation_option,
    non_negative_float,
    seconds,
)
from pacman.cli.progress import LOG_EVERY, BatchProgress
from pacman.errors import UsageError

if TYPE_CHECKING:
    from types import FrameType

    from pacman.cli.options import Commands
    from pacman.experiments.config import StoredGame
    from pacman.experiments.grid import ResolvedConfig
    from pacman.experiments.paired import Comparison
    from pacman.specs import AgentSpec

DEFAULT_RESULTS = "results/compare.db"
DEFAULT_GAMES = 100
DEFAULT_STEP = 20
DEFAULT_LAYOUT = "mediumClassic"


class Sequential(TypedDict):
    """How far a --sequential comparison went (the `sequential` of its JSON)."""

    looks: int  # rounds planned
    look: int  # the round it stopped at
    games: int  # games per board played
    level: float  # the level each test was held to
    early: bool  # stopped before the last round


def add_parser(commands: Commands) -> None:
    """The `compare` subcommand."""
    compare = commands.add_parser(
        "compare", help="compare two Pacman agents on paired games (McNemar, paired t)",
        description="Play Pacman agents A and B on the same boards with the same seeds (game i "
                    "of A and of B meet the same ghost randomness), store the games (run the "
                    "same command again to resume), and test the paired differences: win rate "
                    "(McNemar's exact test) and score (paired t-test), with 95% intervals.")
    compare.add_argument("a", metavar="A", help="Pacman agent A, e.g. "
                                                "'alphabeta@depth=2,evaluation=score'")
    compare.add_argument("b", metavar="B", help="Pacman agent B, as A")
    add_board_options(compare, DEFAULT_GAMES, DEFAULT_RESULTS, "games per board")
    compare.add_argument("-g", "--ghosts", default="RandomGhost", metavar="AGENT[@SETTINGS]",
                         help="ghost agent (default RandomGhost)")
    compare.add_argument("--sequential", action="store_true",
                         help="play in rounds of --step games per board and stop as soon as "
                              "a difference is significant at alpha / (2 x rounds planned): "
                              "two tests a round")
    compare.add_argument("--step", type=_whole("games"), default=None,
                         help=f"games per board in a round of --sequential (default "
                              f"{DEFAULT_STEP})")
    compare.add_argument("--alpha", type=_alpha, default=0.05,
                         help="significance level (default 0.05)")


def add_board_options(parser: argparse.ArgumentParser, games: int, out: str, games_help: str
                      ) -> None:
    """Options `compare` and `tournament` share: boards, numbers, results file, output."""
    add_isolation_option(parser)
    parser.add_argument("--agents", metavar="FILE.py", default=None,
                        help="a file of agent classes: agents may then name its classes")
    parser.add_argument("-k", "--num-ghosts", action="append", type=_whole("max_moves"),
                        metavar="N", help="number of ghosts; repeat for several boards "
                                          "(default: all the layout has)")
    parser.add_argument("-l", "--layout", action="append", metavar="LAYOUT",
                        help=f"layout name or .lay path; repeat for several boards (default "
                             f"{DEFAULT_LAYOUT})")
    parser.add_argument("-n", "--games", type=_whole("games"), default=games,
                        help=f"{games_help} (default {games})")
    parser.add_argument("--seed", type=_whole("seed"), default=0,
                        help="batch seed (default 0): the games' seeds derive from it and the "
                             "board")
    parser.add_argument("--max-moves", type=_whole("max_moves"), default=DEFAULT_MAX_MOVES,
                        help=f"cap on Pacman moves (default {DEFAULT_MAX_MOVES}; 0 lifts it)")
    parser.add_argument("--game-timeout", dest="game_time_limit", type=seconds, default=None,
                        help="seconds allowed per game (a killed game has no score)")
    parser.add_argument("-j", "--jobs", type=_whole("jobs"), default=None,
                        help="worker processes (default: all cores)")
    parser.add_argument("-o", "--out", default=out, metavar="FILE.db",
                        help=f"results file (default {out})")
    parser.add_argument("--format", choices=("markdown", "json"), default="markdown",
                        help="output format (default markdown)")
    parser.add_argument("--progress-every", type=non_negative_float, default=LOG_EVERY,
                        metavar="SECONDS",
                        help="when stderr is not a terminal, a progress line this often "
                             f"(default {LOG_EVERY:g}; 0: never)")


def _alpha(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"expected a level between 0 and 1, got {text}")
    return value


def one_spec(text: str, role: str, agents_file: str | None) -> AgentSpec:
    """One agent spec from `NAME[@k=v,...]`; a UsageError for alternatives (`k=v1|v2`)."""
    specs = _agent_specs([text], None, role, agents_file)
    if len(specs) != 1:
        raise UsageError(f"{text!r} names {len(specs)} agents: give one setting value each")
    return specs[0]


def paired_configs(pacman: AgentSpec, ghost: AgentSpec, args: argparse.Namespace
                   ) -> list[ResolvedConfig]:
    """`pacman` against `ghost` on every board of `-l` x `-k`, paired, resolved."""
    from pacman.experiments.config import GameConfig
    from pacman.experiments.grid import resolve_configs

    configs = [GameConfig(pacman, ghost, count, layout, args.max_moves or None, None,
                          paired=True)
               for layout in args.layout or [DEFAULT_LAYOUT]
               for count in args.num_ghosts or [None]]
    return resolve_configs(_clamp_ghosts(configs), args.isolation)


@contextmanager
def batch_errors() -> Iterator[None]:
    """Batch and store errors as one line (UsageError); SIGTERM stops like Ctrl-C."""

    def terminate(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt  # `kill` stops the games like Ctrl-C: finished games stay

    previous = signal.signal(signal.SIGTERM, terminate)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def play(configs: Sequence[ResolvedConfig], games: int, args: argparse.Namespace) -> None:
    """Play what the store lacks of `games` games of each configuration."""
    from pacman.experiments import run_batch

    with BatchProgress(args.progress_every) as progress:
        run_batch(configs, games=games, store=args.out, seed=args.seed, jobs=args.jobs,
                  isolation=args.isolation,
                  game_time_limit=args.game_time_limit, on_progress=progress)


def stored_games(configs: Sequence[ResolvedConfig], games: int, args: argparse.Namespace
                 ) -> dict[str, list[StoredGame]]:
    """The stored games of each configuration (by key): this seed, this code version, the
    first `games` indices."""
    from pacman.experiments import stored_games as stored

    return stored(args.out, configs, games, args.seed)


def run(args: argparse.Namespace) -> int:
    """`pacman compare A B`."""
    return resumable(_run, args)


def _run(args: argparse.Namespace) -> int:
    from pacman.experiments.paired import compare_games, verdict

    if args.step is not None and not args.sequential:
        raise UsageError("--step needs --sequential")
    step = min(args.step or DEFAULT_STEP, args.games)
    spec_a = one_spec(args.a, "pacman", args.agents)
    spec_b = one_spec(args.b, "pacman", args.agents)
    ghost = one_spec(args.ghosts, "ghost", args.agents)
    with batch_errors():
        configs_a = paired_configs(spec_a, ghost, args)
        configs_b = paired_configs(spec_b, ghost, args)
        if [c.config.key() for c in configs_a] == [c.config.key() for c in configs_b]:
            raise UsageError(f"A and B are the same agent ({configs_a[0].config.pacman.name} "
                             "with the same settings): nothing to compare")
        looks = math.ceil(args.games / step) if args.sequential else 1
        # two tests at each of `looks` rounds: alpha / (2 looks) each keeps the chance of a
        # false stop at most alpha overall (Bonferroni)
        level = args.alpha / (2 * looks) if args.sequential else args.alpha
        rounds = ([min(step * look, args.games) for look in range(1, looks + 1)]
                  if args.sequential else [args.games])
        for look in range(1, len(rounds) + 1):
            games = rounds[look - 1]
            play([*configs_a, *configs_b], games, args)
            found = stored_games([*configs_a, *configs_b], games, args)
            comparison = compare_games(
                [g for c in configs_a for g in found[c.config.key()]],
                [g for c in configs_b for g in found[c.config.key()]])
            if comparison.significant(level):
                break
    stopped: Sequential | None = {
        "looks": looks, "look": look, "games": games, "level": level,
        "early": games < args.games} if args.sequential else None
    line = verdict(comparison, level)
    if args.format == "json":
        print(json.dumps({
            "a": args.a, "b": args.b, "a_configs": [c.config.to_dict() for c in configs_a],
            "b_configs": [c.config.to_dict() for c in configs_b], "seed": args.seed,
            "games_per_board": games, "planned_per_board": args.games, "alpha": args.alpha,
            "level": level, "sequential": stopped, "comparison": comparison.to_dict(),
            "verdict": line}, indent=2))
        return 0
    print(_markdown(args, configs_a, configs_b, comparison, stopped, line))
    return 0


def _number(value: float | None, digits: int = 1) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _signed(value: float | None, digits: int) -> str:
    return "-" if value is None else f"{value:+.{digits}f}"


def _agent_label(resolved: ResolvedConfig) -> str:
    spec = resolved.config.pacman
    return " ".join(filter(None, [spec.name, spec.settings_text()]))


def board_label(resolved: ResolvedConfig) -> str:
    """`smallClassic, 2 DirectionalGhost`: a board and its ghosts."""
    from pathlib import Path

    config = resolved.config
    layout = Path(config.layout).stem if config.layout.endswith(".lay") else config.layout
    ghost = " ".join(filter(None, [config.ghost.name, config.ghost.settings_text()]))
    return f"{layout}, {config.num_ghosts} {ghost}"


def _markdown(args: argparse.Namespace, configs_a: Sequence[ResolvedConfig],
              configs_b: Sequence[ResolvedConfig], c: Comparison, stopped: Sequential | None,
              line: str) -> str:
    from pacman.experiments.paired import format_p

    boards = "; ".join(board_label(resolved) for resolved in configs_a)
    lines = [f"A: {args.a} ({_agent_label(configs_a[0])})",
             f"B: {args.b} ({_agent_label(configs_b[0])})",
             f"{c.pairs} pairs of games (same board, same seed) on {c.boards} board"
             f"{'s' if c.boards != 1 else ''} ({boards}), batch seed {args.seed}, results in "
             f"{args.out}", "",
             "| agent | games | wins | win rate | 95% interval | average score |",
             "|---|---:|---:|---:|---|---:|",
             f"| A | {c.pairs} | {c.a_wins} | {c.a_win_rate:.2f} | [{c.a_win_low:.2f}, "
             f"{c.a_win_high:.2f}] | {_number(c.a_score)} |",
             f"| B | {c.pairs} | {c.b_wins} | {c.b_win_rate:.2f} | [{c.b_win_low:.2f}, "
             f"{c.b_win_high:.2f}] | {_number(c.b_score)} |", "",
             "| paired difference A - B | estimate | 95% interval | p | test |",
             "|---|---:|---|---:|---|",
             f"| win rate | {c.win_difference:+.2f} | [{c.win_low:+.2f}, {c.win_high:+.2f}] | "
             f"{format_p(c.win_p)} | McNemar exact: A won alone {c.only_a}, B alone "
             f"{c.only_b} |",
             f"| score | {_signed(c.score_difference, 1)} | "
             + (f"[{c.score_low:+.1f}, {c.score_high:+.1f}]" if c.score_low is not None
                else "-")
             + f" | {format_p(c.score_p) if c.score_p is not None else '-'} | paired t on "
               f"{c.scored_pairs} pairs |"]
    if c.incomplete:
        lines.append(f"\n{c.incomplete} pair{'s' if c.incomplete != 1 else ''} left out of the "
                     "score test (a game killed by the time limit has no score)")
    if stopped is not None:
        lines.append("")
        if stopped["early"]:
            lines.append(f"sequential: stopped after {stopped['games']} of {args.games} games "
                         f"per board (round {stopped['look']} of {stopped['looks']}, each tested "
                         f"at {stopped['level']:.4g} = alpha / (2 x {stopped['looks']}))")
        else:
            lines.append(f"sequential: all {args.games} games per board played ("
                         f"{stopped['looks']} rounds, each tested at {stopped['level']:.4g} = "
                         f"alpha / (2 x {stopped['looks']}))")
    lines += ["", f"verdict: {line}"]
    return "\n".join(lines)

