"""What the environments share: the action order, action masks, the observation grids, and
building the layout and the ghost agents."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from pacman.agents.registry import make_agent, resolve_name
from pacman.layout import Layout, check_playable, ghosts_in_play, load_layout
from pacman.rules import CANONICAL_ORDER, EAST, NORTH, SOUTH, STOP, WEST, Direction
from pacman.state import GameState

#: Action `i` of every `Discrete(5)` action space.
ACTIONS: tuple[Direction, ...] = (NORTH, SOUTH, EAST, WEST, STOP)
ACTION_INDEX: dict[Direction, int] = {action: i for i, action in enumerate(ACTIONS)}
STOP_INDEX = ACTION_INDEX[STOP]

#: Observation channels, in order (each a 0/1 grid, row 0 = the top row of the maze).
CHANNELS: tuple[str, ...] = ("walls", "food", "capsules", "pacman", "ghosts", "scared_ghosts")
NUM_CHANNELS = len(CHANNELS)

Grid = npt.NDArray[np.uint8]


def resolve_layout(layout: str | Layout, num_ghosts: int | None) -> tuple[Layout, int]:
    """The layout (a shipped name, a .lay path or a `Layout`) and the number of ghosts in
    play (all the layout has when `num_ghosts` is None); raises ValueError when unplayable."""
    if isinstance(layout, str):
        layout = load_layout(layout)  # LayoutError is a ValueError
    elif not isinstance(layout, Layout):
        raise TypeError(f"layout must be a layout name or a Layout, not {type(layout).__name__}")
    num_ghosts = ghosts_in_play(layout, num_ghosts)
    layout = layout.with_ghosts(num_ghosts)
    check_playable(layout, num_ghosts)
    return layout, num_ghosts


def action_mask(state: GameState, agent: int) -> npt.NDArray[np.int8]:
    """1 for each legal action of `agent` (in `ACTIONS` order), 0 elsewhere; all 0 once over."""
    mask = np.zeros(len(ACTIONS), dtype=np.int8)
    for action in state.legal_actions(agent):
        mask[ACTION_INDEX[action]] = 1
    return mask


def pacman_action(state: GameState, action: Any) -> Direction:
    """The move Pacman plays for action index `action`: an illegal one becomes Stop."""
    direction = ACTIONS[int(action)]
    return direction if direction in state.legal_actions(0) else STOP


def ghost_action(state: GameState, agent: int, action: Any) -> Direction:
    """The move ghost `agent` plays for action index `action`: an illegal one becomes its first
    legal action in the rules' canonical order (West, Stop, East, North, South)."""
    legal = state.legal_actions(agent)
    direction = ACTIONS[int(action)]
    if direction in legal:
        return direction
    return next(d for d in CANONICAL_ORDER if d in legal)


def _rebuilt(layout: Layout, fields: dict[str, Any]) -> GameState:
    """A state unpickled: its maze from the layout (built once per process, `maze_for`)."""
    from pacman.maze import maze_for

    state = GameState.__new__(GameState)
    for name, value in fields.items():
        setattr(state, name, value)
    state._maze, state._hash = maze_for(layout), None
    return state


class _SentState(GameState):
    """A `GameState` that pickles its layout, not its maze's tables: a vector env's worker
    sends `info["state"]` through a pipe at every step."""

    __slots__ = ()

    def __reduce__(self) -> tuple[Any, ...]:
        fields = {name: getattr(self, name) for name in GameState.__slots__
                  if name not in ("_maze", "_hash")}
        return _rebuilt, (self._maze.layout, fields)


def sendable(state: GameState) -> GameState:
    """`state` as a `GameState` that pickles cheaply (see `_SentState`); equal to it."""
    copy = _SentState.__new__(_SentState)
    for name in GameState.__slots__:
        setattr(copy, name, getattr(state, name))
    return copy


def make_ghosts(name: str, settings: Mapping[str, Any] | None, count: int) -> list[Any]:
    """`count` fresh ghost agents of a registry name (like `pacman play -g NAME`)."""
    resolved = resolve_name(name, "ghost")
    return [make_agent(resolved, "ghost", settings, index=i + 1) for i in range(count)]


