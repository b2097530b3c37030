"""The CS188 `GameState` API (camelCase), backed by our immutable `pacman.state.GameState`.

Student code written for the classic project calls `getLegalActions`, `generateSuccessor`,
`getGhostStates`, `getFood` and friends; this adapter answers with the classic values (float
scores, ghost positions as the classic code holds them, `Grid`s indexed `[x][y]`, direction
strings) while every rule runs on our fast state. All adapter states of one game share a
`GameContext`: the grids built from the layout and the food bitmasks, the legal-action lists,
and, when a grader asks for it, the classic *explored* count.

The explored count (what the classic game tests measure): every `generateSuccessor` call adds
its parent and its child to a set of states compared by value; a grader resets it before a move
and reads its size after.
"""

from __future__ import annotations

from pacman.cs188.modules.game import AgentState, Configuration, Directions, Grid
from pacman.rules import STOP, Direction
from pacman.state import GameState as CoreState

__all__ = ["CS188GameState", "ClassicData", "ClassicLayout", "ExploredStates", "GameContext"]

_GRID_CACHE_LIMIT = 256  # food grids kept per game (one per distinct food bitmask seen)


class ExploredStates:
    """The classic explored set: states (by value) that were a parent or a child of a
    `generateSuccessor` call, counted while `counting` is on."""

    __slots__ = ("counting", "states")

    def __init__(self) -> None:
        self.counting = False
        self.states: set[CoreState] = set()

    def reset(self) -> int:
        """Empty the set; return how many states it held."""
        count = len(self.states)
        self.states = set()
        return count

    def __len__(self) -> int:
        return len(self.states)


class GameContext:
    """What every adapter state of one game shares: grids, action lists, the explored set."""

    __slots__ = ("_actions", "_food", "_walls", "explored")

    def __init__(self) -> None:
        self.explored = ExploredStates()
        self._walls: Grid | None = None
        self._food: dict[int, Grid] = {}
        self._actions: dict[tuple[Direction, ...], tuple[str, ...]] = {}

    def wrap(self, state: CoreState) -> CS188GameState:
        """The adapter of `state` in this context."""
        return CS188GameState(state, self)

    def walls(self, state: CoreState) -> Grid:
        """The layout's walls as a `Grid` (one per game, like the classic layout's)."""
        if self._walls is None:
            layout = state.layout
            self._walls = Grid.fromCells(layout.width, layout.height, layout.walls)
        return self._walls

    def food(self, state: CoreState) -> Grid:
        """The food grid of a state; states with the same food share one `Grid`, as the
        classic successors share theirs until a dot is eaten."""
        key = state.food_mask
        grid = self._food.get(key)
        if grid is None:
            if len(self._food) >= _GRID_CACHE_LIMIT:
                self._food.clear()
            layout = state.layout
            grid = self._food[key] = Grid.fromCells(layout.width, layout.height,
                                                    state.food_positions)
        return grid

    def actions(self, legal: tuple[Direction, ...]) -> list[str]:
        """A fresh list of plain direction strings (callers may `remove` from it)."""
        names = self._actions.get(legal)
        if names is None:
            names = self._actions[legal] = tuple(d.value for d in legal)
        return list(names)


