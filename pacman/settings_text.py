"""Agent settings as people type them: `depth=3,evaluation=better`, typed to int/float/bool."""

from __future__ import annotations

from typing import Any

from pacman.errors import SettingsError

__all__ = ["SettingsError", "parse_settings", "split_agent", "typed"]


def split_agent(entry: str) -> tuple[str, str | None]:
    """`NAME[@k=v,k=v]`, the way `pacman batch -p` and `pacman play -p` name an agent with its
    settings, as (the name, the text after `@`, or None without one); a SettingsError when
    the name is empty."""
    name, at, inline = entry.partition("@")
    if not name.strip():
        raise SettingsError(f"bad agent {entry!r}: write NAME or NAME@k=v,k=v")
    return name.strip(), inline if at else None


def parse_settings(text: str | None) -> dict[str, Any]:
    """Parse `k=v,k=v` into typed values (int, float, bool, None, else str).

    A comma-separated piece without `=` continues the previous value, so weighted
    evaluations read naturally: `depth=3,evaluation=score:1,food:-1.5`.
    """
    settings: dict[str, Any] = {}
    if not text:
        return settings
    last: str | None = None
    raw: dict[str, str] = {}
    for piece in text.split(","):
        key, sep, value = piece.partition("=")
        if sep:
            key = key.strip()
            if not key.isidentifier():
                raise SettingsError(f"bad agent setting {piece!r}: the name must be an identifier")
            if key in raw:
                raise SettingsError(f"agent setting {key!r} given twice")
            raw[key] = value.strip()
            last = key
        elif last is not None and piece.strip():
            raw[last] += "," + piece.strip()
        else:
            raise SettingsError(f"bad agent setting {piece!r}: write name=value, e.g. depth=3")
    for key, value in raw.items():
        settings[key] = typed(value)
    return settings


def typed(value: str) -> Any:
    """A setting's text as a bool, None, int or float when it reads as one (a number only in
    plain ASCII decimal, without `_`), else the text."""
    lowered = value.lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    if lowered == "none":
        return None
    if not value.isascii() or "_" in value:
        # a number is plain ASCII decimal: int() and float() would also read `depth=٣` as 3
        # and `depth=1_0` as 10, which is rarely what was meant; such a value stays text,
        # and the setting's check refuses it
        return value
    for kind in (int, float):
        try:
            return kind(value)
        except ValueError:
            pass
    return value
