"""The autograder: test-file parsing, grading our agents, and diagnosing buggy student agents."""

from __future__ import annotations

import subprocess
import sys
import types
from pathlib import Path

import pytest

from pacman.errors import GradingError, TestCaseError
from pacman.game_tree import (
    MissingValueError,
    TerminalSuccessorError,
    TreeRun,
    TreeState,
)
from pacman.grading import TestStatus, find_suite, grade
from pacman.grading.cases.parser import load_case, parse_file, parse_text
from pacman.grading.cases.tree_case import run_case
from pacman.grading.reference.diagnostics import HINTS
from pacman.grading.reference.search import reference_search
from pacman.grading.reports.formats import format_case, format_summary

TESTS = Path(__file__).resolve().parents[1]
CASES = TESTS / "cases"
MALFORMED = TESTS / "malformed_cases"
ALL_CASES = list(find_suite([CASES]).tests)

TEXTBOOK_TEST = '''\
class: "GraphGameTreeTest"
alg: "{alg}"
depth: "1"
num_agents: "2"
start_state: "root"
win_states: ""
lose_states: ""
diagram: """
  root -> min1 (3 12 8), min2 (2 4 6), min3 (14 5 2)
"""
successors: """
root Left min1
root Center min2
root Right min3
min1 Left A
min1 Center B
min1 Right C
min2 Left D
min2 Center E
min2 Right F
min3 Left G
min3 Center H
min3 Right I
"""
evaluation: """
A 3
B 12
C 8
D 2
E 4
F 6
G 14
H 5
I 2
"""
'''


def write_case(folder: Path, name: str, test: str, action: str, generated: str) -> Path:
    """Write `name.test` and its solution into `folder`; return the test's path."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.test").write_text(test)
    (folder / f"{name}.solution").write_text(f'action: "{action}"\ngenerated: "{generated}"\n')
    return folder / f"{name}.test"


# --------------------------------------------------------------------------- parsing

@pytest.mark.parametrize(("name", "location", "message"), [
    ("unterminated-block.test", "unterminated-block.test:8", 'unterminated block "successors"'),
    ("bad-line.test", "bad-line.test:3", "cannot parse line 'depth 1'"),
    ("bad-successor.test", "bad-successor.test:10", "exactly 3 fields"),
    ("bad-value.test", "bad-value.test:13", 'value "one" of node "a1" is not a number'),
    ("duplicate-key.test", "duplicate-key.test:4", 'duplicate key "depth" (first on line 3)'),
    ("bad-depth.test", "bad-depth.test:3", 'depth must be a positive integer, got "zero"'),
    ("unknown-class.test", "unknown-class.test:2", 'unsupported test class "NoSuchTest"'),
    ("unknown-alg.test", "unknown-alg.test:2", 'unknown alg "MinimaxAgentt"'),
    ("missing-key.test", "missing-key.test", 'missing key "start_state"'),
    ("no-solution.test", "no-solution.test", "no solution file"),
    ("bad-solution.test", "bad-solution.solution:2", "cannot parse line"),
])
def test_malformed_files_are_reported_with_file_and_line(name: str, location: str,
                                                          message: str) -> None:
    with pytest.raises(TestCaseError) as caught:
        load_case(MALFORMED / name)
    text = str(caught.value)
    assert text.startswith(str(MALFORMED / location) + ": "), text
    assert message in text


def test_a_malformed_folder_is_graded_to_the_end_with_one_error_per_file() -> None:
    report = grade([MALFORMED])
    assert len(report.tests) == len(list(MALFORMED.glob("*.test")))
    assert all(r.status is TestStatus.ERROR for r in report.tests)
    assert report.failed == len(report.tests) and report.failed != 0
    assert format_case(report.tests[0]).startswith("ERROR ")


def test_syntax_comments_blank_lines_and_crlf() -> None:
    text = ('# a comment\r\n\r\nalg: "MinimaxAgent"   # trailing comment\r\n'
            'name: "a # b"\r\nblock: """\r\n  kept  # verbatim\r\n\r\n"""\r\n')
    parsed = parse_text(text, "inline.test")
    assert parsed.require("alg").value == "MinimaxAgent"
    assert parsed.require("name").value == "a # b"
    block = parsed.require("block")
    assert (block.value, block.line, block.block) == ("  kept  # verbatim\n", 5, True)


