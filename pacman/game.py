"""`run_game`: the turn loop with seeds, move cap, time limits and crash handling."""

from __future__ import annotations

import random
import time
import warnings
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from pacman.display.protocol import Display, GameRestart, GameStopped, MoveInfo, NullDisplay
from pacman.errors import LayoutError, LimitError
from pacman.interrupts import is_user_interrupt
from pacman.layout import Layout
from pacman.limits import MoveTimeLimit, MoveTimer, TimeLimits, guard_process_exit
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
    """A one-line description of an agent (its `describe()` or its class name), at most 200
    characters, each lone surrogate (U+D800 to U+DFFF, which no UTF-8 encoder writes: a text
    display, a picture's status line, a replay page) replaced by U+FFFD, as a replay's names
    are read (`pacman.replay.reader.safe_text`): the record keeps this name."""
    method = getattr(agent, "describe", None)
    if not callable(method):
        return type(agent).__name__
    text = method()
    if not isinstance(text, str):
        raise TypeError(f"describe() returned {type(text).__name__}, not str")
    text = text.replace("\n", " ")[:200]
    if text.isascii():
        return text
    return "".join("\ufffd" if "\ud800" <= char <= "\udfff" else char for char in text)


class _Fault(Exception):
    def __init__(self, outcome: Outcome, agent: int, message: str) -> None:
        super().__init__(message)
        self.outcome, self.agent, self.message = outcome, agent, message


def run_game(layout: Layout, pacman_agent: Agent, ghost_agents: Sequence[Agent], *,
             seed: int = 0, max_moves: int | None = None, limits: TimeLimits | None = None,
             display: Display | None = None, classic: bool = False,
             describe_fault: Callable[[BaseException], str] | None = None,
             move_time_limit: float | None = None,
             game_time_limit: float | None = None) -> GameRecord:
    """Play one game and return its record: the one turn loop of the package.

    Every agent's `register_initial_state`, then turns from Pacman on, each agent in index
    order; the game ends at once on a win or a loss. The layout keeps as many ghosts as
    `ghost_agents` (docs/rules.md 5).

    Args:
        layout: the maze.
        pacman_agent: agent 0.
        ghost_agents: agents 1, 2, ...; no more than the layout has ghost starts.
        seed: the seed of the one `random.Random(seed)` handed to every agent that has
            `set_rng`; nothing here uses the global `random`.
        max_moves: a cap on Pacman's moves (outcome `capped`); None: none.
        limits: the time limits (`TimeLimits`): a move, an agent's game or the game over its
            limit ends the game with `timeout`. In the main thread a move is interrupted when
            its time is up, elsewhere it is measured when it returns (for limits that stop any
            code, see `pacman.hosting.watched`).
        display: shown each move; None: nothing shown.
        classic: the classic CS188 loop, as its autograder plays games: the agents draw from
            the global `random` (which the caller seeds), and only `register_initial_state`
            and `get_action` are called (no `describe`: the record names their classes; no
            `set_rng`, no `final`).
        describe_fault: how an exception an agent raised is written in the record (None:
            `Type: message`).
        move_time_limit: the same as `limits=TimeLimits(move=...)` (an older spelling).
        game_time_limit: the same as `limits=TimeLimits(game=...)` (an older spelling).

    Returns:
        The record. Anything an agent raises (`SystemExit`, its own `KeyboardInterrupt`,
        `os._exit`), an illegal or unreadable action, or an agent hook that fails (`describe`,
        `set_rng`, `register_initial_state`, `final`) ends the game with `crash`; the game's
        caller sees no exception of the agents'.
    """
    if len(ghost_agents) > len(layout.ghost_starts):
        raise LayoutError(layout.name, f"{len(ghost_agents)} ghost agents but the layout has "
                          f"only {len(layout.ghost_starts)} ghost start(s)")
    if limits is None:
        limits = TimeLimits(move=move_time_limit, game=game_time_limit)
    elif move_time_limit is not None or game_time_limit is not None:
        raise LimitError("give the time limits once: limits=TimeLimits(...), or "
                         "move_time_limit and game_time_limit")
    game = _Game(layout, [pacman_agent, *ghost_agents], limits, display or NullDisplay(),
                 describe_fault or _describe_error)
    with guard_process_exit(), MoveTimer() as game.timer:
        try:
            game.start(None if classic else random.Random(seed))
            game.play(-1 if max_moves is None else max_moves)
        except _Fault as problem:
            game.outcome, game.fault_agent, game.fault = (problem.outcome, problem.agent,
                                                          problem.message)
        except GameStopped:
            game.outcome = Outcome.STOPPED
        if not classic:
            game.finish()
    record = game.record(layout.name, seed)
    game.display.finish(game.state, record)
    return record


