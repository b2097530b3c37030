"""Fault injection for replays: every edit of a recorded game is reported under the field's name
(exit 1), each difference on its own line; a file that is not a readable replay is one line on
stderr (exit 2); a replay without a digest says which fields it could not verify."""

from __future__ import annotations

import dataclasses
import itertools
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pacman import GameState, Outcome, parse_layout, run_game
from pacman.agents.ghosts import RandomGhost
from pacman.agents.simple import GreedyAgent, RandomAgent
from pacman.cli import main
from pacman.record import GameRecord
from pacman.replay import DIGEST_FIELDS, Replay, load_replay, save_replay, verify
from pacman.rules import Direction

MAZE = parse_layout("""
%%%%%%%%%%
%o...%..G%
%.%%.%.%.%
%...P...G%
%%%%%%%%%%
""", "tiny")

# Pacman eats a corridor of food while the ghost wanders an open room: the ghost's moves
# change nothing Pacman sees, so some of them can be reordered without the re-simulation
# noticing.
ROOM = parse_layout("""
%%%%%%%%%%%%
%P.......  %
%%%%%%%%%% %
%     G    %
%          %
%          %
%%%%%%%%%%%%
""", "room")

Change = Callable[[dict[str, Any]], None]


class CrashOnFourth:
    """A Pacman that plays legal moves, then raises on its fourth move."""

    def __init__(self) -> None:
        self.calls = 0

    def get_action(self, state: GameState) -> Direction:
        self.calls += 1
        if self.calls == 4:
            raise RuntimeError("boom")
        return state.legal_actions(0)[0]


def save(tmp_path: Path, record: GameRecord, layout: Any = MAZE, name: str = "game.json",
         digest: bool = True) -> Path:
    path = save_replay(tmp_path / name, record, layout)
    if not digest:  # as written before replays had digests
        edit(path, lambda d: d.pop("digest"))
    return path


def edit(path: Path, change: Change) -> Path:
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))
    return path


def finished_game() -> GameRecord:
    for seed in range(50):
        record = run_game(MAZE, RandomAgent(), [RandomGhost(1), RandomGhost(2)], seed=seed)
        if record.pacman_moves >= 8 and record.outcome is Outcome.LOSS:
            return record
    raise AssertionError("no long enough lost game")


def crashed_game() -> GameRecord:
    record = run_game(MAZE, CrashOnFourth(), [RandomGhost(1), RandomGhost(2)], seed=1)
    assert record.outcome is Outcome.CRASH and record.fault_agent == 0
    return record


def capped_game() -> GameRecord:
    record = run_game(MAZE, RandomAgent(), [RandomGhost(1), RandomGhost(2)], seed=3,
                      max_moves=3)
    assert record.outcome is Outcome.CAPPED
    return record


def replay_output(path: Path, capsys: pytest.CaptureFixture[str], *flags: str
                  ) -> tuple[int, str, str]:
    code = main(["replay", "-q", *flags, str(path)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def difference_lines(out: str) -> list[str]:
    """The lines listed under MISMATCH."""
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("MISMATCH"))
    return [line.strip() for line in lines[start + 1:] if line.startswith("  ")]


def not_verified(out: str) -> list[str]:
    lines = out.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith("not verified")), None)
    if start is None:
        return []
    found = []
    for line in lines[start + 1:]:
        if not line.startswith("  "):
            break
        found.append(line.strip())
    return found


