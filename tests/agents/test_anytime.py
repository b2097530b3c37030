"""The anytime search (`pacman.agents.anytime`): every enhancement keeps the plain search's root
value.

Random game trees (any mix of MIN and chance layers) check the value at every depth against a
plain recursion, with the table, ordering and Star1 pruning each on and off; Pacman positions
check it against `pacman.agents.search`; the evaluation's bounds are checked against real play.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from positions import random_positions

from pacman import GameState, load_layout
from pacman.agents.anytime import CHANCE, MAX, MIN, TranspositionTable, iterative_search
from pacman.agents.evaluation import NAMED
from pacman.agents.ghosts import directional_distribution
from pacman.agents.pacman_agents import _ghosts_closing_in_first
from pacman.agents.search import alphabeta, expectimax


@dataclass
class Tree:
    """A game tree where every node has a value (any node can be a depth-limited leaf)."""

    num_agents: int
    children: dict[int, list[int]] = field(default_factory=dict)
    values: dict[int, float] = field(default_factory=dict)
    win: set[int] = field(default_factory=set)
    lose: set[int] = field(default_factory=set)
    evaluated: set[int] = field(default_factory=set)

    def evaluate(self, state: Node) -> float:
        """The node's value; only leaves may be evaluated (checked by the caller)."""
        self.evaluated.add(state.node)
        return self.values[state.node]


class Node:
    """A hashable `SearchState` over a `Tree` (equal nodes transpose in the table)."""

    __slots__ = ("node", "tree")

    def __init__(self, tree: Tree, node: int) -> None:
        self.tree, self.node = tree, node

    @property
    def num_agents(self) -> int:
        """The tree's agents."""
        return self.tree.num_agents

    def legal_actions(self, agent: int) -> list[int]:
        """Child indices; none at terminal nodes."""
        if self.is_win() or self.is_lose():
            return []
        return list(range(len(self.tree.children.get(self.node, []))))

    def successor(self, agent: int, action: int) -> Node:
        """The child."""
        assert not (self.is_win() or self.is_lose()), "successor of a terminal node"
        return Node(self.tree, self.tree.children[self.node][action])

    def is_win(self) -> bool:
        """Marked won."""
        return self.node in self.tree.win

    def is_lose(self) -> bool:
        """Marked lost."""
        return self.node in self.tree.lose

    @property
    def score(self) -> float:
        """The node's value."""
        return self.tree.values[self.node]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Node) and other.node == self.node

    def __hash__(self) -> int:
        return hash(self.node)


@st.composite
def trees(draw: st.DrawFn) -> tuple[Tree, list[str]]:
    """1-3 agents, each ghost layer MIN or CHANCE, branching 0-3, values everywhere."""
    num_agents = draw(st.integers(1, 3))
    kinds = [MAX] + [draw(st.sampled_from([MIN, CHANCE])) for _ in range(num_agents - 1)]
    tree = Tree(num_agents)
    levels = num_agents * draw(st.integers(1, 3))
    budget = [draw(st.integers(5, 80))]

    def build(level: int) -> int:
        node = len(tree.values)
        tree.values[node] = draw(st.integers(-5, 5))
        mark = draw(st.sampled_from(["", "", "", "", "win", "lose"])) if level else ""
        if mark == "win":
            tree.win.add(node)
            return node
        if mark == "lose":
            tree.lose.add(node)
            return node
        branching = draw(st.integers(1 if level == 0 else 0, 3))
        if level == levels or budget[0] <= 0:
            branching = 1 if level == 0 else 0
        budget[0] -= branching
        tree.children[node] = [build(level + 1) for _ in range(branching)]
        return node

    build(0)
    return tree, kinds


