"""`pacman table --bounds`: every row of a results table shows beside its win rate the best
any Pacman can do on its layout against its ghosts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pacman.cli import main


def test_each_row_carries_its_best_possible(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    store = str(tmp_path / "games.db")
    assert main(["batch", "-p", "random", "-g", "DirectionalGhost", "-k", "2",
                 "-l", "trappedClassic", "-l", "minimaxClassic", "-n", "2", "-j", "1",
                 "--max-moves", "200", "-o", store]) == 0
    capsys.readouterr()
    assert main(["table", store, "--bounds", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    found = {row["layout"]: (row["best_possible"], row["best_possible_kind"]) for row in rows}
    assert found["trappedClassic"] == (pytest.approx(0.1, abs=1e-15), "exact")
    assert found["minimaxClassic"][1] == "exact"
    assert found["minimaxClassic"][0] == pytest.approx(0.96682594375, abs=1e-10)
    assert main(["table", store, "--bounds"]) == 0
    text = capsys.readouterr().out
    header = next(line for line in text.splitlines() if line.startswith("| layout"))
    assert "| win rate [95% CI] | best possible |" in header
    assert "| 0.100 |" in text and "| 0.967 |" in text


def test_without_the_flag_the_table_is_unchanged(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    store = str(tmp_path / "games.db")
    assert main(["batch", "-p", "random", "-g", "DirectionalGhost", "-l", "trappedClassic",
                 "-n", "1", "-j", "1", "-o", store]) == 0
    capsys.readouterr()
    assert main(["table", store, "--format", "json"]) == 0
    assert "best_possible" not in capsys.readouterr().out
