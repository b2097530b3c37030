"""Playing a replay back: scripted agents that make the recorded moves, for `run_game`.

`scripted_agents(replay)` gives one `ScriptedAgent` per recorded agent, Pacman first, so the
ordinary game loop (with any display) shows a recorded game as it was played. Agent `i` of `n`
plays actions `i`, `i + n`, `i + 2n`, ... of the record, and describes itself with its recorded
description (`"?"` for an agent the record does not describe). When an agent's actions run out
it raises the display's `GameStopped`, with which `run_game` ends the game as `stopped`.
Pacman's agent also reports each move's recorded node count and search summary as
`last_decision`, so the window's search panel shows them as it did in the game.

Nothing is checked here: a replay is checked with `pacman.replay.verify` before it is shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pacman.replay.reader import Replay
from pacman.rules import Direction
from pacman.state import GameState


@dataclass(frozen=True)
class _StoredTrace:
    """A recorded search summary, shown by the window's search panel as a live trace is."""

    data: dict[str, Any]

    def summary(self) -> dict[str, Any]:
        return self.data


@dataclass(frozen=True)
class _RecordedDecision:
    """What a recorded Pacman move reported: its nodes and, for a traced game, its search."""

    nodes_generated: int | None
    trace: _StoredTrace | None


class ScriptedAgent:
    """Plays the recorded actions of one agent, so `run_game` can show a replay.

    Pacman's scripted agent also reports each move's recorded nodes and search summary (as
    `last_decision`), so the window shows them as it did in the game.
    """

    def __init__(self, index: int, actions: Sequence[str], num_agents: int,
                 description: str, nodes: Sequence[int | None] = (),
                 traces: Sequence[dict[str, Any] | None] = ()) -> None:
        self.index = index
        self.description = description
        self._actions = list(actions[index::num_agents])
        self._nodes, self._traces = list(nodes), list(traces)
        self._next = 0
        self.last_decision: _RecordedDecision | None = None

    def describe(self) -> str:
        """The recorded description of the agent."""
        return self.description

    def get_action(self, state: GameState) -> Direction:
        """The next recorded action; when they run out, the game stops (as recorded)."""
        if self._next >= len(self._actions):
            from pacman.display.protocol import GameStopped
            raise GameStopped
        action = self._actions[self._next]
        if self._nodes or self._traces:
            move = self._next
            nodes = self._nodes[move] if move < len(self._nodes) else None
            trace = self._traces[move] if move < len(self._traces) else None
            self.last_decision = _RecordedDecision(
                nodes, None if trace is None else _StoredTrace(trace))
        self._next += 1
        return Direction(action)


def scripted_agents(replay: Replay) -> list[ScriptedAgent]:
    """One scripted agent per recorded agent, Pacman first."""
    record = replay.record
    count = replay.num_ghosts + 1
    names = list(record.agents) + ["?"] * count
    return [ScriptedAgent(0, record.actions, count, names[0], record.pacman_nodes,
                          record.pacman_traces),
            *[ScriptedAgent(i, record.actions, count, names[i]) for i in range(1, count)]]
