"""Replays: a recorded game re-simulates to the same final state and score; tampered or
incompatible files are one-line errors; `play --record/--record-dir` and `pacman replay`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pacman import GameState, Outcome, parse_layout, run_game
from pacman.agents.ghosts import RandomGhost
from pacman.agents.simple import RandomAgent
from pacman.cli import main
from pacman.display.protocol import NullDisplay
from pacman.errors import ReplayError
from pacman.record import GameRecord
from pacman.replay import (
    FORMAT_VERSION,
    load_replay,
    replay_states,
    save_replay,
    scripted_agents,
    verify,
)

MAZE = parse_layout("""
%%%%%%%%%%
%o...%..G%
%.%%.%.%.%
%...P...G%
%%%%%%%%%%
""", "tiny")


class Keeper(NullDisplay):
    """Keeps the final state."""

    final: GameState | None = None

    def finish(self, state: GameState, record: GameRecord) -> None:
        self.final = state


def play(seed: int, max_moves: int | None = None) -> tuple[GameRecord, GameState]:
    keeper = Keeper()
    record = run_game(MAZE, RandomAgent(), [RandomGhost(1), RandomGhost(2)], seed=seed,
                      max_moves=max_moves, display=keeper)
    assert keeper.final is not None
    return record, keeper.final


@pytest.fixture
def recorded(tmp_path: Path) -> tuple[Path, GameRecord, GameState]:
    for seed in range(50):  # a game long enough to be interesting
        record, final = play(seed)
        if record.pacman_moves >= 8:
            break
    path = save_replay(tmp_path / "game.json", record, MAZE)
    return path, record, final


def test_record_then_replay_gives_the_same_final_state(
        recorded: tuple[Path, GameRecord, GameState]) -> None:
    path, record, final = recorded
    replay = load_replay(path)
    assert replay.record == record
    assert replay.layout == MAZE and replay.num_ghosts == 2
    verdict = verify(replay)
    assert verdict.matches, verdict.differences
    assert verdict.state == final
    assert verdict.state.score == record.score
    assert verdict.outcome is record.outcome
    assert len(replay_states(replay)) == len(record.actions) + 1


def test_the_file_holds_what_the_issue_lists(
        recorded: tuple[Path, GameRecord, GameState]) -> None:
    path, record, _ = recorded
    data = json.loads(path.read_text())
    assert data["format_version"] == FORMAT_VERSION
    assert data["package_version"]
    assert data["layout_text"] == MAZE.text and data["layout"] == "tiny"
    assert data["seed"] == record.seed and data["num_ghosts"] == 2
    assert data["agents"] == list(record.agents)
    assert data["actions"] == list(record.actions)
    assert data["outcome"] == record.outcome.value and data["score"] == record.score


def test_scripted_agents_replay_through_the_game_loop(
        recorded: tuple[Path, GameRecord, GameState]) -> None:
    path, record, _ = recorded
    replay = load_replay(path)
    agents = scripted_agents(replay)
    again = run_game(replay.layout, agents[0], agents[1:], seed=record.seed)
    assert (again.outcome, again.score, again.actions) == (record.outcome, record.score,
                                                          record.actions)


def test_capped_and_stopped_games_replay() -> None:
    record, final = play(seed=3, max_moves=2)
    assert record.outcome is Outcome.CAPPED
    from pacman.replay import Replay
    verdict = verify(Replay(MAZE, 2, record))
    assert verdict.matches and verdict.state == final


def tamper(path: Path, change: Any) -> Path:
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))
    return path


def test_a_changed_action_list_is_reported(recorded: tuple[Path, GameRecord, GameState]
                                           ) -> None:
    path, record, _ = recorded
    replay = load_replay(path)
    states = replay_states(replay)
    # Swap Pacman's first move for another legal one: the file no longer adds up.
    first = states[0].legal_actions(0)
    other = next(str(a) for a in first if a != record.actions[0])

    def swap(data: dict[str, Any]) -> None:
        data["actions"][0] = other

    tamper(path, swap)
    verdict = verify(load_replay(path))
    assert not verdict.matches
    assert "actions" in {difference.field for difference in verdict.differences}


def test_an_illegal_action_is_a_difference(recorded: tuple[Path, GameRecord, GameState]
                                          ) -> None:
    path, _, _ = recorded

    def into_the_wall(data: dict[str, Any]) -> None:
        data["actions"][0] = "South"  # Pacman starts with a wall below

    tamper(path, into_the_wall)
    replay = load_replay(path)
    verdict = verify(replay)
    assert not verdict.complete and not verdict.matches
    assert str(verdict.differences[0]).startswith("actions: action 1: agent 0 cannot play "
                                                  "'South'")
    assert verdict.unverified["score"] == "not checked: the re-simulation stopped at action 1"
    with pytest.raises(ReplayError, match="action 1: agent 0 cannot play 'South'"):
        replay_states(replay)


def test_actions_after_the_end_are_an_error(recorded: tuple[Path, GameRecord, GameState]
                                           ) -> None:
    path, record, _ = recorded
    if record.outcome not in (Outcome.WIN, Outcome.LOSS):
        pytest.skip("needs a finished game")

    def more(data: dict[str, Any]) -> None:
        data["actions"].append("Stop")

    tamper(path, more)
    verdict = verify(load_replay(path))
    assert [d.field for d in verdict.differences if "after the end" in d.detail] == ["actions"]
    with pytest.raises(ReplayError, match="after the end"):
        replay_states(load_replay(path))


@pytest.mark.parametrize("change, message", [
    (lambda d: d.update(format_version=99), "format version 99"),
    (lambda d: d.pop("format"), "not a Pacman replay"),
    (lambda d: d.pop("actions"), "missing field 'actions'"),
    (lambda d: d.update(outcome="draw"), "malformed"),
    (lambda d: d.update(layout_text="%%%\n%P\n%%%\n"), "unknown layout text"),
    (lambda d: d.update(num_ghosts=7), "7 ghosts"),
])
def test_incompatible_files_are_replay_errors(
        recorded: tuple[Path, GameRecord, GameState], change: Any, message: str) -> None:
    path, _, _ = recorded
    tamper(path, change)
    with pytest.raises(ReplayError, match=message):
        load_replay(path)


def test_bad_json_and_missing_files(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(ReplayError, match="not JSON"):
        load_replay(bad)
    with pytest.raises(ReplayError, match="no such file"):
        load_replay(tmp_path / "missing.json")


# --------------------------------------------------------------------- the command line
def test_play_record_then_replay_on_the_command_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "one.json"
    assert main(["play", "-q", "-p", "greedy", "-l", "smallClassic", "--seed", "5",
                 "--record", str(path)]) == 0
    played = capsys.readouterr().out
    assert main(["replay", "-q", str(path)]) == 0
    out = capsys.readouterr().out
    assert "OK: the replay matches" in out
    score = json.loads(path.read_text())["score"]
    assert f"score {score}" in out and f"score {score}," in played


def test_replay_mismatch_and_tampering_on_the_command_line(
        recorded: tuple[Path, GameRecord, GameState],
        capsys: pytest.CaptureFixture[str]) -> None:
    path, record, _ = recorded
    tamper(path, lambda d: d.update(score=d["score"] + 10))
    assert main(["replay", "-q", str(path)]) == 1
    out = capsys.readouterr().out
    assert "MISMATCH" in out and f"  score: recorded {record.score + 10}, replayed " \
        f"{record.score}\n" in out
    assert f"  score: {record.score + 10} does not match the digest" in out
    tamper(path, lambda d: d.update(format_version=2))
    assert main(["replay", "-q", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "format version 2" in err


def test_replay_in_text_mode(recorded: tuple[Path, GameRecord, GameState],
                             capsys: pytest.CaptureFixture[str]) -> None:
    path, record, _ = recorded
    assert main(["replay", "-t", "--frame-time", "0", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.count("Score: ") >= record.pacman_moves
    assert "OK: the replay matches" in out


def test_record_dir_saves_every_game(tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "games"
    assert main(["play", "-q", "-p", "greedy", "-l", "smallClassic", "-n", "3", "--seed", "10",
                 "--record-dir", str(folder)]) == 0
    assert "recorded 3 game(s)" in capsys.readouterr().out
    names = sorted(p.name for p in folder.iterdir())
    assert names == ["game-001-seed-10.json", "game-002-seed-11.json", "game-003-seed-12.json"]
    for name in names:
        assert verify(load_replay(folder / name)).matches


def test_record_with_several_games_is_a_usage_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "-q", "-p", "greedy", "-n", "2", "--record",
                 str(tmp_path / "x.json")]) == 2
    assert "--record-dir" in capsys.readouterr().err
