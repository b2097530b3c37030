"""`run_game`: the turn loop with seeds, move cap, time limits and crash handling."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any, Protocol

from pacman.display.protocol import Display, GameRestart, GameStopped, MoveInfo, NullDisplay
from pacman.interrupts import is_user_interrupt
from pacman.layout import Layout
from pacman.limits import MoveTimeLimit, MoveTimer, guard_process_exit
from pacman.record import GameRecord, Outcome
from pacman.rules import Direction
from pacman.state import GameState


class Agent(Protocol):
    """A policy: picks an action for its agent index in a state.

    Optional hooks, called when present: `set_rng(rng)` (the game's generator, before the
    game), `register_initial_state(state)`, `final(state)`, `describe() -> str`, and a
    `last_decision` attribute with `nodes_generated` (search agents) and, for a traced search,
    a `trace` whose `summary()` the record keeps.
    """

    def get_action(self, state: GameState) -> Any:
        """The action to play in `state`."""


def describe(agent: object) -> str:
    """A one-line description of an agent (its `describe()` or its class name)."""
    method = getattr(agent, "describe", None)
    if not callable(method):
        return type(agent).__name__
    text = method()
    if not isinstance(text, str):
        raise TypeError(f"describe() returned {type(text).__name__}, not str")
    return text.replace("\n", " ")[:200]


class _Fault(Exception):
    def __init__(self, outcome: Outcome, agent: int, message: str) -> None:
        super().__init__(message)
        self.outcome, self.agent, self.message = outcome, agent, message


def run_game(layout: Layout, pacman_agent: Agent, ghost_agents: Sequence[Agent], *,
             seed: int = 0, max_moves: int | None = None,
             move_time_limit: float | None = None, game_time_limit: float | None = None,
             display: Display | None = None) -> GameRecord:
    """Play one game and return its record.

    The layout keeps as many ghosts as `ghost_agents` (docs/rules.md 5). `max_moves` caps
    Pacman's moves (outcome `capped`). `move_time_limit` (seconds per agent move, start-up
    included) and `game_time_limit` (seconds for the whole game) end the game with `timeout`;
    in the main thread a move is interrupted when its time is up, elsewhere it is measured when
    it returns (for limits that stop any code, see `pacman.hosting.watched`). Anything an agent
    raises (`SystemExit`, its own `KeyboardInterrupt`, `os._exit`), an illegal or unreadable action,
    or an agent hook that fails (`describe`, `set_rng`, `register_initial_state`, `final`) ends
    the game with `crash`. Nothing here uses the global `random`: one `random.Random(seed)` is
    handed to every agent that has `set_rng`.
    """
    if len(ghost_agents) > len(layout.ghost_starts):
        raise ValueError(f"{len(ghost_agents)} ghost agents but layout {layout.name} has only "
                         f"{len(layout.ghost_starts)} ghost start(s)")
    display = display or NullDisplay()
    agents: list[Agent] = [pacman_agent, *ghost_agents]
    state = GameState.initial(layout, len(ghost_agents))
    rng = random.Random(seed)
    think = [0.0] * len(agents)
    actions: list[str] = []
    nodes: list[int | None] = []
    traces: list[dict[str, Any] | None] = []
    move_times: list[float] = []
    pacman_moves = 0
    outcome: Outcome | None = None
    fault_agent: int | None = None
    fault: str | None = None
    names: list[str] = []
    clock = time.perf_counter
    limited = move_time_limit is not None or game_time_limit is not None
    deadline = float("inf") if game_time_limit is None else clock() + game_time_limit
    with guard_process_exit(), MoveTimer() as timer:
        try:
            for index, agent in enumerate(agents):
                names.append(_guard(index, describe, agent))
            for index, agent in enumerate(agents):
                set_rng = getattr(agent, "set_rng", None)
                if callable(set_rng):
                    _guard(index, set_rng, rng)
                if not callable(getattr(agent, "get_action", None)):
                    raise _Fault(Outcome.CRASH, index, f"{type(agent).__name__} has no "
                                 "get_action(state) method")
                register = getattr(agent, "register_initial_state", None)
                if callable(register):
                    started = clock()
                    if limited:
                        _limited(index, register, state, move_time_limit, deadline, timer)
                    else:
                        _guard(index, register, state)
                    think[index] += clock() - started
            display.start(state, tuple(names))
            show = not isinstance(display, NullDisplay)
            limit = float("inf") if move_time_limit is None else move_time_limit
            cap = -1 if max_moves is None else max_moves
            while outcome is None:
                for index, agent in enumerate(agents):
                    if index == 0 and pacman_moves == cap:
                        outcome = Outcome.CAPPED
                        break
                    started = clock()
                    if limited:
                        action = _limited(index, agent.get_action, state, move_time_limit,
                                          deadline, timer)
                    else:
                        action = _guard(index, agent.get_action, state)
                    seconds = clock() - started
                    think[index] += seconds
                    if seconds > limit:
                        raise _Fault(Outcome.TIMEOUT, index, f"move took {seconds:.3f}s, over "
                                     f"the limit of {limit:g}s")
                    if started + seconds > deadline:
                        raise _Fault(Outcome.TIMEOUT, index, "the game went over its limit of "
                                     f"{game_time_limit:g}s")
                    try:
                        state = state.successor(index, action)
                        name = _ACTION_NAMES[action]  # legal, so one of the five
                    except BaseException as error:  # the action's own methods may raise
                        if is_user_interrupt(error):
                            raise
                        legal = ", ".join(state.legal_actions(index))
                        raise _Fault(Outcome.CRASH, index,
                                     f"illegal action {_shown(action)} (legal: {legal})"
                                     ) from None
                    actions.append(name)
                    move_nodes = move_trace = None
                    if index == 0:
                        pacman_moves += 1
                        move_times.append(seconds)
                        decision = getattr(agent, "last_decision", None)
                        if decision is not None:
                            move_nodes = getattr(decision, "nodes_generated", None)
                            if not isinstance(move_nodes, int) or isinstance(move_nodes, bool):
                                move_nodes = None
                        nodes.append(move_nodes)
                        summary = _trace_summary(decision)
                        traces.append(summary)
                        if summary is not None:
                            move_trace = getattr(decision, "trace", None)
                    if show:
                        display.update(state, MoveInfo(index, name, seconds, move_nodes,
                                                       pacman_moves, move_trace))
                    if state.is_terminal():
                        outcome = Outcome.WIN if state.is_win() else Outcome.LOSS
                        break
        except _Fault as problem:
            outcome, fault_agent, fault = problem.outcome, problem.agent, problem.message
        except GameStopped:
            outcome = Outcome.STOPPED
        for index, agent in enumerate(agents):
            final = getattr(agent, "final", None)
            if callable(final):
                try:
                    _guard(index, final, state)
                except _Fault as problem:
                    if fault is None:
                        outcome, fault_agent = Outcome.CRASH, index
                        fault = f"in final(): {problem.message}"
    names += [type(agent).__name__ for agent in agents[len(names):]]
    record = GameRecord(
        layout=layout.name, seed=seed, agents=tuple(names), outcome=outcome, score=state.score,
        pacman_moves=pacman_moves, actions=tuple(actions), fault_agent=fault_agent,
        fault=fault, pacman_nodes=tuple(nodes), think_time=tuple(think),
        pacman_move_times=tuple(move_times),
        pacman_traces=tuple(traces) if any(t is not None for t in traces) else ())
    display.finish(state, record)
    return record


def _trace_summary(decision: object) -> dict[str, Any] | None:
    """The summary of a traced search's decision (`pacman.agents.trace`), or None."""
    try:
        summary = getattr(getattr(decision, "trace", None), "summary", None)
        result = summary() if callable(summary) else None
    except Exception:  # agent code: a broken trace is no trace, never a lost game
        return None
    return result if isinstance(result, dict) else None


