"""Distance queries for evaluation functions: safe cells (a Voronoi region) vs brute force."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from pacman import GameState, load_layout, parse_layout
from pacman.rules import EAST, WEST

PINCER = parse_layout("""
%%%%%%%%%%%
%G   P   G%
%%%%%%%%%%%
""")


def brute_force_safe(state: GameState, limit: int) -> int:
    ghosts = [g for g, t in zip(state.ghost_positions, state.scared_timers) if t == 0]
    count = 0
    for x in range(state.width):
        for y in range(state.height):
            if state.has_wall(x, y):
                continue
            mine = state.maze_distance(state.pacman_position, (x, y))
            if mine == float("inf"):
                continue
            if all(mine < state.maze_distance(g, (x, y)) for g in ghosts):
                count += 1
    return min(count, limit)


def test_a_pincer_leaves_few_safe_cells() -> None:
    state = GameState.initial(PINCER)
    assert state.safe_cell_count(100) == 3  # x = 4..6: nearer to Pacman than to either ghost
    closer = state
    for _ in range(2):
        closer = closer.successor(0, "Stop").successor(1, EAST).successor(2, WEST)
    assert closer.safe_cell_count(100) == 1  # ghosts at x = 3 and 7: only Pacman's own cell
    assert GameState.initial(PINCER, 1).safe_cell_count(100) == 6  # x = 4..9: one ghost
    assert GameState.initial(PINCER, 0).safe_cell_count(100) == 9  # every free cell
    assert state.safe_cell_count(2) == 2  # counted up to the limit
    assert state.successor(0, WEST).safe_cell_count(100) == 4  # off-centre: x = 3..6


def played_positions(layout: str, seed: str, turns: int) -> Iterator[GameState]:
    """The positions after each round of `turns` random moves from the start of `layout`."""
    state = GameState.initial(load_layout(layout))
    rng = random.Random(seed)
    for turn in range(turns):
        agent = turn % state.num_agents
        state = state.successor(agent, rng.choice(state.legal_actions(agent)))
        if state.is_terminal():
            return
        if agent == state.num_agents - 1:
            yield state


@pytest.mark.parametrize("layout", ["smallClassic", "mediumClassic", "trickyClassic"])
def test_safe_cells_match_brute_force_on_played_positions(layout: str) -> None:
    for state in played_positions(layout, layout, 150):
        assert state.safe_cell_count(1000) == brute_force_safe(state, 1000)
        assert state.safe_cell_count(10) == brute_force_safe(state, 10)


RING = parse_layout("""
%%%%%%%%%%%%%%%%%
%   P   %%%%%%%%%
% %%%%% %%%%%%%%%
%              G%
%%%%%%%%%%%%%%%%%
""")


def brute_force_trapped(state: GameState, most: int | None = None,
                        around_walls: bool = False, loops: int = 1) -> bool:
    """Pacman's region (cells it reaches strictly first) has fewer than `loops` independent
    loops: links - cells + 1 < loops (no loop: links < cells); with `most`, it also holds at
    most `most` cells; with `around_walls`, each 2x2 block of region cells takes a link off
    (a loop around no wall)."""
    ghosts = [g for g, t in zip(state.ghost_positions, state.scared_timers) if t == 0]
    if not ghosts:
        return False
    region = set()
    for x in range(state.width):
        for y in range(state.height):
            if state.has_wall(x, y):
                continue
            mine = state.maze_distance(state.pacman_position, (x, y))
            if mine != float("inf") and all(mine < state.maze_distance(g, (x, y))
                                            for g in ghosts):
                region.add((x, y))
    links = sum((x + 1, y) in region for x, y in region) + sum(
        (x, y + 1) in region for x, y in region)
    if around_walls:
        links -= sum({(x + 1, y), (x, y + 1), (x + 1, y + 1)} <= region for x, y in region)
    return links - len(region) + 1 < loops and (most is None or len(region) <= most)


def test_trapped_means_no_loop_in_pacmans_region() -> None:
    assert GameState.initial(PINCER).is_trapped()  # a corridor both of whose ends are lost
    assert GameState.initial(PINCER, 1).is_trapped()  # a dead end behind Pacman
    assert not GameState.initial(PINCER, 0).is_trapped()  # no ghost, no trap
    ring = GameState.initial(RING)  # the ghost is 8 steps down the tail: the ring is Pacman's
    assert ring.safe_cell_count(100) == 17 and not ring.is_trapped()
    for _ in range(3):
        ring = ring.successor(0, "Stop").successor(1, WEST)
    # the ghost is as near the ring's corner as Pacman: what is left is a path
    assert ring.ghost_positions[0] == (12, 1) and ring.is_trapped()


@pytest.mark.parametrize("layout", ["smallClassic", "mediumClassic", "trickyClassic"])
def test_trapped_matches_brute_force_on_played_positions(layout: str) -> None:
    seen = set()
    for state in played_positions(layout, f"trap {layout}", 300):
        trapped = state.is_trapped()
        assert trapped == brute_force_trapped(state)
        seen.add(trapped)
    assert seen == {True, False}


@pytest.mark.parametrize("layout", ["mediumClassic", "openClassic", "contestClassic",
                                    "powerClassic"])
def test_penned_matches_brute_force_on_played_positions(layout: str) -> None:
    seen = set()
    for game in range(3):
        for state in played_positions(layout, f"pen {layout} {game}", 300):
            for most in (None, 6):
                penned = state.is_trapped(most, around_walls=True)
                assert penned == brute_force_trapped(state, most, around_walls=True)
                seen.add((most, penned, state.is_trapped(most)))
    if layout == "openClassic":  # one room, no wall inside it: no loop around a wall
        assert {penned for most, penned, _ in seen if most is None} == {True}
    if layout in ("mediumClassic", "openClassic", "powerClassic"):
        assert (None, True, False) in seen  # a region of open 2x2 blocks: penned, not trapped
    if layout in ("mediumClassic", "contestClassic"):
        assert (None, False, False) in seen  # a loop around a wall: neither


PEN = parse_layout("""
%%%%%%%%%%
%G      G%
%%%%  %%%%
%%%    %%%
%%%  P %%%
%%%%%%%%%%
""")


def test_an_open_room_is_penned_but_not_trapped() -> None:
    from pacman.agents.evaluation import FEATURES, NAMED

    # the room below the two-cell door: its 2x2 blocks are loops, so `trapped` sees a way
    # out; both ghosts reach the door first, so `penned` sees none
    pen = GameState.initial(PEN)
    assert not pen.is_trapped() and pen.is_trapped(around_walls=True)
    assert FEATURES["trapped"](pen, 3) == 0.0 and FEATURES["penned"](pen, 3) == 1.0
    # the room's 8 cells and the door's 2
    assert pen.is_trapped(10, around_walls=True) and not pen.is_trapped(9, around_walls=True)
    assert NAMED["learned-penned"](pen) == NAMED["learned"](pen) - 200
    assert NAMED["learned-wary"](pen) == NAMED["learned"](pen)  # `trapped` sees a way out
    assert not GameState.initial(PEN, 0).is_trapped(around_walls=True)  # no ghost, no trap
    # a loop around a wall is a way out for both: the ring, as above
    assert not GameState.initial(RING).is_trapped(around_walls=True)


@pytest.mark.parametrize("layout", ["mediumClassic", "smallClassic", "contestClassic"])
def test_loop_counts_match_brute_force_on_played_positions(layout: str) -> None:
    seen = set()
    for game in range(3):
        for state in played_positions(layout, f"loops {layout} {game}", 300):
            for loops, around_walls in ((2, False), (2, True), (3, True)):
                hemmed = state.is_trapped(around_walls=around_walls, loops=loops)
                assert hemmed == brute_force_trapped(state, None, around_walls, loops)
                seen.add((loops, around_walls, hemmed, state.is_trapped(around_walls=True)))
    # one loop around a wall: a way out from one ghost, not from two
    assert (2, True, True, False) in seen and (2, True, False, False) in seen


HEM = parse_layout("""
%%%%%%%%%%%%%%%%%%%%%%
%G       P   %%%%%%%%%
%%%%%% %%%%% %%%%%%%%%
%%%%%%              G%
%%%%%%%%%%%%%%%%%%%%%%
""")


def test_one_loop_is_a_way_out_from_one_ghost_not_from_two() -> None:
    from pacman.agents.evaluation import FEATURES, parse_weights

    hemmed = parse_weights("score:1,hemmed:-200")
    # Pacman's region is the ring around the wall in the middle (and the tails' near
    # halves): one loop. One ghost chases him round it for ever; two corner him on it.
    two = GameState.initial(HEM)
    assert two.safe_cell_count(100) == 17 and not two.is_trapped(around_walls=True)
    assert two.is_trapped(around_walls=True, loops=2) and not two.is_trapped(loops=1)
    assert FEATURES["penned"](two, 3) == 0.0 and FEATURES["hemmed"](two, 3) == 1.0
    assert hemmed(two) == two.score - 200
    one = GameState.initial(HEM, 1)
    assert FEATURES["hemmed"](one, 3) == 0.0  # as many loops as ghosts
    assert hemmed(one) == one.score
    assert FEATURES["hemmed"](GameState.initial(HEM, 0), 3) == 0.0  # no ghost, no trap
    assert FEATURES["hemmed"](GameState.initial(PEN), 3) == 1.0  # an open room: no loop


def test_small_traps_match_brute_force_on_played_positions() -> None:
    seen = set()
    for layout in ("smallClassic", "mediumClassic", "trickyClassic"):
        for game in range(5):
            for state in played_positions(layout, f"small trap {layout} {game}", 200):
                for most in (1, 3, 6):
                    small = state.is_trapped(most)
                    assert small == brute_force_trapped(state, most)
                    seen.add((most, small))
    assert {(3, True), (6, True), (6, False)} <= seen


def test_cornered_is_a_trap_of_at_most_six_cells() -> None:
    from pacman.agents.evaluation import FEATURES

    pincer = GameState.initial(PINCER)  # x = 4..6 are Pacman's: a corridor of 3 cells
    assert pincer.is_trapped(3) and not pincer.is_trapped(2)
    dead_end = GameState.initial(PINCER, 1)  # x = 4..9: a dead end of 6 cells
    assert dead_end.is_trapped(6) and not dead_end.is_trapped(5)
    assert FEATURES["cornered"](pincer, 3) == 1.0 and FEATURES["cornered"](dead_end, 3) == 1.0
    assert FEATURES["cornered"](dead_end.successor(0, WEST), 3) == 0.0  # 7 cells now
    ring = GameState.initial(RING)  # a loop is never a trap, however small the limit
    assert not ring.is_trapped(100) and FEATURES["cornered"](ring, 3) == 0.0


def test_wary_is_better_minus_200_in_a_trap() -> None:
    from pacman.agents.evaluation import NAMED

    trapped = GameState.initial(load_layout("trappedClassic"))  # ghosts at the dead end
    free = GameState.initial(RING)
    assert trapped.is_trapped() and not free.is_trapped()
    assert NAMED["wary"](trapped) == NAMED["better"](trapped) - 200
    assert NAMED["wary"](free) == NAMED["better"](free)



def test_a_long_corridor_trap_is_trapped_but_not_cornered() -> None:
    from pacman.agents.evaluation import FEATURES, NAMED

    # 8 cells of the bottom corridor are Pacman's, its ends the ghosts' (they come down the
    # sides first): a trap longer than `cornered`'s 6 cells. `wary` and `learned-wary` see it,
    # `learned` (which weighs `cornered`, not `trapped`) does not: the pincers of its
    # mediumClassic losses
    long_trap = GameState.initial(parse_layout("""
%%%%%%%%%%%%%%%%
%G            G%
% %%%%%%%%%%%% %
%      P       %
%%%%%%%%%%%%%%%%"""))
    assert long_trap.is_trapped() and long_trap.safe_cell_count(100) == 8
    assert FEATURES["trapped"](long_trap, 3) == 1.0 and FEATURES["cornered"](long_trap, 3) == 0.0
    assert NAMED["wary"](long_trap) == NAMED["better"](long_trap) - 200
    assert NAMED["learned-wary"](long_trap) == NAMED["learned"](long_trap) - 200
