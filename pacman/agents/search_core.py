"""The search core: what every search of this package shares, and nothing that searches.

- `SearchState`, the protocol a search asks of a state (the Pacman `GameState` satisfies it, and
  so does a hand-written game tree in a test), with `ActionGenerator` and `ChanceModel`, the two
  hooks a search takes instead of the state's own legal actions and uniform chance;
- `Decision`, what a search returns, and the tree a traced search records in it
  (`SearchTrace` and its `TraceNode`s; `pacman.agents.trace` builds them);
- the root's shared rules: `check_root` (one check of a search request, at the public entry),
  `RootChoice` (root ties go to the first best action in legal-action order), `legal_actions`
  and `actions_without_stop`.

The searches (`pacman.agents.search`, `trace`, `anytime`, `multiplayer`, `escape`) import these
names from here, so no search module needs another's private names.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Protocol

__all__ = [
    # what a search asks of a state
    "SearchState", "ActionGenerator", "ChanceModel", "legal_actions", "actions_without_stop",
    "STOP_ACTION",
    # what a search returns
    "Decision", "SearchTrace", "TraceNode", "action_name", "json_number",
    "MAX", "MIN", "CHANCE", "LEAF", "TERMINAL", "STUCK",
    # the root's shared rules
    "check_root", "RootChoice", "MAX_SEARCH_MOVES",
]

_INF = float("inf")
#: the deepest search, in moves of single agents (depth x agents): each move is a Python call
#: or two deep, and Python stops a recursion about 1,000 calls deep
MAX_SEARCH_MOVES = 300
STOP_ACTION = "Stop"  # the Pacman Stop action (a `Direction` is its string value)

class SearchState(Protocol):
    """What search needs of a game state: agents, legal actions, successors, outcome, score."""

    @property
    def num_agents(self) -> int:
        """Number of agents; agent 0 maximises, the others minimise (or are chance)."""
        ...

    def legal_actions(self, agent: int) -> Sequence[Any]:
        """Legal actions of `agent`, in a fixed order; actions are opaque hashable values."""
        ...

    def successor(self, agent: int, action: Any) -> SearchState:
        """The state after `agent` plays `action`."""
        ...

    def is_win(self) -> bool:
        """True if the game is won (a leaf)."""
        ...

    def is_lose(self) -> bool:
        """True if the game is lost (a leaf)."""
        ...

    @property
    def score(self) -> float:
        """The state's score (the default evaluation)."""
        ...


ActionGenerator = Callable[[Any, int], Sequence[Any]]
"""`actions(state, agent)`: the actions search considers at a node, instead of `legal_actions`."""

ChanceModel = Callable[[Any, int, Sequence[Any]], Sequence[float]]
"""`chance(state, agent, actions)`: the probability of each action at a chance node."""


@dataclass(frozen=True)
class Decision:
    """The result of a search: the chosen action, its value and the search's cost.

    `nodes_generated` counts the root plus every `successor()` call; `best_actions` are all root
    actions reaching `value`, in legal order, and `action` is the first of them.
    """

    action: Any
    value: float
    nodes_generated: int
    best_actions: tuple[Any, ...]
    trace: SearchTrace | None = field(default=None, compare=False, repr=False)


def legal_actions(state: SearchState, agent: int) -> Sequence[Any]:
    """The state's own legal actions: the `ActionGenerator` a search uses when given none."""
    return state.legal_actions(agent)


def check_root(state: SearchState, depth: int, legal: ActionGenerator) -> Sequence[Any]:
    """Validate the search request; return the root's actions."""
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
        raise ValueError(f"search depth must be a positive integer (plies), got {depth!r}")
    if state.num_agents < 1:
        raise ValueError(f"a search state needs at least one agent, got {state.num_agents}")
    if depth * state.num_agents > MAX_SEARCH_MOVES:
        agents = state.num_agents
        raise ValueError(f"search depth {depth} with {agents} agents is {depth * agents:,} "
                         f"moves deep (depth x agents); the deepest search is "
                         f"{MAX_SEARCH_MOVES} moves (depth {MAX_SEARCH_MOVES // agents} with "
                         f"{agents} agents)")
    if state.is_win() or state.is_lose():
        raise ValueError("cannot search from a terminal state: the game is already won or lost")
    actions = legal(state, 0)
    if not actions:
        raise ValueError("cannot search from a state where agent 0 has no legal action")
    return actions


