"""`run_game`: the turn loop with seeds, move cap, time limits and crash handling."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any, Protocol

from pacman.display.base import Display, GameRestart, GameStopped, MoveInfo, NullDisplay
from pacman.interrupts import is_user_interrupt
from pacman.layout import Layout
from pacman.record import GameRecord, Outcome
from pacman.rules import Direction
from pacman.state import GameState, IllegalMoveError


class Agent(Protocol):
    """A policy: picks an action for its agent index in a state.

    Optional hooks, called when present: `set_rng(rng)` (the game's generator, before the
    game), `register_initial_state(state)`, `final(state)`, `describe() -> str`, and a
    `last_decision` attribute with `nodes_generated` (search agents) for the record.
    """

    def get_action(self, state: GameState) -> Any:
        """The action to play in `state`."""


def describe(agent: object) -> str:
    """A one-line description of an agent (its `describe()` or its class name)."""
    method = getattr(agent, "describe", None)
    return str(method()) if callable(method) else type(agent).__name__


class _Fault(Exception):
    def __init__(self, outcome: Outcome, agent: int, message: str) -> None:
        super().__init__(message)
        self.outcome, self.agent, self.message = outcome, agent, message


def run_game(layout: Layout, pacman_agent: Agent, ghost_agents: Sequence[Agent], *,
             seed: int = 0, max_moves: int | None = None,
             move_time_limit: float | None = None,
             display: Display | None = None) -> GameRecord:
    """Play one game and return its record.

    The layout keeps as many ghosts as `ghost_agents` (docs/rules.md 5). `max_moves` caps Pacman's
    moves (outcome `capped`); `move_time_limit` (seconds) ends the game with `timeout` when a
    single move takes longer. An agent that raises or returns an illegal action ends the game
    with `crash`. Nothing here uses the global `random`: one `random.Random(seed)` is handed to
    every agent that has `set_rng`.
    """
    if len(ghost_agents) > len(layout.ghost_starts):
        raise ValueError(f"{len(ghost_agents)} ghost agents but layout {layout.name} has only "
                         f"{len(layout.ghost_starts)} ghost start(s)")
    display = display or NullDisplay()
    agents: list[Agent] = [pacman_agent, *ghost_agents]
    state = GameState.initial(layout, len(ghost_agents))
    rng = random.Random(seed)
    names = tuple(describe(agent) for agent in agents)
    think = [0.0] * len(agents)
    actions: list[str] = []
    nodes: list[int | None] = []
    move_times: list[float] = []
    pacman_moves = 0
    outcome: Outcome | None = None
    fault_agent: int | None = None
    fault: str | None = None
    try:
        for index, agent in enumerate(agents):
            set_rng = getattr(agent, "set_rng", None)
            if callable(set_rng):
                set_rng(rng)
            register = getattr(agent, "register_initial_state", None)
            if callable(register):
                started = time.perf_counter()
                _guard(index, register, state)
                think[index] += time.perf_counter() - started
        display.start(state, names)
        show = not isinstance(display, NullDisplay)
        clock = time.perf_counter
        limit = float("inf") if move_time_limit is None else move_time_limit
        cap = -1 if max_moves is None else max_moves
        while outcome is None:
            for index, agent in enumerate(agents):
                if index == 0 and pacman_moves == cap:
                    outcome = Outcome.CAPPED
                    break
                started = clock()
                action = _guard(index, agent.get_action, state)
                seconds = clock() - started
                think[index] += seconds
                if seconds > limit:
                    raise _Fault(Outcome.TIMEOUT, index, f"move took {seconds:.3f}s, over the "
                                 f"limit of {limit:g}s")
                try:
                    state = state.successor(index, action)
                except (IllegalMoveError, AttributeError, TypeError):
                    legal = ", ".join(state.legal_actions(index))
                    raise _Fault(Outcome.CRASH, index,
                                 f"illegal action {action!r} (legal: {legal})") from None
                actions.append(action)
                move_nodes = None
                if index == 0:
                    pacman_moves += 1
                    move_times.append(seconds)
                    decision = getattr(agent, "last_decision", None)
                    if decision is not None:
                        move_nodes = getattr(decision, "nodes_generated", None)
                    nodes.append(move_nodes)
                if show:
                    display.update(state, MoveInfo(index, str(action), seconds, move_nodes,
                                                   pacman_moves))
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
                final(state)
            except Exception as error:
                if fault is None:
                    outcome, fault_agent = Outcome.CRASH, index
                    fault = f"in final(): {type(error).__name__}: {error}"
    record = GameRecord(
        layout=layout.name, seed=seed, agents=names, outcome=outcome, score=state.score,
        pacman_moves=pacman_moves, actions=tuple(str(a.value if isinstance(a, Direction) else a)
                                                  for a in actions), fault_agent=fault_agent,
        fault=fault, pacman_nodes=tuple(nodes), think_time=tuple(think),
        pacman_move_times=tuple(move_times))
    display.finish(state, record)
    return record


def _guard(index: int, call: Any, state: GameState) -> Any:
    """Run an agent's code; its exception becomes a `crash` fault of that agent."""
    try:
        return call(state)
    except (GameStopped, GameRestart):
        raise
    except BaseException as error:  # SystemExit and an agent's own KeyboardInterrupt too
        if is_user_interrupt(error):
            raise
        raise _Fault(Outcome.CRASH, index, f"{type(error).__name__}: {error}") from error
