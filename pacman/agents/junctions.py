"""A maze's junction graph: the corridors Pacman walks from one decision point to the next.

A junction-level tree search (`pacman.agents.mcts_junction`) does not choose a move a ply: it
chooses a *corridor*, every move from where Pacman stands to the next cell where a choice is
to be made. On mediumClassic a corridor is some 5 moves long, so 4 plies of such a tree look
about 20 moves ahead, where 4 plies of single moves look 4.

**Cells.** A cell is open when it is not a wall; its open neighbours are the open cells one
step North, South, East or West (the maze does not wrap). A **junction** is an open cell with 3
or 4 open neighbours, a **dead end** one with exactly 1. The other open cells have 2 open
neighbours (or none, an isolated cell): they lie inside corridors.

**Corridors.** `corridor(cell, direction)` is the walk from an open cell in a direction with an
open neighbour: one step that way, then on along the corridor (at each cell with 2 open
neighbours, the one that is not where the walk came from, around corners too) until it reaches
a junction or a dead end, or comes back to the cell it started from (a ring without a
junction). Its `moves` are the directions of every step, its `cells` every cell reached (the
last is its `end`). A corridor from a cell inside a corridor (Pacman's cell at the root of a
search) ends at the first junction or dead end that way, as any other.

The graph is built once per maze (`junction_graph`, cached by the layout's walls and size):
every corridor from every open cell, so a search looks corridors up, never walks them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from pacman.rules import EAST, NORTH, SOUTH, WEST, Direction

__all__ = ["Corridor", "JunctionGraph", "junction_graph", "DIRECTIONS"]

Cell = tuple[int, int]

#: the directions a corridor may start in, in the order `exits` lists them (the game's
#: canonical order without Stop)
DIRECTIONS: tuple[Direction, ...] = (WEST, EAST, NORTH, SOUTH)


@dataclass(frozen=True)
class Corridor:
    """One walk from `start` to the next junction or dead end (see the module docstring):
    the direction of each step (`moves`, the first is `action`) and each cell reached
    (`cells`, the last is `end`)."""

    start: Cell
    moves: tuple[Direction, ...]
    cells: tuple[Cell, ...]

    @property
    def action(self) -> Direction:
        """The first move: the direction the corridor leaves `start` in."""
        return self.moves[0]

    @property
    def end(self) -> Cell:
        """The junction or dead end the corridor reaches (`start` again for a ring)."""
        return self.cells[-1]

    def __len__(self) -> int:
        """The number of moves."""
        return len(self.moves)


@dataclass(frozen=True)
class JunctionGraph:
    """A maze's junctions, dead ends and every corridor from every open cell.

    `neighbours[cell]` lists the directions to `cell`'s open neighbours (in `DIRECTIONS`
    order); `corridors[(cell, direction)]` is the corridor from `cell` that way.
    """

    junctions: frozenset[Cell]
    dead_ends: frozenset[Cell]
    neighbours: dict[Cell, tuple[Direction, ...]]
    corridors: dict[tuple[Cell, Direction], Corridor]

    def exits(self, cell: Cell) -> tuple[Direction, ...]:
        """The directions a corridor can leave `cell` in (its open neighbours'; an isolated
        or unknown cell has none)."""
        return self.neighbours.get(cell, ())

    def corridor(self, cell: Cell, direction: Direction) -> Corridor:
        """The corridor from `cell` in `direction`.

        Raises:
            KeyError: `cell` is not open or `direction` leads into a wall.
        """
        return self.corridors[(cell, direction)]

    def is_stop(self, cell: Cell) -> bool:
        """True at a junction or a dead end: where a corridor ends."""
        return cell in self.junctions or cell in self.dead_ends


def _walk(start: Cell, first: Direction, neighbours: dict[Cell, tuple[Direction, ...]],
          stops: frozenset[Cell]) -> Corridor:
    """The corridor from `start` leaving by `first` (module docstring)."""
    moves: list[Direction] = []
    cells: list[Cell] = []
    x, y = start
    move = first
    limit = len(neighbours)  # no corridor is longer than the open cells
    while True:
        dx, dy = move.vector
        x, y = x + dx, y + dy
        moves.append(move)
        cells.append((x, y))
        cell = (x, y)
        if cell in stops or cell == start or len(moves) >= limit:
            break
        back = move.reverse
        onward = [d for d in neighbours[cell] if d != back]
        if not onward:  # an isolated pair: cannot happen outside stops, but stop anyway
            break
        move = onward[0]
    return Corridor(start, tuple(moves), tuple(cells))


def _build(walls: frozenset[Cell], width: int, height: int) -> JunctionGraph:
    neighbours: dict[Cell, tuple[Direction, ...]] = {}
    for x in range(width):
        for y in range(height):
            if (x, y) in walls:
                continue
            neighbours[(x, y)] = tuple(
                d for d in DIRECTIONS
                if 0 <= x + d.vector[0] < width and 0 <= y + d.vector[1] < height
                and (x + d.vector[0], y + d.vector[1]) not in walls)
    junctions = frozenset(cell for cell, ds in neighbours.items() if len(ds) >= 3)
    dead_ends = frozenset(cell for cell, ds in neighbours.items() if len(ds) == 1)
    stops = junctions | dead_ends
    corridors = {(cell, d): _walk(cell, d, neighbours, stops)
                 for cell, ds in neighbours.items() for d in ds}
    return JunctionGraph(junctions, dead_ends, neighbours, corridors)


@lru_cache(maxsize=16)
def _cached(walls: frozenset[Cell], width: int, height: int) -> JunctionGraph:
    return _build(walls, width, height)


def junction_graph(walls: frozenset[Cell], width: int, height: int) -> JunctionGraph:
    """The junction graph of the maze with these `walls` in a `width` x `height` board (the
    last 16 mazes' graphs are cached; a graph must not be changed)."""
    return _cached(walls, width, height)
