"""The `pacman` command, in-process through `main(argv)` and once as a real process."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

import pacman.cli.play
import pacman.hosting.local
from pacman.cli import main, parse_settings
from pacman.record import GameRecord

PLAY = ["play", "-l", "smallClassic", "-p", "greedy", "-g", "DirectionalGhost", "-n", "3", "-q",
        "--seed", "1"]


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def records(monkeypatch: pytest.MonkeyPatch) -> list[tuple[GameRecord, int]]:
    """Every game the CLI plays: its record and the number of ghost agents."""
    played: list[tuple[GameRecord, int]] = []
    real = pacman.hosting.local.run_game  # where `pacman play` plays its games

    def spy(layout: Any, pacman_agent: Any, ghosts: Any, **kwargs: Any) -> GameRecord:
        record = real(layout, pacman_agent, ghosts, **kwargs)
        played.append((record, len(ghosts)))
        return record

    monkeypatch.setattr(pacman.hosting.local, "run_game", spy)
    return played


def test_play_prints_the_cs188_summary(capsys: pytest.CaptureFixture[str],
                                       records: list[tuple[GameRecord, int]]) -> None:
    code, out, err = run(PLAY, capsys)
    assert code == 0 and err == ""
    lines = out.splitlines()
    games = [r for r, _ in records]
    assert len(games) == 3
    assert [r.seed for r in games] == [1, 2, 3]
    for line, record, number in zip(lines[:3], games, (1, 2, 3)):
        assert line.startswith(f"game {number}: seed {record.seed}, {record.outcome.value}, "
                               f"score {record.score}, {record.pacman_moves} moves")
    scores = [r.score for r in games]
    wins = sum(r.won for r in games)
    summary = dict(line.split(":", 1) for line in lines[3:])
    assert list(summary) == ["Average Score", "Scores", "Win Rate", "Record", "Outcomes"]
    assert float(summary["Average Score"]) == pytest.approx(sum(scores) / 3)
    assert summary["Scores"].strip() == ", ".join(f"{float(s)}" for s in scores)
    assert summary["Win Rate"].strip() == f"{wins}/3 ({wins / 3:.2f})"
    assert re.fullmatch(r"(Win|Loss)(, (Win|Loss)){2}", summary["Record"].strip())
    assert summary["Record"].strip() == ", ".join("Win" if r.won else "Loss" for r in games)
    counts = {o: sum(r.outcome.value == o for r in games) for o in ("win", "loss")}
    assert summary["Outcomes"].strip() == ", ".join(f"{o} {n}" for o, n in counts.items() if n)
    assert all(n == 2 for _, n in records)


def test_seed_makes_runs_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    first = run(PLAY, capsys)
    assert run(PLAY, capsys) == first
    # game i uses seed + i: the first game of --seed 2 is the second game of --seed 1
    later = run([*PLAY[:-1], "2"], capsys)[1].splitlines()
    assert later[0].startswith("game 1: seed 2, ")
    assert later[0].split(", ", 1)[1] == first[1].splitlines()[1].split(", ", 1)[1]


def test_fix_seed_gives_identical_games(capsys: pytest.CaptureFixture[str],
                                        records: list[tuple[GameRecord, int]]) -> None:
    code, _, _ = run(["play", "-l", "smallClassic", "-p", "random", "-g", "RandomGhost",
                      "-n", "3", "-q", "-f", "--max-moves", "80"], capsys)
    assert code == 0
    games = [r for r, _ in records]
    assert len(games) == 3 and games[0] == games[1] == games[2]
    assert games[0].seed == 0
    assert len(games[0].actions) > 3


def test_num_ghosts_option_drops_ghosts(capsys: pytest.CaptureFixture[str],
                                        records: list[tuple[GameRecord, int]]) -> None:
    for k, expected in (("1", 1), ("0", 0), ("9", 2)):
        code, _, _ = run(["play", "-l", "smallClassic", "-p", "random", "-k", k, "-q",
                          "--seed", "1", "--max-moves", "5"], capsys)
        assert code == 0
        record, ghosts = records[-1]
        assert ghosts == expected
        assert len(record.agents) == 1 + expected


def test_max_moves_outcome_is_capped(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["play", "-l", "openClassic", "-p", "random", "-k", "0", "-q",
                        "--seed", "1", "--max-moves", "5"], capsys)
    assert code == 0
    assert out.splitlines()[0] == "game 1: seed 1, capped, score -5, 5 moves"
    assert "Record:        Capped" in out and "Outcomes:      capped 1" in out


def test_golden_game_matches_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    """The command line in a golden transcript's header plays that very game."""
    golden = Path(__file__).parent / "golden" / "trappedClassic-greedy-random-8.txt"
    text = golden.read_text()
    command = text.splitlines()[0].split("`")[1].split()[1:]
    code, out, _ = run([*command, "-q"], capsys)
    assert code == 0
    outcome = text.rsplit("outcome: ", 1)[1].strip()  # e.g. "loss, score -504, 4 Pacman moves"
    result, score, moves = (part.strip() for part in outcome.split(","))
    assert out.splitlines()[0] == (f"game 1: seed 8, {result}, {score}, "
                                   f"{moves.replace(' Pacman', '')}")


