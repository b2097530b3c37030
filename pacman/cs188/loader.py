"""Load a student's file (`multiAgents.py`) so that its CS188 imports get our modules.

The student module runs with builtins of its own whose `__import__` answers `util`, `game`,
`ghostAgents` and `pacman` with the modules of `pacman.cs188.modules`, loads other modules that
sit beside the file (a student's own helpers) the same way, and leaves every other import to
Python. Nothing is added to `sys.path`, so a classic `pacman.py`, `util.py` or `game.py` next to
the student's file is never imported and never shadows our package.
"""

from __future__ import annotations

import builtins
import hashlib
import importlib
import importlib.util
import sys
import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from types import ModuleType
from typing import Any

from pacman.cs188.modules import STUDENT_MODULES
from pacman.errors import StudentCodeError
from pacman.interrupts import is_user_interrupt

__all__ = [
    "StudentCodeError",
    "StudentModule",
    "describe_fault",
    "find_class",
    "is_cs188_agent_class",
    "load_agents",
    "load_student_file",
]

#: The module names our layer provides to student code (the classic files it replaces).
PROVIDED = STUDENT_MODULES
#: Classic modules a student file may import that we do not provide: a clear error, never the
#: classic file from the student's folder (which would drag the whole classic code in).
CLASSIC_ONLY = ("layout", "graphicsDisplay", "graphicsUtils", "textDisplay", "keyboardAgents",
                "pacmanAgents", "autograder", "grading", "testClasses", "testParser",
                "multiagentTestClasses", "projectParams")


@dataclass
class StudentModule:
    """A loaded student file, and the sibling files it imported (loaded the same way)."""

    path: Path
    module: ModuleType
    siblings: dict[str, ModuleType] = field(default_factory=dict)

    def classes(self) -> dict[str, type]:
        """The classes the file defines or imports, by name."""
        return {name: value for name, value in vars(self.module).items()
                if isinstance(value, type)}


def describe_fault(error: BaseException) -> str:
    """`Type: message (file:line in function)`, naming the innermost frame."""
    text = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
    if isinstance(error, SyntaxError) and error.filename:
        return f"SyntaxError: {error.msg} ({Path(error.filename).name}:{error.lineno})"
    frames = traceback.extract_tb(error.__traceback__)
    if frames:
        last = frames[-1]
        text += f" ({Path(last.filename).name}:{last.lineno} in {last.name})"
    return text


def load_student_file(path: str | Path) -> StudentModule:
    """Load a student's `.py` file (cached while the file is unchanged).

    Raises `StudentCodeError` with one line when the file is missing or not Python, has a syntax
    error, or raises anything (`SystemExit` included) while it is imported.
    """
    resolved = Path(path).expanduser().resolve()
    if not resolved.is_file():
        raise StudentCodeError(f"no such agent file: {path}")
    stat = resolved.stat()
    return _load_cached(str(resolved), stat.st_mtime_ns, stat.st_size)


def load_agents(spec: str) -> ModuleType:
    """The module of agents a grader grades: a `.py` file (`load_student_file`: its `import
    util` and the like get our modules) or a module's name, imported as Python does.

    Raises `StudentCodeError` with one line when it cannot be loaded; an interrupt of the
    user's (Ctrl-C) is raised as it is.
    """
    if spec.endswith(".py") or "/" in spec or "\\" in spec:
        return load_student_file(spec).module
    try:
        return importlib.import_module(spec)
    except ModuleNotFoundError as error:
        raise StudentCodeError(f"cannot import agents module {spec!r}: {error}") from None
    except BaseException as error:  # the student's module failed while importing
        if is_user_interrupt(error):
            raise
        raise StudentCodeError(f"importing agents from {spec!r} failed: "
                               f"{describe_fault(error)}") from None


@lru_cache(maxsize=32)
def _load_cached(path: str, mtime_ns: int, size: int) -> StudentModule:
    return _Loader(Path(path)).load()


class _Loader:
    """Loads one student file and its siblings with the redirecting `__import__`."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.folder = path.parent
        self.loaded: dict[str, ModuleType] = {}
        self.builtins = dict(vars(builtins))
        self.builtins["__import__"] = self._import
        digest = hashlib.blake2b(str(path).encode(), digest_size=6).hexdigest()
        self.prefix = f"_cs188_student_{digest}"

    def load(self) -> StudentModule:
        module = self._exec(self.path, self.path.stem)
        siblings = {name: mod for name, mod in self.loaded.items() if mod is not module}
        return StudentModule(self.path, module, siblings)

    def _exec(self, path: Path, name: str) -> ModuleType:
        if name in self.loaded:
            return self.loaded[name]
        unique = f"{self.prefix}.{name}"
        spec = importlib.util.spec_from_file_location(unique, path)
        if spec is None or spec.loader is None:
            raise StudentCodeError(f"{path}: not a Python file")
        module = importlib.util.module_from_spec(spec)
        module.__dict__["__builtins__"] = self.builtins
        self.loaded[name] = module
        sys.modules[unique] = module  # dataclasses and typing look their module up here
        try:
            spec.loader.exec_module(module)
        except StudentCodeError:
            raise
        except BaseException as error:  # SystemExit too: a student's exit is their fault
            if is_user_interrupt(error):
                raise
            sys.modules.pop(unique, None)
            self.loaded.pop(name, None)
            raise StudentCodeError(f"{path.name} failed while loading: "
                                   f"{describe_fault(error)}") from None
        return module

    def _import(self, name: str, globals: Mapping[str, Any] | None = None,
                locals: Mapping[str, Any] | None = None, fromlist: Any = (),
                level: int = 0) -> ModuleType:
        if level == 0:
            top = name.partition(".")[0]
            if name in PROVIDED:
                return importlib.import_module(PROVIDED[name])
            sibling = self.folder / f"{top}.py"
            if top not in PROVIDED and top not in sys.stdlib_module_names and sibling.is_file():
                if top in CLASSIC_ONLY:
                    raise ImportError(f"{top!r} is part of the classic CS188 code, which this "
                                      f"environment replaces; provided: "
                                      f"{', '.join(sorted(PROVIDED))}")
                module = self._exec(sibling, top)
                if name == top:
                    return module
        return _real_import(name, globals, locals, fromlist, level)


_real_import: Callable[..., ModuleType] = builtins.__import__


def find_class(student: StudentModule, name: str) -> type:
    """The class `name` of a student file; a one-line error naming the classes it has."""
    value = getattr(student.module, name, None)
    if isinstance(value, type):
        return value
    agents = sorted(n for n, c in student.classes().items()
                    if is_cs188_agent_class(c) or hasattr(c, "get_action"))
    known = ", ".join(agents) or "no agent classes"
    raise StudentCodeError(f"{student.path.name} has no class {name!r} (it has: {known})")


def is_cs188_agent_class(cls: type) -> bool:
    """True for a class written against the classic API (`getAction`, not `get_action`)."""
    return callable(getattr(cls, "getAction", None)) and not callable(
        getattr(cls, "get_action", None))
