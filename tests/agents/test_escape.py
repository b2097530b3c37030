"""The escape check (`escape=N`): a root move after which Pacman cannot stay alive N of his
moves against chasing ghosts is dropped, unless every move is.

Off, or when every move escapes, the search is the one without it (same decisions, same node
counts); on, a Pacman that eats its way into a dead end with a ghost behind it turns back in
time. The setting's checks are in test_quiescence.py, with forward pruning's.
"""

from __future__ import annotations

import pytest
from positions import random_positions

from pacman import GameState, parse_layout
from pacman.agents.escape import chasing_moves, escape_root, escaping_moves, survives
from pacman.agents.pacman_agents import IterativeAlphaBetaAgent, IterativeExpectimaxAgent
from pacman.rules import EAST, STOP, WEST

# Pacman (P) at the mouth of a dead end with three dots; the ghost (G) on the loop to the east.
# A short search eats the dots; by the time the ghost comes near, the way out is closed.
DEAD_END = parse_layout("""
%%%%%%%%%%%%%
%...P     G %
%%%% %%%%%% %
%.          %
%%%%%%%%%%%%%
""", name="dead-end")

# Pacman between two ghosts on a straight corridor: caught whatever he does.
PINCER = parse_layout("""
%%%%%%%%%%%
%G   P   G%
%%%%%%%%%%%
""", name="pincer")


def chase(agent: IterativeAlphaBetaAgent, rounds: int) -> tuple[str, GameState]:
    """Pacman's moves (initials) and the last state of `rounds` rounds on DEAD_END against a
    ghost that always makes its first chasing move."""
    state, moves = GameState.initial(DEAD_END), ""
    for _ in range(rounds):
        if state.is_terminal():
            break
        action = agent.get_action(state)
        moves += str(action)[0]
        state = state.successor(0, action)
        if not state.is_terminal():
            state = state.successor(1, chasing_moves(state, 1)[0])
    return moves, state


def test_the_plain_search_is_caught_in_the_dead_end_and_escape_turns_back() -> None:
    plain = IterativeAlphaBetaAgent(depth=4, time=0, nodes=100_000, evaluation="food")
    careful = IterativeAlphaBetaAgent(depth=4, time=0, nodes=100_000, evaluation="food",
                                      escape=8)
    moves, state = chase(plain, 14)
    assert (moves, state.is_lose()) == ("WWWEESWWS", True)  # all three dots, then caught
    moves, state = chase(careful, 14)
    assert (moves, state.is_lose(), state.score) == ("WWSEESSEEEEEEE", False, 6)


def test_survives_counts_pacmans_moves_against_chasing_ghosts() -> None:
    state = GameState.initial(PINCER)
    # 4 steps from each ghost: after 3 rounds the ghosts are beside him, and his 4th move (or
    # Stop) meets one of them
    assert [survives(state, moves) for moves in range(1, 6)] == [
        True, True, True, False, False]
    assert escaping_moves(state, state.legal_actions(0), 3) == list(state.legal_actions(0))
    assert escaping_moves(state, state.legal_actions(0), 4) == []


def test_chasing_moves_close_in_and_scared_ghosts_flee() -> None:
    pincer = GameState.initial(PINCER)
    assert list(chasing_moves(pincer, 1)) == [EAST] and list(chasing_moves(pincer, 2)) == [WEST]
    dead_end = GameState.initial(DEAD_END)
    assert dead_end.legal_actions(1) == (WEST, EAST)  # East leads round the loop: longer
    assert list(chasing_moves(dead_end, 1)) == [WEST]
    capsule = parse_layout("""
%%%%%%%%%%
%  oP G  %
%%%%%%%%%%
""", name="capsule")
    plain = GameState.initial(capsule).successor(0, EAST)
    scared = GameState.initial(capsule).successor(0, WEST)  # the capsule: 40 moves scared
    assert (plain.scared_timers, scared.scared_timers) == ((0,), (40,))
    assert list(chasing_moves(plain, 1)) == [WEST] and list(chasing_moves(scared, 1)) == [EAST]
    # moves that tie are all chasing moves
    tie = GameState.initial(parse_layout("""
%%%%%%%
%  P  %
%% % %%
%  G  %
%%%%%%%
""", name="tie"))
    assert list(chasing_moves(tie, 1)) == list(tie.legal_actions(1))


def test_escape_root_cuts_the_moves_that_do_not_escape_at_the_root_only() -> None:
    pincer = GameState.initial(PINCER)
    assert escape_root(pincer, None, 4) is None  # no move escapes: nothing to choose between
    state = GameState.initial(DEAD_END)
    assert escape_root(state, None, 8) is None  # every move escapes, West too
    for _ in range(2):  # two dots eaten, the ghost two steps nearer
        state = state.successor(0, WEST).successor(1, WEST)
    assert state.legal_actions(0) == (WEST, STOP, EAST)
    cut = escape_root(state, None, 8)  # the third dot is one too many
    assert cut is not None and list(cut(state, 0)) == [STOP, EAST]
    child = state.successor(0, EAST)
    assert cut(child, 1) == child.legal_actions(1)  # only the root is cut
    assert cut(child, 0) == child.legal_actions(0)
    no_stop = escape_root(state, lambda s, agent: [a for a in s.legal_actions(agent)
                                                    if a is not STOP], 8)
    assert no_stop is not None and list(no_stop(state, 0)) == [EAST]


@pytest.mark.parametrize("index", range(6))
def test_escape_zero_or_every_move_escaping_is_the_search_without_it(index: int) -> None:
    state = random_positions("mediumClassic", 6, seed=5)[index]
    plain = IterativeExpectimaxAgent(time=0, nodes=3000, ghost_model="directional")
    off = IterativeExpectimaxAgent(time=0, nodes=3000, ghost_model="directional", escape=0)
    on = IterativeExpectimaxAgent(time=0, nodes=3000, ghost_model="directional", escape=6)

    def decide(agent: IterativeExpectimaxAgent) -> tuple[object, ...]:
        agent.get_action(state)
        decision = agent.last_decision
        assert decision is not None
        return decision.action, decision.value, decision.nodes_generated, decision.depth

    expected = decide(plain)
    assert decide(off) == expected
    actions = state.legal_actions(0)
    assert escaping_moves(state, actions, 6) == list(actions)  # no pincer near: none cut
    assert decide(on) == expected
