"""Faults are outcomes: whatever agent code raises or does ends its game as a recorded `crash`
or `timeout` with the reason, never as the command's silent exit or a hang past its limit."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from pacman import load_layout, run_game
from pacman.hosting.watched import WatchedGames
from pacman.limits import TimeLimits
from pacman.record import Outcome
from pacman.specs import AgentSpec, GameSpec

AGENTS = '''
import os, sys, time
from pacman import Direction

class Stopper:
    def get_action(self, state):
        return Direction.STOP

class Busy:
    def get_action(self, state):
        while True:
            pass

class Swallow:
    """Catches the interrupt and keeps looping: only a killed process stops it."""
    def get_action(self, state):
        while True:
            try:
                while True:
                    pass
            except BaseException:
                pass

class Sleepy:
    def get_action(self, state):
        time.sleep(60)

class SlowStart:
    def register_initial_state(self, state):
        time.sleep(60)
    def get_action(self, state):
        return Direction.STOP

class Slowish:
    def get_action(self, state):
        time.sleep(0.05)
        return Direction.STOP

class TwoThenStuck:
    """Two moves at once, then a move that never ends."""
    moves = 0

    def get_action(self, state):
        self.moves += 1
        if self.moves > 2:
            time.sleep(3600)
        return Direction.STOP

class Exiter:
    def get_action(self, state):
        sys.exit(0)

class Killer:
    def get_action(self, state):
        os._exit(0)

class HardKiller:
    def get_action(self, state):
        import posix
        posix._exit(3)

class Interrupter:
    def get_action(self, state):
        raise KeyboardInterrupt

class NoAction:
    pass

class BadDescribe:
    def describe(self):
        raise RuntimeError("no description")
    def get_action(self, state):
        return Direction.STOP

class BadRng:
    def set_rng(self, rng):
        raise ValueError("no rng")
    def get_action(self, state):
        return Direction.STOP

class BadFinal:
    def get_action(self, state):
        return state.legal_actions(0)[-1]
    def final(self, state):
        raise SystemExit(4)

class Unprintable:
    def get_action(self, state):
        class Weird:
            def __repr__(self):
                raise RuntimeError("no repr")
        return Weird()
'''

TINY = load_layout("testClassic")


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "faulty.py").write_text(textwrap.dedent(AGENTS))
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def play(*argv: str, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pacman", "play", "-l", "testClassic", "-q",
                           "--seed", "1", *argv], capture_output=True, text=True, cwd=cwd,
                          timeout=timeout)


@pytest.mark.parametrize(("agent", "reason"), [
    ("Exiter", "SystemExit: 0"),
    ("Killer", "os._exit(0) called by agent code"),
    ("Interrupter", "KeyboardInterrupt"),
    ("BadDescribe", "RuntimeError: no description"),
    ("BadRng", "ValueError: no rng"),
    ("BadFinal", "in final(): SystemExit: 4"),
    ("Unprintable", "illegal action <unprintable Weird>"),
])
def test_agent_faults_in_this_process_are_recorded_crashes(folder: Path, agent: str,
                                                           reason: str) -> None:
    done = play("-p", f"faulty:{agent}", "--isolation", "none", cwd=folder)
    assert done.returncode == 0, done.stderr
    assert "crash" in done.stdout and reason in done.stdout, done.stdout
    assert "Traceback" not in done.stderr
    hosted = play("-p", f"faulty:{agent}", cwd=folder)  # in its agent host: still a crash
    assert hosted.returncode == 0 and "crash" in hosted.stdout, hosted.stdout + hosted.stderr
    assert "Traceback" not in hosted.stderr


def test_a_class_that_cannot_play_is_one_line(folder: Path) -> None:
    done = play("-p", "faulty:NoAction", cwd=folder)
    assert done.returncode == 2
    assert done.stderr.strip().endswith("is not an agent: it has no get_action(state) method")
    assert done.stderr.count("\n") == 1
    # given as an object, it is that agent's crash
    record = run_game(TINY, object(), [], seed=1)
    assert record.outcome is Outcome.CRASH and "no get_action(state) method" in (
        record.fault or "")


@pytest.mark.parametrize(("agent", "reason"), [
    ("Busy", "move went over the limit of 0.3s and was stopped"),
    ("Sleepy", "move went over the limit of 0.3s and was stopped"),
    ("SlowStart", "move went over the limit of 0.3s and was stopped"),
    ("Swallow", "move went over the limit of 0.3s; its process was stopped"),
])
def test_a_move_limit_stops_any_agent(folder: Path, agent: str, reason: str) -> None:
    done = play("-p", f"faulty:{agent}", "--timeout", "0.3", "--isolation", "none", cwd=folder)
    assert done.returncode == 0, done.stderr
    assert "timeout" in done.stdout and reason in done.stdout, done.stdout
    # in its agent host, the referee's clock stops any agent, one that swallows the game's
    # interrupt too, without stopping the game's process
    hosted = play("-p", f"faulty:{agent}", "--timeout", "0.3", cwd=folder)
    assert hosted.returncode == 0, hosted.stderr
    assert "timeout" in hosted.stdout and "move went over the limit of 0.3s" in hosted.stdout


def test_a_game_limit_stops_a_game_of_slow_but_legal_moves(folder: Path) -> None:
    done = play("-p", "faulty:Slowish", "--game-timeout", "0.5", cwd=folder)
    assert done.returncode == 0, done.stderr
    assert "timeout" in done.stdout and "the game went over its time limit" in done.stdout


def test_an_agent_that_ends_its_process_is_a_crash_of_the_game(folder: Path) -> None:
    done = play("-p", "faulty:HardKiller", "--timeout", "5", "--isolation", "none",
                cwd=folder)
    assert done.returncode == 0, done.stderr
    assert "the agents' process died (exit code 3)" in done.stdout
    hosted = play("-p", "faulty:HardKiller", "--timeout", "5", cwd=folder)
    assert hosted.returncode == 0, hosted.stderr
    assert "crash" in hosted.stdout and "the agent's process died (exit code 3)" in (
        hosted.stdout)


def test_watched_games_keep_the_moves_made_before_the_kill(folder: Path) -> None:
    with WatchedGames() as watched:
        # the game's limit stops the third move, whatever the load: the first two are kept
        record = watched.play(GameSpec.of(TINY, AgentSpec("faulty:TwoThenStuck"),
                                          AgentSpec("RandomGhost"), 1, 3,
                                          limits=TimeLimits(game=5.0)))
        assert record.outcome is Outcome.TIMEOUT
        assert record.pacman_moves == 2 and len(record.actions) == 4
        # the same child plays the next game
        normal = watched.play(GameSpec.of(TINY, AgentSpec("GreedyAgent"),
                                          AgentSpec("RandomGhost"), 1, 3, max_moves=200,
                                          limits=TimeLimits(move=5.0)))
    alone = run_game(TINY, __import__("pacman.agents.simple").agents.simple.GreedyAgent(),
                     [__import__("pacman.agents.ghosts").agents.ghosts.RandomGhost(1)], seed=3,
                     max_moves=200)
    assert normal == alone  # a watched game is the same game


def test_the_watched_child_dies_with_its_parent(folder: Path) -> None:
    game = subprocess.Popen([sys.executable, "-m", "pacman", "play", "-l", "testClassic", "-q",
                             "-p", "faulty:Swallow", "--timeout", "60"], cwd=folder,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        children: list[str] = []
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not children:
            found = subprocess.run(["pgrep", "-P", str(game.pid)], capture_output=True,
                                   text=True)
            children = found.stdout.split()
            time.sleep(0.2)
        assert children, "no child process appeared"
        game.kill()
        game.wait()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(_alive(int(c)) for c in children):
            time.sleep(0.2)
        assert not any(_alive(int(c)) for c in children)
    finally:
        if game.poll() is None:
            game.kill()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    status = Path(f"/proc/{pid}/stat")
    return not (status.exists() and status.read_text().split()[2] == "Z")


@pytest.mark.parametrize("limit", [[], ["--timeout", "30"]])
def test_the_users_ctrl_c_is_one_line(folder: Path, limit: list[str]) -> None:
    game = subprocess.Popen([sys.executable, "-m", "pacman", "play", "-l", "testClassic", "-q",
                             "-p", "faulty:Busy", *limit], cwd=folder, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    time.sleep(2.0)
    game.send_signal(signal.SIGINT)
    _, err = game.communicate(timeout=30)
    assert game.returncode == 130
    assert err.strip() == "pacman: interrupted"


def test_a_batch_move_limit_stops_any_agent_and_keeps_the_batch_going(folder: Path) -> None:
    db = folder / "r.db"
    done = subprocess.run([sys.executable, "-m", "pacman", "batch", "-p", "faulty:Swallow",
                           "-p", "faulty:Killer", "-p", "greedy", "-l", "testClassic", "-n", "2",
                           "-j", "2", "--move-timeout", "0.5", "-o", str(db),
                           "--isolation", "none"],  # the agents in the watched child itself
                          capture_output=True, text=True, cwd=folder, timeout=180)
    assert done.returncode == 0, done.stderr
    assert "6 games played" in done.stdout
    from pacman.experiments.store import open_results

    with open_results(db) as store:
        games = [(g.config.pacman.name.rsplit(":", 1)[-1], g.outcome, g.fault or "")
                 for g in store.games()]
    assert sorted((name, outcome.value) for name, outcome, _ in games) == [
        ("GreedyAgent", "win"), ("GreedyAgent", "win"), ("Killer", "crash"),
        ("Killer", "crash"), ("Swallow", "timeout"), ("Swallow", "timeout")]
    assert all("its process was stopped" in fault for name, _, fault in games
               if name == "Swallow")


def test_a_game_that_cannot_end_stops_at_the_default_cap(folder: Path) -> None:
    done = play("-p", "faulty:Stopper", "-g", "RandomGhost", "-k", "0", cwd=folder)
    assert done.returncode == 0, done.stderr
    assert "capped, score -3000, 3000 moves" in done.stdout
    lifted = play("-p", "faulty:Stopper", "-k", "0", "--max-moves", "0", "--game-timeout",
                  "0.5", cwd=folder)
    assert "timeout" in lifted.stdout and "3000 moves" not in lifted.stdout


def test_a_hosted_file_that_does_not_load_is_one_line_naming_it_as_given(tmp_path: Path) -> None:
    """The agent's host reads a copy of the file under a path of its own (`/sandbox/...`); the
    user's line names the file as they wrote it, without the host's error class."""
    (tmp_path / "bad.py").write_text("class X:\n    def get_action(self, s)\n        return 1\n",
                                     encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "pacman", "play", "-p", "bad.py:X", "-q", "-l",
                           "testClassic"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=300)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == ("pacman: error: bad.py failed while loading: SyntaxError: expected "
                           "':' (bad.py:2)\n")
