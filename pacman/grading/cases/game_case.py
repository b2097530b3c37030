"""`PacmanGameTreeTest`: a search agent checked move by move along a recorded game.

The test gives a layout (`layoutName`, `layout`), `alg`, `depth` and `seed`; its `.solution`
holds, per Pacman move, the staff's tied best actions and explored counts (with and without
Stop), the tied best actions one ply off in depth, and those of the partial-ply bug (see
`pacman.grading.reference.staff`). The game is replayed exactly as the classic grader plays it:
the global `random` seeded with `seed`, two classic `DirectionalGhost`s drawing from it, and
after Pacman's move number `k` the generator re-seeded with `seed + k`, while Pacman plays the
*recorded* move, never the student's. At every move the student's agent is asked for its
action and its explored states are counted.

Verdicts, in the classic order: timeout; crash; a count that matches neither staff count at any
move ("Wrong number of states expanded"); actions inside one staff agent's tied sets at every
move (pass); else "Partial Ply Bug", "Search depth off by 1", or "Suboptimal moves".
"""

from __future__ import annotations

import json
import os
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pacman.cs188.agent import StudentAgent
from pacman.cs188.modules.ghostAgents import DirectionalGhost
from pacman.cs188.state import CS188GameState
from pacman.errors import LayoutError, TestCaseError
from pacman.grading.cases.parser import ParsedFile, parse_file, solution_path
from pacman.grading.reference.staff import ALGORITHMS, staff_search
from pacman.grading.reports.results import TestResult, TestStatus
from pacman.grading.running.classic_game import play_classic_game
from pacman.grading.running.contestant import Graded
from pacman.grading.running.hosted import describe
from pacman.layout import Layout, ghosts_in_play, parse_layout
from pacman.state import GameState

__all__ = ["GameTreeTest", "load", "load_test", "mismatch", "mismatch_warning", "run",
           "write_solution"]

CLASS = "PacmanGameTreeTest"
MOVE_TIME_LIMIT = 120.0  # seconds per move and per game, as the classic test allows
_BLOCKS = ("optimalActions", "altDepthActions", "partialPlyBugActions")


@dataclass(frozen=True)
class GameTreeTest:
    """The fields of a `PacmanGameTreeTest` file."""

    path: Path
    alg: str
    depth: int
    seed: int
    layout: Layout
    max_points: int


@dataclass(frozen=True)
class Step:
    """What the solution says about one Pacman move."""

    optimal: tuple[tuple[tuple[str, ...], int], ...]   # (tied best, count): with, without Stop
    alt_depth: tuple[tuple[str, ...], ...]
    partial_ply: tuple[tuple[str, ...], ...]


def _field(test: ParsedFile, key: str) -> str:
    return test.require(key).value


def _int_field(test: ParsedFile, key: str) -> int:
    entry = test.require(key)
    try:
        return int(entry.value)
    except ValueError:
        raise TestCaseError(test.path, entry.line, f'"{key}" must be a whole number, got '
                            f"{entry.value!r}") from None


def load_test(test: ParsedFile) -> GameTreeTest:
    """Check and read a parsed `PacmanGameTreeTest` file."""
    alg = _field(test, "alg")
    if alg not in ALGORITHMS:
        raise TestCaseError(test.path, test.require("alg").line,
                            f"unknown alg {alg!r} (one of {', '.join(ALGORITHMS)})")
    depth = _int_field(test, "depth")
    if depth < 1:
        raise TestCaseError(test.path, test.require("depth").line, '"depth" must be >= 1')
    entry = test.require("layout")
    name = test.get("layoutName")
    try:
        layout = parse_layout("\n".join(line.strip() for line in entry.value.split("\n")),
                              name.value if name else test.path.stem,
                              source=f"{test.path} (layout)")
    except LayoutError as error:
        raise TestCaseError(test.path, entry.line, str(error)) from None
    points = _int_field(test, "max_points") if test.get("max_points") else 0
    return GameTreeTest(test.path, alg, depth, _int_field(test, "seed"), layout, points)


