"""A text display: prints the board after each round, as CS188's `-t`."""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING, TextIO

from pacman.display.base import MoveInfo

if TYPE_CHECKING:
    from pacman.record import GameRecord
    from pacman.state import GameState


class TextDisplay:
    """Prints the board as text after every Pacman move (and the final board)."""

    def __init__(self, out: TextIO | None = None, frame_time: float = 0.0,
                 every_move: bool = False) -> None:
        self.out = out or sys.stdout
        self.frame_time = frame_time
        self.every_move = every_move

    def start(self, state: GameState, agents: tuple[str, ...]) -> None:
        """Print the agents and the initial board."""
        self.out.write(f"{' vs '.join(agents)}\n{state}\n")

    def update(self, state: GameState, move: MoveInfo) -> None:
        """Print the board once per round (or every move with `every_move`)."""
        if self.every_move or move.agent == state.num_agents - 1 or state.is_terminal():
            self.out.write(f"move {move.pacman_moves}: agent {move.agent} {move.action}\n"
                           f"{state}\n")
            if self.frame_time > 0:
                time.sleep(self.frame_time)

    def finish(self, state: GameState, record: GameRecord) -> None:
        """Print the outcome."""
        self.out.write(f"{record.outcome.value.upper()}: score {record.score} after "
                       f"{record.pacman_moves} Pacman moves\n")
