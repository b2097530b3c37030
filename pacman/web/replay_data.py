"""What the replay viewer shows, as JSON-ready data: every state of a recorded game, re-simulated.

One job: the data of the replay page (`pacman.web.replay_page` writes the HTML around it).
`page_data(replay)` re-plays the replay's actions with the project's own rules
(`GameState.successor`) and returns one plain dict (format `PAGE_FORMAT`): each step's
positions, facings, scared timers and score, when each dot and capsule is eaten, the events
(a capsule, an eaten ghost), each Pacman move's nodes, time and traced search with its
principal variation as paths on the maze, the outcome, a fault, and notes on what does not add
up. A trace value that is NaN or infinite is written as the text "nan", "inf" or "-inf", so
the traces stay strict JSON. An MCTS trace (`"method": "mcts"`) keeps its own fields (root
visits, playouts, tree size, why it stopped, budget, constant) and its most-visited line of
Pacman's moves takes the place of the principal variation, drawn on the maze the same way.
The colours and the ghosts' looks are those of the pygame window (`pacman.display.scene`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from pacman.display.scene import FLASH_TIME, GHOST_COLORS, PACMAN_COLOR, ghost_look
from pacman.display.status import describe_agents, end_banner
from pacman.layout import Layout
from pacman.record import GameRecord, Outcome
from pacman.rules import Direction
from pacman.state import GameState
from pacman.web.page import hex_color

if TYPE_CHECKING:
    from pacman.replay import Replay, Verdict

__all__ = ["PAGE_FORMAT", "page_data", "start_data", "step_change", "trace_entry"]

#: the version of the JSON embedded in the page (`page_data`)
PAGE_FORMAT = 1


def _point(position: tuple[float, float]) -> list[float]:
    return [int(v) if float(v).is_integer() else float(v) for v in position]


def _number(value: Any) -> Any:
    """A trace value for JSON: finite numbers as they are, the rest as text."""
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    return value


def _clean(value: Any) -> Any:
    """A trace summary made JSON-safe (no NaN or infinity anywhere)."""
    if isinstance(value, Mapping):
        return {str(k): _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    if isinstance(value, (str, int, bool)) or value is None:
        return value
    if isinstance(value, float):
        return _number(value)
    return str(value)


def _step(state: GameState, agent: int, action: str | None, pacman_moves: int) -> dict[str, Any]:
    ghosts = [[*_point(position), str(facing), timer, _LOOKS[ghost_look(timer)]]
              for position, facing, timer in zip(state.ghost_positions, state.ghost_directions,
                                                 state.scared_timers)]
    return {"a": agent, "m": action, "s": state.score, "k": pacman_moves,
            "p": [*state.pacman_position, str(state.pacman_direction)], "g": ghosts}


_LOOKS = {"normal": 0, "scared": 1, "flash": 2}


def _states(replay: Replay, count: int) -> list[GameState]:
    """The initial state and the states after the first `count` actions (all playable)."""
    state = GameState.initial(replay.layout, replay.num_ghosts)
    states = [state]
    agents = state.num_agents
    for number, action in enumerate(replay.record.actions[:count]):
        state = state.successor(number % agents, Direction(action))
        states.append(state)
    return states


def _pv_paths(root: GameState, line: Sequence[Any]) -> dict[str, Any]:
    """The principal variation played from the search's root: each agent's cells in order
    (its position at the root first), and how many of the line's moves could be played."""
    paths: dict[int, list[list[float]]] = {}
    state = root
    played = 0
    for entry in line:
        if not isinstance(entry, (list, tuple)) or len(entry) != 2:
            break
        agent, action = entry
        if not isinstance(agent, int) or not 0 <= agent < state.num_agents:
            break
        if state.is_terminal() or action not in state.legal_actions(agent):
            break
        paths.setdefault(agent, [_point(state.agent_position(agent))])
        state = state.successor(agent, Direction(action))
        paths[agent].append(_point(state.agent_position(agent)))
        played += 1
    return {"paths": [[agent, cells] for agent, cells in sorted(paths.items())],
            "played": played}


def _agent_name(index: int) -> str:
    return "Pacman" if index == 0 else f"Ghost {index}"


