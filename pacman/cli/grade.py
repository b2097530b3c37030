"""`pacman grade`: the autograder, for one submission or a whole class."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from pacman.cli.options import non_negative_int, positive_int, seconds
from pacman.errors import PacmanError, UsageError

if TYPE_CHECKING:  # the grader is imported when a command grades, not to build the parser
    from pacman.cli.options import Commands
    from pacman.grading.cases.suite import Suite
    from pacman.grading.reports.results import SubmissionReport, TestResult
    from pacman.grading.running.isolated import HardLimits

DESCRIPTION = """\
Grade search agents with autograder test cases: a classic CS188 test_cases/ folder (CONFIG files,
questions, points; GraphGameTreeTest, PacmanGameTreeTest and EvalAgentTest), or folders of this
project's own tree cases. Student code runs unmodified (a CS188 multiAgents.py works as it is),
in a process of its own that reports what it did to a referee process that never runs it: the
referee checks every report, plays, counts and computes the points, so nothing the code does
changes a grade. Hard limits: a test over --test-timeout or a question over --question-timeout
is killed and scores 0, and sys.exit, os._exit, crashes and memory hogs are recorded as that
submission's crash. On Linux, that process is a sandbox where the machine allows one (its own
namespaces, a private copy of the submission, no privileges, no network, no files of yours);
where it cannot be built, the grader says so in one line and the code runs with your rights.

The suite is checked before any code runs: a CONFIG that cannot be read, an unknown question
class, max_points that is not a whole number from 1 to 10000, an order or depends naming no
question, a question without tests, or a .test/.solution file that cannot be read (not a
regular file, a loop of links, too large, not UTF-8) is one line and exit status 2. With
--submissions, what every test says is checked too, so a broken test stops the run before any
student is graded.

