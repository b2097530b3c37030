"""The envs on a machine with no display: Gymnasium's `check_env` and PettingZoo's API and
render tests pass with no skip flag, "human" drawing nowhere after one `HeadlessWindowWarning`;
with a display (Xvfb, where installed) "human" opens a real window and warns about nothing."""

from __future__ import annotations

import doctest
import os
import shutil
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import optional

gymnasium = optional("gymnasium", "envs")
optional("pettingzoo", "envs")

with warnings.catch_warnings():  # pettingzoo.test loads example envs of PettingZoo's old API
    warnings.simplefilter("ignore", DeprecationWarning)
    from pettingzoo.test import api_test, parallel_api_test, render_test

from pacman.envs import ENV_ID, HeadlessWindowWarning, PacmanEnv, env, parallel_env  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
#: where `open_window` looks for a display (elsewhere SDL opens a real window, no warning)
LINUX_LIKE = os.name == "posix" and sys.platform != "darwin"
#: PettingZoo's api_test recommends names like "player_0"; the Pacman agent is "pacman"
NAMING = 'We recommend agents to be named in the format <descriptor>_<number>, like "player_0"'
#: check_env on what gymnasium.make returns (the issue's call) warns that wrappers are on it
WRAPPED = "is different from the unwrapped version"


@pytest.fixture
def headless(monkeypatch: pytest.MonkeyPatch) -> None:
    """No display and no SDL video driver chosen: what a server or a CI runner has."""
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def caught() -> Iterator[list[warnings.WarningMessage]]:
    with warnings.catch_warnings(record=True) as found:
        warnings.simplefilter("always")
        yield found


def headless_warnings(found: list[warnings.WarningMessage]) -> list[str]:
    return [str(w.message) for w in found if issubclass(w.category, HeadlessWindowWarning)]


def others(found: list[warnings.WarningMessage]) -> set[str]:
    """The warnings that are not ours, by message."""
    return {str(w.message) for w in found if not issubclass(w.category, HeadlessWindowWarning)}


def test_check_env_passes_headless_as_the_issue_calls_it(headless: None,
                                                         caught: list[Any]) -> None:
    from gymnasium.utils.env_checker import check_env

    made = gymnasium.make("pacman.envs:pacman/Pacman-v0")
    check_env(made)  # no skip_render_check: it makes and renders a "human" env too
    made.close()
    assert all(WRAPPED in message for message in others(caught)), others(caught)
    if LINUX_LIKE:
        assert len(headless_warnings(caught)) == 1  # the "human" env the checker made


@pytest.mark.parametrize("render_mode", [None, "rgb_array", "human"])
def test_check_env_passes_headless_in_every_render_mode(render_mode: str | None,
                                                        headless: None,
                                                        caught: list[Any]) -> None:
    from gymnasium.utils.env_checker import check_env

    unwrapped = gymnasium.make(ENV_ID, layout="testClassic", render_mode=render_mode).unwrapped
    check_env(unwrapped)
    unwrapped.close()
    assert others(caught) == set()
    if LINUX_LIKE:  # the checker's own "human" env, and this one when it is "human"
        assert len(headless_warnings(caught)) == (2 if render_mode == "human" else 1)
    assert "SDL_VIDEODRIVER" not in os.environ


@pytest.mark.skipif(not LINUX_LIKE, reason="only Linux-like systems look for DISPLAY")
def test_a_headless_human_env_warns_once_and_still_plays_and_draws(headless: None,
                                                                  caught: list[Any]) -> None:
    import pygame

    game = PacmanEnv(layout="testClassic", render_mode="human")
    assert caught == []  # nothing is opened before the first reset
    game.reset(seed=0)
    window = game.screen._window
    drawn = window.frames_drawn
    _, _, terminated, truncated, info = game.step(0)
    assert info["pacman_moves"] == 1 and not (terminated or truncated)  # the game goes on
    assert window.frames_drawn > drawn and window.state == game.state
    assert pygame.display.get_driver() == "dummy"
    assert game.render() is None
    game.reset(seed=1)  # the same window: no second warning
    assert headless_warnings(caught) == [
        "render_mode='human' cannot open a window (no display: DISPLAY and WAYLAND_DISPLAY are "
        "not set): the frames are drawn where nobody sees them, as with SDL_VIDEODRIVER=dummy; "
        "use render_mode='rgb_array' for the frames, or set SDL_VIDEODRIVER=dummy to drop this "
        "warning"]
    assert "SDL_VIDEODRIVER" not in os.environ  # the process's environment as it was
    game.close()
    assert game.screen._window is None


