"""Reading a replay file strictly: every field's type checked, every problem one line.

`load_replay(path)` reads the file as UTF-8 with `pacman.files` (a missing or unreadable file,
one that is not a regular file, such as a link to `/dev/zero`, or one over
`pacman.files.LIMITS["replay"]`, 256 MB, is a `ReplayError` before it is read) and hands its
text to `decode_json` and the result to `parse_replay`:

- `decode_json` is JSON without its loopholes: `NaN` and `Infinity` are refused, a number too
  large for a float (`1e999`) is refused, a whole number of more than 30 digits is refused
  (converting huge digit strings is slow), a key repeated in one object is refused, and a
  nesting too deep for the interpreter is refused; each is a one-line `ReplayError`.
- `parse_replay` needs an object with `"format": "pacman-replay"` and a `format_version`
  equal to 1 (`true` is not), then checks the type of every field: `layout`, `layout_text`,
  `agents`, `actions`, `outcome`, `seed`, `score` and `pacman_moves` are required;
  `package_version` (default ""), `num_ghosts` (default: one per agent after Pacman),
  `fault_agent` and `fault` (default null), `pacman_nodes`, `think_time`,
  `pacman_move_times` and `pacman_traces` (default empty) and `digest` may be left out. A
  missing field or a wrong type is "malformed replay", naming up to five of them; so is an
  unknown outcome, a layout text that is not a layout, more ghosts than the layout has, and a
  game without agents. Each entry of `pacman_traces` is null or a search summary whose every
  field (`_TRACE_FIELDS`: `method`, `depth`, `action`, `value`, the counts, `root_values`,
  `principal_variation`) is checked too, so that the window and the replay page can show it;
  an MCTS summary (`"method": "mcts"`) has the fields of `_MCTS_FIELDS` as well
  (`root_visits`, naming the moves of `root_values` in the same order, `playouts`,
  `tree_size`, `stopped`, `budget`, `c`); keys a summary has beyond those are left out and
  listed in `Replay.ignored`.

Text is read as the file says, except a lone surrogate (JSON's valid escape `"\\ud800"`, half
of a UTF-16 pair with no other half): no encoder writes one, so each is read as U+FFFD, the
replacement character, in every text of the record, the layout and the keys listed as ignored
(a terminal, a page and a picture can then show them); `Replay.fields`, which the digest is
checked against, keeps the file's own text.

A value of the right type that the game cannot have written is not an error: a fractional
number where the game writes whole ones, a seed outside `[-2**64, 2**64)`, a negative
`pacman_moves`, `num_ghosts`, `fault_agent` or node count. It is kept as a `Difference` in
`Replay.problems` (the value read as 0), and `verify` reports it with the rest. Keys this
version does not know are kept, by name, in `Replay.ignored`; `Replay.fields` holds the file's
own values of the digest fields, so `verify` checks the digest against what the file says.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pacman.errors import LayoutError, ReplayError
from pacman.files import read_text
from pacman.layout import Layout, parse_layout
from pacman.record import GameRecord, Outcome
from pacman.replay.format import DIGEST_FIELDS, FORMAT, FORMAT_VERSION, INFORMATIONAL_FIELDS

_KNOWN_KEYS = frozenset(("format", "format_version", "digest", *DIGEST_FIELDS,
                         *INFORMATIONAL_FIELDS))
_SEED_BOUND = 2**64


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
    text = read_text(path, "replay", _file_error)
    return parse_replay(decode_json(text, str(path)), str(path))


def _file_error(message: str) -> ReplayError:
    """`pacman.files`' one line about a replay file (a missing one is just "no such file")."""
    missing = ": cannot read: no such file"
    if message.endswith(missing):
        message = message[:-len(missing)] + ": no such file"
    return ReplayError(message)


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


def trace_problem(summary: Any) -> str | None:
    """What a replay reader would refuse in a move's search summary (`SearchTrace.summary()`),
    as one line, or None: not JSON (NaN, a set, bytes, a reference to itself), a number too big
    for `decode_json`, or a field of the wrong type (`_TRACE_FIELDS`). The game loop checks
    each summary with it when the move is recorded, so a record always writes a replay that
    reads back."""
    try:
        text = json.dumps(summary, allow_nan=False)
    except (TypeError, ValueError, RecursionError) as error:
        return f"not JSON: {type(error).__name__}: {str(error)[:200]}"
    try:
        data = decode_json(text, "the summary")
    except ReplayError as error:
        return str(error)[:200]
    read = _Reader({})
    read.trace("the summary", data)
    return read.malformed[0][:200] if read.malformed else None


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


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _is_value(value: Any) -> bool:
    """A search value as a trace writes it: a number, or "inf", "-inf" or "nan" as text."""
    if isinstance(value, str):
        return value in ("inf", "-inf", "nan")
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _is_pairs(first: Callable[[Any], bool], second: Callable[[Any], bool]) -> Callable[[Any], bool]:
    def check(value: Any) -> bool:
        return isinstance(value, list) and all(
            isinstance(pair, list) and len(pair) == 2 and first(pair[0]) and second(pair[1])
            for pair in value)
    return check


