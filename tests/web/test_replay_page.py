"""The replay viewer (`pacman replay game.json --html game.html`): one static page that plays a
real recorded game in headless Chromium, with no request outside the file and no console
error; its numbers are the record's and the traces'; a crash or a timeout is marked.

Run by hand, `python tests/web/test_replay_page.py docs/replay-viewer.png` writes the docs'
screenshot (the tests never write into docs/).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from pacman.cli import main
from pacman.replay import load_replay, replay_states, save_replay, verify
from pacman.rules import Direction
from pacman.web.replay_data import page_data
from pacman.web.replay_page import build_replay_page, write_replay_page

ROOT = Path(__file__).resolve().parents[2]

FAULTY = '''
import time


class CrashLater:
    """Plays its first legal move five times, then raises; its name tries to end the script."""

    def describe(self):
        return "CrashLater </script><script>window.pwned = 1</script>"

    def __init__(self):
        self.moves = 0

    def get_action(self, state):
        self.moves += 1
        if self.moves > 5:
            raise RuntimeError("boom </script><b>bold</b>")
        return state.legal_actions(0)[0]


class SlowGhost:
    """A ghost whose fourth move takes far longer than any limit of the tests."""

    def __init__(self, index=1):
        self.index = index
        self.moves = 0

    def get_action(self, state):
        self.moves += 1
        if self.moves > 3:
            time.sleep(5)
        return state.legal_actions(self.index)[0]
'''


def record(folder: Path, name: str, *argv: str, seed: int = 1) -> Path:
    """A real game played by `pacman play -q ... --record` in a subprocess."""
    path = folder / name
    done = subprocess.run([sys.executable, "-m", "pacman", "play", "-q", "--seed", str(seed),
                           "--record", str(path), *argv], capture_output=True, text=True,
                          cwd=folder, timeout=300)
    assert done.returncode == 0, done.stderr
    return path


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A traced alpha-beta game (capped), a Pacman that crashes and a ghost that times out."""
    folder = tmp_path_factory.mktemp("games")
    (folder / "faulty.py").write_text(textwrap.dedent(FAULTY))
    return {
        "traced": record(folder, "traced.json", "-l", "smallClassic", "-p", "alphabeta", "-a",
                         "depth=2", "--trace", "--max-moves", "30"),
        "crash": record(folder, "crash.json", "-l", "testClassic", "-p",
                        "faulty.py:CrashLater"),
        "timeout": record(folder, "timeout.json", "-l", "testClassic", "-p", "alphabeta",
                          "-a", "depth=2", "--trace", "-g", "faulty.py:SlowGhost",
                          "--timeout", "0.3"),
    }


def page_of(game: Path, folder: Path) -> Path:
    """The game's page, written by the command line as a user would."""
    html = folder / (game.stem + ".html")
    assert main(["replay", "-q", str(game), "--html", str(html)]) == 0
    return html


def replay_json(game: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(game.read_text(encoding="utf-8"))
    return data


def opened(visit: Any, html: Path) -> Any:
    page = visit.open(html)
    page.wait_for_selector("body[data-ready=true]")
    return page


def move(page: Any) -> int:
    return int(page.locator("#move").inner_text())


def wait_for_move(page: Any, above: int, seconds: float = 20) -> int:
    """Wait until the move counter passes `above` (polled: the page's policy forbids the
    string evaluation that `wait_for_function` needs)."""
    for _ in range(int(seconds * 20)):
        if move(page) > above:
            return move(page)
        page.wait_for_timeout(50)
    raise AssertionError(f"the move counter stayed at {move(page)}")


def clean(visit: Any) -> None:
    assert visit.outside_requests() == []
    assert visit.errors == []


# --------------------------------------------------------------------- no browser
def test_the_page_holds_every_state_and_loads_nothing(games: dict[str, Path]) -> None:
    replay = load_replay(games["traced"])
    verdict = verify(replay)
    data = page_data(replay, verdict)
    record = replay.record
    assert len(data["steps"]) == len(record.actions) + 1
    assert data["steps"][-1]["s"] == record.score
    assert data["steps"][-1]["k"] == record.pacman_moves
    assert data["outcome"]["value"] == record.outcome.value == "capped"
    assert len(data["traces"]) == record.pacman_moves
    assert all(trace["pv"]["played"] > 0 for trace in data["traces"])
    text = build_replay_page(replay, verdict)
    # no outside resource of any kind: no src, no external href, no url() or @import
    assert not re.search(r"\bsrc\s*=", text)
    assert re.findall(r"\bhref\s*=\s*\"([^\"]*)\"", text) == ["data:,"]
    assert "@import" not in text and "url(" not in text
    assert "default-src 'none'" in text


def test_an_unplayable_replay_gives_the_playable_prefix(games: dict[str, Path],
                                                        tmp_path: Path) -> None:
    data = replay_json(games["traced"])
    states = replay_states(load_replay(games["traced"]))
    at = 3 * (data["num_ghosts"] + 1)  # Pacman's 4th move: make it one into a wall
    data["actions"][at] = next(d.value for d in Direction
                               if d not in states[at].legal_actions(0))
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(data))
    replay = load_replay(broken)
    verdict = verify(replay)
    assert not verdict.complete and verdict.played == at
    html = tmp_path / "broken.html"
    assert main(["replay", "-q", str(broken), "--html", str(html)]) == 1  # written, exit 1
    page = page_data(replay, verdict)
    assert len(page["steps"]) == at + 1
    assert page["outcome"] is None and page["complete"] is False
    text = html.read_text(encoding="utf-8")
    assert "cannot all be played" in text and 'data-outcome="incomplete"' in text


