"""`pacman explain GAME.json --move N` on an MCTS Pacman's move (issue 28, item 4): with a
playout or node budget the search is run again with the game's generator replayed to the move
and reproduces the recorded move and trace exactly; a time budget, or ghosts that cannot be
built again, show the recorded summary after one line saying why; what MCTS cannot draw (its
tree) is a one-line error."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from pacman.agents.ghosts import DirectionalGhost
from pacman.agents.mcts import MCTSAgent
from pacman.cli import explain_mcts, main
from pacman.cli.explain_mcts import mcts_settings, mcts_text
from pacman.display.search_panel import value_text
from pacman.rules import Direction


def play(folder: Path, name: str, *argv: str, seed: int = 3, moves: int = 8) -> Path:
    game = folder / name
    assert main(["play", "-q", "-p", "mcts", "-l", "smallClassic", "--seed", str(seed),
                 "--max-moves", str(moves), "--record", str(game), *argv]) == 0
    return game


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("mcts")
    return {
        "playouts": play(folder, "playouts.json", "-a", "tree=move,playouts=40", "--trace", "-g",
                         "DirectionalGhost"),
        "nodes": play(folder, "nodes.json", "-a", "tree=move,nodes=900,ghost_model=directional,"
                      "playout=greedy,allow_stop=false", "--trace", "-g", "RandomGhost",
                      seed=5),
        "untraced": play(folder, "untraced.json", "-a", "tree=move,playouts=30", moves=4),
        "time": play(folder, "time.json", "-a", "tree=move,time=0.01", "--trace", moves=3),
        "time-untraced": play(folder, "time-untraced.json", "-a", "tree=move,time=0.01", moves=2),
    }


def explain(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str], str]:
    code = main(["explain", *argv])
    captured = capsys.readouterr()
    return code, captured.out.splitlines(), captured.err


def recorded(game: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(game.read_text(encoding="utf-8"))
    return data


def test_the_text_of_a_summary() -> None:
    summary = {"method": "mcts", "action": "West", "value": 12.345, "depth": 10,
               "nodes_generated": 12345, "evaluations": 200, "cuts": 0, "pruned": 0,
               "root_values": [["West", 12.345], ["Stop", -3.0], ["East", "nan"]],
               "root_visits": [["West", 150], ["Stop", 50], ["East", 0]],
               "principal_variation": [[0, "West"], [0, "North"]], "playouts": 200,
               "tree_size": 57, "stopped": "nodes", "budget": "nodes=12000", "c": 0.7}
    assert mcts_text(summary) == [
        "mcts nodes=12000 horizon=10 c=0.7: West (mean 12.35, 150 of 200 playouts), stopped "
        "by its node budget",
        "root moves (visits, mean value):",
        "> West: 150, 12.35",
        "  Stop: 50, -3",
        "  East: 0, nan",
        "most-visited line: West, North",
        "200 playouts, tree size 57, 12,345 nodes generated",
    ]
    assert mcts_settings("MCTSAgent nodes=900 better horizon=8 c=0.5 allow_stop=False") == {
        "nodes": 900, "evaluation": "better", "horizon": 8, "c": 0.5, "allow_stop": False,
        "tree": "move"}  # a description without tree= is of the move tree
    assert mcts_settings("MCTSAgent playouts=40 tree=junction horizon=30 c=1")["tree"] == (
        "junction")
    # junction descriptions written before the tables were the default read as they played
    old = "MCTSAgent nodes=6000 tree=junction horizon=30 c=1 ghost_model=directional"
    assert (mcts_settings(old)["chase"], "chase_margin" in mcts_settings(old)) == (0, False)
    assert mcts_settings(f"{old} chase=15") == {**mcts_settings(old), "chase": 15,
                                                    "chase_margin": 1.0}
    now = MCTSAgent(nodes=6000).describe()
    assert (mcts_settings(now)["chase"], mcts_settings(now)["chase_margin"]) == ("auto", 0.01)
    assert MCTSAgent(**mcts_settings(now)).describe() == now


@pytest.mark.parametrize("game", ["playouts", "nodes"])
def test_every_move_is_reproduced_with_its_recorded_trace(
        game: str, games: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    data = recorded(games[game])
    agents = data["num_ghosts"] + 1
    assert data["pacman_moves"] == 8 and len(data["pacman_traces"]) == 8
    for move in range(1, 9):
        trace = data["pacman_traces"][move - 1]
        action = data["actions"][(move - 1) * agents]
        code, lines, err = explain(capsys, str(games[game]), "--move", str(move))
        assert (code, err) == (0, "")
        assert lines[0] == (f"{games[game].name}, Pacman's move {move} (recorded: {action}) "
                            f"by {data['agents'][0]}")
        assert lines[1] == "searched again with the game's generator replayed to this move:"
        assert lines[2:-1] == mcts_text(trace)
        assert lines[-1] == (f"the rerun chose {action}, as the game did, with the recorded "
                             "trace's statistics")


def test_the_numbers_shown_are_the_recorded_ones(games: dict[str, Path],
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    trace = recorded(games["playouts"])["pacman_traces"][2]
    _, lines, _ = explain(capsys, str(games["playouts"]), "--move", "3")
    visits = dict(trace["root_visits"])
    assert sum(visits.values()) == trace["playouts"] == 40
    assert lines[2].startswith(f"mcts playouts=40 horizon=10 c=1: {trace['action']} (mean "
                               f"{value_text(trace['value'])}, {visits[trace['action']]} of 40 "
                               "playouts), stopped by its playout budget")
    assert f"> {trace['action']}: {visits[trace['action']]}, {value_text(trace['value'])}" \
        in lines


def test_replaying_every_earlier_move_by_search_gives_the_same_move(
        games: dict[str, Path], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the one draw per earlier move stands for the whole search of that move: an agent that
    # keeps something between moves has every earlier move searched again instead
    _, quick, _ = explain(capsys, str(games["nodes"]), "--move", "6")
    monkeypatch.setattr(explain_mcts, "STATELESS_SETTINGS", frozenset())
    code, searched, err = explain(capsys, str(games["nodes"]), "--move", "6")
    assert (code, err) == (0, "") and searched == quick
    assert quick[-1].endswith("as the game did, with the recorded trace's statistics")


def test_an_untraced_game_is_rerun_without_a_trace_to_compare(
        games: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    data = recorded(games["untraced"])
    assert data.get("pacman_traces", []) == []
    code, lines, err = explain(capsys, str(games["untraced"]), "--move", "4")
    action = data["actions"][3 * (data["num_ghosts"] + 1)]
    assert (code, err) == (0, "")
    assert lines[-1] == (f"the rerun chose {action}, as the game did (the replay has no trace "
                         "of this move to compare)")
    assert lines[2].startswith(f"mcts playouts=30 horizon=10 c=1: {action} (mean ")


def test_a_time_budget_shows_the_recorded_search(games: dict[str, Path],
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    trace = recorded(games["time"])["pacman_traces"][1]
    assert trace["stopped"] == "time" and trace["budget"] == "time=0.01"
    code, lines, err = explain(capsys, str(games["time"]), "--move", "2")
    assert (code, err) == (0, "")
    assert lines[1] == ("time=0.01 is a time budget: the playouts that fit depend on the machine "
                        "and its load, so a rerun cannot reproduce this move; the recorded "
                        "search:")
    assert lines[2:] == mcts_text(trace)
    assert lines[2].endswith("stopped by its time budget")


def one_line(code: int, err: str, *parts: str) -> None:
    assert code == 2, err
    assert err.count("\n") == 1 and err.startswith("pacman: error: "), err
    for part in parts:
        assert part in err, err


def test_a_time_budget_without_a_trace_is_one_line(games: dict[str, Path],
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, err = explain(capsys, str(games["time-untraced"]), "--move", "1")
    one_line(code, err, "time-untraced.json move 1: time=0.01 is a time budget",
             "and the replay has no trace of it (record the game with -a trace=true)")
    assert lines == []


@pytest.mark.parametrize(("extra", "message"), [
    (["--html", "t.html"], "--html draws a tree search's nodes, and MCTS keeps none"),
    (["--svg", "t.svg"], "--svg draws a tree search's nodes"),
    (["--compare"], "--compare draws a tree search's nodes"),
    (["--html", "t.html", "--compare"], "--html, --compare draw a tree search's nodes"),
    (["--depth", "2"], "--depth and --evaluation go with --method (a tree search)"),
    (["--evaluation", "better"], "--depth and --evaluation go with --method"),
])
def test_what_mcts_cannot_draw_is_one_line(extra: list[str], message: str,
                                           games: dict[str, Path], tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, lines, err = explain(capsys, str(games["playouts"]), "--move", "2", *extra)
    one_line(code, err, message)
    assert lines == [] and not any(tmp_path.iterdir())


def test_a_tree_search_of_the_same_position_is_still_there(
        games: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, err = explain(capsys, str(games["playouts"]), "--move", "2", "--method",
                               "alphabeta", "--depth", "1", "--evaluation", "score")
    assert (code, err) == (0, "")
    assert lines[0].endswith("; searched with alphabeta, depth 1, evaluation score")
    assert lines[1].startswith("alphabeta, depth 1: ")


def rewrite(game: Path, folder: Path, change: Any) -> Path:
    data = recorded(game)
    change(data)
    path = folder / game.name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_ghosts_that_cannot_be_built_again_show_the_recorded_search(
        games: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def rename(data: dict[str, Any]) -> None:
        data["agents"][1] = "my_ghosts.py:Sly"

    path = rewrite(games["playouts"], tmp_path, rename)
    trace = recorded(path)["pacman_traces"][4]
    code, lines, err = explain(capsys, str(path), "--move", "5")
    assert (code, err) == (0, "")
    assert lines[1] == ("ghost 1 (my_ghosts.py:Sly) is not a shipped ghost, so a rerun cannot "
                        "reproduce this move; the recorded search:")
    assert lines[2:] == mcts_text(trace)


def test_a_ghost_that_does_not_play_as_recorded_stops_the_rerun(
        games: dict[str, Path], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    # a shipped ghost that no longer plays as it did (another version, say): the rerun never
    # shows a search the game did not make
    original = DirectionalGhost.get_action

    def other_move(self: DirectionalGhost, state: Any) -> Direction:
        move = original(self, state)
        return next((a for a in state.legal_actions(self.index) if a != move), move)

    monkeypatch.setattr(DirectionalGhost, "get_action", other_move)
    data = recorded(games["playouts"])
    code, lines, err = explain(capsys, str(games["playouts"]), "--move", "8")
    assert (code, err) == (0, "")
    found = re.fullmatch(r"ghost 1 \(DirectionalGhost\) plays (\w+) at action (\d+) where "
                         r"the game played (\w+), so a rerun cannot reproduce this move; the "
                         r"recorded search:", lines[1])
    assert found is not None, lines[1]
    played, turn, recorded_action = found[1], int(found[2]), found[3]
    # the first move of ghost 1 (agent 1 of 3) with a choice, before Pacman's 8th move
    assert (turn - 1) % 3 == 1 and turn < 7 * 3 + 1
    assert data["actions"][turn - 1] == recorded_action != played
    assert lines[2:] == mcts_text(data["pacman_traces"][7])


def test_a_rerun_that_departs_from_the_record_exits_1(
        games: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def edit(data: dict[str, Any]) -> None:
        trace = data["pacman_traces"][2]
        trace["tree_size"] += 1
        trace["nodes_generated"] += 5

    path = rewrite(games["playouts"], tmp_path, edit)
    code, lines, err = explain(capsys, str(path), "--move", "3")
    assert (code, err) == (1, "")
    assert lines[-1].endswith("as the game did, but its nodes_generated, tree_size differ "
                              "from the recorded trace's")

    def other_budget(data: dict[str, Any]) -> None:
        data["agents"][0] = data["agents"][0].replace("playouts=40", "playouts=1")

    path = rewrite(games["playouts"], tmp_path, other_budget)
    code, lines, err = explain(capsys, str(path), "--move", "1")
    assert code == 1 and err == ""
    # one playout tries one untried move, drawn: Stop, with this game's generator
    assert lines[2].startswith("mcts playouts=1 horizon=10 c=1: Stop (mean ")
    action = recorded(path)["actions"][0]
    assert lines[-1] == (f"the rerun chose Stop, but the game played {action}: this replay "
                         "was not made by this search") if action != "Stop" else \
        lines[-1].startswith("the rerun chose Stop, as the game did, but its ")


def test_a_bad_recorded_setting_is_one_line(games: dict[str, Path], tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    def edit(data: dict[str, Any]) -> None:
        data["agents"][0] = "MCTSAgent playouts=0 score horizon=10 c=1"

    path = rewrite(games["playouts"], tmp_path, edit)
    code, _, err = explain(capsys, str(path), "--move", "1")
    one_line(code, err, "playouts.json move 1: cannot build Pacman's agent again from "
                        "'MCTSAgent playouts=0 score horizon=10 c=1': ", "playouts")


def test_a_move_the_cycle_breaker_decided_is_reproduced_from_the_games_memory(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    # -p mcts remembers the moves it played where it has been (cycles=0.3, its default): a
    # move is reproduced only when every earlier move is searched again, as the game did
    game = play(tmp_path, "cycles.json", "-a", "playouts=30,escape=6", "--trace", "-g",
                "DirectionalGhost", seed=6, moves=40)
    assert recorded(game)["agents"][0].endswith(" cycles=0.3")
    code, lines, err = explain(capsys, str(game), "--move", "15")
    assert (code, err) == (0, "")
    assert lines[-1].endswith("as the game did, with the recorded trace's statistics")
    read = explain_mcts.mcts_settings  # the move read as if its agent forgot nothing:
    monkeypatch.setattr(explain_mcts, "mcts_settings", lambda description: {
        key: value for key, value in read(description).items() if key != "cycles"})
    code, lines, _ = explain(capsys, str(game), "--move", "15")
    assert code == 1 and lines[-1].startswith("the rerun chose West, but the game played East")
    # a description written before the breaker was the default reads as it played
    assert read("MCTSAgent nodes=6000 tree=junction horizon=30 c=1 chase=auto")["cycles"] == 0
    assert read(MCTSAgent(nodes=6000).describe())["cycles"] == 0.3
