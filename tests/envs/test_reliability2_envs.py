"""Issue 27 item 14: the envs refuse what Gymnasium and PettingZoo users must not do, in one
clear error, before anything is played: actions outside `Discrete(5)`, a step before `reset` or
after the episode ended, and bad constructor settings (checked once, when the env is made)."""

from __future__ import annotations

import enum
import math
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from conftest import optional

gymnasium = optional("gymnasium", "envs")
optional("pettingzoo", "envs")

from pacman import parse_layout  # noqa: E402
from pacman.envs import ACTIONS, ENV_ID  # noqa: E402
from pacman.envs.gym_env import PacmanEnv  # noqa: E402
from pacman.envs.pz_env import PacmanAECEnv, PacmanParallelEnv, env, parallel_env  # noqa: E402
from pacman.errors import (  # noqa: E402
    EnvSettingsError,
    InvalidActionError,
    LayoutError,
    PacmanError,
    RegistryError,
    ResetNeededError,
)

ROOT = Path(__file__).resolve().parents[2]
STOP, EAST, NORTH = ACTIONS.index("Stop"), ACTIONS.index("East"), ACTIONS.index("North")
SPACE = ("not in the action space Discrete(5), the ints 0 to 4 (0 North, 1 South, 2 East, "
         "3 West, 4 Stop)")


class Move(enum.IntEnum):
    """An int subclass that is not a bool: `Discrete.contains` takes it, so do the envs."""

    EAST = 2


#: values outside Discrete(5), with how the message shows them
INVALID: list[tuple[Any, str]] = [
    (-1, "-1"), (5, "5"), (2**70, str(2**70)), (1.5, "1.5"), (2.0, "2.0"),
    (np.float64(2.0), "np.float64(2.0)"), ("0", "'0'"), ("East", "'East'"),
    (np.int8(-1), "np.int8(-1)"), (np.int64(5), "np.int64(5)"), (True, "True"),
    (False, "False"), (np.bool_(True), "np.True_"), (np.array([2]), "array([2])"),
    (np.array(2.0), "array(2.)"), (np.uint64(2), "np.uint64(2)"), ([2], "[2]"),
    (None, "None"),
]
#: values inside it, with the action index they are
VALID: list[tuple[Any, int]] = [
    (0, 0), (4, 4), (np.int8(2), 2), (np.int16(3), 3), (np.int32(1), 1), (np.int64(4), 4),
    (np.uint8(2), 2), (np.uint32(0), 0), (np.array(2), 2), (np.array(3, dtype=np.int8), 3),
    (Move.EAST, 2),
]


def started(**kwargs: Any) -> PacmanEnv:
    env_ = PacmanEnv(layout="testClassic", **kwargs)
    env_.reset(seed=0)
    return env_


# --- actions -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("action", "shown"), INVALID, ids=[s for _, s in INVALID])
def test_the_gym_env_refuses_an_action_outside_the_space_and_plays_nothing(
        action: Any, shown: str) -> None:
    game = started()
    before = (game.state, game.pacman_moves)
    with pytest.raises(InvalidActionError) as raised:
        game.step(action)
    assert isinstance(raised.value, PacmanError) and isinstance(raised.value, ValueError)
    assert str(raised.value).startswith(f"invalid action {shown}: {SPACE}")
    assert "\n" not in str(raised.value)
    assert (game.state, game.pacman_moves) == before  # nothing was played
    assert game.step(NORTH)[4]["moves"][0] == "North"  # and the episode goes on


def test_the_message_says_why_a_bool_or_a_whole_float_is_refused() -> None:
    game = started()
    with pytest.raises(InvalidActionError, match=r"a bool is not an action index$"):
        game.step(True)
    with pytest.raises(InvalidActionError, match="a float is not an action index, even a whole"):
        game.step(2.0)


@pytest.mark.parametrize(("action", "index"), VALID, ids=[repr(a) for a, _ in VALID])
def test_the_gym_env_plays_python_and_numpy_integers_in_range(action: Any, index: int) -> None:
    game, twin = started(), started()
    assert game.step(action)[4]["moves"] == twin.step(index)[4]["moves"]
    assert game.state == twin.state


def test_the_actions_taken_are_gymnasiums_contains_less_the_bools() -> None:
    space = gymnasium.spaces.Discrete(5)
    for action, _ in [*INVALID, *VALID]:
        game = started()
        try:
            game.step(action)
            accepted = True
        except InvalidActionError:
            accepted = False
        expected = space.contains(action) and not isinstance(action, bool)
        assert accepted == expected, repr(action)


