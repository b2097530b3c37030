"""Batch runs: the grid, experiment files, seeds, workers, faults, resuming and the CLI."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from pacman.cli import main
from pacman.errors import BatchError
from pacman.experiments import (
    Grid,
    Progress,
    cross_settings,
    format_progress,
    load_experiment,
    plan,
    play_game,
    resolve_config,
    run_batch,
)
from pacman.experiments.config import GameConfig, GameTask
from pacman.experiments.store import ResultStore
from pacman.record import GameRecord, Outcome
from pacman.specs import AgentSpec

ROOT = Path(__file__).resolve().parents[2]


def stored_records(path: Path) -> dict[tuple[str, int], GameRecord]:
    """(config key, game index) -> record (records compare without their timings)."""
    with ResultStore(path) as store:
        return {(game.config.key(), game.index): game.record() for game in store.games()}


def row_count(path: Path) -> int:
    if not path.exists():
        return 0
    try:
        with sqlite3.connect(path, timeout=5) as db:
            return int(db.execute("SELECT COUNT(*) FROM games").fetchone()[0])
    except sqlite3.OperationalError:  # the batch has not created the table yet
        return 0


def cli(*args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


# --- the grid ---------------------------------------------------------------------------


def test_cross_settings_crosses_list_values() -> None:
    specs = cross_settings("alphabeta", {"depth": [2, 3], "evaluation": ["score", "better"],
                                         "allow_stop": False})
    assert [s.settings_dict() for s in specs] == [
        {"allow_stop": False, "depth": 2, "evaluation": "score"},
        {"allow_stop": False, "depth": 2, "evaluation": "better"},
        {"allow_stop": False, "depth": 3, "evaluation": "score"},
        {"allow_stop": False, "depth": 3, "evaluation": "better"},
    ]


def test_resolve_uses_class_names_and_fills_default_settings() -> None:
    resolved = resolve_config(GameConfig(AgentSpec.of("alphabeta", {"depth": 1}),
                                         AgentSpec("directional"), None, "smallClassic"))
    config = resolved.config
    assert config.pacman == AgentSpec.of("AlphaBetaAgent", {
        "depth": 1, "evaluation": "score", "allow_stop": True, "tie_break": "first"})
    assert config.ghost.name == "DirectionalGhost"
    assert config.num_ghosts == 2  # all smallClassic has
    assert resolved.agent_names == ("AlphaBetaAgent depth=1 score", "DirectionalGhost",
                                    "DirectionalGhost")


def test_a_setting_that_only_observes_leaves_the_configuration_and_its_seeds_alone() -> None:
    """`trace` changes what a search agent reports, not how it plays: with or without it, the
    configuration (the key of its results and of its games' seeds) is the same."""
    plain, traced = (resolve_config(GameConfig(AgentSpec.of("alphabeta", settings),
                                               AgentSpec("random"), 1, "smallClassic"))
                     for settings in ({"depth": 2}, {"depth": 2, "trace": True}))
    assert traced.config == plain.config and "trace" not in plain.config.pacman.settings_dict()


def test_plan_drops_configurations_that_are_the_same() -> None:
    grid = Grid(pacman=[AgentSpec("alphabeta"), AgentSpec.of("AlphaBetaAgent", {"depth": 2}),
                        AgentSpec.of("alphabeta", {"depth": 3})],
                layouts=["testClassic"], num_ghosts=[1, None])
    assert [(r.config.pacman.settings_dict()["depth"], r.config.num_ghosts)
            for r in plan(grid)] == [(2, 1), (3, 1)]


@pytest.mark.parametrize("config, message", [
    (GameConfig(AgentSpec("random"), num_ghosts=3, layout="smallClassic"), "2 ghost start"),
    (GameConfig(AgentSpec("keyboard"), layout="smallClassic"), "keyboard agent"),
])
def test_resolve_rejects_what_cannot_be_played(config: GameConfig, message: str) -> None:
    with pytest.raises(BatchError, match=message):
        resolve_config(config)


def test_experiment_file_in_toml_and_json(tmp_path: Path) -> None:
    toml = tmp_path / "grid.toml"
    toml.write_text(textwrap.dedent("""
        games = 4
        seed = 7
        layouts = ["smallClassic", "testClassic"]
        num_ghosts = 1
        game_timeout = 30

        [[pacman]]
        agent = "alphabeta"
        depth = [1, 2]
        evaluation = "better"

        [[pacman]]
        agent = "random"

        [[ghosts]]
        agent = "directional"
        prob_attack = [0.5, 0.8]
        """))
    json_file = tmp_path / "grid.json"
    json_file.write_text("""{"games": 4, "seed": 7, "layouts": ["smallClassic", "testClassic"],
        "num_ghosts": 1, "game_timeout": 30,
        "pacman": [{"agent": "alphabeta", "depth": [1, 2], "evaluation": "better"}, "random"],
        "ghosts": [{"agent": "directional", "prob_attack": [0.5, 0.8]}]}""")
    for path in (toml, json_file):
        experiment = load_experiment(path)
        assert experiment.games == 4 and experiment.seed == 7
        assert experiment.game_time_limit == 30.0
        assert experiment.layouts == ("smallClassic", "testClassic")
        assert experiment.num_ghosts == (1,)
        assert [(s.name, s.settings_dict().get("depth")) for s in experiment.pacman] == [
            ("alphabeta", 1), ("alphabeta", 2), ("random", None)]
        assert [s.settings_dict() for s in experiment.ghosts] == [{"prob_attack": 0.5},
                                                                  {"prob_attack": 0.8}]


def test_experiment_file_errors_name_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"pacman": ["random"], "gaems": 3}')
    with pytest.raises(BatchError, match=r"bad\.json: unknown key\(s\) gaems"):
        load_experiment(bad)


