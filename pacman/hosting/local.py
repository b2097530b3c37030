"""A game description played in this process: its agents built by name, then `run_game`.

`build_agents(spec)` builds the Pacman (index 0) and one ghost per ghost spec (indexes 1, 2,
...) through the registry, so `module:Class`, `file.py:Class` and CS188 classes work as on the
command line; `play(spec)` plays the game with the spec's seed, cap and time limits. The batch
workers, the lecture demos and the child of a watched game (`game_worker`) all play through
here, so the same description is the same game wherever it is played.
"""

from __future__ import annotations

from typing import Any

from pacman.agents.registry import make_agent
from pacman.display.protocol import Display
from pacman.game import run_game
from pacman.record import GameRecord
from pacman.task import GameSpec

__all__ = ["build_agents", "play", "play_built"]


def build_agents(spec: GameSpec) -> tuple[Any, list[Any]]:
    """The Pacman and the ghosts of `spec`, built by name with their settings.

    Raises:
        RegistryError: a name or a setting that cannot be used (one line).
    """
    pacman = make_agent(spec.pacman.name, "pacman", spec.pacman.settings_dict(), index=0)
    ghosts = [make_agent(ghost.name, "ghost", ghost.settings_dict(), index=number)
              for number, ghost in enumerate(spec.ghosts, start=1)]
    return pacman, ghosts


def play(spec: GameSpec, display: Display | None = None) -> GameRecord:
    """Play `spec` in this process (its time limits are the soft ones of `run_game`).

    Args:
        spec: the game.
        display: shows the game as it goes (None: nothing).

    Returns:
        The game's record.

    Raises:
        RegistryError: an agent that cannot be built.
    """
    return play_built(spec, *build_agents(spec), display=display)


def play_built(spec: GameSpec, pacman: Any, ghosts: list[Any],
               display: Display | None = None) -> GameRecord:
    """Play `spec` with agents already built from it (`build_agents`), as `play` does."""
    return run_game(spec.layout, pacman, ghosts, seed=spec.seed, max_moves=spec.max_moves,
                    move_time_limit=spec.move_time_limit,
                    game_time_limit=spec.game_time_limit, display=display)
