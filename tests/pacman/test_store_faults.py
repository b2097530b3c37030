"""The results store when things go wrong: foreign and damaged files, read-only folders, a full
disk, and two batches on one file at the same time."""

from __future__ import annotations

import os
import socket
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

import pytest

from conftest import optional
from pacman.cli import main
from pacman.errors import StoreError
from pacman.experiments import resolve_config, run_batch
from pacman.experiments.config import GameConfig, GameTask
from pacman.experiments.store import (
    _GAMES_SCHEMA,
    _META_SCHEMA,
    APPLICATION_ID,
    SCHEMA_VERSION,
    ResultStore,
    open_results,
)
from pacman.record import GameRecord, Outcome
from pacman.specs import AgentSpec

ROOT = Path(__file__).resolve().parents[2]
CONFIG = GameConfig(AgentSpec.of("AlphaBetaAgent", {"depth": 2, "evaluation": "better"}),
                    AgentSpec("RandomGhost"), 2, "smallClassic")
SIBLINGS = ("-wal", "-shm", "-journal")


def a_record(seed: int, moves: int = 7) -> GameRecord:
    return GameRecord(layout="smallClassic", seed=seed,
                      agents=("AlphaBetaAgent depth=2 better", "RandomGhost", "RandomGhost"),
                      outcome=Outcome.WIN, score=1234, pacman_moves=3,
                      actions=("West",) * moves, pacman_nodes=(10, 20, 30),
                      think_time=(0.3, 0.01, 0.01), pacman_move_times=(0.1, 0.1, 0.1))


def a_store(path: Path, games: int = 3, moves: int = 7) -> Path:
    with ResultStore(path) as store:
        for index in range(games):
            store.add(GameTask.of(CONFIG, 0, index), a_record(index, moves))
    return path


