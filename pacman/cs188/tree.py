"""The classic interface over any search state (`legal_actions`, `successor`, `score`, ...), and
how an agent class is run on a test tree (`tree_action`).

The grader's test trees speak our `SearchState` protocol; a student's `MinimaxAgent` calls
`getLegalActions`, `generateSuccessor`, `getScore`, `isWin`, `isLose` and `getNumAgents` on
them. `CS188SearchState` translates, so one tree serves both kinds of agents.
"""

from __future__ import annotations

from typing import Any

from pacman.cs188.loader import describe_fault, is_cs188_agent_class
from pacman.game_tree import TreeError, tree_evaluation

__all__ = ["CS188SearchState", "tree_action", "tree_error"]


class CS188SearchState:
    """A search state seen through the classic camelCase interface."""

    __slots__ = ("inner",)

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def getLegalActions(self, agentIndex: int = 0) -> list[Any]:
        """The node's actions, in order."""
        return list(self.inner.legal_actions(agentIndex))

    def generateSuccessor(self, agentIndex: int, action: Any) -> CS188SearchState:
        """The child reached by `action`."""
        return CS188SearchState(self.inner.successor(agentIndex, action))

    def getScore(self) -> float:
        """The node's value (the default evaluation)."""
        return float(self.inner.score)

    def isWin(self) -> bool:
        """True at a won node."""
        return bool(self.inner.is_win())

    def isLose(self) -> bool:
        """True at a lost node."""
        return bool(self.inner.is_lose())

    def getNumAgents(self) -> int:
        """The number of agents."""
        return int(self.inner.num_agents)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CS188SearchState) and self.inner == other.inner

    def __hash__(self) -> int:
        return hash(self.inner)

    def __repr__(self) -> str:
        return f"CS188SearchState({self.inner!r})"


def tree_action(agent_class: Any, depth: int, root: Any) -> Any:
    """Build an agent for a test tree and ask it for the root's action.

    Our agents get `agent_class(depth=..., evaluation=...)` and the tree itself; a classic CS188
    class gets `agent_class(depth=...)` (its default evaluation reads the node's score) and the
    tree through the camelCase interface, as the classic grader builds it.
    """
    if is_cs188_agent_class(agent_class):
        return agent_class(depth=depth).getAction(CS188SearchState(root))
    return agent_class(depth=depth, evaluation=tree_evaluation).get_action(root)


def tree_error(problem: BaseException) -> str:
    """How a run's error reads: a tree's own error as it is, anything else as what the agent
    raised."""
    if isinstance(problem, TreeError):
        return str(problem)
    return f"the agent raised {describe_fault(problem)}"
