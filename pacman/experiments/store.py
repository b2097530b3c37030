"""The results store: game configurations as stable keys, and finished games in SQLite.

Every finished game is one row, written (and committed) as soon as it is known, keyed by
`(config_key, base_seed, game_index)`: running the same batch again finds what is there and
plays only the rest. The row keeps the columns tables group and average by, and the whole
`GameRecord` as JSON.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pacman import __version__
from pacman.record import GameRecord, Outcome

SCHEMA_VERSION = 1
SEED_BITS = 31  # seeds stay small enough to type into `pacman play --seed`

Setting = str | int | float | bool | None

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    config_key TEXT NOT NULL,       -- canonical JSON of the GameConfig
    base_seed INTEGER NOT NULL,     -- the batch's --seed
    game_index INTEGER NOT NULL,    -- 0..games-1 within the configuration
    seed INTEGER NOT NULL,          -- the game's own seed, derived from the three above
    pacman TEXT NOT NULL,           -- agent class name (or module:Class)
    pacman_settings TEXT NOT NULL,  -- JSON object, defaults filled in
    ghost TEXT NOT NULL,
    ghost_settings TEXT NOT NULL,
    num_ghosts INTEGER NOT NULL,
    layout TEXT NOT NULL,
    max_moves INTEGER,
    move_timeout REAL,
    outcome TEXT NOT NULL,          -- win, loss, crash, timeout, capped, stopped
    complete INTEGER NOT NULL,      -- 0: the game was killed or lost with its worker
    score INTEGER,                  -- NULL when not complete
    pacman_moves INTEGER,           -- NULL when not complete
    move_seconds REAL NOT NULL,     -- sum of Pacman's per-move times
    nodes INTEGER,                  -- sum of reported search nodes (NULL: none reported)
    nodes_moves INTEGER NOT NULL,   -- Pacman moves that reported nodes
    fault TEXT,
    version TEXT NOT NULL,          -- pacman.__version__ that played the game
    finished_at REAL NOT NULL,      -- Unix time the row was written
    record TEXT NOT NULL,           -- GameRecord.to_dict() as JSON
    UNIQUE (config_key, base_seed, game_index)
);
"""


class StoreError(ValueError):
    """A results file that cannot be opened or read."""


@dataclass(frozen=True)
class AgentSpec:
    """An agent by registry name with its settings, kept as sorted `(name, value)` pairs."""

    name: str
    settings: tuple[tuple[str, Setting], ...] = ()

    @classmethod
    def of(cls, name: str, settings: Mapping[str, Setting] | None = None) -> AgentSpec:
        """A spec with its settings sorted by name."""
        return cls(name, tuple(sorted((settings or {}).items())))

    def settings_dict(self) -> dict[str, Setting]:
        """The settings as a dict."""
        return dict(self.settings)

    def settings_text(self) -> str:
        """`depth=2 evaluation=better` ('' without settings)."""
        return " ".join(f"{key}={value}" for key, value in self.settings)


@dataclass(frozen=True)
class GameConfig:
    """Everything that decides how a game goes, except its seed.

    `num_ghosts=None` means all the layout has; `resolve_config` in `pacman.experiments.grid`
    turns names into canonical class names, fills in default settings and the number of ghosts.
    """

    pacman: AgentSpec
    ghost: AgentSpec = AgentSpec("RandomGhost")
    num_ghosts: int | None = None
    layout: str = "mediumClassic"
    max_moves: int | None = None
    move_timeout: float | None = None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "pacman": self.pacman.name, "pacman_settings": self.pacman.settings_dict(),
            "ghost": self.ghost.name, "ghost_settings": self.ghost.settings_dict(),
            "num_ghosts": self.num_ghosts, "layout": self.layout,
            "max_moves": self.max_moves, "move_timeout": self.move_timeout,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameConfig:
        """The inverse of `to_dict`."""
        return cls(
            pacman=AgentSpec.of(data["pacman"], data.get("pacman_settings")),
            ghost=AgentSpec.of(data["ghost"], data.get("ghost_settings")),
            num_ghosts=data.get("num_ghosts"), layout=data["layout"],
            max_moves=data.get("max_moves"), move_timeout=data.get("move_timeout"),
        )

    def key(self) -> str:
        """The canonical JSON text that identifies this configuration in the store."""
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))

    def label(self) -> str:
        """A short human description, e.g. `AlphaBetaAgent depth=2 ... vs 2 RandomGhost`."""
        pacman = " ".join(filter(None, [self.pacman.name, self.pacman.settings_text()]))
        ghost = " ".join(filter(None, [self.ghost.name, self.ghost.settings_text()]))
        return f"{pacman} vs {self.num_ghosts} {ghost} on {self.layout}"


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

    @classmethod
    def of(cls, config: GameConfig, base_seed: int, index: int) -> GameTask:
        """The task with its derived seed."""
        return cls(config, base_seed, index, derive_seed(base_seed, config.key(), index))


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

    def record(self) -> GameRecord:
        """The full game record."""
        return GameRecord.from_dict(json.loads(self.record_json))