def reference(tree: Tree, kinds: list[str], depth: int) -> float:
    """The plain depth-limited expectiminimax value of the root, by recursion."""
    last = tree.num_agents - 1

    def value(node: int, agent: int, plies: int) -> float:
        kids = tree.children.get(node, [])
        if node in tree.win or node in tree.lose or not kids or (agent == 0 and plies == 0):
            return tree.values[node]
        nxt, left = (0, plies - 1) if agent == last else (agent + 1, plies)
        values = [value(kid, nxt, left) for kid in kids]
        if kinds[agent] == MAX:
            return max(values)
        if kinds[agent] == MIN:
            return min(values)
        return sum(values) / len(values)

    return value(0, 0, depth)


@settings(max_examples=300, deadline=None)
@given(trees(), st.booleans(), st.booleans(), st.booleans())
def test_every_enhancement_keeps_the_root_value(case: tuple[Tree, list[str]], tt: bool,
                                                ordering: bool, prune: bool) -> None:
    tree, kinds = case
    low, high = min(tree.values.values()), max(tree.values.values())
    table = TranspositionTable() if tt else None
    for depth in (1, 2, 3):
        decision = iterative_search(
            Node(tree, 0), tree.evaluate, kinds=kinds, max_depth=depth, table=table,
            ordering=ordering, order=lambda s, agent, acts: list(reversed(acts)),
            bounds=lambda s, plies: (low, high), prune=prune)
        if decision.stopped == "single":
            continue
        expected = reference(tree, kinds, decision.depth)
        assert math.isclose(decision.value, expected, rel_tol=1e-9, abs_tol=1e-9)
        assert decision.depth == depth or decision.stopped == "proven"


POSITIONS = random_positions("mediumClassic", 6, seed=5)


@pytest.mark.parametrize("depth", [1, 2, 3])
@pytest.mark.parametrize("index", range(len(POSITIONS)))
def test_alphabeta_values_match_plain_alphabeta(index: int, depth: int) -> None:
    state, better = POSITIONS[index], NAMED["better"]
    plain = alphabeta(state, depth, better)
    for tt in (True, False):
        enhanced = iterative_search(state, better, max_depth=depth,
                                    table=TranspositionTable() if tt else None,
                                    order=_ghosts_closing_in_first)
        assert enhanced.value == plain.value
        assert enhanced.action in plain.best_actions
    bare = iterative_search(state, better, max_depth=depth, ordering=False)
    assert bare.iterations[-1].nodes == plain.nodes_generated  # nothing on: the plain search


@pytest.mark.parametrize("model", [None, directional_distribution])
@pytest.mark.parametrize("depth", [1, 2])
@pytest.mark.parametrize("index", range(len(POSITIONS)))
def test_expectimax_values_match_plain_expectimax(index: int, depth: int, model: object) -> None:
    state, better = POSITIONS[index], NAMED["better"]
    plain = expectimax(state, depth, better, chance=model)  # type: ignore[arg-type]
    kinds = [MAX] + [CHANCE] * (state.num_agents - 1)
    for prune in (True, False):
        enhanced = iterative_search(state, better, kinds=kinds, max_depth=depth,
                                    table=TranspositionTable(), order=_ghosts_closing_in_first,
                                    bounds=better.bounds, prune=prune,
                                    chance=model)  # type: ignore[arg-type]
        assert math.isclose(enhanced.value, plain.value, rel_tol=1e-12)
        assert enhanced.action in plain.best_actions


def test_star1_prunes_a_quarter_of_expectimax_at_depth_4() -> None:
    """Exact pruning with the evaluation's bounds: the same value from far fewer nodes (the
    counts are pinned: a change in them is a change in the search)."""
    better = NAMED["better"]
    plain_nodes = pruned_nodes = 0
    for state in POSITIONS[:3]:
        plain = expectimax(state, 4, better)
        kinds = [MAX] + [CHANCE] * (state.num_agents - 1)
        pruned = iterative_search(state, better, kinds=kinds, max_depth=4, table=None,
                                  order=_ghosts_closing_in_first, bounds=better.bounds)
        assert math.isclose(pruned.value, plain.value, rel_tol=1e-12)
        plain_nodes += plain.nodes_generated
        pruned_nodes += pruned.iterations[-1].nodes
    assert (plain_nodes, pruned_nodes) == (26609, 9853)
    assert pruned_nodes <= 0.75 * plain_nodes



