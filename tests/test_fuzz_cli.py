"""Fuzzing the command line: random argument vectors and random layouts.

The promise under test, for every input: the command exits 0 (or 1 where a command reports a
failed check: `grade`, `replay`), or exits 2 with exactly one line on stderr; it never prints a
traceback and never runs past its time limit. The default run tries a few hundred inputs; the
`slow` run (`scripts/check -m slow`) tries thousands.

`python scripts/fuzz_census.py N` runs N inputs outside pytest and prints how they ended.
"""

from __future__ import annotations

import contextlib
import io
import signal
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pacman.cli import main

SECONDS_PER_INPUT = 30  # a generous limit: every game below is capped at 60 moves
REPO = Path(__file__).resolve().parents[1]


class Hang(BaseException):
    """An input ran past its limit."""


@contextlib.contextmanager
def deadline(seconds: int) -> Iterator[None]:
    def expire(signum: int, frame: object) -> None:
        raise Hang

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def run(argv: list[str]) -> tuple[int, str, str]:
    """`pacman ARGV` in this process: exit status, stdout, stderr."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
            deadline(SECONDS_PER_INPUT):
        try:
            code = main(argv)
        except SystemExit as exit_:  # argparse's --help and --version
            code = exit_.code if isinstance(exit_.code, int) else 0
    return code, out.getvalue(), err.getvalue()


def verdict(argv: list[str]) -> str:
    """`ok`, `checked` (exit 1), `clean error` (exit 2, one line); anything else fails."""
    code, out, err = run(argv)
    assert "Traceback" not in out + err, (argv, err)
    if code == 0:
        return "ok"
    if code == 1 and argv and argv[0] in ("grade", "replay", "store"):
        return "checked"
    assert code == 2, (argv, code, err)
    lines = err.strip("\n").split("\n")
    assert len(lines) == 1 and lines[0].startswith("pacman: error: "), (argv, err)
    return "clean error"


# --- the inputs -----------------------------------------------------------------------------

LAYOUT_CHARS = "%%%%%% ....oPGG12x"


@st.composite
def layout_texts(draw: st.DrawFn) -> str:
    """Random layout text: mostly plausible (a wall border), sometimes anything."""
    width = draw(st.integers(1, 14))
    height = draw(st.integers(1, 9))
    rows = [draw(st.text(LAYOUT_CHARS, min_size=width, max_size=width)) for _ in range(height)]
    if draw(st.booleans()):  # a wall border: the interesting, playable-looking cases
        rows = ["%" * width if y in (0, height - 1) else
                ("%" + row[1:-1] + "%" if width > 1 else "%") for y, row in enumerate(rows)]
    if draw(st.booleans()) and height > 2 and width > 2:  # make sure Pacman is there
        middle = rows[height // 2]
        rows[height // 2] = middle[:width // 2] + "P" + middle[width // 2 + 1:]
    text = "\n".join(rows)
    if draw(st.integers(0, 9)) == 0:
        text = draw(st.sampled_from(["\ufeff", "\x00", "  ", "\r\n"])) + text
    return text


NUMBERS = st.sampled_from(["0", "1", "2", "3", "-1", "0.5", "1e3", "nan", "inf", "-inf", "",
                           "10" * 15, "x", "1_000", "0x10", " 2", "1e999", "\u0663", "1_0",
                           "\uff11", "1" * 5000])
AGENTS = st.sampled_from([
    "greedy", "random", "RandomAgent", "ReflexAgent", "minimax", "alphabeta", "expectimax",
    "GreedyAgent", "keyboard", "nope", ":", "x:", ":Y", "builtins:object", "builtins:int",
    "os:path", "../x:y", "pacman.agents.simple:RandomAgent", "pacman.agents.simple:Nope",
    "pacman.state:GameState", "sys:exit", "json:loads", "tests/cases/x.py:A", "a" * 300,
])
GHOSTS = st.sampled_from(["RandomGhost", "directional", "adversarial", "random", "nope",
                          "greedy", "builtins:object", "pacman.agents.ghosts:RandomGhost"])
SETTINGS = st.sampled_from([
    "", "depth=1", "depth=2", "depth=0", "depth=-3", "depth=x", "depth=nan", "depth=1e9",
    "evaluation=better", "evaluation=score:1,food:-1", "evaluation=score:nan",
    "evaluation=nope", "evaluation=score:1,score:2", "evaluation=os:system",
    "allow_stop=false", "allow_stop=maybe", "tie_break=random", "tie_break=x", "evalFn=better",
    "depth=1,depth=2", "=", ",", "x=1", "depth", "prob_attack=0.9", "prob_attack=2",
    "prob_attack=true", "ghost_model=directional", "ghost_model=x",
    # round 3: budgets beyond any move, ghost indexes beyond any int()
    "playouts=" + "1" * 30, "nodes=10000000000", "time=1e9", "1" * 5000 + ":prob_attack=1",
    "99999:prob_attack=1"])
LAYOUT_NAMES = st.sampled_from(["testClassic", "smallClassic", "minimaxClassic", "nope",
                                "", "/", "/dev/null", "README.md", "trappedClassic"])


@st.composite
def play_argv(draw: st.DrawFn, layout_file: Path) -> list[str]:
    argv = ["play", "-q", "--max-moves", "60", "--seed", draw(st.sampled_from(["1", "2"]))]
    if draw(st.booleans()):
        layout_file.write_text(draw(layout_texts()), encoding="utf-8", errors="surrogatepass")
        argv += ["-l", str(layout_file)]
    else:
        argv += ["-l", draw(LAYOUT_NAMES)]
    argv += ["-p", draw(AGENTS)]
    if draw(st.booleans()):
        argv += ["-a", draw(SETTINGS)]
    if draw(st.booleans()):
        argv += ["-g", draw(GHOSTS)]
    if draw(st.booleans()):
        argv += ["--ghost-args", draw(SETTINGS)]
    for option in draw(st.lists(st.sampled_from(
            ["-k", "-n", "--timeout", "--game-timeout", "--frame-time", "--zoom",
             "--max-moves", "--seed"]), max_size=3, unique=True)):
        value = draw(NUMBERS)
        if option == "-n" and value not in ("", "x"):
            value = draw(st.sampled_from(["1", "2", "0", "-1", value]))
        if option in ("--timeout", "--game-timeout") and value in ("1e3", "10" * 15, "inf"):
            value = "5"  # a real limit: these inputs must not wait for it
        argv += [option, value]
    if draw(st.integers(0, 4)) == 0:
        argv += draw(st.sampled_from([["--record", ""], ["--record", "/"],
                                      ["--record-dir", "/dev/null"], ["--screenshot", "/"],
                                      ["-f"], ["-c"], ["--bogus"], ["extra"]]))
    return argv


@st.composite
def other_argv(draw: st.DrawFn, scratch: Path) -> list[str]:
    """The other commands, with the arguments most likely to be wrong."""
    replay = scratch / "fuzz-replay.json"
    replay.write_text(draw(st.sampled_from([
        "", "{}", "[]", "1e999", '{"format": "pacman-replay"}', "[" * 5000 + "]" * 5000,
        '{"format": "pacman-replay", "format_version": 1, "layout": 3}', "\x00\x01"])))
    store = scratch / "fuzz-store.db"
    store.write_bytes(draw(st.sampled_from([b"", b"SQLite format 3\x00" + b"\x00" * 80,
                                            b"not a database"])))
    return draw(st.sampled_from([
        ["layouts"], [], ["--version"], ["-h"], ["nope"], ["play", "--help"],
        ["replay", str(replay), "-q"], ["replay", str(scratch / "missing.json"), "-q"],
        ["table", str(store)], ["table", str(scratch / "missing.db")],
        ["plot", str(store), "-o", str(scratch / "plots")],
        ["table", str(store), "--by", draw(st.sampled_from(["", "agent", "nope", ",,"]))],
        ["grade", str(scratch / "missing")], ["grade", str(REPO / "README.md")],
        ["grade", str(REPO / "tests" / "malformed_cases"), "--in-process"],
        ["grade", str(REPO / "tests" / "cases" / "minimax"), "--in-process", "-q", "q9"],
        ["grade", "--example", "--in-process", "-q", draw(st.sampled_from(["q2", "q7", ""]))],
        ["grade", "--agents", "nope.py", str(REPO / "tests" / "cases")],
        ["batch", "-p", draw(AGENTS), "-n", draw(NUMBERS), "--dry-run", "-o",
         str(scratch / "fuzz-batch.db"), "-l", draw(LAYOUT_NAMES)],
        ["batch", "--seed", draw(NUMBERS), "-p", "greedy", "--dry-run", "-o",
         str(scratch / "fuzz-batch.db")],
        ["batch", str(replay)], ["batch", "-a", "depth=1"],
        ["assumptions", "--games", draw(NUMBERS), "-o", str(store)],
    ]))


#: output paths of every kind (issue 46): none of them is written outside the scratch folder
#: (as root, a path such as /dev/x.gif would be: there is none here)
def _output_paths(scratch: Path) -> list[str]:
    (scratch / "a-file.txt").write_text("x", encoding="utf-8")
    (scratch / "a-folder.gif").mkdir(exist_ok=True)
    return ["", " ", "/", "/dev/null", "/dev/full", "/dev/null/x.gif", "/proc/x.gif",
            "/proc/self/x.png", "/sys/x.gif", str(scratch / "a-file.txt"),
            str(scratch / "a-file.txt" / "x.gif"), str(scratch / "a-folder.gif"),
            str(scratch / ("n" * 300 + ".gif")), str(scratch / ("n" * 300) / "x.json"),
            str(scratch / "out" / "x.gif"), str(scratch / "out" / "x.png"),
            str(scratch / "out" / "x.json"), str(scratch / "out" / "x.webp"),
            str(scratch / "out" / "frames"), str(scratch / "out" / "page.html"),
            str(scratch / "new" / "deeper" / "x.json")]


OUTPUT_FLAGS = ["--record", "--record-dir", "--screenshot", "--gif", "--animation-fps",
                "--animation-skip"]


@st.composite
def output_argv(draw: st.DrawFn, scratch: Path) -> list[str]:
    """`play` or `replay` with outputs anywhere: each is written, or refused in one line
    before the game (exit 2); a game played keeps its record."""
    paths = _output_paths(scratch)
    if draw(st.booleans()):
        flags = draw(st.lists(st.sampled_from(OUTPUT_FLAGS), min_size=1, max_size=3,
                              unique=True))
        argv = ["play", "-q", "-l", "testClassic", "-p", "greedy", "--max-moves", "12",
                "--seed", "1"]
    else:
        replay = scratch / "output-replay.json"
        if not replay.exists():
            assert run(["play", "-q", "-l", "testClassic", "-p", "greedy", "--max-moves", "12",
                        "--seed", "1", "--record", str(replay)])[0] == 0
        flags = draw(st.lists(st.sampled_from(["--html", *OUTPUT_FLAGS[2:]]), min_size=1,
                              max_size=3, unique=True))
        argv = ["replay", str(replay), draw(st.sampled_from(["-q", "-t"])), "--frame-time", "0"]
    for flag in flags:
        value = draw(NUMBERS) if flag.startswith("--animation") else draw(
            st.sampled_from(paths))
        argv += [flag, value]
    return argv


@pytest.fixture(scope="module")
def scratch() -> Iterator[Path]:
    with tempfile.TemporaryDirectory() as folder:
        yield Path(folder)


@pytest.fixture(autouse=True)
def _headless(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")


@settings(max_examples=250, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow])
@given(data=st.data())
def test_random_play_command_lines(data: st.DataObject, scratch: Path) -> None:
    verdict(data.draw(play_argv(scratch / "fuzz.lay")))


@settings(max_examples=80, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow])
@given(data=st.data())
def test_random_other_command_lines(data: st.DataObject, scratch: Path) -> None:
    verdict(data.draw(other_argv(scratch)))


def _output_case(argv: list[str], scratch: Path) -> str:
    """One `output_argv` input: its verdict, and the game's record intact when one was
    asked for and the command went through (exit 0) or failed only after the game."""
    import shutil

    shutil.rmtree(scratch / "out", ignore_errors=True)
    shutil.rmtree(scratch / "new", ignore_errors=True)
    ending = verdict(argv)
    if "--record" in argv and ending == "ok":
        from pacman.replay import load_replay, verify

        assert verify(load_replay(argv[argv.index("--record") + 1])).matches
    return ending


@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow])
@given(data=st.data())
def test_random_output_paths(data: st.DataObject, scratch: Path) -> None:
    _output_case(data.draw(output_argv(scratch)), scratch)


@pytest.mark.slow
@settings(max_examples=600, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow])
@given(data=st.data())
def test_many_random_output_paths(data: st.DataObject, scratch: Path) -> None:
    _output_case(data.draw(output_argv(scratch)), scratch)


@pytest.mark.slow
@settings(max_examples=3000, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow])
@given(data=st.data())
def test_many_random_command_lines(data: st.DataObject, scratch: Path) -> None:
    if data.draw(st.integers(0, 3)):
        verdict(data.draw(play_argv(scratch / "fuzz.lay")))
    else:
        verdict(data.draw(other_argv(scratch)))
