"""What the environments share: the action order, checking actions and settings, action masks,
the observation grids, and building the layout and the ghost agents."""

from __future__ import annotations

import math
import os
import reprlib
import warnings
from collections.abc import Mapping, Sequence
from itertools import combinations
from numbers import Real
from typing import Any

import numpy as np
import numpy.typing as npt

from pacman.agents.registry import AgentEntry, build_agent, find_agent, resolve_name, typed_settings
from pacman.errors import EnvSettingsError, InvalidActionError
from pacman.layout import Layout, check_playable, ghosts_in_play, load_layout
from pacman.maze import maze_for
from pacman.rules import CANONICAL_ORDER, EAST, NORTH, SOUTH, STOP, WEST, Direction
from pacman.state import GameState

#: Action `i` of every `Discrete(5)` action space.
ACTIONS: tuple[Direction, ...] = (NORTH, SOUTH, EAST, WEST, STOP)
ACTION_INDEX: dict[Direction, int] = {action: i for i, action in enumerate(ACTIONS)}
STOP_INDEX = ACTION_INDEX[STOP]
#: how an invalid action's message names the action space
SPACE_TEXT = (f"Discrete({len(ACTIONS)}), the ints 0 to {len(ACTIONS) - 1} ("
              + ", ".join(f"{i} {a.value}" for i, a in enumerate(ACTIONS)) + ")")
#: the zooms the renderer takes (as `pacman play --zoom`)
ZOOM_RANGE = (0.25, 8.0)

#: Observation channels, in order (each a 0/1 grid, row 0 = the top row of the maze).
CHANNELS: tuple[str, ...] = ("walls", "food", "capsules", "pacman", "ghosts", "scared_ghosts")
NUM_CHANNELS = len(CHANNELS)

Grid = npt.NDArray[np.uint8]


def shown(value: Any) -> str:
    """`value`'s repr on one short line, for a message."""
    return " ".join(reprlib.repr(value).split())


def action_index(action: Any, agent: str | None = None) -> int:
    """The index of a `Discrete(5)` action, checked once, before anything is played.

    Accepted: what Gymnasium's `Discrete(5).contains` accepts (a Python int, a NumPy integer
    scalar or 0-d integer array, from 0 to 4), except a bool, which is a flag and never an
    action index (`contains` takes `True` for 1).

    Args:
        action: the action given to `step`.
        agent: the PettingZoo agent it is for, named in the message (None: the Gymnasium env).

    Returns:
        The index, an int from 0 to 4.

    Raises:
        InvalidActionError: any other value (floats, even integral ones, strings, None, ...).
    """
    if type(action) is int:  # the common case first: a step is cheap
        index = action
    elif (isinstance(action, int) and not isinstance(action, bool)) or (
            isinstance(action, (np.integer, np.ndarray)) and action.shape == ()
            # an integer dtype that casts to int64 safely (not uint64), as `contains` asks
            and (action.dtype.kind == "i" or (action.dtype.kind == "u"
                                              and action.dtype.itemsize < 8))):
        index = int(action)
    else:
        index = -1
    if not 0 <= index < len(ACTIONS):
        whose = f" of {agent}" if agent is not None else ""
        why = ("; None steps only an agent that is terminated or truncated"
               if action is None and agent is not None
               else "; a bool is not an action index" if isinstance(action, (bool, np.bool_))
               else "; a float is not an action index, even a whole one"
               if isinstance(action, (float, np.floating)) else "")
        raise InvalidActionError(f"invalid action {shown(action)}{whose}: not in the action "
                                 f"space {SPACE_TEXT}{why}")
    return index


def check_whole(name: str, value: Any, allow_none: bool) -> int | None:
    """An env setting that is a whole number >= 1 (or None where `allow_none`).

    Raises:
        EnvSettingsError: anything else (a bool, a float, 0).
    """
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise EnvSettingsError(f"{name} must be a whole number >= 1"
                               f"{' or None' if allow_none else ''}, got {shown(value)}")
    return int(value)


def check_render_mode(render_mode: Any, modes: Sequence[str]) -> str | None:
    """`render_mode` if it is one of `modes` or None.

    Raises:
        EnvSettingsError: anything else.
    """
    if render_mode is not None and (not isinstance(render_mode, str) or render_mode not in modes):
        raise EnvSettingsError(f"render_mode must be one of {list(modes)} or None, got "
                               f"{shown(render_mode)}")
    return render_mode


