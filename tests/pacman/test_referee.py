"""The referee: a user's agent plays from an agent host, and nothing it does there changes the
game of record. Honest agents play the same games with and without isolation; cheating agents,
each playing at random apart from its cheat, get exactly what random play gets."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pacman import load_layout
from pacman.experiments.store import ResultStore
from pacman.hosting.isolation import private_processes
from pacman.hosting.local import play
from pacman.record import GameRecord, Outcome
from pacman.specs import AgentSpec, GameSpec
from pacman.state import GameState

CHEATERS = textwrap.dedent('''
    import gc, os, random, signal, sys


    class _Random:
        """Plays like RandomAgent: one draw from the game's generator per move."""

        index = 0

        def set_rng(self, rng):
            self.rng = rng

        def get_action(self, state):
            action = self.rng.choice(state.legal_actions(0))
            self.cheat(state)
            return action

        def cheat(self, state):
            pass


    class Honest(_Random):
        pass


    class WritesScore(_Random):
        def cheat(self, state):
            object.__setattr__(state, "_score", 10**6)


    class WritesEveryState(_Random):
        def cheat(self, state):
            for thing in gc.get_objects():
                if type(thing).__name__ == "GameState":
                    object.__setattr__(thing, "_score", 10**6)
                    object.__setattr__(thing, "_food", 0)


    class PatchesTheRules(_Random):
        def cheat(self, state):
            rules = sys.modules["pacman.state"].GameState
            rules.is_win = lambda self: True
            rules.successor = lambda self, agent, action: self


    class ReseedsTheGhosts(_Random):
        def cheat(self, state):
            self.rng.seed(0)  # the ghosts draw from the same generator
            for thing in gc.get_objects():
                if isinstance(thing, random.Random):
                    thing.setstate(random.Random(1).getstate())


    class WritesPositionsAndTimers(_Random):
        def cheat(self, state):
            object.__setattr__(state, "_ghosts", tuple(
                0 if number % 3 == 2 else value for number, value in enumerate(state._ghosts)))
            object.__setattr__(state, "_pac", state._ghosts[0])


    class ForksOnce(_Random):
        def cheat(self, state):
            if not getattr(self, "forked", False):
                self.forked = True
                if os.fork() == 0:  # the copy plays nothing and leaves
                    os._exit(0)


    class ExitsItsProcess(_Random):
        def cheat(self, state):
            os._exit(0)


    class KillsItsParent(_Random):
        def cheat(self, state):
            os.kill(os.getppid(), signal.SIGKILL)
''')


@pytest.fixture(scope="module")
def cheaters(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("agents") / "cheaters.py"
    path.write_text(CHEATERS, encoding="utf-8")
    return path


def game(path: Path | str, name: str, seed: int, isolation: str = "process",
         ghost: str = "DirectionalGhost") -> GameRecord:
    spec = GameSpec.of(load_layout("smallClassic"), AgentSpec(f"{path}:{name}"),
                       AgentSpec(ghost), None, seed, max_moves=200)
    return play(spec, isolation=isolation)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_an_honest_agent_plays_the_same_game_with_and_without_isolation(cheaters: Path,
                                                                        seed: int) -> None:
    hosted, trusted = game(cheaters, "Honest", seed), game(cheaters, "Honest", seed, "none")
    assert hosted == trusted and hosted.pacman_moves > 0


@pytest.mark.parametrize("cheater", ["WritesScore", "WritesEveryState", "PatchesTheRules",
                                     "ReseedsTheGhosts", "WritesPositionsAndTimers",
                                     "ForksOnce"])
def test_a_cheater_gets_exactly_what_random_play_gets(cheaters: Path, cheater: str) -> None:
    honest = game(cheaters, "Honest", 3)
    cheated = game(cheaters, cheater, 3)
    assert (cheated.outcome, cheated.score, cheated.actions) == (
        honest.outcome, honest.score, honest.actions)
    assert cheated.score < 10**5


@pytest.mark.parametrize("cheater", ["WritesScore", "PatchesTheRules"])
def test_without_isolation_the_same_cheats_do_change_the_game(
        cheaters: Path, cheater: str, monkeypatch: pytest.MonkeyPatch) -> None:
    for rule in ("is_win", "successor"):  # put back what the cheater patches in this process
        monkeypatch.setattr(GameState, rule, getattr(GameState, rule))
    honest = game(cheaters, "Honest", 3, "none")
    cheated = game(cheaters, cheater, 3, "none")
    assert (cheated.outcome, cheated.score) != (honest.outcome, honest.score)


def test_an_agent_that_ends_its_process_crashes_alone(cheaters: Path) -> None:
    record = game(cheaters, "ExitsItsProcess", 0)
    assert record.outcome is Outcome.CRASH and record.fault_agent == 0, record.fault
    assert "the agent's process" in (record.fault or ""), record.fault
    assert record.pacman_moves == 0  # it ended before its first answer


@pytest.mark.parametrize("seed", [0, 3])
def test_an_agent_that_kills_its_parent_signals_nobody_and_plays_random_play(
        cheaters: Path, seed: int) -> None:
    if not private_processes():
        pytest.skip("no PID namespace here: the agent would kill the test run")
    # in its own PID namespace its parent's pid reads 0, so `kill(getppid(), SIGKILL)` signals
    # its own process group; the host is alone there (it left the group it shared with the
    # `unshare` process outside), and process 1 ignores what it sends itself. Before, the
    # signal reached `unshare`, whose death ended the host a move or more later, under load
    # late enough that the game was recorded as lost instead of as a crash
    honest, cheated = game(cheaters, "Honest", seed), game(cheaters, "KillsItsParent", seed)
    assert (cheated.outcome, cheated.score, cheated.actions) == (
        honest.outcome, honest.score, honest.actions)


STORE_PATCHER = textwrap.dedent('''
    """A user's agent module that, when imported, rewrites every game the store keeps."""
    import dataclasses
    import random

    import pacman.experiments.store as store

    _insert = store.ResultStore._insert


    def _forged(self, task, record, *options):
        return _insert(self, task, dataclasses.replace(record, score=10**6), *options)


    store.ResultStore._insert = _forged


    class Plain:
        def __init__(self, index=0):
            self.index = index

        def set_rng(self, rng):
            self.rng = rng

        def get_action(self, state):
            return self.rng.choice(state.legal_actions(0))
''')


@pytest.mark.parametrize("isolation", ["process", "none"])
def test_a_batch_never_imports_the_users_module_where_it_stores_games(
        tmp_path: Path, isolation: str) -> None:
    (tmp_path / "patcher.py").write_text(STORE_PATCHER, encoding="utf-8")
    db = tmp_path / "r.db"
    done = subprocess.run(
        [sys.executable, "-m", "pacman", "batch", "-p", "patcher.py:Plain", "-l", "testClassic",
         "-n", "3", "-j", "1", "--max-moves", "40", "-o", str(db), "--isolation", isolation],
        capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    with ResultStore(db) as store:
        scores = [game.score for game in store.games()]
    assert len(scores) == 3
    if isolation == "process":  # resolved and played in hosts: the store is the referee's
        assert all(score is not None and score < 10**5 for score in scores), scores
    else:  # imported where the games are stored: this is what the hosts prevent
        assert scores == [10**6] * 3
