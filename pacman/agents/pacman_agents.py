"""Pacman agents that choose moves by adversarial search: settings plus a call into `search`."""

from __future__ import annotations

import gc
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from time import perf_counter
from typing import Any, Generic, TypeVar

from pacman.agents.anytime import (
    CHANCE,
    MAX,
    MIN,
    AnytimeDecision,
    TranspositionTable,
    iterative_search,
)
from pacman.agents.base import BaseAgent
from pacman.agents.escape import escape_root
from pacman.agents.search import alphabeta, expectimax, minimax
from pacman.agents.search_core import (
    ActionGenerator,
    ChanceModel,
    Decision,
    RootChoice,
    SearchState,
    actions_without_stop,
    legal_actions,
)
from pacman.agents.settings import (
    AgentSettings,
    evaluation_spec,
    non_negative,
    one_of,
    positive_int,
    setting,
    switch,
    whole_number,
)
from pacman.agents.survival import SurvivalAware, Tables, chase_model, layout_tables, survival_root

__all__ = [
    # the agents
    "MinimaxAgent", "AlphaBetaAgent", "ExpectimaxAgent", "IterativeAlphaBetaAgent",
    "IterativeExpectimaxAgent", "SearchAgent",
    # their settings
    "SearchSettings", "TracedSearchSettings", "ExpectimaxSettings", "AnytimeSettings",
    "AnytimeExpectimaxSettings",
]

#: A root value at or below this means a lost game against the search's ghost model: the
#: evaluations give a lost state its score minus 1,000,000.
HOPELESS = -500_000.0
TIE_BREAKS = ("first", "random")
GHOST_MODELS = ("uniform", "directional")

Evaluation = Callable[[Any], float]


def score_evaluation(state: SearchState) -> float:
    """The state's score: the default evaluation."""
    return float(state.score)


def _resolve_evaluation(spec: str | Evaluation) -> tuple[Evaluation, str]:
    """The evaluation function for `spec` and the name `describe` shows for it."""
    if callable(spec):
        return spec, getattr(spec, "__name__", type(spec).__name__)
    if spec == "score":
        return score_evaluation, spec
    from pacman.agents.evaluation import (
        resolve_evaluation,  # lazy: evaluation imports heavier things
    )

    return resolve_evaluation(spec), spec


@dataclass(frozen=True)
class SearchSettings(AgentSettings):
    """What every search agent is told: how deep, how to value a leaf, Stop, ties."""

    depth: int = setting(
        2, "search depth in plies: one ply is Pacman's move and one move of every ghost",
        check=positive_int)
    evaluation: str | Evaluation = setting(
        "score", "how leaves are valued: an evaluation's name, name:weight,..., @weights.json, "
        "module:function, or a Python function", check=evaluation_spec)
    allow_stop: bool = setting(
        True, "false removes Stop from Pacman's actions at every Pacman node of the tree "
        "(unless Stop is the only action)", check=switch)
    tie_break: str = setting(
        "first", "among equally good root actions: first (in legal-action order) or random "
        "(drawn from the game's generator)", check=one_of(*TIE_BREAKS))
    repetition: float = setting(
        0.0, "points a leaf loses for every time its position (where Pacman, the ghosts, the "
        "food and the capsules are) already stood on this game's path, as chess engines score "
        "repetitions: a search that would circle for ever takes a new way; 0, the default, is "
        "the classic search", check=non_negative, late=True)


@dataclass(frozen=True)
class TracedSearchSettings(SearchSettings):
    """A plain search's settings: the cycle breaker, and whether to record the tree it
    explored."""

    cycles: float = setting(
        0.0, "points a root move loses for every earlier time Pacman played it from the same "
        "position (Pacman, the ghosts, the food and the capsules where they are now): a Pacman "
        "that comes round a loop longer than its horizon to where it was takes another way; "
        "0, the default, is the classic search", check=non_negative, late=True)
    trace: bool = setting(
        False, "record each move's search tree in last_decision.trace; it changes no decision "
        "and batches leave it out", check=switch, observing=True)


@dataclass(frozen=True)
class ExpectimaxSettings(TracedSearchSettings):
    """Expectimax's settings: a traced search's, and the ghosts' model at chance nodes."""

    ghost_model: str = setting(
        "uniform", "the ghosts' probabilities at chance nodes: uniform, or directional (the "
        "directional ghost's own distribution)", check=one_of(*GHOST_MODELS))


