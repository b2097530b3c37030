"""Draw game states with pygame, on screen or off it: the classic CS188 look, as surfaces or arrays.

One job: pixels. `Renderer` draws a `Scene` (`pacman.display.scene`: what is shown, where)
and the status lines (`pacman.display.status`: the words) onto any pygame surface and needs
no window: `Renderer(layout).render(state)` returns an `H x W x 3` uint8 array (works with
`SDL_VIDEODRIVER=dummy` or with no video at all). The walls are rasterised once per layout and
cell size into a maze surface (`wall_coverage`, numpy); a frame is then one blit of the board
plus a few cached sprites. Writing frames to files is `pacman.display.export`'s job.

The status bar under the board is never cut off: a frame is at least as wide as a typical
agents line (a small maze such as testClassic sits centred above the bar), the bar has rows
for the usual lines at that width, and a line too long for its row wraps at its gaps and
spaces; only what would still overflow the bar ends in "...".
"""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from pacman.display.protocol import MoveInfo
from pacman.display.scene import (
    BACKGROUND,
    CAPSULE_COLOR,
    CAPSULE_RADIUS,
    EYE_COLOR,
    FLASH_COLOR,
    FLASH_FACE,
    FOOD_COLOR,
    FOOD_RADIUS,
    GHOST_COLORS,
    PACMAN_COLOR,
    PACMAN_RADIUS,
    PUPIL_COLOR,
    SCARED_COLOR,
    SCARED_FACE,
    SCORE_COLOR,
    STATUS_BACKGROUND,
    TEXT_COLOR,
    WALL_COLOR,
    WALL_RADIUS,
    Color,
    Scene,
    chomp,
    ghost_look,
)
from pacman.display.status import (
    MIN_WIDTH_TEXT,
    TYPICAL_STATUS,
    fit_text,
    status_lines,
    status_rows,
    wrap_text,
)
from pacman.layout import Layout, Position
from pacman.maze import Point
from pacman.rules import EAST, NORTH, SOUTH, STOP, WEST, Direction

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # no banner on stdout
os.environ.setdefault("SDL_VIDEO_X11_WMCLASS", "pacman")  # else pygame names it after argv[0]
import pygame

if TYPE_CHECKING:
    from pacman.state import GameState

__all__ = ["CELL_SIZE", "TEXT_PAD", "Renderer", "render_frame", "surface_to_array",
           "wall_coverage"]

CELL_SIZE = 30           # pixels per cell at zoom 1 (CS188's gridSize)
TEXT_PAD = 6             # pixels left and right of the status text
_SUPERSAMPLE = 4         # sprites are drawn this many times larger, then smooth-scaled
_ANGLE = {EAST: 0.0, NORTH: 90.0, WEST: 180.0, SOUTH: 270.0, STOP: 0.0}


