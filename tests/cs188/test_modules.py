"""The modules CS188 student code imports (`util`, `game`, `ghostAgents`) behave as CS188's do:
Counter semantics, the exact sampler, grids indexed [x][y], configurations, the Actions tables,
raiseNotDefined, lookup, and the classic ghosts' distributions and seeded draws."""

from __future__ import annotations

import importlib
import inspect
import random
import time
import types
from collections.abc import Iterator
from typing import Any

import pytest

from pacman.cs188.modules import STUDENT_MODULES, util
from pacman.cs188.modules.game import (
    Actions,
    Agent,
    AgentState,
    Configuration,
    Directions,
    Grid,
    reconstituteGrid,
)
from pacman.cs188.modules.ghostAgents import DirectionalGhost, GhostAgent, RandomGhost

NORTH, SOUTH, EAST, WEST, STOP = (Directions.NORTH, Directions.SOUTH, Directions.EAST,
                                  Directions.WEST, Directions.STOP)


def walls_from_ascii(text: str) -> Grid:
    """A wall Grid from a layout drawn top row first ('%' is a wall)."""
    rows = text.strip("\n").splitlines()
    height, width = len(rows), len(rows[0])
    return Grid.fromCells(width, height, [(x, height - 1 - row)
                                          for row, line in enumerate(rows)
                                          for x, char in enumerate(line) if char == "%"])


@pytest.fixture(autouse=True)
def _keep_global_random() -> Iterator[None]:
    """These tests seed the global `random` (as CS188 does); give it back as it was."""
    saved = random.getstate()
    yield
    random.setstate(saved)


# ------------------------------------------------------------------------------ the mapping


def test_student_modules_name_the_cs188_modules_and_import() -> None:
    assert set(STUDENT_MODULES) >= {"util", "game", "ghostAgents"}
    for name, module_name in STUDENT_MODULES.items():
        module = importlib.import_module(module_name)
        assert module.__name__ == module_name, name
    game = importlib.import_module(STUDENT_MODULES["game"])
    assert game.util is util  # `game` and the student share one `util`


# ------------------------------------------------------------------------------ Counter


def test_counter_missing_key_reads_zero_and_is_inserted_like_the_classic_one() -> None:
    counts = util.Counter({"pellet": -1})
    assert counts["ghost"] == 0
    assert "ghost" in counts and len(counts) == 2
    assert counts.argMax() == "ghost"  # the read key takes part, as in the classic Counter
    counts["ghost"] += 2
    assert counts == {"pellet": -1, "ghost": 2}


def test_counter_argmax_first_of_the_largest_and_none_when_empty() -> None:
    assert util.Counter().argMax() is None
    counts = util.Counter({"a": 1, "b": 5, "c": 5, "d": -3})
    assert counts.argMax() == "b"
    assert util.Counter({"x": -4, "y": -2}).argMax() == "y"


def test_counter_sorted_keys_by_value_descending_ties_in_insertion_order() -> None:
    counts = util.Counter({"a": 1, "b": 3, "c": 2, "d": 3})
    assert counts.sortedKeys() == ["b", "d", "c", "a"]


def test_counter_total_normalize_and_divide() -> None:
    counts = util.Counter({"a": 1, "b": 3})
    assert counts.totalCount() == 4
    counts.normalize()
    assert counts == {"a": 0.25, "b": 0.75}
    counts.divideAll(0.5)
    assert counts == {"a": 0.5, "b": 1.5}
    zeros = util.Counter({"a": 0, "b": 0})
    zeros.normalize()  # a total of 0 leaves it alone rather than dividing by zero
    assert zeros == {"a": 0, "b": 0}


def test_counter_increment_all_and_copy_is_independent() -> None:
    counts = util.Counter()
    counts.incrementAll(["a", "b", "a"], 1)
    assert counts == {"a": 2, "b": 1}
    duplicate = counts.copy()
    duplicate["a"] = 10
    assert counts["a"] == 2 and isinstance(duplicate, util.Counter)


