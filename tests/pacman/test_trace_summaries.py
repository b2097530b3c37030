"""A move's search summary is checked when it is recorded, as a replay reads it: one a replay
could not hold (NaN, a set, bytes, a reference to itself, a 401-digit number, a field of the
wrong type) is dropped with a `TraceDropped` warning, and the game, its record and its replay
are whole (issue: hostile inputs, round 3, class 7)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pacman import load_layout, run_game
from pacman.agents.registry import make_agent
from pacman.game import TraceDropped
from pacman.replay import load_replay
from pacman.replay.format import save_replay
from pacman.replay.reader import trace_problem
from pacman.state import GameState


def _self_referencing() -> dict[str, Any]:
    summary: dict[str, Any] = {"method": "alphabeta", "depth": 1}
    summary["again"] = summary
    return summary


GOOD = {"method": "alphabeta", "depth": 1, "action": "Stop", "value": 0, "nodes_generated": 1,
        "evaluations": 1, "cuts": 0, "pruned": 0, "root_values": [["Stop", 0]],
        "principal_variation": [[0, "Stop"]]}
BROKEN = {
    "nan": {**GOOD, "value": float("nan")},
    "set": {**GOOD, "root_values": {1, 2}},
    "bytes": {**GOOD, "method": b"alphabeta"},
    "itself": _self_referencing(),
    "401 digits": {**GOOD, "depth": 10 ** 400},
    "wrong type": {**GOOD, "cuts": "many"},
}


class Summarised:
    """Stops, reporting a traced decision whose summary is `summary`."""

    def __init__(self, summary: dict[str, Any]) -> None:
        self.summary = summary
        self.last_decision: Any = None

    def get_action(self, state: GameState) -> str:
        outer = self

        class Trace:
            def summary(self) -> dict[str, Any]:
                return outer.summary

        class Decision:
            nodes_generated = 1
            trace = Trace()

        self.last_decision = Decision()
        return "Stop"


@pytest.mark.parametrize("kind", sorted(BROKEN))
def test_a_summary_a_replay_cannot_hold_is_dropped_and_the_game_kept(
        kind: str, tmp_path: Path) -> None:
    layout = load_layout("testClassic")
    with pytest.warns(TraceDropped, match="a move's search summary was dropped"):
        record = run_game(layout, Summarised(BROKEN[kind]),
                          [make_agent("RandomGhost", "ghost", index=1)], seed=3, max_moves=5)
    assert record.pacman_moves > 0 and record.fault is None
    assert record.pacman_traces == ()  # every move's summary was the broken one
    path = tmp_path / "game.json"
    save_replay(path, record, layout, 1)
    assert load_replay(path).record == record


def test_a_good_summary_is_kept() -> None:
    record = run_game(load_layout("testClassic"), Summarised(GOOD),
                      [make_agent("RandomGhost", "ghost", index=1)], seed=3, max_moves=5)
    assert record.pacman_traces and all(t == GOOD for t in record.pacman_traces)


# --- the fuzz suite's case: any summary an agent may report -----------------------------------

VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(10 ** 40), 10 ** 40) | st.floats()
    | st.text(max_size=5) | st.sampled_from(["inf", "-inf", "nan", "Stop", "North", "\ud800"])
    | st.binary(max_size=3),
    lambda inner: st.lists(inner, max_size=3) | st.frozensets(st.integers(), max_size=2)
    | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=8)
SUMMARIES = st.fixed_dictionaries(
    {}, optional={key: VALUES for key in GOOD}).map(lambda extra: {**GOOD, **extra})


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(summary=SUMMARIES)
def test_any_summary_leaves_a_record_that_writes_a_replay_that_reads_back(
        summary: dict[str, Any], tmp_path: Path) -> None:
    import warnings

    layout = load_layout("testClassic")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TraceDropped)
        record = run_game(layout, Summarised(summary),
                          [make_agent("RandomGhost", "ghost", index=1)], seed=3, max_moves=2)
    assert record.fault is None
    assert all(trace_problem(trace) is None for trace in record.pacman_traces if trace)
    path = tmp_path / "game.json"
    save_replay(path, record, layout, 1)
    assert load_replay(path).record == record
