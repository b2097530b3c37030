"""Reliability, round 2 (issue 27): replays, layouts, weights and settings a user hands in.

- items 2 and 8: a replay is read with a size cap and a type check, and its traces are checked
  field by field at load, so every replay command (`replay -q`, `replay --html`, `explain
  --move`) gives the same one line for a bad trace, a link to `/dev/zero` or a huge file;
  weights files likewise;
- item 3: a search deeper than Python's recursion allows is one line naming the limit
  (`MAX_SEARCH_MOVES`), in `explain` and for the agents' `depth` settings;
- item 7: a layout in a folder that cannot be entered is one line in every command, and
  `pacman layouts` lists the others;
- item 16: a replay naming a shipped layout with another maze does not verify, even with a
  recomputed digest; names from a replay are printed as printable text; numbers in settings
  are plain ASCII decimal.
"""

from __future__ import annotations

import builtins
import errno
import io
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from pacman.agents.search_core import MAX_SEARCH_MOVES
from pacman.cli import main
from pacman.errors import LayoutError, ReplayError
from pacman.files import LIMITS
from pacman.layout import LAYOUT_DIR, list_layouts
from pacman.replay import load_replay, verify
from pacman.replay.format import make_digest
from pacman.settings_text import typed

SHIPPED = (LAYOUT_DIR / "testClassic.lay").read_text(encoding="utf-8")
# another maze, saved under a shipped layout's name
OTHER_MAZE = "%%%%%%%%\n%P....G%\n%%%%%%%%\n"


def run(argv: Sequence[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def assert_one_line(code: int, err: str, *parts: str) -> None:
    """Exit 2 and exactly one stderr line `pacman: error: ...` holding every part."""
    assert code == 2, err
    assert err.count("\n") == 1 and err.startswith("pacman: error: "), err
    for part in parts:
        assert part in err, err


def rewrite(path: Path, change: Callable[[dict[str, Any]], None], *,
            digest: bool = True) -> Path:
    """Edit a replay file; with `digest`, recompute its digest as a forger would."""
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    if digest:
        data["digest"] = make_digest(data)
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def traced(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A traced alpha-beta game's replay, as JSON (the test writes its own copies)."""
    path = tmp_path_factory.mktemp("traced") / "traced.json"
    assert main(["play", "-q", "-p", "alphabeta", "-a", "depth=1", "-l", "testClassic",
                 "--seed", "1", "--max-moves", "4", "--trace", "--record", str(path)]) == 0
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    assert len(data["pacman_traces"]) == data["pacman_moves"] == 4
    return data


def with_trace(tmp_path: Path, traced: dict[str, Any], **fields: Any) -> Path:
    data = json.loads(json.dumps(traced))
    data["pacman_traces"][0].update(fields)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def nested(depth: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


# --------------------------------------------------------------------- item 2: traces


BAD_TRACES = [
    ({"principal_variation": 5}, "pacman_traces[0].principal_variation is a number, not a "
                                 "list of [agent, action] pairs"),
    ({"principal_variation": nested(900)}, "pacman_traces[0].principal_variation is not a "
                                           "list of [agent, action] pairs"),
    ({"principal_variation": [["0", "West"]]}, "principal_variation is not a list"),
    ({"principal_variation": [[-1, "West"]]}, "principal_variation is not a list"),
    ({"root_values": [["West", "big"]]}, "pacman_traces[0].root_values is not a list of "
                                         "[action, value] pairs"),
    ({"root_values": {"West": 1}}, "root_values is an object, not a list"),
    ({"depth": True}, "pacman_traces[0].depth is true/false, not a whole number >= 0"),
    ({"nodes_generated": -1}, "nodes_generated is a number, not a whole number >= 0"),
    ({"value": "1e999"}, "pacman_traces[0].value is text, not a number"),
    ({"method": None}, "pacman_traces[0].method is null, not text"),
]


@pytest.mark.parametrize("fields, message", BAD_TRACES,
                         ids=[str(i) for i in range(len(BAD_TRACES))])
@pytest.mark.parametrize("command", [["replay", "-q"], ["replay", "-q", "--html", "{html}"],
                                     ["explain", "--move", "1"]],
                         ids=["replay", "replay-html", "explain"])
def test_a_bad_trace_is_one_line_for_every_replay_command(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], traced: dict[str, Any],
        fields: dict[str, Any], message: str, command: list[str]) -> None:
    path = with_trace(tmp_path, traced, **fields)
    html = tmp_path / "page.html"
    argv = [arg.format(html=html) for arg in command] + [str(path)]
    code, out, err = run(argv, capsys)
    assert_one_line(code, err, f"{path}: malformed replay: ", message)
    assert out == "" and not html.exists()


def test_a_trace_without_a_field_is_malformed(tmp_path: Path, traced: dict[str, Any]) -> None:
    data = json.loads(json.dumps(traced))
    del data["pacman_traces"][2]["principal_variation"]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ReplayError, match=r"pacman_traces\[2\] has no 'principal_variation'"):
        load_replay(path)


def test_unknown_trace_keys_are_left_out_and_named(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], traced: dict[str, Any]) -> None:
    # a key of a later version, whatever it holds, is not read (nor drawn by the page)
    path = with_trace(tmp_path, traced, later=nested(900))
    replay = load_replay(path)
    assert replay.ignored == ("pacman_traces.later",)
    assert replay.record.pacman_traces[0] == traced["pacman_traces"][0]
    html = tmp_path / "page.html"
    code, out, err = run(["replay", "-q", "--html", str(html), str(path)], capsys)
    assert (code, err) == (0, "")
    assert "not read (unknown to this version): pacman_traces.later" in out
    assert html.stat().st_size > 0


def test_a_good_traced_replay_keeps_its_traces(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], traced: dict[str, Any]) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(traced), encoding="utf-8")
    replay = load_replay(path)
    assert list(replay.record.pacman_traces) == traced["pacman_traces"]
    code, out, err = run(["replay", "-q", "--html", str(tmp_path / "p.html"), str(path)],
                         capsys)
    assert (code, err) == (0, "") and "OK: the replay matches its record" in out


