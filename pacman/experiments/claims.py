"""Claims: how two batches on one results file share its games, so each game is played once.

Before a batch plays a game it claims it in the file's `claims` table, in the same transaction
that checks the game is not stored yet (`claim_games`); a game another live batch has claimed is
left to that batch, and played only if that batch dies without storing it. A claim names its
batch, `host:pid:token` (`new_claim_owner`: the host name, the process id and 12 random hex
digits), and expires `CLAIM_SECONDS` after the batch last renewed it (`renew_claims`, the
running batch's heartbeat). Another batch's claim is free to take over when its expiry has
passed, when its owner is not text or its expiry not a number, or when its owner is a process
of this host that is not running (a zombie is not running) or is this very process (an earlier
batch of it, which is over: one batch at a time per process), so a batch killed with `kill -9`
can be resumed right away; a claim of another host, or with an owner of another shape, is
decided by its expiry alone. Storing a game deletes its claim in the same transaction
(`drop_claim`), and a batch that ends drops the rest (`release_claims`). So every game is
played once and every count is right, however many batches run; a batch that finds all its
games claimed waits for the others to finish them.

This module is the rules and their SQL, and nothing else: the functions run on the connection
of a `ResultStore` (`pacman.experiments.store`) inside the store's write transactions
(`BEGIN IMMEDIATE` ... `COMMIT`, rolled back on any exception), which the store opens and
closes; the `claims` table is declared with the file's other tables there.
"""

from __future__ import annotations

import os
import socket
import sqlite3
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pacman.experiments.config import GameTask

CLAIM_SECONDS = 60.0  # a claim not renewed for this long is free (its batch is gone)


@dataclass(frozen=True)
class Claims:
    """What `ResultStore.claim` found for each game asked for."""

    claimed: tuple[GameTask, ...] = ()  # now claimed by the caller: play them
    stored: tuple[GameTask, ...] = ()  # already in the store (another batch played them)
    busy: tuple[GameTask, ...] = ()  # claimed by another batch that is still running
    owners: frozenset[str] = field(default_factory=frozenset)  # the owners of the busy ones


def new_claim_owner() -> str:
    """A name for the claims of one batch run: `host:pid:token`."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:12]}"


def claim_games(db: sqlite3.Connection, tasks: Sequence[GameTask], owner: str, now: float,
                seconds: float) -> Claims:
    """Inside the caller's write transaction: claim, for `seconds` from `now`, each game of
    `tasks` that is neither stored (under its code version) nor claimed by a live batch.

    A game already stored is reported `stored`; a game whose claim belongs to another batch
    that is alive and within its lease is `busy` (with that owner in `owners`); every other
    game is claimed by `owner` (`INSERT OR REPLACE`: a free claim is taken over).
    """
    claimed: list[GameTask] = []
    stored: list[GameTask] = []
    busy: list[GameTask] = []
    owners: set[str] = set()
    for task in tasks:
        ident = (task.config.key(), task.base_seed, task.index)
        if db.execute("SELECT 1 FROM games WHERE config_key = ? AND base_seed = ? "
                      "AND game_index = ? AND code = ?",
                      (*ident, task.code)).fetchone() is not None:
            stored.append(task)
            continue
        row = db.execute("SELECT owner, expires FROM claims WHERE config_key = ? "
                         "AND base_seed = ? AND game_index = ?", ident).fetchone()
        if row is not None and row[0] != owner and not _claim_is_free(
                row[0], row[1], now, owner):
            busy.append(task)
            owners.add(str(row[0]))
            continue
        db.execute("INSERT OR REPLACE INTO claims (config_key, base_seed, "
                   "game_index, owner, expires) VALUES (?, ?, ?, ?, ?)",
                   (*ident, owner, now + seconds))
        claimed.append(task)
    return Claims(tuple(claimed), tuple(stored), tuple(busy), frozenset(owners))


def renew_claims(db: sqlite3.Connection, owner: str, seconds: float) -> None:
    """Inside the caller's write transaction: every claim of `owner` now expires `seconds`
    from now."""
    db.execute("UPDATE claims SET expires = ? WHERE owner = ?", (time.time() + seconds, owner))


def release_claims(db: sqlite3.Connection, owner: str) -> None:
    """Inside the caller's write transaction: delete every claim of `owner`."""
    db.execute("DELETE FROM claims WHERE owner = ?", (owner,))


def drop_claim(db: sqlite3.Connection, config_key: str, base_seed: int, index: int) -> None:
    """Inside the caller's write transaction (the one that stores the game): delete the claim
    of one game, whoever holds it."""
    db.execute("DELETE FROM claims WHERE config_key = ? AND base_seed = ? AND "
               "game_index = ?", (config_key, base_seed, index))


def _claim_is_free(owner: object, expires: object, now: float, me: str) -> bool:
    """Whether a claim found in the file may be taken over by `me`."""
    if not isinstance(owner, str) or not isinstance(expires, (int, float)) or expires < now:
        return True
    parts = owner.rsplit(":", 2)
    if len(parts) != 3 or parts[0] != socket.gethostname() or not parts[1].isdigit():
        return False  # a batch on another machine: only its lease tells
    pid = int(parts[1])
    if pid == os.getpid():
        return True  # an earlier batch of this process, which is over: one batch at a time
    return not _alive(pid)


def _alive(pid: int) -> bool:
    """Whether process `pid` of this machine is running (a zombie is not)."""
    if os.name != "posix":
        return True  # no cheap check: the claim's lease decides
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # it exists, and belongs to someone else
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat.rpartition(")")[2].split()[:1] != ["Z"]