def test_block_lines_keep_their_file_line_numbers() -> None:
    test = TEXTBOOK_TEST.format(alg="MinimaxAgent").replace("min3 Right I", "min3 Right")
    with pytest.raises(TestCaseError, match=r"^t\.test:23: a successor line"):
        parse_and_build(test)


def parse_and_build(test: str) -> None:
    """Build a case from inline test text with a trivial solution."""
    from pacman.grading.cases.parser import case_from_files

    case_from_files(parse_text(test, "t.test"), parse_text('action: "x"\ngenerated: ""', "t.sol"))


def test_disabled_cases_are_skipped_and_counted(tmp_path: Path) -> None:
    write_case(tmp_path, "a-textbook", TEXTBOOK_TEST.format(alg="MinimaxAgent"), "Left",
               "A B C D E F G H I min1 min2 min3 root")
    (tmp_path / "b-disabled.test").write_text('class: "PacmanGameTreeTest"\ndisabled: "true"\n')
    report = grade([tmp_path])
    assert [r.status for r in report.tests] == [TestStatus.PASS, TestStatus.SKIPPED]
    assert format_summary(report) == "1 passed, 0 failed, 1 skipped"


def test_user_errors_raise_grading_error(tmp_path: Path) -> None:
    with pytest.raises(GradingError, match="no such test file or folder"):
        grade([tmp_path / "missing"])
    with pytest.raises(GradingError, match=r"no \.test files"):
        grade([tmp_path])
    with pytest.raises(GradingError, match=r"not a \.test file"):
        grade([CASES / "minimax" / "01-textbook.solution"])
    with pytest.raises(GradingError, match="no such agent file"):
        grade([CASES / "minimax" / "01-textbook.test"], str(tmp_path / "nope.py"))
    with pytest.raises(GradingError, match="cannot import agents module"):
        grade([CASES / "minimax" / "01-textbook.test"], "no_such_module_xyz")
    broken = tmp_path / "broken.py"
    broken.write_text("raise RuntimeError('student typo')\n")
    with pytest.raises(GradingError, match="RuntimeError: student typo"):
        grade([CASES / "minimax" / "01-textbook.test"], str(broken))


def test_folders_are_searched_recursively_in_sorted_order() -> None:
    names = [p.relative_to(CASES).as_posix() for p in ALL_CASES]
    assert names == sorted(names)
    assert {n.split("/")[0] for n in names} == {"alphabeta", "expectimax", "minimax"}
    assert len(names) >= 40


def test_the_grading_api_imports_on_its_own() -> None:
    """Every name of the front file loads in a fresh interpreter (no import cycle)."""
    code = "import pacman.grading as g; [getattr(g, name) for name in g.__all__]"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=TESTS.parent)


# --------------------------------------------------------------------------- the tree state

def test_tree_state_refuses_what_a_correct_search_never_does() -> None:
    case = load_case(CASES / "minimax" / "07-win-lose-mixed.test")
    run = TreeRun(case.tree)
    root = run.root()
    lost = root.successor(0, "Center")
    assert lost.is_lose() and lost.legal_actions(1) == ()
    with pytest.raises(TerminalSuccessorError, match="X is a lose state"):
        lost.successor(1, "l")
    with pytest.raises(MissingValueError, match="evaluation of node A which has no value"):
        _ = root.successor(0, "Left").score
    assert run.generated == {"root", "X", "A"}


# --------------------------------------------------------------------------- our agents

@pytest.mark.parametrize("path", ALL_CASES, ids=[p.relative_to(CASES).as_posix()
                                                 for p in ALL_CASES])
