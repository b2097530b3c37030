"""Search functions and search agents on hand-built game trees and on small Pacman layouts."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence

import pytest

from pacman import Direction, GameState, parse_layout
from pacman.agents.pacman_agents import AlphaBetaAgent, ExpectimaxAgent, MinimaxAgent
from pacman.agents.search import Decision, alphabeta, expectimax, minimax

SearchFunction = Callable[..., Decision]


class Tree:
    """A hand-built game tree; every successor call is logged as (agent, node, action)."""

    def __init__(self, num_agents: int, edges: Mapping[str, Sequence[tuple[str, str]]],
                 values: Mapping[str, float], win: str = "", lose: str = "") -> None:
        self.num_agents = num_agents
        self.edges = edges
        self.values = values
        self.win, self.lose = set(win.split()), set(lose.split())
        self.calls: list[tuple[int, str, str]] = []
        self.evaluated: list[str] = []

    def root(self, name: str = "root") -> Node:
        """The node `name` as a search state."""
        return Node(self, name)

    def evaluate(self, node: Node) -> float:
        """The node's value; fails the test if the node has none (a non-leaf)."""
        self.evaluated.append(node.name)
        assert node.name in self.values, f"evaluated non-leaf {node.name}"
        return self.values[node.name]

    @property
    def generated(self) -> list[str]:
        """Names of the generated nodes, in generation order (the root excluded)."""
        return [dict(self.edges[node])[action] for _, node, action in self.calls]


class Node:
    """One node of a `Tree`, satisfying the `SearchState` protocol."""

    def __init__(self, tree: Tree, name: str) -> None:
        self.tree, self.name = tree, name

    @property
    def num_agents(self) -> int:
        """The tree's agent count."""
        return self.tree.num_agents

    def legal_actions(self, agent: int) -> list[str]:
        """Actions in listed order; none at a terminal node."""
        if self.is_win() or self.is_lose():
            return []
        return [action for action, _ in self.tree.edges.get(self.name, ())]

    def successor(self, agent: int, action: str) -> Node:
        """The child; fails the test on a leaf or a repeated call."""
        assert not (self.is_win() or self.is_lose()), f"successor of terminal {self.name}"
        assert (agent, self.name, action) not in self.tree.calls, "child generated twice"
        self.tree.calls.append((agent, self.name, action))
        return Node(self.tree, dict(self.tree.edges[self.name])[action])

    def is_win(self) -> bool:
        """Listed as a win."""
        return self.name in self.tree.win

    def is_lose(self) -> bool:
        """Listed as a loss."""
        return self.name in self.tree.lose

    @property
    def score(self) -> float:
        """The node's value."""
        return self.tree.values[self.name]


def textbook(num_agents: int = 2) -> Tree:
    """The textbook tree: MIN values 3, 2, 2."""
    edges = {"root": [("Left", "m1"), ("Center", "m2"), ("Right", "m3")],
             "m1": [("a", "A"), ("b", "B"), ("c", "C")],
             "m2": [("a", "D"), ("b", "E"), ("c", "F")],
             "m3": [("a", "G"), ("b", "H"), ("c", "I")]}
    values = dict(zip("ABCDEFGHI", [3, 12, 8, 2, 4, 6, 14, 5, 2], strict=True))
    return Tree(num_agents, edges, values)


# --------------------------------------------------------------------------- search functions

@pytest.mark.parametrize(("search", "action", "value", "nodes", "generated"), [
    (minimax, "Left", 3, 13, "m1 A B C m2 D E F m3 G H I"),
    (alphabeta, "Left", 3, 11, "m1 A B C m2 D m3 G H I"),
    (expectimax, "Left", 23 / 3, 13, "m1 A B C m2 D E F m3 G H I"),
])
def test_textbook_tree(search: SearchFunction, action: str, value: float, nodes: int,
                       generated: str) -> None:
    tree = textbook()
    decision = search(tree.root(), 1, tree.evaluate)
    assert (decision.action, decision.nodes_generated, decision.best_actions) == (
        action, nodes, (action,))
    assert decision.value == pytest.approx(value)
    assert tree.generated == generated.split()
    assert sorted(tree.evaluated) == sorted(tree.values.keys() & set(tree.generated))


