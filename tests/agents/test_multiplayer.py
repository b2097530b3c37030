"""max^n and expectiminimax (agents/multiplayer.py) on hand-made trees and random trees.

A hand-made tree is written as nested dicts: an inner node maps actions (in legal order) to
children, a leaf is its value (a number, or a tuple of utilities for max^n). Agents move in
turn 0, 1, ..., n-1, 0, ... down the tree. The expected values are worked out by hand in the
comments.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pacman import GameState, load_layout
from pacman.agents.multiplayer import check_kinds, expectiminimax, maxn
from pacman.agents.search import Decision, expectimax, minimax

Tree = Any  # dict[str, Tree] | float | tuple[float, ...]


@dataclass
class Calls:
    """How many times `successor` was called, and the edges it took (each at most once)."""

    count: int = 0
    edges: set[tuple[int, str]] = field(default_factory=set)


class Node:
    """A `SearchState` over an explicit tree; `win`/`lose` name terminal subtrees by id."""

    def __init__(self, tree: Tree, num_agents: int, calls: Calls,
                 terminal: frozenset[int] = frozenset()) -> None:
        self.tree, self.num_agents, self.calls, self.terminal = tree, num_agents, calls, terminal

    def legal_actions(self, agent: int) -> list[str]:
        """The child names in order; none at a leaf."""
        return list(self.tree) if isinstance(self.tree, dict) else []

    def successor(self, agent: int, action: str) -> Node:
        """The named child; never twice, never from a terminal node."""
        assert id(self.tree) not in self.terminal, "successor of a terminal node"
        assert (id(self.tree), action) not in self.calls.edges, "child generated twice"
        self.calls.edges.add((id(self.tree), action))
        self.calls.count += 1
        return Node(self.tree[action], self.num_agents, self.calls, self.terminal)

    def is_win(self) -> bool:
        """Terminal subtrees count as won (the search only needs 'terminal')."""
        return id(self.tree) in self.terminal

    def is_lose(self) -> bool:
        """Never: `is_win` marks the terminal nodes."""
        return False

    @property
    def score(self) -> float:
        """A leaf's number."""
        assert not isinstance(self.tree, dict), "scored an inner node"
        return float(self.tree)


def value(node: Node) -> float:
    """The leaf's number (fails on an inner node: only leaves are valued)."""
    assert not isinstance(node.tree, dict), f"valued an inner node {node.tree}"
    return float(node.tree)


def utilities(node: Node) -> tuple[float, ...]:
    """The leaf's utility tuple (fails on an inner node)."""
    assert not isinstance(node.tree, dict), f"valued an inner node {node.tree}"
    return tuple(node.tree)


def root(tree: Tree, num_agents: int, terminal: Sequence[Tree] = ()) -> Node:
    """The root of an explicit tree."""
    return Node(tree, num_agents, Calls(), frozenset(id(t) for t in terminal))


# --------------------------------------------------------------------------- max^n by hand

# The lecture's shape: three players, each moves once (depth 1), two actions each, 8 leaves.
LECTURE = {
    "L": {"l": {"l": (1, 6, 6), "r": (7, 1, 2)}, "r": {"l": (6, 1, 2), "r": (7, 2, 1)}},
    "R": {"l": {"l": (5, 1, 7), "r": (1, 5, 2)}, "r": {"l": (7, 7, 1), "r": (5, 2, 5)}},
}


def test_maxn_lecture_tree_by_hand() -> None:
    # Player 2 (third component): (1,6,6) (6,1,2) (5,1,7) (5,2,5).
    # Player 1 (second component): left (1,6,6) [6 > 1], right (5,2,5) [2 > 1].
    # Player 0 (first component): 5 > 1, so R, worth (5,2,5). Nodes: 1 + 2 + 4 + 8 = 15.
    state = root(LECTURE, 3)
    decision = maxn(state, 1, utilities)
    assert (decision.action, decision.value, decision.nodes_generated,
            decision.best_actions) == ("R", (5, 2, 5), 15, ("R",))
    assert state.calls.count == 14


def test_maxn_utilities_decide_between_cooperation_and_competition() -> None:
    # Two players, the same moves. When player 1 shares player 0's interest it picks (10,10)
    # after L, so player 0 goes L for 10. When its utility is the opposite of player 0's it
    # spoils L (picks (0,0) over (10,-10)) and after R picks (5,0) over (6,-6): player 0 goes
    # R for 5.
    cooperative = {"L": {"a": (10, 10), "b": (0, 0)}, "R": {"a": (5, 0), "b": (6, 1)}}
    competitive = {"L": {"a": (10, -10), "b": (0, 0)}, "R": {"a": (5, 0), "b": (6, -6)}}
    together = maxn(root(cooperative, 2), 1, utilities)
    apart = maxn(root(competitive, 2), 1, utilities)
    assert (together.action, together.value) == ("L", (10, 10))
    assert (apart.action, apart.value) == ("R", (5, 0))


