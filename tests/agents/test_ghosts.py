"""Ghost policies: docs/rules.md 20 (random) and 21 (directional), plus the adversarial ghost."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from pacman import GameState, Outcome, parse_layout, run_game
from pacman.agents.ghosts import (
    AdversarialGhost,
    DirectionalGhost,
    RandomGhost,
    directional_distribution,
)
from pacman.rules import EAST, NORTH, SOUTH, STOP, WEST, Direction


def state_of(text: str) -> GameState:
    return GameState.initial(parse_layout(text))


def as_dict(pairs: list[tuple[Direction, float]]) -> dict[Direction, float]:
    return dict(pairs)


# A ghost between two ways: West (away from Pacman) and East (towards Pacman).
CORRIDOR = """
    %%%%%%%%%%
    %  G  P o%
    %%%%%%%%%%
"""


def test_rule_20_random_ghost_is_uniform_over_legal_actions() -> None:
    state = state_of("""
        %%%%%%%
        %P    %
        %  G  %
        %     %
        %%%%%%%
    """)
    ghost = RandomGhost(1)
    assert ghost.distribution(state) == [(WEST, 0.25), (EAST, 0.25), (NORTH, 0.25),
                                         (SOUTH, 0.25)]
    ghost.set_rng(random.Random(5))
    counts = Counter(ghost.get_action(state) for _ in range(4000))
    assert set(counts) == {WEST, EAST, NORTH, SOUTH}
    for action in counts:
        assert counts[action] == pytest.approx(1000, abs=120)


def test_rule_20_random_ghost_only_plays_legal_actions() -> None:
    state = state_of(CORRIDOR).successor(0, STOP).successor(1, EAST)  # facing East now
    ghost = RandomGhost(1)
    assert state.legal_actions(1) == (EAST,)
    assert ghost.distribution(state) == [(EAST, 1.0)]
    assert {ghost.get_action(state) for _ in range(50)} == {EAST}


def test_rule_21_two_legal_one_best_is_0_9_and_0_1() -> None:
    state = state_of(CORRIDOR)
    assert state.legal_actions(1) == (WEST, EAST)
    distribution = as_dict(DirectionalGhost(1).distribution(state))
    assert distribution == pytest.approx({WEST: 0.1, EAST: 0.9})
    assert [a for a, _ in DirectionalGhost(1).distribution(state)] == [WEST, EAST]


def test_rule_21_scared_ghost_flees_with_0_9() -> None:
    state = state_of(CORRIDOR)
    state = state.successor(0, EAST).successor(0, EAST)  # Pacman eats the capsule
    assert state.scared_timers == (40,)
    distribution = as_dict(DirectionalGhost(1).distribution(state))
    assert distribution == pytest.approx({WEST: 0.9, EAST: 0.1})


def test_rule_21_ties_share_the_best_probability() -> None:
    state = state_of("""
        %%%%%%%
        %  G  %
        %     %
        %P    %
        %%%%%%%
    """)
    # ghost (3,3), Pacman (1,1): West and South lead to distance 3, East to 5
    assert state.legal_actions(1) == (WEST, EAST, SOUTH)
    best = 0.8 / 2 + 0.2 / 3
    other = 0.2 / 3
    distribution = as_dict(DirectionalGhost(1).distribution(state))
    assert distribution == pytest.approx({WEST: best, EAST: other, SOUTH: best})
    assert sum(distribution.values()) == pytest.approx(1)


def test_rule_21_scared_ghost_takes_the_farther_way() -> None:
    state = state_of("""
        %%%%%%%%
        %Po    %
        %%%%G%%%
        %%%% %%%
        %%%%%%%%
    """)
    state = state.successor(0, EAST)  # scared; ghost at (4,2), Pacman at (2,3)
    assert state.scared_timers == (40,)
    actions = state.legal_actions(1)
    assert actions == (SOUTH, NORTH) or actions == (NORTH, SOUTH)
    probabilities = directional_distribution(state, 1, actions)
    # North: (4, 2.5) is 2.5 from Pacman, South: (4, 1.5) is 3.5 -> South is the flight
    assert dict(zip(actions, probabilities)) == pytest.approx({NORTH: 0.1, SOUTH: 0.9})


def test_rule_21_single_legal_action_has_probability_1() -> None:
    state = state_of(CORRIDOR).successor(0, STOP).successor(1, WEST)
    assert state.legal_actions(1) == (WEST,)
    assert DirectionalGhost(1).distribution(state) == [(WEST, pytest.approx(1.0))]


def test_rule_21_custom_probabilities() -> None:
    state = state_of(CORRIDOR)
    certain = as_dict(DirectionalGhost(1, prob_attack=1.0).distribution(state))
    assert certain == pytest.approx({WEST: 0.0, EAST: 1.0})
    blind = as_dict(DirectionalGhost(1, prob_attack=0.0).distribution(state))
    assert blind == pytest.approx({WEST: 0.5, EAST: 0.5})
    with pytest.raises(ValueError):
        DirectionalGhost(1, prob_attack=1.5)
    with pytest.raises(ValueError):
        DirectionalGhost(1, prob_scared_flee=-0.1)


def test_rule_21_sampling_follows_the_distribution() -> None:
    state = state_of(CORRIDOR)
    ghost = DirectionalGhost(1)
    ghost.set_rng(random.Random(2024))
    counts = Counter(ghost.get_action(state) for _ in range(5000))
    assert counts[EAST] / 5000 == pytest.approx(0.9, abs=0.02)
    assert set(counts) == {WEST, EAST}


def test_ghosts_are_numbered_from_1() -> None:
    for cls in (RandomGhost, DirectionalGhost):
        with pytest.raises(ValueError):
            cls(0)
    assert DirectionalGhost(2).index == 2


def test_ghost_uses_the_game_generator() -> None:
    layout = parse_layout("""
        %%%%%%%%%%
        %P.......%
        %        %
        %   G    %
        %%%%%%%%%%
    """)

    class Stopper:
        def get_action(self, state: GameState) -> Direction:
            return STOP

    first = run_game(layout, Stopper(), [RandomGhost(1)], seed=3, max_moves=30)
    second = run_game(layout, Stopper(), [RandomGhost(1)], seed=3, max_moves=30)
    third = run_game(layout, Stopper(), [RandomGhost(1)], seed=4, max_moves=30)
    assert first.actions == second.actions
    assert first.actions != third.actions


def test_describe_shows_only_non_classic_settings() -> None:
    assert DirectionalGhost(1).describe() == "DirectionalGhost"
    assert "prob_attack=0.5" in DirectionalGhost(1, prob_attack=0.5).describe()
    assert RandomGhost(1).describe() == "RandomGhost"


def test_adversarial_ghost_catches_an_adjacent_pacman() -> None:
    state = state_of("""
        %%%%%%%
        %  GP.%
        %%% %%%
        %%%%%%%
    """)
    ghost = AdversarialGhost(1, depth=2)
    assert ghost.get_action(state) == EAST
    assert as_dict(ghost.distribution(state))[EAST] == 1.0


def test_adversarial_ghost_plays_legal_moves_in_a_game() -> None:
    layout = parse_layout("""
        %%%%%%%%%
        %P..o...%
        % %% %% %
        %...G...%
        %%%%%%%%%
    """)
    from pacman.agents.simple import RandomAgent

    record = run_game(layout, RandomAgent(), [AdversarialGhost(1, depth=1)], seed=1,
                      max_moves=40)
    assert record.outcome in (Outcome.WIN, Outcome.LOSS, Outcome.CAPPED)
    assert record.fault is None
