"""Replays: a game saved as JSON (layout text, seed, agents, actions, outcome) and re-simulated.

The file is `GameRecord.to_dict()` plus `format`, `format_version`, `package_version`,
`layout_text` and `num_ghosts`, so a replay needs neither the layout file nor the agents: the
recorded actions are played again through the rules and the outcome and score compared.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pacman.layout import Layout, LayoutError, parse_layout
from pacman.record import GameRecord, Outcome
from pacman.rules import Direction
from pacman.state import GameState

FORMAT = "pacman-replay"
FORMAT_VERSION = 1
_ENDED_EARLY = (Outcome.CAPPED, Outcome.STOPPED, Outcome.CRASH, Outcome.TIMEOUT)


class ReplayError(ValueError):
    """A replay file that cannot be used: unreadable, incompatible or tampered with."""


@dataclass(frozen=True)
class Replay:
    """A saved game: its layout, number of ghosts and record."""

    layout: Layout
    num_ghosts: int
    record: GameRecord
    package_version: str = ""


@dataclass(frozen=True)
class Verdict:
    """The result of re-simulating a replay: the final state and what differs from the file."""

    state: GameState
    outcome: Outcome
    pacman_moves: int
    differences: tuple[str, ...]

    @property
    def matches(self) -> bool:
        """True if outcome, score and moves are as recorded."""
        return not self.differences


def replay_dict(record: GameRecord, layout: Layout, num_ghosts: int) -> dict[str, Any]:
    """The JSON-ready replay of a finished game."""
    from pacman import __version__

    data: dict[str, Any] = {"format": FORMAT, "format_version": FORMAT_VERSION,
                            "package_version": __version__}
    data.update(record.to_dict())
    data["layout_text"] = layout.text
    data["num_ghosts"] = num_ghosts
    return data


def save_replay(path: str | Path, record: GameRecord, layout: Layout,
                num_ghosts: int | None = None) -> Path:
    """Write a game's replay as JSON; returns the path."""
    path = Path(path)
    if num_ghosts is None:
        num_ghosts = len(record.agents) - 1
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(replay_dict(record, layout, num_ghosts), indent=1) + "\n",
                    encoding="utf-8")
    return path


def replay_file_name(index: int, seed: int) -> str:
    """The file name of game `index` (1-based) in a `--record-dir`."""
    return f"game-{index:03d}-seed-{seed}.json"


def load_replay(path: str | Path) -> Replay:
    """Read a replay file; any problem is a one-line `ReplayError`."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ReplayError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise ReplayError(f"{path}: cannot read: {error}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ReplayError(f"{path}: not JSON ({error.msg} at line {error.lineno})") from None
    return parse_replay(data, str(path))


def parse_replay(data: Any, source: str = "<replay>") -> Replay:
    """Check and decode the dict of a replay file."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ReplayError(f"{source}: not a Pacman replay (no \"format\": \"{FORMAT}\")")
    version = data.get("format_version")
    if version != FORMAT_VERSION:
        raise ReplayError(f"{source}: replay format version {version!r}; this Pacman reads "
                          f"version {FORMAT_VERSION}")
    try:
        record = GameRecord.from_dict(data)
        layout_text = data["layout_text"]
        num_ghosts = int(data.get("num_ghosts", len(record.agents) - 1))
    except (KeyError, TypeError, ValueError) as error:
        detail = f"missing field {error}" if isinstance(error, KeyError) else str(error)
        raise ReplayError(f"{source}: malformed replay: {detail}") from None
    if not isinstance(layout_text, str):
        raise ReplayError(f"{source}: malformed replay: layout_text is not text")
    try:
        layout = parse_layout(layout_text, record.layout, source=f"{source} (layout_text)")
    except LayoutError as error:
        raise ReplayError(f"unknown layout text: {error}") from None
    if not 0 <= num_ghosts <= len(layout.ghost_starts):
        raise ReplayError(f"{source}: {num_ghosts} ghosts but the layout has "
                          f"{len(layout.ghost_starts)}")
    if len(record.agents) != num_ghosts + 1:
        raise ReplayError(f"{source}: {len(record.agents)} agents for {num_ghosts} ghosts")
    return Replay(layout, num_ghosts, record, str(data.get("package_version", "")))


def replay_states(replay: Replay) -> list[GameState]:
    """Every state of the game, the initial one first; an illegal action is a ReplayError."""
    state = GameState.initial(replay.layout, replay.num_ghosts)
    states = [state]
    agents = state.num_agents
    for number, action in enumerate(replay.record.actions):
        agent = number % agents
        if state.is_terminal():
            raise ReplayError(f"action {number + 1} ({action!r}) comes after the end of the "
                              "game")
        if action not in state.legal_actions(agent):
            legal = ", ".join(str(a) for a in state.legal_actions(agent))
            raise ReplayError(f"action {number + 1}: agent {agent} cannot play {action!r} at "
                              f"{state.agent_position(agent)} (legal: {legal})")
        state = state.successor(agent, Direction(action))
        states.append(state)
    return states


def verify(replay: Replay) -> Verdict:
    """Re-simulate the actions and compare outcome, score and moves with the record."""
    states = replay_states(replay)
    final = states[-1]
    record = replay.record
    pacman_moves = sum(1 for number in range(len(record.actions))
                       if number % final.num_agents == 0)
    if final.is_win():
        outcome = Outcome.WIN
    elif final.is_lose():
        outcome = Outcome.LOSS
    else:  # the actions ran out before a win or loss: the record says why
        outcome = record.outcome if record.outcome in _ENDED_EARLY else Outcome.STOPPED
    differences: list[str] = []
    if outcome is not record.outcome:
        differences.append(f"outcome: recorded {record.outcome.value}, replayed "
                           f"{outcome.value}")
    if final.score != record.score:
        differences.append(f"score: recorded {record.score}, replayed {final.score}")
    if pacman_moves != record.pacman_moves:
        differences.append(f"Pacman moves: recorded {record.pacman_moves}, replayed "
                           f"{pacman_moves}")
    return Verdict(final, outcome, pacman_moves, tuple(differences))


class ScriptedAgent:
    """Plays the recorded actions of one agent, so `run_game` can show a replay."""

    def __init__(self, index: int, actions: Sequence[str], num_agents: int,
                 description: str) -> None:
        self.index = index
        self.description = description
        self._actions = list(actions[index::num_agents])
        self._next = 0

    def describe(self) -> str:
        """The recorded description of the agent."""
        return self.description

    def get_action(self, state: GameState) -> Direction:
        """The next recorded action; when they run out, the game stops (as recorded)."""
        if self._next >= len(self._actions):
            from pacman.display.base import GameStopped
            raise GameStopped
        action = self._actions[self._next]
        self._next += 1
        return Direction(action)


def scripted_agents(replay: Replay) -> list[ScriptedAgent]:
    """One scripted agent per recorded agent, Pacman first."""
    record = replay.record
    count = replay.num_ghosts + 1
    return [ScriptedAgent(i, record.actions, count, record.agents[i]) for i in range(count)]
