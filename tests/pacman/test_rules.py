"""Every numbered rule of docs/rules.md, pinned on small inline layouts.

Layouts are written inline; `parse_layout` strips each line (rule 3), so they may be indented.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence

import pytest

from pacman import GameState, Outcome, parse_layout, run_game
from pacman.errors import IllegalMoveError
from pacman.rules import CANONICAL_ORDER, EAST, NORTH, SOUTH, STOP, WEST, Direction

Move = tuple[int, Direction]


def state_of(text: str, num_ghosts: int | None = None) -> GameState:
    """The initial state of an inline layout."""
    return GameState.initial(parse_layout(text), num_ghosts)


def play(state: GameState, moves: Iterable[Move]) -> GameState:
    """Apply `(agent, action)` moves in order."""
    for agent, action in moves:
        state = state.successor(agent, action)
    return state


def on_grid(position: tuple[float, float]) -> bool:
    x, y = position
    return abs(x - round(x)) + abs(y - round(y)) <= 0.001


class Scripted:
    """An agent that plays a fixed list of actions and fails loudly if asked for more."""

    def __init__(self, actions: Sequence[Direction] = (), name: str = "scripted") -> None:
        self.actions = list(actions)
        self.calls = 0
        self.name = name

    def get_action(self, state: GameState) -> Direction:
        self.calls += 1
        if not self.actions:
            raise AssertionError(f"{self.name} was asked to move but has no move left")
        return self.actions.pop(0)


# --------------------------------------------------------------------------- board, coordinates

def test_rule_1_origin_bottom_left_top_line_is_highest_y() -> None:
    state = state_of("""
        %%%%%%
        %P  .%
        %    %
        %  G %
        %%%%%%
    """)
    assert (state.width, state.height) == (6, 5)
    assert state.pacman_position == (1, 3)  # second text line from the top: y = height - 2
    assert state.food_positions == ((4, 3),)
    assert state.ghost_positions == ((3, 1),)
    assert state.has_wall(0, 0) and state.has_wall(5, 4)
    # x grows East, y grows North
    assert state.successor(0, EAST).pacman_position == (2, 3)
    assert state.successor(0, SOUTH).pacman_position == (1, 2)


def test_rule_2_direction_vectors_and_canonical_order() -> None:
    assert {d: d.vector for d in Direction} == {
        NORTH: (0, 1), SOUTH: (0, -1), EAST: (1, 0), WEST: (-1, 0), STOP: (0, 0)}
    assert CANONICAL_ORDER == (WEST, STOP, EAST, NORTH, SOUTH)
    assert [d.value for d in CANONICAL_ORDER] == ["West", "Stop", "East", "North", "South"]
    assert {d: d.reverse for d in Direction} == {
        NORTH: SOUTH, SOUTH: NORTH, EAST: WEST, WEST: EAST, STOP: STOP}


def test_rule_2_every_list_of_legal_actions_is_in_canonical_order() -> None:
    state = state_of("""
        %%%%%
        %   %
        % P %
        %  G%
        %%%%%
    """)
    assert state.legal_actions(0) == (WEST, STOP, EAST, NORTH, SOUTH)
    # the ghost at (3, 1) in the corner: West and North, in that order
    assert state.legal_actions(1) == (WEST, NORTH)
    # the CS188 strings are accepted and compare equal
    assert list(state.legal_actions(0)) == ["West", "Stop", "East", "North", "South"]


# --------------------------------------------------------------------------- layouts

def test_rule_3_characters() -> None:
    layout = parse_layout("""
        %%%%%%%%
        %.oPGx2%
        %%%%%%%%
    """)
    assert (layout.width, layout.height) == (8, 3)
    assert layout.food == ((1, 1),)
    assert layout.capsules == ((2, 1),)
    assert layout.pacman_start == (3, 1)
    assert layout.ghost_starts == ((4, 1), (6, 1))
    assert not layout.is_wall(5, 1)  # 'x' is floor
    assert layout.walls == frozenset(
        {(x, y) for x in range(8) for y in (0, 2)} | {(0, 1), (7, 1)})


def test_rule_4_g_ghosts_by_x_then_y_then_digit_ghosts_by_digit() -> None:
    state = state_of("""
        %%%%%%%
        %G 3 G%
        %4 P G%
        %2  G %
        %%%%%%%
    """)
    # G ghosts by x then y: (1,3), (4,1), (5,2), (5,3); then '2' (1,1), '3' (3,3), '4' (1,2)
    assert state.pacman_position == (3, 2)
    assert state.ghost_start_positions == ((1, 3), (4, 1), (5, 2), (5, 3), (1, 1), (3, 3), (1, 2))
    assert [state.agent_position(i) for i in range(1, 8)] == list(state.ghost_start_positions)
    assert state.agent_position(0) == (3, 2)
    assert state.num_agents == 8


def test_rule_4_digit_1_has_the_key_of_g() -> None:
    # The rule's procedure: G has key 1 and a digit has its value, so '1' ties with 'G' on the
    # key and is ordered with the G ghosts by position (as in the CS188 loader).
    layout = parse_layout("""
        %%%%%%%
        %G 1 P%
        %  G  %
        %%%%%%%
    """)
    assert layout.ghost_starts == ((1, 2), (3, 1), (3, 2))


def test_rule_5_k_keeps_the_first_ghosts_in_agent_order() -> None:
    text = """
        %%%%%%%
        %2P G1%
        %%%%%%%
    """
    # order: key 1 ghosts by position: G (4,1), '1' (5,1); then '2' (1,1)
    layout = parse_layout(text)
    assert layout.ghost_starts == ((4, 1), (5, 1), (1, 1))
    assert layout.with_ghosts(1).ghost_starts == ((4, 1),)
    assert layout.with_ghosts(2).ghost_starts == ((4, 1), (5, 1))
    assert layout.with_ghosts(3) == layout
    assert layout.with_ghosts(9) == layout
    assert layout.with_ghosts(0).ghost_starts == ()
    assert layout.with_ghosts(1).food == layout.food and layout.with_ghosts(1).walls == layout.walls
    with pytest.raises(ValueError):
        layout.with_ghosts(-1)
    assert GameState.initial(layout, 2).ghost_positions == ((4, 1), (5, 1))
    assert GameState.initial(layout, 0).num_agents == 1
    assert GameState.initial(layout, 7).num_agents == 4
    assert GameState.initial(layout).num_agents == 4


def test_rule_5_run_game_uses_as_many_ghosts_as_agents() -> None:
    layout = parse_layout("""
        %%%%%%%%
        %P  .G1%
        %%%%%%%%
    """)
    assert layout.ghost_starts == ((5, 1), (6, 1))
    # one ghost agent: only the first ghost (5,1) plays; it meets Pacman at (3,1)
    record = run_game(layout, Scripted([EAST] * 2), [Scripted([WEST] * 2, "ghost")], seed=0)
    assert record.agents == ("Scripted", "Scripted")
    assert record.actions == ("East", "West", "East", "West")
    assert record.outcome is Outcome.LOSS
    with pytest.raises(ValueError, match="ghost"):
        run_game(layout, Scripted(), [Scripted(), Scripted(), Scripted()])


# --------------------------------------------------------------------------- state

def test_rule_7_initial_state() -> None:
    state = state_of("""
        %%%%%%
        %P.o %
        % G .%
        %%%%%%
    """)
    assert state.pacman_position == (1, 2)
    assert state.pacman_direction is STOP
    assert state.ghost_positions == ((2, 1),)
    assert state.ghost_start_positions == ((2, 1),)
    assert state.ghost_directions == (STOP,)
    assert state.scared_timers == (0,)
    assert state.food_positions == ((2, 2), (4, 1))
    assert state.food_count == 2
    assert state.capsule_positions == ((3, 2),)
    assert state.score == 0
    assert not state.is_win() and not state.is_lose()


CAPSULE_CORRIDOR = """
    %%%%%%%%%
    %Po    G%
    %%%%%%%%%
