"""The Gymnasium env: the API checker, the spaces, masks, rewards, ends, rendering, and episodes
equal to `run_game` for the same seed and Pacman moves."""

from __future__ import annotations

import subprocess
import sys
import warnings
from typing import Any

import numpy as np
import pytest

from conftest import optional

gymnasium = optional("gymnasium", "envs")

from pacman import GameState, Outcome, load_layout, parse_layout, run_game  # noqa: E402
from pacman.agents.ghosts import DirectionalGhost, RandomGhost  # noqa: E402
from pacman.agents.pacman_agents import AlphaBetaAgent  # noqa: E402
from pacman.agents.simple import RandomAgent  # noqa: E402
from pacman.envs import ACTIONS, ENV_ID  # noqa: E402
from pacman.envs.gym_env import PacmanEnv  # noqa: E402

ALL_ACTIONS = ("North", "South", "East", "West", "Stop")


@pytest.fixture
def dummy_video(monkeypatch: pytest.MonkeyPatch) -> None:
    """The "human" window drawn where nobody sees it (SDL's dummy video driver)."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")


def checked(**kwargs: Any) -> None:
    """`check_env` on a made env, any warning failing the test. The checker also builds the
    env in every other render mode of its metadata, the window included."""
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make(ENV_ID, **kwargs).unwrapped
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env)
    env.close()


def test_the_api_checker_passes_without_rendering(dummy_video: None) -> None:
    checked(layout="mediumClassic")


def test_the_api_checker_passes_with_rgb_frames(dummy_video: None) -> None:
    checked(layout="testClassic", render_mode="rgb_array")


def test_the_api_checker_passes_with_the_window(dummy_video: None) -> None:
    checked(layout="testClassic", render_mode="human")


def test_make_finds_the_env_by_its_module_prefixed_id() -> None:
    env = gymnasium.make("pacman.envs:pacman/Pacman-v0", layout="testClassic")
    observation, info = env.reset(seed=3)
    assert env.spec is not None and env.spec.id == "pacman/Pacman-v0"
    assert observation.shape == (6, 10, 5) and observation.dtype == np.uint8
    assert info["seed"] == 3
    env.close()


def test_the_actions_and_spaces() -> None:
    env = PacmanEnv(layout="mediumClassic")
    assert tuple(a.value for a in ACTIONS) == ALL_ACTIONS
    assert env.action_space == gymnasium.spaces.Discrete(5)
    assert env.observation_space.shape == (6, 11, 20)
    assert env.observation_space.dtype == np.uint8
    assert env.metadata == {"render_modes": ["human", "rgb_array"], "render_fps": 10}


def test_the_observation_grids_of_the_first_state() -> None:
    env = PacmanEnv(layout="testClassic")
    observation, info = env.reset(seed=0)
    layout = load_layout("testClassic")
    walls, food, capsules, pacman, ghosts, scared = observation
    assert walls.sum() == len(layout.walls) and food.sum() == len(layout.food) == 8
    assert capsules.sum() == 0 and scared.sum() == 0
    # cell (x, y) is row H - 1 - y: Pacman starts at (1, 1), the ghost at (2, 7)
    assert list(zip(*np.nonzero(pacman))) == [(8, 1)]
    assert list(zip(*np.nonzero(ghosts))) == [(2, 2)]
    assert walls[0].tolist() == [1, 1, 1, 1, 1] and walls[1].tolist() == [1, 0, 0, 0, 1]
    text = [line for line in str(layout).splitlines() if line.strip()]
    assert [[int(ch == ".") for ch in row] for row in text] == food.tolist()
    assert isinstance(info["state"], GameState)


def test_a_capsule_makes_the_ghosts_scared_in_their_own_channel() -> None:
    layout = parse_layout("%%%%%%%%\n%Po  .G%\n%%%%%%%%\n")
    env = PacmanEnv(layout=layout, ghost="RandomGhost")
    observation, _ = env.reset(seed=0)
    assert observation[2, 1].tolist() == [0, 0, 1, 0, 0, 0, 0, 0]
    observation, reward, *_ = env.step(ACTIONS.index("East"))
    assert observation[2].sum() == 0 and observation[4].sum() == 0
    assert observation[5].sum() == 1 and reward == -1.0


def test_the_mask_marks_the_legal_actions_and_an_illegal_action_plays_stop() -> None:
    env = PacmanEnv(layout="testClassic", num_ghosts=0)
    _, info = env.reset(seed=0)
    mask = info["action_mask"]
    assert mask.dtype == np.int8 and mask.shape == (5,)
    assert mask.tolist() == [1, 0, 1, 0, 1]  # at (1, 1): North, East, Stop
    before = info["state"]
    _, reward, terminated, truncated, info = env.step(ACTIONS.index("West"))  # into a wall
    assert info["moves"] == ("Stop",)
    assert info["state"].pacman_position == before.pacman_position == (1, 1)
    assert (reward, terminated, truncated) == (-1.0, False, False)


def test_rewards_add_up_to_the_score_and_a_loss_terminates() -> None:
    env = PacmanEnv(layout="testClassic", ghost="DirectionalGhost",
                    ghost_settings={"prob_attack": 1.0})
    _, info = env.reset(seed=0)
    total, steps, terminated, truncated = 0.0, 0, False, False
    while not (terminated or truncated):
        _, reward, terminated, truncated, info = env.step(ACTIONS.index("Stop"))
        total += reward
        steps += 1
    assert terminated and not truncated and info["state"].is_lose()
    assert total == info["score"] == -500 - steps
    with pytest.raises(RuntimeError, match=r"the game is over: call reset\(\)"):
        env.step(0)


def test_the_episode_is_truncated_after_max_moves() -> None:
    env = PacmanEnv(layout="testClassic", num_ghosts=0, max_moves=3)
    env.reset(seed=0)
    ends = [env.step(ACTIONS.index("Stop"))[2:4] for _ in range(3)]
    assert ends == [(False, False), (False, False), (False, True)]


def test_a_win_terminates() -> None:
    layout = parse_layout("%%%%%\n%P..%\n%%%%%\n")
    env = PacmanEnv(layout=layout)
    env.reset(seed=0)
    east = ACTIONS.index("East")
    assert env.step(east)[1:4] == (9.0, False, False)
    _, reward, terminated, truncated, info = env.step(east)
    assert (reward, terminated, truncated) == (509.0, True, False)
    assert info["state"].is_win() and info["action_mask"].tolist() == [0, 0, 0, 0, 0]


def play_env(layout: str, seed: int, pacman: Any, ghost: str, share_rng: bool,
             max_moves: int) -> tuple[tuple[str, ...], int, Outcome]:
    """An episode of the env with Pacman's moves from `pacman` reading `info["state"]`."""
    env = PacmanEnv(layout=layout, ghost=ghost, max_moves=max_moves)
    _, info = env.reset(seed=seed)
    if share_rng:
        pacman.set_rng(env.game_rng)
    actions: list[str] = []
    terminated = truncated = False
    while not (terminated or truncated):
        move = pacman.get_action(info["state"])
        _, _, terminated, truncated, info = env.step(ACTIONS.index(move))
        actions += info["moves"]
    state = info["state"]
    outcome = Outcome.CAPPED if truncated else (Outcome.WIN if state.is_win() else Outcome.LOSS)
    return tuple(actions), state.score, outcome


