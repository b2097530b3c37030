"""TeamGhost: the ghosts search their joint moves as one team and close in from both sides."""

from __future__ import annotations

import random

import pytest

from pacman import GameState, Outcome, load_layout, parse_layout, run_game
from pacman.agents.ghosts import CATCH_VALUE, AdversarialGhost
from pacman.agents.registry import make_agent
from pacman.agents.search import alphabeta, minimax
from pacman.agents.simple import RandomAgent
from pacman.agents.team_ghosts import SAFE_LIMIT, SAFE_WEIGHT, TeamGhost, TeamView, team_evaluation
from pacman.rules import EAST, NORTH, SOUTH, STOP, WEST

# A ring: Pacman on the top corridor, both ghosts on the bottom one, left of the middle, so
# that the shortest way to Pacman is West for both of them.
RING = parse_layout("""
%%%%%%%%%%%
%    P    %
% %%%%%%% %
%  12     %
%%%%%%%%%%%
""")


def test_the_team_sends_its_ghosts_round_both_sides_of_the_ring() -> None:
    state = GameState.initial(RING)
    first = TeamGhost(1)
    assert first.get_action(state) == WEST
    assert first.last_decision.best_actions == ((WEST, EAST),)  # the plan: a pincer
    after = state.successor(1, WEST)
    assert TeamGhost(2).get_action(after) == EAST  # the second ghost plays its part


def test_independent_hunters_both_take_the_short_way() -> None:
    state = GameState.initial(RING)
    assert AdversarialGhost(1).get_action(state) == WEST
    assert AdversarialGhost(2).get_action(state.successor(1, WEST)) == WEST


def test_the_view_is_the_team_against_pacman() -> None:
    state = GameState.initial(RING)
    view = TeamView(state, 1)
    assert view.num_agents == 2
    assert view.legal_actions(0) == ((WEST, WEST), (WEST, EAST), (EAST, WEST), (EAST, EAST))
    assert view.legal_actions(1) == state.legal_actions(0)
    # the second ghost's turn: only its own moves are left in this round
    assert TeamView(state.successor(1, WEST), 2).legal_actions(0) == ((WEST,), (EAST,))
    after = view.successor(0, (WEST, EAST))
    assert after.first == 1
    assert after.state == state.successor(1, WEST).successor(2, EAST)
    assert view.successor(1, STOP).state == state.successor(0, STOP)
    assert view.score == -state.score
    with pytest.raises(ValueError, match="no ghost 3"):
        TeamView(state, 3)


def test_a_joint_move_stops_when_the_first_ghost_catches_pacman() -> None:
    state = GameState.initial(parse_layout("%%%%%%%\n%1P  .%\n% %%%2%\n%     %\n%%%%%%%\n"))
    assert TeamView(state, 1).legal_actions(0)[:2] == ((EAST, NORTH), (EAST, SOUTH))
    view = TeamView(state, 1).successor(0, (EAST, NORTH))
    assert view.state.is_lose() and view.is_win() and not view.is_lose()
    assert view.state == state.successor(1, EAST)  # ghost 2 never moved
    assert view.legal_actions(0) == () and view.legal_actions(1) == ()


def test_the_evaluation_counts_pacmans_escape_cells_and_distances() -> None:
    state = GameState.initial(RING)
    safe, distances = state.safe_cell_count(SAFE_LIMIT), state.ghost_distances()
    assert (safe, distances) == (9, (8, 9))
    assert team_evaluation(TeamView(state)) == -SAFE_WEIGHT * 9 - 8 - 9 == -44.0


def test_a_catch_dominates_and_pacman_winning_is_the_worst() -> None:
    state = GameState.initial(parse_layout("%%%%%%%\n%.P1  %\n%%%%%%%\n"))
    won = state.successor(0, WEST)  # Pacman eats the last food
    assert won.is_win() and team_evaluation(TeamView(won)) < -CATCH_VALUE / 2
    caught = state.successor(0, STOP).successor(1, WEST)
    assert caught.is_lose() and team_evaluation(TeamView(caught)) > CATCH_VALUE / 2


def test_node_counts_of_the_joint_search() -> None:
    # The root has 4 joint moves and Pacman 3 moves (West, Stop, East). After the first joint
    # move each ghost is in a corridor and cannot reverse, so the team has 1 joint move.
    view = TeamView(GameState.initial(RING), 1)
    assert minimax(view, 1, team_evaluation).nodes_generated == 1 + 4 + 4 * 3
    assert minimax(view, 2, team_evaluation).nodes_generated == 1 + 4 + 12 + 12 * 1 + 12 * 3
    full = minimax(view, 2, team_evaluation)
    pruned = alphabeta(view, 2, team_evaluation)
    assert (pruned.value, pruned.best_actions) == (full.value, full.best_actions)
    assert pruned.nodes_generated == 41  # alpha-beta prunes 24 of the 65


def test_distribution_is_uniform_over_the_moves_that_start_a_best_plan() -> None:
    ring = parse_layout("%%%%%%%%%\n%   G   %\n% %%%%% %\n%   P   %\n%%%%%%%%%\n")
    state = GameState.initial(ring)  # alone, West and East round the ring are as good
    distribution = TeamGhost(1).distribution(state)
    assert distribution == [(WEST, 0.5), (EAST, 0.5)]
    assert sum(p for _, p in distribution) == 1.0
    choices = set()
    ghost = TeamGhost(1)
    for seed in range(20):
        ghost.set_rng(random.Random(seed))
        choices.add(ghost.get_action(state))
    assert choices == {WEST, EAST}


def test_settings_are_checked_and_described() -> None:
    assert TeamGhost(2, depth=3).describe() == "TeamGhost depth=3"
    assert make_agent("team", "ghost", {"depth": 1}, index=2).describe() == "TeamGhost depth=1"
    for bad in (0, -1, 1.5, True, "2"):
        with pytest.raises(ValueError, match="depth must be a whole number >= 1"):
            TeamGhost(1, depth=bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="index"):
        TeamGhost(0)


def _game(seed: int) -> tuple[Outcome, tuple[str, ...]]:
    record = run_game(load_layout("smallClassic"), RandomAgent(), [TeamGhost(1), TeamGhost(2)],
                      seed=seed, max_moves=40)
    assert record.fault is None, record.fault
    return record.outcome, record.actions


def test_same_seed_same_game_and_only_legal_moves() -> None:
    # run_game ends a game with a crash at the first illegal move, so a clean record is legal
    assert _game(3) == _game(3)
    assert len({_game(seed)[1] for seed in range(4)}) > 1
