"""Animations of a game: `--gif`/`--animation` as .gif, .webp or PNG frames, with
`--animation-fps` and `--animation-skip` (pacman.display.export, pacman.cli.options).

The reference for every frame is rendered here from what the display was shown, the way the
GIF export always worked: the start, one frame per round (rendered with the round's last
move), and the end screen in place of the final round's frame (or after it).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from conftest import optional

os.environ["SDL_VIDEODRIVER"] = "dummy"  # before pygame starts: no window on screen

import numpy as np

from pacman import GameState, load_layout, run_game
from pacman.agents.ghosts import RandomGhost
from pacman.agents.simple import GreedyAgent
from pacman.cli import main, options
from pacman.display import export
from pacman.display.export import FrameExport, frame_ms_at, kept_frames, save_gif
from pacman.display.protocol import MoveInfo, NullDisplay
from pacman.display.render import Renderer
from pacman.display.status import end_banner
from pacman.errors import ExportError
from pacman.record import GameRecord

Frames = list[Any]  # H x W x 3 uint8 arrays


class Recorder(NullDisplay):
    """The inner display of a `FrameExport`: keeps everything it is shown."""

    def start(self, state: GameState, agents: tuple[str, ...]) -> None:
        self.agents = agents
        self.shown: list[tuple[GameState, MoveInfo | None]] = [(state, None)]

    def update(self, state: GameState, move: MoveInfo) -> None:
        self.shown.append((state, move))

    def finish(self, state: GameState, record: GameRecord) -> None:
        self.final, self.record = state, record


def reference_frames(seen: Recorder) -> Frames:
    """Every frame of the game, one per round, rendered independently of `FrameExport`."""
    renderer = Renderer(seen.final.layout)
    start = seen.shown[0][0]
    frames = [renderer.render(start, seen.agents, None)]
    captured, last_pacman = start, None
    for state, move in seen.shown[1:]:
        assert move is not None
        if move.agent == 0:
            last_pacman = move
        if move.agent == state.num_agents - 1 or state.is_terminal():
            frames.append(renderer.render(state, seen.agents, move))
            captured = state
    end = renderer.render(seen.final, seen.agents, last_pacman,
                          banner=end_banner(seen.record))
    if seen.final == captured:
        frames[-1] = end
    else:
        frames.append(end)
    return frames


def play(layout: str, seed: int, max_moves: int | None, **export_args: Any
         ) -> tuple[Recorder, GameRecord]:
    seen = Recorder()
    maze = load_layout(layout)
    ghosts = [RandomGhost(index) for index in range(1, len(maze.ghost_starts) + 1)]
    record = run_game(maze, GreedyAgent(), ghosts,
                      seed=seed, max_moves=max_moves,
                      display=FrameExport(seen, **export_args))
    return seen, record


def decoded(path: Path) -> tuple[Frames, list[int]]:
    """The frames (RGB arrays) and each frame's duration in ms, as Pillow reads them."""
    from PIL import Image

    frames, durations = [], []
    with Image.open(path) as image:
        for index in range(image.n_frames):
            image.seek(index)
            image.load()  # a WebP frame's duration is known once it is decoded
            frames.append(np.asarray(image.convert("RGB")))
            durations.append(image.info["duration"])
    return frames, durations


# the games: capped after 20 rounds (21 frames); won by Pacman's 26th move, mid-round (27)
GAMES = [("smallClassic", 4, 20, 21), ("testClassic", 1, None, 27)]


# --------------------------------------------------------------------- defaults unchanged
@pytest.mark.parametrize(("layout", "seed", "max_moves", "count"), GAMES)
def test_the_default_gif_is_every_round_at_the_frame_time_as_before(
        tmp_path: Path, layout: str, seed: int, max_moves: int | None, count: int) -> None:
    optional("PIL", "gif")
    written = tmp_path / "game.gif"
    seen, _ = play(layout, seed, max_moves, gif=written)
    frames = reference_frames(seen)
    assert len(frames) == count
    expected = tmp_path / "expected.gif"
    save_gif(iter(frames), expected, 100)
    assert written.read_bytes() == expected.read_bytes()
    _, durations = decoded(written)
    assert durations == [100] * (count - 1) + [2000]


def test_png_frames_are_every_round_by_default_and_every_kth_with_skip(tmp_path: Path) -> None:
    import pygame

    from pacman.display.render import surface_to_array

    for skip, kept in ((1, list(range(21))), (3, [0, 3, 6, 9, 12, 15, 18, 20])):
        folder = tmp_path / f"frames-{skip}"
        seen, _ = play("smallClassic", 4, 20, gif=folder, skip=skip)
        frames = reference_frames(seen)
        pngs = sorted(folder.glob("frame-*.png"))
        assert [p.name for p in pngs] == [f"frame-{i:05d}.png" for i in range(len(kept))]
        assert kept_frames(len(frames), skip) == kept
        for png, index in zip(pngs, kept):
            assert (surface_to_array(pygame.image.load(str(png))) == frames[index]).all()


