"""Per-layout precomputation shared by every state: indexes, move tables, maze distances.

Positions live on a *doubled* grid so that half-speed scared ghosts (docs/rules.md 8) need no
floats on the hot path: the point `(x, y)` has index `(2x) * stride + 2y` with
`stride = 2 * height`, so a half step East is `+stride`, a half step North is `+1`, a full step
is twice that, and `(3.5, 2)` is simply an odd column. Pacman and non-scared ghosts are always
on even (grid-point) indexes.

The distance tables (`distances`, `food_by_distance`, `capsules_by_distance`,
`cells_by_distance`) are indexed by compact cell number and read the same way in two modes:

- **eager** (at most `EAGER_MAX_CELLS` free cells, every shipped layout): every row is built
  up front as plain lists, the fastest to read; this costs O(cells^2) time and memory;
- **lazy** (bigger mazes): a row is computed on first use by one breadth-first search from its
  cell (about 3 ms on a 100x100 open maze, 15 ms at 25,000 cells) and kept in a cache of
  bounded size (`ROW_CACHE_BYTES`, oldest row dropped first), so a 100x100 open maze starts in
  well under a second and memory stays flat however long the game. A cached row is read with
  one plain dict lookup; a food row is two compact arrays, not a list of tuples.

Both modes give exactly the same answers (a property test checks it on random layouts).
"""

from __future__ import annotations

import math
from array import array
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from pacman.layout import Layout, Position, check_size
from pacman.rules import CANONICAL_ORDER, REVERSE, STOP, VECTORS, Direction

if TYPE_CHECKING:  # numpy is imported where a big maze needs it, not for every game
    import numpy as np
    import numpy.typing as npt

Point = tuple[float, float]

#: Distance-table entry for cells that cannot reach each other (walled-off regions): larger
#: than any real distance, small enough that sums of a few never overflow.
UNREACHABLE = 2**29

#: Mazes with at most this many free cells get eager all-pairs tables (O(cells^2) time and
#: memory: about 0.2 s and 25 MB at this size with food on every cell; the largest shipped
#: layout, originalClassic, has 294); bigger ones compute rows on demand.
EAGER_MAX_CELLS = 500

#: Memory budget of the lazy row cache of one maze (distances, cells and food rows of the
#: cached cells), in bytes; the cache always keeps at least `MIN_CACHED_ROWS` cells.
ROW_CACHE_BYTES = 32 * 2**20
MIN_CACHED_ROWS = 32

_NOWHERE: Point = (-1.0, -1.0)  # `Maze.point` of indexes no agent can stand on
_NO_NEIGHBOURS: frozenset[int] = frozenset()

_Row_co = TypeVar("_Row_co", covariant=True)


class Rows(Protocol[_Row_co]):
    """A table indexed by compact cell number: a list (eager) or a lazy cache (big mazes)."""

    def __getitem__(self, cell: int, /) -> _Row_co: ...