# --------------------------------------------------------------------- item 3: search depth


class Chain:
    """A game that never ends: agent 0 has two moves at the root and one after, every other
    agent one move; each state counts the moves made."""

    def __init__(self, agents: int, made: int = 0) -> None:
        self.num_agents, self.made = agents, made

    def legal_actions(self, agent: int) -> list[str]:
        return ["left", "right"] if self.made == 0 else ["on"]

    def successor(self, agent: int, action: str) -> Chain:
        return Chain(self.num_agents, self.made + 1)

    def is_win(self) -> bool:
        return False

    def is_lose(self) -> bool:
        return False

    @property
    def score(self) -> float:
        return float(self.made)


def searches() -> list[tuple[str, Callable[[Chain, int], Any]]]:
    from pacman.agents.multiplayer import expectiminimax, maxn
    from pacman.agents.search import alphabeta, expectimax, minimax

    def score(state: Chain) -> float:
        return state.score

    found: list[tuple[str, Callable[[Chain, int], Any]]] = []
    for name, search in (("minimax", minimax), ("alphabeta", alphabeta),
                         ("expectimax", expectimax)):
        found.append((name, lambda s, d, f=search: f(s, d, score)))
        found.append((f"{name}-traced", lambda s, d, f=search: f(s, d, score, trace=True)))
    found.append(("maxn", lambda s, d: maxn(s, d, lambda t: [t.score] * t.num_agents)))
    found.append(("expectiminimax", lambda s, d: expectiminimax(
        s, d, score, kinds=["max"] + ["chance"] * (s.num_agents - 1))))
    return found


@pytest.mark.parametrize("agents", [1, 3, 7])
def test_every_search_reaches_the_deepest_depth_and_refuses_one_more(agents: int) -> None:
    """At depth MAX_SEARCH_MOVES // agents the whole chain is searched (one Python call or two
    per move, under pytest's own deep stack); one more is a ValueError naming the limit."""
    deepest = MAX_SEARCH_MOVES // agents
    for name, search in searches():
        decision = search(Chain(agents), deepest)
        assert decision.action == "left", name
        with pytest.raises(ValueError, match=f"the deepest search is {MAX_SEARCH_MOVES} moves "
                                             rf"\(depth {deepest} with {agents} agents\)"):
            search(Chain(agents), deepest + 1)


