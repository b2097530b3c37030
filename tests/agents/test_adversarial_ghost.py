"""AdversarialGhost: hunts by search from its own side, obeys the ghost rules, several at once."""

from __future__ import annotations

import random

import pytest

from pacman import GameState, Outcome, load_layout, parse_layout, run_game
from pacman.agents.ghosts import AdversarialGhost, GhostView, chase_action, hunt_evaluation
from pacman.agents.simple import RandomAgent
from pacman.rules import EAST, WEST

CORRIDOR = parse_layout("""
%%%%%%%%%
%P     G%
%%%%%%%%%
""")

RING = parse_layout("""
%%%%%%%%%
%   G   %
% %%%%% %
%   P   %
%%%%%%%%%
""")


def test_it_heads_for_pacman_down_a_corridor() -> None:
    state = GameState.initial(CORRIDOR)
    ghost = AdversarialGhost(1)
    assert ghost.get_action(state) == WEST
    assert ghost.last_decision is not None and ghost.last_decision.nodes_generated > 1


def test_the_view_makes_the_ghost_max_and_pacman_its_opponent() -> None:
    state = GameState.initial(CORRIDOR)
    view = GhostView(state, 1)
    assert view.num_agents == 2
    assert view.legal_actions(0) == state.legal_actions(1)
    assert view.legal_actions(1) == state.legal_actions(0)
    after = view.successor(0, WEST).successor(1, EAST)
    assert after.state == state.successor(1, WEST).successor(0, EAST)
    assert hunt_evaluation(after) == -after.state.ghost_distances()[0]


def test_catching_pacman_dominates_and_pacman_winning_is_the_worst() -> None:
    state = GameState.initial(parse_layout("%%%%%%\n%.P G%\n%%%%%%\n"))
    won = state.successor(0, WEST)  # Pacman eats the last food
    assert won.is_win() and hunt_evaluation(GhostView(won, 1)) < -1e5
    caught = state.successor(0, "Stop").successor(1, WEST).successor(0, EAST)
    assert caught.is_lose() and hunt_evaluation(GhostView(caught, 1)) > 1e5


def test_it_only_plays_legal_ghost_moves_and_never_reverses_in_a_corridor() -> None:
    state = GameState.initial(load_layout("smallClassic"), 2)
    ghosts = [AdversarialGhost(1), AdversarialGhost(2)]
    rng = random.Random(3)
    for ghost in ghosts:
        ghost.set_rng(rng)
    pacman = RandomAgent()
    pacman.set_rng(rng)
    for _ in range(60):
        for agent, player in enumerate([pacman, *ghosts]):
            if state.is_terminal():
                return
            action = player.get_action(state)
            assert action in state.legal_actions(agent)
            state = state.successor(agent, action)


def test_ties_are_broken_with_the_games_generator() -> None:
    state = GameState.initial(RING)  # West and East around the ring are equally short
    ghost = AdversarialGhost(1)
    choices = []
    for seed in range(30):
        ghost.set_rng(random.Random(seed))
        choices.append(ghost.get_action(state))
    assert ghost.last_decision is not None
    assert set(ghost.last_decision.best_actions) == {WEST, EAST}
    assert set(choices) == {WEST, EAST}
    ghost.set_rng(random.Random(5))
    again = [ghost.get_action(state) for _ in range(5)]
    ghost.set_rng(random.Random(5))
    assert [ghost.get_action(state) for _ in range(5)] == again


@pytest.mark.parametrize("layout", ["smallClassic", "mediumClassic", "trickyClassic"])
def test_several_adversarial_ghosts_play_whole_games(layout: str) -> None:
    board = load_layout(layout)
    ghosts = [AdversarialGhost(i + 1) for i in range(len(board.ghost_starts))]
    record = run_game(board, RandomAgent(), ghosts, seed=1, max_moves=200)
    assert record.outcome in (Outcome.WIN, Outcome.LOSS, Outcome.CAPPED)
    assert record.fault is None
    again = run_game(board, RandomAgent(), [AdversarialGhost(i + 1) for i in range(len(ghosts))],
                     seed=1, max_moves=200)
    assert again == record


def test_hunters_catch_a_random_pacman_sooner_than_random_ghosts() -> None:
    from pacman.agents.ghosts import RandomGhost

    board = load_layout("smallClassic")

    def moves_until_caught(ghost_class: type) -> list[int]:
        records = [run_game(board, RandomAgent(), [ghost_class(1), ghost_class(2)], seed=seed,
                            max_moves=300) for seed in range(10)]
        return [r.pacman_moves for r in records if r.outcome is Outcome.LOSS]

    hunted = moves_until_caught(AdversarialGhost)
    wandered = moves_until_caught(RandomGhost)
    assert len(hunted) == 10
    assert sum(hunted) / len(hunted) < sum(wandered) / len(wandered)


def test_chase_action_moves_closer() -> None:
    state = GameState.initial(CORRIDOR)
    assert chase_action(state, 1) == WEST


def test_depth_must_be_positive() -> None:
    with pytest.raises(ValueError, match="depth"):
        AdversarialGhost(1, depth=0)
