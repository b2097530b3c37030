"""NoisyHunterGhost (80% search, 20% random) and InformedExpectimaxAgent (its true model)."""

from __future__ import annotations

import random

import pytest

from pacman import GameState, load_layout, parse_layout, run_game
from pacman.agents.evaluation import resolve_evaluation
from pacman.agents.ghosts import AdversarialGhost
from pacman.agents.noisy_hunter import (
    InformedExpectimaxAgent,
    NoisyHunterGhost,
    hunting_choices,
    mix,
    noisy_hunter_distribution,
)
from pacman.agents.pacman_agents import AlphaBetaAgent, ExpectimaxAgent
from pacman.agents.registry import make_agent
from pacman.agents.search import expectimax
from pacman.rules import EAST, NORTH, STOP, WEST

# Pacman on the top corridor, the ghost on the bottom one beside the only food; columns at
# x = 1, 3, 5, 7 join the corridors.
GRID = parse_layout("""
%%%%%%%%%
% P     %
% % % % %
% .G    %
%%%%%%%%%
""")

RING = parse_layout("%%%%%%%%%\n%   G   %\n% %%%%% %\n%   P   %\n%%%%%%%%%\n")


def test_mix_gives_the_search_its_share_and_everyone_the_rest() -> None:
    actions = [WEST, EAST, NORTH]
    assert mix(actions, [NORTH], 0.8) == pytest.approx([0.2 / 3, 0.2 / 3, 0.8 + 0.2 / 3])
    assert mix(actions, [WEST, NORTH], 0.8) == pytest.approx([0.4 + 0.2 / 3, 0.2 / 3,
                                                              0.4 + 0.2 / 3])
    assert mix(actions, [EAST], 0.0) == pytest.approx([1 / 3] * 3)
    assert mix(actions, [EAST], 1.0) == [0.0, 1.0, 0.0]


def test_the_ghosts_distribution_is_its_search_plus_noise_and_sums_to_one() -> None:
    after_east = GameState.initial(GRID).successor(0, EAST)
    best, nodes = hunting_choices(after_east, 1, 2)
    assert best == (NORTH,) and nodes > 1  # straight up to Pacman
    ghost = NoisyHunterGhost(1)
    distribution = ghost.distribution(after_east)
    assert [a for a, _ in distribution] == [WEST, EAST, NORTH]
    assert [p for _, p in distribution] == pytest.approx([0.2 / 3, 0.2 / 3, 0.8 + 0.2 / 3])
    assert sum(p for _, p in distribution) == pytest.approx(1.0)
    # the same search AdversarialGhost runs
    adversarial = AdversarialGhost(1)
    assert adversarial.get_action(after_east) == NORTH
    assert adversarial.last_decision.best_actions == best  # type: ignore[attr-defined]


def test_it_searches_with_probability_prob_search_drawn_from_the_games_generator() -> None:
    after_east = GameState.initial(GRID).successor(0, EAST)
    ghost = NoisyHunterGhost(1)
    ghost.set_rng(random.Random(7))
    moves = [ghost.get_action(after_east) for _ in range(3000)]
    # North with probability 0.8 + 0.2/3 = 0.867: 2610/3000 = 0.870 with this seed
    assert moves.count(NORTH) == 2610
    assert set(moves) == {WEST, EAST, NORTH}
    ghost.set_rng(random.Random(7))
    assert [ghost.get_action(after_east) for _ in range(3000)] == moves
    always = NoisyHunterGhost(1, prob_search=1.0)
    assert {always.get_action(after_east) for _ in range(50)} == {NORTH}
    never = NoisyHunterGhost(1, prob_search=0.0)
    assert {never.get_action(after_east) for _ in range(50)} == {WEST, EAST, NORTH}


def test_informed_expectimax_differs_from_both_where_the_model_matters() -> None:
    # Depth 1 with `better`; the leaf values after each ghost move (West, East, North) are
    #   Pacman West: 40.5, 30.5, 20.5  the hunter's search ties West/North: 0.467 0.067 0.467
    #   Pacman East: 50.5, 45.5, 26.5  the hunter goes North, next to Pacman: 0.067 0.067 0.867
    # Minimax takes the better worst case (East: 26.5 > 20.5), uniform expectimax the better
    # average (East: 40.8 > 30.5); with the true probabilities West is worth 30.5 and East
    # 29.4, so informed expectimax goes West.
    state = GameState.initial(GRID)
    settings = {"depth": 1, "evaluation": "better"}
    assert AlphaBetaAgent(**settings).get_action(state) == EAST  # type: ignore[arg-type]
    assert ExpectimaxAgent(**settings).get_action(state) == EAST  # type: ignore[arg-type]
    informed = InformedExpectimaxAgent(**settings)  # type: ignore[arg-type]
    assert informed.get_action(state) == WEST
    assert informed.last_decision is not None
    assert informed.last_decision.value == pytest.approx(30.5)


