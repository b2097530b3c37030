"""The results file: its format, its versions and their conversion, and its games in SQLite.

Every finished game is one row, written (and committed) as soon as it is known, keyed by
`(config_key, base_seed, game_index, code)`: running the same batch again finds what is there
and plays only the rest. `code` is the code version that played the game
(`pacman.versions`): after an edit of the agents' code the same batch plays its
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

**A damaged file is refused whole.** Opening a file, to read or to write, checks it before
anything is read or written (`_verify`): SQLite's `PRAGMA integrity_check`, the file's size, the
unique index of the games, and every game row as a hand edit would leave it (`_row_problem`). The
first problem is a `DamagedStoreError` naming the file; the file is left as it was.
`check_store` lists every problem, and `recover_store` copies the intact, valid games into a new
file, reading around the pages SQLite cannot (`pacman store check|recover`).

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
opening it every way a reader or a batch may, the schema and its conversion, checking it is
whole, turning SQLite's failures into one-line errors, the write transactions, and rows to
values and back. These share one connection and one transaction discipline (`_transaction`,
`_errors`): split them and the connection, the error mapping and the "is this a version-1
file" state would become an interface between modules that nothing else should see.
"""

from __future__ import annotations

import dataclasses
import json
import os
import sqlite3
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from pacman import __version__
from pacman.errors import DamagedStoreError, StoreError
from pacman.experiments.claims import (
    CLAIM_SECONDS,
    Claims,
    claim_games,
    drop_claim,
    release_claims,
    renew_claims,
)
from pacman.experiments.config import GameConfig, GameTask, StoredGame, derive_seed
from pacman.record import GameRecord, Outcome
from pacman.rules import Direction

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

    def __init__(self, path: str | Path, *, create: bool = True, verify: bool = True) -> None:
        self.path = Path(path)
        self.read_only = not create
        self._legacy = False  # a file from before the marker (set while opening)
        self._has_code = True  # False for a version-1 file until it is converted
        self._db = self._open()
        try:
            self._check_schema()
            if verify:  # (`check_store` and `recover_store` look at a damaged file themselves)
                self._verify()
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
                raise DamagedStoreError(f"{self.path}: damaged results file: the games table is "
                                        "missing")
            columns = {row[1] for row in self._db.execute("PRAGMA table_info(games)")}
            missing = [column for column in _GAME_COLUMNS if column not in columns]
            self._has_code = "code" in columns
            if missing:
                raise DamagedStoreError(f"{self.path}: damaged results file: the games table has "
                                        f"no column {', '.join(missing)}")
            if "claims" in tables:
                columns = {row[1] for row in self._db.execute("PRAGMA table_info(claims)")}
                if not {"config_key", "base_seed", "game_index", "owner", "expires"} <= columns:
                    raise DamagedStoreError(f"{self.path}: damaged results file: the claims "
                                            "table has the wrong columns")

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

    # --- damage: SQLite's integrity check, the unique index, every row ---------------------

    def _verify(self) -> None:
        """Refuse a damaged file before anything reads its games or writes to it: the first
        problem found (`_structure_problems`, then `_row_problem` of each row) is a
        DamagedStoreError naming the file."""
        for problem in self._structure_problems():
            raise DamagedStoreError(f"{self.path}: damaged results file: {problem}",
                                    _recover_hint(self.path))
        seen: dict[tuple[str, int, int, str], int] = {}
        cache: dict[tuple[str, str], Any] = {}
        with self._errors("check the games"):
            for row in self._rows():
                wrong = _row_problem(row, seen, cache)
                if wrong is not None:
                    raise DamagedStoreError(
                        f"{self.path}: damaged results file: game row {row[0]} ({wrong})",
                        _recover_hint(self.path, row=True))

    def _structure_problems(self) -> Iterator[str]:
        """What is wrong with the file as a whole, one line each.

        `PRAGMA integrity_check` (not `quick_check`, which skips what let a batch store a game
        twice: an index whose entries no longer match the table; on a 10,000-game file of
        30 MB each takes about 0.05 s), then the file's size, then the unique index of the
        games. Once the integrity check fails the index is not looked at.
        """
        with self._errors("check the file"):
            try:
                verdict = [line for row in self._db.execute("PRAGMA integrity_check")
                           for line in str(row[0]).splitlines()
                           if line.strip() and not line.startswith("*** in database")]
            except sqlite3.DatabaseError as error:  # too damaged to walk
                verdict = [str(error)]
            if verdict != ["ok"]:
                more = f" (and {len(verdict) - 1} more)" if len(verdict) > 1 else ""
                yield f"integrity check: {_short(Exception(verdict[0]))}{more}"
            page = int(self._db.execute("PRAGMA page_size").fetchone()[0])
            try:
                size = self.path.stat().st_size
            except OSError:  # (gone since it was opened: the open handle reads it still)
                size = 0
            if size % page:  # SQLite writes whole pages: the file was cut short
                yield (f"its size, {size:,} bytes, is not a whole number of {page}-byte pages "
                       "(cut short)")
            if verdict != ["ok"]:
                return
            key = ("config_key", "base_seed", "game_index", *(("code",) if self._has_code
                                                                else ()))
            if not any(unique and not partial and tuple(
                    row[2] for row in self._db.execute(f"PRAGMA index_info('{name}')")) == key
                    for _, name, unique, _, partial in self._db.execute(
                        "PRAGMA index_list(games)")):
                yield f"the games table has lost its unique index on ({', '.join(key)})"

    def _rows(self, columns: str = "", where: str = "", parameters: Sequence[Any] = (),
              order: str = "id") -> sqlite3.Cursor:
        """The game rows as `_row_problem` reads them, then `columns`, in `order`."""
        code = "code" if self._has_code else "''"
        record = (_RECORD_PROBES if _has_json(self._db)
                  else "0, NULL, NULL, CASE typeof(record) WHEN 'text' THEN record END")
        return self._db.execute(
            f"SELECT {', '.join(_CHECKED_COLUMNS)}, {code}, {record}{columns} "
            f"FROM games NOT INDEXED {where} ORDER BY {order}", parameters)

    def _salvage(self, broken: list[str]) -> Iterator[tuple[tuple[Any, ...], str | None]]:
        """Every game row SQLite can still read, with its record, in id order, each with its
        problem (`_row_problem`, the record rebuilt too) or None; around a damaged page of the
        table, from the other end and then id by id. What could not be read is noted in
        `broken`."""
        factory = self._db.text_factory
        self._db.text_factory = _lenient_text  # a row with bytes that are not UTF-8 is a problem
        try:
            yield from self._salvage_rows(broken)
        finally:
            self._db.text_factory = factory

    def _salvage_rows(self, broken: list[str]
                      ) -> Iterator[tuple[tuple[Any, ...], str | None]]:
        """`_salvage`, its text read leniently."""
        seen: dict[tuple[str, int, int, str], int] = {}
        cache: dict[tuple[str, str], Any] = {}
        last: int | None = None
        try:
            for row in self._rows(", record"):
                last = row[0]
                yield row, _row_problem(row, seen, cache, row[-1])
            return
        except sqlite3.DatabaseError as error:
            broken.append(f"the games table is damaged ({_short(error)}): the rows on its "
                          "damaged pages cannot be read")
        tail: list[tuple[Any, ...]] = []
        with suppress(sqlite3.DatabaseError):
            for row in self._rows(", record", "WHERE id > ?", (last or 0,), "id DESC"):
                tail.append(row)
        if tail:
            high = tail[-1][0]
        else:  # (a bound: no page holds more rows than this)
            high = (last or 0) + 1 + int(self._db.execute("PRAGMA page_count").fetchone()[0]) * 64
        for row_id in range((last or 0) + 1, high):
            try:
                found = self._rows(", record", "WHERE id = ?", (row_id,)).fetchone()
            except sqlite3.DatabaseError:
                continue
            if found is not None:
                yield found, _row_problem(found, seen, cache, found[-1])
        for row in reversed(tail):
            yield row, _row_problem(row, seen, cache, row[-1])

    # --- errors and transactions ----------------------------------------------------------

    def _error(self, error: sqlite3.Error, doing: str) -> StoreError:
        """The one-line StoreError for an SQLite failure while `doing`."""
        code = (getattr(error, "sqlite_errorcode", None) or 0) & 0xFF
        text = _short(error)
        if code == _FULL or "disk is full" in text:
            return StoreError(f"{self.path}: the disk is full (could not {doing})",
                              "free some space, then run the same command again")
        if code in (_CORRUPT, _NOTADB):
            return DamagedStoreError(f"{self.path}: damaged results file ({text}); could not "
                                     f"{doing}", f"pacman store recover {self.path} -o "
                                     "NEW.db copies its intact games into a new file")
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
        except UnicodeDecodeError:  # text SQLite hands over that is not UTF-8: a damaged page
            raise DamagedStoreError(f"{self.path}: damaged results file (text that is not "
                                    f"UTF-8); could not {doing}", f"pacman store recover "
                                    f"{self.path} -o NEW.db copies its intact games into a "
                                    "new file") from None

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
                # the original failure says more; and a transaction a Ctrl-C left suspended
                # (between its start and its `with` block) is closed by the garbage collector
                # at any later moment, the file closed too (closing rolled it back)
                with suppress(sqlite3.Error):
                    if self._db.in_transaction:
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
        with self._transaction("store a game"):
            added = self._insert(task, record, complete, version)
            drop_claim(self._db, task.config.key(), task.base_seed, task.index)
        return added

    def add_claimed(self, task: GameTask, record: GameRecord, owner: str, *,
                    complete: bool = True) -> str:
        """Store a game that the batch `owner` claimed and played, and free its claim.

        A row already there for the game is another batch's when that batch took the claim
        over (this one looked dead): it stays. While the claim is still `owner`'s, no batch
        can have played the game, so such a row was written by something else (forged): it
        is replaced by the game played.

        Args:
            task: the game.
            record: how it went.
            owner: the claim's owner (`pacman.experiments.claims.new_claim_owner`).
            complete: False for a game the batch gave up on (see `add`).

        Returns:
            "stored"; "theirs" (another batch's row kept); or "forged" (a forged row replaced).
        """
        ident = (task.config.key(), task.base_seed, task.index)
        with self._transaction("store a game"):
            claim = self._db.execute("SELECT owner FROM claims WHERE config_key = ? AND "
                                     "base_seed = ? AND game_index = ?", ident).fetchone()
            outcome = "stored"
            if not self._insert(task, record, complete, None):
                if claim is None or claim[0] != owner:
                    outcome = "theirs"
                else:
                    self._db.execute("DELETE FROM games WHERE config_key = ? AND base_seed = ? "
                                     "AND game_index = ? AND code = ?", (*ident, task.code))
                    self._insert(task, record, complete, None)
                    outcome = "forged"
            drop_claim(self._db, *ident)
        return outcome

    def _insert(self, task: GameTask, record: GameRecord, complete: bool,
                version: str | None) -> bool:
        """Inside a write transaction: the game's row, unless one is there (False)."""
        config = task.config
        reported = [n for n in record.pacman_nodes if n is not None]
        cursor = self._db.execute(
            "INSERT OR IGNORE INTO games (config_key, base_seed, game_index, seed, pacman, "
            "pacman_settings, ghost, ghost_settings, num_ghosts, layout, max_moves, "
            "move_timeout, outcome, complete, score, pacman_moves, move_seconds, nodes, "
            "nodes_moves, fault, version, finished_at, record, code) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (config.key(), task.base_seed, task.index, task.seed, config.pacman.name,
             _json(config.pacman.settings_dict()), config.ghost.name,
             _json(config.ghost.settings_dict()), config.num_ghosts, config.layout,
             config.max_moves, config.to_dict()["move_timeout"], record.outcome.value,
             int(complete),
             record.score if complete else None, record.pacman_moves if complete else None,
             float(sum(record.pacman_move_times)), sum(reported) if reported else None,
             len(reported), record.fault, version or __version__, time.time(),
             _json(record.to_dict()), task.code))
        return cursor.rowcount == 1

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
                raise DamagedStoreError(
                    f"{self.path}: damaged results file: game row {row[0]} ({_short(error)})",
                    _recover_hint(self.path, row=True)) from None
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


