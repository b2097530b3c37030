"""Notebooks: the example notebook `docs/notebooks/quickstart.ipynb` runs headless (nbclient, the
`python3` kernel of this environment) without an error and its outputs hold the replay viewer,
which loads nothing from outside and draws the game in Chromium; `pacman.notebook.play` plays
the game `pacman play -q` plays with the same arguments, and a bad argument is one line.
"""

from __future__ import annotations

import html
import re
import shutil
from pathlib import Path
from typing import Any

import nbformat
import pytest
from nbclient import NotebookClient

from pacman.cli import main
from pacman.errors import (
    LayoutError,
    LimitError,
    PacmanError,
    RegistryError,
    SettingsError,
    UsageError,
)
from pacman.notebook import play
from pacman.replay import load_replay

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "docs" / "notebooks" / "quickstart.ipynb"
#: an `src=` or `href=` that would load something from another host
REMOTE = re.compile(r"""(?:src|href)\s*=\s*["']?\s*(?:https?:)?//""", re.IGNORECASE)


@pytest.fixture(scope="module")
def executed(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The example notebook, run in a copy in a temporary folder (any cell error fails)."""
    folder = tmp_path_factory.mktemp("notebook")
    copy = folder / NOTEBOOK.name
    shutil.copyfile(NOTEBOOK, copy)
    notebook = nbformat.read(copy, as_version=4)
    NotebookClient(notebook, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(folder)}}).execute()
    nbformat.write(notebook, copy)
    return notebook


def outputs(notebook: Any) -> list[list[Any]]:
    return [cell.outputs for cell in notebook.cells if cell.cell_type == "code"]


def viewer_page(fragment: str) -> str:
    """The replay page inside a viewer fragment (its srcdoc, unescaped)."""
    match = re.fullmatch(r'<div class="pacman-replay"><iframe title="[^"]*" '
                         r'sandbox="allow-scripts" srcdoc="([^"]*)" style="[^"]*"></iframe></div>',
                         fragment)
    assert match, fragment[:300]
    return html.unescape(match.group(1))


def test_the_notebook_runs_and_its_outputs_hold_the_viewer(executed: Any) -> None:
    cells = outputs(executed)
    assert [[output.output_type for output in cell] for cell in cells] == [
        [], ["display_data", "execute_result"], ["execute_result"], ["execute_result"]]
    live, summary = cells[1]
    record = play("expectimax@depth=2", "DirectionalGhost", "smallClassic", seed=0, live=False)
    assert summary.data["text/plain"] == repr((record.outcome.value, record.score,
                                               record.pacman_moves))
    shown = cells[2][0].data
    assert shown["text/plain"].startswith("GameRecord(layout='smallClassic', seed=0, ")
    assert live.data["text/html"] == shown["text/html"]  # the live view ends as the viewer
    page = viewer_page(shown["text/html"])
    assert page.startswith("<!DOCTYPE html>")
    assert "<title>Pacman replay: smallClassic, seed 0: ExpectimaxAgent depth=2" in page
    assert 'id="replay-data"' in page and "default-src 'none'" in page
    assert not REMOTE.search(page), REMOTE.search(page)
    table = cells[3][0].data["text/markdown"].splitlines()
    assert table[0] == "| Pacman | wins | mean score | mean moves |"
    assert [row.split(" | ")[0] for row in table[2:]] == ["| `expectimax@depth=2`",
                                                         "| `alphabeta@depth=2`"]
    assert all(re.fullmatch(r"\| `[^`]+` \| \d+/10 \| -?\d+\.\d \| \d+\.\d \|", row)
               for row in table[2:]), table


def test_the_notebooks_viewer_draws_the_game_in_chromium(executed: Any, visit: Any,
                                                         tmp_path: Path) -> None:
    fragment = outputs(executed)[2][0].data["text/html"]
    page = tmp_path / "output.html"
    page.write_text(f"<!DOCTYPE html><html><body>{fragment}</body></html>", encoding="utf-8")
    opened = visit.open(page)
    opened.wait_for_function("document.querySelectorAll('iframe').length == 1")
    viewer = opened.frames[1]
    viewer.wait_for_selector("#agents-layer > *", state="attached")
    record = play("expectimax@depth=2", "DirectionalGhost", "smallClassic", seed=0, live=False)
    assert viewer.evaluate("document.getElementById('moves-total').textContent") \
        == str(len(record.actions))
    assert viewer.evaluate("document.querySelectorAll('#agents-layer > *').length") >= 3
    viewer.click("#last")
    assert viewer.evaluate("document.getElementById('score').textContent") == str(record.score)
    assert visit.outside_requests() == []
    assert visit.errors == []


@pytest.mark.parametrize(("pacman", "settings", "extra"), [
    ("expectimax@depth=2", ["-p", "expectimax", "-a", "depth=2"], {}),
    ("alphabeta@depth=2,evaluation=better", ["-p", "alphabeta", "-a",
                                             "depth=2,evaluation=better"], {"num_ghosts": 1}),
])
def test_play_is_the_game_of_pacman_play_q(pacman: str, settings: list[str],
                                           extra: dict[str, Any], tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    flags = ["-k", "1"] if extra else []
    assert main(["play", "-q", *settings, "-g", "DirectionalGhost", "-l", "smallClassic",
                 "--seed", "7", *flags, "--record", str(path)]) == 0
    capsys.readouterr()
    record = play(pacman, "DirectionalGhost", "smallClassic", seed=7, live=False, **extra)
    assert record == load_replay(path).record
    assert play(pacman, "DirectionalGhost", "smallClassic", seed=7, **extra) == record  # live:
    # unset, and outside a Jupyter kernel there is no live view: the same game, returned
    assert record.pacman_moves > 0


def test_play_with_trace_records_the_searches() -> None:
    record = play("alphabeta@depth=2", "random", "testClassic", seed=1, trace=True,
                  live=False, max_moves=5)
    assert len(record.pacman_traces) == record.pacman_moves
    assert {trace["method"] for trace in record.pacman_traces if trace} == {"alphabeta"}


@pytest.mark.parametrize(("call", "error", "message"), [
    ({"pacman": "nosuchagent"}, RegistryError, "nosuchagent"),
    ({"pacman": "expectimax@depth"}, SettingsError, "bad agent setting 'depth'"),
    ({"pacman": "@depth=2"}, SettingsError, "bad agent '@depth=2': write NAME or NAME@k=v,k=v"),
    ({"pacman": "keyboard"}, UsageError, "the keyboard agent needs the window"),
    ({"pacman": "greedy", "trace": True}, UsageError, "does not trace its search"),
    ({"layout": "noSuchLayout"}, LayoutError, "noSuchLayout"),
    ({"seed": -1}, UsageError, "seed must be a whole number from 0 to 9223372036854775807, "
                               "got -1"),
    ({"seed": 1.5}, UsageError, "seed must be a whole number from 0 to 9223372036854775807, "
                                "got 1.5"),
    ({"seed": 10**400}, UsageError, "got a whole number of 401 digits"),
    ({"layout": None}, UsageError, "layout must be a layout name (\"smallClassic\"), a .lay "
                                   "file or a Layout, got None"),
    ({"layout": 3}, UsageError, "layout must be a layout name"),
    ({"layout": ["smallClassic"]}, UsageError, "a Layout, got a list"),
    ({"trace": "yes"}, UsageError, "trace must be True or False, got 'yes'"),
    ({"live": 1}, UsageError, "live must be True, False or None, got 1"),
    ({"frame_time": None}, UsageError, "frame_time must be seconds from 0 to 60, got None"),
    ({"frame_time": float("nan")}, UsageError, "frame_time must be seconds from 0 to 60"),
    ({"height": "500"}, UsageError, "height must be a whole number from 100 to 10000, got "
                                    "'500'"),
    ({"height": True}, UsageError, "height must be a whole number from 100 to 10000"),
    ({"every": 0}, UsageError, "every must be a whole number >= 1, got 0"),
    ({"move_time_limit": 0}, LimitError, "the move time limit: expected seconds > 0 and at "
                                         "most 1,000,000, got 0"),
    ({"game_time_limit": True}, LimitError, "the game time limit: expected seconds > 0"),
    ({"zoom": 100}, UsageError, "zoom must be a number from 0.25 to 8, got 100"),
    ({"live": True}, UsageError, "live=True needs a Jupyter kernel"),
])
def test_a_bad_argument_is_one_line(call: dict[str, Any], error: type[PacmanError],
                                    message: str) -> None:
    with pytest.raises(error) as raised:
        play(**{"live": False, **call})
    assert message in str(raised.value)
    assert "\n" not in str(raised.value)


def test_every_argument_of_the_wrong_type_is_one_line() -> None:
    """Issue 46 (12): `play(layout=None)` was a bare TypeError. Every argument of `play`,
    given a value of no type it takes, is the documented one-line PacmanError."""
    import inspect

    for name in inspect.signature(play).parameters:
        for wrong in (object(), b"x", [1], {"a": 1}, float("nan")):
            with pytest.raises(PacmanError) as raised:
                play(**{"pacman": "greedy", "layout": "testClassic", "live": False,
                        "max_moves": 2, name: wrong})
            assert "\n" not in str(raised.value), (name, wrong)


def test_the_move_cap_is_pacman_plays() -> None:
    from pacman.cli.options import DEFAULT_MAX_MOVES
    from pacman.notebook import DEFAULT_MAX_MOVES as NOTEBOOK_CAP

    assert NOTEBOOK_CAP == DEFAULT_MAX_MOVES == 3000
