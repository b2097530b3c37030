"""The pygame view without a screen: colours and shapes of rendered frames, the window's controls
driven by posted events, the keyboard agent, frame exports, and headless runs never importing
pygame."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conftest import optional

os.environ["SDL_VIDEODRIVER"] = "dummy"  # before pygame starts: no window on screen

import pygame
from pygame_events import key, wait_until

from pacman import GameState, Outcome, parse_layout, run_game
from pacman.agents.keyboard import KeyboardAgent
from pacman.display import GameRestart, render, scene, status
from pacman.display.export import FrameExport
from pacman.display.protocol import MoveInfo, NullDisplay
from pacman.display.render import TEXT_PAD, Renderer, surface_to_array
from pacman.display.scene import (
    BACKGROUND,
    FLASH_COLOR,
    FOOD_COLOR,
    GHOST_COLORS,
    PACMAN_COLOR,
    SCARED_COLOR,
    SCORE_COLOR,
    WALL_COLOR,
    Scene,
    interpolate,
)
from pacman.display.status import TYPICAL_STATUS, end_banner
from pacman.display.text import TextDisplay
from pacman.display.window import PygameWindow, WindowUnavailable, open_window
from pacman.layout import load_layout, shipped_layouts
from pacman.record import GameRecord
from pacman.rules import EAST, NORTH, SOUTH, STOP, WEST, Direction

CELL = 30
REPO = Path(__file__).resolve().parents[2]

# Food, a capsule, Pacman, four ghosts in a row, and a fifth ghost alone in a dead end.
ROW = parse_layout("""
%%%%%%%%%%%%%
%.o P GGGG%G%
%%%%%%%%%%% %
%%%%%%%%%%%%%
""", "row")

OPEN = parse_layout("""
%%%%%%%
%     %
%     %
%  P  %
%     %
%     %
%%%%%%%
""", "open")


def pixel(frame: Any, renderer: Renderer, position: tuple[float, float],
          dx: float = 0.0, dy: float = 0.0) -> tuple[int, int, int]:
    """The colour at a board position, offset by (dx, dy) cells (dy up the board)."""
    px, py = renderer.to_pixels((position[0] + dx, position[1] + dy))
    r, g, b = frame[int(py), int(px)]
    return int(r), int(g), int(b)


def moved(state: GameState, *steps: tuple[int, Direction]) -> GameState:
    for agent, action in steps:
        state = state.successor(agent, action)
    return state


# --------------------------------------------------------------------- rendering
def test_colours_at_cell_centres() -> None:
    renderer = Renderer(ROW, cell_size=CELL)
    state = GameState.initial(ROW)
    frame = renderer.render(state)
    assert frame.shape == (ROW.height * CELL + renderer.status_height, ROW.width * CELL, 3)
    assert frame.dtype.name == "uint8"
    assert pixel(frame, renderer, (1, 2)) == FOOD_COLOR
    assert pixel(frame, renderer, (2, 2)) == FOOD_COLOR  # the capsule
    assert pixel(frame, renderer, (3, 2)) == BACKGROUND
    # The capsule is large, a food dot small.
    assert pixel(frame, renderer, (2, 2), dx=0.2) == FOOD_COLOR
    assert pixel(frame, renderer, (1, 2), dx=0.2) == BACKGROUND
    # Pacman faces East at the start: yellow behind the centre.
    assert pixel(frame, renderer, (4, 2), dx=-0.25) == PACMAN_COLOR
    for index, position in enumerate(state.ghost_positions):
        assert pixel(frame, renderer, position) == GHOST_COLORS[index % len(GHOST_COLORS)]
    assert len(set(GHOST_COLORS[:4])) == 4


def test_walls_are_outlines_not_filled_squares() -> None:
    renderer = Renderer(ROW, cell_size=CELL)
    frame = renderer.render(GameState.initial(ROW))
    # (6, 3) is in the middle of the top border: a horizontal tube, its outline above and below
    # the centre line, black inside.
    assert pixel(frame, renderer, (6, 3)) == BACKGROUND
    assert pixel(frame, renderer, (6, 3), dy=0.12) == WALL_COLOR
    assert pixel(frame, renderer, (6, 3), dy=-0.12) == WALL_COLOR
    assert pixel(frame, renderer, (6, 3), dy=-0.3) == BACKGROUND
    # (10, 2) is a wall between two open cells (a vertical tube): outline left and right.
    assert pixel(frame, renderer, (10, 2), dx=-0.12) == WALL_COLOR
    assert pixel(frame, renderer, (10, 2), dx=0.12) == WALL_COLOR
    assert pixel(frame, renderer, (10, 2)) == BACKGROUND
    board = frame[:ROW.height * CELL]
    blue = (board == WALL_COLOR).all(axis=2).mean()
    walls = len(ROW.walls) / (ROW.width * ROW.height)
    assert 0.02 < blue < 0.25 * walls  # lines, not filled squares


def test_the_maze_is_rasterised_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    original = render.wall_coverage

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(render, "wall_coverage", counting)
    renderer = Renderer(OPEN, cell_size=CELL)
    state = GameState.initial(OPEN)
    for action in (EAST, NORTH, WEST):
        state = state.successor(0, action)
        renderer.render(state)
    assert calls == [1]


@pytest.mark.parametrize("facing", [EAST, WEST, NORTH, SOUTH])
def test_mouth_opens_towards_the_facing_direction(facing: Direction) -> None:
    renderer = Renderer(OPEN, cell_size=CELL)
    state = moved(GameState.initial(OPEN), (0, facing))
    assert state.pacman_direction is facing
    frame = renderer.render(state, mouth=60)
    dx, dy = facing.vector
    at = state.pacman_position
    assert pixel(frame, renderer, at, 0.35 * dx, 0.35 * dy) == BACKGROUND   # the open mouth
    assert pixel(frame, renderer, at, -0.35 * dx, -0.35 * dy) == PACMAN_COLOR
    side = (0.35 * dy, 0.35 * dx)  # across the facing direction: still Pacman
    assert pixel(frame, renderer, at, *side) == PACMAN_COLOR


def test_stop_keeps_the_facing_and_a_closed_mouth_has_no_gap() -> None:
    renderer = Renderer(OPEN, cell_size=CELL)
    state = moved(GameState.initial(OPEN), (0, NORTH), (0, STOP))
    assert state.pacman_direction is NORTH
    frame = renderer.render(state, mouth=0)
    assert pixel(frame, renderer, state.pacman_position, dy=0.35) == PACMAN_COLOR


def test_scared_and_flashing_ghosts() -> None:
    renderer = Renderer(ROW, cell_size=CELL)
    state = moved(GameState.initial(ROW), (0, WEST), (0, WEST))  # Pacman eats the capsule
    assert state.scared_timers == (40,) * 5
    frame = renderer.render(state)
    for position in state.ghost_positions:
        assert pixel(frame, renderer, position) == SCARED_COLOR
    for _ in range(30):  # ghost 5 paces its dead end; its timer runs down to 10
        state = state.successor(5, state.legal_actions(5)[0])
    assert state.scared_timers[4] == 10
    assert scene.ghost_look(10) == "flash"
    frame = renderer.render(state)
    assert pixel(frame, renderer, state.ghost_positions[4]) == FLASH_COLOR
    assert pixel(frame, renderer, state.ghost_positions[0]) == SCARED_COLOR
    looks = [scene.ghost_look(t) for t in range(scene.FLASH_TIME, 0, -1)]
    assert {"flash", "scared"} <= set(looks)  # it blinks
    assert scene.ghost_look(0) == "normal" and scene.ghost_look(40) == "scared"


def test_status_bar_follows_the_score() -> None:
    renderer = Renderer(OPEN, cell_size=CELL)
    agents = ("AlphaBetaAgent depth=3 better",)
    start = GameState.initial(OPEN)
    later = moved(start, (0, EAST), (0, EAST))
    assert later.score != start.score
    top = OPEN.height * CELL
    first = renderer.render(start, agents)[top:]
    second = renderer.render(later, agents)[top:]
    again = renderer.render(start, agents)[top:]
    assert (first != second).any()
    assert (first == again).all()
    lines = status.status_lines(later, agents, None)
    assert lines[0] == f"Score: {later.score}    Moves: 0"
    assert lines[1] == "AlphaBetaAgent depth=3 better"


def test_status_lines_show_agents_and_search_figures() -> None:
    from pacman.display.protocol import MoveInfo
    state = GameState.initial(ROW)
    lines = status.status_lines(state, ("MinimaxAgent depth=2", "RandomGhost", "RandomGhost",
                                        "DirectionalGhost"), MoveInfo(0, "West", 0.25, 1234, 7))
    assert lines[0].endswith("Moves: 7")
    assert lines[1] == "MinimaxAgent depth=2 vs 2 x RandomGhost, DirectionalGhost"
    assert lines[2] == "last move: 1,234 nodes in 250.0 ms"


def test_gliding_puts_pacman_between_cells_and_opens_the_mouth() -> None:
    renderer = Renderer(OPEN, cell_size=CELL)
    before = GameState.initial(OPEN)
    after = before.successor(0, EAST)
    half = interpolate(before, after, 0.5)
    assert half.pacman == (3.5, 3.0)
    assert half.mouth > interpolate(before, after, 0.0).mouth
    surface = pygame.Surface(renderer.size)
    renderer.draw(surface, half)
    frame = render.surface_to_array(surface)
    assert pixel(frame, renderer, (3.5, 3), dx=-0.25) == PACMAN_COLOR
    # An eaten ghost going home jumps instead of gliding through walls.
    assert scene._between((1, 1), (5, 4), 0.5) == (5, 4)


def test_render_needs_no_display_module() -> None:
    assert Scene.still(GameState.initial(OPEN)).pacman == (3, 3)
    frame = render.render_frame(GameState.initial(OPEN), zoom=0.5, status_bar=False)
    assert frame.shape == (OPEN.height * 15, OPEN.width * 15, 3)


# --------------------------------------------------------------------- the status bar
def text_columns(frame: Any, top: int) -> Any:
    """The columns of the status bar (from row `top`) that hold any text pixel."""
    return (frame[top:] != BACKGROUND).any(axis=2).any(axis=0).nonzero()[0]


@pytest.mark.parametrize("name", shipped_layouts())
@pytest.mark.parametrize("zoom", [0.5, 1.0, 2.0])
def test_the_status_bar_is_whole_on_every_shipped_layout(name: str, zoom: float) -> None:
    layout = load_layout(name)
    renderer = Renderer(layout, zoom)
    width = renderer.size[0] - 2 * TEXT_PAD
    rows = renderer._status_rows(TYPICAL_STATUS)
    # every part of the usual lines is there, none cut short, none too wide
    assert " ".join(text for _, text in rows).split() == " ".join(TYPICAL_STATUS).split()
    assert all(renderer.font.size(text)[0] <= width for _, text in rows)
    assert len(rows) <= renderer.status_rows
    surface = pygame.Surface(renderer.size)
    renderer.draw(surface, Scene.still(GameState.initial(layout)), TYPICAL_STATUS)
    columns = text_columns(surface_to_array(surface), renderer.board_height)
    assert columns.min() >= TEXT_PAD - 1 and columns.max() <= renderer.size[0] - TEXT_PAD


def test_a_small_maze_sits_centred_above_a_wider_status_bar() -> None:
    tiny, medium = (Renderer(load_layout(name)) for name in ("testClassic", "mediumClassic"))
    assert tiny.board_width == 5 * CELL < tiny.size[0]
    assert tiny.board_left == (tiny.size[0] - tiny.board_width) // 2
    assert medium.size[0] == medium.board_width and medium.board_left == 0
    assert tiny.status_rows > medium.status_rows == 3  # narrow: lines wrap into more rows
    frame = tiny.render(GameState.initial(tiny.layout))
    # the margins beside the maze are background; the maze's walls start at board_left
    assert (frame[:tiny.board_height, :tiny.board_left - 1] == BACKGROUND).all()
    assert (frame[:tiny.board_height, tiny.board_left:tiny.board_left + CELL]
            == WALL_COLOR).all(axis=2).any()


def test_long_status_lines_wrap_and_only_overflow_is_cut() -> None:
    measure = len  # one "pixel" per character
    assert status.wrap_text("Score: 5    Moves: 9", 12, measure) == ["Score: 5", "Moves: 9"]
    assert status.wrap_text("a bb ccc dddd", 8, measure) == ["a bb ccc", "dddd"]
    assert status.wrap_text("abcdefghijkl", 8, measure) == ["abcde..."]
    rows = status.status_rows(("one", "two two two two", "three three three"), 11, 3,
                              measure)
    assert rows == [(0, "one"), (1, "two two ..."), (2, "three ...")]
    assert all(len(text) <= 11 for _, text in rows)


# --------------------------------------------------------------------- the text display
def test_text_display_shows_pacmans_move_and_the_ghosts_replies() -> None:
    layout = load_layout("smallClassic")
    out = io.StringIO()

    class Recorder(TextDisplay):
        def __init__(self, out: io.StringIO) -> None:
            super().__init__(out)
            self.states: list[GameState] = []

        def update(self, state: GameState, move: MoveInfo) -> None:
            super().update(state, move)
            self.states.append(state)

    from pacman.agents.ghosts import RandomGhost
    from pacman.agents.simple import GreedyAgent
    display = Recorder(out)
    record = run_game(layout, GreedyAgent(), [RandomGhost(1), RandomGhost(2)], seed=2,
                      max_moves=12, display=display)
    headers = [line for line in out.getvalue().splitlines() if line.startswith("move ")]
    assert len(headers) == record.pacman_moves == 12
    for number, header in enumerate(headers):
        pacman, ghost1, ghost2 = record.actions[3 * number:3 * number + 3]
        assert header == (f"move {number + 1}: Pacman {pacman}, ghost 1 {ghost1}, "
                          f"ghost 2 {ghost2}")
    # each board's score line is the score of the state after that round
    scores = [line for line in out.getvalue().splitlines() if line.startswith("Score: ")]
    assert scores[1:] == [f"Score: {state.score}" for state in display.states[2::3]]
    assert out.getvalue().endswith(f"CAPPED: score {record.score} after 12 Pacman moves\n")


def test_text_display_shows_a_round_cut_short() -> None:
    out = io.StringIO()
    display = TextDisplay(out)
    state = GameState.initial(ROW)
    display.start(state, ("Pacman",))
    after = state.successor(0, WEST)
    display.update(after, MoveInfo(0, "West", 0.0, None, 1))
    record = GameRecord("row", 0, ("A",) * 6, Outcome.CRASH, after.score, 1, ("West",), 1,
                        "RuntimeError: boom")
    display.finish(after, record)
    lines = out.getvalue().splitlines()
    assert "move 1: Pacman West" in lines
    assert lines[-1] == f"CRASH: score {after.score} after 1 Pacman moves (RuntimeError: boom)"


# --------------------------------------------------------------------- the window's controls
class Shuttle:
    """Pacman pacing East and West forever (the tests end the game)."""

    def __init__(self) -> None:
        self.calls = 0

    def get_action(self, state: GameState) -> Direction:
        self.calls += 1
        legal = state.legal_actions(0)
        return EAST if self.calls % 2 and EAST in legal else WEST if WEST in legal else STOP



def drive(script: Callable[[list[str]], None]) -> tuple[threading.Thread, list[str]]:
    """Run `script` (posting events) beside the game; it records failed checks."""
    failures: list[str] = []

    def run() -> None:
        try:
            script(failures)
        except Exception as error:  # reported by the test
            failures.append(repr(error))
        finally:
            if failures:
                key(pygame.K_q)  # never leave the game hanging

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, failures


@pytest.fixture
def window() -> Any:
    display = open_window(frame_time=0.0, end_wait=0, allow_dummy=True)
    pygame.event.clear()
    yield display
    display.close()


def test_pause_stops_the_game_and_step_advances_one_move(window: PygameWindow) -> None:
    pacman = Shuttle()
    seen: dict[str, int] = {}

    def script(failures: list[str]) -> None:
        if not wait_until(lambda: pacman.calls > 3):
            failures.append("the game did not start")
        key(pygame.K_SPACE)
        if not wait_until(lambda: window.blocked == "paused"):
            failures.append("space did not pause")
        seen["paused"] = pacman.calls
        time.sleep(0.3)
        seen["later"] = pacman.calls
        key(pygame.K_n)
        time.sleep(0.3)
        if not wait_until(lambda: window.blocked == "paused"):
            failures.append("the step did not pause again")
        seen["stepped"] = pacman.calls
        key(pygame.K_q)

    thread, failures = drive(script)
    record = run_game(OPEN, pacman, [], seed=1, max_moves=100_000, display=window)
    thread.join(10)
    assert not failures
    assert seen["later"] == seen["paused"]
    assert seen["stepped"] == seen["paused"] + 1
    assert record.outcome is Outcome.STOPPED
    assert record.pacman_moves == seen["stepped"]


def test_closing_the_window_stops_the_game(window: PygameWindow) -> None:
    pacman = Shuttle()

    def script(failures: list[str]) -> None:
        wait_until(lambda: pacman.calls > 5)
        pygame.event.post(pygame.event.Event(pygame.QUIT))

    thread, failures = drive(script)
    record = run_game(OPEN, pacman, [], seed=1, max_moves=1_000_000, display=window)
    thread.join(10)
    assert not failures
    assert record.outcome is Outcome.STOPPED
    assert window.quit_requested


def test_r_restarts_the_game(window: PygameWindow) -> None:
    pacman = Shuttle()

    def script(failures: list[str]) -> None:
        wait_until(lambda: pacman.calls > 5)
        key(pygame.K_r)

    thread, failures = drive(script)
    with pytest.raises(GameRestart):
        run_game(OPEN, pacman, [], seed=1, max_moves=1_000_000, display=window)
    thread.join(10)
    assert not failures


def test_speed_keys_change_the_frame_time(window: PygameWindow) -> None:
    window.frame_time = 0.1
    key(pygame.K_MINUS)
    window.take_direction()  # any call that reads the events
    assert window.frame_time == pytest.approx(0.15)
    key(pygame.K_PLUS)
    key(pygame.K_PLUS)
    window.take_direction()
    assert window.frame_time == pytest.approx(0.1 / 1.5)
    for _ in range(12):
        key(pygame.K_PLUS)
    window.take_direction()
    assert window.frame_time == 0.0  # as fast as possible


def test_frames_glide_when_there_is_a_frame_time() -> None:
    display = open_window(frame_time=0.1, end_wait=0, allow_dummy=True)
    try:
        pacman = Shuttle()
        record = run_game(OPEN, pacman, [], seed=1, max_moves=5, display=display)
        assert record.outcome is Outcome.CAPPED
        assert display.frames_drawn >= 5 * 4  # several interpolated frames per move
    finally:
        display.close()


CORNER = parse_layout("""
%%%%%%%
%. P  %
%%% %%%
%%%.%%%
%%%%%%%
""", "corner")


def test_keyboard_agent_follows_arrows_waits_and_turns_at_the_first_opening(
        window: PygameWindow) -> None:
    pacman = KeyboardAgent()
    pacman.attach(window)

    def script(failures: list[str]) -> None:
        # LEFT was posted before the game: Pacman runs West, eats, stops at the wall, waits.
        if not wait_until(lambda: window.blocked == "input"):
            failures.append("the agent did not wait at the wall")
            return
        state = window.state
        if state is None or state.pacman_position != (1, 3):
            failures.append(f"expected Pacman at (1, 3), got {state}")
        key(pygame.K_SPACE)  # pause after the next move...
        key(pygame.K_RIGHT)  # ...which goes East
        if not wait_until(lambda: window.blocked == "paused"):
            failures.append("no pause")
            return
        key(pygame.K_DOWN)   # blocked right now: remembered
        key(pygame.K_n)      # one step: still East
        time.sleep(0.2)
        if not wait_until(lambda: window.blocked == "paused"):
            failures.append("no pause after the step")
            return
        key(pygame.K_SPACE)  # go on: South at the first opening, eat the last food

    key(pygame.K_LEFT)
    thread, failures = drive(script)
    record = run_game(CORNER, pacman, [], seed=1, max_moves=100, display=window)
    thread.join(10)
    assert not failures
    assert record.actions == ("West", "West", "East", "East", "South", "South")
    assert record.outcome is Outcome.WIN


def test_keyboard_agent_needs_a_window() -> None:
    from pacman.display.text import TextDisplay
    with pytest.raises(ValueError, match="window"):
        KeyboardAgent().attach(TextDisplay())


def test_a_dummy_driver_is_not_a_window(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(WindowUnavailable, match="dummy"):
        open_window()
    monkeypatch.delenv("SDL_VIDEODRIVER")
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    if sys.platform.startswith("linux"):
        with pytest.raises(WindowUnavailable, match="DISPLAY"):
            open_window()


# --------------------------------------------------------------------- the command line
def run_cli(*args: str, extra_env: dict[str, str] | None = None
            ) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY",
                                                            "SDL_VIDEODRIVER")}
    env.update(extra_env or {})
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env,
                          cwd=REPO, timeout=60)


@pytest.mark.parametrize("view", ["-q", "-t"])
def test_headless_runs_never_import_pygame(view: str) -> None:
    code = ("import sys, pacman.cli; rc = pacman.cli.main(['play', '" + view + "', '-p', "
            "'greedy', '-l', 'smallClassic', '--seed', '1', '--max-moves', '30', "
            "'--frame-time', '0']); import importlib.util\n"
            "if importlib.util.find_spec('pacman.experiments'): import pacman.experiments\n"
            "print(rc, 'pygame' in sys.modules)")
    result = run_cli("-c", code)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "0 False"


def test_no_display_falls_back_to_text_with_a_notice() -> None:
    result = run_cli("-m", "pacman", "play", "-p", "greedy", "-l", "smallClassic", "--seed",
                     "2", "--max-moves", "3", "--frame-time", "0")
    assert result.returncode == 0, result.stderr
    assert result.stderr.count("\n") == 1
    assert "no window" in result.stderr and "text display" in result.stderr
    assert "Score: " in result.stdout and "Average Score" in result.stdout


def test_keyboard_without_a_window_is_a_one_line_error() -> None:
    result = run_cli("-m", "pacman", "play", "-p", "keyboard", "-l", "smallClassic")
    assert result.returncode == 2
    assert "keyboard agent needs the window" in result.stderr
    assert "Traceback" not in result.stderr


def test_screenshot_and_png_frames_headless(tmp_path: Path) -> None:
    shot, frames = tmp_path / "last.png", tmp_path / "frames"
    result = run_cli("-m", "pacman", "play", "-q", "-p", "greedy", "-l", "smallClassic",
                     "--seed", "4", "--max-moves", "6", "--screenshot", str(shot),
                     "--gif", str(frames))
    assert result.returncode == 0, result.stderr
    assert f"wrote {shot}" in result.stdout
    image = pygame.image.load(str(shot))
    assert image.get_size()[0] == 20 * CELL
    pngs = sorted(frames.glob("frame-*.png"))
    assert len(pngs) == 1 + 6  # the start, then one per move
    first, last = (pygame.image.tobytes(pygame.image.load(str(p)), "RGB")
                   for p in (pngs[0], pngs[-1]))
    assert first != last


# --------------------------------------------------------------------- the end screen saved
# A maze Pacman wins in three moves, against a ghost shut in its own corridor.
SPRINT = parse_layout("""
%%%%%%%%%%%%
%P...      %
%%%%%%%%%%%%
%G         %
%%%%%%%%%%%%
""", "sprint")


class East:
    def get_action(self, state: GameState) -> Direction:
        return EAST


class Pacer:
    def get_action(self, state: GameState) -> Direction:
        return state.legal_actions(1)[0]


def board_of(frame: Any, renderer: Renderer) -> Any:
    return frame[:renderer.board_height]


def yellow_text(frame: Any, renderer: Renderer) -> int:
    """Pixels of the end box's title colour over the board (never part of a game board)."""
    return int((board_of(frame, renderer) == SCORE_COLOR).all(axis=2).sum())


