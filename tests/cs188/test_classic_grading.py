"""The classic autograder, checked against what the classic CS188 grader says and does.

`classic_expected.json` and every `.solution` of the shipped suite were produced by the classic
autograder itself (see ORACLE.md); here our grader must agree with them: the points of every
submission, which tests fail, the solution files byte for byte, and the explored counts.
"""

from __future__ import annotations

import csv
import json
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from classroom import CORRECT, EXPECTED, SUBMISSIONS, SUITE, build_class

from pacman.errors import GhostSpecError, SuiteError
from pacman.grading.cases.game_case import load_solution, load_test
from pacman.grading.cases.ghost_spec import GhostSpec, parse_ghosts
from pacman.grading.cases.parser import parse_file, solution_path
from pacman.grading.cases.solutions import generate_solutions
from pacman.grading.cases.suite import find_suite
from pacman.grading.reference.diagnostics import HINTS
from pacman.grading.reference.staff import staff_search
from pacman.grading.reports.results import QuestionResult, TestStatus
from pacman.grading.running.classic_game import play_classic_game
from pacman.grading.running.contestant import Contestant
from pacman.grading.running.session import grade_suite
from pacman.state import GameState

#: the hint our grader must give each buggy submission somewhere in its report
HINT_OF = {
    "prune_on_equality": HINTS["equality"],
    "no_root_alpha": HINTS["no_root_alpha"],
    "depth_off_by_one": HINTS["too_shallow"],
    "partial_ply": HINTS["partial_ply"],
    "chance_as_min": HINTS["as_minimax"],
    "eval_generates": "generates states a correct one does not",
    "eval_calls_successor": "generates states a correct one does not",
}
FAILING = (TestStatus.FAIL, TestStatus.PARTIAL, TestStatus.CRASH, TestStatus.TIMEOUT)


def grade(submission: Path) -> list[QuestionResult]:
    return grade_suite(find_suite([SUITE]), Contestant(submission))


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_submission_gets_what_the_classic_grader_gives(name: str) -> None:
    questions = grade(SUBMISSIONS / name / "multiAgents.py")
    expected: dict[str, Any] = EXPECTED[name]
    assert {q.name: q.points for q in questions} == expected["points"]
    ours = {t.test.removeprefix("test_cases/"): t for q in questions for t in q.tests
            if t.status in FAILING}
    assert set(ours) == {f["test"] for f in expected["failures"]}
    for failure in expected["failures"]:
        text = "\n".join(ours[failure["test"]].messages)
        for phrase in ("Wrong number of states expanded", "Suboptimal moves"):
            if any(phrase in m for m in failure["messages"]):
                assert phrase in text, text
        if any(m.startswith("Incorrect move") for m in failure["messages"]):
            assert "action:    expected" in text, text
    if name in HINT_OF:
        everything = "\n".join(m for q in questions for t in q.tests for m in t.messages)
        assert HINT_OF[name] in everything


def test_generated_solutions_are_the_classic_graders_byte_for_byte(tmp_path: Path) -> None:
    copy = tmp_path / "test_cases"
    shutil.copytree(SUITE, copy)
    for solution in copy.rglob("*.solution"):
        solution.unlink()
    written = generate_solutions(find_suite([copy]))
    assert all(not w.error for w in written) and len(written) == len(list(SUITE.rglob("*.test")))
    for original in SUITE.rglob("*.solution"):
        ours = copy / original.relative_to(SUITE)
        assert ours.read_bytes() == original.read_bytes(), original.name


def _game_tests() -> list[Path]:
    return sorted(SUITE.glob("q*/*-game.test"))


