"""Pacman agents that choose moves by adversarial search: settings plus a call into `search`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from time import perf_counter
from typing import Any, ClassVar

from agents.anytime import CHANCE, MAX, MIN, AnytimeDecision, TranspositionTable, iterative_search
from agents.base import BaseAgent
from agents.escape import escape_root
from agents.search import (
    ActionGenerator,
    ChanceModel,
    Decision,
    SearchState,
    alphabeta,
    expectimax,
    minimax,
)

__all__ = ["AlphaBetaAgent", "ExpectimaxAgent", "IterativeAlphaBetaAgent",
           "IterativeExpectimaxAgent", "MinimaxAgent", "SearchAgent"]

STOP_ACTION = "Stop"
#: A root value at or below this means a lost game against the search's ghost model: the
#: evaluations give a lost state its score minus 1,000,000.
HOPELESS = -500_000.0
TIE_BREAKS = ("first", "random")
GHOST_MODELS = ("uniform", "directional")

Evaluation = Callable[[Any], float]


def score_evaluation(state: SearchState) -> float:
    """The state's score: the default evaluation."""
    return float(state.score)


def _actions_without_stop(state: SearchState, agent: int) -> Sequence[Any]:
    """Legal actions, minus Stop for agent 0 unless Stop is its only action."""
    actions = state.legal_actions(agent)
    if agent == 0 and len(actions) > 1 and STOP_ACTION in actions:
        return [a for a in actions if a != STOP_ACTION]
    return actions


def _resolve_evaluation(spec: str | Evaluation) -> tuple[Evaluation, str]:
    """The evaluation function for `spec` and the name `describe` shows for it."""
    if callable(spec):
        return spec, getattr(spec, "__name__", type(spec).__name__)
    if spec == "score":
        return score_evaluation, spec
    from agents.evaluation import resolve_evaluation  # lazy: evaluation imports heavier things

    return resolve_evaluation(spec), spec


class SearchAgent(BaseAgent):
    """Settings and bookkeeping shared by the search agents: subclass it for a new search
    (implement `_search(state)`, as the anytime and expectiminimax agents do)."""

    def __init__(self, *, depth: int = 2, evaluation: str | Evaluation = "score",
                 allow_stop: bool = True, tie_break: str = "first", index: int = 0) -> None:
        super().__init__(index)
        name = type(self).__name__
        if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
            raise ValueError(f"{name}: depth must be a positive integer, got {depth!r}")
        if not isinstance(allow_stop, bool):
            raise ValueError(f"{name}: allow_stop must be true or false, got {allow_stop!r}")
        if tie_break not in TIE_BREAKS:
            raise ValueError(f"{name}: unknown tie_break {tie_break!r} "
                             f"(choose {' or '.join(TIE_BREAKS)})")
        self.depth = depth
        self.allow_stop = allow_stop
        self.tie_break = tie_break
        self.evaluation, self._evaluation_name = _resolve_evaluation(evaluation)
        self.last_decision: Decision | AnytimeDecision | None = None
        self._actions: ActionGenerator | None = None if allow_stop else _actions_without_stop

    def settings(self) -> str:
        """The settings `describe` shows, e.g. `depth=3 better`."""
        parts = [f"depth={self.depth}", self._evaluation_name]
        if not self.allow_stop:
            parts.append("allow_stop=False")
        if self.tie_break != "first":
            parts.append(f"tie_break={self.tie_break}")
        return " ".join(parts + self._extra_settings())

    def _extra_settings(self) -> list[str]:
        return []

    def _search(self, state: SearchState) -> Decision | AnytimeDecision:
        raise NotImplementedError

    def get_action(self, state: SearchState) -> Any:
        """Search from `state` and return the chosen action (also kept in `last_decision`)."""
        decision = self._search(state)
        self.last_decision = decision
        if self.tie_break == "random" and len(decision.best_actions) > 1:
            return self.rng.choice(decision.best_actions)
        return decision.action