class RootChoice:
    """Accumulates root values into the best value and every action that reaches it."""

    __slots__ = ("best", "best_actions")

    def __init__(self) -> None:
        self.best = -_INF
        self.best_actions: list[Any] = []

    def offer(self, action: Any, value: float) -> None:
        """Take one root action's value (root ties go to the first best, in offer order)."""
        if value > self.best:
            self.best = value
            self.best_actions = [action]
        elif value == self.best:
            self.best_actions.append(action)

    def decision(self, generated: int) -> Decision:
        """The decision: the first best action, its value, and every action that ties it."""
        if not self.best_actions:
            raise ValueError("the evaluation returned NaN for every root action")
        return Decision(self.best_actions[0], self.best, generated, tuple(self.best_actions))


def actions_without_stop(state: SearchState, agent: int) -> Sequence[Any]:
    """Legal actions, minus Stop for agent 0 unless Stop is its only action."""
    actions = state.legal_actions(agent)
    if agent == 0 and len(actions) > 1 and STOP_ACTION in actions:
        return [a for a in actions if a != STOP_ACTION]
    return actions


# What a node is: a MAX, MIN or chance layer, a leaf at the depth limit, a won or lost state,
# or a state whose agent has no legal action (evaluated where it stands).
MAX, MIN, CHANCE, LEAF, TERMINAL, STUCK = "max", "min", "chance", "leaf", "terminal", "stuck"


@dataclass
class TraceNode:
    """One generated node of a traced search (see the module's description)."""

    id: int
    parent: int | None
    action: str | None
    ply: int
    agent: int
    kind: str
    label: str | None = None
    value: float | None = None
    alpha: float | None = None
    beta: float | None = None
    children: list[int] = field(default_factory=list)
    probabilities: list[float] | None = None
    cut: dict[str, Any] | None = None
    unrecorded_children: int = 0

    def to_json(self) -> dict[str, Any]:
        """This node as JSON-ready data (infinite bounds as the strings "inf" and "-inf")."""
        data: dict[str, Any] = {"id": self.id, "parent": self.parent, "action": self.action,
                                "ply": self.ply, "agent": self.agent, "kind": self.kind,
                                "value": json_number(self.value)}
        if self.label is not None:
            data["label"] = self.label
        if self.alpha is not None or self.beta is not None:
            data["alpha"], data["beta"] = json_number(self.alpha), json_number(self.beta)
        if self.children:
            data["children"] = list(self.children)
        if self.probabilities is not None:
            data["probabilities"] = list(self.probabilities)
        if self.cut is not None:
            data["cut"] = {key: json_number(value) if key == "bound" else value
                           for key, value in self.cut.items()}
        if self.unrecorded_children:
            data["unrecorded_children"] = self.unrecorded_children
        return data


@dataclass
class SearchTrace:
    """The explored tree of one search, and its totals.

    `nodes[0]` is the root; `nodes_generated` counts the root plus every successor, as the
    search's own count does; `evaluations` counts calls of the evaluation; `cuts` counts the
    nodes whose loop ended before their last child and `pruned` the actions they never
    generated (a node whose value passed a bound at its last child has a `cut` too, with no
    skipped actions: its value is a bound, not exact); `unrecorded`
    counts the generated nodes past `max_nodes`. `principal_variation` lists `(agent, action)`
    from the root down the line both sides are expected to play (at chance nodes, the most
    likely outcome).
    """

    method: str
    depth: int
    max_nodes: int
    nodes: list[TraceNode] = field(default_factory=list)
    nodes_generated: int = 1
    evaluations: int = 0
    cuts: int = 0
    pruned: int = 0
    unrecorded: int = 0
    root_values: list[tuple[str, float]] = field(default_factory=list)
    action: str | None = None
    value: float | None = None
    principal_variation: list[tuple[int, str]] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        """The trace without its nodes: what a replay keeps for each move (JSON-ready)."""
        return {
            "method": self.method, "depth": self.depth,
            "action": self.action, "value": json_number(self.value),
            "nodes_generated": self.nodes_generated, "evaluations": self.evaluations,
            "cuts": self.cuts, "pruned": self.pruned,
            "root_values": [[action, json_number(value)] for action, value in self.root_values],
            "principal_variation": [[agent, action]
                                    for agent, action in self.principal_variation],
        }

    def to_json(self) -> dict[str, Any]:
        """The whole trace as JSON-ready data: the summary, the budget and every node."""
        return {**self.summary(), "max_nodes": self.max_nodes, "unrecorded": self.unrecorded,
                "nodes": [node.to_json() for node in self.nodes]}


def json_number(value: float | None) -> float | str | None:
    """A value as JSON can hold it: infinities and NaN as the strings "inf", "-inf", "nan"."""
    if value is None or math.isfinite(value):
        return value
    return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")


def action_name(action: Any) -> str:
    """An action as text: an enum's value (`West`), anything else as `str`."""
    return str(action.value) if isinstance(action, Enum) else str(action)
