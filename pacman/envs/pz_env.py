"""PettingZoo envs: Pacman and every ghost are agents ("pacman", "ghost_1", ...).

`PacmanAECEnv` (agents move one at a time in the game's turn order) and `PacmanParallelEnv`
(one step = Pacman's move then each ghost's, from a dict of actions; written directly, since a
game can end on Pacman's own move and the ghosts' actions of that step are then not played).

Actions: `Discrete(5)` in `ACTIONS` order (North, South, East, West, Stop). An illegal action of
Pacman plays Stop; an illegal action of a ghost plays its first legal action in the rules'
canonical order (West, Stop, East, North, South). `infos[agent]["action_mask"]` (int8, (5,))
marks each agent's legal actions in the current state. Observations: `(7, H, W)` uint8 grids,
the six of the Gymnasium env plus the agent's own cell. Rewards: Pacman gets the score change,
each ghost its negation. Every agent is terminated when the game is won or lost, truncated after
`max_cycles` rounds (a round: Pacman and every ghost move once). The game has no chance in it
(every agent is a player), so `reset(seed=...)` changes nothing but is accepted.

An action outside `Discrete(5)` raises `InvalidActionError` before anything is played. In the
AEC env a terminated or truncated agent is stepped with None, and only then (PettingZoo's rule);
a `step` once every agent is done, or (Parallel) before `reset()`, raises `ResetNeededError`.
The AEC env starts a game when it is made, as if `reset()` had been called.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import AgentSelector

from pacman.envs.common import (
    ACTIONS,
    GridEncoder,
    Screen,
    action_index,
    action_mask,
    check_render_mode,
    check_whole,
    check_zoom,
    ghost_action,
    pacman_action,
    resolve_layout,
    sendable,
    shown,
)
from pacman.errors import InvalidActionError, ResetNeededError
from pacman.layout import Layout
from pacman.rules import Direction
from pacman.state import GameState

RENDER_FPS = 10
DEFAULT_MAX_CYCLES = 1000
METADATA: dict[str, Any] = {"render_modes": ["human", "rgb_array"], "render_fps": RENDER_FPS,
                            "name": "pacman_v0", "is_parallelizable": True}


class _Game:
    """The state, spaces and rendering both envs share; every setting is checked here, once (a
    bad one raises a `PacmanError` that is a `ValueError`)."""

    def __init__(self, layout: str | Layout, num_ghosts: int | None, max_cycles: int,
                 render_mode: str | None, zoom: float) -> None:
        self.layout, num_ghosts = resolve_layout(layout, num_ghosts)
        self.max_cycles = int(check_whole("max_cycles", max_cycles, allow_none=False) or 0)
        self.render_mode = check_render_mode(render_mode, METADATA["render_modes"])
        zoom = check_zoom(zoom)
        self.names = ["pacman", *(f"ghost_{i}" for i in range(1, num_ghosts + 1))]
        self.index = {name: i for i, name in enumerate(self.names)}
        self.encoder = GridEncoder(self.layout, extra_self=True)
        box = spaces.Box(0, 1, self.encoder.shape, dtype=np.uint8)
        self.observation_spaces = {name: box for name in self.names}
        self.action_spaces = {name: spaces.Discrete(len(ACTIONS)) for name in self.names}
        self.screen = Screen(self.layout, zoom, RENDER_FPS)
        self.state = GameState.initial(self.layout, num_ghosts)
        self.cycles = self.pacman_moves = 0

    def restart(self) -> None:
        self.state = GameState.initial(self.layout, len(self.names) - 1)
        self.cycles = self.pacman_moves = 0
        if self.render_mode == "human":
            self.screen.start(self.state, self.names)

    def move(self, agent: int, index: int) -> tuple[int, Direction]:
        """Play agent `agent`'s action index (checked by `action_index`); the score change and
        the move played."""
        state = self.state
        move = pacman_action(state, index) if agent == 0 else ghost_action(state, agent, index)
        self.state = state.successor(agent, move)
        if agent == 0:
            self.pacman_moves += 1
        return self.state.score - state.score, move

    def observe(self, name: str) -> npt.NDArray[np.uint8]:
        return self.encoder.encode(self.state, self.index[name])

    def infos(self, names: list[str]) -> dict[str, dict[str, Any]]:
        state, sent = self.state, sendable(self.state)
        return {name: {"action_mask": action_mask(state, self.index[name]), "state": sent,
                       "score": state.score} for name in names}

    def rewards(self, change: int) -> dict[str, float]:
        return {name: float(change if name == "pacman" else -change) for name in self.names}

    def frame(self) -> npt.NDArray[np.uint8] | None:
        if self.render_mode == "rgb_array":
            return self.screen.frame(self.state, self.names, self.pacman_moves)
        return None


class PacmanAECEnv(AECEnv[str, npt.NDArray[np.uint8], Any]):  # type: ignore[misc]
    """Pacman and its ghosts taking turns (see the module docstring)."""

    metadata = METADATA

    def __init__(self, layout: str | Layout = "smallClassic", num_ghosts: int | None = None,
                 max_cycles: int = DEFAULT_MAX_CYCLES, render_mode: str | None = None,
                 zoom: float = 1.0) -> None:
        super().__init__()
        self.game = _Game(layout, num_ghosts, max_cycles, render_mode, zoom)
        self.render_mode = render_mode
        self.possible_agents = list(self.game.names)
        self.observation_spaces = self.game.observation_spaces
        self.action_spaces = self.game.action_spaces
        self._selector = AgentSelector(self.possible_agents)
        self.reset()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The `(7, H, W)` grids of every agent."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """`Discrete(5)` in `ACTIONS` order."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game, Pacman to move."""
        self.game.restart()
        self.agents = list(self.possible_agents)
        self.rewards = {name: 0.0 for name in self.agents}
        self._cumulative_rewards = {name: 0.0 for name in self.agents}
        self.terminations = {name: False for name in self.agents}
        self.truncations = {name: False for name in self.agents}
        self.infos = self.game.infos(self.agents)
        self._selector.reinit(self.agents)
        self.agent_selection = self._selector.reset()

    def observe(self, agent: str) -> npt.NDArray[np.uint8]:
        """The grids seen by `agent`."""
        return self.game.observe(agent)

    def step(self, action: Any) -> None:
        """The selected agent plays `action` (None once it is terminated or truncated).

        Raises:
            ResetNeededError: every agent is done (the game is over): `reset()` first.
            InvalidActionError: an action outside `Discrete(5)` for an agent in play, or an
                action other than None for a terminated or truncated one; nothing is played.
        """
        if not self.agents:
            raise ResetNeededError("the game is over: call reset() (every agent is done)")
        name = self.agent_selection
        if self.terminations[name] or self.truncations[name]:
            if action is not None:
                end = "terminated" if self.terminations[name] else "truncated"
                raise InvalidActionError(
                    f"invalid action {shown(action)} of {name}: when an agent is dead, the only "
                    f"valid action is None ({name} is {end}: step it with None)")
            self._was_dead_step(action)
            return
        game = self.game
        agent = game.index[name]
        index = action_index(action, name)
        self._cumulative_rewards[name] = 0.0
        change, _ = game.move(agent, index)
        last = agent == len(game.names) - 1
        if last:
            game.cycles += 1
        over = game.state.is_terminal()
        capped = not over and last and game.cycles >= game.max_cycles
        self.rewards = game.rewards(change)
        for other in self.agents:
            self.terminations[other] = over
            self.truncations[other] = capped
        self.infos = game.infos(self.agents)
        if game.render_mode == "human":
            game.screen.show([(agent, game.state)], game.pacman_moves)
        self.agent_selection = self._selector.next()
        self._accumulate_rewards()

    def render(self) -> npt.NDArray[np.uint8] | None:
        """The current frame ("rgb_array"); "human" draws at every move."""
        return self.game.frame()

    def close(self) -> None:
        """Close the window, if any."""
        self.game.screen.close()