class Renderer:
    """Draws the states of one layout at one cell size; caches the maze and sprites.

    Works on any surface, with or without a window. `render(state)` returns an `H x W x 3`
    uint8 array; `draw(surface, scene, ...)` draws a (possibly interpolated) scene.
    """

    def __init__(self, layout: Layout, zoom: float = 1.0, *, cell_size: int | None = None,
                 status_bar: bool = True) -> None:
        self.layout = layout
        self.cell = max(4, int(cell_size if cell_size is not None else round(CELL_SIZE * zoom)))
        if not pygame.font.get_init():
            pygame.font.init()
        self.font_size = _font_size(self.cell)
        self.font = pygame.font.Font(None, self.font_size)
        self.line_height = self.font.get_linesize()
        self.board_width = layout.width * self.cell
        self.board_height = layout.height * self.cell
        width, self.status_rows = _frame_width(layout, self.cell, self.font, status_bar)
        self.status_height = self.status_rows * self.line_height + 6 if status_bar else 0
        #: the board sits centred in a frame that may be wider (for the status bar)
        self.board_left = (width - self.board_width) // 2
        self.size = (width, self.board_height + self.status_height)
        self.maze = _maze_surface(layout, self.cell)
        self._board = self.maze.copy()
        self._board_items: tuple[tuple[Position, ...], tuple[Position, ...]] | None = None
        self._board_changes: list[pygame.Rect] = []  # cells redrawn by the last _board_for
        self._full_board: pygame.Surface | None = None  # the maze with all the food
        self._canvas: pygame.Surface | None = None      # render()'s off-screen frame
        self._sprites: dict[tuple[Any, ...], pygame.Surface] = {}
        self._texts: dict[tuple[str, Color], pygame.Surface] = {}

    @staticmethod
    def size_for(layout: Layout, cell: int) -> tuple[int, int]:
        """Pixel size of a renderer with status bar at this cell size (no maze drawn)."""
        font = pygame.font.Font(None, _font_size(cell))
        width, rows = _frame_width(layout, cell, font, True)
        return width, layout.height * cell + rows * font.get_linesize() + 6

    @staticmethod
    def line_height_for(cell: int) -> int:
        """The text line height of a renderer at this cell size."""
        return int(pygame.font.Font(None, _font_size(cell)).get_linesize())

    def optimize_for_display(self) -> None:
        """Convert the cached surfaces to the window's pixel format (fast blits)."""
        self.maze = self.maze.convert()
        self._board = self._board.convert()
        self._full_board = None
        self._sprites = {key: s.convert_alpha() for key, s in self._sprites.items()}

    # ----------------------------------------------------------------- drawing
    def to_pixels(self, position: Point) -> tuple[float, float]:
        """Pixel centre of a (possibly fractional) board position."""
        x, y = position
        return (self.board_left + (x + 0.5) * self.cell,
                (self.layout.height - 0.5 - y) * self.cell)

    def draw(self, target: pygame.Surface, scene: Scene, status: Sequence[str] = (),
             origin: tuple[int, int] = (0, 0)) -> list[pygame.Rect]:
        """Draw a scene (and the status lines, if this renderer has a bar) onto `target`.

        Returns the rectangles of the agents and the status bar: with the previous frame's,
        all that changed (eaten food is always under Pacman).
        """
        ox, oy = origin
        board = self._board_for(scene.board)
        target.blit(board, (ox + self.board_left, oy))
        rects = [rect.move(ox + self.board_left, oy) for rect in self._board_changes]
        if self.board_left:  # the margins beside a narrow maze (a banner may have covered them)
            right = self.board_left + self.board_width
            target.fill(BACKGROUND, (ox, oy, self.board_left, self.board_height))
            target.fill(BACKGROUND, (ox + right, oy, self.size[0] - right, self.board_height))
        state = scene.state
        cell = self.cell
        sprite = self._pacman_sprite(state.pacman_direction, scene.mouth)
        px, py = self.to_pixels(scene.pacman)
        rects.append(target.blit(sprite, (ox + round(px - cell / 2), oy + round(py - cell / 2))))
        for index, (position, facing, timer) in enumerate(  # ghosts on top: a catch shows
                zip(scene.ghosts, state.ghost_directions, state.scared_timers)):
            sprite = self._ghost_sprite(index, ghost_look(timer), facing)
            px, py = self.to_pixels(position)
            rects.append(target.blit(sprite, (ox + round(px - cell / 2),
                                              oy + round(py - cell / 2))))
        if self.status_height:
            self.draw_status(target, status, origin)
            rects.append(pygame.Rect(ox, oy + self.board_height, self.size[0],
                                     self.status_height))
        return rects

    def draw_status(self, target: pygame.Surface, lines: Sequence[str],
                    origin: tuple[int, int] = (0, 0)) -> None:
        """Draw the status bar below the board."""
        ox, oy = origin
        top = oy + self.board_height
        target.fill(STATUS_BACKGROUND, (ox, top, self.size[0], self.status_height))
        rows = self._status_rows(tuple(lines[:3]))
        for row, (line, text) in enumerate(rows):
            color = SCORE_COLOR if line == 0 else TEXT_COLOR
            surface = self._text(text, color)
            target.blit(surface, (ox + TEXT_PAD, top + 3 + row * self.line_height))

    def _status_rows(self, lines: tuple[str, ...]) -> list[tuple[int, str]]:
        width = self.size[0] - 2 * TEXT_PAD
        if all(self.font.size(line)[0] <= width for line in lines) \
                and sum(1 for line in lines if line) <= self.status_rows:
            return [(i, line) for i, line in enumerate(lines) if line]  # the usual case
        return status_rows(lines, width, self.status_rows, lambda t: self.font.size(t)[0])

    def draw_banner(self, target: pygame.Surface, lines: Sequence[str],
                    origin: tuple[int, int] = (0, 0)) -> None:
        """A message box over the middle of the board (the end of a game, 'paused'); on a maze
        too small for it, at the bottom of the window, over the status rows."""
        room = self.size[0] - 24
        texts: list[tuple[str, bool]] = []
        for i, text in enumerate(lines):
            if i == 0:
                texts.append((text, True))
            else:
                texts += [(row, False) for row in wrap_text(
                    text, room, lambda t: self.font.size(t)[0])]
        surfaces = [self._text(text, SCORE_COLOR if big else TEXT_COLOR, big=big)
                    for text, big in texts]
        width = max(s.get_width() for s in surfaces) + 24
        height = sum(s.get_height() for s in surfaces) + 16
        box = pygame.Rect(0, 0, min(width, self.size[0]), min(height, self.size[1]))
        box.center = (origin[0] + self.size[0] // 2, origin[1] + self.board_height // 2)
        opacity = 200
        if box.height > self.board_height // 4:  # a small maze: keep it in sight, and put the
            # box in place of the status rows (it says the score), across the window, opaque
            box.width = self.size[0]
            box.height = max(box.height, self.size[1] - self.board_height)
            box.left, box.bottom = origin[0], origin[1] + self.size[1]
            opacity = 255
        box.top = max(origin[1], box.top)
        shade = pygame.Surface(box.size, pygame.SRCALPHA)
        shade.fill((0, 0, 0, opacity))
        target.blit(shade, box.topleft)
        pygame.draw.rect(target, WALL_COLOR, box, width=2, border_radius=6)
        y = box.top + 8
        for surface in surfaces:
            target.blit(surface, (box.centerx - surface.get_width() // 2, y))
            y += surface.get_height()

    def render(self, state: GameState, agents: Sequence[str] = (),
               move: MoveInfo | None = None, *, mouth: float | None = None,
               banner: Sequence[str] = ()) -> npt.NDArray[np.uint8]:
        """The state as an `H x W x 3` uint8 RGB array (no window needed), with the message
        box `banner` over the board if given (e.g. `end_banner(record)`)."""
        if self._canvas is None:
            self._canvas = pygame.Surface(self.size)
        surface = self._canvas
        moves = move.pacman_moves if move is not None else 0
        scene = Scene.still(state, chomp(moves) if mouth is None else mouth)
        self.draw(surface, scene, status_lines(state, agents, move))
        if banner:
            self.draw_banner(surface, banner)
        return surface_to_array(surface)

    # ----------------------------------------------------------------- caches
    def _board_for(self, state: GameState) -> pygame.Surface:
        """The maze with `state`'s food and capsules, updated from the last one by erasing."""
        food, capsules = state.food_positions, state.capsule_positions
        self._board_changes = []
        if (food, capsules) == self._board_items:
            return self._board
        previous = self._board_items
        if previous is None or not (set(food) <= set(previous[0])
                                    and set(capsules) <= set(previous[1])):
            # A new game: start again from the full board, drawn once per renderer.
            if self._full_board is None:
                self._full_board = self.maze.copy()
                dot = self._dot_sprite(FOOD_RADIUS, FOOD_COLOR)
                big = self._dot_sprite(CAPSULE_RADIUS, CAPSULE_COLOR)
                layout = self.layout
                for cells, sprite in ((layout.food, dot), (layout.capsules, big)):
                    for x, y in cells:
                        self._full_board.blit(sprite, (x * self.cell,
                                                       (layout.height - 1 - y) * self.cell))
            self._board.blit(self._full_board, (0, 0))
            self._board_changes.append(self._board.get_rect())
            previous = (self.layout.food, self.layout.capsules)
        gone = (set(previous[0]) - set(food)) | (set(previous[1]) - set(capsules))
        for x, y in gone:  # a non-wall cell of the maze surface is plain background
            rect = pygame.Rect(x * self.cell, (self.layout.height - 1 - y) * self.cell,
                               self.cell, self.cell)
            self._board.blit(self.maze, rect, rect)
            self._board_changes.append(rect)
        self._board_items = (food, capsules)
        return self._board

    def _text(self, text: str, color: Color, big: bool = False) -> pygame.Surface:
        text = text.replace("\0", "\ufffd")  # pygame's fonts refuse NUL (a name may hold one)
        key = (("big:" if big else "") + text, color)
        surface = self._texts.get(key)
        if surface is None:
            if len(self._texts) > 256:  # the status changes every move: keep the cache small
                self._texts.clear()
            font = pygame.font.Font(None, round(self.font_size * 1.6)) if big else self.font
            surface = font.render(fit_text(text, self.size[0] - 2 * TEXT_PAD,
                                           lambda t: font.size(t)[0]), True, color)
            self._texts[key] = surface
        return surface

    def _sprite(self, key: tuple[Any, ...]) -> tuple[pygame.Surface | None, pygame.Surface]:
        """(cached sprite or None, a blank supersampled canvas to draw it on)."""
        cached = self._sprites.get(key)
        size = self.cell * _SUPERSAMPLE
        return cached, pygame.Surface((size, size), pygame.SRCALPHA)

    def _finish_sprite(self, key: tuple[Any, ...], canvas: pygame.Surface) -> pygame.Surface:
        sprite = pygame.transform.smoothscale(canvas, (self.cell, self.cell))
        if pygame.display.get_init() and pygame.display.get_surface() is not None:
            sprite = sprite.convert_alpha()
        self._sprites[key] = sprite
        return sprite

    def _dot_sprite(self, radius: float, color: Color) -> pygame.Surface:
        key = ("dot", radius, color)
        cached, canvas = self._sprite(key)
        if cached is not None:
            return cached
        big = self.cell * _SUPERSAMPLE
        pygame.draw.circle(canvas, color, (big / 2, big / 2),
                           max(1.5 * _SUPERSAMPLE, radius * big))
        return self._finish_sprite(key, canvas)

    def _pacman_sprite(self, facing: Direction, mouth: float) -> pygame.Surface:
        mouth = round(max(0.0, min(150.0, mouth)) / 5) * 5
        key = ("pacman", facing, mouth)
        cached, canvas = self._sprite(key)
        if cached is not None:
            return cached
        big = self.cell * _SUPERSAMPLE
        centre = big / 2
        radius = PACMAN_RADIUS * big
        if mouth <= 0:
            pygame.draw.circle(canvas, PACMAN_COLOR, (centre, centre), radius)
        else:
            start = _ANGLE[facing] + mouth / 2
            sweep = 360.0 - mouth
            points = [(centre, centre)]
            steps = 60
            for i in range(steps + 1):
                angle = math.radians(start + sweep * i / steps)
                points.append((centre + radius * math.cos(angle),
                               centre - radius * math.sin(angle)))
            pygame.draw.polygon(canvas, PACMAN_COLOR, points)
        return self._finish_sprite(key, canvas)

    def _ghost_sprite(self, index: int, look: str, facing: Direction) -> pygame.Surface:
        key = ("ghost", index % len(GHOST_COLORS) if look == "normal" else -1, look, facing)
        cached, canvas = self._sprite(key)
        if cached is not None:
            return cached
        big = self.cell * _SUPERSAMPLE

        def at(x: float, y: float) -> tuple[float, float]:  # cell units, (0, 0) = centre
            return big / 2 + x * big, big / 2 + y * big

        if look == "normal":
            body, face = GHOST_COLORS[index % len(GHOST_COLORS)], EYE_COLOR
        elif look == "scared":
            body, face = SCARED_COLOR, SCARED_FACE
        else:
            body, face = FLASH_COLOR, FLASH_FACE
        half, top, bottom = 0.46, -0.05, 0.46
        pygame.draw.circle(canvas, body, at(0, top), half * big)
        skirt = [at(-half, top), at(half, top), at(half, bottom)]
        teeth = 4
        for i in range(teeth * 2, -1, -1):  # the wavy hem, right to left
            x = -half + 2 * half * i / (teeth * 2)
            skirt.append(at(x, bottom if i % 2 == 0 else bottom - 0.14))
        skirt.append(at(-half, bottom))
        pygame.draw.polygon(canvas, body, skirt)
        if look == "normal":
            dx, dy = {NORTH: (0, -1), SOUTH: (0, 1), EAST: (1, 0), WEST: (-1, 0)}.get(
                facing, (0, 0))
            for side in (-1, 1):
                ex, ey = side * 0.18 + dx * 0.04, -0.1 + dy * 0.04
                pygame.draw.ellipse(canvas, face, pygame.Rect(
                    *at(ex - 0.13, ey - 0.16), 0.26 * big, 0.32 * big))
                pygame.draw.circle(canvas, PUPIL_COLOR, at(ex + dx * 0.06, ey + dy * 0.08),
                                   0.075 * big)
        else:
            for side in (-1, 1):
                pygame.draw.rect(canvas, face, pygame.Rect(
                    *at(side * 0.15 - 0.05, -0.2), 0.1 * big, 0.1 * big))
            zigzag = [at(-0.3 + 0.1 * i, 0.2 if i % 2 else 0.13) for i in range(7)]
            pygame.draw.lines(canvas, face, False, zigzag, max(1, round(0.05 * big)))
        return self._finish_sprite(key, canvas)


def _font_size(cell: int) -> int:
    return max(11, round(cell * 0.55))


def _frame_width(layout: Layout, cell: int, font: pygame.font.Font, status_bar: bool
                 ) -> tuple[int, int]:
    """The frame's width (the board's, or wider for the status bar) and the bar's rows."""
    board = layout.width * cell
    if not status_bar:
        return board, 0
    width = max(board, font.size(MIN_WIDTH_TEXT)[0] + 2 * TEXT_PAD)
    rows = len(status_rows(TYPICAL_STATUS, width - 2 * TEXT_PAD, 99,
                           lambda t: font.size(t)[0]))
    # a narrow bar wraps: one spare row for a longer agents line
    return width, 3 if rows <= 3 else rows + 1


def surface_to_array(surface: pygame.Surface) -> npt.NDArray[np.uint8]:
    """A surface's pixels as an `H x W x 3` uint8 RGB array."""
    width, height = surface.get_size()
    masks = surface.get_masks()[:3]
    if surface.get_bytesize() == 4 and sys.byteorder == "little" and all(
            m in (0xFF, 0xFF00, 0xFF0000, 0xFF000000) for m in masks):
        # Read the pixels in place and pick the channels: several times faster than tobytes.
        buffer: Any = surface.get_buffer()  # a BufferProxy: the stubs do not say "buffer"
        rows = np.frombuffer(buffer, dtype=np.uint8).reshape(
            height, surface.get_pitch() // 4, 4)
        channels = [m.bit_length() // 8 - 1 for m in masks]
        picked: npt.NDArray[np.uint8] = rows[:, :width, channels]
        return picked
    data = pygame.image.tobytes(surface, "RGB")
    array: npt.NDArray[np.uint8] = np.frombuffer(data, dtype=np.uint8).reshape(
        height, width, 3).copy()
    return array


def render_frame(state: GameState, zoom: float = 1.0, agents: Sequence[str] = (),
                 status_bar: bool = True) -> npt.NDArray[np.uint8]:
    """One state as an `H x W x 3` uint8 array. For many frames keep a `Renderer` instead."""
    return Renderer(state.layout, zoom, status_bar=status_bar).render(state, agents)


# --------------------------------------------------------------------- the walls
def wall_coverage(layout: Layout, cell: int, supersample: int | None = None
                  ) -> npt.NDArray[np.float32]:
    """How much of each pixel the wall outlines cover (0..1), shape `(H*cell, W*cell)`.

    The walls are CS188's: a tube of half-width WALL_RADIUS along the centre lines of connected
    wall cells, rounded at ends and corners, its outline drawn about `cell / 15` pixels wide;
    a quadrant surrounded by walls is filled, so thick wall blocks show only their outline.
    A wall cell's pixels depend only on its 8 neighbours, so each distinct neighbourhood is
    rasterised once (analytically, supersampled) and reused.
    """
    s = supersample or max(2, min(4, 120 // cell))
    width, height = layout.width, layout.height
    walls = np.zeros((height + 2, width + 2), dtype=bool)  # screen rows, padded with no wall
    for x, y in layout.walls:
        walls[height - y, x + 1] = True
    coverage = np.zeros((height * cell, width * cell), dtype=np.float32)
    tiles: dict[bytes, npt.NDArray[np.float32]] = {}
    for x, y in layout.walls:
        row, col = height - y, x + 1
        around = walls[row - 1:row + 2, col - 1:col + 2]
        key = around.tobytes()
        tile = tiles.get(key)
        if tile is None:
            tile = tiles[key] = _wall_tile(around, cell, s)
        top, left = (row - 1) * cell, (col - 1) * cell
        coverage[top:top + cell, left:left + cell] = tile
    return coverage


def _wall_tile(around: npt.NDArray[np.bool_], cell: int, s: int) -> npt.NDArray[np.float32]:
    """Coverage of one wall cell given its 3x3 neighbourhood (screen orientation)."""
    n = cell * s
    a = (np.arange(n, dtype=np.float32) + 0.5) / n - 0.5   # -0.5..0.5 across the cell
    sx = np.where(a >= 0, 2, 0)                             # column of the side neighbour
    ax = np.abs(a)[None, :]
    ay = np.abs(a)[:, None]
    rows, cols = sx[:, None], sx[None, :]                   # same maths down the screen
    side = around[1, cols]
    vertical = around[rows, 1]
    diagonal = around[rows, cols]
    r = np.float32(WALL_RADIUS)
    line = np.float32(max(1.0, cell / 15) / cell)

    def region(radius: np.float32) -> npt.NDArray[np.bool_]:
        fillet = np.float32(2 * r - radius)
        corner = (ax <= 2 * r) & (ay <= 2 * r) & ((ax - 2 * r) ** 2 + (ay - 2 * r) ** 2
                                                  >= fillet * fillet)
        result: npt.NDArray[np.bool_] = np.where(
            side,
            np.where(vertical, diagonal | (ax <= radius) | (ay <= radius) | corner,
                     ay <= radius),
            np.where(vertical, ax <= radius, ax * ax + ay * ay <= radius * radius))
        return result

    band = region(r) & ~region(np.float32(r - line))
    tile: npt.NDArray[np.float32] = band.reshape(cell, s, cell, s).mean(
        axis=(1, 3), dtype=np.float32)
    return tile


def _maze_surface(layout: Layout, cell: int) -> pygame.Surface:
    coverage = wall_coverage(layout, cell)
    background = np.array(BACKGROUND, dtype=np.float32)
    wall = np.array(WALL_COLOR, dtype=np.float32)
    pixels = background + coverage[:, :, None] * (wall - background)
    rgb = np.rint(pixels).astype(np.uint8)
    return pygame.image.frombytes(rgb.tobytes(), (layout.width * cell, layout.height * cell),
                                  "RGB")