def load_solution(solution: ParsedFile) -> list[Step]:
    """The per-move lines of a game test's `.solution`; malformed lines name their line."""
    blocks = []
    for key in _BLOCKS:
        entry = solution.require(key)
        lines = [(entry.line + 1 + i, text) for i, text in enumerate(entry.value.split("\n"))
                 if text.strip()]
        parsed = []
        for number, text in lines:
            try:
                parsed.append(json.loads(text))
            except json.JSONDecodeError as error:
                raise TestCaseError(solution.path, number, f"{key}: not JSON ({error.msg})"
                                    ) from None
        blocks.append((key, entry.line, parsed))
    lengths = {len(parsed) for _, _, parsed in blocks}
    if len(lengths) != 1:
        raise TestCaseError(solution.path, None, "the three blocks list different numbers of "
                            "moves: " + ", ".join(f"{k} {len(p)}" for k, _, p in blocks))
    steps = []
    for index, (optimal, alt, partial) in enumerate(zip(*(p for _, _, p in blocks))):
        try:
            steps.append(Step(
                tuple((_actions(pair[0]), int(pair[1])) for pair in optimal),
                tuple(_actions(actions) for actions in alt),
                tuple(_actions(actions) for actions in partial)))
            if len(steps[-1].optimal) < 1 or not steps[-1].optimal[0][0]:
                raise ValueError("no optimal action")
        except (TypeError, ValueError, IndexError) as error:
            raise TestCaseError(solution.path, blocks[0][1] + 1 + index,
                                f"move {index + 1}: malformed solution line ({error})") from None
    return steps


def _actions(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(a, str) for a in value):
        raise ValueError(f"expected a list of actions, got {value!r}")
    return tuple(value)


class _Grading:
    """The classic grading agent: asks the student, checks against the solution, then plays
    the recorded move and re-seeds the global generator."""

    def __init__(self, seed: int, student: Any, steps: list[Step]) -> None:
        self.seed, self.student, self.steps = seed, student, steps
        self.step = 0
        self.consistent_optimal = [True] * len(steps[0].optimal)
        self.consistent_alt = [True] * len(steps[0].alt_depth)
        self.consistent_partial = [True] * len(steps[0].partial_ply)
        self.wrong_count: tuple[int, int, tuple[int, ...]] | None = None  # move, count, staff
        self.suboptimal: list[tuple[int, GameState, str, str]] = []
        self.overran = False

    def register_initial_state(self, state: GameState) -> None:
        self.student.register_initial_state(state)
        random.seed(self.seed)

    def get_action(self, state: GameState) -> str:
        if self.step >= len(self.steps):
            self.overran = True
            raise _SolutionTooShort
        expected = self.steps[self.step]
        action, count = self.student.move(state)
        action = str(action)
        optimal = False
        right_count = False
        for i, (tied, staff_count) in enumerate(expected.optimal):
            if action in tied:
                optimal = True
            else:
                self.consistent_optimal[i] = False
            if count == staff_count:
                right_count = True
        if not right_count and self.wrong_count is None:
            self.wrong_count = (self.step + 1, count, tuple(c for _, c in expected.optimal))
        for i, tied in enumerate(expected.alt_depth):
            if action not in tied:
                self.consistent_alt[i] = False
        for i, tied in enumerate(expected.partial_ply):
            if action not in tied:
                self.consistent_partial[i] = False
        if not optimal:
            self.suboptimal.append((self.step + 1, state, action, expected.optimal[0][0][0]))
        self.step += 1
        random.seed(self.seed + self.step)
        return expected.optimal[0][0][0]


class _SolutionTooShort(Exception):
    """The game went on past the last move of the solution file."""


def load(test_path: Path, test: ParsedFile) -> tuple[GameTreeTest, list[Step]]:
    """Check a parsed game test and read its solution; a `TestCaseError` says what is wrong."""
    spec = load_test(test)
    solution = solution_path(test_path)
    if not os.path.lexists(solution):  # a broken one is named by reading it
        raise TestCaseError(test_path, None, f"no solution file {solution.name}")
    steps = load_solution(parse_file(solution))
    if not steps:
        raise TestCaseError(solution, None, "the solution lists no moves")
    return spec, steps


