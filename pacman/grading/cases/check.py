"""Check what every test of a suite says, without running any code: for a whole class.

`Suite.check` refuses a suite whose structure is broken (its `CONFIG` files, its question
folders, test files that cannot be read). What a test file says is checked when it runs, and a
broken one is an `ERROR` result for that test alone. Before a class is graded, this module
checks every test that way at once, with the same readers the tests run with, so that a
broken test is one line for the teacher instead of an `ERROR` in every student's report.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from pacman.errors import SuiteError, TestCaseError
from pacman.grading.cases import eval_case, game_case, tree_case
from pacman.grading.cases.parser import ParsedFile, parse_file
from pacman.grading.cases.suite import Suite

__all__ = ["check_test", "check_tests"]

#: How each test class reads a parsed test (and its solution) before it runs.
LOADERS: dict[str, Callable[[Path, ParsedFile], object]] = {
    tree_case.CLASS: tree_case.load,
    game_case.CLASS: game_case.load,
    eval_case.CLASS: lambda path, test: eval_case.load_test(test),
}


def check_test(path: Path) -> None:
    """Read one test as the grader runs it (a disabled test is not read further).

    Args:
        path: the `.test` file.

    Raises:
        TestCaseError: what running the test would report as its `ERROR`.
    """
    test = parse_file(path)
    if test.disabled:
        return
    kind = test.require("class")
    loader = LOADERS.get(kind.value)
    if loader is None:
        raise TestCaseError(path, kind.line, f'unknown test class "{kind.value}" '
                            f"(known: {', '.join(LOADERS)})")
    loader(path, test)


def solution_warnings(suite: Suite) -> list[str]:
    """One line for each game test of `suite` whose solution was not recorded with its layout,
    seed and ghosts (`game_case.mismatch`), which is graded as the classic grader grades it.

    Args:
        suite: a suite that passed `Suite.check`.

    Returns:
        The warning lines, in test order (a test that cannot be read has none here: its
        grading says what is wrong).
    """
    from pacman.grading.running.session import relative_name

    warnings = []
    for path in suite.tests:
        try:
            test = parse_file(path)
            kind = test.get("class")
            if kind is None or kind.value != game_case.CLASS or test.disabled:
                continue
            spec, steps = game_case.load(path, test)
        except TestCaseError:
            continue
        wrong = game_case.mismatch(spec, steps)
        if wrong:
            warnings.append(game_case.mismatch_warning(relative_name(suite, path), wrong,
                                                       suite.root))
    return warnings


def check_tests(suite: Suite) -> None:
    """Check every test of `suite` before any is run.

    Args:
        suite: a suite that passed `Suite.check`.

    Raises:
        SuiteError: naming the first broken test (its file and line) and how many more there
            are.
    """
    broken: list[str] = []
    for path in suite.tests:
        try:
            check_test(path)
        except TestCaseError as error:
            broken.append(" ".join(str(error).split("\n")))
    if broken:
        more = len(broken) - 1
        rest = f" (and {more} more broken test{'s' * (more > 1)})" if more else ""
        raise SuiteError(broken[0] + rest)
