"""`pacman store check` against damaged records (issue 46, class 10): every single-bit flip of
a stored game is found, or changes nothing of the game.

A store of a few real games; then, one at a time on a fresh copy, 300 seeded single-bit flips
of a stored record's JSON text (two in three) or of one of its row's other values (an integer's
or a float's bit, a text's byte). Each flip is either found by `check_store` (and that row is
not copied by `recover_store`, which copies the other games as they were), or harmless: every
record of the store decodes to the game it was (`GameRecord ==`: the game of record, not the
measured times), and `recover_store` copies every game.

On the code before this check 34 of 300 such flips (the campaign's count) passed as intact
with a record that was no longer the game: an action that is no direction (`Ea{t`), a layout or
agent that disagrees with its own row, a misspelt key. The campaign's inputs are cases of their
own below.
"""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
import struct
from collections import Counter
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from pacman.experiments import run_batch
from pacman.experiments.config import GameConfig
from pacman.experiments.store import check_store, recover_store
from pacman.record import GameRecord
from pacman.specs import AgentSpec

FLIPS = 300
SEED = 46
#: the columns a row keeps besides its record: what they mean to the game is checked against
#: the record and the configuration key; `id`, `version`, `finished_at` and `code` are the
#: row's own (a flip there leaves the game as it was)
COLUMNS = ("id", "config_key", "base_seed", "game_index", "seed", "pacman", "pacman_settings",
           "ghost", "ghost_settings", "num_ghosts", "layout", "max_moves", "move_timeout",
           "outcome", "complete", "score", "pacman_moves", "move_seconds", "nodes",
           "nodes_moves", "fault", "version", "finished_at", "code")


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Four real games: a searching Pacman (its nodes counted) and a greedy one, two ghosts of
    two kinds, two layouts."""
    path = tmp_path_factory.mktemp("flips") / "games.db"
    configs = [GameConfig(AgentSpec.of("alphabeta", {"depth": 1}), AgentSpec("DirectionalGhost"),
                          layout="testClassic", max_moves=20),
               GameConfig(AgentSpec("greedy"), AgentSpec("RandomGhost"), 2, "smallClassic",
                          max_moves=20)]
    result = run_batch(configs, games=2, store=path, seed=5, jobs=1, isolation="none")
    assert result.stored == 4
    return path


def rows(path: Path) -> dict[int, dict[str, Any]]:
    with closing(sqlite3.connect(path)) as db:
        db.text_factory = bytes
        names = [*COLUMNS, "record"]
        return {row[0]: dict(zip(names, row)) for row in db.execute(
            f"SELECT {', '.join(names)} FROM games ORDER BY id")}


def flipped(value: Any, rng: random.Random) -> Any:
    """`value` with one of its bits flipped: an integer's (of 64), a float's, a text's."""
    if isinstance(value, int):
        bit = rng.randrange(64)
        number = (value & (2**64 - 1)) ^ (1 << bit)
        return number - 2**64 if number >= 2**63 else number
    if isinstance(value, float):
        (bits,) = struct.unpack("<Q", struct.pack("<d", value))
        return struct.unpack("<d", struct.pack("<Q", bits ^ (1 << rng.randrange(64))))[0]
    data = bytearray(value)
    data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
    return bytes(data)


def flip_once(original: Path, target: Path, rng: random.Random,
              before: dict[int, dict[str, Any]]) -> tuple[int, str]:
    """Copy the store and flip one bit of one row: the row's id after the flip, the column."""
    while True:
        shutil.copy(original, target)
        row_id = rng.choice(sorted(before))
        column = "record" if rng.random() < 2 / 3 else rng.choice(COLUMNS)
        value = before[row_id][column]
        if value is None:
            continue
        new = flipped(value, rng)
        text = "CAST(? AS TEXT)" if isinstance(new, bytes) else "?"
        with closing(sqlite3.connect(target)) as db:
            try:
                db.execute(f"UPDATE games SET {column} = {text} WHERE id = ?", (new, row_id))
                db.commit()
            except sqlite3.IntegrityError:  # an id flipped onto another row's: SQLite refuses
                continue
        return (new if column == "id" else row_id), column


def decoded(record: bytes) -> GameRecord:
    return GameRecord.from_dict(json.loads(record))


