"""Tuning evaluation weights from played games: Texel-style fitting, or SPSA on paired games.

**Texel** (`method="texel"`). Every position where Pacman is to move in a game is labelled
with the game's outcome, and a penalized logistic model over the evaluation features is
fitted to them (`pacman.experiments.texel`); its weights in points (logits times the points
one logit is worth: `1/K` of the playing evaluation's own fit, or an explicit scale) are the
learned evaluation. This module plays the rounds of games and keeps the fits.

**SPSA** (`method="spsa"`, simultaneous perturbation stochastic approximation, Spall 1992).
The weights are searched for directly by how they play: each step plays the current weights
perturbed up and down along one random sign vector on the same (paired) boards, and moves them
along that vector in proportion to how much better the one side played.

`pacman tune` plays the games (`pacman/cli/tune.py`); docs/tuning.md explains both methods.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from pacman import GameState
from pacman.agents.evaluation import (
    DEFAULT_RADIUS,
    FEATURES,
    WeightedEvaluation,
    resolve_evaluation,
)
from pacman.errors import TuningError
from pacman.experiments.config import GameConfig
from pacman.experiments.grid import ResolvedConfig, resolve_configs
from pacman.experiments.runner import BatchResult, run_batch, stored_games
from pacman.experiments.table import wilson_interval
from pacman.experiments.texel import (
    DEFAULT_L2,
    LogisticFit,
    Matrix,
    evaluation_weights,
    feature_rows,
    fit_logistic,
    game_positions,
    learned_evaluation,
    logit_scale,
    rounded,
)
from pacman.layout import load_layout
from pacman.record import Outcome
from pacman.specs import AgentSpec

# --- the tuning loop: play, fit, play again, report -----------------------------------------

#: Features held at the playing weights, not fitted: the terms that steer a search towards
#: a goal (the nearest dot, capsule, scared ghost) rather than say how good a position is. As
#: predictors of a win they get the wrong sign (late in a won game the few dots left are far
#: apart), which would send the search away from food (docs/tuning.md).
FIXED = ("food", "capsule", "scared")

#: What the learned weights are compared with in the report.
BASELINE = "better"
AGENT = "AlphaBetaAgent"

#: Plays a batch: `(configs, games, what, seed)` -> its result (`run_batch` with batch seed
#: `seed` by default; the command line wraps it in a progress bar).
PlayBatch = Callable[[Sequence[ResolvedConfig], int, str, int], BatchResult]

METHODS = ("texel", "spsa")

#: SPSA's gain sequences, Spall's recommended exponents: step `k` (from 0) moves by
#: `gain / (k + 1 + A) ** ALPHA` (A: a tenth of the steps) and perturbs by
#: `perturb / (k + 1) ** GAMMA`.
SPSA_ALPHA, SPSA_GAMMA = 0.602, 0.101

#: SPSA's objective counts points as a tie-break between equal win counts: this many points
#: are worth one win.
POINTS_PER_WIN = 10_000.0

#: How far SPSA may take a weight from its start: a factor of e**3 (about 20) either way.
SPSA_LIMIT = 3.0


@dataclass(frozen=True)
class TuneOptions:
    """What `tune` plays and fits (the options of `pacman tune`)."""

    train: tuple[str, ...]
    held_out: tuple[str, ...] = ()
    games: int = 50
    depth: int = 2
    ghost: str = "DirectionalGhost"
    seed: int = 0
    jobs: int | None = None
    results: str | Path = Path("results") / "tune.db"
    rounds: int = 1
    start: str = BASELINE
    baseline: str = BASELINE
    l2: float = DEFAULT_L2
    scale: float | None = None
    max_moves: int = 1000
    report_games: int | None = None  # default: `games`
    fixed: tuple[str, ...] = FIXED
    method: str = "texel"
    iterations: int = 20  # SPSA steps
    gain: float = 1.0  # SPSA: the first step's size, in log-weight per unit of objective
    perturb: float = 0.2  # SPSA: the first perturbation, in log-weight

    def __post_init__(self) -> None:
        if self.method not in METHODS:
            raise TuningError(f"unknown tuning method {self.method!r} (methods: "
                              f"{', '.join(METHODS)})")
        if self.iterations < 1:
            raise TuningError(f"SPSA needs at least one step, got {self.iterations}")
        if not (math.isfinite(self.gain) and self.gain > 0):
            raise TuningError(f"the SPSA gain must be a number > 0, got {self.gain}")
        if not (math.isfinite(self.perturb) and 0 < self.perturb <= 1):
            raise TuningError(f"the SPSA perturbation must be in (0, 1], got {self.perturb}")
        unknown = [name for name in self.fixed if name not in FEATURES]
        if unknown:
            raise TuningError(f"unknown feature {unknown[0]!r} to hold fixed (features: "
                              f"{', '.join(FEATURES)})")
        if len(self.fixed) == len(FEATURES):
            raise TuningError("every feature is held fixed: there is nothing to fit")
        both = [layout for layout in self.train if layout in self.held_out]
        if both:
            raise TuningError(f"layout {both[0]} is in both the training and the held-out "
                              "layouts: a held-out layout must be one the weights never saw")
        if not self.train:
            raise TuningError("tuning needs at least one training layout")


@dataclass(frozen=True)
class Round:
    """One round: the games played with `played_with`, and the fit to their positions."""

    played_with: str
    games: int
    wins: int
    fit: LogisticFit
    weights: dict[str, float]
    points_per_logit: float


@dataclass(frozen=True)
class Step:
    """One SPSA step: the weights perturbed up (`plus`) and down (`minus`), how each played the
    same boards (`games` per side, all training layouts together), and the weights after the
    step. A side's objective is `(wins + points / POINTS_PER_WIN) / games`."""

    seed: int
    plus: str
    minus: str
    games: int
    plus_wins: int
    minus_wins: int
    plus_points: int
    minus_points: int
    weights: dict[str, float]


