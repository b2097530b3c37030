"""The `min-vs-exp` demo ("Min vs. Exp") on `trappedClassic`: minimax Pacman runs into a ghost
at once (score -501); expectimax Pacman tries its luck and wins about half its games (532)."""

from __future__ import annotations

import pytest

from pacman.demos import find_demo
from pacman.demos.measure import play_demo
from pacman.demos.minexp import DEMOS, EXPECTIMAX, MINIMAX
from pacman.record import Outcome

DEMO = DEMOS[0]


def test_the_demo_is_found_by_name_with_the_assignments_settings() -> None:
    assert find_demo("min-vs-exp") is DEMO
    assert DEMO.title == "Min vs. Exp"
    assert MINIMAX.layout == EXPECTIMAX.layout == "trappedClassic"
    assert MINIMAX.pacman.settings_dict() == EXPECTIMAX.pacman.settings_dict() == {"depth": 3}
    assert [g.name for g in MINIMAX.ghosts] == ["RandomGhost"] * 2


def test_minimax_gives_up_expectimax_wins_about_half() -> None:
    results = play_demo(DEMO, 10, jobs=1)
    minimax, expectimax = results[MINIMAX.label], results[EXPECTIMAX.label]
    assert all((r.outcome, r.score, r.pacman_moves) == (Outcome.LOSS, -501, 1) for r in minimax)
    assert "".join(r.outcome.value[0] for r in expectimax) == "wllllwlwlw"
    assert {r.score for r in expectimax if r.won} == {532}
    assert {r.score for r in expectimax if not r.won} == {-502}
    verdict = DEMO.judge(results)
    assert verdict.holds, verdict.text
    assert "Minimax Pacman won 0/10 (mean score -501.0" in verdict.text
    assert "Expectimax Pacman won 4/10" in verdict.text


def test_the_judge_can_say_no() -> None:
    results = play_demo(DEMO, 4, jobs=1)
    # an expectimax that never wins is not "about half" once there are enough games
    losses = [r for r in results[EXPECTIMAX.label] if not r.won]
    no = DEMO.judge({MINIMAX.label: results[MINIMAX.label],
                     EXPECTIMAX.label: (losses * 10)[:20]})
    assert not no.holds and "about half" in no.text
    swapped = {MINIMAX.label: results[EXPECTIMAX.label], EXPECTIMAX.label: results[MINIMAX.label]}
    assert not DEMO.judge(swapped).holds
    assert DEMO.judge({}).holds is False


@pytest.mark.slow
def test_full_size_100_games_per_matchup() -> None:
    results = play_demo(DEMO, 100, jobs=1)
    verdict = DEMO.judge(results)
    assert verdict.holds, verdict.text
    assert sum(r.won for r in results[MINIMAX.label]) == 0
    assert sum(r.won for r in results[EXPECTIMAX.label]) == 47
