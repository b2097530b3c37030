"""Pacman's region among the ghosts: the cells he reaches strictly before every non-scared ghost.

Two queries on a maze's distance tables (`pacman.maze`), behind `GameState.safe_cell_count`
and `GameState.is_trapped`: how many cells the region holds (counted up to a limit, nearest
first), and whether it holds no loop (a dead end, or a corridor whose ends the ghosts reach
first), or, with `around_walls`, no loop around a wall (an open room is a trap too), or fewer
independent loops than asked (`loops`: one loop is no way out from two ghosts).
`safe_cell_count` spells its scan out three times (one ghost, two ghosts, any number): a
deliberate speed copy, since the one- and two-ghost loops avoid a generator per cell;
`pacman_is_trapped` compares the first two ghosts inline and only the others in a generator
(2.7 times faster than a generator for every cell, on positions from mediumClassic
searches). They read the state's packed fields (Pacman's index, and the ghosts as flat
`(index, direction, scared timer)` triples) and stop as soon as the answer is known; both are
in the evaluations' inner loop.
"""

from __future__ import annotations

from typing import Any

from pacman.maze import Maze

__all__ = ["pacman_is_trapped", "safe_cell_count"]


def pacman_is_trapped(maze: Maze, pacman: int, ghosts_and_timers: tuple[Any, ...],
                      most: int | None = None, around_walls: bool = False,
                      loops: int = 1) -> bool:
    """True when Pacman's region (at maze index `pacman`) holds fewer than `loops` independent
    loops (with `around_walls`, loops around a wall), and with `most`, also at most `most`
    cells (`GameState.is_trapped` says it in full)."""
    cell_at, distances = maze.cell_at, maze.distances
    ghosts = ghosts_and_timers
    rows = [distances[cell_at[where]]
            for where, timer in zip(ghosts[0::3], ghosts[2::3]) if timer == 0]
    if not rows:
        return False
    here = cell_at[pacman]
    own = distances[here]
    neighbours = maze.neighbours
    squares = maze.squares if around_walls else None
    inside: set[int] = set()
    add = inside.add
    size = 0
    links = 1 - loops  # the region holds `loops` independent loops once links >= size
    limit = len(own) if most is None else most
    # As in `safe_cell_count`: nearest cells first, and the region ends where a whole
    # distance passes without one of its cells. Two ghosts (or one, twice) compare inline.
    frontier = 0  # distance of the farthest region cell seen so far
    first, second, rest = rows[0], rows[min(1, len(rows) - 1)], rows[2:]
    for cell in maze.cells_by_distance[here]:
        mine = own[cell]
        if mine < first[cell] and mine < second[cell] and (
                not rest or all(mine < row[cell] for row in rest)):
            size += 1
            if size > limit:
                return False
            add(cell)
            frontier = mine
            for other in neighbours[cell]:
                if other in inside:
                    links += 1
            if squares is not None:  # a 2x2 block of free cells is a loop around no wall
                for side, other_side, diagonal in squares[cell]:
                    if side in inside and other_side in inside and diagonal in inside:
                        links -= 1
            if links >= size:
                return False
        elif mine > frontier + 1:
            break
    return True


def safe_cell_count(maze: Maze, pacman: int, ghosts_and_timers: tuple[Any, ...],
                    limit: int) -> int:
    """How many cells Pacman's region holds, counted up to `limit`
    (`GameState.safe_cell_count`)."""
    cell_at, distances = maze.cell_at, maze.distances
    ghosts = ghosts_and_timers
    rows = [distances[cell_at[where]]
            for where, timer in zip(ghosts[0::3], ghosts[2::3]) if timer == 0]
    here = cell_at[pacman]
    reachable = maze.cells_by_distance[here]
    if not rows:
        return min(limit, len(reachable))
    own = distances[here]
    count = 0
    # Nearest cells first: the count usually reaches `limit` after a few cells. The region
    # is connected along shortest paths (the cell before a region cell on Pacman's way is
    # in it too), so once a whole distance passes without one, no farther cell is in it.
    frontier = 0  # distance of the farthest region cell seen so far
    if len(rows) == 1:
        theirs = rows[0]
        for cell in reachable:
            mine = own[cell]
            if mine < theirs[cell]:
                count += 1
                if count >= limit:
                    break
                frontier = mine
            elif mine > frontier + 1:
                break
        return count
    if len(rows) == 2:
        first, second = rows
        for cell in reachable:
            mine = own[cell]
            if mine < first[cell] and mine < second[cell]:
                count += 1
                if count >= limit:
                    break
                frontier = mine
            elif mine > frontier + 1:
                break
        return count
    for cell in reachable:
        mine = own[cell]
        if all(mine < row[cell] for row in rows):
            count += 1
            if count >= limit:
                break
            frontier = mine
        elif mine > frontier + 1:
            break
    return count
