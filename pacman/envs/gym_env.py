"""`PacmanEnv`: Pacman as a Gymnasium env, the ghosts played by our ghost agents.

Actions: `Discrete(5)`, index i is `ACTIONS[i]` = North, South, East, West, Stop; an illegal
action plays Stop (always legal). `info["action_mask"]` (int8, shape (5,)) marks the legal ones.
An action outside the space (-1, 5, 2.0, "0", True) raises `InvalidActionError`; `step` before
the first `reset` or after the episode ended raises `ResetNeededError`.
Observations: `(6, H, W)` uint8 grids (walls, food, capsules, Pacman, ghosts, scared ghosts);
`info["state"]` is the `GameState` itself. Reward: the score change of the step (Pacman's move
and the ghosts' replies). Terminated on a win or a loss, truncated after `max_moves` Pacman
moves. `reset(seed=s)` plays the game `run_game(layout, pacman, ghosts, seed=s)` plays.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from pacman.envs.common import (
    ACTIONS,
    GhostMaker,
    GridEncoder,
    Screen,
    action_index,
    action_mask,
    check_flag,
    check_ghost,
    check_render_mode,
    check_whole,
    check_zoom,
    pacman_action,
    resolve_layout,
    sendable,
)
from pacman.errors import ResetNeededError
from pacman.layout import Layout
from pacman.rules import Direction
from pacman.state import GameState

RENDER_FPS = 10
DEFAULT_MAX_MOVES = 1000
#: a move's name, for `info["moves"]` (a dict look-up: `Direction.value` is a property)
_NAME = {direction: direction.value for direction in Direction}


class PacmanEnv(gymnasium.Env[npt.NDArray[np.uint8], np.int64]):
    """Pacman against `num_ghosts` ghosts of the agent registry (`ghost`, like `pacman play -g`).

    `layout`: a shipped name, a .lay path or a `Layout`. `max_moves`: Pacman moves before the
    episode is truncated (None: never). `render_mode`: "rgb_array" (frames as H x W x 3 uint8)
    or "human" (the pygame window; where none can be shown, drawn nowhere after a
    `HeadlessWindowWarning`, see `Screen`). `state_in_info=False` leaves `info["state"]` out
    (faster in vector envs, whose worker processes would pickle it every step). `zoom`: the
    scale of frames and window, 0.25 to 8. Every setting is checked here, once: a bad one
    raises a `PacmanError` that is a `ValueError` (`EnvSettingsError`, `LayoutError`,
    `RegistryError`).
    """

    metadata: dict[str, Any] = {"render_modes": ["human", "rgb_array"],  # noqa: RUF012
                                "render_fps": RENDER_FPS}

    def __init__(self, layout: str | Layout = "smallClassic", ghost: str = "RandomGhost",
                 num_ghosts: int | None = None, max_moves: int | None = DEFAULT_MAX_MOVES,
                 render_mode: str | None = None, ghost_settings: Mapping[str, Any] | None = None,
                 state_in_info: bool = True, zoom: float = 1.0) -> None:
        self.layout, self.num_ghosts = resolve_layout(layout, num_ghosts)
        self.max_moves = check_whole("max_moves", max_moves, allow_none=True)
        self.render_mode = check_render_mode(render_mode, self.metadata["render_modes"])
        self.state_in_info = check_flag("state_in_info", state_in_info)
        self.zoom = zoom = check_zoom(zoom)
        self.ghost_name, self.ghost_settings = check_ghost(ghost, ghost_settings)
        # one ghost at least, so that the name and settings are checked now even with none
        self.make_ghosts = GhostMaker(ghost, self.ghost_settings, max(self.num_ghosts, 1))
        self.ghosts: list[Any] = self.make_ghosts.first[:self.num_ghosts]
        self.encoder = GridEncoder(self.layout)
        self.observation_space = spaces.Box(0, 1, self.encoder.shape, dtype=np.uint8)
        self.action_space = spaces.Discrete(len(ACTIONS))
        #: the game's generator (what `run_game` hands every agent through `set_rng`): a Pacman
        #: agent that draws from it too plays the very game `run_game` would
        self.game_rng = random.Random(0)
        self.game_seed = 0
        #: the first state of every game (a value: one object serves them all)
        self.initial_state = GameState.initial(self.layout, self.num_ghosts)
        self.state = self.initial_state
        self.pacman_moves = 0
        #: why `step` must wait for `reset` (None: a game is on)
        self.reset_needed: str | None = "cannot call step() before reset()"
        self.screen = Screen(self.layout, zoom, RENDER_FPS)

    # ----------------------------------------------------------------- the game
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[npt.NDArray[np.uint8], dict[str, Any]]:
        """Start a game. With `seed`, the ghosts get `random.Random(seed)` as in `run_game`;
        without, the game seed is drawn from the env's generator. `info["seed"]` is it."""
        super().reset(seed=seed)
        if seed is None:
            seed = int(self.np_random.integers(2**31))
        self.game_seed = seed
        self.game_rng = random.Random(seed)
        self.state = self.initial_state
        self.pacman_moves = 0
        self.reset_needed = None
        # as run_game: fresh agents, each handed the generator then the first state, in order
        self.ghosts = self.make_ghosts(self.num_ghosts)
        for ghost in self.ghosts:
            set_rng = getattr(ghost, "set_rng", None)
            if callable(set_rng):
                set_rng(self.game_rng)
            register = getattr(ghost, "register_initial_state", None)
            if callable(register):
                register(self.state)
        if self.render_mode == "human":
            self.screen.start(self.state, self._names())
        info = self._info()
        info["seed"] = seed
        return self.encoder.encode(self.state), info

    def step(self, action: Any) -> tuple[npt.NDArray[np.uint8], float, bool, bool,
                                         dict[str, Any]]:
        """Pacman plays `action` (illegal: Stop), then each ghost replies until the game ends.

        Raises:
            ResetNeededError: before the first `reset()`, or after the episode ended.
            InvalidActionError: an action outside `Discrete(5)`; nothing is played.
        """
        if self.reset_needed is not None:
            raise ResetNeededError(self.reset_needed)
        index = action_index(action)
        state = self.state
        before = state.score
        move = pacman_action(state, index)
        state = state.successor(0, move)
        self.pacman_moves += 1
        played = [_NAME[move]]
        moves = [(0, state)] if self.render_mode == "human" else None  # what the window shows
        for agent, ghost in enumerate(self.ghosts, start=1):
            if state.is_terminal():
                break
            move = ghost.get_action(state)
            if move.__class__ is not Direction:  # e.g. "North" (a str) from a user's ghost
                move = Direction(move)
            state = state.successor(agent, move)
            played.append(_NAME[move])
            if moves is not None:
                moves.append((agent, state))
        self.state = state
        terminated = state.is_terminal()
        truncated = not terminated and self.pacman_moves == self.max_moves
        if terminated or truncated:
            self._end(state, terminated)
        if moves is not None:
            self.screen.show(moves, self.pacman_moves)
        info = self._info()
        info["moves"] = tuple(played)
        return self.encoder.encode(state), float(state.score - before), terminated, truncated, info

    def _end(self, state: GameState, terminated: bool) -> None:
        """The episode is over: `step` waits for `reset`, and the ghosts see the last state."""
        end = (f"terminated: a {'win' if state.is_win() else 'loss'}" if terminated
               else f"truncated after max_moves={self.max_moves} Pacman moves")
        self.reset_needed = f"the game is over: call reset() (the episode was {end})"
        for ghost in self.ghosts:
            final = getattr(ghost, "final", None)
            if callable(final):
                final(state)

    def _info(self) -> dict[str, Any]:
        state = self.state
        info: dict[str, Any] = {"action_mask": action_mask(state, 0), "score": state.score,
                                "pacman_moves": self.pacman_moves}
        if self.state_in_info:
            info["state"] = sendable(state)
        return info

    # ----------------------------------------------------------------- rendering
    def render(self) -> npt.NDArray[np.uint8] | None:
        """The current frame ("rgb_array"); "human" draws in the window at every step."""
        if self.render_mode == "rgb_array":
            return self.screen.frame(self.state, self._names(), self.pacman_moves)
        return None

    def _names(self) -> tuple[str, ...]:
        from pacman.game import describe

        return ("PacmanEnv", *(describe(ghost) for ghost in self.ghosts))

    def close(self) -> None:
        """Close the window, if any."""
        self.screen.close()
