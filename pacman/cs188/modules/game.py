"""The `game` module CS188 student code imports: `Directions`, `Agent`, `Configuration`,
`AgentState`, `Grid` and `Actions`, with the classic camelCase API.

Coordinates are (x, y) with (0, 0) at the bottom left and North as +y; a grid is indexed
`grid[x][y]`. Directions are the plain strings "North", "South", "East", "West" and "Stop".
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import compress
from typing import Any, ClassVar

from pacman.cs188.modules import util


class Directions:
    """The five moves as CS188's strings, and the tables that turn one into another."""

    NORTH = "North"
    SOUTH = "South"
    EAST = "East"
    WEST = "West"
    STOP = "Stop"

    #: A quarter turn to the left (counter-clockwise seen from above); Stop stays Stop.
    LEFT: ClassVar[dict[str, str]] = {
        NORTH: WEST, SOUTH: EAST, EAST: NORTH, WEST: SOUTH, STOP: STOP}
    #: A quarter turn to the right.
    RIGHT: ClassVar[dict[str, str]] = {
        WEST: NORTH, EAST: SOUTH, NORTH: EAST, SOUTH: WEST, STOP: STOP}
    #: The opposite direction.
    REVERSE: ClassVar[dict[str, str]] = {
        NORTH: SOUTH, SOUTH: NORTH, EAST: WEST, WEST: EAST, STOP: STOP}


class Agent:
    """An agent of the game: agent `index` 0 is Pacman, ghosts are 1, 2, ..."""

    def __init__(self, index: int = 0) -> None:
        self.index = index

    def getAction(self, state: Any) -> str:
        """The agent's move in `state`; subclasses write it."""
        util.raiseNotDefined()


class Configuration:
    """Where an agent is and which way it faces; a value (equal by position and direction)."""

    def __init__(self, pos: tuple[float, float], direction: str) -> None:
        self.pos = pos
        self.direction = direction

    def getPosition(self) -> tuple[float, float]:
        """The (x, y) position; a scared ghost may stand between grid points, e.g. (3.5, 2)."""
        return self.pos

    def getDirection(self) -> str:
        """The direction the agent faces."""
        return self.direction

    def isInteger(self) -> bool:
        """True when the agent stands exactly on a grid point."""
        x, y = self.pos
        return x == int(x) and y == int(y)

    def generateSuccessor(self, vector: tuple[float, float]) -> Configuration:
        """The configuration after moving by `vector`; a Stop keeps the direction faced."""
        x, y = self.pos
        dx, dy = vector
        direction = Actions.vectorToDirection(vector)
        if direction == Directions.STOP:
            direction = self.direction
        return Configuration((x + dx, y + dy), direction)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Configuration):
            return False
        return self.pos == other.pos and self.direction == other.direction

    def __hash__(self) -> int:
        return hash((self.pos, self.direction))

    def __str__(self) -> str:
        return f"{self.pos}, {self.direction}"

    def __repr__(self) -> str:
        return f"Configuration({self.pos!r}, {self.direction!r})"


class AgentState:
    """One agent's state: its start and current configuration, whether it is Pacman, and (for
    ghosts) how many moves it stays scared."""

    def __init__(self, startConfiguration: Configuration, isPacman: bool) -> None:
        self.start = startConfiguration
        self.configuration = startConfiguration
        self.isPacman = isPacman
        self.scaredTimer = 0
        # Only the capture-the-flag variant uses these two; multiagent keeps them at 0.
        self.numCarrying = 0
        self.numReturned = 0

    def getPosition(self) -> tuple[float, float]:
        """The current (x, y) position."""
        return self.configuration.getPosition()

    def getDirection(self) -> str:
        """The direction the agent faces."""
        return self.configuration.getDirection()

    def copy(self) -> AgentState:
        """A new AgentState with the same values (configurations are shared: never mutated)."""
        duplicate = AgentState(self.start, self.isPacman)
        duplicate.configuration = self.configuration
        duplicate.scaredTimer = self.scaredTimer
        duplicate.numCarrying = self.numCarrying
        duplicate.numReturned = self.numReturned
        return duplicate

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, AgentState):
            return False
        return (self.configuration == other.configuration
                and self.scaredTimer == other.scaredTimer)

    def __hash__(self) -> int:
        return hash((self.configuration, self.scaredTimer))

    def __str__(self) -> str:
        return f"{'Pacman' if self.isPacman else 'Ghost'}: {self.configuration}"

    def __repr__(self) -> str:
        return f"<AgentState {self} scaredTimer={self.scaredTimer}>"