def test_screenshot_shows_the_end_box_headless(tmp_path: Path) -> None:
    shot = tmp_path / "last.png"
    export = FrameExport(NullDisplay(), screenshot=shot)
    record = run_game(SPRINT, East(), [Pacer()], seed=1, display=export)
    assert record.outcome is Outcome.WIN and record.pacman_moves == 3
    saved = surface_to_array(pygame.image.load(str(shot)))
    renderer = Renderer(SPRINT)
    final = GameState.initial(SPRINT)
    for number, action in enumerate(record.actions):
        final = final.successor(number % 2, Direction(action))
    plain = renderer.render(final, record.agents, MoveInfo(0, "East", 0, None, 3))
    boxed = renderer.render(final, record.agents, MoveInfo(0, "East", 0, None, 3),
                            banner=end_banner(record))
    assert end_banner(record) == ["Pacman wins!", f"score {final.score} after 3 moves"]
    assert (saved == boxed).all() and (saved != plain).any()
    # a maze this small keeps all of its board in sight: the box takes the status rows' place
    assert (board_of(saved, renderer) == board_of(plain, renderer)).all()
    assert yellow_text(plain, renderer) == 0


def test_screenshot_is_the_windows_end_screen(tmp_path: Path) -> None:
    shot = tmp_path / "last.png"
    window = open_window(frame_time=0.01, end_wait=0, allow_dummy=True)
    try:
        export = FrameExport(window, screenshot=shot)
        record = run_game(SPRINT, East(), [Pacer()], seed=1, display=export)
        assert record.outcome is Outcome.WIN
        shown = surface_to_array(pygame.display.get_surface()).copy()
    finally:
        window.close()
    saved = surface_to_array(pygame.image.load(str(shot)))
    renderer = Renderer(SPRINT)
    assert shown.shape == saved.shape
    # the board pixel for pixel, and the end box in the status rows' place (a maze this
    # small keeps its board in sight), the same in both
    assert (board_of(shown, renderer) == board_of(saved, renderer)).all()
    below = slice(renderer.board_height, None)
    assert (shown[below] == saved[below]).all()
    assert int((saved[below] == SCORE_COLOR).all(axis=2).sum()) > 50