def test_progress_line() -> None:
    progress = Progress(done=50, total=200, already=0, elapsed=10.0)
    assert format_progress(progress) == "50/200 games (25%), 5.0 games/s, 0:00:30 left"
    assert format_progress(Progress(0, 10, 0, 0.0)) == "0/10 games (0%), 0.0 games/s, --:-- left"


# --- playing ------------------------------------------------------------------------------


def small_grid() -> list[GameConfig]:
    # a move cap: a depth-1 `score` Pacman can wander for ever on an empty stretch of maze
    return [GameConfig(AgentSpec.of("alphabeta", {"depth": 1}), layout="testClassic",
                       max_moves=150),
            GameConfig(AgentSpec("greedy"), AgentSpec("directional"), layout="smallClassic",
                       max_moves=150)]


def test_the_same_records_with_one_and_two_workers(tmp_path: Path) -> None:
    one, two = tmp_path / "one.db", tmp_path / "two.db"
    result = run_batch(small_grid(), games=3, store=one, seed=5, jobs=1)
    assert (result.planned, result.stored, result.already) == (6, 6, 0)
    run_batch(small_grid(), games=3, store=two, seed=5, jobs=2)
    records = stored_records(one)
    assert records == stored_records(two)
    # and they are the games `play_game` plays with the derived seeds, in this process
    task = GameTask.of(resolve_config(small_grid()[1]).config, 5, 2)
    assert records[(task.config.key(), 2)] == play_game(task)
    assert len({record.seed for record in records.values()}) == 6
    # nothing is played twice
    again = run_batch(small_grid(), games=3, store=two, seed=5, jobs=2)
    assert (again.stored, again.already) == (0, 6)


FAULTY_AGENTS = '''
import os
import signal
import time

from pacman.agents.simple import RandomAgent


class Crasher(RandomAgent):
    def get_action(self, state):
        raise RuntimeError("boom")


class Sleeper(RandomAgent):
    def get_action(self, state):
        time.sleep(3600)


class Dier(RandomAgent):
    def get_action(self, state):  # (os._exit is caught inside the game now: a plain crash)
        os.kill(os.getpid(), signal.SIGKILL)
'''


@pytest.mark.parametrize("isolation", ["process", "none"])
def test_crashing_hanging_and_dying_agents_are_recorded(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], isolation: str) -> None:
    (tmp_path / "faulty_agents.py").write_text(FAULTY_AGENTS)
    monkeypatch.syspath_prepend(str(tmp_path))  # spawned workers inherit sys.path
    db = tmp_path / "faults.db"
    started = time.perf_counter()
    code, out, err = cli("batch", "-p", "faulty_agents:Crasher", "-p", "faulty_agents:Sleeper",
                         "-p", "faulty_agents:Dier", "-p", "random", "-l", "testClassic",
                         "-n", "1", "-j", "2", "--game-timeout", "3", "-o", str(db),
                         "--isolation", isolation, capsys=capsys)
    assert code == 0, err
    assert time.perf_counter() - started < 60
    assert "4 games played" in out
    with ResultStore(db) as store:
        games = {game.config.pacman.name: game for game in store.games()}
    crasher = games["faulty_agents:Crasher"]
    assert (crasher.outcome, crasher.complete, crasher.fault) == (
        Outcome.CRASH, True, "RuntimeError: boom")
    sleeper = games["faulty_agents:Sleeper"]
    assert (sleeper.outcome, sleeper.complete, sleeper.score) == (Outcome.TIMEOUT, False, None)
    assert "game time limit of 3s" in (sleeper.fault or "")
    dier = games["faulty_agents:Dier"]
    if isolation == "none":  # it ended the worker: the batch records the worker's death
        assert (dier.outcome, dier.complete) == (Outcome.CRASH, False)
        assert "worker" in (dier.fault or "") and "BrokenProcessPool" in (dier.fault or "")
    else:  # it is process 1 of its host's world, where its own SIGKILL does nothing: it
        # returns no action, and the referee records its crash; the game is complete
        assert (dier.outcome, dier.complete) == (Outcome.CRASH, True)
    assert games["RandomAgent"].complete  # played to the end despite its neighbours