def check_zoom(zoom: Any) -> float:
    """`zoom` as a float, if it is a number in `ZOOM_RANGE` (as `pacman play --zoom`).

    Raises:
        EnvSettingsError: anything else (0, a negative or non-finite number, a bool, a str).
    """
    low, high = ZOOM_RANGE
    if isinstance(zoom, bool) or not isinstance(zoom, Real) or not (
            math.isfinite(zoom) and low <= float(zoom) <= high):
        raise EnvSettingsError(f"zoom must be a number from {low:g} to {high:g}, got "
                               f"{shown(zoom)}")
    return float(zoom)


def check_flag(name: str, value: Any) -> bool:
    """An env setting that is True or False (a NumPy bool too).

    Raises:
        EnvSettingsError: anything else ("yes", 1, None).
    """
    if not isinstance(value, (bool, np.bool_)):
        raise EnvSettingsError(f"{name} must be True or False, got {shown(value)}")
    return bool(value)


def resolve_layout(layout: Any, num_ghosts: Any) -> tuple[Layout, int]:
    """The layout (a shipped name, a .lay path or a `Layout`) and the number of ghosts in
    play (all the layout has when `num_ghosts` is None).

    Raises:
        LayoutError: an unknown or unplayable layout, or a bad `num_ghosts`.
        EnvSettingsError: a `layout` that is none of the above.
    """
    if isinstance(layout, (str, os.PathLike)) and str(layout):
        layout = load_layout(os.fspath(layout))
    elif not isinstance(layout, Layout):
        raise EnvSettingsError(f"layout must be a layout name, a .lay path or a Layout, got "
                               f"{shown(layout)}")
    num_ghosts = ghosts_in_play(layout, num_ghosts)
    layout = layout.with_ghosts(num_ghosts)
    check_playable(layout, num_ghosts)
    return layout, num_ghosts


def _mask_of(actions: Sequence[Direction]) -> npt.NDArray[np.int8]:
    mask = np.zeros(len(ACTIONS), dtype=np.int8)
    for action in actions:
        mask[ACTION_INDEX[action]] = 1
    return mask


def _read_only(mask: npt.NDArray[np.int8]) -> npt.NDArray[np.int8]:
    mask.setflags(write=False)
    return mask


#: the mask of every tuple of legal actions a state can give (a subset of the directions in
#: the rules' canonical order, as `legal_actions` gives them): read-only, copied for each info
_MASKS: dict[tuple[Direction, ...], npt.NDArray[np.int8]] = {
    actions: _read_only(_mask_of(actions)) for size in range(len(CANONICAL_ORDER) + 1)
    for actions in combinations(CANONICAL_ORDER, size)}


def action_mask(state: GameState, agent: int) -> npt.NDArray[np.int8]:
    """1 for each legal action of `agent` (in `ACTIONS` order), 0 elsewhere; all 0 once over.

    A new array at each call (the caller may change it), copied from the one of its legal
    actions made when this module is loaded."""
    actions = state.legal_actions(agent)
    mask = _MASKS.get(actions)
    return _mask_of(actions) if mask is None else mask.copy()


def pacman_action(state: GameState, index: int) -> Direction:
    """The move Pacman plays for action index `index` (checked by `action_index`): an illegal
    one becomes Stop."""
    direction = ACTIONS[index]
    return direction if direction in state.legal_actions(0) else STOP


def ghost_action(state: GameState, agent: int, index: int) -> Direction:
    """The move ghost `agent` plays for action index `index` (checked by `action_index`): an
    illegal one becomes its first legal action in the rules' canonical order (West, Stop,
    East, North, South)."""
    legal = state.legal_actions(agent)
    direction = ACTIONS[index]
    if direction in legal:
        return direction
    return next(d for d in CANONICAL_ORDER if d in legal)


def _rebuilt(layout: Layout, fields: dict[str, Any]) -> GameState:
    """A state unpickled: its maze from the layout (built once per process, `maze_for`)."""
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
    # field by field, spelled out: this runs at every step, and a loop over the slots costs
    # five times as much (a test checks that every slot is copied)
    copy = _SentState()
    copy._maze, copy._pac, copy._pac_dir = state._maze, state._pac, state._pac_dir
    copy._ghosts, copy._food, copy._capsules = state._ghosts, state._food, state._capsules
    copy._score, copy._result, copy._hash = state._score, state._result, state._hash
    return copy


def check_ghost(name: Any, settings: Any) -> tuple[str, dict[str, Any]]:
    """The ghost's name and a copy of its settings, if they have the right types (the registry
    checks the name and the settings themselves when the ghosts are made).

    Raises:
        EnvSettingsError: a name that is not a non-empty str, settings that are not a mapping
            of str keys (or None).
    """
    if not isinstance(name, str) or not name.strip():
        raise EnvSettingsError(f"ghost must be a ghost agent name (a str, e.g. 'RandomGhost'), "
                               f"got {shown(name)}")
    if settings is None:
        return name, {}
    if not isinstance(settings, Mapping) or not all(isinstance(key, str) for key in settings):
        raise EnvSettingsError(f"ghost_settings must be a dict of setting names to values or "
                               f"None, got {shown(settings)}")
    return name, dict(settings)


