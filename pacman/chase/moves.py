"""The moves of the food-free chase as index arrays: Pacman's cells, the ghosts' configurations,
and each configuration's successors with their probabilities given Pacman's cell.

A ghost *configuration* is a cell and a heading (docs/rules.md 10): the heading is the ghost's
last move, so heading `d` at cell `c` exists when the cell one step behind (`c - d`) is free,
and heading Stop exists at every ghost start cell of the layout (a ghost before its first
move; Stop headings elsewhere never occur without scared ghosts, which the chase excludes, and
would add a configuration per cell: 238 + 106 on mediumClassic, twice the states of two ghosts).
A configuration's legal moves are the maze's own (`Maze.ghost_actions`), in canonical order.

**Numbering.** The configurations are numbered by their number of legal moves, most first
(ties in the maze's cell order, then the headings' canonical order), so that the
configurations with more than `k` moves are a prefix. *Slot* `k` lists, for that prefix, the
configuration its `k`-th move leads to (the heading after a move is that move); a ghost's step
then sums (or minimises) slot by slot over ever shorter prefixes, in the moves' canonical order,
each slot one gather of whole rows.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from pacman.agents.ghosts import directional_weights
from pacman.errors import ChaseTableError
from pacman.layout import Layout, Position
from pacman.maze import Point, maze_for
from pacman.rules import CANONICAL_ORDER, STOP, Direction

#: the ghost models a table can be built for
MODELS = ("directional", "random", "adversarial")

Config = tuple[Position, Direction]
IntArray = npt.NDArray[np.intp]
FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True, eq=False)
class ChaseMoves:
    """Index arrays of one layout's chase (module docstring).

    `cells` are the free cells, numbered by `cell_index` in the maze's cell order; `configs`
    the ghost configurations, numbered by `config_index`, `config_cell` the cell number of
    each; `slots[k]` the configuration the `k`-th legal move of each of the first
    `len(slots[k])` configurations leads to; `weights[k][p]` the probabilities of those moves
    when Pacman stands on cell `p` (he has just moved there), or None for the adversarial
    model (the minimum over the moves); `pacman_moves[p]` the cells Pacman's legal actions
    from cell `p` lead to (Stop to `p` itself), in canonical order; `at_cell[p]` the
    configurations on cell `p`.
    """

    cells: tuple[Position, ...]
    cell_index: dict[Position, int] = field(repr=False)
    configs: tuple[Config, ...] = field(repr=False)
    config_index: dict[tuple[Point, Direction], int] = field(repr=False)
    config_cell: IntArray = field(repr=False)
    slots: tuple[IntArray, ...] = field(repr=False)
    weights: tuple[FloatArray, ...] | None = field(repr=False)
    pacman_moves: tuple[IntArray, ...] = field(repr=False)
    at_cell: tuple[IntArray, ...] = field(repr=False)


def chase_moves(layout: Layout, model: str, prob_attack: float) -> ChaseMoves:
    """The index arrays of the chase on `layout` for ghost `model` (module docstring).

    Args:
        layout: the maze; its ghost starts get the Stop-heading configurations.
        model: one of `MODELS`.
        prob_attack: the directional ghost's probability of its best moves (docs/rules.md 21).

    Returns:
        The `ChaseMoves`; raises `ChaseTableError` for a ghost start with no move at all.
    """
    maze = maze_for(layout)
    cells = maze.cells
    cell_index = {cell: number for number, cell in enumerate(cells)}
    configs: list[Config] = []
    moves: list[tuple[Direction, ...]] = []
    for cell, heading in _ghost_configs(layout, cells):
        legal = maze.ghost_actions[maze.index(cell)][heading]
        if not legal:
            raise ChaseTableError(f"the ghost start {cell} of {layout.name!r} has no move")
        configs.append((cell, heading))
        moves.append(legal)
    order = sorted(range(len(configs)), key=lambda number: -len(moves[number]))
    configs, moves = [configs[n] for n in order], [moves[n] for n in order]
    config_index: dict[tuple[Point, Direction], int] = {
        config: number for number, config in enumerate(configs)}
    counts = [len(legal) for legal in moves]
    starts = np.cumsum([0, *counts])[:-1]
    slots, picks = [], []
    for slot in range(counts[0]):
        owners = sum(1 for count in counts if count > slot)
        slots.append(np.array([config_index[(_step(cell, legal[slot]), legal[slot])]
                               for (cell, _), legal in zip(configs[:owners], moves)],
                              dtype=np.intp))
        picks.append(starts[:owners] + slot)
    targets = [_step(cell, d) for (cell, _), legal in zip(configs, moves) for d in legal]
    weights = _weights(model, prob_attack, cells, targets, counts)
    config_cell = np.array([cell_index[cell] for cell, _ in configs], dtype=np.intp)
    pacman_moves = tuple(
        np.array([cell_index[_step(cell, d)] for d in maze.pacman_actions[maze.index(cell)]],
                 dtype=np.intp) for cell in cells)
    at_cell = tuple(np.flatnonzero(config_cell == number) for number in range(len(cells)))
    return ChaseMoves(cells, cell_index, tuple(configs), config_index, config_cell,
                      tuple(slots), None if weights is None else
                      tuple(np.ascontiguousarray(weights[:, pick]) for pick in picks),
                      pacman_moves, at_cell)


def table_states(layout: Layout, ghosts: int) -> int:
    """The states of the chase on `layout` with `ghosts` ghosts, counted without building
    anything: Pacman's cells times the ghosts' configurations (as `chase_moves` numbers them:
    a cell and the heading it was entered by, or Stop on a ghost start) to the power `ghosts`.
    The same for every model."""
    cells = maze_for(layout).cells
    return int(len(cells) * len(_ghost_configs(layout, cells)) ** ghosts)


def _ghost_configs(layout: Layout, cells: Sequence[Position]) -> list[Config]:
    """A ghost's configurations on the open `cells`, cell by cell in canonical heading order: a
    cell with each heading it can be entered by (the cell behind is open), and Stop on a ghost
    start."""
    open_cells, starts_at = set(cells), set(layout.ghost_starts)
    return [(cell, heading) for cell in cells for heading in CANONICAL_ORDER
            if ((cell in starts_at) if heading is STOP
                else _step(cell, heading.reverse) in open_cells)]


def _step(cell: Position, direction: Direction) -> Position:
    """The cell one `direction` move from `cell` (itself for Stop)."""
    dx, dy = direction.vector
    return cell[0] + dx, cell[1] + dy


def _weights(model: str, prob_attack: float, cells: tuple[Position, ...],
             targets: list[Position], counts: list[int]) -> FloatArray | None:
    """`[p, e]`: the probability of move `e` (configuration by configuration, each one's
    `counts` moves to the `targets` cells in canonical order) for Pacman on each cell `p`, or
    None for the adversarial model.

    Random: `1.0 / n` for each of a configuration's `n` moves, as `RandomGhost`. Directional:
    `directional_weights` of the Manhattan distances from the moves' target cells to Pacman's
    cell, the very helper `DirectionalGhost` uses, memoised by the tuple of distances.
    """
    if model == "adversarial":
        return None
    bounds = np.cumsum([0, *counts]).tolist()
    if model == "random":
        row = np.array([1.0 / n for n in counts for _ in range(n)], dtype=np.float64)
        return np.repeat(row[None, :], len(cells), axis=0)
    weights = np.empty((len(cells), len(targets)), dtype=np.float64)
    memo: dict[tuple[int, ...], list[float]] = {}
    for p, (px, py) in enumerate(cells):
        distances = [abs(x - px) + abs(y - py) for x, y in targets]
        row_out: list[float] = []
        for first, last in itertools.pairwise(bounds):
            key = tuple(distances[first:last])
            found = memo.get(key)
            if found is None:
                found = memo[key] = directional_weights(key, prob_attack, False)
            row_out.extend(found)
        weights[p] = row_out
    return weights