def test_counter_arithmetic() -> None:
    a = util.Counter({"first": -2, "second": 4})
    b = util.Counter({"first": 3, "third": 1})
    assert a * b == -6  # dot product over the shared keys
    total = a + b
    assert total == {"first": 1, "second": 4, "third": 1}
    assert isinstance(total, util.Counter) and total["missing"] == 0
    assert a - b == {"first": -5, "second": 4, "third": -1}
    assert a == {"first": -2, "second": 4}  # the operands are left as they were
    assert sum([a, b]) == {"first": 1, "second": 4, "third": 1}  # 0 + a via __radd__
    assert {"first": 1} + a == {"first": -1, "second": 4}


# ------------------------------------------------------------------------------ containers


def test_stack_queue_priority_queue_orders() -> None:
    stack: util.Stack[int] = util.Stack()
    queue: util.Queue[int] = util.Queue()
    for item in (1, 2, 3):
        stack.push(item)
        queue.push(item)
    assert [stack.pop() for _ in range(3)] == [3, 2, 1] and stack.isEmpty()
    assert [queue.pop() for _ in range(3)] == [1, 2, 3] and queue.isEmpty()

    pq: util.PriorityQueue[str] = util.PriorityQueue()
    pq.push("late", 5)
    pq.push("first-of-tie", 1)
    pq.push("second-of-tie", 1)
    assert [pq.pop() for _ in range(3)] == ["first-of-tie", "second-of-tie", "late"]
    assert pq.isEmpty()


def test_priority_queue_update_lowers_only() -> None:
    pq: util.PriorityQueue[str] = util.PriorityQueue()
    pq.push("a", 3)
    pq.push("b", 2)
    pq.push("x", 5)
    pq.update("a", 1)  # lowered: now first
    pq.update("b", 9)  # higher than queued: ignored, so still before x
    pq.update("c", 0)  # absent: pushed
    assert [pq.pop() for _ in range(4)] == ["c", "a", "b", "x"]


def test_priority_queue_with_function() -> None:
    pq: util.PriorityQueueWithFunction[str] = util.PriorityQueueWithFunction(len)
    for word in ("ghost", "pac", "capsule"):
        pq.push(word)
    assert [pq.pop() for _ in range(3)] == ["pac", "ghost", "capsule"]


# ------------------------------------------------------------------------------ raiseNotDefined


def test_raise_not_defined_names_the_callers_function_line_and_file() -> None:
    def getAction() -> None:
        util.raiseNotDefined()

    line = inspect.getsourcelines(getAction)[1] + 1
    with pytest.raises(util.NotDefinedError) as caught:
        getAction()
    assert str(caught.value) == f"Method not implemented: getAction at line {line} of " \
                                "test_modules.py"
    assert caught.value.function == "getAction" and caught.value.line == line


def test_agent_get_action_is_not_defined() -> None:
    with pytest.raises(util.NotDefinedError, match=r"getAction at line \d+ of game\.py"):
        Agent().getAction(None)
    assert Agent().index == 0 and Agent(2).index == 2


# ------------------------------------------------------------------------------ sampling


def test_sample_sorts_a_counter_by_key() -> None:
    # Inserted West, Stop, East; sampled in key order East, Stop, West.
    distribution = util.Counter({WEST: 1 / 3, STOP: 1 / 3, EAST: 1 / 3})
    random.seed(0)  # the first draw is 0.844...: past East and Stop (2/3), inside West
    assert util.sample(distribution) == WEST
    random.seed(1)  # 0.134...: inside East's first third
    assert util.sample(distribution) == EAST


def test_sample_normalises_and_picks_the_first_total_not_below_the_draw(
        monkeypatch: pytest.MonkeyPatch) -> None:
    counts = util.Counter({"b": 3, "a": 1})  # sums to 4: normalised to a 0.25, b 0.75
    monkeypatch.setattr(random, "random", lambda: 0.25)
    assert util.sample(counts) == "a"  # 0.25 is not > 0.25: still the first item
    monkeypatch.setattr(random, "random", lambda: 0.2500001)
    assert util.sample(counts) == "b"
    assert util.sample([1, 1, 2], ["x", "y", "z"]) == "y"  # weights + values, unsorted


