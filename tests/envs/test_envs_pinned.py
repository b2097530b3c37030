"""The envs' episodes pinned: a digest of everything the Gymnasium and PettingZoo envs return
(observations, rewards, ends, infos, masks, seeds, the states in the infos) over a few
thousand steps of fixed seeds, taken from the code as it was before the env was made faster.
A change that alters any byte an env hands out changes a digest; one that only makes the env
faster leaves them all equal. The observation grids are also checked against a plain reference
drawing of each state, in an order that jumps between games (the encoder keeps what it drew
last)."""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import numpy as np
import pytest

from conftest import optional

optional("gymnasium", "envs")
optional("pettingzoo", "envs")

from pacman import GameState  # noqa: E402
from pacman.envs.common import ACTIONS, GridEncoder, action_mask, sendable  # noqa: E402
from pacman.envs.gym_env import PacmanEnv  # noqa: E402
from pacman.envs.pz_env import PacmanAECEnv, PacmanParallelEnv  # noqa: E402


class Digest:
    """A sha256 of the values fed to it, each written out exactly (arrays with their dtype
    and shape, states by their fields)."""

    def __init__(self) -> None:
        self.hash = hashlib.sha256()

    def add(self, value: Any) -> None:
        self.hash.update(json.dumps(self.plain(value), sort_keys=True).encode())

    def plain(self, value: Any) -> Any:
        if isinstance(value, np.ndarray):
            return ["array", str(value.dtype), list(value.shape), value.tobytes().hex(),
                    value.flags.c_contiguous]
        if isinstance(value, GameState):
            return ["state", type(value).__name__, value.compact()]
        if isinstance(value, dict):
            return {str(key): self.plain(item) for key, item in value.items()}
        if isinstance(value, (list, tuple)):
            return [type(value).__name__, *(self.plain(item) for item in value)]
        if isinstance(value, (bool, np.bool_)):
            return ["bool", bool(value)]
        if isinstance(value, (float, np.floating)):
            return ["float", type(value).__name__, repr(float(value))]
        if isinstance(value, (int, np.integer)):
            return ["int", type(value).__name__, int(value)]
        return [type(value).__name__, str(value)]


def pick(rng: random.Random, mask: np.ndarray) -> int:
    """Mostly a legal action from the mask, now and then any action (an illegal one plays
    Stop, or a ghost's first legal action)."""
    legal = np.flatnonzero(mask).tolist()
    if not legal or rng.random() < 0.15:
        return rng.randrange(5)
    return int(rng.choice(legal))


def gym_digest(layout: str, ghost: str, seed: int, steps: int, **settings: Any) -> str:
    env = PacmanEnv(layout=layout, ghost=ghost, **settings)
    rng, digest = random.Random(seed), Digest()
    observation, info = env.reset(seed=seed)
    digest.add([observation, info])
    for _ in range(steps):
        result = env.step(pick(rng, info["action_mask"]))
        digest.add(result)
        observation, _, terminated, truncated, info = result
        if terminated or truncated:
            observation, info = env.reset()
            digest.add([observation, info])
    return digest.hash.hexdigest()


def parallel_digest(layout: str, seed: int, steps: int, **settings: Any) -> str:
    env = PacmanParallelEnv(layout=layout, **settings)
    rng, digest = random.Random(seed), Digest()
    observations, infos = env.reset(seed=seed)
    digest.add([observations, infos, env.state()])
    for _ in range(steps):
        if not env.agents:
            observations, infos = env.reset()
            digest.add([observations, infos, env.state()])
        result = env.step({name: pick(rng, infos[name]["action_mask"]) for name in env.agents})
        digest.add([result, env.state()])
        infos = result[4]
    return digest.hash.hexdigest()


def aec_digest(layout: str, seed: int, steps: int, **settings: Any) -> str:
    env = PacmanAECEnv(layout=layout, **settings)
    rng, digest = random.Random(seed), Digest()
    env.reset(seed=seed)
    for _ in range(steps):
        if not env.agents:
            env.reset()
        name = env.agent_selection
        observation, reward, terminated, truncated, info = env.last()
        digest.add([name, observation, reward, terminated, truncated, info,
                    env.observe("pacman"), env.rewards, env.infos])
        env.step(None if terminated or truncated else pick(rng, info["action_mask"]))
    return digest.hash.hexdigest()


#: (layout, ghost, seed, steps, settings) and the digest, taken before the env was made faster;
#: between them they play wins, losses, truncations, capsules, scared ghosts half-way between
#: cells and an eaten ghost
GYM_PINS = [
    (("smallClassic", "DirectionalGhost", 0, 3000, {}),
     "a61218b727ab22211b579e49fe66816145de631c96b3da8646767a951ce45d09"),
    (("mediumClassic", "RandomGhost", 1, 3000, {"max_moves": 60}),
     "214635a2a4cb4ec47007c11bbaac45b36e33c566eeb9f1d2522bfd6ac0aeb54a"),
    (("powerClassic", "DirectionalGhost", 2, 2000, {"num_ghosts": 1, "state_in_info": False}),
     "7a4282b0f56fc0b938af1a040a8beac597b5284fd674049da4c6eb5020453b5a"),
    (("minimaxClassic", "DirectionalGhost", 3, 1000, {"ghost_settings": {"prob_attack": 0.5}}),
     "2343c5da4c7cd8053cd98533fbc749c45ec3d36881aa89376f5fe74d538a7242"),
    (("testClassic", "RandomGhost", 4, 500, {"num_ghosts": 0}),
     "d6a818dcdddc2a0e6c7e08f820155c49466e71feb0c026d4fb2150c7ab2bfed9"),
]

