"""`pacman tune`: evaluation weights learned from games (Texel fitting or SPSA), with a report.

The learning is `pacman.experiments.tuning`; this module parses the options, shows each
batch's progress, prints the report and writes the weights file (docs/tuning.md).
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from collections.abc import Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING

from pacman.cli.options import (
    add_isolation_option,
    non_negative_float,
    number_in,
    positive_int,
    seed_int,
)
from pacman.errors import UsageError

if TYPE_CHECKING:
    from pacman.cli.options import Commands

DEFAULT_RESULTS = "results/tune.db"
DEFAULT_OUT = "weights.json"


def _layouts(text: str) -> list[str]:
    names = [name.strip() for name in text.split(",")]
    if not all(names):
        raise argparse.ArgumentTypeError(f"expected layout names separated by commas, got "
                                         f"{text!r}")
    return list(dict.fromkeys(names))


def _features(text: str) -> list[str]:
    if text.strip() == "none":
        return []
    names = [name.strip() for name in text.split(",")]
    if not all(names):
        raise argparse.ArgumentTypeError(f"expected feature names separated by commas (or "
                                         f"none), got {text!r}")
    return list(dict.fromkeys(names))


def add_parser(commands: Commands) -> None:
    """The `tune` subcommand."""
    tune = commands.add_parser(
        "tune", help="learn evaluation weights from games (Texel fitting or SPSA) and report "
                     "them on held-out layouts")
    tune.add_argument("--method", choices=("texel", "spsa"), default="texel",
                      help="texel: fit a win-probability model to the positions of played "
                           "games; spsa: move the weights towards those that win more paired "
                           "games (default texel)")
    tune.add_argument("--train", type=_layouts, required=True, metavar="L1,L2",
                      help="training layouts: the games the weights are fitted to")
    tune.add_argument("--held-out", type=_layouts, default=[], metavar="L3,L4",
                      help="layouts the report plays that the fit never sees")
    tune.add_argument("--games", type=positive_int, default=50,
                      help="games per training layout, in each round (texel) or step and side "
                           "(spsa) (default 50)")
    tune.add_argument("--report-games", type=positive_int, default=None,
                      help="games per layout and evaluation in the report (default: --games)")
    tune.add_argument("--depth", type=number_in(1, 10, int), default=2,
                      help="search depth of the AlphaBetaAgent that plays (default 2)")
    tune.add_argument("--ghost", default="DirectionalGhost", metavar="AGENT",
                      help="the ghosts' agent (default DirectionalGhost)")
    tune.add_argument("--seed", type=seed_int, default=0, help="batch seed (default 0)")
    add_isolation_option(tune)
    tune.add_argument("-j", "--jobs", type=positive_int, default=None,
                      help="worker processes (default: all cores)")
    tune.add_argument("-o", "--out", default=DEFAULT_OUT, metavar="FILE.json",
                      help=f"the weights file to write (default {DEFAULT_OUT})")
    tune.add_argument("--results", default=DEFAULT_RESULTS, metavar="FILE.db",
                      help="results file of the games; those already there are not played "
                           f"again (default {DEFAULT_RESULTS})")
    tune.add_argument("--rounds", type=number_in(1, 20, int), default=1,
                      help="texel: rounds of play and fit, each playing with the last fit's "
                           "weights (default 1)")
    tune.add_argument("--start", default="better", metavar="EVALUATION",
                      help="the evaluation the first games play with, and spsa's starting point "
                           "(default better)")
    tune.add_argument("--baseline", default="better", metavar="EVALUATION",
                      help="what the report compares the learned weights with (default better)")
    tune.add_argument("--l2", type=non_negative_float, default=None,
                      help="texel: strength of the pull towards the weights the games were played "
                           "with (default 10; 0: none)")
    tune.add_argument("--scale", type=number_in(0, 1e9, low_open=True), default=None,
                      metavar="POINTS",
                      help="texel: points one logit is worth (default: fitted, the units of the "
                           "evaluation the games were played with)")
    tune.add_argument("--fixed", type=_features, default=None, metavar="F1,F2",
                      help="features held at the playing weights, not learned (default "
                           "food,capsule,scared; none: learn every feature)")
    tune.add_argument("--iterations", type=number_in(1, 1000, int), default=20,
                      help="spsa: steps, each playing two perturbed weight sets (default 20)")
    tune.add_argument("--gain", type=number_in(0, 100, low_open=True), default=1.0,
                      help="spsa: size of the first step (default 1)")
    tune.add_argument("--perturb", type=number_in(0, 1, low_open=True), default=0.2,
                      help="spsa: the first perturbation of each log-weight (default 0.2)")
    tune.add_argument("--max-moves", type=positive_int, default=1000,
                      help="cap on Pacman moves per game, a capped game counts as not won "
                           "(default 1000)")


def _command(args: argparse.Namespace) -> str:
    """The command with every option spelled out (the same whatever the user abbreviated)."""
    words = ["pacman", "tune"]
    if args.method != "texel":
        words += ["--method", args.method]
    words += ["--train", ",".join(args.train)]
    if args.held_out:
        words += ["--held-out", ",".join(args.held_out)]
    words += ["--games", str(args.games)]
    if args.report_games is not None:
        words += ["--report-games", str(args.report_games)]
    words += ["--depth", str(args.depth), "--ghost", args.ghost, "--seed", str(args.seed)]
    if args.method == "spsa":
        words += ["--iterations", str(args.iterations), "--gain", f"{args.gain:g}",
                  "--perturb", f"{args.perturb:g}", "--start", args.start]
    else:
        words += ["--rounds", str(args.rounds), "--start", args.start]
    if args.baseline != "better":
        words += ["--baseline", args.baseline]
    for option in ("l2", "scale"):
        if getattr(args, option) is not None:
            words += [f"--{option}", f"{getattr(args, option):g}"]
    if args.fixed is not None:
        words += ["--fixed", ",".join(args.fixed) or "none"]
    words += ["--max-moves", str(args.max_moves), "--results", args.results, "-o", args.out]
    return shlex.join(words)


def _check_out(path: str) -> None:
    if not path.strip():
        raise UsageError("-o needs a file name")
    if Path(path).is_dir():
        raise UsageError(f"-o {path} is a folder: give a file name")


def run(args: argparse.Namespace) -> int:
    """`pacman tune`: play, fit, report and write the weights file."""
    from pacman.agents.evaluation import resolve_evaluation, weights_document
    from pacman.cli.progress import BatchProgress
    from pacman.experiments import BatchInterrupted, run_batch
    from pacman.experiments.grid import ResolvedConfig
    from pacman.experiments.runner import BatchResult
    from pacman.experiments.texel import DEFAULT_L2
    from pacman.experiments.tuning import TuneOptions, format_report, learned_section, tune

    _check_out(args.out)
    for option in ("start", "baseline"):
        try:
            resolve_evaluation(getattr(args, option))
        except ValueError as error:
            raise UsageError(f"--{option}: {error}") from None
    options = TuneOptions(
        train=tuple(args.train), held_out=tuple(args.held_out), games=args.games,
        depth=args.depth, ghost=args.ghost, seed=args.seed, jobs=args.jobs,
        results=args.results, rounds=args.rounds, start=args.start,
        baseline=args.baseline, l2=DEFAULT_L2 if args.l2 is None else args.l2,
        scale=args.scale, max_moves=args.max_moves, report_games=args.report_games,
        method=args.method, iterations=args.iterations, gain=args.gain,
        perturb=args.perturb,
        **({} if args.fixed is None else {"fixed": tuple(args.fixed)}))

    def play(configs: Sequence[ResolvedConfig], games: int, what: str, seed: int) -> BatchResult:
        with BatchProgress() as progress:
            result = run_batch(configs, games=games, store=args.results, seed=seed,
                               jobs=args.jobs, on_progress=progress,
                               isolation=args.isolation)
        print(f"{what}: {result.stored} games played now, {result.already} were already in "
              f"{result.path}", file=sys.stderr)
        return result

    try:
        result = tune(options, play)
    except BatchInterrupted as stop:
        done = stop.result.already + stop.result.stored
        print(f"pacman: interrupted: {done} of {stop.result.planned} games of this step are "
              f"stored in {args.results}; run the same command again to resume",
              file=sys.stderr)
        return 130
    date = datetime.now(timezone.utc).strftime("%Y-%m-%d")
    learned = learned_section(options, result, _command(args), date)
    document = weights_document(result.evaluation, learned)
    out = Path(args.out)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    except OSError as error:
        raise UsageError(f"cannot write {args.out}: {error.strerror}") from None
    for number, entry in enumerate(result.rounds, 1):
        print(f"round {number}: {entry.games} games ({entry.wins} won), "
              f"{entry.fit.positions} positions, log-loss {entry.fit.log_loss:.4f}")
    for number, step in enumerate(result.steps, 1):
        print(f"step {number}: plus won {step.plus_wins}/{step.games}, minus won "
              f"{step.minus_wins}/{step.games}")
    print(f"learned: {result.evaluation.spec()}")
    print()
    print(format_report(result, args.baseline))
    print()
    print(f"Wrote {args.out}: use it as evaluation=@{args.out}")
    return 0