def _fault_text(record: Any, agents: Sequence[str], step: int) -> str:
    agent = record.fault_agent
    who = _agent_name(agent) if agent is not None else "an agent"
    if agent is not None and agent < len(agents):
        who += f" ({agents[agent]})"
    what = "ran out of time" if record.outcome is Outcome.TIMEOUT else "crashed"
    fault = record.fault or ""
    if fault.startswith("in final():"):
        when = "in final(), after the last move"
    elif step == 0:
        when = "before the first move"
    else:
        when = f"on its move after move {step} (never played)"
    return f"{who} {what} {when}: {fault}"


def _outcome_text(outcome: Outcome, score: int, pacman_moves: int) -> str:
    return {
        Outcome.WIN: f"Pacman wins: score {score} after {pacman_moves} Pacman moves",
        Outcome.LOSS: f"Pacman was caught: score {score} after {pacman_moves} Pacman moves",
        Outcome.CAPPED: f"capped: the game reached its cap of {pacman_moves} Pacman moves "
                        f"(score {score})",
        Outcome.STOPPED: f"stopped before its end: score {score} after {pacman_moves} "
                         "Pacman moves",
        Outcome.CRASH: f"an agent crashed: score {score} after {pacman_moves} Pacman moves",
        Outcome.TIMEOUT: f"an agent ran out of time: score {score} after {pacman_moves} "
                         "Pacman moves",
    }[outcome]


def step_change(number: int, before: GameState, after: GameState, agent: int, action: str,
                pacman_moves: int, food_index: Mapping[tuple[int, int], int],
                capsule_index: Mapping[tuple[int, int], int]) -> dict[str, Any]:
    """What action `number` (1-based) of a game changes on the page, as `page_data` and the
    live view (`pacman.web.live`) both record it.

    Args:
        number: the action's place in the game (step `number` of the page).
        before: the state the action was played in.
        after: the state it made.
        agent: the agent that moved.
        action: its action's name.
        pacman_moves: Pacman's moves so far, this one included.
        food_index: each dot's cell -> its index in `layout.food`.
        capsule_index: each capsule's cell -> its index in `layout.capsules`.

    Returns:
        `{"step": the page's step (see page_data), "food": indexes of the dots eaten,
        "capsules": indexes of the capsules eaten, "events": the events at this step}`.
    """
    food: list[int] = []
    capsules: list[int] = []
    events: list[dict[str, Any]] = []
    if after.food_mask != before.food_mask:
        for cell in set(before.food_positions) - set(after.food_positions):
            food.append(food_index[cell])
    if after.capsule_count != before.capsule_count:
        for cell in set(before.capsule_positions) - set(after.capsule_positions):
            capsules.append(capsule_index[cell])
            events.append({"step": number, "kind": "capsule",
                           "text": f"Pacman eats a capsule at {cell[0]},{cell[1]}"})
    for ghost, (old, new) in enumerate(zip(before.ghost_positions, after.ghost_positions),
                                       start=1):
        if abs(old[0] - new[0]) + abs(old[1] - new[1]) > 1.01 and before.scared_timers[
                ghost - 1] > 0:
            events.append({"step": number, "kind": "ghost",
                           "text": f"Pacman eats ghost {ghost}"})
    return {"step": _step(after, agent, action, pacman_moves), "food": sorted(food),
            "capsules": sorted(capsules), "events": events}


#: the longest line a search can have (`pacman.agents.search_core.MAX_SEARCH_MOVES`, moves of
#: single agents), whatever depth a summary claims
MAX_LINE = 300


def pv_bound(summary: Mapping[str, Any], num_agents: int) -> int:
    """The most moves of a summary's principal variation that its search can have produced:
    its depth in plies times the agents (each moves once a ply), at most `MAX_LINE`. A longer
    line (a damaged or hand-made replay) is cut to it when read, so a page never replays more."""
    depth = summary.get("depth")
    plies = depth if isinstance(depth, int) and not isinstance(depth, bool) and depth > 0 else 1
    return min(MAX_LINE, plies * max(1, num_agents))


def trace_entry(summary: Mapping[str, Any], root: GameState) -> dict[str, Any]:
    """A traced Pacman move's summary as the page shows it: JSON-safe (`_clean`), with its
    principal variation (or most-visited line) played from `root`, the state Pacman searched,
    as paths on the maze under `"pv"`; the line is cut to what its depth allows (`pv_bound`)."""
    line = summary.get("principal_variation") or []
    if isinstance(line, list):
        line = line[:pv_bound(summary, root.num_agents)]
        summary = {**summary, "principal_variation": line}
    entry: dict[str, Any] = _clean(summary)
    entry["pv"] = _pv_paths(root, line)
    return entry