@pytest.mark.parametrize("test_path", _game_tests(), ids=lambda p: p.parent.name)
def test_explored_counts_agree_three_ways_along_the_recorded_game(test_path: Path) -> None:
    """At every move of the recorded game: the classic grader's count (in the solution), our
    staff search's own count, and a student's agent counted through the camelCase state."""
    spec = load_test(parse_file(test_path))
    steps = load_solution(parse_file(solution_path(test_path)))
    student = Contestant(CORRECT).game_agent(spec.alg, spec.depth)

    class Checker:
        step = 0

        def register_initial_state(self, state: GameState) -> None:
            random.seed(spec.seed)

        def get_action(self, state: GameState) -> str:
            recorded = steps[self.step]
            staff = staff_search(state, spec.depth, spec.alg, keep_stop=True)
            without = staff_search(state, spec.depth, spec.alg, keep_stop=False)
            action, counted = student.move(state)
            assert (staff.explored, without.explored) == (recorded.optimal[0][1],
                                                          recorded.optimal[1][1])
            assert counted == staff.explored
            assert list(staff.actions) == list(recorded.optimal[0][0])
            assert action in recorded.optimal[0][0]
            self.step += 1
            random.seed(spec.seed + self.step)
            return recorded.optimal[0][0][0]

    from pacman.cs188.agent import StudentAgent
    from pacman.cs188.modules.ghostAgents import DirectionalGhost

    checker = Checker()
    random.seed(spec.seed)
    game = play_classic_game(spec.layout, [checker, *(StudentAgent(DirectionalGhost(i))
                                                      for i in (1, 2))], None)
    assert checker.step == len(steps) == 146
    assert (game.state.is_lose(), game.state.score) == (True, 84)


@pytest.mark.parametrize("test_path", _game_tests(), ids=lambda p: p.parent.name)
def test_a_game_test_plays_through_the_one_game_loop(test_path: Path) -> None:
    """The grader's classic games are `run_game`'s (`classic=True`): a game test played through
    the grader's entry and through `run_game` itself makes the moves the classic autograder
    recorded, with the explored counts it recorded, move for move."""
    from pacman.cs188.agent import StudentAgent
    from pacman.cs188.modules.ghostAgents import DirectionalGhost
    from pacman.game import run_game
    from pacman.limits import TimeLimits

    spec = load_test(parse_file(test_path))
    steps = load_solution(parse_file(solution_path(test_path)))

    class Student:
        """The correct submission along the recorded game, re-seeding as the grader does."""

        def __init__(self) -> None:
            self.agent = Contestant(CORRECT).game_agent(spec.alg, spec.depth)
            self.moves: list[tuple[str, int]] = []

        def register_initial_state(self, state: GameState) -> None:
            self.agent.register_initial_state(state)
            random.seed(spec.seed)

        def get_action(self, state: GameState) -> str:
            action, explored = self.agent.move(state)
            self.moves.append((str(action), explored))
            random.seed(spec.seed + len(self.moves))
            return steps[len(self.moves) - 1].optimal[0][0][0]

    def ghosts() -> list[StudentAgent]:
        return [StudentAgent(DirectionalGhost(i)) for i in (1, 2)]

    played = []
    for through in ("grader", "run_game"):
        student = Student()
        random.seed(spec.seed)
        if through == "grader":
            game = play_classic_game(spec.layout, [student, *ghosts()], 120.0)
            assert not game.crashed and game.pacman_moves == len(steps)
        else:
            record = run_game(spec.layout, student, ghosts(), classic=True,
                              limits=TimeLimits.classic(120.0))
            assert record.fault is None and record.pacman_moves == len(steps)
        played.append(student.moves)
    assert played[0] == played[1]
    assert [explored for _, explored in played[0]] == [step.optimal[0][1] for step in steps]
    assert all(action in step.optimal[0][0] for (action, _), step in zip(played[0], steps))


