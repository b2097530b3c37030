"""Evaluation functions: named features over maze distances, and weighted sums of them.

A user picks an evaluation by name (`better`), writes a weighted sum
(`score:1,food:-1.5,ghost:2,radius:4`), names a weights file (`@path/to/weights.json`, as
`pacman tune` writes), or names their own function (`mymodule:evaluate`).
Won and lost states get their score +/-`WIN_VALUE`, which dominates every feature (a weighted
sum may set its own `win`/`loss` values).
"""

from __future__ import annotations

import importlib
import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pacman import GameState
from pacman.errors import RegistryError
from pacman.files import read_text
from pacman.rules import GHOST_POINTS, LOSE_POINTS, WIN_POINTS
from pacman.suggest import did_you_mean

EvaluationFunction = Callable[[GameState], float]

WIN_VALUE = 1_000_000.0
DEFAULT_RADIUS = 3


def _nearest_normal_ghost(state: GameState) -> float | None:
    timers = state.scared_timers
    if not any(timers):
        distances = state.ghost_distances()
        return min(distances) if distances else None
    normal = [d for d, t in zip(state.ghost_distances(), timers) if t == 0]
    return min(normal) if normal else None


def feature_score(state: GameState, radius: int) -> float:
    """The game score."""
    return float(state.score)


def feature_food(state: GameState, radius: int) -> float:
    """Maze distance to the nearest food (0 when none is left)."""
    return float(state.nearest_food_distance())


def feature_food_left(state: GameState, radius: int) -> float:
    """Number of food dots left."""
    return float(state.food_count)


def feature_ghost(state: GameState, radius: int) -> float:
    """Maze distance to the nearest non-scared ghost, capped at the danger radius.

    Beyond the radius a ghost is no danger, so the feature is flat there; a positive weight
    keeps Pacman away from ghosts that are close.
    """
    nearest = _nearest_normal_ghost(state)
    return float(radius) if nearest is None else float(min(nearest, radius))


def feature_capsule(state: GameState, radius: int) -> float:
    """Maze distance to the nearest capsule (0 when none is left)."""
    return float(state.nearest_capsule_distance())


def feature_capsules_left(state: GameState, radius: int) -> float:
    """Number of capsules left."""
    return float(state.capsule_count)


def feature_scared(state: GameState, radius: int) -> float:
    """Closeness `1 / (1 + d)` of the nearest scared ghost Pacman can reach before its timer
    runs out (`d < timer`), 0 if there is none."""
    timers = state.scared_timers
    if not any(timers):
        return 0.0
    best = 0.0
    for distance, timer in zip(state.ghost_distances(), timers):
        if timer > 0 and distance < timer:
            best = max(best, 1.0 / (1.0 + distance))
    return best


SAFE_LIMIT = 10


def feature_safe(state: GameState, radius: int) -> float:
    """Cells Pacman reaches before every non-scared ghost, counted up to 10: few when two
    ghosts close in from both sides of a corridor (a pincer the ghost distance alone misses)."""
    return float(state.safe_cell_count(SAFE_LIMIT))


def feature_trapped(state: GameState, radius: int) -> float:
    """1 when the cells Pacman reaches before every non-scared ghost hold no loop (a dead end,
    or a corridor whose two ends the ghosts reach first), 0 otherwise: a trap that good ghosts
    close, often farther away than the search can see."""
    return 1.0 if state.is_trapped() else 0.0


CORNER_LIMIT = 6


def feature_cornered(state: GameState, radius: int) -> float:
    """1 when Pacman is trapped (as for `trapped`) in a region of at most 6 cells, 0
    otherwise: a trap about to close, where `trapped` also counts long corridors Pacman may
    still leave in time."""
    return 1.0 if state.is_trapped(CORNER_LIMIT) else 0.0


def feature_penned(state: GameState, radius: int) -> float:
    """1 when the cells Pacman reaches before every non-scared ghost hold no loop around a
    wall, 0 otherwise: `trapped`, where an open room (the ghost pen, two cells wide: a loop
    a ghost closes as easily as a dead end) is no way out either."""
    return 1.0 if state.is_trapped(around_walls=True) else 0.0


def feature_hemmed(state: GameState, radius: int) -> float:
    """1 when the cells Pacman reaches before every non-scared ghost hold fewer loops around
    a wall than there are such ghosts, 0 otherwise: `penned`, where one loop is a way out
    from one ghost but not from two (one follows Pacman round it, the other meets him)."""
    normal = sum(1 for timer in state.scared_timers if timer == 0)
    return 1.0 if state.is_trapped(around_walls=True, loops=normal) else 0.0  # False at 0


