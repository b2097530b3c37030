"""`pacman explain`: the reference search's tree of a tree case, and where an agent departs."""

from __future__ import annotations

import json
from pathlib import Path
from xml.etree import ElementTree

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


# --------------------------------------------------------------- pages, replays and positions

def header_action(out: str) -> str:
    """The action in the tree's first line (`alphabeta, depth 2: West (value ...`)."""
    header = next(line for line in out.splitlines() if ", depth " in line and ": " in line
                  and line.split(",")[0] in ("minimax", "alphabeta", "expectimax"))
    return header.split(": ", 1)[1].split(" (", 1)[0]


@pytest.mark.parametrize("pacman,settings", [
    ("alphabeta", "depth=2,evaluation=better"),
    ("expectimax", "depth=2,evaluation=better,allow_stop=false,ghost_model=directional"),
])
def test_a_replay_moves_search_chooses_the_recorded_action(
        pacman: str, settings: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = tmp_path / "game.json"
    assert main(["play", "-q", "-p", pacman, "-a", settings, "-g", "DirectionalGhost", "-l",
                 "smallClassic", "--seed", "3", "--max-moves", "12", "--record",
                 str(game)]) == 0
    capsys.readouterr()
    data = json.loads(game.read_text())
    recorded = data["actions"][::1 + data["num_ghosts"]]
    assert len(recorded) == data["pacman_moves"] >= 10
    for move, action in enumerate(recorded, start=1):
        assert main(["explain", str(game), "--move", str(move)]) == 0
        out = capsys.readouterr().out
        assert f"Pacman's move {move} (recorded: {action})" in out.splitlines()[0]
        assert header_action(out) == action
    # overriding the recorded search
    assert main(["explain", str(game), "--move", "1", "--method", "minimax", "--depth", "1",
                 "--evaluation", "score"]) == 0
    assert "searched with minimax, depth 1, evaluation score" in capsys.readouterr().out


def test_a_layouts_start_position_page_and_picture(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    page, picture = tmp_path / "tree.html", tmp_path / "tree.svg"
    assert main(["explain", "--layout", "smallClassic", "--depth", "2", "--method",
                 "alphabeta", "--compare", "--html", str(page), "--svg", str(picture)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("smallClassic, start position: Pacman at ")
    assert "alphabeta, depth 2: West (value " in out
    compared = out.split("compared on the same tree:\n", 1)[1].splitlines()
    assert [line.split(",")[0] for line in compared[:3]] == ["  minimax", "  alphabeta",
                                                            "  expectimax"]
    assert out.endswith(f"wrote {page}\nwrote {picture}\n")
    html = page.read_text()
    assert html.startswith("<!DOCTYPE html>") and "http://" not in html.replace(
        "http://www.w3.org/2000/svg", "") and "https://" not in html
    svg = ElementTree.fromstring(picture.read_text())
    assert svg.tag == "{http://www.w3.org/2000/svg}svg"
    assert not svg.findall(".//{http://www.w3.org/2000/svg}script")
    assert len(svg.findall(".//{http://www.w3.org/2000/svg}polygon")) > 5


def test_the_textbook_picture_shows_the_cut(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    picture = tmp_path / "tree.svg"
    assert main(["explain", str(CASES / "alphabeta/01-textbook.test"), "--svg",
                 str(picture)]) == 0
    assert capsys.readouterr().out == TEXTBOOK + f"wrote {picture}\n"
    texts = [t.text for t in ElementTree.fromstring(picture.read_text()).iter(
        "{http://www.w3.org/2000/svg}text")]
    assert "cut: 2 < alpha 3" in texts and {"Center", "Right", "E", "F"} & set(texts) == {
        "Center", "Right"}
    assert [t for t in texts if t in "ABCDGHI"] == list("ABCDGHI")  # E, F never generated


def write_game(tmp_path: Path, pacman: str = "greedy") -> Path:
    game = tmp_path / "game.json"
    assert main(["play", "-q", "-p", pacman, "-l", "smallClassic", "--seed", "1",
                 "--max-moves", "3", "--record", str(game)]) == 0
    return game


@pytest.mark.parametrize("args,message", [
    ([], "give one thing to explain: CASE.test, GAME.json --move N, or --layout NAME"),
    (["{game}"], "game.json: a replay needs --move N (Pacman's N-th move)"),
    (["{game}", "--move", "4"], "game.json: Pacman made 3 moves, there is no move 4"),
    (["{game}", "--move", "1"], "Pacman was 'GreedyAgent', so its search is unknown: give "
                                "--method, --depth, --evaluation"),
    (["{game}", "--move", "1", "--method", "minimax"], "give --depth, --evaluation"),
    (["{game}", "--move", "1", "--method", "minimax", "--depth", "1", "--evaluation", "nope"],
     "--evaluation nope: "),
    (["missing.json", "--move", "1"], "missing.json: no such file"),
    (["--layout", "smallClassic", "--evaluation", "builtins:str"],
     "smallClassic start: the search cannot run: evaluation builtins:str returned str, not a "
     "number"),
    (["--layout", "smallClassic", "--evaluation", "builtins:int"],
     "the search cannot run: evaluation builtins:int failed: TypeError: "),
    (["--layout", "nowhere"], "nowhere: no such layout"),
    (["--layout", "smallClassic", "--move", "2"], "--move goes with a replay file"),
    ([str(CASES / "alphabeta/01-textbook.test"), "--layout", "smallClassic"],
     "give either a file or --layout, not both"),
    ([str(CASES / "alphabeta/01-textbook.test"), "--depth", "3"],
     "--method, --depth and --evaluation go with a replay or a layout"),
    ([str(CASES / "alphabeta/01-textbook.test"), "--ghosts", "1"], "--ghosts goes with --layout"),
    (["--layout", "smallClassic", "--agents", str(EQUALITY)], "--agents needs a tree case"),
    ([str(CASES / "alphabeta/01-textbook.test"), "--html", "/no/such/dir/t.html"],
     "cannot write /no/such/dir/t.html"),
    ([str(CASES / "alphabeta/01-textbook.test"), "--max-nodes", "0"], "--max-nodes"),
])
def test_new_mistakes_are_one_line_errors(args: list[str], message: str, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    if any("{game}" in arg for arg in args):
        game = write_game(tmp_path)
        args = [arg.replace("{game}", str(game)) for arg in args]
    capsys.readouterr()
    assert main(["explain", *args]) == 2
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1 and message in captured.err
    assert "Traceback" not in captured.err


def test_grade_explain_writes_a_tree_view_per_failing_tree_case(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    views = tmp_path / "views"
    assert main(["grade", str(CASES / "alphabeta"), "--agents", str(EQUALITY), "--explain",
                 str(views)]) == 1
    lines = capsys.readouterr().out.splitlines()
    failing = [line for line in lines if line.startswith("FAIL ")]
    assert failing == [f"FAIL alphabeta/{name}.test (tree view: {views}/alphabeta-{name}.html)"
                       for name in ("05-tie-with-alpha", "06-tie-with-beta", "10-root-tie")]
    assert all("tree view" not in line for line in lines if line.startswith("PASS "))
    assert sorted(p.name for p in views.iterdir()) == [
        f"alphabeta-{name}.html" for name in ("05-tie-with-alpha", "06-tie-with-beta",
                                              "10-root-tie")]
    page = (views / "alphabeta-05-tie-with-alpha.html").read_text()
    assert '"departure":"first difference: n2b (N2 --y--\\u003e n2b) is expected' in page


def test_grade_explain_on_a_classic_suite_names_the_page_on_the_test_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    views = tmp_path / "views"
    assert main(["grade", str(ROOT / "pacman/grading/test_cases"), "-q", "q3", "--agents",
                 str(ROOT / "tests/cs188/submissions/no_root_alpha/multiAgents.py"),
                 "--explain", str(views)]) == 0
    out = capsys.readouterr().out
    assert (f"*** FAIL: test_cases/q3/1-prune-one-ghost.test (tree view: "
            f"{views}/test_cases-q3-1-prune-one-ghost.html)\n") in out
    assert (views / "test_cases-q3-1-prune-one-ghost.html").is_file()
    assert "*** PASS: test_cases/q3/2-equal-alpha.test\n" in out


@pytest.mark.parametrize("args,message", [
    (["--submissions", "x"], "--explain writes tree views for one submission"),
    (["--explain", "{file}/x"], "--explain: cannot make "),
])
def test_grade_explain_mistakes(args: list[str], message: str, tmp_path: Path,
                                capsys: pytest.CaptureFixture[str]) -> None:
    afile = tmp_path / "afile"
    afile.write_text("")
    args = [arg.replace("{file}", str(afile)) for arg in args]
    if "--explain" not in args:
        args += ["--explain", str(tmp_path / "views")]
    assert main(["grade", str(CASES / "alphabeta"), *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err
