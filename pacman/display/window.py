"""The pygame window: the game drawn as in CS188, agents gliding between cells, and its controls.

Controls: space (or p) pauses and resumes; `n` (or Right, unless you play with the keyboard)
steps one move -- Pacman's move and the ghosts' replies -- while paused; `+`/`-` change the
speed; `r` restarts the game with the same seed; `q`, Escape or closing the window quits (the
game is recorded as `stopped`). The keyboard agent reads arrows/WASD through this window.
`t` shows or hides the search panel beside the maze: the last Pacman move's traced search (each
root move's value, the chosen one highlighted, nodes, evaluations, cuts, the depth) and its
principal variation drawn on the maze. `v` opens the tree view of that search (the game waits:
Left/Right step through the nodes in generation order, Enter opens a collapsed group, `v` or
Escape goes back to the game, paused). Traces come from `pacman play --trace`.

`open_window` raises `WindowUnavailable` when no real window can be shown: no `DISPLAY` or
`WAYLAND_DISPLAY` on Linux, `SDL_VIDEODRIVER=dummy`/`offscreen` (a window nobody sees; pass
`allow_dummy=True` to get one anyway, as the tests do) or SDL failing to start its video.

One job, the interactive window, which is why this module is over 500 lines: `PygameWindow`
owns the one pygame display surface and its event queue. Everything in it -- the `Display`
calls, pacing and gliding, the controls, and the loops that block the game (paused, waiting
for the keyboard agent's key, the end screen, the tree view) -- reads and changes that one
state, and each loop must answer the same events (quit, resize, the keys) the same way, so
they stay together. What the window shows is drawn elsewhere: the board and status bar by
`pacman.display.render`, the panel by `pacman.display.search_panel`, the tree by
`pacman.display.tree_view`.
"""

from __future__ import annotations

import os
import sys
import time
import warnings
from typing import TYPE_CHECKING

from pacman.display import search_panel
from pacman.display.protocol import GameRestart, GameStopped, MoveInfo
from pacman.display.render import Renderer
from pacman.display.scene import Scene, chomp, interpolate
from pacman.display.status import end_banner, status_lines
from pacman.rules import EAST, NORTH, SOUTH, STOP, WEST, Direction

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame

if TYPE_CHECKING:
    from pacman.display.tree_view import TreeView
    from pacman.layout import Layout
    from pacman.maze import Point
    from pacman.record import GameRecord
    from pacman.state import GameState

FPS = 60.0                 # animation frames per second while gliding
EVENT_INTERVAL = 0.01      # at frame time 0, look at the event queue at most this often
DRAW_SHARE = 0.2           # at frame time 0, the share of the time drawing may take at most
IDLE_TICK = 1 / 30         # redraw rate while paused or waiting for a key
MIN_FRAME_TIME = 0.005     # '+' below this means "as fast as possible" (0)
MAX_FRAME_TIME = 2.0
SPEED_STEP = 1.5
TREE_MIN_SIZE = (800, 500)  # the tree view makes a smaller window this big while it is open

_DIRECTION_KEYS: dict[int, Direction] = {
    pygame.K_UP: NORTH, pygame.K_w: NORTH, pygame.K_DOWN: SOUTH, pygame.K_s: SOUTH,
    pygame.K_LEFT: WEST, pygame.K_a: WEST, pygame.K_RIGHT: EAST, pygame.K_d: EAST,
    pygame.K_x: STOP,
}
_FASTER_KEYS = (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS)
_SLOWER_KEYS = (pygame.K_MINUS, pygame.K_KP_MINUS, pygame.K_UNDERSCORE)


class WindowUnavailable(RuntimeError):
    """No real window can be opened here (no display, or a dummy video driver)."""


