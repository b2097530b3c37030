"""Grading from a host process: the referee derives what the student's code did, and an honest
submission gets the same grade, message for message, as in one process."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from classroom import CORRECT, SUITE

from pacman.grading.cases.parser import load_case
from pacman.grading.cases.suite import find_suite
from pacman.grading.running.contestant import Contestant
from pacman.grading.running.hosted import HostedContestant, _explored, replay_tree
from pacman.grading.running.session import grade_suite
from pacman.layout import load_layout
from pacman.state import GameState

TREE = SUITE / "q2" / "1-one-ghost-depth1.test"


@pytest.mark.parametrize("submission", [CORRECT, CORRECT.parents[1] / "no_root_alpha" /
                                        "multiAgents.py"])
def test_an_honest_submission_gets_the_same_report_hosted_as_in_one_process(
        submission: Path) -> None:
    # q1 breaks ties with the global random: its ten games draw the same numbers, in the same
    # order as the ghosts, only if the host draws the referee's generator word for word
    suite = find_suite([SUITE])
    local = grade_suite(suite, Contestant(submission))
    contestant = HostedContestant(submission)
    try:
        hosted = grade_suite(suite, contestant)
    finally:
        contestant.close()
    assert [(q.name, q.points) for q in hosted] == [(q.name, q.points) for q in local]
    assert [[(t.test, t.status, t.points, t.messages) for t in q.tests] for q in hosted] == [
        [(t.test, t.status, t.points, t.messages) for t in q.tests] for q in local]


def test_after_a_hosted_call_the_referees_generator_is_where_one_process_leaves_it() -> None:
    contestant = HostedContestant(CORRECT)
    try:
        host = contestant.host()
        random.seed(7)
        for _ in range(3):  # the host draws what the code asks for: here, nothing at all
            host.ask({"has": "ReflexAgent"})
        assert random.random() == random.Random(7).random()
    finally:
        contestant.close()


def test_a_tree_report_is_replayed_and_a_forged_one_fails() -> None:
    case = load_case(TREE)
    honest = {"action": "Down", "error": None, "error_type": None,
              "calls": [["root", 0, "Left"], ["g1a", 1, "West"], ["g1a", 1, "East"],
                        ["root", 0, "Down"], ["g1b", 1, "West"], ["g1b", 1, "South"],
                        ["g1b", 1, "East"], ["root", 0, "Right"], ["g1c", 1, "West"],
                        ["g1c", 1, "East"]]}
    run = replay_tree(case, honest, None, True, 1000)
    assert run.same_as(case.expected_action, case.expected_generated)
    # the same nodes claimed straight from the root: none of them is a child of the root
    forged = {**honest, "calls": [["root", 0, "Left"], ["root", 1, "West"]]}
    assert replay_tree(case, forged, None, True, 1000).generated == {"root", "g1a"}
    skipping = {**honest, "calls": [["root", 0, "Left"], ["g1b", 1, "West"]]}
    run = replay_tree(case, skipping, None, True, 1000)
    assert run.error_type == "ForgedReport" and "g1b" in str(run.error)
    assert replay_tree(case, {"action": "Down"}, None, True, 1000).error_type == "ForgedReport"


def test_a_game_report_is_counted_from_the_referees_states() -> None:
    root = GameState.initial(load_layout("smallClassic"), 2)
    west = ["West" if "West" in root.legal_actions(0) else root.legal_actions(0)[0]]
    action = west[0]
    child = root.successor(0, action)
    ghost = child.legal_actions(1)[0]
    assert _explored(root, [[0, 0, action], [1, 1, ghost]]) == 3
    assert _explored(root, [[0, 0, action], [0, 0, action]]) == 2  # by value, as classic
    assert _explored(root, [[0, 0, action], [5, 1, ghost]]) == -1  # a parent never made
    assert _explored(root, [[0, 0, "Fly"]]) == 0  # it raised there too: nothing explored
    assert _explored(root, "300") == -1