def safe_text(text: str) -> str:
    """`text` with each lone surrogate (U+D800 to U+DFFF, which no UTF-8 encoder writes)
    replaced by U+FFFD: what a replay's text is read as."""
    if text.isascii():  # the common case, at once
        return text
    return "".join("\ufffd" if "\ud800" <= char <= "\udfff" else char for char in text)


def _safe_texts(value: Any) -> Any:
    """A checked trace field (text, a number, a list of pairs) with `safe_text` text."""
    if isinstance(value, str):
        return safe_text(value)
    if isinstance(value, list):
        return [_safe_texts(item) for item in value]
    return value


def _is_text(value: Any) -> bool:
    return isinstance(value, str)


#: why an MCTS search stopped: its budget of playouts, nodes or time, or a single legal move
_MCTS_STOPS = ("playouts", "nodes", "time", "single")


#: a move's search summary (`SearchTrace.summary()`): each key's check and what it must be
_TRACE_FIELDS: dict[str, tuple[Callable[[Any], bool], str]] = {
    "method": (_is_text, "text"),
    "depth": (_is_count, "a whole number >= 0"),
    "action": (lambda v: v is None or isinstance(v, str), "text or null"),
    "value": (lambda v: v is None or _is_value(v), 'a number, "inf", "-inf", "nan" or null'),
    "nodes_generated": (_is_count, "a whole number >= 0"),
    "evaluations": (_is_count, "a whole number >= 0"),
    "cuts": (_is_count, "a whole number >= 0"),
    "pruned": (_is_count, "a whole number >= 0"),
    "root_values": (_is_pairs(_is_text, _is_value), "a list of [action, value] pairs"),
    "principal_variation": (_is_pairs(_is_count, _is_text),
                            "a list of [agent, action] pairs"),
}

#: what an MCTS summary (`"method": "mcts"`, `pacman.agents.mcts.MCTSTrace.summary()`) has
#: beyond `_TRACE_FIELDS`
_MCTS_FIELDS: dict[str, tuple[Callable[[Any], bool], str]] = {
    "root_visits": (_is_pairs(_is_text, _is_count), "a list of [action, visits] pairs"),
    "playouts": (_is_count, "a whole number >= 0"),
    "tree_size": (_is_count, "a whole number >= 0"),
    "stopped": (lambda v: isinstance(v, str) and v in _MCTS_STOPS,
                "playouts, nodes, time or single"),
    "budget": (_is_text, "text"),
    "c": (lambda v: _is_value(v) and not isinstance(v, str) and v >= 0, "a number >= 0"),
}


class _Reader:
    """Typed access to a replay dict: wrong types are collected (malformed), impossible
    values become `Difference`s."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.data = data
        self.malformed: list[str] = []
        self.problems: list[Difference] = []
        self.unknown_trace_keys: set[str] = set()

    def get(self, name: str, default: Any = _MISSING) -> Any:
        if name in self.data:
            return self.data[name]
        if default is _MISSING:
            self.malformed.append(f"missing field '{name}'")
        return default

    def text(self, name: str, value: Any, *, optional: bool = False) -> str | None:
        if isinstance(value, str):
            return safe_text(value)
        if optional and value is None:
            return None
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
        """A move's search summary (`SearchTrace.summary()`) or null, every field checked
        (`_TRACE_FIELDS`), so that what shows it (the window's panel, the replay page) gets
        the types it draws; keys this version does not know are left out, by name in
        `unknown_trace_keys`."""
        if value is None:
            return None
        if not isinstance(value, dict):
            self.malformed.append(f"{name} is {_kind(value)}, not an object or null")
            return None
        fields = _TRACE_FIELDS
        if value.get("method") == "mcts":
            fields = {**_TRACE_FIELDS, **_MCTS_FIELDS}
        summary: dict[str, Any] = {}
        for key, (check, wanted) in fields.items():
            if key not in value:
                self.malformed.append(f"{name} has no '{key}'")
            elif not check(value[key]):
                kind = _kind(value[key])
                self.malformed.append(f"{name}.{key} is not {wanted}" if kind == "a list" else
                                      f"{name}.{key} is {kind}, not {wanted}")
            else:
                summary[key] = _safe_texts(value[key])
        if "root_visits" in summary and "root_values" in summary and [
                pair[0] for pair in summary["root_visits"]] != [
                pair[0] for pair in summary["root_values"]]:
            self.malformed.append(f"{name}.root_visits does not name the moves of "
                                  "root_values in their order")
        self.unknown_trace_keys.update(safe_text(key) for key in value if key not in fields)
        return summary

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
    ignored = tuple(sorted([safe_text(key) for key in data if key not in _KNOWN_KEYS]
                           + [f"pacman_traces.{key}" for key in read.unknown_trace_keys]))
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
