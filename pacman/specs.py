"""What to play, as values that cross processes and machines: `AgentSpec` and `GameSpec`.

An `AgentSpec` names one agent as the command line does (a registry name, `module:Class` or
`path/file.py:Class`) with its settings (`name: value`, values a bool, an int, a float, a
string or None), kept sorted by name so that two specs of the same agent are equal. A
`GameSetup` is everything that decides a game but its seed: the layout (its name and its own
text, so a process on another machine needs no file), the Pacman, one spec per ghost, the move
cap and the time limits (`pacman.limits.TimeLimits`, as `run_game` takes them); a `GameSpec`
is a setup and a seed: one whole game.

Both are frozen and turn into JSON and back (`to_json`, `from_json`) without loss; `from_json`
checks every field and raises `TaskError` (a `ValueError`) with the field's name. Nothing here
builds an agent: the game core names agents, the applications build them
(`pacman.hosting.local`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pacman.errors import TaskError
from pacman.layout import Layout, ghosts_in_play, parse_layout
from pacman.limits import NO_LIMITS, TimeLimits
from pacman.settings_text import parse_settings, split_agent

__all__ = ["AgentSpec", "GameSetup", "GameSpec", "Setting"]

Setting = str | int | float | bool | None
"""A setting's value, as `-a name=value` gives it (`pacman.settings_text.typed`)."""


@dataclass(frozen=True)
class AgentSpec:
    """An agent by name with its settings, kept as sorted `(name, value)` pairs."""

    name: str
    settings: tuple[tuple[str, Setting], ...] = ()

    @classmethod
    def of(cls, name: str, settings: Mapping[str, Setting] | None = None) -> AgentSpec:
        """A spec with its settings sorted by name."""
        return cls(name, tuple(sorted((settings or {}).items())))

    @classmethod
    def parse(cls, text: str) -> AgentSpec:
        """An agent as people type it, `NAME` or `NAME@k=v,k=v` (`alphabeta@depth=3`), its
        values typed once, here, as the command line types them (`pacman.settings_text`).

        Args:
            text: the agent's name, with its settings after `@`.

        Returns:
            The spec; `parse(spec.text_form())` gives it back.

        Raises:
            SettingsError: an empty name, or settings text that cannot be read.
        """
        name, inline = split_agent(text)
        return cls.of(name, parse_settings(inline))

    def text_form(self) -> str:
        """`NAME@k=v,k=v` (the name alone without settings): what `parse` reads."""
        if not self.settings:
            return self.name
        return self.name + "@" + ",".join(f"{key}={value}" for key, value in self.settings)

    def settings_dict(self) -> dict[str, Setting]:
        """The settings as a dict."""
        return dict(self.settings)

    def settings_text(self) -> str:
        """`depth=2 evaluation=better` ('' without settings)."""
        return " ".join(f"{key}={value}" for key, value in self.settings)

    def text(self) -> str:
        """`AlphaBetaAgent depth=2 evaluation=better` (the name alone without settings)."""
        return " ".join([self.name, *(f"{key}={value}" for key, value in self.settings)])

    def to_json(self) -> dict[str, Any]:
        """`{"name": ..., "settings": {...}}`."""
        return {"name": self.name, "settings": self.settings_dict()}

    @classmethod
    def from_json(cls, data: Any, field: str = "agent") -> AgentSpec:
        """The inverse of `to_json`; a `TaskError` names `field` and what is wrong."""
        if not isinstance(data, Mapping) or set(data) != {"name", "settings"}:
            raise TaskError(f"{field} must be an object with name and settings, got {data!r}")
        name, settings = data["name"], data["settings"]
        if not isinstance(name, str) or not name:
            raise TaskError(f"{field}.name must be a non-empty string, got {name!r}")
        if not isinstance(settings, Mapping) or not all(
                isinstance(key, str) and _is_setting(value) for key, value in settings.items()):
            raise TaskError(f"{field}.settings must map names to numbers, strings, booleans "
                             f"or null, got {settings!r}")
        return cls.of(name, settings)


def _is_setting(value: object) -> bool:
    return value is None or isinstance(value, (bool, int, str)) or (
        isinstance(value, float) and math.isfinite(value))