#: (layout, seed, steps, settings) and the Parallel env's digest, then the AEC env's
PZ_PINS = [
    (("smallClassic", 0, 1500, {}),
     "30748eb99a78b14b72fd42d9a3c674344d6af9f8749d80e00df0fa72ab095a6b",
     "0d6d47649c24d3c919f3878e2e4ddd404c45b64340a60716095cc29134cb2c87"),
    (("mediumClassic", 1, 1500, {"max_cycles": 40}),
     "4423e30029ee5d3137b23f4e62c6a51765566d011e7a753d40ec0d9f686481fc",
     "448094a819d68c541bcdf63d0d6112f348587397272e933dde9e7eef82689633"),
    (("powerClassic", 2, 1000, {"num_ghosts": 1}),
     "2d2b4ab606cbe0a652e04947f6ad59d3c4d2dd1516a30dc261cde1cab438f8d2",
     "e5e1a7da6d1762b7e62c738cf7df624e2286f9e62378161f72eb336f5b4bfda6"),
]


@pytest.mark.parametrize(("case", "expected"), GYM_PINS)
def test_gymnasium_episodes_are_as_pinned(case: tuple[Any, ...], expected: str) -> None:
    layout, ghost, seed, steps, settings = case
    assert gym_digest(layout, ghost, seed, steps, **settings) == expected


@pytest.mark.parametrize(("case", "parallel", "aec"), PZ_PINS)
def test_pettingzoo_episodes_are_as_pinned(case: tuple[Any, ...], parallel: str, aec: str
                                           ) -> None:
    layout, seed, steps, settings = case
    assert parallel_digest(layout, seed, steps, **settings) == parallel
    assert aec_digest(layout, seed, steps, **settings) == aec


def reference_grids(state: GameState, self_agent: int | None) -> np.ndarray:
    """The observation of `state` drawn cell by cell from the docs' definition."""
    height = state.height
    grids = np.zeros((6 if self_agent is None else 7, height, state.width), dtype=np.uint8)

    def mark(channel: int, point: tuple[float, float]) -> None:
        grids[channel, height - 1 - int(point[1] + 0.5), int(point[0] + 0.5)] = 1

    for channel, cells in ((0, state.walls), (1, state.food_positions),
                           (2, state.capsule_positions), (3, [state.pacman_position])):
        for cell in cells:
            mark(channel, cell)
    for point, timer in zip(state.ghost_positions, state.scared_timers):
        mark(5 if timer > 0 else 4, point)
    if self_agent is not None:
        mark(6, state.agent_position(self_agent))
    return grids


def test_the_grids_are_the_reference_drawing_in_any_order() -> None:
    env = PacmanEnv(layout="powerClassic", ghost="DirectionalGhost", num_ghosts=1)
    rng = random.Random(0)
    _, info = env.reset(seed=0)
    states = [env.state]
    while len(states) < 2000:  # a few hundred games: scared ghosts, eaten capsules, ends
        _, _, terminated, truncated, info = env.step(pick(rng, info["action_mask"]))
        states.append(env.state)
        if terminated or truncated:
            _, info = env.reset()
    assert any(timer > 0 for state in states for timer in state.scared_timers)
    random.Random(0).shuffle(states)
    plain, own = GridEncoder(env.layout), GridEncoder(env.layout, extra_self=True)
    for number, state in enumerate(states):
        grids = plain.encode(state)
        assert grids.flags.c_contiguous and grids.dtype == np.uint8
        assert np.array_equal(grids, reference_grids(state, None))
        agent = number % state.num_agents
        assert np.array_equal(own.encode(state, agent), reference_grids(state, agent))
    again = plain.encode(states[0])
    again[:] = 0  # a grid handed out is the caller's: changing it changes no later grid
    assert np.array_equal(plain.encode(states[0]), reference_grids(states[0], None))


def test_the_state_in_the_info_has_every_field_of_the_state() -> None:
    env = PacmanEnv(layout="powerClassic", ghost="DirectionalGhost", num_ghosts=1)
    env.reset(seed=0)
    state = env.step(ACTIONS.index("East"))[4]["state"]
    hash(env.state)  # the cached hash is a field too
    sent = sendable(env.state)
    assert sent is not env.state and sent == env.state
    for name in GameState.__slots__:
        assert getattr(sent, name) is getattr(env.state, name), name
    assert state == env.state


def test_each_mask_is_a_new_writable_array() -> None:
    env = PacmanEnv(layout="smallClassic")
    env.reset(seed=0)
    first, second = action_mask(env.state, 0), action_mask(env.state, 0)
    assert first is not second and first.flags.writeable and first.flags.owndata
    first[:] = 0
    assert second.tolist() == action_mask(env.state, 0).tolist() == [0, 0, 1, 1, 1]