def two_ply_tree() -> Tree:
    """MAX, MIN, MAX, MIN, depth limit: the tree of tests/cases/minimax/03-two-ply."""
    leaves = [4, 7, 9, 2, 6, 8, 1, 3, 5, 5, 3, 10, 2, 9, 7, 0]
    edges: dict[str, list[tuple[str, str]]] = {"root": [("L", "A"), ("R", "B")],
                                               "A": [("g1", "C"), ("g2", "D")],
                                               "B": [("g1", "E"), ("g2", "F")]}
    for index, node in enumerate("CDEF"):
        low = node.lower()
        edges[node] = [("W", f"{low}1"), ("E", f"{low}2")]
        for half in (1, 2):
            first = 4 * index + 2 * (half - 1) + 1
            edges[f"{low}{half}"] = [("g1", f"t{first}"), ("g2", f"t{first + 1}")]
    return Tree(2, edges, {f"t{i}": v for i, v in enumerate(leaves, 1)})


def test_two_ply_alphabeta_generates_exactly_the_unpruned_nodes() -> None:
    tree = two_ply_tree()
    decision = alphabeta(tree.root(), 2, tree.evaluate)
    assert (decision.action, decision.value, decision.nodes_generated) == ("L", 4, 26)
    assert set(tree.generated).isdisjoint({"d2", "t7", "t8", "t12", "t14"})
    full = two_ply_tree()
    assert minimax(full.root(), 2, full.evaluate).nodes_generated == 31


def test_nodes_generated_is_one_plus_the_successor_calls() -> None:
    for search in (minimax, alphabeta, expectimax):
        tree = two_ply_tree()
        decision = search(tree.root(), 2, tree.evaluate)
        assert decision.nodes_generated == 1 + len(tree.calls)


def test_three_agents_take_turns_in_one_ply() -> None:
    edges = {"root": [("x", "a")], "a": [("u", "b")], "b": [("v", "c")],
             "c": [("x", "d")], "d": [("u", "e")], "e": [("v", "f")]}
    tree = Tree(3, edges, {"f": 1.0})
    assert minimax(tree.root(), 2, tree.evaluate).value == 1.0
    assert [agent for agent, _, _ in tree.calls] == [0, 1, 2, 0, 1, 2]


def test_terminal_nodes_are_leaves_at_any_depth() -> None:
    edges = {"root": [("a", "W"), ("b", "M")], "W": [("x", "never")],
             "M": [("a", "L"), ("b", "N")], "L": [("x", "never")], "N": [("a", "leaf")]}
    for search in (minimax, alphabeta, expectimax):
        tree = Tree(2, edges, {"W": 2, "L": -3, "leaf": 8}, win="W", lose="L")
        decision = search(tree.root(), 2, tree.evaluate)
        assert decision.action == ("b" if search is expectimax else "a")  # M: 2.5 or -3
        assert "never" not in tree.generated


def test_a_dead_end_that_is_not_terminal_is_evaluated_as_a_leaf() -> None:
    tree = Tree(2, {"root": [("a", "M"), ("b", "N")], "N": [("x", "n1")]},
                {"M": 4, "n1": 2})
    decision = minimax(tree.root(), 2, tree.evaluate)
    assert (decision.action, decision.value) == ("a", 4)


def test_a_single_agent_tree_is_max_over_max() -> None:
    edges = {"root": [("a", "A"), ("b", "B")], "A": [("a", "A1"), ("b", "A2")],
             "B": [("a", "B1")]}
    tree = Tree(1, edges, {"A1": 1, "A2": 7, "B1": 5})
    assert minimax(tree.root(), 2, tree.evaluate).action == "a"
    tree = Tree(1, edges, {"A": 3, "B": 4})
    assert alphabeta(tree.root(), 1, tree.evaluate).action == "b"


def test_root_ties_keep_every_best_action_in_order() -> None:
    edges = {"root": [("a", "A"), ("b", "B"), ("c", "C")], "A": [("x", "a1")],
             "B": [("x", "b1")], "C": [("x", "c1"), ("y", "c2")]}
    values = {"a1": 5, "b1": 3, "c1": 5, "c2": 6}
    for search in (minimax, alphabeta):
        tree = Tree(2, edges, values)
        decision = search(tree.root(), 1, tree.evaluate)
        assert (decision.action, decision.best_actions) == ("a", ("a", "c"))