class _TracingSearchAgent(SearchAgent):
    """A search agent whose searches can be traced (`trace=true`: each move's decision then
    carries the explored tree, and a recorded game keeps its summary, see `agents.trace`)."""

    #: settings that change what the agent reports, never how it plays: batches leave them
    #: out of a configuration (so a game's seed does not depend on them)
    observing_settings = ("trace",)

    def __init__(self, *, depth: int = 2, evaluation: str | Evaluation = "score",
                 allow_stop: bool = True, tie_break: str = "first", trace: bool = False,
                 index: int = 0) -> None:
        super().__init__(depth=depth, evaluation=evaluation, allow_stop=allow_stop,
                         tie_break=tie_break, index=index)
        if not isinstance(trace, bool):
            raise ValueError(f"{type(self).__name__}: trace must be true or false, got "
                             f"{trace!r}")
        self.trace = trace


class MinimaxAgent(_TracingSearchAgent):
    """Plays the minimax action: every ghost is assumed to play its worst move for Pacman."""

    def _search(self, state: SearchState) -> Decision:
        return minimax(state, self.depth, self.evaluation, actions=self._actions,
                       trace=self.trace)


class AlphaBetaAgent(_TracingSearchAgent):
    """Plays the minimax action, found with alpha-beta pruning."""

    def _search(self, state: SearchState) -> Decision:
        return alphabeta(state, self.depth, self.evaluation, actions=self._actions,
                         trace=self.trace)


