"""`pacman demo`: the list, bad input, measured runs (-q, -j), the window under a dummy driver."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import pacman.cli.demo
import pacman.demos
from pacman.cli import main
from pacman.demos import all_demos, find_demo
from pacman.demos.demo import Demo, Finding, Matchup, Results, play_matchup, summarize
from pacman.demos.measure import format_summary, play_demo, tasks_of
from pacman.record import Outcome
from pacman.specs import AgentSpec

REPO = Path(__file__).resolve().parents[2]
MINE = ["depth", "thrashing", "thrashing-fixed", "min-vs-exp"]


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items()
             if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    return subprocess.run([sys.executable, "-m", "pacman", *args], capture_output=True,
                          text=True, env={**clean, **(env or {})}, cwd=REPO, timeout=120)


# --------------------------------------------------------------------- listing and lookup
def test_the_list_has_one_line_per_demo_with_name_title_and_summary(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["demo"], capsys)
    assert code == 0 and err == ""
    demos = all_demos()
    lines = out.splitlines()[:len(demos)]
    for line, demo in zip(lines, demos):
        assert line.startswith(demo.name + " ")
        assert f" {demo.title} " in line and line.endswith(demo.summary)
    names = [d.name for d in demos]
    assert names[:4] == MINE  # the first module's demos first, in the documented order
    assert len(set(names)) == len(names)


def test_an_unknown_demo_is_one_line_naming_the_demos(capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    code, out, err = run(["demo", "no-such-demo", "-q"], capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1
    assert err.startswith("pacman: error: unknown demo 'no-such-demo'; demos: ")
    for demo in all_demos():
        assert demo.name in err


@pytest.mark.parametrize("argv, message", [
    (["--games", "0"], "expected a number >= 1"),
    (["--games", "x"], "expected a whole number"),
    (["--seed", "-1"], "expected a number >= 0"),
    (["-j", "0"], "expected a number >= 1"),
    (["--frame-time", "nan"], "expected a number"),
])
def test_bad_numbers_are_one_line(argv: list[str], message: str,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["demo", "min-vs-exp", "-q", *argv], capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err


def test_jobs_without_q_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["demo", "min-vs-exp", "-j", "2"], capsys)
    assert code == 2 and out == ""
    assert err == "pacman: error: -j/--jobs is for -q (the window plays one game at a time)\n"


def test_missing_modules_are_skipped_and_a_broken_one_is_an_error(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pacman.demos, "MODULES", ("minexp", "no_such_demo_module"))
    assert [d.name for d in all_demos()] == ["min-vs-exp"]
    # a module that is there but does not import is an error, never a silently missing demo
    monkeypatch.setattr(pacman.demos, "_present", lambda module: True)
    with pytest.raises(ModuleNotFoundError, match="no_such_demo_module"):
        all_demos()


# --------------------------------------------------------------------- measured runs (-q)
def _parse_tables(out: str, labels: list[str]) -> dict[str, dict[str, str]]:
    """The per-matchup blocks of `-q` output: label -> {wins, mean score, mean moves, ...}."""
    tables: dict[str, dict[str, str]] = {}
    label = ""
    for line in out.splitlines():
        starts = [name for name in labels if line.startswith(f"{name}: ")]
        if starts:
            label = starts[0]
            tables[label] = {}
        elif line.startswith("  ") and label:
            key, value = re.split(r"\s{2,}", line.strip(), maxsplit=1)
            tables[label][key] = value
        elif not line:
            label = ""
    return tables


def test_q_prints_a_table_per_matchup_from_the_seeded_games_and_the_verdict(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["demo", "min-vs-exp", "-q", "--games", "3", "--seed", "5", "-j", "1"],
                         capsys)
    demo = find_demo("min-vs-exp")
    results = {m.label: [play_matchup(m, seed) for seed in (5, 6, 7)] for m in demo.matchups}
    verdict = demo.judge(results)
    assert code == (0 if verdict.holds else 1) and err == ""
    assert "3 games per matchup, seeds 5-7" in out
    tables = _parse_tables(out, [m.label for m in demo.matchups])
    assert list(tables) == [m.label for m in demo.matchups]
    for matchup in demo.matchups:
        summary = summarize(results[matchup.label])
        assert format_summary(matchup, summary) in out
        table = tables[matchup.label]
        assert table["wins"].startswith(f"{summary.wins}/3 ")
        assert table["mean score"] == f"{summary.mean_score:.1f}"
        assert table["mean moves"] == f"{summary.mean_moves:.1f}"
    assert out.rstrip().endswith(pacman.cli.demo.format_verdict(verdict))
    # minimax gives up at once in every game: the verdict quotes it
    assert tables["minimax"]["wins"].startswith("0/3 ")
    assert tables["minimax"]["mean score"] == "-501.0"


def test_the_exit_code_follows_the_verdict(monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    matchup = Matchup("m", AgentSpec.of("GreedyAgent"), (AgentSpec.of("RandomGhost"),),
                      "testClassic", 20)

    def demo(holds: bool) -> Demo:
        return Demo("fake", "Fake", "a fake demo", (matchup,),
                    lambda results: Finding(holds, f"{len(results['m'])} games"), games=2)

    for holds, expected in ((True, 0), (False, 1)):
        monkeypatch.setattr(pacman.demos, "all_demos", lambda h=holds: (demo(h),))
        code, out, _ = run(["demo", "fake", "-q", "-j", "1"], capsys)
        assert code == expected
        assert out.rstrip().endswith("2 games")
        assert ("does NOT hold" in out) is not holds


CRASHER = """
class Crasher:
    def get_action(self, state):
        raise RuntimeError("boom")