"""


def test_rule_8_scared_ghost_stands_half_way() -> None:
    state = play(state_of(CAPSULE_CORRIDOR), [(0, EAST), (1, WEST)])
    assert state.ghost_positions == ((6.5, 1),)
    assert not on_grid(state.ghost_positions[0])
    state = play(state, [(0, STOP), (1, WEST)])
    assert state.ghost_positions == ((6, 1),)
    assert on_grid(state.ghost_positions[0])


# --------------------------------------------------------------------------- legal actions

def test_rule_9_pacman_legal_actions_exclude_walls_and_keep_stop() -> None:
    state = state_of("""
        %%%%%
        %%P.%
        %%%%%
    """)
    assert state.legal_actions(0) == (STOP, EAST)
    enclosed = state_of("""
        %%%%%
        %%P%%
        %%%.%
        %%%%%
    """)
    assert enclosed.legal_actions(0) == (STOP,)
    assert enclosed.legal_actions() == (STOP,)  # agent 0 by default


def test_rule_9_won_and_lost_states_have_no_legal_actions() -> None:
    won = state_of("""
        %%%%%%
        %P. G%
        %%%%%%
    """).successor(0, EAST)
    assert won.is_win()
    assert won.legal_actions(0) == () and won.legal_actions(1) == ()
    lost = state_of("""
        %%%%%%
        %PG .%
        %%%%%%
    """).successor(0, EAST)
    assert lost.is_lose()
    assert lost.legal_actions(0) == () and lost.legal_actions(1) == ()


def test_rule_10_ghost_never_stops_and_starts_free() -> None:
    state = state_of("""
        %%%%%%%
        %P    %
        %  G  %
        %     %
        %%%%%%%
    """)
    assert state.ghost_directions == (STOP,)
    assert state.legal_actions(1) == (WEST, EAST, NORTH, SOUTH)


def test_rule_10_ghost_does_not_reverse_in_open_corridors() -> None:
    state = state_of("""
        %%%%%%%%
        %P    G%
        %%%%%%%%
    """)
    state = play(state, [(0, STOP), (1, WEST)])  # ghost at (5,1) facing West
    assert state.ghost_directions == (WEST,)
    assert state.legal_actions(1) == (WEST,)  # East would be a reversal
    with pytest.raises(IllegalMoveError):
        state.successor(1, EAST)
    # at a junction it may turn but still not reverse
    junction = state_of("""
        %%%%%%%
        %P  G %
        %%% % %
        %%%%%%%
    """)
    junction = play(junction, [(0, STOP), (1, WEST)])  # (3,2) facing West: West, South
    assert junction.legal_actions(1) == (WEST, SOUTH)


def test_rule_10_ghost_reverses_only_at_a_dead_end() -> None:
    state = state_of("""
        %%%%%%%
        %P  G %
        %%%%%%%
    """)
    state = play(state, [(0, STOP), (1, EAST)])  # into the dead end at (5,1)
    assert state.ghost_positions == ((5, 1),) and state.ghost_directions == (EAST,)
    assert state.legal_actions(1) == (WEST,)  # the reverse, because it is the only way out
    assert state.successor(1, WEST).ghost_positions == ((4, 1),)


def test_rule_10_eaten_ghost_faces_stop_and_may_go_any_way() -> None:
    state = state_of("""
        %%%%%%%%%
        %Po   G %
        %%%%%%%%%
    """)
    state = play(state, [(0, EAST), (1, WEST), (0, EAST), (1, WEST), (0, EAST)])
    assert state.ghost_directions == (WEST,)
    assert state.legal_actions(1) == (WEST,)  # East would be a reversal
    # the ghost walks half-way into Pacman at (4,1): eaten, sent home facing Stop
    state = state.successor(1, WEST)
    assert state.score == -3 + 200
    assert state.ghost_positions == ((6, 1),)
    assert state.ghost_directions == (STOP,)
    assert state.scared_timers == (0,)
    assert state.legal_actions(1) == (WEST, EAST)


def test_rule_11_ghost_between_grid_points_can_only_continue() -> None:
    state = state_of("""
        %%%%%%%
        %Po   %
        %     %
        %  G  %
        %%%%%%%
    """)
    state = play(state, [(0, EAST), (1, EAST)])  # scared: half a cell East
    assert state.ghost_positions == ((3.5, 1),)
    assert state.legal_actions(1) == (EAST,)
    for action in (WEST, STOP, NORTH, SOUTH):
        with pytest.raises(IllegalMoveError):
            state.successor(1, action)
    state = play(state, [(0, STOP), (1, EAST)])
    assert state.ghost_positions == ((4, 1),)
    assert state.legal_actions(1) == (EAST, NORTH)
    state = play(state, [(0, STOP), (1, NORTH)])
    assert state.ghost_positions == ((4, 1.5),)
    assert state.legal_actions(1) == (NORTH,)


# --------------------------------------------------------------------------- one move

SCORING = """
    %%%%%%%%
    %P.. o %
    %%%%%%%%
