"""Properties of the search functions over random game trees (hypothesis)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from hypothesis import given, settings
from hypothesis import strategies as st

from pacman.agents.search import Decision, alphabeta, expectimax, minimax
from pacman.game_tree import GameTree
from pacman.grading.reference.search import reference_search

# One spec per node, consumed depth-first: (children 0..3, mark, value). Small values make ties.
NODE_SPECS = st.lists(st.tuples(st.integers(0, 3), st.sampled_from(["", "", "", "win", "lose"]),
                                st.integers(-4, 4)), min_size=1, max_size=120)


@dataclass
class RandomTree:
    """A random tree; only the nodes a correct search may evaluate have a value."""

    num_agents: int
    depth: int
    children: dict[int, list[tuple[str, int]]] = field(default_factory=dict)
    values: dict[int, float] = field(default_factory=dict)
    win: set[int] = field(default_factory=set)
    lose: set[int] = field(default_factory=set)
    calls: int = 0
    edges: set[tuple[int, str]] = field(default_factory=set)

    def evaluate(self, state: TreeNode) -> float:
        """The node's value; a non-leaf has none and fails the property."""
        assert state.node in self.values, f"evaluated non-leaf {state.node}"
        return self.values[state.node]


class TreeNode:
    """A `SearchState` over a `RandomTree` that checks the search never misuses it."""

    __slots__ = ("node", "tree")

    def __init__(self, tree: RandomTree, node: int) -> None:
        self.tree, self.node = tree, node

    @property
    def num_agents(self) -> int:
        """The tree's agent count."""
        return self.tree.num_agents

    def legal_actions(self, agent: int) -> list[str]:
        """Actions in order; none at terminal nodes."""
        return [action for action, _ in self.tree.children.get(self.node, [])]

    def successor(self, agent: int, action: str) -> TreeNode:
        """The child; never of a leaf, never twice."""
        tree = self.tree
        assert self.node not in tree.win and self.node not in tree.lose, "successor of terminal"
        assert (self.node, action) not in tree.edges, "child generated twice"
        tree.edges.add((self.node, action))
        tree.calls += 1
        return TreeNode(tree, dict(tree.children[self.node])[action])

    def is_win(self) -> bool:
        """Marked as a win."""
        return self.node in self.tree.win

    def is_lose(self) -> bool:
        """Marked as a loss."""
        return self.node in self.tree.lose

    @property
    def score(self) -> float:
        """The node's value."""
        return self.tree.values[self.node]


@st.composite
def random_trees(draw: st.DrawFn) -> RandomTree:
    """2-3 agents, depth 1-3, branching 0-3, random win/lose marks and integer values."""
    num_agents = draw(st.integers(2, 3))
    depth = draw(st.integers(1, 3 if num_agents == 2 else 2))
    specs = iter(draw(NODE_SPECS))
    tree = RandomTree(num_agents, depth)
    limit = num_agents * depth  # moves from the root to the depth limit

    def build(level: int) -> int:
        node = len(tree.children) + len(tree.values)
        branching, mark, value = next(specs, (0, "", 0))
        if level == 0:
            branching, mark = max(branching, 1), ""
        if mark or level == limit or branching == 0:
            tree.values[node] = value  # a leaf: terminal, at the limit, or a dead end
            if mark == "win":
                tree.win.add(node)
            elif mark == "lose":
                tree.lose.add(node)
            return node
        tree.children[node] = []
        for index in range(branching):
            tree.children[node].append((f"a{index}", build(level + 1)))
        return node

    build(0)
    return tree


def brute_force(tree: RandomTree, expect: bool) -> tuple[float, tuple[str, ...], int]:
    """Root value, best root actions and node count, by plain recursion over the whole tree."""
    count = 1

    def value(node: int, level: int) -> float:
        nonlocal count
        if node not in tree.children:
            return tree.values[node]
        agent = level % tree.num_agents
        kids = [value(child, level + 1) for _, child in tree.children[node]]
        count += len(kids)
        if agent == 0:
            return max(kids)
        return sum(kids) / len(kids) if expect else min(kids)

    root_values = [(action, value(child, 1)) for action, child in tree.children[0]]
    count += len(root_values)
    best = max(v for _, v in root_values)
    return best, tuple(a for a, v in root_values if v == best), count


def run(search: Callable[..., Decision], tree: RandomTree) -> tuple[Decision, int]:
    """Run a search on a fresh copy of the tree's bookkeeping; return (decision, calls)."""
    tree.calls, tree.edges = 0, set()
    decision = search(TreeNode(tree, 0), tree.depth, tree.evaluate)
    return decision, tree.calls


@settings(max_examples=300, deadline=None)
@given(random_trees())
def test_minimax_matches_brute_force(tree: RandomTree) -> None:
    decision, calls = run(minimax, tree)
    value, best, count = brute_force(tree, expect=False)
    assert (decision.value, decision.best_actions, decision.nodes_generated) == (value, best, count)
    assert decision.action == best[0] and calls == count - 1


@settings(max_examples=300, deadline=None)
@given(random_trees())
def test_alphabeta_agrees_with_minimax_and_never_generates_more(tree: RandomTree) -> None:
    full, _ = run(minimax, tree)
    pruned, calls = run(alphabeta, tree)
    assert pruned.value == full.value
    assert pruned.action in full.best_actions and pruned.action == full.action
    assert pruned.best_actions == full.best_actions
    assert pruned.nodes_generated <= full.nodes_generated
    assert pruned.nodes_generated == calls + 1


@settings(max_examples=300, deadline=None)
@given(random_trees())
def test_expectimax_is_the_brute_force_expectation(tree: RandomTree) -> None:
    decision, _ = run(expectimax, tree)
    value, _, count = brute_force(tree, expect=True)
    assert math.isclose(decision.value, value, rel_tol=1e-9, abs_tol=1e-9)
    assert decision.nodes_generated == count
    minimax_decision, _ = run(minimax, tree)
    assert decision.nodes_generated == minimax_decision.nodes_generated


@settings(max_examples=200, deadline=None)
@given(random_trees())
def test_the_graders_reference_search_agrees(tree: RandomTree) -> None:
    # The grader's plain reference and the fast search are written independently.
    game_tree = GameTree(
        start="0", num_agents=tree.num_agents,
        children={str(n): tuple((a, str(c)) for a, c in kids)
                  for n, kids in tree.children.items()},
        values={str(n): v for n, v in tree.values.items()},
        win_states=frozenset(map(str, tree.win)), lose_states=frozenset(map(str, tree.lose)))
    for search, alg in ((minimax, "MinimaxAgent"), (alphabeta, "AlphaBetaAgent")):
        decision, _ = run(search, tree)
        outcome = reference_search(game_tree, alg, tree.depth)
        assert outcome.action == decision.action
        assert len(outcome.generated) == decision.nodes_generated
    decision, _ = run(expectimax, tree)
    outcome = reference_search(game_tree, "ExpectimaxAgent", tree.depth)
    assert len(outcome.generated) == decision.nodes_generated
    assert math.isclose(max(v for _, v in outcome.root_values), decision.value, abs_tol=1e-9)