#: a legal action (a Direction or its string) -> its name; Direction hashes as its string
_ACTION_NAMES: dict[object, str] = {d: d.value for d in Direction}


def _shown(action: object) -> str:
    """An agent's action for a message, even if its repr fails."""
    try:
        return repr(action)[:80]
    except BaseException:
        return f"<unprintable {type(action).__name__}>"


def _guard(index: int, call: Any, argument: Any) -> Any:
    """Run an agent's code; anything it raises becomes a `crash` fault of that agent."""
    try:
        return call(argument)
    except (GameStopped, GameRestart):
        raise
    except BaseException as error:  # SystemExit and an agent's own KeyboardInterrupt too
        if is_user_interrupt(error):
            raise
        if isinstance(error, MoveTimeLimit):
            raise
        raise _Fault(Outcome.CRASH, index, _describe_error(error)) from error


def _limited(index: int, call: Any, state: GameState, move_time_limit: float | None,
             deadline: float, timer: MoveTimer) -> Any:
    """`_guard` with the move interrupted when the move's or the game's time is up."""
    left = deadline - time.perf_counter()
    budget = left if move_time_limit is None else min(move_time_limit, left)
    try:
        timer.arm(budget)
        try:
            return _guard(index, call, state)
        finally:
            timer.disarm()
    except MoveTimeLimit:
        over_game = budget == left
        reason = ("the game went over its time limit" if over_game else
                  f"move went over the limit of {move_time_limit:g}s")
        raise _Fault(Outcome.TIMEOUT, index, f"{reason} and was stopped") from None


def _describe_error(error: BaseException) -> str:
    try:
        text = str(error)
    except BaseException:
        text = "<unprintable>"
    return f"{type(error).__name__}: {text}" if text else type(error).__name__
