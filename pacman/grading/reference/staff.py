"""The reference ("staff") search behind the classic game tests' solution files.

For each Pacman move of a recorded game, a `.solution` lists the tied best actions and the
explored-state count of a correct agent, with Stop kept and with Stop removed at every Pacman
node; the tied best actions one ply shallower and one deeper; and those of an agent with the
partial-ply bug (the last ghost of the last ply does not move). `staff_search` computes one of
those, on our own states, counting explored states the classic way: every state that was the
parent or the child of a generated successor, compared by value.

The search is the plain recursion every correct student writes: depth counts plies (one
Pacman move and one move of each ghost), a state is a leaf at the depth limit or when won or
lost, alpha-beta prunes on strict inequality only, expectimax averages its children uniformly.
Bounds start at +/-100000 and values are accumulated as the classic staff agent does, so
solution files agree with the classic ones to the last bit.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pacman.rules import STOP
from pacman.state import GameState

__all__ = ["ALGORITHMS", "StaffAnswer", "score_evaluation", "staff_search"]

ALGORITHMS = ("MinimaxAgent", "AlphaBetaAgent", "ExpectimaxAgent")
_BOUND = 100000.0


def score_evaluation(state: GameState) -> float:
    """The classic default evaluation: the score, as a float."""
    return float(state.score)


@dataclass(frozen=True)
class StaffAnswer:
    """The tied best root actions (in legal order), their value, and the explored count."""

    actions: tuple[str, ...]
    value: float
    explored: int


def staff_search(state: GameState, depth: int, alg: str, *, keep_stop: bool = True,
                 partial_ply: bool = False,
                 evaluate: Callable[[GameState], float] = score_evaluation) -> StaffAnswer:
    """Search `depth` plies from `state` with `alg` (`MinimaxAgent`, `AlphaBetaAgent` or
    `ExpectimaxAgent`); see the module docstring for the exact semantics."""
    if alg not in ALGORITHMS:
        raise ValueError(f"unknown algorithm {alg!r} (one of {', '.join(ALGORITHMS)})")
    pruning = alg == "AlphaBetaAgent"
    chance = alg == "ExpectimaxAgent"
    agents = state.num_agents
    explored: set[GameState] = set()

    def child(parent: GameState, agent: int, action: Any) -> GameState:
        successor = parent.successor(agent, action)
        explored.add(parent)
        explored.add(successor)
        return successor

    def value(s: GameState, agent: int, left: int, alpha: float,
              beta: float) -> tuple[list[str], float]:
        if agent == 0:
            left -= 1
        if left == 0 or s.is_win() or s.is_lose() or (
                partial_ply and left == 1 and agent == agents - 1):
            return [], evaluate(s)
        nxt = (agent + 1) % agents
        actions = [a.value for a in s.legal_actions(agent)]
        if agent == 0:
            if not keep_stop and STOP.value in actions:
                actions.remove(STOP.value)
            best_actions: list[str] = []
            best = -_BOUND
            for action in actions:
                _, score = value(child(s, agent, action), nxt, left, max(best, alpha), beta)
                if score < best:
                    continue
                if score == best:
                    best_actions.append(action)
                else:
                    best_actions, best = [action], score
                if pruning and score > beta:
                    return [], score
            return best_actions, best
        if chance:
            average = 0.0
            for action in actions:
                probability = 1.0 / len(actions)
                _, score = value(child(s, agent, action), nxt, left, alpha, beta)
                average += score * probability
            return [], average
        worst_actions: list[str] = []
        worst = _BOUND
        for action in actions:
            _, score = value(child(s, agent, action), nxt, left, alpha, min(beta, worst))
            if score > worst:
                continue
            if score == worst:
                worst_actions.append(action)
            else:
                worst_actions, worst = [action], score
            if pruning and score < alpha:
                return [], score
        return worst_actions, worst

    actions, best = value(state, 0, depth + 1, -_BOUND, _BOUND)
    return StaffAnswer(tuple(actions), best, len(explored))
