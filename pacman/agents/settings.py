"""Typed agent settings: one frozen dataclass per agent, a docstring per field, checked once.

Every shipped agent declares its settings as a subclass of `AgentSettings`, each field made by
`setting(default, doc, ...)`: its name is what `-a name=value` and an experiment file write,
its default what an agent plays without it, its `doc` the one line the settings tables show,
its `check` what a value must be. The same fields give, with nothing spelt out twice:

- the agent's keyword settings (`AlphaBetaAgent(depth=3)`), checked when the settings object is
  built (`AgentSettings.of`), never again inside the agent;
- the error for a setting the agent does not have, naming every one it has;
- a batch configuration's settings (`batch_settings`): every field at its default or as
  given, except the *observing* fields (they change what an agent reports, never how it plays,
  like `trace`) and the *late* fields at their default (settings added after results were
  stored: at the default they play as before, so the stored keys and seeds do not move);
- the settings tables of `pacman agents` and of docs/agents.md (a test compares them).

A setting's value is what the command line gives (`pacman.settings_text.typed`): a bool, an int, a
float, a string or None; an evaluation may also be a Python function. A float field takes an
int as it is given (`time=0` stays the int 0 in a batch key, as it always has).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pacman.agents.search_core import MAX_SEARCH_MOVES
from pacman.errors import SettingsError, shown_value
from pacman.limits import MAX_SECONDS

__all__ = [
    # declaring settings
    "AgentSettings", "setting", "SettingField",
    # the checks the shipped agents share
    "evaluation_spec", "positive_int", "whole_number", "at_least_one", "non_negative", "switch",
    "probability", "one_of", "finite_non_negative", "optional_count", "optional_seconds",
]

Check = Callable[[str, Any], "str | None"]
"""`check(name, value)`: the reason `value` cannot be setting `name`, or None when it can."""

Primitive = (bool, int, float, str, type(None))

T = TypeVar("T", bound="AgentSettings")


def setting(default: Any, doc: str, *, check: Check | None = None, late: bool = False,
            observing: bool = False) -> Any:
    """A settings field: its default, its one-line documentation and its check.

    Args:
        default: the value the agent plays with when the setting is not given.
        doc: one line for the settings tables (what the setting does, in the user's words).
        check: `check(name, value)` returning the reason a value is refused (None if it is not).
        late: added after results were stored; at its default it stays out of batch keys.
        observing: changes what the agent reports, never how it plays; never in batch keys.

    Returns:
        A `dataclasses.field` carrying the above in its metadata.
    """
    return field(default=default, metadata={"doc": doc, "check": check, "late": late,
                                            "observing": observing})


@dataclass(frozen=True)
class SettingField:
    """One setting as the tables show it: name, default, documentation, and its batch role."""

    name: str
    default: Any
    doc: str
    late: bool
    observing: bool


@dataclass(frozen=True)
class AgentSettings:
    """The base of every agent's settings (it has none of its own)."""

    def __post_init__(self) -> None:
        for item in dataclasses.fields(self):
            check: Check | None = item.metadata.get("check")
            if check is not None:
                reason = check(item.name, getattr(self, item.name))
                if reason is not None:
                    raise SettingsError(reason)

    @classmethod
    def fields(cls) -> tuple[SettingField, ...]:
        """The settings in declaration order, with their documentation."""
        return tuple(SettingField(item.name, item.default, item.metadata.get("doc", ""),
                                  bool(item.metadata.get("late")),
                                  bool(item.metadata.get("observing")))
                     for item in dataclasses.fields(cls))

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """The settings' names, in declaration order."""
        return tuple(item.name for item in dataclasses.fields(cls))

    @classmethod
    def of(cls: type[T], values: Mapping[str, Any]) -> T:
        """The settings from `name: value` pairs (the rest at their defaults), checked.

        Raises:
            SettingsError: a name the agent does not have (the message names every setting
                it has), or a value its check refuses.
        """
        known = cls.names()
        for name in values:
            if name not in known:
                raise SettingsError(f"unknown setting {name!r} (it accepts: "
                                    f"{', '.join(known) or 'no settings'})")
        return cls(**values)

    def changed(self) -> dict[str, Any]:
        """The settings whose value is not the default, in declaration order."""
        return {item.name: getattr(self, item.name) for item in dataclasses.fields(self)
                if getattr(self, item.name) != item.default}

    @classmethod
    def batch_settings(cls, given: Mapping[str, Any]) -> dict[str, Any]:
        """A batch configuration's settings: the defaults overlaid with `given` (values as given,
        not converted), without observing settings or late settings at their default, and
        without defaults that are not plain values (a Python function)."""
        result: dict[str, Any] = {}
        for item in cls.fields():
            if item.observing:
                continue
            if item.name in given:
                value = given[item.name]
                if not (item.late and value == item.default):
                    result[item.name] = value
            elif not item.late and isinstance(item.default, Primitive):
                result[item.name] = item.default
        return result


# --- the checks the shipped agents share (each returns the reason, or None) ------------------


def evaluation_spec(name: str, value: Any) -> str | None:
    """An evaluation: its text (a name, a weighted sum, a weights file, `module:function`) or a
    Python function."""
    if isinstance(value, str) or callable(value):
        return None
    return (f"{name} must name an evaluation (score, better, name:weight,..., @file.json or "
            f"module:function) or be a function, got {value!r}")


def positive_int(name: str, value: Any) -> str | None:
    """A search depth of a Pacman agent: a whole number from 1 to `MAX_SEARCH_MOVES`."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        return f"{name} must be a positive integer, got {value!r}"
    return _too_deep(name, value)


def at_least_one(name: str, value: Any) -> str | None:
    """A ghost's search depth: a whole number from 1 to `MAX_SEARCH_MOVES`."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        return f"{name} must be a whole number >= 1, got {value!r}"
    return _too_deep(name, value)


def _too_deep(name: str, value: int) -> str | None:
    """A depth no search can reach: even alone, one agent's moves (depth x agents) are capped
    at `MAX_SEARCH_MOVES` (a deeper recursion would overflow Python's stack); the cap for the
    agents of a game is the search's own one-line error (`check_root`)."""
    if value > MAX_SEARCH_MOVES:
        return (f"{name} must be at most {MAX_SEARCH_MOVES} (the deepest search is "
                f"{MAX_SEARCH_MOVES} moves, depth x agents), got {value}")
    return None


#: the largest budget of playouts or nodes a move may be given: far beyond a day's search, so
#: that a budget typed by mistake (`playouts=10**25`) is a one-line error, not a move that
#: never ends (as depth is bounded by `MAX_SEARCH_MOVES`)
MAX_BUDGET = 10**9


def whole_number(unit: str = "") -> Check:
    """A count that may be 0 (0 switches the feature off), at most `MAX_BUDGET`; `unit` as in
    "of plies"."""
    def check(name: str, value: Any) -> str | None:
        if isinstance(value, bool) or not isinstance(value, int) or not \
                0 <= value <= MAX_BUDGET:
            return (f"{name} must be a whole number{unit} from 0 to {MAX_BUDGET:,}, got "
                    f"{shown_value(value)}")
        return None
    return check


def non_negative(name: str, value: Any) -> str | None:
    """A number >= 0 (seconds, a margin)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= 0:
        return f"{name} must be a number >= 0, got {value!r}"
    return None


def finite_non_negative(name: str, value: Any) -> str | None:
    """A finite number >= 0 (an exploration constant)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not (
            0 <= value < math.inf):
        return f"{name} must be a number >= 0, got {value!r}"
    return None


def optional_count(name: str, value: Any) -> str | None:
    """None (not given) or a whole number from 1 to `MAX_BUDGET` (a budget of playouts or
    nodes)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_BUDGET:
        return f"{name} must be a whole number from 1 to {MAX_BUDGET:,}, got {shown_value(value)}"
    return None


def optional_seconds(name: str, value: Any) -> str | None:
    """None (not given) or seconds above 0 and at most `pacman.limits.MAX_SECONDS`."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not (
            0 < value <= MAX_SECONDS):
        return (f"{name} must be seconds > 0 and at most {MAX_SECONDS:,.0f}, got "
                f"{shown_value(value)}")
    return None


def switch(name: str, value: Any) -> str | None:
    """True or false."""
    if not isinstance(value, bool):
        return f"{name} must be true or false, got {value!r}"
    return None


def probability(name: str, value: Any) -> str | None:
    """A number from 0 to 1."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not (
            0.0 <= value <= 1.0):
        return f"{name} must be a number between 0 and 1, got {value!r}"
    return None


def one_of(*choices: str) -> Check:
    """One of a few words."""
    def check(name: str, value: Any) -> str | None:
        if value not in choices:
            return f"unknown {name} {value!r} (choose {' or '.join(choices)})"
        return None
    return check
