"""Run an agent class on a test tree and record what it did (action, generated nodes, errors)."""

from __future__ import annotations

import importlib
import importlib.util
import sys
import traceback
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from pacman.grading.parser import TreeCase
from pacman.grading.tree import TreeError, TreeRun, tree_evaluation

__all__ = [
    "DEFAULT_AGENTS_MODULE",
    "AgentRun",
    "GradingError",
    "describe_exception",
    "load_agents_module",
    "run_agent",
]

DEFAULT_AGENTS_MODULE = "agents.pacman_agents"


class GradingError(Exception):
    """A grading run cannot start: a missing path, no tests, or an unimportable agents module."""


@dataclass(frozen=True)
class AgentRun:
    """What an agent did on a tree: its action (or the error it raised) and the nodes it made."""

    action: str | None
    generated: frozenset[str]
    duplicates: tuple[str, ...] = ()
    error: str | None = None
    error_type: str | None = None  # the exception's class name, e.g. "MissingValueError"

    def same_as(self, action: str, generated: frozenset[str]) -> bool:
        """True if the run completed cleanly with exactly this action and generated set."""
        return (self.error is None and not self.duplicates and self.action == action
                and self.generated == generated)


def load_agents_module(spec: str | ModuleType | None = None) -> ModuleType:
    """Import the agents to grade: a module name, a path to a `.py` file, or the default."""
    if isinstance(spec, ModuleType):
        return spec
    spec = DEFAULT_AGENTS_MODULE if spec is None else spec
    try:
        if spec.endswith(".py") or "/" in spec or "\\" in spec:
            return _load_file_module(Path(spec))
        return importlib.import_module(spec)
    except GradingError:
        raise
    except ModuleNotFoundError as error:
        raise GradingError(f"cannot import agents module {spec!r}: {error}") from None
    except Exception as error:  # the student's module failed while importing
        raise GradingError(f"importing agents from {spec!r} failed: "
                           f"{describe_exception(error)}") from None


def _load_file_module(path: Path) -> ModuleType:
    if not path.is_file():
        raise GradingError(f"agents file not found: {path}")
    name = f"_graded_agents_{path.stem}_{abs(hash(str(path.resolve())))}"
    module_spec = importlib.util.spec_from_file_location(name, path)
    if module_spec is None or module_spec.loader is None:
        raise GradingError(f"cannot load agents from {path}")
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[name] = module  # dataclasses and pickling look their module up here
    folder = str(path.resolve().parent)
    sys.path.insert(0, folder)  # so the file can import its sibling modules, as when run there
    try:
        module_spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    finally:
        sys.path.remove(folder)
    return module


def describe_exception(error: BaseException) -> str:
    """`Type: message (file:line in function)`, naming the innermost frame of the traceback."""
    text = f"{type(error).__name__}: {error}"
    frames = traceback.extract_tb(error.__traceback__)
    if frames:
        last = frames[-1]
        text += f" ({Path(last.filename).name}:{last.lineno} in {last.name})"
    return text


def run_agent(agent_class: Any, case: TreeCase, depth: int,
              default_value: float | None = None) -> AgentRun:
    """Build `agent_class(depth=..., evaluation=...)`, ask it for an action on the case's tree.

    With `default_value`, nodes without a value evaluate to it instead of failing the run.
    """
    run = TreeRun(case.tree, default_value)
    action: Any = None
    error: str | None = None
    error_type: str | None = None
    try:
        agent = agent_class(depth=depth, evaluation=tree_evaluation)
        action = agent.get_action(run.root())
    except TreeError as problem:
        error, error_type = str(problem), type(problem).__name__
    except (Exception, SystemExit) as problem:  # a student's bug fails the case, not the run
        error = f"the agent raised {describe_exception(problem)}"
        error_type = type(problem).__name__
    duplicates = tuple(f"{node} --{action_name}--> generated {count} times"
                       for node, action_name, count in run.duplicate_edges())
    return AgentRun(None if action is None else str(action), frozenset(run.generated),
                    duplicates, error, error_type)
