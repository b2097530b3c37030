"""Games as picture files: a PNG of the last frame (`--screenshot`), the game's rounds as an
animated GIF or WebP, or a folder of PNG frames (`--gif`/`--animation`).

One job: writing frames to files. `FrameExport` wraps another display, renders the game off
screen with a `Renderer` (`pacman.display.render`) as it goes and writes the files when the
game ends; `save_png`, `save_gif` and `save_webp` write arrays. PNGs need only pygame; a GIF
or a WebP needs Pillow (`check_animation_support` says so up front, as a `MissingExtra`,
before a game is played).
"""

from __future__ import annotations

import contextlib
import math
import os
import tempfile
import warnings
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from pacman.display.formats import (
    ANIMATION_SUFFIXES,
    MAX_ANIMATION_FPS,
    MIN_ANIMATION_FPS,
    animation_format,
)
from pacman.display.protocol import Display, MoveInfo
from pacman.display.render import Renderer
from pacman.display.status import end_banner
from pacman.errors import ExportError, MissingExtra

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # no banner on stdout
import pygame

if TYPE_CHECKING:
    from pacman.record import GameRecord
    from pacman.state import GameState

__all__ = ["ANIMATION_SUFFIXES", "HOLD_LAST_MS", "MAX_ANIMATION_FPS", "MIN_ANIMATION_FPS",
           "ExportError", "FrameExport", "animation_format", "check_animation_support",
           "check_gif_support", "check_webp_support", "frame_ms_at", "kept_frames", "save_gif",
           "save_png", "save_webp"]

#: How long an animation shows its last frame (the end screen), unless frames are longer.
HOLD_LAST_MS = 2000


def check_gif_support() -> None:
    """Raise `MissingExtra` when Pillow (needed to write GIFs) is missing."""
    try:
        import PIL.Image  # noqa: F401
    except ImportError:
        raise MissingExtra("writing a GIF needs Pillow", "gif", "PIL",
                           "(or give a folder name to get PNG frames)") from None


def check_webp_support() -> None:
    """Raise `MissingExtra` when Pillow is missing, `ExportError` when it was built without
    WebP (animation)."""
    try:
        from PIL import features
    except ImportError:
        raise MissingExtra("writing a WebP needs Pillow", "gif", "PIL",
                           "(or give a folder name to get PNG frames)") from None
    with warnings.catch_warnings():  # Pillow 11.0 deprecates "webp_anim" (then drops it)
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            animated = features.check_feature("webp_anim")
        except ValueError:  # a Pillow that knows no "webp_anim": WebP includes animation
            animated = True
    if not features.check("webp") or not animated:
        raise ExportError("this Pillow cannot write WebP (built without libwebp): give a .gif "
                          "name, or install Pillow's own wheel (pip install --force-reinstall "
                          "pillow)")


def check_animation_support(path: str | Path) -> None:
    """Raise `MissingExtra` (no Pillow) or `ExportError` when `path`'s animation format (see
    `animation_format`) cannot be written here; a folder of PNG frames needs only pygame."""
    kind = animation_format(path)
    if kind == "gif":
        check_gif_support()
    elif kind == "webp":
        check_webp_support()


def frame_ms_at(fps: float, kind: str) -> int:
    """The duration in ms of one frame at `fps` frames per second, as the file stores it.

    Args:
        fps: frames per second, in [MIN_ANIMATION_FPS, MAX_ANIMATION_FPS].
        kind: "gif" (delays are whole hundredths of a second: 1000 / fps rounded to the
            nearest 10 ms, halves up) or "webp" (whole ms: 1000 / fps rounded, halves up).

    Returns:
        The frame duration in ms: at least 20, the shortest browsers play as written.

    Raises:
        ExportError: `fps` out of range, or an unknown `kind`.
    """
    if not MIN_ANIMATION_FPS <= fps <= MAX_ANIMATION_FPS:
        raise ExportError(f"animation fps must be between {MIN_ANIMATION_FPS:g} and "
                          f"{MAX_ANIMATION_FPS:g}, not {fps:g}")
    if kind == "gif":
        return max(20, 10 * math.floor(100 / fps + 0.5))
    if kind == "webp":
        return max(20, math.floor(1000 / fps + 0.5))
    raise ExportError(f"no animation format {kind!r} (known: gif, webp)")