class PacmanParallelEnv(ParallelEnv[str, npt.NDArray[np.uint8], Any]):  # type: ignore[misc]
    """Pacman and its ghosts choosing together, moving in turn order (module docstring)."""

    metadata = METADATA

    def __init__(self, layout: str | Layout = "smallClassic", num_ghosts: int | None = None,
                 max_cycles: int = DEFAULT_MAX_CYCLES, render_mode: str | None = None,
                 zoom: float = 1.0) -> None:
        self.game = _Game(layout, num_ghosts, max_cycles, render_mode, zoom)
        self.render_mode = render_mode
        self.possible_agents = list(self.game.names)
        self.observation_spaces = self.game.observation_spaces
        self.action_spaces = self.game.action_spaces
        self.agents: list[str] = []
        self._started = False  # reset() was called

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The `(7, H, W)` grids of every agent."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """`Discrete(5)` in `ACTIONS` order."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, npt.NDArray[np.uint8]], dict[str, dict[str, Any]]]:
        """A new game: every agent's observation and info."""
        self.game.restart()
        self.agents = list(self.possible_agents)
        self._started = True
        return ({name: self.game.observe(name) for name in self.agents},
                self.game.infos(self.agents))

    def step(self, actions: dict[str, Any]) -> tuple[
            dict[str, npt.NDArray[np.uint8]], dict[str, float], dict[str, bool],
            dict[str, bool], dict[str, dict[str, Any]]]:
        """Pacman moves, then each ghost in order while the game goes on.

        Raises:
            ResetNeededError: before the first `reset()`, or after the game ended.
            InvalidActionError: `actions` is not a dict with one action of `Discrete(5)` for
                each agent in play (and none for a name that is not one); nothing is played.
        """
        if not self.agents:
            raise ResetNeededError("the game is over: call reset() (every agent is done)"
                                   if self._started else "cannot call step() before reset()")
        if not isinstance(actions, Mapping):
            raise InvalidActionError(f"actions must be a dict of agent names to actions, got "
                                     f"{type(actions).__name__}")
        missing = [name for name in self.agents if name not in actions]
        if missing:
            raise InvalidActionError(f"no action for {', '.join(missing)}")
        unknown = [repr(name) for name in actions if name not in self.game.index]
        if unknown:
            raise InvalidActionError(f"actions for no agent: {', '.join(unknown)} (the agents "
                                     f"are {', '.join(self.agents)})")
        indexes = {name: action_index(actions[name], name) for name in self.agents}
        game = self.game
        before = game.state.score
        played = []
        for agent, name in enumerate(game.names):
            if game.state.is_terminal():
                break
            game.move(agent, indexes[name])
            played.append((agent, game.state))
        game.cycles += 1
        over = game.state.is_terminal()
        capped = not over and game.cycles >= game.max_cycles
        names = self.agents
        observations = {name: game.observe(name) for name in names}
        rewards = game.rewards(game.state.score - before)
        infos = game.infos(names)
        if game.render_mode == "human":
            game.screen.show(played, game.pacman_moves)
        if over or capped:
            self.agents = []
        return (observations, rewards, dict.fromkeys(names, over), dict.fromkeys(names, capped),
                infos)

    def render(self) -> npt.NDArray[np.uint8] | None:
        """The current frame ("rgb_array"); "human" draws at every step."""
        return self.game.frame()

    def close(self) -> None:
        """Close the window, if any."""
        self.game.screen.close()

    def state(self) -> npt.NDArray[np.uint8]:
        """The global state: the six grids of the Gymnasium env."""
        return self.game.observe("pacman")[:-1]


def env(**kwargs: Any) -> PacmanAECEnv:
    """The AEC env (PettingZoo's `env()` convention)."""
    return PacmanAECEnv(**kwargs)


def parallel_env(**kwargs: Any) -> PacmanParallelEnv:
    """The Parallel env (PettingZoo's `parallel_env()` convention)."""
    return PacmanParallelEnv(**kwargs)
