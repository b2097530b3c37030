"""The MCTS half of `pacman explain GAME.json --move N`: a replay's MCTS move, searched again.

An MCTS Pacman (`MCTSAgent`) keeps no node list, so there is no tree to draw: its move is
shown by its root statistics (each root move's visits and mean value, the playouts, the tree's
size, the nodes generated, why it stopped, and the most-visited line of Pacman's moves).

With a playout or node budget the search is deterministic for its generator, which the agent
seeds with one 64-bit draw of the game's generator per move (`MCTSAgent.get_action`). The
game's generator is `random.Random(seed)`, shared by every agent in turn, so it is replayed up
to the move: each earlier Pacman move takes its one draw, and the recorded ghosts are built
again from their descriptions and play the recorded states, drawing as they did in the game
(each of their moves is checked against the record). The search then runs again with the
recorded settings and `trace=true`; it must choose the recorded move, and where the replay has
the move's trace, the rerun's summary must equal it field by field (else the exit status is 1).

A time budget cannot be rerun to the same search (the playouts that fit depend on the machine
and its load), and neither can a game whose ghosts are not shipped ones: then the recorded
trace is shown, after one line saying why it was not rerun; without a recorded trace that is
a one-line error.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pacman.display.search_panel import MCTS_STOPS, value_text
from pacman.errors import PacmanError, UsageError
from pacman.settings_text import typed

if TYPE_CHECKING:
    from pacman.replay import Replay
    from pacman.state import GameState

@dataclass(frozen=True)
class MCTSMove:
    """A replay's Pacman move made by an MCTS agent: what `explain_mcts` needs of it."""

    title: str                       # e.g. "game.json move 3"
    context: str                     # the first line printed: the file, the move, the agent
    replay: Replay
    states: Sequence[GameState]      # the re-simulated states, the initial one first
    index: int                       # the move's index in the record's actions (and states)
    description: str                 # the recorded description of Pacman's agent


def mcts_settings(description: str) -> dict[str, Any]:
    """An MCTS agent's settings read from its description (`MCTSAgent playouts=200 score
    horizon=10 c=1`): each `key=value` word typed as `-a` types it, and the one bare word as
    the evaluation. A description without `tree=` is of the move-level tree (every one
    written before the junction tree existed, and every move-level one since: its
    description does not name the tree), so it reads as `tree=move`. A junction tree's
    description names `chase` and `chase_margin` since the tables became its default, and
    `cycles` since the cycle breaker did; one written before reads as it played: without
    `chase=`, `chase=0`; with it but without `chase_margin=`, `chase_margin=1`; without
    `cycles=`, `cycles=0`."""
    settings: dict[str, Any] = {}
    for word in description.split()[1:]:
        key, sep, value = word.partition("=")
        if sep:
            settings[key] = typed(value)
        elif "evaluation" not in settings:
            settings["evaluation"] = word
    settings.setdefault("tree", "move")
    if settings["tree"] == "junction":  # written before chase=auto was the default
        settings.setdefault("chase", 0)
        if settings["chase"] != 0:
            settings.setdefault("chase_margin", 1.0)
        settings.setdefault("cycles", 0)
    return settings


def mcts_text(summary: Mapping[str, Any]) -> list[str]:
    """An MCTS summary as text: the search and its choice, each root move's visits and mean
    value (the chosen one marked `> `), the most-visited line and the counts."""
    visits = {str(action): count for action, count in summary.get("root_visits", [])}
    chosen = summary.get("action")
    stopped = summary.get("stopped")
    c = summary.get("c")
    constant = f"{c:g}" if isinstance(c, (int, float)) else "?"
    lines = [f"mcts {summary.get('budget', '?')} horizon={summary.get('depth', '?')} "
             f"c={constant}: {chosen} (mean {value_text(summary.get('value'))}, "
             f"{visits.get(str(chosen), 0):,} of {summary.get('playouts', 0):,} playouts), "
             f"stopped by {MCTS_STOPS.get(str(stopped), str(stopped))}",
             "root moves (visits, mean value):"]
    for action, value in summary.get("root_values", []):
        lines.append(f"{'> ' if action == chosen else '  '}{action}: "
                     f"{visits.get(str(action), 0):,}, {value_text(value)}")
    line = [str(action) for _, action in summary.get("principal_variation", [])]
    lines.append(f"most-visited line: {', '.join(line) if line else '-'}")
    lines.append(f"{summary.get('playouts', 0):,} playouts, tree size "
                 f"{summary.get('tree_size', 0):,}, {summary.get('nodes_generated', 0):,} nodes "
                 "generated")
    return lines


