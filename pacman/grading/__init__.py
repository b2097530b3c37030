"""The autograder for game-tree test cases (docs/test-cases.md): parse, run, diagnose, report.

Library only: it returns data and strings; `pacman.cli` prints them. The agents under test are
imported lazily, by module name or file path, so the environment never imports `agents`.
"""

from __future__ import annotations

from pacman.grading.grader import (
    CaseResult,
    CaseStatus,
    GradeReport,
    collect_test_files,
    grade,
    run_case,
)
from pacman.grading.parser import TestCaseError, TreeCase, load_case, parse_file
from pacman.grading.reference import ReferenceOutcome, reference_search
from pacman.grading.report import format_case, format_summary
from pacman.grading.runner import GradingError, load_agents_module
from pacman.grading.tree import (
    GameTree,
    MissingValueError,
    TerminalSuccessorError,
    TreeError,
    TreeRun,
    TreeState,
)

__all__ = [
    "CaseResult",
    "CaseStatus",
    "GameTree",
    "GradeReport",
    "GradingError",
    "MissingValueError",
    "ReferenceOutcome",
    "TerminalSuccessorError",
    "TestCaseError",
    "TreeCase",
    "TreeError",
    "TreeRun",
    "TreeState",
    "collect_test_files",
    "format_case",
    "format_summary",
    "grade",
    "load_agents_module",
    "load_case",
    "parse_file",
    "reference_search",
    "run_case",
]