def test_sample_draws_exactly_one_number_from_the_global_random() -> None:
    random.seed(7)
    random.random()
    after_one_draw = random.getstate()
    random.seed(7)
    util.sample(util.Counter({"a": 1, "b": 2, "c": 3}))
    assert random.getstate() == after_one_draw
    random.seed(7)
    util.chooseFromDistribution(util.Counter({"a": 0.5, "b": 0.5}))
    assert random.getstate() == after_one_draw


def test_sample_with_zero_weights_never_picks_them() -> None:
    counts = util.Counter({"a": 0.0, "b": 1.0, "c": 0.0})
    random.seed(3)
    assert {util.sample(counts) for _ in range(50)} == {"b"}


def test_distribution_helpers() -> None:
    assert util.normalize([1, 3]) == [0.25, 0.75]
    assert util.normalize([0, 0]) == [0, 0]
    normalized = util.normalize(util.Counter({"a": 2, "b": 2}))
    assert normalized == {"a": 0.5, "b": 0.5} and isinstance(normalized, util.Counter)
    assert util.getProbability("x", [0.2, 0.3, 0.5], ["x", "y", "x"]) == 0.7
    random.seed(0)  # draw 0.844...
    assert util.chooseFromDistribution([(0.5, "low"), (0.5, "high")]) == "high"
    random.seed(1)  # draw 0.134...
    assert util.flipCoin(0.2) and not util.flipCoin(0.0)
    assert util.sampleFromCounter(util.Counter({"only": 2})) == "only"


def test_n_sample_returns_sorted_draws_mapped_to_values() -> None:
    random.seed(0)
    draws = sorted(random.random() for _ in range(4))
    random.seed(0)
    picks = util.nSample([0.5, 0.5], ["low", "high"], 4)
    assert picks == ["low" if draw < 0.5 else "high" for draw in draws]


# ------------------------------------------------------------------------------ small helpers


def test_grid_point_and_matrix_helpers() -> None:
    assert util.manhattanDistance((1, 2), (4, 0)) == 5
    assert util.manhattanDistance((3.5, 2), (1, 1)) == 3.5
    assert util.nearestPoint((2.5, 3.4)) == (3, 3)
    assert util.sign(0) == 1 and util.sign(-0.5) == -1
    assert util.arrayInvert([[1, 2], [3, 4]]) == [[1, 3], [2, 4]]
    assert util.matrixAsList([[True, False], [False, True]]) == [(0, 0), (1, 1)]
    assert util.matrixAsList([[1, 2], [2, 1]], value=2) == [(0, 1), (1, 0)]


def test_timeout_function() -> None:
    assert util.TimeoutFunction(lambda x: x * 2, 1)(21) == 42
    with pytest.raises(util.TimeoutFunctionException):
        util.TimeoutFunction(lambda: time.sleep(2), 0.05)()


def test_mute_and_unmute_print(capsys: pytest.CaptureFixture[str]) -> None:
    util.mutePrint()
    print("hidden")
    util.unmutePrint()
    print("shown")
    assert capsys.readouterr().out == "shown\n"


# ------------------------------------------------------------------------------ lookup


def better(state: Any) -> float:
    """An evaluation function the tests look up by name."""
    return 0.0


def test_lookup_finds_names_in_the_namespace_and_its_modules() -> None:
    namespace = {"better": better, "util": util, "random": random}
    assert util.lookup("better", namespace) is better
    assert util.lookup("manhattanDistance", namespace) is util.manhattanDistance
    assert util.lookup("pacman.cs188.modules.util.Counter", {}) is util.Counter
    # A name bound in the namespace itself wins over one inside a module it imports.
    assert util.lookup("sample", {"sample": better, "random": random}) is better