@pytest.mark.parametrize(("text", "ghosts"), [
    ("[RandomGhost(1)]", [GhostSpec("RandomGhost", 1)]),
    ("[DirectionalGhost(1), DirectionalGhost(2),]",
     [GhostSpec("DirectionalGhost", 1), GhostSpec("DirectionalGhost", 2)]),
    ("[ DirectionalGhost( 2 , prob_attack = 0.9 ) ]",
     [GhostSpec("DirectionalGhost", 2, (("prob_attack", 0.9),))]),
    ("[]", []),
])
def test_the_ghosts_field_grammar(text: str, ghosts: list[GhostSpec]) -> None:
    assert parse_ghosts(text) == ghosts


@pytest.mark.parametrize("text", [
    "[__import__('os').system('touch PWNED')]", "[RandomGhost(1)] + [RandomGhost(2)]",
    "[RandomGhost(0)]", "[RandomGhost(1.5)]", "[Ghost(1)]", "[RandomGhost(1, x=2)]",
    "RandomGhost(1)", "[RandomGhost(1)", "[RandomGhost(1) RandomGhost(2)]",
    "[DirectionalGhost(1, prob_attack=open('x'))]", "[lambda: 1]"])
def test_anything_else_in_the_ghosts_field_is_an_error(text: str) -> None:
    with pytest.raises(GhostSpecError):
        parse_ghosts(text)


def test_no_field_of_a_test_file_is_executed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                             ) -> None:
    suite = tmp_path / "test_cases"
    shutil.copytree(SUITE, suite)
    test = suite / "q1" / "1-reflex-openclassic.test"
    marker = tmp_path / "PWNED"
    test.write_text(test.read_text().replace(
        'ghosts: "[RandomGhost(1)]"', f'ghosts: "[__import__(\'os\').system(\'touch {marker}\')]"'))
    monkeypatch.chdir(tmp_path)
    questions = grade_suite(find_suite([suite]).select(["q1"]), Contestant(CORRECT))
    result = questions[0].tests[0]
    assert result.status is TestStatus.ERROR and questions[0].points == 0
    assert "ghosts: unexpected" in result.messages[0] and ".test:9:" in result.messages[0]
    assert not marker.exists()


def test_bad_suites_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(SuiteError, match="no such test"):
        find_suite([tmp_path / "missing"])
    with pytest.raises(SuiteError, match=r"no \.test files"):
        find_suite([tmp_path])
    with pytest.raises(SuiteError, match="no question 'q9'"):
        find_suite([SUITE]).select(["q9"])
    broken = tmp_path / "broken"
    shutil.copytree(SUITE, broken)
    (broken / "q2" / "CONFIG").write_text('class: "NoSuchQuestion"\nmax_points: "5"\n')
    suite = find_suite([broken])
    question = next(q for q in suite.questions if q.name == "q2")
    assert "unknown question class 'NoSuchQuestion'" in question.problem


def run_cli(*argv: str, cwd: Path | None = None, timeout: float = 300
            ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pacman", *argv], capture_output=True,
                          text=True, timeout=timeout, cwd=cwd)