class Maze:
    """Tables derived once from a layout and shared by every `GameState` of it.

    `eager_max_cells` chooses the mode of the distance tables (see the module docstring);
    `row_cache_bytes` bounds the lazy mode's cache. Both exist for tests and experiments;
    `is_lazy` tells which mode a maze has. Raises `LayoutError` over the size limits.
    """

    __slots__ = (
        "_squares", "capsule_bit", "capsules_by_distance", "cell_at", "cell_of", "cells",
        "cells_by_distance", "distances", "food_bit", "food_by_distance", "full_step",
        "ghost_actions", "ghost_moves", "half_ends", "half_step", "is_lazy", "layout", "near",
        "neighbours",
        "pacman_actions", "pacman_moves", "point", "snap", "stride",
    )

    #: compact cell number -> maze distance to every cell (`UNREACHABLE` across walls)
    distances: Rows[Sequence[int]]
    #: per cell, every food as (bit, distance), nearest first (ties in food order): a
    #: nearest-food query stops at the first bit still set
    food_by_distance: Rows[Sequence[tuple[int, int]]]
    capsules_by_distance: Rows[Sequence[tuple[int, int]]]
    #: per cell, every reachable cell, nearest first (ties in cell order), for region queries
    #: that stop early
    cells_by_distance: Rows[Sequence[int]]

    def __init__(self, layout: Layout, eager_max_cells: int = EAGER_MAX_CELLS,
                 row_cache_bytes: int = ROW_CACHE_BYTES) -> None:
        width, height, walls = layout.width, layout.height, layout.walls
        check_size(layout.name, width, height, width * height - len(walls))
        self.layout = layout
        stride = self.stride = 2 * height
        self.half_step: dict[Direction, int] = {
            d: dx * stride + dy for d, (dx, dy) in VECTORS.items()}
        self.full_step: dict[Direction, int] = {d: 2 * s for d, s in self.half_step.items()}
        self.cells: tuple[Position, ...] = tuple(
            (x, y) for x in range(width) for y in range(height) if (x, y) not in walls)
        self.cell_of: dict[int, int] = {self.index(c): i for i, c in enumerate(self.cells)}
        self._make_moves(2 * width * stride)
        self._make_items_and_distances(eager_max_cells, row_cache_bytes)

    def _make_moves(self, size: int) -> None:
        """The per-index tables, each `size` long (the doubled grid): `near`, `point`, `snap`,
        `pacman_actions`, `ghost_actions`, `pacman_moves` and `ghost_moves`.

        Only the indexes an agent can stand on (the free cells, and the half-way points
        between two free neighbours, where a scared ghost can stop) get entries of their own;
        every other index shares one empty value per table, so that beyond one pointer per
        index and table the memory grows with the free cells (see the size limits of
        `pacman.layout`). Values that are equal are one object: cells with the same legal
        moves share their tuple of actions and their ghost-action dict, and every index
        value stored is one int object per value (a big maze has hundreds of thousands of
        entries). A half-way point is made once, from the first of its two cells in cell
        order, its ghost actions only onward or back (docs/rules.md 11).
        """
        walls, stride, full_step = self.layout.walls, self.stride, self.full_step
        # docs/rules.md 15: a ghost collides with Pacman (on a grid point) within 0.7, i.e. on
        # Pacman's point or half a cell away; per Pacman index, the set of those indexes
        collide = (0, 1, -1, stride, -stride)
        self.near: list[frozenset[int]] = [_NO_NEIGHBOURS] * size
        #: the (x, y) of each index an agent can stand on (`(-1.0, -1.0)` elsewhere)
        self.point: list[Point] = [_NOWHERE] * size
        #: docs/rules.md 14: the grid point a ghost snaps to when its scared time ends
        self.snap: list[int] = [0] * size
        empty: tuple[Direction, ...] = ()
        self.pacman_actions: list[tuple[Direction, ...]] = [empty] * size
        self.ghost_actions: list[dict[Direction, tuple[Direction, ...]]] = [{}] * size
        # action -> next index, legal actions only: one dict lookup checks and moves
        self.pacman_moves: list[dict[Direction, int]] = [{}] * size
        self.ghost_moves: list[dict[Direction, dict[Direction, int]]] = [{}] * size
        # read-only values shared between cells with the same legal moves
        shared_moves: dict[tuple[Direction, ...], tuple[Direction, ...]] = {}
        shared_ghost_actions: dict[tuple[Direction, ...],
                                   dict[Direction, tuple[Direction, ...]]] = {}
        half_actions: dict[Direction, dict[Direction, tuple[Direction, ...]]] = {
            d: {d: (d,), REVERSE[d]: (REVERSE[d],)} for d in CANONICAL_ORDER}
        # one int object per index value
        interned = {index: index for index in self.cell_of}

        def same(index: int) -> int:
            return interned.setdefault(index, index)

        for cell in self.cells:
            x, y = cell
            moves = tuple(d for d in CANONICAL_ORDER
                          if (x + VECTORS[d][0], y + VECTORS[d][1]) not in walls)
            moves = shared_moves.setdefault(moves, moves)
            index = same(self.index(cell))
            self.near[index] = frozenset(same(index + d) for d in collide)
            self.point[index] = cell
            self.snap[index] = index
            self.pacman_actions[index] = moves
            ghost_actions = shared_ghost_actions.get(moves)
            if ghost_actions is None:
                ghost_actions = shared_ghost_actions[moves] = {
                    facing: _ghost_moves(moves, facing) for facing in CANONICAL_ORDER}
            self.ghost_actions[index] = ghost_actions
            self.pacman_moves[index] = {d: same(index + full_step[d]) for d in moves}
            by_actions: dict[tuple[Direction, ...], dict[Direction, int]] = {}
            ghost_moves: dict[Direction, dict[Direction, int]] = {}
            for facing, actions in ghost_actions.items():
                targets = by_actions.get(actions)
                if targets is None:
                    targets = by_actions[actions] = {
                        d: same(index + full_step[d]) for d in actions}
                ghost_moves[facing] = targets
            self.ghost_moves[index] = ghost_moves
            # docs/rules.md 11: half-way towards a free neighbour, a ghost can only keep going
            for d in moves:
                if d is not STOP:
                    half = index + self.half_step[d]
                    if self.point[half] is not _NOWHERE:
                        continue  # already made from the neighbour's side
                    self.point[half] = self._point_of(half)
                    self.snap[half] = self._snap_of(half)
                    self.ghost_actions[half] = half_actions[d]
                    self.ghost_moves[half] = {
                        d: {d: same(half + full_step[d])},
                        REVERSE[d]: {REVERSE[d]: same(half - full_step[d])}}

    def _make_items_and_distances(self, eager_max_cells: int, row_cache_bytes: int) -> None:
        """The food and capsule tables and the distance tables, once the move tables are made.

        `food_bit` and `capsule_bit` give, per index, the bit of the dot (capsule) on that
        cell in the state's mask (bit i: `layout.food[i]`, `layout.capsules[i]`; 0 where there
        is none); `cell_at` the compact cell number of each index (-1 for walls and half-way
        points); `neighbours` each cell's free neighbours. Then the distance tables in the
        mode the number of free cells chooses (the module docstring): lazy (`_LazyTables`,
        rows made on first use, at most `row_cache_bytes` kept) above `eager_max_cells`,
        eager otherwise (all pairs by breadth-first search, the items of each row sorted by
        distance, ties in food, capsule or cell order).
        """
        layout, size = self.layout, len(self.point)
        self.food_bit = [0] * size
        food_bits = [1 << ordinal for ordinal in range(len(layout.food))]
        for ordinal, cell in enumerate(layout.food):
            self.food_bit[self.index(cell)] = food_bits[ordinal]
        self.capsule_bit = [0] * size
        capsule_bits = [1 << ordinal for ordinal in range(len(layout.capsules))]
        for ordinal, cell in enumerate(layout.capsules):
            self.capsule_bit[self.index(cell)] = capsule_bits[ordinal]
        #: doubled index -> compact cell number (-1 for walls and half-way points)
        self.cell_at = [-1] * size
        for index, number in self.cell_of.items():
            self.cell_at[index] = number
        food_cells = [self.cell_of[self.index(item)] for item in layout.food]
        capsule_cells = [self.cell_of[self.index(item)] for item in layout.capsules]
        #: per compact cell, its free neighbours' compact numbers
        self.neighbours = self._neighbours()
        self._squares: list[tuple[tuple[int, int, int], ...]] | None = None
        #: half-way index -> the compact numbers of its two cells (filled as ghosts get there)
        self.half_ends: dict[int, tuple[int, ...]] = {}
        self.is_lazy = len(self.cells) > eager_max_cells
        if self.is_lazy:
            lazy = _LazyTables(self.neighbours, food_bits, food_cells, capsule_bits,
                               capsule_cells, row_cache_bytes)
            self.distances = lazy.distances
            self.cells_by_distance = lazy.cells_by_distance
            self.food_by_distance = lazy.food_by_distance
            self.capsules_by_distance = lazy.capsules_by_distance
            return
        distances = [list(row) for row in _all_pairs(layout.width, layout.height,
                                                     layout.walls)]
        self.distances = distances
        self.food_by_distance = _items_by_distance(distances, food_bits, food_cells)
        self.capsules_by_distance = _items_by_distance(distances, capsule_bits, capsule_cells)
        self.cells_by_distance = [
            sorted((c for c, d in enumerate(row) if d < UNREACHABLE), key=row.__getitem__)
            for row in distances]

    @property
    def distance_matrix(self) -> npt.NDArray[np.int32] | None:
        """The all-pairs distances as a read-only numpy matrix in eager mode, None in lazy mode
        (made on each call, from the rows the queries use)."""
        if self.is_lazy:
            return None
        import numpy as np

        matrix = np.array(self.distances, dtype=np.int32)
        matrix.setflags(write=False)
        return matrix

    def _point_of(self, index: int) -> Point:
        big_x, big_y = divmod(index, self.stride)
        x: float = big_x // 2 if big_x % 2 == 0 else big_x / 2
        y: float = big_y // 2 if big_y % 2 == 0 else big_y / 2
        return x, y

    def _snap_of(self, index: int) -> int:
        x, y = self._point_of(index)
        # docs/rules.md 14: snap to (int(x + 0.5), int(y + 0.5))
        return 2 * int(x + 0.5) * self.stride + 2 * int(y + 0.5)

    def _neighbours(self) -> list[tuple[int, ...]]:
        """Per compact cell, its free neighbours' compact numbers (for breadth-first search)."""
        cell_of, full_step = self.cell_of, self.full_step
        return [tuple(cell_of[index + full_step[d]] for d in self.pacman_actions[index]
                      if d is not STOP)
                for index in (self.index(cell) for cell in self.cells)]

    @property
    def squares(self) -> list[tuple[tuple[int, int, int], ...]]:
        """Per compact cell, the other three cells (side, side, diagonal; compact numbers) of
        each 2x2 block of free cells it is a corner of: the loops that enclose no wall, for
        region queries that count only loops around walls. Most cells of a corridor maze have
        none. Made on first use."""
        if self._squares is None:
            self._squares = self._make_squares()
        return self._squares

    def _make_squares(self) -> list[tuple[tuple[int, int, int], ...]]:
        cell_of, index = self.cell_of, self.index
        free = set(self.cells)
        result: list[tuple[tuple[int, int, int], ...]] = []
        for x, y in self.cells:
            blocks = []
            for dx, dy in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
                corners = ((x + dx, y), (x, y + dy), (x + dx, y + dy))
                if all(corner in free for corner in corners):
                    a, b, c = (cell_of[index(corner)] for corner in corners)
                    blocks.append((a, b, c))
            result.append(tuple(blocks))
        return result

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

    def distance_to_half(self, row: Sequence[int], index: int) -> float:
        """The distance from `row`'s cell to the half-way point `index` (a scared ghost):
        half a step more than to the nearer of its two cells; what `maze_distance` gives."""
        ends = self.half_ends.get(index)
        if ends is None:
            ends = self.half_ends[index] = tuple(cell for cell, _ in self._ends(self.point[index]))
        distance = min(row[cell] for cell in ends)
        return math.inf if distance >= UNREACHABLE else distance + 0.5

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


