"""The grader under bad test files: one bad case is one error line and the run goes on."""

from __future__ import annotations

from pathlib import Path

from pacman.grading import TestStatus, grade
from pacman.grading.cases.parser import load_case
from pacman.grading.reference.diagnostics import diagnose
from pacman.grading.running.tree_run import load_agents_module, run_agent

HEAD = """class: "GraphGameTreeTest"
alg: "{alg}"
depth: "{depth}"
num_agents: "{agents}"
start_state: "root"
win_states: ""
lose_states: ""
"""


def write_case(folder: Path, name: str, alg: str, depth: int, agents: int, successors: str,
               evaluation: str, action: str, generated: str) -> Path:
    test = folder / f"{name}.test"
    test.write_text(HEAD.format(alg=alg, depth=depth, agents=agents)
                    + f'successors: """\n{successors}\n"""\nevaluation: """\n{evaluation}\n"""\n')
    (folder / f"{name}.solution").write_text(
        f'action: "{action}"\ngenerated: "{generated}"\n')
    return test


def test_a_nan_value_is_one_error_and_the_other_cases_still_run(tmp_path: Path) -> None:
    write_case(tmp_path, "a-nan", "MinimaxAgent", 1, 2, "root L a\nroot R b", "a nan\nb 1",
               "R", "a b root")
    write_case(tmp_path, "b-fine", "MinimaxAgent", 1, 2, "root L a\nroot R b", "a 0\nb 1",
               "R", "a b root")
    report = grade([tmp_path])
    first, second = report.tests
    assert first.status is TestStatus.ERROR
    assert 'a-nan.test:13: value "nan" of node "a" is not a number (NaN)' in first.messages[0]
    assert second.status is TestStatus.PASS


CYCLE = "root L a\nroot R b\na X root\na Y b\nb X a\nb Y root"


def test_a_cyclic_tree_stops_at_the_node_budget_with_a_clear_message(tmp_path: Path) -> None:
    path = write_case(tmp_path, "cycle", "AlphaBetaAgent", 40, 2, CYCLE,
                      "root 1\na 2\nb 3", "R", "root")
    case = load_case(path)
    agents = load_agents_module(None)
    run = run_agent(agents.AlphaBetaAgent, case, case.depth, budget=5_000)
    assert run.error_type == "TreeBudgetError"
    assert "more than 5,000 nodes" in (run.error or "")
    # the diagnostics of such a run do not probe it again (they would not end either)
    assert diagnose(case, agents.AlphaBetaAgent, run) == ()


def test_diagnostics_of_a_wrong_solution_on_a_cycle_end(tmp_path: Path) -> None:
    """A correct search at a small depth fails a wrong solution; probing it at other depths
    on the cyclic tree is bounded by the probe budget and the time budget."""
    path = write_case(tmp_path, "cycle", "MinimaxAgent", 3, 2, CYCLE, "root 1\na 2\nb 3",
                      "R", "root")
    report = grade([path])
    result = report.tests[0]
    assert result.status is TestStatus.FAIL
    assert result.tree.actual_action in ("L", "R")  # the run and its diagnostics ended


def test_a_node_with_100000_children_parses_and_grades(tmp_path: Path) -> None:
    count = 100_000
    successors = "\n".join(f"root a{i} n{i}" for i in range(count))
    evaluation = "\n".join(f"n{i} {i % 97}" for i in range(count))
    generated = " ".join(sorted(["root", *(f"n{i}" for i in range(count))]))
    path = tmp_path / "wide.test"
    path.write_text(HEAD.format(alg="MinimaxAgent", depth=1, agents=1)
                    + f'successors: """\n{successors}\n"""\nevaluation: """\n{evaluation}\n"""\n')
    (tmp_path / "wide.solution").write_text(f'action: "a96"\ngenerated: "{generated}"\n')
    report = grade([path])
    assert report.tests[0].status is TestStatus.PASS


def test_an_action_listed_twice_for_a_node_is_an_error_with_its_line(tmp_path: Path) -> None:
    write_case(tmp_path, "twice", "MinimaxAgent", 1, 2, "root L a\nroot L b", "a 1\nb 2",
               "L", "a root")
    result = grade([tmp_path]).tests[0]
    assert result.status is TestStatus.ERROR
    assert 'twice.test:10: action "L" listed twice for node "root"' in result.messages[0]
