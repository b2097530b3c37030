"""The results file: its format, its versions and their conversion, and its games in SQLite.

Every finished game is one row, written (and committed) as soon as it is known, keyed by
`(config_key, base_seed, game_index, code)`: running the same batch again finds what is there
and plays only the rest. `code` is the code version that played the game
(`pacman.experiments.versions`): after an edit of the agents' code the same batch plays its
games again under the new version, and the old games stay. The row keeps the columns tables
group and average by, and the whole `GameRecord` as JSON.

**Formats.** Version 2 added `code`. A version-1 file is read as it is (its games have the
code version "", unknown) and converted in place, in one transaction, the first time a batch
writes to it.

**Which files are ours.** A results file says so itself: `PRAGMA application_id` holds
`APPLICATION_ID` and `PRAGMA user_version` the format version, both written in the transaction
that creates the file (a missing or empty file). A file from before the marker is known by its
`meta` row and stamped the first time a batch writes to it. Any other file (an SQLite database
of another program, or not SQLite at all) is refused with one line and never changed: it is
identified from its header bytes and, if need be, a read-only look.

**Failures are one line.** Every problem is a `StoreError` whose message names the file: a
damaged file (a corrupt page, a missing table or column, a hand-edited row whose values have the
wrong type), a full disk, a file locked by another program, a file that cannot be written.

**Reading never writes.** `open_results` opens the file read-only: with `PRAGMA query_only`
where the file and its folder are writable (so SQLite tidies its `-wal`/`-shm` files on close),
else through a `mode=ro` URI, or `immutable=1` when even that cannot open (a WAL file in a
read-only folder). `pacman table` and `pacman plot` work on a store nobody may write.

**Two batches on one file share the work.** Before a batch plays a game it claims it in the
`claims` table (`claim`, `renew`, `release`); storing a game deletes its claim in the same
transaction. The rules of claims are `pacman.experiments.claims`; this module runs them inside
its own write transactions, so every write to the file, claims included, is one `BEGIN
IMMEDIATE` ... `COMMIT` here, rolled back on any exception.

The configurations, tasks and stored games themselves are plain values
(`pacman.experiments.config`); this module turns them into rows and back.

**Why one module of over 500 lines.** Its one job is the file: telling ours from others',
opening it every way a reader or a batch may, the schema and its conversion, turning SQLite's
failures into one-line errors, the write transactions, and rows to values and back. These
share one connection and one transaction discipline (`_transaction`, `_errors`): split them
and the connection, the error mapping and the "is this a version-1 file" state would become
an interface between modules that nothing else should see.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any
from urllib.parse import quote

from pacman import __version__
from pacman.errors import StoreError
from pacman.experiments.claims import (
    CLAIM_SECONDS,
    Claims,
    claim_games,
    drop_claim,
    release_claims,
    renew_claims,
)
from pacman.experiments.config import GameConfig, GameTask, StoredGame
from pacman.record import GameRecord, Outcome

SCHEMA_VERSION = 2
READABLE_VERSIONS = (1, 2)  # version 1: no code column (converted when written)
APPLICATION_ID = 0x50616352  # "PacR": `PRAGMA application_id` of every results file
INTEGER_MIN, INTEGER_MAX = -(2**63), 2**63 - 1  # what an SQLite INTEGER holds
BUSY_SECONDS = 30.0  # how long to wait for another process's write lock

_SQLITE_MAGIC = b"SQLite format 3\x00"
_GAMES_SCHEMA = """
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
    code TEXT NOT NULL DEFAULT '',  -- code version ('': stored before code versions)
    UNIQUE (config_key, base_seed, game_index, code)
)"""
_META_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
)"""
_CLAIMS_SCHEMA = """
CREATE TABLE IF NOT EXISTS claims (
    config_key TEXT NOT NULL,
    base_seed INTEGER NOT NULL,
    game_index INTEGER NOT NULL,
    owner TEXT NOT NULL,            -- host:pid:token of the batch playing the game
    expires REAL NOT NULL,          -- Unix time; renewed while that batch runs
    PRIMARY KEY (config_key, base_seed, game_index)
)"""
_GAME_COLUMNS = (
    "config_key", "base_seed", "game_index", "seed", "pacman", "pacman_settings", "ghost",
    "ghost_settings", "num_ghosts", "layout", "max_moves", "move_timeout", "outcome",
    "complete", "score", "pacman_moves", "move_seconds", "nodes", "nodes_moves", "fault",
    "version", "finished_at", "record")

