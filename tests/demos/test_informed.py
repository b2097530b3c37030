"""`informed`: expectimax with the ghost's true model beats minimax and uniform expectimax."""

from __future__ import annotations

import pytest

from pacman import GameRecord, Outcome
from pacman.demos.demo import Results, play_matchup
from pacman.demos.informed import (
    DEMOS,
    INFORMED_LABEL,
    MINIMAX_LABEL,
    UNIFORM_LABEL,
    caught_in_dead_end,
    judge,
    mean_nodes,
)

DEMO = DEMOS[0]


def _play(games: int) -> Results:
    return {m.label: [play_matchup(m, seed) for seed in range(games)] for m in DEMO.matchups}


def _records(outcomes: str, score: int = 0) -> list[GameRecord]:
    """`wwl`: a win, a win, a loss, each with `score` and 10 nodes a move."""
    kinds = {"w": Outcome.WIN, "l": Outcome.LOSS}
    return [GameRecord(layout="informedHunt", seed=i, agents=(), outcome=kinds[o], score=score,
                       pacman_moves=2, actions=(), pacman_nodes=(10, None))
            for i, o in enumerate(outcomes)]


def test_the_three_pacmen_differ_only_in_their_ghost_model() -> None:
    assert (DEMO.name, DEMO.title) == ("informed", "Informed probabilities")
    assert [m.label for m in DEMO.matchups] == [MINIMAX_LABEL, UNIFORM_LABEL, INFORMED_LABEL]
    names = [m.pacman.name for m in DEMO.matchups]
    assert names == ["AlphaBetaAgent", "ExpectimaxAgent", "InformedExpectimaxAgent"]
    for matchup in DEMO.matchups:
        assert matchup.pacman.settings_dict()["depth"] == 2
        assert matchup.pacman.settings_dict()["evaluation"] == "better"
        assert [g.name for g in matchup.ghosts] == ["NoisyHunterGhost"]
        assert matchup.ghosts[0].settings_dict() == {"depth": 2, "prob_search": 0.8}
    informed = DEMO.matchups[2].pacman.settings_dict()
    assert (informed["ghost_depth"], informed["prob_search"]) == (2, 0.8)  # the true model


def test_the_claim_holds_at_a_few_games() -> None:
    results = _play(6)
    verdict = DEMO.judge(results)
    assert verdict.holds, verdict.text
    assert "informed expectimax won 6/6" in verdict.text
    # the price: the informed Pacman simulates the ghost at every chance node
    assert mean_nodes(results[INFORMED_LABEL]) > 5 * mean_nodes(results[UNIFORM_LABEL])
    # where the uninformed Pacmans die: the dead end at the bottom left
    for matchup in DEMO.matchups[:2]:
        lost = [r for r in results[matchup.label] if r.outcome == Outcome.LOSS]
        assert lost and caught_in_dead_end(matchup, lost) == len(lost)


def test_a_game_is_the_same_for_the_same_seed() -> None:
    informed = DEMO.matchups[2]
    assert play_matchup(informed, 3) == play_matchup(informed, 3)


def test_the_judge_wants_more_wins_and_a_better_mean_score() -> None:
    good = {MINIMAX_LABEL: _records("wlll", -300), UNIFORM_LABEL: _records("lwll", -300),
            INFORMED_LABEL: _records("wwwl", 300)}
    verdict = judge(good)
    assert verdict.holds, verdict.text
    assert "informed expectimax won 3/4 [30%, 95%], mean score 300, 2 moves, 10 nodes a move" \
        in verdict.text
    assert not judge({**good, INFORMED_LABEL: _records("wlll", 300)}).holds  # no more wins
    assert not judge({**good, UNIFORM_LABEL: _records("lwll", 400)}).holds  # a better score
    assert judge({**good, MINIMAX_LABEL: []}).text == "no games played"
    assert mean_nodes(_records("ww")) == 10 and mean_nodes([]) == 0


@pytest.mark.slow
def test_the_claim_holds_at_full_size() -> None:
    verdict = DEMO.judge(_play(100))
    print(verdict.text)
    assert verdict.holds, verdict.text
