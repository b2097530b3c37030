"""The live web view (`pacman play --ui web`): real games served to headless Chromium.

The page loads nothing but from its own server, draws the maze, follows the game, takes a
keyboard Pacman's keys, pauses and steps; the game it shows is the game `-q` plays with the
same seed; the server answers only 127.0.0.1 with its token, Host and Origin, and stops with
the games (or Ctrl-C) leaving no thread or process behind.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from pacman import GameState, load_layout, run_game
from pacman.agents.registry import make_agent
from pacman.replay import load_replay
from pacman.rules import Direction
from pacman.web.live import LiveView

KEY_OF = {Direction.NORTH: "ArrowUp", Direction.SOUTH: "ArrowDown", Direction.WEST: "ArrowLeft",
          Direction.EAST: "ArrowRight"}
STEP = {Direction.NORTH: (0, 1), Direction.SOUTH: (0, -1), Direction.WEST: (-1, 0),
        Direction.EAST: (1, 0)}


# ------------------------------------------------------------------------------- helpers
class Run:
    """`pacman play --ui web --no-browser ...` in a child process, and its page's address."""

    def __init__(self, folder: Path, *argv: str) -> None:
        env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "pacman", "play", "--ui", "web", "--no-browser", *argv],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=folder, env=env)
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)/\?token=[\w-]+", line)
        assert found, (line, self.stderr_now())
        self.url = found.group(0)
        self.port = int(found.group(1))
        self.origin = f"http://127.0.0.1:{self.port}"
        self.first_line = line

    def stderr_now(self) -> str:
        if self.process.poll() is None:
            return ""
        return self.process.stderr.read() if self.process.stderr else ""

    def finish(self, timeout: float = 60) -> tuple[int, str, str]:
        out, err = self.process.communicate(timeout=timeout)
        return self.process.returncode, out, err

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.communicate()


@pytest.fixture
def runs() -> Iterator[list[Run]]:
    """The runs a test starts, killed at its end if they are still going."""
    started: list[Run] = []
    yield started
    for run in started:
        run.kill()


def start(runs: list[Run], folder: Path, *argv: str) -> Run:
    run = Run(folder, *argv)
    runs.append(run)
    return run


def open_live(visit: Any, run: Run) -> Any:
    page = visit.page
    page.goto(run.url)
    page.wait_for_selector("body[data-live=true]")
    return page


def attribute(page: Any, name: str) -> str:
    return str(page.locator("body").get_attribute(name) or "")


def wait_until(check: Any, seconds: float = 30) -> None:
    """Poll `check()` until it is true (the page's policy forbids `wait_for_function`'s
    string evaluation)."""
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "the page never got there"
        time.sleep(0.02)


def pacman_cell(page: Any) -> tuple[int, int]:
    text = page.locator('.agent-row[data-agent="0"] .agent-position').inner_text()
    x, y = text.split(",")
    return int(x), int(y)


def play_quiet(folder: Path, name: str, *argv: str) -> Path:
    """The same game played by `pacman play -q ... --record NAME`."""
    path = folder / name
    done = subprocess.run([sys.executable, "-m", "pacman", "play", "-q", "--record", str(path),
                           *argv], capture_output=True, text=True, cwd=folder, timeout=120)
    assert done.returncode == 0, done.stderr
    return path


def refused(port: int) -> bool:
    """Nothing listens on 127.0.0.1:PORT any more."""
    try:
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
    except ConnectionRefusedError:
        return True
    return False


def same_game(live: Path, quiet: Path) -> None:
    """The two replays hold the same game: record (its compared fields: actions, outcome,
    score, moves, nodes, traces, seed, agents) and digest."""
    a, b = load_replay(live), load_replay(quiet)
    assert a.record == b.record
    assert a.record.actions  # a game was played
    assert json.loads(live.read_text())["digest"] == json.loads(quiet.read_text())["digest"]


# ------------------------------------------------------------------------------- the page
GAME = ("-p", "alphabeta", "-l", "smallClassic", "--seed", "3", "--max-moves", "40", "--trace")


