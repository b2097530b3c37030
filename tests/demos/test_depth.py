"""The `depth` demo ("Limited depth (2) vs (10)"): the same score-only Pacman dithers in its
pocket and is caught searching 2 plies, and wins searching 10, on `depthLimit`."""

from __future__ import annotations

import pytest

from pacman.demos import find_demo
from pacman.demos.demo import reversals
from pacman.demos.depth import DEEP, DEMOS, SHALLOW, dots_eaten
from pacman.demos.measure import play_demo
from pacman.layout import load_layout
from pacman.record import Outcome
from pacman.state import GameState

DEMO = DEMOS[0]


def test_the_demo_is_found_by_name_and_only_the_depth_differs() -> None:
    assert find_demo("depth") is DEMO
    assert DEMO.title == "Limited depth (2) vs (10)"
    assert (SHALLOW.pacman.settings_dict()["depth"],
            DEEP.pacman.settings_dict()["depth"]) == (2, 10)
    rest = {k: v for k, v in SHALLOW.pacman.settings_dict().items() if k != "depth"}
    assert rest == {k: v for k, v in DEEP.pacman.settings_dict().items() if k != "depth"}
    assert rest["time"] == 0 and rest["evaluation"] == "score"  # exact depth, score only
    assert (SHALLOW.ghosts, SHALLOW.layout) == (DEEP.ghosts, DEEP.layout)


def test_no_dot_is_within_two_moves_of_the_start_and_one_is_within_ten() -> None:
    layout = load_layout(SHALLOW.layout)
    start = GameState.initial(layout)
    distances = sorted(start.maze_distance(layout.pacman_start, dot) for dot in layout.food)
    assert distances[0] == 6 and distances[0] > 2


def test_depth_2_dithers_and_is_caught_depth_10_eats_every_dot_and_wins() -> None:
    results = play_demo(DEMO, 4, jobs=1)
    shallow, deep = results[SHALLOW.label], results[DEEP.label]
    assert [r.outcome for r in shallow] == [Outcome.LOSS] * 4
    assert [r.pacman_moves for r in shallow] == [122, 94, 36, 54]
    assert [dots_eaten(SHALLOW, r) for r in shallow] == [0, 0, 0, 0]
    # back and forth at the closed end of the pocket: every move but the first and the last
    # (the ghost is in the pocket then) undoes the one before
    assert [reversals(SHALLOW, r) for r in shallow] == [120, 92, 34, 52]
    assert shallow[0].actions[::2][:4] == ("East", "West", "East", "West")
    assert [r.outcome for r in deep] == [Outcome.WIN] * 4
    assert [(r.score, r.pacman_moves) for r in deep] == [(525, 25), (522, 28), (522, 28),
                                                          (522, 28)]
    assert [dots_eaten(DEEP, r) for r in deep] == [5, 5, 5, 5]
    verdict = DEMO.judge(results)
    assert verdict.holds, verdict.text
    assert "depth 2 won 0/4" in verdict.text and "depth 10 won 4/4" in verdict.text


def test_the_judge_can_say_no() -> None:
    results = play_demo(DEMO, 2, jobs=1)
    swapped = {SHALLOW.label: results[DEEP.label], DEEP.label: results[SHALLOW.label]}
    verdict = DEMO.judge(swapped)
    assert not verdict.holds and "The claim needs depth 2 to win at most" in verdict.text
    assert DEMO.judge({}).holds is False


@pytest.mark.slow
def test_full_size_100_games_per_matchup() -> None:
    results = play_demo(DEMO, 100, jobs=1)
    verdict = DEMO.judge(results)
    assert verdict.holds, verdict.text
    assert sum(r.won for r in results[SHALLOW.label]) == 0
    assert sum(r.won for r in results[DEEP.label]) == 100