class GhostMaker:
    """Makes an env's ghosts: at each call, `count` fresh agents of one registry name and
    settings (like `pacman play -g NAME`), as `run_game` is given fresh agents for each game.

    The name is resolved, and its class found, once, when the maker is made (so a `*gents.py`
    file of the working folder that defines the class is read then, not at every `reset`), and
    one set of ghosts is built then (`first`), so that a bad name or bad settings raise their
    `RegistryError` when the env is made. A shipped ghost with typed settings (every shipped
    ghost) is then built the way `build_agent` builds it, `cls(index, settings=chosen)`, its
    settings object `chosen = Settings.of(settings)` made once and shared (a frozen value)
    instead of being looked up and checked again for each ghost of each game (the look-up
    reads the class's signature: most of the cost of a reset). Any other class (a user's
    file, a classic CS188 class) goes through `build_agent` at each call.
    """

    def __init__(self, name: str, settings: Mapping[str, Any] | None, count: int) -> None:
        resolved = resolve_name(name, "ghost")
        found = find_agent(resolved, "ghost")
        self.cls = found.load() if isinstance(found, AgentEntry) else found
        self.settings = dict(settings or {})
        self.first = [build_agent(self.cls, self.settings, i + 1) for i in range(count)]
        typed = typed_settings(self.cls) if isinstance(found, AgentEntry) else None
        # only where `build_agent` takes this very path: not a classic CS188 class, no CS188
        # spelling of a setting to translate
        self._chosen = (typed.of(self.settings) if typed is not None
                        and "evalFn" not in self.settings
                        and not callable(getattr(self.cls, "getAction", None)) else None)

    def __call__(self, count: int) -> list[Any]:
        """`count` fresh ghosts, agents 1 to `count`."""
        cls, chosen = self.cls, self._chosen
        if chosen is None:
            return [build_agent(cls, self.settings, i + 1) for i in range(count)]
        return [cls(i + 1, settings=chosen) for i in range(count)]


class GridEncoder:
    """Draws states of one layout as `(C, H, W)` uint8 grids (see `CHANNELS`).

    Cell `(x, y)` is at row `H - 1 - y`, column `x`. A ghost half-way between two cells (a
    scared ghost moves at half speed) is marked on the cell `(int(x + 0.5), int(y + 0.5))`.
    `extra_self` adds a last channel marking one agent's own cell (the PettingZoo envs).

    Each grid is a new array, a copy of the board the encoder keeps: the walls, and the food
    and capsules of the last state it drew. The board changes only where food or a capsule was
    eaten since (the bits gone from the masks), or, when something came back (a new game, or
    a state of another game), from the full board of the layout; Pacman and the ghosts are
    then marked on the copy, their cells read from the state's maze indexes (`position`)
    through a table filled as indexes are met (`_Cells`).
    """

    def __init__(self, layout: Layout, extra_self: bool = False) -> None:
        self.layout, self.height, self.width = layout, layout.height, layout.width
        self.channels = NUM_CHANNELS + (1 if extra_self else 0)
        self.area = area = self.height * self.width
        full = np.zeros(self.shape, dtype=np.uint8)
        for x, y in layout.walls:
            full[0, self.height - 1 - y, x] = 1
        #: per food (capsule) bit, the offset of its cell in a flattened grid
        self._food_at = [area + self._offset(cell) for cell in layout.food]
        self._capsule_at = [2 * area + self._offset(cell) for cell in layout.capsules]
        for at in (*self._food_at, *self._capsule_at):
            full.flat[at] = 1
        full.setflags(write=False)
        self._full, self._all_food = full, (1 << len(layout.food)) - 1
        self._all_capsules = (1 << len(layout.capsules)) - 1
        self._board: Grid = full.copy()
        self._board_cells = self._board.ravel()  # a view: writes go to the board
        self._food, self._capsules = self._all_food, self._all_capsules  # what the board shows
        self._cell_at = _Cells(self)

    @property
    def shape(self) -> tuple[int, int, int]:
        """`(C, H, W)`."""
        return self.channels, self.height, self.width

    def _offset(self, point: tuple[float, float]) -> int:
        """The offset in a channel of the cell a point is marked on."""
        x, y = point
        return (self.height - 1 - int(y + 0.5)) * self.width + int(x + 0.5)

    def _show(self, food: int, capsules: int) -> None:
        """Make the board show the food mask `food` and the capsule mask `capsules`."""
        if food & ~self._food or capsules & ~self._capsules:  # something came back
            np.copyto(self._board, self._full)
            self._food, self._capsules = self._all_food, self._all_capsules
        board = self._board_cells
        for gone, cells in ((self._food & ~food, self._food_at),
                            (self._capsules & ~capsules, self._capsule_at)):
            while gone:
                low = gone & -gone
                board[cells[low.bit_length() - 1]] = 0
                gone ^= low
        self._food, self._capsules = food, capsules

    def encode(self, state: GameState, self_agent: int | None = None) -> Grid:
        """The grids of `state` (with `self_agent`'s cell in the last channel if enabled)."""
        pacman, ghosts, food, capsules = state.position
        if food != self._food or capsules != self._capsules:
            self._show(food, capsules)
        grid: Grid = self._board.copy()
        cells, area, cell_at = grid.ravel(), self.area, self._cell_at
        cells[3 * area + cell_at[pacman]] = 1
        for where, timer in zip(ghosts, state.scared_timers):
            cells[(5 if timer > 0 else 4) * area + cell_at[where]] = 1
        if self_agent is not None and self.channels > NUM_CHANNELS:
            where = pacman if self_agent == 0 else ghosts[self_agent - 1]
            cells[NUM_CHANNELS * area + cell_at[where]] = 1
        return grid


