"""`cycles`: a plain search Pacman that comes round a loop to where it was takes another way.

On the maze below (the headline family's pocket and loop dots, with a small ring round one
pillar between Pacman and the hunter), depth-4 Expectimax eats a loop dot and then goes round
the ring with the hunter one cell behind it: eight moves a lap, twice its horizon, so no leaf
shows that the way comes back, and `repetition` hardly moves an expectimax root (a leaf's
penalty is averaged over every move the ghost model gives the ghost). With `cycles=10` the
second time the game stands in a position, the move played there the first time costs 10
points, and Pacman leaves the ring for the last dot. Where no position repeats, the setting
changes nothing: the same search, node for node.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from pacman.agents.evaluation import resolve_evaluation
from pacman.agents.pacman_agents import (
    AlphaBetaAgent,
    ExpectimaxAgent,
    MinimaxAgent,
    TracedSearchSettings,
)
from pacman.agents.registry import make_agent
from pacman.agents.search import alphabeta, expectimax, minimax
from pacman.errors import SettingsError
from pacman.hosting.local import play
from pacman.layout import load_layout, parse_layout
from pacman.record import Outcome
from pacman.specs import AgentSpec, GameSpec
from pacman.state import GameState

RING = parse_layout("""\
%%%%%%%%%%%%%
%%%%%%.%%%%%%
%%%%%% %%%%%%
%.    P    .%
% %%%   %%% %
% %%% % %%% %
% %%%   %%% %
% %%%%G%%%% %
% %%%% %%%% %
%           %
%%%%%%%%%%%%%
""", "cycles-small-ring")


def game(cycles: float, seed: int, max_moves: int = 100) -> tuple[Outcome, int, int, int]:
    """Outcome, Pacman's moves, the most times one position stood where Pacman moved, and
    how many positions it moved from, for depth-4 Expectimax against the hunter on RING."""
    settings = {"depth": 4, "evaluation": "stakes", "cycles": cycles}
    record = play(GameSpec.of(RING, AgentSpec.of("ExpectimaxAgent", settings),
                              AgentSpec.of("AdversarialGhost", {"depth": 2}), None, seed,
                              max_moves=max_moves), isolation="none")
    state, seen = GameState.initial(RING, 1), Counter[Any]()
    for turn, action in enumerate(record.actions):
        if turn % state.num_agents == 0:
            seen[state.position] += 1
        state = state.successor(turn % state.num_agents, action)
    return record.outcome, record.pacman_moves, max(seen.values()), len(seen)


def test_without_it_expectimax_circles_the_ring_to_the_cap() -> None:
    assert game(0.0, seed=1) == (Outcome.CAPPED, 100, 18, 33)


def test_with_it_the_same_game_leaves_the_ring_and_wins() -> None:
    assert game(10.0, seed=1) == (Outcome.WIN, 59, 2, 58)


def test_a_game_that_never_repeats_a_position_is_the_same_game() -> None:
    assert game(0.0, seed=0) == game(10.0, seed=0) == (Outcome.WIN, 57, 1, 57)


PLAIN = ((MinimaxAgent, minimax, 2), (AlphaBetaAgent, alphabeta, 3),
         (ExpectimaxAgent, expectimax, 3))


@pytest.mark.parametrize(("agent_class", "search", "depth"), PLAIN,
                         ids=lambda item: getattr(item, "__name__", str(item)))
def test_a_new_position_is_the_classic_search_node_for_node(
        agent_class: Any, search: Any, depth: int) -> None:
    state = GameState.initial(load_layout("smallClassic"), 2)
    evaluation = resolve_evaluation("better")
    classic = search(state, depth, evaluation)
    for cycles in (0, 10):
        agent = agent_class(depth=depth, evaluation="better", cycles=cycles)
        agent.register_initial_state(state)
        assert agent.get_action(state) == classic.action
        assert agent.last_decision == classic  # action, value, nodes and ties


@pytest.mark.parametrize(("agent_class", "search", "depth"), PLAIN,
                         ids=lambda item: getattr(item, "__name__", str(item)))
def test_at_a_position_it_was_in_each_move_is_searched_alone_less_the_penalty_per_time_played(
        agent_class: Any, search: Any, depth: int) -> None:
    state = GameState.initial(load_layout("smallClassic"), 2)
    evaluation = resolve_evaluation("better")
    alone = {}
    for move in state.legal_actions(0):
        def restricted(s: Any, agent: int, move: Any = move) -> Any:
            return (move,) if s is state and agent == 0 else s.legal_actions(agent)
        alone[move] = search(state, depth, evaluation, actions=restricted)
    agent = agent_class(depth=depth, evaluation="better", cycles=10)
    agent.register_initial_state(state)
    played: Counter[Any] = Counter()
    for _ in range(4):  # the same position again and again: the played moves cost more
        action = agent.get_action(state)
        decision = agent.last_decision
        if played:
            penalised = {move: alone[move].value - 10 * played[move] for move in alone}
            best = max(penalised.values())
            assert decision.best_actions == tuple(m for m, v in penalised.items() if v == best)
            assert (decision.action, decision.value) == (decision.best_actions[0], best)
            assert decision.nodes_generated == 1 + sum(
                d.nodes_generated - 1 for d in alone.values())
        played[action] += 1
    assert len(played) > 1  # it did not play the same move every time
    agent.register_initial_state(state)  # a new game: nothing was played
    assert agent.get_action(state) == search(state, depth, evaluation).action


def test_the_setting_reads_and_prints_as_text() -> None:
    spec = AgentSpec.parse("expectimax@depth=4,evaluation=stakes,cycles=10")
    assert AgentSpec.parse(spec.text_form()) == spec
    assert spec.text_form() == "expectimax@cycles=10,depth=4,evaluation=stakes"
    agent = make_agent(spec.name, "pacman", spec.settings_dict(), index=0)
    assert agent.cycles == 10.0
    assert agent.describe() == "ExpectimaxAgent depth=4 stakes cycles=10"
    assert make_agent("alphabeta", "pacman", {"cycles": 2.5, "repetition": 5},
                      index=0).describe() == "AlphaBetaAgent depth=2 score repetition=5 cycles=2.5"
    assert "cycles" not in ExpectimaxAgent(cycles=0).describe()
    assert ExpectimaxAgent(cycles=1, ghost_model="directional").describe() == (
        "ExpectimaxAgent depth=2 score cycles=1 ghost_model=directional")


def test_the_setting_is_checked_and_stays_out_of_batch_keys_at_its_default() -> None:
    with pytest.raises(SettingsError, match="cycles"):
        TracedSearchSettings(cycles=-1)
    assert "cycles" not in TracedSearchSettings.batch_settings({"depth": 4})
    assert TracedSearchSettings.batch_settings({"cycles": 10})["cycles"] == 10