@dataclass(frozen=True)
class Rate:
    """Wins of so many games, with the 95% Wilson interval of the win rate."""

    wins: int
    games: int

    @property
    def interval(self) -> tuple[float, float]:
        """The Wilson interval."""
        return wilson_interval(self.wins, self.games)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, rates to 4 decimals."""
        low, high = self.interval
        rate = self.wins / self.games if self.games else 0.0
        return {"wins": self.wins, "games": self.games, "rate": round(rate, 4),
                "low": round(low, 4), "high": round(high, 4)}


@dataclass(frozen=True)
class ReportRow:
    """The learned weights and the baseline on one layout (paired seeds)."""

    layout: str
    kind: str  # "train" or "held-out"
    learned: Rate
    baseline: Rate


@dataclass(frozen=True)
class TuneResult:
    """The learned evaluation, the rounds that made it and its report."""

    evaluation: WeightedEvaluation
    rounds: tuple[Round, ...]
    report: tuple[ReportRow, ...]
    batches: tuple[BatchResult, ...] = field(default=(), compare=False)
    steps: tuple[Step, ...] = ()


def _config(layout: str, evaluation: str, options: TuneOptions) -> GameConfig:
    return GameConfig(pacman=AgentSpec.of(AGENT, {"depth": options.depth,
                                                  "evaluation": evaluation}),
                      ghost=AgentSpec.of(options.ghost), layout=layout,
                      max_moves=options.max_moves, paired=True)


def _default_play(options: TuneOptions) -> PlayBatch:
    def play(configs: Sequence[ResolvedConfig], games: int, what: str, seed: int) -> BatchResult:
        return run_batch(configs, games=games, store=options.results, seed=seed,
                         jobs=options.jobs)
    return play


def _radius(start: str) -> int:
    evaluation = resolve_evaluation(start)
    return evaluation.radius if isinstance(evaluation, WeightedEvaluation) else DEFAULT_RADIUS


def tune(options: TuneOptions, play: PlayBatch | None = None) -> TuneResult:
    """Learn and report (see the module's description): with Texel, `options.rounds` rounds of
    `options.games` games per training layout, each with the previous round's weights (the
    first with `options.start`); with SPSA, `options.iterations` steps from `options.start`;
    then the report games of the learned weights and the baseline on every layout. Games go to
    the results file, so a rerun plays only what is missing. Raises TuningError, and what
    `run_batch` raises (LayoutError, BatchError, StoreError...)."""
    play = play or _default_play(options)
    if options.method == "spsa":
        return _report(options, play, *_spsa(options, play))
    radius = _radius(options.start)
    names = tuple(FEATURES)
    layouts = {name: load_layout(name) for name in (*options.train, *options.held_out)}
    spec = options.start
    rounds: list[Round] = []
    batches: list[BatchResult] = []
    evaluation: WeightedEvaluation | None = None
    for number in range(1, options.rounds + 1):
        configs = resolve_configs([_config(layout, spec, options) for layout in options.train])
        batches.append(play(configs, options.games, f"round {number} of {options.rounds}",
                            options.seed))
        stored = stored_games(options.results, configs, options.games, options.seed)
        rows: list[Matrix] = []
        every: list[GameState] = []
        outcomes: list[float] = []
        wins = games = 0
        for layout, entry in zip(options.train, configs):
            for game in stored[entry.config.key()]:
                won = float(game.outcome is Outcome.WIN)
                positions = game_positions(game.record(), layouts[layout])
                rows.append(feature_rows(positions, names, radius))
                if not isinstance(resolve_evaluation(spec), WeightedEvaluation):
                    every.extend(positions)
                outcomes.extend([won] * len(positions))
                wins += int(won)
                games += 1
        x = np.vstack(rows) if rows else np.zeros((0, len(names)))
        current = resolve_evaluation(spec)
        weighted = current if isinstance(current, WeightedEvaluation) else None
        if options.scale is None:
            values = x @ np.array([weighted.weights.get(name, 0.0) for name in names]) if (
                weighted) else np.array([current(state) for state in every])
            points = 1.0 / logit_scale(values, outcomes)
        else:
            points = options.scale
        playing = np.array([weighted.weights.get(name, 0.0) if weighted else 0.0
                            for name in names])
        free = [i for i, name in enumerate(names) if name not in options.fixed]
        held = [i for i, name in enumerate(names) if name in options.fixed]
        fit = fit_logistic(x[:, free], outcomes, [names[i] for i in free], l2=options.l2,
                           prior={names[i]: playing[i] / points for i in free},
                           offset=x[:, held] @ playing[held] / points)
        fitted = evaluation_weights(fit, points)
        weights = {name: fitted.get(name, rounded(float(playing[i])))
                   for i, name in enumerate(names)}
        evaluation = learned_evaluation(weights, radius)
        rounds.append(Round(spec, games, wins, fit, weights, points))
        spec = evaluation.spec()
    assert evaluation is not None
    return _report(options, play, evaluation, batches, rounds=tuple(rounds))


def _spsa(options: TuneOptions,
          play: PlayBatch) -> tuple[WeightedEvaluation, list[BatchResult], tuple[Step, ...]]:
    """SPSA on log-weights: weight `j` is `start_j * exp(theta_j)`; step `k` draws signs
    `delta` (+/-1 per weight), plays `theta + c_k delta` and `theta - c_k delta` on the same
    boards (batch seed `seed + 1 + k`), and moves `theta_j` by
    `a_k * (y_plus - y_minus) / (2 c_k delta_j)`, where `y` is a side's objective (`Step`)."""
    start = resolve_evaluation(options.start)
    if not isinstance(start, WeightedEvaluation):
        raise TuningError(f"SPSA starts from a weighted sum of features; {options.start!r} is "
                          "not one")
    free = [name for name, weight in start.weights.items()
            if weight and name not in options.fixed]
    if not free:
        raise TuningError(f"SPSA scales the weights the start evaluation gives: every feature "
                          f"of {options.start!r} is held fixed or has weight 0")
    rng = random.Random(f"spsa {options.seed}")
    theta = dict.fromkeys(free, 0.0)
    offset = options.iterations / 10

    def evaluation_at(point: Mapping[str, float]) -> WeightedEvaluation:
        weights = {name: rounded(weight * math.exp(point[name])) if name in point else weight
                   for name, weight in start.weights.items()}
        return WeightedEvaluation(weights, radius=start.radius, win=start.win, loss=start.loss)

    steps: list[Step] = []
    batches: list[BatchResult] = []
    for k in range(options.iterations):
        a = options.gain / (k + 1 + offset) ** SPSA_ALPHA
        c = options.perturb / (k + 1) ** SPSA_GAMMA
        delta = {name: rng.choice((-1.0, 1.0)) for name in free}
        plus = evaluation_at({name: theta[name] + c * delta[name] for name in free}).spec()
        minus = evaluation_at({name: theta[name] - c * delta[name] for name in free}).spec()
        seed = options.seed + 1 + k
        configs = resolve_configs([_config(layout, spec, options)
                                   for spec in (plus, minus) for layout in options.train])
        batches.append(play(configs, options.games, f"step {k + 1} of {options.iterations}",
                            seed))
        stored = stored_games(options.results, configs, options.games, seed)
        half = len(options.train)
        sides = [[game for entry in configs[:half] for game in stored[entry.config.key()]],
                 [game for entry in configs[half:] for game in stored[entry.config.key()]]]
        wins = [sum(game.outcome is Outcome.WIN for game in side) for side in sides]
        points = [sum(game.score or 0 for game in side) for side in sides]
        games = min(len(side) for side in sides)
        if games == 0:
            raise TuningError(f"step {k + 1} stored no games")
        difference = (wins[0] - wins[1] + (points[0] - points[1]) / POINTS_PER_WIN) / games
        for name in free:
            moved = theta[name] + a * difference / (2 * c * delta[name])
            theta[name] = max(-SPSA_LIMIT, min(SPSA_LIMIT, moved))
        steps.append(Step(seed, plus, minus, games, wins[0], wins[1], points[0], points[1],
                          dict(evaluation_at(theta).weights)))
    return evaluation_at(theta), batches, tuple(steps)