_CHECKED_COLUMNS = ("id", *_GAME_COLUMNS[:-1])  # every column but the record (and code)
_VALID_RECORD = "CASE typeof(record) WHEN 'text' THEN json_valid(record) ELSE 0 END"
#: what `_row_problem` needs of a record, read by SQLite's JSON functions without building
#: it in Python: is it JSON, of which type, its outcome, and the text itself only when
#: SQLite's JSON does not take it (Python's also reads `Infinity` and `NaN`)
_RECORD_PROBES = (
    f"{_VALID_RECORD}, CASE WHEN {_VALID_RECORD} THEN json_type(record) END, "
    f"CASE WHEN {_VALID_RECORD} THEN CASE json_type(record) WHEN 'object' THEN "
    "json_extract(record, '$.outcome') END END, "
    f"CASE WHEN {_VALID_RECORD} THEN NULL WHEN typeof(record) = 'text' THEN record END")
_COLUMN_TYPES: tuple[tuple[type, bool], ...] = (  # of _CHECKED_COLUMNS[1:] and code
    (str, False), (int, False), (int, False), (int, False), (str, False), (str, False),
    (str, False), (str, False), (int, False), (str, False), (int, True), (float, True),
    (str, False), (int, False), (int, True), (int, True), (float, False), (int, True),
    (int, False), (str, True), (str, False), (float, False), (str, False))