class _Game:
    """One game as it is played: the agents, the state, and what the record will hold."""

    def __init__(self, layout: Layout, agents: list[Agent], limits: TimeLimits,
                 display: Display, describe_fault: Callable[[BaseException], str]) -> None:
        self.agents, self.limits, self.display = agents, limits, display
        self.describe_fault = describe_fault
        self.state = GameState.initial(layout, len(agents) - 1)
        self.timer = MoveTimer()
        self.think = [0.0] * len(agents)
        self.actions: list[str] = []
        self.nodes: list[int | None] = []
        self.traces: list[dict[str, Any] | None] = []
        self.move_times: list[float] = []
        self.names: list[str] = []
        self.pacman_moves = 0
        self.outcome: Outcome | None = None
        self.fault_agent: int | None = None
        self.fault: str | None = None
        game = limits.game
        self.deadline = float("inf") if game is None else time.perf_counter() + game

    def guard(self, index: int, call: Any, argument: Any) -> Any:
        """Run an agent's code; anything it raises becomes a `crash` fault of that agent."""
        try:
            return call(argument)
        except (GameStopped, GameRestart, MoveTimeLimit):
            raise
        except BaseException as error:  # SystemExit and an agent's own KeyboardInterrupt too
            if is_user_interrupt(error):
                raise
            raise _Fault(Outcome.CRASH, index, self.describe_fault(error)) from error

    def timed(self, index: int, call: Any) -> tuple[Any, float]:
        """`call(state)` for agent `index` within its limits: its result and its seconds."""
        limits = self.limits
        started = time.perf_counter()
        if not limits.limited:
            result = self.guard(index, call, self.state)
        else:
            result = self._interrupted(index, call, started)
        seconds = time.perf_counter() - started
        self.think[index] += seconds
        if limits.limited:
            self._check(index, started, seconds)
        return result, seconds

    def _interrupted(self, index: int, call: Any, started: float) -> Any:
        """`guard` with the call interrupted when the move's, the agent's or the game's time
        is up."""
        limits = self.limits
        budgets = [(self.deadline - started, "the game went over its time limit")]
        if limits.move is not None:
            budgets.append((limits.move, f"move went over the limit of {limits.move:g}s"))
        if limits.agent_game is not None:
            budgets.append((limits.agent_game - self.think[index],
                            f"{_who(index)} went over its limit of {limits.agent_game:g}s for "
                            "the game"))
        budget, reason = min(budgets, key=lambda pair: pair[0])
        try:
            self.timer.arm(max(budget, 1e-3))
            try:
                return self.guard(index, call, self.state)
            finally:
                self.timer.disarm()
        except MoveTimeLimit as stopped:
            where = f" ({stopped.where})" if stopped.where else ""
            raise _Fault(Outcome.TIMEOUT, index, f"{reason} and was stopped{where}") from None

    def _check(self, index: int, started: float, seconds: float) -> None:
        """A call that returned over a limit (it was not interrupted) is a timeout."""
        limits = self.limits
        if limits.move is not None and seconds > limits.move:
            raise _Fault(Outcome.TIMEOUT, index, f"move took {seconds:.3f}s, over the limit "
                         f"of {limits.move:g}s")
        if limits.agent_game is not None and self.think[index] > limits.agent_game:
            raise _Fault(Outcome.TIMEOUT, index, f"{_who(index)} thought "
                         f"{self.think[index]:.3f}s in the game, over its limit of "
                         f"{limits.agent_game:g}s")
        if started + seconds > self.deadline:
            raise _Fault(Outcome.TIMEOUT, index, "the game went over its limit of "
                         f"{limits.game:g}s")

    def start(self, rng: random.Random | None) -> None:
        """Name the agents, hand out the generator, register, show the start. Without a
        generator (the classic loop), no `describe` and no `set_rng` is called."""
        for index, agent in enumerate(self.agents):
            self.names.append(type(agent).__name__ if rng is None
                              else self.guard(index, describe, agent))
        for index, agent in enumerate(self.agents):
            set_rng = getattr(agent, "set_rng", None)
            if rng is not None and callable(set_rng):
                self.guard(index, set_rng, rng)
            if not callable(getattr(agent, "get_action", None)):
                raise _Fault(Outcome.CRASH, index, f"{type(agent).__name__} has no "
                             "get_action(state) method")
            register = getattr(agent, "register_initial_state", None)
            if callable(register):
                self.timed(index, register)
        self.display.start(self.state, tuple(self.names))

    def play(self, cap: int) -> None:
        """Turns until the game ends (`outcome` set) or Pacman has made `cap` moves. The hot
        loop of every game: what `timed` does, inlined, with the limits' checks only when
        there are limits."""
        show = not isinstance(self.display, NullDisplay)
        agents, think, guard = self.agents, self.think, self.guard
        append, names = self.actions.append, _ACTION_NAMES
        limited = self.limits.limited
        clock = time.perf_counter
        state = self.state
        while True:
            for index, agent in enumerate(agents):
                if index == 0 and self.pacman_moves == cap:
                    self.outcome = Outcome.CAPPED
                    return
                started = clock()
                if limited:
                    action = self._interrupted(index, agent.get_action, started)
                else:
                    action = guard(index, agent.get_action, state)
                seconds = clock() - started
                think[index] += seconds
                if limited:
                    self._check(index, started, seconds)
                try:
                    state = self.state = state.successor(index, action)
                    name = names[action]  # legal, so one of the five
                except BaseException as error:  # the action's own methods may raise
                    if is_user_interrupt(error):
                        raise
                    legal = ", ".join(self.state.legal_actions(index))
                    raise _Fault(Outcome.CRASH, index,
                                 f"illegal action {_shown(action)} (legal: {legal})") from None
                append(name)
                move_nodes = move_trace = None
                if index == 0:
                    move_nodes, move_trace = self._pacman_moved(agent, seconds)
                if show:
                    self.display.update(state, MoveInfo(
                        index, name, seconds, move_nodes, self.pacman_moves, move_trace))
                if state.is_terminal():
                    self.outcome = Outcome.WIN if state.is_win() else Outcome.LOSS
                    return

    def _pacman_moved(self, agent: Agent, seconds: float) -> tuple[int | None, Any]:
        """Keep a Pacman move's time, node count and trace summary; the nodes and the trace
        to show."""
        self.pacman_moves += 1
        self.move_times.append(seconds)
        decision = getattr(agent, "last_decision", None)
        move_nodes = None
        if decision is not None:
            move_nodes = getattr(decision, "nodes_generated", None)
            if not isinstance(move_nodes, int) or isinstance(move_nodes, bool):
                move_nodes = None
        self.nodes.append(move_nodes)
        summary = _trace_summary(decision)
        self.traces.append(summary)
        return move_nodes, (None if summary is None else getattr(decision, "trace", None))

    def finish(self) -> None:
        """Every agent's `final(state)`; the first that fails is the game's fault if it had
        none."""
        for index, agent in enumerate(self.agents):
            final = getattr(agent, "final", None)
            if callable(final):
                try:
                    self.guard(index, final, self.state)
                except _Fault as problem:
                    if self.fault is None:
                        self.outcome, self.fault_agent = Outcome.CRASH, index
                        self.fault = f"in final(): {problem.message}"

    def record(self, layout: str, seed: int) -> GameRecord:
        """The game's record."""
        names = self.names + [type(agent).__name__ for agent in self.agents[len(self.names):]]
        traces = self.traces
        assert self.outcome is not None, "every way out of the loop sets the outcome"
        return GameRecord(
            layout=layout, seed=seed, agents=tuple(names), outcome=self.outcome,
            score=self.state.score, pacman_moves=self.pacman_moves, actions=tuple(self.actions),
            fault_agent=self.fault_agent, fault=self.fault, pacman_nodes=tuple(self.nodes),
            think_time=tuple(self.think), pacman_move_times=tuple(self.move_times),
            pacman_traces=tuple(traces) if any(t is not None for t in traces) else ())