def test_node_counts_include_the_simulated_ghost_searches() -> None:
    state = GameState.initial(GRID)
    informed = InformedExpectimaxAgent(depth=2, evaluation="better")
    informed.get_action(state)
    decision = informed.last_decision
    assert decision is not None
    plain = expectimax(state, 2, resolve_evaluation("better"),
                       chance=lambda s, g, a: noisy_hunter_distribution(s, g, a))
    assert (decision.action, decision.value) == (plain.action, plain.value)
    assert decision.nodes_generated == plain.nodes_generated + informed.last_simulated_nodes
    # one simulation per distinct chance node: 3 after Pacman's first move, 3 x 3 below them
    children = [state.successor(0, a) for a in state.legal_actions(0)]
    grandchildren = {c.successor(1, g).successor(0, p) for c in children
                     for g in c.legal_actions(1)
                     for p in c.successor(1, g).legal_actions(0)
                     if not c.successor(1, g).is_terminal()}
    expected = sum(hunting_choices(s, 1, 2)[1] for s in {*children, *grandchildren}
                   if not s.is_terminal())
    assert informed.last_simulated_nodes == expected


def test_with_prob_search_0_it_is_uniform_expectimax() -> None:
    state = GameState.initial(load_layout("smallClassic"), 1)
    for _ in range(6):
        informed = InformedExpectimaxAgent(depth=2, evaluation="better", prob_search=0.0)
        uniform = ExpectimaxAgent(depth=2, evaluation="better")
        action = informed.get_action(state)
        assert action == uniform.get_action(state)
        assert informed.last_decision is not None and uniform.last_decision is not None
        assert informed.last_decision.value == pytest.approx(uniform.last_decision.value)
        assert (informed.last_decision.nodes_generated - informed.last_simulated_nodes
                == uniform.last_decision.nodes_generated)
        state = state.successor(0, action).successor(1, state.successor(0, action)
                                                     .legal_actions(1)[0])


def test_settings_are_checked_and_described() -> None:
    assert NoisyHunterGhost(1).describe() == "NoisyHunterGhost depth=2 prob_search=0.8"
    assert (make_agent("informed-expectimax", "pacman", {"depth": 3, "evaluation": "better"})
            .describe() == "InformedExpectimaxAgent depth=3 better ghost_depth=2 prob_search=0.8")
    assert make_agent("noisy-hunter", "ghost", {"prob_search": 0.5}, index=1).describe() == (
        "NoisyHunterGhost depth=2 prob_search=0.5")
    for bad in (-0.1, 1.5, True, "0.8"):
        with pytest.raises(ValueError, match="prob_search must be a number between 0 and 1"):
            NoisyHunterGhost(1, prob_search=bad)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="prob_search must be a number between 0 and 1"):
            InformedExpectimaxAgent(prob_search=bad)  # type: ignore[arg-type]
    for bad_depth in (0, 2.0, False):
        with pytest.raises(ValueError, match="depth must be a whole number >= 1"):
            NoisyHunterGhost(1, depth=bad_depth)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="ghost_depth must be a whole number >= 1"):
            InformedExpectimaxAgent(ghost_depth=bad_depth)  # type: ignore[arg-type]


def test_same_seed_same_game() -> None:
    def game(seed: int) -> tuple[str, ...]:
        record = run_game(RING, InformedExpectimaxAgent(depth=1), [NoisyHunterGhost(1)],
                          seed=seed, max_moves=30)
        assert record.fault is None, record.fault
        return record.actions

    assert game(4) == game(4)
    assert len({game(seed) for seed in range(5)}) > 1


def test_stop_is_kept_out_when_asked() -> None:
    state = GameState.initial(RING)
    informed = InformedExpectimaxAgent(depth=1, allow_stop=False)
    assert informed.get_action(state) != STOP