def test_save_replay_of_the_api_makes_a_page_too(tmp_path: Path) -> None:
    from pacman import load_layout, run_game
    from pacman.agents.ghosts import RandomGhost
    from pacman.agents.simple import RandomAgent

    layout = load_layout("testClassic")
    game = run_game(layout, RandomAgent(), [RandomGhost(1)], seed=3, max_moves=20)
    path = save_replay(tmp_path / "api.json", game, layout)
    written = write_replay_page(load_replay(path), tmp_path / "deep" / "api.html")
    assert written.exists() and "replay-data" in written.read_text(encoding="utf-8")


# --------------------------------------------------------------------- the command line
def test_a_missing_replay_is_one_line_and_exit_2(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "pacman", "replay", "missing.json", "--html",
                           "x.html"], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("pacman: error:")
    assert not (tmp_path / "x.html").exists()


@pytest.mark.parametrize("target", ["afile/x.html", "folder", ""])
def test_an_unwritable_page_is_one_line(games: dict[str, Path], tmp_path: Path,
                                        target: str) -> None:
    (tmp_path / "afile").write_text("a file, not a folder")
    (tmp_path / "folder").mkdir()
    done = subprocess.run([sys.executable, "-m", "pacman", "replay", "-q",
                           str(games["traced"]), "--html", target], capture_output=True,
                          text=True, cwd=tmp_path, timeout=120)
    assert done.returncode == 2, done.stdout
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("pacman: error: --html")
    assert "Traceback" not in done.stderr


def test_the_help_mentions_html(capsys: pytest.CaptureFixture[str]) -> None:
    from pacman.cli import build_parser

    with pytest.raises(SystemExit):
        build_parser().parse_args(["replay", "--help"])
    assert "--html FILE.html" in capsys.readouterr().out


