"""A replay page replays a principal variation only as far as the search that wrote it could
have seen: its depth times the agents (issue: hostile inputs, round 3, class 8: a 13 MB line
took a minute and wrote a 17 MB page)."""

from __future__ import annotations

import json

from pacman import load_layout, run_game
from pacman.agents.registry import make_agent
from pacman.state import GameState
from pacman.web.replay_data import MAX_LINE, pv_bound, trace_entry


def test_a_line_longer_than_its_depth_allows_is_cut_when_read() -> None:
    layout = load_layout("smallClassic")
    record = run_game(layout, make_agent("alphabeta", "pacman", {"depth": 2, "trace": True}),
                      [make_agent("DirectionalGhost", "ghost", index=i) for i in (1, 2)],
                      seed=1, max_moves=3)
    summary = record.pacman_traces[0]
    assert summary is not None and len(summary["principal_variation"]) == 6  # 2 plies x 3
    root = GameState.initial(layout, 2)
    honest = trace_entry(summary, root)
    long = {**summary, "principal_variation": summary["principal_variation"] * 50_000}
    entry = trace_entry(long, root)
    assert entry == honest  # the 300,000-move line is read as its first 6 moves
    assert len(json.dumps(entry)) < 10_000
    assert pv_bound({"depth": 10**6}, 3) == MAX_LINE and pv_bound({"depth": "x"}, 3) == 3