SS = TypeVar("SS", bound=SearchSettings)


class SearchAgent(BaseAgent[SS], Generic[SS]):
    """Settings and bookkeeping shared by the search agents: subclass it for a new search
    (implement `_search(state)`, as the anytime and expectiminimax agents do)."""

    Settings = SearchSettings

    def __init__(self, index: int = 0, settings: SS | None = None, **values: Any) -> None:
        super().__init__(index, settings, **values)
        chosen = self.settings
        self.depth = chosen.depth
        self.allow_stop = chosen.allow_stop
        self.tie_break = chosen.tie_break
        self.evaluation, self._evaluation_name = _resolve_evaluation(chosen.evaluation)
        self.repetition = float(chosen.repetition)
        self._path: dict[Any, int] = {}  # this game's positions so far, and how often
        if self.repetition:
            self.evaluation = _RepetitionAware(self.evaluation, self.repetition, self._path)
        self.last_decision: Decision | AnytimeDecision | None = None
        self._actions: ActionGenerator | None = None if chosen.allow_stop else (
            actions_without_stop)

    def settings_text(self) -> str:
        """The settings `describe` shows, e.g. `depth=3 better`."""
        parts = [f"depth={self.depth}", self._evaluation_name]
        if not self.allow_stop:
            parts.append("allow_stop=False")
        if self.tie_break != "first":
            parts.append(f"tie_break={self.tie_break}")
        if self.repetition:
            parts.append(f"repetition={self.repetition:g}")
        return " ".join(parts + self._extra_settings())

    def register_initial_state(self, state: SearchState) -> None:
        """A new game: no position has been seen yet."""
        self._path.clear()

    def _extra_settings(self) -> list[str]:
        return []

    def _search(self, state: SearchState) -> Decision | AnytimeDecision:
        raise NotImplementedError

    def get_action(self, state: SearchState) -> Any:
        """Search from `state` and return the chosen action (also kept in `last_decision`)."""
        if self.repetition:
            where = _position(state)
            self._path[where] = self._path.get(where, 0) + 1
        decision = self._search(state)
        self.last_decision = decision
        if self.tie_break == "random" and len(decision.best_actions) > 1:
            return self.rng.choice(decision.best_actions)
        return decision.action


def _position(state: Any) -> Any:
    """Where everything is in `state`, without the score and the directions: the same for two
    states of a game that repeat a position (a state that has no `position`: itself)."""
    position = getattr(state, "position", None)
    return position if position is not None else state


class _RepetitionAware:
    """An evaluation that takes `penalty` points off a leaf for every time its position is on
    the game's path so far (`path`, kept by the agent). Its bounds, for exact pruning, are the
    evaluation's own, widened downwards by the largest penalty on the path."""

    def __init__(self, evaluation: Evaluation, penalty: float, path: dict[Any, int]) -> None:
        self.evaluation, self.penalty, self.path = evaluation, penalty, path
        bounds = getattr(evaluation, "bounds", None)
        if bounds is not None:
            self.bounds = self._bounds
        self.__name__ = getattr(evaluation, "__name__", type(evaluation).__name__)

    def __call__(self, state: Any) -> float:
        value = self.evaluation(state)
        seen = self.path.get(_position(state)) if self.path else None
        return value - self.penalty * seen if seen else value

    def _bounds(self, state: Any, plies: int) -> tuple[float, float]:
        low, high = self.evaluation.bounds(state, plies)  # type: ignore[attr-defined]
        most = max(self.path.values(), default=0)
        return low - self.penalty * most, high


TS = TypeVar("TS", bound=TracedSearchSettings)


