"""A game description played in this process: its agents built by name, then `run_game`.

`build_agents(spec)` builds the Pacman (index 0) and one ghost per ghost spec (indexes 1, 2,
...) through the registry, so `module:Class`, `file.py:Class` and CS188 classes work as on the
command line; an agent whose code is the user's plays from an agent host process, so this
process, the referee, keeps the only game state that counts. `play(spec)` plays the game with
the spec's seed, cap and time limits. The batch workers, the lecture demos and the child of a
watched game (`game_worker`) all play through here, so the same description is the same game
wherever it is played.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from pacman.agents.registry import make_agent
from pacman.display.protocol import Display
from pacman.errors import RegistryError
from pacman.game import run_game
from pacman.hosting import ISOLATIONS
from pacman.hosting.agent_host import HostedAgent, load_timeout, trusted
from pacman.record import GameRecord
from pacman.specs import AgentSpec, GameSpec

__all__ = ["build_agents", "loading", "play", "play_built"]


@contextmanager
def loading(name: str, seconds: float) -> Iterator[None]:
    """Load agent code in this process (`--isolation none`) within `seconds`, with `os._exit`
    refused (`guard_process_exit`): RegistryError (one line) for code that takes longer or
    exits. The limit is soft, an interrupt in the main thread, as every limit in the
    referee's own process: a loop in C code is not stopped (an agent host's limit is hard).

    Args:
        name: the agent, for the message.
        seconds: the limit.

    Raises:
        RegistryError: the code took longer than `seconds`.
    """
    from pacman.limits import MoveTimeLimit, MoveTimer, guard_process_exit

    started = time.monotonic()
    try:
        with guard_process_exit(), MoveTimer() as timer:
            timer.arm(seconds)
            try:
                yield
            finally:
                timer.disarm()
    except (Exception, MoveTimeLimit):
        if time.monotonic() - started >= seconds:  # the interrupt, whatever caught it
            raise RegistryError(load_timeout(name, seconds)) from None
        raise


def build_agents(spec: GameSpec, isolation: str = "process",
                 load_seconds: float | None = None) -> tuple[Any, list[Any]]:
    """The Pacman and the ghosts of `spec`, built by name with their settings.

    Args:
        spec: the game.
        isolation: `process`: an agent that is not the registry's own (a user's file or
            module, a CS188 student's class, or a built-in one with an `evaluation` of the
            user's code) plays from an agent host (`pacman.hosting.agent_host`), and this
            process never imports its code; `none`: every agent is built here.
        load_seconds: how long loading each agent of the user's may take (None:
            `load_limit` of the game's time limit); with `none`, a soft limit (`loading`).

    Returns:
        The Pacman agent and the ghost agents, in agent order.

    Raises:
        RegistryError: a name or a setting that cannot be used, or an agent of the user's
            that takes longer to load or dies while it loads (one line).
    """
    if isolation not in ISOLATIONS:
        raise RegistryError(f"unknown isolation {isolation!r} (choose process or none)")
    seconds = spec.limits.load if load_seconds is None else load_seconds

    def build(agent: AgentSpec, role: str, index: int) -> Any:
        settings = agent.settings_dict()
        if trusted(agent.name, role, settings):
            return make_agent(agent.name, role, settings, index=index)
        if isolation == "process":
            return HostedAgent(agent.name, role, settings, index, spec.layout,
                               spec.num_ghosts, load_seconds=seconds)
        with loading(agent.name, seconds):
            return make_agent(agent.name, role, settings, index=index)

    pacman = build(spec.pacman, "pacman", 0)
    ghosts = []
    for number, ghost in enumerate(spec.ghosts, 1):
        try:
            ghosts.append(build(ghost, "ghost", number))
        except RegistryError as error:
            if len(set(spec.ghosts)) == 1:  # one setting for all: the ghost's number adds nothing
                raise
            raise RegistryError(f"ghost {number}: {error}") from None
    return pacman, ghosts


def play(spec: GameSpec, display: Display | None = None, isolation: str = "process"
         ) -> GameRecord:
    """Play `spec` in this process (its time limits are the soft ones of `run_game`).

    Args:
        spec: the game.
        display: shows the game as it goes (None: nothing).
        isolation: where untrusted agents run (`build_agents`).

    Returns:
        The game's record.

    Raises:
        RegistryError: an agent that cannot be built.
    """
    return play_built(spec, *build_agents(spec, isolation), display=display)


def play_built(spec: GameSpec, pacman: Any, ghosts: list[Any],
               display: Display | None = None) -> GameRecord:
    """Play `spec` with agents already built from it (`build_agents`), as `play` does."""
    return run_game(spec.layout, pacman, ghosts, seed=spec.seed, max_moves=spec.max_moves,
                    limits=spec.limits, display=display)
