"""A replay of an MCTS game with its traces (issue 28, item 4): it loads, verifies and keeps
every MCTS field; a malformed MCTS summary is the same one line for every replay command
(`replay -q`, `replay --html`, `explain --move`) as a malformed tree-search summary."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pacman.cli import main
from pacman.errors import ReplayError
from pacman.replay import load_replay, verify

MCTS_KEYS = {"method", "action", "value", "depth", "nodes_generated", "evaluations", "cuts",
             "pruned", "root_values", "root_visits", "principal_variation", "playouts",
             "tree_size", "stopped", "budget", "c"}


@pytest.fixture(scope="module")
def traced(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A traced MCTS game's replay, as JSON (each test writes its own copy)."""
    path = tmp_path_factory.mktemp("mcts") / "mcts.json"
    assert main(["play", "-q", "-p", "mcts", "-a", "tree=move,playouts=30", "--trace", "-l",
                 "testClassic", "--seed", "1", "--max-moves", "4", "--record",
                 str(path)]) == 0
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    assert len(data["pacman_traces"]) == data["pacman_moves"] == 4
    return data


def write(tmp_path: Path, data: dict[str, Any]) -> Path:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def with_trace(tmp_path: Path, traced: dict[str, Any], **fields: Any) -> Path:
    data = json.loads(json.dumps(traced))
    data["pacman_traces"][0].update(fields)
    return write(tmp_path, data)


def test_an_mcts_replay_loads_verifies_and_keeps_every_field(
        tmp_path: Path, traced: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, traced)
    replay = load_replay(path)
    assert replay.ignored == ()
    assert list(replay.record.pacman_traces) == traced["pacman_traces"]
    for trace in replay.record.pacman_traces:
        assert trace is not None and set(trace) == MCTS_KEYS and trace["method"] == "mcts"
        assert sum(visits for _, visits in trace["root_visits"]) == trace["playouts"] == 30
        assert [a for a, _ in trace["root_visits"]] == [a for a, _ in trace["root_values"]]
    verdict = verify(replay)
    assert verdict.fully_verified and verdict.complete and verdict.digest == "verified"
    assert main(["replay", "-q", str(path)]) == 0
    out = capsys.readouterr().out
    assert "OK: the replay matches its record" in out and "not read" not in out


def test_an_mcts_key_in_a_tree_search_summary_is_not_read(
        tmp_path: Path, traced: dict[str, Any]) -> None:
    # the MCTS fields belong to "method": "mcts"; elsewhere they are a later version's keys
    path = with_trace(tmp_path, traced, method="alphabeta")
    replay = load_replay(path)
    assert set(replay.ignored) == {f"pacman_traces.{key}" for key in (
        "root_visits", "playouts", "tree_size", "stopped", "budget", "c")}
    first = replay.record.pacman_traces[0]
    assert first is not None and "root_visits" not in first


def test_an_unknown_key_of_an_mcts_summary_is_left_out_and_named(
        tmp_path: Path, traced: dict[str, Any]) -> None:
    replay = load_replay(with_trace(tmp_path, traced, prior=[["West", 0.5]]))
    assert replay.ignored == ("pacman_traces.prior",)
    assert replay.record.pacman_traces[0] == traced["pacman_traces"][0]


BAD_MCTS_TRACES = [
    ({"root_visits": 5}, "pacman_traces[0].root_visits is a number, not a list of [action, "
                         "visits] pairs"),
    ({"root_visits": [["West", -1]]}, "pacman_traces[0].root_visits is not a list of [action, "
                                      "visits] pairs"),
    ({"root_visits": [["West", 1.5]]}, "pacman_traces[0].root_visits is not a list of [action, "
                                       "visits] pairs"),
    ({"root_visits": [["North", 3]]}, "pacman_traces[0].root_visits does not name the moves of "
                                      "root_values in their order"),
    ({"playouts": "30"}, "pacman_traces[0].playouts is text, not a whole number >= 0"),
    ({"tree_size": True}, "pacman_traces[0].tree_size is true/false, not a whole number >= 0"),
    ({"stopped": "bored"}, "pacman_traces[0].stopped is text, not playouts, nodes, time or "
                           "single"),
    ({"stopped": ["time"]}, "pacman_traces[0].stopped is not playouts, nodes, time or single"),
    ({"budget": None}, "pacman_traces[0].budget is null, not text"),
    ({"c": -1}, "pacman_traces[0].c is a number, not a number >= 0"),
    ({"c": "inf"}, "pacman_traces[0].c is text, not a number >= 0"),
    ({"root_values": [["West", "many"]]}, "pacman_traces[0].root_values is not a list of "
                                          "[action, value] pairs"),
]


@pytest.mark.parametrize("fields, message", BAD_MCTS_TRACES,
                         ids=[str(i) for i in range(len(BAD_MCTS_TRACES))])
@pytest.mark.parametrize("command", [["replay", "-q"], ["replay", "-q", "--html", "{html}"],
                                     ["explain", "--move", "1"]],
                         ids=["replay", "replay-html", "explain"])
def test_a_bad_mcts_trace_is_one_line_for_every_replay_command(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], traced: dict[str, Any],
        fields: dict[str, Any], message: str, command: list[str]) -> None:
    path = with_trace(tmp_path, traced, **fields)
    html = tmp_path / "page.html"
    code = main([arg.format(html=html) for arg in command] + [str(path)])
    captured = capsys.readouterr()
    assert code == 2, captured.err
    assert captured.err == f"pacman: error: {path}: malformed replay: {message}\n"
    assert captured.out == "" and not html.exists()


@pytest.mark.parametrize("key", ["root_visits", "playouts", "tree_size", "stopped", "budget",
                                 "c"])
def test_an_mcts_summary_without_a_field_is_malformed(tmp_path: Path, traced: dict[str, Any],
                                                      key: str) -> None:
    data = json.loads(json.dumps(traced))
    del data["pacman_traces"][2][key]
    with pytest.raises(ReplayError, match=rf"pacman_traces\[2\] has no '{key}'$"):
        load_replay(write(tmp_path, data))