class _TracingSearchAgent(SearchAgent[TS], Generic[TS]):
    """A plain search agent: its searches can be traced (`trace=true`: each move's decision
    then carries the explored tree, and a recorded game keeps its summary, see
    `pacman.agents.trace`), and it can break cycles longer than its horizon (`cycles`).

    **The cycle breaker.** Against a ghost that hunts, a search Pacman can find nothing within
    its horizon better than keeping its distance, and go round a loop of the maze with the
    ghost behind it until the move cap: when the loop is longer than the horizon, no leaf of
    the tree shows that the way round comes back, so the search takes the same way every lap.
    With `cycles=P` the agent remembers, for every position of this game where it moved
    (`GameState.position`: Pacman's and the ghosts' cells, the food and the capsules; not the
    score, the directions or the timers), the moves it played there and how often. At a
    position it has not been in, it searches as the classic search does, node for node. At one
    it has been in, the game has come round to it again: it searches each root move on its own
    (the same search with the root's actions restricted to that move, so each value is exact,
    alpha-beta's too), and a move already played here `k` times loses `k * P` points. The best
    move after the penalty is played (ties as `tie_break` says). Against a deterministic hunter,
    the same position and the same move give the same lap again, so the penalty grows each lap
    until another way is worth more. The decision's value is the chosen move's value less its
    penalty, its `nodes_generated` the root once plus every sub-search's successors, and its
    trace (with `trace=true`) the chosen move's sub-search.

    Unlike `repetition`, which lowers the leaves whose position is on the game's path, the
    breaker acts at the root, on the game's real path: an expectimax search averages a
    leaf's penalty over every move its ghost model gives the ghost, of which the hunter plays
    one, so `repetition` barely moves its root values (docs/results.md, 2026-12-06).
    """

    Settings = TracedSearchSettings

    def __init__(self, index: int = 0, settings: TS | None = None, **values: Any) -> None:
        super().__init__(index, settings, **values)
        self.trace = self.settings.trace
        self.cycles = float(self.settings.cycles)
        self._played: dict[Any, Counter[Any]] = {}  # position -> moves played there, how often

    def register_initial_state(self, state: SearchState) -> None:
        """A new game: no position has been seen, no move played."""
        super().register_initial_state(state)
        self._played.clear()

    def _extra_settings(self) -> list[str]:
        return [f"cycles={self.cycles:g}"] if self.cycles else []

    def _plain_search(self, state: SearchState, actions: ActionGenerator | None) -> Decision:
        raise NotImplementedError

    def _search(self, state: SearchState) -> Decision:
        if self.cycles:
            played = self._played.get(_position(state))
            if played:
                return self._break_cycle(state, played)
        return self._plain_search(state, self._actions)

    def get_action(self, state: SearchState) -> Any:
        """Search from `state` and return the chosen action; with `cycles`, remember it as
        played from this position."""
        action = super().get_action(state)
        if self.cycles:
            self._played.setdefault(_position(state), Counter())[action] += 1
        return action

    def _break_cycle(self, state: SearchState, played: Counter[Any]) -> Decision:
        """The decision at a position the game has been in: every root move searched on its
        own, less `cycles` points per earlier time it was played here."""
        legal = self._actions or legal_actions
        choice, generated, searched = RootChoice(), 1, {}
        for move in legal(state, 0):
            decision = self._plain_search(state, _only_at(state, move, legal))
            generated += decision.nodes_generated - 1
            searched[move] = decision
            choice.offer(move, decision.value - self.cycles * played[move])
        chosen = choice.decision(generated)
        return replace(chosen, trace=searched[chosen.action].trace)


def _only_at(root: SearchState, move: Any, legal: ActionGenerator) -> ActionGenerator:
    """`legal`, but only `move` for Pacman at `root` itself."""
    def actions(state: SearchState, agent: int) -> Sequence[Any]:
        return (move,) if state is root and agent == 0 else legal(state, agent)
    return actions


class MinimaxAgent(_TracingSearchAgent[TracedSearchSettings]):
    """Plays the minimax action: every ghost is assumed to play its worst move for Pacman."""

    def _plain_search(self, state: SearchState, actions: ActionGenerator | None) -> Decision:
        return minimax(state, self.depth, self.evaluation, actions=actions, trace=self.trace)


class AlphaBetaAgent(_TracingSearchAgent[TracedSearchSettings]):
    """Plays the minimax action, found with alpha-beta pruning."""

    def _plain_search(self, state: SearchState, actions: ActionGenerator | None) -> Decision:
        return alphabeta(state, self.depth, self.evaluation, actions=actions, trace=self.trace)


def chance_model(ghost_model: str) -> ChanceModel | None:
    """The chance model of a `ghost_model` setting: None for uniform, else the directional
    ghost's distribution."""
    if ghost_model == "uniform":
        return None
    from pacman.agents.ghosts import directional_distribution  # only this model needs it

    return directional_distribution


