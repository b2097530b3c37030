"""The eight symmetries of a layout (`NAME@SYMMETRY`): the same maze turned or mirrored."""

from __future__ import annotations

import pytest

from pacman.errors import LayoutError
from pacman.layout import SYMMETRIES, Layout, load_layout, transformed


def cells(layout: Layout) -> tuple[object, ...]:
    return (layout.width, layout.height, layout.walls, layout.food, layout.capsules,
            layout.pacman_start, layout.ghost_starts)


@pytest.mark.parametrize("name", ["assumptions", "assumptions-two", "mediumClassic"])
@pytest.mark.parametrize("symmetry", [s for s in SYMMETRIES if s])
def test_a_symmetry_keeps_every_piece_and_turns_the_board(name: str, symmetry: str) -> None:
    layout = load_layout(name)
    turned = load_layout(f"{name}@{symmetry}")
    assert turned.name == f"{name}@{symmetry}"
    quarter = symmetry.endswith(("rot90", "rot270"))
    assert (turned.width, turned.height) == ((layout.height, layout.width) if quarter else
                                             (layout.width, layout.height))
    assert (len(turned.walls), len(turned.food), len(turned.capsules),
            len(turned.ghost_starts)) == (len(layout.walls), len(layout.food),
                                          len(layout.capsules), len(layout.ghost_starts))


def test_the_half_turn_reverses_rows_and_columns_and_ghosts_keep_their_order() -> None:
    layout = load_layout("assumptions-two")
    half = transformed(layout, "rot180")
    flip = lambda cell: (layout.width - 1 - cell[0], layout.height - 1 - cell[1])  # noqa: E731
    assert half.walls == frozenset(map(flip, layout.walls))
    assert set(half.food) == set(map(flip, layout.food))
    assert half.pacman_start == flip(layout.pacman_start)
    assert half.ghost_starts == tuple(map(flip, layout.ghost_starts))


def test_four_quarter_turns_and_two_mirrors_are_the_layout_itself() -> None:
    layout = load_layout("mediumClassic")
    turned = layout
    for _ in range(4):
        turned = transformed(turned, "rot90")
    assert cells(turned) == cells(layout)
    assert cells(transformed(transformed(layout, "flip"), "flip")) == cells(layout)
    assert transformed(layout, "") is layout


def test_an_unknown_symmetry_is_one_line() -> None:
    with pytest.raises(LayoutError, match="no symmetry 'rot45'"):
        transformed(load_layout("assumptions"), "rot45")
    with pytest.raises(LayoutError, match="no such layout"):
        load_layout("assumptions@rot45")