class GridEncoder:
    """Draws states of one layout as `(C, H, W)` uint8 grids (see `CHANNELS`).

    Cell `(x, y)` is at row `H - 1 - y`, column `x`. A ghost half-way between two cells (a
    scared ghost moves at half speed) is marked on the cell `(int(x + 0.5), int(y + 0.5))`.
    `extra_self` adds a last channel marking one agent's own cell (the PettingZoo envs).
    """

    def __init__(self, layout: Layout, extra_self: bool = False) -> None:
        self.height, self.width = layout.height, layout.width
        self.channels = NUM_CHANNELS + (1 if extra_self else 0)
        self.walls = np.zeros((self.height, self.width), dtype=np.uint8)
        for x, y in layout.walls:
            self.walls[self.height - 1 - y, x] = 1
        self.food_rows, self.food_cols = self._cells(layout.food)
        self.capsule_cells = layout.capsules
        self.capsule_rows, self.capsule_cols = self._cells(layout.capsules)
        self.food_bytes = (len(layout.food) + 7) // 8
        self._food: tuple[int, Grid] | None = None  # the last food mask and its grid

    def _cells(self, cells: Sequence[tuple[int, int]]) -> tuple[npt.NDArray[np.intp],
                                                                  npt.NDArray[np.intp]]:
        rows = np.array([self.height - 1 - y for _, y in cells], dtype=np.intp)
        cols = np.array([x for x, _ in cells], dtype=np.intp)
        return rows, cols

    @property
    def shape(self) -> tuple[int, int, int]:
        """`(C, H, W)`."""
        return self.channels, self.height, self.width

    def _cell(self, point: tuple[float, float]) -> tuple[int, int]:
        x, y = point
        return self.height - 1 - int(y + 0.5), int(x + 0.5)

    def _food_grid(self, mask: int) -> Grid:
        """The food channel of a food mask (the last one is kept: food changes seldom)."""
        if self._food is not None and self._food[0] == mask:
            return self._food[1]
        food = np.zeros((self.height, self.width), dtype=np.uint8)
        if self.food_bytes:
            bits = np.unpackbits(np.frombuffer(mask.to_bytes(self.food_bytes, "little"),
                                               np.uint8),
                                 bitorder="little")[:len(self.food_rows)].astype(bool)
            food[self.food_rows[bits], self.food_cols[bits]] = 1
        self._food = (mask, food)
        return food

    def encode(self, state: GameState, self_agent: int | None = None) -> Grid:
        """The grids of `state` (with `self_agent`'s cell in the last channel if enabled)."""
        grid = np.zeros(self.shape, dtype=np.uint8)
        grid[0] = self.walls
        grid[1] = self._food_grid(state.food_mask)
        for x, y in state.capsule_positions:
            grid[2, self.height - 1 - y, x] = 1
        row, col = self._cell(state.pacman_position)
        grid[3, row, col] = 1
        for point, timer in zip(state.ghost_positions, state.scared_timers):
            row, col = self._cell(point)
            grid[5 if timer > 0 else 4, row, col] = 1
        if self_agent is not None and self.channels > NUM_CHANNELS:
            row, col = self._cell(state.agent_position(self_agent))
            grid[NUM_CHANNELS, row, col] = 1
        return grid


class Screen:
    """The rendering of one env: "rgb_array" frames and the "human" pygame window.

    The window raises `WindowUnavailable` (a RuntimeError) without a display; a dummy SDL video
    driver (`SDL_VIDEODRIVER=dummy`) is honoured: the frames are drawn where nobody sees them.
    Closing the window stops the drawing, not the episode.
    """

    def __init__(self, layout: Layout, zoom: float, fps: float) -> None:
        self.layout, self.zoom, self.fps = layout, zoom, fps
        self._renderer: Any = None
        self._window: Any = None
        self.closed_by_user = False

    def frame(self, state: GameState, names: Sequence[str], pacman_moves: int) -> Grid:
        """The state as an H x W x 3 uint8 array (a copy), its status bar counting
        `pacman_moves`."""
        from pacman.display.protocol import MoveInfo

        if self._renderer is None:
            from pacman.display.render import Renderer

            self._renderer = Renderer(self.layout, self.zoom)
        move = MoveInfo(0, "", 0.0, None, pacman_moves)
        frame: Grid = np.array(self._renderer.render(state, names, move))
        return frame

    def start(self, state: GameState, names: Sequence[str]) -> None:
        """Show a new game in the window (opened on first use)."""
        if self.closed_by_user:
            return
        from pacman.display.window import open_window

        if self._window is None:
            self._window = open_window(frame_time=1 / self.fps, zoom=self.zoom, end_wait=0,
                                       allow_dummy=True)
        self._guarded(lambda: self._window.start(state, tuple(names)))

    def show(self, moves: Sequence[tuple[int, GameState]], pacman_moves: int) -> None:
        """Show the states after the moves `(agent, state)` of a step."""
        if self._window is None:
            return
        from pacman.display.protocol import MoveInfo

        def update() -> None:
            for agent, state in moves:
                self._window.update(state, MoveInfo(agent, "", 0.0, None, pacman_moves))

        self._guarded(update)

    def _guarded(self, call: Any) -> None:
        from pacman.display.protocol import GameRestart, GameStopped

        try:
            call()
        except (GameStopped, GameRestart):
            self.closed_by_user = True
            self.close()
        if self._window is not None and self._window.quit_requested:
            self.closed_by_user = True
            self.close()

    def close(self) -> None:
        """Close the window, if open."""
        if self._window is not None:
            self._window.close()
            self._window = None
