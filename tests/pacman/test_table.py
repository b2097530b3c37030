"""Tables and plots of stored games, checked against numbers worked out by hand."""

from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path

import pytest

from conftest import optional
from pacman.cli import main
from pacman.errors import TableError
from pacman.experiments.config import GameConfig, GameTask
from pacman.experiments.store import ResultStore, open_results
from pacman.experiments.table import mean_interval, summarize, t_quantile, wilson_interval
from pacman.record import GameRecord, Outcome
from pacman.specs import AgentSpec

DEPTH_2 = GameConfig(AgentSpec.of("AlphaBetaAgent", {"depth": 2, "evaluation": "better"}),
                     AgentSpec("RandomGhost"), 2, "smallClassic")
DEPTH_3 = GameConfig(AgentSpec.of("AlphaBetaAgent", {"depth": 3, "evaluation": "better"}),
                     AgentSpec("RandomGhost"), 2, "smallClassic")


def record(outcome: Outcome, score: int, moves: int, move_time: float,
           nodes: int | None) -> GameRecord:
    return GameRecord(layout="smallClassic", seed=0, agents=("a", "g", "g"), outcome=outcome,
                      score=score, pacman_moves=moves, actions=(),
                      pacman_nodes=(nodes,) * moves, pacman_move_times=(move_time,) * moves)


@pytest.fixture()
def results(tmp_path: Path) -> Path:
    """Depth 2: 7 wins (score 500, 100 moves) and 3 losses (score -500, 50 moves), 10 ms and
    100 nodes a move. Depth 3: 1 win, 1 crash, and 1 game killed by the time limit."""
    path = tmp_path / "results.db"
    with ResultStore(path) as store:
        for index in range(10):
            won = index < 7
            store.add(GameTask.of(DEPTH_2, 0, index),
                      record(Outcome.WIN if won else Outcome.LOSS, 500 if won else -500,
                             100 if won else 50, 0.01, 100))
        store.add(GameTask.of(DEPTH_3, 0, 0), record(Outcome.WIN, 1000, 40, 0.5, 2000))
        store.add(GameTask.of(DEPTH_3, 0, 1), record(Outcome.CRASH, 200, 10, 0.5, 1000))
        store.add(GameTask.of(DEPTH_3, 0, 2), record(Outcome.TIMEOUT, 0, 0, 0.0, None),
                  complete=False)
    return path


def test_wilson_interval_by_hand() -> None:
    # 7/10, z = 1.959964: centre = (0.7 + z²/20) / (1 + z²/10) = 0.644502,
    # half = z * sqrt(0.7 * 0.3 / 10 + z² / 400) / (1 + z²/10) = 0.247724
    low, high = wilson_interval(7, 10)
    assert (low, high) == pytest.approx((0.3968, 0.8922), abs=5e-5)
    assert wilson_interval(0, 10) == pytest.approx((0.0, 0.2775), abs=5e-5)
    assert wilson_interval(10, 10) == pytest.approx((0.7225, 1.0), abs=5e-5)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_t_quantiles_match_the_printed_tables() -> None:
    for df, expected in ((1, 12.7062), (2, 4.3027), (9, 2.2622), (30, 2.0423), (1000, 1.9623)):
        assert t_quantile(0.975, df) == pytest.approx(expected, abs=5e-5)
    assert mean_interval([3.0]) is None


