"""`pacman export` and the Python export: one flat row per stored game, in every format."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from pacman.cli import main
from pacman.experiments.config import GameConfig, GameTask
from pacman.experiments.export import game_rows, to_dataframe
from pacman.experiments.store import ResultStore, open_results
from pacman.record import GameRecord, Outcome
from pacman.specs import AgentSpec

A = GameConfig(AgentSpec.of("AlphaBetaAgent", {"depth": 2}), AgentSpec("RandomGhost"), 1,
               "smallClassic")
B = GameConfig(AgentSpec.of("ExpectimaxAgent", {"depth": 3, "allow_stop": False}),
               AgentSpec.of("DirectionalGhost", {"prob_attack": 0.8}), 1, "smallClassic",
               paired=True)


@pytest.fixture()
def results(tmp_path: Path) -> Path:
    path = tmp_path / "r.db"
    with ResultStore(path) as store:
        for config, outcome, score in ((A, Outcome.WIN, 500), (B, Outcome.LOSS, -300)):
            task = GameTask.of(config, 0, 0, "abc123")
            store.add(task, GameRecord(layout="smallClassic", seed=task.seed, agents=("p", "g"),
                                       outcome=outcome, score=score, pacman_moves=2,
                                       actions=("West", "East", "West", "East"),
                                       pacman_nodes=(10, 20), pacman_move_times=(0.5, 0.25)))
    return path


def test_rows_have_every_setting_as_a_column(results: Path) -> None:
    with open_results(results) as store:
        games = store.games()
    rows = game_rows(games)
    assert list(rows[0]) == [
        "layout", "pacman", "ghost", "num_ghosts", "max_moves", "move_timeout", "paired",
        "pacman.allow_stop", "pacman.depth", "ghost.prob_attack", "base_seed", "index", "seed",
        "outcome", "complete", "score", "pacman_moves", "move_seconds", "nodes", "nodes_moves",
        "fault", "version", "code"]
    assert [(r["pacman"], r["pacman.depth"], r["pacman.allow_stop"], r["ghost.prob_attack"],
             r["paired"], r["outcome"], r["score"], r["nodes"], r["move_seconds"], r["code"])
            for r in rows] == [
        ("AlphaBetaAgent", 2, None, None, False, "win", 500, 30, 0.75, "abc123"),
        ("ExpectimaxAgent", 3, False, 0.8, True, "loss", -300, 30, 0.75, "abc123")]
    assert rows[0]["seed"] == games[0].seed


@pytest.mark.parametrize("suffix", [".csv", ".jsonl", ".parquet"])
def test_export_command_writes_each_format(results: Path, tmp_path: Path, suffix: str,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / f"games{suffix}"
    assert main(["export", str(results), "-o", str(out)]) == 0
    assert capsys.readouterr().out == f"wrote 2 games to {out}\n"
    if suffix == ".csv":
        with open(out, newline="") as file:
            rows = list(csv.DictReader(file))
        assert [(r["pacman"], r["score"], r["ghost.prob_attack"]) for r in rows] == [
            ("AlphaBetaAgent", "500", ""), ("ExpectimaxAgent", "-300", "0.8")]
    elif suffix == ".jsonl":
        rows = [json.loads(line) for line in out.read_text().splitlines()]
        assert [(r["pacman"], r["score"]) for r in rows] == [("AlphaBetaAgent", 500),
                                                             ("ExpectimaxAgent", -300)]
    else:
        import pandas

        frame = pandas.read_parquet(out)
        assert list(frame["score"]) == [500, -300] and list(frame["pacman.depth"]) == [2, 3]


def test_a_dataframe_of_the_games(results: Path) -> None:
    with open_results(results) as store:
        frame = to_dataframe(store.games())
    assert frame.shape == (2, 23)
    assert frame.groupby("pacman")["score"].mean().to_dict() == {"AlphaBetaAgent": 500,
                                                                "ExpectimaxAgent": -300}


@pytest.mark.parametrize(("arguments", "message"), [
    (["-o", "games.xlsx"], "unknown file type '.xlsx': use .csv, .jsonl, .parquet"),
    (["-o", "games.csv", "--code", "zzz"], "no games of code version 'zzz'"),
    (["-o", "no/such/folder/games.csv"], "cannot write no/such/folder/games.csv"),
])
def test_export_mistakes_are_one_line(results: Path, tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str], arguments: list[str],
                                      message: str) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["export", str(results), *arguments]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and err.startswith("pacman: error: ")
