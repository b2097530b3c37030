"""The `thrashing` and `thrashing-fixed` demos: a depth-2 score-only Pacman steps back and forth
between two dots on `thrashing`; with the `food` evaluation the same Pacman eats and wins."""

from __future__ import annotations

import pytest

from pacman.agents.pacman_agents import AlphaBetaAgent
from pacman.agents.search import alphabeta
from pacman.demos import find_demo
from pacman.demos.demo import play_matchup, reversals
from pacman.demos.measure import play_demo
from pacman.demos.thrashing import DEMOS, FIXED, SCORE_ONLY, dithering_moves
from pacman.layout import load_layout
from pacman.record import Outcome
from pacman.state import GameState

THRASHING, FIXED_DEMO = DEMOS


def test_the_demos_are_found_by_name_and_only_the_evaluation_differs() -> None:
    assert find_demo("thrashing") is THRASHING and find_demo("thrashing-fixed") is FIXED_DEMO
    assert THRASHING.title == "Thrashing (d=2)" and FIXED_DEMO.title == "Thrashing fixed"
    assert THRASHING.matchups == (SCORE_ONLY,) and FIXED_DEMO.matchups == (FIXED,)
    assert SCORE_ONLY.pacman.settings_dict()["evaluation"] == "score"
    assert FIXED.pacman.settings_dict()["evaluation"] == "food"
    assert ({**SCORE_ONLY.pacman.settings_dict(), "evaluation": "food"}
            == dict(FIXED.pacman.settings_dict()))
    assert (SCORE_ONLY.ghosts, SCORE_ONLY.layout) == (FIXED.ghosts, FIXED.layout)


def test_at_the_start_eating_now_and_eating_a_move_later_tie() -> None:
    """The cause: West (then eat the dot below) scores what East (eat now) scores."""
    start = GameState.initial(load_layout(SCORE_ONLY.layout))
    agent = AlphaBetaAgent(depth=2, evaluation="score", allow_stop=False)
    decision = alphabeta(start, 2, agent.evaluation, actions=agent._actions)
    assert decision.value == 8  # +10 for a dot, -1 per move
    assert [str(a) for a in decision.best_actions] == ["West", "East"]
    assert str(decision.action) == "West"
    fixed = AlphaBetaAgent(depth=2, evaluation="food", allow_stop=False)
    assert str(fixed.get_action(start)) == "East"  # eats at once


def test_score_only_pacman_goes_back_and_forth_beside_the_dots() -> None:
    results = play_demo(THRASHING, 6, jobs=1)[SCORE_ONLY.label]
    assert "".join(r.outcome.value[0] for r in results) == "wllcwl"
    assert results[0].actions[::2][:6] == ("West", "East") * 3
    assert [dithering_moves(SCORE_ONLY, r) for r in results] == [73, 11, 43, 138, 65, 25]
    assert [reversals(SCORE_ONLY, r) for r in results] == [74, 13, 45, 274, 65, 113]
    assert results[3].outcome is Outcome.CAPPED and results[3].pacman_moves == 300
    verdict = THRASHING.judge({SCORE_ONLY.label: results})
    assert verdict.holds, verdict.text
    assert "In 6/6 games it stepped back and forth" in verdict.text


def test_the_food_evaluation_eats_at_once_and_wins() -> None:
    results = play_demo(FIXED_DEMO, 6, jobs=1)[FIXED.label]
    assert [r.outcome for r in results] == [Outcome.WIN] * 6
    assert [r.pacman_moves for r in results] == [18, 20, 18, 18, 14, 14]
    assert [dithering_moves(FIXED, r) for r in results] == [0] * 6
    verdict = FIXED_DEMO.judge({FIXED.label: results})
    assert verdict.holds, verdict.text
    assert "won 6/6" in verdict.text


def test_the_judges_can_say_no() -> None:
    score_only = [play_matchup(SCORE_ONLY, seed) for seed in range(3)]
    fixed = [play_matchup(FIXED, seed) for seed in range(3)]
    no = THRASHING.judge({SCORE_ONLY.label: fixed})
    assert not no.holds and "in only 0/3 games" in no.text
    no = FIXED_DEMO.judge({FIXED.label: score_only})
    assert not no.holds and "The claim needs at most" in no.text
    assert THRASHING.judge({}).holds is False and FIXED_DEMO.judge({}).holds is False


@pytest.mark.slow
def test_full_size_100_games() -> None:
    thrashing = play_demo(THRASHING, 100, jobs=1)
    fixed = play_demo(FIXED_DEMO, 100, jobs=1)
    assert THRASHING.judge(thrashing).holds and FIXED_DEMO.judge(fixed).holds
    assert sum(r.won for r in thrashing[SCORE_ONLY.label]) == 31
    assert min(dithering_moves(SCORE_ONLY, r) for r in thrashing[SCORE_ONLY.label]) == 11
    assert sum(r.won for r in fixed[FIXED.label]) == 94
    assert max(dithering_moves(FIXED, r) for r in fixed[FIXED.label]) == 0
