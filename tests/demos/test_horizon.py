"""The `horizon` demo: a depth-2 Pacman is caught in a dead end whose danger lies one step past
its horizon; the same Pacman with quiescence keeps out of it more often than not."""

from __future__ import annotations

import pytest

from pacman.demos import find_demo
from pacman.demos.horizon import DEMOS, PLAIN, QUIET, caught_in_dead_end
from pacman.demos.measure import play_demo
from pacman.record import Outcome

DEMO = DEMOS[0]


def test_the_demo_is_found_by_name_and_only_quiescence_differs() -> None:
    assert find_demo("horizon") is DEMO
    rest = {k: v for k, v in QUIET.pacman.settings_dict().items() if k != "quiescence"}
    assert rest == PLAIN.pacman.settings_dict()
    assert QUIET.pacman.settings_dict()["quiescence"] == 2
    assert rest["time"] == 0 and rest["depth"] == 2  # exactly two plies
    assert (PLAIN.ghosts, PLAIN.layout) == (QUIET.ghosts, QUIET.layout)


def test_the_plain_search_is_caught_in_the_dead_end_the_quiescent_one_keeps_out() -> None:
    results = play_demo(DEMO, 6, jobs=1)
    plain, quiet = results[PLAIN.label], results[QUIET.label]
    assert [(r.outcome, r.pacman_moves) for r in plain] == [
        (Outcome.LOSS, 12), (Outcome.LOSS, 12), (Outcome.WIN, 25), (Outcome.WIN, 40),
        (Outcome.LOSS, 12), (Outcome.LOSS, 12)]
    assert [(r.outcome, r.pacman_moves) for r in quiet] == [
        (Outcome.WIN, 39), (Outcome.WIN, 39), (Outcome.WIN, 25), (Outcome.WIN, 39),
        (Outcome.WIN, 39), (Outcome.LOSS, 11)]
    assert (caught_in_dead_end(PLAIN, plain), caught_in_dead_end(QUIET, quiet)) == (4, 1)
    verdict = DEMO.judge(results)
    assert verdict.holds, verdict.text
    assert "depth 2 won 2/6" in verdict.text and "quiescence won 5/6" in verdict.text


def test_the_judge_can_say_no() -> None:
    results = play_demo(DEMO, 2, jobs=1)
    swapped = {PLAIN.label: results[QUIET.label], QUIET.label: results[PLAIN.label]}
    assert not DEMO.judge(swapped).holds
    assert DEMO.judge({}).holds is False


@pytest.mark.slow
def test_full_size_100_games_per_matchup() -> None:
    results = play_demo(DEMO, 100, jobs=2)
    verdict = DEMO.judge(results)
    assert verdict.holds, verdict.text
    assert sum(r.won for r in results[PLAIN.label]) == 21
    assert sum(r.won for r in results[QUIET.label]) == 59