def kept_frames(count: int, skip: int) -> list[int]:
    """The indexes of the frames an animation keeps out of `count` with `--animation-skip`.

    Args:
        count: the frames of the whole game, one per round: the start, each round, the end.
        skip: keep one frame in `skip` (1 keeps all).

    Returns:
        0, skip, 2 * skip, ... below `count`, and always `count - 1` (the end screen), in order.
    """
    kept = list(range(0, count, skip))
    if count and kept[-1] != count - 1:
        kept.append(count - 1)
    return kept


class FrameExport:
    """A display wrapper that also renders the game off-screen and exports it.

    `screenshot`: a PNG of the last frame. `gif`: the whole game, one frame per round, as an
    animated GIF or WebP (Pillow; by the suffix, `.gif` or `.webp`) or, for any other name,
    as a folder of PNG frames `frame-00000.png`, ... With several games, the files hold the
    last game. `skip` keeps one frame in `skip` (the start, then every `skip`-th round; the
    end screen always), the frames a `kept_frames(count, skip)` call lists. `fps` sets an
    animation's frames per second (`frame_ms_at`); without it a frame lasts `frame_time`
    (at least 20 ms; 0.1 s when `frame_time` is 0). The last frame is held `HOLD_LAST_MS`.

    The last frame is the window's end screen in every mode (window, `-t`, `-q`): the final
    state with the end box ("Pacman wins!", "Game over", "CAPPED", ... and the score; none for
    a stopped game). The window's key hint ("press a key") is left out: a picture takes no keys.
    """

    def __init__(self, inner: Display, *, screenshot: str | Path | None = None,
                 gif: str | Path | None = None, zoom: float = 1.0,
                 frame_time: float = 0.1, fps: float | None = None, skip: int = 1) -> None:
        self.inner = inner
        self.screenshot = Path(screenshot) if screenshot else None
        self.gif = Path(gif) if gif else None
        self.kind = animation_format(self.gif) if self.gif is not None else None
        if self.gif is not None:
            check_animation_support(self.gif)
        if isinstance(skip, bool) or not isinstance(skip, int) or skip < 1:
            raise ExportError(f"frame skip must be a whole number >= 1, not {skip!r}")
        if fps is not None and self.kind is None:
            raise ExportError("fps sets the speed of an animation (.gif or .webp); "
                              "a folder of PNG frames has none")
        self.zoom = zoom
        self.skip = skip
        self.frame_ms = (frame_ms_at(fps, self.kind) if fps is not None and self.kind
                         else max(20, round(1000 * (frame_time if frame_time > 0 else 0.1))))
        self.written: list[Path] = []
        #: the first file that could not be written, if any (`finish`): the game and its
        #: record are not touched by it; the command says it once the record is saved
        self.failure: ExportError | None = None
        self._renderer: Renderer | None = None
        self._agents: tuple[str, ...] = ()
        self._frames: list[bytes] = []
        self._frame_count = 0  # frames kept
        self._offered = 0  # frames of the whole game so far, kept or skipped
        self._captured: GameState | None = None  # the state of the last frame offered
        self._captured_kept = False  # whether that frame was kept
        self._last_move: MoveInfo | None = None

    def __getattr__(self, name: str) -> Any:  # close(), quit_requested, ... of the window
        return getattr(self.inner, name)

    def start(self, state: GameState, agents: tuple[str, ...]) -> None:
        """Start the inner display and the frame list."""
        if self._renderer is None or self._renderer.layout != state.layout:
            self._renderer = Renderer(state.layout, self.zoom)
        self._agents = agents
        self._frames, self._frame_count, self._last_move = [], 0, None
        self._offered, self._captured, self._captured_kept = 0, None, False
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
        """Write the screenshot and the animation, then let the inner display finish.

        A file that cannot be written (a full disk, a folder removed during the game) does
        not end the game's business: it is kept in `failure`, for the command to say once
        the game is recorded, and the inner display finishes all the same."""
        assert self._renderer is not None
        banner = end_banner(record, bool(getattr(self.inner, "keyboard_mode", False)))
        last = self._renderer.render(state, self._agents, self._last_move, banner=banner)
        self.written = []
        if self.screenshot is not None and self.failure is None:
            self._write(self.screenshot, lambda target: save_png(last, target))
        if self.gif is not None and self.failure is None:
            # the last frame is the end screen: it takes the final round's place (kept or
            # skipped), or follows the last round when the game ended mid-round (or crashed)
            final_round = state == self._captured and self._offered > 0
            self._store(last, replace=final_round and self._captured_kept)
            if not final_round:
                self._offered += 1
            self._captured, self._captured_kept = state, True
            if self.kind is not None:
                size = self._renderer.size
                save = save_gif if self.kind == "gif" else save_webp
                self._write(self.gif, lambda target: save(self._decoded(size), target,
                                                          self.frame_ms))
            elif self.failure is None:
                self.written.append(self.gif)
        self.inner.finish(state, record)

    def _write(self, path: Path, write: Callable[[Path], None]) -> None:
        """Write one file (its folder made first); a failure is kept in `failure`."""
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            write(path)
        except (OSError, pygame.error) as error:
            self._failed(path, error)
        else:
            self.written.append(path)

    def _failed(self, path: Path, error: BaseException) -> None:
        """Keep the first file that could not be written, as a one-line `ExportError`."""
        if self.failure is None:
            reason = (error.strerror if isinstance(error, OSError) and error.strerror
                      else str(error) or type(error).__name__)
            self.failure = ExportError(f"cannot write {path}: {reason}")

    def _capture(self, state: GameState, move: MoveInfo | None) -> None:
        """Offer the frame of a round; keep it (render it) when its index is a multiple of
        `skip`."""
        if self.gif is None or self._renderer is None or self.failure is not None:
            return
        self._captured_kept = self._offered % self.skip == 0
        if self._captured_kept:
            self._store(self._renderer.render(state, self._agents, move))
        self._offered += 1
        self._captured = state

    def _store(self, frame: npt.NDArray[np.uint8], replace: bool = False) -> None:
        """Keep a frame (or put it in place of the last one)."""
        assert self.gif is not None
        if replace:
            self._frame_count -= 1
        if self.kind is not None:
            data = zlib.compress(frame.tobytes(), 1)  # long games stay small
            if replace:
                self._frames[-1] = data
            else:
                self._frames.append(data)
        else:
            try:
                if self._frame_count == 0:
                    self.gif.mkdir(parents=True, exist_ok=True)
                    for old in self.gif.glob("frame-*.png"):
                        old.unlink()
                save_png(frame, self.gif / f"frame-{self._frame_count:05d}.png")
            except (OSError, pygame.error) as error:
                self._failed(self.gif, error)  # no more frames: the game goes on
                return
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
             frame_ms: int = 100, hold_last_ms: int = HOLD_LAST_MS) -> None:
    """Write frames as an animated GIF (needs Pillow); the last frame is held longer.

    One palette for every frame (the first frame's 128 colours: no flicker, fast quantising).
    The file is written a frame at a time, as the frames come: a long game never holds its
    frames decoded in memory, only the last two (Pillow's own `save_all` keeps every frame of
    the file it writes: about 0.5 MB a frame of mediumClassic). The bytes are those Pillow's
    `save_all` writes for the same list (`optimize=False`, `disposal=1`, `loop=0`): each
    frame after the first is the box that changed since the frame before, with its colour
    table, written by Pillow's GIF helpers `getheader` and `getdata`; a frame equal to the one
    before lengthens it; a game of one picture is Pillow's one-frame GIF. A file that cannot be
    written to the end is removed.
    """
    check_gif_support()
    from PIL import GifImagePlugin, Image, ImageChops

    palette: Any = None
    shown: Any = None  # the last frame that differs from the one before it
    pending: tuple[Any, tuple[int, int, int, int] | None, int] | None = None  # not written yet
    options = {"loop": 0, "optimize": False, "disposal": 1}
    path = Path(path)
    file = None
    try:
        for frame, duration in _timed(frames, frame_ms, max(frame_ms, hold_last_ms)):
            image = Image.fromarray(frame, "RGB")
            if palette is None:
                palette = image.quantize(colors=128, method=Image.Quantize.MEDIANCUT)
            picture = image.quantize(palette=palette, dither=Image.Dither.NONE)
            if pending is None:
                pending, shown = (picture, None, duration), picture
                continue
            box = _changed_box(shown, picture, ImageChops)
            if box is None:  # the same picture: the one shown stays longer
                pending = (pending[0], pending[1], pending[2] + duration)
                continue
            if file is None:  # a second picture: an animation (the header, then frames)
                file = path.open("wb")
                header, _ = GifImagePlugin.getheader(pending[0].copy(), None,
                                                     {**options, "duration": pending[2]})
                file.write(b"".join(header))
            file.write(b"".join(_gif_frame(GifImagePlugin, pending, options)))
            pending, shown = (picture, box, duration), picture
        if pending is None:
            raise ExportError("no frames to write")
        if file is None:  # one picture all game long: Pillow's one-frame GIF
            pending[0].save(str(path), format="GIF", save_all=True, duration=[pending[2]],
                            **options)
            return
        file.write(b"".join(_gif_frame(GifImagePlugin, pending, options)))
        file.write(b";")
        file.close()
    except BaseException:
        if file is not None:  # a part of a GIF is no GIF (closing may fail again: disk full)
            with contextlib.suppress(OSError):
                file.close()
            with contextlib.suppress(OSError):
                path.unlink()
        raise