class _Cells(dict[int, int]):
    """A `GridEncoder`'s maze index -> the offset in a channel of the cell its point is marked
    on, filled as indexes are met (at most one entry per index of the layout's maze)."""

    def __init__(self, encoder: GridEncoder) -> None:
        super().__init__()
        self.encoder = encoder

    def __missing__(self, index: int) -> int:
        at = self[index] = self.encoder._offset(maze_for(self.encoder.layout).point[index])
        return at


class HeadlessWindowWarning(UserWarning):
    """`render_mode="human"` found no display: the env plays on, its window drawn nowhere."""


class Screen:
    """The rendering of one env: "rgb_array" frames and the "human" pygame window.

    The window opens at the first `start` (an env's first `reset`). Where no window can be
    shown (no `DISPLAY`/`WAYLAND_DISPLAY`, or SDL cannot start its video) it is drawn where
    nobody sees it, as with `SDL_VIDEODRIVER=dummy`, after a `HeadlessWindowWarning` (see
    `_open_window` for why this is not an error). A dummy SDL video driver set by the user is
    honoured without a warning. Closing the window stops the drawing, not the episode.
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
        if self._window is None:
            self._window = self._open_window()
        self._guarded(lambda: self._window.start(state, tuple(names)))

    def _open_window(self) -> Any:
        """The pygame window, or where none can be shown, one drawn nowhere and a warning.

        Why a warning and not `WindowUnavailable`: "human" is a valid render mode everywhere,
        and whether this machine has a screen is a fact about where the code runs, not a
        mistake in it. Gymnasium's `check_env` and PettingZoo's `render_test` make the env in
        every mode its metadata declares, and a training script written on a laptop runs
        unchanged on a headless server or in CI: an exception there would stop a run that
        can go on. So the env falls back to SDL's dummy video driver (the very path
        `SDL_VIDEODRIVER=dummy` takes: same drawing, same pacing at `render_fps`, `render()`
        still None) and says so once, as matplotlib falls back to a non-GUI backend with a
        warning and Gymnasium warns about rendering misuse rather than raising. The warning
        has its own category (`HeadlessWindowWarning`), so a caller who wants a missing window
        to be fatal makes it an error (`warnings.simplefilter("error", HeadlessWindowWarning)`)
        and one who expects it ignores it; issued from this one line, Python's default filter
        shows it once per process. Only a missing window falls back; other errors are raised.
        """
        from pacman.display.window import WindowUnavailable, open_window

        def opened() -> Any:
            return open_window(frame_time=1 / self.fps, zoom=self.zoom, end_wait=0,
                               allow_dummy=True)

        try:
            return opened()
        except WindowUnavailable as error:
            reason = str(error)
        # warned before the fallback opens, so that a warning made an error leaves nothing open
        warnings.warn(HeadlessWindowWarning(
            f"render_mode='human' cannot open a window ({reason}): the frames are drawn where "
            f"nobody sees them, as with SDL_VIDEODRIVER=dummy; use render_mode='rgb_array' "
            f"for the frames, or set SDL_VIDEODRIVER=dummy to drop this warning"), stacklevel=1)
        previous = os.environ.get("SDL_VIDEODRIVER")
        os.environ["SDL_VIDEODRIVER"] = "dummy"  # read by SDL when the video starts, only then
        try:
            return opened()
        finally:  # the process's environment as it was: a subprocess sees no change
            if previous is None:
                del os.environ["SDL_VIDEODRIVER"]
            else:
                os.environ["SDL_VIDEODRIVER"] = previous

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