def mismatch(spec: GameTreeTest, steps: list[Step]) -> str:
    """'' when the solution's moves, played with the test's layout, seed and ghosts as the
    grader plays them, make a game of exactly the solution's length; else what happens instead
    (the solution was recorded with another seed, layout or ghosts). The game a test plays
    does not depend on the student: Pacman plays the solution's moves, and the generator is
    seeded again after each of them."""
    recorded = _Recorded(spec.seed, steps)
    ghosts = [StudentAgent(DirectionalGhost(i + 1))
              for i in range(ghosts_in_play(spec.layout, 2, clamp=True))]
    state = random.getstate()
    try:
        random.seed(spec.seed)
        game = play_classic_game(spec.layout, [recorded, *ghosts], None, describe)
    finally:
        random.setstate(state)
    moves = len(steps)
    if recorded.step > moves:
        return f"the game goes on past the {moves} moves of its solution"
    if game.crashed:
        return (f"move {recorded.step} of its solution is illegal in the game ({game.fault})")
    if recorded.step < moves:
        return f"the game ends after {recorded.step} of the {moves} moves of its solution"
    return ""


def mismatch_warning(relative: str, what: str, suite_root: Path) -> str:
    """The one line a teacher gets for a game test whose solution does not match it."""
    return (f"warning: {relative}: {what}: its solution was not recorded with this test's "
            "layout, seed and ghosts; graded as the classic grader grades it, on the moves "
            "played (--strict: an error). Record it again with: pacman grade "
            f"{suite_root} --generate-solutions")


class _Recorded:
    """Plays a solution's moves, re-seeding the global generator as the grading agent does."""

    def __init__(self, seed: int, steps: list[Step]) -> None:
        self.seed, self.steps, self.step = seed, steps, 0

    def register_initial_state(self, state: GameState) -> None:
        random.seed(self.seed)

    def get_action(self, state: GameState) -> str:
        self.step += 1
        if self.step > len(self.steps):
            raise _SolutionTooShort
        random.seed(self.seed + self.step)
        return self.steps[self.step - 1].optimal[0][0][0]


def run(test_path: Path, test: ParsedFile, contestant: Graded, relative: str,
        strict: bool = False) -> TestResult:
    """Run one `PacmanGameTreeTest` for `contestant`. A test whose solution does not match it
    (`mismatch`) is graded as the classic grader grades it, on the moves played, with a
    warning first; with `strict`, it is an error."""
    try:
        spec, steps = load(test_path, test)
    except TestCaseError as error:
        return TestResult(relative, CLASS, TestStatus.ERROR, messages=(str(error),))
    wrong = mismatch(spec, steps)
    if wrong and strict:
        return TestResult(relative, CLASS, TestStatus.ERROR, messages=(
            f"{wrong}: it was not recorded with this test's layout, seed and ghosts",))
    messages, status = _play(spec, steps, contestant)
    if wrong:
        messages = [f"warning: {wrong}: graded as the classic grader grades it, on the moves "
                    "played", *messages]
    return TestResult(relative, CLASS, status, messages=tuple(messages))


