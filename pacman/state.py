"""`GameState`: an immutable value implementing the classic rules (docs/rules.md 7-17)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from pacman.errors import IllegalMoveError
from pacman.layout import Layout, Position
from pacman.maze import Maze, Point, maze_for
from pacman.regions import pacman_is_trapped, safe_cell_count
from pacman.rules import (
    EAST,
    FOOD_POINTS,
    GHOST_POINTS,
    LOSE_POINTS,
    NORTH,
    SCARED_TIME,
    SOUTH,
    STOP,
    TIME_PENALTY,
    WEST,
    WIN_POINTS,
    Direction,
)

PLAYING, WON, LOST = 0, 1, 2
#: a direction by its name, faster than `Direction(name)` (a state rebuilt in a host each move)
_DIRECTIONS = {direction.value: direction for direction in Direction}
_PACMAN_CHAR = {NORTH: "v", SOUTH: "^", WEST: ">", EAST: "<", STOP: "<"}  # CS188's mouth


class GameState:
    """One position of a game. A value: nothing changes it; `successor` returns a new state.

    Agent 0 is Pacman, agents 1..n-1 are the ghosts. Positions are `(x, y)` tuples; a scared
    ghost may stand half-way between cells, e.g. `(3.5, 2)`. Build the first state with
    `GameState.initial(layout)`.
    """

    # `_ghosts` is flat, (index, direction, scared timer) per ghost: one ghost move then
    # rebuilds a single small tuple, which keeps `successor` cheap.
    # `_hash` caches the hash (a search looks each state up in its table more than once).
    __slots__ = ("_capsules", "_food", "_ghosts", "_hash", "_maze", "_pac", "_pac_dir",
                 "_result", "_score")

    _maze: Maze
    _pac: int
    _pac_dir: Direction
    _ghosts: tuple[Any, ...]
    _food: int
    _capsules: int
    _score: int
    _result: int
    _hash: int | None

    @classmethod
    def initial(cls, layout: Layout, num_ghosts: int | None = None) -> GameState:
        """The start state of a layout, keeping the first `num_ghosts` ghosts (docs/rules.md 5)."""
        if num_ghosts is not None:
            layout = layout.with_ghosts(num_ghosts)
        maze = maze_for(layout)
        state = cls()
        state._maze, state._pac, state._pac_dir = maze, maze.index(layout.pacman_start), STOP
        state._ghosts = tuple(item for start in layout.ghost_starts
                              for item in (maze.index(start), STOP, 0))
        state._food = (1 << len(layout.food)) - 1
        state._capsules = (1 << len(layout.capsules)) - 1
        state._score, state._result, state._hash = 0, PLAYING, None
        return state

    # ----------------------------------------------------------------- the rules
    @property
    def num_agents(self) -> int:
        """Pacman plus the ghosts."""
        return 1 + len(self._ghosts) // 3

    def legal_actions(self, agent: int = 0) -> tuple[Direction, ...]:
        """Legal actions of `agent` in canonical order (docs/rules.md 9-11); none once over."""
        if self._result:
            return ()
        maze = self._maze
        if agent == 0:
            return maze.pacman_actions[self._pac]
        at = 3 * (agent - 1)
        where: int = self._ghosts[at]
        facing: Direction = self._ghosts[at + 1]
        return maze.ghost_actions[where][facing]

    def successor(self, agent: int, action: Direction | str) -> GameState:
        """The state after `agent` plays `action` (docs/rules.md 12-16)."""
        # One flat function on purpose: this is the hot path of every search.
        if self._result:
            raise IllegalMoveError("the game is over: no more moves")
        maze = self._maze
        if action.__class__ is not Direction:
            action = _as_direction(action)
        if agent == 0:
            try:
                pac = maze.pacman_moves[self._pac][action]
            except KeyError:
                raise IllegalMoveError(f"illegal Pacman action {action} at "
                                       f"{self.pacman_position}") from None
            score = self._score - TIME_PENALTY
            food, capsules, ghosts, result = self._food, self._capsules, self._ghosts, PLAYING
            bit = maze.food_bit[pac]
            if food & bit:
                food ^= bit
                score += FOOD_POINTS
                if not food:
                    score += WIN_POINTS
                    result = WON
            bit = maze.capsule_bit[pac]
            if capsules & bit:
                capsules ^= bit
                ghosts = _with_timers(ghosts, SCARED_TIME)
            if not maze.near[pac].isdisjoint(ghosts[0::3]):
                near = maze.near[pac]
                for at in range(0, len(ghosts), 3):
                    if ghosts[at] in near:
                        if ghosts[at + 2] > 0:
                            score += GHOST_POINTS
                            ghosts = _send_home(maze, ghosts, at)
                        elif result != WON:
                            score -= LOSE_POINTS
                            result = LOST
            state = GameState()
            state._maze, state._pac = maze, pac
            state._pac_dir = self._pac_dir if action is STOP else action
            state._ghosts, state._food, state._capsules = ghosts, food, capsules
            state._score, state._result, state._hash = score, result, None
            return state
        at = 3 * (agent - 1)
        if not 0 <= at < len(self._ghosts):
            raise IllegalMoveError(f"no agent {agent} in a game of {self.num_agents} agents")
        items = list(self._ghosts)
        where, facing, timer = items[at], items[at + 1], items[at + 2]
        try:
            target = maze.ghost_moves[where][facing][action]
        except KeyError:
            raise IllegalMoveError(f"illegal action {action} for ghost agent {agent} at "
                                   f"{maze.point[where]}") from None
        if timer > 0:
            where = (where + target) >> 1  # half speed: the midpoint of the full step
            if timer == 1:
                where = maze.snap[where]
            timer -= 1
        else:
            where = target
        score, result = self._score, PLAYING
        if where in maze.near[self._pac]:
            if timer > 0:
                score += GHOST_POINTS
                where, action, timer = maze.index(maze.layout.ghost_starts[at // 3]), STOP, 0
            else:
                score -= LOSE_POINTS
                result = LOST
        items[at], items[at + 1], items[at + 2] = where, action, timer
        state = GameState()
        state._maze, state._pac, state._pac_dir = maze, self._pac, self._pac_dir
        state._ghosts, state._food, state._capsules = tuple(items), self._food, self._capsules
        state._score, state._result, state._hash = score, result, None
        return state

    def is_win(self) -> bool:
        """True once Pacman has eaten the last food."""
        return self._result == WON

    def is_lose(self) -> bool:
        """True once a normal ghost has caught Pacman."""
        return self._result == LOST

    def is_terminal(self) -> bool:
        """True if the game is over (won or lost)."""
        return self._result != PLAYING

    @property
    def score(self) -> int:
        """The game score so far (an integer, docs/rules.md 16)."""
        return self._score

    # ----------------------------------------------------------------- read-only views
    @property
    def layout(self) -> Layout:
        """The layout this state is played on."""
        return self._maze.layout

    @property
    def maze(self) -> Maze:
        """The shared per-layout tables (move tables, distances)."""
        return self._maze

    @property
    def width(self) -> int:
        """Board width in cells."""
        return self._maze.layout.width

    @property
    def height(self) -> int:
        """Board height in cells."""
        return self._maze.layout.height

    @property
    def walls(self) -> frozenset[Position]:
        """The wall cells."""
        return self._maze.layout.walls

    def has_wall(self, x: int, y: int) -> bool:
        """True if (x, y) is a wall."""
        return (x, y) in self._maze.layout.walls

    @property
    def pacman_position(self) -> Position:
        """Pacman's cell."""
        x, y = self._maze.point[self._pac]
        return int(x), int(y)

    @property
    def pacman_direction(self) -> Direction:
        """The way Pacman faces (its last non-Stop move)."""
        return self._pac_dir

    @property
    def num_ghosts(self) -> int:
        """Number of ghosts in play."""
        return len(self._ghosts) // 3

    @property
    def ghost_positions(self) -> tuple[Point, ...]:
        """Each ghost's position, in agent order (agent 1 first); may be half-way points."""
        point = self._maze.point
        return tuple(point[g] for g in self._ghosts[0::3])

    @property
    def ghost_directions(self) -> tuple[Direction, ...]:
        """Each ghost's current direction."""
        return self._ghosts[1::3]

    @property
    def scared_timers(self) -> tuple[int, ...]:
        """Each ghost's scared timer (0 = not scared)."""
        return self._ghosts[2::3]

    @property
    def ghost_start_positions(self) -> tuple[Position, ...]:
        """Where each ghost starts and returns to when eaten."""
        return self._maze.layout.ghost_starts

    def agent_position(self, agent: int) -> Point:
        """Position of agent `agent` (0 = Pacman)."""
        if agent == 0:
            return self.pacman_position
        where: int = self._ghosts[3 * (agent - 1)]
        return self._maze.point[where]

    @property
    def position(self) -> tuple[int, tuple[int, ...], int, int]:
        """Where everything is: Pacman's and the ghosts' cells, the food and the capsules
        left, without the score, the directions and the timers. Two states of a game with the
        same position are a repetition (`repetition` of the search agents)."""
        return self._pac, tuple(self._ghosts[0::3]), self._food, self._capsules

    @property
    def food_mask(self) -> int:
        """The food left as a bitmask over `layout.food` (bit i: the i-th food cell)."""
        return self._food

    @property
    def food_count(self) -> int:
        """Food dots left."""
        return self._food.bit_count()

    @property
    def food_positions(self) -> tuple[Position, ...]:
        """The cells that still hold food, sorted by (x, y)."""
        return _decode(self._food, self._maze.layout.food)

    def has_food(self, x: int, y: int) -> bool:
        """True if (x, y) still holds food."""
        maze = self._maze
        if not (0 <= x < maze.layout.width and 0 <= y < maze.layout.height):
            return False
        return bool(self._food & maze.food_bit[maze.index((x, y))])

    @property
    def capsule_positions(self) -> tuple[Position, ...]:
        """The cells that still hold a capsule."""
        return _decode(self._capsules, self._maze.layout.capsules)

    def nearest_food_distance(self) -> int:
        """Maze distance from Pacman to the nearest food (0 when none is left)."""
        food = self._food
        for bit, distance in self._maze.food_by_distance[self._maze.cell_at[self._pac]]:
            if food & bit:
                return distance
        return 0

    def nearest_capsule_distance(self) -> int:
        """Maze distance from Pacman to the nearest capsule (0 when none is left)."""
        capsules = self._capsules
        for bit, distance in self._maze.capsules_by_distance[self._maze.cell_at[self._pac]]:
            if capsules & bit:
                return distance
        return 0

    @property
    def capsule_count(self) -> int:
        """Capsules left."""
        return self._capsules.bit_count()

    def ghost_distances(self) -> tuple[float, ...]:
        """Maze distance from Pacman to each ghost, in agent order."""
        maze = self._maze
        row = maze.distances[maze.cell_at[self._pac]]
        cell_at = maze.cell_at
        result: list[float] = []
        for where in self._ghosts[0::3]:
            cell = cell_at[where]
            result.append(row[cell] if cell >= 0 else maze.distance_to_half(row, where))
        return tuple(result)

    def ghost_step_distances(self, agent: int) -> tuple[float, ...]:
        """For each legal action of ghost `agent` (in legal order), the maze distance from
        where the move takes the ghost (a scared ghost's half step: the nearest cell) to
        Pacman: how much each move closes in."""
        maze = self._maze
        at = 3 * (agent - 1)
        where = self._ghosts[at]
        moves = maze.ghost_moves[where][self._ghosts[at + 1]]
        scared = self._ghosts[at + 2] > 0
        cell_at, snap = maze.cell_at, maze.snap
        row = maze.distances[cell_at[self._pac]]
        result: list[float] = []
        for target in moves.values():
            if scared:
                target = snap[(where + target) >> 1]
            result.append(row[cell_at[target]])
        return tuple(result)

    def is_trapped(self, most: int | None = None, around_walls: bool = False,
                   loops: int = 1) -> bool:
        """True when the cells Pacman reaches strictly before every non-scared ghost hold no
        loop: Pacman's region is a dead end, or a stretch of corridor whose ends the ghosts
        reach first, and ghosts that play well corner it there. False without normal ghosts.
        With `most`, True only when that region also holds at most `most` cells (a trap
        about to close). With `around_walls`, only a loop around a wall counts as a way out:
        a room of open 2x2 blocks (such as the ghost pen of the classic layouts, two cells
        wide) whose doors the ghosts reach first is a trap too. With `loops` above 1, a
        region with fewer than `loops` independent loops is a trap (two ghosts corner Pacman
        on one loop: one follows him round, the other meets him).

        The region is connected (each of its cells is one step beyond another on Pacman's
        shortest path), so it holds a loop exactly when it has as many links as cells, and
        `loops` independent loops when it has `loops` - 1 links more; cells are visited
        nearest first and the scan stops once it has them or where the region ends.
        In the plane each loop of the region encloses a 2x2 block of its cells or something
        outside it (a wall, a cell a ghost reaches first), so `around_walls` takes one link
        off for each 2x2 block of region cells.
        """
        return pacman_is_trapped(self._maze, self._pac, self._ghosts, most, around_walls, loops)

    def safe_cell_count(self, limit: int) -> int:
        """How many free cells Pacman reaches strictly before every non-scared ghost (its
        Voronoi region in maze distance), counted up to `limit`. Small when ghosts close in
        from several sides."""
        return safe_cell_count(self._maze, self._pac, self._ghosts, limit)

    def maze_distance(self, a: Point, b: Point) -> float:
        """Shortest path between two positions through this layout's maze."""
        return self._maze.maze_distance(a, b)

    # ----------------------------------------------------------------- across processes
    def compact(self) -> list[Any]:
        """This state's fields as JSON-ready data, without its maze: what another process
        that knows the game's layout needs to rebuild it exactly (`recreate`)."""
        ghosts = [value.value if isinstance(value, Direction) else value
                  for value in self._ghosts]
        return [self._pac, self._pac_dir.value, ghosts, self._food, self._capsules,
                self._score, self._result]

    def recreate(self, data: Sequence[Any]) -> GameState:
        """The state of this state's game whose fields are `data` (from `compact`), sharing
        this state's maze; raises IllegalMoveError for data that is not a state's."""
        try:
            pac, pac_dir, ghosts, food, capsules, score, result = data
            named = _DIRECTIONS.get
            flat = tuple((named(value) or Direction(value)) if number % 3 == 1 else int(value)
                         for number, value in enumerate(ghosts))
            state = GameState()
            state._maze = self._maze
            state._pac, state._pac_dir = int(pac), named(pac_dir) or Direction(pac_dir)
            state._ghosts = flat
            state._food, state._capsules = int(food), int(capsules)
            state._score, state._result, state._hash = int(score), int(result), None
        except (TypeError, ValueError) as error:
            raise IllegalMoveError(f"not a state of this game: {error}") from None
        if len(flat) != len(self._ghosts):
            raise IllegalMoveError("not a state of this game: another number of ghosts")
        return state

    # ----------------------------------------------------------------- value semantics
    # __eq__ and __hash__ spell the key out: a search's transposition table calls them for
    # every node it looks up.
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        return (self._pac == other._pac and self._ghosts == other._ghosts
                and self._food == other._food and self._capsules == other._capsules
                and self._pac_dir == other._pac_dir and self._score == other._score
                and self._result == other._result
                and (self._maze is other._maze or self._maze.layout == other._maze.layout))

    def __hash__(self) -> int:
        value = self._hash
        if value is None:
            value = self._hash = hash((self._pac, self._pac_dir, self._ghosts, self._food,
                                       self._capsules, self._score, self._result))
        return value

    def __getstate__(self) -> tuple[None, dict[str, Any]]:
        # without the cached hash: string hashes differ from one process to the next
        slots = {name: getattr(self, name) for name in self.__slots__}
        slots["_hash"] = None
        return None, slots

    def __setstate__(self, state: tuple[None, dict[str, Any]]) -> None:
        for name, value in state[1].items():
            setattr(self, name, value)
        self._hash = None

    def __repr__(self) -> str:
        return (f"GameState(pacman={self.pacman_position}, ghosts={self.ghost_positions}, "
                f"food={self.food_count}, score={self._score})")

    def __str__(self) -> str:
        layout = self._maze.layout
        rows = [[" "] * layout.width for _ in range(layout.height)]
        for x, y in layout.walls:
            rows[y][x] = "%"
        for x, y in self.food_positions:
            rows[y][x] = "."
        for x, y in self.capsule_positions:
            rows[y][x] = "o"
        for gx, gy in self.ghost_positions:
            rows[int(gy + 0.5)][int(gx + 0.5)] = "G"
        px, py = self.pacman_position
        rows[py][px] = _PACMAN_CHAR[self._pac_dir]
        board = "\n".join("".join(row) for row in reversed(rows))
        return f"{board}\nScore: {self._score}\n"


def _as_direction(action: object) -> Direction:
    try:
        return Direction(action)
    except ValueError:
        raise IllegalMoveError(f"{action!r} is not an action (one of "
                               f"{', '.join(d.value for d in Direction)})") from None


def _send_home(maze: Maze, ghosts: tuple[Any, ...], at: int) -> tuple[Any, ...]:
    """docs/rules.md 15: an eaten ghost restarts at its start cell, facing Stop, not scared."""
    home = maze.index(maze.layout.ghost_starts[at // 3])
    return ghosts[:at] + (home, STOP, 0) + ghosts[at + 3:]


def _with_timers(ghosts: tuple[Any, ...], timer: int) -> tuple[Any, ...]:
    """docs/rules.md 12: a capsule sets (not adds to) every ghost's scared timer."""
    items = list(ghosts)
    items[2::3] = [timer] * (len(items) // 3)
    return tuple(items)


def _decode(mask: int, cells: tuple[Position, ...]) -> tuple[Position, ...]:
    return tuple(_iter_bits(mask, cells))


def _iter_bits(mask: int, cells: tuple[Position, ...]) -> Iterator[Position]:
    while mask:
        low = mask & -mask
        yield cells[low.bit_length() - 1]
        mask ^= low