def test_maxn_third_player_sides_with_whoever_it_gains_from() -> None:
    # Player 2 chooses last. After x-A it gains most from (9, 0, 3): it helps player 0.
    # After x-B it gains most from (0, 9, 4): it helps player 1. Player 1 (second component)
    # prefers B (9) to A (0), so x is worth (0, 9, 4); y (one move each) is worth (2, 2, 2).
    tree = {
        "x": {"A": {"p": (9, 0, 3), "q": (0, 9, 1)}, "B": {"p": (9, 0, 1), "q": (0, 9, 4)}},
        "y": {"A": {"p": (2, 2, 2)}},
    }
    decision = maxn(root(tree, 3), 1, utilities)
    # x is worth 0 to player 0 and y 2: player 0 plays y. Nodes: the root, x and y, A and B
    # under x, two leaves under each, A under y and its leaf: 1 + 2 + 2 + 4 + 1 + 1 = 11.
    assert (decision.action, decision.value, decision.nodes_generated) == ("y", (2, 2, 2), 11)


def test_maxn_ties_go_to_the_first_action_and_every_best_root_action_is_listed() -> None:
    # Player 1 is indifferent between (1, 5) and (3, 5): it keeps the first, (1, 5). At the
    # root both children are worth 1 to player 0: both are best, the first is played.
    tree = {"a": {"u": (1, 5), "v": (3, 5)}, "b": {"u": (1, 0)}}
    decision = maxn(root(tree, 2), 1, utilities)
    assert decision.value == (1, 5)
    assert decision.best_actions == ("a", "b") and decision.action == "a"


def test_maxn_leaves_terminal_dead_end_and_depth() -> None:
    # Depth 2 with 2 players: leaves after 4 moves. "w" is terminal (a leaf at once, never
    # expanded); "d" is a dead end (player 1 has no move: valued where it stands).
    won = (100, -100)
    tree = {
        "w": won,
        "d": (7, 7),
        "g": {"a": {"a": {"a": (1, 2), "b": (4, 0)}}},
    }
    state = root(tree, 2, terminal=[won])
    decision = maxn(state, 2, utilities)
    # g: player 1 then player 0 then player 1 picks (1, 2) (2 > 0); worth 1 to player 0.
    assert (decision.action, decision.value) == ("w", (100, -100))
    assert decision.nodes_generated == 1 + 3 + 1 + 1 + 2
    # Without the won child, the dead end (7 to player 0) beats g (1).
    assert maxn(root({"g": tree["g"], "d": (7, 7)}, 2), 2, utilities).action == "d"


def test_maxn_rejects_utilities_of_the_wrong_length() -> None:
    with pytest.raises(ValueError, match=r"one value per agent \(3\), got 2"):
        maxn(root({"a": {"b": {"c": (1, 2)}}}, 3), 1, utilities)


# ----------------------------------------------------------------- expectiminimax by hand

def test_expectiminimax_with_dice_as_an_explicit_chance_player() -> None:
    # A backgammon-like turn: player 0 picks a move, the dice (agent 1) roll, the opponent
    # (agent 2, min) replies. Depth 1.
    #   safe:  dice 1 -> min(4, 6) = 4; dice 2 -> min(5, 3) = 3; expectation 3.5
    #   bold:  dice 1 -> min(10, 9) = 9; dice 2 -> min(0, 2) = 0; expectation 4.5
    tree = {
        "safe": {"1": {"a": 4, "b": 6}, "2": {"a": 5, "b": 3}},
        "bold": {"1": {"a": 10, "b": 9}, "2": {"a": 0, "b": 2}},
    }
    kinds = ("max", "chance", "min")
    decision = expectiminimax(root(tree, 3), 1, value, kinds=kinds)
    assert (decision.action, decision.value, decision.nodes_generated) == ("bold", 4.5, 15)
    # Loaded dice: a 2 three times in four. safe 0.25*4 + 0.75*3 = 3.25, bold 0.25*9 = 2.25.

    def loaded(state: Any, agent: int, actions: Sequence[Any]) -> list[float]:
        assert agent == 1 and list(actions) == ["1", "2"]
        return [0.25, 0.75]

    weighted = expectiminimax(root(tree, 3), 1, value, kinds=kinds, chance=loaded)
    assert (weighted.action, weighted.value) == ("safe", 3.25)
    # The same tree as plain minimax (the dice as a minimiser): safe 3, bold 0.
    assert minimax(root(tree, 3), 1, value).action == "safe"