def test_html_with_q_writes_the_page_and_reports(games: dict[str, Path], tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    html = tmp_path / "sub" / "game.html"
    assert main(["replay", "-q", str(games["traced"]), "--html", str(html)]) == 0
    out = capsys.readouterr().out
    assert f"wrote {html}" in out and "OK: the replay matches" in out
    assert html.stat().st_size > 1000


# --------------------------------------------------------------------- in the browser
def test_the_page_opens_at_the_start(visit: Any, games: dict[str, Path],
                                     tmp_path: Path) -> None:
    data = replay_json(games["traced"])
    page = opened(visit, page_of(games["traced"], tmp_path))
    assert move(page) == 0
    assert page.locator("#moves-total").inner_text() == str(len(data["actions"]))
    assert page.locator("#score").inner_text() == "0"
    assert page.locator("#pacman-move").inner_text() == "0"
    assert page.locator("#whose").inner_text() == "start"
    assert page.locator("#outcome").get_attribute("data-outcome") == data["outcome"]
    assert page.locator("#maze #walls path").count() >= 2
    food = load_replay(games["traced"]).layout.food
    assert page.locator("#food .food").count() == len(food)
    assert page.locator("#food-left").inner_text() == str(len(food))
    assert page.locator(".ghost").count() == 2
    assert not page.locator("#end-banner").is_visible()
    page.screenshot(path=str(tmp_path / "start.png"))
    clean(visit)


def test_play_advances_and_pauses(visit: Any, games: dict[str, Path], tmp_path: Path) -> None:
    page = opened(visit, page_of(games["traced"], tmp_path))
    page.select_option("#speed", "60")
    page.click("#play")
    assert page.locator("#play").inner_text() == "pause"
    wait_for_move(page, 2)
    page.click("#play")
    stopped = move(page)
    page.wait_for_timeout(200)
    assert move(page) == stopped >= 3
    assert page.locator("#play").inner_text() == "play"
    # the space key plays and pauses too
    page.keyboard.press("Space")
    wait_for_move(page, stopped)
    page.keyboard.press("Space")
    assert page.locator("#play").inner_text() == "play"
    page.screenshot(path=str(tmp_path / "playing.png"))
    clean(visit)


def test_the_scrub_bar_reaches_the_recorded_end(visit: Any, games: dict[str, Path],
                                                 tmp_path: Path) -> None:
    data = replay_json(games["traced"])
    end = len(data["actions"])
    page = opened(visit, page_of(games["traced"], tmp_path))
    page.locator("#scrub").fill(str(end))
    assert move(page) == end
    assert page.locator("#score").inner_text() == str(data["score"])
    assert page.locator("#pacman-move").inner_text() == str(data["pacman_moves"])
    assert page.locator("#outcome").inner_text().lower() == data["outcome"]
    banner = page.locator("#end-banner")
    assert banner.is_visible() and data["outcome"].upper() in banner.inner_text()
    assert str(data["score"]) in banner.inner_text()
    assert page.locator(".marker.end").get_attribute("data-step") == str(end)
    page.screenshot(path=str(tmp_path / "end.png"))
    page.locator("#scrub").fill("5")
    assert move(page) == 5
    # a real mouse drag of the thumb, from the start to past the right end
    page.click("#first")
    box = page.locator("#scrub").bounding_box()
    y = box["y"] + box["height"] / 2
    page.mouse.move(box["x"] + 7, y)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2, y, steps=5)
    middle = move(page)
    assert 0 < middle < end
    page.mouse.move(box["x"] + box["width"] + 40, y, steps=5)
    page.mouse.up()
    assert move(page) == end
    assert page.locator("#score").inner_text() == str(data["score"])
    clean(visit)


def test_step_buttons_and_arrow_keys_move_by_one(visit: Any, games: dict[str, Path],
                                                 tmp_path: Path) -> None:
    data = replay_json(games["traced"])
    page = opened(visit, page_of(games["traced"], tmp_path))
    page.locator("#scrub").fill("10")
    page.click("#forward")
    assert move(page) == 11
    assert page.locator("#action").inner_text() == data["actions"][10]
    page.click("#back")
    page.click("#back")
    assert move(page) == 9
    assert page.locator("#action").inner_text() == data["actions"][8]
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.press("ArrowRight")
    assert move(page) == 10
    page.keyboard.press("ArrowLeft")
    assert move(page) == 9
    page.click("#first")
    page.click("#back")
    assert move(page) == 0
    page.click("#last")
    page.click("#forward")
    assert move(page) == len(data["actions"])
    clean(visit)


def test_the_search_panel_shows_each_traced_move(visit: Any, games: dict[str, Path],
                                                  tmp_path: Path) -> None:
    data = replay_json(games["traced"])
    agents = data["num_ghosts"] + 1
    page = opened(visit, page_of(games["traced"], tmp_path))
    for pacman_move in (1, 4, 17, data["pacman_moves"]):
        trace = data["pacman_traces"][pacman_move - 1]
        step = (pacman_move - 1) * agents + 1  # the state right after that Pacman move
        page.locator("#scrub").fill(str(step))
        assert page.locator("#whose").inner_text().startswith("Pacman")
        assert page.locator("#search-move").inner_text() == f"Pacman move {pacman_move}"
        chosen = page.locator("#root-values tr.chosen .action-name")
        assert chosen.count() == 1 and chosen.inner_text() == trace["action"]
        assert page.locator("#search-chosen").inner_text() == trace["action"]
        assert page.locator("#search-pruned").inner_text() == str(trace["pruned"])
        assert page.locator("#search-cuts").inner_text() == str(trace["cuts"])
        assert page.locator("#search-nodes").inner_text() == str(trace["nodes_generated"])
        assert page.locator("#search-evaluations").inner_text() == str(trace["evaluations"])
        assert page.locator("#search-depth").inner_text() == str(trace["depth"])
        assert page.locator("#root-values tr.root-action").count() == len(trace["root_values"])
        assert page.locator("#nodes").inner_text().startswith(
            f"{data['pacman_nodes'][pacman_move - 1]:,}")
        pv = page.locator("#search-pv").inner_text()
        assert pv.startswith(f"Pacman {trace['principal_variation'][0][1]}")
        assert page.locator("#pv-path .pv-agent").count() >= 1
    # a ghost's move keeps the search of the Pacman move before it
    page.locator("#scrub").fill(str(agents))
    assert page.locator("#search-move").inner_text() == "Pacman move 1"
    page.uncheck("#pv-toggle")
    assert page.locator("#pv-path .pv-agent").count() == 0
    page.check("#pv-toggle")
    page.locator("#scrub").fill(str(3 * agents + 1))
    page.screenshot(path=str(tmp_path / "search.png"))
    clean(visit)