def test_layouts_lists_every_shipped_layout(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["layouts"], capsys)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].split() == ["layout", "size", "food", "capsules", "ghosts"]
    rows = {line.split()[0]: line.split()[1:] for line in lines[1:]}
    assert rows["mediumClassic"] == ["20x11", "97", "2", "2"]
    assert rows["originalClassic"] == ["28x27", "229", "4", "4"]
    assert len(rows) >= 11


# --------------------------------------------------------------------------- user mistakes

def bad_layout_file(tmp_path: Path) -> str:
    path = tmp_path / "ragged.lay"
    path.write_text("%%%%%\n%P .%\n%..%\n%%%%%\n")
    return str(path)


MISTAKES: list[tuple[str, list[str], str]] = [
    ("unknown layout", ["play", "-l", "noSuchClassic", "-p", "random", "-q"], "noSuchClassic"),
    ("bad layout file", ["play", "-l", "{bad}", "-p", "random", "-q"], "ragged.lay:3:5"),
    ("unknown pacman", ["play", "-l", "smallClassic", "-p", "nosuchagent", "-q"],
     "nosuchagent"),
    ("unknown ghost", ["play", "-l", "smallClassic", "-p", "random", "-g", "Casper", "-q"],
     "Casper"),
    ("ghost as pacman", ["play", "-p", "DirectionalGhost", "-q"], "DirectionalGhost"),
    ("setting without value", ["play", "-p", "random", "-q", "-a", "depth"], "depth"),
    ("setting without name", ["play", "-p", "random", "-q", "-a", "=3"], "=3"),
    ("setting twice", ["play", "-p", "random", "-q", "-a", "depth=3,depth=4"], "twice"),
    ("setting the agent lacks", ["play", "-p", "random", "-q", "-a", "depth=3"], "depth"),
    ("zero games", ["play", "-p", "random", "-q", "-n", "0"], "-n"),
    ("not a number", ["play", "-p", "random", "-q", "-n", "three"], "three"),
    ("negative ghosts", ["play", "-p", "random", "-q", "-k", "-1"], "-k"),
    ("unknown flag", ["play", "-p", "random", "-q", "--frobnicate"], "--frobnicate"),
    ("unknown command", ["fly"], "fly"),
    ("keyboard without window", ["play", "-p", "keyboard", "-q"], "keyboard"),
    ("keyboard in text mode", ["play", "-p", "KeyboardAgent", "-t"], "keyboard"),
    ("quiet and text", ["play", "-p", "random", "-q", "-t"], "-t"),
    ("bad module", ["play", "-p", "no_such_module_xyz:Agent", "-q"], "no_such_module_xyz"),
    ("trailing comma", ["play", "-p", "random", "-q", "-a", "depth=3,"], "name=value"),
    ("bad setting value", ["play", "-p", "minimax", "-q", "-a", "depth=0"], "depth"),
    ("unknown evaluation", ["play", "-p", "alphabeta", "-q", "-a", "evaluation=nosuch"],
     "nosuch"),
    ("bad ghost setting", ["play", "-p", "random", "-q", "--ghost-args", "speed=2"], "speed"),
    ("negative timeout", ["play", "-p", "random", "-q", "--timeout", "-1"], "--timeout"),
]


@pytest.mark.parametrize(("argv", "mentions"), [(m[1], m[2]) for m in MISTAKES],
                         ids=[m[0] for m in MISTAKES])
