"""The child side of `pacman.watched`: plays the games it is asked for and streams every move.

Each request names the layout (its text), the agents (registry names and settings), the seed,
the move cap and the time limits. The agents are built here and the game runs with `run_game`
(whose soft limits interrupt a slow move); every move is sent to the parent as it is made, and
the record when the game ends. The parent holds the hard limits: it stops this process when a
move or the game runs over and nothing came back.
"""

from __future__ import annotations

from typing import Any

from pacman.display.base import MoveInfo
from pacman.isolation import Channel, child_setup
from pacman.layout import LayoutError, parse_layout
from pacman.record import GameRecord
from pacman.state import GameState


class _Stream:
    """A display that sends each move to the parent."""

    def __init__(self, channel: Channel) -> None:
        self.channel = channel

    def start(self, state: GameState, names: tuple[str, ...]) -> None:
        self.channel.send({"event": "start", "names": list(names)})

    def update(self, state: GameState, move: MoveInfo) -> None:
        self.channel.send({"event": "move", "agent": move.agent, "action": move.action,
                           "seconds": move.seconds, "nodes": move.nodes})

    def finish(self, state: GameState, record: GameRecord) -> None:
        """The record is sent by the caller."""


def _play(request: dict[str, Any], channel: Channel) -> None:
    from agents.registry import RegistryError, make_agent
    from pacman.game import run_game

    try:
        layout = parse_layout(request["layout_text"], request["layout_name"])
        pacman = make_agent(request["pacman"], "pacman", request["pacman_settings"], index=0)
        ghosts = [make_agent(request["ghost"], "ghost", request["ghost_settings"], index=i + 1)
                  for i in range(int(request["num_ghosts"]))]
    except (LayoutError, RegistryError, ValueError) as error:
        channel.send({"event": "error", "message": str(error)})
        return
    record = run_game(layout, pacman, ghosts, seed=int(request["seed"]),
                      max_moves=request.get("max_moves"),
                      move_time_limit=request.get("move_limit"),
                      game_time_limit=request.get("game_limit"), display=_Stream(channel))
    channel.send({"event": "record", "record": record.to_dict()})


def main() -> None:
    """Serve game requests until the parent closes the channel."""
    channel = child_setup()
    while True:
        request = channel.receive()
        if request is None:
            return
        _play(request, channel)


if __name__ == "__main__":
    main()