def test_a_stopped_game_has_no_end_box(tmp_path: Path) -> None:
    class Quitter(NullDisplay):
        def update(self, state: GameState, move: MoveInfo) -> None:
            from pacman.display import GameStopped
            raise GameStopped

    shot = tmp_path / "last.png"
    record = run_game(SPRINT, East(), [Pacer()], seed=1,
                      display=FrameExport(Quitter(), screenshot=shot))
    assert record.outcome is Outcome.STOPPED and end_banner(record) == []
    assert yellow_text(surface_to_array(pygame.image.load(str(shot))), Renderer(SPRINT)) == 0


def test_screenshot_on_the_command_line_with_q_has_the_end_box(tmp_path: Path) -> None:
    shot, frames = tmp_path / "last.png", tmp_path / "frames"
    result = run_cli("-m", "pacman", "play", "-q", "-p", "greedy", "-l", "testClassic",
                     "--seed", "1", "--screenshot", str(shot), "--gif", str(frames))
    assert result.returncode == 0, result.stderr
    renderer = Renderer(load_layout("testClassic"))
    saved = surface_to_array(pygame.image.load(str(shot)))
    assert saved.shape[:2] == (renderer.size[1], renderer.size[0])
    assert yellow_text(saved, renderer) > 50
    pngs = sorted(frames.glob("frame-*.png"))
    last = surface_to_array(pygame.image.load(str(pngs[-1])))
    before = surface_to_array(pygame.image.load(str(pngs[-2])))
    assert (last == saved).all()  # the animation ends on the same end screen
    assert yellow_text(before, renderer) == 0


def test_gif_export(tmp_path: Path) -> None:
    optional("PIL", "gif")
    from PIL import Image
    gif = tmp_path / "game.gif"
    result = run_cli("-m", "pacman", "play", "-q", "-p", "greedy", "-l", "smallClassic",
                     "--seed", "4", "--max-moves", "5", "--gif", str(gif))
    assert result.returncode == 0, result.stderr
    with Image.open(gif) as image:
        assert image.n_frames == 1 + 5
        assert image.size[0] == 20 * CELL


def test_gif_without_pillow_is_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "PIL"
    blocker.mkdir()
    (blocker / "__init__.py").write_text("raise ImportError('no Pillow here')\n")
    result = run_cli("-m", "pacman", "play", "-q", "-p", "greedy", "-l", "smallClassic",
                     "--gif", str(tmp_path / "x.gif"),
                     extra_env={"PYTHONPATH": str(tmp_path)})
    assert result.returncode == 2
    from pacman.extras import install_command

    assert install_command("gif") in result.stderr
    assert "Traceback" not in result.stderr