def test_user_mistakes_exit_2_with_one_line(argv: list[str], mentions: str, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    argv = [bad_layout_file(tmp_path) if a == "{bad}" else a for a in argv]
    code, out, err = run(argv, capsys)
    assert code == 2
    assert out == ""
    assert err.startswith("pacman: error: ")
    assert err.count("\n") == 1 and err.endswith("\n")
    assert "Traceback" not in err
    assert mentions in err


def test_unknown_agent_lists_the_known_ones(capsys: pytest.CaptureFixture[str]) -> None:
    _, _, err = run(["play", "-p", "nosuchagent", "-q"], capsys)
    for name in ("RandomAgent", "GreedyAgent", "AlphaBetaAgent", "ExpectimaxAgent"):
        assert name in err


# --------------------------------------------------------------------------- agent settings

def test_parse_settings_types() -> None:
    assert parse_settings("depth=3,x=1.5,flag=true,off=False,name=better,nothing=none") == {
        "depth": 3, "x": 1.5, "flag": True, "off": False, "name": "better", "nothing": None}
    assert parse_settings(None) == {} and parse_settings("") == {}
    assert parse_settings(" depth = 2 ") == {"depth": 2}


def test_parse_settings_keeps_a_weighted_evaluation_together() -> None:
    assert parse_settings("depth=3,evaluation=score:1,food:-1.5,ghost:2") == {
        "depth": 3, "evaluation": "score:1,food:-1.5,ghost:2"}
    assert parse_settings("evaluation=score:1,food:-1.5,depth=2") == {
        "evaluation": "score:1,food:-1.5", "depth": 2}


AGENT_MODULE = """
    from pacman import Direction

    class Probe:
        seen = []

        def __init__(self, index=0, **settings):
            type(self).seen.append(dict(settings, index=index))

        def get_action(self, state):
            return Direction.STOP
"""


def test_agent_settings_reach_the_agent_typed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "cli_probe_agent.py").write_text(textwrap.dedent(AGENT_MODULE))
    monkeypatch.syspath_prepend(str(tmp_path))
    code, out, err = run(["play", "-l", "smallClassic", "-p", "cli_probe_agent:Probe", "-q",
                          "-k", "0", "--max-moves", "2", "--seed", "0", "--isolation", "none",
                          "-a", "depth=3,x=1.5,flag=true,evaluation=score:1,food:-1.5"], capsys)
    assert (code, err) == (0, "")
    import cli_probe_agent  # type: ignore[import-not-found]

    assert cli_probe_agent.Probe.seen == [{"depth": 3, "x": 1.5, "flag": True,
                                           "evaluation": "score:1,food:-1.5", "index": 0}]
    assert "capped" in out


def test_reflex_agent_accepts_a_weighted_evaluation(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["play", "-l", "trappedClassic", "-p", "reflex", "-q", "--seed", "0",
                          "-a", "evaluation=score:1,food:-1.5"], capsys)
    assert (code, err) == (0, "")
    assert "Average Score:" in out


# --------------------------------------------------------------------------- a real process

def test_python_dash_m_pacman(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "pacman", *PLAY], capture_output=True,
                          text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert "Average Score:" in done.stdout and "Win Rate:      " in done.stdout
    assert re.search(r"^Win Rate:\s+\d/3 \(\d\.\d\d\)$", done.stdout, re.MULTILINE)
    bad = subprocess.run([sys.executable, "-m", "pacman", "play", "-l", "noSuchClassic"],
                         capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert bad.returncode == 2
    assert bad.stderr.startswith("pacman: error: ") and bad.stderr.count("\n") == 1
    assert bad.stdout == ""


def test_a_ctrl_c_python_wrapped_while_setting_up_a_class_is_one_line(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A Ctrl-C that lands while the standard library creates a class (`platform`'s, when a
    command first imports `uuid`) reaches the CLI as a RuntimeError caused by the interrupt."""
    import pacman.cli.layouts

    def interrupted(args: object) -> int:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as interrupt:
            raise RuntimeError("Error calling __set_name__") from interrupt

    def broken(args: object) -> int:
        raise RuntimeError("a bug")

    monkeypatch.setattr(pacman.cli.layouts, "run", interrupted)
    assert main(["layouts"]) == 130
    assert capsys.readouterr().err == "pacman: interrupted\n"
    monkeypatch.setattr(pacman.cli.layouts, "run", broken)
    with pytest.raises(RuntimeError, match="a bug"):
        main(["layouts"])