class Grid:
    """A width x height board of booleans (walls, food), indexed `grid[x][y]`.

    `data` is the list of columns: `grid[x]` is column x, a list of `height` booleans with y = 0
    at the bottom.
    """

    #: Cells per int in `packBits`.
    CELLS_PER_INT = 30

    def __init__(self, width: int, height: int, initialValue: bool = False,
                 bitRepresentation: Sequence[int] | None = None) -> None:
        if initialValue not in (False, True):
            raise ValueError(f"a Grid holds booleans, not {initialValue!r}")
        self.width = width
        self.height = height
        self.data: list[list[bool]] = [[initialValue] * height for _ in range(width)]
        if bitRepresentation:
            self._fill_from_ints(bitRepresentation)

    @classmethod
    def fromCells(cls, width: int, height: int, cells: Iterable[tuple[int, int]]) -> Grid:
        """A grid that is True exactly at the (x, y) `cells`."""
        grid = cls(width, height)
        data = grid.data
        for x, y in cells:
            data[x][y] = True
        return grid

    def __getitem__(self, x: int) -> list[bool]:
        return self.data[x]

    def __setitem__(self, x: int, column: list[bool]) -> None:
        self.data[x] = column

    def __str__(self) -> str:
        rows = ("".join("T" if self.data[x][y] else "F" for x in range(self.width))
                for y in range(self.height - 1, -1, -1))
        return "\n".join(rows)

    def __repr__(self) -> str:
        return f"Grid({self.width}, {self.height}, {self.count()} True)"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Grid):
            return False
        return self.data == other.data

    def __hash__(self) -> int:
        # Read the cells column by column as the bits of one int, lowest bit first.
        value, bit = 0, 1
        for column in self.data:
            for cell in column:
                if cell:
                    value |= bit
                bit <<= 1
        return hash(value)

    def copy(self) -> Grid:
        """An independent copy."""
        duplicate = Grid(self.width, self.height)
        duplicate.data = [column[:] for column in self.data]
        return duplicate

    def deepCopy(self) -> Grid:
        """An independent copy (the same as `copy`: the cells are booleans)."""
        return self.copy()

    def shallowCopy(self) -> Grid:
        """A new Grid sharing this one's columns: changing a cell changes both."""
        duplicate = Grid(self.width, self.height)
        duplicate.data = self.data
        return duplicate

    def count(self, item: bool = True) -> int:
        """How many cells hold `item`."""
        return sum(column.count(item) for column in self.data)

    def asList(self, key: bool = True) -> list[tuple[int, int]]:
        """The (x, y) cells holding `key`, by x then by y."""
        if key is True:  # the usual call (food, walls): let C skip the empty cells
            rows = range(self.height)
            return [(x, y) for x, column in enumerate(self.data)
                    for y in compress(rows, column) if column[y] == key]
        return [(x, y) for x, column in enumerate(self.data)
                for y, cell in enumerate(column) if cell == key]

    def packBits(self) -> tuple[int, ...]:
        """(width, height, then the cells, CELLS_PER_INT per int, most significant first)."""
        packed = [self.width, self.height]
        current = 0
        for index in range(self.width * self.height):
            x, y = divmod(index, self.height)
            if self.data[x][y]:
                current |= 1 << (self.CELLS_PER_INT - 1 - index % self.CELLS_PER_INT)
            if (index + 1) % self.CELLS_PER_INT == 0:
                packed.append(current)
                current = 0
        packed.append(current)
        return tuple(packed)

    def _fill_from_ints(self, ints: Sequence[int]) -> None:
        """Set the cells from the ints that follow width and height in `packBits`."""
        cells = self.width * self.height
        index = 0
        for value in ints:
            if value < 0:
                raise ValueError(f"a packed Grid holds non-negative ints, not {value}")
            for offset in range(self.CELLS_PER_INT):
                if index == cells:
                    return
                x, y = divmod(index, self.height)
                self.data[x][y] = bool(value >> (self.CELLS_PER_INT - 1 - offset) & 1)
                index += 1