# the first byte of SQLite's primary result codes (Python 3.11 exceptions carry the code)
_BUSY, _LOCKED, _READONLY, _IOERR, _CORRUPT, _FULL, _CANTOPEN, _NOTADB = 5, 6, 8, 10, 11, 13, 14, 26


class ResultStore:
    """A SQLite results file: one row per finished game, committed as it arrives.

    `create=True` (a batch) opens the file for writing, creating it if it is missing or empty;
    `create=False` (`open_results`) opens an existing file read-only. Every failure is a
    StoreError with a one-line message.
    """

    def __init__(self, path: str | Path, *, create: bool = True) -> None:
        self.path = Path(path)
        self.read_only = not create
        self._legacy = False  # a file from before the marker (set while opening)
        self._has_code = True  # False for a version-1 file until it is converted
        self._db = self._open()
        try:
            self._check_schema()
            if not self.read_only:
                self._prepare_for_writing()
        except BaseException:
            self._db.close()
            raise

    # --- opening --------------------------------------------------------------------------

    def _open(self) -> sqlite3.Connection:
        path = self.path
        try:
            size = path.stat().st_size if path.exists() else None
        except OSError as error:
            raise StoreError(f"{path}: cannot open ({error.strerror})") from None
        if size is not None and not path.is_file():
            raise StoreError(f"{path}: not a results file (not a file)")
        if not size:
            if self.read_only:
                raise StoreError(f"no results file {path}" if size is None else
                                 f"{path}: an empty file, not a results file")
            return self._create()
        self._legacy = self._identify()
        if self.read_only:
            return self._connect_read_only()
        if not _writable(path):
            raise StoreError(f"{path}: cannot write here (the file or its folder is read-only); "
                             "pacman table can still read it")
        with self._errors("open"):
            return sqlite3.connect(path, timeout=BUSY_SECONDS, isolation_level=None)

    def _identify(self) -> bool:
        """Check the file is ours without changing it; True if it predates the marker."""
        try:
            with open(self.path, "rb") as file:
                header = file.read(100)
        except OSError as error:
            raise StoreError(f"{self.path}: cannot read ({error.strerror})") from None
        if len(header) < 100 or not header.startswith(_SQLITE_MAGIC):
            raise StoreError(f"{self.path}: not a results file: not an SQLite database "
                             "(left unchanged)")
        application_id = int.from_bytes(header[68:72], "big", signed=True)
        if application_id == APPLICATION_ID:
            return False
        if application_id == 0 and self._looks_like_an_old_store(wal=header[18] == 2):
            return True
        raise StoreError(f"{self.path}: not a results file: an SQLite database of another "
                         "program (left unchanged)")

    def _looks_like_an_old_store(self, wal: bool) -> bool:
        # a look that can neither change the file nor create files beside it: mode=ro with
        # its locks (a batch may be creating the file this very moment), except for a WAL
        # file without its -wal file, where it would create them: the main file is all there
        # is to read then, which `immutable` does without any
        option = "immutable=1" if wal and not Path(f"{self.path}-wal").exists() else "mode=ro"
        try:
            db = sqlite3.connect(f"{_uri(self.path)}?{option}", uri=True, timeout=BUSY_SECONDS)
        except sqlite3.Error as error:
            raise StoreError(f"{self.path}: cannot be read ({_short(error)}): damaged, or not "
                             "a results file (left unchanged)") from None
        try:
            tables = {row[0] for row in db.execute(
                "SELECT name FROM sqlite_master WHERE type='table'")}
            if not {"meta", "games"} <= tables:
                return False
            row = db.execute("SELECT 1 FROM meta WHERE key='schema_version'").fetchone()
            return row is not None
        except sqlite3.Error as error:
            raise StoreError(f"{self.path}: cannot be read ({_short(error)}): damaged, or not "
                             "a results file (left unchanged)") from None
        finally:
            db.close()

    def _connect_read_only(self) -> sqlite3.Connection:
        if _writable(self.path):
            # query_only refuses every write; a read-write handle lets SQLite tidy its
            # -wal/-shm files on close, which a mode=ro handle leaves behind
            with self._errors("open"):
                handle = sqlite3.connect(self.path, timeout=BUSY_SECONDS, isolation_level=None)
                handle.execute("PRAGMA query_only=ON")
            return handle
        error: sqlite3.Error | None = None
        # mode=ro reads the -wal file too, but needs a -shm file it may create; immutable=1
        # (no locks, no -wal) is for a folder where not even that is possible
        for option in ("mode=ro", "immutable=1"):
            db: sqlite3.Connection | None = None
            try:
                db = sqlite3.connect(f"{_uri(self.path)}?{option}", uri=True,
                                     timeout=BUSY_SECONDS, isolation_level=None)
                db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
                return db
            except sqlite3.Error as failure:
                error = failure
                if db is not None:
                    db.close()
        assert error is not None
        raise self._error(error, "open")

    def _create(self) -> sqlite3.Connection:
        """Create the file, or finish opening it if another batch created it meanwhile."""
        existed = self.path.exists()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise StoreError(f"{self.path}: cannot create its folder ({error.strerror})") from None
        if not os.access(self.path.parent, os.W_OK) or (existed and not _writable(self.path)):
            raise StoreError(f"{self.path}: cannot create a results file here (the folder or "
                             "the file is read-only)")
        db: sqlite3.Connection | None = None
        try:
            db = sqlite3.connect(self.path, timeout=BUSY_SECONDS, isolation_level=None)
            # EXCLUSIVE: of two batches creating one file, one creates, the other waits and
            # then finds the marker; a file filled by another program meanwhile stays as it is
            db.execute("BEGIN EXCLUSIVE")
            application_id = db.execute("PRAGMA application_id").fetchone()[0]
            tables = db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0]
            if application_id == 0 and tables == 0:
                for statement in (_META_SCHEMA, _GAMES_SCHEMA, _CLAIMS_SCHEMA):
                    db.execute(statement)
                db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                db.executemany("INSERT INTO meta VALUES (?, ?)", [
                    ("schema_version", str(SCHEMA_VERSION)),
                    ("created_by", f"pacman {__version__}")])
                db.execute("COMMIT")
            else:
                db.execute("ROLLBACK")
                if application_id != APPLICATION_ID:
                    raise StoreError(f"{self.path}: not a results file: an SQLite database of "
                                     "another program (left unchanged)")
            return db
        except BaseException as error:
            if db is not None:
                db.close()
            if not existed:
                _remove_if_empty(self.path)
            if isinstance(error, sqlite3.Error):
                raise self._error(error, "create the results file") from None
            raise

    def _check_schema(self) -> None:
        with self._errors("read"):
            if self._legacy:
                row = self._db.execute(
                    "SELECT value FROM meta WHERE key='schema_version'").fetchone()
                version = row[0] if row is not None else None
            else:
                version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if str(version) not in {str(v) for v in READABLE_VERSIONS}:
                newer = isinstance(version, int) and version > SCHEMA_VERSION
                raise StoreError(f"{self.path}: results format version {version}, this pacman "
                                 f"reads version {SCHEMA_VERSION}"
                                 + (" (the file was written by a newer pacman)" if newer else ""))
            tables = {row[0] for row in self._db.execute(
                "SELECT name FROM sqlite_master WHERE type='table'")}
            if "games" not in tables:
                raise StoreError(f"{self.path}: damaged results file: the games table is missing")
            columns = {row[1] for row in self._db.execute("PRAGMA table_info(games)")}
            missing = [column for column in _GAME_COLUMNS if column not in columns]
            self._has_code = "code" in columns
            if missing:
                raise StoreError(f"{self.path}: damaged results file: the games table has no "
                                 f"column {', '.join(missing)}")
            if "claims" in tables:
                columns = {row[1] for row in self._db.execute("PRAGMA table_info(claims)")}
                if not {"config_key", "base_seed", "game_index", "owner", "expires"} <= columns:
                    raise StoreError(f"{self.path}: damaged results file: the claims table has "
                                     "the wrong columns")

    def _prepare_for_writing(self) -> None:
        with self._errors("prepare the file for writing"):
            # WAL: a reader (`pacman table`) can look while a batch writes; NORMAL sync keeps
            # every commit safe from a crashed or killed process
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            has_claims = self._db.execute(
                "SELECT 1 FROM sqlite_master WHERE type='table' AND name='claims'").fetchone()
            if self._legacy or not has_claims or not self._has_code:
                with self._transaction("prepare the file for writing"):
                    self._db.execute(_CLAIMS_SCHEMA)
                    if not self._has_code:
                        self._add_code_column()
                    self._db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                    self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                    self._db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)",
                                     ("schema_version", str(SCHEMA_VERSION)))
                self._legacy = False
                self._has_code = True

    def _add_code_column(self) -> None:
        """Convert a version-1 games table (inside the caller's transaction): the key gains
        the code version, so the table is rebuilt; every game keeps its id and values."""
        columns = ", ".join(_GAME_COLUMNS)
        self._db.execute("ALTER TABLE games RENAME TO games_version_1")
        self._db.execute(_GAMES_SCHEMA)
        self._db.execute(f"INSERT INTO games (id, {columns}, code) "
                         f"SELECT id, {columns}, '' FROM games_version_1")
        self._db.execute("DROP TABLE games_version_1")

    # --- errors and transactions ----------------------------------------------------------

    def _error(self, error: sqlite3.Error, doing: str) -> StoreError:
        """The one-line StoreError for an SQLite failure while `doing`."""
        code = (getattr(error, "sqlite_errorcode", None) or 0) & 0xFF
        text = _short(error)
        if code == _FULL or "disk is full" in text:
            return StoreError(f"{self.path}: the disk is full (could not {doing})",
                              "free some space, then run the same command again")
        if code in (_CORRUPT, _NOTADB):
            return StoreError(f"{self.path}: damaged results file ({text}); could not {doing}")
        if code in (_BUSY, _LOCKED):
            return StoreError(f"{self.path}: locked by another program for over "
                              f"{BUSY_SECONDS:g}s; could not {doing}")
        if code == _READONLY:
            return StoreError(f"{self.path}: cannot write (the file or its folder is "
                              f"read-only); could not {doing}")
        return StoreError(f"{self.path}: could not {doing} ({text})")

    @contextmanager
    def _errors(self, doing: str) -> Iterator[None]:
        try:
            yield
        except sqlite3.Error as error:
            raise self._error(error, doing) from None
        except OverflowError as error:  # a Python int beyond SQLite's 64-bit INTEGER
            raise StoreError(f"{self.path}: could not {doing}: {error}") from None

    @contextmanager
    def _transaction(self, doing: str) -> Iterator[None]:
        """One write transaction; rolled back on any exception, Ctrl-C included."""
        if self.read_only:
            raise StoreError(f"{self.path}: opened for reading; could not {doing}")
        with self._errors(doing):
            # transactions never nest here: one still open was cut short by a Ctrl-C that
            # landed where no handler could roll it back, so it is abandoned now
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            try:
                self._db.execute("BEGIN IMMEDIATE")  # inside: an interrupt just after it counts
                yield
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:
                    with suppress(sqlite3.Error):  # the original failure says more
                        self._db.execute("ROLLBACK")
                raise

    def close(self) -> None:
        """Close the file."""
        self._db.close()

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- games ----------------------------------------------------------------------------

    def __len__(self) -> int:
        with self._errors("count the games"):
            return int(self._db.execute("SELECT COUNT(*) FROM games").fetchone()[0])

    def done(self, base_seed: int) -> set[tuple[str, int, str]]:
        """`(config_key, game_index, code)` of every game stored for the batch seed
        `base_seed`."""
        code = "code" if self._has_code else "''"
        with self._errors("read the games"):
            return {(key, index, version) for key, index, version in self._db.execute(
                f"SELECT config_key, game_index, {code} FROM games WHERE base_seed = ?",
                (base_seed,))}

    def add(self, task: GameTask, record: GameRecord, *, complete: bool = True,
            version: str | None = None) -> bool:
        """Store a finished game (and free its claim) and commit; False if it was there.

        `complete=False` marks a game the batch had to give up on (killed by the game time
        limit, or lost with its worker): its score and moves were never measured.
        """
        config = task.config
        key = config.key()
        reported = [n for n in record.pacman_nodes if n is not None]
        with self._transaction("store a game"):
            cursor = self._db.execute(
                "INSERT OR IGNORE INTO games (config_key, base_seed, game_index, seed, pacman, "
                "pacman_settings, ghost, ghost_settings, num_ghosts, layout, max_moves, "
                "move_timeout, outcome, complete, score, pacman_moves, move_seconds, nodes, "
                "nodes_moves, fault, version, finished_at, record, code) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (key, task.base_seed, task.index, task.seed, config.pacman.name,
                 _json(config.pacman.settings_dict()), config.ghost.name,
                 _json(config.ghost.settings_dict()), config.num_ghosts, config.layout,
                 config.max_moves, config.move_time_limit, record.outcome.value, int(complete),
                 record.score if complete else None, record.pacman_moves if complete else None,
                 float(sum(record.pacman_move_times)), sum(reported) if reported else None,
                 len(reported), record.fault, version or __version__, time.time(),
                 _json(record.to_dict()), task.code))
            added = cursor.rowcount == 1
            drop_claim(self._db, key, task.base_seed, task.index)
        return added

    def games(self) -> list[StoredGame]:
        """Every stored game, in the order they were stored; StoreError for a damaged row."""
        with self._errors("read the games"):
            rows = self._db.execute(
                "SELECT id, config_key, base_seed, game_index, seed, outcome, complete, score, "
                "pacman_moves, move_seconds, nodes, nodes_moves, fault, version, record, "
                f"{'code' if self._has_code else chr(39) * 2} FROM games ORDER BY id").fetchall()
        configs: dict[str, GameConfig] = {}
        games = []
        for row in rows:
            try:
                games.append(_stored_game(row[1:], configs))
            except (ValueError, TypeError, KeyError, RecursionError) as error:
                raise StoreError(f"{self.path}: damaged results file: game row {row[0]} "
                                 f"({_short(error)}); fix or delete that row") from None
        return games

    # --- claims: two batches on one file share the work ------------------------------------

    def claim(self, tasks: Sequence[GameTask], owner: str,
              seconds: float = CLAIM_SECONDS) -> Claims:
        """Claim the games of `tasks` that are neither stored nor claimed by a live batch
        (`pacman.experiments.claims.claim_games`), for `seconds`.

        One transaction: no other batch can claim or store one of them in between.
        """
        now = time.time()
        with self._transaction("claim games"):
            claims = claim_games(self._db, tasks, owner, now, seconds)
        return claims

    def renew(self, owner: str, seconds: float = CLAIM_SECONDS) -> None:
        """Push back the expiry of every claim of `owner` (a running batch's heartbeat)."""
        with self._transaction("renew claims"):
            renew_claims(self._db, owner, seconds)

    def release(self, owner: str) -> None:
        """Drop every claim of `owner` (its batch is over)."""
        with self._transaction("release claims"):
            release_claims(self._db, owner)