@pytest.mark.skipif(not LINUX_LIKE, reason="only Linux-like systems look for DISPLAY")
def test_the_warning_made_an_error_opens_nothing(headless: None) -> None:
    game = PacmanEnv(layout="testClassic", render_mode="human")
    with warnings.catch_warnings():
        warnings.simplefilter("error", HeadlessWindowWarning)
        with pytest.raises(HeadlessWindowWarning, match="cannot open a window"):
            game.reset(seed=0)
    assert game.screen._window is None and "SDL_VIDEODRIVER" not in os.environ
    game.close()


@pytest.mark.skipif(not LINUX_LIKE, reason="only Linux-like systems look for DISPLAY")
def test_a_driver_that_cannot_start_falls_back_and_is_restored(
        headless: None, monkeypatch: pytest.MonkeyPatch, caught: list[Any]) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "x11")  # chosen by the user, but there is no X
    game = PacmanEnv(layout="testClassic", render_mode="human")
    game.reset(seed=0)
    game.step(0)
    game.close()
    [message] = headless_warnings(caught)
    assert "SDL cannot start its video" in message
    assert os.environ["SDL_VIDEODRIVER"] == "x11"


def test_a_dummy_driver_set_by_the_user_draws_without_a_warning(
        headless: None, monkeypatch: pytest.MonkeyPatch, caught: list[Any]) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    game = PacmanEnv(layout="testClassic", render_mode="human")
    game.reset(seed=0)
    game.step(0)
    assert game.screen._window.frames_drawn > 0
    game.close()
    assert caught == []


def test_pettingzoos_checkers_pass_headless(headless: None, caught: list[Any]) -> None:
    api_test(env(layout="testClassic"), num_cycles=100)
    parallel_api_test(parallel_env(layout="testClassic"), num_cycles=100)
    render_test(lambda render_mode=None: env(layout="testClassic", render_mode=render_mode))
    assert others(caught) == {NAMING}
    if LINUX_LIKE:  # render_test makes two "human" envs
        assert len(headless_warnings(caught)) == 2


@pytest.mark.parametrize("make", [env, parallel_env], ids=["aec", "parallel"])
def test_pettingzoos_api_tests_pass_headless_on_human_envs(make: Any, headless: None,
                                                           caught: list[Any]) -> None:
    game = make(layout="testClassic", render_mode="human")
    if make is env:
        api_test(game, num_cycles=20)
    else:
        parallel_api_test(game, num_cycles=20)
    game.close()
    assert others(caught) <= {NAMING}
    if LINUX_LIKE:
        assert len(headless_warnings(caught)) == 1


def test_the_checking_sessions_of_the_page_run_headless(headless: None,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/envs.md's `>>>` sessions (tests/test_docs_examples.py runs them with a dummy
    driver) also run where there is no display and no driver at all."""
    monkeypatch.chdir(ROOT)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", HeadlessWindowWarning)
        warnings.filterwarnings("ignore", message=NAMING)
        failures, tried = doctest.testfile(
            str(ROOT / "docs" / "envs.md"), module_relative=False, encoding="utf-8",
            optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, report=True)
    assert tried >= 10 and failures == 0


@pytest.mark.skipif(shutil.which("xvfb-run") is None, reason="needs Xvfb (apt install xvfb)")
def test_with_a_display_human_opens_a_real_window_and_warns_nothing(tmp_path: Path) -> None:
    script = tmp_path / "window.py"
    script.write_text(
        "import pygame\n"
        "from pacman.envs import PacmanEnv\n"
        "game = PacmanEnv(layout='testClassic', render_mode='human')\n"
        "game.reset(seed=0)\n"
        "game.step(0)\n"
        "print(pygame.display.get_driver(), game.screen._window.frames_drawn > 0)\n"
        "game.close()\n", encoding="utf-8")
    environment = {name: value for name, value in os.environ.items()
                   if name not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    done = subprocess.run(["xvfb-run", "-a", sys.executable, "-W", "error", str(script)],
                          capture_output=True, text=True, cwd=ROOT, env=environment, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["x11", "True"], (done.stdout, done.stderr)
