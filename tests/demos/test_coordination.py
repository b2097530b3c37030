"""`smart-ghosts`: two ghosts that search as a team trap Pacman; two independent ones do not."""

from __future__ import annotations

import pytest

from pacman import GameRecord, Outcome
from pacman.demos.coordination import (
    ALONE_LABEL,
    DEMOS,
    INDEPENDENT_LABEL,
    TEAM_LABEL,
    ghost_spread,
    judge,
)
from pacman.demos.demo import Results, play_matchup

DEMO = DEMOS[0]


def _play(games: int) -> Results:
    return {m.label: [play_matchup(m, seed) for seed in range(games)] for m in DEMO.matchups}


def _records(outcomes: str) -> list[GameRecord]:
    """`wwl`: a win, a win, a loss (scores and moves made up)."""
    kinds = {"w": Outcome.WIN, "l": Outcome.LOSS, "c": Outcome.CAPPED}
    return [GameRecord(layout="smartGhosts", seed=i, agents=(), outcome=kinds[o],
                       score=1000 if o == "w" else -300, pacman_moves=90 if o == "w" else 40,
                       actions=()) for i, o in enumerate(outcomes)]


def test_the_demo_is_named_as_in_the_lecture() -> None:
    assert (DEMO.name, DEMO.title) == ("smart-ghosts", "Smart ghosts (coordination)")
    assert [m.label for m in DEMO.matchups] == [TEAM_LABEL, INDEPENDENT_LABEL, ALONE_LABEL]
    assert all(m.pacman == DEMO.matchups[0].pacman for m in DEMO.matchups)  # one Pacman
    team, independent, alone = DEMO.matchups
    assert [g.name for g in team.ghosts] == ["TeamGhost", "TeamGhost"]
    assert [g.name for g in independent.ghosts] == ["AdversarialGhost", "AdversarialGhost"]
    assert team.ghosts[0].settings_dict() == independent.ghosts[0].settings_dict() == {"depth": 2}
    assert len(alone.ghosts) == 1


def test_the_claim_holds_at_a_few_games() -> None:
    results = _play(4)
    verdict = DEMO.judge(results)
    assert verdict.holds, verdict.text
    team, independent, _ = DEMO.matchups
    # independent hunters run together; the team spreads out
    assert ghost_spread(independent, results[INDEPENDENT_LABEL]) < 2
    assert ghost_spread(team, results[TEAM_LABEL]) > 4
    assert "Two team ghosts caught 4/4" in verdict.text
    assert "two independent adversarial ghosts of the same depth caught 0/4" in verdict.text


def test_a_game_is_the_same_for_the_same_seed() -> None:
    team = DEMO.matchups[0]
    assert play_matchup(team, 5) == play_matchup(team, 5)


def test_the_judge_wants_a_team_that_catches_and_others_that_do_not() -> None:
    good = {TEAM_LABEL: _records("lllw"), INDEPENDENT_LABEL: _records("wwlw"),
            ALONE_LABEL: _records("wwww")}
    verdict = judge(good)
    assert verdict.holds
    assert "Two team ghosts caught 3/4 (Pacman won 1/4, mean score 25, 52 moves)" in verdict.text
    assert not judge({**good, TEAM_LABEL: _records("llww")}).holds  # the team catches half
    assert not judge({**good, INDEPENDENT_LABEL: _records("llww")}).holds  # they catch too
    assert not judge({**good, ALONE_LABEL: _records("llwc")}).holds  # a lone ghost suffices
    assert judge({**good, INDEPENDENT_LABEL: []}).text == "no games played"


@pytest.mark.slow
def test_the_claim_holds_at_full_size() -> None:
    results = _play(100)
    verdict = DEMO.judge(results)
    print(verdict.text)
    assert verdict.holds, verdict.text
