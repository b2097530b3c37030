"""Search traces (`pacman.agents.trace`): exactly the fast searches' trees, as JSON-ready data."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from positions import random_positions

from pacman.agents.evaluation import NAMED
from pacman.agents.search import alphabeta, expectimax, minimax
from pacman.agents.trace import SearchTrace, TraceNode, traced_search
from pacman.cli import main
from pacman.errors import ReplayError
from pacman.game_tree import TreeRun, tree_evaluation
from pacman.grading.cases.parser import load_case
from pacman.record import GameRecord
from pacman.replay import load_replay, verify

CASES = sorted(Path(__file__).parents[1].joinpath("cases").glob("*/*.test"))
SEARCHES = {"MinimaxAgent": minimax, "AlphaBetaAgent": alphabeta,
            "ExpectimaxAgent": expectimax}


def by_id(trace: SearchTrace) -> dict[int, TraceNode]:
    return {node.id: node for node in trace.nodes}


@pytest.mark.parametrize("path", CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_trace_is_the_search_on_every_shipped_tree_case(path: Path) -> None:
    case = load_case(path)
    search = SEARCHES[case.alg]
    fast_run, traced_run = TreeRun(case.tree), TreeRun(case.tree)
    fast = search(fast_run.root(), case.depth, tree_evaluation)
    traced = traced_search(search.__name__, traced_run.root(), case.depth, tree_evaluation,
                           label=lambda state: state.node)
    trace = traced.trace
    assert trace is not None
    assert (traced.action, traced.value, traced.nodes_generated, traced.best_actions) == (
        fast.action, fast.value, fast.nodes_generated, fast.best_actions)
    assert traced_run.edge_counts == fast_run.edge_counts  # the same successors, as often
    assert trace.nodes_generated == fast.nodes_generated == len(trace.nodes)
    assert {node.label for node in trace.nodes} == fast_run.generated == case.expected_generated
    assert trace.action == case.expected_action and trace.unrecorded == 0


def test_the_textbook_tree_shows_its_cut() -> None:
    case = load_case(Path(__file__).parents[1] / "cases/alphabeta/01-textbook.test")
    decision = alphabeta(TreeRun(case.tree).root(), 2, tree_evaluation, trace=True)
    trace = decision.trace
    assert trace is not None and trace.method == "alphabeta"
    assert trace.root_values == [("Left", 3), ("Center", 2), ("Right", 2)]
    # min2 stops at D (E and F never generated); min3 reaches I = 2 < 3 at its last child
    assert (trace.cuts, trace.pruned, trace.evaluations) == (1, 2, 7)
    nodes = by_id(trace)
    center = nodes[nodes[0].children[1]]
    assert (center.kind, center.value, center.alpha, center.beta) == ("min", 2, 3, float("inf"))
    assert center.cut == {"after": 0, "by": "alpha", "bound": 3, "skipped": ["Center", "Right"]}
    assert trace.principal_variation == [(0, "Left"), (1, "Left")]
    assert nodes[nodes[0].children[0]].cut is None  # min1 looked at all three
    right = nodes[nodes[0].children[2]]
    assert right.cut == {"after": 2, "by": "alpha", "bound": 3, "skipped": []}


def check_values(trace: SearchTrace) -> None:
    """Each recorded inner node's value is what its children back up (unless a cut ended it,
    then it is past the bound), and every recorded node has a value."""
    nodes = by_id(trace)
    for node in trace.nodes:
        assert node.value is not None
        if node.kind not in ("max", "min", "chance") or node.unrecorded_children:
            continue
        values = [nodes[c].value for c in node.children]
        if node.kind == "chance":
            assert node.probabilities is not None
            assert node.value == pytest.approx(sum(p * v for p, v in  # type: ignore[operator]
                                                   zip(node.probabilities, values)))
        elif node.cut is None:
            assert node.value == (max if node.kind == "max" else min)(values)  # type: ignore[type-var]
        else:
            assert node.value == values[-1]
            assert (node.value > node.cut["bound"] if node.kind == "max"
                    else node.value < node.cut["bound"])


@pytest.mark.parametrize("search,depth", [(minimax, 2), (alphabeta, 3), (expectimax, 2)])
def test_traces_match_the_search_on_seeded_game_positions(search: Any, depth: int) -> None:
    for state in random_positions("mediumClassic", 6, seed=depth):
        fast = search(state, depth, NAMED["better"])
        traced = search(state, depth, NAMED["better"], trace=True)
        assert traced == fast and traced.trace is not None and fast.trace is None
        trace = traced.trace
        assert trace.nodes_generated == len(trace.nodes) == fast.nodes_generated
        assert trace.evaluations == sum(1 for n in trace.nodes if n.kind in
                                        ("leaf", "terminal", "stuck"))
        assert trace.pruned == sum(len(n.cut["skipped"]) for n in trace.nodes if n.cut)
        assert trace.principal_variation[0] == (0, fast.action.value)
        check_values(trace)
        json.dumps(trace.to_json(), allow_nan=False)


def test_a_trace_past_its_budget_counts_the_rest_and_keeps_the_decision() -> None:
    state = random_positions("mediumClassic", 1, seed=7)[0]
    full = traced_search("alphabeta", state, 3, NAMED["better"])
    small = traced_search("alphabeta", state, 3, NAMED["better"], max_nodes=50)
    assert small == full and small.trace is not None and full.trace is not None
    assert len(small.trace.nodes) == 50
    assert small.trace.unrecorded == full.nodes_generated - 50
    assert small.trace.principal_variation == full.trace.principal_variation
    assert sum(n.unrecorded_children for n in small.trace.nodes) <= small.trace.unrecorded


def test_bad_trace_requests_are_one_line_errors() -> None:
    state = random_positions("mediumClassic", 1, seed=1)[0]
    with pytest.raises(ValueError, match="unknown search method 'negamax'"):
        traced_search("negamax", state, 2, NAMED["better"])
    with pytest.raises(ValueError, match="max_nodes must be a positive integer"):
        traced_search("minimax", state, 2, NAMED["better"], max_nodes=0)


# --------------------------------------------------------------------------- in games and replays


def pacman_actions(data: dict[str, Any]) -> list[str]:
    """Pacman's actions in a replay file (every (1 + ghosts)-th one)."""
    return data["actions"][::1 + data["num_ghosts"]]


