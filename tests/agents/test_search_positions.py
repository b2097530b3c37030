"""Alpha-beta against minimax on real positions: same value, a minimax-optimal action, the same
set of best actions, and never more generated nodes (hundreds of seeded positions)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pacman import GameState, load_layout
from pacman.agents.evaluation import resolve_evaluation
from pacman.agents.search import alphabeta, expectimax, minimax

LAYOUTS = ["smallClassic", "mediumClassic", "minimaxClassic", "trappedClassic", "testClassic"]


def random_position(layout_name: str, seed: int, moves: int) -> GameState | None:
    """The position after up to `moves` random moves from the start (None if the game ended)."""
    state = GameState.initial(load_layout(layout_name))
    rng = random.Random(seed)
    for turn in range(moves):
        agent = turn % state.num_agents
        state = state.successor(agent, rng.choice(state.legal_actions(agent)))
        if state.is_terminal():
            return None
    return state


@settings(max_examples=250, deadline=None)
@given(layout=st.sampled_from(LAYOUTS), seed=st.integers(0, 10**6),
       moves=st.integers(0, 30).map(lambda m: m - m % 3), depth=st.integers(1, 2),
       evaluation=st.sampled_from(["score", "better"]))
def test_alphabeta_agrees_with_minimax_on_game_positions(layout: str, seed: int, moves: int,
                                                          depth: int, evaluation: str) -> None:
    state = random_position(layout, seed, moves)
    if state is None or (state.num_agents > 3 and depth > 1):
        return
    evaluate = resolve_evaluation(evaluation)
    full = minimax(state, depth, evaluate)
    pruned = alphabeta(state, depth, evaluate)
    assert pruned.value == full.value
    assert pruned.action in full.best_actions
    assert pruned.best_actions == full.best_actions
    assert pruned.nodes_generated <= full.nodes_generated


@pytest.mark.parametrize("layout", ["smallClassic", "trappedClassic"])
def test_expectimax_is_at_least_minimax(layout: str) -> None:
    """A chance node's average is never below its minimum, so expectimax's value is >= minimax's."""
    evaluate = resolve_evaluation("better")
    for seed in range(20):
        state = random_position(layout, seed, 6)
        if state is None:
            continue
        assert expectimax(state, 2, evaluate).value >= minimax(state, 2, evaluate).value
