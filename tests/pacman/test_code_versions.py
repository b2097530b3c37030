"""Results that know their code: an edit of an agent's source plays new games, the old ones stay."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

from pacman.experiments.config import GameConfig
from pacman.experiments.grid import resolve_config
from pacman.experiments.runner import run_batch
from pacman.experiments.store import ResultStore, open_results
from pacman.experiments.table import select_code, summarize
from pacman.specs import AgentSpec
from pacman.versions import agent_code_files, code_version, package_digest

ROOT = Path(__file__).resolve().parents[2]
AGENT = '''
from helper import pick


class Picky:
    """Pacman: the first legal action in a fixed order ({order})."""

    def __init__(self, index: int = 0) -> None:
        self.index = index

    def get_action(self, state):
        return pick(state.legal_actions(0), {order!r})
'''
HELPER = '''
def pick(actions, order):
    by_name = {{a.value: a for a in actions}}
    return next(by_name[name] for name in order if name in by_name)
'''


def write_agent(folder: Path, order: list[str], helper_note: str = "") -> None:
    (folder / "picky.py").write_text(AGENT.format(order=order))
    (folder / "helper.py").write_text(HELPER.format() + helper_note)


def batch(folder: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "pacman", "batch", "-p", "picky.py:Picky", "-l",
               "testClassic", "-n", "3", "-j", "1", "--max-moves", "30", "-o", "r.db", *extra]
    return subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{folder}"})


def table(folder: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pacman", "table", "r.db", *extra],
                          cwd=folder, capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


def test_an_edited_agent_plays_new_games_and_the_old_ones_stay(tmp_path: Path) -> None:
    write_agent(tmp_path, ["West", "North", "East", "South", "Stop"])
    first = batch(tmp_path)
    assert first.returncode == 0, first.stderr
    assert "3 games played, 0 already stored" in first.stdout
    again = batch(tmp_path)
    assert "0 games played, 3 already stored" in again.stdout, again.stdout
    assert "another version of the code" not in again.stdout

    write_agent(tmp_path, ["East", "South", "West", "North", "Stop"])  # the agent changes
    edited = batch(tmp_path)
    assert "3 games played, 0 already stored" in edited.stdout, edited.stdout
    assert "3 of the games to play were stored by another version of the code" in edited.stdout
    write_agent(tmp_path, ["East", "South", "West", "North", "Stop"], "# a note\n")  # a helper
    helper = batch(tmp_path)
    assert "3 games played, 0 already stored" in helper.stdout, helper.stdout

    with open_results(tmp_path / "r.db") as store:
        games = store.games()
    assert len(games) == 9 and len({game.code for game in games}) == 3
    for code in {game.code for game in games}:  # each version: games 0, 1, 2, stored in turn
        assert sorted(game.index for game in games if game.code == code) == [0, 1, 2]
    assert len({games[i].code for i in range(3)}) == 1
    assert len({game.seed for game in games}) == 3  # the same seeds, played by each version

    latest = table(tmp_path)
    assert latest.returncode == 0, latest.stderr
    assert "| 3 |" in latest.stdout and "6 games of other code versions are not counted" in (
        latest.stderr)
    every = table(tmp_path, "--code", "all")
    assert every.returncode == 0 and every.stderr == ""
    lines = every.stdout.splitlines()
    assert lines[2].startswith("| code | games |")  # the only column that varies
    codes = [line.split(" | ")[0].removeprefix("| ") for line in lines[4:7]]
    assert codes == [games[0].code, games[3].code, games[6].code]  # oldest first
    assert len(set(codes)) == 3
    assert all(" | 3 | " in line for line in lines[4:7])
    one = table(tmp_path, "--code", games[0].code[:6])
    assert one.returncode == 0 and "| 3 |" in one.stdout
    wrong = table(tmp_path, "--code", "zzz")
    assert wrong.returncode == 2 and wrong.stderr.count("\n") == 1
    assert "no games of code version 'zzz'" in wrong.stderr


def test_the_code_version_follows_the_users_files_only(tmp_path: Path) -> None:
    ours = resolve_config(GameConfig(AgentSpec("alphabeta"), layout="testClassic"))
    also_ours = resolve_config(GameConfig(AgentSpec("expectimax"), AgentSpec("DirectionalGhost"),
                                          layout="testClassic"))
    assert ours.code == also_ours.code == code_version([])  # this package's digest alone
    assert len(ours.code) == 12 and len(package_digest()) == 32
    from pacman.agents.pacman_agents import AlphaBetaAgent

    assert agent_code_files(AlphaBetaAgent) == []
    module = tmp_path / "evalmod.py"
    module.write_text("def evaluate(state):\n    return state.score\n")
    config = GameConfig(AgentSpec.of("alphabeta", {"evaluation": f"{module}:evaluate"}),
                        layout="testClassic")
    before = resolve_config(config).code
    assert before != ours.code
    module.write_text("def evaluate(state):\n    return 2 * state.score\n")
    assert resolve_config(config).code != before


def test_a_store_of_the_first_format_is_read_and_converted_when_written(
        tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    config = resolve_config(GameConfig(AgentSpec("random"), layout="testClassic",
                                       max_moves=20))
    run_batch([config], games=2, store=path, jobs=1)
    to_first_format(path)
    with open_results(path) as store:  # read as it is
        old = store.games()
    assert [game.code for game in old] == ["", ""]
    kept, left_out = select_code(old)
    assert (len(kept), left_out) == (2, 0)
    assert summarize(kept, ["agent", "code"])[0].group == (("agent", "RandomAgent"),
                                                           ("code", "unknown"))
    result = run_batch([config], games=2, store=path, jobs=1)  # converts, then plays
    assert (result.stored, result.already, result.superseded) == (2, 0, 2)
    with closing(sqlite3.connect(path)) as db:
        assert db.execute("PRAGMA user_version").fetchone() == (2,)
        rows = db.execute("SELECT id, code, record FROM games ORDER BY id").fetchall()
    assert [code for _, code, _ in rows] == ["", "", config.code, config.code]
    assert [(i, record) for i, _, record in rows[:2]] == [(1, old[0].record_json),
                                                          (2, old[1].record_json)]
    with ResultStore(path) as store:
        assert len(store) == 4


def to_first_format(path: Path) -> None:
    """Rewrite a results file as the first format wrote it: no code column, version 1."""
    with closing(sqlite3.connect(path)) as db:
        columns = [row[1] for row in db.execute("PRAGMA table_info(games)")
                   if row[1] != "code"]
        schema = db.execute("SELECT sql FROM sqlite_master WHERE name='games'").fetchone()[0]
        schema = schema.replace("code TEXT NOT NULL DEFAULT '',  -- code version ('': stored "
                                "before code versions)\n", "")
        schema = schema.replace("UNIQUE (config_key, base_seed, game_index, code)",
                                "UNIQUE (config_key, base_seed, game_index)")
        assert "code" not in schema.replace("config_key", "")
        db.execute("ALTER TABLE games RENAME TO g")
        db.execute(schema)
        db.execute(f"INSERT INTO games SELECT {', '.join(columns)} FROM g")
        db.execute("DROP TABLE g")
        db.execute("PRAGMA user_version = 1")
        db.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")
        db.commit()


@pytest.mark.parametrize("which", ["latest", "all"])
def test_select_code_keeps_each_configurations_latest_version(which: str) -> None:
    from pacman.experiments.config import StoredGame
    from pacman.record import Outcome

    a = GameConfig(AgentSpec("A"), layout="x")
    b = GameConfig(AgentSpec("B"), layout="x")

    def game(config: GameConfig, code: str) -> StoredGame:
        return StoredGame(config, 0, 0, 0, Outcome.WIN, True, 1, 1, 0.0, None, 0, None, "v",
                          "{}", code)

    games = [game(a, "old"), game(b, "bbb"), game(a, "new"), game(a, "new")]
    kept, left_out = select_code(games, which)
    if which == "latest":
        assert [(g.config, g.code) for g in kept] == [(b, "bbb"), (a, "new"), (a, "new")]
        assert left_out == 1
    else:
        assert kept == games and left_out == 0


def test_the_package_digest_covers_what_plays_games_only(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from pacman import versions

    for name in ("pacman/rules.py", "pacman/cli/play.py", "pacman/web/page.py",
                 "pacman/display/window.py", "pacman/agents/search.py", "pacman/layouts/a.lay",
                 "pacman/agents/weights/learned.json", "pacman/web/assets/page.js"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(f"# {name}\n")
    monkeypatch.setattr(versions, "_PACKAGE_ROOT", tmp_path)

    def digest() -> str:
        versions.package_digest.cache_clear()
        return versions.package_digest()

    try:
        first = digest()
        for name in ("pacman/cli/play.py", "pacman/web/page.py", "pacman/display/window.py",
                     "pacman/web/assets/page.js"):
            (tmp_path / name).write_text("# edited\n")
            assert digest() == first, name
        for name in ("pacman/rules.py", "pacman/agents/search.py", "pacman/layouts/a.lay",
                     "pacman/agents/weights/learned.json"):
            (tmp_path / name).write_text("# edited\n")
            assert digest() != first, name
            first = digest()
    finally:
        versions.package_digest.cache_clear()


def test_a_file_a_setting_names_with_at_is_part_of_the_code_version(tmp_path: Path) -> None:
    from pacman.versions import setting_code_files

    weights = tmp_path / "weights.json"
    weights.write_text('{"a": 1}')
    assert setting_code_files({"evaluation": f"@{weights}"}) == [weights.resolve()]
    before = code_version(setting_code_files({"evaluation": f"@{weights}"}))
    weights.write_text('{"a": 2}')
    assert code_version(setting_code_files({"evaluation": f"@{weights}"})) != before
    assert setting_code_files({"evaluation": "@no/such/file.json", "depth": 2}) == []