_MISSING = object()


def _has_json(db: sqlite3.Connection) -> bool:
    """Whether this SQLite has its JSON functions (built in since 3.38)."""
    try:
        db.execute("SELECT json_valid('{}')").fetchone()
    except sqlite3.OperationalError:
        return False
    return True


def _row_problem(row: Sequence[Any], seen: dict[tuple[str, int, int, str], int],
                 cache: dict[tuple[str, str], Any], record: Any = None) -> str | None:
    """What is wrong with a game row read by `ResultStore._rows` (None: nothing), as a hand
    edit would leave it: a value of the wrong type, an index below 0, a configuration key
    that is not one, columns, settings or a record that disagree with it or are not JSON, a
    seed that is not the one its key, batch seed and index derive, or the same game stored
    twice (`seen`: the id of each game's first valid row). `record`, if given, is the
    record's text, rebuilt into a `GameRecord` too. `cache` keeps what keys and settings
    texts come to."""
    values = row[1:24]
    (key, base_seed, index, seed, pacman, pacman_settings, ghost, ghost_settings, num_ghosts,
     layout, max_moves, move_timeout, outcome, complete, *_, code) = values
    valid, kind, record_outcome, raw = row[24:28]
    if record is not None and not all(_is_utf8(value) for value in values
                                      if isinstance(value, str)):
        return "text that is not UTF-8"  # (read by `_salvage`, which lets it through)
    try:
        for column, value, (wanted, nullable) in zip((*_CHECKED_COLUMNS[1:], "code"), values,
                                                     _COLUMN_TYPES):
            _checked(wanted, column, value, nullable)
        Outcome(outcome)
    except ValueError as error:
        return _short(error)
    if index < 0:
        return f"game_index is {index}, not a game's index (0 or more)"
    if complete not in (0, 1):
        return f"complete is {complete}, not 0 or 1"
    entry = cache.get(("key", key))
    if entry is None:
        try:
            _config_from_key(key)
            data = json.loads(key)
            seed_key = key if data.get("paired") is not True else json.dumps(
                {name: value for name, value in data.items() if name not in (
                    "pacman", "pacman_settings", "ghost", "ghost_settings")},
                sort_keys=True, separators=(",", ":"))  # as `GameConfig.seed_key`
            entry = (key, data, seed_key)
        except (ValueError, TypeError, KeyError, RecursionError) as error:
            text = _short(error)
            entry = text if text.startswith("config_key") else f"config_key: {text}"
        cache["key", key] = entry
    if isinstance(entry, str):
        return entry
    key, data, seed_key = entry  # (one string for every row of the key)
    for column, value in (("pacman", pacman), ("ghost", ghost), ("num_ghosts", num_ghosts),
                          ("layout", layout), ("max_moves", max_moves),
                          ("move_timeout", move_timeout)):
        if value != data.get(column):
            return (f"{column} is {_shown(value)}, but its config_key says "
                    f"{_shown(data.get(column))}")
    for column, text in (("pacman_settings", pacman_settings),
                         ("ghost_settings", ghost_settings)):
        settings = cache.get(("settings", text), _MISSING)
        if settings is _MISSING:
            try:
                settings = json.loads(text)
            except (ValueError, RecursionError):
                settings = None
            cache["settings", text] = settings
        if not isinstance(settings, dict):
            return f"{column} is {_shown(text)}, not a JSON object"
        if settings != data.get(column, {}):
            return f"{column} {_shown(text)} differ from its config_key's"
    expected = derive_seed(base_seed, seed_key, index)
    if seed != expected:
        return (f"seed {seed} is not the seed of game {index} of its config_key with batch "
                f"seed {base_seed} ({expected})")
    if not valid:
        if raw is None:
            return "record is not text"
        try:
            parsed = json.loads(raw)
        except (ValueError, RecursionError):
            return "record is not JSON"
        kind = "object" if isinstance(parsed, dict) else type(parsed).__name__
        if isinstance(parsed, dict):
            record_outcome = parsed.get("outcome")
    if kind != "object":
        return f"record is JSON but not an object ({kind})"
    if record_outcome != outcome:  # (tables count the column, replays the record)
        return f"record says outcome {_shown(record_outcome)}, the row {outcome!r}"
    if record is not None:
        problem = _record_problem(record, values, cache)
        if problem is not None:
            return f"record: {problem}"
    game = (key, base_seed, index, code)
    first = seen.setdefault(game, row[0])
    if first != row[0]:
        return f"the same game as game row {first}, stored twice"
    return None


