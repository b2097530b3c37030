"""Issue 27, items 6 and 11: a broken suite is the teacher's mistake, refused in one line.

Each variant starts from a small valid classic suite (tree tests of the example suite: q2 and q3
`PassAllTestsQuestion`, q4 `NumberPassedQuestion`, 14 points), breaks one thing, and expects
`pacman grade` to exit 2 with one stderr line naming the file and the key, before any code is
graded. Before the fix these exited 0 with a question silently at 0 (or 4/0), crashed with a
traceback (a `.test` that is a loop of links), or blamed a correct agent (a `start_state` that is
no node). A byte-order mark, which editors write, is accepted everywhere.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from pacman.cli import main
from pacman.errors import SuiteError, TestCaseError
from pacman.grading import find_suite, grade
from pacman.grading.cases.check import check_tests
from pacman.grading.cases.suite import EXAMPLE_SUITE

QUESTIONS = {"q2": ("PassAllTestsQuestion", 5), "q3": ("PassAllTestsQuestion", 5),
             "q4": ("NumberPassedQuestion", 4)}
BOM = b"\xef\xbb\xbf"
TREE_TEST = "q2/1-one-ghost-depth1.test"


def make_suite(root: Path) -> Path:
    """The small valid suite every variant starts from."""
    root.mkdir()
    (root / "CONFIG").write_text('order: "q2 q3 q4"\n', encoding="utf-8")
    for name, (kind, points) in QUESTIONS.items():
        (root / name).mkdir()
        (root / name / "CONFIG").write_text(f'max_points: "{points}"\nclass: "{kind}"\n',
                                            encoding="utf-8")
        for test in sorted((EXAMPLE_SUITE / name).glob("*.test")):
            if '"GraphGameTreeTest"' in test.read_text(encoding="utf-8"):
                shutil.copy(test, root / name)
                shutil.copy(test.with_suffix(".solution"), root / name)
    return root


def write(relative: str, content: str | bytes) -> Callable[[Path], None]:
    """A change that writes `content` to a file of the suite."""
    def change(root: Path) -> None:
        data = content.encode("utf-8") if isinstance(content, str) else content
        (root / relative).write_bytes(data)
    return change


def points(value: str) -> Callable[[Path], None]:
    return write("q2/CONFIG", f'max_points: "{value}"\nclass: "PassAllTestsQuestion"\n')


def question_class(value: str) -> Callable[[Path], None]:
    return write("q2/CONFIG", f'max_points: "5"\nclass: "{value}"\n')


def order(value: str) -> Callable[[Path], None]:
    return write("CONFIG", f'order: "{value}"\n')


def depends(value: str) -> Callable[[Path], None]:
    return write("q3/CONFIG",
                 f'max_points: "5"\nclass: "PassAllTestsQuestion"\ndepends: "{value}"\n')


def link_loop(relative: str) -> Callable[[Path], None]:
    def change(root: Path) -> None:
        path = root / relative
        if path.exists():
            path.unlink()
        path.symlink_to(path.name)
    return change


def dangling(relative: str) -> Callable[[Path], None]:
    def change(root: Path) -> None:
        path = root / relative
        if path.exists():
            path.unlink()
        path.symlink_to("no-such-file")
    return change


def folder(relative: str) -> Callable[[Path], None]:
    def change(root: Path) -> None:
        path = root / relative
        if path.exists():
            path.unlink()
        path.mkdir()
    return change


def fifo(relative: str) -> Callable[[Path], None]:
    return lambda root: os.mkfifo(root / relative)


def too_large(relative: str) -> Callable[[Path], None]:
    def change(root: Path) -> None:
        with (root / relative).open("r+b") as handle:
            handle.truncate(33 * 2**20)  # sparse: over the 32 MB cap of a test file
    return change


def remove(*relatives: str) -> Callable[[Path], None]:
    def change(root: Path) -> None:
        for relative in relatives:
            path = root / relative
            for found in sorted(path.parent.glob(path.name)):
                found.unlink()
    return change


#: (name, change, the file the error names, what else it says: the key or the reason)
BROKEN: list[tuple[str, Callable[[Path], None], str, str]] = [
    # a question's CONFIG that cannot be read or says nothing
    ("config-empty", write("q2/CONFIG", ""), "q2/CONFIG", "class: missing"),
    ("config-binary", write("q2/CONFIG", bytes(range(256))), "q2/CONFIG", "not UTF-8"),
    ("config-nul-bytes", write("q2/CONFIG", b"\0\0\0\n"), "q2/CONFIG", "cannot parse line"),
    ("config-latin-1", write("q2/CONFIG", 'max_points: "5"\nclass: "PassAllTestsQuestion" # \xe9\n'
                             .encode("latin-1")), "q2/CONFIG", "not UTF-8"),
    ("config-duplicate-key", write("q2/CONFIG", 'max_points: "5"\nmax_points: "6"\n'
                                   'class: "PassAllTestsQuestion"\n'), "q2/CONFIG:2",
     'duplicate key "max_points"'),
    ("config-unterminated", write("q2/CONFIG", 'max_points: """\n5\n'), "q2/CONFIG:1",
     "unterminated block"),
    ("config-loop", link_loop("q2/CONFIG"), "q2/CONFIG", "a loop of symbolic links"),
    ("config-dangling", dangling("q2/CONFIG"), "q2/CONFIG", "no such file"),
    ("config-folder", folder("q2/CONFIG"), "q2/CONFIG", "a folder"),
    ("config-fifo", lambda root: (remove("q2/CONFIG")(root), fifo("q2/CONFIG")(root)),
     "q2/CONFIG", "not a regular file"),
    ("config-missing", remove("q2/CONFIG"), "q2/CONFIG", "no such file"),
    # the question class
    ("class-typo", question_class("PassAllTestsQuestio"), "q2/CONFIG",
     "class: unknown question class 'PassAllTestsQuestio'"),
    ("class-lower-case", question_class("passalltestsquestion"), "q2/CONFIG",
     "class: unknown question class"),
    ("class-empty", question_class(""), "q2/CONFIG", "class: unknown question class ''"),
    ("class-missing", write("q2/CONFIG", 'max_points: "5"\n'), "q2/CONFIG", "class: missing"),
    # the points
    ("points-nan", points("nan"), "q2/CONFIG", "max_points: must be a whole number"),
    ("points-inf", points("inf"), "q2/CONFIG", "max_points: must be a whole number"),
    ("points-negative", points("-1"), "q2/CONFIG", "max_points: must be a whole number"),
    ("points-empty", points(""), "q2/CONFIG", "max_points: must be a whole number"),
    ("points-zero", points("0"), "q2/CONFIG", "max_points: must be a whole number"),
    ("points-23-digits", points("1" * 23), "q2/CONFIG", "max_points: must be a whole number"),
    ("points-float", points("5.0"), "q2/CONFIG", "max_points: must be a whole number"),
    ("points-plus", points("+5"), "q2/CONFIG", "max_points: must be a whole number"),
    ("points-underscore", points("1_0"), "q2/CONFIG", "max_points: must be a whole number"),
    ("points-arabic-digit", points("\u0665"), "q2/CONFIG", "max_points: must be a whole number"),
    ("points-missing", write("q2/CONFIG", 'class: "PassAllTestsQuestion"\n'), "q2/CONFIG",
     "max_points: missing"),
    ("points-below-tests", write("q4/CONFIG", 'max_points: "3"\nclass: "NumberPassedQuestion"\n'),
     "q4/CONFIG", "max_points: 3 is less than the question's 4 tests"),
    # the root CONFIG's order
    ("order-unknown", order("q9"), "CONFIG", "order: question 'q9' has no folder"),
    ("order-one-unknown", order("q2 q3 q9"), "CONFIG", "order: question 'q9' has no folder"),
    ("order-twice", order("q2 q3 q2"), "CONFIG", "order: question 'q2' is listed twice"),
    ("order-empty", order(""), "CONFIG", "order: names no question"),
    ("order-outside", order("q2 ../q3"), "CONFIG", "order: '../q3' is not a folder name"),
    ("order-a-file", order("q2 CONFIG"), "CONFIG", "order: question 'CONFIG' has no folder"),
    ("order-folder-without-config", lambda root: (order("q2 q5")(root), (root / "q5").mkdir()),
     "q5/CONFIG", "no such file"),
    ("root-config-latin-1", write("CONFIG", b'order: "q2 \xe9"\n'), "CONFIG", "not UTF-8"),
    ("root-config-binary", write("CONFIG", bytes(range(128, 256))), "CONFIG", "not UTF-8"),
    ("root-config-loop", link_loop("CONFIG"), "CONFIG", "a loop of symbolic links"),
    ("root-config-folder", folder("CONFIG"), "CONFIG", "a folder"),
    # depends
    ("depends-unknown", depends("q9"), "q3/CONFIG", "depends: no question 'q9'"),
    ("depends-later", depends("q4"), "q3/CONFIG", "depends: question 'q4' is graded after it"),
    ("depends-itself", depends("q3"), "q3/CONFIG", "depends: the question depends on itself"),
    # the test and solution files (item 6)
    ("test-loop", link_loop("q2/0-loop.test"), "q2/0-loop.test", "a loop of symbolic links"),
    ("test-dangling", dangling("q2/0-gone.test"), "q2/0-gone.test", "no such file"),
    ("test-folder", folder("q2/0-folder.test"), "q2/0-folder.test", "a folder"),
    ("test-fifo", fifo("q2/0-fifo.test"), "q2/0-fifo.test", "not a regular file"),
    ("test-latin-1", write(TREE_TEST, b'class: "GraphGameTreeTest" # \xe9\n'), TREE_TEST,
     "not UTF-8"),
    ("test-too-large", too_large(TREE_TEST), TREE_TEST, "too large"),
    ("solution-loop", link_loop("q2/1-one-ghost-depth1.solution"),
     "q2/1-one-ghost-depth1.solution", "a loop of symbolic links"),
    ("solution-folder", folder("q2/1-one-ghost-depth1.solution"),
     "q2/1-one-ghost-depth1.solution", "a folder"),
    ("solution-latin-1", write("q2/1-one-ghost-depth1.solution", b'action: "\xe9"\n'),
     "q2/1-one-ghost-depth1.solution", "not UTF-8"),
    ("question-without-tests", remove("q3/*.test"), "q3", "no .test files"),
]