def test_lookup_errors_say_what_went_wrong() -> None:
    first, second = types.ModuleType("first"), types.ModuleType("second")
    first.shared = 1  # type: ignore[attr-defined]
    second.shared = 2  # type: ignore[attr-defined]
    with pytest.raises(util.NameLookupError, match=r"ambiguous.*first, second"):
        util.lookup("shared", {"first": first, "second": second})
    with pytest.raises(util.NameLookupError, match="'nowhere' is not defined"):
        util.lookup("nowhere", {"util": util})
    with pytest.raises(util.NameLookupError, match="no module 'no_such_module'"):
        util.lookup("no_such_module.thing", {})
    with pytest.raises(util.NameLookupError, match="has no 'missing'"):
        util.lookup("pacman.cs188.modules.util.missing", {})


# ------------------------------------------------------------------------------ Directions


def test_directions_are_the_cs188_strings_and_turn_tables() -> None:
    assert (NORTH, SOUTH, EAST, WEST, STOP) == ("North", "South", "East", "West", "Stop")
    assert Directions.LEFT[NORTH] == WEST and Directions.RIGHT[NORTH] == EAST
    for direction in (NORTH, SOUTH, EAST, WEST, STOP):
        assert Directions.RIGHT[Directions.LEFT[direction]] == direction
        assert Directions.REVERSE[Directions.REVERSE[direction]] == direction
    assert Directions.REVERSE[EAST] == WEST and Directions.REVERSE[STOP] == STOP


# ------------------------------------------------------------------------------ Configuration


def test_configuration_successor_equality_and_text() -> None:
    start = Configuration((1, 2), EAST)
    assert start.getPosition() == (1, 2) and start.getDirection() == EAST
    moved = start.generateSuccessor((0, 1))
    assert moved == Configuration((1, 3), NORTH)
    stopped = start.generateSuccessor((0, 0))
    assert stopped == Configuration((1, 2), EAST)  # a Stop keeps the direction faced
    half = start.generateSuccessor((0.5, 0))
    assert half.getPosition() == (1.5, 2) and not half.isInteger() and start.isInteger()
    assert str(moved) == "(1, 3), North"
    assert len({Configuration((1, 2), EAST), Configuration((1.0, 2.0), EAST), start}) == 1
    assert Configuration((1, 2), WEST) != start and start != "(1, 2), East"


# ------------------------------------------------------------------------------ AgentState


def test_agent_state_equality_by_configuration_and_scared_timer() -> None:
    ghost = AgentState(Configuration((3, 1), STOP), False)
    assert (ghost.scaredTimer, ghost.numCarrying, ghost.numReturned) == (0, 0, 0)
    assert ghost.start is ghost.configuration and not ghost.isPacman
    elsewhere_started = AgentState(Configuration((9, 9), STOP), False)
    elsewhere_started.configuration = Configuration((3, 1), STOP)
    assert ghost == elsewhere_started and hash(ghost) == hash(elsewhere_started)  # start ignored
    scared = ghost.copy()
    scared.scaredTimer = 40
    assert scared != ghost and ghost.scaredTimer == 0  # the copy is independent
    assert len({ghost, elsewhere_started, scared}) == 2
    assert hash(scared) != hash(ghost)
    assert str(ghost) == "Ghost: (3, 1), Stop"
    pacman = AgentState(Configuration((1, 2), NORTH), True)
    assert str(pacman) == "Pacman: (1, 2), North"
    assert pacman.getPosition() == (1, 2) and pacman.getDirection() == NORTH


# ------------------------------------------------------------------------------ Grid


def test_grid_is_indexed_x_then_y_from_the_bottom_left() -> None:
    grid = Grid(3, 2)
    grid[2][1] = True  # top right
    grid[0][0] = True  # bottom left
    assert (grid.width, grid.height) == (3, 2)
    assert str(grid) == "FFT\nTFF"
    assert grid.asList() == [(0, 0), (2, 1)]
    assert grid.asList(False) == [(0, 1), (1, 0), (1, 1), (2, 0)]
    assert grid.count() == 2 and grid.count(False) == 4
    assert Grid(2, 2, True).count() == 4