def _items_by_distance(distances: list[list[int]], bits: list[int],
                       cells: list[int]) -> list[list[tuple[int, int]]]:
    """Eager rows of (bit, distance) per cell, nearest first; the bits are shared objects."""
    return [sorted(((bits[ordinal], row[cell]) for ordinal, cell in enumerate(cells)),
                   key=lambda pair: pair[1])
            for row in distances]


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


# ----------------------------------------------------------------------------- lazy rows

class _ItemRow(Sequence[tuple[int, int]]):
    """A lazy `food_by_distance` row: (bit, distance) pairs made while iterating, from two
    compact arrays (8 bytes per item instead of a list of tuples)."""

    __slots__ = ("_bits", "_distances", "_ordinals")

    def __init__(self, bits: list[int], ordinals: array[int], distances: array[int]) -> None:
        self._bits, self._ordinals, self._distances = bits, ordinals, distances

    def __iter__(self) -> Iterator[tuple[int, int]]:
        return zip(map(self._bits.__getitem__, self._ordinals), self._distances)

    def __len__(self) -> int:
        return len(self._ordinals)

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return list(self)[i]
        return self._bits[self._ordinals[i]], self._distances[i]


_T = TypeVar("_T")


class _RowCache(dict[int, _T]):
    """One lazy table: `table[cell]` is that cell's row, made on first use and kept until
    `max_rows` newer rows have come in (first in, first out). A hit is one plain dict lookup,
    with no Python code and no bookkeeping: the search hot path reads these tables."""

    __slots__ = ("make", "max_rows", "size")

    def __init__(self, size: int, max_rows: int, make: Callable[[int], _T]) -> None:
        super().__init__()
        self.size, self.max_rows, self.make = size, max_rows, make

    def __missing__(self, cell: int) -> _T:
        if not (isinstance(cell, int) and 0 <= cell < self.size):
            raise IndexError(f"no cell number {cell!r} in a maze of {self.size} free cells")
        row = self.make(cell)
        self.put(cell, row)
        return row

    def put(self, cell: int, row: _T) -> None:
        """Keep `row` for `cell`, dropping the oldest row when the table is full."""
        if cell not in self:
            if len(self) >= self.max_rows:
                del self[next(iter(self))]
            self[cell] = row