"""


def test_agent_faults_are_outcomes_not_tracebacks(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "crasher.py").write_text(CRASHER)
    broken = Matchup("broken", AgentSpec.of(f"{tmp_path / 'crasher.py'}:Crasher"),
                     (AgentSpec.of("RandomGhost"),), "testClassic", 20)
    fake = Demo("crashy", "Crashy", "an agent that raises", (broken,),
                lambda results: Finding(results["broken"][0].outcome is Outcome.CRASH, "ok"),
                games=2)
    monkeypatch.setattr(pacman.demos, "all_demos", lambda: (fake,))
    for jobs in ("1", "2"):
        code, out, err = run(["demo", "crashy", "-q", "-j", jobs], capsys)
        assert code == 0 and "Traceback" not in out + err
        assert "outcomes    crash 2" in out


def test_the_results_are_the_same_for_any_number_of_jobs() -> None:
    demo = find_demo("thrashing")
    one = play_demo(demo, 4, seed=3, jobs=1)
    two = play_demo(demo, 4, seed=3, jobs=2)
    assert one == two
    assert [r.seed for r in one[demo.matchups[0].label]] == [3, 4, 5, 6]
    assert len(tasks_of(demo, 4, 3)) == 4 * len(demo.matchups)


def test_j1_and_j2_print_the_same(capsys: pytest.CaptureFixture[str]) -> None:
    outputs = []
    for jobs in ("1", "2"):
        code, out, _ = run(["demo", "thrashing-fixed", "-q", "--games", "3", "-j", jobs],
                           capsys)
        outputs.append((code, out))
    assert outputs[0] == outputs[1]


def test_q_never_imports_pygame() -> None:
    code = ("import sys, pacman.cli; rc = pacman.cli.main(['demo', 'min-vs-exp', '-q', "
            "'--games', '1', '-j', '1']); print(rc, 'pygame' in sys.modules)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            cwd=REPO, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "0 False"


# --------------------------------------------------------------------- the window
def test_window_mode_under_a_dummy_driver_falls_back_to_text_and_judges() -> None:
    result = run_cli("demo", "min-vs-exp", "--frame-time", "0", "--no-wait",
                     env={"SDL_VIDEODRIVER": "dummy"})
    assert result.returncode == 0, result.stderr
    assert result.stderr.count("\n") == 1 and "text display" in result.stderr
    out = result.stdout
    demo = find_demo("min-vs-exp")
    for matchup in demo.matchups:
        assert f"== {demo.title}: {matchup.label} -- {matchup.versus()}" in out
    games = re.findall(r"^game 1: seed 0, (\w+), score (-?\d+), (\d+) moves$", out, re.M)
    expected = [play_matchup(m, 0) for m in demo.matchups]
    assert games == [(r.outcome.value, str(r.score), str(r.pacman_moves)) for r in expected]
    assert "Verdict: the demo's point" in out


def test_the_window_shows_the_title_of_each_matchup(monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    from pacman.display import window

    opened: list[Any] = []
    titles: list[str] = []
    frames: list[int] = []

    def dummy_window(args: Any) -> Any:
        shown = window.open_window(frame_time=0.0, end_wait=0, allow_dummy=True)
        start, finish = shown.start, shown.finish

        def spy_start(state: Any, agents: tuple[str, ...]) -> None:
            titles.append(agents[0])
            start(state, agents)

        def spy_finish(state: Any, record: Any) -> None:
            finish(state, record)
            frames.append(shown.frames_drawn)

        shown.start, shown.finish = spy_start, spy_finish  # type: ignore[method-assign]
        opened.append(shown)
        return shown

    monkeypatch.setattr(pacman.cli.demo, "make_display", dummy_window)
    code, out, _ = run(["demo", "min-vs-exp", "--seed", "2"], capsys)
    demo = find_demo("min-vs-exp")
    assert f"`pacman demo min-vs-exp -q` plays {demo.games} per matchup" in out
    assert len(opened) == 1  # one window for every matchup
    assert titles == [f"{demo.title}: {m.label}    {play_matchup(m, 2).agents[0]}"
                      for m in demo.matchups]
    assert len(frames) == len(demo.matchups) and all(n > 0 for n in frames)
    results: Results = {m.label: [play_matchup(m, 2)] for m in demo.matchups}
    assert code == (0 if demo.judge(results).holds else 1)