def test_grid_from_cells_copies_and_equality() -> None:
    grid = Grid.fromCells(4, 3, [(0, 0), (3, 2), (1, 2)])
    assert grid.asList() == [(0, 0), (1, 2), (3, 2)]
    assert grid == reconstituteGrid(grid.packBits()) and hash(grid) == hash(grid.copy())
    copy, shared = grid.copy(), grid.shallowCopy()
    grid[2][1] = True
    assert not copy[2][1] and shared[2][1]
    assert copy != grid and grid == shared and grid.deepCopy() == grid
    column = [True, False, True]
    grid[0] = column
    assert grid[0] is column and grid[0][2]
    with pytest.raises(ValueError):
        Grid(2, 2, initialValue=3)  # type: ignore[arg-type]


def test_grid_pack_bits_round_trip_over_several_ints() -> None:
    random.seed(5)
    cells = [(x, y) for x in range(9) for y in range(7) if random.random() < 0.4]
    grid = Grid.fromCells(9, 7, cells)  # 63 cells: three ints
    packed = grid.packBits()
    assert packed[:2] == (9, 7) and len(packed) == 2 + 3
    assert reconstituteGrid(packed).asList() == cells


# ------------------------------------------------------------------------------ Actions


CORRIDOR = """
%%%%%
%   %
% %%%
%%%%%
"""


def test_actions_vectors_and_directions() -> None:
    assert Actions.directionToVector(NORTH) == (0, 1)
    assert Actions.directionToVector(WEST, 0.5) == (-0.5, 0)
    assert Actions.vectorToDirection((0, -0.5)) == SOUTH
    assert Actions.vectorToDirection((1, 1)) == NORTH  # vertical wins
    assert Actions.vectorToDirection((0, 0)) == STOP
    assert Actions.reverseDirection(EAST) == WEST and Actions.reverseDirection(STOP) == STOP
    assert Actions.getSuccessor((1, 2), SOUTH) == (1, 1)


def test_possible_actions_in_canonical_order_and_between_points() -> None:
    walls = walls_from_ascii(CORRIDOR)
    assert walls[0][0] and not walls[1][2] and walls[2][1]
    # (1, 2) is the corridor's left end, with the dead end (1, 1) below it.
    assert Actions.getPossibleActions(Configuration((1, 2), NORTH), walls) == [
        STOP, EAST, SOUTH]
    assert Actions.getPossibleActions(Configuration((2, 2), WEST), walls) == [WEST, STOP, EAST]
    # Half way between (1, 2) and (2, 2): only on the way it faces.
    assert Actions.getPossibleActions(Configuration((1.5, 2), EAST), walls) == [EAST]
    # Within the tolerance of a grid point counts as on it.
    assert Actions.getPossibleActions(Configuration((2.0004, 2), WEST), walls) == [
        WEST, STOP, EAST]
    assert Actions.getLegalNeighbors((1, 2), walls) == [(1, 2), (2, 2), (1, 1)]


# ------------------------------------------------------------------------------ ghosts


class TinyState:
    """Just the CS188 state calls the classic ghosts make."""

    def __init__(self, ghost: tuple[float, float], pacman: tuple[int, int],
                 legal: list[str], scared_timer: int = 0) -> None:
        self.ghost = AgentState(Configuration(ghost, STOP), False)
        self.ghost.scaredTimer = scared_timer
        self.pacman, self.legal = pacman, legal

    def getGhostState(self, agentIndex: int) -> AgentState:
        assert agentIndex == 1
        return self.ghost

    def getLegalActions(self, agentIndex: int) -> list[str]:
        assert agentIndex == 1
        return self.legal

    def getPacmanPosition(self) -> tuple[int, int]:
        return self.pacman


def test_directional_ghost_gives_its_one_best_move_0_9() -> None:
    # Pacman two cells east: East is the one best of two moves, 0.8 + 0.2/2; West gets 0.2/2.
    state = TinyState(ghost=(2, 1), pacman=(4, 1), legal=[WEST, EAST])
    distribution = DirectionalGhost(1).getDistribution(state)
    assert list(distribution) == [EAST, WEST]  # best moves first, as CS188 inserts them
    assert distribution[EAST] == pytest.approx(0.9) and distribution[WEST] == pytest.approx(0.1)