@pytest.mark.parametrize("extra", [[], ["--timeout", "30"]], ids=["in-process", "watched"])
def test_play_trace_keeps_each_pacman_moves_search_in_the_replay(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str]) -> None:
    path = tmp_path / "traced.json"
    assert main(["play", "-q", "-p", "alphabeta", "-a", "depth=2,evaluation=better", "-g",
                 "DirectionalGhost", "-l", "smallClassic", "--seed", "3", "--record", str(path),
                 "--trace", *extra]) == 0
    capsys.readouterr()
    data = json.loads(path.read_text())
    traces = data["pacman_traces"]
    assert len(traces) == data["pacman_moves"] == len(data["pacman_nodes"]) > 5
    assert [t["nodes_generated"] for t in traces] == data["pacman_nodes"]
    assert [t["action"] for t in traces] == pacman_actions(data)[:len(traces)]
    assert all(t["method"] == "alphabeta" and t["principal_variation"][0][1] == t["action"]
               for t in traces)
    replay = load_replay(path)
    assert verify(replay).matches and list(replay.record.pacman_traces) == traces
    again = GameRecord.from_dict(replay.record.to_dict())
    assert again.pacman_traces == replay.record.pacman_traces


def test_an_untraced_game_writes_no_traces(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "plain.json"
    assert main(["play", "-q", "-p", "alphabeta", "-l", "smallClassic", "--seed", "3",
                 "--max-moves", "5", "--record", str(path)]) == 0
    assert "pacman_traces" not in json.loads(path.read_text())
    capsys.readouterr()


@pytest.mark.parametrize("args,message", [
    (["-p", "alphabeta", "--trace"], "--trace keeps each move's search in the replay: add "
                                     "--record FILE.json (or --record-dir DIR)"),
    (["-p", "random", "--trace", "--record", "x.json"],
     "--trace: RandomAgent does not trace its search"),
    (["-p", "iterative-alphabeta", "--trace", "--record", "x.json"],
     "--trace: IterativeAlphaBetaAgent does not trace its search"),
])
def test_trace_mistakes_are_one_line_errors(args: list[str], message: str, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["play", "-q", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err
    assert not (tmp_path / "x.json").exists()


def test_bad_traces_in_a_replay_file_are_reported(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "traced.json"
    assert main(["play", "-q", "-p", "minimax", "-l", "smallClassic", "--seed", "1",
                 "--max-moves", "4", "--record", str(path), "--trace"]) == 0
    capsys.readouterr()
    data = json.loads(path.read_text())
    path.write_text(json.dumps({**data, "pacman_traces": data["pacman_traces"][:-1]}))
    differences = verify(load_replay(path)).differences
    assert [d.field for d in differences] == ["pacman_traces"]
    path.write_text(json.dumps({**data, "pacman_traces": [1] + data["pacman_traces"][1:]}))
    with pytest.raises(ReplayError, match=r"pacman_traces\[0\] is a number, not an object"):
        load_replay(path)
