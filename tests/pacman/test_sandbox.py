"""The sandbox's plan and its parts: what a host is given of the user's code, how names come
back, escapes, and the one line where the machine cannot build a sandbox."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from pacman.cli import main
from pacman.hosting import sandbox
from pacman.hosting.isolation import printable
from pacman.hosting.sandbox import LIBDIR, WORKDIR, Carried

CASE = Path(__file__).parents[1] / "cases" / "alphabeta" / "05-tie-with-alpha.test"
CORRECT = Path(__file__).parents[1] / "cs188" / "submissions" / "correct" / "multiAgents.py"


def test_control_characters_are_escaped_but_newlines_and_tabs_kept() -> None:
    assert printable("a\x1b[2J\r\tb\n\x07\x9b\x7f") == "a\\x1b[2J\\r\tb\n\\x07\\x9b\\x7f"


def test_a_file_is_carried_with_its_python_siblings_but_not_a_classic_pacman_or_a_link(
        tmp_path: Path) -> None:
    for name in ("agent.py", "helper.py", "pacman.py", "notes.txt"):
        (tmp_path / name).write_text("x = 1\n")
    (tmp_path / "linked.py").symlink_to(tmp_path / "helper.py")
    carried = Carried()
    assert carried.carry(str(tmp_path / "agent.py")) == f"{WORKDIR}/agent.py"
    assert carried.pairs() == [(str(tmp_path / "agent.py"), "agent.py"),
                               (str(tmp_path / "helper.py"), "helper.py")]
    assert carried.source(f"{WORKDIR}/agent.py") == str(tmp_path / "agent.py")
    assert carried.as_given(f"Agent {WORKDIR}/agent.py:f") == f"Agent {tmp_path}/agent.py:f"


def test_a_module_goes_where_python_found_it(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    here, there = tmp_path / "here", tmp_path / "there"
    here.mkdir()
    there.mkdir()
    (here / "local_eval.py").write_text("def f(s): return 0\n")
    (there / "path_eval.py").write_text("def f(s): return 0\n")
    monkeypatch.chdir(here)
    monkeypatch.syspath_prepend(str(there))
    carried = Carried()
    assert carried.carry("local_eval") == "local_eval"
    assert carried.carry("path_eval") == "path_eval"
    assert carried.carry("json") == "json"  # the installation's: the host sees it there
    assert dict(carried.files) == {"local_eval.py": str(here / "local_eval.py"),
                                   "lib/path_eval.py": str(there / "path_eval.py")}
    assert carried.source(f"{LIBDIR}/path_eval.py") == str(there / "path_eval.py")


def test_where_no_sandbox_can_be_built_grade_says_so_in_one_line(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sandbox, "_probe", lambda: "user namespaces are off")
    assert main(["grade", str(CASE), "--agents", str(CORRECT)]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err == ["pacman: warning: agent code runs without a sandbox here (user namespaces "
                   "are off): it shares your files, processes and network; only its time and "
                   "memory are limited"]



@pytest.mark.skipif(not sandbox.available(), reason="no sandbox on this machine")
def test_a_folder_seen_below_tmp_is_there_above_the_private_tmp() -> None:
    """A virtual environment under /tmp (a CI clone's) must stay visible: the host's own /tmp
    is mounted first and the binds go on top of it."""
    with tempfile.TemporaryDirectory(dir="/tmp") as folder:
        Path(folder).chmod(0o755)  # the host's uid is not this process's
        (Path(folder) / "seen.txt").write_text("here")
        reader = f"print(open({str(Path(folder) / 'seen.txt')!r}).read())"
        plan = sandbox.plan([sys.executable, "-I", "-S", "-c", reader], [])
        plan["binds"].append([folder, folder])
        done = subprocess.run(sandbox.command(plan), capture_output=True, text=True,
                              timeout=60, stdin=subprocess.DEVNULL)
    assert (done.returncode, done.stdout, done.stderr) == (0, "here\n", "")


@pytest.mark.skipif(not (os.environ.get("CI") and sys.platform.startswith("linux")),
                    reason="CI's machines are Linux as root: there the sandbox must be built")
def test_ci_builds_the_sandbox_so_that_its_attack_tests_run() -> None:
    """The attack corpus skips where there is no sandbox; CI must not be such a place."""
    assert sandbox.limitation() == ""


HOG = '''
import os
from pacman.agents.base import BaseAgent

for _ in range(3):  # processes that spin, on every CPU, for as long as they live
    if os.fork() == 0:
        os.sched_setaffinity(0, range(os.cpu_count()))
        while True:
            pass


class Hog(BaseAgent):
    def get_action(self, state):
        return state.legal_actions(0)[0]
'''


@pytest.mark.skipif(not sandbox.cgroup_controllers(),
                    reason="no cgroups a host may be given here (not root, or none mounted)")
def test_a_host_and_all_it_starts_share_its_cgroups_limits_which_go_with_it(
        tmp_path: Path) -> None:
    """The processes, the CPU time and the memory of everything a host starts are bounded
    together: three CPU hogs forked at import are in the host's cgroups, which allow 64
    processes, one CPU's time and the memory cap for all of them; closing the host removes
    them."""
    from pacman.hosting.agent_host import HostedAgent
    from pacman.layout import load_layout

    (tmp_path / "hog.py").write_text(HOG)
    before = _host_cgroups()
    agent = HostedAgent(f"{tmp_path / 'hog.py'}:Hog", "pacman", {}, 0,
                        load_layout("smallClassic"), 2, memory_mb=512)
    try:
        mine = _host_cgroups() - before
        bases = {folder for folder, _ in sandbox._cgroup_bases().values()}
        assert {str(Path(folder).parent) for folder in mine} == bases  # one in each
        for folder in mine:
            settings = {path.name: path.read_text().split() for path in Path(folder).iterdir()
                        if path.name in ("pids.max", "cpu.cfs_quota_us", "cpu.max",
                                         "memory.limit_in_bytes", "memory.max")}
            if "pids.max" in settings:
                assert settings["pids.max"] == [str(sandbox.PROCESSES)]
                procs = (Path(folder) / "cgroup.procs").read_text().split()
                assert len(procs) >= 5  # the launcher, the host and its three hogs
            if "cpu.cfs_quota_us" in settings:
                assert settings["cpu.cfs_quota_us"] == [str(sandbox.CPU_QUOTA_US)]
            if "memory.limit_in_bytes" in settings:
                assert settings["memory.limit_in_bytes"] == [str(512 << 20)]
    finally:
        agent.close()
    assert not _host_cgroups() & mine  # gone with the host


def _host_cgroups() -> set[str]:
    found = set()
    for folder, _ in sandbox._cgroup_bases().values():
        found |= {str(p) for p in Path(folder).glob("host-*")}
    return found


OUR_API = '''
from pacman.agents.base import BaseAgent


def score(state):
    return state.score


class MinimaxAgent(BaseAgent):
    """Minimax in this project's API, written from scratch on the agent base class."""

    def __init__(self, depth=2, evaluation=None, index=0):
        self.depth, self.evaluation, self.index = int(depth), evaluation or score, index

    def get_action(self, state):
        n = state.num_agents

        def value(s, agent, depth):
            if s.is_win() or s.is_lose() or depth == self.depth:
                return self.evaluation(s)
            following = (agent + 1) % n
            deeper = depth + 1 if following == 0 else depth
            values = [value(s.successor(agent, a), following, deeper)
                      for a in s.legal_actions(agent)]
            return max(values) if agent == 0 else min(values)

        return max(state.legal_actions(0), key=lambda a: value(state.successor(0, a), 1, 0))
'''


@pytest.mark.parametrize("where", [[], ["--in-process"]])
def test_a_class_in_our_api_on_the_agent_base_class_is_graded_alike_in_its_host(
        tmp_path: Path, where: list[str]) -> None:
    """A student's host sees the agent base class (not the project's agents): a minimax of
    this project's API built on it gets the same points there as in the grader's process."""
    (tmp_path / "ours.py").write_text(OUR_API, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "pacman", "grade", "--example", "-q", "q2",
                           "--agents", "ours.py", *where], capture_output=True, text=True,
                          timeout=300, cwd=tmp_path)
    assert "Total: 5/5" in done.stdout, done.stdout[-2000:] + done.stderr[-2000:]


@pytest.mark.skipif(not sandbox.available(),
                    reason=f"no sandbox on this machine: {sandbox.limitation()}")
def test_the_project_agents_are_not_importable_in_a_students_host(tmp_path: Path) -> None:
    (tmp_path / "cheat.py").write_text("from pacman.agents import MinimaxAgent\n")
    done = subprocess.run([sys.executable, "-m", "pacman", "grade", "--example", "-q", "q2",
                           "--agents", "cheat.py"], capture_output=True, text=True,
                          timeout=300, cwd=tmp_path)
    assert ("ModuleNotFoundError: No module named 'pacman.agents.pacman_agents'"
            in done.stdout + done.stderr)
