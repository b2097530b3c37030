"""The anytime agents: settings, exact values at a fixed depth, and same seed, same game."""

from __future__ import annotations

import gc

import pytest

from pacman import GameState, load_layout, run_game
from pacman.agents.evaluation import NAMED
from pacman.agents.ghosts import DirectionalGhost
from pacman.agents.pacman_agents import IterativeAlphaBetaAgent, IterativeExpectimaxAgent
from pacman.agents.registry import make_agent
from pacman.agents.search import alphabeta, expectimax
from pacman.errors import RegistryError


def _game_states(moves: int) -> list[GameState]:
    """The states of a short game of greedy-ish play (the agent itself), for move-by-move use."""
    layout = load_layout("smallClassic")
    state = GameState.initial(layout)
    states = []
    agent = IterativeAlphaBetaAgent(depth=2, time=0)
    ghosts = [DirectionalGhost(i) for i in range(1, state.num_agents)]
    for _ in range(moves):
        if state.is_terminal():
            break
        states.append(state)
        state = state.successor(0, agent.get_action(state))
        for ghost in ghosts:
            if state.is_terminal():
                break
            state = state.successor(ghost.index, ghost.get_action(state))
    return states


def test_a_fixed_depth_agent_keeps_its_table_across_moves_and_the_plain_values() -> None:
    """With no budget the agent searches exactly to `depth`; its table, kept from move to
    move, never changes a value."""
    agent = IterativeAlphaBetaAgent(depth=3, time=0)
    expecting = IterativeExpectimaxAgent(depth=2, time=0)
    for state in _game_states(12):
        agent.get_action(state)
        assert agent.last_decision is not None
        assert agent.last_decision.value == alphabeta(state, 3, NAMED["wary"]).value
        expecting.get_action(state)
        assert expecting.last_decision is not None
        assert expecting.last_decision.value == pytest.approx(
            expectimax(state, 2, NAMED["wary"]).value, rel=1e-12)
    assert agent.table is not None and len(agent.table) > 0


@pytest.mark.parametrize("name", ["IterativeAlphaBetaAgent", "IterativeExpectimaxAgent"])
def test_same_seed_same_game_with_a_node_budget(name: str) -> None:
    def play() -> tuple[str, int, tuple[str, ...], tuple[int | None, ...]]:
        pacman = make_agent(name, "pacman", {"nodes": 2000, "time": 0})
        record = run_game(load_layout("smallClassic"), pacman,
                          [DirectionalGhost(1), DirectionalGhost(2)], seed=4, max_moves=60)
        return record.outcome.value, record.score, record.actions, record.pacman_nodes

    first = play()
    assert first == play()
    assert all(n is not None and n <= 2000 + 5 for n in first[3])


def test_descriptions_show_the_budget_and_what_is_off() -> None:
    agent = IterativeExpectimaxAgent(time=0.2, nodes=500, tt=False, prune=False, cutoff=0.01,
                                     ghost_model="directional")
    assert agent.describe() == ("IterativeExpectimaxAgent depth=64 wary time=0.2 nodes=500 "
                                "tt=False ghost_model=directional prune=False cutoff=0.01")
    assert IterativeAlphaBetaAgent().describe() == (
        "IterativeAlphaBetaAgent depth=64 wary time=0.1")


@pytest.mark.parametrize(("settings", "message"), [
    ({"time": -1}, "time must be a number >= 0"),
    ({"nodes": 1.5}, "nodes must be a whole number from 0 to 1,000,000,000"),
    ({"nodes": 10**10}, "nodes must be a whole number from 0 to 1,000,000,000"),
    ({"tt": "yes"}, "tt must be true or false"),
    ({"depth": 0}, "depth must be a positive integer"),
    ({"cutoff": 1}, "cutoff is a probability below 1"),
    ({"ghost_model": "smart"}, "unknown ghost_model"),
])
def test_bad_settings_are_one_line_errors(settings: dict[str, object], message: str) -> None:
    with pytest.raises(RegistryError, match=message):
        make_agent("iterative-expectimax", "pacman", settings)


@pytest.mark.parametrize(("delay_loss", "action", "value"), [
    (True, "West", -311.0),      # depth 2 still saw a way out: put the loss off
    (False, "East", -1000501.0),  # depth 3 sees only losses: the quickest one (into the ghost)
])
def test_a_lost_position_puts_the_loss_off(delay_loss: bool, action: str, value: float) -> None:
    """On trappedClassic (a trap from the start: `wary` takes 200 off), 3 plies against
    perfect ghosts lose whatever Pacman does; with
    `delay_loss` the agent plays the best move of the deepest search that saw a way out."""
    state = GameState.initial(load_layout("trappedClassic"))
    agent = IterativeAlphaBetaAgent(depth=3, time=0, delay_loss=delay_loss)
    assert agent.get_action(state) == action
    assert agent.last_decision is not None and agent.last_decision.value == value
    assert [i.value for i in agent.last_decision.iterations] == [-298.0, -311.0, -1000501.0]


@pytest.mark.parametrize("name", ["IterativeAlphaBetaAgent", "IterativeExpectimaxAgent"])
@pytest.mark.parametrize("budget", [{"time": 0.01}, {"time": 0, "nodes": 500}])
@pytest.mark.parametrize("collector_on", [True, False])
def test_a_time_budget_holds_the_garbage_collector_off_during_the_move_only(
        name: str, budget: dict[str, float], collector_on: bool) -> None:
    """A full collection over the kept table overran budgets up to 7 times (performance.md):
    under a time budget the collector waits while the move is chosen, and is left as it was
    found; a node budget leaves it alone."""
    seen: set[bool] = set()

    def watching(state: GameState) -> float:
        seen.add(gc.isenabled())
        return float(state.score)

    agent = make_agent(name, "pacman", {**budget, "evaluation": watching})
    (gc.enable if collector_on else gc.disable)()
    try:
        for state in _game_states(3):
            agent.get_action(state)
            assert gc.isenabled() is collector_on
    finally:
        gc.enable()
    assert seen == ({False} if budget["time"] or not collector_on else {True})