def _stored_game(row: Sequence[Any], configs: dict[str, GameConfig]) -> StoredGame:
    """A row as a StoredGame, checking every value's type (rows may be edited by hand)."""
    (key, base_seed, index, seed, outcome, complete, score, moves, seconds, nodes, nodes_moves,
     fault, version, record, code) = row
    text = _checked(str, "config_key", key)
    config = configs.get(text)
    if config is None:
        config = configs[text] = _config_from_key(text)
    return StoredGame(
        config, _checked(int, "base_seed", base_seed), _checked(int, "game_index", index),
        _checked(int, "seed", seed), Outcome(_checked(str, "outcome", outcome)),
        bool(_checked(int, "complete", complete)), _checked(int, "score", score, True),
        _checked(int, "pacman_moves", moves, True),
        float(_checked(float, "move_seconds", seconds)), _checked(int, "nodes", nodes, True),
        _checked(int, "nodes_moves", nodes_moves), _checked(str, "fault", fault, True),
        _checked(str, "version", version), _checked(str, "record", record),
        _checked(str, "code", code))


def _checked(kind: type, column: str, value: Any, nullable: bool = False) -> Any:
    if value is None and nullable:
        return None
    if kind is float and type(value) in (int, float):
        return value
    if type(value) is not kind:
        wanted = {int: "a whole number", float: "a number"}.get(kind, "text")
        raise ValueError(f"{column} is {_shown(value)}, not {wanted}")
    return value


