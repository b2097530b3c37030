"""Reliability round 2 (issue 27), results and experiments: a win rate of 0/n or n/n plots;
a grid too large is refused before it is resolved; experiment files are checked before they
are read; a damaged store (SQLite's integrity check fails, or a row was edited by hand) is
refused with one line and never written, `pacman store check` says what is wrong and
`pacman store recover` copies exactly its intact games into a new file."""

from __future__ import annotations

import json
import os
import re
import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_store_faults import cli, one_line_error

from conftest import optional
from pacman.errors import DamagedStoreError
from pacman.experiments.config import GameConfig, GameTask, StoredGame
from pacman.experiments.store import (
    _GAMES_SCHEMA,
    ResultStore,
    check_store,
    open_results,
    recover_store,
)
from pacman.experiments.table import wilson_interval
from pacman.files import LIMITS
from pacman.record import GameRecord, Outcome
from pacman.specs import AgentSpec

CONFIG = GameConfig(AgentSpec.of("AlphaBetaAgent", {"depth": 2, "evaluation": "better"}),
                    AgentSpec("RandomGhost"), 2, "smallClassic")
OTHER = GameConfig(AgentSpec.of("AlphaBetaAgent", {"depth": 3, "evaluation": "better"}),
                   AgentSpec("RandomGhost"), 2, "smallClassic")


def a_record(seed: int, outcome: Outcome = Outcome.WIN, moves: int = 7) -> GameRecord:
    """A record `store check` finds whole: Pacman has a third of the `moves` (of 3 agents),
    each with its node count and time."""
    pacman = -(-moves // 3)
    return GameRecord(layout="smallClassic", seed=seed,
                      agents=("AlphaBetaAgent depth=2 better", "RandomGhost", "RandomGhost"),
                      outcome=outcome, score=1234 if outcome is Outcome.WIN else -400,
                      pacman_moves=pacman, actions=("West",) * moves,
                      pacman_nodes=(10, 20, 30, *[40] * (pacman - 3)),
                      think_time=(0.3, 0.01, 0.01),
                      pacman_move_times=(0.1, 0.1, 0.1, *[0.2] * (pacman - 3)))


def a_store(path: Path, games: int = 3, moves: int = 7, config: GameConfig = CONFIG,
            outcome: Outcome = Outcome.WIN) -> Path:
    with ResultStore(path) as store:
        for index in range(games):
            task = GameTask.of(config, 0, index)
            store.add(task, a_record(task.seed, outcome, moves))
    return path


def stored(path: Path) -> list[StoredGame]:
    with open_results(path) as store:
        return store.games()


def snapshot(path: Path) -> tuple[bytes, list[str]]:
    """What a refused command must leave as it was: the bytes and the files beside it."""
    return path.read_bytes(), sorted(p.name for p in path.parent.iterdir())


# --- item 1: the Wilson interval at 0/n and n/n -------------------------------------------


@given(st.integers(1, 1000).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n))))
def test_the_wilson_interval_holds_its_proportion_within_zero_and_one(case: tuple[int, int]
                                                                     ) -> None:
    trials, successes = case
    low, high = wilson_interval(successes, trials)
    assert 0.0 <= low <= successes / trials <= high <= 1.0
    assert (low == 0.0) == (successes == 0)
    assert (high == 1.0) == (successes == trials)


def test_the_wilson_interval_is_exact_at_no_and_all_successes() -> None:
    for trials in range(1, 1001):  # floating point alone gave 2.8e-17 for 98 of n <= 200
        assert wilson_interval(0, trials)[0] == 0.0
        assert wilson_interval(trials, trials)[1] == 1.0
    assert wilson_interval(0, 0) == (0.0, 1.0)


