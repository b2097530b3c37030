"""A game tree from a test file, playable through the search-state interface, recording visits."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

__all__ = [
    "GameTree",
    "IllegalTreeActionError",
    "MissingValueError",
    "TerminalSuccessorError",
    "TreeBudgetError",
    "TreeError",
    "TreeRun",
    "TreeState",
    "tree_evaluation",
]


class TreeError(Exception):
    """An agent used a test tree in a way a correct search never does."""


class MissingValueError(TreeError):
    """The agent evaluated a node that has no value in the test (a non-leaf)."""

    def __init__(self, node: str) -> None:
        self.node = node
        super().__init__(f"evaluation of node {node} which has no value (evaluated a non-leaf?)")


class TreeBudgetError(TreeError):
    """The agent generated more nodes than the grader allows for one run (a cycle?)."""

    def __init__(self, budget: int) -> None:
        super().__init__(f"the search generated more than {budget:,} nodes and was stopped "
                         "(does the tree have a cycle, or does the search not stop at its "
                         "depth?)")


class TerminalSuccessorError(TreeError):
    """The agent asked for a successor of a won or lost node."""

    def __init__(self, node: str, outcome: str) -> None:
        self.node = node
        super().__init__(f"successor of node {node} requested, but {node} is a {outcome} "
                         "state (a leaf)")


class IllegalTreeActionError(TreeError):
    """The agent played an action the node does not list."""

    def __init__(self, node: str, action: object, legal: tuple[str, ...]) -> None:
        self.node = node
        super().__init__(f"action {action!r} is not legal at node {node} "
                         f"(legal: {' '.join(legal) or 'none'})")


@dataclass(frozen=True)
class GameTree:
    """The graph of a test: start node, agent count, children in file order, values, outcomes."""

    start: str
    num_agents: int
    children: Mapping[str, tuple[tuple[str, str], ...]]
    values: Mapping[str, float]
    win_states: frozenset[str]
    lose_states: frozenset[str]

    _actions: Mapping[str, tuple[str, ...]] = field(init=False, repr=False, compare=False)
    _moves: Mapping[str, Mapping[str, str]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # derived once: a node's actions and its children by action (a node with 100,000
        # children is still generated in linear time)
        object.__setattr__(self, "_actions", {node: tuple(a for a, _ in pairs)
                                              for node, pairs in self.children.items()})
        object.__setattr__(self, "_moves", {node: dict(pairs)
                                            for node, pairs in self.children.items()})

    def actions(self, node: str) -> tuple[str, ...]:
        """The actions listed for `node`, in file order."""
        return self._actions.get(node, ())

    def child(self, node: str, action: str) -> str | None:
        """The node `action` leads to from `node`, or None if it is not listed."""
        moves = self._moves.get(node)
        return None if moves is None else moves.get(action)


class TreeRun:
    """What one agent run did to a tree: every generated node, and each (node, action) count.

    `default_value`, when set, is the value of nodes the test gives none (the grader's
    diagnostics use it to see what a buggy agent would have chosen instead of failing).
    `classic` gives the classic grader's leniency: a won or lost node still lists the actions
    the file gives it, and its successors can be generated (and are then counted as generated).
    """

    __slots__ = ("budget", "calls", "classic", "default_value", "edge_counts", "generated",
                 "log", "tree")

    #: successors one run may generate before it is stopped with TreeBudgetError
    DEFAULT_BUDGET = 1_000_000

    def __init__(self, tree: GameTree, default_value: float | None = None,
                 classic: bool = False, budget: int = DEFAULT_BUDGET) -> None:
        self.tree = tree
        self.default_value = default_value
        self.classic = classic
        self.budget = budget
        self.calls = 0
        self.generated: set[str] = {tree.start}
        self.edge_counts: dict[tuple[str, str], int] = {}
        #: when a list, every `successor` call is appended to it as (node, agent, action)
        #: before it is made (a grading host reports these calls; the referee replays them)
        self.log: list[tuple[str, int, object]] | None = None

    def root(self) -> TreeState:
        """The start node as a search state bound to this run."""
        return TreeState(self, self.tree.start)

    def duplicate_edges(self) -> list[tuple[str, str, int]]:
        """(node, action, times) for every child generated more than once."""
        return [(node, action, count) for (node, action), count in self.edge_counts.items()
                if count > 1]


class TreeState:
    """One node of a test tree; satisfies the `SearchState` protocol of `pacman.agents.search`."""

    __slots__ = ("_run", "node")

    def __init__(self, run: TreeRun, node: str) -> None:
        self._run = run
        self.node = node

    @property
    def num_agents(self) -> int:
        """The test's `num_agents`."""
        return self._run.tree.num_agents

    def legal_actions(self, agent: int = 0) -> tuple[str, ...]:
        """The node's actions in file order (whoever moves); none at a won or lost node."""
        if (self.is_win() or self.is_lose()) and not self._run.classic:
            return ()
        return self._run.tree.actions(self.node)

    def successor(self, agent: int, action: str) -> TreeState:
        """The child reached by `action`; recorded as generated."""
        run = self._run
        tree = run.tree
        if run.log is not None:
            run.log.append((self.node, agent, action))
        if not run.classic:
            if self.node in tree.win_states:
                raise TerminalSuccessorError(self.node, "win")
            if self.node in tree.lose_states:
                raise TerminalSuccessorError(self.node, "lose")
        try:
            child = tree.child(self.node, action)
        except TypeError:  # an unhashable action
            child = None
        if child is None:
            raise IllegalTreeActionError(self.node, action, tree.actions(self.node))
        run.calls += 1
        if run.calls > run.budget:
            raise TreeBudgetError(run.budget)
        edge = (self.node, action)
        run.edge_counts[edge] = run.edge_counts.get(edge, 0) + 1
        run.generated.add(child)
        return TreeState(run, child)

    def is_win(self) -> bool:
        """True if the test lists the node in `win_states`."""
        return self.node in self._run.tree.win_states

    def is_lose(self) -> bool:
        """True if the test lists the node in `lose_states`."""
        return self.node in self._run.tree.lose_states

    @property
    def score(self) -> float:
        """The node's value from the `evaluation` block; `MissingValueError` if it has none."""
        value = self._run.tree.values.get(self.node)
        if value is None:
            if self._run.default_value is None:
                raise MissingValueError(self.node)
            return self._run.default_value
        return value

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, TreeState) and other._run is self._run
                and other.node == self.node)

    def __hash__(self) -> int:
        return hash(self.node)

    def __repr__(self) -> str:
        return f"TreeState({self.node!r})"


def tree_evaluation(state: TreeState) -> float:
    """The evaluation the grader hands to agents: the node's value (its score)."""
    return state.score
