"""`pacman grade`: run autograder test cases and report each one."""

from __future__ import annotations

import argparse
from typing import Any

from pacman.cli.options import UsageError


def add_parser(commands: Any) -> None:
    """The `grade` subcommand."""
    grade = commands.add_parser("grade", help="run autograder test cases (TESTCASES.md)")
    grade.add_argument("paths", nargs="+", metavar="PATH",
                       help="folders of .test/.solution files, or single .test files")
    grade.add_argument("--agents", default=None, metavar="MODULE",
                       help="module name or .py file defining MinimaxAgent, AlphaBetaAgent "
                            "and ExpectimaxAgent (default: the shipped agents)")
    grade.add_argument("-v", "--verbose", action="store_true",
                       help="print passing cases' details too")


def run(args: argparse.Namespace) -> int:
    """`pacman grade`: a line per case, diagnostics on failure, `N passed, M failed`."""
    from pacman.grading import GradingError, format_case, format_summary, grade

    try:
        report = grade(args.paths, agents_module=args.agents)
    except GradingError as error:
        raise UsageError(str(error)) from None
    for result in report.results:
        print(format_case(result))
    print(format_summary(report))
    return 0 if report.ok else 1


