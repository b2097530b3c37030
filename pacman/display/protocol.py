"""The small `Display` protocol every view implements, and `NullDisplay` for batch runs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from pacman.record import GameRecord
    from pacman.state import GameState


class GameStopped(Exception):
    """Raised by a display when the user quits: the game ends with outcome `stopped`."""


class GameRestart(Exception):
    """Raised by a display when the user asks to restart the game with the same seed."""


@dataclass(frozen=True)
class MoveInfo:
    """What the display may show about the move that produced a state.

    `trace`: for a Pacman move of a traced search, the search's trace (`pacman.agents.trace.
    SearchTrace`: `summary()`, `to_json()`), else None.
    """

    agent: int
    action: str
    seconds: float
    nodes: int | None
    pacman_moves: int
    trace: Any = None


class Display(Protocol):
    """A view of a game: told when it starts, after every move, and when it ends."""

    def start(self, state: GameState, agents: tuple[str, ...]) -> None:
        """Show the initial state; `agents` are the agents' descriptions."""

    def update(self, state: GameState, move: MoveInfo) -> None:
        """Show the state after a move; may raise `GameStopped` or `GameRestart`."""

    def finish(self, state: GameState, record: GameRecord) -> None:
        """Show the final state and outcome."""


class NullDisplay:
    """Shows nothing: for batch runs and tests."""

    def start(self, state: GameState, agents: tuple[str, ...]) -> None:
        """Do nothing."""

    def update(self, state: GameState, move: MoveInfo) -> None:
        """Do nothing."""

    def finish(self, state: GameState, record: GameRecord) -> None:
        """Do nothing."""
