"""Test helper: non-terminal positions reached by seeded random play."""

from __future__ import annotations

import random

from pacman import GameState, load_layout


def random_positions(layout: str, count: int, seed: int) -> list[GameState]:
    """`count` non-terminal positions of `layout`, each after 5-59 rounds of seeded random
    moves (ghosts included), Pacman to move."""
    rng = random.Random(seed)
    found: list[GameState] = []
    while len(found) < count:
        state = GameState.initial(load_layout(layout))
        for _ in range(rng.randrange(5, 60)):
            for agent in range(state.num_agents):
                if state.is_terminal():
                    break
                state = state.successor(agent, rng.choice(state.legal_actions(agent)))
        if not state.is_terminal():
            found.append(state)
    return found
