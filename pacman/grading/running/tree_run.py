"""Run an agent class on a test tree and record what it did (action, generated nodes, errors)."""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType
from typing import Any

from pacman.agents import pacman_agents
from pacman.cs188.loader import describe_fault, load_agents
from pacman.cs188.tree import tree_action, tree_error
from pacman.game_tree import TreeRun
from pacman.grading.cases.parser import TreeCase
from pacman.interrupts import is_user_interrupt

__all__ = ["AgentRun", "TreeAgentStandIn", "describe_exception", "load_agents_module",
           "run_agent", "tree_error"]


@dataclass(frozen=True)
class AgentRun:
    """What an agent did on a tree: its action (or the error it raised) and the nodes it made."""

    action: str | None
    generated: frozenset[str]
    duplicates: tuple[str, ...] = ()
    error: str | None = None
    error_type: str | None = None  # the exception's class name, e.g. "MissingValueError"

    def same_as(self, action: str, generated: frozenset[str],
                allow_duplicates: bool = False) -> bool:
        """True if the run completed cleanly with exactly this action and generated set (and,
        unless `allow_duplicates`, generated no child twice)."""
        return (self.error is None and (allow_duplicates or not self.duplicates)
                and self.action == action and self.generated == generated)


class TreeAgentStandIn:
    """An agent class that runs elsewhere (a student's, in its host process): `run_agent`
    hands it the whole run instead of building the agent here."""

    def run(self, case: TreeCase, depth: int, default_value: float | None, classic: bool,
            budget: int) -> AgentRun:
        """What the agent did on the case's tree (see `run_agent`)."""
        raise NotImplementedError


def load_agents_module(spec: str | ModuleType | None = None) -> ModuleType:
    """Import the agents to grade: a module name, a path to a `.py` file, or None for ours
    (`pacman.agents.pacman_agents`).

    A file is loaded with the CS188 compatibility loader: its `import util`, `import game` and
    `from pacman import GameState` get our modules, and files beside it can be imported.
    `StudentCodeError` (one line) if it cannot be loaded.
    """
    if isinstance(spec, ModuleType):
        return spec
    if spec is None:
        return pacman_agents
    return load_agents(spec)


def describe_exception(error: BaseException) -> str:
    """`Type: message (file:line in function)`, naming the innermost frame of the traceback."""
    return describe_fault(error)


def run_agent(agent_class: Any, case: TreeCase, depth: int,
              default_value: float | None = None, classic: bool = False,
              budget: int = TreeRun.DEFAULT_BUDGET) -> AgentRun:
    """Ask an agent of `agent_class` for its action on the case's tree; record what it did.

    With `default_value`, nodes without a value evaluate to it instead of failing the run;
    `classic` gives the tree the classic grader's leniency (see `TreeRun`).
    """
    if isinstance(agent_class, TreeAgentStandIn):
        return agent_class.run(case, depth, default_value, classic, budget)
    run = TreeRun(case.tree, default_value, classic, budget)
    action: Any = None
    error: str | None = None
    error_type: str | None = None
    try:
        action = tree_action(agent_class, depth, run.root())
    except BaseException as problem:  # a student's bug fails the case, not the run
        if is_user_interrupt(problem):
            raise
        error, error_type = tree_error(problem), type(problem).__name__
    duplicates = tuple(f"{node} --{action_name}--> generated {count} times"
                       for node, action_name, count in run.duplicate_edges())
    return AgentRun(None if action is None else str(action), frozenset(run.generated),
                    duplicates, error, error_type)
