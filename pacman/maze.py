"""Per-layout precomputation shared by every state: indexes, move tables, maze distances.

Positions live on a *doubled* grid so that half-speed scared ghosts (docs/rules.md 8) need no
floats on the hot path: the point `(x, y)` has index `(2x) * stride + 2y` with
`stride = 2 * height`, so a half step East is `+stride`, a half step North is `+1`, a full step
is twice that, and `(3.5, 2)` is simply an odd column. Pacman and non-scared ghosts are always
on even (grid-point) indexes.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Sequence
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from pacman.layout import Layout, Position
from pacman.rules import CANONICAL_ORDER, REVERSE, STOP, VECTORS, Direction

Point = tuple[float, float]

#: Distance-table entry for cells that cannot reach each other (walled-off regions): larger
#: than any real distance, small enough that sums of a few never overflow.
UNREACHABLE = 2**29


class Maze:
    """Tables derived once from a layout and shared by every `GameState` of it."""

    __slots__ = (
        "capsule_bit", "capsules_by_distance", "cell_at", "cell_of", "cells", "cells_by_distance",
        "distance_matrix", "distances", "food_bit", "food_by_distance", "full_step",
        "ghost_actions", "ghost_moves", "half_step", "layout", "near", "pacman_actions",
        "pacman_moves", "point", "snap", "stride",
    )

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        width, height = layout.width, layout.height
        stride = self.stride = 2 * height
        size = 2 * width * stride
        self.half_step: dict[Direction, int] = {
            d: dx * stride + dy for d, (dx, dy) in VECTORS.items()}
        self.full_step: dict[Direction, int] = {d: 2 * s for d, s in self.half_step.items()}
        # docs/rules.md 15: a ghost collides with Pacman (on a grid point) within 0.7, i.e. on
        # Pacman's point or half a cell away; per index, the set of those indexes
        collide = (0, 1, -1, stride, -stride)
        self.near: list[frozenset[int]] = [frozenset(i + d for d in collide)
                                           for i in range(size)]
        self.point: list[Point] = []
        self.snap: list[int] = []
        for index in range(size):
            big_x, big_y = divmod(index, stride)
            x: float = big_x // 2 if big_x % 2 == 0 else big_x / 2
            y: float = big_y // 2 if big_y % 2 == 0 else big_y / 2
            self.point.append((x, y))
            # docs/rules.md 14: snap to (int(x + 0.5), int(y + 0.5))
            self.snap.append(2 * int(x + 0.5) * stride + 2 * int(y + 0.5))
        walls = layout.walls
        self.cells: tuple[Position, ...] = tuple(
            (x, y) for x in range(width) for y in range(height) if (x, y) not in walls)
        self.cell_of: dict[int, int] = {self.index(c): i for i, c in enumerate(self.cells)}
        empty: tuple[Direction, ...] = ()
        self.pacman_actions: list[tuple[Direction, ...]] = [empty] * size
        self.ghost_actions: list[dict[Direction, tuple[Direction, ...]]] = [{}] * size
        # action -> next index, legal actions only: one dict lookup checks and moves
        self.pacman_moves: list[dict[Direction, int]] = [{} for _ in range(size)]
        self.ghost_moves: list[dict[Direction, dict[Direction, int]]] = [{}] * size
        for cell in self.cells:
            x, y = cell
            moves = tuple(d for d in CANONICAL_ORDER
                          if (x + VECTORS[d][0], y + VECTORS[d][1]) not in walls)
            index = self.index(cell)
            self.pacman_actions[index] = moves
            self.ghost_actions[index] = {facing: _ghost_moves(moves, facing)
                                         for facing in CANONICAL_ORDER}
            self.pacman_moves[index] = {d: index + self.full_step[d] for d in moves}
            self.ghost_moves[index] = {
                facing: {d: index + self.full_step[d] for d in _ghost_moves(moves, facing)}
                for facing in CANONICAL_ORDER}
            # docs/rules.md 11: half-way towards a free neighbour, a ghost can only keep going
            for d in moves:
                if d is not STOP:
                    half = index + self.half_step[d]
                    self.ghost_actions[half] = {d: (d,), REVERSE[d]: (REVERSE[d],)}
                    self.ghost_moves[half] = {
                        d: {d: half + self.full_step[d]},
                        REVERSE[d]: {REVERSE[d]: half - self.full_step[d]}}
        self.food_bit = [0] * size
        for ordinal, cell in enumerate(layout.food):
            self.food_bit[self.index(cell)] = 1 << ordinal
        self.capsule_bit = [0] * size
        for ordinal, cell in enumerate(layout.capsules):
            self.capsule_bit[self.index(cell)] = 1 << ordinal
        self.distance_matrix = _all_pairs(width, height, walls)
        self.distances: list[list[int]] = self.distance_matrix.tolist()
        #: doubled index -> compact cell number (-1 for walls and half-way points)
        self.cell_at = [-1] * size
        for index, number in self.cell_of.items():
            self.cell_at[index] = number
        #: per cell, every food (bit, distance) nearest first: a nearest-food query stops at
        #: the first bit still set
        self.food_by_distance = self._items_by_distance(layout.food)
        self.capsules_by_distance = self._items_by_distance(layout.capsules)
        #: per cell, every reachable cell, nearest first (for region queries that stop early)
        self.cells_by_distance: list[list[int]] = [
            sorted((c for c, d in enumerate(row) if d < UNREACHABLE), key=row.__getitem__)
            for row in self.distances]

    def _items_by_distance(self, items: tuple[Position, ...]) -> list[list[tuple[int, int]]]:
        cells = [self.cell_of[self.index(item)] for item in items]
        return [sorted(((1 << ordinal, row[cell]) for ordinal, cell in enumerate(cells)),
                       key=lambda pair: pair[1])
                for row in self.distances]

    def index(self, position: Point) -> int:
        """The doubled-grid index of a position (grid or half-way point)."""
        return round(2 * position[0]) * self.stride + round(2 * position[1])

    def maze_distance(self, a: Point, b: Point) -> float:
        """Shortest path length between two positions through the maze (docs/rules.md walls).

        Half-way positions (scared ghosts) are 0.5 from each of their two grid neighbours.
        Cells that cannot reach each other are `math.inf` apart. Raises `ValueError` for a
        wall or off-board position.
        """
        ends_a, ends_b = self._ends(a), self._ends(b)
        if self.index(a) == self.index(b):
            return 0
        distance = min(self.distances[i][j] + extra_a + extra_b
                       for i, extra_a in ends_a for j, extra_b in ends_b)
        return math.inf if distance >= UNREACHABLE else distance

    def _ends(self, position: Point) -> list[tuple[int, float]]:
        x, y = position
        if abs(x - round(x)) + abs(y - round(y)) <= 0.001:
            cell = self.cell_of.get(self.index((round(x), round(y))))
            if cell is None:
                raise ValueError(f"{position} is not a free cell of {self.layout.name}")
            return [(cell, 0.0)]
        ends = [self.cell_of.get(self.index(p)) for p in _neighbours_of_half(x, y)]
        found = [(cell, 0.5) for cell in ends if cell is not None]
        if not found:
            raise ValueError(f"{position} is not a free cell of {self.layout.name}")
        return found


def _ghost_moves(moves: Sequence[Direction], facing: Direction) -> tuple[Direction, ...]:
    """docs/rules.md 10: no Stop; no reversing unless it is the only move left."""
    without_stop = [d for d in moves if d is not STOP]
    reverse = REVERSE[facing]
    if reverse in without_stop and len(without_stop) > 1:
        without_stop.remove(reverse)
    return tuple(without_stop)


def _neighbours_of_half(x: float, y: float) -> list[tuple[int, int]]:
    if abs(x - round(x)) > 0.001:
        return [(int(x - 0.5), round(y)), (int(x + 0.5), round(y))]
    return [(round(x), int(y - 0.5)), (round(x), int(y + 0.5))]


@lru_cache(maxsize=64)
def _all_pairs_cached(width: int, height: int,
                      walls: frozenset[Position]) -> npt.NDArray[np.int32]:
    cells = [(x, y) for x in range(width) for y in range(height) if (x, y) not in walls]
    number = {cell: i for i, cell in enumerate(cells)}
    neighbours = [[number[(x + dx, y + dy)] for dx, dy in ((-1, 0), (1, 0), (0, 1), (0, -1))
                   if (x + dx, y + dy) in number] for x, y in cells]
    matrix = np.full((len(cells), len(cells)), UNREACHABLE, dtype=np.int32)
    for source in range(len(cells)):
        row = matrix[source]
        seen = [-1] * len(cells)
        seen[source] = 0
        queue = deque([source])
        while queue:
            here = queue.popleft()
            step = seen[here] + 1
            for there in neighbours[here]:
                if seen[there] < 0:
                    seen[there] = step
                    queue.append(there)
        row[:] = [d if d >= 0 else UNREACHABLE for d in seen]
    matrix.setflags(write=False)
    return matrix


def _all_pairs(width: int, height: int, walls: frozenset[Position]) -> npt.NDArray[np.int32]:
    return _all_pairs_cached(width, height, walls)


@lru_cache(maxsize=64)
def maze_for(layout: Layout) -> Maze:
    """The (cached) `Maze` of a layout: built once per layout, shared by all its states."""
    return Maze(layout)
