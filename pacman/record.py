"""`GameRecord`: everything a finished game leaves behind, and its JSON replay form."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any


class Outcome(str, Enum):
    """How a game ended."""

    WIN = "win"
    LOSS = "loss"
    CRASH = "crash"
    TIMEOUT = "timeout"
    CAPPED = "capped"
    STOPPED = "stopped"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class GameRecord:
    """The result of one game. Timings are measurements, so they do not take part in `==`."""

    layout: str
    seed: int
    agents: tuple[str, ...]
    outcome: Outcome
    score: int
    pacman_moves: int
    actions: tuple[str, ...]
    #: agent index that crashed or timed out, and what happened (None otherwise)
    fault_agent: int | None = None
    fault: str | None = None
    #: search nodes generated for each Pacman move (None where the agent does not report it)
    pacman_nodes: tuple[int | None, ...] = ()
    think_time: tuple[float, ...] = field(default=(), compare=False)
    pacman_move_times: tuple[float, ...] = field(default=(), compare=False)
    #: a traced search's summary for each Pacman move (None where it was not traced); empty
    #: when no move was traced (`pacman.agents.trace`)
    pacman_traces: tuple[dict[str, Any] | None, ...] = field(default=(), compare=False)

    @property
    def won(self) -> bool:
        """True if Pacman won."""
        return self.outcome is Outcome.WIN

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of the record."""
        return {
            "layout": self.layout, "seed": self.seed, "agents": list(self.agents),
            "outcome": self.outcome.value, "score": self.score,
            "pacman_moves": self.pacman_moves, "actions": list(self.actions),
            "fault_agent": self.fault_agent, "fault": self.fault,
            "pacman_nodes": list(self.pacman_nodes), "think_time": list(self.think_time),
            "pacman_move_times": list(self.pacman_move_times),
            **({"pacman_traces": list(self.pacman_traces)} if self.pacman_traces else {}),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameRecord:
        """Rebuild a record from `to_dict` output; raises KeyError/ValueError if malformed.

        Whole numbers stay whole: a fractional or infinite score, seed or move count is a
        ValueError, never rounded. (`pacman.replay` checks replay files more strictly.)
        """
        fault_agent = data.get("fault_agent")
        return cls(
            layout=str(data["layout"]), seed=_whole(data["seed"], "seed"),
            agents=tuple(str(a) for a in data["agents"]), outcome=Outcome(data["outcome"]),
            score=_whole(data["score"], "score"),
            pacman_moves=_whole(data["pacman_moves"], "pacman_moves"),
            actions=tuple(str(a) for a in data["actions"]),
            fault_agent=None if fault_agent is None else _whole(fault_agent, "fault_agent"),
            fault=data.get("fault"),
            pacman_nodes=tuple(None if n is None else _whole(n, "pacman_nodes")
                               for n in data.get("pacman_nodes", ())),
            think_time=tuple(float(t) for t in data.get("think_time", ())),
            pacman_move_times=tuple(float(t) for t in data.get("pacman_move_times", ())),
            pacman_traces=tuple(_trace(t) for t in data.get("pacman_traces", ())),
        )


def _trace(value: Any) -> dict[str, Any] | None:
    if value is not None and not isinstance(value, dict):
        raise ValueError(f"a move's trace must be an object or null, got {type(value).__name__}")
    return value


def _whole(value: Any, name: str) -> int:
    """`value` as an int; ValueError for a fractional, infinite or non-numeric one."""
    if isinstance(value, float) and not value.is_integer():
        raise ValueError(f"{name} {value!r} is not a whole number")
    try:
        return int(value)
    except OverflowError:
        raise ValueError(f"{name} {value!r} is not a finite number") from None