@pytest.mark.parametrize("name", ["better", "wary", "alert", "score", "capsules", "cautious"])
@pytest.mark.parametrize("layout", ["mediumClassic", "capsuleClassic", "smallClassic"])
def test_bounds_hold_for_every_state_play_reaches(name: str, layout: str) -> None:
    """`bounds(state, plies)` contains the value of every state reached within `plies`
    plies, along random playouts (capsules, scared and eaten ghosts included)."""
    evaluation = NAMED[name]
    rng = random.Random(f"{name}/{layout}")
    for start in random_positions(layout, 8, seed=len(layout)):
        for plies in (1, 2, 4):
            low, high = evaluation.bounds(start, plies)
            for _ in range(20):
                state = start
                for _ in range(plies):
                    for agent in range(state.num_agents):
                        if state.is_terminal():
                            break
                        state = state.successor(agent, rng.choice(state.legal_actions(agent)))
                    value = evaluation(state)
                    assert low <= value <= high, (str(start), plies, str(state), low, high)
                    if state.is_terminal():
                        break


def test_a_node_budget_is_deterministic_and_keeps_the_deepest_complete_iteration() -> None:
    state, better = POSITIONS[0], NAMED["better"]
    runs = [iterative_search(state, better, node_limit=3000, table=TranspositionTable(),
                             order=_ghosts_closing_in_first) for _ in range(2)]
    assert runs[0] == runs[1]
    decision = runs[0]
    assert decision.stopped == "nodes"
    assert [i.depth for i in decision.iterations] == list(range(1, decision.depth + 1))
    # looked at before a node's children are made: passed by one node's children at most
    assert sum(i.nodes for i in decision.iterations) <= decision.nodes_generated <= 3000 + 5
    assert decision.value == alphabeta(state, decision.depth, better).value


def test_depth_one_completes_whatever_the_budget() -> None:
    decision = iterative_search(POSITIONS[1], NAMED["better"], node_limit=1, time_limit=0.0)
    assert decision.depth == 1 and decision.stopped in ("nodes", "time")
    assert decision.value == alphabeta(POSITIONS[1], 1, NAMED["better"]).value


def test_a_time_budget_stops_at_the_deadline() -> None:
    """A fake clock (each look costs 1 ms): deepening stops when the budget is spent and the
    unfinished iteration is dropped."""
    ticks = iter(range(10**9))

    def clock() -> float:
        return next(ticks) / 1000.0

    decision = iterative_search(POSITIONS[2], NAMED["better"], time_limit=0.05, clock=clock)
    assert decision.stopped == "time"
    assert 1 <= decision.depth < 64
    assert decision.value == alphabeta(POSITIONS[2], decision.depth, NAMED["better"]).value


def test_one_legal_move_is_played_without_searching() -> None:
    layout = load_layout("testClassic")
    state = GameState.initial(layout)
    only = state.legal_actions(0)[:1]
    decision = iterative_search(state, NAMED["better"], actions=lambda s, agent: (
        only if agent == 0 and s is state else s.legal_actions(agent)))
    assert (decision.action, decision.stopped, decision.nodes_generated) == (only[0], "single", 1)


def test_the_search_refuses_what_it_cannot_search() -> None:
    state = POSITIONS[0]
    with pytest.raises(ValueError, match="max_depth must be a positive integer"):
        iterative_search(state, NAMED["better"], max_depth=0)
    with pytest.raises(ValueError, match="agent 0 must be a max layer"):
        iterative_search(state, NAMED["better"], kinds=[MIN, MIN, MIN])
    with pytest.raises(ValueError, match="unknown layer kind"):
        iterative_search(state, NAMED["better"], kinds=[MAX, "avg", MIN])
    with pytest.raises(ValueError, match="layer kinds for 3 agents"):
        iterative_search(state, NAMED["better"], kinds=[MAX, MIN])
