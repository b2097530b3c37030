"""`MaxnGhost`: a ghost with its own utility, searching the whole game with max^n.

Every agent of the game has a utility; each `MaxnGhost` searches from its own turn with
`pacman.agents.multiplayer.maxn`, assuming every agent maximises its own utility. What the ghosts
are after is the `utilities` setting:

- `cooperative`: the ghosts are a team. Each one gains `CATCH_UTILITY` when *any* ghost
  catches Pacman, and until then gains as Pacman's room shrinks: its utility is minus
  Pacman's safe cells (the cells Pacman reaches before every ghost, up to `SAFE_LIMIT`), so a
  pincer from two sides is worth more than two ghosts on one side.
- `competitive`: each ghost is for itself. It gains `CATCH_UTILITY` only when it catches
  Pacman itself, *loses* `CATCH_UTILITY` when another ghost does, and until then gains as it
  gets closer (its utility is minus its own maze distance to Pacman).

In both, a ghost loses `CATCH_UTILITY` if Pacman eats the last food, and a scared ghost
wants to be far (its shaping term flips sign). The ghosts' model of Pacman is the same in
both: Pacman wants room (its safe cells), and `CATCH_UTILITY` more to win or less to be
caught.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pacman import Direction, GameState
from pacman.agents.ghosts import GhostAgent
from pacman.agents.multiplayer import MaxnDecision, maxn
from pacman.agents.settings import AgentSettings, at_least_one, one_of, setting

__all__ = ["CATCH_UTILITY", "SAFE_LIMIT", "UTILITY_MODES", "MaxnGhost", "TurnView",
           "catcher", "game_utilities"]

UTILITY_MODES = ("cooperative", "competitive")
CATCH_UTILITY = 1000.0
SAFE_LIMIT = 20
COLLISION = 0.7  # docs/rules.md 15: Manhattan distance at which a ghost and Pacman collide


def catcher(state: GameState) -> int | None:
    """The ghost (agent index) that caught Pacman in a lost state, else None.

    Only the catching ghost can touch Pacman without being scared: any other would have ended
    the game earlier. (After a Pacman move the first such ghost in index order counts.)
    """
    if not state.is_lose():
        return None
    px, py = state.pacman_position
    for agent, ((x, y), timer) in enumerate(zip(state.ghost_positions, state.scared_timers,
                                                strict=True), start=1):
        if timer == 0 and abs(x - px) + abs(y - py) <= COLLISION:
            return agent
    return None


def game_utilities(state: GameState, mode: str) -> tuple[float, ...]:
    """Every agent's utility in `state` (Pacman first, then the ghosts in agent order)."""
    ghosts = range(1, state.num_agents)
    if state.is_win():
        return (CATCH_UTILITY, *(-CATCH_UTILITY for _ in ghosts))
    if state.is_lose():
        caught_by = catcher(state)
        if mode == "cooperative":
            return (-CATCH_UTILITY, *(CATCH_UTILITY for _ in ghosts))
        return (-CATCH_UTILITY, *(CATCH_UTILITY if g == caught_by else -CATCH_UTILITY
                                  for g in ghosts))
    room = float(state.safe_cell_count(SAFE_LIMIT))
    if mode == "cooperative":
        return (room, *(-room for _ in ghosts))
    distances, timers = state.ghost_distances(), state.scared_timers
    return (room, *(d if t > 0 else -d for d, t in zip(distances, timers, strict=True)))


class TurnView:
    """A game state seen from the turn of agent `first`: view agent k is real agent
    (first + k) mod n, so a search whose root is agent 0 starts with `first`'s move and the
    agents still move in their real order. Won, lost and the score are the real game's."""

    __slots__ = ("first", "state")

    def __init__(self, state: GameState, first: int) -> None:
        self.state, self.first = state, first

    @property
    def num_agents(self) -> int:
        """The game's agent count."""
        return self.state.num_agents

    def real(self, agent: int) -> int:
        """The game's index of view agent `agent`."""
        return (agent + self.first) % self.state.num_agents

    def legal_actions(self, agent: int) -> Sequence[Direction]:
        """The real agent's legal actions."""
        return self.state.legal_actions(self.real(agent))

    def successor(self, agent: int, action: Direction) -> TurnView:
        """The real agent plays `action`."""
        return TurnView(self.state.successor(self.real(agent), action), self.first)

    def is_win(self) -> bool:
        """Pacman won (a leaf)."""
        return self.state.is_win()

    def is_lose(self) -> bool:
        """Pacman was caught (a leaf)."""
        return self.state.is_lose()

    @property
    def score(self) -> float:
        """The game score."""
        return float(self.state.score)


@dataclass(frozen=True)
class MaxnSettings(AgentSettings):
    """The max^n ghost's depth and what each ghost wants."""

    depth: int = setting(2, "plies of its search (every agent moves once a ply)",
                         check=at_least_one)
    utilities: str = setting(
        "cooperative", "what each ghost wants: cooperative (any ghost's catch is every ghost's) "
        "or competitive (only its own catch counts)", check=one_of(*UTILITY_MODES))


class MaxnGhost(GhostAgent[MaxnSettings]):
    """A ghost searching `depth` plies of the whole game with max^n, with the `utilities` of
    `UTILITY_MODES` (`cooperative` or `competitive`, see the module). Root ties are broken
    with the game's generator."""

    Settings = MaxnSettings

    def __init__(self, index: int = 1, settings: MaxnSettings | None = None,
                 **values: Any) -> None:
        super().__init__(index, settings, **values)
        self.depth, self.utilities = self.settings.depth, self.settings.utilities
        self.last_decision: MaxnDecision | None = None

    def settings_text(self) -> str:
        """Its depth and utilities."""
        return f"depth={self.depth} utilities={self.utilities}"

    def view_utilities(self, view: TurnView) -> tuple[float, ...]:
        """The utility tuple in the view's agent order (this ghost first)."""
        real = game_utilities(view.state, self.utilities)
        return real[self.index:] + real[:self.index]

    def search(self, state: GameState) -> MaxnDecision:
        """The max^n decision from this ghost's turn (also kept in `last_decision`)."""
        decision = maxn(TurnView(state, self.index), self.depth, self.view_utilities)
        self.last_decision = decision
        return decision

    def distribution(self, state: GameState) -> list[tuple[Direction, float]]:
        """Uniform over the best actions of its search."""
        best = self.search(state).best_actions
        return [(a, 1.0 / len(best) if a in best else 0.0)
                for a in state.legal_actions(self.index)]

    def get_action(self, state: GameState) -> Any:
        """One of the best actions of its search, chosen with the game's generator."""
        best = self.search(state).best_actions
        return best[0] if len(best) == 1 else self.rng.choice(best)