exit status: 0 when grading ran, whatever the points; 1 when a test file is broken, when one of
this project's own cases (no points) fails, or with --strict when a point is lost; 2 when the
grader could not run (a usage error, no tests, a broken suite)."""


def add_parser(commands: Commands) -> None:
    """The `grade` subcommand."""
    grade = commands.add_parser(
        "grade", help="grade agents with autograder test cases (classic CS188 suites too)",
        description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter)
    grade.add_argument("paths", nargs="*", metavar="PATH",
                       help="a test_cases folder, a question folder, folders of cases or "
                            ".test files (default: ./test_cases)")
    grade.add_argument("--test-directory", dest="test_directory", default=None,
                       metavar="DIR", help="the same as PATH (the classic spelling)")
    grade.add_argument("--example", action="store_true",
                       help="use the example suite that ships with pacman (q1-q5 in the "
                            "classic format: every test class, 25 points)")
    grade.add_argument("--copy-to", default=None, metavar="DIR",
                       help="with --example: copy the example suite to DIR (to start your "
                            "own) and stop")
    who = grade.add_mutually_exclusive_group()
    who.add_argument("--agents", "--student-code", dest="agents", default=None,
                     metavar="FILE.py",
                     help="the code to grade: a .py file or a module (default: "
                          "./multiAgents.py if there is one, else the built-in agents)")
    who.add_argument("--builtin", action="store_true",
                     help="grade the built-in agents even if ./multiAgents.py exists")
    who.add_argument("--submissions", default=None, metavar="DIR",
                     help="grade a class: every folder (holding --agents-file) or .py file "
                          "in DIR")
    grade.add_argument("-q", "--question", action="append", default=None, metavar="Q",
                       help="grade only this question (repeatable), e.g. -q q2")
    grade.add_argument("-t", "--test", action="append", default=None, metavar="TEST",
                       help="run only this test file (repeatable)")
    grade.add_argument("--agents-file", default="multiAgents.py", metavar="NAME",
                       help="the file to grade in each submission folder (default "
                            "multiAgents.py)")
    grade.add_argument("-j", "--jobs", type=positive_int, default=1,
                       help="submissions graded at once (default 1)")
    grade.add_argument("-o", "--out", default="grades", metavar="DIR",
                       help="with --submissions: where grades.csv, grades.json and reports/ "
                            "go (default grades/)")
    grade.add_argument("--gradescope", action="store_true",
                       help="with --submissions: also write OUT/gradescope/NAME.json")
    grade.add_argument("--json", default=None, metavar="FILE",
                       help="write the full report as JSON")
    grade.add_argument("--gradescope-output", default=None, metavar="FILE",
                       help="write Gradescope's results.json format")
    grade.add_argument("--generate-solutions", action="store_true",
                       help="write every test's .solution with the reference agents, then stop")
    grade.add_argument("--test-timeout", type=seconds, default=None, metavar="S",
                       help="hard wall-time limit per test, agent tests included (without it: "
                            "120 s, and an agent test may run as long as its classic numGames "
                            "x maxTime, as in CS188)")
    grade.add_argument("--question-timeout", type=seconds, default=None, metavar="S",
                       help="hard wall-time limit per question (without it: 300 s, grown by "
                            "what its agent tests' classic limits add)")
    grade.add_argument("--student-timeout", type=seconds, default=None, metavar="S",
                       help="hard wall-time limit per submission, every question and restart "
                            "included (default: none); the questions left are not run")
    grade.add_argument("--memory-mb", type=non_negative_int, default=2048, metavar="MB",
                       help="address-space cap of the graded code, 0 for none (default 2048)")
    grade.add_argument("--in-process", action="store_true",
                       help="run the graded code in this process: no hard limits, for a "
                            "debugger")
    grade.add_argument("--agent-random", choices=("shared", "own"), default="shared",
                       help="where an agent test's agent draws its random numbers: the "
                            "ghosts' stream, as the classic grader (default: the classic "
                            "games and points), or a stream of its own, which no submission "
                            "can use to steer the random ghosts (other games: points that "
                            "rest on luck may differ from the classic grader's)")
    grade.add_argument("--strict", action="store_true",
                       help="exit with 1 when any point is lost, and make a game test whose "
                            "solution was recorded with another seed, layout or ghosts an "
                            "error (by default it is graded as the classic grader grades it, "
                            "with a warning)")
    grade.add_argument("-v", "--verbose", action="store_true",
                       help="print passing tests' messages too")
    grade.add_argument("--explain", default=None, metavar="DIR",
                       help="for each failing tree test, write the tree view of the agent "
                            "beside the expected search (HTML, see `pacman explain`) into DIR "
                            "and name it on the test's line (the agent runs once more for it, "
                            "in a process of its own)")
    grade.add_argument("--no-graphics", "--mute", dest="quiet_habit", action="store_true",
                       help=argparse.SUPPRESS)


def _paths(args: argparse.Namespace) -> list[str]:
    paths = list(args.paths)
    if args.example:
        from pacman.grading.cases.suite import EXAMPLE_SUITE

        paths.append(str(EXAMPLE_SUITE))
    if args.test_directory:
        paths.append(args.test_directory)
    if args.test:
        if paths:
            raise UsageError("give either test folders or -t/--test files, not both")
        paths = [t if t.endswith(".test") or Path(t).is_file() else f"{t}.test"
                 for t in args.test]
    if not paths:
        if not Path("test_cases").is_dir():
            raise UsageError("no tests: give a folder of tests (e.g. pacman grade test_cases)")
        paths = ["test_cases"]
    return paths


def _warn_without_sandbox() -> None:
    """The one line that says what is off where this machine cannot build the sandbox that
    student code runs in (said once the command is sure to run such code)."""
    from pacman.hosting import sandbox

    warning = sandbox.limitation()
    if warning:
        print(f"pacman: {warning}", file=sys.stderr)


def _agents(args: argparse.Namespace) -> str | None:
    if args.builtin:
        return None
    if args.agents:
        agents = str(args.agents)
        if (agents.endswith(".py") or "/" in agents) and not Path(agents).is_file():
            raise UsageError(f"no such agents file: {agents}")
        return agents
    if Path("multiAgents.py").is_file():
        print("pacman: grading ./multiAgents.py (--builtin grades the built-in agents)",
              file=sys.stderr)
        return "multiAgents.py"
    return None


def run(args: argparse.Namespace) -> int:
    """`pacman grade`: grade and print; see DESCRIPTION for the exit status."""
    from pacman.grading.cases.suite import find_suite
    from pacman.grading.running.isolated import DEFAULT_LIMITS, HardLimits

    if args.copy_to:
        return _copy_example(args)
    suite = find_suite(_paths(args))
    if args.question:
        suite = suite.select(args.question)
    suite.check()  # a broken suite is the teacher's: one line, before any code runs
    if args.generate_solutions:
        return _generate(suite)
    from dataclasses import replace

    from pacman.grading.cases.check import solution_warnings

    for line in solution_warnings(suite):  # the teacher's to fix: said once, before grading
        print(line, file=sys.stderr, flush=True)
    suite = replace(suite, strict=args.strict)
    limits = HardLimits(
        args.test_timeout or DEFAULT_LIMITS.test_seconds,
        args.question_timeout or DEFAULT_LIMITS.question_seconds, args.memory_mb or None,
        hard_test=args.test_timeout is not None, hard_question=args.question_timeout is not None,
        student_seconds=args.student_timeout)
    if args.submissions:
        if args.explain:
            raise UsageError("--explain writes tree views for one submission, not with "
                             "--submissions")
        return _grade_class(args, suite, limits)
    return _grade_one(args, suite, None if args.in_process else limits)


def _duration(seconds: float) -> str:
    """`45 s`, `12.5 min`, `3.2 h`."""
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.1f} min"
    return f"{seconds / 3600:.1f} h"


def _copy_example(args: argparse.Namespace) -> int:
    import shutil

    from pacman.grading.cases.suite import EXAMPLE_SUITE

    if not args.example:
        raise UsageError("--copy-to copies the example suite: give --example too")
    target = Path(args.copy_to)
    if target.exists():
        raise UsageError(f"{target} exists already: --copy-to makes a new folder")
    try:
        shutil.copytree(EXAMPLE_SUITE, target, ignore=shutil.ignore_patterns("__pycache__"))
    except OSError as error:
        raise UsageError(f"cannot copy the example suite to {target}: {error}") from None
    print(f"copied the example suite to {target}: edit its tests, then "
          f"`pacman grade {target} --generate-solutions`")
    return 0


def _generate(suite: Suite) -> int:
    from pacman.grading.cases.solutions import generate_solutions

    broken = 0
    for written in generate_solutions(suite):
        if written.error:
            broken += 1
            print(f"ERROR {written.error}")
        else:
            print(f"wrote {written.path}")
    return 1 if broken else 0


def _grade_one(args: argparse.Namespace, suite: Suite, limits: HardLimits | None) -> int:
    """One submission, printed as it goes (`limits` None: in this process)."""
    from pacman.grading.reports import formats as fmt
    from pacman.grading.reports.results import QuestionResult
    from pacman.grading.running.submission import grade_submission

    agents = _agents(args)
    shown: set[str] = set()
    views = _TreeViews(args.explain, suite, agents) if args.explain else None
    if agents is not None and limits is not None:
        _warn_without_sandbox()

    def view(result: TestResult) -> str:
        return views.page(result) if views is not None else ""

    def on_test(question: str, result: TestResult) -> None:
        if not suite.classic or suite.chosen_tests:
            return
        if question not in shown:
            shown.add(question)
            print(fmt.format_question_start(question))
        print(fmt.format_test(result, args.verbose, view(result)), flush=True)

    def on_question(result: QuestionResult) -> None:
        if not suite.classic or suite.chosen_tests:
            return
        if result.name not in shown:
            shown.add(result.name)
            print(fmt.format_question_start(result.name))
            for test in result.tests:
                print(fmt.format_test(test, args.verbose, view(test)))
        print(fmt.format_question_end(result), flush=True)

    report = grade_submission(suite, agents, limits, on_test=on_test, on_question=on_question,
                              agent_random=args.agent_random)
    if report.output:
        print("--- what the graded code printed " + "-" * 30)
        print(report.output.rstrip("\n"))
        print("-" * 63)
    if report.error:
        print(f"pacman: the submission could not be graded: {report.error}")
    points = suite.classic and not suite.chosen_tests
    print(fmt.format_totals(report) if points else fmt.format_own_cases(
        report, {test.test: view(test) for test in report.tests}))
    if args.json:
        Path(args.json).write_text(json.dumps(report.to_dict(), indent=1) + "\n",
                                   encoding="utf-8")
        print(f"wrote {args.json}")
    if args.gradescope_output:
        Path(args.gradescope_output).write_text(
            json.dumps(fmt.gradescope_results(report), indent=1) + "\n", encoding="utf-8")
        print(f"wrote {args.gradescope_output}")
    return _status(report, points, args.strict)


class _TreeViews:
    """`--explain DIR`: the tree view page of each failing tree test, written once."""

    def __init__(self, folder: str, suite: Suite, agents: str | None) -> None:
        from pacman.grading.running.session import relative_name

        self.folder = Path(folder)
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise UsageError(f"--explain: cannot make {folder}: "
                             f"{error.strerror or error}") from None
        self.agents = agents
        self.paths = {relative_name(suite, path): path for path in suite.tests}
        self.written: dict[str, str] = {}

    def page(self, result: TestResult) -> str:
        """The page's path for a failing tree test ("" for any other test)."""
        from pacman.grading.cases.tree_case import CLASS
        from pacman.grading.reports.results import TestStatus

        if (result.test_class != CLASS or result.test not in self.paths
                or result.status in (TestStatus.PASS, TestStatus.SKIPPED, TestStatus.NOT_RUN)):
            return ""
        if result.test not in self.written:
            self.written[result.test] = self._write(result.test)
        return self.written[result.test]

    def _write(self, test: str) -> str:
        from pacman.grading.side_by_side import student_page

        if self.agents is None:
            return "not written: the built-in agents are graded"
        target = self.folder / (test.removesuffix(".test").replace("/", "-") + ".html")
        try:
            target.write_text(student_page(self.paths[test], self.agents), encoding="utf-8")
        except (PacmanError, OSError) as error:  # named on the test's line, grading goes on
            return f"not written: {error}"
        return str(target)


