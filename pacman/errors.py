"""One error family: every mistake a user can make, and every fault of their input, derives from
`PacmanError`.

The command line catches `PacmanError` once and prints its message as one line on stderr with exit
code 2; a library caller can catch the base or one narrow subclass. Each subclass also derives
from the built-in exception it has always been (`ValueError` for most), so code that caught the
built-in before goes on working. The classes live here, in the game core, so that any layer can
raise them; the module that raises one re-exports it under its old import path.

Not in this family, on purpose: a bug of this package; what an agent raises during a game
(recorded as the game's outcome, never raised to the caller); and the signals that steer a
game or a batch rather than report a mistake (`GameStopped` and `GameRestart` from a window,
`MoveTimeLimit`, `BatchInterrupted`, a child that died, a student's misuse of a test tree,
which the grader records as a failed test). `tests/test_errors.py` lists them.
"""

from __future__ import annotations

import os

__all__ = [
    # the base
    "PacmanError",
    # input files and text
    "LayoutError", "ReplayError", "SettingsError", "TestCaseError", "SuiteError",
    "GhostSpecError", "StudentCodeError",
    # names, settings and agents
    "RegistryError", "AgentSetupError", "TaskError", "ChaseTableError", "BoundError",
    # the game
    "IllegalMoveError", "LimitError",
    # applications
    "UsageError", "BatchError", "GameNotStarted",
    "StoreError", "DamagedStoreError", "TableError", "PlotError",
    "ExportError", "TuningError", "GradingError", "PageError", "UnknownDemo",
    # an optional dependency
    "MissingExtra",
    # the reinforcement-learning environments
    "EnvSettingsError", "InvalidActionError", "ResetNeededError",
]


class PacmanError(Exception):
    """The base of every error a user can cause: the CLI prints its message as one line."""


# --- input files and text ---------------------------------------------------------------------


class LayoutError(PacmanError, ValueError):
    """A layout that cannot be read or played, with the file, line and column at fault."""

    def __init__(self, source: str, message: str, line: int | None = None,
                 column: int | None = None) -> None:
        where = source
        if line is not None:
            where += f":{line}"
            if column is not None:
                where += f":{column}"
        super().__init__(f"{where}: {message}")
        self.source, self.line, self.column = source, line, column


class ReplayError(PacmanError, ValueError):
    """A replay file that cannot be read, or that does not verify."""


class SettingsError(PacmanError, ValueError):
    """Agent settings text (`-a depth=3,...`) that cannot be read."""


class LimitError(PacmanError, ValueError):
    """A time limit that is not a number of seconds above 0 and at most `MAX_SECONDS`."""


class TestCaseError(PacmanError):
    """A malformed `.test` or `.solution` file; `str()` reads `path:line: message`."""

    __test__ = False  # not a pytest test class, despite the name

    def __init__(self, path: str | os.PathLike[str], line: int | None, message: str) -> None:
        self.path = str(path)
        self.line = line
        self.message = message
        where = f"{self.path}:{line}" if line is not None else self.path
        super().__init__(f"{where}: {message}")


class GhostSpecError(PacmanError, ValueError):
    """A ghost description in a test case that names no ghost this package can build."""


class StudentCodeError(PacmanError, ValueError):
    """A student's or user's code file that cannot be loaded (missing, unreadable, or raising).

    A `ValueError` as the other faults of a name a user gives (an agent's or an evaluation's
    `file.py:Name`), so that a setting naming such a file is a bad setting where it is read."""


# --- names, settings and agents ---------------------------------------------------------------


class RegistryError(PacmanError, ValueError):
    """An agent name, or its settings, that cannot be used."""


class AgentSetupError(PacmanError, ValueError):
    """An agent that could not be set up to play (built, loaded or started in its process)."""


class TaskError(PacmanError, ValueError):
    """A game or agent description (`GameSpec`, `AgentSpec`) read from JSON that is not one;
    the message names the field at fault."""


class BoundError(PacmanError, ValueError):
    """A best-possible win rate (`pacman.chase.bound`) that cannot be computed as asked: a
    ghost kind without known move probabilities, a move cap or position limit below 1."""


class ChaseTableError(PacmanError, ValueError):
    """A survival table of the food-free chase (`pacman.chase`) that cannot be built as asked:
    an unknown ghost model, a horizon or a number of ghosts out of range, a layout with too
    few ghosts, or a table too big to hold."""