def test_table_numbers_by_hand(results: Path) -> None:
    with open_results(results) as store:
        rows = summarize(store.games(), ["agent", "depth"])
    depth2, depth3 = rows
    assert depth2.group == (("agent", "AlphaBetaAgent"), ("depth", 2))
    assert (depth2.games, depth2.wins, depth2.losses) == (10, 7, 3)
    assert depth2.win_rate == 0.7
    assert (depth2.win_low, depth2.win_high) == pytest.approx((0.3968, 0.8922), abs=5e-5)
    # scores: mean (7 * 500 - 3 * 500) / 10 = 200; s² = (7 * 300² + 3 * 700²) / 9 = 233333.3;
    # half-width = t(0.975, 9) * s / sqrt(10) = 2.262157 * 483.0459 / 3.162278 = 345.5502
    assert depth2.score_mean == 200.0
    half = 2.262157 * math.sqrt(2_100_000 / 9) / math.sqrt(10)
    assert (depth2.score_low, depth2.score_high) == pytest.approx((200 - half, 200 + half),
                                                                  abs=1e-3)
    assert depth2.moves_mean == (7 * 100 + 3 * 50) / 10
    assert depth2.seconds_per_move == pytest.approx(0.01)
    assert depth2.nodes_per_move == pytest.approx(100.0)
    # the killed game counts as a game but has no score: averages use the two complete ones
    assert (depth3.games, depth3.wins, depth3.crashes, depth3.timeouts) == (3, 1, 1, 1)
    assert depth3.score_mean == 600.0 and depth3.moves_mean == 25.0
    assert depth3.seconds_per_move == pytest.approx(0.5)
    assert depth3.nodes_per_move == pytest.approx((40 * 2000 + 10 * 1000) / 50)


def test_grouping_by_other_columns(results: Path) -> None:
    with open_results(results) as store:
        games = store.games()
    (everything,) = summarize(games, ["layout"])
    assert (everything.games, everything.wins) == (13, 8)
    assert [row.group for row in summarize(games, ["evaluation", "ghost"])] == [
        (("evaluation", "better"), ("ghost", "RandomGhost"))]
    with pytest.raises(TableError, match="no column 'colour'"):
        summarize(games, ["colour"])


def test_table_command_formats(results: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["table", str(results)]) == 0
    markdown = capsys.readouterr().out
    assert "All games: agent AlphaBetaAgent, evaluation better, ghost RandomGhost" in markdown
    assert "| 2 | 10 | 7 | 0.70 [0.40, 0.89] | 200.0 [-145.6, 545.6] | 85.0 | 10.00 | 100 |" \
        in markdown
    assert "1 crash, 1 timeout" in markdown

    assert main(["table", str(results), "--by", "depth", "--format", "csv"]) == 0
    table = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [row["depth"] for row in table] == ["2", "3"]
    assert float(table[0]["win_low"]) == pytest.approx(0.3968, abs=5e-5)

    assert main(["table", str(results), "--by", "agent,depth", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows[1]["depth"] == 3 and rows[1]["timeouts"] == 1 and rows[1]["games"] == 3


def test_plot_files_are_written(results: Path, tmp_path: Path,
                                capsys: pytest.CaptureFixture[str]) -> None:
    optional("matplotlib", "plots")
    out = tmp_path / "plots"
    assert main(["plot", str(results), "--out", str(out), "--by", "agent,depth"]) == 0
    assert capsys.readouterr().out.splitlines() == [f"wrote {out / 'win_rate.png'}",
                                                    f"wrote {out / 'scores.png'}"]
    for name in ("win_rate.png", "scores.png"):
        assert (out / name).read_bytes().startswith(b"\x89PNG")


def test_default_columns_show_every_setting_that_varies(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """A store of a user's anytime agent at several time budgets and two ghost settings: the
    default table shows `time` and `ghost.prob_attack`, and none of the settings that are the
    same everywhere."""
    path = tmp_path / "r.db"
    with ResultStore(path) as store:
        for index, (time, attack) in enumerate([(0.1, 0.8), (0.2, 0.8), (0.1, 0.5)]):
            config = GameConfig(AgentSpec.of("IterativeAlphaBetaAgent",
                                             {"time": time, "tt": True}),
                                AgentSpec.of("DirectionalGhost", {"prob_attack": attack}), 1,
                                "smallClassic")
            store.add(GameTask.of(config, 0, index), record(Outcome.WIN, 10, 1, 0.01, 5))
    assert main(["table", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == ("All games: agent IterativeAlphaBetaAgent, ghost DirectionalGhost, "
                        "num_ghosts 1, layout smallClassic")
    assert lines[2].startswith("| time | ghost.prob_attack | games |")
    assert [line.split(" | ")[:2] for line in lines[4:7]] == [
        ["| 0.1", "0.5"], ["| 0.1", "0.8"], ["| 0.2", "0.8"]]