def test_expectiminimax_mixed_layers_differ_from_minimax_and_expectimax() -> None:
    # Pacman (max), a hunting ghost (min) and a random ghost (chance), depth 1.
    #   A: hunter -> x: random (0, 10) ; y: random (8, 8)
    #   B: hunter -> x: random (6, 6)  ; y: random (9, 1)
    # min,chance: A = min(5, 8) = 5; B = min(6, 5) = 5; tie, A first ... use C to break it:
    #   C: hunter -> x: random (7, 5)  ; y: random (6, 8)   min(6, 7) = 6  -> C, 6
    # min,min:      A min(0, 8) = 0; B min(6, 1) = 1; C min(5, 6) = 5 -> C, 5
    # chance,chance A (5 + 8) / 2 = 6.5; B (6 + 5) / 2 = 5.5; C (6 + 7) / 2 = 6.5 -> A, 6.5
    tree = {
        "A": {"x": {"p": 0, "q": 10}, "y": {"p": 8, "q": 8}},
        "B": {"x": {"p": 6, "q": 6}, "y": {"p": 9, "q": 1}},
        "C": {"x": {"p": 7, "q": 5}, "y": {"p": 6, "q": 8}},
    }
    mixed = expectiminimax(root(tree, 3), 1, value, kinds=("max", "min", "chance"))
    assert (mixed.action, mixed.value) == ("C", 6.0)
    both_min = expectiminimax(root(tree, 3), 1, value, kinds=("max", "min", "min"))
    assert (both_min.action, both_min.value) == ("C", 5.0)
    both_chance = expectiminimax(root(tree, 3), 1, value, kinds=("max", "chance", "chance"))
    assert (both_chance.action, both_chance.value, both_chance.best_actions) == (
        "A", 6.5, ("A", "C"))
    # The other order of layers: random first, hunter second.
    #   A: avg(min(0,10), min(8,8)) = 4; B: avg(6, 1) = 3.5; C: avg(5, 6) = 5.5 -> C
    swapped = expectiminimax(root(tree, 3), 1, value, kinds=("max", "chance", "min"))
    assert (swapped.action, swapped.value) == ("C", 5.5)


def test_expectiminimax_max_layers_for_a_helper() -> None:
    # Agent 1 is on agent 0's side: a max layer. A: max(1, 9) = 9; B: max(5, 4) = 5.
    tree = {"A": {"a": 1, "b": 9}, "B": {"a": 5, "b": 4}}
    decision = expectiminimax(root(tree, 2), 1, value, kinds=("max", "max"))
    assert (decision.action, decision.value) == ("A", 9.0)