@pytest.mark.parametrize(("action", "shown"), INVALID[:-1], ids=[s for _, s in INVALID[:-1]])
def test_the_pettingzoo_envs_refuse_an_action_outside_the_space(action: Any, shown: str) -> None:
    aec = env(layout="testClassic")
    aec.reset()
    with pytest.raises(InvalidActionError, match=f"^invalid action {re.escape(shown)}"
                                                 " of pacman: not in the action space"):
        aec.step(action)
    assert aec.agent_selection == "pacman" and aec.game.pacman_moves == 0
    parallel = parallel_env(layout="testClassic")
    parallel.reset()
    start = parallel.game.state
    with pytest.raises(InvalidActionError, match=" of ghost_1: not in the action space"):
        parallel.step({"pacman": EAST, "ghost_1": action})  # Pacman's action is fine
    assert parallel.game.state == start  # Pacman did not move either


def test_a_live_aec_agent_stepped_with_none_is_refused() -> None:
    aec = env(layout="testClassic")
    aec.reset()
    with pytest.raises(InvalidActionError, match=r"^invalid action None of pacman: .*; None steps "
                                                 r"only an agent that is terminated or truncated$"):
        aec.step(None)
    aec.step(np.int32(STOP))  # PettingZoo's api_test steps with np.int32
    assert aec.agent_selection == "ghost_1"


def test_a_dead_aec_agent_takes_only_none_as_pettingzoo_says() -> None:
    layout = parse_layout("%%%%%%\n%P. G%\n%%%%%%\n")
    aec = env(layout=layout)
    aec.reset()
    aec.step(EAST)  # Pacman eats the last dot: a win, every agent terminated
    assert aec.agent_selection == "ghost_1" and aec.terminations["ghost_1"]
    with pytest.raises(InvalidActionError, match=r"^invalid action 3 of ghost_1: when an agent "
                                                 r"is dead, the only valid action is None "
                                                 r"\(ghost_1 is terminated: step it with None\)$"):
        aec.step(3)
    assert aec.agents == ["pacman", "ghost_1"]  # nobody removed
    aec.step(None)
    aec.step(None)
    assert aec.agents == []


def test_the_parallel_env_refuses_actions_for_no_agent_and_a_non_dict() -> None:
    game = parallel_env(layout="testClassic")
    game.reset()
    start = game.game.state
    with pytest.raises(InvalidActionError, match=r"^actions for no agent: 'ghost_9' \(the "
                                                 r"agents are pacman, ghost_1\)$"):
        game.step({"pacman": STOP, "ghost_1": 0, "ghost_9": 0})
    with pytest.raises(InvalidActionError, match=r"^actions must be a dict of agent names to "
                                                 r"actions, got list$"):
        game.step([STOP, 0])
    with pytest.raises(InvalidActionError, match=r"^no action for ghost_1$"):
        game.step({"pacman": STOP})
    assert game.game.state == start


# --- the order of calls --------------------------------------------------------------------------


def test_the_gym_env_refuses_a_step_before_reset() -> None:
    game = PacmanEnv(layout="testClassic")
    with pytest.raises(ResetNeededError,
                       match=r"^cannot call step\(\) before reset\(\)$") as raised:
        game.step(NORTH)
    assert isinstance(raised.value, RuntimeError) and isinstance(raised.value, PacmanError)
    assert game.pacman_moves == 0
    game.reset(seed=0)
    assert game.step(NORTH)[4]["moves"][0] == "North"


def test_the_gym_env_refuses_a_step_after_truncation_until_reset() -> None:
    game = started(num_ghosts=0, max_moves=2)
    assert [game.step(STOP)[2:4] for _ in range(2)] == [(False, False), (False, True)]
    state = game.state
    with pytest.raises(ResetNeededError, match=r"^the game is over: call reset\(\) \(the episode "
                                               r"was truncated after max_moves=2 Pacman moves\)$"):
        game.step(STOP)
    assert game.state == state and game.pacman_moves == 2
    game.reset(seed=0)
    assert game.step(STOP)[2:4] == (False, False)


def test_the_gym_env_says_how_a_terminated_episode_ended() -> None:
    game = PacmanEnv(layout=parse_layout("%%%%%\n%P.G%\n%%%%%\n"))
    game.reset(seed=0)
    assert game.step(EAST)[2] is True
    with pytest.raises(ResetNeededError, match=r"the episode was terminated: a win\)$"):
        game.step(EAST)


