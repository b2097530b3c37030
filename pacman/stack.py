"""Room on the interpreter's frame stack for deep recursion (searches, agents' moves).

CPython 3.11 keeps Python frames on a per-thread stack made of 16 KiB chunks. When a call
needs more room than the current chunk has left, a new chunk is mapped from the system, and
it is unmapped again as soon as that call returns (CPython issue gh-142183, fixed in later
3.13 and 3.14 releases). A search whose recursion goes up and down across such a boundary
(every leaf, in the worst case) maps and unmaps memory tens of thousands of times per move:
measured on a depth-10 alpha-beta search from mediumClassic, 0.16 to 0.40 s for the same
search depending only on how deep the caller's stack was.

`call_with_room` runs a function inside one frame that is larger than a chunk, so CPython
gives it a fresh, larger chunk of its own: about 256 KiB of room beyond the frame, some 500
frames of a deep search, without a single new chunk. The frame's value stack is never
touched, so it costs one mapping per call (about 12 microseconds) and no memory beyond what
the recursion uses.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

__all__ = ["call_with_room", "with_room"]

P = ParamSpec("P")
R = TypeVar("R")

ROOM_BYTES = 1 << 18  # room wanted beyond the padding frame


def _call(function: Callable[..., Any], args: Any, kwargs: Any) -> Any:
    return function(*args, **kwargs)


# A frame of just over ROOM_BYTES does not fit in any 16 KiB chunk, so CPython maps a chunk of
# the next power of two (2 * ROOM_BYTES) for it, and the calls it makes use the other half.
# A larger declared value stack is always valid bytecode: the frame only reserves the slots.
_call.__code__ = _call.__code__.replace(co_stacksize=ROOM_BYTES // 8 + 64)


def call_with_room(function: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """`function(*args, **kwargs)`, run with a frame stack chunk of its own (see above)."""
    return _call(function, args, kwargs)  # type: ignore[no-any-return]


def with_room(function: Callable[P, R]) -> Callable[P, R]:
    """Decorate a recursive search so that every call runs with `call_with_room`."""

    @functools.wraps(function)
    def roomy(*args: P.args, **kwargs: P.kwargs) -> R:
        return _call(function, args, kwargs)  # type: ignore[no-any-return]

    return roomy