@pytest.mark.parametrize(("game", "agent", "words"), [
    ("crash", "Pacman", "crashed"),
    ("timeout", "Ghost 1", "ran out of time"),
])
def test_a_fault_is_marked_on_the_bar_and_in_text(visit: Any, games: dict[str, Path],
                                                  tmp_path: Path, game: str, agent: str,
                                                  words: str) -> None:
    data = replay_json(games[game])
    assert data["outcome"] == game
    end = len(data["actions"])
    page = opened(visit, page_of(games[game], tmp_path))
    marker = page.locator(".marker.fault")
    assert marker.count() == 1 and marker.is_visible()
    assert marker.get_attribute("data-step") == str(end)
    assert data["fault"] in marker.get_attribute("title")
    fault = page.locator("#fault-text")
    assert fault.is_visible()
    assert fault.inner_text().startswith(f"{agent} (") and words in fault.inner_text()
    assert data["fault"] in fault.inner_text()
    assert page.locator("#outcome").get_attribute("data-outcome") == game
    # the marker sits at the end of the bar, where the game stopped
    bar = page.locator("#scrub").bounding_box()
    spot = marker.bounding_box()
    assert spot["x"] + spot["width"] / 2 > bar["x"] + bar["width"] * 0.9
    marker.click()
    assert move(page) == end
    assert page.locator("#end-banner").is_visible()
    assert game.upper() in page.locator("#banner-title").inner_text()
    # labels that try to end the script stay text: nothing ran, nothing broke
    assert page.evaluate("typeof window.pwned") == "undefined"
    page.screenshot(path=str(tmp_path / f"{game}.png"))
    clean(visit)


def test_a_hostile_label_is_shown_as_text(visit: Any, games: dict[str, Path],
                                          tmp_path: Path) -> None:
    data = replay_json(games["crash"])
    page = opened(visit, page_of(games["crash"], tmp_path))
    assert data["agents"][0] in page.locator("#title").inner_text()
    assert data["agents"][0] in page.locator("#agents").inner_text()
    assert page.locator("#fault-text b").count() == 0  # the fault's <b> is not markup
    assert page.evaluate("typeof window.pwned") == "undefined"
    clean(visit)


# --------------------------------------------------------------------- the docs' screenshot
def docs_screenshot(out: Path) -> None:
    """Record a traced game, write its page and save a screenshot mid-game (by hand only)."""
    import tempfile

    from playwright.sync_api import sync_playwright

    from tests.web.conftest import CHROMIUM

    with tempfile.TemporaryDirectory() as folder:
        game = record(Path(folder), "game.json", "-l", "mediumClassic", "-p", "alphabeta",
                      "-a", "depth=2,evaluation=better", "-g", "DirectionalGhost", "--trace",
                      "--max-moves", "200", seed=3)
        html = Path(folder) / "game.html"
        write_replay_page(load_replay(game), html)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True)
            page = browser.new_page(viewport={"width": 1280, "height": 860})
            page.goto(html.resolve().as_uri())
            page.wait_for_selector("body[data-ready=true]")
            page.locator("#scrub").fill("121")
            page.locator("body").click(position={"x": 5, "y": 5})
            page.screenshot(path=str(out), full_page=True)
            browser.close()
    print(f"wrote {out}")


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    docs_screenshot(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" /
                    "replay-viewer.png")