def test_alphabeta_does_not_prune_on_equality() -> None:
    edges = {"root": [("a", "N1"), ("b", "N2")], "N1": [("x", "p"), ("y", "q")],
             "N2": [("x", "r"), ("y", "s"), ("z", "t")]}
    tree = Tree(2, edges, {"p": 3, "q": 5, "r": 3, "s": 2, "t": 7})
    decision = alphabeta(tree.root(), 1, tree.evaluate)
    assert tree.generated == ["N1", "p", "q", "N2", "r", "s"]
    assert (decision.action, decision.value, decision.best_actions) == ("a", 3, ("a",))


def test_expectimax_uses_the_chance_model() -> None:
    edges = {"root": [("a", "A"), ("b", "B")], "A": [("x", "a1"), ("y", "a2")],
             "B": [("x", "b1")]}
    tree = Tree(2, edges, {"a1": 0, "a2": 10, "b1": 4})
    assert expectimax(tree.root(), 1, tree.evaluate).action == "a"  # 5 > 4
    seen = []

    def cautious(state: Node, agent: int, actions: Sequence[str]) -> list[float]:
        seen.append((state.name, agent, tuple(actions)))
        return [0.9, 0.1] if len(actions) == 2 else [1.0]

    tree = Tree(2, edges, {"a1": 0, "a2": 10, "b1": 4})
    decision = expectimax(tree.root(), 1, tree.evaluate, chance=cautious)
    assert (decision.action, decision.value) == ("b", 4)
    assert seen == [("A", 1, ("x", "y")), ("B", 1, ("x",))]


def test_the_action_generator_is_used_at_every_node() -> None:
    tree = two_ply_tree()
    first_only = lambda state, agent: state.legal_actions(agent)[:1]  # noqa: E731
    decision = minimax(tree.root(), 2, tree.evaluate, actions=first_only)
    assert tree.generated == ["A", "C", "c1", "t1"]
    assert decision == Decision("L", 4, 5, ("L",))


@pytest.mark.parametrize("search", [minimax, alphabeta, expectimax])
def test_invalid_searches_raise(search: SearchFunction) -> None:
    tree = textbook()
    for depth in (0, -1):
        with pytest.raises(ValueError, match="depth must be a positive integer"):
            search(tree.root(), depth, tree.evaluate)
    won = Tree(2, {"root": [("a", "A")]}, {}, win="root")
    with pytest.raises(ValueError, match="terminal state"):
        search(won.root(), 1, won.evaluate)
    stuck = Tree(2, {}, {})
    with pytest.raises(ValueError, match="no legal action"):
        search(stuck.root(), 1, stuck.evaluate)


# --------------------------------------------------------------------------- agents

STOP_TREE = {"root": [("Stop", "A"), ("East", "B")],
             "A": [("Stop", "A1")], "B": [("Stop", "B1"), ("West", "B2")],
             "A1": [("Stop", "a1m"), ("East", "a2m")], "B1": [("Stop", "b1m")],
             "B2": [("Stop", "b2m"), ("West", "b3m")],
             "a1m": [("Stop", "a1")], "a2m": [("Stop", "a2")], "b1m": [("Stop", "b1")],
             "b2m": [("Stop", "b2")], "b3m": [("Stop", "b3")]}
STOP_VALUES = {"a1": 9, "a2": 1, "b1": 4, "b2": 8, "b3": 2}


@pytest.mark.parametrize("agent_class", [MinimaxAgent, AlphaBetaAgent, ExpectimaxAgent])
def test_allow_stop_false_removes_stop_at_every_max_node(agent_class: type) -> None:
    tree = Tree(2, STOP_TREE, STOP_VALUES)
    agent = agent_class(depth=2, evaluation=tree.evaluate, allow_stop=False)
    assert agent.get_action(tree.root()) == "East"
    pacman_moves = {(node, action) for who, node, action in tree.calls if who == 0}
    assert pacman_moves == {("root", "East"), ("B1", "Stop"), ("B2", "West")}  # B1: only Stop
    assert any(who == 1 and action == "Stop" for who, _, action in tree.calls)  # ghosts keep it

    tree = Tree(2, STOP_TREE, STOP_VALUES)
    assert agent_class(depth=2, evaluation=tree.evaluate).get_action(tree.root()) == "Stop"


