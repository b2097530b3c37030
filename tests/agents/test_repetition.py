"""`repetition`: a search Pacman that would circle for ever takes a new way.

On the mirror image of `assumptions.lay` (turned half a turn), the alpha-beta Pacman of the
headline stalls beside the dead end against the hunting ghost: nothing within its horizon is
better than waiting, ties decide, and it goes back and forth until the move cap. Scoring a
position already on the game's path a few points lower, as chess engines score repetitions,
makes it go for the other dot and win. Without the setting, the search is the classic one.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pacman.agents.pacman_agents import AlphaBetaAgent
from pacman.hosting.local import play
from pacman.layout import load_layout, parse_layout
from pacman.record import Outcome
from pacman.specs import AgentSpec, GameSpec
from pacman.state import GameState

HALF_TURN = "\n".join(line[::-1] for line in reversed(
    (Path(__file__).parents[2] / "pacman" / "layouts" / "assumptions.lay")
    .read_text(encoding="utf-8").splitlines())) + "\n"


def game(repetition: float, seed: int = 0, max_moves: int = 120) -> tuple[Outcome, int]:
    settings = {"depth": 4, "evaluation": "stakes", "repetition": repetition}
    record = play(GameSpec.of(parse_layout(HALF_TURN, "assumptions-half-turn"),
                              AgentSpec.of("AlphaBetaAgent", settings),
                              AgentSpec.of("AdversarialGhost", {"depth": 2}), None, seed,
                              max_moves=max_moves), isolation="none")
    return record.outcome, record.pacman_moves


def test_without_it_the_headline_pacman_stalls_on_the_half_turned_layout() -> None:
    assert game(0.0) == (Outcome.CAPPED, 120)


@pytest.mark.parametrize("seed", [0, 1])
def test_with_it_the_same_pacman_wins_there(seed: int) -> None:
    outcome, moves = game(5.0, seed)
    assert outcome is Outcome.WIN and moves < 60


def test_repetition_zero_is_the_classic_search() -> None:
    state = GameState.initial(load_layout("smallClassic"), 2)
    plain = AlphaBetaAgent(depth=3, evaluation="better")
    zero = AlphaBetaAgent(depth=3, evaluation="better", repetition=0)
    assert plain.get_action(state) == zero.get_action(state)
    assert plain.last_decision.nodes_generated == zero.last_decision.nodes_generated
    assert "repetition" not in zero.describe()
    assert "repetition=5" in AlphaBetaAgent(repetition=5).describe()


def test_a_repeated_position_is_worth_less_by_the_penalty_per_visit() -> None:
    state = GameState.initial(load_layout("smallClassic"), 2)
    agent = AlphaBetaAgent(depth=1, evaluation="score", repetition=5)
    agent.register_initial_state(state)
    before = agent.evaluation(state)
    agent.get_action(state)
    agent.get_action(state)
    assert agent.evaluation(state) == before - 10
    agent.register_initial_state(state)  # a new game forgets the path
    assert agent.evaluation(state) == before
