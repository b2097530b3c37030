"""`pacman grade --generate-solutions`: write every test's `.solution` with our reference agents.

Tree tests get the action and generated nodes of the reference search; game tests get the
staff search's record of a whole game (`pacman.grading.staff`); agent tests get a file that
says none is needed. The files use the classic format, so a classic grader reads them too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pacman.grading import eval_test, game_test, tree_test
from pacman.grading.parser import TestCaseError, parse_file
from pacman.grading.runner import describe_exception
from pacman.grading.session import relative_name
from pacman.grading.suite import Suite

__all__ = ["WrittenSolution", "generate_solutions"]


@dataclass(frozen=True)
class WrittenSolution:
    """One test's solution: the file written, or why it could not be."""

    test: str
    path: Path | None
    error: str = ""


def generate_solutions(suite: Suite) -> Sequence[WrittenSolution]:
    """Write the `.solution` of every test of the suite; a broken test is reported, and the
    others are written."""
    written: list[WrittenSolution] = []
    for path in suite.tests:
        name = relative_name(suite, path)
        header = f"# This is the solution file for {name}."
        try:
            test = parse_file(path)
            kind = test.require("class").value
            if kind == tree_test.CLASS:
                out = tree_test.write_solution(path, test, header)
            elif kind == game_test.CLASS:
                from pacman.cs188.loader import describe_fault

                out = game_test.write_solution(path, test, describe_fault)
            elif kind == eval_test.CLASS:
                out = eval_test.write_solution(path, header)
            else:
                raise TestCaseError(path, None, f'unknown test class "{kind}"')
        except TestCaseError as error:
            written.append(WrittenSolution(name, None, str(error)))
        except (OSError, ValueError, KeyError) as error:
            written.append(WrittenSolution(name, None, describe_exception(error)))
        else:
            written.append(WrittenSolution(name, out))
    return written
