"""The game loop: outcomes, faults, time limits, move caps, agent hooks, seeds, records."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from pacman import GameRecord, GameState, Outcome, load_layout, parse_layout, run_game
from pacman.rules import EAST, STOP, WEST, Direction

CORRIDOR = parse_layout("""
    %%%%%%%%%
    %P..   G%
    %%%%%%%%%
""")


class Scripted:
    """Plays a fixed list of actions."""

    def __init__(self, actions: Sequence[Any]) -> None:
        self.actions = list(actions)

    def get_action(self, state: GameState) -> Any:
        return self.actions.pop(0)


class First:
    """Plays its first legal action."""

    def __init__(self, index: int) -> None:
        self.index = index

    def get_action(self, state: GameState) -> Direction:
        return state.legal_actions(self.index)[0]


class Stopper:
    def get_action(self, state: GameState) -> Direction:
        return STOP


class Raiser:
    def __init__(self, after: int) -> None:
        self.after = after

    def get_action(self, state: GameState) -> Direction:
        if self.after == 0:
            raise RuntimeError("boom")
        self.after -= 1
        return state.legal_actions(0)[0]


def test_pacman_wins() -> None:
    record = run_game(CORRIDOR, Scripted([EAST, EAST]), [Scripted([WEST])], seed=0)
    assert record.outcome is Outcome.WIN and record.won
    assert record.score == 9 + 509
    assert record.actions == ("East", "West", "East")
    assert record.pacman_moves == 2
    assert record.fault is None and record.fault_agent is None
    assert record.layout == "<layout>" and record.seed == 0


def test_pacman_loses() -> None:
    layout = parse_layout("""
        %%%%%%
        %PG..%
        %%%%%%
    """)
    record = run_game(layout, Stopper(), [First(1)], seed=0)
    assert record.outcome is Outcome.LOSS and not record.won
    assert record.actions == ("Stop", "West")
    assert record.score == -501


def test_crash_of_pacman() -> None:
    record = run_game(CORRIDOR, Raiser(after=1), [First(1)], seed=0)
    assert record.outcome is Outcome.CRASH
    assert record.fault_agent == 0
    assert record.fault == "RuntimeError: boom"
    assert record.pacman_moves == 1 and len(record.actions) == 2


def test_crash_of_a_ghost() -> None:
    class BadGhost:
        def get_action(self, state: GameState) -> Direction:
            raise KeyError("no idea")

    record = run_game(CORRIDOR, Stopper(), [BadGhost()], seed=0)
    assert record.outcome is Outcome.CRASH
    assert record.fault_agent == 1
    assert record.fault is not None and "KeyError" in record.fault
    assert record.actions == ("Stop",)


@pytest.mark.parametrize(("agent", "action"), [
    (0, "North"),      # into a wall
    (0, "Jump"),       # not an action
    (0, None),
    (1, STOP),         # ghosts never stop
])
def test_illegal_action_is_a_crash(agent: int, action: Any) -> None:
    agents: list[Any] = [Stopper(), First(1)]
    agents[agent] = Scripted([action])
    record = run_game(CORRIDOR, agents[0], agents[1:], seed=0)
    assert record.outcome is Outcome.CRASH
    assert record.fault_agent == agent
    assert record.fault is not None and "illegal action" in record.fault
    assert len(record.actions) == agent


def test_a_move_over_the_time_limit_is_a_timeout() -> None:
    class Sleeper:
        def get_action(self, state: GameState) -> Direction:
            time.sleep(0.12)
            return STOP

    record = run_game(CORRIDOR, Sleeper(), [First(1)], seed=0, move_time_limit=0.05)
    assert record.outcome is Outcome.TIMEOUT
    assert record.fault_agent == 0
    assert record.fault is not None and "limit" in record.fault
    assert record.actions == ()  # the late move is not played


def test_fast_moves_are_within_the_time_limit() -> None:
    record = run_game(CORRIDOR, Scripted([EAST, EAST]), [First(1)], seed=0,
                      move_time_limit=0.05)
    assert record.outcome is Outcome.WIN


def test_an_agent_over_its_time_for_the_game_times_out() -> None:
    """`TimeLimits.agent_game` (the classic grader's per-game limit) sums an agent's own
    moves: no move is over the move limit, their sum is."""
    from pacman.limits import TimeLimits

    class Slow:
        def get_action(self, state: GameState) -> Direction:
            time.sleep(0.03)
            return STOP

    record = run_game(CORRIDOR, Slow(), [First(1)], seed=0,
                      limits=TimeLimits(move=10.0, agent_game=0.08))
    assert record.outcome is Outcome.TIMEOUT and record.fault_agent == 0
    assert record.fault is not None and "limit of 0.08s for the game" in record.fault
    assert 2 <= record.pacman_moves <= 3


@pytest.mark.parametrize("value", [0, -1.0, float("nan"), float("inf"), True, "1", 2e6,
                                   pytest.param(10 ** 5000, id="5000-digits")])
def test_a_time_limit_is_checked_once_where_it_is_made(value: Any) -> None:
    from pacman.errors import LimitError
    from pacman.limits import TimeLimits

    for field in ("move", "game", "agent_game"):
        with pytest.raises(LimitError, match=f"the {field} time limit: expected seconds > 0"):
            TimeLimits(**{field: value})
    assert TimeLimits(move=1, game=2) == TimeLimits(move=1.0, game=2.0)


def test_time_limits_are_given_once() -> None:
    from pacman.errors import LimitError
    from pacman.limits import TimeLimits

    with pytest.raises(LimitError, match="once"):
        run_game(CORRIDOR, Stopper(), [First(1)], limits=TimeLimits(move=1.0),
                 move_time_limit=1.0)


def test_max_moves_caps_the_game() -> None:
    record = run_game(CORRIDOR, Stopper(), [First(1)], seed=0, max_moves=1)
    assert record.outcome is Outcome.CAPPED
    assert record.pacman_moves == 1
    assert record.actions == ("Stop", "West")
    record = run_game(CORRIDOR, Stopper(), [], seed=0, max_moves=7)
    assert record.outcome is Outcome.CAPPED and record.pacman_moves == 7
    assert record.score == -7


@dataclass
class Decision:
    nodes_generated: int


class Hooked:
    """Records every hook the game calls."""

    def __init__(self, index: int, log: list[tuple[str, int, Any]]) -> None:
        self.index, self.log = index, log
        self.rng: random.Random | None = None
        self.last_decision: Decision | None = None

    def set_rng(self, rng: random.Random) -> None:
        self.rng = rng
        self.log.append(("set_rng", self.index, rng))

    def register_initial_state(self, state: GameState) -> None:
        self.log.append(("register", self.index, state))

    def get_action(self, state: GameState) -> Direction:
        self.log.append(("get_action", self.index, state))
        self.last_decision = Decision(nodes_generated=10 + len(self.log))
        return EAST if self.index == 0 else state.legal_actions(self.index)[0]

    def final(self, state: GameState) -> None:
        self.log.append(("final", self.index, state))

    def describe(self) -> str:
        return f"hooked {self.index}"


def test_hooks_are_called_in_order_with_one_shared_generator() -> None:
    log: list[tuple[str, int, Any]] = []
    record = run_game(CORRIDOR, Hooked(0, log), [Hooked(1, log)], seed=42)
    assert record.outcome is Outcome.WIN
    kinds = [(kind, index) for kind, index, _ in log]
    assert kinds == [("set_rng", 0), ("register", 0), ("set_rng", 1), ("register", 1),
                     ("get_action", 0), ("get_action", 1), ("get_action", 0),
                     ("final", 0), ("final", 1)]
    generators = [value for kind, _, value in log if kind == "set_rng"]
    assert generators[0] is generators[1]
    assert generators[0].random() == random.Random(42).random()  # nobody drew from it yet
    initial = GameState.initial(CORRIDOR)
    assert [value for kind, _, value in log if kind == "register"] == [initial, initial]
    finals = [value for kind, _, value in log if kind == "final"]
    assert finals[0] is finals[1] and finals[0].is_win()
    assert record.agents == ("hooked 0", "hooked 1")
    assert record.pacman_nodes == (10 + 5, 10 + 7)


def test_final_is_called_after_a_crash() -> None:
    log: list[tuple[str, int, Any]] = []
    record = run_game(CORRIDOR, Raiser(after=0), [Hooked(1, log)], seed=0)
    assert record.outcome is Outcome.CRASH
    assert [kind for kind, _, _ in log] == ["set_rng", "register", "final"]


def test_crash_in_a_hook_is_the_agents_fault() -> None:
    class BadRegister:
        def register_initial_state(self, state: GameState) -> None:
            raise ValueError("cannot start")

        def get_action(self, state: GameState) -> Direction:
            return STOP

    record = run_game(CORRIDOR, Stopper(), [BadRegister()], seed=0)
    assert record.outcome is Outcome.CRASH and record.fault_agent == 1
    assert record.fault == "ValueError: cannot start"
    assert record.actions == ()

    class BadFinal(Hooked):
        def final(self, state: GameState) -> None:
            raise RuntimeError("bye")

    record = run_game(CORRIDOR, BadFinal(0, []), [First(1)], seed=0)
    assert record.outcome is Outcome.CRASH and record.fault_agent == 0
    assert record.fault is not None and "final()" in record.fault


def test_think_time_is_recorded_per_agent() -> None:
    class Slow:
        def __init__(self, index: int, seconds: float) -> None:
            self.index, self.seconds = index, seconds

        def get_action(self, state: GameState) -> Direction:
            time.sleep(self.seconds)
            return EAST if self.index == 0 else state.legal_actions(self.index)[0]

    record = run_game(CORRIDOR, Slow(0, 0.02), [Slow(1, 0.0)], seed=0)
    assert record.outcome is Outcome.WIN
    assert len(record.think_time) == 2
    assert record.think_time[0] >= 2 * 0.02
    assert record.think_time[1] < record.think_time[0]
    assert len(record.pacman_move_times) == record.pacman_moves == 2
    assert all(t >= 0.02 for t in record.pacman_move_times)
    assert record.pacman_nodes == (None, None)


def test_more_ghost_agents_than_ghosts_is_an_error() -> None:
    with pytest.raises(ValueError, match="only 1"):
        run_game(CORRIDOR, Stopper(), [First(1), First(2)])


def test_record_round_trips_through_json() -> None:
    from pacman.agents.ghosts import DirectionalGhost
    from pacman.agents.simple import RandomAgent

    record = run_game(load_layout("smallClassic"), RandomAgent(), [DirectionalGhost(1)],
                      seed=3, max_moves=60)
    again = GameRecord.from_dict(json.loads(json.dumps(record.to_dict())))
    assert again == record
    assert again.think_time == record.think_time


# --------------------------------------------------------------------------- determinism

GAME = """
import json, sys
from pacman import load_layout, run_game
from pacman.agents.ghosts import DirectionalGhost, RandomGhost
from pacman.agents.simple import GreedyAgent, RandomAgent

def play(seed):
    layout = load_layout("mediumClassic")
    record = run_game(layout, RandomAgent(), [RandomGhost(1), DirectionalGhost(2)],
                      seed=seed, max_moves=300)
    data = record.to_dict()
    del data["think_time"], data["pacman_move_times"]
    return data
"""


def _play(seed: int) -> dict[str, Any]:
    namespace: dict[str, Any] = {}
    exec(GAME, namespace)
    result: dict[str, Any] = namespace["play"](seed)
    return result


def test_same_seed_same_record_in_process() -> None:
    from pacman.agents.ghosts import DirectionalGhost, RandomGhost
    from pacman.agents.simple import GreedyAgent

    layout = load_layout("smallClassic")

    def game(seed: int) -> GameRecord:
        return run_game(layout, GreedyAgent(), [RandomGhost(1), DirectionalGhost(2)],
                        seed=seed, max_moves=200)

    first, second = game(5), game(5)
    assert first == second
    assert first.actions == second.actions
    assert game(6) != first  # the seed matters
    assert _play(11) == _play(11)


def test_same_seed_same_record_in_another_process() -> None:
    here = _play(11)
    code = GAME + "\nprint(json.dumps(play(11)))\n"
    env = dict(os.environ, PYTHONHASHSEED="12345")  # string hashing must not matter
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, timeout=60, check=True)
    assert json.loads(done.stdout) == here
    assert len(here["actions"]) > 10
