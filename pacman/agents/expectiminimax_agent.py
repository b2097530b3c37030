"""`ExpectiminimaxAgent`: a Pacman that models each ghost as an adversary or as chance."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pacman.agents.multiplayer import CHANCE, MAX, MIN, expectiminimax
from pacman.agents.pacman_agents import GHOST_MODELS, SearchAgent, SearchSettings, chance_model
from pacman.agents.search import ChanceModel, Decision, SearchState
from pacman.agents.settings import one_of, setting

__all__ = ["ExpectiminimaxAgent", "parse_kinds"]

GHOST_KINDS = (MIN, CHANCE, MAX)
"""What a ghost's layer can be: an adversary, chance, or (rarely) a helper of Pacman."""


def parse_kinds(kinds: str | Sequence[str]) -> tuple[str, ...]:
    """The ghosts' layer kinds from `"min,chance"` (or a sequence); a one-line ValueError."""
    if isinstance(kinds, str):
        items = tuple(part.strip() for part in kinds.split(","))
    elif isinstance(kinds, Sequence):
        items = tuple(kinds)
    else:
        raise ValueError(f"kinds must be a list like min,chance, got {kinds!r}")
    if not items or any(not isinstance(k, str) or k not in GHOST_KINDS for k in items):
        raise ValueError(f"kinds must list one of {', '.join(GHOST_KINDS)} per ghost (e.g. "
                         f"min,chance), got {kinds!r}")
    return items


def _kinds(name: str, value: Any) -> str | None:
    try:
        parse_kinds(value)
    except ValueError as error:
        return str(error)
    return None


@dataclass(frozen=True)
class ExpectiminimaxSettings(SearchSettings):
    """A search's settings, and what each ghost's layer is."""

    kinds: str | Sequence[str] = setting(
        "min,chance", "each ghost's layer, in agent order: min (it hunts Pacman) or chance "
        "(it moves at random); one kind applies to every ghost", check=_kinds)
    ghost_model: str = setting("uniform", "the probabilities at chance layers: uniform or "
                               "directional", check=one_of(*GHOST_MODELS))


class ExpectiminimaxAgent(SearchAgent[ExpectiminimaxSettings]):
    """Expectiminimax Pacman: ghost i's layer is `kinds[i-1]`, `min` (it hunts Pacman) or
    `chance` (it moves at random, uniform or directional by `ghost_model`).

    One kind applies to every ghost; a list gives one per ghost in agent order (ghosts beyond
    the game's are ignored, too few is an error when the game starts). `kinds=min` is minimax
    and `kinds=chance` expectimax, with the same node counts.
    """

    Settings = ExpectiminimaxSettings

    def __init__(self, index: int = 0, settings: ExpectiminimaxSettings | None = None,
                 **values: Any) -> None:
        super().__init__(index, settings, **values)
        self.ghost_kinds = parse_kinds(self.settings.kinds)
        self.ghost_model = self.settings.ghost_model
        self._chance: ChanceModel | None = chance_model(self.ghost_model)

    def _extra_settings(self) -> list[str]:
        parts = [f"kinds={','.join(self.ghost_kinds)}"]
        if self.ghost_model != "uniform":
            parts.append(f"ghost_model={self.ghost_model}")
        return parts

    def layer_kinds(self, num_agents: int) -> tuple[str, ...]:
        """The kind of every agent's layer in a game of `num_agents` agents."""
        ghosts = num_agents - 1
        if len(self.ghost_kinds) == 1:
            return (MAX, *self.ghost_kinds * ghosts)
        if len(self.ghost_kinds) < ghosts:
            raise ValueError(f"{type(self).__name__}: kinds lists {len(self.ghost_kinds)} "
                             f"ghosts but the game has {ghosts}")
        return (MAX, *self.ghost_kinds[:ghosts])

    def register_initial_state(self, state: Any) -> None:
        """Check that `kinds` covers the game's ghosts before the first move."""
        super().register_initial_state(state)
        self.layer_kinds(state.num_agents)

    def _search(self, state: SearchState) -> Decision:
        return expectiminimax(state, self.depth, self.evaluation, kinds=self.layer_kinds(
            state.num_agents), chance=self._chance, actions=self._actions)

