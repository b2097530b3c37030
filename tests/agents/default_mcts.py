"""Test helper: the move the default MCTS agent plays at a position."""

from __future__ import annotations

import random
from typing import Any

from pacman import GameState
from pacman.agents.mcts import MCTSAgent


def default_agents_move(state: GameState) -> Any:
    """The move the default MCTS agent plays at `state` (6,000 nodes, generator seed 0)."""
    agent = MCTSAgent(nodes=6000)
    agent.rng = random.Random(0)
    agent.register_initial_state(state)
    return agent.get_action(state)