def test_the_page_shows_the_game_of_q_and_asks_only_its_own_server(
        visit: Any, runs: list[Run], tmp_path: Path) -> None:
    run = start(runs, tmp_path, *GAME, "--frame-time", "0", "--record", "live.json")
    assert run.first_line.startswith("pacman: watch the game at http://127.0.0.1:")
    page = open_live(visit, run)
    page.wait_for_selector("body[data-ended=true]", timeout=60_000)
    # the maze: walls, dots and Pacman drawn in the page's SVG
    assert page.locator("#maze #walls path").count() >= 2
    assert page.locator("#maze .food").count() == len(load_layout("smallClassic").food)
    assert page.locator("#pacman").get_attribute("d")
    assert page.locator("#maze").bounding_box()["width"] > 300
    code, out, err = run.finish()
    assert code == 0, err
    assert "Record:        Capped" in out
    assert all(url.startswith(run.origin + "/") for url in visit.requests), visit.requests
    assert {urlsplit(url).path for url in visit.requests} == {"/", "/events", "/command"}
    assert visit.errors == []
    same_game(tmp_path / "live.json", play_quiet(tmp_path, "quiet.json", *GAME))
    actions = len(load_replay(tmp_path / "live.json").record.actions)
    # the finished game is the replay viewer's, at its end: scrub it back to the start
    assert page.locator("#moves-total").inner_text() == str(actions)
    assert page.locator("#outcome").inner_text().lower() == "capped"
    assert page.locator("#scrub").is_visible()
    page.locator("#scrub").fill("0")
    assert page.locator("#move").inner_text() == "0"
    assert pacman_cell(page) == load_layout("smallClassic").pacman_start
    assert page.locator("#search-move").inner_text() == "Pacman move 1"  # the traced search
    assert page.locator("#search-method").inner_text() == "alphabeta"
    assert refused(run.port)


def test_a_key_press_in_the_page_moves_the_keyboard_pacman(
        visit: Any, runs: list[Run], tmp_path: Path) -> None:
    layout = load_layout("smallClassic")
    legal = [d for d in GameState.initial(layout).legal_actions(0) if d is not Direction.STOP]
    direction = legal[0]
    run = start(runs, tmp_path, "-p", "keyboard", "-l", "smallClassic", "--seed", "1",
                "--frame-time", "0.2", "--record", "keys.json")
    page = open_live(visit, run)
    page.wait_for_selector('body[data-live-state="input"]')  # Pacman waits for a key
    assert pacman_cell(page) == layout.pacman_start
    assert page.locator("#search-none").inner_text() == (
        "No search traces in this game (play it with --trace to see Pacman's search).")
    page.keyboard.press(KEY_OF[direction])
    wait_until(lambda: pacman_cell(page) != layout.pacman_start)
    dx, dy = STEP[direction]
    assert pacman_cell(page) == (layout.pacman_start[0] + dx, layout.pacman_start[1] + dy)
    page.locator("#live-stop").click()
    page.wait_for_selector("body[data-ended=true]")
    code, out, err = run.finish()
    assert code == 0, err
    assert "Outcomes:      stopped 1" in out
    record = load_replay(tmp_path / "keys.json").record
    assert record.outcome.value == "stopped"
    assert record.actions[0] == direction.value
    assert visit.errors == []


def test_pause_step_and_restart_keep_the_game_of_q(
        visit: Any, runs: list[Run], tmp_path: Path) -> None:
    run = start(runs, tmp_path, *GAME, "--frame-time", "0.05", "--record", "live.json")
    page = open_live(visit, run)
    wait_until(lambda: int(attribute(page, "data-step") or 0) >= 6)
    page.locator("#live-pause").click()
    page.wait_for_selector('body[data-live-state="paused"]')
    moves, step = int(attribute(page, "data-moves")), int(attribute(page, "data-step"))
    assert step == 3 * moves  # paused at the end of a round: Pacman and both ghosts moved
    time.sleep(0.3)  # six rounds' time: a pause that did not hold would have moved on
    assert int(attribute(page, "data-step")) == step
    assert page.locator("#live-pause").inner_text() == "go on"
    page.locator("#live-step").click()  # one round: Pacman's move and the ghosts' replies
    wait_until(lambda: attribute(page, "data-moves") == str(moves + 1)
               and attribute(page, "data-live-state") == "paused")
    assert int(attribute(page, "data-step")) == step + 3
    page.locator("#live-restart").click()  # the same game again, from its start
    page.wait_for_selector('body[data-starts="2"]')
    assert attribute(page, "data-game") == "1"
    page.locator("#live-speed").select_option("0")  # then as fast as the agents play
    page.wait_for_selector("body[data-ended=true]", timeout=60_000)
    code, out, err = run.finish()
    assert code == 0, err
    assert "Record:        Capped" in out
    same_game(tmp_path / "live.json", play_quiet(tmp_path, "quiet.json", *GAME))
    assert visit.errors == []


