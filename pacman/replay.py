"""Replays: a game saved as JSON, re-simulated through the rules and checked field by field.

The file is `GameRecord.to_dict()` plus `format`, `format_version`, `package_version`,
`layout_text`, `num_ghosts` and `digest`, so a replay needs neither the layout file nor the
agents. `verify` plays the recorded actions again and reports *every* field that disagrees:

- **Re-simulated** (every replay): `actions` (each one legal for the agent whose turn it is,
  none after the end), `score`, `pacman_moves`, `outcome` (a win or loss exactly; a game that
  ended early must fit its kind: `capped` only when Pacman is to move, no fault for `capped`
  and `stopped`, a fault for `crash` and `timeout`), `fault_agent` (the agent whose turn it
  was), `num_ghosts` (one description in `agents` per agent), `pacman_nodes` (one entry per
  Pacman move), and the layout name: a shipped layout's name must come with that layout's maze.
  Every number the game writes is a whole number: a `score` of 1.5 is a difference.
- **Digest** (replays written since digests exist): a SHA-256 of each field that the game
  determines -- `layout`, `layout_text`, `num_ghosts`, `seed`, `agents`, `outcome`, `score`,
  `pacman_moves`, `actions`, `fault_agent`, `fault`, `pacman_nodes` -- so an edit the
  re-simulation cannot see (another seed, renamed agents or layout, a crash relabelled
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

A file that is not JSON, not a replay, or has a field of the wrong type is a one-line
`ReplayError`; a readable file that does not add up is a `Verdict` with its differences.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pacman.layout import LAYOUT_DIR, Layout, LayoutError, parse_layout, shipped_layouts
from pacman.record import GameRecord, Outcome
from pacman.rules import Direction
from pacman.state import GameState

FORMAT = "pacman-replay"
FORMAT_VERSION = 1
DIGEST_ALGORITHM = "sha256"
#: the fields the digest covers: everything the game itself determines
DIGEST_FIELDS = ("layout", "layout_text", "num_ghosts", "seed", "agents", "outcome", "score",
                 "pacman_moves", "actions", "fault_agent", "fault", "pacman_nodes")
#: fields shown but never checked: measurements and provenance
INFORMATIONAL_FIELDS = ("package_version", "think_time", "pacman_move_times", "pacman_traces")
#: what the re-simulation checks (the layout name only for shipped layouts)
SIMULATED_FIELDS = ("actions", "score", "pacman_moves", "outcome", "fault_agent", "num_ghosts",
                    "pacman_nodes")
_KNOWN_KEYS = frozenset(("format", "format_version", "digest", *DIGEST_FIELDS,
                         *INFORMATIONAL_FIELDS))
_ENDED_EARLY = (Outcome.CAPPED, Outcome.STOPPED, Outcome.CRASH, Outcome.TIMEOUT)
_FAULTS = (Outcome.CRASH, Outcome.TIMEOUT)
#: a fault raised by an agent's `final()` (game.py): it may follow the last move of any agent
_FINAL_FAULT = "in final():"
_SEED_BOUND = 2**64


class ReplayError(ValueError):
    """A replay file that cannot be used: unreadable, not a replay, or malformed."""


@dataclass(frozen=True)
class Difference:
    """One field of a replay file that disagrees with the re-simulation or the digest."""

    field: str
    detail: str

    def __str__(self) -> str:
        return f"{self.field}: {self.detail}"


@dataclass(frozen=True)
class Replay:
    """A saved game: its layout, number of ghosts and record.

    `fields` holds the file's own values of the digest fields (None: take them from the
    record), `digest` the file's digest (None: the file has none), `problems` the values that
    were readable but impossible (a fractional score), `ignored` keys this version does not
    know.
    """

    layout: Layout
    num_ghosts: int
    record: GameRecord
    package_version: str = ""
    fields: Mapping[str, Any] | None = field(default=None, compare=False)
    digest: Mapping[str, Any] | None = field(default=None, compare=False)
    problems: tuple[Difference, ...] = field(default=(), compare=False)
    ignored: tuple[str, ...] = field(default=(), compare=False)


@dataclass(frozen=True)
class Verdict:
    """The result of re-simulating a replay: where it got to and what differs from the file.

    `complete` is False when an action could not be played (the re-simulation stopped there);
    `played` counts the actions played. `unverified` maps each field that could not be checked
    to the reason; `digest` is "verified", "absent" or "unusable".
    """

    state: GameState
    outcome: Outcome
    pacman_moves: int
    differences: tuple[Difference, ...]
    unverified: Mapping[str, str] = field(default_factory=dict)
    complete: bool = True
    digest: str = "absent"
    played: int = 0

    @property
    def matches(self) -> bool:
        """True if no field of the file disagrees with the re-simulation or the digest."""
        return not self.differences

    @property
    def fully_verified(self) -> bool:
        """True if every non-informational field was checked and agrees."""
        return self.matches and not self.unverified


# --------------------------------------------------------------------- writing
def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True,
                      allow_nan=False)


def field_digest(name: str, value: Any) -> str:
    """The SHA-256 (hex) of one field's JSON value, bound to the field's name."""
    text = f"{FORMAT} {name} {_canonical(value)}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def make_digest(data: Mapping[str, Any]) -> dict[str, Any]:
    """The `digest` entry of a replay dict: one SHA-256 per field of `DIGEST_FIELDS`."""
    return {"algorithm": DIGEST_ALGORITHM,
            "fields": {name: field_digest(name, data[name]) for name in DIGEST_FIELDS}}


def replay_dict(record: GameRecord, layout: Layout, num_ghosts: int) -> dict[str, Any]:
    """The JSON-ready replay of a finished game, with its digest."""
    from pacman import __version__

    data: dict[str, Any] = {"format": FORMAT, "format_version": FORMAT_VERSION,
                            "package_version": __version__}
    data.update(record.to_dict())
    data["layout_text"] = layout.text
    data["num_ghosts"] = num_ghosts
    # what json.dumps writes and json.loads reads back: the digest is of the file's values
    data["digest"] = make_digest(json.loads(_canonical({k: data[k] for k in DIGEST_FIELDS})))
    return data


def save_replay(path: str | Path, record: GameRecord, layout: Layout,
                num_ghosts: int | None = None) -> Path:
    """Write a game's replay as JSON; returns the path."""
    path = Path(path)
    if num_ghosts is None:
        num_ghosts = len(record.agents) - 1
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(replay_dict(record, layout, num_ghosts), indent=1,
                               allow_nan=False) + "\n", encoding="utf-8")
    return path