def _report(options: TuneOptions, play: PlayBatch, evaluation: WeightedEvaluation,
            batches: list[BatchResult], steps: tuple[Step, ...] = (),
            rounds: tuple[Round, ...] = ()) -> TuneResult:
    """The learned weights and the baseline on every layout, paired, at the options' seed."""
    spec = evaluation.spec()
    report_games = options.report_games or options.games
    pairs = [(layout, resolve_configs([_config(layout, spec, options),
                                       _config(layout, options.baseline, options)]))
             for layout in (*options.train, *options.held_out)]
    everything = [entry for _, configs in pairs for entry in configs]
    batches.append(play(everything, report_games, "report", options.seed))
    stored = stored_games(options.results, everything, report_games, options.seed)
    report = []
    for layout, configs in pairs:
        learned, baseline = (
            Rate(sum(game.outcome is Outcome.WIN for game in stored[entry.config.key()]),
                 len(stored[entry.config.key()])) for entry in configs)
        report.append(ReportRow(layout, "train" if layout in options.train else "held-out",
                                learned, baseline))
    return TuneResult(evaluation, rounds, tuple(report), tuple(batches), steps)


def learned_section(options: TuneOptions, result: TuneResult, command: str,
                    date: str) -> dict[str, Any]:
    """The `learned` section of the weights file: how the weights were made, and the report."""
    section: dict[str, Any] = {
        "method": "texel-logistic: P(win) = sigmoid(b + w . features), Newton/IRLS, L2",
        "training_layouts": list(options.train),
        "held_out_layouts": list(options.held_out),
        "agent": AGENT, "depth": options.depth, "ghost": options.ghost,
        "games": options.games, "rounds": options.rounds, "seed": options.seed,
        "start": options.start, "baseline": options.baseline, "l2": options.l2,
        "scale": "fitted" if options.scale is None else options.scale,
        "max_moves": options.max_moves, "report_games": options.report_games or options.games,
        "fixed": list(options.fixed),
        "fits": [{"round": number, "played_with": entry.played_with, "games": entry.games,
                  "wins": entry.wins, "positions": entry.fit.positions,
                  "log_loss": round(entry.fit.log_loss, 6), "iterations": entry.fit.iterations,
                  "points_per_logit": rounded(entry.points_per_logit),
                  "weights": entry.weights}
                 for number, entry in enumerate(result.rounds, 1)],
    }
    if options.method == "spsa":
        for texel_only in ("rounds", "l2", "scale", "fits"):
            del section[texel_only]
        section["method"] = ("spsa: log-weights, paired +/- perturbations, objective "
                             f"(wins + points / {POINTS_PER_WIN:g}) / games")
        section.update({
            "iterations": options.iterations, "gain": options.gain,
            "perturb": options.perturb,
            "steps": [{"step": number, "seed": step.seed, "plus": step.plus,
                       "minus": step.minus, "games": step.games,
                       "plus_wins": step.plus_wins, "minus_wins": step.minus_wins,
                       "plus_points": step.plus_points, "minus_points": step.minus_points,
                       "weights": step.weights}
                      for number, step in enumerate(result.steps, 1)],
        })
    section["report"] = [{"layout": row.layout, "set": row.kind,
                          "learned": row.learned.to_dict(),
                          "baseline": row.baseline.to_dict()} for row in result.report]
    section["command"] = command
    section["date"] = date
    return section


def format_report(result: TuneResult, baseline: str = BASELINE) -> str:
    """The report as a text table: win rates with their 95% Wilson intervals."""
    def cell(rate: Rate) -> str:
        low, high = rate.interval
        share = rate.wins / rate.games if rate.games else 0.0
        return f"{rate.wins}/{rate.games} {share:4.0%} [{low:.0%}, {high:.0%}]"

    header = ("layout", "set", "learned", baseline)
    rows = [(row.layout, row.kind, cell(row.learned), cell(row.baseline))
            for row in result.report]
    widths = [max(len(str(line[i])) for line in (header, *rows)) for i in range(4)]
    lines = ["  ".join(str(value).ljust(width) for value, width in zip(line, widths)).rstrip()
             for line in (header, *rows)]
    return "\n".join([lines[0], "  ".join("-" * width for width in widths), *lines[1:]])