def grade_cli(*argv: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["grade", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize(("change", "where", "says"),
                         [case[1:] for case in BROKEN], ids=[case[0] for case in BROKEN])
def test_a_broken_suite_is_one_line_and_exit_2_before_grading(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        change: Callable[[Path], None], where: str, says: str) -> None:
    root = make_suite(tmp_path / "suite")
    change(root)
    monkeypatch.chdir(tmp_path)
    code, out, err = grade_cli("suite", "--builtin", "--in-process", capsys=capsys)
    lines = err.splitlines()
    assert (code, len(lines)) == (2, 1), err
    assert lines[0].startswith(f"pacman: error: suite/{where}"), lines[0]
    assert says in lines[0], lines[0]
    assert out == ""  # nothing was graded


def test_the_broken_variants_are_many_and_distinct() -> None:
    assert len(BROKEN) >= 46 and len({case[0] for case in BROKEN}) == len(BROKEN)


def test_a_symlink_loop_test_stops_the_isolated_grader_before_it_starts(tmp_path: Path) -> None:
    """Item 6 as reported: the default (isolated) grader printed three PASS lines, then a
    `RuntimeError: Symlink loop` traceback, and exited 0 or 1."""
    root = make_suite(tmp_path / "suite")
    link_loop("q3/0-loop.test")(root)
    done = subprocess.run([sys.executable, "-m", "pacman", "grade", "suite", "--builtin"],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.splitlines() == [
        "pacman: error: suite/q3/0-loop.test: cannot read file: a loop of symbolic links"]
    assert done.stdout == ""


def test_the_first_problem_is_named_with_the_count_of_the_others(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = make_suite(tmp_path / "suite")
    write("q2/CONFIG", 'max_points: "nan"\nclass: "Nope"\n')(root)  # its class is named
    write("q4/CONFIG", "")(root)
    link_loop("q3/0-loop.test")(root)
    code, _, err = grade_cli(str(root), "--builtin", "--in-process", capsys=capsys)
    assert code == 2
    assert err.splitlines() == [
        f"pacman: error: {root}/q2/CONFIG: class: unknown question class 'Nope' (known: "
        "PassAllTestsQuestion, PartialCreditQuestion, NumberPassedQuestion) (and 2 more "
        "problems in the suite)"]


def test_only_the_questions_graded_are_checked(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    root = make_suite(tmp_path / "suite")
    points("nan")(root)
    code, out, err = grade_cli(str(root), "--builtin", "--in-process", "-q", "q3",
                               capsys=capsys)
    assert (code, err) == (0, "")
    assert "### Question q3: 5/5 ###" in out and "Total: 5/5" in out


def test_the_library_records_the_problem_and_grade_refuses(tmp_path: Path) -> None:
    root = make_suite(tmp_path / "suite")
    points("inf")(root)
    suite = find_suite([root])
    assert suite.problems == (
        f"{root}/q2/CONFIG: max_points: must be a whole number from 1 to 10000, got 'inf'",)
    with pytest.raises(SuiteError, match="max_points"):
        suite.check()
    with pytest.raises(SuiteError, match="max_points"):
        grade([root])


@pytest.mark.parametrize("where", ["own-cases", "chosen-test"])
def test_a_loop_of_links_among_own_cases_or_chosen_is_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str) -> None:
    cases = tmp_path / "cases"
    cases.mkdir()
    for name in ("01-textbook.test", "01-textbook.solution"):
        shutil.copy(Path(__file__).parents[1] / "cases" / "minimax" / name, cases)
    link_loop("cases/02-loop.test")(tmp_path)
    argv = [str(cases)] if where == "own-cases" else ["-t", str(cases / "02-loop.test")]
    code, out, err = grade_cli(*argv, "--builtin", "--in-process", capsys=capsys)
    assert (code, out) == (2, "")
    assert err.splitlines() == [
        f"pacman: error: {cases}/02-loop.test: cannot read file: a loop of symbolic links"]


# --- what stays valid --------------------------------------------------------------------------


def with_bom(relative: str) -> Callable[[Path], None]:
    def change(root: Path) -> None:
        path = root / relative
        path.write_bytes(BOM + path.read_bytes())
    return change


VALID: list[tuple[str, Callable[[Path], None]]] = [
    ("unchanged", lambda root: None),
    ("bom-in-question-config", with_bom("q2/CONFIG")),
    ("bom-in-root-config", with_bom("CONFIG")),
    ("bom-in-test", with_bom(TREE_TEST)),
    ("bom-in-solution", with_bom("q2/1-one-ghost-depth1.solution")),
    ("crlf-config", write("q2/CONFIG", 'max_points: "5"\r\nclass: "PassAllTestsQuestion"\r\n')),
    ("no-order", write("CONFIG", "")),  # every folder with a CONFIG, in name order
    ("points-padded", points(" 5 ")),
    ("number-passed-at-its-tests", write("q4/CONFIG",
                                         'max_points: "4"\nclass: "NumberPassedQuestion"\n')),
    ("depends-earlier", depends("q2")),
]


@pytest.mark.parametrize("change", [case[1] for case in VALID], ids=[case[0] for case in VALID])
def test_a_valid_suite_grades_exactly_as_before(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        change: Callable[[Path], None]) -> None:
    root = make_suite(tmp_path / "suite")
    change(root)
    monkeypatch.chdir(tmp_path)
    code, out, err = grade_cli("suite", "--builtin", "--in-process", capsys=capsys)
    assert (code, err) == (0, "")
    questions = [line for line in out.splitlines() if line.startswith(("### Question", "***"))]
    assert questions == [
        "*** PASS: suite/q2/1-one-ghost-depth1.test",
        "*** PASS: suite/q2/2-two-ghosts-depth1.test",
        "*** PASS: suite/q2/3-one-ghost-depth2.test",
        "*** PASS: suite/q2/4-terminal-states.test",
        "### Question q2: 5/5 ###",
        "*** PASS: suite/q3/1-prune-one-ghost.test",
        "*** PASS: suite/q3/2-equal-alpha.test",
        "*** PASS: suite/q3/3-equal-beta.test",
        "*** PASS: suite/q3/4-two-ghosts-depth1.test",
        "*** PASS: suite/q3/5-one-ghost-depth2.test",
        "### Question q3: 5/5 ###",
        "*** PASS: suite/q4/1-chance-one-ghost.test",
        "*** PASS: suite/q4/2-chance-two-ghosts.test",
        "*** PASS: suite/q4/3-chance-depth2.test",
        "*** PASS: suite/q4/4-chance-terminals.test",
        "### Question q4: 4/4 ###"]
    assert out.rstrip().endswith("Total: 14/14")


# --- a start_state that is no node: the test's mistake, not the agent's ---------------------------


START_STATES = [("not-a-node", "nowhere", 'start_state "nowhere" has no line in successors'),
                ("a-leaf", "A", 'start_state "A" has no line in successors'),
                ("a-won-node", "W1", 'start_state "W1" is a won or lost node')]


def start_state_case(folder: Path, start: str) -> Path:
    """tests/cases/minimax/14-all-terminal.test with another root."""
    folder.mkdir(parents=True, exist_ok=True)
    source = Path(__file__).parents[1] / "cases" / "minimax" / "14-all-terminal"
    test = folder / "01-root.test"
    test.write_text(source.with_suffix(".test").read_text(encoding="utf-8").replace(
        'start_state: "root"', f'start_state: "{start}"'), encoding="utf-8")
    shutil.copy(source.with_suffix(".solution"), test.with_suffix(".solution"))
    return test


@pytest.mark.parametrize(("start", "says"), [case[1:] for case in START_STATES],
                         ids=[case[0] for case in START_STATES])
def test_a_start_state_without_a_move_is_an_error_of_the_test(
        tmp_path: Path, start: str, says: str) -> None:
    """Before: the correct agent was marked crashed ("the agent raised ValueError")."""
    test = start_state_case(tmp_path, start)
    report = grade([test])
    result = report.tests[0]
    assert result.status.value == "error"
    assert result.messages == (f"{test}:6: {says}" + (
        ": the game is over before the agent moves" if "won" in says
        else ": the agent would have no action to choose"),)
    with pytest.raises(TestCaseError, match=says):
        from pacman.grading.cases.parser import load_case
        load_case(test)


def test_a_start_state_without_a_move_stops_a_class_before_grading(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = make_suite(tmp_path / "suite")
    test = root / TREE_TEST
    test.write_text(test.read_text(encoding="utf-8").replace(
        'start_state: "root"', 'start_state: "nowhere"'), encoding="utf-8")
    with pytest.raises(SuiteError, match=f"^{test}:[0-9]+: start_state \"nowhere\""):
        check_tests(find_suite([root]))
    (tmp_path / "class").mkdir()
    (tmp_path / "class" / "student.py").write_text("raise SystemExit('never imported')\n",
                                                   encoding="utf-8")
    code, out, err = grade_cli(str(root), "--submissions", str(tmp_path / "class"),
                               "-o", str(tmp_path / "grades"), capsys=capsys)
    assert code == 2 and out == ""
    assert err.splitlines() == [
        f"pacman: error: {test}:17: start_state \"nowhere\" has no line in successors: the "
        "agent would have no action to choose"]
    assert not (tmp_path / "grades").exists()


def test_a_class_is_checked_test_by_test_and_the_example_suite_passes(tmp_path: Path) -> None:
    check_tests(find_suite([EXAMPLE_SUITE]))  # every class of test, with its solution
    root = make_suite(tmp_path / "suite")
    for name in ("q2/2-two-ghosts-depth1.test", "q3/1-prune-one-ghost.test"):
        write(name, 'class: "GraphGameTreeTest"\nbad\n')(root)
    with pytest.raises(SuiteError) as caught:
        check_tests(find_suite([root]))
    assert str(caught.value) == (
        f"{root}/q2/2-two-ghosts-depth1.test:2: cannot parse line 'bad' (expected key: "
        '"value" or key: """) (and 1 more broken test)')