def replay_file_name(index: int, seed: int) -> str:
    """The file name of game `index` (1-based) in a `--record-dir`."""
    return f"game-{index:03d}-seed-{seed}.json"


# --------------------------------------------------------------------- reading
class _Malformed(Exception):
    pass


def _reject_constant(name: str) -> Any:
    raise _Malformed(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Malformed(f"{text} is too large for a number")
    return value


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > 30:  # far beyond any seed or score; int() of huge text is slow
        raise _Malformed(f"a {len(text)}-digit number")
    return int(text)


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise _Malformed(f"the key {key!r} appears twice in one object")
        result[key] = value
    return result


def load_replay(path: str | Path) -> Replay:
    """Read a replay file; any problem is a one-line `ReplayError`."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ReplayError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise ReplayError(f"{path}: cannot read: {error}") from None
    return parse_replay(decode_json(text, str(path)), str(path))


def decode_json(text: str, source: str = "<replay>") -> Any:
    """Strict JSON: no NaN or infinities (`1e999`), no repeated keys, bounded nesting."""
    try:
        return json.loads(text, parse_constant=_reject_constant, parse_float=_finite_float,
                          parse_int=_bounded_int, object_pairs_hook=_unique_keys)
    except json.JSONDecodeError as error:
        raise ReplayError(f"{source}: not JSON ({error.msg} at line {error.lineno})") from None
    except _Malformed as error:
        raise ReplayError(f"{source}: malformed replay: {error}") from None
    except RecursionError:
        raise ReplayError(f"{source}: malformed replay: nested too deeply") from None
    except ValueError as error:  # e.g. an int() the interpreter refuses
        raise ReplayError(f"{source}: malformed replay: {error}") from None


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    return "an object"


_MISSING = object()  # a required field that is not there (reported once, as missing)


class _Reader:
    """Typed access to a replay dict: wrong types are collected (malformed), impossible
    values become `Difference`s."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.data = data
        self.malformed: list[str] = []
        self.problems: list[Difference] = []

    def get(self, name: str, default: Any = _MISSING) -> Any:
        if name in self.data:
            return self.data[name]
        if default is _MISSING:
            self.malformed.append(f"missing field '{name}'")
        return default

    def text(self, name: str, value: Any, *, optional: bool = False) -> str | None:
        if isinstance(value, str) or (optional and value is None):
            return value
        if value is _MISSING:
            return None
        self.malformed.append(f"{name} is {_kind(value)}, not text")
        return None

    def whole(self, name: str, value: Any, *, optional: bool = False, low: int | None = None,
              high: int | None = None) -> int | None:
        """A whole number; a fractional or out-of-range one is a difference (placeholder 0)."""
        if (optional and value is None) or value is _MISSING:
            return None
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            self.malformed.append(f"{name} is {_kind(value)}, not a number")
            return None
        if isinstance(value, float):
            self._problem(name, f"{value!r} is not a whole number (the game writes whole "
                          "numbers)")
            return 0
        if (low is not None and value < low) or (high is not None and value >= high):
            bounds = f">= {low}" if high is None else f"from {low} to {high - 1}"
            self._problem(name, f"{value} is out of range (the game writes numbers {bounds})")
            return 0
        return value

    def _problem(self, name: str, detail: str) -> None:
        base, _, index = name.partition("[")
        where = f"entry {index.rstrip(']')}: " if index else ""
        self.problems.append(Difference(base, where + detail))

    def number(self, name: str, value: Any) -> float | None:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            self.malformed.append(f"{name} is {_kind(value)}, not a number")
            return None
        return float(value)

    def trace(self, name: str, value: Any) -> dict[str, Any] | None:
        if value is None or isinstance(value, dict):
            return value
        self.malformed.append(f"{name} is {_kind(value)}, not an object or null")
        return None

    def items(self, name: str, value: Any) -> list[Any]:
        if isinstance(value, list):
            return value
        if value is _MISSING:
            return []
        self.malformed.append(f"{name} is {_kind(value)}, not a list")
        return []


def parse_replay(data: Any, source: str = "<replay>") -> Replay:
    """Check the types of a replay dict and decode it; a wrong type is a `ReplayError`."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ReplayError(f"{source}: not a Pacman replay (no \"format\": \"{FORMAT}\")")
    version = data.get("format_version")
    if isinstance(version, bool) or version != FORMAT_VERSION:
        raise ReplayError(f"{source}: replay format version {version!r}; this Pacman reads "
                          f"version {FORMAT_VERSION}")
    read = _Reader(data)
    layout_name = read.text("layout", read.get("layout"))
    layout_text = read.text("layout_text", read.get("layout_text"))
    package_version = read.text("package_version", read.get("package_version", ""))
    agents = [read.text(f"agents[{i}]", a)
              for i, a in enumerate(read.items("agents", read.get("agents")))]
    actions = [read.text(f"actions[{i}]", a)
               for i, a in enumerate(read.items("actions", read.get("actions")))]
    outcome_text = read.text("outcome", read.get("outcome"))
    seed = read.whole("seed", read.get("seed"), low=-_SEED_BOUND, high=_SEED_BOUND)
    score = read.whole("score", read.get("score"))
    pacman_moves = read.whole("pacman_moves", read.get("pacman_moves"), low=0)
    num_ghosts = read.whole("num_ghosts", read.get("num_ghosts", max(0, len(agents) - 1)),
                            low=0)
    fault_agent = read.whole("fault_agent", read.get("fault_agent", None), optional=True,
                             low=0)
    fault = read.text("fault", read.get("fault", None), optional=True)
    nodes = [read.whole(f"pacman_nodes[{i}]", n, optional=True, low=0)
             for i, n in enumerate(read.items("pacman_nodes", read.get("pacman_nodes", [])))]
    think = [read.number(f"think_time[{i}]", t)
             for i, t in enumerate(read.items("think_time", read.get("think_time", [])))]
    move_times = [read.number(f"pacman_move_times[{i}]", t) for i, t in
                  enumerate(read.items("pacman_move_times", read.get("pacman_move_times", [])))]
    traces = [read.trace(f"pacman_traces[{i}]", t) for i, t in
              enumerate(read.items("pacman_traces", read.get("pacman_traces", [])))]
    digest = data.get("digest")
    if digest is not None:
        _check_digest_types(read, digest)
    outcome: Outcome | None = None
    if isinstance(outcome_text, str):
        try:
            outcome = Outcome(outcome_text)
        except ValueError:
            known = ", ".join(o.value for o in Outcome)
            read.malformed.append(f"outcome {outcome_text!r} is not one of {known}")
    if read.malformed:
        shown = "; ".join(read.malformed[:5])
        more = f" (and {len(read.malformed) - 5} more)" if len(read.malformed) > 5 else ""
        raise ReplayError(f"{source}: malformed replay: {shown}{more}")
    assert layout_name is not None and layout_text is not None and outcome is not None
    record = GameRecord(
        layout=layout_name, seed=seed or 0, agents=tuple(str(a) for a in agents),
        outcome=outcome, score=score or 0, pacman_moves=pacman_moves or 0,
        actions=tuple(str(a) for a in actions), fault_agent=fault_agent, fault=fault,
        pacman_nodes=tuple(nodes), think_time=tuple(t or 0.0 for t in think),
        pacman_move_times=tuple(t or 0.0 for t in move_times), pacman_traces=tuple(traces))
    try:
        layout = parse_layout(layout_text, layout_name, source=f"{source} (layout_text)")
    except LayoutError as error:
        raise ReplayError(f"unknown layout text: {error}") from None
    num_ghosts = num_ghosts or 0
    if num_ghosts > len(layout.ghost_starts):
        raise ReplayError(f"{source}: {num_ghosts} ghosts but the layout has "
                          f"{len(layout.ghost_starts)}")
    if not agents:
        raise ReplayError(f"{source}: malformed replay: no agents")
    values = {name: data.get(name, default) for name, default in (
        ("layout", None), ("layout_text", None), ("num_ghosts", len(agents) - 1),
        ("seed", None), ("agents", None), ("outcome", None), ("score", None),
        ("pacman_moves", None), ("actions", None), ("fault_agent", None), ("fault", None),
        ("pacman_nodes", []))}
    ignored = tuple(sorted(key for key in data if key not in _KNOWN_KEYS))
    return Replay(layout, num_ghosts, record, package_version or "", values, digest,
                  tuple(read.problems), ignored)


def _check_digest_types(read: _Reader, digest: Any) -> None:
    if not isinstance(digest, dict):
        read.malformed.append(f"digest is {_kind(digest)}, not an object")
        return
    read.text("digest.algorithm", digest.get("algorithm"))
    entries = digest.get("fields")
    if not isinstance(entries, dict):
        read.malformed.append(f"digest.fields is {_kind(entries)}, not an object")
        return
    for name, value in entries.items():
        read.text(f"digest.fields.{name}", value)


# --------------------------------------------------------------------- checking
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
    if digest_state != "verified":
        why = ("no digest" if digest_state == "absent" else "the digest is unusable")
        _note_unverifiable(replay, complete, why, differences, unverified)
        if outcome_note is not None:
            unverified["outcome"] = f"{why}: {outcome_note}"
    order = {name: i for i, name in enumerate(DIGEST_FIELDS + INFORMATIONAL_FIELDS)}
    differences.sort(key=lambda d: order.get(d.field, len(order)))
    return Verdict(final, outcome, pacman_moves, tuple(differences), unverified, complete,
                   digest_state, played)


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
    text = _canonical(value)
    if len(text) <= 70 and "\\n" not in text:
        return text
    if isinstance(value, list):
        return f"the list of {len(value)}"
    return "the text" if isinstance(value, str) else text[:67] + "..."


def _note_unverifiable(replay: Replay, complete: bool, why: str,
                       differences: list[Difference], unverified: dict[str, str]) -> None:
    """Without a digest: what the re-simulation cannot see, and the shipped layout check."""
    record = replay.record
    name = record.layout
    if name in shipped_layouts():
        shipped = parse_layout((LAYOUT_DIR / f"{name}.lay").read_text(encoding="utf-8"), name)
        if shipped != parse_layout(replay.layout.text, name):
            differences.append(Difference("layout", f"{name!r} is a shipped layout, but "
                                          "layout_text is another maze"))
    else:
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
            from pacman.display.base import GameStopped
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
