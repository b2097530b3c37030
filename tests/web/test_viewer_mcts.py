"""The replay viewer on an MCTS game (issue 28, item 4): the page's data keeps each move's MCTS
summary and draws its most-visited line as Pacman's path; in headless Chromium the search
panel shows an MCTS move's root visits and mean values, budget, why it stopped, playouts, tree
size and most-visited line, and a tree search's move in the same page as before (one page
load)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pacman.cli import main
from pacman.replay import load_replay
from pacman.web.replay_data import page_data


def alphabeta(moves: list[str]) -> dict[str, Any]:
    """A tree search's summary of a move whose round was `moves` (Pacman's, then each
    ghost's), put in place of an MCTS move's so one page shows both kinds."""
    return {"method": "alphabeta", "depth": 2, "action": moves[0], "value": -7.5,
            "nodes_generated": 41, "evaluations": 12, "cuts": 3, "pruned": 4,
            "root_values": [[moves[0], -7.5]],
            "principal_variation": [[agent, move] for agent, move in enumerate(moves)]}


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A traced MCTS game on smallClassic against two directional ghosts; move 2's trace is a
    hand-made alpha-beta summary (traces are informational: the replay still verifies)."""
    path = tmp_path_factory.mktemp("mcts") / "game.json"
    assert main(["play", "-q", "-p", "mcts", "-a", "tree=move,playouts=40", "--trace", "-g",
                 "DirectionalGhost", "-l", "smallClassic", "--seed", "3", "--max-moves", "6",
                 "--record", str(path)]) == 0
    data = json.loads(path.read_text(encoding="utf-8"))
    data["pacman_traces"][1] = alphabeta(data["actions"][3:6])  # Pacman's 2nd round
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_the_page_data_keeps_the_mcts_fields_and_pacmans_line(game: Path) -> None:
    replay = load_replay(game)
    data = page_data(replay)
    traces = data["traces"]
    assert len(traces) == 6 and traces[1]["method"] == "alphabeta"
    for move, trace in enumerate(traces):
        recorded = replay.record.pacman_traces[move]
        assert recorded is not None
        assert {key: value for key, value in trace.items() if key != "pv"} == recorded
    first = traces[0]
    assert first["method"] == "mcts" and first["playouts"] == 40
    line = [action for _, action in first["principal_variation"]]
    # the most-visited line is Pacman's path alone, one cell per move from where he stands
    assert first["pv"]["played"] == len(line) >= 1
    (agent, cells), = first["pv"]["paths"]
    assert agent == 0 and len(cells) == len(line) + 1
    assert cells[0] == list(replay.layout.pacman_start)


def test_the_search_panel_shows_an_mcts_move_and_a_tree_search_move(
        visit: Any, game: Path, tmp_path: Path) -> None:
    html = tmp_path / "game.html"
    assert main(["replay", "-q", str(game), "--html", str(html)]) == 0
    data = json.loads(game.read_text(encoding="utf-8"))
    agents = data["num_ghosts"] + 1
    page = visit.open(html)
    page.wait_for_selector("body[data-ready=true]")

    def at(pacman_move: int) -> None:
        page.locator("#scrub").fill(str((pacman_move - 1) * agents + 1))
        assert page.locator("#search-move").inner_text() == f"Pacman move {pacman_move}"

    def shown(selector: str) -> bool:
        return bool(page.locator(selector).is_visible())

    for pacman_move in (1, 6, 2, 3):
        at(pacman_move)
        trace = data["pacman_traces"][pacman_move - 1]
        rows = page.locator("#root-values tr.root-action")
        assert rows.count() == len(trace["root_values"])
        chosen = page.locator("#root-values tr.chosen .action-name")
        assert chosen.count() == 1 and chosen.inner_text() == trace["action"]
        assert page.locator("#search-chosen").inner_text() == trace["action"]
        assert page.locator("#search-nodes").inner_text() == str(trace["nodes_generated"])
        assert page.locator("#pv-path .pv-agent").count() >= 1
        if trace["method"] == "alphabeta":
            assert page.locator("#search-method").inner_text() == "alphabeta"
            assert page.locator("#root-value-head").inner_text() == "value"
            assert page.locator("#search-value-label").inner_text() == "value"
            assert page.locator("#search-pv-label").inner_text() == "principal variation"
            assert page.locator("#search-pv").inner_text() == \
                "Pacman {}, Ghost 1 {}, Ghost 2 {}".format(*data["actions"][3:6])
            assert page.locator("#search-cuts").inner_text() == "3"
            assert shown("#search-cuts") and shown("#search-depth")
            assert not shown("#search-playouts") and not shown("#root-visits-head")
            assert page.locator("#root-values .action-visits").count() == 0
            continue
        visits = dict(trace["root_visits"])
        assert page.locator("#search-method").inner_text() == \
            "mcts playouts=40 horizon=10 c=1"
        assert page.locator("#search-stopped").inner_text() == "its playout budget"
        assert page.locator("#search-playouts").inner_text() == "40"
        assert page.locator("#search-tree-size").inner_text() == str(trace["tree_size"])
        assert page.locator("#root-value-head").inner_text() == "mean value"
        assert page.locator("#search-value-label").inner_text() == "mean"
        assert page.locator("#search-chosen-visits").inner_text() == \
            f", {visits[trace['action']]} visits"
        assert [rows.nth(i).locator(".action-visits").inner_text()
                for i in range(rows.count())] == [str(visits[a]) for a, _ in
                                                  trace["root_values"]]
        assert page.locator("#search-pv-label").inner_text() == "most-visited line"
        assert page.locator("#search-pv").inner_text() == ", ".join(
            action for _, action in trace["principal_variation"])
        assert shown("#search-playouts") and shown("#search-stopped")
        assert shown("#root-visits-head")
        assert not shown("#search-cuts") and not shown("#search-pruned")
        assert not shown("#search-depth") and not shown("#search-evaluations")
    page.screenshot(path=str(tmp_path / "mcts.png"), full_page=True)
    assert visit.outside_requests() == [] and visit.errors == []