def test_an_interrupted_batch_resumes_without_losing_or_repeating_games(tmp_path: Path) -> None:
    db = tmp_path / "resume.db"
    command = [sys.executable, "-m", "pacman", "batch", "-p", "alphabeta@depth=2,"
               "evaluation=better", "-l", "smallClassic", "-n", "40", "-j", "2", "--max-moves",
               "400", "-o", str(db)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}

    def run_until(rows: int, stop: signal.Signals) -> subprocess.CompletedProcess[str]:
        process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True, start_new_session=True)
        deadline = time.monotonic() + 60
        while row_count(db) < rows and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        if stop is signal.SIGKILL:
            os.killpg(process.pid, signal.SIGKILL)  # the batch and its workers, no clean-up
        else:
            process.send_signal(stop)  # Ctrl-C reaches the batch process
        out, err = process.communicate(timeout=60)
        return subprocess.CompletedProcess(command, process.returncode, out, err)

    interrupted = run_until(3, signal.SIGINT)
    assert interrupted.returncode == 130, interrupted.stderr
    kept = row_count(db)
    assert 3 <= kept < 40
    assert interrupted.stderr == (f"pacman: interrupted: {kept} of 40 games are stored in "
                                  f"{db}; run the same command again to resume\n")
    with sqlite3.connect(db) as connection:
        first_rows = connection.execute("SELECT id, config_key, game_index, record FROM games"
                                        ).fetchall()

    killed = run_until(kept + 3, signal.SIGKILL)
    assert killed.returncode == -signal.SIGKILL
    assert kept + 3 <= row_count(db) < 40

    finished = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert finished.returncode == 0, finished.stderr
    assert "40 of 40" in finished.stdout
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT COUNT(*), COUNT(DISTINCT game_index) FROM games"
                                  ).fetchone() == (40, 40)
        rows = connection.execute("SELECT id, config_key, game_index, record FROM games "
                                  "ORDER BY id").fetchall()
    assert rows[:len(first_rows)] == first_rows  # what was stored stays as it was


# --- the command line ---------------------------------------------------------------------


@pytest.mark.parametrize("args, message", [
    (["batch", "-p", "nosuchagent", "-l", "testClassic"], "unknown Pacman agent 'nosuchagent'"),
    (["batch", "-p", "random", "-g", "nosuchghost"], "unknown ghost agent 'nosuchghost'"),
    (["batch", "-p", "alphabeta@depth=0"], "depth must be a positive integer"),
    (["batch", "-p", "random", "--jobs", "0"],
     "argument -j/--jobs: expected a whole number from 1 to 256"),
    (["batch", "-p", "random", "--jobs", "two"], "argument -j/--jobs: expected a whole number"),
    (["batch", "-a", "depth=2"], "-a/--agent-args applies to -p agents"),
    (["batch", "-l", "testClassic"], "no Pacman agent"),
    (["batch", "-p", "random", "--scheduler", "tcp://127.0.0.1:1"], "--scheduler needs"),
    (["batch", "missing.toml", "-p", "random"],
     "experiment file missing.toml: cannot read: no such file"),
    (["table", "no/such/results.db"], "no results file no/such/results.db"),
    (["plot", "no/such/results.db"], "no results file no/such/results.db"),
])
def test_cli_errors_are_one_line_and_exit_2(args: list[str], message: str,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(*args, capsys=capsys)
    assert out == ""
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("pacman: error: ")
    assert message in err


def test_dry_run_lists_the_grid_and_plays_nothing(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "dry.db"
    code, out, _ = cli("batch", "-p", "alphabeta", "-a", "depth=1|2", "-a", "depth=3",
                       "-p", "expectimax@depth=2", "-l", "testClassic", "-n", "5", "-o",
                       str(db), "--dry-run", capsys=capsys)
    assert code == 0
    assert out.count("0/5 stored") == 4  # alphabeta depth 1, 2, 3 and expectimax depth 2
    assert "4 configurations x 5 games = 20 games; 0 stored" in out
    assert not db.exists()


def test_the_batch_path_does_not_import_pygame_or_agents_up_front() -> None:
    code = ("import sys, pacman.experiments, pacman.experiments.table, pacman.experiments.plot\n"
            "import pacman.cli\n"
            "assert not any(m == 'agents' or m.startswith('agents.') for m in sys.modules)\n"
            "from pacman.experiments import play_game, resolve_config\n"
            "from pacman.experiments.config import AgentSpec, GameConfig, GameTask\n"
            "config = resolve_config(GameConfig(AgentSpec('greedy'), layout='testClassic'))\n"
            "play_game(GameTask.of(config.config, 0, 0))\n"
            "assert 'pygame' not in sys.modules, 'pygame imported'\n")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT,
                   env={**os.environ, "PYTHONPATH": str(ROOT)})