class ExpectimaxAgent(_TracingSearchAgent[ExpectimaxSettings]):
    """Plays the action of best expected value, ghosts being random (uniform or directional)."""

    Settings = ExpectimaxSettings

    def __init__(self, index: int = 0, settings: ExpectimaxSettings | None = None,
                 **values: Any) -> None:
        super().__init__(index, settings, **values)
        self.ghost_model = self.settings.ghost_model
        self._chance = chance_model(self.ghost_model)

    def _extra_settings(self) -> list[str]:
        model = [] if self.ghost_model == "uniform" else [f"ghost_model={self.ghost_model}"]
        return super()._extra_settings() + model

    def _plain_search(self, state: SearchState, actions: ActionGenerator | None) -> Decision:
        return expectimax(state, self.depth, self.evaluation, actions=actions,
                          chance=self._chance, trace=self.trace)


def _ghosts_closing_in_first(state: Any, agent: int, actions: Sequence[Any]) -> Sequence[Any]:
    """Move ordering: a ghost's moves that bring it closest to Pacman first (the likely best
    reply of a MIN ghost, the most telling outcome at a chance node); Pacman's in legal order."""
    if agent == 0 or not hasattr(state, "ghost_step_distances"):
        return actions
    distance = dict(zip(state.legal_actions(agent), state.ghost_step_distances(agent),
                        strict=True))
    return sorted(actions, key=distance.__getitem__)


QUIESCENCE_RADIUS = 1  # maze steps: a ghost this near (it may strike next) makes a leaf live


def live_position(state: Any) -> bool:
    """Quiescence's test of a leaf: a ghost that is not scared within `QUIESCENCE_RADIUS`
    maze steps of Pacman (it may catch Pacman on its next move), or a scared one that near
    which Pacman can still reach before its timer runs out. Anything else is quiet. (Radius 2
    found more, but cost 1.6 times the nodes of the plain search at depths 4 and 6, against
    1.25 for radius 1: `scripts/bench.py --only quiescence`.)"""
    for distance, timer in zip(state.ghost_distances(), state.scared_timers, strict=True):
        if distance <= QUIESCENCE_RADIUS and (timer == 0 or distance < timer):
            return True
    return False


def quiet_moves(state: Any, agent: int, actions: Sequence[Any]) -> Sequence[Any]:
    """The moves quiescence searches: all of Pacman's and of every ghost within
    `QUIESCENCE_RADIUS + 1` steps of Pacman; a ghost farther away makes only the move that
    brings it closest to Pacman."""
    if agent == 0 or state.ghost_distances()[agent - 1] <= QUIESCENCE_RADIUS + 1:
        return actions
    return _ghosts_closing_in_first(state, agent, actions)[:1]


def _below_one(name: str, value: Any) -> str | None:
    reason = non_negative(name, value)
    if reason is None and value >= 1:
        return f"{name} is a probability below 1, got {value!r}"
    return reason


@dataclass(frozen=True)
class AnytimeSettings(SearchSettings):
    """An anytime search's settings: its budget, its enhancements, and four late extras
    (`quiescence`, `forward`, `singular`, `escape`: 0 is off, and off they stay out of batch
    keys)."""

    depth: int = setting(64, "the deepest search, in plies", check=positive_int)
    evaluation: str | Evaluation = setting(
        "wary", "how leaves are valued (as for the plain searches)", check=evaluation_spec)
    time: float = setting(0.1, "seconds per move; 0: no time limit", check=non_negative)
    nodes: int = setting(
        0, "nodes per move (0: no limit); deterministic, for tests and batches",
        check=whole_number())
    tt: bool = setting(
        True, "the transposition table, kept from move to move (values reused only at the "
        "same remaining depth)", check=switch)
    ordering: bool = setting(
        True, "the table's best move first, ghosts' moves towards Pacman first", check=switch)
    delay_loss: bool = setting(
        True, "when every move loses against the model's perfect ghosts, play the best move "
        "of the deepest search that still saw a way out", check=switch)
    quiescence: int = setting(
        0, "plies the search may go on past a live leaf (a ghost within a step); 0: off",
        check=whole_number(" of plies"), late=True)
    forward: int = setting(
        0, "forward pruning: search only the k best children of a MAX or MIN node by their "
        "evaluations (approximate); 0: off", check=whole_number(" of moves"), late=True)
    singular: float = setting(
        0.0, "singular extensions: a Pacman move better than every other by this margin is "
        "searched one ply deeper; 0: off", check=non_negative, late=True)
    escape: int = setting(
        0, "drop the root moves after which Pacman cannot stay alive N of his moves against "
        "chasing ghosts; 0: off", check=whole_number(" of Pacman's moves"), late=True)
    survival: int = setting(
        0, "the survival veto's horizon H: drop the root moves whose exact chance of surviving "
        "H+1 moves of the food-free chase (a survival table of the layout, built at the "
        "game's start) is more than survival_margin below the best move's; 0: off",
        check=whole_number(" of Pacman's moves"), late=True)
    survival_margin: float = setting(
        0.1, "how far below the best move's survival chance a move may be and stay (with "
        "survival=H; 1 or more: no move is dropped)", check=non_negative, late=True)
    survival_weight: float = setting(
        0.0, "with survival=H, points a leaf loses per unit of survival chance below 1: "
        "value - weight x (1 - V_H(leaf)); 0: off", check=non_negative, late=True)


