"""The child side of `pacman.hosting.watched`: plays the games it is asked for and streams each
move.

Each request is a game description (`pacman.specs.GameSpec` as JSON: the layout's text, the
agents by name with their settings, the seed, the move cap and the time limits), where the
user's agents run (`isolation`, as `build_agents` takes it) and how long loading their code may
take (`load_seconds`); a request with `check` only builds the agents and answers `built` (or the
error), so the parent learns that they load without running their code itself. The agents
are built here and the game runs with `run_game` (whose soft limits interrupt a slow move);
every move is sent to the parent as it is made, and the record when the game ends. The parent
holds the hard limits: it stops this process when a move or the game runs over and nothing
came back.
"""

from __future__ import annotations

from typing import Any

from pacman.display.protocol import MoveInfo
from pacman.errors import LayoutError
from pacman.hosting.isolation import Channel, child_setup
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
    from pacman.errors import PacmanError
    from pacman.hosting.local import build_agents, play_built
    from pacman.specs import GameSpec

    seconds = request.get("load_seconds")
    try:
        spec = GameSpec.from_json(request["game"])
        pacman, ghosts = build_agents(spec, str(request.get("isolation", "process")),
                                      float(seconds) if seconds is not None else None)
    except (LayoutError, PacmanError, ValueError) as error:
        channel.send({"event": "error", "message": str(error)})
        return
    if request.get("check"):  # built, as the games will build them: no game yet
        from pacman.hosting.agent_host import HostedAgent

        for agent in (pacman, *ghosts):
            if isinstance(agent, HostedAgent):  # its host is kept, idle, for the first game
                agent.release()
        channel.send({"event": "built"})
        return
    record = play_built(spec, pacman, ghosts, display=_Stream(channel))
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