class ResultStore:
    """A SQLite results file: one row per finished game, committed as it arrives."""

    def __init__(self, path: str | Path, *, create: bool = True) -> None:
        self.path = Path(path)
        if not create and not self.path.is_file():
            raise StoreError(f"no results file {self.path}")
        try:
            if create:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            # isolation_level=None: autocommit, so each game is committed as it is added
            self._db = sqlite3.connect(self.path, timeout=30.0, isolation_level=None)
        except (OSError, sqlite3.Error) as error:
            raise StoreError(f"{self.path}: cannot open ({error})") from None
        try:
            if create:
                # WAL: a reader (`pacman table`) can look while a batch writes; NORMAL
                # sync keeps every commit safe from a crashed or killed process.
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=NORMAL")
                self._db.executescript(_SCHEMA)
                self._db.execute("INSERT OR IGNORE INTO meta VALUES ('schema_version', ?)",
                                 (str(SCHEMA_VERSION),))
            self._check_schema()
        except sqlite3.DatabaseError as error:
            self._db.close()
            raise StoreError(f"{self.path}: not a results file ({error})") from None
        except StoreError:
            self._db.close()
            raise

    def _check_schema(self) -> None:
        tables = {row[0] for row in self._db.execute(
            "SELECT name FROM sqlite_master WHERE type='table'")}
        if not {"meta", "games"} <= tables:
            raise StoreError(f"{self.path}: not a pacman results file (no games table)")
        row = self._db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
        if row is None or row[0] != str(SCHEMA_VERSION):
            found = "none" if row is None else row[0]
            raise StoreError(f"{self.path}: results schema version {found}, this pacman reads "
                             f"version {SCHEMA_VERSION}")

    def close(self) -> None:
        """Close the file."""
        self._db.close()

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __len__(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM games").fetchone()[0])

    def done(self, base_seed: int) -> set[tuple[str, int]]:
        """`(config_key, game_index)` of every game stored for the batch seed `base_seed`."""
        return {(key, index) for key, index in self._db.execute(
            "SELECT config_key, game_index FROM games WHERE base_seed = ?", (base_seed,))}

    def add(self, task: GameTask, record: GameRecord, *, complete: bool = True,
            version: str | None = None) -> bool:
        """Store a finished game and commit; False if that game was already there.

        `complete=False` marks a game the batch had to give up on (killed by the game time
        limit, or lost with its worker): its score and moves were never measured.
        """
        config = task.config
        reported = [n for n in record.pacman_nodes if n is not None]
        cursor = self._db.execute(
            "INSERT OR IGNORE INTO games (config_key, base_seed, game_index, seed, pacman, "
            "pacman_settings, ghost, ghost_settings, num_ghosts, layout, max_moves, "
            "move_timeout, outcome, complete, score, pacman_moves, move_seconds, nodes, "
            "nodes_moves, fault, version, finished_at, record) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (config.key(), task.base_seed, task.index, task.seed, config.pacman.name,
             _json(config.pacman.settings_dict()), config.ghost.name,
             _json(config.ghost.settings_dict()), config.num_ghosts, config.layout,
             config.max_moves, config.move_timeout, record.outcome.value, int(complete),
             record.score if complete else None, record.pacman_moves if complete else None,
             float(sum(record.pacman_move_times)), sum(reported) if reported else None,
             len(reported), record.fault, version or __version__, time.time(),
             _json(record.to_dict())))
        return cursor.rowcount == 1

    def games(self) -> list[StoredGame]:
        """Every stored game, in the order they were stored."""
        rows = self._db.execute(
            "SELECT config_key, base_seed, game_index, seed, outcome, complete, score, "
            "pacman_moves, move_seconds, nodes, nodes_moves, fault, version, record "
            "FROM games ORDER BY id")
        configs: dict[str, GameConfig] = {}
        games = []
        for (key, base_seed, index, seed, outcome, complete, score, moves, seconds, nodes,
             nodes_moves, fault, version, record) in rows:
            config = configs.get(key)
            if config is None:
                config = configs[key] = GameConfig.from_dict(json.loads(key))
            games.append(StoredGame(config, base_seed, index, seed, Outcome(outcome),
                                    bool(complete), score, moves, seconds, nodes, nodes_moves,
                                    fault, version, record))
        return games


def _json(value: object) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def open_results(path: str | Path) -> ResultStore:
    """Open an existing results file for reading; StoreError if it is missing or not ours."""
    return ResultStore(path, create=False)
