"""Games with hard time limits: the agents play in a child process that is stopped when late.

An unlimited game runs in the caller's process, as fast as `run_game` goes. A game with a
per-move or per-game limit runs in a child (`pacman.hosting.game_worker`), which streams every move;
this side mirrors the game on its own state (so a window shows it as usual) and holds the
clock. The child's own soft limits normally end a late move as `timeout` by themselves; when
they cannot (an agent that catches every exception, loops in C code, or sleeps past a signal)
the child is killed, the game is recorded as `timeout` with the moves made so far, and a fresh
child plays the next game. A child that dies (`os._exit`, a crash in C code, the memory cap)
records the game as the `crash` of the agent whose move it was, and so does a child that sends
what the game cannot follow (a move out of turn or against the rules, a broken record: agent
code writing on the channel).

`check(spec)` has the child build a game's agents before any game (a bad name, or code that
does not load within `load_limit`, is one line): the command's own process never runs them.

Measured with `python scripts/bench_limits.py`: the child costs one process start per
`WatchedGames` (about 0.2-0.3 s) and a message per move.
"""

from __future__ import annotations

import time
from typing import Any

from pacman.display.protocol import Display, GameRestart, GameStopped, MoveInfo, NullDisplay
from pacman.errors import AgentSetupError
from pacman.hosting.agent_host import load_timeout, trusted
from pacman.hosting.isolation import Child, ChildDied, ProcessLimits
from pacman.record import GameRecord, Outcome
from pacman.specs import GameSpec
from pacman.state import GameState

__all__ = ["AgentSetupError", "GameSpec", "WatchedGames"]

# `GameSpec` is the one description of a game (`pacman.specs`), re-exported for the callers here

WORKER = "pacman.hosting.game_worker"
#: how long past its limit a move or a game may run before its process is stopped: the
#: child's own interrupt comes first, this is for code that ignores it
GRACE = 1.0
#: how long the child may take to start (Python and this package's imports) on a busy machine
START_SECONDS = 10.0


class _Garbled(Exception):
    """The child sent something the game cannot follow."""


class WatchedGames:
    """Plays games in a child process under hard limits; reuses the child between games."""

    def __init__(self, memory_mb: int | None = None, isolation: str = "process") -> None:
        self.memory_mb = memory_mb
        self.isolation = isolation  # where the child puts the user's agents (`build_agents`)
        self._child: Child | None = None

    def close(self) -> None:
        """Stop the child (at once: between games it has nothing left to do)."""
        self._stop()

    def __enter__(self) -> WatchedGames:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _start(self) -> Child:
        if self._child is None or self._child.process.poll() is not None:
            self._child = Child(WORKER, ProcessLimits(memory_mb=self.memory_mb))
        return self._child

    def _stop(self) -> str:
        output = ""
        if self._child is not None:
            self._child.kill()
            output = self._child.close()
            self._child = None
        return output

    def check(self, spec: GameSpec) -> None:
        """Build the agents of `spec` in the child, as its games will, and keep the child for
        them: this process runs none of their code.

        Args:
            spec: the game (its time limit sets the limit on loading, `load_limit`).

        Raises:
            AgentSetupError: an agent that cannot be built, that takes longer than the limit
                to load, or whose loading ends the child (one line naming it).
        """
        seconds = spec.limits.load
        agents = [(agent, role) for agent, role in (
            (spec.pacman, "pacman"), *((ghost, "ghost") for ghost in spec.ghosts))
            if not trusted(agent.name, role, agent.settings_dict())]
        names = ", ".join(dict.fromkeys(agent.name for agent, _ in agents)) or "the agents"
        child = self._start()
        try:
            child.send({"game": spec.to_json(), "isolation": self.isolation, "check": True,
                        "load_seconds": seconds})
            # each of the user's agents may take the limit (a host's own is the same), and the
            # child must start first
            message = child.receive(seconds * max(1, len(agents)) + GRACE + START_SECONDS)
        except ChildDied as died:
            self._stop()
            raise AgentSetupError(f"{names} could not be loaded: its process died "
                                  f"({died.reason})") from None
        if message is None:
            self._stop()
            raise AgentSetupError(load_timeout(names, seconds))
        if message.get("event") != "built":
            self._stop()
            raise AgentSetupError(str(message.get("message", "the agents failed to load")))

    def play(self, spec: GameSpec, display: Display | None = None) -> GameRecord:
        """Play one game; raises AgentSetupError if its agents cannot be built, and lets the
        display's GameRestart through (the caller plays the game again)."""
        display = display or NullDisplay()
        child = self._start()
        mirror = _Mirror(spec, display)
        try:
            child.send({"game": spec.to_json(), "isolation": self.isolation,
                        "load_seconds": spec.limits.load})
            return self._follow(child, spec, mirror)
        except ChildDied as died:
            self._stop()
            return mirror.ended(Outcome.CRASH, f"the agents' process died ({died.reason})")
        except _Garbled as garbled:
            self._stop()
            return mirror.ended(Outcome.CRASH, f"the agents' process sent {garbled}")
        except GameStopped:
            self._stop()
            return mirror.ended(Outcome.STOPPED, None)
        except GameRestart:
            self._stop()
            raise

    def _follow(self, child: Child, spec: GameSpec, mirror: _Mirror) -> GameRecord:
        started = time.monotonic()
        agents = spec.num_ghosts + 1
        game_deadline = (float("inf") if spec.limits.game is None
                         else started + spec.limits.game + GRACE)
        per_move = None if spec.limits.move is None else spec.limits.move + GRACE
        # start-up: every agent may take a move's time to register
        move_deadline = float("inf") if per_move is None else started + agents * per_move
        while True:
            now = time.monotonic()
            wait = min(game_deadline, move_deadline) - now
            message = child.receive(None if wait == float("inf") else max(0.0, wait))
            if message is None:
                late_game = time.monotonic() >= game_deadline
                self._stop()
                reason = (f"the game went over its time limit of {spec.limits.game:g}s"
                          if late_game else
                          f"move went over the limit of {spec.limits.move:g}s")
                return mirror.ended(Outcome.TIMEOUT, f"{reason}; its process was stopped")
            event = message.get("event")
            if event == "move":
                mirror.move(message)
                if per_move is not None:
                    move_deadline = time.monotonic() + per_move
            elif event == "start":
                mirror.start(message)
                if per_move is not None:
                    move_deadline = time.monotonic() + per_move
            elif event == "record":
                try:
                    record = GameRecord.from_dict(message["record"])
                except (KeyError, TypeError, ValueError, AttributeError):
                    raise _Garbled("a record that cannot be read") from None
                mirror.display.finish(mirror.state, record)
                return record
            elif event == "error":
                raise AgentSetupError(str(message.get("message", "the agents failed")))
            else:
                raise _Garbled(f"a message the game does not know ({str(event)[:40]!r})")


