"""`TeamGhost`: ghosts that hunt as one team, planning their moves jointly against Pacman.

An `AdversarialGhost` searches for itself alone and folds its allies in as greedy chasers, so
two of them tend to run down the same corridor behind Pacman. A team ghost searches the game
seen by the whole team (`TeamView`): one MAX player whose actions are the *joint* moves of every
ghost still to move in the round, against Pacman (MIN). The team's evaluation
(`team_evaluation`) rewards cutting off Pacman's escape, the cells Pacman reaches before any
ghost (`GameState.safe_cell_count`), as well as closing in. Each ghost plays its own part of the
team's best plan; the next ghost plans again from the position the first one left, which is the
same plan unless the first one broke a tie, so every ghost plays one move of one team plan.

A joint move is one MAX layer rather than one MIN layer per ghost, but the value is the same:
the ghosts move one after the other within a round, with nothing between them, so the best
joint move is the best move of the first ghost followed by the best reply of the next.
"""

from __future__ import annotations

import itertools
from typing import Any

from pacman import Direction, GameState
from pacman.agents.ghosts import CATCH_VALUE, GhostAgent, GhostsSide, HunterSettings

__all__ = ["TeamGhost", "TeamView", "team_evaluation"]

#: Cells Pacman reaches first that the evaluation counts (the rest of the maze is "escape").
SAFE_LIMIT = 20
#: Weight of one cell of Pacman's safe region, against one step of ghost distance.
SAFE_WEIGHT = 3.0

JointAction = tuple[Direction, ...]


class TeamView(GhostsSide):
    """The game seen by the ghost team, as a two-player `SearchState`.

    Agent 0 is the team (MAX): its actions are the joint moves of ghosts `first`..n-1, in
    turn order (`first` is the ghost to move at the root, then 1 after every Pacman move).
    Agent 1 is Pacman (MIN). A ghost's legal moves depend only on its own position and
    direction, so the joint moves are the product of each ghost's legal moves.
    """

    __slots__ = ("first", "state")

    num_agents = 2

    def __init__(self, state: GameState, first: int = 1) -> None:
        if not 1 <= first < state.num_agents:
            raise ValueError(f"no ghost {first} in a game of {state.num_agents - 1} ghost(s)")
        self.state, self.first = state, first

    def legal_actions(self, agent: int) -> tuple[Any, ...]:
        """The team's joint moves (agent 0), in canonical product order, or Pacman's moves."""
        state = self.state
        if state.is_terminal():
            return ()
        if agent == 1:
            return state.legal_actions(0)
        return tuple(itertools.product(*(state.legal_actions(ghost)
                                         for ghost in range(self.first, state.num_agents))))

    def successor(self, agent: int, action: Any) -> TeamView:
        """Play the team's joint move (stopping if a ghost ends the game) or Pacman's move."""
        state = self.state
        if agent == 1:
            return TeamView(state.successor(0, action), 1)
        for ghost, move in enumerate(action, start=self.first):
            state = state.successor(ghost, move)
            if state.is_terminal():
                break
        return TeamView(state, 1)


def team_evaluation(view: TeamView) -> float:
    """The team's evaluation: a catch is worth `CATCH_VALUE`, Pacman's win its negative; else
    every cell Pacman reaches before all ghosts costs `SAFE_WEIGHT`, every step between Pacman
    and a hunting ghost costs 1, and a scared ghost gains 1 per step it keeps away."""
    state = view.state
    if state.is_lose():
        return CATCH_VALUE - state.score
    if state.is_win():
        return -CATCH_VALUE - state.score
    value = -SAFE_WEIGHT * state.safe_cell_count(SAFE_LIMIT)
    for distance, timer in zip(state.ghost_distances(), state.scared_timers):
        value += distance if timer > 0 else -distance
    return value


class TeamGhost(GhostAgent[HunterSettings]):
    """A ghost of a hunting team: alpha-beta over the team's joint moves against Pacman.

    It searches `depth` plies (a joint move of the ghosts, then Pacman's move) of `TeamView`
    with `team_evaluation`, and plays its own move of the best joint plan; ties between its own
    moves are broken with the game's generator.
    """

    Settings = HunterSettings

    def __init__(self, index: int = 1, settings: HunterSettings | None = None,
                 **values: Any) -> None:
        super().__init__(index, settings, **values)
        self.depth = self.settings.depth
        self.last_decision: Any = None

    def settings_text(self) -> str:
        """Its search depth."""
        return f"depth={self.depth}"

    def best_actions(self, state: GameState) -> tuple[Direction, ...]:
        """Its own moves that start a best joint plan, in legal order."""
        from pacman.agents.search import alphabeta

        decision = alphabeta(TeamView(state, self.index), self.depth, team_evaluation)
        self.last_decision = decision
        own = {joint[0] for joint in decision.best_actions}
        return tuple(a for a in state.legal_actions(self.index) if a in own)

    def distribution(self, state: GameState) -> list[tuple[Direction, float]]:
        """Uniform over its moves that start a best plan."""
        best = self.best_actions(state)
        return [(a, 1.0 / len(best) if a in best else 0.0)
                for a in state.legal_actions(self.index)]

    def get_action(self, state: GameState) -> Direction:
        """Its move of the team's best plan, ties broken with the game's generator."""
        best = self.best_actions(state)
        return best[0] if len(best) == 1 else self.rng.choice(best)