def start_data(state: GameState, agents: Sequence[str], title: str = "") -> dict[str, Any]:
    """The page's data (`page_data`'s format) of a game that has not moved yet: one step,
    `state`; no outcome. The live view starts each game from it and adds moves as they come.

    Args:
        state: the game's initial state.
        agents: the agents' descriptions (missing ones are shown as "?").
        title: the page's title ('' for "LAYOUT: AGENTS").

    Returns:
        A dict with every key of `page_data`'s.
    """
    layout = state.layout
    count = state.num_agents
    names = (list(agents) + ["?"] * count)[:count]
    return {
        "format": PAGE_FORMAT,
        "title": title or f"{layout.name}: {describe_agents(names)}",
        "layout": {"name": layout.name, "width": layout.width, "height": layout.height,
                   "food": [list(c) for c in layout.food],
                   "capsules": [list(c) for c in layout.capsules]},
        "seed": None, "agents": names, "agents_line": describe_agents(names),
        "think_time": [0.0] * count, "steps": [_step(state, -1, None, 0)],
        "food_gone": [None] * len(layout.food), "capsules_gone": [None] * len(layout.capsules),
        "events": [], "pacman_nodes": [], "pacman_move_times": [], "traces": [],
        "complete": False, "played": 0, "recorded_actions": 0,
        "recorded": {"outcome": "", "score": state.score, "pacman_moves": 0},
        "outcome": None, "fault": None, "banner": [], "notes": [], "differences": [],
        "colors": {"ghosts": [hex_color(c) for c in GHOST_COLORS],
                   "pacman": hex_color(PACMAN_COLOR)},
        "flash_time": FLASH_TIME,
    }


@dataclass
class _Played:
    """What the playable actions of a replay do on the page (see `_played`)."""

    steps: list[dict[str, Any]]
    food_gone: list[int | None]
    capsules_gone: list[int | None]
    events: list[dict[str, Any]]
    pacman_moves: int


def _played(states: Sequence[GameState], actions: Sequence[str], layout: Layout) -> _Played:
    """The page's steps of a game whose states are `states` (the start, then the state after
    each of the first `len(states) - 1` `actions`): `steps[0]` the start (agent -1, no action,
    no Pacman move), `steps[i]` the state after action *i* as `step_change` makes it, agent
    `(i - 1) % agents` having moved and Pacman's moves counted up to it; `food_gone[j]` the
    step at which `layout.food[j]` is eaten (None: never in these states), `capsules_gone`
    likewise; `events` every step's events in step order; `pacman_moves` Pacman's moves in
    all these states."""
    agents_count = states[0].num_agents
    food_index = {cell: i for i, cell in enumerate(layout.food)}
    capsule_index = {cell: i for i, cell in enumerate(layout.capsules)}
    played = _Played([_step(states[0], -1, None, 0)], [None] * len(layout.food),
                     [None] * len(layout.capsules), [], 0)
    for number in range(1, len(states)):
        agent = (number - 1) % agents_count
        if agent == 0:
            played.pacman_moves += 1
        change = step_change(number, states[number - 1], states[number], agent,
                             actions[number - 1], played.pacman_moves, food_index,
                             capsule_index)
        played.steps.append(change["step"])
        for j in change["food"]:
            played.food_gone[j] = number
        for j in change["capsules"]:
            played.capsules_gone[j] = number
        played.events.extend(change["events"])
    return played


def _notes(record: GameRecord, verdict: Verdict) -> list[str]:
    """The page's notes on what of the file it does not show as recorded, in this order: the
    recorded actions that cannot all be played (the playable prefix shown, the recorded outcome
    never reached) or, when they can, the actions listed after the game's end (not shown);
    then the file's differences from the re-simulated game, if any (the page shows the
    re-simulation). Empty for a file that adds up and ends with its last action."""
    notes: list[str] = []
    if not verdict.complete:
        notes.append(f"The recorded actions cannot all be played: action {verdict.played + 1} "
                     f"of {len(record.actions)} is not legal there. This page shows the "
                     f"{verdict.played} playable action(s); the recorded outcome "
                     f"({record.outcome.value}) is never reached.")
    elif verdict.played < len(record.actions):
        notes.append(f"The game ends after action {verdict.played}; the file lists "
                     f"{len(record.actions) - verdict.played} more, not shown.")
    if verdict.differences:
        notes.append(f"The file does not add up ({len(verdict.differences)} "
                     f"difference(s)); the page shows the re-simulated game.")
    return notes


