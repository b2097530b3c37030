"""The games of a batch as frozen values: configurations, their keys and seeds, tasks, stored games.

A `GameConfig` is everything that decides how a game goes except its seed: the Pacman and ghost
agents (`AgentSpec`: a registry name and its settings), the number of ghosts, the layout, the
move cap and the per-move time limit. `GameConfig.key()` is its identity in the results store
(`pacman.experiments.store`): the canonical JSON text of `to_dict()` (keys sorted, separators
`,` and `:`, no spaces), with `paired` present only when it is set, so the keys of
configurations from before `paired` existed are unchanged.

Game `index` of a configuration in a batch with seed `base_seed` plays with
`derive_seed(base_seed, config.seed_key(), index)`: BLAKE2b (8 bytes) of the three joined by
newlines, cut to `SEED_BITS` bits. The same numbers give the same seed in every process and on
every machine, so a game is the same game whichever worker plays it, and running a batch again
finds the games it already has.

A `GameTask` is one game to play (configuration, batch seed, index, seed, code version; its
`game()` is the `pacman.specs.GameSpec` a worker plays) and a `StoredGame` one game the store
holds, with the columns tables add up and its record as JSON.

Pure values: no file and no SQLite. The grid, tables, plots, exports and comparisons need only
these and import only this module; reading and writing the file is `store`'s job.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pacman.errors import StoreError
from pacman.layout import Layout
from pacman.limits import TimeLimits
from pacman.record import GameRecord, Outcome
from pacman.specs import AgentSpec, GameSetup, GameSpec

SEED_BITS = 31  # seeds stay small enough to type into `pacman play --seed`

@dataclass(frozen=True)
class GameConfig:
    """Everything that decides how a game goes, except its seed.

    `num_ghosts=None` means all the layout has; `resolve_config` in `pacman.experiments.grid`
    turns names into canonical class names, fills in default settings and the number of ghosts.
    """

    pacman: AgentSpec
    ghost: AgentSpec = AgentSpec("RandomGhost")  # noqa: RUF009 (a frozen value)
    num_ghosts: int | None = None
    layout: str = "mediumClassic"
    max_moves: int | None = None
    move_time_limit: float | None = None
    paired: bool = False  # seeds shared with every agent on the same board (see `seed_key`)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (`paired` only when set, so other keys stay as they were)."""
        data: dict[str, Any] = {
            "pacman": self.pacman.name, "pacman_settings": self.pacman.settings_dict(),
            "ghost": self.ghost.name, "ghost_settings": self.ghost.settings_dict(),
            "num_ghosts": self.num_ghosts, "layout": self.layout,
            "max_moves": self.max_moves, "move_timeout": self.move_time_limit,
        }
        if self.paired:
            data["paired"] = True
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameConfig:
        """The inverse of `to_dict`."""
        return cls(
            pacman=AgentSpec.of(data["pacman"], data.get("pacman_settings")),
            ghost=AgentSpec.of(data["ghost"], data.get("ghost_settings")),
            num_ghosts=data.get("num_ghosts"), layout=data["layout"],
            max_moves=data.get("max_moves"), move_time_limit=data.get("move_timeout"),
            paired=data.get("paired") is True,
        )

    def key(self) -> str:
        """The canonical JSON text that identifies this configuration in the store."""
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))

    def seed_key(self) -> str:
        """What the games' seeds are derived from: the key, or for a `paired` configuration
        the key without its agents, so every paired configuration on the same board (layout,
        number of ghosts, move cap and limit) plays game `i` with the same seed: the same
        ghost randomness for every Pacman, and the same for every ghost agent (common random
        numbers, for paired comparisons)."""
        if not self.paired:
            return self.key()
        data = self.to_dict()
        for name in ("pacman", "pacman_settings", "ghost", "ghost_settings"):
            del data[name]
        return json.dumps(data, sort_keys=True, separators=(",", ":"))

    def setup(self, layout: Layout) -> GameSetup:
        """This configuration's games but their seeds, on `layout` (its layout, loaded)."""
        return GameSetup.of(layout, self.pacman, self.ghost, self.num_ghosts,
                            max_moves=self.max_moves, limits=TimeLimits(move=self.move_time_limit))

    def label(self) -> str:
        """A short human description, e.g. `AlphaBetaAgent depth=2 ... vs 2 RandomGhost`."""
        pacman = " ".join(filter(None, [self.pacman.name, self.pacman.settings_text()]))
        ghost = " ".join(filter(None, [self.ghost.name, self.ghost.settings_text()]))
        paired = " (paired seeds)" if self.paired else ""
        return f"{pacman} vs {self.num_ghosts} {ghost} on {self.layout}{paired}"


def derive_seed(base_seed: int, config_key: str, index: int) -> int:
    """The seed of game `index` of a configuration: a stable hash, the same in every process.

    BLAKE2b of `base_seed`, the configuration key and the index (never the salted `hash()`),
    so a game's seed does not depend on which worker plays it or when.
    """
    digest = hashlib.blake2b(f"{base_seed}\n{config_key}\n{index}".encode(), digest_size=8)
    return int.from_bytes(digest.digest(), "big") & ((1 << SEED_BITS) - 1)


@dataclass(frozen=True)
class GameTask:
    """One game to play: a configuration, the batch seed, the game's index and its seed."""

    config: GameConfig
    base_seed: int
    index: int
    seed: int
    code: str = ""  # the code version that plays it (not part of the seed)
    #: where the user's agents run: `process` (an agent host each) or `none` (the worker);
    #: the same game either way, so neither the key nor the seed knows it
    isolation: str = "process"

    @classmethod
    def of(cls, config: GameConfig, base_seed: int, index: int, code: str = "") -> GameTask:
        """The task with its derived seed."""
        return cls(config, base_seed, index, derive_seed(base_seed, config.seed_key(), index),
                   code)

    def game(self, layout: Layout) -> GameSpec:
        """This game as the one description any process plays (`pacman.specs.GameSpec`), on
        `layout` (the configuration's, loaded)."""
        return self.config.setup(layout).game(self.seed)


@dataclass(frozen=True)
class StoredGame:
    """One row of the store."""

    config: GameConfig
    base_seed: int
    index: int
    seed: int
    outcome: Outcome
    complete: bool
    score: int | None
    pacman_moves: int | None
    move_seconds: float
    nodes: int | None
    nodes_moves: int
    fault: str | None
    version: str
    record_json: str
    code: str = ""  # the code version that played it ('': unknown, stored before versions)

    def record(self) -> GameRecord:
        """The full game record; StoreError if the stored JSON is damaged."""
        try:
            data = json.loads(self.record_json)
            if not isinstance(data, dict):
                raise ValueError("not a JSON object")
            return GameRecord.from_dict(data)
        except (ValueError, TypeError, KeyError, RecursionError) as error:
            raise StoreError(f"game {self.index} (batch seed {self.base_seed}) of "
                             f"{self.config.label()}: damaged record ({_short(error)})") from None


def _short(error: BaseException) -> str:
    """An exception's message on one line, cut to a readable length (as `store` cuts its own)."""
    text = " ".join(str(error).split())
    return text if len(text) <= 200 else text[:197] + "..."