def open_window(frame_time: float = 0.1, zoom: float = 1.0, *, end_wait: float | None = None,
                allow_dummy: bool = False, max_fps: float = FPS) -> PygameWindow:
    """Start pygame's video and return a window display (the window appears at `start`).

    `end_wait`: how long the end-of-game screen stays -- None waits for a key, 0 not at all.
    Raises `WindowUnavailable` with the reason when no visible window can be opened.
    """
    driver = os.environ.get("SDL_VIDEODRIVER", "").strip().lower()
    if driver in ("dummy", "offscreen") and not allow_dummy:
        raise WindowUnavailable(f"SDL_VIDEODRIVER={driver} shows nothing on screen")
    if (not driver and os.name == "posix" and sys.platform != "darwin"
            and not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY")):
        raise WindowUnavailable("no display: DISPLAY and WAYLAND_DISPLAY are not set")
    try:
        pygame.display.init()
        pygame.font.init()
    except pygame.error as error:
        raise WindowUnavailable(f"SDL cannot start its video: {error}") from None
    return PygameWindow(frame_time=frame_time, zoom=zoom, end_wait=end_wait, max_fps=max_fps)


class PygameWindow:
    """A `Display` in a resizable pygame window. Build it with `open_window`."""

    takes_keyboard = True

    def __init__(self, frame_time: float = 0.1, zoom: float = 1.0,
                 end_wait: float | None = None, max_fps: float = FPS) -> None:
        self.frame_time = frame_time
        self.zoom = zoom
        self.end_wait = end_wait
        self.max_fps = max_fps
        self.paused = False
        self.quit_requested = False
        self.waiting_for_input = False
        #: what the window is blocked on: "paused", "input" (keyboard agent), "end", "tree"
        #: (the tree view) or None
        self.blocked: str | None = None
        self.keyboard_mode = False
        self.frames_drawn = 0
        self._step = False
        self._restart = False
        self._direction: Direction | None = None
        self._renderer: Renderer | None = None
        self._screen: pygame.Surface | None = None
        self._origin = (0, 0)
        self._agents: tuple[str, ...] = ()
        self._shown: GameState | None = None      # the state on screen (last round's end)
        self._scene: Scene | None = None           # None: `_shown` standing still
        self._move: MoveInfo | None = None         # the last Pacman move
        self.show_panel = False                    # the search panel beside the maze
        self._latest: GameState | None = None      # the last state received
        self._before: GameState | None = None      # the state before the last Pacman move
        self._pv: tuple[MoveInfo, list[list[Point]]] | None = None  # its PV's paths
        self._panel: tuple[tuple[str, ...], tuple[int, int], pygame.Surface] | None = None
        self.tree: TreeView | None = None          # the last tree view shown
        self.tree_frames = 0                       # frames it drew
        self._last_events = 0.0
        self._last_present = 0.0
        self._present_cost = 0.0
        self._redraw_all = True
        self._last_rects: list[pygame.Rect] = []

    @property
    def state(self) -> GameState | None:
        """The state on screen (at the end of the last round shown)."""
        return self._shown

    # ----------------------------------------------------------------- Display protocol
    def start(self, state: GameState, agents: tuple[str, ...]) -> None:
        """Open (or reuse) the window for this layout and show the first state."""
        self.paused = self._step = self._restart = False
        self._direction = None
        self._agents, self._move = agents, None
        self._latest, self._before, self._pv = state, None, None
        if self._renderer is None or self._renderer.layout != state.layout:
            self._open(state)
        self._shown = state
        self._scene = Scene.still(state, chomp(0))
        self._redraw_all = True
        if self.frame_time > 0 or self._may_draw(time.perf_counter()):
            self._present()
        self._poll()

    def update(self, state: GameState, move: MoveInfo) -> None:
        """Show the state after a move; gliding once per round. May raise GameStopped/Restart."""
        if move.agent == 0:
            self._move, self._before = move, self._latest
        self._latest = state
        round_end = move.agent == state.num_agents - 1 or state.is_terminal()
        if self.frame_time <= 0:
            now = time.perf_counter()
            if now - self._last_events >= EVENT_INTERVAL or self._restart:
                self._poll()
            if round_end:
                self._shown = state
                self._scene = None  # built only if drawn: most moves are not
                if self._may_draw(now) or self.paused:
                    self._present()
        elif round_end:
            self._glide(state)
        else:
            self._poll()
        if round_end and self.paused:
            self._wait_while_paused()

    def finish(self, state: GameState, record: GameRecord) -> None:
        """Show the outcome; wait for a key (or `end_wait` seconds) unless the user quit."""
        self._shown = state
        self._scene = Scene.still(state, chomp(record.pacman_moves))
        self._handle_events()
        if self.quit_requested or record.outcome.value == "stopped":
            self._present()
            return
        if self.end_wait == 0 and self.frame_time <= 0 and not self._may_draw(
                time.perf_counter()):
            return  # games flying by: the next one is drawn soon enough
        if self.end_wait is None:
            hint = "press a key (r: play again)"
        elif self.end_wait > 0:
            hint = "next game... (any key: now)"
        else:
            hint = ""
        banner = end_banner(record, self.keyboard_mode) + ([hint] if hint else [])
        self._present(banner)
        if self.end_wait == 0:
            return
        deadline = None if self.end_wait is None else time.perf_counter() + self.end_wait
        pygame.event.clear(pygame.KEYDOWN)  # keys pressed while playing do not count
        self.blocked = "end"
        try:
            while deadline is None or time.perf_counter() < deadline:
                for event in pygame.event.get():
                    if self._window_event(event):
                        if self.quit_requested:
                            return
                        self._present(banner)
                    elif event.type == pygame.KEYDOWN:
                        if event.key in (pygame.K_t, pygame.K_v):  # look at the last search
                            self._key(event.key)
                            if self.quit_requested:
                                return
                            self._present(banner)
                            continue
                        if event.key in (pygame.K_q, pygame.K_ESCAPE):
                            self.quit_requested = True
                        elif event.key == pygame.K_r:
                            raise GameRestart
                        return
                time.sleep(IDLE_TICK)
        finally:
            self.blocked = None

    def close(self) -> None:
        """Close the window."""
        self._renderer = None
        self._screen = None
        if pygame.display.get_init():
            pygame.display.quit()

    # ----------------------------------------------------------------- keyboard agent
    def enable_keyboard(self) -> None:
        """Arrow keys now steer Pacman (and Right no longer steps)."""
        self.keyboard_mode = True

    def take_direction(self) -> Direction | None:
        """The direction key pressed since the last call, if any; raises GameStopped on quit."""
        self._handle_events()
        if self.quit_requested:
            raise GameStopped
        direction, self._direction = self._direction, None
        return direction

    def wait_for_direction(self) -> Direction | None:
        """Block (keeping the window alive) until a direction key; None if a restart is asked."""
        self.waiting_for_input, self.blocked = True, "input"
        try:
            while True:
                self._handle_events()
                if self.quit_requested:
                    raise GameStopped
                if self._restart:
                    return None
                if self._direction is not None:
                    direction, self._direction = self._direction, None
                    return direction
                self._present(note="arrows/WASD to move")
                time.sleep(IDLE_TICK)
        finally:
            self.waiting_for_input, self.blocked = False, None

    # ----------------------------------------------------------------- internals
    def _frame_size(self, layout: Layout, cell: int) -> tuple[int, int]:
        """The window's content at a cell size: the maze and status bar, and the panel."""
        width, height = Renderer.size_for(layout, cell)
        if not self.show_panel:
            return width, height
        panel = search_panel.panel_height(Renderer.line_height_for(cell))
        return width + search_panel.panel_width(cell), max(height, panel)

    def _open(self, state: GameState) -> None:
        cell = max(4, round(30 * self.zoom))
        size = self._frame_size(state.layout, cell)
        pygame.display.set_caption(f"Pacman - {state.layout.name}")
        self._screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        self._renderer = Renderer(state.layout, cell_size=cell)
        self._renderer.optimize_for_display()
        self._origin = (0, 0)
        self._screen.fill((0, 0, 0))
        self._redraw_all = True

    def _resize(self) -> None:
        screen = pygame.display.get_surface()
        if screen is None or self._renderer is None:
            return
        self._screen = screen
        width, height = screen.get_size()
        layout = self._renderer.layout
        cell = max(4, width // layout.width)
        while cell > 4 and any(used > room for used, room in zip(
                self._frame_size(layout, cell), (width, height))):
            cell -= 1
        if cell != self._renderer.cell:
            self._renderer = Renderer(layout, cell_size=cell)
            self._renderer.optimize_for_display()
        used = self._frame_size(layout, cell)
        self._origin = (max(0, (width - used[0]) // 2), max(0, (height - used[1]) // 2))
        screen.fill((0, 0, 0))
        self._redraw_all = True

    def _may_draw(self, now: float) -> bool:
        """At frame time 0: at most max_fps frames, at most DRAW_SHARE of the time drawing."""
        gap = max(1 / self.max_fps, self._present_cost / DRAW_SHARE)
        return now - self._last_present >= gap

    def _note(self) -> str:
        speed = "max speed" if self.frame_time <= 0 else f"{self.frame_time:.2f} s/move"
        state = "PAUSED (space: go, n: step)" if self.paused else ""
        return f"{speed}    {state}".rstrip()

    def _present(self, banner: list[str] | None = None, note: str = "") -> None:
        """Draw the current scene, the status bar (and a banner) and flip."""
        if self._renderer is None or self._screen is None or self._shown is None:
            return
        renderer = self._renderer
        scene = self._scene or Scene.still(
            self._shown, chomp(self._move.pacman_moves if self._move else 0))
        extra = self._note() + (f"    {note}" if note else "")
        lines = status_lines(scene.state, self._agents, self._move, extra)
        started = time.perf_counter()
        rects = renderer.draw(self._screen, scene, lines, self._origin)
        if self.show_panel:
            self._draw_search(renderer, self._screen)
        if banner:
            renderer.draw_banner(self._screen, banner, self._origin)
        if banner or self._redraw_all or self.show_panel:
            pygame.display.flip()
        else:  # only what moved: sending whole frames to the X server is the slow part
            pygame.display.update(self._last_rects + rects)
        self._redraw_all = bool(banner)
        self._last_rects = rects
        self.frames_drawn += 1
        self._last_present = time.perf_counter()
        self._present_cost = self._last_present - started

    def _draw_search(self, renderer: Renderer, screen: pygame.Surface) -> None:
        """The last Pacman move's principal variation on the maze, and the panel beside it."""
        move = self._move
        trace = move.trace if move is not None else None
        data = search_panel.trace_data(trace)
        if move is not None and data is not None and self._before is not None:
            if self._pv is None or self._pv[0] is not move:
                self._pv = (move, search_panel.pv_paths(
                    self._before, data.get("principal_variation", [])))
            search_panel.draw_pv(screen, renderer, self._pv[1], self._origin)
        lines = tuple(search_panel.panel_lines(
            data, move.pacman_moves if move is not None else None))
        height = self._frame_size(renderer.layout, renderer.cell)[1]
        rect = pygame.Rect(self._origin[0] + renderer.size[0], self._origin[1],
                           search_panel.panel_width(renderer.cell), height)
        if self._panel is None or self._panel[:2] != (lines, rect.size):
            surface = pygame.Surface(rect.size).convert()
            search_panel.draw_panel(surface, surface.get_rect(), lines, renderer.font)
            self._panel = (lines, rect.size, surface)
        screen.blit(self._panel[2], rect)

    def _toggle_panel(self) -> None:
        """Show or hide the panel: the window grows or shrinks by its width."""
        self.show_panel = not self.show_panel
        self._panel = None
        if self._renderer is None or pygame.display.get_surface() is None:
            return
        self._set_size(self._frame_size(self._renderer.layout, self._renderer.cell))
        self._resize()

    @staticmethod
    def _set_size(size: tuple[int, int]) -> None:
        """Resize the window in place (pygame-ce 2.5's Window: `set_mode` would make a new
        window, which may move and lose the focus); `set_mode` on older pygame-ce."""
        window_class = getattr(pygame, "Window", None)
        from_display = getattr(window_class, "from_display_module", None)
        if from_display is None or pygame.display.get_surface() is None:
            pygame.display.set_mode(size, pygame.RESIZABLE)
            return
        with warnings.catch_warnings():  # it suggests drawing through Window: not needed here
            warnings.simplefilter("ignore", DeprecationWarning)
            window = from_display()
        window.size = size

    def _tree_view(self) -> None:
        """Show the last Pacman move's search tree until `v` or Escape (the game waits, and is
        paused when it goes on)."""
        from pacman.display.tree_view import TreeView

        screen = pygame.display.get_surface()
        if screen is None or self._renderer is None:
            return
        self.paused = True
        move = self._move
        before = screen.get_size()
        if before[0] < TREE_MIN_SIZE[0] or before[1] < TREE_MIN_SIZE[1]:  # room for the tree
            self._set_size((max(before[0], TREE_MIN_SIZE[0]),
                            max(before[1], TREE_MIN_SIZE[1])))
            screen = pygame.display.get_surface() or screen
        width = screen.get_width()
        view = TreeView(move.trace if move is not None else None,
                        move.pacman_moves if move is not None else None,
                        max_shown=max(30, min(400, width // 10)))
        font = self._renderer.font
        small = pygame.font.Font(None, max(11, round(self._renderer.font_size * 0.8)))
        self.blocked, self.tree, self.tree_frames = "tree", view, 0
        changed = True
        try:
            while True:
                if changed:
                    screen = pygame.display.get_surface() or screen
                    view.draw(screen, screen.get_rect(), font, small)
                    pygame.display.flip()
                    self.tree_frames += 1
                    changed = False
                for event in pygame.event.get():
                    if self._window_event(event):
                        if self.quit_requested:
                            return
                        changed = True
                    elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
                        area = (pygame.display.get_surface() or screen).get_rect()
                        changed = view.click(event.pos, view.tree_rect(
                            area, font.get_linesize())) or changed
                    elif event.type == pygame.KEYDOWN:
                        if event.key in (pygame.K_v, pygame.K_ESCAPE):
                            return
                        if event.key == pygame.K_q:
                            self.quit_requested = True
                            return
                        changed = view.key(event.key) or changed
                time.sleep(IDLE_TICK)
        finally:
            self.blocked = None
            shown = pygame.display.get_surface()
            if not self.quit_requested and shown is not None:
                if shown.get_size() != before:
                    self._set_size(before)
                self._resize()

    def _glide(self, state: GameState) -> None:
        """Animate one round from the state on screen to `state` over `frame_time`."""
        before = self._shown if self._shown is not None else state
        started = time.perf_counter()
        while True:
            fraction = (time.perf_counter() - started) / self.frame_time \
                if self.frame_time > 0 else 1.0
            self._scene = interpolate(before, state, fraction)
            self._present()
            self._poll()
            if fraction >= 1.0:
                break
            next_frame = started + (int(fraction * self.frame_time * self.max_fps) + 1) \
                / self.max_fps
            time.sleep(max(0.0, min(next_frame, started + self.frame_time)
                           - time.perf_counter()))
        self._shown = state

    def _wait_while_paused(self) -> None:
        self._present()
        self.blocked = "paused"
        try:
            while self.paused and not self._step:
                time.sleep(IDLE_TICK)
                self._poll()
                self._present()
        finally:
            self.blocked = None
        self._step = False

    def _poll(self) -> None:
        """Handle pending events; raise GameStopped or GameRestart when asked for."""
        self._handle_events()
        if self.quit_requested:
            raise GameStopped
        if self._restart:
            self._restart = False
            raise GameRestart

    def _handle_events(self) -> None:
        self._last_events = time.perf_counter()
        redraw = False
        for event in pygame.event.get():
            if self._window_event(event):
                redraw = not self.quit_requested or redraw
            elif event.type == pygame.KEYDOWN:
                redraw = self._key(event.key) or redraw
        if redraw:
            self._present()

    def _window_event(self, event: pygame.event.Event) -> bool:
        """Handle the window's own events: closing it (sets `quit_requested`) and resizing it.
        True for either (the caller then stops, or draws again), False for any other event."""
        if event.type == pygame.QUIT:
            self.quit_requested = True
            return True
        if event.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED):
            self._resize()
            return True
        return False

    def _key(self, key: int) -> bool:
        """Apply one key; True if the status bar changed."""
        if key in (pygame.K_q, pygame.K_ESCAPE):
            self.quit_requested = True
        elif key in (pygame.K_SPACE, pygame.K_p):
            self.paused = not self.paused
            return True
        elif key == pygame.K_n or (key == pygame.K_RIGHT and not self.keyboard_mode):
            if self.paused:
                self._step = True
            else:
                self.paused = True
            return True
        elif key in _FASTER_KEYS:
            faster = self.frame_time / SPEED_STEP
            self.frame_time = 0.0 if faster < MIN_FRAME_TIME else faster
            return True
        elif key in _SLOWER_KEYS:
            self.frame_time = min(MAX_FRAME_TIME, max(0.02, self.frame_time * SPEED_STEP))
            return True
        elif key == pygame.K_r:
            self._restart = True
        elif key == pygame.K_t:
            self._toggle_panel()
            return True
        elif key == pygame.K_v:
            self._tree_view()
            return True
        elif self.keyboard_mode and key in _DIRECTION_KEYS:
            self._direction = _DIRECTION_KEYS[key]
        return False