def _play(spec: GameTreeTest, steps: list[Step],
          contestant: Graded) -> tuple[list[str], TestStatus]:
    student = contestant.game_agent(spec.alg, spec.depth)
    grading = _Grading(spec.seed, student, steps)
    ghosts = [StudentAgent(DirectionalGhost(i + 1))
              for i in range(ghosts_in_play(spec.layout, 2, clamp=True))]
    random.seed(spec.seed)
    game = play_classic_game(spec.layout, [grading, *ghosts], MOVE_TIME_LIMIT, describe)
    where = f"on {spec.layout.name}"
    if grading.overran:  # the classic grader's agent fails to read a move that is not there
        return ([f"Agent crashed {where}. No credit. At move {len(steps) + 1}: the solution "
                 f"file has only {len(steps)} moves (the classic grader: IndexError)"],
                TestStatus.FAIL)
    if game.timed_out:
        return [f"Agent timed out {where}. No credit. ({game.fault})"], TestStatus.FAIL
    if game.crashed:
        return ([f"Agent crashed {where}. No credit. At move {grading.step + 1}: "
                 f"{game.fault}"], TestStatus.FAIL)
    forged = getattr(student, "forged", None)
    if forged is not None:
        return ([f"Agent's report rejected {where}. No credit. The agent's process reported "
                 f"calls the grader cannot derive: {forged}"], TestStatus.FAIL)
    if grading.wrong_count is not None:
        move, count, staff = grading.wrong_count
        messages = [f"Bug: Wrong number of states expanded. At move {move} the agent explored "
                    f"{count} states; a correct {spec.alg} at depth {spec.depth} explores "
                    + " or ".join(str(c) for c in dict.fromkeys(staff))
                    + " (with and without Stop)."]
        if any(grading.consistent_optimal) and count > max(staff):
            messages.append("hint: every move was a best move, but the search generates "
                            "states a correct one does not (an evaluation or a check that "
                            "calls generateSuccessor, or children generated before they are "
                            "needed)")
        elif any(grading.consistent_optimal) and count < min(staff):
            messages.append("hint: every move was a best move, but the search generates fewer "
                            "states than a correct one: it prunes too much (on equality?) or "
                            "stops early")
        elif any(grading.consistent_partial):
            messages.append("hint: the moves match a search with the partial-ply bug (the "
                            "last ghost of the last ply does not move)")
        elif any(grading.consistent_alt):
            messages.append("hint: the moves match a search one ply too shallow or too deep")
        return messages, TestStatus.FAIL
    if any(grading.consistent_optimal):
        return [], TestStatus.PASS
    if any(grading.consistent_partial):
        return ["Bug: Partial Ply Bug (the last ghost of the last ply does not move: one ply "
                "is Pacman's move and one move of every ghost)"], TestStatus.FAIL
    if any(grading.consistent_alt):
        return ["Bug: Search depth off by 1"], TestStatus.FAIL
    move, state, actual, best = grading.suboptimal[0]
    return ([f"Bug: Suboptimal moves ({len(grading.suboptimal)} of {grading.step}); the first, "
             f"at move {move}:", *str(CS188GameState(state)).rstrip("\n").split("\n"),
             f"Student move: {actual}", f"Optimal move: {best}"], TestStatus.FAIL)


def write_solution(test_path: Path, test: ParsedFile, header: str = "") -> Path:
    """Play the test's game with the staff search and write its `.solution` (the format the
    classic grader reads, which carries no `header`). Returns the solution's path."""
    spec = load_test(test)
    recorder = _Recorder(spec)
    ghosts = [StudentAgent(DirectionalGhost(i + 1))
              for i in range(ghosts_in_play(spec.layout, 2, clamp=True))]
    random.seed(spec.seed)
    game = play_classic_game(spec.layout, [recorder, *ghosts], None, describe)
    if game.crashed:
        raise TestCaseError(test_path, None, f"the staff game could not be played: {game.fault}")
    lines: list[str] = []  # the classic game solutions carry no header line
    for key, rows in zip(_BLOCKS, (recorder.optimal, recorder.alt_depth, recorder.partial_ply)):
        lines.append(f'{key}: """')
        lines.extend(json.dumps(row) for row in rows)
        lines.append('"""')
    path = solution_path(test_path)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


class _Recorder:
    """Plays the staff's first best action (Stop kept) and records what every staff variant
    says at each move, re-seeding the global generator as the grading agent does."""

    def __init__(self, spec: GameTreeTest) -> None:
        self.spec = spec
        self.step = 0
        self.optimal: list[list[Any]] = []
        self.alt_depth: list[list[list[str]]] = []
        self.partial_ply: list[list[list[str]]] = []

    def register_initial_state(self, state: GameState) -> None:
        random.seed(self.spec.seed)

    def get_action(self, state: GameState) -> str:
        alg, depth = self.spec.alg, self.spec.depth
        with_stop = staff_search(state, depth, alg, keep_stop=True)
        without_stop = staff_search(state, depth, alg, keep_stop=False)
        self.optimal.append([[list(with_stop.actions), with_stop.explored],
                             [list(without_stop.actions), without_stop.explored]])
        shallower = max(1, depth - 1)
        self.alt_depth.append([
            list(staff_search(state, shallower, alg, keep_stop=True).actions),
            list(staff_search(state, shallower, alg, keep_stop=False).actions),
            list(staff_search(state, depth + 1, alg, keep_stop=True).actions),
            list(staff_search(state, depth + 1, alg, keep_stop=False).actions)])
        self.partial_ply.append([
            list(staff_search(state, depth, alg, keep_stop=True, partial_ply=True).actions),
            list(staff_search(state, depth, alg, keep_stop=False, partial_ply=True).actions)])
        self.step += 1
        random.seed(self.spec.seed + self.step)
        return with_stop.actions[0]