def test_the_aec_env_refuses_a_step_once_every_agent_is_done() -> None:
    aec = env(layout="testClassic", num_ghosts=0, max_cycles=1)
    aec.reset()
    aec.step(STOP)  # truncated after one round
    aec.step(None)  # removed
    assert aec.agents == []
    with pytest.raises(ResetNeededError, match=r"^the game is over: call reset\(\) \(every agent "
                                               r"is done\)$"):
        aec.step(STOP)  # was KeyError: 'pacman'
    with pytest.raises(ResetNeededError):
        aec.step(None)
    aec.reset()
    aec.step(STOP)
    assert aec.truncations == {"pacman": True}


def test_the_parallel_env_refuses_a_step_before_reset_and_after_the_end() -> None:
    game = parallel_env(layout="testClassic", num_ghosts=0, max_cycles=1)
    with pytest.raises(ResetNeededError, match=r"^cannot call step\(\) before reset\(\)$"):
        game.step({"pacman": STOP})
    game.reset()
    assert game.step({"pacman": STOP})[3] == {"pacman": True}
    with pytest.raises(ResetNeededError, match=r"^the game is over: call reset\(\)"):
        game.step({"pacman": STOP})


# --- the constructors' settings ------------------------------------------------------------------

NAN, INF = math.nan, math.inf
#: (setting, bad value, error class, message start): every setting of PacmanEnv
GYM_BAD: list[tuple[str, Any, type[PacmanError], str]] = [
    ("layout", 3, EnvSettingsError, "layout must be a layout name, a .lay path or a Layout, got 3"),
    ("layout", None, EnvSettingsError, "layout must be a layout name"),
    ("layout", "", EnvSettingsError, "layout must be a layout name"),
    ("layout", "noSuchLayout", LayoutError, "noSuchLayout"),
    ("ghost", None, EnvSettingsError,
     "ghost must be a ghost agent name (a str, e.g. 'RandomGhost'), got None"),
    ("ghost", "", EnvSettingsError, "ghost must be a ghost agent name"),
    ("ghost", 3, EnvSettingsError, "ghost must be a ghost agent name"),
    ("ghost", "NoSuchGhost", RegistryError, "unknown ghost agent 'NoSuchGhost'"),
    ("num_ghosts", -1, LayoutError, "smallClassic: num_ghosts must be a whole number from 0 to 2"),
    ("num_ghosts", 3, LayoutError, "smallClassic: num_ghosts must be a whole number"),
    ("num_ghosts", True, LayoutError, "smallClassic: num_ghosts must be a whole number"),
    ("num_ghosts", 1.0, LayoutError, "smallClassic: num_ghosts must be a whole number"),
    ("num_ghosts", "1", LayoutError, "smallClassic: num_ghosts must be a whole number"),
    ("max_moves", 0, EnvSettingsError, "max_moves must be a whole number >= 1 or None, got 0"),
    ("max_moves", -3, EnvSettingsError, "max_moves must be a whole number >= 1 or None"),
    ("max_moves", True, EnvSettingsError, "max_moves must be a whole number >= 1 or None"),
    ("max_moves", 2.0, EnvSettingsError, "max_moves must be a whole number >= 1 or None"),
    ("max_moves", "10", EnvSettingsError, "max_moves must be a whole number >= 1 or None"),
    ("render_mode", "ansi", EnvSettingsError,
     "render_mode must be one of ['human', 'rgb_array'] or None, got 'ansi'"),
    ("render_mode", 1, EnvSettingsError, "render_mode must be one of"),
    ("render_mode", ["human"], EnvSettingsError, "render_mode must be one of"),
    ("ghost_settings", [1], EnvSettingsError,
     "ghost_settings must be a dict of setting names to values or None, got [1]"),
    ("ghost_settings", "prob_attack=1", EnvSettingsError, "ghost_settings must be a dict"),
    ("ghost_settings", {1: 2}, EnvSettingsError, "ghost_settings must be a dict"),
    ("ghost_settings", {"no_such": 1}, RegistryError,
     "bad settings for RandomGhost: unknown setting 'no_such'"),
    ("state_in_info", "yes", EnvSettingsError, "state_in_info must be True or False, got 'yes'"),
    ("state_in_info", 1, EnvSettingsError, "state_in_info must be True or False"),
    ("state_in_info", None, EnvSettingsError, "state_in_info must be True or False"),
    ("zoom", 0, EnvSettingsError, "zoom must be a number from 0.25 to 8, got 0"),
    ("zoom", -1.0, EnvSettingsError, "zoom must be a number from 0.25 to 8"),
    ("zoom", 0.1, EnvSettingsError, "zoom must be a number from 0.25 to 8"),
    ("zoom", 100, EnvSettingsError, "zoom must be a number from 0.25 to 8"),
    ("zoom", NAN, EnvSettingsError, "zoom must be a number from 0.25 to 8, got nan"),
    ("zoom", INF, EnvSettingsError, "zoom must be a number from 0.25 to 8"),
    ("zoom", True, EnvSettingsError, "zoom must be a number from 0.25 to 8"),
    ("zoom", "2", EnvSettingsError, "zoom must be a number from 0.25 to 8"),
]
#: the PettingZoo envs' own settings (layout, num_ghosts, render_mode and zoom as above)
PZ_BAD: list[tuple[str, Any, type[PacmanError], str]] = [
    *[row for row in GYM_BAD if row[0] in ("layout", "num_ghosts", "render_mode", "zoom")],
    ("max_cycles", 0, EnvSettingsError, "max_cycles must be a whole number >= 1, got 0"),
    ("max_cycles", None, EnvSettingsError, "max_cycles must be a whole number >= 1, got None"),
    ("max_cycles", True, EnvSettingsError, "max_cycles must be a whole number >= 1"),
    ("max_cycles", 10.0, EnvSettingsError, "max_cycles must be a whole number >= 1"),
]