def test_several_games_each_kept_to_scrub(visit: Any, runs: list[Run], tmp_path: Path) -> None:
    run = start(runs, tmp_path, "-p", "greedy", "-l", "smallClassic", "--seed", "5", "-n", "2",
                "--max-moves", "15", "--frame-time", "0", "--record-dir", "games")
    page = open_live(visit, run)
    page.wait_for_selector("body[data-ended=true]", timeout=60_000)
    code, _out, err = run.finish()
    assert code == 0, err
    records = [load_replay(path).record for path in sorted((tmp_path / "games").iterdir())]
    assert [r.seed for r in records] == [5, 6]
    options = page.locator("#live-games option").all_inner_texts()
    assert options == ["the game being played"] + [
        f"game {i} (seed {r.seed}): {r.outcome.value}, score {r.score}"
        for i, r in enumerate(records, 1)]
    assert page.locator("#live-games").input_value() == "2"  # the last game, at its end
    assert page.locator("#move").inner_text() == str(len(records[1].actions))
    page.locator("#live-games").select_option("1")
    assert page.locator("#title").inner_text().startswith("smallClassic, seed 5:")
    assert page.locator("#moves-total").inner_text() == str(len(records[0].actions))


# ------------------------------------------------------------------------------- the server
def request(port: int, path: str, *, host: str | None = None, method: str = "GET",
            body: bytes | None = None, headers: dict[str, str] | None = None
            ) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.putrequest(method, path, skip_host=True)
        connection.putheader("Host", host if host is not None else f"127.0.0.1:{port}")
        for name, value in (headers or {}).items():
            connection.putheader(name, value)
        if body is not None:
            connection.putheader("Content-Length", str(len(body)))
        connection.endheaders(body)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def test_the_server_answers_only_its_token_host_and_origin() -> None:
    before = set(threading.enumerate())
    view = LiveView(GameState.initial(load_layout("smallClassic")), grace=0)
    port, token = view.port, view.token
    try:
        assert view._server.server_address[0] == "127.0.0.1"
        assert view.url == f"http://127.0.0.1:{port}/?token={token}"
        status, page = request(port, f"/?token={token}")
        assert status == 200 and b'id="maze"' in page
        assert request(port, f"/?token={token}", host=f"localhost:{port}")[0] == 200
        assert request(port, "/")[0] == 403                                    # no token
        assert request(port, "/?token=wrong")[0] == 403                        # another token
        assert request(port, f"/?token={token}&token={token}")[0] == 403       # two tokens
        assert request(port, f"/?token={token}", host=f"evil.example:{port}")[0] == 403
        assert request(port, f"/?token={token}", host="127.0.0.1:1")[0] == 403
        assert request(port, f"/?token={token}", host="")[0] == 403
        assert request(port, f"/?token={token}",
                       headers={"Origin": "http://evil.example"})[0] == 403
        command = json.dumps({"command": "pause"}).encode()
        assert request(port, f"/command?token={token}", method="POST", body=command,
                       headers={"Origin": "http://evil.example"})[0] == 403
        assert request(port, "/command", method="POST", body=command)[0] == 403
        assert not view._paused
        assert request(port, f"/command?token={token}", method="POST", body=command,
                       headers={"Origin": f"http://127.0.0.1:{port}"})[0] == 204
        assert view._paused
        status, text = request(port, f"/command?token={token}", method="POST",
                               body=b'{"command": "speed", "frame_time": -1}')
        assert (status, text) == (400, b"speed: frame_time must be a number of seconds "
                                       b"from 0 to 60\n")
        assert request(port, f"/command?token={token}", method="POST", body=b"[1]")[0] == 400
        assert request(port, f"/nothing?token={token}")[0] == 404
    finally:
        view.close()
    assert refused(port)
    assert set(threading.enumerate()) == before


class Page(threading.Thread):
    """A page stand-in: reads the event stream until the end of the run, then says so."""

    def __init__(self, view: LiveView) -> None:
        super().__init__()
        self.view = view
        self.kinds: list[str] = []

    def run(self) -> None:
        port, token = self.view.port, self.view.token
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        connection.request("GET", f"/events?token={token}")
        response = connection.getresponse()
        assert response.getheader("Content-Type") == "text/event-stream; charset=utf-8"
        while True:
            line = response.fp.readline().decode()
            if line.startswith("event: "):
                self.kinds.append(line[7:].strip())
                if self.kinds[-1] == "end":
                    break
        connection.close()
        request(port, f"/command?token={token}", method="POST", body=b'{"command": "done"}')