@dataclass(frozen=True)
class GameSetup:
    """Everything that decides a game but its seed: the maze, the agents (one spec per ghost),
    the cap on Pacman's moves and the time limits. A demo's matchup and a batch's
    configuration are setups (`Matchup.setup`, `GameTask.game`); `setup.game(seed)` is one of
    its games."""

    layout: Layout
    pacman: AgentSpec
    ghosts: tuple[AgentSpec, ...]
    max_moves: int | None = None
    limits: TimeLimits = NO_LIMITS

    @classmethod
    def of(cls, layout: Layout, pacman: AgentSpec, ghost: AgentSpec | Sequence[AgentSpec],
           num_ghosts: int | None, *, max_moves: int | None = None,
           limits: TimeLimits = NO_LIMITS, clamp: bool = True) -> GameSetup:
        """A setup against `num_ghosts` ghosts of one kind (or the given ghosts, one each), by
        the one ghost-count rule (`pacman.layout.ghosts_in_play`; `clamp` as `-k` does)."""
        if isinstance(ghost, AgentSpec):
            ghosts = (ghost,) * ghosts_in_play(layout, num_ghosts, clamp=clamp)
        else:
            ghosts = tuple(ghost)[:ghosts_in_play(layout, num_ghosts, clamp=clamp)]
        return cls(layout, pacman, ghosts, max_moves, limits)

    def game(self, seed: int) -> GameSpec:
        """Game `seed` of this setup."""
        return GameSpec(self, seed)


@dataclass(frozen=True)
class GameSpec:
    """One game to play, described so that any process on any machine plays the same game: a
    `GameSetup` and a seed. Its setup's fields read through it (`spec.layout`, ...)."""

    setup: GameSetup
    seed: int

    @classmethod
    def of(cls, layout: Layout, pacman: AgentSpec, ghost: AgentSpec | Sequence[AgentSpec],
           num_ghosts: int | None, seed: int, *, max_moves: int | None = None,
           limits: TimeLimits = NO_LIMITS, clamp: bool = True) -> GameSpec:
        """`GameSetup.of(...)`'s game `seed`."""
        return cls(GameSetup.of(layout, pacman, ghost, num_ghosts, max_moves=max_moves,
                                limits=limits, clamp=clamp), seed)

    @property
    def layout(self) -> Layout:
        """The maze."""
        return self.setup.layout

    @property
    def pacman(self) -> AgentSpec:
        """Pacman's agent."""
        return self.setup.pacman

    @property
    def ghosts(self) -> tuple[AgentSpec, ...]:
        """One agent per ghost."""
        return self.setup.ghosts

    @property
    def max_moves(self) -> int | None:
        """The cap on Pacman's moves (None: none)."""
        return self.setup.max_moves

    @property
    def limits(self) -> TimeLimits:
        """The time limits."""
        return self.setup.limits

    @property
    def num_ghosts(self) -> int:
        """How many ghosts play."""
        return len(self.ghosts)

    def to_json(self) -> dict[str, Any]:
        """The game as JSON-ready data (the layout as its name and its text)."""
        return {"layout_name": self.layout.name, "layout_text": self.layout.text,
                "pacman": self.pacman.to_json(),
                "ghosts": [ghost.to_json() for ghost in self.ghosts], "seed": self.seed,
                "max_moves": self.max_moves, "move_time_limit": self.limits.move,
                "game_time_limit": self.limits.game}

    @classmethod
    def from_json(cls, data: Any) -> GameSpec:
        """The inverse of `to_json`; a `TaskError` (a `LayoutError` for the layout) names the
        field at fault."""
        if not isinstance(data, Mapping):
            raise TaskError(f"a game must be an object, got {type(data).__name__}")
        known = {"layout_name", "layout_text", "pacman", "ghosts", "seed", "max_moves",
                 "move_time_limit", "game_time_limit"}
        if set(data) != known:
            missing, unknown = sorted(known - set(data)), sorted(set(data) - known)
            raise TaskError(f"a game's fields: missing {missing or 'none'}, unknown "
                             f"{unknown or 'none'}")
        name, text = data["layout_name"], data["layout_text"]
        if not isinstance(name, str) or not isinstance(text, str):
            raise TaskError("layout_name and layout_text must be strings")
        ghosts = data["ghosts"]
        if not isinstance(ghosts, list):
            raise TaskError(f"ghosts must be a list, got {ghosts!r}")
        seed = data["seed"]
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise TaskError(f"seed must be a whole number >= 0, got {seed!r}")
        max_moves = data["max_moves"]
        if max_moves is not None and (isinstance(max_moves, bool) or not isinstance(
                max_moves, int) or max_moves < 0):
            raise TaskError(f"max_moves must be a whole number >= 0 or null, got {max_moves!r}")
        limits = TimeLimits(move=data["move_time_limit"], game=data["game_time_limit"])
        layout = parse_layout(text, name)
        spec = cls(GameSetup(layout, AgentSpec.from_json(data["pacman"], "pacman"),
                             tuple(AgentSpec.from_json(ghost, f"ghosts[{i}]")
                                   for i, ghost in enumerate(ghosts)), max_moves, limits), seed)
        ghosts_in_play(layout, spec.num_ghosts)  # no more ghosts than the layout has
        return spec