@pytest.mark.parametrize("layout", ["smallClassic", "minimaxClassic"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_an_episode_is_the_game_run_game_plays_with_the_same_seed(layout: str, seed: int
                                                                  ) -> None:
    moves = 150
    record = run_game(load_layout(layout), AlphaBetaAgent(depth=2),
                      [RandomGhost(i + 1) for i in range(len(load_layout(layout).ghost_starts))],
                      seed=seed, max_moves=moves)
    actions, score, outcome = play_env(layout, seed, AlphaBetaAgent(depth=2), "RandomGhost",
                                       False, moves)
    assert len(record.actions) > 10  # wins, losses and a capped game among these
    assert actions == record.actions
    assert (score, outcome) == (record.score, record.outcome)


@pytest.mark.parametrize("seed", [4, 5])
def test_a_random_pacman_sharing_the_game_generator_plays_the_run_game_game(seed: int) -> None:
    layout = load_layout("smallClassic")
    record = run_game(layout, RandomAgent(), [DirectionalGhost(1), DirectionalGhost(2)],
                      seed=seed, max_moves=300)
    actions, score, outcome = play_env("smallClassic", seed, RandomAgent(), "DirectionalGhost",
                                       True, 300)
    assert len(record.actions) > 20
    assert actions == record.actions
    assert (score, outcome) == (record.score, record.outcome)


def test_without_a_seed_the_game_seeds_follow_the_first_seed() -> None:
    seeds = []
    for _ in range(2):
        env = PacmanEnv(layout="testClassic")
        env.reset(seed=7)
        seeds.append([env.reset()[1]["seed"] for _ in range(3)])
    assert seeds[0] == seeds[1] and len(set(seeds[0])) == 3


def test_an_rgb_frame_is_the_renderers_frame() -> None:
    from pacman.display.protocol import MoveInfo
    from pacman.display.render import Renderer, render_frame

    env = PacmanEnv(layout="smallClassic", render_mode="rgb_array")
    env.reset(seed=0)
    first = env.render()
    assert first is not None and first.dtype == np.uint8 and first.ndim == 3
    agents = ("PacmanEnv", "RandomGhost", "RandomGhost")
    assert np.array_equal(first, render_frame(env.state, agents=agents))
    env.step(ACTIONS.index("West"))
    env.step(ACTIONS.index("West"))
    frame = env.render()
    expected = Renderer(env.layout).render(env.state, agents, MoveInfo(0, "", 0.0, None, 2))
    assert frame is not None and np.array_equal(frame, expected)  # "Moves: 2" in the bar
    assert not np.array_equal(frame, first)


def test_the_window_draws_each_step(dummy_video: None) -> None:
    env = PacmanEnv(layout="testClassic", render_mode="human")
    env.reset(seed=0)
    window = env.screen._window
    first = window.frames_drawn
    env.step(ACTIONS.index("North"))
    assert window.frames_drawn > first and window.state == env.state
    assert env.render() is None
    env.close()
    assert env.screen._window is None


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"layout": "noSuchLayout"}, "no such layout"),
    ({"num_ghosts": 5}, r"num_ghosts must be a whole number from 0 to 2 \(the ghosts of layout "
                        r"smallClassic\), got 5"),
    ({"ghost": "NoSuchGhost"}, "unknown ghost agent 'NoSuchGhost'"),
    ({"max_moves": 0}, "max_moves must be a whole number >= 1 or None, got 0"),
    ({"render_mode": "ansi"}, r"render_mode must be one of \['human', 'rgb_array'\] or None"),
])
def test_bad_arguments_are_value_errors(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        PacmanEnv(**kwargs)


def test_each_reset_builds_fresh_ghosts_with_their_settings_and_the_game_generator() -> None:
    env = PacmanEnv(layout="smallClassic", ghost="DirectionalGhost",
                    ghost_settings={"prob_attack": 0.5})
    env.reset(seed=0)
    first = env.ghosts
    env.reset(seed=0)
    assert [type(ghost) for ghost in env.ghosts] == [DirectionalGhost] * 2
    assert [ghost.index for ghost in env.ghosts] == [1, 2]
    assert all(old is not new for old, new in zip(first, env.ghosts))
    assert all(ghost.prob_attack == 0.5 and ghost.rng is env.game_rng for ghost in env.ghosts)


def test_a_ghost_class_of_a_users_file_is_built_afresh_at_each_reset(tmp_path: Any) -> None:
    path = tmp_path / "my_ghosts.py"
    path.write_text("from pacman.agents.ghosts import RandomGhost\n\n"
                    "class CountedGhost(RandomGhost):\n"
                    "    built = []\n\n"
                    "    def __init__(self, *args, **kwargs):\n"
                    "        super().__init__(*args, **kwargs)\n"
                    "        CountedGhost.built.append(self)\n")
    env = PacmanEnv(layout="smallClassic", ghost=f"{path}:CountedGhost")
    built = type(env.ghosts[0]).built
    assert built == env.ghosts  # the ghosts that check the name and settings
    for seed in (1, 2):
        env.reset(seed=seed)
        assert built[-2:] == env.ghosts and [ghost.index for ghost in env.ghosts] == [1, 2]
    assert len(built) == 6


def test_the_state_in_info_pickles_without_its_maze_tables() -> None:
    import pickle

    env = PacmanEnv(layout="mediumClassic")
    env.reset(seed=0)
    state = env.step(ACTIONS.index("West"))[4]["state"]
    data = pickle.dumps(state)
    assert len(data) < 5_000 < len(pickle.dumps(GameState.initial(env.layout)))
    copy = pickle.loads(data)
    assert type(copy) is GameState and copy == state and hash(copy) == hash(state)
    assert copy.maze is state.maze  # rebuilt from the layout: this process's cached maze
    assert copy.successor(1, copy.legal_actions(1)[0]) == state.successor(
        1, state.legal_actions(1)[0])


def test_vector_env_workers_import_the_env_by_its_id() -> None:
    envs = gymnasium.vector.AsyncVectorEnv(
        [lambda: gymnasium.make("pacman.envs:pacman/Pacman-v0", layout="testClassic")] * 2,
        context="spawn")
    try:
        observations, infos = envs.reset(seed=[1, 2])
        assert observations.shape == (2, 6, 10, 5)
        assert infos["action_mask"].tolist() == [[1, 0, 1, 0, 1]] * 2
        assert [state.pacman_position for state in infos["state"]] == [(1, 1)] * 2
        observations, rewards, *_ = envs.step(np.array([0, 4]))
        assert rewards.tolist() in ([-1.0, -1.0], [9.0, -1.0])
    finally:
        envs.close()


def test_without_the_extra_the_import_names_it() -> None:
    code = ("import sys; sys.modules['gymnasium'] = None\n"
            "try:\n    import pacman.envs\nexcept ImportError as e:\n    print(e)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    from pacman.extras import install_command

    assert done.stdout == ("pacman.envs needs the envs extra (gymnasium is missing): "
                           f"{install_command('envs')}\n")
