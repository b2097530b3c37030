"""Stored batch keys, seeds and games do not move when the code is reorganised.

`golden/stored_keys.json` was written by the code before the redesign (one package `agents`
beside `pacman`, untyped settings): for eleven configurations, given as a user gives them
(short names, CS188 names, `evalFn`, late settings at their old values, paired boards, a move
limit), the canonical key the store files their games under, the key their seeds come from,
the first three seeds of batch seed 7, the agents' descriptions, and game 0 as the batch plays
it (outcome, score, moves, a digest of its actions and Pacman's node count). A results file
made before must keep finding its games, and a rerun must play the same ones.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from pacman.experiments import AgentSpec, GameConfig, GameTask
from pacman.experiments.grid import resolve_config
from pacman.experiments.runner import play_game

CASES = json.loads((Path(__file__).parent / "golden" / "stored_keys.json").read_text())


def config_of(given: dict[str, Any]) -> GameConfig:
    return GameConfig(AgentSpec.of(*given["pacman"]), AgentSpec.of(*given["ghost"]),
                      given.get("num_ghosts"), given["layout"], given.get("max_moves"),
                      given.get("move_timeout"), given.get("paired", False))


def test_the_fixture_covers_the_kinds_of_configuration() -> None:
    assert len(CASES) == 11
    assert any(case["given"].get("paired") for case in CASES)
    assert any("evalFn" in case["given"]["pacman"][1] for case in CASES)
    assert {case["game0"]["outcome"] for case in CASES} == {"win", "loss", "capped"}


@pytest.mark.parametrize("case", CASES, ids=lambda case: " ".join(map(str, case["agents"][:2])))
def test_a_configuration_keeps_its_key_seeds_and_first_game(case: dict[str, Any]) -> None:
    resolved = resolve_config(config_of(case["given"]))
    assert resolved.config.key() == case["key"]
    assert resolved.config.seed_key() == case["seed_key"]
    assert list(resolved.agent_names) == case["agents"]
    tasks = [GameTask.of(resolved.config, 7, index) for index in range(3)]
    assert [task.seed for task in tasks] == case["seeds"]
    record = play_game(tasks[0])
    actions = [getattr(action, "value", action) for action in record.actions]
    assert {"outcome": record.outcome.value, "score": record.score, "moves": len(actions),
            "actions_digest": hashlib.blake2b(json.dumps(actions).encode(),
                                              digest_size=8).hexdigest(),
            "pacman_nodes": sum(nodes or 0 for nodes in record.pacman_nodes)} == case["game0"]
