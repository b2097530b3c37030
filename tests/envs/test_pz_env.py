"""The PettingZoo envs: PettingZoo's own API, seed, max-cycles and render tests, the turn
order, illegal moves, rewards, ends, and seeded episodes replayed through `run_game`."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

from conftest import optional

optional("pettingzoo", "envs")

with warnings.catch_warnings():  # pettingzoo.test loads example envs of PettingZoo's old API
    warnings.simplefilter("ignore", DeprecationWarning)
    from pettingzoo.test import (
        api_test,
        max_cycles_test,
        parallel_api_test,
        parallel_seed_test,
        render_test,
        seed_test,
    )

from pacman import GameState, Outcome, load_layout, parse_layout, run_game  # noqa: E402
from pacman.envs import ACTIONS, pz_env  # noqa: E402
from pacman.envs.pz_env import PacmanAECEnv, PacmanParallelEnv, env, parallel_env  # noqa: E402

#: PettingZoo's api_test recommends names like "player_0"; the Pacman agent is "pacman"
NAMING = 'We recommend agents to be named in the format <descriptor>_<number>, like "player_0"'


@pytest.fixture
def caught() -> Iterator[list[warnings.WarningMessage]]:
    with warnings.catch_warnings(record=True) as found:
        warnings.simplefilter("always")
        yield found


def messages(found: list[warnings.WarningMessage]) -> set[str]:
    return {str(warning.message) for warning in found}


@pytest.mark.parametrize("layout", ["mediumClassic", "testClassic"])
def test_pettingzoos_aec_api_test_passes(layout: str, caught: list[Any]) -> None:
    api_test(env(layout=layout), num_cycles=300)
    assert messages(caught) == {NAMING}


@pytest.mark.parametrize("layout", ["mediumClassic", "testClassic"])
def test_pettingzoos_parallel_api_test_passes(layout: str, caught: list[Any]) -> None:
    parallel_api_test(parallel_env(layout=layout), num_cycles=300)
    assert messages(caught) == set()


def test_pettingzoos_seed_tests_pass(caught: list[Any]) -> None:
    seed_test(lambda: env(layout="smallClassic"), num_cycles=200)
    parallel_seed_test(lambda: parallel_env(layout="smallClassic"), num_cycles=200)
    assert messages(caught) == set()


def test_pettingzoos_max_cycles_and_render_tests_pass(monkeypatch: pytest.MonkeyPatch,
                                                      caught: list[Any]) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")  # the "human" window, drawn nowhere
    max_cycles_test(pz_env)  # it calls pz_env.env(max_cycles=...) and pz_env.parallel_env(...)
    render_test(lambda render_mode=None: env(layout="testClassic", render_mode=render_mode))
    assert messages(caught) == set()


def test_the_agents_spaces_and_first_observations() -> None:
    aec = env(layout="smallClassic")
    assert aec.possible_agents == ["pacman", "ghost_1", "ghost_2"]
    assert aec.agent_selection == "pacman"
    for name in aec.possible_agents:
        assert aec.observation_space(name).shape == (7, 7, 20)
        assert aec.action_space(name).n == 5
    pacman, ghost = aec.observe("pacman"), aec.observe("ghost_1")
    assert np.array_equal(pacman[:6], ghost[:6])
    assert np.array_equal(pacman[6], pacman[3])  # its own cell: Pacman's
    x, y = load_layout("smallClassic").ghost_starts[0]
    assert list(zip(*np.nonzero(ghost[6]))) == [(7 - 1 - y, x)]
    assert aec.infos["pacman"]["action_mask"].dtype == np.int8
    assert isinstance(aec.infos["ghost_1"]["state"], GameState)


def test_aec_turns_rewards_and_masks() -> None:
    aec = env(layout="testClassic")
    east = ACTIONS.index("East")
    aec.step(east)  # Pacman (1, 1) -> (2, 1): no food there
    assert aec.agent_selection == "ghost_1"
    assert aec.rewards == {"pacman": -1.0, "ghost_1": 1.0}
    state = aec.infos["ghost_1"]["state"]
    legal = [ACTIONS.index(a) for a in state.legal_actions(1)]
    assert np.flatnonzero(aec.infos["ghost_1"]["action_mask"]).tolist() == sorted(legal)
    aec.step(legal[0])
    assert aec.agent_selection == "pacman"
    # each agent's reward since its own last move: the ghost's move scored nothing
    assert aec._cumulative_rewards == {"pacman": -1.0, "ghost_1": 0.0}
    assert aec.last()[1] == -1.0


def test_an_illegal_pacman_action_plays_stop_and_a_ghosts_its_first_canonical_move() -> None:
    layout = parse_layout("%%%%%%%\n%P . G%\n%%%%%%%\n")
    game = parallel_env(layout=layout)
    _, infos = game.reset()
    start = infos["pacman"]["state"]
    # Pacman cannot go North; the ghost, facing Stop at (5, 1), may only go West
    _, rewards, *_ = game.step({"pacman": ACTIONS.index("North"),
                                "ghost_1": ACTIONS.index("East")})
    state = game.game.state
    assert state == start.successor(0, "Stop").successor(1, "West")
    assert rewards == {"pacman": -1.0, "ghost_1": 1.0}


def test_a_game_won_by_pacmans_own_move_ends_before_the_ghosts_move() -> None:
    layout = parse_layout("%%%%%%\n%P. G%\n%%%%%%\n")
    for kind in ("parallel", "aec"):
        if kind == "parallel":
            game = parallel_env(layout=layout)
            game.reset()
            _, rewards, terminations, truncations, infos = game.step(
                {"pacman": ACTIONS.index("East"), "ghost_1": ACTIONS.index("West")})
            assert game.agents == []
        else:
            aec = env(layout=layout)
            aec.step(ACTIONS.index("East"))
            rewards, terminations, truncations, infos = (
                dict(aec._cumulative_rewards), dict(aec.terminations), dict(aec.truncations),
                dict(aec.infos))
            assert aec.agent_selection == "ghost_1"
            aec.step(None)
            aec.step(None)
            assert aec.agents == []
        assert rewards == {"pacman": 509.0, "ghost_1": -509.0}
        assert terminations == {"pacman": True, "ghost_1": True}
        assert truncations == {"pacman": False, "ghost_1": False}
        state = infos["ghost_1"]["state"]
        assert state.is_win() and state.ghost_positions == ((4, 1),)
        assert infos["pacman"]["action_mask"].tolist() == [0, 0, 0, 0, 0]


def test_max_cycles_truncates_after_whole_rounds() -> None:
    stop = ACTIONS.index("Stop")
    game = parallel_env(layout="testClassic", num_ghosts=0, max_cycles=2)
    game.reset()
    assert game.step({"pacman": stop})[3] == {"pacman": False}
    assert game.step({"pacman": stop})[3] == {"pacman": True}
    assert game.agents == []
    aec = env(layout="smallClassic", max_cycles=1)
    for name in ("pacman", "ghost_1"):
        assert aec.agent_selection == name
        aec.step(stop if name == "pacman" else int(
            np.flatnonzero(aec.infos[name]["action_mask"])[0]))
        assert not any(aec.truncations.values())
    aec.step(int(np.flatnonzero(aec.infos["ghost_2"]["action_mask"])[0]))
    assert all(aec.truncations.values()) and not any(aec.terminations.values())


def test_bad_arguments_are_value_errors() -> None:
    with pytest.raises(ValueError, match="max_cycles must be a whole number >= 1, got 0"):
        env(max_cycles=0)
    with pytest.raises(ValueError, match=r"num_ghosts must be a whole number from 0 to 1"):
        parallel_env(layout="testClassic", num_ghosts=2)
    game = parallel_env(layout="smallClassic")
    game.reset()
    with pytest.raises(ValueError, match="no action for ghost_2"):
        game.step({"pacman": 0, "ghost_1": 0})


class Scripted:
    """Plays a fixed list of moves."""

    def __init__(self, moves: list[str]) -> None:
        self.moves = moves

    def get_action(self, state: GameState) -> str:
        return self.moves.pop(0)


def episode(make: Callable[[], PacmanParallelEnv | PacmanAECEnv], seed: int,
            masked: bool) -> tuple[list[dict[str, int]], dict[str, float], GameState]:
    """One episode with actions sampled from action spaces seeded with `seed` (masked or not):
    the joint actions, the total rewards, the last state."""
    game = make()
    spaces = {name: game.action_space(name) for name in game.possible_agents}
    for offset, space in enumerate(spaces.values()):
        space.seed(seed + offset)
    totals = dict.fromkeys(game.possible_agents, 0.0)
    joint: list[dict[str, int]] = []
    if isinstance(game, PacmanParallelEnv):
        _, infos = game.reset(seed=seed)
        while game.agents:
            actions = {name: int(spaces[name].sample(infos[name]["action_mask"] if masked
                                                     else None)) for name in game.agents}
            joint.append(actions)
            _, rewards, _, _, infos = game.step(actions)
            for name, reward in rewards.items():
                totals[name] += reward
        return joint, totals, game.game.state
    game.reset(seed=seed)
    for name in game.agent_iter():
        _, reward, terminated, truncated, info = game.last()
        totals[name] += reward
        if terminated or truncated:
            game.step(None)
            continue
        action = int(spaces[name].sample(info["action_mask"] if masked else None))
        if name == "pacman":
            joint.append({})
        joint[-1][name] = action
        game.step(action)
    return joint, totals, game.game.state


@pytest.mark.parametrize("layout", ["smallClassic", "minimaxClassic", "trappedClassic"])
def test_seeded_episodes_repeat_and_agree_between_aec_and_parallel(layout: str) -> None:
    for seed in range(4):
        runs = [episode(lambda: parallel_env(layout=layout, max_cycles=200), seed, False),
                episode(lambda: parallel_env(layout=layout, max_cycles=200), seed, False),
                episode(lambda: env(layout=layout, max_cycles=200), seed, False)]
        assert runs[0][0] == runs[1][0]
        # the AEC env plays no ghost move after a game-ending Pacman move: the parallel env
        # got one in its last dict, unused
        assert [{k: v for k, v in step.items() if k in aec} for step, aec in zip(
            runs[0][0], runs[2][0])] == runs[2][0]
        assert runs[0][1] == runs[1][1] == runs[2][1]
        assert runs[0][2] == runs[1][2] == runs[2][2]
        state = runs[0][2]
        assert runs[0][1]["pacman"] == state.score
        assert all(total == -state.score for name, total in runs[0][1].items()
                   if name != "pacman")


@pytest.mark.parametrize(("layout", "cycles"), [
    ("smallClassic", 150), ("minimaxClassic", 150), ("testClassic", 25), ("openClassic", 25)])
def test_masked_seeded_episodes_are_the_games_run_game_plays(layout: str, cycles: int) -> None:
    # losses on the first three, some games capped on the last two
    for seed in range(5):
        joint, totals, state = episode(lambda: parallel_env(layout=layout, max_cycles=cycles),
                                       seed, True)
        names = ["pacman", *(f"ghost_{i}" for i in range(1, state.num_agents))]
        played = [ACTIONS[step[name]].value for step in joint for name in names
                  if name in step]
        scripts = [[ACTIONS[step[name]].value for step in joint if name in step]
                   for name in names]
        record = run_game(load_layout(layout), Scripted(scripts[0]),
                          [Scripted(moves) for moves in scripts[1:]], seed=seed, max_moves=cycles)
        expected = {Outcome.WIN: state.is_win(), Outcome.LOSS: state.is_lose(),
                    Outcome.CAPPED: not state.is_terminal()}
        assert expected[record.outcome]
        assert record.actions == tuple(played[:len(record.actions)])
        assert record.score == state.score == totals["pacman"]