"""


def test_rule_12_food_plus_10_move_minus_1() -> None:
    state = state_of(SCORING)
    after = state.successor(0, EAST)
    assert after.score == 9
    assert after.food_positions == ((3, 1),)
    assert after.food_count == 1
    assert not after.has_food(2, 1) and after.has_food(3, 1)


def test_rule_12_last_food_wins_plus_500() -> None:
    state = play(state_of(SCORING), [(0, EAST), (0, EAST)])
    assert state.score == 9 + 509
    assert state.is_win() and not state.is_lose()
    assert state.food_count == 0


def test_rule_12_capsule_scores_nothing_and_scares_every_ghost() -> None:
    state = state_of("""
        %%%%%%%%
        %Po.  G%
        %%%%%G%%
        %%%%% %%
        %%%%%%%%
    """)
    after = state.successor(0, EAST)
    assert after.score == -1  # 0 for the capsule, -1 for the move
    assert after.capsule_positions == ()
    assert after.capsule_count == 0
    assert after.scared_timers == (40, 40)
    assert after.food_count == 1


ROOM = """
    %%%%%%%%%%
    %Poo%    %
    %%%%%    %
    %%%%%  G %
    %%%%%%%%%%
"""


def test_rule_12_second_capsule_sets_timer_to_40_not_adds() -> None:
    state = state_of(ROOM).successor(0, EAST)
    assert state.scared_timers == (40,)
    for _ in range(10):
        state = play(state, [(1, state.legal_actions(1)[0]), (0, STOP)])
    state = state.successor(1, state.legal_actions(1)[0])
    assert state.scared_timers == (29,)
    state = state.successor(0, EAST)
    assert state.scared_timers == (40,)
    assert state.capsule_count == 0
    assert state.score == -12


def test_rule_12_stop_keeps_pacman_facing() -> None:
    state = state_of("""
        %%%%%
        %   %
        % P %
        %%%%%
    """)
    north = state.successor(0, NORTH)
    assert north.pacman_direction is NORTH
    still = north.successor(0, STOP)
    assert still.pacman_direction is NORTH
    assert still.pacman_position == north.pacman_position
    assert still.score == north.score - 1
    assert str(still).splitlines()[1] == "% v %"


def test_rule_12_pacman_accepts_cs188_action_strings() -> None:
    state = state_of(SCORING)
    assert state.successor(0, "East") == state.successor(0, EAST)


def test_rule_13_normal_ghost_moves_a_full_cell() -> None:
    state = state_of(CAPSULE_CORRIDOR.replace("o", " "))
    assert state.successor(1, WEST).ghost_positions == ((6, 1),)


def test_rule_13_scared_ghost_moves_half_a_cell() -> None:
    state = play(state_of(CAPSULE_CORRIDOR), [(0, EAST)])
    positions = []
    for _ in range(4):
        state = play(state, [(1, WEST), (0, STOP)])
        positions.append(state.ghost_positions[0])
    assert positions == [(6.5, 1), (6, 1), (5.5, 1), (5, 1)]
    assert state.scared_timers == (36,)


def test_rule_14_pacman_move_costs_1_even_stop() -> None:
    state = state_of(CAPSULE_CORRIDOR)
    assert state.successor(0, STOP).score == -1
    assert state.successor(0, STOP).successor(1, WEST).score == -1  # ghosts cost nothing


def test_rule_14_ghost_timer_counts_down_per_own_move_and_stops_at_0() -> None:
    state = state_of(ROOM).successor(0, EAST)
    assert state.scared_timers == (40,)
    state = state.successor(0, STOP)
    assert state.scared_timers == (40,)  # Pacman's moves do not count
    timers = []
    for _ in range(41):
        state = state.successor(1, state.legal_actions(1)[0])
        timers.append(state.scared_timers[0])
    assert timers == [*range(39, -1, -1), 0]


# Routes of 19 full cells through ROOM's 4x3 room from (6,1) facing West; every 2 ghost moves
# walk one cell, so after the 39 moves they take the ghost stands on a grid point at timer 1.
_TO_6_2_FACING_WEST = [WEST, NORTH, NORTH, EAST, EAST, EAST, SOUTH, SOUTH, WEST, WEST,
                       WEST, NORTH, NORTH, EAST, EAST, EAST, SOUTH, WEST, WEST]
_TO_7_3_FACING_NORTH = [WEST, NORTH, NORTH, EAST, EAST, EAST, SOUTH, SOUTH, WEST, WEST,
                        WEST, NORTH, NORTH, EAST, SOUTH, SOUTH, EAST, NORTH, NORTH]


def _ghost_at_timer_1_on_grid(route: Sequence[Direction]) -> GameState:
    """A scared ghost on a grid point at timer 1: its timer was reset while it was half-way."""
    state = play(state_of(ROOM), [(0, EAST), (1, WEST), (0, EAST)])
    assert state.ghost_positions == ((6.5, 1),) and state.scared_timers == (40,)
    state = play(state, [(1, WEST), (0, STOP)])  # finish the half-way step: (6,1), timer 39
    for direction in route:
        state = play(state, [(1, direction), (0, STOP), (1, direction), (0, STOP)])
    assert state.scared_timers == (1,)
    assert on_grid(state.ghost_positions[0])
    return state


@pytest.mark.parametrize(("route", "action", "start", "snapped"), [
    (_TO_6_2_FACING_WEST, WEST, (6, 2), (6, 2)),    # (5.5, 2) snaps back East
    (_TO_6_2_FACING_WEST, SOUTH, (6, 2), (6, 2)),   # (6, 1.5) snaps back North
    (_TO_6_2_FACING_WEST, NORTH, (6, 2), (6, 3)),   # (6, 2.5) snaps forward
    (_TO_7_3_FACING_NORTH, EAST, (7, 3), (8, 3)),   # (7.5, 3) snaps forward
])
def test_rule_14_snap_at_timer_1(route: Sequence[Direction], action: Direction,
                                 start: tuple[int, int], snapped: tuple[int, int]) -> None:
    state = _ghost_at_timer_1_on_grid(route)
    assert state.ghost_positions == (start,)
    after = state.successor(1, action)
    assert after.ghost_positions == (snapped,)  # (int(x + 0.5), int(y + 0.5))
    assert after.scared_timers == (0,)
    assert after.ghost_directions == (action,)
    # from now on it moves a full cell again
    onward = after.successor(0, STOP).successor(1, after.legal_actions(1)[0])
    assert on_grid(onward.ghost_positions[0]) and onward.scared_timers == (0,)


def test_rule_14_timer_ending_half_way_lands_on_the_grid() -> None:
    state = play(state_of("""
        %%%%%%%%%%%
        %Po%      %
        %%%%   G  %
        %%%%%%%%%%%
    """), [(0, EAST)])
    for _ in range(40):
        state = play(state, [(1, state.legal_actions(1)[0]), (0, STOP)])
    assert state.scared_timers == (0,)
    assert on_grid(state.ghost_positions[0])


def test_rule_15_normal_ghost_catches_pacman_minus_500() -> None:
    state = state_of("""
        %%%%%%%
        %P G .%
        %%%%%%%
    """)
    caught = play(state, [(0, STOP), (1, WEST)])  # ghost (2,1): distance 1
    assert not caught.is_lose() and caught.score == -1
    caught = caught.successor(0, EAST)  # Pacman walks into the ghost
    assert caught.is_lose() and not caught.is_win()
    assert caught.score == -1 - 1 - 500
    by_ghost = play(state, [(0, EAST), (1, WEST)])  # the ghost walks into Pacman
    assert by_ghost.is_lose() and by_ghost.score == -1 - 500


def test_rule_15_distance_1_is_no_collision() -> None:
    state = state_of("""
        %%%%%%
        %PG .%
        %%%%%%
    """)
    assert state.successor(0, STOP).is_lose() is False
    scared = state_of("""
        %%%%%%%
        %Po G.%
        %%%%%%%
    """)
    scared = play(scared, [(0, EAST), (1, WEST), (0, STOP), (1, WEST)])  # ghost (3,1), scared
    assert scared.ghost_positions == ((3, 1),) and scared.scared_timers == (38,)
    assert scared.score == -2 and not scared.is_terminal()


def test_rule_15_half_way_scared_ghost_next_to_pacman_collides() -> None:
    state = state_of("""
        %%%%%%%
        %Po G.%
        %%%%%%%
    """)
    # Pacman moves next to a half-way ghost: distance 0.5
    half = play(state, [(0, EAST), (1, WEST)])
    assert half.ghost_positions == ((3.5, 1),)
    eaten = half.successor(0, EAST)  # Pacman (3,1), ghost (3.5,1)
    assert eaten.score == -1 - 1 + 200
    assert eaten.ghost_positions == ((4, 1),)
    assert eaten.ghost_directions == (STOP,) and eaten.scared_timers == (0,)
    # a half-way ghost moving to 0.5 from Pacman collides too
    near = play(state, [(0, EAST), (1, WEST), (0, STOP), (1, WEST)])  # ghost (3,1): dist 1
    eaten_by_move = near.successor(0, STOP).successor(1, WEST)  # ghost (2.5,1) vs (2,1)
    assert eaten_by_move.score == -1 - 1 - 1 + 200
    assert eaten_by_move.ghost_positions == ((4, 1),)
    assert eaten_by_move.scared_timers == (0,)


def test_rule_15_several_ghosts_eaten_in_one_pacman_move() -> None:
    state = state_of("""
        %%%%%%%
        %Po 12%
        %%%%%%%
    """)
    state = play(state, [(0, STOP), (1, WEST), (2, WEST),
                         (0, STOP), (1, WEST), (2, WEST),
                         (0, STOP), (2, WEST)])
    assert state.ghost_positions == ((2, 1), (2, 1))  # both on the capsule, beside Pacman
    assert state.score == -3 and not state.is_terminal()
    after = state.successor(0, EAST)  # capsule first, so both ghosts are scared when met
    assert after.score == -3 - 1 + 2 * 200
    assert after.ghost_positions == ((4, 1), (5, 1))
    assert after.ghost_directions == (STOP, STOP)
    assert after.scared_timers == (0, 0)
    assert not after.is_terminal()


def test_rule_15_every_normal_ghost_met_costs_500() -> None:
    # after a Pacman move every ghost is checked; each normal one is -500 (as in CS188)
    state = state_of("""
        %%%%%%%%
        %P. 12.%
        %%%%%%%%
    """)
    state = play(state, [(0, EAST), (1, WEST), (2, WEST), (0, STOP), (2, WEST)])
    assert state.ghost_positions == ((3, 1), (3, 1)) and state.pacman_position == (2, 1)
    assert state.score == 8
    after = state.successor(0, EAST)
    assert after.is_lose()
    assert after.score == 8 - 1 - 2 * 500


def test_rule_15_eating_last_food_on_a_ghost_cell_is_a_win() -> None:
    state = state_of("""
        %%%%%%
        %P.G %
        %%%%%%
    """)
    state = play(state, [(0, STOP), (1, WEST)])
    assert state.ghost_positions == ((2, 1),) and state.has_food(2, 1)
    final = state.successor(0, EAST)
    assert final.is_win() and not final.is_lose()
    assert final.score == -1 - 1 + 10 + 500  # no -500
    assert final.legal_actions(0) == () and final.legal_actions(1) == ()


def test_rule_15_food_that_is_not_the_last_on_a_ghost_cell_loses() -> None:
    state = state_of("""
        %%%%%%%
        %P.G .%
        %%%%%%%
    """)
    final = play(state, [(0, STOP), (1, WEST), (0, EAST)])
    assert final.is_lose() and not final.is_win()
    assert final.score == -1 - 1 + 10 - 500


def test_rule_15_after_a_ghost_move_only_that_ghost_is_checked() -> None:
    state = state_of("""
        %%%%%%%
        %2    %
        %%%%%%%
        % 1Po %
        %%%%%%%
    """)
    state = play(state, [(0, EAST), (1, WEST), (2, EAST),   # capsule; ghost 1 -> (1.5,1)
                         (0, WEST), (1, WEST), (2, EAST),   # ghost 1 -> (1,1)
                         (0, WEST)])                        # Pacman on ghost 1's start (2,1)
    assert state.pacman_position == (2, 1) and state.ghost_positions[0] == (1, 1)
    assert state.legal_actions(1) == (EAST,)
    state = state.successor(1, EAST)  # ghost 1 at (1.5,1): eaten, sent home onto Pacman
    assert state.score == -3 + 200
    assert state.ghost_positions[0] == (2, 1) and state.scared_timers[0] == 0
    assert not state.is_terminal()
    # ghost 2 moves: only ghost 2 is checked, so the normal ghost on Pacman's cell is ignored
    state = state.successor(2, state.legal_actions(2)[0])
    assert not state.is_terminal() and state.score == 197
    # a Pacman move checks every ghost: caught
    caught = state.successor(0, STOP)
    assert caught.is_lose() and caught.score == 197 - 1 - 500
    # the ghost may also just walk away
    assert not state.successor(1, WEST).is_terminal()


def test_rule_16_scores_are_integers() -> None:
    state = play(state_of(SCORING), [(0, EAST), (0, EAST)])
    assert isinstance(state.score, int) and state.score == 518


# --------------------------------------------------------------------------- turns

MID_ROUND = """
    %%%%%%%
    %P G  %
    %%%%% %
    %%%%%G%
    %%%%%%%
