"""Games as picture files: a PNG of the last frame (`--screenshot`), every round as an animated
GIF or a folder of PNG frames (`--gif`).

One job: writing frames to files. `FrameExport` wraps another display, renders the game off
screen with a `Renderer` (`pacman.display.render`) as it goes and writes the files when the
game ends; `save_png` and `save_gif` write arrays. PNGs need only pygame; a GIF needs Pillow
(`check_gif_support` says so up front, as an `ExportError`, before a game is played).
"""

from __future__ import annotations

import os
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from pacman.display.protocol import Display, MoveInfo
from pacman.display.render import Renderer
from pacman.display.status import end_banner
from pacman.errors import ExportError

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # no banner on stdout
import pygame

if TYPE_CHECKING:
    from pacman.record import GameRecord
    from pacman.state import GameState

__all__ = ["ExportError", "FrameExport", "check_gif_support", "save_gif", "save_png"]


def check_gif_support() -> None:
    """Raise `ExportError` when Pillow (needed to write GIFs) is missing."""
    try:
        import PIL.Image  # noqa: F401
    except ImportError:
        raise ExportError("writing a GIF needs Pillow: pip install 'pacman-adversarial[gif]' "
                          "(or give a folder name to get PNG frames)") from None


class FrameExport:
    """A display wrapper that also renders the game off-screen and exports it.

    `screenshot`: a PNG of the last frame. `gif`: the whole game, one frame per round, as an
    animated GIF (Pillow) or, when the path has no `.gif` suffix, as a folder of PNG frames.
    With several games, the files hold the last game.

    The last frame is the window's end screen in every mode (window, `-t`, `-q`): the final
    state with the end box ("Pacman wins!", "Game over", "CAPPED", ... and the score; none for
    a stopped game). The window's key hint ("press a key") is left out: a picture takes no keys.
    """

    def __init__(self, inner: Display, *, screenshot: str | Path | None = None,
                 gif: str | Path | None = None, zoom: float = 1.0,
                 frame_time: float = 0.1) -> None:
        self.inner = inner
        self.screenshot = Path(screenshot) if screenshot else None
        self.gif = Path(gif) if gif else None
        if self.gif is not None and self.gif.suffix.lower() == ".gif":
            check_gif_support()
        self.zoom = zoom
        self.frame_ms = max(20, round(1000 * (frame_time if frame_time > 0 else 0.1)))
        self.written: list[Path] = []
        self._renderer: Renderer | None = None
        self._agents: tuple[str, ...] = ()
        self._frames: list[bytes] = []
        self._frame_count = 0
        self._captured: GameState | None = None
        self._last_move: MoveInfo | None = None

    def __getattr__(self, name: str) -> Any:  # close(), quit_requested, ... of the window
        return getattr(self.inner, name)

    def start(self, state: GameState, agents: tuple[str, ...]) -> None:
        """Start the inner display and the frame list."""
        if self._renderer is None or self._renderer.layout != state.layout:
            self._renderer = Renderer(state.layout, self.zoom)
        self._agents = agents
        self._frames, self._frame_count, self._last_move = [], 0, None
        self.inner.start(state, agents)
        self._capture(state, None)

    def update(self, state: GameState, move: MoveInfo) -> None:
        """Update the inner display; keep a frame per round."""
        self._last_move = move if move.agent == 0 else self._last_move
        if self.gif is not None and (move.agent == state.num_agents - 1
                                     or state.is_terminal()):
            self._capture(state, move)
        self.inner.update(state, move)

    def finish(self, state: GameState, record: GameRecord) -> None:
        """Write the screenshot and the animation, then let the inner display finish."""
        assert self._renderer is not None
        banner = end_banner(record, bool(getattr(self.inner, "keyboard_mode", False)))
        last = self._renderer.render(state, self._agents, self._last_move, banner=banner)
        self.written = []
        if self.screenshot is not None:
            self.screenshot.parent.mkdir(parents=True, exist_ok=True)
            save_png(last, self.screenshot)
            self.written.append(self.screenshot)
        if self.gif is not None:
            # the last frame is the end screen: it replaces the final round's frame, or follows
            # the last round shown when the game ended mid-round (or crashed)
            self._store(last, replace=state == self._captured and self._frame_count > 0)
            self._captured = state
            if self.gif.suffix.lower() == ".gif":
                self.gif.parent.mkdir(parents=True, exist_ok=True)
                size = self._renderer.size
                save_gif(self._decoded(size), self.gif, self.frame_ms)
            self.written.append(self.gif)
        self.inner.finish(state, record)

    def _capture(self, state: GameState, move: MoveInfo | None) -> None:
        if self.gif is None or self._renderer is None:
            return
        self._store(self._renderer.render(state, self._agents, move))
        self._captured = state

    def _store(self, frame: npt.NDArray[np.uint8], replace: bool = False) -> None:
        """Keep a frame (or put it in place of the last one)."""
        assert self.gif is not None
        if replace:
            self._frame_count -= 1
        if self.gif.suffix.lower() == ".gif":
            data = zlib.compress(frame.tobytes(), 1)  # long games stay small
            if replace:
                self._frames[-1] = data
            else:
                self._frames.append(data)
        else:
            if self._frame_count == 0:
                self.gif.mkdir(parents=True, exist_ok=True)
                for old in self.gif.glob("frame-*.png"):
                    old.unlink()
            save_png(frame, self.gif / f"frame-{self._frame_count:05d}.png")
        self._frame_count += 1

    def _decoded(self, size: tuple[int, int]) -> Iterator[npt.NDArray[np.uint8]]:
        width, height = size
        for data in self._frames:
            yield np.frombuffer(zlib.decompress(data), dtype=np.uint8).reshape(height, width, 3)


def save_png(frame: npt.NDArray[np.uint8], path: str | Path) -> None:
    """Write an `H x W x 3` array as a PNG (pygame; no Pillow needed)."""
    height, width = frame.shape[:2]
    surface = pygame.image.frombytes(np.ascontiguousarray(frame).tobytes(), (width, height),
                                     "RGB")
    pygame.image.save(surface, str(path))


def save_gif(frames: Iterator[npt.NDArray[np.uint8]], path: str | Path,
             frame_ms: int = 100, hold_last_ms: int = 2000) -> None:
    """Write frames as an animated GIF (needs Pillow); the last frame is held longer."""
    check_gif_support()
    from PIL import Image

    images: list[Any] = []
    palette: Any = None
    for frame in frames:
        image = Image.fromarray(frame, "RGB")
        if palette is None:  # one palette for all frames: no flicker, fast quantising
            palette = image.quantize(colors=128, method=Image.Quantize.MEDIANCUT)
        images.append(image.quantize(palette=palette, dither=Image.Dither.NONE))
    if not images:
        raise ExportError("no frames to write")
    durations = [frame_ms] * len(images)
    durations[-1] = max(frame_ms, hold_last_ms)
    images[0].save(str(path), save_all=True, append_images=images[1:], duration=durations,
                   loop=0, optimize=False, disposal=1)