FEATURES: dict[str, Callable[[GameState, int], float]] = {
    "score": feature_score,
    "food": feature_food,
    "food_left": feature_food_left,
    "ghost": feature_ghost,
    "capsule": feature_capsule,
    "capsules_left": feature_capsules_left,
    "scared": feature_scared,
    "safe": feature_safe,
    "trapped": feature_trapped,
    "cornered": feature_cornered,
    "penned": feature_penned,
    "hemmed": feature_hemmed,
}


@dataclass(frozen=True)
class WeightedEvaluation:
    """`sum(weight * feature(state))`; a won (lost) state is worth its score + `win` (`loss`).

    The default `win`/`loss` of +/-1,000,000 dominate every feature. `loss:0` makes a lost
    state worth just its score (the rules' -500 included), so a search may weigh a risk of
    being caught against what it gains, as in the classic CS188 evaluations.
    """

    weights: Mapping[str, float]
    radius: int = DEFAULT_RADIUS
    win: float = WIN_VALUE
    loss: float = -WIN_VALUE
    name: str = field(default="", compare=False)
    _terms: tuple[tuple[Callable[[GameState, int], float], float], ...] = field(
        default=(), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        unknown = [f for f in self.weights if f not in FEATURES]
        if unknown:
            raise ValueError(f"unknown evaluation feature {unknown[0]!r} (features: "
                             f"{', '.join(FEATURES)}; settings: {', '.join(SETTINGS)})")
        if self.radius < 1:
            raise ValueError(f"the ghost danger radius must be >= 1, got {self.radius}")
        object.__setattr__(self, "_terms", tuple(
            (FEATURES[name], weight) for name, weight in self.weights.items() if weight))

    def __call__(self, state: GameState) -> float:
        """The value of `state`."""
        if state.is_terminal():
            return state.score + (self.win if state.is_win() else self.loss)
        radius = self.radius
        total = 0.0
        for feature, weight in self._terms:
            total += weight * feature(state, radius)
        return total

    def bounds(self, state: GameState, plies: int) -> tuple[float, float]:
        """Bounds on the value of every state reachable from `state` within `plies` more plies
        (moves of Pacman and the ghosts): what exact expectimax pruning (Star1) needs.

        Each feature is bounded by how far `plies` moves can change it (food eaten, capsules
        taken, ghosts eaten, points per move); a loss counts only when a ghost is close
        enough to catch Pacman in time, a win only when `plies` moves can eat all the food.
        """
        return _weighted_bounds(self, state, plies)

    @property
    def __name__(self) -> str:
        """The name shown in agent descriptions."""
        return self.name or self.spec()

    def spec(self) -> str:
        """The command-line form of this evaluation."""
        items = [f"{name}:{weight:g}" for name, weight in self.weights.items()]
        for setting, default in SETTINGS.items():
            value = getattr(self, setting)
            if value != default:
                items.append(f"{setting}:{value:g}")
        return ",".join(items)


#: Settings that may appear in a weighted sum beside the features, with their defaults.
SETTINGS: dict[str, float] = {"radius": DEFAULT_RADIUS, "win": WIN_VALUE, "loss": -WIN_VALUE}


#: `better`'s weights, which `wary` and `alert` extend by a trap term.
_BETTER: dict[str, float] = {"score": 1.0, "food": -1.5, "food_left": -30.0, "ghost": 12.0,
                             "capsule": -1.0, "capsules_left": -30.0, "scared": 150.0,
                             "safe": 5.0}

#: The named evaluations. `better` is tuned on smallClassic and mediumClassic (see README).
NAMED: dict[str, WeightedEvaluation] = {
    "score": WeightedEvaluation({"score": 1.0}, name="score"),
    # food_left makes eating always worth it: without it, eating a dot can look bad because
    # the distance to the next one jumps up, and a search stalls beside the food.
    "food": WeightedEvaluation({"score": 1.0, "food": -1.5, "food_left": -10.0}, name="food"),
    "ghost": WeightedEvaluation({"score": 1.0, "food": -1.5, "food_left": -10.0,
                                 "ghost": 4.0}, name="ghost"),
    "capsules": WeightedEvaluation({"score": 1.0, "food": -1.5, "food_left": -10.0,
                                    "ghost": 4.0, "capsule": -1.0, "capsules_left": -20.0},
                                   name="capsules"),
    # The headline experiment's "evaluation that avoids trouble" (layouts/assumptions.lay):
    # food matters (eating always pays), and a ghost within 4 steps is worth avoiding.
    "cautious": WeightedEvaluation({"score": 1.0, "food": -1.0, "food_left": -25.0,
                                    "ghost": 25.0}, radius=4, name="cautious"),
    "better": WeightedEvaluation(_BETTER, name="better"),
    # `better` plus the trap it cannot see: a region of its own with no loop (a dead end, or
    # a corridor whose ends the ghosts reach first) is lost to ghosts that play well, often
    # more moves away than the search looks. The anytime agents' default.
    "wary": WeightedEvaluation({**_BETTER, "trapped": -200.0}, name="wary"),
    # `better` plus the traps about to close: a loopless region of at most 6 cells. Unlike
    # `wary`, it does not hold Pacman back from long corridors it can still leave in time.
    "alert": WeightedEvaluation({**_BETTER, "cornered": -200.0}, name="alert"),
    # The headline experiment's evaluation (`pacman assumptions`): the features of `cautious`
    # (a ghost counts as danger within 4 steps, as far as it moves in Pacman's 4-ply search),
    # on the game's own scale: won and lost states are worth their score, the rules' +/-500,
    # so expectimax's values are expected points and it weighs a visible risk of being caught
    # against the points it gains, as the lecture's expectimax does.
    "stakes": WeightedEvaluation({"score": 1.0, "food": -1.0, "food_left": -25.0,
                                  "ghost": 25.0}, radius=4, win=0.0, loss=0.0, name="stakes"),
}


def _weighted_bounds(evaluation: WeightedEvaluation, state: GameState,
                     plies: int) -> tuple[float, float]:
    # Pacman moves at most `plies` cells and each ghost at most `plies` cells (one each per
    # ply), so distances change by at most `plies` (to food, capsules) or 2 * `plies` (to a
    # ghost); food is eaten only once Pacman reaches it. Star1 asks at every chance node, so
    # each range is worked out only for the features the evaluation weighs.
    food, capsules, score = state.food_count, state.capsule_count, float(state.score)
    to_food, to_capsule = state.nearest_food_distance(), state.nearest_capsule_distance()
    eaten = min(food, max(0, plies - to_food + 1))
    reach_capsule = capsules > 0 and to_capsule <= plies
    taken = min(capsules, max(0, plies - to_capsule + 1)) if reach_capsule else 0
    timers = state.scared_timers
    scares = taken + (1 if any(timers) else 0)
    ghost_points = GHOST_POINTS * state.num_ghosts * scares
    distances = state.ghost_distances()
    normal = [d for d, t in zip(distances, timers) if t == 0]
    nearest = min(normal) if normal else None
    radius = float(evaluation.radius)
    score_low, score_high = score - plies, score + 9 * min(eaten, food - 1) + ghost_points
    low = high = 0.0
    for name, weight in evaluation.weights.items():
        if not weight:
            continue
        if name == "score":
            a, b = score_low, score_high
        elif name == "food":  # eating the nearest dot may leave the next one anywhere
            a = float(max(0, to_food - plies))
            b = _longest_path(state) if eaten else float(to_food + plies)
        elif name == "food_left":
            a, b = float(max(food - eaten, 1)), float(food)
        elif name == "ghost":
            if nearest is None or scares:  # ghosts may turn normal, or scared, on the way
                a, b = 0.0, radius
            else:
                a, b = min(radius, max(0.0, nearest - 2 * plies)), min(radius, nearest + 2 * plies)
        elif name == "safe":  # with the ghosts far enough, every cell near Pacman stays his
            sure = nearest is not None and not scares and nearest - 2 * plies > 2 * SAFE_LIMIT
            a, b = (float(SAFE_LIMIT) if sure else 0.0), float(SAFE_LIMIT)
        elif name == "capsule":
            a = float(max(0, to_capsule - plies))
            b = _longest_path(state) if taken else float(to_capsule + plies)
        elif name == "capsules_left":
            a, b = float(capsules - taken), float(capsules)
        elif name == "scared":
            a, b = 0.0, (1.0 if scares else 0.0)
        else:  # trapped, cornered, penned, hemmed
            a, b = 0.0, (1.0 if state.num_ghosts else 0.0)
        a, b = weight * a, weight * b
        if a <= b:
            low, high = low + a, high + b
        else:
            low, high = low + b, high + a
    if eaten >= food:  # a win is within reach
        low = min(low, score_low + evaluation.win)
        high = max(high, score + 9 * eaten + WIN_POINTS + ghost_points + evaluation.win)
    if distances and min(distances) <= 2 * plies + 2:  # a ghost may catch Pacman in time
        low = min(low, score_low - LOSE_POINTS + evaluation.loss)
        high = max(high, score_high - LOSE_POINTS + evaluation.loss)
    return low, high


def _longest_path(state: GameState) -> float:
    """Longer than any path through the maze: the number of free cells."""
    return float(state.width * state.height - len(state.walls))


def parse_weights(spec: str) -> WeightedEvaluation:
    """Parse `feature:weight,...` (plus settings `radius:N`, `win:X`, `loss:X`)."""
    weights: dict[str, float] = {}
    settings: dict[str, float] = {}
    for item in spec.split(","):
        name, sep, value = item.strip().partition(":")
        if not sep or not name:
            raise ValueError(f"bad evaluation term {item!r}: write feature:weight, e.g. food:-1.5")
        try:
            if not value.isascii() or "_" in value:  # float() reads `1_0` as 10, `٣` as 3
                raise ValueError(value)
            number = float(value)
        except ValueError:
            raise ValueError(f"bad weight {value!r} for {name!r} in evaluation {spec!r} "
                             "(a weight is a plain decimal number)") from None
        if not math.isfinite(number):
            raise ValueError(f"the weight of {name!r} must be a finite number, got {value!r}")
        target = settings if name in SETTINGS else weights
        if name in target:
            raise ValueError(f"{name!r} given twice in evaluation {spec!r}")
        target[name] = number
    radius = settings.pop("radius", DEFAULT_RADIUS)
    if radius != int(radius):
        raise ValueError(f"radius must be a whole number, got {radius:g}")
    return WeightedEvaluation(weights, radius=int(radius), win=settings.get("win", WIN_VALUE),
                              loss=settings.get("loss", -WIN_VALUE))


# --- weights files -------------------------------------------------------------------------

#: The `format` number of a weights file.
WEIGHTS_FORMAT = 1


def read_weights(path: str | Path, name: str = "") -> tuple[WeightedEvaluation, dict[str, Any]]:
    """A weights file's evaluation and its `learned` section (`{}` without one).

    The file is JSON: `{"format": 1, "features": {"score": 1.0, ...}, "radius": 3,
    "win": 1e6, "loss": -1e6, "learned": {...}}`; `radius`, `win`, `loss` and `learned` may be
    left out. Anything else is a one-line ValueError naming the file, and so is a file that
    is not a regular file or is larger than `pacman.files.LIMITS["weights"]` (16 MB).
    """
    where = f"weights file {str(path)!r}"
    if not str(path).strip():
        raise ValueError("@ needs a weights file: write evaluation=@path/to/weights.json")
    text = read_text(path, "weights", lambda message: _weights_file_error(where, path, message))
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except ValueError as error:
        if isinstance(error, json.JSONDecodeError):
            raise ValueError(f"{where} is not valid JSON: {error.msg} (line {error.lineno}, "
                             f"column {error.colno})") from None
        raise ValueError(f"{where}: {error}") from None
    except RecursionError:
        raise ValueError(f"{where} is nested too deeply") from None
    if not isinstance(data, dict):
        raise ValueError(f"{where} must hold a JSON object, not {type(data).__name__}")
    fmt = data.get("format")
    if fmt != WEIGHTS_FORMAT or isinstance(fmt, bool):
        raise ValueError(f"{where}: format must be {WEIGHTS_FORMAT}, got {fmt!r}")
    unknown = sorted(set(data) - {"format", "features", "learned", *SETTINGS})
    if unknown:
        raise ValueError(f"{where}: unknown key {unknown[0]!r} (keys: format, features, "
                         f"{', '.join(SETTINGS)}, learned)")
    features = data.get("features")
    if not isinstance(features, dict) or not features:
        raise ValueError(f"{where}: features must be an object of feature: weight, e.g. "
                         '{"score": 1.0, "food": -1.5}')
    weights = {feature: _file_number(where, f"the weight of {feature!r}", value)
               for feature, value in features.items()}
    for feature in weights:
        if feature not in FEATURES:
            raise ValueError(f"{where}: unknown evaluation feature {feature!r} (features: "
                             f"{', '.join(FEATURES)})")
    settings = {key: _file_number(where, key, data.get(key, default))
                for key, default in SETTINGS.items()}
    radius = settings["radius"]
    if radius != int(radius) or radius < 1:
        raise ValueError(f"{where}: radius must be a whole number >= 1, got {radius:g}")
    learned = data.get("learned", {})
    if not isinstance(learned, dict):
        raise ValueError(f"{where}: learned must be an object")
    evaluation = WeightedEvaluation(weights, radius=int(radius), win=settings["win"],
                                    loss=settings["loss"], name=name)
    return evaluation, learned


def _weights_file_error(where: str, path: str | Path, message: str) -> ValueError:
    """`pacman.files`' one line about a weights file, worded as the other weights errors."""
    reason = message.removeprefix(f"{path}: ")
    if reason == "cannot read: no such file":
        return ValueError(f"{where} does not exist")
    return ValueError(f"{where}: {reason}")


def load_weights(path: str | Path, name: str = "") -> WeightedEvaluation:
    """The evaluation of a weights file (see `read_weights`)."""
    return read_weights(path, name)[0]


def weights_document(evaluation: WeightedEvaluation,
                     learned: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The JSON-ready content of a weights file for `evaluation`."""
    document: dict[str, Any] = {"format": WEIGHTS_FORMAT, "features": dict(evaluation.weights),
                                "radius": evaluation.radius, "win": evaluation.win,
                                "loss": evaluation.loss}
    if learned is not None:
        document["learned"] = dict(learned)
    return document


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not a number a weight may have (weights are finite)")


def _file_number(where: str, what: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{where}: {what} must be a number, got {value!r}")
    try:
        number = float(value)
    except OverflowError:  # an integer too large for a float
        number = math.inf
    if not math.isfinite(number):
        raise ValueError(f"{where}: {what} must be a finite number, got {value!r}")
    return number


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _evaluation_module(head: str) -> Any:
    """The module of `module:function`, found as agents' modules are (`registry.code_file`): a
    `.py` path, a `module.py` in the current folder, or an installed module."""
    from pacman.agents.registry import code_file

    path = code_file(head)
    if path is not None:
        from pacman.cs188.loader import load_student_file

        return load_student_file(path).module  # StudentCodeError (a ValueError) if it cannot
    try:
        return importlib.import_module(head)
    except ImportError as error:
        raise RegistryError(f"cannot import evaluation module {head!r}: {error}") from None


def names_code(spec: str) -> bool:
    """True when an evaluation's text names code of the user's (`module:function` or
    `path/file.py:function`), as `resolve_evaluation` reads it: not a name, a weighted sum or
    a weights file. Decided from the text alone."""
    text = spec.strip()
    _, sep, tail = text.partition(":")
    return (text not in NAMED and not text.startswith("@") and bool(sep and tail)
            and not ("," in text or _is_number(tail)))


def resolve_evaluation(spec: str | EvaluationFunction) -> EvaluationFunction:
    """A name (`better`), a weighted sum (`score:1,food:-1.5`), a weights file (`@file.json`)
    or `module:function`. `RegistryError` for a name or a module:function that names none (a
    `StudentCodeError` for a file that cannot load), a `ValueError` for bad weights."""
    if callable(spec):
        return spec
    text = str(spec).strip()
    if text in NAMED:
        return NAMED[text]
    if text.startswith("@"):
        return load_weights(text[1:], name=text)
    head, sep, tail = text.partition(":")
    if sep and ("," in text or _is_number(tail)):
        return parse_weights(text)
    if names_code(text):
        module = _evaluation_module(head)
        function = getattr(module, tail, None)
        if not callable(function):
            raise RegistryError(f"module {head!r} has no function {tail!r}")
        return function  # type: ignore[no-any-return]
    hint = did_you_mean(text, NAMED)
    if hint:
        raise RegistryError(f"unknown evaluation {text!r} {hint}")
    raise RegistryError(f"unknown evaluation {text!r}: use one of {', '.join(NAMED)}, a "
                        "weighted sum like score:1,food:-1.5,ghost:2, a weights file "
                        "@weights.json, or module:function")


#: The shipped weights file of `learned` (made by `pacman tune`: docs/tuning.md).
LEARNED_FILE = Path(__file__).resolve().parent / "weights" / "learned.json"
# Weights fitted to game outcomes on three layouts and reported on three held out
# (the file's `learned` section holds the command and the report).
NAMED["learned"] = load_weights(LEARNED_FILE, name="learned")
# `learned` plus `wary`'s trap term: it also sees the long corridors two ghosts close
# (`cornered` sees traps of at most 6 cells). Not fitted: the weight is `wary`'s.
NAMED["learned-wary"] = replace(NAMED["learned"], name="learned-wary",
                                weights={**NAMED["learned"].weights, "trapped": -200.0})
# `learned` plus the trap term that also counts an open room as a trap (`penned`): it keeps
# out of the two-cell-wide ghost pen and dead ends, where `trapped` sees a loop.
NAMED["learned-penned"] = replace(NAMED["learned"], name="learned-penned",
                                  weights={**NAMED["learned"].weights, "penned": -200.0})
