"""`pacman play -p NAME@k=v -g NAME@k=v`: the settings spelling of `pacman batch`, the same game
as `-a` and `--ghost-args` give."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pacman.cli import main

GAME = ["-l", "smallClassic", "-q", "--seed", "3", "--max-moves", "60"]


def played(tmp_path: Path, name: str, *options: str) -> dict[str, Any]:
    """The replay file of a `pacman play` of `GAME` with `options`, as JSON."""
    path = tmp_path / f"{name}.json"
    assert main(["play", *options, *GAME, "--record", str(path)]) == 0
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def test_inline_settings_play_the_game_of_the_separate_options(tmp_path: Path) -> None:
    inline = played(tmp_path, "inline", "-p", "alphabeta@depth=2,evaluation=better",
                    "-g", "DirectionalGhost@prob_attack=1.0")
    separate = played(tmp_path, "separate", "-p", "alphabeta", "-a", "depth=2,evaluation=better",
                      "-g", "DirectionalGhost", "--ghost-args", "prob_attack=1.0")
    assert inline["agents"][0] == "AlphaBetaAgent depth=2 better"
    assert inline["agents"][1:] == ["DirectionalGhost prob_attack=1 prob_scared_flee=0.8"] * 2
    for key in ("agents", "actions", "score", "outcome", "digest"):
        assert inline[key] == separate[key], key
    # the settings were used: without them the game differs
    plain = played(tmp_path, "plain", "-p", "alphabeta", "-g", "DirectionalGhost")
    assert plain["agents"][0] == "AlphaBetaAgent depth=2 score"
    assert plain["actions"] != inline["actions"]


def test_an_indexed_ghost_setting_goes_over_the_inline_one(tmp_path: Path) -> None:
    record = played(tmp_path, "indexed", "-p", "alphabeta@depth=1",
                    "-g", "DirectionalGhost@prob_attack=1.0", "--ghost-args", "2:prob_attack=0.5")
    assert record["agents"][1:] == ["DirectionalGhost prob_attack=1 prob_scared_flee=0.8",
                                    "DirectionalGhost prob_attack=0.5 prob_scared_flee=0.8"]


def test_a_trailing_at_means_no_settings(tmp_path: Path) -> None:
    assert played(tmp_path, "bare", "-p", "alphabeta@", "-a", "depth=1")["agents"][0] == \
        "AlphaBetaAgent depth=1 score"


@pytest.mark.parametrize(("options", "message"), [
    (["-p", "expectimax@depth=2", "-a", "depth=3"],
     "pacman: error: -p expectimax@depth=2: Pacman's settings go after @ or in -a, not both\n"),
    (["-p", "@depth=2"], "pacman: error: bad agent '@depth=2': write NAME or NAME@k=v,k=v\n"),
    (["-p", "expectimax", "-g", "@prob_attack=1"],
     "pacman: error: bad agent '@prob_attack=1': write NAME or NAME@k=v,k=v\n"),
    (["-p", "expectimax", "-g", "DirectionalGhost@prob_attack=1",
      "--ghost-args", "prob_attack=0.5"],
     "pacman: error: --ghost-args: setting 'prob_attack' given twice for every ghost\n"),
    (["-p", "expectimax@depth=two"],
     None),
])
def test_mistakes_are_one_line(options: list[str], message: str | None,
                               capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", *options, *GAME]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("pacman: error: ")
    if message is not None:
        assert err == message
    else:
        assert "depth" in err