def row_id(row: tuple[str, Any, type, str]) -> str:
    return f"{row[0]}={row[1]!r}"


def refused(make: Any, setting: str, value: Any, error: type[PacmanError], message: str) -> None:
    with pytest.raises(PacmanError) as raised:
        make(**{setting: value})
    assert type(raised.value) is error, raised.value
    assert isinstance(raised.value, ValueError)
    assert str(raised.value).startswith(message), str(raised.value)
    assert "\n" not in str(raised.value)


@pytest.mark.parametrize(("setting", "value", "error", "message"), GYM_BAD,
                         ids=[row_id(row) for row in GYM_BAD])
def test_a_bad_gym_env_setting_is_one_error_when_the_env_is_made(
        setting: str, value: Any, error: type[PacmanError], message: str) -> None:
    refused(PacmanEnv, setting, value, error, message)


@pytest.mark.parametrize(("setting", "value", "error", "message"), PZ_BAD,
                         ids=[row_id(row) for row in PZ_BAD])
@pytest.mark.parametrize("make", [PacmanAECEnv, PacmanParallelEnv], ids=["aec", "parallel"])
def test_a_bad_pettingzoo_env_setting_is_one_error_when_the_env_is_made(
        make: Any, setting: str, value: Any, error: type[PacmanError], message: str) -> None:
    refused(make, setting, value, error, message)


def test_every_setting_of_every_env_has_rows() -> None:
    import inspect

    for make, rows in ((PacmanEnv, GYM_BAD), (PacmanAECEnv, PZ_BAD),
                       (PacmanParallelEnv, PZ_BAD)):
        settings = set(inspect.signature(make).parameters)
        assert settings == {row[0] for row in rows}, make.__name__


def test_a_bad_ghost_is_refused_even_with_no_ghost_in_play() -> None:
    with pytest.raises(RegistryError, match="unknown ghost agent 'NoSuchGhost'"):
        PacmanEnv(layout="testClassic", ghost="NoSuchGhost", num_ghosts=0)
    assert PacmanEnv(layout="testClassic", num_ghosts=0).ghosts == []


def test_gymnasium_make_raises_the_same_error() -> None:
    with pytest.raises(EnvSettingsError, match=r"zoom must be a number from 0\.25 to 8, got 0$"):
        gymnasium.make(ENV_ID, zoom=0)


@pytest.mark.parametrize("kwargs", [
    {"layout": ROOT / "pacman" / "layouts" / "testClassic.lay"}, {"zoom": 0.25}, {"zoom": 8},
    {"zoom": np.float64(2.0)}, {"state_in_info": np.bool_(False)}, {"max_moves": None},
    {"num_ghosts": 0}, {"ghost_settings": None}, {"render_mode": "rgb_array"},
    {"ghost": "DirectionalGhost", "ghost_settings": {"prob_attack": 1.0}},
], ids=repr)
def test_good_gym_env_settings_are_taken(kwargs: dict[str, Any]) -> None:
    game = PacmanEnv(**{"layout": "testClassic", **kwargs})
    game.reset(seed=0)
    game.step(STOP)
    assert type(game.zoom) is float and type(game.state_in_info) is bool