def test_our_agents_pass_every_case(path: Path) -> None:
    report = grade([path])
    assert report.tests[0].passed, format_case(report.tests[0])


@pytest.mark.parametrize("path", ALL_CASES, ids=[p.relative_to(CASES).as_posix()
                                                 for p in ALL_CASES])
def test_the_reference_search_agrees_with_every_solution(path: Path) -> None:
    case = load_case(path)
    outcome = reference_search(case.tree, case.alg, case.depth)
    assert (outcome.action, outcome.generated) == (case.expected_action,
                                                    case.expected_generated)


def test_whole_folder_summary() -> None:
    report = grade([CASES])
    assert format_summary(report) == f"{len(ALL_CASES)} passed, 0 failed"


# --------------------------------------------------------------------------- student agents

STUDENT = '''\
"""A student's search agents (written the CS188 way) with one classic bug switched on."""
import math

BUG = {bug!r}


class _Search:
    prunes = False
    chance = False

    def __init__(self, depth=2, evaluation=None):
        self.depth = depth
        self.evaluation = evaluation

    def get_action(self, state):
        if BUG == "raise":
            return 1 / 0
        depth = self.depth + {{"too_deep": 1, "too_shallow": -1}}.get(BUG, 0)
        n = state.num_agents
        best, choice, alpha = -math.inf, None, -math.inf
        for action in state.legal_actions(0):
            child = state.successor(0, action)
            if BUG == "duplicate":
                child = state.successor(0, action)
            v = self.value(child, 1 % n, self.next_depth(depth, 1 % n), alpha, math.inf)
            if v > best or (BUG == "tie_last" and v == best):
                best, choice = v, action
            alpha = max(alpha, v)
        return choice

    def next_depth(self, depth, next_agent):
        return depth - 1 if next_agent == 0 or BUG == "per_agent" else depth

    def value(self, state, agent, depth, alpha, beta):
        if BUG == "eval_everywhere":
            self.evaluation(state)
        if state.is_win() or state.is_lose():
            return self.evaluation(state)
        if depth <= 0 and (agent == 0 or BUG == "per_agent"):
            return self.evaluation(state)
        actions = state.legal_actions(agent)
        if not actions:
            return self.evaluation(state)
        nxt = (agent + 1) % state.num_agents
        nd = self.next_depth(depth, nxt)
        if agent == 0:
            v = -math.inf
            for action in actions:
                v = max(v, self.value(state.successor(agent, action), nxt, nd, alpha, beta))
                if self.prunes and (v >= beta if BUG == "equality" else v > beta):
                    return v
                alpha = max(alpha, v)
            return v
        if self.chance and BUG != "chance_as_min":
            values = [self.value(state.successor(agent, a), nxt, nd, alpha, beta)
                      for a in actions]
            return sum(values) / len(values)
        v = math.inf
        for action in actions:
            v = min(v, self.value(state.successor(agent, action), nxt, nd, alpha, beta))
            if self.prunes and (v <= alpha if BUG == "equality" else v < alpha):
                return v
            beta = min(beta, v)
        return v


class MinimaxAgent(_Search):
    prunes = BUG == "prunes"


class AlphaBetaAgent(_Search):
    prunes = BUG != "no_pruning"


class ExpectimaxAgent(_Search):
    chance = True
'''


def student(tmp_path: Path, bug: str | None) -> str:
    """Write a student module with `bug` and return its path."""
    path = tmp_path / f"student_{bug}.py"
    path.write_text(STUDENT.format(bug=bug))
    return str(path)


def test_a_correct_student_passes_every_case(tmp_path: Path) -> None:
    report = grade([CASES], student(tmp_path, None))
    failures = [format_case(r) for r in report.tests if not r.passed]
    assert not failures, "\n".join(failures)


