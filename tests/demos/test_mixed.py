"""The `mixed` demo ("Mixed layer types"): against a hunting and a random ghost on
`mixedGhosts`, expectiminimax (min + chance layers) beats minimax and expectimax."""

from __future__ import annotations

import pytest

from pacman.demos import find_demo
from pacman.demos.demo import summarize
from pacman.demos.measure import play_demo
from pacman.demos.mixed import DEMOS, EXPECTIMAX, EXPECTIMINIMAX, MINIMAX
from pacman.layout import load_layout

DEMO = DEMOS[0]


def test_the_demo_is_found_by_name_and_compares_like_with_like() -> None:
    assert find_demo("mixed") is DEMO
    assert DEMO.title == "Mixed layer types"
    assert len(load_layout(EXPECTIMINIMAX.layout).ghost_starts) == 2
    # the same ghosts, depth, evaluation and settings: only the model of the ghosts differs
    settings = [dict(m.pacman.settings_dict()) for m in (EXPECTIMINIMAX, MINIMAX, EXPECTIMAX)]
    assert settings[0].pop("kinds") == "min,chance"
    assert settings[0] == settings[1] == settings[2]
    assert EXPECTIMINIMAX.ghosts == MINIMAX.ghosts == EXPECTIMAX.ghosts


def test_expectiminimax_beats_minimax_and_expectimax() -> None:
    results = play_demo(DEMO, 10, jobs=1)
    outcomes = {label: "".join(r.outcome.value[0] for r in games)
                for label, games in results.items()}
    assert outcomes == {"expectiminimax": "wwwwwwwwww", "minimax": "lllllwlwlw",
                        "expectimax": "llllllllll"}
    assert all(r.pacman_moves == 5 for r in results["expectimax"])  # shut in the pocket
    verdict = DEMO.judge(results)
    assert verdict.holds
    mixed = summarize(results["expectiminimax"])
    assert (mixed.wins, mixed.mean_score) == (10, 477.4)
    assert "won 10/10 (100%" in verdict.text and "won 3/10 (30%" in verdict.text


def test_the_judge_can_say_no() -> None:
    results = play_demo(DEMO, 3, jobs=1)
    swapped = dict(results, expectiminimax=results["minimax"])
    verdict = DEMO.judge(swapped)
    assert not verdict.holds and "The claim needs expectiminimax" in verdict.text
    assert DEMO.judge({}).holds is False


@pytest.mark.slow
def test_full_size_100_games_per_matchup() -> None:
    results = play_demo(DEMO, 100, jobs=1)
    verdict = DEMO.judge(results)
    assert verdict.holds, verdict.text
    wins = {label: summarize(games).wins for label, games in results.items()}
    assert wins == {"expectiminimax": 87, "minimax": 34, "expectimax": 0}