@pytest.mark.parametrize("outcome", [Outcome.LOSS, Outcome.WIN])
def test_a_store_of_no_wins_or_all_wins_plots(outcome: Outcome, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    optional("matplotlib", "plots")
    path = a_store(tmp_path / "s.db", games=5, outcome=outcome)
    code, out, err = cli("plot", str(path), "-o", str(tmp_path / "plots"), capsys=capsys)
    assert (code, err, out.count("wrote ")) == (0, "", 2)
    assert (tmp_path / "plots" / "win_rate.png").stat().st_size > 0


# --- item 10: a grid too large is refused before it is resolved ---------------------------


def test_a_grid_of_millions_of_games_is_refused_before_any_agent_is_built(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # 20 x 20 configurations of names nothing knows: resolving any of them would fail
    grid = {"pacman": [{"agent": "noSuchAgent", "depth": list(range(1, 21))}],
            "layouts": [f"noSuchLayout{i}" for i in range(20)], "games": 1_000_000}
    experiment = tmp_path / "grid.json"
    experiment.write_text(json.dumps(grid))
    for extra in ([], ["--dry-run"]):
        err = one_line_error(*cli("batch", str(experiment), "-o", str(tmp_path / "r.db"),
                                  *extra, capsys=capsys)[::2])
        assert err == ("pacman: error: 400 configurations x 1000000 games = 400,000,000 "
                       "games, more than one batch plays (1,000,000): split it\n")
    assert list(tmp_path.iterdir()) == [experiment]


def test_a_dry_run_counts_from_the_store_not_game_by_game(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "r.db"
    code, out, err = cli("batch", "-p", "random", "-p", "random", "-l", "testClassic", "-n",
                         "3", "--max-moves", "5", "-o", str(path), capsys=capsys)
    assert code == 0, err
    with closing(sqlite3.connect(path)) as db:  # a game of an older code version
        db.execute("UPDATE games SET code = 'older' WHERE game_index = 2")
        db.commit()
    code, out, err = cli("batch", "-p", "random", "-p", "random", "-l", "testClassic", "-n",
                         "1000000", "--max-moves", "5", "--dry-run", "-o", str(path),
                         capsys=capsys)
    assert code == 0, err
    lines = out.splitlines()
    assert len(lines) == 2  # `-p random` twice is one configuration
    assert re.search(r": 2/1000000 stored .*; 1 more by another code version", lines[0])
    assert lines[1] == (f"1 configurations x 1000000 games = 1000000 games; 2 stored in "
                        f"{path}, 999998 to play")


# --- items 8 and 16: experiment files -----------------------------------------------------


def test_an_experiment_file_is_a_regular_file_of_a_bounded_size(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    zero = tmp_path / "zero.json"
    zero.symlink_to("/dev/zero")
    err = one_line_error(*cli("batch", str(zero), capsys=capsys)[::2])
    assert err == f"pacman: error: experiment file {zero}: not a regular file\n"
    big = tmp_path / "big.toml"
    with open(big, "wb") as file:  # sparse: no disk used
        file.truncate(LIMITS["experiment"] + 1)
    err = one_line_error(*cli("batch", str(big), capsys=capsys)[::2])
    assert "too large" in err and str(big) in err
    folder = tmp_path / "folder.json"
    folder.mkdir()
    err = one_line_error(*cli("batch", str(folder), capsys=capsys)[::2])
    assert err == f"pacman: error: experiment file {folder}: a folder\n"


@pytest.mark.parametrize("key", ["pacman", "ghosts", "layouts", "num_ghosts"])
def test_an_empty_list_in_an_experiment_file_is_one_line(
        key: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    grid: dict[str, object] = {"pacman": ["random"], "games": 1, key: []}
    experiment = tmp_path / "grid.json"
    experiment.write_text(json.dumps(grid))
    err = one_line_error(*cli("batch", str(experiment), "--dry-run", "-o",
                              str(tmp_path / "r.db"), capsys=capsys)[::2])
    assert err == (f"pacman: error: {experiment}: {key} is an empty list: give at least one "
                   f"value, or leave {key} out for the default\n")


# --- item 12: damaged stores --------------------------------------------------------------


def rootpage(path: Path, name: str) -> tuple[int, int]:
    with closing(sqlite3.connect(path)) as db:
        page = db.execute("SELECT rootpage FROM sqlite_master WHERE name = ?",
                          (name,)).fetchone()[0]
        return page, db.execute("PRAGMA page_size").fetchone()[0]


def cut_one_byte(path: Path) -> None:
    path.write_bytes(path.read_bytes()[:-1])


def garbage_in_the_unique_index(path: Path) -> None:
    page, size = rootpage(path, "sqlite_autoindex_games_1")
    data = bytearray(path.read_bytes())
    data[(page - 1) * size:page * size] = bytes([0xA5]) * size
    path.write_bytes(bytes(data))


def a_broken_freelist(path: Path) -> None:
    data = bytearray(path.read_bytes())
    assert int.from_bytes(data[36:40], "big") > 0  # free pages
    data[32:36] = (99_999).to_bytes(4, "big")  # the first freelist trunk page
    path.write_bytes(bytes(data))


def a_store_with_free_pages(path: Path) -> list[StoredGame]:
    """40 games, of which the last 20 were deleted again (their pages are free): the 20
    games left."""
    a_store(path, games=40, moves=400)
    with closing(sqlite3.connect(path)) as db:
        db.execute("DELETE FROM games WHERE game_index >= 20")
        db.commit()
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return stored(path)


@pytest.mark.parametrize("damage, verdict, lost", [
    # the last page is the end of the last game's record: SQLite reads the missing byte as
    # 0 and its integrity check (which reads no record) passes; the size tells, and the
    # record is no longer JSON
    (cut_one_byte, "damaged results file: its size, 204,799 bytes, is not a whole number of "
                   "4096-byte pages (cut short)", 1),
    (garbage_in_the_unique_index, "damaged results file: integrity check: database disk image "
                                  "is malformed", 0),
    (a_broken_freelist, "damaged results file: integrity check: Main freelist: invalid page "
                        "number 99999", 0),
], ids=["cut by one byte", "index page garbage", "freelist"])
def test_a_store_that_fails_the_integrity_check_is_refused_and_never_written(
        damage: Callable[[Path], None], verdict: str, lost: int, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "r.db"
    if damage is a_broken_freelist:
        games = a_store_with_free_pages(path)
    else:  # (360 moves: the last game's record ends on the file's last page)
        games = stored(a_store(path, games=40, moves=360))
    damage(path)
    before = snapshot(path)
    with pytest.raises(DamagedStoreError, match=re.escape(verdict)):
        open_results(path)
    with pytest.raises(DamagedStoreError, match=re.escape(verdict)):
        ResultStore(path)
    for command in (["table", str(path)], ["export", str(path), "-o", str(path) + ".csv"],
                    ["batch", "-p", "random", "-l", "testClassic", "-n", "1", "-o", str(path)],
                    ["batch", "-p", "random", "-l", "testClassic", "-n", "1", "-o", str(path),
                     "--dry-run"]):
        err = one_line_error(*cli(*command, capsys=capsys)[::2])
        assert err.startswith(f"pacman: error: {path}: {verdict}"), err
        assert f"pacman store recover {path} -o NEW.db" in err
    assert snapshot(path) == before  # nothing written, no file left beside it

    code, out, _ = cli("store", "check", str(path), capsys=capsys)
    assert code == 1
    assert out.startswith(f"{path}: damaged (") and verdict.split(": ", 1)[1] in out, out
    intact = games[:len(games) - lost]
    assert f"games: {len(games)} rows read, {len(intact)} intact and valid" in out
    if lost:
        assert f"  game row {len(games)} (record is not JSON)" in out
    code, out, _ = cli("store", "recover", str(path), "-o", str(tmp_path / "new.db"),
                       capsys=capsys)
    assert code == 0 and out.startswith(f"{len(intact)} games copied from {path} into "
                                        f"{tmp_path / 'new.db'}; {lost} left out")
    assert stored(tmp_path / "new.db") == intact
    assert check_store(tmp_path / "new.db").intact
    assert snapshot(path) == (before[0], sorted([*before[1], "new.db"]))


def test_the_broken_index_of_the_issue_no_longer_stores_a_game_twice(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "r.db"
    code, _, err = cli("batch", "-p", "random", "-p", "greedy", "-l", "testClassic", "-n", "5",
                       "--max-moves", "20", "-o", str(path), capsys=capsys)
    assert code == 0, err
    garbage_in_the_unique_index(path)
    before = snapshot(path)
    err = one_line_error(*cli("batch", "-p", "random", "-p", "greedy", "-l", "testClassic",
                              "-n", "6", "--max-moves", "20", "-o", str(path),
                              capsys=capsys)[::2])
    assert "damaged results file: integrity check" in err
    assert snapshot(path) == before


def edit(path: Path, *statements: str) -> None:
    with closing(sqlite3.connect(path, isolation_level=None)) as db:
        for statement in statements:
            db.execute(statement)


OTHER_KEY = OTHER.key().replace("'", "''")
OTHER_SETTINGS = json.dumps(OTHER.pacman.settings_dict(), sort_keys=True,
                            separators=(",", ":"))


@pytest.mark.parametrize("change, problem", [
    ("record = '{\"outcome\": \"win\", \"seed\": '", "record is not JSON"),
    ("record = '[1, 2]'", "record is JSON but not an object (array)"),
    ("outcome = 'loss'", "record says outcome 'win', the row 'loss'"),
    ("pacman_settings = '{depth: 2'", "pacman_settings is '{depth: 2', not a JSON object"),
    ("ghost_settings = 'null'", "ghost_settings is 'null', not a JSON object"),
    ("game_index = -1", "game_index is -1, not a game's index (0 or more)"),
    ("layout = 'mediumClassic'", "layout is 'mediumClassic', but its config_key says "
                                 "'smallClassic'"),
    (f"config_key = '{OTHER_KEY}'", "pacman_settings "),  # ... differ from its config_key's
    (f"config_key = '{OTHER_KEY}', pacman_settings = '{OTHER_SETTINGS}'",
     "is not the seed of game 1 of its config_key with batch seed 0"),
    ("game_index = 7", "is not the seed of game 7 of its config_key"),
    ("base_seed = 5", "is not the seed of game 1 of its config_key with batch seed 5"),
], ids=["record not JSON", "record not an object", "outcome", "settings not JSON",
        "ghost settings", "index -1", "layout", "another key", "another key and settings",
        "another index", "another batch seed"])
def test_a_hand_edited_row_is_refused_and_never_written(
        change: str, problem: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = a_store(tmp_path / "r.db")
    games = stored(path)
    edit(path, f"UPDATE games SET {change} WHERE game_index = 1")
    before = snapshot(path)
    with pytest.raises(DamagedStoreError, match="game row 2") as caught:
        open_results(path)
    assert problem in str(caught.value)
    for command in (["table", str(path)],
                    ["batch", "-p", "random", "-l", "testClassic", "-n", "1", "-o", str(path)]):
        err = one_line_error(*cli(*command, capsys=capsys)[::2])
        assert err.startswith(f"pacman: error: {path}: damaged results file: game row 2 ("), err
        assert problem in err
    assert snapshot(path) == before
    code, out, _ = cli("store", "check", str(path), capsys=capsys)
    assert code == 1 and "  game row 2 (" in out and problem in out
    assert "games: 3 rows read, 2 intact and valid" in out
    recovery = recover_store(path, tmp_path / "new.db")
    assert (recovery.copied, recovery.skipped_count) == (2, 1)
    assert recovery.skipped[0].startswith("game row 2 (") and problem in recovery.skipped[0]
    assert stored(tmp_path / "new.db") == [games[0], games[2]]
    assert snapshot(path)[0] == before[0]


def test_a_game_stored_twice_under_a_dropped_unique_index_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = a_store(tmp_path / "r.db", games=4)
    games = stored(path)
    unique = ("DEFAULT '',  -- code version ('': stored before code versions)\n"
              "    UNIQUE (config_key, base_seed, game_index, code)")
    assert unique in _GAMES_SCHEMA
    columns = ("id, config_key, base_seed, game_index, seed, pacman, pacman_settings, ghost, "
               "ghost_settings, num_ghosts, layout, max_moves, move_timeout, outcome, complete, "
               "score, pacman_moves, move_seconds, nodes, nodes_moves, fault, version, "
               "finished_at, record, code")
    edit(path, "ALTER TABLE games RENAME TO old_games",
         _GAMES_SCHEMA.replace(unique, "DEFAULT ''"),
         f"INSERT INTO games ({columns}) SELECT {columns} FROM old_games",
         "DROP TABLE old_games", "VACUUM")
    before_copies = snapshot(path)
    with pytest.raises(DamagedStoreError, match="the games table has lost its unique index"):
        open_results(path)
    edit(path, f"INSERT INTO games ({columns.removeprefix('id, ')}) SELECT "
               f"{columns.removeprefix('id, ')} FROM games WHERE game_index IN (1, 3)")
    assert snapshot(path) != before_copies
    before = snapshot(path)
    err = one_line_error(*cli("batch", "-p", "random", "-l", "testClassic", "-n", "1", "-o",
                              str(path), capsys=capsys)[::2])
    assert "the games table has lost its unique index" in err
    assert snapshot(path) == before
    found = check_store(path)
    assert not found.intact and (found.rows, found.valid) == (6, 4)
    assert found.problems == (
        "the games table has lost its unique index on (config_key, base_seed, game_index, "
        "code)",
        "game row 5 (the same game as game row 2, stored twice)",
        "game row 6 (the same game as game row 4, stored twice)")
    recovery = recover_store(path, tmp_path / "new.db")
    assert (recovery.copied, recovery.skipped_count) == (4, 2)
    assert stored(tmp_path / "new.db") == games


def test_an_intact_store_of_paired_seeds_and_traces_of_infinity_opens_and_checks(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # paired configurations derive their seeds from the key without the agents, and a
    # traced record may hold `Infinity`, which SQLite's JSON does not read but Python's does
    import dataclasses

    paired = dataclasses.replace(CONFIG, paired=True)
    path = tmp_path / "r.db"
    with ResultStore(path) as store:
        for index in range(3):
            task = GameTask.of(paired, 0, index)
            record = dataclasses.replace(a_record(task.seed), pacman_traces=(
                {"value": float("inf")}, None, None))
            store.add(task, record)
    assert "Infinity" in stored(path)[0].record_json
    code, out, _ = cli("store", "check", str(path), capsys=capsys)
    assert (code, out) == (0, f"{path}: intact (integrity check: ok; 3 games, all valid)\n")


def test_recover_refuses_a_target_that_holds_something(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = a_store(tmp_path / "r.db")
    target = a_store(tmp_path / "other.db", games=1)
    before = snapshot(target)
    err = one_line_error(*cli("store", "recover", str(path), "-o", str(target),
                              capsys=capsys)[::2])
    assert err == f"pacman: error: {target}: already exists; recover into a new file\n"
    err = one_line_error(*cli("store", "recover", str(path), "-o", str(path),
                              capsys=capsys)[::2])
    assert snapshot(target) == before
    err = one_line_error(*cli("store", capsys=capsys)[::2])
    assert err == "pacman: error: pacman store needs an action: check or recover\n"
    err = one_line_error(*cli("store", "check", str(tmp_path / "none.db"), capsys=capsys)[::2])
    assert err == f"pacman: error: no results file {tmp_path / 'none.db'}\n"
    assert not os.path.exists(tmp_path / "none.db")


def varint(data: bytes, at: int) -> int:
    value = 0
    for offset in range(9):
        byte = data[at + offset]
        if offset == 8:
            return (value << 8) | byte
        value = (value << 7) | (byte & 0x7F)
        if byte < 0x80:
            return value
    raise AssertionError("unreachable")


def test_recover_reads_around_a_damaged_page_of_the_games_table(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = a_store(tmp_path / "r.db", games=40, moves=400)
    games = stored(path)
    root, size = rootpage(path, "games")
    data = bytearray(path.read_bytes())
    page = data[(root - 1) * size:root * size]
    assert page[0] == 0x05 and int.from_bytes(page[3:5], "big") >= 3  # an interior page
    cells = [int.from_bytes(page[12 + 2 * i:14 + 2 * i], "big") for i in range(3)]
    # the second child holds the rows after the first cell's key, up to the second's
    first_key, second_key = varint(page, cells[0] + 4), varint(page, cells[1] + 4)
    child = int.from_bytes(page[cells[1]:cells[1] + 4], "big")
    data[(child - 1) * size:child * size] = bytes([0xA5]) * size
    path.write_bytes(bytes(data))
    before = snapshot(path)
    err = one_line_error(*cli("table", str(path), capsys=capsys)[::2])
    assert "damaged results file: integrity check" in err
    code, out, _ = cli("store", "check", str(path), capsys=capsys)
    intact = games[:first_key] + games[second_key:]
    assert code == 1 and f"games: {len(intact)} rows read, {len(intact)} intact" in out
    assert ("  the games table is damaged (database disk image is malformed): the rows on "
            "its damaged pages cannot be read\n") in out
    recovery = recover_store(path, tmp_path / "new.db")
    assert recovery.copied == len(intact) and 0 < len(intact) < len(games)
    assert stored(tmp_path / "new.db") == intact
    assert snapshot(path)[0] == before[0]


@pytest.mark.parametrize("command", [("table",), ("store", "check"),
                                     ("batch", "-p", "random", "-l", "testClassic", "-n", "3",
                                      "--max-moves", "10", "-o")])
def test_a_schema_name_that_is_not_utf8_is_a_damaged_store(
        command: tuple[str, ...], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Found by the fuzz suite: a damaged page of the schema made SQLite hand Python a table
    name that is not UTF-8 (a UnicodeDecodeError, not an sqlite3.Error)."""
    path = tmp_path / "s.db"
    a_store(path)
    with closing(sqlite3.connect(path)) as db:
        db.execute("CREATE TABLE extra (x)")
        db.execute("PRAGMA writable_schema=ON")
        db.execute("UPDATE sqlite_master SET name = CAST(X'80' AS TEXT), "
                   "tbl_name = CAST(X'80' AS TEXT) WHERE name = 'extra'")
        db.commit()
    before = snapshot(path)
    code, out, err = cli(*command, str(path), capsys=capsys)
    if command == ("store", "check"):
        assert (code, err) == (1, "") and out.startswith(f"{path}: damaged (1 problem; ")
        return
    assert one_line_error(code, err).rstrip("\n").endswith(
        "s.db: damaged results file (text that is not UTF-8); could not read; pacman store "
        f"recover {path} -o NEW.db copies its intact games into a new file")
    assert snapshot(path) == before
