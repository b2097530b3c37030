"""The `ghosts` field of a classic agent test, read by a small grammar and never executed.

The classic grader evaluates the field as Python (`[RandomGhost(1)]`); we accept exactly the
shape such fields have, and nothing else:

    ghosts  := "[" [ghost ("," ghost)* [","]] "]"
    ghost   := NAME "(" INT ("," NAME "=" NUMBER)* [","] ")"

with NAME one of the classic ghost classes. Anything else is a `GhostSpecError` naming the
column, so a test file that tries to run code is rejected, not run.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pacman.errors import GhostSpecError

__all__ = ["GHOST_CLASSES", "GhostSpec", "GhostSpecError", "parse_ghosts"]

#: The classic ghost classes a test may name, with the keyword settings each accepts.
GHOST_CLASSES: dict[str, tuple[str, ...]] = {
    "RandomGhost": (),
    "DirectionalGhost": ("prob_attack", "prob_scaredFlee"),
}

_TOKEN = re.compile(r"\s*(?:(?P<number>[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)"
                    r"|(?P<name>[A-Za-z_]\w*)|(?P<punct>[\[\](),=]))")


@dataclass(frozen=True)
class GhostSpec:
    """One ghost of a test: its class, agent index and keyword settings."""

    name: str
    index: int
    settings: tuple[tuple[str, float], ...] = ()


def _tokens(text: str) -> list[tuple[str, str, int]]:
    tokens = []
    position = 0
    while position < len(text):
        if text[position:].strip() == "":
            break
        match = _TOKEN.match(text, position)
        if match is None or match.end() == position:
            raise GhostSpecError(f"unexpected {text[position:].strip()[:10]!r} at column "
                                 f"{position + 1}")
        kind = match.lastgroup or ""
        value = match.group(kind)
        tokens.append((kind, value, match.start(kind) + 1))
        position = match.end()
    return tokens


def parse_ghosts(text: str) -> list[GhostSpec]:
    """The ghosts of a `ghosts` field, e.g. `[DirectionalGhost(1), RandomGhost(2)]`."""
    if len(text) > 10_000:
        raise GhostSpecError("the ghosts field is too long")
    tokens = _tokens(text)
    at = 0

    def take(kind: str, value: str | None = None) -> str:
        nonlocal at
        if at >= len(tokens):
            raise GhostSpecError(f"the ghosts field ends early (expected {value or kind})")
        got_kind, got, column = tokens[at]
        if got_kind != kind or (value is not None and got != value):
            raise GhostSpecError(f"expected {value or kind} at column {column}, found {got!r}")
        at += 1
        return got

    def peek(value: str) -> bool:
        return at < len(tokens) and tokens[at][1] == value

    take("punct", "[")
    ghosts: list[GhostSpec] = []
    while not peek("]"):
        column = tokens[at][2] if at < len(tokens) else len(text)
        name = take("name")
        if name not in GHOST_CLASSES:
            raise GhostSpecError(f"unknown ghost {name!r} at column {column} (known: "
                                 f"{', '.join(GHOST_CLASSES)})")
        take("punct", "(")
        index_text = take("number")
        if not index_text.isdigit() or int(index_text) < 1:
            raise GhostSpecError(f"{name}: the agent index must be a whole number >= 1, got "
                                 f"{index_text}")
        settings: list[tuple[str, float]] = []
        while peek(","):
            take("punct", ",")
            if peek(")"):
                break
            key = take("name")
            if key not in GHOST_CLASSES[name]:
                raise GhostSpecError(f"{name} has no setting {key!r}")
            take("punct", "=")
            settings.append((key, float(take("number"))))
        take("punct", ")")
        ghosts.append(GhostSpec(name, int(index_text), tuple(settings)))
        if not peek("]"):
            take("punct", ",")
    take("punct", "]")
    if at != len(tokens):
        raise GhostSpecError(f"unexpected {tokens[at][1]!r} after the list at column "
                             f"{tokens[at][2]}")
    return ghosts