def _config_from_key(key: str) -> GameConfig:
    data = json.loads(key)
    if not isinstance(data, dict):
        raise ValueError("config_key is not a JSON object")
    for name in ("pacman", "ghost", "layout"):
        if not isinstance(data.get(name), str):
            raise ValueError(f"config_key: {name} is {_shown(data.get(name))}, not text")
    for name in ("pacman_settings", "ghost_settings"):
        settings = data.get(name, {})
        if not isinstance(settings, dict) or not all(
                value is None or isinstance(value, (str, int, float, bool))
                for value in settings.values()):
            raise ValueError(f"config_key: {name} is {_shown(settings)}, not settings")
    for name in ("num_ghosts", "max_moves"):
        value = data.get(name)
        if value is not None and (type(value) is not int or value < 0):
            raise ValueError(f"config_key: {name} is {_shown(value)}, not a whole number")
    timeout = data.get("move_timeout")
    if timeout is not None and type(timeout) not in (int, float):
        raise ValueError(f"config_key: move_timeout is {_shown(timeout)}, not a number")
    if data.get("paired", False) not in (True, False):
        raise ValueError(f"config_key: paired is {_shown(data.get('paired'))}, not true/false")
    return GameConfig.from_dict(data)


def _writable(path: Path) -> bool:
    return os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)


def _uri(path: Path) -> str:
    return "file:" + quote(str(path.absolute()))


def _remove_if_empty(path: Path) -> None:
    try:
        if path.stat().st_size == 0:
            path.unlink()
    except OSError:
        pass


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _short(error: BaseException) -> str:
    """An exception's message on one line, cut to a readable length."""
    text = " ".join(str(error).split())
    return text if len(text) <= 200 else text[:197] + "..."


def _json(value: object) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def open_results(path: str | Path) -> ResultStore:
    """Open an existing results file read-only; StoreError if it is missing or not ours."""
    return ResultStore(path, create=False)