"""


def test_rule_17_game_ends_after_a_ghost_move_mid_round() -> None:
    layout = parse_layout(MID_ROUND)
    pacman = Scripted([EAST], "pacman")
    catcher = Scripted([WEST], "ghost 1")
    bystander = Scripted([], "ghost 2")  # raises if ever asked
    record = run_game(layout, pacman, [catcher, bystander], seed=0)
    assert record.outcome is Outcome.LOSS
    assert record.actions == ("East", "West")
    assert bystander.calls == 0
    assert record.score == -501
    assert record.pacman_moves == 1


def test_rule_17_game_ends_after_pacman_wins_mid_round() -> None:
    layout = parse_layout("""
        %%%%%%
        %P.G %
        %%%%%%
    """)
    ghost = Scripted([], "ghost")
    record = run_game(layout, Scripted([EAST]), [ghost], seed=0)
    assert record.outcome is Outcome.WIN
    assert record.actions == ("East",)
    assert ghost.calls == 0
    assert record.score == 509


def test_rule_17_agents_move_in_turn() -> None:
    layout = parse_layout("""
        %%%%%%%%%
        %P......%
        %%%%%%%%%
        %1    2 %
        %%%%%%%%%
    """)
    seen: list[int] = []

    class Logged:
        def __init__(self, index: int) -> None:
            self.index = index

        def get_action(self, state: GameState) -> Direction:
            seen.append(self.index)
            return STOP if self.index == 0 else state.legal_actions(self.index)[0]

    record = run_game(layout, Logged(0), [Logged(1), Logged(2)], seed=0, max_moves=4)
    assert seen == [0, 1, 2] * 4
    assert len(record.actions) == 12
    assert record.actions[0::3] == ("Stop",) * 4


@pytest.fixture
def search() -> object:
    import pacman.agents.search

    return pacman.agents.search


def _leaves(state: GameState, plies: int, agent: int = 0) -> Counter[GameState]:
    """The states a `plies`-deep search evaluates: one ply = Pacman, then every ghost."""
    if state.is_terminal() or (agent == 0 and plies == 0):
        return Counter([state])
    following = (agent + 1) % state.num_agents
    left = plies - 1 if following == 0 else plies
    found: Counter[GameState] = Counter()
    for action in state.legal_actions(agent):
        found.update(_leaves(state.successor(agent, action), left, following))
    return found


@pytest.mark.parametrize("depth", [1, 2])
def test_rule_18_one_ply_is_pacman_then_every_ghost(search: object, depth: int) -> None:
    state = state_of("""
        %%%%%%%
        %. P .%
        % % % %
        %1   2%
        %%%%%%%
    """)
    evaluated: Counter[GameState] = Counter()

    def evaluate(s: GameState) -> float:
        evaluated[s] += 1
        return float(s.score)

    search.minimax(state, depth, evaluate)  # type: ignore[attr-defined]
    expected = _leaves(state, depth)
    assert evaluated == expected
    if depth == 1:  # after one ply every leaf has had exactly three moves
        assert all(s.score == -1 for s in expected)


def test_rule_19_no_move_cap_by_default_and_capped_games_are_not_losses() -> None:
    layout = parse_layout("""
        %%%%%%%%
        %P    .%
        %%%%%%%%
    """)
    stopper = Scripted([STOP] * 50)
    record = run_game(layout, stopper, [], seed=0, max_moves=50)
    assert record.outcome is Outcome.CAPPED
    assert not record.won
    assert record.pacman_moves == 50 and record.score == -50
    uncapped = run_game(layout, Scripted([STOP] * 200 + [EAST] * 5), [], seed=0)
    assert uncapped.outcome is Outcome.WIN
    assert uncapped.pacman_moves == 205


def test_rule_19_cap_counts_pacman_moves_and_lets_the_round_finish() -> None:
    layout = parse_layout("""
        %%%%%%%%%%
        %P......G%
        %%%%%%%%%%
    """)
    rng = random.Random(0)

    class Wanderer:
        def __init__(self, index: int) -> None:
            self.index = index

        def get_action(self, state: GameState) -> Direction:
            return rng.choice(state.legal_actions(self.index))

    record = run_game(layout, Scripted([STOP] * 3), [Wanderer(1)], seed=0, max_moves=3)
    assert record.pacman_moves == 3
    assert len(record.actions) == 6  # the last round is complete: the ghost moved too
    assert record.outcome is Outcome.CAPPED


# --------------------------------------------------------------------------- successor errors

def test_successor_raises_on_terminal_states_and_illegal_actions() -> None:
    state = state_of("""
        %%%%%%
        %P.G %
        %%%%%%
    """)
    with pytest.raises(IllegalMoveError):
        state.successor(0, NORTH)  # a wall
    with pytest.raises(IllegalMoveError):
        state.successor(1, STOP)  # ghosts never stop
    with pytest.raises(IllegalMoveError):
        state.successor(0, "Jump")
    with pytest.raises(IllegalMoveError):
        state.successor(2, WEST)  # no such agent
    won = state.successor(0, EAST)
    assert won.is_win()
    for agent, action in ((0, WEST), (0, STOP), (1, WEST)):
        with pytest.raises(IllegalMoveError):
            won.successor(agent, action)
    lost = play(state, [(0, STOP), (1, WEST), (0, STOP), (1, WEST)])
    assert lost.is_lose()
    with pytest.raises(IllegalMoveError):
        lost.successor(0, STOP)
    assert issubclass(IllegalMoveError, ValueError)


# --------------------------------------------------------------------------- drawing and values

def test_str_draws_the_board_like_cs188() -> None:
    state = state_of("""
        %%%%%%
        %P.o %
        %  G.%
        %%%%%%
    """)
    assert str(state) == "%%%%%%\n%<.o %\n%  G.%\n%%%%%%\nScore: 0\n"
    south = state.successor(0, SOUTH)
    assert str(south) == "%%%%%%\n% .o %\n%^ G.%\n%%%%%%\nScore: -1\n"
    east = state.successor(0, EAST)
    assert str(east).splitlines()[1] == "% <o %"
    west = east.successor(1, WEST).successor(0, WEST)
    assert str(west).splitlines()[1:] == ["%> o %", "% G .%", "%%%%%%", "Score: 8"]
    north = south.successor(1, WEST).successor(0, NORTH)
    assert str(north).splitlines()[1] == "%v.o %"
    assert str(state.successor(0, STOP)).splitlines()[1] == "%<.o %"  # Stop, never moved


def test_str_draws_a_half_way_ghost_at_its_nearest_point() -> None:
    state = play(state_of(CAPSULE_CORRIDOR), [(0, EAST), (1, WEST)])
    assert state.ghost_positions == ((6.5, 1),)
    assert str(state).splitlines()[1] == "% <    G%"  # int(6.5 + 0.5) = 7


def test_states_compare_and_hash_by_value() -> None:
    text = """
        %%%%%%
        %P  .%
        %    %
        %%%%%%
    """
    a = play(state_of(text), [(0, EAST), (0, STOP)])
    b = play(state_of(text), [(0, STOP), (0, EAST)])
    assert a is not b
    assert a == b and hash(a) == hash(b)
    assert len({a, b}) == 1
    assert {a: 1}[b] == 1
    assert state_of(text) == state_of(text)  # separately parsed layouts
    assert hash(state_of(text)) == hash(state_of(text))
    # score, position and facing are all part of the value
    assert a != play(state_of(text), [(0, EAST), (0, EAST), (0, WEST)])  # score -3
    assert play(state_of(text), [(0, EAST), (0, WEST)]) != \
        play(state_of(text), [(0, SOUTH), (0, NORTH)])  # facing West vs North
    assert a != play(state_of(text), [(0, EAST), (0, EAST)])
    assert a != "not a state"
    # the same key on another layout is another state
    other = state_of(text.replace("%P  .%", "%P %.%"))
    assert state_of(text) != other
