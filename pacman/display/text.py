"""A text display: prints the board after each round, as CS188's `-t`."""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING, TextIO

from pacman.display.protocol import MoveInfo

if TYPE_CHECKING:
    from pacman.record import GameRecord
    from pacman.state import GameState


def agent_name(agent: int) -> str:
    """'Pacman' for agent 0, 'ghost N' for the others."""
    return "Pacman" if agent == 0 else f"ghost {agent}"


class TextDisplay:
    """Prints the board as text after every round (and the final board).

    Each board comes after a line naming the moves that led to it, Pacman's first: `move 7:
    Pacman West, ghost 1 North, ghost 2 East` (with `every_move`, one move per board). The
    board's own last line is the score of the state shown.
    """

    def __init__(self, out: TextIO | None = None, frame_time: float = 0.0,
                 every_move: bool = False) -> None:
        self.out = out or sys.stdout
        self.frame_time = frame_time
        self.every_move = every_move
        self._round: list[MoveInfo] = []  # the moves since the last board printed

    def start(self, state: GameState, agents: tuple[str, ...]) -> None:
        """Print the agents and the initial board."""
        self._round = []
        self.out.write(f"{' vs '.join(agents)}\n{state}\n")

    def update(self, state: GameState, move: MoveInfo) -> None:
        """Print the board once per round (or every move with `every_move`)."""
        self._round.append(move)
        if self.every_move or move.agent == state.num_agents - 1 or state.is_terminal():
            moves = ", ".join(f"{agent_name(m.agent)} {m.action}" for m in self._round)
            self._round = []
            self.out.write(f"move {move.pacman_moves}: {moves}\n{state}\n")
            if self.frame_time > 0:
                time.sleep(self.frame_time)

    def finish(self, state: GameState, record: GameRecord) -> None:
        """Print the outcome (and the board, if the last moves were not shown yet)."""
        if self._round:  # the game ended mid-round (a crash, a timeout, a stop)
            moves = ", ".join(f"{agent_name(m.agent)} {m.action}" for m in self._round)
            self.out.write(f"move {self._round[-1].pacman_moves}: {moves}\n{state}\n")
            self._round = []
        fault = f" ({record.fault})" if record.fault else ""
        self.out.write(f"{record.outcome.value.upper()}: score {record.score} after "
                       f"{record.pacman_moves} Pacman moves{fault}\n")