def test_one_submission_from_the_command_line(tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    gradescope = tmp_path / "results.json"
    done = run_cli("grade", str(SUITE), "--agents", str(CORRECT), "--json", str(out),
                   "--gradescope-output", str(gradescope))
    assert done.returncode == 0, done.stderr
    assert "### Question q3: 5/5 ###" in done.stdout and "Total: 25/25" in done.stdout
    report = json.loads(out.read_text())
    assert report["total"] == 25 and len(report["questions"]) == 5
    results = json.loads(gradescope.read_text())
    assert results["score"] == 25
    assert [(t["name"], t["score"], t["max_score"]) for t in results["tests"]] == [
        ("Question q1", 4, 4), ("Question q2", 5, 5), ("Question q3", 5, 5),
        ("Question q4", 5, 5), ("Question q5", 6, 6)]


def test_lost_points_are_not_a_grader_failure_unless_strict() -> None:
    buggy = SUBMISSIONS / "prune_on_equality" / "multiAgents.py"
    done = run_cli("grade", str(SUITE), "--agents", str(buggy), "-q", "q3")
    assert done.returncode == 0 and "### Question q3: 0/5 ###" in done.stdout
    strict = run_cli("grade", str(SUITE), "--agents", str(buggy), "-q", "q3", "--strict")
    assert strict.returncode == 1


def test_the_classic_habit_grades_test_cases_with_multiagents_py_here(tmp_path: Path) -> None:
    shutil.copytree(SUITE, tmp_path / "test_cases")
    shutil.copy(CORRECT, tmp_path / "multiAgents.py")
    (tmp_path / "pacman.py").write_text("raise SystemExit('classic pacman.py imported')\n")
    command = shutil.which("pacman", path=str(Path(sys.executable).parent))
    assert command is not None
    done = subprocess.run([command, "grade", "-q", "q2"], capture_output=True, text=True,
                          timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "grading ./multiAgents.py" in done.stderr and "Total: 5/5" in done.stdout


def test_a_broken_test_file_is_one_error_and_the_run_goes_on(tmp_path: Path) -> None:
    suite = tmp_path / "test_cases"
    shutil.copytree(SUITE, suite)
    (suite / "q2" / "2-two-ghosts-depth1.test").write_text('class: "GraphGameTreeTest"\nbad\n')
    done = run_cli("grade", str(suite), "--agents", str(CORRECT), "-q", "q2", "-q", "q3")
    assert done.returncode == 1
    assert "ERROR: test_cases/q2/2-two-ghosts-depth1.test" in done.stdout
    assert "2-two-ghosts-depth1.test:2: cannot parse line" in done.stdout
    assert "### Question q3: 5/5 ###" in done.stdout


def test_a_class_of_thirty_grades_in_one_command(tmp_path: Path) -> None:
    expected = build_class(tmp_path / "class")
    out = tmp_path / "grades"
    done = run_cli("grade", str(SUITE), "--submissions", str(tmp_path / "class"), "-j", "2",
                   "--test-timeout", "20", "--question-timeout", "60", "--memory-mb", "1024",
                   "-o", str(out), "--gradescope", timeout=600)
    assert done.returncode == 0, done.stderr
    assert "student01: Total: 25/25" in done.stdout and "bug_no_root_alpha: Total: 20/25" in (
        done.stdout)
    rows = {row["student"]: row for row in csv.DictReader((out / "grades.csv").open())}
    reports = {r["submission"]: r for r in json.loads((out / "grades.json").read_text())}
    assert set(rows) == set(reports) == set(expected)
    for name, expectation in expected.items():
        points = {q: int(rows[name][q]) for q in expectation.points}
        assert points == expectation.points, name
        report = reports[name]
        assert report["error"].find(expectation.error) >= 0 if expectation.error else (
            not report["error"]), (name, report["error"])
        for question, phrase in expectation.reasons.items():
            text = json.dumps(next(q for q in report["questions"] if q["name"] == question))
            assert phrase in text, (name, question)
        assert (out / "reports" / f"{name}.txt").is_file()
        assert json.loads((out / "gradescope" / f"{name}.json").read_text())["score"] == (
            sum(expectation.points.values()))
    assert "chatty chatty" in reports["prints_a_lot"]["output"]
    assert "left out" in reports["prints_a_lot"]["output"]  # kept bounded
    assert "chatty" not in done.stdout and "chatty" not in done.stderr


def test_our_own_cases_from_the_command_line() -> None:
    cases = Path(__file__).parents[1] / "cases"
    done = run_cli("grade", str(cases), "--agents", str(CORRECT))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().endswith("42 passed, 0 failed")
    buggy = SUBMISSIONS / "prune_on_equality" / "multiAgents.py"
    failed = run_cli("grade", str(cases / "alphabeta"), "--agents", str(buggy))
    assert failed.returncode == 1
    assert HINTS["equality"] in failed.stdout and "15 passed" not in failed.stdout
