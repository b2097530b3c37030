"""Paired comparisons: the statistics against hand computations, and `pacman compare`."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from pacman.cli import main
from pacman.experiments.config import GameConfig, StoredGame
from pacman.experiments.paired import (
    compare_games,
    format_p,
    mcnemar_p,
    pair_games,
    paired_t,
    paired_win_difference,
    verdict,
)
from pacman.record import Outcome
from pacman.specs import AgentSpec

SCORE = "alphabeta@depth=1,evaluation=score"  # stalls: loses or is capped on testClassic
BETTER = "alphabeta@depth=1,evaluation=better"  # wins every game there


def cli(*args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


# --- the statistics, by hand ----------------------------------------------------------------


def test_mcnemar_exact_p_by_hand() -> None:
    # b = 8, c = 1: 9 discordant pairs; P(X <= 1) for X ~ Bin(9, 1/2) is (C(9,0) + C(9,1)) / 2**9
    # = (1 + 9) / 512; two-sided: p = 2 * 10 / 512 = 0.0390625
    assert mcnemar_p(8, 1) == 0.0390625
    assert mcnemar_p(1, 8) == 0.0390625
    # b = 3, c = 0: p = 2 * 1 / 2**3 = 0.25
    assert mcnemar_p(3, 0) == 0.25
    # b = c = 5: 2 * (1 + 10 + 45 + 120 + 210 + 252) / 1024 = 1276 / 1024 > 1: capped at 1
    assert mcnemar_p(5, 5) == 1.0
    assert mcnemar_p(0, 0) == 1.0  # no discordant pair: no evidence


def test_paired_win_difference_wald_interval_by_hand() -> None:
    # n = 20 pairs, b = 8, c = 1: d = 7 / 20 = 0.35;
    # se = sqrt(b + c - (b - c)**2 / n) / n = sqrt(9 - 49 / 20) / 20 = sqrt(6.55) / 20
    # = 2.559297 / 20 = 0.127965; half = 1.959964 * 0.127965 = 0.250807: [0.099193, 0.600807]
    d, low, high = paired_win_difference(20, 8, 1)
    assert d == 0.35
    assert low == pytest.approx(0.099193, abs=1e-6)
    assert high == pytest.approx(0.600807, abs=1e-6)
    # all pairs discordant the same way: d = 1, se = sqrt(n - n) / n = 0: [1, 1]
    assert paired_win_difference(5, 5, 0) == (1.0, 1.0, 1.0)
    with pytest.raises(ValueError):
        paired_win_difference(3, 2, 2)  # more discordant pairs than pairs


def test_paired_t_by_hand() -> None:
    # d = 1, 2, 3, 4, 5: mean 3; s**2 = (4 + 1 + 0 + 1 + 4) / 4 = 2.5; se = sqrt(2.5 / 5)
    # = 0.707107; t(0.975, 4) = 2.776445: half = 1.963243, interval [1.036757, 4.963243];
    # t = 3 / 0.707107 = 4.242641, two-sided p with 4 df = 0.013236
    mean, low, high, p = paired_t([1, 2, 3, 4, 5]) or (0, 0, 0, 0)
    assert mean == 3
    assert low == pytest.approx(1.036757, abs=1e-6)
    assert high == pytest.approx(4.963243, abs=1e-6)
    assert p == pytest.approx(0.013236, abs=1e-6)
    # the sign of the differences flips the interval, not p
    flipped = paired_t([-1, -2, -3, -4, -5])
    assert flipped is not None and flipped[3] == pytest.approx(p)
    assert paired_t([7.0]) is None  # one pair: no variance
    assert paired_t([0, 0, 0]) == (0, 0, 0, 1.0)
    assert paired_t([2, 2]) == (2, 2, 2, 0.0)


def game(agent: str, index: int, outcome: Outcome, score: int | None, layout: str = "x",
         complete: bool = True) -> StoredGame:
    config = GameConfig(AgentSpec(agent), AgentSpec("RandomGhost"), 1, layout, paired=True)
    return StoredGame(config, 0, index, 100 + index, outcome, complete, score, 10, 0.0, None,
                      0, None, "v", "{}", "code")


WIN, LOSS, TIMEOUT = Outcome.WIN, Outcome.LOSS, Outcome.TIMEOUT


def test_compare_games_pairs_by_board_and_index() -> None:
    a = [game("A", 0, WIN, 500), game("A", 1, WIN, 400), game("A", 2, LOSS, -100),
         game("A", 3, WIN, 300, complete=False), game("A", 0, WIN, 450, layout="y"),
         game("A", 9, WIN, 999)]  # game 9 has no partner: left out
    b = [game("B", 0, LOSS, 100), game("B", 1, WIN, 300), game("B", 2, LOSS, -200),
         game("B", 3, LOSS, 50), game("B", 0, LOSS, 150, layout="y")]
    pairs = pair_games(a, b)
    assert [(x.config.layout, x.index, y.index) for x, y in pairs] == [
        ("x", 0, 0), ("x", 1, 1), ("x", 2, 2), ("x", 3, 3), ("y", 0, 0)]
    c = compare_games(a, b)
    assert (c.pairs, c.boards, c.a_wins, c.b_wins) == (5, 2, 4, 1)
    # discordant: A alone on x0, x3, y0 (b = 3); B alone never (c = 0): p = 2 / 2**3
    assert (c.only_a, c.only_b, c.win_p) == (3, 0, 0.25)
    assert c.win_difference == 3 / 5
    # the pair x3 has a killed game: out of the score test, counted;
    # d = 400, 100, 100, 300 (x0, x1, x2, y0)
    assert (c.scored_pairs, c.incomplete) == (4, 1)
    assert c.score_difference == 225
    assert c.a_score == (500 + 400 - 100 + 450) / 4
    assert c.b_score == (100 + 300 - 200 + 50 + 150) / 5
    with pytest.raises(ValueError, match="no pairs"):
        compare_games(a[5:], b)


def test_verdict_names_the_better_agent_with_its_positive_difference() -> None:
    a = [game("A", i, LOSS, 0) for i in range(9)]
    b = [game("B", i, WIN if i < 8 else LOSS, 10 * i) for i in range(9)]
    c = compare_games(a, b)  # B alone won 8 pairs: p = 2 * 1 / 2**8 = 0.0078125
    assert c.win_p == 0.0078125
    line = verdict(c, 0.05)
    assert line.startswith("B wins more often than A: +0.89 [+")
    assert ", p = 0.007812; B scores more than A: +40.0 [+" in line
    assert verdict(c, 0.001) == "no significant difference at 0.001"
    assert format_p(0.00001) == "< 0.0001" and format_p(0.5) == "0.5"


# --- pacman compare -------------------------------------------------------------------------


def test_compare_plays_paired_games_and_resumes(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "c.db"
    args = ("compare", SCORE, BETTER, "-l", "testClassic", "-n", "6", "-j", "1", "-o", str(out))
    code, text, err = cli(*args, capsys=capsys)
    assert code == 0, err
    lines = text.splitlines()
    assert lines[0] == f"A: {SCORE} (AlphaBetaAgent allow_stop=True depth=1 evaluation=score " \
                       "tie_break=first)"
    assert lines[2].startswith("6 pairs of games (same board, same seed) on 1 board "
                               "(testClassic, 1 RandomGhost), batch seed 0")
    assert "| A | 6 | " in text and "| B | 6 | 6 | 1.00 | " in text
    assert "| win rate | " in text and "| paired t on 6 pairs |" in text
    assert lines[-1].startswith("verdict: ")
    with sqlite3.connect(out) as db:
        seeds = db.execute("SELECT game_index, pacman_settings, seed FROM games").fetchall()
    assert len(seeds) == 12
    by_index: dict[int, set[int]] = {}
    for index, _, seed in seeds:
        by_index.setdefault(index, set()).add(seed)
    assert all(len(found) == 1 for found in by_index.values())  # A and B share each seed
    # a rerun plays nothing and prints the same
    again, text_again, _ = cli(*args, capsys=capsys)
    assert (again, text_again) == (0, text)
    code, data_text, _ = cli(*args, "--format", "json", capsys=capsys)
    data = json.loads(data_text)
    assert data["comparison"]["pairs"] == 6 and data["comparison"]["b_wins"] == 6
    assert data["sequential"] is None and data["level"] == 0.05
    assert data["a_configs"][0]["paired"] is True


def test_sequential_stops_at_the_first_significant_round(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "s.db"
    code, text, err = cli("compare", SCORE, BETTER, "-l", "testClassic", "-n", "40",
                          "--sequential", "--step", "10", "-j", "1", "-o", str(out),
                          capsys=capsys)
    assert code == 0, err
    # 4 rounds planned, two tests a round: each tested at 0.05 / 8 = 0.00625; the scores
    # differ enough at once
    assert ("sequential: stopped after 10 of 40 games per board (round 1 of 4, each tested "
            "at 0.00625 = alpha / (2 x 4))") in text
    with sqlite3.connect(out) as db:
        assert db.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 20


def test_interrupted_compare_is_one_line_and_exit_130(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    import pacman.experiments
    from pacman.experiments import BatchInterrupted, BatchResult

    def stopped(*args: object, **kwargs: object) -> None:
        raise BatchInterrupted(BatchResult(tmp_path / "c.db", 12, 2, 3))

    monkeypatch.setattr(pacman.experiments, "run_batch", stopped)
    code, _, err = cli("compare", SCORE, BETTER, "-l", "testClassic", "-n", "6", "-o",
                       str(tmp_path / "c.db"), capsys=capsys)
    assert code == 130
    assert err == (f"pacman: interrupted: 5 of 12 games are stored in {tmp_path / 'c.db'}; "
                   "run the same command again to resume\n")


@pytest.mark.parametrize(("args", "message"), [
    ((SCORE, SCORE), "A and B are the same agent (AlphaBetaAgent with the same settings)"),
    ((SCORE, "alphabeta@depth=1,evaluation=score,tie_break=first"), "the same agent"),
    ((SCORE, "nosuchagent"), "nosuchagent"),
    ((SCORE, BETTER, "-l", "noSuchLayout"), "noSuchLayout"),
    ((SCORE, BETTER, "-n", "0"), "-n/--games: expected a whole number from 1"),
    ((SCORE, BETTER, "--step", "5"), "--step needs --sequential"),
    ((SCORE, BETTER, "--alpha", "1.5"), "expected a level between 0 and 1"),
    ((SCORE, "alphabeta@depth=1|2"), "names 2 agents: give one setting value each"),
])
def test_compare_mistakes_are_one_line(args: tuple[str, ...], message: str, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli("compare", *args, "-o", str(tmp_path / "c.db"), capsys=capsys)
    assert code == 2 and out == ""
    assert err.startswith("pacman: ") and message in err
    assert err.count("\n") == 1 or err.startswith("usage:")
    assert not (tmp_path / "c.db").exists()
