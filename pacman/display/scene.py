"""What a frame shows, before any pixel: the scene of one moment of a game and the look of it.

One job: to say *what* is drawn, in board coordinates, so that every view draws the same thing.
A `Scene` is a state with its agents possibly between cells (`interpolate` glides them during
one round of moves; `Scene.still` puts them on their cells), Pacman's mouth opening (`chomp`
without gliding) and which food is still on the board. `ghost_look` says whether a ghost is
drawn normal, scared or flashing white. The CS188 palette and the sizes of the drawn shapes,
in cells, live here too: the pygame `Renderer` (`pacman.display.render`) and the replay page
(`pacman.web`) both read them.

No pygame and no numpy: pure geometry and constants.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pacman.maze import Point

if TYPE_CHECKING:
    from pacman.state import GameState

__all__ = [
    "Color", "BACKGROUND", "WALL_COLOR", "FOOD_COLOR", "CAPSULE_COLOR", "PACMAN_COLOR",
    "GHOST_COLORS", "SCARED_COLOR", "SCARED_FACE", "FLASH_COLOR", "FLASH_FACE", "EYE_COLOR",
    "PUPIL_COLOR", "SCORE_COLOR", "TEXT_COLOR", "STATUS_BACKGROUND",
    "WALL_RADIUS", "PACMAN_RADIUS", "FOOD_RADIUS", "CAPSULE_RADIUS", "FLASH_TIME",
    "MOUTH_CLOSED", "MOUTH_WIDE",
    "Scene", "chomp", "interpolate", "ghost_look",
]

Color = tuple[int, int, int]

# The CS188 palette (graphicsDisplay.py), as 0-255 RGB.
BACKGROUND: Color = (0, 0, 0)
WALL_COLOR: Color = (0, 51, 255)
FOOD_COLOR: Color = (255, 255, 255)
CAPSULE_COLOR: Color = (255, 255, 255)
PACMAN_COLOR: Color = (255, 255, 61)
GHOST_COLORS: tuple[Color, ...] = (
    (230, 0, 0),      # red
    (0, 77, 230),     # blue
    (250, 105, 18),   # orange
    (26, 191, 179),   # green
    (255, 153, 0),    # yellow
    (102, 33, 232),   # purple
)
SCARED_COLOR: Color = (33, 33, 200)      # frightened ghost body
SCARED_FACE: Color = (255, 184, 174)
FLASH_COLOR: Color = (235, 235, 255)     # the last moves of the scared timer blink white
FLASH_FACE: Color = (230, 0, 0)
EYE_COLOR: Color = (255, 255, 255)
PUPIL_COLOR: Color = (0, 0, 0)
SCORE_COLOR: Color = (230, 230, 51)
TEXT_COLOR: Color = (200, 200, 200)
STATUS_BACKGROUND: Color = (0, 0, 0)

WALL_RADIUS = 0.15       # half-width of a wall "tube", in cells (CS188)
PACMAN_RADIUS = 0.5      # CS188 PACMAN_SCALE
FOOD_RADIUS = 0.1        # CS188 FOOD_SIZE
CAPSULE_RADIUS = 0.25    # CS188 CAPSULE_SIZE
FLASH_TIME = 10          # scared ghosts blink during their last FLASH_TIME moves
MOUTH_CLOSED = 30.0      # degrees of mouth opening on a cell (CS188: 30 + 80 sin(pi * frac))
MOUTH_WIDE = 110.0


@dataclass(frozen=True)
class Scene:
    """What one frame shows: `state` with its agents possibly between cells.

    `board` is the state whose food and capsules are drawn (the previous one during the first
    half of a glide, so a dot disappears when Pacman reaches it). `mouth` is Pacman's mouth
    opening in degrees.
    """

    state: GameState
    board: GameState
    pacman: Point
    ghosts: tuple[Point, ...]
    mouth: float

    @classmethod
    def still(cls, state: GameState, mouth: float = 50.0) -> Scene:
        """The agents on their cells, as in `state`."""
        return cls(state, state, state.pacman_position, state.ghost_positions, mouth)


def chomp(pacman_moves: int) -> float:
    """Mouth opening without gliding: alternate wide and narrow, one move each."""
    return 70.0 if pacman_moves % 2 else MOUTH_CLOSED


def interpolate(before: GameState, after: GameState, fraction: float) -> Scene:
    """The scene `fraction` (0..1) of the way from `before` to `after` (one round of moves).

    Agents glide in straight lines; a jump of more than one cell (an eaten ghost going home)
    happens at once.
    """
    fraction = min(1.0, max(0.0, fraction))
    pacman = _between(before.pacman_position, after.pacman_position, fraction)
    ghosts: tuple[Point, ...]
    if before.num_ghosts == after.num_ghosts:
        ghosts = tuple(_between(a, b, fraction)
                       for a, b in zip(before.ghost_positions, after.ghost_positions))
    else:
        ghosts = after.ghost_positions
    moved = abs(pacman[0] - before.pacman_position[0]) + abs(pacman[1] - before.pacman_position[1])
    mouth = MOUTH_CLOSED + (MOUTH_WIDE - MOUTH_CLOSED) * math.sin(math.pi * min(1.0, moved))
    board = before if fraction < 0.5 else after
    return Scene(after, board, pacman, ghosts, mouth)


def _between(a: Point, b: Point, fraction: float) -> Point:
    if abs(a[0] - b[0]) + abs(a[1] - b[1]) > 1.01:
        return b
    return (a[0] + (b[0] - a[0]) * fraction, a[1] + (b[1] - a[1]) * fraction)


def ghost_look(scared_timer: int) -> str:
    """'normal', 'scared' or 'flash' (white) for a ghost's scared timer."""
    if scared_timer <= 0:
        return "normal"
    if scared_timer > FLASH_TIME:
        return "scared"
    return "flash" if (scared_timer // 2) % 2 else "scared"