def _fault(record: GameRecord, outcome: Outcome | None, names: Sequence[str], end: int
           ) -> dict[str, Any] | None:
    """The page's fault: for a game that reached a crash or a timeout (`outcome`, None for a
    game not played to its end) whose record names the fault, the agent, the kind (the
    outcome's value), the record's message, the step it came after (`end`, the last step) and
    the sentence the page shows (`_fault_text`); None otherwise."""
    if outcome not in (Outcome.CRASH, Outcome.TIMEOUT) or record.fault is None:
        return None
    return {"agent": record.fault_agent, "kind": outcome.value, "message": record.fault,
            "step": end, "text": _fault_text(record, names, end)}


def _traces(record: GameRecord, states: Sequence[GameState], pacman_moves: int
            ) -> list[Any]:
    """One entry per Pacman move shown (the record's first `pacman_moves` traces): the move's
    `trace_entry`, played from the state Pacman searched (the state before his move number
    `i`, `states[i * agents]`), or None where the record holds no trace summary (a mapping)
    for that move."""
    agents_count = states[0].num_agents
    return [trace_entry(summary, states[move * agents_count])
            if isinstance(summary, Mapping) else None
            for move, summary in enumerate(record.pacman_traces[:pacman_moves])]


def page_data(replay: Replay, verdict: Verdict | None = None) -> dict[str, Any]:
    """Everything the page shows, as JSON-ready data (`PAGE_FORMAT`); `verdict` is
    `verify(replay)`, computed here when not given.

    `steps[i]` is the state after action *i* (step 0: the start): `a` the agent that moved
    (-1 at the start), `m` its action, `s` the score, `k` Pacman's moves so far, `p` Pacman's
    `[x, y, facing]`, `g` each ghost's `[x, y, facing, scared timer, look]` (look 0 normal,
    1 scared, 2 flashing white, as the window draws it). `food_gone[j]` is the step at which
    `layout.food[j]` is eaten (None: never), `capsules_gone` likewise.
    """
    from pacman.replay import verify

    if verdict is None:
        verdict = verify(replay)
    record = replay.record
    layout = replay.layout
    states = _states(replay, verdict.played)
    agents_count = states[0].num_agents
    names = list(record.agents) + ["?"] * max(0, agents_count - len(record.agents))
    names = names[:agents_count]
    played = _played(states, record.actions, layout)
    pacman_moves = played.pacman_moves
    end = len(states) - 1
    reached = verdict.complete
    outcome = verdict.outcome if reached else None
    score = states[-1].score
    banner: list[str] = []
    if outcome is not None:
        shown = replace(record, outcome=outcome, score=score, pacman_moves=pacman_moves)
        banner = end_banner(shown)

    return {
        "format": PAGE_FORMAT,
        "title": f"{layout.name}, seed {record.seed}: {describe_agents(names)}",
        "layout": {"name": layout.name, "width": layout.width, "height": layout.height,
                   "food": [list(c) for c in layout.food],
                   "capsules": [list(c) for c in layout.capsules]},
        "seed": record.seed,
        "agents": names,
        "agents_line": describe_agents(names),
        "think_time": [round(t, 6) for t in record.think_time],
        "steps": played.steps,
        "food_gone": played.food_gone,
        "capsules_gone": played.capsules_gone,
        "events": played.events,
        "pacman_nodes": list(record.pacman_nodes[:pacman_moves]),
        "pacman_move_times": [round(t, 6) for t in record.pacman_move_times[:pacman_moves]],
        "traces": _traces(record, states, pacman_moves),
        "complete": reached,
        "played": verdict.played,
        "recorded_actions": len(record.actions),
        "recorded": {"outcome": record.outcome.value, "score": record.score,
                     "pacman_moves": record.pacman_moves},
        "outcome": None if outcome is None else {
            "value": outcome.value, "score": score, "pacman_moves": pacman_moves,
            "text": _outcome_text(outcome, score, pacman_moves)},
        "fault": _fault(record, outcome, names, end),
        "banner": banner,
        "notes": _notes(record, verdict),
        "differences": [str(d) for d in verdict.differences],
        "colors": {"ghosts": [hex_color(c) for c in GHOST_COLORS],
                   "pacman": hex_color(PACMAN_COLOR)},
        "flash_time": FLASH_TIME,
    }
