"""Games with hard time limits: the agents play in a child process that is stopped when late.

An unlimited game runs in the caller's process, as fast as `run_game` goes. A game with a
per-move or per-game limit runs in a child (`pacman.hosting.game_worker`), which streams every move;
this side mirrors the game on its own state (so a window shows it as usual) and holds the
clock. The child's own soft limits normally end a late move as `timeout` by themselves; when
they cannot (an agent that catches every exception, loops in C code, or sleeps past a signal)
the child is killed, the game is recorded as `timeout` with the moves made so far, and a fresh
child plays the next game. A child that dies (`os._exit`, a crash in C code, the memory cap)
records the game as the `crash` of the agent whose move it was.

Measured with `python scripts/bench_limits.py`: the child costs one process start per
`WatchedGames` (about 0.2-0.3 s) and a message per move.
"""

from __future__ import annotations

import time
from typing import Any

from pacman.display.protocol import Display, GameRestart, GameStopped, MoveInfo, NullDisplay
from pacman.errors import AgentSetupError
from pacman.hosting.isolation import Child, ChildDied, Limits
from pacman.record import GameRecord, Outcome
from pacman.state import GameState
from pacman.task import GameSpec

__all__ = ["AgentSetupError", "GameSpec", "WatchedGames"]

# `GameSpec` is the one description of a game (`pacman.task`), re-exported for the callers here

WORKER = "pacman.hosting.game_worker"
#: how long past its limit a move or a game may run before its process is stopped: the
#: child's own interrupt comes first, this is for code that ignores it
GRACE = 1.0


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
            self._child = Child(WORKER, Limits(memory_mb=self.memory_mb))
        return self._child

    def _stop(self) -> str:
        output = ""
        if self._child is not None:
            self._child.kill()
            output = self._child.close()
            self._child = None
        return output

    def play(self, spec: GameSpec, display: Display | None = None) -> GameRecord:
        """Play one game; raises AgentSetupError if its agents cannot be built, and lets the
        display's GameRestart through (the caller plays the game again)."""
        display = display or NullDisplay()
        child = self._start()
        mirror = _Mirror(spec, display)
        try:
            child.send({"game": spec.to_json(), "isolation": self.isolation})
            return self._follow(child, spec, mirror)
        except ChildDied as died:
            self._stop()
            return mirror.ended(Outcome.CRASH, f"the agents' process died ({died.reason})")
        except GameStopped:
            self._stop()
            return mirror.ended(Outcome.STOPPED, None)
        except GameRestart:
            self._stop()
            raise

    def _follow(self, child: Child, spec: GameSpec, mirror: _Mirror) -> GameRecord:
        started = time.monotonic()
        agents = spec.num_ghosts + 1
        game_deadline = (float("inf") if spec.game_time_limit is None
                         else started + spec.game_time_limit + GRACE)
        per_move = None if spec.move_time_limit is None else spec.move_time_limit + GRACE
        # start-up: every agent may take a move's time to register
        move_deadline = float("inf") if per_move is None else started + agents * per_move
        while True:
            now = time.monotonic()
            wait = min(game_deadline, move_deadline) - now
            message = child.receive(None if wait == float("inf") else max(0.0, wait))
            if message is None:
                late_game = time.monotonic() >= game_deadline
                self._stop()
                reason = (f"the game went over its time limit of {spec.game_time_limit:g}s"
                          if late_game else
                          f"move went over the limit of {spec.move_time_limit:g}s")
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
                record = GameRecord.from_dict(message["record"])
                mirror.display.finish(mirror.state, record)
                return record
            elif event == "error":
                raise AgentSetupError(str(message.get("message", "the agents failed")))


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
        self.names = tuple(str(n) for n in message.get("names", self.names))
        self.display.start(self.state, self.names)

    def move(self, message: dict[str, Any]) -> None:
        agent, action = int(message["agent"]), str(message["action"])
        self.state = self.state.successor(agent, action)
        self.actions.append(action)
        seconds = float(message.get("seconds", 0.0))
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