def _timed(frames: Iterator[npt.NDArray[np.uint8]], frame_ms: int, last_ms: int
           ) -> Iterator[tuple[npt.NDArray[np.uint8], int]]:
    """Each frame with its duration: `frame_ms`, the last one `last_ms`."""
    previous: npt.NDArray[np.uint8] | None = None
    for frame in frames:
        if previous is not None:
            yield previous, frame_ms
        previous = frame
    if previous is not None:
        yield previous, last_ms


def _changed_box(before: Any, after: Any, chops: Any) -> tuple[int, int, int, int] | None:
    """The box of the pixels that differ between two palette pictures (None: none), as
    Pillow's GIF writer finds it."""
    if bytes(before.palette.palette) != bytes(after.palette.palette):
        before, after = before.convert("RGBA"), after.convert("RGBA")
    box: tuple[int, int, int, int] | None = chops.subtract_modulo(after, before).getbbox(
        alpha_only=False)
    return box


def _gif_frame(plugin: Any, frame: tuple[Any, tuple[int, int, int, int] | None, int],
               options: dict[str, Any]) -> list[bytes]:
    """One frame's bytes: the whole first picture, or the changed box with its colours."""
    picture, box, duration = frame
    if box is None:
        data: list[bytes] = plugin.getdata(picture, (0, 0), **options, duration=duration)
        return data
    if box != (0, 0, *picture.size):
        picture = picture.crop(box)
    data = plugin.getdata(picture, box[:2], **options, duration=duration,
                          include_color_table=True)
    return data