def test_the_server_stops_with_the_games_and_leaves_no_thread() -> None:
    layout = load_layout("smallClassic")
    before = set(threading.enumerate())

    def agents() -> tuple[Any, list[Any]]:
        return (make_agent("alphabeta", "pacman", {"depth": 1}),
                [make_agent("RandomGhost", "ghost", {}, index=i) for i in (1, 2)])

    view = LiveView(GameState.initial(layout), frame_time=0)
    page = Page(view)
    page.start()
    assert view.wait_for_page(timeout=10)
    pacman, ghosts = agents()
    shown = run_game(layout, pacman, ghosts, seed=11, max_moves=25, display=view)
    view.close()
    page.join(timeout=10)
    assert not page.is_alive()
    assert page.kinds[:3] == ["hello", "game", "state"]
    assert page.kinds.count("move") == len(shown.actions) == 75
    assert page.kinds[-2:] == ["finish", "end"]
    assert refused(view.port)
    assert set(threading.enumerate()) == before
    pacman, ghosts = agents()
    assert run_game(layout, pacman, ghosts, seed=11, max_moves=25) == shown  # as with -q


def test_ctrl_c_stops_the_server_and_the_process(runs: list[Run], tmp_path: Path) -> None:
    run = start(runs, tmp_path, "-p", "keyboard", "-l", "smallClassic")
    assert not refused(run.port)
    run.process.send_signal(signal.SIGINT)
    code, _out, err = run.finish(timeout=20)
    assert (code, err) == (130, "pacman: interrupted\n")
    assert refused(run.port)


# ------------------------------------------------------------------------------- the CLI
def test_web_and_q_together_are_refused(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "pacman", "play", "--ui", "web", "-q"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert (done.returncode, done.stderr) == (2, "pacman: error: argument -q/--quiet/"
                                                 "--quietTextGraphics: not allowed with "
                                                 "argument --ui\n")


def test_without_a_display_play_says_the_web_view_exists(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    done = subprocess.run([sys.executable, "-m", "pacman", "play", "-p", "greedy", "-l",
                           "testClassic", "--seed", "1", "--frame-time", "0", "--max-moves",
                           "3"], capture_output=True, text=True, cwd=tmp_path, timeout=60,
                          env=env)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ("pacman: no window (no display: DISPLAY and WAYLAND_DISPLAY are not "
                           "set); using the text display (`pacman play --ui web` shows the "
                           "game in a browser)\n")
    assert "move 1: Pacman" in done.stdout  # the text display still plays


def _at_a_terminal(tmp_path: Path, answer: bytes, *extra: str) -> tuple[subprocess.Popen[bytes],
                                                                         int, bytes]:
    """`pacman play` with no display, its input and output a terminal (a pseudo-terminal),
    answering `answer` to the offer of a browser; returns the process, the terminal's end kept
    here, and what it had printed up to the answer."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    ours, theirs = os.openpty()
    game = subprocess.Popen(
        [sys.executable, "-m", "pacman", "play", "-p", "greedy", "-l", "testClassic", "--seed",
         "1", "--frame-time", "0", "--max-moves", "3", *extra],
        stdin=theirs, stdout=theirs, stderr=theirs, cwd=tmp_path, env=env)
    os.close(theirs)
    said = _read_until(ours, b"[Y/n] ")
    os.write(ours, answer)
    return game, ours, said


def _read_until(fd: int, wanted: bytes, seconds: float = 60) -> bytes:
    got, deadline = b"", time.monotonic() + seconds
    while wanted not in got:
        assert time.monotonic() < deadline, got
        try:
            got += os.read(fd, 4096)
        except OSError:  # the other end closed
            break
    return got


def test_at_a_terminal_without_a_display_play_offers_the_browser(tmp_path: Path) -> None:
    game, ours, said = _at_a_terminal(tmp_path, b"\n", "--no-browser")
    try:
        assert said.endswith(b"pacman: watch in a browser instead (a page served to this "
                             b"machine only)? [Y/n] ")
        shown = _read_until(ours, b"Ctrl-C stops)")
        assert re.search(rb"pacman: watch the game at http://127\.0\.0\.1:\d+/\?token=\S+ ",
                         shown), shown
        game.send_signal(signal.SIGINT)  # nobody opens the page: Ctrl-C ends the wait
        assert game.wait(timeout=30) == 130
    finally:
        game.kill()
        os.close(ours)


def test_at_a_terminal_a_no_keeps_the_text_display(tmp_path: Path) -> None:
    game, ours, _ = _at_a_terminal(tmp_path, b"n\n")
    try:
        rest = _read_until(ours, b"Outcomes:")
        assert game.wait(timeout=60) == 0
        assert b"move 1: Pacman" in rest and b"watch the game at" not in rest
    finally:
        game.kill()
        os.close(ours)