# --------------------------------------------------------------------- skip and fps
def test_kept_frames_are_every_kth_and_always_the_last() -> None:
    assert kept_frames(21, 1) == list(range(21))
    assert kept_frames(21, 4) == [0, 4, 8, 12, 16, 20]  # the end is a multiple of 4
    assert kept_frames(22, 4) == [0, 4, 8, 12, 16, 20, 21]
    assert kept_frames(3, 10) == [0, 2]
    assert kept_frames(1, 5) == [0]
    assert kept_frames(0, 5) == []


def test_frame_durations_are_what_the_file_can_store() -> None:
    assert frame_ms_at(10, "gif") == frame_ms_at(10, "webp") == 100
    assert frame_ms_at(30, "gif") == 30 and frame_ms_at(30, "webp") == 33  # GIF: 1/100 s
    assert frame_ms_at(40, "gif") == 30 and frame_ms_at(40, "webp") == 25  # halves up
    assert frame_ms_at(50, "gif") == frame_ms_at(50, "webp") == 20
    assert frame_ms_at(0.01, "gif") == frame_ms_at(0.01, "webp") == 100_000
    for fps in (0, -1, 50.5, float("nan")):
        with pytest.raises(ExportError, match=r"animation fps must be between 0\.01 and 50"):
            frame_ms_at(fps, "gif")
    assert (options.MIN_ANIMATION_FPS, options.MAX_ANIMATION_FPS) == (
        export.MIN_ANIMATION_FPS, export.MAX_ANIMATION_FPS)


@pytest.mark.parametrize(("layout", "seed", "max_moves", "skip", "kept"), [
    ("smallClassic", 4, 20, 4, [0, 4, 8, 12, 16, 20]),  # the end screen is a 4th round
    ("testClassic", 1, None, 4, [0, 4, 8, 12, 16, 20, 24, 26]),  # it follows the 24th
    ("testClassic", 1, None, 13, [0, 13, 26]),
    ("testClassic", 1, None, 1, list(range(27))),
])
def test_a_webp_keeps_every_kth_round_and_the_end_pixel_for_pixel(
        tmp_path: Path, layout: str, seed: int, max_moves: int | None, skip: int,
        kept: list[int]) -> None:
    optional("PIL", "gif")
    written = tmp_path / "game.webp"
    seen, _ = play(layout, seed, max_moves, gif=written, fps=20, skip=skip)
    frames = reference_frames(seen)
    assert kept_frames(len(frames), skip) == kept
    got, durations = decoded(written)
    assert len(got) == len(kept)
    for frame, index in zip(got, kept):
        assert (frame == frames[index]).all()  # lossless
    assert durations == [50] * (len(kept) - 1) + [2000]


def test_a_gif_with_fps_and_skip_keeps_the_same_frames(tmp_path: Path) -> None:
    optional("PIL", "gif")
    written = tmp_path / "game.gif"
    seen, _ = play("testClassic", 1, None, gif=written, fps=30, skip=4)
    frames = reference_frames(seen)
    expected = tmp_path / "expected.gif"
    save_gif(iter(frames[i] for i in [0, 4, 8, 12, 16, 20, 24, 26]), expected, 30)
    assert written.read_bytes() == expected.read_bytes()
    _, durations = decoded(written)
    assert durations == [30] * 7 + [2000]


# --------------------------------------------------------------------- the command line
def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, list[str]]:
    code = main(["play", "-q", "-p", "greedy", "-l", "smallClassic", "--seed", "4",
                 "--max-moves", "20", *args])
    out, err = capsys.readouterr()
    return code, out, err.splitlines()