def _who(index: int) -> str:
    return "Pacman" if index == 0 else f"ghost {index}"


class TraceDropped(UserWarning):
    """A move's search summary that a replay could not hold (not JSON, a number too big, a
    field of the wrong type): the move is recorded without it, and this warning says why."""


def _trace_summary(decision: object) -> dict[str, Any] | None:
    """The summary of a traced search's decision (`pacman.agents.trace`), or None: checked as
    a replay reads it (`pacman.replay.reader.trace_problem`), so that the record always writes
    a replay that reads back; a summary that fails is dropped with a `TraceDropped` warning."""
    try:
        summary = getattr(getattr(decision, "trace", None), "summary", None)
        result = summary() if callable(summary) else None
    except Exception:  # agent code: a broken trace is no trace, never a lost game
        return None
    if not isinstance(result, dict):
        return None
    from pacman.replay.reader import trace_problem  # only for a traced move

    problem = trace_problem(result)
    if problem is not None:
        warnings.warn(TraceDropped(f"a move's search summary was dropped: {problem}"),
                      stacklevel=2)
        return None
    return result


#: a legal action (a Direction or its string) -> its name; Direction hashes as its string
_ACTION_NAMES: dict[object, str] = {d: d.value for d in Direction}


def _shown(action: object) -> str:
    """An agent's action for a message, even if its repr fails."""
    try:
        return repr(action)[:80]
    except BaseException:
        return f"<unprintable {type(action).__name__}>"


def _describe_error(error: BaseException) -> str:
    try:
        text = str(error)
    except BaseException:
        text = "<unprintable>"
    return f"{type(error).__name__}: {text}" if text else type(error).__name__