# --- the game ---------------------------------------------------------------------------------


class IllegalMoveError(PacmanError, ValueError):
    """A move that the rules do not allow in the state it was asked of."""


# --- applications -----------------------------------------------------------------------------


class UsageError(PacmanError, ValueError):
    """A command line that cannot be run as written."""


class BatchError(PacmanError, ValueError):
    """A batch that cannot run as asked (bad grid, experiment file or backend)."""


class GameNotStarted(BatchError):
    """A game of a batch that could not start for a reason outside its agents (a file or a
    module missing where it was to play, a worker running other code): nothing is stored for
    it. `worker` names the cluster worker it was refused by ('' on this machine)."""

    def __init__(self, message: str, worker: str = "") -> None:
        super().__init__(message)
        self.message, self.worker = message, worker

    def __reduce__(self) -> tuple[type[GameNotStarted], tuple[str, str]]:
        return type(self), (self.message, self.worker)  # pickled back from a worker


class StoreError(PacmanError, ValueError):
    """A results store that cannot be opened, read or written; the message is one line.

    `message` says what went wrong and `hint` (maybe empty) what to do about it.
    """

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(f"{message}; {hint}" if hint else message)
        self.message, self.hint = message, hint


class DamagedStoreError(StoreError):
    """A results store that is ours but damaged (SQLite's integrity check fails, or a row was
    edited by hand): refused, never written; `pacman store recover` copies its intact games."""


class TableError(PacmanError, ValueError):
    """A table that cannot be made from the stored games as asked."""


class PlotError(PacmanError, RuntimeError):
    """A plot that cannot be drawn (nothing to plot; no matplotlib is a `MissingExtra`)."""


class ExportError(PacmanError, ValueError):
    """A file that cannot be written as asked (a picture, an animation, a data export)."""


class UnknownDemo(PacmanError, ValueError):
    """A demo name that no demo module defines; the message suggests the closest name, or
    lists the names there are when none is close."""


class TuningError(PacmanError, ValueError):
    """A tuning run that cannot go as asked (weights, layouts, options)."""


class GradingError(PacmanError):
    """A grading run that cannot go on (its suite, its student file, its options)."""


class SuiteError(GradingError, ValueError):
    """A test suite (a folder of questions and their `CONFIG`) that cannot be used."""


class PageError(PacmanError, ValueError):
    """An HTML page (replay viewer or search tree) that cannot be made from its input."""


# --- an optional dependency -------------------------------------------------------------------


class MissingExtra(PacmanError, ImportError):
    """An optional dependency that is not installed; the message ends with the pip command that
    adds its extra to this copy of the project (`pacman.extras.install_command`).

    An `ImportError` too, as Gymnasium's `DependencyNotInstalled` is not: it is what a caller
    of an optional feature already catches (`except ImportError`), and it is what it is, a
    module that cannot be imported. `extra` names the extra (`plots`, `gif`, ...), `command`
    the pip command, `name` (ImportError's) the module that is missing.
    """

    def __init__(self, needs: str, extra: str, module: str | None = None,
                 advice: str = "") -> None:
        from pacman.extras import install_command

        self.needs, self.extra, self.advice = needs, extra, advice
        self.command = install_command(extra)
        super().__init__(f"{needs}: {self.command}{f' {advice}' if advice else ''}",
                         name=module)

    def __reduce__(self) -> tuple[type[MissingExtra], tuple[str, str, str | None, str]]:
        return type(self), (self.needs, self.extra, self.name, self.advice)


class EnvSettingsError(PacmanError, ValueError):
    """A setting of a Gymnasium or PettingZoo env (`pacman.envs`) that it cannot be made with."""


class InvalidActionError(PacmanError, ValueError):
    """An action given to an env's `step` that is not in its action space."""


class ResetNeededError(PacmanError, RuntimeError):
    """An env's `step` called before `reset()` or after the episode ended."""


def shown_value(value: object) -> str:
    """(Not an error: the helper every error message uses, so not in `__all__`.) A bad value as
    a one-line message names it: a whole number too big to print (or to
    read) by its size, anything else by its repr cut to 40 characters."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"a number of about {int(value.bit_length() * 0.30103)} digits"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
