"""The numbers of docs/rules.md as named constants, and the `Direction` enum (docs/rules.md 2)."""

from __future__ import annotations

from enum import Enum


class Direction(str, Enum):
    """A move; members compare equal to the CS188 strings ("North", "Stop", ...)."""

    NORTH = "North"
    SOUTH = "South"
    EAST = "East"
    WEST = "West"
    STOP = "Stop"

    def __str__(self) -> str:
        return self.value

    __hash__ = str.__hash__  # fast dict lookups on the search hot path

    @property
    def reverse(self) -> Direction:
        """The opposite direction (Stop for Stop)."""
        return REVERSE[self]

    @property
    def vector(self) -> tuple[int, int]:
        """The (dx, dy) of one full step."""
        return VECTORS[self]


NORTH, SOUTH, EAST, WEST, STOP = (Direction.NORTH, Direction.SOUTH, Direction.EAST,
                                  Direction.WEST, Direction.STOP)
#: docs/rules.md 2: the canonical order of every list of legal actions.
CANONICAL_ORDER: tuple[Direction, ...] = (WEST, STOP, EAST, NORTH, SOUTH)
VECTORS: dict[Direction, tuple[int, int]] = {
    NORTH: (0, 1), SOUTH: (0, -1), EAST: (1, 0), WEST: (-1, 0), STOP: (0, 0)}
REVERSE: dict[Direction, Direction] = {
    NORTH: SOUTH, SOUTH: NORTH, EAST: WEST, WEST: EAST, STOP: STOP}

FOOD_POINTS = 10          # docs/rules.md 12
WIN_POINTS = 500          # docs/rules.md 12: eating the last food
TIME_PENALTY = 1          # docs/rules.md 14: each Pacman move
GHOST_POINTS = 200        # docs/rules.md 15: eating a scared ghost
LOSE_POINTS = 500         # docs/rules.md 15: caught by a normal ghost
SCARED_TIME = 40          # docs/rules.md 12: a capsule sets every ghost's timer to this
COLLISION_TOLERANCE = 0.7  # docs/rules.md 15: Manhattan distance at which agents collide
GRID_TOLERANCE = 0.001    # docs/rules.md 8: "on a grid point"
PACMAN_SPEED = 1.0
GHOST_SPEED = 1.0
SCARED_SPEED = 0.5        # docs/rules.md 13

DIRECTIONAL_PROB_ATTACK = 0.8        # docs/rules.md 21
DIRECTIONAL_PROB_SCARED_FLEE = 0.8   # docs/rules.md 21
