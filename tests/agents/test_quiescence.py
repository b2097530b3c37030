"""Quiescence: a live leaf (a ghost about to strike) is searched on until it is quiet.

Off, nothing changes (same decisions, same node counts); on, a quiet position costs no extra
node, and a position whose danger lies one step past the horizon is no longer walked into.
"""

from __future__ import annotations

import pytest
from positions import random_positions
from test_anytime import Node, Tree

from pacman import GameState, load_layout, parse_layout
from pacman.agents.anytime import CHANCE, MAX, MIN, SINGULAR_CAP, iterative_search
from pacman.agents.evaluation import NAMED
from pacman.agents.pacman_agents import (
    IterativeAlphaBetaAgent,
    IterativeExpectimaxAgent,
    live_position,
    quiet_moves,
)
from pacman.experiments import AgentSpec, GameConfig, resolve_config
from pacman.rules import EAST, NORTH, WEST

# Pacman (P) beside the ghost (G) at the foot of a T-shaped dead end with a dot at its top.
# Going North for the dot looks good one ply ahead; two plies later the ghost has closed the
# only way out. East, along the corridor that leads down and around, is safe.
TRAP = parse_layout("""
%%%%%%%%%
%   .   %
%%%% %%%%
%  GP   %
% %%%%% %
% % . % %
%%%%%%%%%
""", name="trap")
FOOD = NAMED["food"]


def minimax_value(state: GameState, agent: int, plies: int) -> float:
    """The plain minimax value of `state`, `agent` to move, `plies` whole plies left."""
    if state.is_win() or state.is_lose() or (agent == 0 and plies == 0):
        return FOOD(state)
    following = (agent + 1) % state.num_agents
    left = plies - 1 if following == 0 else plies
    values = [minimax_value(state.successor(agent, a), following, left)
              for a in state.legal_actions(agent)]
    return max(values) if agent == 0 else min(values)


def search(state: GameState, depth: int, quiescence: int = 0, kinds: list[str] | None = None
           ) -> object:
    return iterative_search(state, FOOD, max_depth=depth, kinds=kinds, quiescence=quiescence,
                            live=live_position if quiescence else None, quiet_moves=quiet_moves)


def test_the_plain_search_walks_into_the_trap_and_the_quiescent_one_does_not() -> None:
    state = GameState.initial(TRAP)
    assert live_position(state)
    plain = iterative_search(state, FOOD, max_depth=1)
    quiet = search(state, 1, quiescence=2)
    assert plain.action is NORTH and quiet.action is EAST
    # the truth, three plies deep: North is lost, East is not
    assert minimax_value(state.successor(0, NORTH), 1, 3) == -1_000_502.0  # caught
    assert minimax_value(state.successor(0, EAST), 1, 3) == -30.5
    assert (plain.nodes_generated, quiet.nodes_generated) == (11, 28)


def test_a_quiet_position_costs_no_extra_node() -> None:
    state = GameState.initial(load_layout("mediumClassic"))  # ghosts far away, in their box
    for depth in (1, 2):
        plain = iterative_search(state, FOOD, max_depth=depth)
        quiet = search(state, depth, quiescence=2)
        assert (quiet.action, quiet.value, quiet.nodes_generated) == (
            plain.action, plain.value, plain.nodes_generated)


@pytest.mark.parametrize("kind", [MIN, CHANCE])
@pytest.mark.parametrize("index", range(8))
def test_quiescence_zero_is_the_search_without_it(kind: str, index: int) -> None:
    state = random_positions("smallClassic", 8, seed=11)[index]
    kinds = [MAX] + [kind] * (state.num_agents - 1)
    plain = iterative_search(state, FOOD, max_depth=2, kinds=kinds)
    off = iterative_search(state, FOOD, max_depth=2, kinds=kinds, quiescence=0,
                           live=live_position, quiet_moves=quiet_moves)
    assert (off.action, off.value, off.nodes_generated, off.iterations) == (
        plain.action, plain.value, plain.nodes_generated, plain.iterations)


def test_quiescence_searches_chance_layers_too() -> None:
    state = GameState.initial(TRAP)
    kinds = [MAX, CHANCE]
    plain = search(state, 1, kinds=kinds)
    quiet = search(state, 1, quiescence=2, kinds=kinds)
    assert quiet.nodes_generated > plain.nodes_generated
    assert quiet.action is not NORTH  # the uniform ghost follows into the dead end often enough


def test_the_agents_setting() -> None:
    agent = IterativeAlphaBetaAgent(quiescence=2, nodes=2000, evaluation="food")
    assert "quiescence=2" in agent.describe()
    assert "quiescence" not in IterativeAlphaBetaAgent().describe()
    assert agent.get_action(GameState.initial(TRAP)) is EAST
    assert IterativeExpectimaxAgent(quiescence=1).quiescence == 1
    for bad in (-1, 1.5, True):
        with pytest.raises(ValueError, match="quiescence must be a whole number of plies"):
            IterativeAlphaBetaAgent(quiescence=bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="quiescence needs live"):
        iterative_search(GameState.initial(TRAP), FOOD, quiescence=1)