def test_iterative_deepening_reaches_its_deepest_setting() -> None:
    from pacman.agents.anytime import iterative_search

    decision = iterative_search(Chain(3), lambda state: state.score,
                                max_depth=MAX_SEARCH_MOVES)
    assert decision.depth == MAX_SEARCH_MOVES and decision.action == "left"


@pytest.mark.parametrize("depth", ["101", "250", "500", "1000"])
def test_explain_beyond_the_deepest_search_is_one_line(
        depth: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["explain", "--layout", "smallClassic", "--depth", depth], capsys)
    assert_one_line(code, err, f"search depth {depth} with 3 agents",
                    f"the deepest search is {MAX_SEARCH_MOVES} moves (depth 100 with 3 agents)")
    assert out == ""


@pytest.mark.parametrize("argv, who", [
    (["-p", "alphabeta", "-a", "depth=1000"], "AlphaBetaAgent"),
    (["-p", "iterative-alphabeta", "-a", "depth=301"], "IterativeAlphaBetaAgent"),
    (["-p", "random", "-g", "adversarial", "--ghost-args", "depth=1000"], "AdversarialGhost"),
    (["-p", "random", "-g", "maxn", "--ghost-args", "depth=1000"], "MaxnGhost"),
])
def test_a_depth_setting_no_search_can_reach_is_one_line(
        argv: list[str], who: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["play", "-q", "-l", "smallClassic", *argv], capsys)
    assert_one_line(code, err, f"bad settings for {who}: depth must be at most "
                               f"{MAX_SEARCH_MOVES}")
    assert out == ""