@dataclass(frozen=True)
class AnytimeExpectimaxSettings(AnytimeSettings):
    """The anytime expectimax's settings: the anytime ones, its pruning and its ghost model."""

    prune: bool = setting(
        True, "exact Star1 pruning at chance nodes, with the evaluation's bounds", check=switch)
    cutoff: float = setting(
        0.0, "outcomes whose probability along the path is below it are evaluated, not "
        "searched (approximate); 0: off", check=_below_one)
    ghost_model: str = setting(
        "uniform", "the ghosts' probabilities at chance nodes: uniform or directional",
        check=one_of(*GHOST_MODELS))


AS = TypeVar("AS", bound=AnytimeSettings)


class _AnytimeAgent(SearchAgent[AS], Generic[AS]):
    """Iterative deepening under a time or node budget, with a transposition table kept
    across moves and move ordering (see `pacman.agents.anytime`). `quiescence=N` searches up to
    N more plies past a live leaf (`live_position`, over `quiet_moves`); `forward=k` keeps the
    k best moves of a node by their children's evaluations (approximate); `singular=margin`
    searches a clearly best Pacman move one ply deeper; `escape=N` drops the root moves after
    which Pacman cannot stay alive N of his moves against chasing ghosts
    (`pacman.agents.escape`); 0 is off for all four."""

    Settings = AnytimeSettings

    def __init__(self, index: int = 0, settings: AS | None = None, **values: Any) -> None:
        super().__init__(index, settings, **values)
        chosen = self.settings
        self.delay_loss = chosen.delay_loss
        self.time = float(chosen.time)
        self.nodes = chosen.nodes
        self.tt, self.ordering = chosen.tt, chosen.ordering
        self.table = TranspositionTable() if chosen.tt else None
        self.quiescence = chosen.quiescence
        self.forward = chosen.forward
        self.singular = float(chosen.singular)
        self.escape = chosen.escape
        self.survival, self.survival_margin = chosen.survival, float(chosen.survival_margin)
        self.survival_weight = float(chosen.survival_weight)
        self._tables: Tables | None = None  # this game's survival tables, with survival=H
        self._tables_layout: Any = None  # the layout they are of
        if self.survival and self.survival_weight:
            self.evaluation = SurvivalAware(self.evaluation, self.survival_weight,
                                            lambda: self._tables)

    def register_initial_state(self, state: SearchState) -> None:
        """A new game: with `survival=H`, the layout's survival table is built (or read from
        the cache) now, before the first move's clock starts."""
        super().register_initial_state(state)
        if self.survival and state.num_agents > 1:
            self._survival_tables(state)

    @property
    def _chase_model(self) -> str:
        """The ghosts the survival tables assume: the directional ghost's own probabilities
        when this agent believes them (`ghost_model=directional`), else uniform ones
        (`pacman.agents.survival.chase_model`)."""
        return chase_model(getattr(self, "ghost_model", None))

    def _survival_tables(self, state: SearchState) -> Tables:
        """The layout's survival tables of one and two ghosts (as many as the game has), of
        the model this agent believes, built once a game (`pacman.chase`)."""
        layout = state._maze.layout  # type: ignore[attr-defined]
        if self._tables is None or self._tables_layout is not layout:
            self._tables_layout = layout
            self._tables = layout_tables(layout, state.num_agents - 1, self._chase_model,
                                         self.survival)
        return self._tables

    def _extra_settings(self) -> list[str]:
        """The budget, what is switched off, then the model: `time=0.1 nodes=500 tt=False`."""
        parts = [f"time={self.time:g}"]
        if self.nodes:
            parts.append(f"nodes={self.nodes}")
        parts += [f"{flag}=False" for flag in ("tt", "ordering", "delay_loss")
                  if not getattr(self, flag)]
        late = ("quiescence", "forward", "singular", "escape", "survival")
        parts += [f"{name}={getattr(self, name):g}" for name in late if getattr(self, name)]
        if self.survival and self.survival_margin != 0.1:
            parts.append(f"survival_margin={self.survival_margin:g}")
        if self.survival and self.survival_weight:
            parts.append(f"survival_weight={self.survival_weight:g}")
        return parts + self._model_settings()

    def _model_settings(self) -> list[str]:
        return []

    def _kinds(self, state: SearchState) -> list[str]:
        raise NotImplementedError

    def _options(self) -> dict[str, Any]:
        return {}

    def _search(self, state: SearchState) -> AnytimeDecision:
        if not self.time or not gc.isenabled():
            return self._timed_search(state)
        # Under a time budget the cyclic garbage collector waits until the move is chosen: a
        # full collection walks every object of the transposition table kept between moves
        # (40 to 90 ms at 400,000 entries), and one landing in a move overran a 40 ms budget
        # up to 7 times. Reference counting still frees what the search drops; the collector
        # catches up at the next allocation after the move, outside the agent's time.
        gc.disable()
        try:
            return self._timed_search(state)
        finally:
            gc.enable()

    def _timed_search(self, state: SearchState) -> AnytimeDecision:
        started = perf_counter()
        if self.table is not None:
            self.table.trim()
        actions, time_limit = self._actions, self.time or None
        if self.escape:
            actions = escape_root(state, actions, self.escape)
        if self.survival and state.num_agents > 1:
            actions, _ = survival_root(state, actions, self._survival_tables(state),
                                       self.survival_margin, self._chase_model)
        if time_limit is not None:  # emptying the table and the check come out of the budget
            time_limit = max(time_limit - (perf_counter() - started), 0.0)
        decision = iterative_search(
            state, self.evaluation, kinds=self._kinds(state), max_depth=self.depth,
            time_limit=time_limit, node_limit=self.nodes or None, table=self.table,
            ordering=self.ordering, order=_ghosts_closing_in_first, actions=actions,
            quiescence=self.quiescence, live=live_position if self.quiescence else None,
            quiet_moves=quiet_moves, forward=self.forward, singular=self.singular,
            **self._options())
        if self.delay_loss and decision.value <= HOPELESS:
            # Every move loses if the ghosts play perfectly: play the best move of the
            # deepest iteration that still saw a way out, which puts the loss off the
            # longest. Real ghosts make mistakes; giving up early throws the game away.
            hopeful = [it for it in decision.iterations if it.value > HOPELESS]
            if hopeful:
                last = hopeful[-1]
                return replace(decision, action=last.action, value=last.value,
                               best_actions=(last.action,))
        return decision


