"""Tournaments: the Bradley-Terry fit on records whose answer is known, and `pacman tournament`."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from pacman.cli import main
from pacman.cli.tournament import _records
from pacman.experiments.config import GameConfig, StoredGame
from pacman.experiments.ratings import (
    MatchRecord,
    bootstrap_ratings,
    bradley_terry,
    elo_ratings,
    pairwise_wins,
)
from pacman.record import Outcome
from pacman.specs import AgentSpec

SCORE = "alphabeta@depth=1,evaluation=score"
BETTER = "alphabeta@depth=1,evaluation=better"


def cli(*args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


# --- the fit ------------------------------------------------------------------------------


def test_equal_records_give_equal_ratings() -> None:
    strength = bradley_terry(np.array([[0, 5], [5, 0]]))
    assert list(elo_ratings(strength)) == pytest.approx([1500, 1500])


def test_a_three_to_one_record_is_a_strength_ratio_of_three() -> None:
    # the likelihood p1**3 p2 / (p1 + p2)**4 is largest at p1 / p2 = 3; ratings differ by
    # 400 * log10(3) = 190.849 around the mean 1500: 1595.42 and 1404.58
    strength = bradley_terry(np.array([[0, 3], [1, 0]]))
    assert strength[0] / strength[1] == pytest.approx(3)
    ratings = elo_ratings(strength)
    assert ratings[0] - ratings[1] == pytest.approx(400 * math.log10(3))
    assert list(ratings) == pytest.approx([1595.424, 1404.576], abs=1e-3)


def test_three_agents_with_records_that_fit_strengths_four_two_one() -> None:
    # strengths 4, 2, 1: expected records 4:2 in 6 games, 4:1 in 5, 2:1 in 3; the MM fixed
    # point W_i = sum_j N_ij p_i / (p_i + p_j) holds exactly there (e.g. agent 0: 4 + 4 = 6 *
    # 4/6 + 5 * 4/5), so the fit is 4:2:1, ratings 120.41 = 400 log10(2) apart
    wins = np.array([[0, 4, 4], [2, 0, 2], [1, 1, 0]])
    strength = bradley_terry(wins)
    assert list(strength / strength[2]) == pytest.approx([4, 2, 1])
    assert list(np.diff(elo_ratings(strength))) == pytest.approx([-120.412] * 2, abs=1e-3)
    assert float(np.mean(elo_ratings(strength))) == pytest.approx(1500)


def test_an_agent_that_never_wins_needs_the_prior() -> None:
    with pytest.raises(ValueError, match="never wins"):
        bradley_terry(np.array([[0, 4], [0, 0]]))
    # prior 0.5: a 4.5 : 0.5 record, strength ratio 9
    strength = bradley_terry(np.array([[0, 4], [0, 0]]), prior=0.5)
    assert strength[0] / strength[1] == pytest.approx(9)


def test_pairwise_wins_ties_count_half() -> None:
    wins = pairwise_wins({0: 10.0, 1: 10.0, 2: 5.0}, 4)  # agent 3 has no score: left out
    assert wins.tolist() == [[0, 0.5, 1, 0], [0.5, 0, 1, 0], [0, 0, 0, 0], [0, 0, 0, 0]]


def test_bootstrap_is_reproducible_and_brackets_the_fit() -> None:
    records = [MatchRecord("board", i, np.array([[0, 1.0], [0, 0]]) if i % 4
                           else np.array([[0, 0], [1.0, 0]])) for i in range(40)]
    ratings = bootstrap_ratings(["a", "b"], records, resamples=200)
    again = bootstrap_ratings(["a", "b"], records, resamples=200)
    assert ratings == again
    best, worst = ratings
    # 30 : 10 plus the prior of 0.5 each side: strengths 30.5 / 10.5
    assert best.name == "a" and best.rating - worst.rating == pytest.approx(
        400 * math.log10(30.5 / 10.5))
    assert (best.pairs_won, best.pairs, worst.pairs_won) == (30, 40, 10)
    assert best.low < best.rating < best.high and worst.low < worst.rating < worst.high


def stored(pacman: str, ghost: str, index: int, score: int) -> StoredGame:
    config = GameConfig(AgentSpec(pacman), AgentSpec(ghost), 1, "x", paired=True)
    return StoredGame(config, 0, index, 7, Outcome.WIN, True, score, 10, 0.0, None, 0, None,
                      "v", "{}", "code")


def test_pacman_and_ghost_agents_meet_on_the_same_seed() -> None:
    # scores: P0 vs G0 100, P0 vs G1 50, P1 vs G0 200, P1 vs G1 300
    games = [[[stored("P0", "G0", 0, 100)], [stored("P0", "G1", 0, 50)]],
             [[stored("P1", "G0", 0, 200)], [stored("P1", "G1", 0, 300)]]]
    # Pacman: P1 scores more against G0 and against G1: 2 pairs to P1
    (pacman,) = _records(games, ghost_side=False)
    assert pacman.wins.tolist() == [[0, 0], [2, 0]]
    # ghosts: against P0 G1 lets less (50 < 100), against P1 G0 does (200 < 300): 1 : 1
    (ghosts,) = _records(games, ghost_side=True)
    assert ghosts.wins.tolist() == [[0, 1], [1, 0]]


# --- pacman tournament ----------------------------------------------------------------------


def test_tournament_ranks_both_sides_and_reruns_the_same(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ("tournament", "-p", SCORE, "-p", BETTER, "-p", "greedy", "-g", "RandomGhost",
            "-g", "DirectionalGhost", "-l", "testClassic", "-n", "3", "-j", "1",
            "--bootstrap", "100", "-o", str(tmp_path / "t.db"))
    code, text, err = cli(*args, capsys=capsys)
    assert code == 0, err
    lines = text.splitlines()
    assert lines[0] == ("3 Pacman x 2 ghost agents x 1 board (testClassic, 1 ghost), 3 games "
                        f"per cell, paired seeds (batch seed 0), results in {tmp_path / 't.db'}")
    pacman = [line for line in lines if "| alphabeta" in line or "| greedy |" in line]
    assert len(pacman) == 3
    # each Pacman agent meets 2 others x 2 ghosts x 3 seeds = 12 times and plays 6 games
    assert all(" of 12 | " in line and line.endswith(" | 6 |") for line in pacman)
    ghosts = [line for line in lines if "Ghost |" in line]
    # each ghost agent meets the other on 3 Pacman agents x 3 seeds = 9 times, 9 games
    assert len(ghosts) == 2 and all(" of 9 | " in line and line.endswith(" | 9 |")
                                    for line in ghosts)
    assert "## Pacman agents" in text and "## Ghost agents" in text
    # the last Pacman (evaluation=score stalls) ranks last: its games score least
    assert pacman[2].startswith(f"| 3 | {SCORE} | ")
    again, text_again, _ = cli(*args, capsys=capsys)
    assert (again, text_again) == (0, text)
    code, data_text, _ = cli(*args, "--format", "json", capsys=capsys)
    data = json.loads(data_text)
    assert [entry["agent"] for entry in data["ratings"]["pacman"]][2] == SCORE
    assert sum(entry["rating"] for entry in data["ratings"]["ghosts"]) == pytest.approx(3000)


@pytest.mark.parametrize(("args", "message"), [
    ((), "no Pacman agent: give -p AGENT"),
    (("-p", SCORE), "a tournament needs two Pacman agents (-p) or two ghost agents (-g)"),
    (("-p", SCORE, "-p", "alphabeta@evaluation=score,depth=1"),
     "Pacman agents 'alphabeta@depth=1,evaluation=score' and "
     "'alphabeta@evaluation=score,depth=1' are the same agent"),
    (("-p", SCORE, "-p", "nosuchagent"), "nosuchagent"),
    (("-p", SCORE, "-p", BETTER, "-l", "noSuchLayout"), "noSuchLayout"),
    (("-p", SCORE, "-p", BETTER, "--bootstrap", "-1"), "--bootstrap"),
])
def test_tournament_mistakes_are_one_line(args: tuple[str, ...], message: str, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli("tournament", *args, "-o", str(tmp_path / "t.db"), capsys=capsys)
    assert code == 2 and out == ""
    assert err.startswith("pacman: ") and message in err and err.count("\n") == 1
    assert not (tmp_path / "t.db").exists()