#: the keys of a stored record (`GameRecord.to_dict`): all of them but the optional ones
_RECORD_KEYS = frozenset(("layout", "seed", "agents", "outcome", "score", "pacman_moves",
                          "actions", "fault_agent", "fault", "pacman_nodes", "think_time",
                          "pacman_move_times", "pacman_traces"))
_OPTIONAL_RECORD_KEYS = frozenset(("fault_agent", "fault", "pacman_nodes", "think_time",
                                   "pacman_move_times", "pacman_traces"))


def _record_problem(text: str, values: Sequence[Any], cache: dict[tuple[str, str], Any]
                    ) -> str | None:
    """What is wrong with a game row's record text (None: nothing), read as strictly as
    `pacman replay` reads a replay file and then held against its own row.

    The text must be strict JSON (`pacman.replay.reader.decode_json`: no NaN, no repeated
    key) of an object with the keys `GameRecord.to_dict` writes and no other, whose every
    field has the type a replay's has (`parse_replay`, with a stand-in maze: the row names
    the layout, it does not hold it) and no value the game cannot write. Then: every action
    is a direction; the counts agree (`pacman_moves` is Pacman's share of the actions, one
    node count and one move time per Pacman move, one think time per agent, a fault agent
    that is one of them); and the record agrees with its row: layout, seed, one agent per
    ghost and Pacman, each named as its row names it (a registered agent by its own
    description), outcome, fault, the nodes and move times summed, and a complete game's
    score and moves (an incomplete game's are not measured: NULL). `values` is the row as
    `_row_problem` reads it; `cache` keeps the agents' descriptions."""
    read = _read_record(text)
    if isinstance(read, str):
        return read
    game, data = read
    return (_row_disagreement(game, data, values) or _misnamed_agent(game, values, cache)
            or _reread_problem(game, data))