class CS188GameState:
    """A game state with the classic CS188 interface. A value: equal states compare equal."""

    __slots__ = ("_context", "_ghost_states", "_state")

    def __init__(self, state: CoreState, context: GameContext | None = None) -> None:
        self._state = state
        self._context = context if context is not None else GameContext()
        self._ghost_states: list[AgentState] | None = None

    @property
    def core(self) -> CoreState:
        """Our own state behind this view."""
        return self._state

    @property
    def context(self) -> GameContext:
        """The shared per-game context."""
        return self._context

    # ------------------------------------------------------------------ moves
    def getLegalActions(self, agentIndex: int = 0) -> list[str]:
        """Legal actions of an agent (West, Stop, East, North, South order); none once over."""
        return self._context.actions(self._state.legal_actions(agentIndex))

    def getLegalPacmanActions(self) -> list[str]:
        """Pacman's legal actions."""
        return self.getLegalActions(0)

    def generateSuccessor(self, agentIndex: int, action: str) -> CS188GameState:
        """The state after an agent's move; raises for a finished game or an illegal move."""
        state = self._state
        if state.is_terminal():
            raise Exception("Can't generate a successor of a terminal state.")
        child = state.successor(agentIndex, action)
        context = self._context
        explored = context.explored
        if explored.counting:
            explored.states.add(state)
            explored.states.add(child)
        return CS188GameState(child, context)

    def generatePacmanSuccessor(self, action: str) -> CS188GameState:
        """The state after Pacman's move."""
        return self.generateSuccessor(0, action)

    # ------------------------------------------------------------------ agents
    def getNumAgents(self) -> int:
        """Pacman plus the ghosts."""
        return self._state.num_agents

    def getPacmanState(self) -> AgentState:
        """A copy of Pacman's agent state (position, direction, start)."""
        state = self._state
        agent = AgentState(Configuration(state.layout.pacman_start, Directions.STOP), True)
        agent.configuration = Configuration(state.pacman_position, state.pacman_direction.value)
        return agent

    def getPacmanPosition(self) -> tuple[int, int]:
        """Pacman's cell (integers)."""
        return self._state.pacman_position

    def getGhostStates(self) -> list[AgentState]:
        """The ghosts' agent states, in agent order."""
        return list(self._ghosts())

    def getGhostState(self, agentIndex: int) -> AgentState:
        """One ghost's agent state; `agentIndex` counts from 1."""
        return self._ghosts()[self._ghost_number(agentIndex)]

    def getGhostPosition(self, agentIndex: int) -> tuple[float, float]:
        """One ghost's position; `agentIndex` counts from 1."""
        self._ghost_number(agentIndex)
        return self._ghost_position(agentIndex - 1)

    def getGhostPositions(self) -> list[tuple[float, float]]:
        """Every ghost's position, in agent order."""
        return [self._ghost_position(i) for i in range(self._state.num_ghosts)]

    def _ghost_number(self, agentIndex: int) -> int:
        if isinstance(agentIndex, bool) or not isinstance(agentIndex, int):
            raise TypeError(f"a ghost index must be an int, got {agentIndex!r}")
        if agentIndex == 0:
            raise Exception("Pacman's index passed to getGhostPosition")
        if not 0 < agentIndex < self._state.num_agents:
            raise Exception("Invalid index passed to getGhostState")
        return agentIndex - 1

    def _ghost_position(self, number: int) -> tuple[float, float]:
        # The classic ghosts move by float vectors, so a ghost that has moved holds floats;
        # one that has not moved since its (re)start (direction Stop) holds the layout's ints.
        x, y = self._state.ghost_positions[number]
        if self._state.ghost_directions[number] is STOP:
            return int(x), int(y)
        return float(x), float(y)

    def _ghosts(self) -> list[AgentState]:
        ghosts = self._ghost_states
        if ghosts is None:
            state = self._state
            ghosts = []
            for number, (start, facing, timer) in enumerate(zip(
                    state.ghost_start_positions, state.ghost_directions, state.scared_timers)):
                agent = AgentState(Configuration(start, Directions.STOP), False)
                agent.configuration = Configuration(self._ghost_position(number), facing.value)
                agent.scaredTimer = timer
                ghosts.append(agent)
            self._ghost_states = ghosts
        return ghosts

    # ------------------------------------------------------------------ the board
    def getScore(self) -> float:
        """The score, as a float."""
        return float(self._state.score)

    def getCapsules(self) -> list[tuple[int, int]]:
        """The cells that still hold a capsule."""
        return list(self._state.capsule_positions)

    def getNumFood(self) -> int:
        """Food dots left."""
        return self._state.food_count

    def getFood(self) -> Grid:
        """The food as a `Grid` indexed `[x][y]`."""
        return self._context.food(self._state)

    def getWalls(self) -> Grid:
        """The walls as a `Grid` indexed `[x][y]`."""
        return self._context.walls(self._state)

    def hasFood(self, x: int, y: int) -> bool:
        """True if (x, y) still holds food."""
        return self.getFood()[x][y]

    def hasWall(self, x: int, y: int) -> bool:
        """True if (x, y) is a wall."""
        return self.getWalls()[x][y]

    def isWin(self) -> bool:
        """True once Pacman has eaten the last food."""
        return self._state.is_win()

    def isLose(self) -> bool:
        """True once a ghost has caught Pacman."""
        return self._state.is_lose()

    @property
    def data(self) -> ClassicData:
        """The classic `GameStateData` fields that student code reads (`state.data.layout.walls`,
        `state.data.agentStates[i].scaredTimer`, ...), read-only (see `ClassicData`)."""
        return ClassicData(self)

    # ------------------------------------------------------------------ values
    def deepCopy(self) -> CS188GameState:
        """An equal state (states are values; nothing needs copying)."""
        return CS188GameState(self._state, self._context)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CS188GameState):
            return False
        return self._state == other._state

    def __hash__(self) -> int:
        return hash(self._state)

    def __str__(self) -> str:
        """The classic text board: walls, food, agents, then capsules, and the score."""
        state = self._state
        layout = state.layout
        rows = [[" "] * layout.width for _ in range(layout.height)]
        for x, y in layout.walls:
            rows[y][x] = "%"
        for x, y in state.food_positions:
            rows[y][x] = "."
        px, py = state.pacman_position
        rows[py][px] = _PACMAN_MOUTH.get(state.pacman_direction.value, "<")
        for gx, gy in state.ghost_positions:
            rows[int(gy + 0.5)][int(gx + 0.5)] = "G"
        for x, y in state.capsule_positions:
            rows[y][x] = "o"
        board = "\n".join("".join(row) for row in reversed(rows))
        return f"{board}\nScore: {state.score}\n"

    def __repr__(self) -> str:
        return f"CS188GameState({self._state!r})"


