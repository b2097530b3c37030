"""The "did you mean" of a misspelled name: the one known name closest to it (`difflib`), for the
messages that reject an unknown agent, ghost, layout, evaluation, demo or command name.

Names are compared case-folded by default: a slip of case is the likeliest typo, and the
suggestion is given in the choice's own spelling, so `smallclassic` suggests `smallClassic` even
where layout names are case-sensitive. A caller can compare by another key (the registry drops
the `Agent`/`Ghost` ending of class names, so that `MyAgent` is not taken for `MCTSAgent`).
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable

__all__ = ["CUTOFF", "close_name", "did_you_mean"]

#: The least `difflib.SequenceMatcher.ratio` of a suggestion: one slip in a name of four
#: letters (`plya`, `mtcs`: 0.75) is close; `human` for `maxn` (0.67) or `fly` for `play` (0.57)
#: is not.
CUTOFF = 0.7


def close_name(name: str, choices: Iterable[str], *, key: Callable[[str], str] = str.casefold,
               cutoff: float = CUTOFF) -> str | None:
    """The one choice closest to `name` (compared by `key` of both), or None if none is at
    least `cutoff` alike or the closest is `name` itself; of choices with the same key, the
    first."""
    by_key: dict[str, str] = {}
    for choice in choices:
        by_key.setdefault(key(choice), choice)
    found = difflib.get_close_matches(key(name), list(by_key), n=1, cutoff=cutoff)
    if not found or by_key[found[0]] == name:
        return None
    return by_key[found[0]]


def did_you_mean(name: str, choices: Iterable[str], *,
                 key: Callable[[str], str] = str.casefold, cutoff: float = CUTOFF) -> str:
    """`(did you mean 'x'?)` for the choice closest to `name` (see `close_name`), or '' when
    none is close."""
    found = close_name(name, choices, key=key, cutoff=cutoff)
    return "" if found is None else f"(did you mean {found!r}?)"
