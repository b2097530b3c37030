"""The `utilities` demo ("Multi-agent utilities"): cooperative max^n ghosts catch Pacman, and
competitive ones do not, on `utilitiesRing` against the same Pacman."""

from __future__ import annotations

import pytest

from pacman.demos import find_demo
from pacman.demos.measure import play_demo
from pacman.demos.utilities import COMPETITIVE, COOPERATIVE, DEMOS, catches, mean_ghost_gap
from pacman.layout import load_layout

DEMO = DEMOS[0]


def test_the_demo_is_found_by_name_on_its_own_layout() -> None:
    assert find_demo("utilities") is DEMO
    assert DEMO.title == "Multi-agent utilities"
    assert load_layout(COOPERATIVE.layout).ghost_starts == ((8, 1), (9, 1))
    assert COOPERATIVE.pacman == COMPETITIVE.pacman  # the same Pacman in both


def test_cooperative_ghosts_catch_pacman_competitive_ones_let_it_go() -> None:
    results = play_demo(DEMO, 10, jobs=1)
    together, apart = results["cooperative"], results["competitive"]
    assert "".join(r.outcome.value[0] for r in together) == "wllllwlwll"
    assert [r.pacman_moves for r in together[:6]] == [69, 26, 26, 26, 35, 66]
    assert catches(together) == 7 and catches(apart) == 0
    assert all((r.score, r.pacman_moves) == (954, 66) for r in apart)  # the same run each time
    assert mean_ghost_gap(COMPETITIVE, apart) == 1.0  # one right behind the other
    assert mean_ghost_gap(COOPERATIVE, together) > 5  # split up around the loop
    verdict = DEMO.judge(results)
    assert verdict.holds
    assert "caught Pacman in 7/10 games (70%" in verdict.text
    assert "caught Pacman in 0/10 games (0%" in verdict.text


def test_the_judge_can_say_no() -> None:
    results = play_demo(DEMO, 3, jobs=1)
    swapped = {"cooperative": results["competitive"], "competitive": results["cooperative"]}
    verdict = DEMO.judge(swapped)
    assert not verdict.holds and "The claim needs cooperative ghosts" in verdict.text
    assert DEMO.judge({}).holds is False


@pytest.mark.slow
def test_full_size_100_games_per_matchup() -> None:
    results = play_demo(DEMO, 100, jobs=1)
    verdict = DEMO.judge(results)
    assert verdict.holds, verdict.text
    assert catches(results["cooperative"]) == 83 and catches(results["competitive"]) == 0