class _LazyTables:
    """The distance tables of a big maze, rows computed by breadth-first search on demand.

    Memory is bounded: each table keeps at most `max_rows` rows, chosen so that all of them
    together stay within the cache budget.
    """

    def __init__(self, neighbours: list[tuple[int, ...]], food_bits: list[int],
                 food_cells: list[int], capsule_bits: list[int], capsule_cells: list[int],
                 cache_bytes: int) -> None:
        self.neighbours = neighbours
        size = len(neighbours)
        import numpy as np

        self.food_bits, self.capsule_bits = food_bits, capsule_bits
        self.food_cells = np.array(food_cells, dtype=np.intp)
        self.capsule_cells = np.array(capsule_cells, dtype=np.intp)
        # the rows of one cell: distances and cells in order (4 bytes per cell each), food
        # and capsules (8 bytes per item), plus the objects' headers
        per_cell = 8 * (size + len(food_cells) + len(capsule_cells)) + 512
        self.max_rows = max(MIN_CACHED_ROWS, cache_bytes // per_cell)
        self.distances: _RowCache[array[int]] = _RowCache(size, self.max_rows, self._distances)
        self.cells_by_distance: _RowCache[array[int]] = _RowCache(
            size, self.max_rows, self._cells_by_distance)
        self.food_by_distance: _RowCache[_ItemRow] = _RowCache(
            size, self.max_rows, lambda cell: _item_row(self.distances[cell], self.food_bits,
                                                        self.food_cells))
        self.capsules_by_distance: _RowCache[_ItemRow] = _RowCache(
            size, self.max_rows, lambda cell: _item_row(self.distances[cell],
                                                        self.capsule_bits, self.capsule_cells))

    def _distances(self, cell: int) -> array[int]:
        distances, order = _search(self.neighbours, cell)
        self.cells_by_distance.put(cell, order)  # found by the same search
        return distances

    def _cells_by_distance(self, cell: int) -> array[int]:
        distances, order = _search(self.neighbours, cell)
        self.distances.put(cell, distances)
        return order


def _search(neighbours: list[tuple[int, ...]], source: int) -> tuple[array[int], array[int]]:
    """Breadth-first search from `source`: its distance row and the reachable cells ordered by
    (distance, cell number), exactly the eager tables' order."""
    distances = [UNREACHABLE] * len(neighbours)
    distances[source] = 0
    order = [source]
    frontier = [source]
    step = 0
    while frontier:
        step += 1
        found = []
        for here in frontier:
            for there in neighbours[here]:
                if distances[there] == UNREACHABLE:
                    distances[there] = step
                    found.append(there)
        found.sort()
        order += found
        frontier = found
    return array("i", distances), array("i", order)


def _item_row(distances: array[int], bits: list[int], cells: npt.NDArray[np.intp]) -> _ItemRow:
    """Items sorted by distance from one cell, ties in item order (a stable sort), as in the
    eager `_items_by_distance`."""
    if not len(cells):
        return _ItemRow(bits, array("i"), array("i"))
    import numpy as np

    item_distances = np.frombuffer(distances, dtype=np.int32)[cells]
    ordinals = np.argsort(item_distances, kind="stable")
    return _ItemRow(bits, array("i", ordinals.astype(np.int32).tobytes()),
                    array("i", item_distances[ordinals].tobytes()))


# ----------------------------------------------------------------------------- eager tables

@lru_cache(maxsize=64)
def _all_pairs_cached(width: int, height: int,
                      walls: frozenset[Position]) -> tuple[tuple[int, ...], ...]:
    cells = [(x, y) for x in range(width) for y in range(height) if (x, y) not in walls]
    number = {cell: i for i, cell in enumerate(cells)}
    neighbours = [[number[(x + dx, y + dy)] for dx, dy in ((-1, 0), (1, 0), (0, 1), (0, -1))
                   if (x + dx, y + dy) in number] for x, y in cells]
    rows: list[tuple[int, ...]] = []
    for source in range(len(cells)):
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
        rows.append(tuple(d if d >= 0 else UNREACHABLE for d in seen))
    return tuple(rows)


def _all_pairs(width: int, height: int,
               walls: frozenset[Position]) -> tuple[tuple[int, ...], ...]:
    return _all_pairs_cached(width, height, walls)


@lru_cache(maxsize=64)
def _small_maze(layout: Layout) -> Maze:
    return Maze(layout)


#: the last lazy (big) maze: at most one is kept, as its tables weigh up to ~200 MB
_big_maze: dict[Layout, Maze] = {}


def maze_for(layout: Layout) -> Maze:
    """The (cached) `Maze` of a layout: built once per layout, shared by all its states.

    The cache keeps up to 64 small (eager) mazes but only the last big (lazy) one, dropped
    before the next big one is built so that two never weigh on memory together.
    """
    if layout.width * layout.height - len(layout.walls) <= EAGER_MAX_CELLS:
        return _small_maze(layout)
    maze = _big_maze.get(layout)
    if maze is None:
        _big_maze.clear()
        maze = _big_maze[layout] = Maze(layout)
    return maze