def test_batches_keep_their_keys_and_seeds_when_quiescence_is_off() -> None:
    """`quiescence` is a late setting: at 0 it stays out of the configuration key."""
    base = GameConfig(AgentSpec("IterativeAlphaBetaAgent"), layout="smallClassic")
    zero = GameConfig(AgentSpec.of("IterativeAlphaBetaAgent", {"quiescence": 0}),
                      layout="smallClassic")
    two = GameConfig(AgentSpec.of("IterativeAlphaBetaAgent", {"quiescence": 2}),
                     layout="smallClassic")
    assert resolve_config(base).config.key() == resolve_config(zero).config.key()
    assert '"quiescence"' not in resolve_config(base).config.key()
    assert '"quiescence":2' in resolve_config(two).config.key()


# ------------------------------------------------------------------ forward pruning
# Pacman (P) on the top corridor, the ghost (G) in the gap below it, a dot to the east. East,
# towards the dot, is what one step of evaluation likes best; the only safe line is the
# detour West. Forward pruning to one move per node never searches it.
DETOUR = parse_layout("""
%%%%%%%%%%%
%   P   . %
% %%%G%%% %
% %     % %
% % %%% % %
%.      . %
%%%%%%%%%%%
""", name="detour")


def test_forward_pruning_misses_the_detour_the_full_search_finds() -> None:
    state = GameState.initial(DETOUR)
    full = iterative_search(state, FOOD, max_depth=3)
    pruned = iterative_search(state, FOOD, max_depth=3, forward=1)
    assert (full.action, full.value, full.nodes_generated) == (WEST, -39.0, 157)
    assert (pruned.action, pruned.value, pruned.nodes_generated) == (EAST, -1_000_501.0, 63)


@pytest.mark.parametrize("index", range(6))
def test_forward_zero_is_the_search_without_it_and_k_cuts_nodes(index: int) -> None:
    state = random_positions("mediumClassic", 6, seed=5)[index]
    plain = iterative_search(state, FOOD, max_depth=3)
    off = iterative_search(state, FOOD, max_depth=3, forward=0)
    assert (off.action, off.value, off.nodes_generated) == (
        plain.action, plain.value, plain.nodes_generated)
    assert iterative_search(state, FOOD, max_depth=3, forward=1).nodes_generated < (
        plain.nodes_generated)


@pytest.mark.parametrize("setting", ["forward", "escape"])  # escape: test_escape.py
def test_the_whole_number_settings(setting: str) -> None:
    agent = IterativeAlphaBetaAgent(nodes=500, **{setting: 2})
    assert f"{setting}=2" in agent.describe() and getattr(agent, setting) == 2
    assert setting not in IterativeExpectimaxAgent().describe()
    for bad in (-1, 2.5, False):
        with pytest.raises(ValueError, match=f"{setting} must be a whole number of"):
            IterativeAlphaBetaAgent(**{setting: bad})
    base = GameConfig(AgentSpec("IterativeExpectimaxAgent"), layout="smallClassic")
    zero = GameConfig(AgentSpec.of("IterativeExpectimaxAgent", {setting: 0}),
                      layout="smallClassic")
    assert resolve_config(base).config.key() == resolve_config(zero).config.key()


# ------------------------------------------------------------------ singular extensions
def one_player_tree(children: dict[int, list[int]], values: dict[int, float]) -> Tree:
    return Tree(1, children=children, values=values)


def test_a_singular_move_is_searched_one_ply_deeper() -> None:
    # root -> X, Y. Under X, X1 (10) beats X2 (0) by 10: singular; one ply more shows X1's
    # children (-100, -90), so X is worth 0, not 10, and Y (5) is the better move.
    tree = one_player_tree({0: [1, 2], 1: [3, 4], 3: [5, 6], 2: [7, 8]},
                           {0: 0, 1: 0, 2: 0, 3: 10, 4: 0, 5: -100, 6: -90, 7: 5, 8: 4})
    root = Node(tree, 0)
    plain = iterative_search(root, tree.evaluate, max_depth=2)
    assert (plain.action, plain.value) == (0, 10)
    extended = iterative_search(root, tree.evaluate, max_depth=2, singular=5)
    assert (extended.action, extended.value) == (1, 5)
    narrow = iterative_search(root, tree.evaluate, max_depth=2, singular=11)  # margin 10 < 11
    assert (narrow.action, narrow.value, narrow.nodes_generated) == (
        0, 10, plain.nodes_generated + 4)  # 4 children evaluated by the singular test


def test_singular_extensions_stop_at_the_cap_on_a_path() -> None:
    # a chain where every node has one clearly better child: 10 levels deep
    children = {level: [level + 1, 100 + level] for level in range(10)}
    values = {level: float(level) for level in range(11)}
    values.update({100 + level: -50.0 for level in range(10)})
    tree = one_player_tree(children, values)
    decision = iterative_search(Node(tree, 0), tree.evaluate, max_depth=2, singular=1,
                                table=None)
    assert decision.value == 2 + SINGULAR_CAP  # two plies, plus the cap's extra plies
    assert max(node for node in tree.evaluated if node < 100) == 2 + SINGULAR_CAP


@pytest.mark.parametrize("index", range(4))
def test_singular_zero_is_the_search_without_it(index: int) -> None:
    state = random_positions("smallClassic", 4, seed=9)[index]
    plain = iterative_search(state, FOOD, max_depth=3)
    off = iterative_search(state, FOOD, max_depth=3, singular=0)
    assert (off.action, off.value, off.nodes_generated) == (
        plain.action, plain.value, plain.nodes_generated)
    with pytest.raises(ValueError, match="singular must be a margin"):
        iterative_search(state, FOOD, singular=-1)