class ExpectimaxAgent(_TracingSearchAgent):
    """Plays the action of best expected value, ghosts being random (uniform or directional)."""

    def __init__(self, *, depth: int = 2, evaluation: str | Evaluation = "score",
                 allow_stop: bool = True, tie_break: str = "first",
                 ghost_model: str = "uniform", trace: bool = False, index: int = 0) -> None:
        if ghost_model not in GHOST_MODELS:
            raise ValueError(f"{type(self).__name__}: unknown ghost_model {ghost_model!r} "
                             f"(choose {' or '.join(GHOST_MODELS)})")
        super().__init__(depth=depth, evaluation=evaluation, allow_stop=allow_stop,
                         tie_break=tie_break, trace=trace, index=index)
        self.ghost_model = ghost_model
        self._chance: ChanceModel | None = None
        if ghost_model == "directional":
            from agents.ghosts import directional_distribution  # lazy: only this model needs it

            self._chance = directional_distribution

    def _extra_settings(self) -> list[str]:
        return [] if self.ghost_model == "uniform" else [f"ghost_model={self.ghost_model}"]

    def _search(self, state: SearchState) -> Decision:
        return expectimax(state, self.depth, self.evaluation, actions=self._actions,
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


def _non_negative_number(name: str, setting: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= 0:
        raise ValueError(f"{name}: {setting} must be a number >= 0, got {value!r}")
    return float(value)


def _whole_number(name: str, setting: str, value: object, unit: str = "") -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{name}: {setting} must be a whole number{unit} >= 0, got {value!r}")
    return value


def _switch(name: str, setting: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{name}: {setting} must be true or false, got {value!r}")
    return value


class _AnytimeAgent(SearchAgent):
    """Iterative deepening under a time or node budget, with a transposition table kept
    across moves and move ordering (see `agents.anytime`). `quiescence=N` searches up to N
    more plies past a live leaf (`live_position`, over `quiet_moves`); `forward=k` keeps the k
    best moves of a node by their children's evaluations (approximate); `singular=margin`
    searches a clearly best Pacman move one ply deeper; `escape=N` drops the root moves after
    which Pacman cannot stay alive N of his moves against chasing ghosts (`agents.escape`); 0 is
    off for all four."""

    #: settings added after results were stored: at these values they play as before, so
    #: they stay out of a batch configuration's key (and its seeds do not move)
    late_settings: ClassVar[dict[str, object]] = {"quiescence": 0, "forward": 0,
                                                  "singular": 0.0, "escape": 0}

    def __init__(self, *, depth: int = 64, time: float = 0.1, nodes: int = 0,
                 evaluation: str | Evaluation = "wary", allow_stop: bool = True,
                 tie_break: str = "first", tt: bool = True, ordering: bool = True,
                 delay_loss: bool = True, quiescence: int = 0, forward: int = 0,
                 singular: float = 0.0, escape: int = 0, index: int = 0) -> None:
        super().__init__(depth=depth, evaluation=evaluation, allow_stop=allow_stop,
                         tie_break=tie_break, index=index)
        name = type(self).__name__
        self.delay_loss = _switch(name, "delay_loss", delay_loss)
        self.time = _non_negative_number(name, "time", time)
        self.nodes = _whole_number(name, "nodes", nodes)
        self.tt, self.ordering = _switch(name, "tt", tt), _switch(name, "ordering", ordering)
        self.table = TranspositionTable() if tt else None
        self.quiescence = _whole_number(name, "quiescence", quiescence, " of plies")
        self.forward = _whole_number(name, "forward", forward, " of moves")
        self.singular = _non_negative_number(name, "singular", singular)
        self.escape = _whole_number(name, "escape", escape, " of Pacman's moves")

    def _extra_settings(self) -> list[str]:
        """The budget, what is switched off, then the model: `time=0.1 nodes=500 tt=False`."""
        parts = [f"time={self.time:g}"]
        if self.nodes:
            parts.append(f"nodes={self.nodes}")
        parts += [f"{flag}=False" for flag in ("tt", "ordering", "delay_loss")
                  if not getattr(self, flag)]
        if self.quiescence:
            parts.append(f"quiescence={self.quiescence}")
        if self.forward:
            parts.append(f"forward={self.forward}")
        if self.singular:
            parts.append(f"singular={self.singular:g}")
        if self.escape:
            parts.append(f"escape={self.escape}")
        return parts + self._model_settings()

    def _model_settings(self) -> list[str]:
        return []

    def _kinds(self, state: SearchState) -> list[str]:
        raise NotImplementedError

    def _options(self) -> dict[str, Any]:
        return {}

    def _search(self, state: SearchState) -> AnytimeDecision:
        if self.table is not None:
            self.table.trim()
        actions, time_limit = self._actions, self.time or None
        if self.escape:
            started = perf_counter()
            actions = escape_root(state, actions, self.escape)
            if time_limit is not None:  # the check's time comes out of the move's budget
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


class IterativeAlphaBetaAgent(_AnytimeAgent):
    """Alpha-beta by iterative deepening: the best move of the deepest search that fits in
    `time` seconds (or `nodes` nodes) per move, up to `depth` plies."""

    def _kinds(self, state: SearchState) -> list[str]:
        return [MAX] + [MIN] * (state.num_agents - 1)


class IterativeExpectimaxAgent(_AnytimeAgent):
    """Expectimax by iterative deepening, with exact pruning from the evaluation's range
    (`prune`) and an optional, approximate, probability cut-off (`cutoff`)."""

    def __init__(self, *, depth: int = 64, time: float = 0.1, nodes: int = 0,
                 evaluation: str | Evaluation = "wary", allow_stop: bool = True,
                 tie_break: str = "first", tt: bool = True, ordering: bool = True,
                 delay_loss: bool = True, prune: bool = True, cutoff: float = 0.0,
                 ghost_model: str = "uniform", quiescence: int = 0, forward: int = 0,
                 singular: float = 0.0, escape: int = 0, index: int = 0) -> None:
        super().__init__(depth=depth, time=time, nodes=nodes, evaluation=evaluation,
                         allow_stop=allow_stop, tie_break=tie_break, tt=tt, ordering=ordering,
                         delay_loss=delay_loss, quiescence=quiescence, forward=forward,
                         singular=singular, escape=escape, index=index)
        name = type(self).__name__
        if ghost_model not in GHOST_MODELS:
            raise ValueError(f"{name}: unknown ghost_model {ghost_model!r} "
                             f"(choose {' or '.join(GHOST_MODELS)})")
        self.prune = _switch(name, "prune", prune)
        self.cutoff = _non_negative_number(name, "cutoff", cutoff)
        if self.cutoff >= 1:
            raise ValueError(f"{name}: cutoff is a probability below 1, got {cutoff!r}")
        self.ghost_model = ghost_model
        self._chance: ChanceModel | None = None
        if ghost_model == "directional":
            from agents.ghosts import directional_distribution

            self._chance = directional_distribution

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
