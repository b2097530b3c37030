"""`save_gif` writes a frame at a time (issue 46, class 5): the same bytes as Pillow's
`save_all` of the whole list, with memory that does not grow with the game (before: every
frame decoded in memory, 995 MB for 2,000 moves of mediumClassic)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

PIL = pytest.importorskip("PIL")

from PIL import Image  # noqa: E402

from pacman.display.export import HOLD_LAST_MS, save_gif  # noqa: E402
from pacman.errors import ExportError  # noqa: E402

Frame = npt.NDArray[np.uint8]


def pillow_gif(frames: list[Frame], path: Path, frame_ms: int, hold_last_ms: int) -> None:
    """What `save_gif` wrote before: every frame quantized in a list, then Pillow's
    `save_all` (the reference for the bytes)."""
    images = []
    palette = None
    for frame in frames:
        image = Image.fromarray(frame, "RGB")
        if palette is None:
            palette = image.quantize(colors=128, method=Image.Quantize.MEDIANCUT)
        images.append(image.quantize(palette=palette, dither=Image.Dither.NONE))
    durations = [frame_ms] * len(images)
    durations[-1] = max(frame_ms, hold_last_ms)
    images[0].save(str(path), save_all=True, append_images=images[1:], duration=durations,
                   loop=0, optimize=False, disposal=1)


def _frames() -> dict[str, list[Frame]]:
    rng = np.random.default_rng(46)
    base = rng.integers(0, 255, (40, 50, 3), dtype=np.uint8)

    def changed(frame: Frame, y: int, x: int) -> Frame:
        copy = frame.copy()
        copy[y:y + 5, x:x + 7] = rng.integers(0, 255, 3, dtype=np.uint8)
        return copy

    small = rng.integers(0, 255, (8, 8, 3), dtype=np.uint8)
    flat = np.zeros((20, 20, 3), np.uint8)
    return {
        "changes": [base, changed(base, 3, 4), changed(base, 10, 20), changed(base, 35, 45)],
        "one frame": [base],
        "all equal": [base, base, base],
        "runs of equal frames": [base, base, changed(base, 1, 1), changed(base, 1, 1), base,
                                 base],
        "last equal": [base, changed(base, 0, 0), changed(base, 0, 0)],
        "tiny frames": [small, small, changed(small, 0, 0)],
        "whole frame changes": [flat, flat + 1, flat],
    }


@pytest.mark.parametrize("case", list(_frames()))
@pytest.mark.parametrize(("frame_ms", "hold_ms"), [(100, HOLD_LAST_MS), (20, 20), (1000, 10)])
def test_the_bytes_are_pillows(tmp_path: Path, case: str, frame_ms: int, hold_ms: int) -> None:
    frames = _frames()[case]
    reference, streamed = tmp_path / "pillow.gif", tmp_path / "streamed.gif"
    pillow_gif(frames, reference, frame_ms, hold_ms)
    save_gif(iter(frames), streamed, frame_ms, hold_ms)
    assert streamed.read_bytes() == reference.read_bytes()


def test_a_game_gif_is_pillows(tmp_path: Path) -> None:
    """The frames of a real game (the renderer's), kept as `FrameExport` keeps them."""
    from pacman.agents.ghosts import RandomGhost
    from pacman.agents.simple import RandomAgent
    from pacman.display.export import FrameExport
    from pacman.display.protocol import NullDisplay
    from pacman.game import run_game
    from pacman.layout import load_layout

    export = FrameExport(NullDisplay(), gif=tmp_path / "game.gif")
    layout = load_layout("smallClassic")
    run_game(layout, RandomAgent(), [RandomGhost(1), RandomGhost(2)], seed=3, max_moves=60,
             display=export)
    assert export._renderer is not None
    frames = [frame.copy() for frame in export._decoded(export._renderer.size)]
    reference = tmp_path / "pillow.gif"
    pillow_gif(frames, reference, export.frame_ms, HOLD_LAST_MS)
    assert (tmp_path / "game.gif").read_bytes() == reference.read_bytes()


def test_no_frames_is_an_export_error(tmp_path: Path) -> None:
    with pytest.raises(ExportError, match="no frames"):
        save_gif(iter([]), tmp_path / "none.gif")
    assert not (tmp_path / "none.gif").exists()


def test_a_gif_not_written_to_the_end_is_removed(tmp_path: Path) -> None:
    frames = _frames()["changes"]

    def failing() -> Iterator[Frame]:
        yield from frames[:3]
        raise OSError(28, "No space left on device")

    path = tmp_path / "partial.gif"
    with pytest.raises(OSError, match="No space"):
        save_gif(failing(), path)
    assert not path.exists()


_PEAK = """
import resource, sys
import numpy as np
from pacman.display.export import save_gif
count = int(sys.argv[1])
rng = np.random.default_rng(1)
base = rng.integers(0, 255, (400, 600, 3), dtype=np.uint8)
def frames():
    for i in range(count):
        frame = base.copy()
        frame[(i * 7) % 390:(i * 7) % 390 + 10, (i * 13) % 590:(i * 13) % 590 + 10] = i % 251
        yield frame
save_gif(frames(), sys.argv[2], 20)
# this process's own peak (VmHWM starts again at exec; ru_maxrss keeps the forking test's)
try:
    with open("/proc/self/status") as status:
        print(next(int(line.split()[1]) for line in status if line.startswith("VmHWM:")))
except (OSError, StopIteration):
    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def test_memory_does_not_grow_with_the_frames(tmp_path: Path) -> None:
    """600 frames of 600 x 400 (a mediumClassic frame): Pillow's `save_all` held each one
    quantized and a copy (about 0.5 MB a frame, 280 MB more than 40 frames); written a frame
    at a time the peak is that of a few frames."""
    peaks = []
    for count in (40, 600):
        done = subprocess.run([sys.executable, "-c", _PEAK, str(count),
                               str(tmp_path / f"{count}.gif")],
                              capture_output=True, text=True, check=True)
        peaks.append(int(done.stdout.split()[-1]) / 1024)  # MB (both figures are in KB)
    assert peaks[1] - peaks[0] < 40, peaks