def cli(*args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(code: int, err: str) -> str:
    assert code == 2, err
    assert err.count("\n") == 1 and err.startswith("pacman: error: "), err
    return err


def snapshot(path: Path) -> tuple[bytes, int, list[str]]:
    """What must not change: the bytes, the modification time, the files beside it."""
    return (path.read_bytes(), path.stat().st_mtime_ns,
            sorted(p.name for p in path.parent.iterdir()))


def environment(*extra: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join(map(str, [ROOT, *extra]))}


# --- our own files, and nobody else's ----------------------------------------------------


def test_a_new_store_is_marked_as_ours(tmp_path: Path) -> None:
    path = a_store(tmp_path / "r.db")
    header = path.read_bytes()[:100]
    assert int.from_bytes(header[68:72], "big") == APPLICATION_ID
    assert int.from_bytes(header[60:64], "big") == SCHEMA_VERSION
    assert not any(Path(f"{path}{suffix}").exists() for suffix in SIBLINGS)  # closed cleanly


def foreign_files(folder: Path) -> dict[str, Path]:
    """SQLite files of other programs (and one that is not SQLite at all)."""
    files = {}
    plain = files["plain"] = folder / "plain.db"
    with sqlite3.connect(plain) as db:
        db.execute("CREATE TABLE things (x)")
        db.execute("INSERT INTO things VALUES (1)")
    marked = files["marked"] = folder / "marked.db"
    with sqlite3.connect(marked) as db:
        db.execute("PRAGMA application_id = 1234")
        db.execute("CREATE TABLE things (x)")
    lookalike = files["lookalike"] = folder / "lookalike.db"  # tables of our names, no meta row
    with sqlite3.connect(lookalike) as db:
        db.execute(_META_SCHEMA)
        db.execute(_GAMES_SCHEMA)
    wal = files["wal"] = folder / "wal.db"
    db = sqlite3.connect(wal)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("CREATE TABLE things (x)")
    db.commit()
    db.close()
    text = files["text"] = folder / "notes.db"
    text.write_text("not a database, just words " * 100)
    for path in files.values():
        os.utime(path, ns=(1_000_000_000, 1_000_000_000))  # an mtime that a write would change
    return files


@pytest.mark.parametrize("kind", ["plain", "marked", "lookalike", "wal", "text"])
def test_a_foreign_file_is_refused_with_one_line_and_never_changed(
        kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = foreign_files(tmp_path)[kind]
    before = snapshot(path)
    for opener in (ResultStore, open_results):
        with pytest.raises(StoreError, match="not a results file"):
            opener(path)
    for command in (["batch", "-p", "random", "-l", "testClassic", "-n", "1", "-o", str(path)],
                    ["batch", "-p", "random", "-l", "testClassic", "--dry-run", "-o", str(path)],
                    ["table", str(path)], ["plot", str(path), "-o", str(tmp_path / "plots")]):
        err = one_line_error(*cli(*command, capsys=capsys)[::2])
        assert f"{path}: not a results file" in err
    assert snapshot(path) == before


def test_a_store_from_before_the_marker_is_read_and_then_stamped(tmp_path: Path) -> None:
    path = a_store(tmp_path / "old.db", games=2)
    with closing(sqlite3.connect(path, isolation_level=None)) as db:
        db.execute("DROP TABLE claims")  # the first format: tables meta and games, no marker
        db.execute("PRAGMA application_id = 0")
        db.execute("PRAGMA user_version = 0")
    before = snapshot(path)
    with open_results(path) as store:
        assert len(store.games()) == 2
    assert snapshot(path) == before  # reading does not stamp it
    with ResultStore(path) as store:
        assert store.add(GameTask.of(CONFIG, 0, 2), a_record(2))
        assert len(store) == 3
    assert int.from_bytes(path.read_bytes()[68:72], "big") == APPLICATION_ID


def test_a_store_of_a_newer_format_is_refused(tmp_path: Path) -> None:
    path = a_store(tmp_path / "new.db")
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    for opener in (ResultStore, open_results):
        with pytest.raises(StoreError, match="written by a newer pacman"):
            opener(path)


# --- damaged files ------------------------------------------------------------------------


def test_a_corrupt_page_is_one_clear_line(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    path = a_store(tmp_path / "r.db", games=40, moves=400)
    data = bytearray(path.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    assert len(data) > 4 * page  # the games are on pages after the first
    data[2 * page:] = bytes([0xA5]) * (len(data) - 2 * page)  # every page after the schema
    path.write_bytes(bytes(data))
    with pytest.raises(StoreError, match="damaged results file"), open_results(path) as store:
        store.games()
    with pytest.raises(StoreError, match="damaged results file"), ResultStore(path) as store:
        store.done(0)
    err = one_line_error(*cli("table", str(path), capsys=capsys)[::2])
    assert "damaged results file" in err
    err = one_line_error(*cli("batch", "-p", "random", "-l", "testClassic", "-n", "1", "-o",
                              str(path), capsys=capsys)[::2])
    assert "damaged results file" in err


def test_a_missing_column_is_one_clear_line(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    path = a_store(tmp_path / "r.db")
    with sqlite3.connect(path) as db:
        db.execute("ALTER TABLE games DROP COLUMN score")
    for opener in (ResultStore, open_results):
        with pytest.raises(StoreError, match="the games table has no column score"):
            opener(path)
    err = one_line_error(*cli("table", str(path), capsys=capsys)[::2])
    assert "damaged results file: the games table has no column score" in err


def test_a_missing_games_table_is_one_clear_line(tmp_path: Path) -> None:
    path = a_store(tmp_path / "r.db")
    with sqlite3.connect(path) as db:
        db.execute("DROP TABLE games")
    with pytest.raises(StoreError, match="the games table is missing"):
        open_results(path)


@pytest.mark.parametrize("edit, message", [
    ("score = 'lots'", "score is 'lots', not a whole number"),
    ("outcome = 'banana'", "'banana' is not a valid Outcome"),
    ("move_seconds = 'slow'", "move_seconds is 'slow', not a number"),
    ("complete = 2.5", "complete is 2.5, not a whole number"),
    ("config_key = '{not json'", "Expecting property name"),
    ("config_key = '[1, 2]'", "config_key is not a JSON object"),
    ("config_key = '{\"pacman\": 3}'", "pacman is 3, not text"),
    ("config_key = replace(config_key, '\"num_ghosts\":2', '\"num_ghosts\":\"two\"')",
     "num_ghosts is 'two'"),
    ("config_key = replace(config_key, '\"depth\":2', '\"depth\":{\"a\":1}')",
     "pacman_settings is"),
    ("fault = x'00ff'", "fault is b'\\x00\\xff', not text"),
])
def test_a_hand_edited_row_of_the_wrong_type_is_one_clear_line(
        edit: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = a_store(tmp_path / "r.db")
    with sqlite3.connect(path) as db:
        db.execute(f"UPDATE games SET {edit} WHERE game_index = 1")
    with pytest.raises(StoreError, match="game row 2") as caught, open_results(path) as store:
        store.games()
    assert message in str(caught.value)
    err = one_line_error(*cli("table", str(path), capsys=capsys)[::2])
    assert "damaged results file: game row 2" in err and message in err


def test_a_damaged_record_is_a_store_error(tmp_path: Path) -> None:
    path = a_store(tmp_path / "r.db")
    with sqlite3.connect(path) as db:  # (a record that is not JSON is refused on opening:
        # tests/pacman/test_reliability2_store.py; these agree with their rows)
        db.execute("UPDATE games SET record = json_remove(record, '$.actions') "
                   "WHERE game_index = 0")
        db.execute("UPDATE games SET record = json_set(record, '$.layout', json('[1]'), "
                   "'$.agents', 5) WHERE game_index = 1")
    with open_results(path) as store:
        games = store.games()  # the tables do not need the records
    for game in games[:2]:
        with pytest.raises(StoreError, match="damaged record"):
            game.record()
    assert games[2].record() == a_record(2)


# --- reading a store nobody may write -----------------------------------------------------


@contextmanager
def read_only(folder: Path) -> Iterator[Path]:
    """The folder seen through a read-only bind mount (as root, who ignores permissions), or
    with its write permission taken away."""
    if os.geteuid() != 0:
        folder.chmod(0o555)
        try:
            yield folder
        finally:
            folder.chmod(0o755)
        return
    view = folder.parent / f"{folder.name}-read-only"
    view.mkdir()
    if subprocess.run(["mount", "--bind", str(folder), str(view)],
                      capture_output=True).returncode != 0:
        pytest.skip("cannot bind-mount a folder here")
    try:
        subprocess.run(["mount", "-o", "remount,ro,bind", str(view)], check=True,
                       capture_output=True)
        yield view
    finally:
        subprocess.run(["umount", str(view)], check=True)


def killed_writer(path: Path) -> None:
    """Leave games in the -wal file, as a batch killed with `kill -9` does."""
    code = textwrap.dedent(f"""
        import os, sys
        sys.path.insert(0, {str(Path(__file__).parent)!r})
        from test_store_faults import CONFIG, a_record
        from pacman.experiments.config import GameTask
        from pacman.experiments.store import ResultStore
        store = ResultStore({str(path)!r})
        for index in range(3, 5):
            store.add(GameTask.of(CONFIG, 0, index), a_record(index))
        os._exit(0)
        """)
    subprocess.run([sys.executable, "-c", code], check=True, env=environment())


@pytest.mark.parametrize("with_wal", [False, True])
def test_a_store_in_a_read_only_folder_can_be_read_but_not_written(
        with_wal: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    optional("matplotlib", "plots")
    folder = tmp_path / "results"
    folder.mkdir()
    a_store(folder / "r.db")
    if with_wal:
        killed_writer(folder / "r.db")
        assert Path(f"{folder / 'r.db'}-wal").exists()
    games = 5 if with_wal else 3
    with read_only(folder) as view:
        path = view / "r.db"
        with open_results(path) as store:
            assert len(store.games()) == games
        code, out, err = cli("table", str(path), "--format", "csv", capsys=capsys)
        assert code == 0, err
        assert out.splitlines()[1].split(",")[6] == str(games)  # the games column
        code, out, err = cli("plot", str(path), "-o", str(tmp_path / "plots"), capsys=capsys)
        assert code == 0, err
        assert (tmp_path / "plots" / "win_rate.png").is_file()
        err = one_line_error(*cli("plot", str(path), capsys=capsys)[::2])  # plots/ beside it
        assert "cannot write the plots" in err
        with pytest.raises(StoreError, match="cannot write here"):
            ResultStore(path)
        err = one_line_error(*cli("batch", "-p", "random", "-l", "testClassic", "-n", "1",
                                  "-o", str(path), capsys=capsys)[::2])
        assert "cannot write here" in err
        code, out, _ = cli("batch", "-p", "random", "-l", "testClassic", "-n", "1",
                           "--dry-run", "-o", str(path), capsys=capsys)
        assert code == 0 and "0/1 stored" in out
        with pytest.raises(StoreError, match="cannot create a results file here"):
            ResultStore(view / "new.db")


def test_reading_leaves_no_files_behind(tmp_path: Path) -> None:
    path = a_store(tmp_path / "r.db")
    before = snapshot(path)
    with open_results(path) as store:
        store.games()
        with pytest.raises(StoreError, match="opened for reading"):
            store.add(GameTask.of(CONFIG, 0, 9), a_record(9))
    assert snapshot(path) == before


# --- a full disk --------------------------------------------------------------------------


SLOW_AGENTS = '''
import os
import time

from pacman.agents.simple import RandomAgent


class Slow(RandomAgent):
    """A random Pacman that takes its time, and notes each game it plays in PLAYS_LOG."""

    def get_action(self, state):
        if not getattr(self, "noted", False):
            self.noted = True
            log = os.environ.get("PLAYS_LOG")
            if log:
                with open(log, "a") as file:
                    file.write(f"{os.getpid()}\\n")
        time.sleep(float(os.environ.get("MOVE_SECONDS", "0.01")))
        return super().get_action(state)
'''


def test_a_full_disk_stops_the_batch_in_process_and_keeps_the_games(tmp_path: Path) -> None:
    # PRAGMA max_page_count makes SQLite answer "database or disk is full" (SQLITE_FULL), as a
    # full file system does (the tmpfs test below does the real thing, as root)
    config = GameConfig(AgentSpec("random"), layout="testClassic", max_moves=50)
    path = tmp_path / "r.db"
    with ResultStore(path) as store:
        pages = store._db.execute("PRAGMA page_count").fetchone()[0]
        store._db.execute(f"PRAGMA max_page_count = {pages + 6}")
        with pytest.raises(StoreError, match="the disk is full") as caught:
            run_batch([config], games=200, store=store, jobs=1)
        stored = len(store)
    message = str(caught.value)
    assert "\n" not in message
    assert 0 < stored < 200
    assert f"the batch stopped with {stored} of 200 games stored" in message
    assert message.endswith("free some space, then run the same command again")
    result = run_batch([config], games=200, store=path, jobs=1)  # room again: it resumes
    assert (result.already, result.stored) == (stored, 200 - stored)


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 1 MiB tmpfs file system, so a batch can fill it (root only)."""
    disk = tmp_path / "disk"
    disk.mkdir()
    if os.geteuid() != 0 or subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=1M", "tmpfs", str(disk)],
            capture_output=True).returncode != 0:
        pytest.skip("mounting a small tmpfs needs root")
    try:
        yield disk
    finally:
        subprocess.run(["umount", str(disk)], check=True)


def test_a_full_file_system_stops_the_cli_batch_with_one_line(small_disk: Path) -> None:
    filler = small_disk / "filler"
    filler.write_bytes(b"\0" * 600_000)  # leaves room for a few games
    path = small_disk / "r.db"
    command = [sys.executable, "-m", "pacman", "batch", "-p", "random", "-l", "smallClassic",
               "-j", "2", "-o", str(path)]
    full = subprocess.run([*command, "-n", "1000"], capture_output=True, text=True,
                          timeout=120, env=environment())
    assert full.returncode == 2, full.stderr
    assert full.stderr.count("\n") == 1, full.stderr
    assert full.stderr.startswith(f"pacman: error: {path}: the disk is full (could not")
    with open_results(path) as store:
        kept = store.games()
    assert 0 < len(kept) < 1000
    assert f"the batch stopped with {len(kept)} of 1000 games stored" in full.stderr
    filler.unlink()  # room again: the same command resumes (here with fewer games)
    resumed = subprocess.run([*command, "-n", str(len(kept) + 3)], capture_output=True,
                             text=True, timeout=120, env=environment())
    assert resumed.returncode == 0, resumed.stderr
    assert f"3 games played, {len(kept)} already stored" in resumed.stdout
    with open_results(path) as store:
        games = store.games()
    assert [(g.index, g.record_json) for g in games[:len(kept)]] == [
        (g.index, g.record_json) for g in kept]
    assert sorted(g.index for g in games) == list(range(len(kept) + 3))


# --- two batches on one file --------------------------------------------------------------


def test_two_batches_at_once_share_the_work(tmp_path: Path) -> None:
    (tmp_path / "slow_agents.py").write_text(SLOW_AGENTS)
    plays = tmp_path / "plays.log"
    path = tmp_path / "shared.db"
    # the agent is this test's own instrument: it plays in the referee's process, where it
    # may write the log (a sandboxed host writes only into its own world)
    command = [sys.executable, "-m", "pacman", "batch", "-p", "slow_agents:Slow", "-l",
               "smallClassic", "-n", "16", "-j", "1", "--max-moves", "20", "-o", str(path),
               "--isolation", "none"]
    env = {**environment(tmp_path), "PLAYS_LOG": str(plays), "MOVE_SECONDS": "0.02"}
    batches = [subprocess.Popen(command, env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outputs = [batch.communicate(timeout=120) for batch in batches]
    for batch, (out, err) in zip(batches, outputs):
        assert batch.returncode == 0, err
        assert "16 of 16 in" in out
    played = [int(out.split(" games played")[0]) for out, _ in outputs]
    assert sum(played) == 16
    assert len(plays.read_text().splitlines()) == 16  # each game was played once
    assert all(n > 0 for n in played), outputs  # both took part (they start together)
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT COUNT(*), COUNT(DISTINCT game_index) FROM games"
                          ).fetchone() == (16, 16)
        assert db.execute("SELECT COUNT(*) FROM claims").fetchone() == (0,)


def a_config() -> GameConfig:
    return resolve_config(GameConfig(AgentSpec("random"), layout="testClassic",
                                     max_moves=50)).config


@contextmanager
def another_batch(seconds: float) -> Iterator[str]:
    """The claim owner name of a live process of this machine that ends after `seconds`."""
    process = subprocess.Popen(["sleep", str(seconds)])
    reaper = threading.Thread(target=process.wait)
    reaper.start()
    try:
        yield f"{socket.gethostname()}:{process.pid}:other"
    finally:
        process.kill()
        reaper.join()


def test_a_batch_plays_the_games_of_a_batch_that_died_with_its_claims(tmp_path: Path) -> None:
    config, path = a_config(), tmp_path / "r.db"
    with another_batch(2.0) as owner, ResultStore(path) as store:
        claims = store.claim([GameTask.of(config, 0, i) for i in (0, 1)], owner)
        assert len(claims.claimed) == 2
        busy = store.claim([GameTask.of(config, 0, 0)], "me:1:x")
        assert len(busy.busy) == 1 and busy.owners == {owner}
        started = time.monotonic()
        result = run_batch([config], games=4, store=path, jobs=1)
    assert time.monotonic() - started >= 1.0  # it waited for the other batch to go
    assert (result.stored, result.others, result.missing) == (4, 0, 0)


def test_a_batch_counts_the_games_another_batch_stored_meanwhile(tmp_path: Path) -> None:
    config, path = a_config(), tmp_path / "r.db"
    with another_batch(60.0) as owner:
        with ResultStore(path) as store:
            store.claim([GameTask.of(config, 0, i) for i in (0, 1)], owner)

        def the_other_batch_finishes() -> None:
            time.sleep(1.0)
            with ResultStore(path) as other:
                for index in (0, 1):  # the same code version: the same games
                    task = GameTask.of(config, 0, index, resolve_config(config).code)
                    other.add(task, a_record(task.seed))

        finisher = threading.Thread(target=the_other_batch_finishes)
        finisher.start()
        started = time.monotonic()
        result = run_batch([config], games=4, store=path, jobs=1)
        finisher.join()
    assert time.monotonic() - started < 30  # it did not wait for the claims to lapse
    assert (result.stored, result.others, result.missing) == (2, 2, 0)


def test_claims_lapse_and_stay_with_live_batches(tmp_path: Path) -> None:
    config, path = a_config(), tmp_path / "r.db"
    task = GameTask.of(config, 0, 0)
    with ResultStore(path) as store:
        far = "elsewhere.example:1:x"  # another machine: only its lease counts
        assert store.claim([task], far).claimed == (task,)
        assert store.claim([task], "me:1:y").busy == (task,)
        store.renew(far, seconds=-1)  # its lease ran out
        assert store.claim([task], "me:1:y").claimed == (task,)
        store.release("me:1:y")
        assert store.claim([task], far).claimed == (task,)
        store.add(task, a_record(task.seed))  # storing the game frees its claim
        assert store.claim([task], "me:1:y").stored == (task,)
        assert store._db.execute("SELECT COUNT(*) FROM claims").fetchone() == (0,)