def _status(report: SubmissionReport, points: bool, strict: bool) -> int:
    """The exit status of one submission's grading (see DESCRIPTION)."""
    from pacman.grading.reports.results import TestStatus

    if any(t.status is TestStatus.ERROR for t in report.tests) or (report.error and not points):
        return 1
    if not points and report.failed:
        return 1
    if strict and (report.error or report.total < report.max_total or report.failed):
        return 1
    return 0


def _grade_class(args: argparse.Namespace, suite: Suite, limits: HardLimits) -> int:
    from pacman.grading.reports.formats import format_class_table
    from pacman.grading.running.bulk import find_submissions, grade_class, write_class_results

    if args.json or args.gradescope_output:
        raise UsageError("with --submissions, results go to --out (grades.csv, grades.json, "
                         "reports/) and --gradescope writes one file per student")
    from pacman.grading.cases.check import check_tests

    check_tests(suite)  # a broken test would be an ERROR in every student's report
    submissions = find_submissions(args.submissions, args.agents_file)
    _warn_without_sandbox()
    each = limits.worst_case(suite)
    rounds = -(-len(submissions) // max(1, args.jobs))
    print(f"grading {len(submissions)} submissions in {args.submissions} with {args.jobs} "
          f"at a time: at most {_duration(rounds * each)} in all (each submission at most "
          f"{_duration(each)} under these limits)", flush=True)

    def on_report(report: SubmissionReport) -> None:
        note = f" ({report.error})" if report.error else ""
        print(f"  {report.submission}: Total: {report.total}/{report.max_total} "
              f"({report.seconds:.1f}s){note}", flush=True)

    def on_kept(report: SubmissionReport) -> None:
        print(f"  {report.submission}: Total: {report.total}/{report.max_total} (graded "
              f"before, kept in {Path(args.out) / 'graded'})", flush=True)

    reports = grade_class(suite, submissions, limits, args.jobs, on_report, keep=args.out,
                          on_kept=on_kept, agent_random=args.agent_random)
    questions = [q.name for q in suite.questions]
    print()
    print(format_class_table(reports, questions))
    for path in write_class_results(reports, questions, args.out, args.gradescope):
        print(f"wrote {path}")
    return 1 if any(t.status.value == "error" for r in reports for t in r.tests) else 0