def test_a_depth_too_deep_for_the_layouts_agents_is_the_agents_recorded_crash(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    code, out, err = run(["play", "-q", "-p", "alphabeta", "-a", "depth=200", "-l",
                          "smallClassic", "--seed", "1", "--record", str(path)], capsys)
    assert (code, err) == (0, "")
    assert out.startswith("game 1: seed 1, crash, score 0, 0 moves (ValueError: search depth")
    record = json.loads(path.read_text(encoding="utf-8"))
    assert (record["outcome"], record["fault_agent"]) == ("crash", 0)
    assert record["fault"] == ("ValueError: search depth 200 with 3 agents is 600 moves deep "
                               "(depth x agents); the deepest search is 300 moves (depth 100 "
                               "with 3 agents)")


# --------------------------------------------------------------------- item 7: permissions


@pytest.fixture
def locked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder that cannot be entered, as the system has it for a user who is not root:
    looking at or opening anything inside it (through links too) is EACCES. Simulated, so
    that the test means the same run as root, where permissions are not enforced."""
    folder = tmp_path / "locked"
    folder.mkdir()
    (folder / "x.lay").write_text(SHIPPED, encoding="utf-8")
    inside = str(folder.resolve()) + os.sep
    real_stat, real_open = os.stat, builtins.open

    def denied(path: Any) -> bool:
        return (isinstance(path, (str, os.PathLike))
                and os.path.realpath(os.fspath(path)).startswith(inside))

    def fake_stat(path: Any, *args: Any, **kwargs: Any) -> os.stat_result:
        if denied(path):
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))
        return real_stat(path, *args, **kwargs)

    def fake_open(path: Any, *args: Any, **kwargs: Any) -> Any:
        if denied(path):
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "stat", fake_stat)
    monkeypatch.setattr(builtins, "open", fake_open)
    monkeypatch.setattr(io, "open", fake_open)
    monkeypatch.chdir(tmp_path)
    return folder


@pytest.mark.parametrize("argv", [
    ["play", "-q", "-p", "random", "-l", "locked/x.lay"],
    ["batch", "-p", "random", "-l", "locked/x.lay", "-n", "1", "-o", "s.db"],
    ["explain", "--layout", "locked/x.lay"],
    ["play", "-q", "-p", "random", "-l", "locked/x.lay@rot90"],
], ids=["play", "batch", "explain", "symmetry"])
def test_a_layout_in_a_folder_that_cannot_be_entered_is_one_line(
        locked: Path, argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(argv, capsys)
    assert_one_line(code, err, "locked/x.lay", "cannot read: permission denied")
    assert out == "" and not Path("s.db").exists()


def test_the_env_refuses_such_a_layout_with_its_layout_error(locked: Path) -> None:
    pytest.importorskip("gymnasium")
    from pacman.envs.gym_env import PacmanEnv

    with pytest.raises(LayoutError, match=r"locked/x\.lay: cannot read: permission denied"):
        PacmanEnv(layout="locked/x.lay")


def test_layouts_lists_the_others_and_names_the_one_it_cannot_read(
        locked: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "layouts"
    folder.mkdir()
    (folder / "good.lay").write_text(SHIPPED, encoding="utf-8")
    (folder / "inside.lay").symlink_to(locked / "x.lay")
    (folder / "loop.lay").symlink_to(folder / "loop.lay")
    layouts, bad = list_layouts(folder)
    assert [layout.name for layout in layouts] == ["good"]
    assert [(path.name, problem.removeprefix(f"{path}: ")) for path, problem in bad] == [
        ("inside.lay", "cannot read: permission denied"),
        ("loop.lay", "cannot read: a loop of symbolic links")]
    monkeypatch.setattr("pacman.layout.LAYOUT_DIR", folder)
    code, out, err = run(["layouts"], capsys)
    assert code == 0
    assert [line.split()[0] for line in out.splitlines()] == ["layout", "good"]
    assert err.splitlines() == [
        "pacman: note: inside.lay is not listed: "
        f"{folder / 'inside.lay'}: cannot read: permission denied",
        f"pacman: note: loop.lay is not listed: {folder / 'loop.lay'}: cannot read: a loop "
        "of symbolic links"]


def _unprivileged() -> list[str]:
    """The command prefix that runs a child permissions apply to: none, or, when this is root
    (root reads any folder), `setpriv` as user `nobody` (it finds the interpreter while still
    root, so it also works when Python lives under root's own folder)."""
    if os.geteuid() != 0:
        return []
    prefix = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    problem = "no setpriv"
    if shutil.which("setpriv"):
        probe = subprocess.run([*prefix, sys.executable, "-c", "import pacman"],
                               capture_output=True, text=True, cwd="/", timeout=60)
        problem = probe.stderr[-200:] if probe.returncode else ""
    if problem:
        pytest.skip("root ignores folder permissions, and this Python cannot be run as user "
                    f"nobody to try them ({problem}); the simulated tests above cover it")
    return prefix


@pytest.fixture
def open_folder() -> Iterator[Path]:
    """A folder anyone may enter (pytest's own is its user's only)."""
    folder = Path(tempfile.mkdtemp(prefix="pacman-perm-"))
    folder.chmod(0o755)
    yield folder
    for path in folder.rglob("*"):
        if path.is_dir() and not path.is_symlink():
            path.chmod(0o755)
    shutil.rmtree(folder)


def test_a_real_folder_that_cannot_be_entered(open_folder: Path) -> None:
    """The same with the system's own permissions (as `nobody` when the tests run as root)."""
    as_user = _unprivileged()
    locked = open_folder / "locked"
    locked.mkdir()
    (locked / "x.lay").write_text(SHIPPED, encoding="utf-8")
    (open_folder / "inside.lay").symlink_to(locked / "x.lay")
    locked.chmod(0)
    import pacman

    # the children import this very package, as user nobody from another folder
    env = {**os.environ, "HOME": str(open_folder),
           "PYTHONPATH": str(Path(pacman.__file__).resolve().parent.parent)}
    for argv in (["play", "-q", "-p", "random", "-l", "locked/x.lay"],
                 ["play", "-q", "-p", "random", "-l", "inside.lay"]):
        done = subprocess.run([*as_user, sys.executable, "-m", "pacman", *argv],
                              capture_output=True, text=True, cwd=open_folder, env=env,
                              timeout=120)
        assert done.returncode == 2, done.stderr
        assert done.stderr.count("\n") == 1, done.stderr
        assert done.stderr.startswith("pacman: error: ")
        assert "cannot read: permission denied" in done.stderr
    listing = ("import sys; from pacman.layout import list_layouts; good, bad = "
               "list_layouts(sys.argv[1]); print([g.name for g in good], "
               "[p.name for p, _ in bad])")
    (open_folder / "good.lay").write_text(SHIPPED, encoding="utf-8")
    done = subprocess.run([*as_user, sys.executable, "-c", listing, str(open_folder)],
                          capture_output=True, text=True, cwd=open_folder, env=env,
                          timeout=120)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == "['good'] ['inside.lay']\n"
    assert stat.S_IMODE(locked.stat().st_mode) == 0  # the test did lock it


# --------------------------------------------------------------------- item 8: size and type


def make_huge(path: Path, size: int) -> Path:
    with path.open("wb") as out:
        out.truncate(size)  # sparse: nothing is written
    return path


@pytest.mark.parametrize("kind", ["zero", "huge", "folder"])
@pytest.mark.parametrize("command", [["replay", "-q"], ["replay", "-q", "--html", "p.html"],
                                     ["explain", "--move", "1"]],
                         ids=["replay", "replay-html", "explain"])
def test_a_replay_that_is_no_file_or_too_large_is_refused_before_reading(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        kind: str, command: list[str]) -> None:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "game.json"
    if kind == "zero":
        path.symlink_to("/dev/zero")
        expected = f"{path}: not a regular file"
    elif kind == "huge":
        make_huge(path, LIMITS["replay"] + 1)
        expected = (f"{path}: too large: {LIMITS['replay'] + 1:,} bytes (the limit for a "
                    f"replay file is {LIMITS['replay']:,})")
    else:
        path.mkdir()
        expected = f"{path}: a folder"
    code, out, err = run([*command, str(path)], capsys)
    assert_one_line(code, err)
    assert err == f"pacman: error: {expected}\n"
    assert out == "" and not (tmp_path / "p.html").exists()


@pytest.mark.parametrize("kind", ["zero", "huge"])
def test_a_weights_file_that_is_no_file_or_too_large_is_refused_before_reading(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str) -> None:
    path = tmp_path / "weights.json"
    if kind == "zero":
        path.symlink_to("/dev/zero")
        expected = "not a regular file"
    else:
        make_huge(path, LIMITS["weights"] + 1)
        expected = (f"too large: {LIMITS['weights'] + 1:,} bytes (the limit for a weights "
                    f"file is {LIMITS['weights']:,})")
    code, out, err = run(["play", "-q", "-p", "alphabeta", "-a", f"evaluation=@{path}",
                          "-l", "testClassic"], capsys)
    assert_one_line(code, err, f"weights file '{path}': {expected}")
    assert out == ""


# --------------------------------------------------------------------- item 16


def test_a_replay_naming_a_shipped_layout_with_another_maze_does_not_verify(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A game played on a file named like a shipped layout: its replay, digest and all, says
    "testClassic" but holds another maze."""
    monkeypatch.chdir(tmp_path)
    Path("testClassic.lay").write_text(OTHER_MAZE, encoding="utf-8")
    assert main(["play", "-q", "-p", "greedy", "-l", "./testClassic.lay", "--seed", "1",
                 "--record", "forged.json"]) == 0
    capsys.readouterr()
    verdict = verify(load_replay("forged.json"))
    assert verdict.digest == "verified"
    assert [str(d) for d in verdict.differences] == [
        "layout: 'testClassic' is a shipped layout, but layout_text is another maze"]
    code, out, err = run(["replay", "-q", "forged.json"], capsys)
    assert (code, err) == (1, "")
    assert "MISMATCH: the replay does not match the record (1 difference):" in out


def test_a_symmetry_of_a_shipped_layout_is_checked_against_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    assert main(["play", "-q", "-p", "greedy", "-l", "testClassic@rot90", "--seed", "1",
                 "--record", str(path)]) == 0
    capsys.readouterr()
    code, out, err = run(["replay", "-q", str(path)], capsys)
    assert (code, err) == (0, "")
    assert "checked against the shipped layout testClassic@rot90: layout, layout_text" in out
    # the same game's file relabelled as the unturned layout, digest recomputed
    rewrite(path, lambda data: data.update(layout="testClassic"))
    verdict = verify(load_replay(path))
    assert [d.field for d in verdict.differences] == ["layout"]


ESCAPES = "\x1b[31mred\x1b[0m\x1b]0;title\x07\u202e"


def escaped_replay(tmp_path: Path, traced: dict[str, Any]) -> Path:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(traced), encoding="utf-8")

    def change(data: dict[str, Any]) -> None:
        data["agents"][0] = f"AlphaBetaAgent {ESCAPES}"
        data["agents"][1] = f"ghost\n{ESCAPES}"
        data["layout"] = f"my{ESCAPES}"
        data["package_version"] = ESCAPES
        data[f"key{ESCAPES}"] = 1

    return rewrite(path, change)


def test_names_from_a_replay_are_printed_as_printable_text(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], traced: dict[str, Any]) -> None:
    path = escaped_replay(tmp_path, traced)
    for flags in (["-q"], ["-t", "--frame-time", "0"]):
        code, out, err = run(["replay", *flags, str(path)], capsys)
        assert (code, err) == (0, ""), out
        assert out.isprintable() is False  # line breaks, but nothing else
        assert all(line.isprintable() for line in out.splitlines()), out
        assert "AlphaBetaAgent \\x1b[31mred\\x1b[0m\\x1b]0;title\\x07\\u202e" in out
        assert "ghost\\n\\x1b[31m" in out
    code, out, err = run(["replay", "-q", str(path)], capsys)
    assert out.splitlines()[0].startswith("my\\x1b[31mred")
    assert "package_version \\x1b[31m" in out and "key\\x1b[31m" in out


def test_explain_prints_a_replays_names_as_printable_text(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], traced: dict[str, Any]) -> None:
    path = escaped_replay(tmp_path, traced)
    code, out, err = run(["explain", str(path), "--move", "1", "--method", "alphabeta",
                          "--depth", "1", "--evaluation", "score"], capsys)
    assert (code, err) == (0, "")
    assert all(line.isprintable() for line in out.splitlines())
    assert "by AlphaBetaAgent \\x1b[31mred" in out


@pytest.mark.parametrize("argv, message", [
    (["-p", "alphabeta", "-a", "depth=\u0663"], "depth must be a positive integer, got '\u0663'"),
    (["-p", "alphabeta", "-a", "depth=1_0"], "depth must be a positive integer, got '1_0'"),
    (["-p", "alphabeta", "-a", "depth=\uff13"], "depth must be a positive integer"),
    (["-p", "random", "-g", "adversarial", "--ghost-args", "depth=\u0661"],
     "depth must be a whole number >= 1"),
    (["-p", "random", "-g", "directional", "--ghost-args", "prob_attack=0_5"],
     "prob_attack must be a number between 0 and 1, got '0_5'"),
    (["-p", "alphabeta", "-a", "evaluation=score:1_0"],
     "bad weight '1_0' for 'score' in evaluation 'score:1_0' (a weight is a plain decimal "
     "number)"),
    (["-p", "alphabeta", "-a", "evaluation=score:\u0661,food:-1"], "bad weight '\u0661'"),
])
def test_numbers_in_settings_are_plain_ascii_decimal(
        argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["play", "-q", "-l", "testClassic", *argv], capsys)
    assert_one_line(code, err, message)
    assert out == ""


@pytest.mark.parametrize("text, value", [
    ("3", 3), ("-2", -2), ("+4", 4), ("1.5", 1.5), ("1e3", 1000.0), (".5", 0.5),
    ("true", True), ("none", None), ("1_0", "1_0"), ("\u0663", "\u0663"),
    ("\u0663.5", "\u0663.5"), ("1_0.5", "1_0.5"), ("better", "better"),
])
def test_typed_reads_only_plain_numbers_as_numbers(text: str, value: Any) -> None:
    result = typed(text)
    assert result == value and type(result) is type(value)


def test_explain_reads_a_recorded_depth_only_in_ascii_digits(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], traced: dict[str, Any]) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(traced), encoding="utf-8")
    rewrite(path, lambda data: data["agents"].__setitem__(0, "AlphaBetaAgent depth=\u0663 "
                                                             "better"))
    code, out, err = run(["explain", str(path), "--move", "1"], capsys)
    assert_one_line(code, err, "so its search is unknown: give --depth")
    assert out == ""