class _Mirror:
    """The game as the parent sees it: its own state, the moves so far, the display."""

    def __init__(self, spec: GameSpec, display: Display) -> None:
        self.spec, self.display = spec, display
        self.state = GameState.initial(spec.layout, spec.num_ghosts)
        self.names: tuple[str, ...] = (spec.pacman.name, *(ghost.name for ghost in spec.ghosts))
        self.actions: list[str] = []
        self.nodes: list[int | None] = []
        self.move_times: list[float] = []
        self.pacman_moves = 0
        self.turn = 0

    def start(self, message: dict[str, Any]) -> None:
        names = message.get("names", self.names)
        if not isinstance(names, (list, tuple)) or len(names) != len(self.names):
            raise _Garbled("agent names that do not fit the game")
        self.names = tuple(str(n)[:200] for n in names)
        self.display.start(self.state, self.names)

    def move(self, message: dict[str, Any]) -> None:
        """Apply a move the child made; _Garbled if it is out of turn or not a legal move
        (the child's game would not be this one)."""
        agent, action = message.get("agent"), message.get("action")
        if type(agent) is not int or agent != self.turn or self.state.is_terminal() or (
                action not in self.state.legal_actions(agent)):
            raise _Garbled(f"a move the game does not allow (agent {str(agent)[:20]}, "
                           f"{str(action)[:20]})")
        try:
            seconds = float(message.get("seconds", 0.0))
        except (TypeError, ValueError):
            raise _Garbled("a move without a readable time") from None
        self.state = self.state.successor(agent, str(action))
        self.actions.append(str(action))
        nodes = message.get("nodes")
        if agent == 0:
            self.pacman_moves += 1
            self.move_times.append(seconds)
            self.nodes.append(nodes if isinstance(nodes, int) else None)
        self.turn = (agent + 1) % self.state.num_agents
        self.display.update(self.state, MoveInfo(agent, action, seconds,
                                                 nodes if agent == 0 else None,
                                                 self.pacman_moves))

    def ended(self, outcome: Outcome, fault: str | None) -> GameRecord:
        """The record of a game this side had to end."""
        record = GameRecord(
            layout=self.spec.layout.name, seed=self.spec.seed, agents=self.names,
            outcome=outcome, score=self.state.score, pacman_moves=self.pacman_moves,
            actions=tuple(self.actions), fault_agent=None if fault is None else self.turn,
            fault=fault, pacman_nodes=tuple(self.nodes),
            pacman_move_times=tuple(self.move_times))
        self.display.finish(self.state, record)
        return record
