"""`pacman explain`: the reference search's tree of a tree case, and where an agent departs."""

from __future__ import annotations

from pathlib import Path

import pytest

from pacman.cli import main

ROOT = Path(__file__).parents[2]
CASES = ROOT / "tests" / "cases"
EQUALITY = ROOT / "tests/cs188/submissions/prune_on_equality/multiAgents.py"

TEXTBOOK = """\
alphabeta, depth 2: Left (value 3), 11 nodes generated, 7 evaluated, 1 cut pruning 2 moves
root  max 3  [alpha -inf, beta inf]
|- Left -> min1  min 3  [alpha -inf, beta inf]
|  |- Left -> A  terminal 3
|  |- Center -> B  terminal 12
|  `- Right -> C  terminal 8
|- Center -> min2  min 2  [alpha 3, beta inf]
|  |- Left -> D  terminal 2
|  `- cut: 2 < alpha 3, never generated: Center, Right
`- Right -> min3  min 2  [alpha 3, beta inf]
   |- Left -> G  terminal 14
   |- Center -> H  terminal 5
   `- Right -> I  terminal 2
"""


def test_the_textbook_tree_with_its_cut(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", str(CASES / "alphabeta/01-textbook.test")]) == 0
    assert capsys.readouterr().out == TEXTBOOK


def test_a_correct_agent_generates_exactly_the_expected_nodes(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", str(CASES / "alphabeta/01-textbook.test"),
                 "--agents", str(EQUALITY)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(TEXTBOOK) and "<-" not in out
    assert out.endswith("your agent chose Left, expected Left\n"
                        "your agent generated exactly the expected nodes\n")


def test_an_agent_pruning_on_equality_is_marked_where_it_departs(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", str(CASES / "alphabeta/05-tie-with-alpha.test"),
                 "--agents", str(EQUALITY)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert "|  |- y -> n2b  leaf 2  <- your agent did not generate it" in lines
    assert "   `- y -> n3b  leaf 4  <- your agent did not generate it" in lines
    assert sum("<-" in line for line in lines) == 2
    assert lines[-1] == ("first difference: n2b (N2 --y--> n2b) is expected, but your agent "
                         "did not generate it; the reference search generated it at N2, with "
                         "alpha 3, beta 3, best so far 3")


def test_minimax_and_expectimax_cases_are_explained_too(
        capsys: pytest.CaptureFixture[str]) -> None:
    for case in ("minimax/01-textbook", "expectimax/02-disagree-with-minimax"):
        assert main(["explain", str(CASES / f"{case}.test")]) == 0
        out = capsys.readouterr().out
        method = case.split("/")[0]
        assert out.startswith(f"{method}, depth ") and "[alpha" not in out and "cut:" not in out
    assert "p=" in out  # chance nodes show their probabilities


@pytest.mark.parametrize("args,message", [
    (["nope.test"], "nope.test: cannot read file"),
    ([str(ROOT / "tests/malformed_cases/bad-depth.test")], "depth must be a positive integer"),
    ([str(CASES / "alphabeta/01-textbook.test"), "--agents", "missing.py"],
     "no such agent file: missing.py"),
])
def test_mistakes_are_one_line_errors(args: list[str], message: str,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err