class IterativeAlphaBetaAgent(_AnytimeAgent[AnytimeSettings]):
    """Alpha-beta by iterative deepening: the best move of the deepest search that fits in
    `time` seconds (or `nodes` nodes) per move, up to `depth` plies."""

    def _kinds(self, state: SearchState) -> list[str]:
        return [MAX] + [MIN] * (state.num_agents - 1)


class IterativeExpectimaxAgent(_AnytimeAgent[AnytimeExpectimaxSettings]):
    """Expectimax by iterative deepening, with exact pruning from the evaluation's range
    (`prune`) and an optional, approximate, probability cut-off (`cutoff`)."""

    Settings = AnytimeExpectimaxSettings

    def __init__(self, index: int = 0, settings: AnytimeExpectimaxSettings | None = None,
                 **values: Any) -> None:
        super().__init__(index, settings, **values)
        self.prune = self.settings.prune
        self.cutoff = float(self.settings.cutoff)
        self.ghost_model = self.settings.ghost_model
        self._chance = chance_model(self.ghost_model)

    def _model_settings(self) -> list[str]:
        extra = [] if self.ghost_model == "uniform" else [f"ghost_model={self.ghost_model}"]
        if not self.prune:
            extra.append("prune=False")
        if self.cutoff:
            extra.append(f"cutoff={self.cutoff:g}")
        return extra

    def _kinds(self, state: SearchState) -> list[str]:
        return [MAX] + [CHANCE] * (state.num_agents - 1)

    def _options(self) -> dict[str, Any]:
        return {"bounds": getattr(self.evaluation, "bounds", None), "prune": self.prune,
                "chance": self._chance, "cutoff": self.cutoff}