def _read_record(text: str) -> tuple[GameRecord, dict[str, Any]] | str:
    """A row's record text read as a replay's fields are (`_record_problem`): the game and
    the JSON it came from, or what is wrong, one line."""
    from pacman.errors import ReplayError
    from pacman.replay.format import FORMAT, FORMAT_VERSION
    from pacman.replay.reader import decode_json, parse_replay

    if not _is_utf8(text):
        return "text that is not UTF-8"
    try:
        data = json.loads(text, object_pairs_hook=_no_repeated_keys, parse_int=_bounded_int)
    except ValueError as error:  # (JSONDecodeError too)
        return _short(error)
    except RecursionError:
        return "nested too deeply"
    if not isinstance(data, dict):
        return "not a JSON object"
    unknown = sorted(set(data) - _RECORD_KEYS)
    missing = sorted(_RECORD_KEYS - _OPTIONAL_RECORD_KEYS - set(data))
    if unknown or missing:
        return "; ".join([*(f"unknown key {_shown(name)}" for name in unknown[:3]),
                          *(f"no key {name!r}" for name in missing[:3])])
    # the traces are notes on the moves, checked as `GameRecord` reads them: an agent's own
    # summary may hold what a replay refuses (`Infinity`, its own fields); the rest is the game
    traces = data.pop("pacman_traces", [])
    if not isinstance(traces, list) or not all(t is None or isinstance(t, dict) for t in traces):
        return "pacman_traces is not a list of objects and nulls"
    try:
        strict = decode_json(json.dumps(data, allow_nan=True), "record")
        agents = data["agents"]
        ghosts = len(agents) - 1 if isinstance(agents, list) and agents else 0
        replay = parse_replay({**strict, "format": FORMAT, "format_version": FORMAT_VERSION,
                               "layout_text": _stand_in_maze(ghosts)}, "record")
    except ReplayError as error:
        return _short(error).removeprefix("record: ")
    except RecursionError:
        return "nested too deeply"
    if replay.problems:
        return str(replay.problems[0])
    game = dataclasses.replace(replay.record, pacman_traces=tuple(traces))
    data["pacman_traces"] = traces
    strange = next((action for action in game.actions if action not in _DIRECTIONS), None)
    if strange is not None:
        return f"the action {_shown(strange)} is no direction ({', '.join(_DIRECTIONS)})"
    return game, data


