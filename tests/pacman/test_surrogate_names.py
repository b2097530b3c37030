"""Names with lone surrogates (issue 46, class 6): text no UTF-8 encoder writes, from a user
agent's `describe()` or a replay's valid JSON escape `"\\ud800"`, is read as U+FFFD where it
enters (`pacman.game.describe`, `pacman.replay.reader`), so the text display, pictures, the
replay page and the record are written; before, each was a UnicodeEncodeError traceback."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pacman.cli import main
from pacman.game import describe
from pacman.replay import load_replay, verify
from pacman.replay.reader import safe_text

BAD = "bad\ud800na\udfffme"
SAFE = "bad\ufffdna\ufffdme"

AGENTS_FILE = '''
from pacman.agents.simple import RandomAgent


class Bad(RandomAgent):
    def describe(self):
        return "bad\\ud800na\\udfffme"
'''


@pytest.fixture(autouse=True)
def _headless(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")


def test_describe_replaces_each_lone_surrogate() -> None:
    class Named:
        def __init__(self, text: str) -> None:
            self.text = text

        def describe(self) -> str:
            return self.text

    assert describe(Named(BAD)) == SAFE
    assert describe(Named("\udc80")) == "\ufffd"
    assert describe(Named("ok é 😀")) == "ok é 😀"  # a whole character is kept
    assert describe(Named("a\nb")) == "a b"
    assert safe_text(BAD) == SAFE and safe_text("plain") == "plain"


@pytest.mark.parametrize("isolation", ["none", "process"])
@pytest.mark.parametrize("output", [["-t", "--frame-time", "0"], ["-q", "--gif", "game.gif"],
                                    ["-q", "--screenshot", "end.png"]])
def test_a_describe_with_surrogates_is_shown_and_recorded(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        isolation: str, output: list[str]) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad_agents.py").write_text(AGENTS_FILE, encoding="utf-8")
    code = main(["play", "--agents", "bad_agents.py", "-p", "Bad", "-l", "testClassic",
                 "--max-moves", "8", "--seed", "1", "--isolation", isolation,
                 "--record", "game.json", *output])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "Traceback" not in out + err
    replay = load_replay(tmp_path / "game.json")
    assert replay.record.agents[0] == SAFE  # the record keeps the safe name
    assert verify(replay).matches
    if "-t" in output:
        assert SAFE in out


def _edited_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                   edit: dict[str, Any]) -> Path:
    source = tmp_path / "source.json"
    assert main(["play", "-q", "-l", "minimaxClassic", "-p", "alphabeta", "-a", "depth=2",
                 "--max-moves", "8", "--seed", "3", "--trace", "--record", str(source)]) == 0
    capsys.readouterr()
    data = json.loads(source.read_text(encoding="utf-8"))
    for key, value in edit.items():
        if key == "trace":
            trace = next(t for t in data["pacman_traces"] if t)
            trace["method"] = value
            trace["root_values"][0][0] = value
            trace["principal_variation"][0][1] = value
            trace[value] = 1  # an unknown key
        elif key == "agents":
            data["agents"][0] = value
        else:
            data[key] = value
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(data), encoding="utf-8")  # "\ud800": ASCII, valid JSON
    assert "\\ud800" in path.read_text(encoding="utf-8")
    return path


@pytest.mark.parametrize("edit", [
    {"agents": BAD}, {"layout": BAD}, {"fault": BAD}, {"package_version": BAD},
    {"trace": BAD}, {BAD: 1},
    {"agents": BAD, "layout": BAD, "fault": BAD, "trace": BAD, BAD: 2},
])
@pytest.mark.parametrize("output", [["-t", "--frame-time", "0"], ["-q", "--html", "page.html"],
                                    ["-q", "--gif", "game.gif"],
                                    ["-q", "--screenshot", "end.png"]])
def test_a_replay_with_surrogates_is_shown_checked_and_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        edit: dict[str, Any], output: list[str]) -> None:
    path = _edited_replay(tmp_path, capsys, edit)
    monkeypatch.chdir(tmp_path)
    code = main(["replay", str(path), *output])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    assert code in (0, 1), err  # 1: an edited field the digest (or the rules) catches
    assert err == ""
    written = output[-1]
    if written.endswith(("html", "gif", "png")):
        assert (tmp_path / written).stat().st_size > 0
        assert f"wrote {written}" in out
    if "agents" in edit:
        assert load_replay(path).record.agents[0] == SAFE


def test_the_digest_is_checked_against_the_files_own_text(tmp_path: Path) -> None:
    """A replay whose digest was made of a name with a surrogate still verifies: the record
    reads U+FFFD, the digest check the file's own text."""
    from pacman.layout import load_layout
    from pacman.record import GameRecord
    from pacman.replay.format import replay_dict

    source = tmp_path / "source.json"
    assert main(["play", "-q", "-l", "testClassic", "-p", "greedy", "--max-moves", "6",
                 "--seed", "2", "--record", str(source)]) == 0
    record = load_replay(source).record
    from dataclasses import replace

    odd: GameRecord = replace(record, agents=(BAD, *record.agents[1:]))
    path = tmp_path / "odd.json"
    path.write_text(json.dumps(replay_dict(odd, load_layout("testClassic"), len(odd.agents) - 1)),
                    encoding="utf-8")
    replay = load_replay(path)
    assert replay.record.agents[0] == SAFE
    assert replay.fields is not None and replay.fields["agents"][0] == BAD
    assert verify(replay).matches


@pytest.mark.parametrize("output", [["--gif", "game.gif"], ["--screenshot", "end.png"]])
def test_a_name_with_a_nul_is_drawn(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                    monkeypatch: pytest.MonkeyPatch, output: list[str]) -> None:
    """Found by the fuzz suite: pygame's fonts refuse NUL, so a name holding one (a
    `describe()`, a replay's `"\\u0000"`) stopped the picture with a ValueError."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "nul_agents.py").write_text(AGENTS_FILE.replace(
        "bad\\ud800na\\udfffme", "nul\\x00\\ud800name"), encoding="utf-8")
    code = main(["play", "-q", "--agents", "nul_agents.py", "-p", "Bad", "-l", "testClassic",
                 "--max-moves", "6", "--seed", "1", "--isolation", "none", "--record",
                 "game.json", *output])
    err = capsys.readouterr().err
    assert code == 0, err
    assert load_replay(tmp_path / "game.json").record.agents[0] == "nul\x00\ufffdname"
    assert (tmp_path / output[1]).stat().st_size > 0