@pytest.mark.parametrize(("kinds", "message"), [
    (("max", "min"), r"one layer kind per agent \(3\), got 2: max, min"),
    (("max", "min", "dice"), r"unknown layer kind 'dice' for agent 2"),
    (("min", "min", "min"), r"agent 0 is the maximiser"),
    ("max,min,min", r"not the string"),
])
def test_expectiminimax_rejects_bad_kinds(kinds: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        expectiminimax(root({"a": {"b": {"c": 1}}}, 3), 1, value, kinds=kinds)


def test_check_kinds_returns_a_tuple() -> None:
    assert check_kinds(["max", "chance"], 2) == ("max", "chance")


# ------------------------------------------------------------------ random trees (hypothesis)

NODE_SPECS = st.lists(st.tuples(st.integers(0, 3), st.sampled_from(["", "", "", "end"]),
                                st.integers(-4, 4)), min_size=1, max_size=100)


@dataclass
class RandomTree:
    """A random explicit tree with its agent count, depth and terminal nodes."""

    tree: Tree
    num_agents: int
    depth: int
    terminal: list[Tree]

    def state(self) -> Node:
        """A fresh root (a new successor counter)."""
        return root(self.tree, self.num_agents, self.terminal)


@st.composite
def random_trees(draw: st.DrawFn) -> RandomTree:
    """1-3 agents, depth 1-3, branching 0-3, terminal marks, small integer values (ties)."""
    num_agents = draw(st.integers(1, 3))
    depth = draw(st.integers(1, 3 if num_agents < 3 else 2))
    specs = iter(draw(NODE_SPECS))
    terminal: list[Tree] = []
    limit = num_agents * depth

    def build(level: int) -> Tree:
        branching, mark, number = next(specs, (0, "", 0))
        if level == 0:
            branching, mark = max(branching, 1), ""
        if mark or level == limit or branching == 0:
            leaf = [number]  # a list, so each leaf has its own id
            if mark:
                terminal.append(leaf)
            return leaf
        return {f"a{i}": build(level + 1) for i in range(branching)}

    return RandomTree(build(0), num_agents, depth, terminal)


def number(node: Node) -> float:
    """A random tree's leaf value (fails on an inner node)."""
    assert not isinstance(node.tree, dict), "valued an inner node"
    return float(node.tree[0])


def zero_sum(node: Node) -> tuple[float, ...]:
    """(v, -v, ..., -v): every other agent's gain is agent 0's loss."""
    v = number(node)
    return (v, *([-v] * (node.num_agents - 1)))


def same_decision(a: Decision, b: Decision) -> tuple[bool, bool, bool]:
    """Value, best actions and node count agree."""
    return (a.value == b.value, a.best_actions == b.best_actions,
            a.nodes_generated == b.nodes_generated)


@settings(max_examples=200, deadline=None)
@given(random_trees())
def test_maxn_with_zero_sum_utilities_is_minimax(case: RandomTree) -> None:
    reference = minimax(case.state(), case.depth, number)
    state = case.state()
    decision = maxn(state, case.depth, zero_sum)
    assert decision.value[0] == reference.value
    assert decision.best_actions == reference.best_actions
    assert decision.nodes_generated == reference.nodes_generated == state.calls.count + 1


@settings(max_examples=200, deadline=None)
@given(random_trees())
def test_expectiminimax_all_min_is_minimax(case: RandomTree) -> None:
    kinds = ("max", *["min"] * (case.num_agents - 1))
    reference = minimax(case.state(), case.depth, number)
    decision = expectiminimax(case.state(), case.depth, number, kinds=kinds)
    assert same_decision(decision, reference) == (True, True, True)


@settings(max_examples=200, deadline=None)
@given(random_trees(), st.booleans())
def test_expectiminimax_all_chance_is_expectimax(case: RandomTree, weighted: bool) -> None:
    kinds = ("max", *["chance"] * (case.num_agents - 1))

    def model(state: Any, agent: int, actions: Sequence[Any]) -> list[float]:
        weights = [i + agent for i in range(1, len(actions) + 1)]  # unequal, agent-dependent
        return [w / sum(weights) for w in weights]

    chance = model if weighted else None
    reference = expectimax(case.state(), case.depth, number, chance=chance)
    decision = expectiminimax(case.state(), case.depth, number, kinds=kinds, chance=chance)
    assert same_decision(decision, reference) == (True, True, True)


@settings(max_examples=150, deadline=None)
@given(random_trees(), st.lists(st.sampled_from(["max", "min", "chance"]), min_size=2,
                                max_size=2))
def test_expectiminimax_matches_brute_force_for_any_kinds(case: RandomTree,
                                                          others: list[str]) -> None:
    kinds = ("max", *others[:case.num_agents - 1])
    count = 1

    def brute(tree: Tree, level: int) -> float:
        nonlocal count
        if not isinstance(tree, dict):
            return float(tree[0])
        kids = [brute(child, level + 1) for child in tree.values()]
        count += len(kids)
        kind = kinds[level % case.num_agents]
        return max(kids) if kind == "max" else min(kids) if kind == "min" else (
            sum(kids) / len(kids))

    root_values = {a: brute(c, 1) for a, c in case.tree.items()}
    count += len(root_values)
    best = max(root_values.values())
    decision = expectiminimax(case.state(), case.depth, number, kinds=kinds)
    assert decision.value == best and decision.nodes_generated == count
    assert decision.best_actions == tuple(a for a, v in root_values.items() if v == best)


# ------------------------------------------------------------------------- a real game state

def test_on_a_pacman_state_both_agree_with_minimax() -> None:
    start = GameState.initial(load_layout("smallClassic"), 2)

    def score(state: GameState) -> float:
        return float(state.score)

    def zero_sum_score(state: GameState) -> tuple[float, ...]:
        return (score(state), -score(state), -score(state))

    reference = minimax(start, 2, score)
    general = maxn(start, 2, zero_sum_score)
    layered = expectiminimax(start, 2, score, kinds=("max", "min", "min"))
    assert (general.value[0], general.best_actions, general.nodes_generated) == (
        reference.value, reference.best_actions, reference.nodes_generated)
    assert same_decision(layered, reference) == (True, True, True)
