"""A test's own classic time limits come before `--test-timeout`: an agent test may run as long
as the classic autograder lets it (`numGames` games of `maxTime` seconds each), so a slow but
correct agent gets its points, as CS188 gives them."""

from __future__ import annotations

import textwrap
from pathlib import Path

from pacman.grading.cases.eval_case import classic_time_bound
from pacman.grading.cases.parser import parse_text
from pacman.grading.cases.suite import find_suite
from pacman.grading.reports.results import TestStatus
from pacman.grading.running.isolated import (
    CLASSIC_MARGIN,
    HardLimits,
    classic_bounds,
    grade_isolated,
)

AGENT_TEST = """\
class: "EvalAgentTest"
agentName: "ReflexAgent"
layoutName: "testClassic"
maxTime: "{max_time}"
numGames: "{games}"
randomSeed: "0"
ghosts: "[RandomGhost(1)]"
nonTimeoutMinimum: "{games}"
winsMinimum: "1"
scoreThresholds: "1"
winsThresholds: "1"
"""

#: a correct but slow ReflexAgent: every move takes a while
SLOW_STUDENT = """\
import time
from game import Agent, Directions

class ReflexAgent(Agent):
    def getAction(self, gameState):
        time.sleep({pause})
        best = None
        for action in gameState.getLegalActions():
            value = gameState.generatePacmanSuccessor(action).getScore()
            if action != Directions.STOP and (best is None or value > best[0]):
                best = (value, action)
        return best[1]
"""


def suite(folder: Path, games: int, max_time: float) -> Path:
    root = folder / "test_cases"
    (root / "q1").mkdir(parents=True)
    (root / "CONFIG").write_text('order: "q1"\n', encoding="utf-8")
    (root / "q1" / "CONFIG").write_text('max_points: "2"\nclass: "PartialCreditQuestion"\n',
                                        encoding="utf-8")
    (root / "q1" / "1-slow.test").write_text(AGENT_TEST.format(games=games, max_time=max_time),
                                             encoding="utf-8")
    (root / "q1" / "1-slow.solution").write_text("# File intentionally blank.\n",
                                                 encoding="utf-8")
    return root


def test_the_classic_bound_of_an_agent_test_is_its_games_times_max_time() -> None:
    text = AGENT_TEST.format(games=10, max_time=120)
    assert classic_time_bound(parse_text(text, "q1/a.test")) == 1200.0
    assert classic_time_bound(parse_text(text.replace("EvalAgentTest", "GraphGameTreeTest"),
                                         "b.test")) is None
    assert classic_time_bound(parse_text(text.replace('"120"', '"soon"'), "c.test")) is None


def test_only_tests_whose_classic_bound_is_longer_get_more_time(tmp_path: Path) -> None:
    found = find_suite([suite(tmp_path, games=3, max_time=4)])
    question = found.questions[0]
    factor, seconds = CLASSIC_MARGIN
    assert classic_bounds(found, question, HardLimits(test_seconds=1.0)) == {
        "test_cases/q1/1-slow.test": 3 * 4 * factor + seconds}
    assert classic_bounds(found, question, HardLimits(test_seconds=600.0)) == {}


def test_a_slow_but_correct_agent_is_not_killed_by_the_test_timeout(tmp_path: Path) -> None:
    root = suite(tmp_path, games=2, max_time=10)
    student = tmp_path / "multiAgents.py"
    student.write_text(textwrap.dedent(SLOW_STUDENT.format(pause=0.04)), encoding="utf-8")
    report = grade_isolated(find_suite([root]), student,
                            HardLimits(test_seconds=1.0, question_seconds=1.0))
    (question,) = report.questions
    (test,) = question.tests
    assert test.status is TestStatus.PASS, test.messages
    assert question.points == question.max_points == 2
    assert test.seconds > 1.0  # past the 1 s the hard limits alone would allow


#: an agent that swallows every interrupt of a late move: the referee's clock stops it anyway
STUBBORN_STUDENT = """\
from game import Agent

class ReflexAgent(Agent):
    def getAction(self, gameState):
        while True:
            try:
                while True:
                    pass
            except BaseException:
                pass
"""


def test_an_agent_that_swallows_interrupts_still_times_out_on_the_referees_clock(
        tmp_path: Path) -> None:
    # the agent runs in its host; the referee's own clock ends its late move at maxTime, as a
    # timed-out game, and a fresh host plays on
    root = suite(tmp_path, games=2, max_time=0.1)
    student = tmp_path / "multiAgents.py"
    student.write_text(STUBBORN_STUDENT, encoding="utf-8")
    # the hard limit (60 s, loading included) is far off: a test it ended would say "over the
    # time limit"; the two moves are stopped at 0.1 s each, by the referee's clock
    report = grade_isolated(find_suite([root]), student,
                            HardLimits(test_seconds=60.0, question_seconds=120.0))
    (test,) = report.questions[0].tests
    assert test.messages[0] == ("ReflexAgent on testClassic: won 0 of 2 games, average score 0, "
                                "2 timed out"), test.messages
    assert "0 games not timed out (fail: below minimum value 2)" in test.messages
    assert test.points == report.questions[0].points == 0

