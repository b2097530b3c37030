"""`pacman.stack`: deep recursion runs without mapping a new frame-stack chunk per call."""

from __future__ import annotations

import pytest

from pacman.agents.anytime import iterative_search
from pacman.agents.search import alphabeta, expectimax, minimax
from pacman.stack import call_with_room, with_room

resource = pytest.importorskip("resource")


def _down(n: int) -> int:
    return 0 if n == 0 else _down(n - 1) + 1


def _oscillate(times: int) -> int:
    for _ in range(times):
        _down(3)  # four frames down and back up, across whatever chunk boundary lies there
    return times


def _nest(levels: int, function: object, *args: object) -> object:
    return function(*args) if levels == 0 else _nest(levels - 1, function, *args)  # type: ignore[operator]


def test_a_call_with_room_does_not_map_memory_per_recursion() -> None:
    """Whatever the caller's depth, 2000 dives under `call_with_room` cause (almost) no page
    faults. Without it, CPython 3.11 maps and unmaps a chunk on each dive at the unlucky depths:
    2000 faults for 2000 dives, measured at one of these 120 depths."""
    worst = 0
    for levels in range(0, 240, 2):
        before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
        assert _nest(levels, call_with_room, _oscillate, 2000) == 2000
        worst = max(worst, resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
    assert worst < 100


def test_call_with_room_is_a_plain_call() -> None:
    assert call_with_room(divmod, 7, 2) == (3, 1)
    assert call_with_room(dict, a=1) == {"a": 1}
    with pytest.raises(ZeroDivisionError):
        call_with_room(divmod, 1, 0)


def test_the_searches_keep_their_names_and_documentation() -> None:
    for search in (minimax, alphabeta, expectimax, iterative_search):
        assert search.__doc__ and search.__wrapped__.__name__ == search.__name__  # type: ignore[attr-defined]

    @with_room
    def deep(n: int) -> int:
        """Count down."""
        return 0 if n == 0 else deep.__wrapped__(n - 1) + 1  # type: ignore[attr-defined]

    assert deep(500) == 500 and deep.__doc__ == "Count down." and deep.__name__ == "deep"