def explain_mcts(move: MCTSMove) -> tuple[list[str], int]:
    """The lines `pacman explain` prints for an MCTS move, and its exit status: 0 when the
    rerun chose the recorded move with the recorded statistics (or the recorded trace is shown
    because the move cannot be rerun), 1 when the rerun departs from the record.

    Raises:
        UsageError: the move cannot be rerun and the replay has no trace of it, or the recorded
            agent cannot be built again.
    """
    record = move.replay.record
    number = move.index // move.states[0].num_agents
    recorded_trace = record.pacman_traces[number] if number < len(record.pacman_traces) \
        else None
    if recorded_trace is not None and recorded_trace.get("method") != "mcts":
        recorded_trace = None
    settings = mcts_settings(move.description)
    why_not = None
    if settings.get("time") is not None:
        why_not = (f"time={settings['time']:g} is a time budget: the playouts that fit depend on "
                   "the machine and its load, so a rerun cannot reproduce this move")
    else:
        agent = _agent(move, settings)
        summary = _rerun(move, agent, settings)
        if isinstance(summary, str):
            why_not = f"{summary}, so a rerun cannot reproduce this move"
    if why_not is not None:
        if recorded_trace is None:
            raise UsageError(f"{move.title}: {why_not}, and the replay has no trace of it "
                             "(record the game with -a trace=true)")
        return [move.context, f"{why_not}; the recorded search:", *mcts_text(recorded_trace)], 0
    assert isinstance(summary, dict)
    recorded_action = record.actions[move.index]
    lines = [move.context, "searched again with the game's generator replayed to this move:",
             *mcts_text(summary)]
    if summary.get("action") != recorded_action:
        lines.append(f"the rerun chose {summary.get('action')}, but the game played "
                     f"{recorded_action}: this replay was not made by this search")
        return lines, 1
    if recorded_trace is None:
        lines.append(f"the rerun chose {recorded_action}, as the game did (the replay has no "
                     "trace of this move to compare)")
        return lines, 0
    differ = [key for key in sorted(set(summary) | set(recorded_trace))
              if summary.get(key) != recorded_trace.get(key)]
    if differ:
        lines.append(f"the rerun chose {recorded_action}, as the game did, but its "
                     f"{', '.join(differ)} differ from the recorded trace's")
        return lines, 1
    lines.append(f"the rerun chose {recorded_action}, as the game did, with the recorded "
                 "trace's statistics")
    return lines, 0


#: the MCTS settings that keep nothing from one move to the next: with only these, an earlier
#: Pacman move is replayed by its one draw of the game's generator, not by a search
STATELESS_SETTINGS = frozenset(("playouts", "nodes", "time", "horizon", "evaluation", "c",
                                "ghost_model", "allow_stop", "playout", "epsilon", "trace",
                                "leaf_depth", "decay", "tree", "survival", "escape", "chase",
                                "chase_margin", "cycles"))  # cycles only at 0: it remembers


def _agent(move: MCTSMove, settings: Mapping[str, Any]) -> Any:
    """The recorded MCTS agent, built again from its settings, with `trace` on."""
    from pacman.agents.mcts import MCTSAgent
    from pacman.agents.registry import build_agent

    try:
        return build_agent(MCTSAgent, {**settings, "trace": True})
    except PacmanError as error:
        raise UsageError(f"{move.title}: cannot build Pacman's agent again from "
                         f"{move.description!r}: {error}") from None


def _rerun(move: MCTSMove, agent: Any, settings: Mapping[str, Any]) -> dict[str, Any] | str:
    """The MCTS agent's search of the move with the game's generator replayed to it, as a
    summary read back from JSON (what a replay holds); or why it cannot be rerun (a ghost that
    cannot be built again, or that does not play as recorded). `settings`: the agent's, as
    `mcts_settings` read them."""
    record = move.replay.record
    agents = move.states[0].num_agents
    ghosts = _ghosts(move)
    if isinstance(ghosts, str):
        return ghosts
    stateless = set(settings) <= STATELESS_SETTINGS and not settings.get("cycles")
    rng = random.Random(record.seed)
    names = [*record.agents, *["?"] * agents]
    try:
        for player in [agent, *ghosts]:  # as the game does: the generator, then the start
            player.set_rng(rng)
            register = getattr(player, "register_initial_state", None)
            if callable(register):
                register(move.states[0])
        for turn in range(move.index):
            index = turn % agents
            if index == 0 and stateless:
                rng.getrandbits(64)  # an earlier move: the one draw that seeded its search
                continue
            action = [agent, *ghosts][index].get_action(move.states[turn])
            played = str(getattr(action, "value", action))
            if played != record.actions[turn]:
                who = "Pacman" if index == 0 else f"ghost {index}"
                return (f"{who} ({names[index]}) plays {played} at action {turn + 1} where "
                        f"the game played {record.actions[turn]}")
    except Exception as error:  # shipped agents on recorded states: not expected
        return f"the agents cannot play the recorded game again ({type(error).__name__})"
    try:
        agent.get_action(move.states[move.index])
    except Exception as error:  # a user's evaluation may raise anything
        raise UsageError(f"{move.title}: the search cannot run: {type(error).__name__}: "
                         f"{error}") from None
    trace = getattr(agent.last_decision, "trace", None)
    if trace is None:
        raise UsageError(f"{move.title}: the MCTS agent kept no trace of its search")
    data: dict[str, Any] = json.loads(json.dumps(trace.summary(), allow_nan=False))
    return data


def _ghosts(move: MCTSMove) -> list[Any] | str:
    """The recorded ghosts built again from their descriptions (`DirectionalGhost`,
    `AdversarialGhost depth=2`), or why they cannot be (not a shipped ghost)."""
    from pacman.agents.registry import build_agent, registered

    agents = move.states[0].num_agents
    names = [*move.replay.record.agents, *["?"] * agents]
    ghosts: list[Any] = []
    for index in range(1, agents):
        name = names[index]
        words = name.split()
        entry = registered(words[0], "ghost") if words else None
        if entry is None or entry.class_name != words[0]:
            return f"ghost {index} ({name}) is not a shipped ghost"
        settings = {}
        for word in words[1:]:
            key, sep, value = word.partition("=")
            if not sep:
                return f"ghost {index} ({name}) cannot be built again from its description"
            settings[key] = typed(value)
        try:
            ghosts.append(build_agent(entry.load(), settings, index))
        except PacmanError:
            return f"ghost {index} ({name}) cannot be built again from its description"
    return ghosts