_PACMAN_MOUTH = {"North": "v", "South": "^", "West": ">"}


class _ReadOnly:
    """A view of one adapter state whose attributes cannot be set: writing to it is an error,
    as it would change nothing (the state is a value)."""

    __slots__ = ("_view",)
    _view: CS188GameState

    def __init__(self, view: CS188GameState) -> None:
        object.__setattr__(self, "_view", view)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__}.{name} is read-only: the game state is a "
                             "value; build a successor with generateSuccessor instead")

    def __delattr__(self, name: str) -> None:
        self.__setattr__(name, None)


class ClassicLayout(_ReadOnly):
    """`state.data.layout` as the classic `layout.Layout` has it: `width`, `height`, `walls`
    and `food` (the layout's own, as at the start, a fresh `Grid` on each read), `totalFood`
    (the dots at the start), `capsules` (at the start), `numGhosts` and `agentPositions`
    (`(isPacman, (x, y))` for each start, Pacman first)."""

    __slots__ = ()

    @property
    def width(self) -> int:
        """Columns."""
        return int(self._view.core.layout.width)

    @property
    def height(self) -> int:
        """Rows."""
        return int(self._view.core.layout.height)

    @property
    def walls(self) -> Grid:
        """The walls (a copy)."""
        return self._view.getWalls().copy()

    @property
    def food(self) -> Grid:
        """The food at the start of the game (a copy)."""
        layout = self._view.core.layout
        return Grid.fromCells(layout.width, layout.height, layout.food)

    @property
    def totalFood(self) -> int:
        """The dots at the start of the game."""
        return len(self._view.core.layout.food)

    @property
    def capsules(self) -> list[tuple[int, int]]:
        """The capsules at the start of the game."""
        return list(self._view.core.layout.capsules)

    @property
    def numGhosts(self) -> int:
        """The ghosts of this game."""
        return int(self._view.core.num_ghosts)

    @property
    def agentPositions(self) -> list[tuple[bool, tuple[int, int]]]:
        """Each agent's start, Pacman first: `(isPacman, (x, y))`."""
        state = self._view.core
        return [(True, state.layout.pacman_start),
                *((False, start) for start in state.ghost_start_positions)]


class ClassicData(_ReadOnly):
    """`state.data`: the classic `GameStateData` fields students read, each with its classic
    value: `layout` (a `ClassicLayout`), `agentStates` (Pacman's then each ghost's
    `AgentState`: `configuration.pos`, `.direction`, `scaredTimer`, `start`), `food` (a
    `Grid`), `capsules`, `score`, `_win` and `_lose`. Every read builds fresh values, so
    changing one (`data.food[x][y] = False`) changes nothing else, and setting a field is an
    error: the state is a value."""

    __slots__ = ()

    @property
    def layout(self) -> ClassicLayout:
        """The layout."""
        return ClassicLayout(self._view)

    @property
    def agentStates(self) -> list[AgentState]:
        """Pacman's agent state, then each ghost's (fresh copies)."""
        view = self._view
        return [view.getPacmanState(), *(_copied(agent) for agent in view._ghosts())]

    @property
    def food(self) -> Grid:
        """The food left (a copy)."""
        return self._view.getFood().copy()

    @property
    def capsules(self) -> list[tuple[int, int]]:
        """The capsules left."""
        return self._view.getCapsules()

    @property
    def score(self) -> int:
        """The score (an int, as the classic data holds it)."""
        return int(self._view.core.score)

    @property
    def _win(self) -> bool:
        return bool(self._view.isWin())

    @property
    def _lose(self) -> bool:
        return bool(self._view.isLose())


def _copied(agent: AgentState) -> AgentState:
    copy = AgentState(agent.start, agent.isPacman)
    copy.configuration = agent.configuration
    copy.scaredTimer = agent.scaredTimer
    return copy

