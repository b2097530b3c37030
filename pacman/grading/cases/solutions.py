"""`pacman grade --generate-solutions`: write every test's `.solution` with our reference agents.

Tree tests get the action and generated nodes of the reference search; game tests get the
staff search's record of a whole game (`pacman.grading.reference.staff`); agent tests get a
file that says none is needed. The files use the classic format, so a classic grader reads them too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from pacman.errors import TestCaseError
from pacman.grading.cases import eval_case, game_case, tree_case
from pacman.grading.cases.parser import ParsedFile, parse_file
from pacman.grading.cases.suite import Suite
from pacman.grading.running.session import relative_name
from pacman.grading.running.tree_run import describe_exception

__all__ = ["WrittenSolution", "generate_solutions"]

#: How each test class writes its `.solution`: (test path, parsed test, header line) -> path.
WRITERS: dict[str, Callable[[Path, ParsedFile, str], Path]] = {
    tree_case.CLASS: tree_case.write_solution,
    game_case.CLASS: game_case.write_solution,
    eval_case.CLASS: eval_case.write_solution,
}


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
            writer = WRITERS.get(kind)
            if writer is None:
                raise TestCaseError(path, None, f'unknown test class "{kind}"')
            out = writer(path, test, header)
        except TestCaseError as error:
            written.append(WrittenSolution(name, None, str(error)))
        except (OSError, ValueError, KeyError) as error:
            written.append(WrittenSolution(name, None, describe_exception(error)))
        else:
            written.append(WrittenSolution(name, out))
    return written