# --------------------------------------------------------------------- untouched files
def test_an_untouched_replay_verifies_every_field(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    for record in (finished_game(), crashed_game(), capped_game()):
        code, out, _ = replay_output(save(tmp_path, record), capsys)
        assert code == 0, out
        assert "OK: the replay matches its record: every field verified" in out
        assert f"checked by the digest: {', '.join(DIGEST_FIELDS)}" in out
        assert "informational, only their types and lengths checked: package_version" in out
        assert "think_time, pacman_move_times" in out
        assert not_verified(out) == []


def test_an_old_replay_says_what_it_could_not_verify(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    path = save(tmp_path, crashed_game(), digest=False)
    code, out, _ = replay_output(path, capsys)
    assert code == 0, out
    assert "no digest to check" in out
    unverified = {line.split(":")[0] for line in not_verified(out)}
    assert {"seed", "agents", "fault", "outcome", "layout", "actions"} <= unverified
    assert "OK: the replay matches its record as far as it can be checked" in out
    code, out, _ = replay_output(path, capsys, "--strict")
    assert code == 1


# --------------------------------------------------------------------- the listed edits
def bump_seed(data: dict[str, Any]) -> None:
    data["seed"] += 1


def rename_agent(data: dict[str, Any]) -> None:
    data["agents"][1] = "DirectionalGhost"


def rename_layout(data: dict[str, Any]) -> None:
    data["layout"] = "tiny2"


def half_point(data: dict[str, Any]) -> None:
    data["score"] += 0.5


@pytest.mark.parametrize("change, field", [
    (bump_seed, "seed"),
    (rename_agent, "agents"),
    (rename_layout, "layout"),
    (half_point, "score"),
])
def test_an_edited_field_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                  change: Change, field: str) -> None:
    path = edit(save(tmp_path, finished_game()), change)
    code, out, err = replay_output(path, capsys)
    assert (code, err) == (1, "")
    lines = difference_lines(out)
    assert lines and all(line.startswith(f"{field}: ") for line in lines), lines


def test_a_fractional_score_is_not_a_whole_number_even_without_a_digest(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = finished_game()
    path = edit(save(tmp_path, record, digest=False), lambda d: d.update(score=1.5))
    code, out, _ = replay_output(path, capsys)
    assert code == 1
    assert difference_lines(out) == ["score: 1.5 is not a whole number (the game writes "
                                     "whole numbers)"]
    # an integral float is not what the game writes either
    path = edit(save(tmp_path, record), lambda d: d.update(score=float(d["score"])))
    code, out, _ = replay_output(path, capsys)
    assert code == 1 and all(line.startswith("score: ") for line in difference_lines(out))


def test_a_crash_relabelled_timeout(tmp_path: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    record = crashed_game()
    path = edit(save(tmp_path, record), lambda d: d.update(outcome="timeout"))
    code, out, _ = replay_output(path, capsys)
    assert code == 1
    assert difference_lines(out) == ['outcome: "timeout" does not match the digest (edited '
                                     'after recording)']
    # Without a digest crash and timeout both fit the actions: said, not hidden
    path = edit(save(tmp_path, record, digest=False), lambda d: d.update(outcome="timeout"))
    code, out, _ = replay_output(path, capsys)
    assert code == 0
    assert any(line.startswith("outcome: no digest") for line in not_verified(out))


def test_a_capped_game_relabelled_stopped(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    path = edit(save(tmp_path, capped_game()), lambda d: d.update(outcome="stopped"))
    code, out, _ = replay_output(path, capsys)
    assert code == 1
    assert difference_lines(out) == ['outcome: "stopped" does not match the digest (edited '
                                     'after recording)']


def silent_ghost_swap(record: GameRecord, layout: Any, num_ghosts: int) -> tuple[int, int]:
    """Two different ghost actions whose swap the re-simulation cannot tell from the record."""
    actions = list(record.actions)
    agents = num_ghosts + 1
    ghost_moves = [i for i in range(len(actions)) if i % agents]
    for i, j in itertools.combinations(ghost_moves, 2):
        if actions[i] == actions[j]:
            continue
        swapped = actions[:]
        swapped[i], swapped[j] = swapped[j], swapped[i]
        verdict = verify(Replay(layout, num_ghosts,
                                dataclasses.replace(record, actions=tuple(swapped))))
        if verdict.matches:
            return i, j
    raise LookupError("no silent swap")


def test_two_legal_ghost_moves_swapped_with_the_same_end(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = run_game(ROOM, GreedyAgent(), [RandomGhost(1)], seed=0)
    i, j = silent_ghost_swap(record, ROOM, 1)

    def swap(data: dict[str, Any]) -> None:
        data["actions"][i], data["actions"][j] = data["actions"][j], data["actions"][i]

    # Every per-move check agrees: same score, outcome, moves, one node count per move...
    old = edit(save(tmp_path, record, ROOM, "old.json", digest=False), swap)
    assert load_replay(old).record.actions != record.actions
    code, out, _ = replay_output(old, capsys)
    assert code == 0
    assert any(line.startswith("actions: no digest: only as far as the re-simulation")
               for line in not_verified(out))
    # ... so only the digest sees it
    new = edit(save(tmp_path, record, ROOM, "new.json"), swap)
    code, out, _ = replay_output(new, capsys)
    assert code == 1
    assert difference_lines(out) == ["actions: the list of 13 does not match the digest "
                                     "(edited after recording)"]


def test_every_difference_is_listed_not_only_the_first(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def many(data: dict[str, Any]) -> None:
        bump_seed(data)
        rename_agent(data)
        data["score"] += 10
        data["pacman_nodes"].pop()

    code, out, _ = replay_output(edit(save(tmp_path, finished_game()), many), capsys)
    assert code == 1
    fields = [line.split(":")[0] for line in difference_lines(out)]
    assert fields == ["seed", "agents", "score", "score", "pacman_nodes", "pacman_nodes"]
    assert "MISMATCH: the replay does not match the record (6 differences):" in out


# --------------------------------------------------------------------- without a digest
@pytest.mark.parametrize("change, expected", [
    (lambda d: d.update(layout="mediumClassic"),
     "layout: 'mediumClassic' is a shipped layout, but layout_text is another maze"),
    (lambda d: d.update(outcome="win"), "outcome: recorded win, replayed loss"),
    (lambda d: d.update(score=d["score"] - 7), "score: recorded"),
    (lambda d: d.update(pacman_moves=d["pacman_moves"] + 1), "pacman_moves: recorded"),
    (lambda d: d["pacman_nodes"].append(None), "pacman_nodes: "),
    (lambda d: d["think_time"].append(0.5), "think_time: 4 entries for 3 agents"),
    (lambda d: d.update(fault="a crash that never was"), "fault: a loss has no fault"),
    (lambda d: d["actions"].append("Stop"), "actions: action "),
    (lambda d: d["actions"].__setitem__(0, "Sideways"), "actions: action 1: agent 0 cannot "
                                                        "play 'Sideways'"),
    (lambda d: d.update(agents=d["agents"][:2]), "num_ghosts: 2 ghost(s), so 3 agents, but "
                                                 "agents lists 2"),
])
def test_the_re_simulation_alone_catches(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                         change: Change, expected: str) -> None:
    path = edit(save(tmp_path, finished_game(), digest=False), change)
    code, out, err = replay_output(path, capsys)
    assert (code, err) == (1, "")
    assert any(line.startswith(expected) for line in difference_lines(out)), out


@pytest.mark.parametrize("change, expected", [
    (lambda d: d.update(outcome="win"), "outcome: recorded win, but after the"),
    (lambda d: d.update(fault_agent=2), "fault_agent: recorded agent 2, but agent 0 was to "
                                        "move"),
    (lambda d: d.update(fault=None, fault_agent=None), "fault: a crash records what went "
                                                       "wrong"),
    (lambda d: (d.update(outcome="capped", fault=None, fault_agent=None),
                d["actions"].append("Stop")), "outcome: recorded capped, but the "
                                                        "actions end with agent 1 to move"),
])
def test_how_a_game_ended_must_fit_its_actions(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str],
                                               change: Change, expected: str) -> None:
    path = edit(save(tmp_path, crashed_game(), digest=False), change)
    code, out, _ = replay_output(path, capsys)
    assert code == 1
    assert any(line.startswith(expected) for line in difference_lines(out)), out


# --------------------------------------------------------------------- unreadable files
@pytest.mark.parametrize("text, message", [
    ('{"format": "pacman-replay", "format_version": 1, "score": 1e999}', "too large"),
    ('{"format": "pacman-replay", "format_version": 1, "score": NaN}', "NaN is not a JSON"),
    ('{"format": "pacman-replay", "format_version": 1, "seed": Infinity}', "Infinity"),
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ('{"format": "pacman-replay", "format": "pacman-replay"}', "appears twice"),
    ('{"format": "pacman-replay", "format_version": 1, "seed": ' + "9" * 5000 + "}",
     "5000-digit number"),
    ('{"format": "pacman-replay", "format_version": true}', "format version True"),
])
def test_an_unreadable_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                        text: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text)
    code, out, err = replay_output(path, capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err and "Traceback" not in err


@pytest.mark.parametrize("change, message", [
    (lambda d: d.update(score="12"), "score is text, not a number"),
    (lambda d: d.update(seed=None), "seed is null, not a number"),
    (lambda d: d.update(agents="PacmanAgent"), "agents is text, not a list"),
    (lambda d: d["actions"].__setitem__(2, 7), "actions[2] is a number, not text"),
    (lambda d: d.update(pacman_nodes=[True]), "pacman_nodes[0] is true/false"),
    (lambda d: d.update(digest="abc"), "digest is text, not an object"),
    (lambda d: d.pop("score"), "missing field 'score'"),
])
def test_a_wrong_type_is_a_malformed_file(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          change: Change, message: str) -> None:
    path = edit(save(tmp_path, finished_game()), change)
    code, out, err = replay_output(path, capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "malformed replay" in err and message in err


def test_digest_edits_are_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = edit(save(tmp_path, finished_game()),
                lambda d: d["digest"].update(algorithm="md5"))
    code, out, _ = replay_output(path, capsys)
    assert code == 1
    assert difference_lines(out) == ["digest: unknown algorithm 'md5' (this Pacman checks "
                                     "sha256): nothing verified by it"]
    assert any(line.startswith("seed: the digest is unusable") for line in not_verified(out))
    path = edit(save(tmp_path, finished_game()),
                lambda d: d["digest"]["fields"].pop("agents"))
    code, out, _ = replay_output(path, capsys)
    assert code == 1
    assert difference_lines(out) == ["digest: no entry for agents: the digest was edited"]
