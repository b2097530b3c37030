"""The results store: stable configuration keys and seeds, one row per game, no duplicates."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from pacman.errors import StoreError
from pacman.experiments.config import GameConfig, GameTask, derive_seed
from pacman.experiments.store import ResultStore, open_results
from pacman.record import GameRecord, Outcome
from pacman.specs import AgentSpec

ROOT = Path(__file__).resolve().parents[2]
CONFIG = GameConfig(AgentSpec.of("AlphaBetaAgent", {"depth": 2, "evaluation": "better"}),
                    AgentSpec("RandomGhost"), 2, "smallClassic")


def a_record(seed: int, outcome: Outcome = Outcome.WIN, score: int = 1234) -> GameRecord:
    return GameRecord(layout="smallClassic", seed=seed,
                      agents=("AlphaBetaAgent depth=2 better", "RandomGhost", "RandomGhost"),
                      outcome=outcome, score=score, pacman_moves=3,
                      actions=("West", "East", "North", "South", "West", "East", "Stop"),
                      pacman_nodes=(10, 20, 30), think_time=(0.3, 0.01, 0.01),
                      pacman_move_times=(0.1, 0.1, 0.1))


def test_the_key_is_canonical_json_and_round_trips() -> None:
    same = GameConfig(AgentSpec.of("AlphaBetaAgent", {"evaluation": "better", "depth": 2}),
                      AgentSpec("RandomGhost"), 2, "smallClassic")
    assert CONFIG.key() == same.key()
    assert CONFIG.key() == (
        '{"ghost":"RandomGhost","ghost_settings":{},"layout":"smallClassic","max_moves":null,'
        '"move_timeout":null,"num_ghosts":2,"pacman":"AlphaBetaAgent","pacman_settings":'
        '{"depth":2,"evaluation":"better"}}')
    assert GameConfig.from_dict(CONFIG.to_dict()) == CONFIG


def test_paired_configurations_share_their_seeds_and_others_keep_theirs() -> None:
    assert CONFIG.seed_key() == CONFIG.key() and '"paired"' not in CONFIG.key()
    a = GameConfig(AgentSpec.of("AlphaBetaAgent", {"depth": 2}), AgentSpec("RandomGhost"), 2,
                   "smallClassic", paired=True)
    b = GameConfig(AgentSpec.of("ExpectimaxAgent", {"depth": 3}),
                   AgentSpec("DirectionalGhost"), 2, "smallClassic", paired=True)
    elsewhere = GameConfig(a.pacman, a.ghost, 2, "mediumClassic", paired=True)
    assert a.key() != b.key() and a.key().endswith(',"paired":true}')
    assert [GameTask.of(a, 7, i).seed for i in range(5)] == [
        GameTask.of(b, 7, i).seed for i in range(5)]
    assert GameTask.of(a, 7, 0).seed != GameTask.of(elsewhere, 7, 0).seed
    unpaired = GameConfig(a.pacman, a.ghost, 2, "smallClassic")
    assert GameTask.of(unpaired, 7, 0).seed != GameTask.of(a, 7, 0).seed
    assert GameConfig.from_dict(a.to_dict()) == a and "(paired seeds)" in a.label()


def test_seeds_are_stable_across_processes_and_hash_salts() -> None:
    seeds = [derive_seed(0, CONFIG.key(), i) for i in range(5)]
    assert len(set(seeds)) == 5 and all(0 <= s < 2**31 for s in seeds)
    assert derive_seed(1, CONFIG.key(), 0) != seeds[0]
    code = ("from pacman.experiments.config import derive_seed; import sys; "
            "print([derive_seed(0, sys.argv[1], i) for i in range(5)])")
    for salt in ("1", "2"):
        out = subprocess.run([sys.executable, "-c", code, CONFIG.key()], check=True,
                             capture_output=True, text=True, cwd=ROOT,
                             env={**os.environ, "PYTHONHASHSEED": salt,
                                  "PYTHONPATH": str(ROOT)}).stdout
        assert out.strip() == str(seeds)


def test_a_game_is_stored_once_with_its_whole_record(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "er" / "results.db"  # parent folders are created
    task = GameTask.of(CONFIG, base_seed=3, index=0)
    record = a_record(task.seed)
    with ResultStore(path) as store:
        assert store.add(task, record)
        assert not store.add(task, a_record(task.seed, Outcome.LOSS, -5))  # already there
        assert store.add(GameTask.of(CONFIG, base_seed=3, index=1), a_record(9))
        assert store.add(GameTask.of(CONFIG, base_seed=4, index=0), a_record(8))
        assert len(store) == 3
        assert store.done(3) == {(CONFIG.key(), 0, ""), (CONFIG.key(), 1, "")}
    with open_results(path) as store:
        game = store.games()[0]
    assert game.config == CONFIG and (game.base_seed, game.index) == (3, 0)
    assert (game.outcome, game.score, game.pacman_moves, game.complete) == (
        Outcome.WIN, 1234, 3, True)
    assert (game.nodes, game.nodes_moves) == (60, 3)
    assert game.move_seconds == pytest.approx(0.3)
    assert game.record() == record
    assert game.record().pacman_move_times == (0.1, 0.1, 0.1)
    import pacman
    assert game.version == pacman.__version__


class _InterruptAfter:
    """A connection that raises Ctrl-C right after its `after`-th statement has run."""

    def __init__(self, db: sqlite3.Connection, after: int) -> None:
        self.db, self.left = db, after

    def execute(self, *args: object) -> sqlite3.Cursor:
        cursor = self.db.execute(*args)  # type: ignore[arg-type]
        self.left -= 1
        if self.left == 0:
            raise KeyboardInterrupt
        return cursor

    def __getattr__(self, name: str) -> object:
        return getattr(self.db, name)


@pytest.mark.parametrize("after", [1, 2, 3, 4])  # BEGIN, INSERT, DELETE, COMMIT
def test_a_ctrl_c_after_any_statement_of_a_store_leaves_the_file_usable(
        tmp_path: Path, after: int) -> None:
    """The batch stores what it has after a Ctrl-C: an interrupted write must not block it."""
    task, other = GameTask.of(CONFIG, 0, 0), GameTask.of(CONFIG, 0, 1)
    with ResultStore(tmp_path / "r.db") as store:
        real = store._db
        store._db = _InterruptAfter(real, after)  # type: ignore[assignment]
        with pytest.raises(KeyboardInterrupt):
            store.add(task, a_record(task.seed))
        store._db = real
        assert store.add(other, a_record(other.seed))
        assert store.add(task, a_record(task.seed)) == (after < 4)  # stored once, by COMMIT
        assert store.done(0) == {(CONFIG.key(), 0, ""), (CONFIG.key(), 1, "")}


def test_a_transaction_a_ctrl_c_left_open_is_abandoned(tmp_path: Path) -> None:
    """A Ctrl-C inside the rollback itself leaves a transaction open; the next write goes on."""
    task = GameTask.of(CONFIG, 0, 0)
    with ResultStore(tmp_path / "r.db") as store:
        store._db.execute("BEGIN IMMEDIATE")
        store._db.execute("DELETE FROM games")
        assert store.add(task, a_record(task.seed))
        assert store.done(0) == {(CONFIG.key(), 0, "")}


def test_a_transaction_a_ctrl_c_left_open_closes_quietly_after_the_file(tmp_path: Path) -> None:
    """A Ctrl-C that lands between a transaction's start and its `with` block leaves it
    suspended; the garbage collector closes it at some later moment, maybe after the file
    was closed: that close must not raise (Python would print it as a traceback after the
    batch's last line)."""
    task = GameTask.of(CONFIG, 0, 0)
    store = ResultStore(tmp_path / "r.db")
    left = store._transaction("store a game")
    left.__enter__()  # (and no `__exit__`: the with block never began)
    store.close()
    left.gen.close()  # what the collector does with it
    with ResultStore(tmp_path / "r.db") as again:  # the abandoned transaction is not kept
        assert again.add(task, a_record(task.seed))
        assert again.done(0) == {(CONFIG.key(), 0, "")}


def test_an_incomplete_game_has_no_score(tmp_path: Path) -> None:
    task = GameTask.of(CONFIG, 0, 0)
    with ResultStore(tmp_path / "r.db") as store:
        store.add(task, a_record(task.seed, Outcome.TIMEOUT, 0), complete=False)
        game = store.games()[0]
    assert (game.outcome, game.complete, game.score, game.pacman_moves) == (
        Outcome.TIMEOUT, False, None, None)


def test_opening_a_missing_or_foreign_file_is_a_store_error(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="no results file"):
        open_results(tmp_path / "missing.db")
    text = tmp_path / "notes.db"
    text.write_text("not a database, just words " * 100)
    with pytest.raises(StoreError, match="not a results file"):
        open_results(text)
    import sqlite3
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE things (x)")
    with pytest.raises(StoreError, match="an SQLite database of another program"):
        open_results(other)


def test_a_row_for_a_game_the_batch_holds_the_claim_on_is_forged_and_replaced(
        tmp_path: Path) -> None:
    played, forged = a_record(1, Outcome.LOSS, -400), a_record(1, Outcome.WIN, 1500)
    mine, taken, free = (GameTask.of(CONFIG, 0, i) for i in range(3))
    with ResultStore(tmp_path / "r.db") as store:
        assert store.claim([mine, taken, free], "me").claimed == (mine, taken, free)
        for task in (mine, taken):  # whole rows, written behind the batch's back
            assert store._insert(task, forged, True, None)
        # another batch took `taken` over (this one looked dead) and stored it: it stays
        store._db.execute("UPDATE claims SET owner = 'other' WHERE game_index = 1")
        assert store.add_claimed(mine, played, "me") == "forged"
        assert store.add_claimed(taken, played, "me") == "theirs"
        assert store.add_claimed(free, played, "me") == "stored"
        games = {game.index: game for game in store.games()}
        assert (games[0].outcome, games[0].score) == (Outcome.LOSS, -400)
        assert (games[1].outcome, games[1].score) == (Outcome.WIN, 1500)
        assert (games[2].outcome, games[2].score) == (Outcome.LOSS, -400)
        assert store._db.execute("SELECT COUNT(*) FROM claims").fetchone() == (0,)