def reconstituteGrid(bitRep: Any) -> Any:
    """A Grid from `Grid.packBits()`'s tuple; anything else is returned unchanged."""
    if not isinstance(bitRep, tuple):
        return bitRep
    width, height = bitRep[:2]
    return Grid(width, height, bitRepresentation=bitRep[2:])


# The moves in the order every list of legal actions uses (West, Stop, East, North, South).
_MOVE_VECTORS: tuple[tuple[str, tuple[int, int]], ...] = (
    (Directions.WEST, (-1, 0)),
    (Directions.STOP, (0, 0)),
    (Directions.EAST, (1, 0)),
    (Directions.NORTH, (0, 1)),
    (Directions.SOUTH, (0, -1)),
)
_VECTOR_OF: dict[str, tuple[int, int]] = dict(_MOVE_VECTORS)


class Actions:
    """Turning moves into vectors and back, and the moves a configuration allows."""

    #: How far from a grid point an agent may be and still count as on it.
    TOLERANCE = 0.001

    @staticmethod
    def reverseDirection(action: str) -> str:
        """The opposite direction (Stop, or anything unknown, is returned as is)."""
        return Directions.REVERSE.get(action, action)

    @staticmethod
    def vectorToDirection(vector: tuple[float, float]) -> str:
        """The direction of a move vector (vertical wins over horizontal; (0, 0) is Stop)."""
        dx, dy = vector
        if dy > 0:
            return Directions.NORTH
        if dy < 0:
            return Directions.SOUTH
        if dx < 0:
            return Directions.WEST
        if dx > 0:
            return Directions.EAST
        return Directions.STOP

    @staticmethod
    def directionToVector(direction: str, speed: float = 1.0) -> tuple[float, float]:
        """The (dx, dy) of a move of `speed` grid cells in `direction`."""
        dx, dy = _VECTOR_OF[direction]
        return (dx * speed, dy * speed)

    @staticmethod
    def getPossibleActions(config: Configuration, walls: Grid) -> list[str]:
        """The moves open to an agent in `config`, in West, Stop, East, North, South order.

        An agent between two grid points (a half-speed ghost) can only go on the way it faces.
        """
        x, y = config.pos
        x_int, y_int = int(x + 0.5), int(y + 0.5)
        if abs(x - x_int) + abs(y - y_int) > Actions.TOLERANCE:
            return [config.getDirection()]
        return [direction for direction, (dx, dy) in _MOVE_VECTORS
                if not walls[x_int + dx][y_int + dy]]

    @staticmethod
    def getLegalNeighbors(position: tuple[float, float], walls: Grid) -> list[tuple[int, int]]:
        """The open cells one move (or a Stop) from the grid point nearest `position`."""
        x, y = position
        x_int, y_int = int(x + 0.5), int(y + 0.5)
        neighbors = []
        for _, (dx, dy) in _MOVE_VECTORS:
            next_x, next_y = x_int + dx, y_int + dy
            if not (0 <= next_x < walls.width and 0 <= next_y < walls.height):
                continue
            if not walls[next_x][next_y]:
                neighbors.append((next_x, next_y))
        return neighbors

    @staticmethod
    def getSuccessor(position: tuple[float, float], action: str) -> tuple[float, float]:
        """`position` moved one cell in the direction `action`."""
        dx, dy = Actions.directionToVector(action)
        x, y = position
        return (x + dx, y + dy)
