"""The `forward-pruning` demo: a depth-3 Pacman that searches only the best-looking move of each
node runs into a dead end; the full search takes the detour through the gap and wins."""

from __future__ import annotations

import pytest

from pacman.demos import find_demo
from pacman.demos.demo import game_states
from pacman.demos.forward import DEMOS, FULL, PRUNED
from pacman.demos.measure import play_demo
from pacman.record import Outcome

DEMO = DEMOS[0]


def test_the_demo_is_found_by_name_and_only_forward_differs() -> None:
    assert find_demo("forward-pruning") is DEMO
    rest = {k: v for k, v in PRUNED.pacman.settings_dict().items() if k != "forward"}
    assert rest == FULL.pacman.settings_dict()
    assert PRUNED.pacman.settings_dict()["forward"] == 1
    assert (FULL.ghosts, FULL.layout) == (PRUNED.ghosts, PRUNED.layout)


def test_the_full_search_takes_the_gap_and_the_pruned_one_runs_into_the_dead_end() -> None:
    results = play_demo(DEMO, 4, jobs=1)
    full, pruned = results[FULL.label], results[PRUNED.label]
    assert [(r.outcome, r.pacman_moves) for r in full] == [(Outcome.WIN, 34)] * 4
    assert [(r.outcome, r.pacman_moves) for r in pruned] == [(Outcome.LOSS, 9)] * 4
    went = [s.pacman_position for s in game_states(FULL, full[0])[::2]]
    assert went[:6] == [(4, 5), (4, 5), (5, 5), (6, 5), (6, 4), (6, 3)]  # down the gap
    ran = [s.pacman_position for s in game_states(PRUNED, pruned[0])[::2]]
    assert ran[-1] == (11, 5)  # caught at the east end of the top corridor
    verdict = DEMO.judge(results)
    assert verdict.holds, verdict.text
    assert "full search won 4/4" in verdict.text and "forward pruning won 0/4" in verdict.text


def test_the_judge_can_say_no() -> None:
    results = play_demo(DEMO, 2, jobs=1)
    swapped = {FULL.label: results[PRUNED.label], PRUNED.label: results[FULL.label]}
    assert not DEMO.judge(swapped).holds
    assert DEMO.judge({}).holds is False


@pytest.mark.slow
def test_full_size_100_games_per_matchup() -> None:
    results = play_demo(DEMO, 100, jobs=2)
    verdict = DEMO.judge(results)
    assert verdict.holds, verdict.text
    assert sum(r.won for r in results[FULL.label]) == 94
    assert sum(r.won for r in results[PRUNED.label]) == 20