def save_webp(frames: Iterator[npt.NDArray[np.uint8]], path: str | Path,
              frame_ms: int = 100, hold_last_ms: int = HOLD_LAST_MS) -> None:
    """Write frames as a lossless animated WebP (needs Pillow with WebP); the last frame is
    held longer.

    Lossless, because the frames are flat colours, thin outlines and small text: lossless WebP
    keeps every pixel and is still smaller than the GIF of the same game, where a lossy WebP
    is no smaller and smudges the edges. Low effort (`method=1, quality=0`): several times
    faster than the default for files about 10% larger. The frames wait in a compressed
    multi-page TIFF in a temporary folder, which Pillow reads back one page at a time: a long
    game never holds all its frames decoded in memory (Pillow keeps RGB at 4 bytes a pixel).
    """
    check_webp_support()
    from PIL import Image, TiffImagePlugin, features

    compression = "tiff_deflate" if features.check("libtiff") else "packbits"
    with tempfile.TemporaryDirectory(prefix="pacman-webp-") as folder:
        staged = Path(folder) / "frames.tif"
        count = 0
        with TiffImagePlugin.AppendingTiffWriter(str(staged), new=True) as pages:
            for frame in frames:
                Image.fromarray(frame, "RGB").save(pages, format="TIFF",
                                                   compression=compression)
                pages.newFrame()
                count += 1
        if not count:
            raise ExportError("no frames to write")
        durations = [frame_ms] * count
        durations[-1] = max(frame_ms, hold_last_ms)
        with Image.open(staged) as image:
            image.save(str(path), format="WEBP", save_all=True, duration=durations, loop=0,
                       lossless=True, quality=0, method=1)