def test_a_student_file_can_import_its_sibling_modules(tmp_path: Path) -> None:
    """As when the student runs their file from its folder: `from helpers import ...` works."""
    (tmp_path / "student_helpers.py").write_text(STUDENT.format(bug=None))
    path = tmp_path / "multi_agents.py"
    path.write_text("from student_helpers import AlphaBetaAgent, ExpectimaxAgent, "
                    "MinimaxAgent  # noqa: F401\n")
    before = list(sys.path)
    report = grade([CASES / "minimax"], str(path))
    assert report.failed == 0
    assert report.passed == len(list((CASES / "minimax").glob("*.test")))
    assert sys.path == before  # the folder was only on the path while importing


def test_a_student_module_can_be_named_as_a_module(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "my_student_agents.py").write_text(STUDENT.format(bug=None))
    monkeypatch.syspath_prepend(str(tmp_path))
    report = grade([CASES / "alphabeta"], "my_student_agents")
    assert report.failed == 0
    assert report.passed == len(list((CASES / "alphabeta").glob("*.test")))


@pytest.mark.parametrize(("bug", "case", "hint"), [
    ("too_deep", "minimax/12-depth3-chains", "too_deep"),
    ("too_deep", "expectimax/11-three-agents-depth-limit", "too_deep"),
    ("too_shallow", "minimax/03-two-ply", "too_shallow"),
    ("per_agent", "minimax/04-three-agents", "per_agent"),
    ("per_agent", "alphabeta/12-three-agents-depth2", "per_agent"),
    ("equality", "alphabeta/05-tie-with-alpha", "equality"),
    ("equality", "alphabeta/06-tie-with-beta", "equality"),
    ("equality", "alphabeta/10-root-tie", "equality"),
    ("no_pruning", "alphabeta/01-textbook", "no_pruning"),
    ("prunes", "minimax/01-textbook", "prunes"),
    ("chance_as_min", "expectimax/02-disagree-with-minimax", "as_minimax"),
    ("tie_last", "minimax/09-root-tie", "tie"),
    ("eval_everywhere", "minimax/01-textbook", "non_leaf"),
    ("duplicate", "minimax/01-textbook", "duplicates"),
])
def test_buggy_students_fail_with_the_right_hint(tmp_path: Path, bug: str, case: str,
                                                 hint: str) -> None:
    report = grade([CASES / f"{case}.test"], student(tmp_path, bug))
    result = report.tests[0]
    assert result.status is TestStatus.FAIL
    assert HINTS[hint] in result.tree.hints, format_case(result)
    assert HINTS[hint] in format_case(result)


def test_a_student_evaluating_non_leaves_fails_with_the_node_named(tmp_path: Path) -> None:
    result = grade([CASES / "minimax/01-textbook.test"],
                   student(tmp_path, "eval_everywhere")).tests[0]
    assert result.tree.problem == ("evaluation of node min1 which has no value "
                              "(evaluated a non-leaf?)")


def test_a_raising_student_fails_its_cases_without_stopping_the_run(tmp_path: Path) -> None:
    report = grade([CASES / "minimax"], student(tmp_path, "raise"))
    assert report.passed == 0 and report.failed == len(report.tests) > 1
    message = report.tests[0].tree.problem
    assert message.startswith("the agent raised ZeroDivisionError: division by zero (")
    assert "in get_action)" in message


def test_every_bug_fails_some_case(tmp_path: Path) -> None:
    # Each classic bug is caught by the shipped cases (otherwise the cases are too weak).
    bugs = ["too_deep", "too_shallow", "per_agent", "equality", "no_pruning", "prunes",
            "chance_as_min", "tie_last", "eval_everywhere", "duplicate", "raise"]
    for bug in bugs:
        report = grade([CASES], student(tmp_path, bug))
        assert report.failed > 0, bug