def test_300_single_bit_flips_are_found_or_change_nothing_of_the_game(
        store: Path, tmp_path: Path) -> None:
    rng = random.Random(SEED)
    before = rows(store)
    games = {(row["config_key"], row["game_index"]): row for row in before.values()}
    counts: Counter[str] = Counter()
    passed: list[str] = []  # flips that passed as intact and changed the game: none
    for flip in range(FLIPS):
        target, out = tmp_path / f"flip{flip}.db", tmp_path / f"recovered{flip}.db"
        row_id, column = flip_once(store, target, rng, before)
        found = check_store(target)
        recovered = recover_store(target, out)
        copied = rows(out)
        if not found.intact:
            counts["found"] += 1
            assert row_id not in copied, (flip, column, found.problems)
            for row in copied.values():  # the other games, as they were stored
                original = games[row["config_key"], row["game_index"]]
                assert row["record"] == original["record"], (flip, column)
            assert recovered.copied == len(before) - 1, (flip, column, recovered.skipped)
            continue
        after = rows(target)
        same = all(decoded(after[i]["record"]) == decoded(row["record"])
                   for i, row in before.items() if i in after)
        if not same or recovered.copied != len(before):
            passed.append(f"flip {flip}: {column} of row {row_id}")
            continue
        counts["harmless: a row's own value" if column != "record" else
               "harmless: the same game (a measured time changed)"
               if after[row_id]["record"] != before[row_id]["record"] else "harmless"] += 1
    print(f"{FLIPS} flips: {dict(counts)}; passed as intact with the game changed: "
          f"{len(passed)}")
    assert not passed, f"{len(passed)} of {FLIPS} flips passed as intact: {passed[:10]}"
    assert counts["found"] > FLIPS // 2


def edit(path: Path, statement: str) -> None:
    with closing(sqlite3.connect(path)) as db:
        db.execute(statement)
        db.commit()


#: the campaign's damaged records, each as one SQL edit of game row 1
CAMPAIGN = {
    "an action that is no direction": (
        "UPDATE games SET record = replace(record, '\"East\"', '\"Ea{t\"') WHERE id = 1",
        "is no direction"),
    "a layout that disagrees with its row": (
        "UPDATE games SET record = json_set(record, '$.layout', 'smallClassic') WHERE id = 1",
        "layout 'smallClassic', the row's 'testClassic'"),
    "a ghost that disagrees with its row": (
        "UPDATE games SET record = json_set(record, '$.agents[1]', 'RandomGhost') WHERE id = 1",
        "agent 1 is 'RandomGhost', but the row's ghost DirectionalGhost"),
    "a misspelt key": (
        "UPDATE games SET record = replace(record, '\"fault\":', '\"faulu\":') WHERE id = 1",
        "unknown key 'faulu'"),
    "a score that disagrees with its row": (
        "UPDATE games SET record = json_set(record, '$.score', json_extract(record, "
        "'$.score') + 1) WHERE id = 1", "score"),
    "Pacman's moves that disagree with its actions": (
        "UPDATE games SET record = json_set(record, '$.pacman_moves', 1000), "
        "pacman_moves = 1000 WHERE id = 1", "1000 Pacman moves in"),
    "bytes that are not UTF-8": (
        "UPDATE games SET record = CAST(X'7B2278FF227D' AS TEXT) WHERE id = 1",
        "not JSON"),
}


@pytest.mark.parametrize("damage", list(CAMPAIGN), ids=list(CAMPAIGN))
def test_the_campaigns_damaged_records_are_found_and_not_recovered(
        damage: str, store: Path, tmp_path: Path) -> None:
    statement, problem = CAMPAIGN[damage]
    path = tmp_path / "damaged.db"
    shutil.copy(store, path)
    edit(path, statement)
    found = check_store(path)
    assert not found.intact and found.problem_count == 1, found.problems
    assert found.problems[0].startswith("game row 1 (record") and problem in \
        found.problems[0], found.problems
    recovered = recover_store(path, tmp_path / "new.db")
    assert recovered.copied == 3 and 1 not in rows(tmp_path / "new.db")


def test_real_games_are_intact(store: Path) -> None:
    found = check_store(store)
    assert found.intact and found.valid == 4, found.problems