@pytest.mark.parametrize(("name", "args", "durations"), [
    ("game.gif", [], [100] * 20 + [2000]),
    ("game.gif", ["--frame-time", "0.05"], [50] * 20 + [2000]),
    ("game.webp", [], [100] * 20 + [2000]),
    ("game.gif", ["--animation-fps", "30", "--animation-skip", "4"], [30] * 5 + [2000]),
    ("game.webp", ["--animation-fps", "30", "--animation-skip", "4"], [33] * 5 + [2000]),
    ("game.WEBP", ["--animation-skip", "7"], [100] * 3 + [2000]),  # 0, 7, 14, 20
    ("game.webp", ["--animation-fps", "50", "--frame-time", "1"], [20] * 20 + [2000]),
])
def test_the_command_line_writes_the_frames_and_durations_asked(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, args: list[str],
        durations: list[int]) -> None:
    optional("PIL", "gif")
    written = tmp_path / name
    code, out, err = run(capsys, "--animation", str(written), *args)
    assert (code, err) == (0, [])
    assert f"wrote {written}" in out
    assert decoded(written)[1] == durations
    with open(written, "rb") as file:
        magic = file.read(12)
    assert magic[:6] == b"GIF89a" if name.endswith(".gif") else magic[8:12] == b"WEBP"


def test_animation_is_another_name_for_gif(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    optional("PIL", "gif")
    one, two = tmp_path / "one.gif", tmp_path / "two.gif"
    assert run(capsys, "--gif", str(one))[0] == 0
    assert run(capsys, "--animation", str(two))[0] == 0
    assert one.read_bytes() == two.read_bytes()


@pytest.mark.parametrize(("args", "message"), [
    (["--animation-fps", "0"], "argument --animation-fps: expected a number >= 0.01 and <= 50, "
                               "got 0"),
    (["--animation-fps", "-5"], "argument --animation-fps: expected a number >= 0.01 and <= "
                                "50, got -5"),
    (["--animation-fps", "fast"], "argument --animation-fps: expected a number, got 'fast'"),
    (["--animation-fps", "inf"], "argument --animation-fps: expected a number >= 0.01"),
    (["--animation-fps", "60"], "got 60 (browsers play frames shorter than 20 ms at 10 fps; "
                                "to go through a game faster, keep fewer rounds with "
                                "--animation-skip)"),
    (["--animation-skip", "0"], "argument --animation-skip: expected a number >= 1"),
    (["--animation-skip", "-2"], "argument --animation-skip: expected a number >= 1"),
    (["--animation-skip", "1.5"], "argument --animation-skip: expected a whole number, got "
                                  "'1.5'"),
])
def test_bad_fps_and_skip_values_are_one_line_errors(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str],
        message: str) -> None:
    written = tmp_path / "game.webp"
    code, out, err = run(capsys, "--gif", str(written), *args)
    assert code == 2 and out == "" and len(err) == 1
    assert err[0].startswith("pacman: error: ") and message in err[0]
    assert not written.exists()


@pytest.mark.parametrize(("args", "message"), [
    (["--gif", "{tmp}/frames", "--animation-fps", "10"],
     "--animation-fps sets the speed of a .gif or .webp file; a folder of PNG frames "
     "({tmp}/frames) has none"),
    (["--animation-fps", "10"], "--animation-fps needs --gif/--animation FILE"),
    (["--animation-skip", "1"], "--animation-skip needs --gif/--animation FILE"),
    (["--animation", ""], "--gif/--animation needs a file name"),
    (["--animation", "{tmp}/made.webp"], "--gif/--animation {tmp}/made.webp is a folder: give "
                                         "a file name ending in .webp"),
])
def test_animation_options_that_cannot_apply_are_one_line_errors(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str],
        message: str) -> None:
    (tmp_path / "made.webp").mkdir()
    given = [arg.replace("{tmp}", str(tmp_path)) for arg in args]
    code, out, err = run(capsys, *given)
    assert code == 2 and out == "" and len(err) == 1
    assert err[0] == "pacman: error: " + message.replace("{tmp}", str(tmp_path))
    assert not (tmp_path / "frames").exists()


def test_a_pillow_without_webp_is_a_one_line_error_before_any_game(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    optional("PIL", "gif")
    from PIL import features

    real = features.check
    monkeypatch.setattr(features, "check", lambda name: False if name == "webp" else real(name))
    written = tmp_path / "game.webp"
    code, out, err = run(capsys, "--gif", str(written))
    assert code == 2 and len(err) == 1
    assert err[0].startswith("pacman: error: this Pillow cannot write WebP")
    assert "game 1" not in out and not written.exists()
    assert run(capsys, "--gif", str(tmp_path / "game.gif"))[0] == 0  # a GIF still works


def test_the_library_refuses_what_the_command_line_refuses(tmp_path: Path) -> None:
    with pytest.raises(ExportError, match="a folder of PNG frames has none"):
        FrameExport(NullDisplay(), gif=tmp_path / "frames", fps=10)
    for skip in (0, -1, 1.5, True):
        with pytest.raises(ExportError, match="frame skip must be a whole number >= 1"):
            FrameExport(NullDisplay(), gif=tmp_path / "frames", skip=skip)  # type: ignore