def test_format_case_shows_expected_actual_and_differences(tmp_path: Path) -> None:
    result = grade([CASES / "alphabeta/05-tie-with-alpha.test"],
                   student(tmp_path, "equality")).tests[0]
    text = format_case(result)
    assert text.splitlines()[0].startswith("FAIL ") and "(AlphaBetaAgent, depth 1)" in text
    assert "action:    expected a, got a" in text
    assert "missing  n2b n3b" in text
    assert "extra" not in text
    assert "diagram:" in text and "n2a  n2b  n2c" in text
    assert result.tree.missing == ("n2b", "n3b") and result.tree.extra == ()


def test_summary_lists_failed_cases_then_the_counts(tmp_path: Path) -> None:
    report = grade([CASES / "alphabeta"], student(tmp_path, "equality"))
    summary = format_summary(report).splitlines()
    assert summary[0] == "failed:"
    assert summary[-1] == f"{report.passed} passed, {report.failed} failed"
    assert report.failed >= 3


def test_parse_file_reads_the_shipped_example() -> None:
    parsed = parse_file(CASES / "minimax" / "01-textbook.test")
    assert parsed.require("alg").value == "MinimaxAgent" and not parsed.disabled


def test_an_agent_expanding_a_terminal_node_gets_the_terminal_hint() -> None:
    class MinimaxAgent:
        """Steps into the lose state X, then tries to move on from it."""

        def __init__(self, depth: int, evaluation: object) -> None:
            self.depth = depth

        def get_action(self, state: TreeState) -> str:
            state.successor(0, "Center").successor(1, "l")
            return "Right"

    module = types.ModuleType("terminal_student")
    module.MinimaxAgent = MinimaxAgent  # type: ignore[attr-defined]
    result = run_case(load_case(CASES / "minimax" / "07-win-lose-mixed.test"), module)
    assert result.status is TestStatus.FAIL
    assert result.tree.problem == ("successor of node X requested, but X is a lose state "
                                   "(a leaf)")
    assert HINTS["terminal"] in result.tree.hints


def test_a_module_without_the_agent_class_fails_that_case() -> None:
    module = types.ModuleType("empty_student")
    result = run_case(load_case(CASES / "minimax" / "01-textbook.test"), module)
    assert result.status is TestStatus.FAIL
    assert result.tree.problem == "the agents module empty_student has no MinimaxAgent"


@pytest.mark.parametrize(("bug", "case", "departure"), [
    ("no_pruning", "alphabeta/01-textbook",
     "E (min2 --Center--> E) is not expected, but your agent generated it; the reference search "
     "stops at min2 after Left: its value 2 < alpha 3, so the rest is pruned"),
    ("equality", "alphabeta/05-tie-with-alpha",
     "n2b (N2 --y--> n2b) is expected, but your agent did not generate it; the reference "
     "search generated it at N2, with alpha 3, beta 3, best so far 3"),
    ("prunes", "minimax/01-textbook",
     "E (min2 --Center--> E) is expected, but your agent did not generate it; the reference "
     "search generated it at min2, with best so far 2"),
    ("too_deep", "minimax/12-depth3-chains",
     "A6 (A5 --s--> A6) is not expected, but your agent generated it; the reference search "
     "does not expand A5 (a leaf: the depth limit, or a won or lost node)"),
])
def test_a_wrong_generated_set_names_the_first_difference(tmp_path: Path, bug: str, case: str,
                                                          departure: str) -> None:
    result = grade([CASES / f"{case}.test"], student(tmp_path, bug)).tests[0]
    assert result.tree.departure == departure
    assert f"             first    {departure}" in format_case(result).splitlines()


def test_no_first_difference_when_the_sets_agree_or_the_agent_crashed(tmp_path: Path) -> None:
    same_set = grade([CASES / "minimax/09-root-tie.test"], student(tmp_path, "tie_last"))
    crashed = grade([CASES / "minimax/01-textbook.test"], student(tmp_path, "raise"))
    for result in (*same_set.tests, *crashed.tests):
        assert result.status is TestStatus.FAIL and result.tree.departure == ""
        assert "  first  " not in format_case(result)
