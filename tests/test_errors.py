"""One error family: every user-facing error derives from `PacmanError`, and the CLI catches it
once (no command keeps its own list of errors to turn into one line)."""

from __future__ import annotations

import ast
import inspect
import subprocess
import sys
from pathlib import Path

import pytest

import pacman.errors as errors
from pacman.errors import PacmanError

ROOT = Path(__file__).resolve().parents[1]

#: exception classes defined outside `pacman.errors`, and why they are not user-facing errors
NOT_USER_ERRORS = {
    "MoveTimeLimit": "interrupts an agent's move when its time is up (a recorded timeout)",
    "_OutOfBudget": "ends one iteration of an anytime search",
    "GameStopped": "the window was closed: the game ends as stopped",
    "GameRestart": "the window asked for the game again",
    "WindowUnavailable": "no window here: the CLI falls back to text and says so",
    "BatchInterrupted": "Ctrl-C during a batch: the finished games stay, exit 130",
    "_Malformed": "the replay reader's own signal, turned into a ReplayError",
    "ChildDied": "a child process ended: recorded as the game's or test's outcome",
    "_Fault": "an agent's fault during a game: recorded as the game's outcome",
    "TreeError": "a student's misuse of a test tree: a failed test, not an error",
    "MissingValueError": "a TreeError", "TreeBudgetError": "a TreeError",
    "TerminalSuccessorError": "a TreeError", "IllegalTreeActionError": "a TreeError",
    "_SolutionTooShort": "the grader's own signal for a short game solution",
    "HostFault": "what an agent raised in its host: recorded as the game's crash",
    "StudentFault": "what a graded submission raised in its host: the test's crash",
    "_Garbled": "a watched child's message the game cannot accept: that agent's crash",
    "_StartFailed": "one failed start of the worker pool: the pool is started again",
}


def exception_classes() -> dict[str, str]:
    """Every class of the package that derives from an exception (by its bases' names), with
    the file it is defined in; the classic CS188 modules are the students' and left out."""
    found: dict[str, str] = {}
    known = {"Exception", "BaseException", "ValueError", "RuntimeError", "KeyboardInterrupt",
             "LookupError", "KeyError", "TypeError", "OSError"}
    for path in sorted((ROOT / "pacman").rglob("*.py")):
        if "cs188/modules" in path.as_posix():
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                bases = {getattr(base, "id", getattr(base, "attr", "")) for base in node.bases}
                if bases & (known | set(found) | {"PacmanError"}) or any(
                        b.endswith("Error") for b in bases):
                    found[node.name] = path.relative_to(ROOT).as_posix()
    return found


def test_every_error_of_the_family_derives_from_the_base() -> None:
    for name in errors.__all__:
        value = getattr(errors, name)
        assert inspect.isclass(value) and issubclass(value, PacmanError), name


def test_user_facing_errors_are_defined_in_one_place() -> None:
    elsewhere = {name: path for name, path in exception_classes().items()
                 if path != "pacman/errors.py" and name not in NOT_USER_ERRORS}
    assert not elsewhere, f"define user-facing errors in pacman/errors.py: {elsewhere}"
    assert set(NOT_USER_ERRORS) <= set(exception_classes()), "a listed class is gone: unlist it"


def test_no_command_turns_a_family_error_into_a_usage_error() -> None:
    family = set(errors.__all__)
    wrappers = []
    for path in sorted((ROOT / "pacman" / "cli").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ExceptHandler) and node.type is not None:
                caught = node.type.elts if isinstance(node.type, ast.Tuple) else [node.type]
                names = {getattr(c, "id", "") for c in caught}
                body = ast.unparse(node.body[0]) if node.body else ""
                if names and names <= family and body == "raise UsageError(str(error)) from None":
                    wrappers.append(f"{path.name}:{node.lineno}")
    assert not wrappers, f"the CLI catches PacmanError once in main: {wrappers}"


@pytest.mark.parametrize("argv, message", [
    (["play", "-q", "-l", "noSuchLayout"], "noSuchLayout"),
    (["play", "-q", "-p", "noSuchAgent", "-l", "testClassic"], "noSuchAgent"),
    (["demo", "noSuchDemo"], "unknown demo 'noSuchDemo'"),
    (["replay", "/no/such/replay.json"], "/no/such/replay.json"),
    (["table", "/no/such/results.db"], "/no/such/results.db"),
])
def test_a_family_error_is_one_line_and_exit_2(argv: list[str], message: str) -> None:
    done = subprocess.run([sys.executable, "-m", "pacman", *argv], capture_output=True,
                          text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("pacman: error: ") and message in lines[0]


def test_a_missing_extra_says_how_to_add_it_and_is_an_import_error() -> None:
    import pickle

    from pacman.extras import install_command

    error = errors.MissingExtra("plots need matplotlib", "plots", "matplotlib")
    assert isinstance(error, PacmanError) and isinstance(error, ImportError)
    assert str(error) == f"plots need matplotlib: {install_command('plots')}"
    assert (error.extra, error.name, error.command) == ("plots", "matplotlib",
                                                         install_command("plots"))
    again = pickle.loads(pickle.dumps(error))  # as from a worker process
    assert (type(again), str(again), again.name) == (type(error), str(error), error.name)
    advised = errors.MissingExtra("writing a GIF needs Pillow", "gif", "PIL", "(or PNG frames)")
    assert str(advised).endswith(f"{install_command('gif')} (or PNG frames)")


def test_a_missing_optional_module_is_a_missing_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    from pacman.experiments import export, plot

    monkeypatch.setitem(sys.modules, "pandas", None)  # `import pandas` raises ImportError
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(errors.MissingExtra, match="a DataFrame needs pandas") as caught:
        export.to_dataframe([])
    assert caught.value.extra == "pandas" and caught.value.name == "pandas"
    with pytest.raises(errors.MissingExtra, match="plots need matplotlib"):
        plot.plot_results([object()], ".")  # type: ignore[list-item]