def test_directional_ghost_splits_between_tied_best_moves() -> None:
    state = TinyState(ghost=(2, 1), pacman=(2, 4), legal=[WEST, EAST, NORTH])
    distribution = DirectionalGhost(1, prob_attack=0.5).getDistribution(state)
    assert distribution[NORTH] == pytest.approx(0.5 + 0.5 / 3)
    assert distribution[WEST] == distribution[EAST] == pytest.approx(0.5 / 3)


def test_scared_directional_ghost_flees_at_half_speed() -> None:
    # Scared: next positions at half speed, West (1.5, 1) is 2.5 from Pacman, East (2.5, 1)
    # 1.5, North (2, 1.5) 2.5: the two farthest share prob_scaredFlee.
    state = TinyState(ghost=(2, 1), pacman=(4, 1), legal=[WEST, EAST, NORTH], scared_timer=3)
    distribution = DirectionalGhost(1, prob_scaredFlee=0.6).getDistribution(state)
    assert list(distribution) == [WEST, NORTH, EAST]
    assert distribution[WEST] == distribution[NORTH] == pytest.approx(0.3 + 0.4 / 3)
    assert distribution[EAST] == pytest.approx(0.4 / 3)
    # Off a grid point the half step decides: from (2.5, 1) a half step East or North leaves
    # both 2 from Pacman at (3, 3), a tie (a full step would make East 2.5 and North 1.5).
    # The classic game never offers such a ghost two moves; the fake state does, to show it.
    off_point = TinyState(ghost=(2.5, 1), pacman=(3, 3), legal=[EAST, NORTH], scared_timer=3)
    assert DirectionalGhost(1).getDistribution(off_point) == pytest.approx(
        {EAST: 0.5, NORTH: 0.5})
    # A scared ghost half way between points keeps going; its one move gets everything.
    between = TinyState(ghost=(2.5, 1), pacman=(4, 1), legal=[WEST], scared_timer=3)
    assert DirectionalGhost(1).getDistribution(between) == {WEST: 1.0}


def test_directional_ghost_draw_uses_key_order_not_insertion_order() -> None:
    state = TinyState(ghost=(2, 1), pacman=(4, 1), legal=[WEST, EAST])
    random.seed(2)  # the draw is 0.956...: past East's 0.9 (East sorts first), so West
    assert DirectionalGhost(1).getAction(state) == WEST
    random.seed(0)  # 0.844...: inside East's 0.9
    assert DirectionalGhost(1).getAction(state) == EAST


def test_random_ghost_is_uniform_and_draws_in_key_order() -> None:
    state = TinyState(ghost=(2, 2), pacman=(4, 1), legal=[WEST, STOP, EAST])
    ghost = RandomGhost(1)
    assert ghost.getDistribution(state) == pytest.approx({WEST: 1 / 3, STOP: 1 / 3, EAST: 1 / 3})
    random.seed(0)  # 0.844... > 2/3: the last in key order (East, Stop, West)
    assert ghost.getAction(state) == WEST
    random.seed(5)  # 0.622...: between 1/3 and 2/3, Stop
    assert ghost.getAction(state) == STOP


def test_each_ghost_move_draws_exactly_one_number() -> None:
    states = [TinyState(ghost=(2, 1), pacman=(4, 1), legal=[WEST, EAST]),
              TinyState(ghost=(2, 1), pacman=(4, 1), legal=[WEST, EAST, NORTH], scared_timer=1)]
    random.seed(11)
    for _ in range(10):
        random.random()
    after_ten = random.getstate()
    random.seed(11)
    for move in range(10):
        ghost = DirectionalGhost(1) if move % 2 else RandomGhost(1)
        ghost.getAction(states[move % 2])
    assert random.getstate() == after_ten


def test_ghost_with_no_moves_stops_and_base_ghost_is_not_defined() -> None:
    stuck = TinyState(ghost=(2, 1), pacman=(4, 1), legal=[])
    random.seed(0)
    before = random.getstate()
    assert RandomGhost(1).getAction(stuck) == STOP
    assert DirectionalGhost(1).getAction(stuck) == STOP
    assert random.getstate() == before  # nothing drawn
    with pytest.raises(util.NotDefinedError, match="getDistribution"):
        GhostAgent(1).getAction(stuck)
