"""One value per limit: a game's time limits are one `TimeLimits`, checked once where it is made,
spelled `--move-timeout`/`--game-timeout` (`move_timeout`/`game_timeout` in files and stores)
outside and `TimeLimits(move=..., game=...)` inside; the older spellings are still accepted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pacman.cli import build_parser
from pacman.errors import BatchError, LimitError, UsageError
from pacman.experiments.config import GameConfig, GameTask
from pacman.experiments.grid import load_experiment
from pacman.layout import load_layout
from pacman.limits import NO_LIMITS, TimeLimits
from pacman.specs import AgentSpec, GameSpec


@pytest.mark.parametrize("flag", ["--move-timeout", "--timeout"])
def test_play_takes_the_move_limit_by_its_name_and_by_the_older_one(flag: str) -> None:
    args = build_parser().parse_args(["play", flag, "2", "--game-timeout", "30"])
    assert (args.move_time_limit, args.game_time_limit) == (2.0, 30.0)


@pytest.mark.parametrize("text", ["0", "-1", "nan", "inf", "1e300", "1_0", "\u0663", "x", ""])
def test_a_limit_flag_that_is_not_seconds_is_one_line(text: str) -> None:
    for command in (["play"], ["batch", "-p", "random"], ["compare", "a", "b"]):
        with pytest.raises(UsageError, match="argument --game-timeout: expected seconds > 0 "
                                             "and at most 1,000,000") as raised:
            build_parser().parse_args([*command, "--game-timeout", text])
        assert "\n" not in str(raised.value)


def test_an_experiment_file_gives_the_limits_by_their_file_keys(tmp_path: Path) -> None:
    path = tmp_path / "grid.json"
    path.write_text(json.dumps({"pacman": ["random"], "move_timeout": 2, "game_timeout": 30}))
    experiment = load_experiment(path)
    assert (experiment.move_time_limit, experiment.game_time_limit) == (2.0, 30.0)
    path.write_text(json.dumps({"pacman": ["random"], "move_timeout": 0}))
    with pytest.raises(BatchError, match=r"grid.json: move_timeout: expected seconds > 0"):
        load_experiment(path)


def test_a_configurations_limit_is_its_stored_column_and_its_games_limit() -> None:
    config = GameConfig(AgentSpec("RandomAgent"), layout="testClassic", num_ghosts=1,
                        move_time_limit=2.0)
    assert config.to_dict()["move_timeout"] == 2.0
    assert GameConfig.from_dict(config.to_dict()) == config
    spec = GameTask.of(config, 0, 0).game(load_layout("testClassic"))
    assert spec.limits == TimeLimits(move=2.0)


def test_a_game_description_carries_one_limits_value_through_json() -> None:
    layout = load_layout("testClassic")
    spec = GameSpec.of(layout, AgentSpec("RandomAgent"), AgentSpec("RandomGhost"), 1, 7,
                       limits=TimeLimits(move=1, game=60))
    data = spec.to_json()
    assert (data["move_time_limit"], data["game_time_limit"]) == (1.0, 60.0)
    assert GameSpec.from_json(data) == spec
    assert GameSpec.of(layout, AgentSpec("RandomAgent"), AgentSpec("RandomGhost"), 1,
                       7).limits is NO_LIMITS
    with pytest.raises(LimitError, match="the game time limit"):
        GameSpec.from_json({**data, "game_time_limit": -5})
