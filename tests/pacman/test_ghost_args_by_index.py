"""`--ghost-args N:k=v`: settings for one ghost by its agent index, recorded and replayed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pacman.cli import main
from pacman.cli.ghost_args import parse_ghost_args
from pacman.specs import AgentSpec

# a seeded game against two DirectionalGhosts, short enough to stay fast
GAME = ["play", "-p", "alphabeta", "-a", "depth=1", "-g", "DirectionalGhost",
        "-l", "smallClassic", "-q", "--seed", "3", "--max-moves", "60"]
DEFAULT_GHOST = "DirectionalGhost"
ATTACKING_GHOST = "DirectionalGhost prob_attack=1 prob_scared_flee=0.8"


def played(tmp_path: Path, name: str, *extra: str) -> dict[str, Any]:
    """The replay file of `GAME` with `extra` options, as JSON."""
    path = tmp_path / f"{name}.json"
    assert main([*GAME, *extra, "--record", str(path)]) == 0
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def test_one_ghost_by_index_differs_from_the_default_game_only_in_its_settings(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    default = played(tmp_path, "default")
    attacking = played(tmp_path, "attacking", "--ghost-args", "2:prob_attack=1.0")
    assert default["agents"] == ["AlphaBetaAgent depth=1 score", DEFAULT_GHOST, DEFAULT_GHOST]
    assert attacking["agents"] == ["AlphaBetaAgent depth=1 score", DEFAULT_GHOST,
                                   ATTACKING_GHOST]
    same = {key: value for key, value in default.items()
            if key not in ("agents", "actions", "score", "outcome", "pacman_moves", "digest",
                           "pacman_nodes", "think_time", "pacman_move_times", "fault_agent",
                           "fault")}
    assert same == {key: attacking[key] for key in same}
    assert (same["seed"], same["num_ghosts"], same["layout"]) == (3, 2, "smallClassic")
    capsys.readouterr()
    # the record replays: every field re-simulated or checked by the digest
    assert main(["replay", str(tmp_path / "attacking.json"), "-q"]) == 0
    out = capsys.readouterr().out
    assert f"vs {DEFAULT_GHOST} vs {ATTACKING_GHOST}\n" in out
    assert "OK: the replay matches its record: every field verified" in out


def test_the_same_seed_gives_the_same_game(tmp_path: Path) -> None:
    first = played(tmp_path, "first", "--ghost-args", "2:prob_attack=1.0")
    second = played(tmp_path, "second", "--ghost-args", "2:prob_attack=1.0")
    for key in ("agents", "actions", "score", "outcome", "pacman_moves", "digest"):
        assert first[key] == second[key], key
    assert len(first["actions"]) > 10


def test_an_indexed_setting_goes_over_the_shared_ones_for_that_ghost_only(
        tmp_path: Path) -> None:
    game = played(tmp_path, "mixed", "--ghost-args", "prob_attack=0.5,prob_scared_flee=0.1",
                  "--ghost-args", "2:prob_attack=1.0")
    assert game["agents"][1:] == ["DirectionalGhost prob_attack=0.5 prob_scared_flee=0.1",
                                  "DirectionalGhost prob_attack=1 prob_scared_flee=0.1"]


def test_the_parsed_settings_become_one_spec_per_ghost() -> None:
    args = parse_ghost_args(["prob_attack=0.5", "3:prob_attack=1", "3:prob_scared_flee=0"])
    assert args.specs("DirectionalGhost", 3) == (
        AgentSpec("DirectionalGhost", (("prob_attack", 0.5),)),
        AgentSpec("DirectionalGhost", (("prob_attack", 0.5),)),
        AgentSpec("DirectionalGhost", (("prob_attack", 1), ("prob_scared_flee", 0))))
    # without an index every ghost is the same one spec, as before
    assert parse_ghost_args("prob_attack=0.5").specs("DirectionalGhost", 2) == AgentSpec(
        "DirectionalGhost", (("prob_attack", 0.5),))
    # a value may hold ':' (weighted evaluations): only a prefix before the first '=' is an index
    assert parse_ghost_args("evaluation=score:1,food:-1.5").shared == {
        "evaluation": "score:1,food:-1.5"}
    assert parse_ghost_args("2:evaluation=score:1").by_index == {2: {"evaluation": "score:1"}}


MISTAKES = [
    ("pacman", ["--ghost-args", "0:prob_attack=1"],
     "--ghost-args 0:...: agent 0 is Pacman (its settings go in -a); 2 ghosts play on "
     "smallClassic (agents 1 to 2)"),
    ("beyond the ghosts", ["--ghost-args", "5:prob_attack=1"],
     "--ghost-args 5:...: there is no ghost 5: 2 ghosts play on smallClassic (agents 1 to 2)"),
    ("beyond -k", ["-k", "1", "--ghost-args", "2:prob_attack=1"],
     "--ghost-args 2:...: there is no ghost 2: 1 ghost plays on smallClassic (agent 1)"),
    ("not a number", ["--ghost-args", "x:prob_attack=1"],
     "--ghost-args 'x:prob_attack=1': 'x' before ':' is not a ghost's agent index: write "
     "N:k=v,k=v, N a whole number from 1 to 999 (1 is the first ghost)"),
    ("two colons", ["--ghost-args", "2::prob_attack=1"],
     "--ghost-args '2::prob_attack=1': one ':' after the index: write 2:prob_attack=1"),
    ("an index of 5,000 digits", ["--ghost-args", "1" * 5000 + ":prob_attack=1"],
     "--ghost-args '1111111111111111111111111111111111111...': '111111111...' before ':' is "
     "not a ghost's agent index: write N:k=v,k=v, N a whole number from 1 to 999 (1 is the "
     "first ghost)"),
    ("nothing after", ["--ghost-args", "2:"],
     "--ghost-args '2:': no settings after 2: (write 2:k=v,k=v)"),
    ("two indexes in one", ["--ghost-args", "1:prob_attack=1,2:prob_attack=0"],
     "--ghost-args '1:prob_attack=1,2:prob_attack=0': one ghost index per --ghost-args; "
     "repeat the option for another ghost"),
    ("twice for one ghost", ["--ghost-args", "2:prob_attack=1", "--ghost-args",
                             "2:prob_attack=0.5"],
     "--ghost-args: setting 'prob_attack' given twice for ghost 2"),
    ("unknown setting", ["--ghost-args", "2:prob_atack=1"],
     "ghost 2: bad settings for DirectionalGhost: unknown setting 'prob_atack' (it accepts: "
     "prob_attack, prob_scared_flee)"),
    ("bad value", ["--ghost-args", "2:prob_attack=2"],
     "ghost 2: bad settings for DirectionalGhost: prob_attack must be a number between 0 "
     "and 1, got 2"),
    ("unknown setting for every ghost", ["--ghost-args", "prob_atack=1"],
     "bad settings for DirectionalGhost: unknown setting 'prob_atack' (it accepts: "
     "prob_attack, prob_scared_flee)"),
]


@pytest.mark.parametrize(("extra", "message"), [(m[1], m[2]) for m in MISTAKES],
                         ids=[m[0] for m in MISTAKES])
def test_a_mistake_is_one_line_and_exit_2(extra: list[str], message: str,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*GAME, *extra]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"pacman: error: {message}\n"


def test_batch_refuses_one_ghost_by_index(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "b.db"
    assert main(["batch", "-p", "alphabeta", "-g", "DirectionalGhost", "--ghost-args",
                 "2:prob_attack=0.9|1", "-n", "1", "-o", str(out), "--dry-run"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        "pacman: error: --ghost-args '2:prob_attack=0.9|1': a batch configuration gives all "
        "its ghosts the same settings, so one ghost's settings by index (N:) are for pacman "
        "play only; write k=v,k=v for every ghost\n")
    assert not out.exists()