def _row_disagreement(game: GameRecord, data: Mapping[str, Any], values: Sequence[Any]
                      ) -> str | None:
    """Counts that do not add up, or a field the record and its row tell differently."""
    (_, _, _, seed, _, _, _, _, num_ghosts, layout, _, _, outcome, complete, score,
     pacman_moves, move_seconds, nodes, nodes_moves, fault, *_) = values
    count = len(game.agents)
    wrong = [
        (f"{game.pacman_moves} Pacman moves in {len(game.actions)} actions of {count} agents",
         game.pacman_moves != -(-len(game.actions) // count)),
        (f"{len(game.pacman_nodes)} node counts for {game.pacman_moves} Pacman moves",
         "pacman_nodes" in data and len(game.pacman_nodes) != game.pacman_moves),
        (f"{len(game.pacman_move_times)} move times for {game.pacman_moves} Pacman moves",
         "pacman_move_times" in data and len(game.pacman_move_times) != game.pacman_moves),
        (f"{len(game.think_time)} think times for {count} agents",
         len(game.think_time) not in (0, count)),
        (f"{len(game.pacman_traces)} traces for {game.pacman_moves} Pacman moves",
         len(game.pacman_traces) not in (0, game.pacman_moves)),
        (f"fault_agent {game.fault_agent} of {count} agents",
         game.fault_agent is not None and game.fault_agent >= count),
        (f"layout {game.layout!r}, the row's {layout!r}", game.layout not in _layout_names(layout)),
        (f"seed {game.seed}, the row's {seed}", game.seed != seed),
        (f"{count} agents, the row's Pacman and {num_ghosts} ghosts", count != 1 + num_ghosts),
        (f"fault {_shown(game.fault)}, the row's {_shown(fault)}", game.fault != fault),
        (f"complete is {complete} with score {score} and pacman_moves {pacman_moves}",
         (score is None or pacman_moves is None) if complete else
         (score is not None or pacman_moves is not None)),
        (f"score {game.score}, the row's {score}", bool(complete) and game.score != score),
        (f"{game.pacman_moves} Pacman moves, the row's {pacman_moves}",
         bool(complete) and game.pacman_moves != pacman_moves),
        ("its node counts disagree with the row's nodes and nodes_moves",
         _node_columns(game.pacman_nodes) != (nodes, nodes_moves)),
        ("its move times do not add up to the row's move_seconds",
         float(sum(game.pacman_move_times)) != move_seconds),
        (f"outcome {game.outcome.value!r}, the row's {outcome!r}", game.outcome.value != outcome),
    ]
    return next((what for what, bad in wrong if bad), None)


def _misnamed_agent(game: GameRecord, values: Sequence[Any],
                    cache: dict[tuple[str, str], Any]) -> str | None:
    """An agent the record names otherwise than its row does (a registered agent by its own
    description)."""
    (_, _, _, _, pacman, pacman_settings, ghost, ghost_settings, *_) = values
    ghosts = len(game.agents) - 1
    for position, (name, settings, role) in enumerate(
            [(pacman, pacman_settings, "pacman")] + [(ghost, ghost_settings, "ghost")] * ghosts):
        said = game.agents[position]
        expected = _description(name, settings, role, cache)
        if expected is not None and said != expected and said.split(" ")[0] != expected:
            return (f"agent {position} is {_shown(said)}, but the row's {role} "
                    f"{name} says {_shown(expected)}")
    return None


def _reread_problem(game: GameRecord, data: dict[str, Any]) -> str | None:
    """A record that reads otherwise as a stored game than as a replay."""
    try:
        rebuilt = GameRecord.from_dict(data)  # what a table or a replay of the store reads
    except (ValueError, TypeError, KeyError, AttributeError) as error:
        return _short(error)
    if rebuilt.to_dict() != game.to_dict():
        return "it reads differently as a replay and as a stored game"
    return None




_DIRECTIONS = tuple(direction.value for direction in Direction)


def _is_utf8(text: str) -> bool:
    """False for text with lone surrogates (bytes that were not UTF-8, read by `_salvage`)."""
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _no_repeated_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are all different (ValueError: a key twice)."""
    result = dict(pairs)
    if len(result) != len(pairs):
        raise ValueError("a key appears twice in one object")
    return result


def _bounded_int(text: str) -> int:
    """A JSON whole number of at most 30 digits, as a replay's (`decode_json`)."""
    if len(text.lstrip("-")) > 30:
        raise ValueError(f"a {len(text)}-digit number")
    return int(text)


def _lenient_text(data: bytes) -> str:
    """SQLite's text as `str`, bytes that are not UTF-8 kept as lone surrogates (`_is_utf8`)."""
    return data.decode("utf-8", "surrogateescape")


def _stand_in_maze(ghosts: int) -> str:
    """A maze with Pacman and `ghosts` ghosts, for `parse_replay` to check a stored record."""
    middle = "%P" + "G" * ghosts + ".%"
    return "\n".join(("%" * len(middle), middle, "%" * len(middle)))


def _layout_names(layout: str) -> tuple[str, ...]:
    """The names a game's record may give the layout its row names (a file's is its stem)."""
    return (layout, Path(layout).stem)


def _node_columns(counts: Sequence[int | None]) -> tuple[int | None, int]:
    """The row's `nodes` and `nodes_moves` for a record's node counts (as `_insert`)."""
    reported = [count for count in counts if count is not None]
    return (sum(reported) if reported else None), len(reported)


def _description(name: str, settings: str, role: str, cache: dict[tuple[str, str], Any]
                 ) -> str | None:
    """How a game's record names the agent its row names: a registered agent's
    description, built from its settings (or at least its class name, if it cannot be
    built here); None for the user's agents (their `describe()` says what they like)."""
    key = ("agent", f"{role} {name} {settings}")
    if key in cache:
        found: str | None = cache[key]
        return found
    from pacman.agents.registry import AGENTS, make_agent

    found = None
    if any(entry.class_name == name and entry.role == role for entry in AGENTS):
        found = name
        with suppress(Exception):  # (a settings file missing here, ...)
            made = make_agent(name, role, json.loads(settings))
            text = made.describe()
            if isinstance(text, str):
                found = text
    cache[key] = found
    return found


def _recover_hint(path: Path, row: bool = False) -> str:
    """What to do about a damaged file (left unchanged): one clause of a one-line error."""
    return (f"it is left unchanged; {'fix or delete that row, or ' if row else ''}pacman store "
            f"recover {path} -o NEW.db copies its intact games into a new file")


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


# --- checking a store, and recovering its intact games ------------------------------------

LISTED_PROBLEMS = 20  # problems a check or a recovery names; the rest are counted


@dataclass(frozen=True)
class StoreCheck:
    """What `check_store` found in a results file."""

    path: Path
    integrity: str  # SQLite's verdict: "ok", or its first complaint
    problems: tuple[str, ...]  # the first LISTED_PROBLEMS problems, one line each
    problem_count: int  # every problem found
    rows: int  # game rows that could be read
    valid: int  # of which intact and valid: the games `recover_store` copies

    @property
    def intact(self) -> bool:
        """True if nothing is wrong."""
        return self.problem_count == 0


@dataclass(frozen=True)
class Recovery:
    """What `recover_store` copied from a results file into a new one."""

    path: Path
    out: Path
    rows: int  # game rows that could be read
    copied: int  # intact, valid games now in `out`
    skipped: tuple[str, ...]  # the first LISTED_PROBLEMS rows left out and why, and what
    skipped_count: int  # could not be read at all


def check_store(path: str | Path) -> StoreCheck:
    """Look at every part of a results file without changing it: SQLite's integrity check,
    its size, the unique index of the games, and every game row that can be read (each
    checked as opening checks them, and its record rebuilt).

    Args:
        path: the results file.

    Returns:
        What was found; `intact` if nothing is wrong.

    Raises:
        StoreError: the file is missing, not a results file, or cannot be read at all.
    """
    try:
        store = ResultStore(path, create=False, verify=False)
    except DamagedStoreError as error:  # its schema is unreadable: nothing more to look at
        verdict = error.message.partition("damaged results file")[2].lstrip(": ") or "damaged"
        return StoreCheck(Path(path), verdict, (verdict,), 1, 0, 0)
    problems: list[str] = []
    count = rows = valid = 0
    with store, store._errors("check the file"):
        structure = list(store._structure_problems())
        integrity = (structure[0].removeprefix("integrity check: ")
                     if structure and structure[0].startswith("integrity check") else "ok")
        broken: list[str] = []
        for row, problem in store._salvage(broken):
            rows += 1
            if problem is None:
                valid += 1
            else:
                structure.append(f"game row {row[0]} ({problem})")
        for problem in [*structure, *broken]:
            count += 1
            if len(problems) < LISTED_PROBLEMS:
                problems.append(problem)
    return StoreCheck(store.path, integrity, tuple(problems), count, rows, valid)


def recover_store(path: str | Path, out: str | Path) -> Recovery:
    """Copy every intact, valid game of a results file, damaged or not, into a new one.

    The games keep their rows' ids and values; a row `check_store` finds wrong (a hand edit,
    a record that cannot be rebuilt, the second copy of a game stored twice) is left out,
    and so are the rows on pages SQLite cannot read. The new file is written in one
    transaction: interrupted, it is removed again. The damaged file is not changed.

    Args:
        path: the results file to recover the games of.
        out: the new results file: missing, or empty.

    Returns:
        How many games were copied, and which rows were left out and why.

    Raises:
        StoreError: `out` already holds something, or `path` is missing, not a results file
        or too damaged to find its games table.
    """
    source, target = Path(path), Path(out)
    existed = target.exists()
    if existed and (target.stat().st_size or target.resolve() == source.resolve()):
        raise StoreError(f"{target}: already exists; recover into a new file")
    skipped: list[str] = []
    count = rows = copied = 0
    with ResultStore(source, create=False, verify=False) as store:
        try:
            with ResultStore(target) as new, new._transaction("copy the intact games"):
                broken: list[str] = []
                with store._errors("read the games"):
                    for row, problem in store._salvage(broken):
                        rows += 1
                        if problem is None:
                            new._db.execute(_COPY, (*row[:23], row[28], row[23]))
                            copied += 1
                            continue
                        count += 1
                        if len(skipped) < LISTED_PROBLEMS:
                            skipped.append(f"game row {row[0]} ({problem})")
                for problem in broken:
                    count += 1
                    if len(skipped) < LISTED_PROBLEMS:
                        skipped.append(problem)
        except BaseException:
            if not existed:
                with suppress(OSError):
                    target.unlink()
            raise
    return Recovery(source, target, rows, copied, tuple(skipped), count)


_COPY = (f"INSERT INTO games ({', '.join(_CHECKED_COLUMNS)}, record, code) "
         f"VALUES ({', '.join('?' * (len(_CHECKED_COLUMNS) + 2))})")
