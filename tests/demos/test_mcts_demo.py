"""The `mcts` demo: MCTS and the anytime expectimax, with the same evaluation, ghost model and
time per move (node budgets): MCTS clears an open maze with far-apart dots in time more often
(the expectimax wanders to the move cap), the expectimax wins clearly where the food lies in a
long dead end (MCTS is caught in it)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pacman.demos import find_demo
from pacman.demos.demo import play_matchup
from pacman.demos.mcts import (
    BOARDS,
    DEMOS,
    EXPECTIMAX_NODES,
    FAR,
    MCTS_NODES,
    MIN_GAP,
    TRAP,
    caught_in_dead_end,
    won_alone,
)
from pacman.demos.measure import play_demo
from pacman.record import GameRecord, Outcome

DEMO = DEMOS[0]


def test_the_demo_is_found_by_name_and_both_searches_know_the_same() -> None:
    assert find_demo("mcts") is DEMO
    assert DEMO.matchups == (FAR.expectimax, FAR.mcts, TRAP.expectimax, TRAP.mcts)
    for board in BOARDS:
        searched, sampled = board.expectimax, board.mcts
        assert (searched.layout, searched.ghosts, searched.max_moves) == (
            sampled.layout, sampled.ghosts, sampled.max_moves)
        assert [g.name for g in searched.ghosts] == ["DirectionalGhost"] * board.ghosts
        assert searched.pacman.name == "IterativeExpectimaxAgent"
        assert sampled.pacman.name == "MCTSAgent"
        tree, playouts = searched.pacman.settings_dict(), sampled.pacman.settings_dict()
        for setting in ("evaluation", "ghost_model"):  # the same knowledge
            assert tree[setting] == playouts[setting]
        assert tree["evaluation"] == "score" and tree["ghost_model"] == "directional"
        # node budgets, no clock: the same seed gives the same game
        assert (tree["time"], tree["nodes"]) == (0, EXPECTIMAX_NODES)
        assert playouts["nodes"] == MCTS_NODES and "time" not in playouts


def test_the_node_budgets_give_the_same_game_for_the_same_seed() -> None:
    # the first two moves of game 3 of every matchup, twice: the same records, each move
    # within its node budget (both look at it between steps, so they pass it by a few nodes)
    expected = {
        FAR.expectimax.label: ((5002, 5001), "North South"),
        FAR.mcts.label: ((6524, 6509), "West West"),
        TRAP.expectimax.label: ((5002, 5001), "West North"),
        TRAP.mcts.label: ((6505, 6504), "West North"),
    }
    for matchup in DEMO.matchups:
        short = replace(matchup, max_moves=2)
        first, again = play_matchup(short, 3), play_matchup(short, 3)
        assert first == again and first.pacman_nodes == again.pacman_nodes
        assert first.outcome is Outcome.CAPPED
        nodes, moves = expected[matchup.label]
        assert (first.pacman_nodes, " ".join(first.actions[::2])) == (nodes, moves), matchup.label


def _record(layout: str, outcome: Outcome, seed: int) -> GameRecord:
    return GameRecord(layout=layout, seed=seed, agents=("P", "G"), outcome=outcome, score=0,
                      pacman_moves=0, actions=())


def _games(layout: str, wins: int, games: int = 20) -> list[GameRecord]:
    return [_record(layout, Outcome.WIN if i < wins else Outcome.LOSS, i) for i in range(games)]


def _results(far: tuple[int, int], trap: tuple[int, int]) -> dict[str, list[GameRecord]]:
    return {FAR.expectimax.label: _games(FAR.layout, far[0]),
            FAR.mcts.label: _games(FAR.layout, far[1]),
            TRAP.expectimax.label: _games(TRAP.layout, trap[0]),
            TRAP.mcts.label: _games(TRAP.layout, trap[1])}


def test_the_judge_needs_mcts_ahead_on_the_open_maze_and_the_expectimax_in_the_trap() -> None:
    assert MIN_GAP == 0.25  # 5 games of 20
    holds = DEMO.judge(_results(far=(18, 19), trap=(15, 10)))
    assert holds.holds, holds.text
    assert "On assumptions-big, expectimax won 18/20 (0 where the other lost" in holds.text
    assert "MCTS won 19/20 (1 where the other lost" in holds.text
    assert "MCTS won 10/20 (0 where the other lost" in holds.text
    assert not DEMO.judge(_results(far=(19, 19), trap=(15, 10))).holds  # MCTS not ahead
    assert not DEMO.judge(_results(far=(18, 19), trap=(15, 11))).holds  # trap not shown
    assert not DEMO.judge(_results(far=(18, 19), trap=(10, 15))).holds
    assert "The claim needs" in DEMO.judge(_results(far=(19, 19), trap=(15, 10))).text
    assert DEMO.judge({}).holds is False
    assert DEMO.judge({}).text == "no games played"


def test_won_alone_counts_seed_by_seed() -> None:
    mine = [_record("x", o, i) for i, o in enumerate((Outcome.WIN, Outcome.WIN, Outcome.LOSS))]
    theirs = [_record("x", o, i) for i, o in enumerate((Outcome.LOSS, Outcome.WIN, Outcome.WIN))]
    assert (won_alone(mine, theirs), won_alone(theirs, mine)) == (1, 1)


@pytest.mark.slow
def test_the_demo_s_own_games() -> None:
    assert DEMO.games == 8
    results = play_demo(DEMO, DEMO.games, jobs=2)
    verdict = DEMO.judge(results)
    assert verdict.holds, verdict.text
    outcomes = {label: [r.outcome for r in records] for label, records in results.items()}
    assert outcomes[FAR.expectimax.label].count(Outcome.WIN) == 5
    assert outcomes[FAR.expectimax.label].count(Outcome.CAPPED) == 3  # wandered, never caught
    assert outcomes[FAR.mcts.label].count(Outcome.WIN) == 8
    assert outcomes[TRAP.expectimax.label].count(Outcome.WIN) == 5
    assert outcomes[TRAP.mcts.label].count(Outcome.WIN) == 2
    assert caught_in_dead_end(TRAP.mcts, results[TRAP.mcts.label]) == 4
    assert caught_in_dead_end(TRAP.expectimax, results[TRAP.expectimax.label]) == 3
