"""The command line refuses layouts that cannot be played, and lists layouts past a bad one."""

from __future__ import annotations

from pathlib import Path

import pytest

import pacman.cli.layouts
from pacman.cli import main
from pacman.layout import LAYOUT_DIR


@pytest.mark.parametrize(("text", "problem"), [
    ("%%%%%\n%P  %\n%%%%%\n", "no food"),
    ("%%%%%%%\n%P%. .%\n%%%%%%%\n", "Pacman is walled in"),
    ("%%%%%%%\n%P %%.%\n%%%%%%%\n", "cannot reach"),
    ("%%%%%%%\n%P .%G%\n%%%%%%%\n", "ghost 1 is walled in"),
])
def test_an_unplayable_layout_is_one_line(tmp_path: Path, text: str, problem: str,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.lay"
    path.write_text(text)
    for command in (["play", "-q", "-p", "greedy", "-l", str(path)],
                    ["batch", "-p", "greedy", "-l", str(path), "--dry-run", "-o",
                     str(tmp_path / "r.db")]):
        assert main(command) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "not playable" in err and problem in err, err


def test_unknown_characters_are_floor_with_a_note(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "odd.lay"
    path.write_text("%%%%%%\n%P x.%\n%%%%%%\n")
    assert main(["play", "-q", "-p", "greedy", "-l", str(path), "--seed", "1"]) == 0
    captured = capsys.readouterr()
    assert "'x' read as empty floor" in captured.err and "win" in captured.out


def test_one_bad_layout_file_does_not_hide_the_others(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    for path in LAYOUT_DIR.glob("*.lay"):
        (tmp_path / path.name).write_text(path.read_text())
    (tmp_path / "broken.lay").write_text("%%%\n%P\n")
    real = pacman.cli.layouts.list_layouts
    monkeypatch.setattr(pacman.cli.layouts, "list_layouts", lambda: real(tmp_path))
    assert main(["layouts"]) == 0
    captured = capsys.readouterr()
    assert "mediumClassic" in captured.out and "broken" not in captured.out
    assert "broken.lay is not listed" in captured.err
