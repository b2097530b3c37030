"""Verifying a replay: its actions played again through the rules, every field checked.

`verify(replay)` re-simulates the recorded actions from the layout's start and reports *every*
field of the file that disagrees, as a `Verdict` with its `Difference`s; it never raises for a
replay `pacman.replay.reader` could read. What is checked, and how:

- **Re-simulated** (every replay): `actions` (each one legal for the agent whose turn it is,
  none after the end), `score`, `pacman_moves`, `outcome` (a win or loss exactly; a game that
  ended early must fit its kind: `capped` only when Pacman is to move, no fault for `capped`
  and `stopped`, a fault for `crash` and `timeout`), `fault_agent` (the agent whose turn it
  was), `num_ghosts` (one description in `agents` per agent), `pacman_nodes` (one entry per
  Pacman move), and the layout name: a shipped layout's name (`NAME@SYMMETRY` too) must come
  with that layout's maze, with or without a digest (a digest is a plain hash whoever writes
  the file can recompute, so it cannot vouch for a maze that is not the shipped one).
  Every number the game writes is a whole number: a `score` of 1.5 is a difference.
- **Digest** (replays written since digests exist): each field of `DIGEST_FIELDS` -- `layout`,
  `layout_text`, `num_ghosts`, `seed`, `agents`, `outcome`, `score`, `pacman_moves`, `actions`,
  `fault_agent`, `fault`, `pacman_nodes` -- against its SHA-256 (`pacman.replay.format`), so an
  edit the re-simulation cannot see (another seed, renamed agents or layout, a crash relabelled
  timeout, a capped game relabelled stopped, two legal ghost moves swapped with the same end)
  is reported under the field's name.
- **Informational**, never checked (only their types and lengths): `package_version`,
  `think_time`, `pacman_move_times` -- measurements and provenance, not results -- and
  `pacman_traces` (a traced search's summary per Pacman move, or null: `pacman play --trace`).

A replay without a digest (written before digests, or with the digest removed) is checked as
far as the re-simulation goes; `Verdict.unverified` names what it could not check (the seed
cannot be re-derived from the actions without the agents). The digest makes edits evident, not
impossible: it is a plain hash that whoever edits the file could recompute; keep a file's hash
elsewhere (or sign it) to prove it came from you.

`replay_states(replay)` is the same re-simulation for showing a game: every state, the initial
one first, and a `ReplayError` at the first action that cannot be played.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pacman.errors import ReplayError
from pacman.layout import (
    LAYOUT_DIR,
    SYMMETRIES,
    Layout,
    parse_layout,
    shipped_layouts,
    transformed,
)
from pacman.record import GameRecord, Outcome
from pacman.replay.format import (
    DIGEST_ALGORITHM,
    DIGEST_FIELDS,
    INFORMATIONAL_FIELDS,
    canonical_json,
    field_digest,
)
from pacman.replay.reader import Difference, Replay
from pacman.rules import Direction
from pacman.state import GameState

#: what the re-simulation checks (the layout name only for shipped layouts)
SIMULATED_FIELDS = ("actions", "score", "pacman_moves", "outcome", "fault_agent", "num_ghosts",
                    "pacman_nodes")
_ENDED_EARLY = (Outcome.CAPPED, Outcome.STOPPED, Outcome.CRASH, Outcome.TIMEOUT)
_FAULTS = (Outcome.CRASH, Outcome.TIMEOUT)
#: a fault raised by an agent's `final()` (game.py): it may follow the last move of any agent
_FINAL_FAULT = "in final():"


@dataclass(frozen=True)
class Verdict:
    """The result of re-simulating a replay: where it got to and what differs from the file.

    `complete` is False when an action could not be played (the re-simulation stopped there);
    `played` counts the actions played. `unverified` maps each field that could not be checked
    to the reason; `digest` is "verified", "absent" or "unusable". `shipped_layout` names the
    shipped layout `layout_text` was checked against (None: not a shipped layout's name).
    """

    state: GameState
    outcome: Outcome
    pacman_moves: int
    differences: tuple[Difference, ...]
    unverified: Mapping[str, str] = field(default_factory=dict)
    complete: bool = True
    digest: str = "absent"
    played: int = 0
    shipped_layout: str | None = None

    @property
    def matches(self) -> bool:
        """True if no field of the file disagrees with the re-simulation or the digest."""
        return not self.differences

    @property
    def fully_verified(self) -> bool:
        """True if every non-informational field was checked and agrees."""
        return self.matches and not self.unverified


def replay_states(replay: Replay) -> list[GameState]:
    """Every state of the game, the initial one first; an unplayable action is a ReplayError."""
    states, problem = _simulate(replay)
    if problem is not None:
        raise ReplayError(problem.detail)
    return states


def _simulate(replay: Replay) -> tuple[list[GameState], Difference | None]:
    """The states the actions lead through, and the first action that cannot be played."""
    state = GameState.initial(replay.layout, replay.num_ghosts)
    states = [state]
    agents = state.num_agents
    actions = replay.record.actions
    for number, action in enumerate(actions):
        agent = number % agents
        if state.is_terminal():
            extra = len(actions) - number
            return states, Difference("actions", f"action {number + 1} ({action!r}) comes "
                                      f"after the end of the game ({extra} action(s) too many)")
        if action not in state.legal_actions(agent):
            legal = ", ".join(str(a) for a in state.legal_actions(agent))
            return states, Difference(
                "actions", f"action {number + 1}: agent {agent} cannot play {action!r} at "
                f"{state.agent_position(agent)} (legal: {legal}); the re-simulation stops there")
        state = state.successor(agent, Direction(action))
        states.append(state)
    return states, None


def verify(replay: Replay) -> Verdict:
    """Re-simulate the actions, check every field against them and the digest; never raises
    for a readable replay: whatever does not add up is a `Difference`."""
    states, stopped = _simulate(replay)
    final = states[-1]
    record = replay.record
    agents = final.num_agents
    played = len(states) - 1
    pacman_moves = sum(1 for number in range(played) if number % agents == 0)
    complete = stopped is None or "after the end" in stopped.detail
    differences: list[Difference] = list(replay.problems)
    bad = {problem.field for problem in replay.problems}
    unverified: dict[str, str] = {}
    outcome_note: str | None = None  # why the outcome fits but is not proven by the actions
    if stopped is not None:
        differences.append(stopped)
    outcome = _replayed_outcome(final, record)

    if len(record.agents) != replay.num_ghosts + 1:
        differences.append(Difference(
            "num_ghosts", f"{replay.num_ghosts} ghost(s), so {replay.num_ghosts + 1} agents, "
            f"but agents lists {len(record.agents)}"))
    if not complete:
        reason = f"not checked: the re-simulation stopped at action {played + 1}"
        for name in ("score", "pacman_moves", "outcome", "fault_agent", "pacman_nodes"):
            unverified[name] = reason
    else:
        if "score" not in bad and final.score != record.score:
            differences.append(Difference("score", f"recorded {record.score}, replayed "
                                          f"{final.score}"))
        if "pacman_moves" not in bad and pacman_moves != record.pacman_moves:
            differences.append(Difference("pacman_moves", f"recorded {record.pacman_moves}, "
                                          f"replayed {pacman_moves}"))
        found, outcome_note = _outcome_differences(final, record, played)
        differences += found
        if "pacman_nodes" not in bad and len(record.pacman_nodes) != pacman_moves:
            differences.append(Difference(
                "pacman_nodes", f"{len(record.pacman_nodes)} entries for {pacman_moves} "
                "replayed Pacman moves (one per move)"))
    # informational: the values are not checked, but there is one per agent / Pacman move
    if len(record.think_time) not in (0, len(record.agents)):
        differences.append(Difference("think_time", f"{len(record.think_time)} entries for "
                                      f"{len(record.agents)} agents"))
    for name, entries in (("pacman_move_times", record.pacman_move_times),
                          ("pacman_traces", record.pacman_traces)):
        if complete and len(entries) not in (0, pacman_moves):
            differences.append(Difference(
                name, f"{len(entries)} entries for {pacman_moves} replayed Pacman moves"))

    digest_state = _check_digest(replay, differences, unverified)
    shipped = _shipped_maze(record.layout)
    if shipped is not None and shipped != replay.layout:
        differences.append(Difference("layout", f"{record.layout!r} is a shipped layout, but "
                                      "layout_text is another maze"))
    if digest_state != "verified":
        why = ("no digest" if digest_state == "absent" else "the digest is unusable")
        _note_unverifiable(replay, complete, why, shipped is not None, unverified)
        if outcome_note is not None:
            unverified["outcome"] = f"{why}: {outcome_note}"
    order = {name: i for i, name in enumerate(DIGEST_FIELDS + INFORMATIONAL_FIELDS)}
    differences.sort(key=lambda d: order.get(d.field, len(order)))
    return Verdict(final, outcome, pacman_moves, tuple(differences), unverified, complete,
                   digest_state, played, None if shipped is None else record.layout)


def _replayed_outcome(final: GameState, record: GameRecord) -> Outcome:
    if final.is_win():
        return Outcome.WIN
    if final.is_lose():
        return Outcome.LOSS
    # the actions ran out before a win or loss: only the record says why
    return record.outcome if record.outcome in _ENDED_EARLY else Outcome.STOPPED


def _outcome_differences(final: GameState, record: GameRecord, played: int
                         ) -> tuple[list[Difference], str | None]:
    """How the game ended, as far as the rules of `run_game` pin it down; and, when the
    outcome fits the actions without following from them, why."""
    found: list[Difference] = []
    agents = final.num_agents
    outcome, fault, fault_agent = record.outcome, record.fault, record.fault_agent
    if (fault is None) != (fault_agent is None):
        found.append(Difference("fault_agent", f"recorded {fault_agent} with fault "
                                f"{fault!r}: both are set or neither"))
    if outcome in _FAULTS and fault is None:
        found.append(Difference("fault", f"a {outcome.value} records what went wrong, "
                                "but the fault is empty"))
    if outcome not in _FAULTS and fault is not None:
        found.append(Difference("fault", f"a {outcome.value} has no fault, but the record "
                                f"says {fault[:60]!r}"))
    if fault_agent is not None and fault_agent >= agents:
        found.append(Difference("fault_agent", f"agent {fault_agent} does not exist "
                                f"({agents} agents)"))
    if final.is_terminal():
        natural = Outcome.WIN if final.is_win() else Outcome.LOSS
        if outcome in (Outcome.WIN, Outcome.LOSS) and outcome is not natural:
            found.append(Difference("outcome", f"recorded {outcome.value}, replayed "
                                    f"{natural.value}"))
        elif outcome is Outcome.CAPPED:
            found.append(Difference("outcome", f"recorded capped, but the replayed game "
                                    f"ended in a {natural.value} (a cap stops a game only "
                                    "before Pacman's move)"))
        elif outcome is not natural:
            return found, (f"the replayed game ends in a {natural.value}; {outcome.value} "
                           "fits only if the game was stopped or an agent failed right after "
                           "the last move")
        return found, None
    if outcome in (Outcome.WIN, Outcome.LOSS):
        found.append(Difference("outcome", f"recorded {outcome.value}, but after the "
                                f"{played} recorded actions the replayed game has not ended"))
        return found, None
    to_move = played % agents
    if outcome is Outcome.CAPPED and to_move != 0:
        found.append(Difference("outcome", f"recorded capped, but the actions end with agent "
                                f"{to_move} to move (a cap stops a game only before "
                                "Pacman's move)"))
    if (outcome in _FAULTS and fault_agent is not None and fault is not None and played
            and fault_agent < agents and fault_agent != to_move
            and not fault.startswith(_FINAL_FAULT)):
        found.append(Difference("fault_agent", f"recorded agent {fault_agent}, but agent "
                                f"{to_move} was to move when the game ended"))
    return found, ("the actions stop before a win or loss: capped, stopped, crash and "
                   "timeout can all end a game there")


def _check_digest(replay: Replay, differences: list[Difference],
                  unverified: dict[str, str]) -> str:
    """Compare each digest field with the file's value: 'verified', 'absent' or 'unusable'."""
    digest = replay.digest
    if digest is None:
        return "absent"
    algorithm = digest.get("algorithm")
    if algorithm != DIGEST_ALGORITHM:
        differences.append(Difference("digest", f"unknown algorithm {algorithm!r} (this "
                                      f"Pacman checks {DIGEST_ALGORITHM}): nothing verified "
                                      "by it"))
        return "unusable"
    stored: Mapping[str, Any] = digest.get("fields") or {}
    values = replay.fields if replay.fields is not None else _record_values(replay)
    for name in DIGEST_FIELDS:
        expected = stored.get(name)
        if expected is None:
            differences.append(Difference("digest", f"no entry for {name}: the digest was "
                                          "edited"))
            unverified[name] = "the digest has no entry for it"
        elif field_digest(name, values[name]) != expected:
            differences.append(Difference(name, f"{_shown(values[name])} does not match the "
                                          "digest (edited after recording)"))
    return "verified"


def _record_values(replay: Replay) -> dict[str, Any]:
    data = replay.record.to_dict()
    data["layout_text"] = replay.layout.text
    data["num_ghosts"] = replay.num_ghosts
    return {name: data[name] for name in DIGEST_FIELDS}


def _shown(value: Any) -> str:
    text = canonical_json(value)
    if len(text) <= 70 and "\\n" not in text:
        return text
    if isinstance(value, list):
        return f"the list of {len(value)}"
    return "the text" if isinstance(value, str) else text[:67] + "..."


def _shipped_maze(name: str) -> Layout | None:
    """The maze a shipped layout's name stands for (`NAME@SYMMETRY` too), or None when the
    name is not a shipped layout's."""
    base, at, symmetry = name.rpartition("@")
    if not at:
        base, symmetry = name, ""
    elif not symmetry or symmetry not in SYMMETRIES:
        return None
    if base not in shipped_layouts():
        return None
    shipped = parse_layout((LAYOUT_DIR / f"{base}.lay").read_text(encoding="utf-8"), base)
    return transformed(shipped, symmetry)


def _note_unverifiable(replay: Replay, complete: bool, why: str, shipped: bool,
                       unverified: dict[str, str]) -> None:
    """Without a digest: what the re-simulation cannot see (a shipped layout's maze it can)."""
    record = replay.record
    name = record.layout
    if not shipped:
        unverified["layout"] = f"{why}, and {name!r} is not a shipped layout"
        unverified["layout_text"] = f"{why}: only as far as the re-simulation shows"
    unverified["seed"] = f"{why}: a seed cannot be re-derived from the actions"
    unverified["agents"] = f"{why}: the descriptions are the agents' own"
    if complete:
        unverified["actions"] = (f"{why}: only as far as the re-simulation shows (other "
                                 "legal moves that reach the same end go unseen)")
    if record.fault is not None:
        unverified["fault"] = f"{why}: the message is the agent's own"
    if record.pacman_nodes:
        unverified.setdefault("pacman_nodes", f"{why}: only their number is checked")