def test_allow_stop_keeps_stop_when_it_is_the_only_action() -> None:
    tree = Tree(2, {"root": [("Stop", "A")], "A": [("x", "a")]}, {"a": 1})
    assert MinimaxAgent(depth=1, evaluation=tree.evaluate,
                        allow_stop=False).get_action(tree.root()) == "Stop"


def tie_tree() -> Tree:
    edges = {"root": [(name, name.upper()) for name in "abcd"]}
    edges.update({name.upper(): [("x", name + "1")] for name in "abcd"})
    return Tree(2, edges, {"a1": 3, "b1": 5, "c1": 5, "d1": 5})


def test_tie_break_random_draws_from_the_best_actions_with_the_games_rng() -> None:
    choices = []
    for seed in range(30):
        tree = tie_tree()
        agent = AlphaBetaAgent(depth=1, evaluation=tree.evaluate, tie_break="random")
        agent.set_rng(random.Random(seed))
        choices.append(agent.get_action(tree.root()))
        assert agent.last_decision is not None
        assert agent.last_decision.best_actions == ("b", "c", "d")
        assert choices[-1] == random.Random(seed).choice(("b", "c", "d"))
    assert set(choices) == {"b", "c", "d"}


def test_tie_break_first_is_the_default() -> None:
    tree = tie_tree()
    agent = MinimaxAgent(depth=1, evaluation=tree.evaluate)
    agent.set_rng(random.Random(3))
    assert agent.get_action(tree.root()) == "b"


@pytest.mark.parametrize(("agent_class", "settings", "message"), [
    (MinimaxAgent, {"depth": 0}, "depth must be a positive integer"),
    (AlphaBetaAgent, {"depth": -2}, "depth must be a positive integer"),
    (ExpectimaxAgent, {"depth": 1.5}, "depth must be a positive integer"),
    (MinimaxAgent, {"tie_break": "last"}, "unknown tie_break 'last'"),
    (ExpectimaxAgent, {"ghost_model": "smart"}, "unknown ghost_model 'smart'"),
])
def test_invalid_settings_raise(agent_class: type, settings: dict[str, object],
                                message: str) -> None:
    with pytest.raises(ValueError, match=message):
        agent_class(**settings)


def test_describe_names_the_settings() -> None:
    assert AlphaBetaAgent(depth=3).describe() == "AlphaBetaAgent depth=3 score"
    assert (ExpectimaxAgent(depth=2, allow_stop=False, ghost_model="directional").describe()
            == "ExpectimaxAgent depth=2 score allow_stop=False ghost_model=directional")

    def mine(state: object) -> float:
        return 0.0

    assert MinimaxAgent(evaluation=mine, tie_break="random").describe() == (
        "MinimaxAgent depth=2 mine tie_break=random")


# --------------------------------------------------------------------------- the real game

LAYOUT = parse_layout("""
%%%%%%%%%
%.P   G.%
% %%%%% %
%.  o  .%
%%%%%%%%%
""")


def test_agents_play_the_real_game() -> None:
    state = GameState.initial(LAYOUT)
    results = {}
    for agent_class in (MinimaxAgent, AlphaBetaAgent, ExpectimaxAgent):
        agent = agent_class(depth=2, allow_stop=False)
        action = agent.get_action(state)
        assert action in state.legal_actions(0) and action != Direction.STOP
        assert agent.last_decision is not None
        results[agent_class] = agent.last_decision
    assert results[MinimaxAgent].value == results[AlphaBetaAgent].value
    assert results[MinimaxAgent].best_actions == results[AlphaBetaAgent].best_actions
    assert results[AlphaBetaAgent].nodes_generated <= results[MinimaxAgent].nodes_generated


def test_directional_ghost_model_matches_the_directional_distribution() -> None:
    from pacman.agents.ghosts import directional_distribution

    state = GameState.initial(LAYOUT)
    agent = ExpectimaxAgent(depth=2, ghost_model="directional")
    agent.get_action(state)
    expected = expectimax(state, 2, lambda s: float(s.score), chance=directional_distribution)
    assert agent.last_decision == expected
    uniform = expectimax(state, 2, lambda s: float(s.score))
    assert uniform.nodes_generated == expected.nodes_generated
