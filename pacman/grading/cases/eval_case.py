"""`EvalAgentTest`: an agent plays games and earns points for its average score, its games
that did not time out, and its wins.

The test names the agent (`agentName`, `agentArgs` as `key=value,...` strings), the layout
(`layoutName`), `numGames`, `randomSeed`, `maxTime` (seconds per move and in total per game),
the ghosts (`ghosts`, read by `pacman.grading.cases.ghost_spec`, never executed) and, for each of
the three measures, an optional minimum (`scoreMinimum`, `nonTimeoutMinimum`, `winsMinimum`)
and space-separated thresholds (`scoreThresholds`, ...). As in the classic grader, the global
`random` is seeded once and the same agent object plays every game; a measure below its minimum
makes the test worth 0, otherwise each threshold reached is worth one point.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

from pacman.cs188.agent import StudentAgent
from pacman.cs188.modules import ghostAgents
from pacman.errors import GhostSpecError, LayoutError, TestCaseError
from pacman.grading.cases.ghost_spec import GhostSpec, parse_ghosts
from pacman.grading.cases.parser import ParsedFile, solution_path
from pacman.grading.reports.results import TestResult, TestStatus
from pacman.grading.running.classic_game import ClassicGame, play_classic_game
from pacman.grading.running.contestant import Graded
from pacman.grading.running.hosted import describe
from pacman.layout import Layout, ghosts_in_play, load_layout

__all__ = ["EvalTest", "classic_time_bound", "load_test", "parse_agent_args", "run",
           "write_solution"]

CLASS = "EvalAgentTest"
MEASURES = (("score", "average score"), ("nonTimeout", "games not timed out"),
            ("wins", "wins"))


@dataclass(frozen=True)
class EvalTest:
    """The fields of an `EvalAgentTest` file."""

    agent: str
    arguments: dict[str, str]
    layout: Layout
    games: int
    seed: int
    max_time: float
    ghosts: tuple[GhostSpec, ...]
    minimums: tuple[float | None, float | None, float | None]
    thresholds: tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]]
    max_points: int


def parse_agent_args(text: str) -> dict[str, str]:
    """`key=value,key` as the classic command line reads it (a bare key means `'1'`)."""
    arguments: dict[str, str] = {}
    for piece in text.split(","):
        if not piece.strip():
            continue
        key, sep, value = piece.partition("=")
        arguments[key.strip()] = value.strip() if sep else "1"
    return arguments


def _number(test: ParsedFile, key: str, kind: type = int) -> float | None:
    entry = test.get(key)
    if entry is None or not entry.value.strip():
        return None
    try:
        return float(kind(entry.value))
    except ValueError:
        raise TestCaseError(test.path, entry.line, f'"{key}" must be a number, got '
                            f"{entry.value!r}") from None


def _required(test: ParsedFile, key: str, kind: type = int) -> float:
    value = _number(test, key, kind)
    if value is None:
        raise TestCaseError(test.path, None, f'missing key "{key}"')
    return value


def load_test(test: ParsedFile) -> EvalTest:
    """Check and read a parsed `EvalAgentTest` file."""
    name_entry = test.require("layoutName")
    try:
        layout = _find_layout(name_entry.value, test.path)
    except LayoutError as error:
        raise TestCaseError(test.path, name_entry.line, str(error)) from None
    ghosts_entry = test.require("ghosts")
    try:
        ghosts = tuple(parse_ghosts(ghosts_entry.value))
    except GhostSpecError as error:
        raise TestCaseError(test.path, ghosts_entry.line, f"ghosts: {error}") from None
    if len({g.index for g in ghosts}) != len(ghosts) or sorted(
            g.index for g in ghosts) != list(range(1, len(ghosts) + 1)):
        raise TestCaseError(test.path, ghosts_entry.line,
                            "ghosts: the indexes must be 1, 2, ... in some order")
    thresholds = []
    for measure, _ in MEASURES:
        entry = test.get(f"{measure}Thresholds")
        try:
            thresholds.append(tuple(float(v) for v in entry.value.split()) if entry else ())
        except ValueError:
            raise TestCaseError(test.path, entry.line if entry else None,
                                f'"{measure}Thresholds" must be numbers') from None
    games = int(_required(test, "numGames"))
    max_time = _required(test, "maxTime", float)
    if games < 1 or max_time <= 0:
        raise TestCaseError(test.path, None, "numGames must be >= 1 and maxTime > 0")
    agent_args = test.get("agentArgs")
    return EvalTest(
        agent=test.require("agentName").value,
        arguments=parse_agent_args(agent_args.value if agent_args else ""),
        layout=layout, games=games, seed=int(_required(test, "randomSeed")),
        max_time=max_time, ghosts=ghosts,
        minimums=(_number(test, "scoreMinimum", float), _number(test, "nonTimeoutMinimum"),
                  _number(test, "winsMinimum")),
        thresholds=(thresholds[0], thresholds[1], thresholds[2]),
        # the classic files always give max_points; without it, every threshold is a point
        max_points=int(_number(test, "max_points") or sum(len(t) for t in thresholds)))


def classic_time_bound(test: ParsedFile) -> float | None:
    """How long the classic autograder lets an agent test run: `maxTime` seconds of the
    agent's own time per game, for `numGames` games (CS188 gave a slow but correct ReflexAgent
    its points after 356 s). None for another kind of test, or one whose fields are broken
    (running it reports the error)."""
    entry = test.get("class")
    if entry is None or entry.value != "EvalAgentTest":
        return None
    try:
        games = int(test.require("numGames").value)
        max_time = float(test.require("maxTime").value)
    except (TestCaseError, ValueError):
        return None
    if games < 1 or not 0 < max_time < float("inf"):
        return None
    return games * max_time


def _find_layout(name: str, test_path: Path) -> Layout:
    """A layout by name: a `layouts/NAME.lay` beside the suite (the test's folder or up to three
    above it, as the classic grader looks), else a shipped layout or a path."""
    folder = test_path.resolve().parent
    for place in [folder, *folder.parents][:4]:
        candidate = place / "layouts" / f"{name}.lay"
        if candidate.is_file():
            return load_layout(candidate)
    return load_layout(name)


def _ghost_agents(spec: EvalTest) -> list[object]:
    agents: list[object] = []
    count = ghosts_in_play(spec.layout, len(spec.ghosts), clamp=True)  # as the classic game
    for ghost in sorted(spec.ghosts, key=lambda g: g.index)[:count]:
        cls = getattr(ghostAgents, ghost.name)
        agents.append(StudentAgent(cls(ghost.index, **dict(ghost.settings))))
    return agents


def _games(spec: EvalTest, contestant: Graded) -> list[ClassicGame]:
    agent = contestant.eval_agent(spec.agent, spec.arguments, spec.seed)
    ghosts = _ghost_agents(spec)
    random.seed(spec.seed)
    return [play_classic_game(spec.layout, [agent, *ghosts], spec.max_time, describe)
            for _ in range(spec.games)]


def _grade(value: float, minimum: float | None, thresholds: tuple[float, ...],
           name: str) -> tuple[bool, int, list[str]]:
    passed = minimum is None or value >= minimum
    points = sum(value >= t for t in thresholds) if passed else 0
    shown = f"{value:g}"
    if not passed:
        lines = [f"{shown} {name} (fail: below minimum value {minimum:g})"]
    else:
        lines = [f"{shown} {name} ({points} of {len(thresholds)} points)"]
    if minimum is not None or thresholds:
        lines.append("    Grading scheme:")
        if minimum is not None:
            lines.append(f"     < {minimum:g}:  fail")
            if not thresholds or minimum != thresholds[0]:
                lines.append(f"    >= {minimum:g}:  0 points")
        else:
            lines.append(f"     < {thresholds[0]:g}:  0 points")
        lines.extend(f"    >= {t:g}:  {i + 1} points" for i, t in enumerate(thresholds))
    return passed, points, lines


def run(test_path: Path, test: ParsedFile, contestant: Graded, relative: str) -> TestResult:
    """Run one `EvalAgentTest` for `contestant`."""
    try:
        spec = load_test(test)
    except TestCaseError as error:
        return TestResult(relative, CLASS, TestStatus.ERROR, messages=(str(error),))
    games = _games(spec, contestant)
    wins = sum(g.won for g in games)
    timeouts = sum(g.timed_out for g in games)
    average = sum(g.score for g in games) / len(games)
    messages = [f"{spec.agent} on {spec.layout.name}: won {wins} of {len(games)} games, "
                f"average score {average:g}, {timeouts} timed out"]
    crashes = [g for g in games if g.crashed and not g.timed_out]
    if crashes:
        messages.append(f"{len(crashes)} game(s) crashed; the first: {crashes[0].fault}")
    total, all_passed = 0, True
    for (_, name), value, minimum, thresholds in zip(
            MEASURES, (average, float(len(games) - timeouts), float(wins)), spec.minimums,
            spec.thresholds):
        if minimum is None and not thresholds:
            continue
        passed, points, lines = _grade(value, minimum, thresholds, name)
        total += points
        all_passed &= passed
        messages.extend(lines)
    if not all_passed:
        total = 0
    status = TestStatus.PASS if total >= spec.max_points else TestStatus.PARTIAL
    return TestResult(relative, CLASS, status, points=total, max_points=spec.max_points,
                      messages=tuple(messages))


def write_solution(test_path: Path, test: ParsedFile, header: str) -> Path:
    """An agent test needs no recorded answer: its `.solution` only says so."""
    path = solution_path(test_path)
    path.write_text(f"{header}\n# File intentionally blank.\n", encoding="utf-8")
    return path
