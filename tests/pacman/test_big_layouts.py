"""Big layouts: lazy distance tables give the eager tables' answers, a 100x100 open maze starts
fast and small, and layouts over the size limits are one clear `LayoutError`."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pacman.maze as maze_module
import pacman.state as state_module
from pacman import GameState, load_layout, parse_layout
from pacman.errors import LayoutError, ReplayError
from pacman.layout import MAX_CELLS, MAX_FREE_CELLS, MAX_SIDE, Layout
from pacman.maze import EAGER_MAX_CELLS, Maze, maze_for
from pacman.replay import parse_replay, replay_dict

SETTINGS = settings(max_examples=40, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow,
                                           HealthCheck.function_scoped_fixture])
ROOT = Path(__file__).resolve().parents[2]


@st.composite
def layout_texts(draw: st.DrawFn) -> str:
    """A walled rectangle with random walls (walled-off pockets included), food, capsules,
    one Pacman and 0-3 ghosts."""
    width, height = draw(st.integers(3, 9)), draw(st.integers(3, 8))
    interior = [(x, y) for y in range(1, height - 1) for x in range(1, width - 1)]
    chars = draw(st.lists(st.sampled_from("%%  ...o"), min_size=len(interior),
                          max_size=len(interior)))
    grid = dict(zip(interior, chars))
    order = draw(st.permutations(interior))
    grid[order[0]] = "P"
    for cell in order[1:1 + draw(st.integers(0, min(3, len(interior) - 1)))]:
        grid[cell] = "G"
    return "\n".join("".join(grid.get((x, y), "%") for x in range(width))
                     for y in range(height - 1, -1, -1)) + "\n"


def open_room(width: int, height: int, food_every: int = 7) -> str:
    """A `width` x `height` room with walls only on the border, Pacman in the middle, three
    ghosts in corners and a sprinkling of food."""
    rows = [["%"] * width] + [["%"] + [" "] * (width - 2) + ["%"]
                              for _ in range(height - 2)] + [["%"] * width]
    for y in range(1, height - 1, food_every):
        for x in range(2, width - 1, food_every):
            rows[y][x] = "."
    rows[height // 2][width // 2] = "P"
    rows[1][1] = rows[1][width - 2] = rows[height - 2][width - 2] = "G"
    return "\n".join("".join(row) for row in rows) + "\n"


def lazy_maze(layout: Layout, cache_rows: int | None = None,
              monkeypatch: pytest.MonkeyPatch | None = None) -> Maze:
    """The layout's maze with lazy tables forced; `cache_rows` shrinks the row cache."""
    if cache_rows is None:
        return Maze(layout, eager_max_cells=0)
    assert monkeypatch is not None
    monkeypatch.setattr(maze_module, "MIN_CACHED_ROWS", cache_rows)
    return Maze(layout, eager_max_cells=0, row_cache_bytes=0)


def states_on(maze: Maze, monkeypatch: pytest.MonkeyPatch) -> GameState:
    """The initial state of `maze.layout` played on exactly this maze."""
    with monkeypatch.context() as patch:
        patch.setattr(state_module, "maze_for", lambda layout: maze)
        state = GameState.initial(maze.layout)
    assert state.maze is maze
    return state


# --------------------------------------------------------------------------- lazy == eager

@SETTINGS
@given(text=layout_texts(), tiny_cache=st.booleans(), seed=st.integers(0, 2**32 - 1))
def test_lazy_tables_are_exactly_the_eager_tables(text: str, tiny_cache: bool, seed: int,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    layout = parse_layout(text)
    eager = Maze(layout)
    assert not eager.is_lazy
    lazy = lazy_maze(layout, 2 if tiny_cache else None, monkeypatch)
    assert lazy.is_lazy and lazy.distance_matrix is None
    cells = list(range(len(eager.cells)))
    random.Random(seed).shuffle(cells)  # with 2 cached rows, most reads are misses
    for cell in cells + cells[::-1]:
        assert list(lazy.distances[cell]) == eager.distances[cell]
        assert list(lazy.cells_by_distance[cell]) == eager.cells_by_distance[cell]
        assert list(lazy.food_by_distance[cell]) == eager.food_by_distance[cell]
        assert list(lazy.capsules_by_distance[cell]) == eager.capsules_by_distance[cell]
        assert len(lazy.food_by_distance[cell]) == len(layout.food)
    if tiny_cache:
        assert len(lazy.distances) <= 2  # type: ignore[arg-type]
        assert len(lazy.food_by_distance) <= 2  # type: ignore[arg-type]


@SETTINGS
@given(text=layout_texts(), seed=st.integers(0, 2**32 - 1))
def test_state_queries_agree_on_lazy_and_eager_mazes(text: str, seed: int,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    layout = parse_layout(text)
    eager_state = states_on(Maze(layout), monkeypatch)
    lazy_state = states_on(lazy_maze(layout, 3, monkeypatch), monkeypatch)
    rng = random.Random(seed)
    points = [p for p in eager_state.maze.point if p[0] >= 0]  # cells and half-way points
    agent = 0
    for _ in range(60):
        for a, b in ((eager_state, lazy_state), (lazy_state, eager_state)):
            assert a.nearest_food_distance() == b.nearest_food_distance()
            assert a.nearest_capsule_distance() == b.nearest_capsule_distance()
            assert a.ghost_distances() == b.ghost_distances()
            for limit in (1, 3, 10, 1000):
                assert a.safe_cell_count(limit) == b.safe_cell_count(limit)
        p, q = rng.choice(points), rng.choice(points)
        assert eager_state.maze_distance(p, q) == lazy_state.maze_distance(p, q)
        if eager_state.is_terminal():
            break
        legal = eager_state.legal_actions(agent)
        if legal:  # a walled-in ghost has none
            action = rng.choice(legal)
            eager_state = eager_state.successor(agent, action)
            lazy_state = lazy_state.successor(agent, action)
            assert eager_state.score == lazy_state.score
        agent = (agent + 1) % eager_state.num_agents


def test_lazy_rows_reject_cells_that_do_not_exist() -> None:
    maze = lazy_maze(parse_layout("%%%%%\n%P .%\n%%%%%\n"))
    with pytest.raises(IndexError):
        maze.distances[3]
    with pytest.raises(IndexError):
        maze.food_by_distance[-1]


def test_the_shipped_layouts_keep_eager_tables() -> None:
    for path in sorted((ROOT / "pacman" / "layouts").glob("*.lay")):
        maze = maze_for(load_layout(path))
        assert not maze.is_lazy and isinstance(maze.distances, list), path.stem


# --------------------------------------------------------------------------- a big maze

def test_a_big_maze_builds_lazy_tables_and_plays() -> None:
    layout = parse_layout(open_room(60, 40), "room")
    assert len(layout.walls) < 60 * 40 - EAGER_MAX_CELLS
    state = GameState.initial(layout)
    assert state.maze.is_lazy
    assert state.maze_distance((1, 1), (58, 38)) == 57 + 37
    assert state.pacman_position == (30, 19)
    assert state.ghost_positions == ((1, 38), (58, 1), (58, 38))
    assert state.ghost_distances() == (29 + 19, 28 + 18, 28 + 19)
    rng = random.Random(4)
    for _ in range(30):
        for agent in range(state.num_agents):
            if not state.is_terminal():
                state = state.successor(agent, rng.choice(state.legal_actions(agent)))
    assert state.safe_cell_count(10) <= 10


def test_only_the_last_big_maze_is_kept() -> None:
    first = parse_layout(open_room(40, 30), "first")
    second = parse_layout(open_room(30, 40), "second")
    maze = maze_for(first)
    assert maze_for(first) is maze
    assert maze_for(second) is not maze
    assert list(maze_module._big_maze.values()) == [maze_for(second)]


_START = """
    import json, resource, sys, time
    from pacman import GameState, parse_layout, run_game
    from pacman.agents.ghosts import DirectionalGhost
    from pacman.agents.pacman_agents import AlphaBetaAgent

    text = sys.stdin.read()
    def cpu():
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return usage.ru_utime + usage.ru_stime
    started, clock = cpu(), time.perf_counter()
    layout = parse_layout(text, "room")
    state = GameState.initial(layout)
    record = run_game(layout, AlphaBetaAgent(depth=2, evaluation="better"),
                      [DirectionalGhost(i + 1) for i in range(3)], seed=1, max_moves=3)
    # this process's own peak: VmHWM is reset when the process starts (exec), where
    # ru_maxrss keeps the peak of the test process it was forked from
    try:
        with open("/proc/self/status") as status:
            peak_kb = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
    except (OSError, StopIteration):
        peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"cpu": cpu() - started, "wall": time.perf_counter() - clock,
                      "lazy": state.maze.is_lazy, "moves": len(record.actions),
                      "rss_mb": peak_kb / 1024}))
"""


def start_in_subprocess(text: str) -> dict[str, float]:
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(_START)], input=text,
                          capture_output=True, text=True, cwd=ROOT, timeout=120, check=True)
    figures: dict[str, float] = json.loads(done.stdout)
    return figures


def test_a_100x100_open_maze_starts_and_plays_in_under_300_mb() -> None:
    """Memory is asserted; the start-up time is a benchmark figure (`bench.py --only big`)."""
    figures = start_in_subprocess(open_room(100, 100))
    assert figures["lazy"] and figures["moves"] == 12
    assert figures["rss_mb"] < 300, figures


@pytest.mark.slow
def test_the_largest_free_area_starts_in_under_300_mb() -> None:
    side = int(MAX_FREE_CELLS ** 0.5) + 1  # walls on the border: side - 2 squared free
    figures = start_in_subprocess(open_room(side, side, food_every=1))
    assert figures["rss_mb"] < 300, figures


# --------------------------------------------------------------------------- size limits

def big_text(width: int, height: int, free: int = 0) -> str:
    """A walled board `width` x `height` with about `free` open cells (a block at the top)."""
    inner = width - 2
    rows = ["%" * width]
    for _ in range(height - 2):
        open_here = min(inner, max(free, 0))
        free -= open_here
        rows.append("%" + " " * open_here + "%" * (inner - open_here) + "%")
    rows.append("%" * width)
    rows[1] = "%P" + rows[1][2:]
    return "\n".join(rows) + "\n"


@pytest.mark.parametrize(("width", "height", "named"), [
    (MAX_SIDE + 1, 10, f"{MAX_SIDE + 1}x10 cells (the limit is {MAX_SIDE}"),
    (10, MAX_SIDE + 1, f"10x{MAX_SIDE + 1} cells (the limit is {MAX_SIDE}"),
    (5000, 2000, "5000x2000 cells (the limit is 1000"),
    (401, 401, f"401x401 = 160,801 cells (the limit is {MAX_CELLS:,} cells"),
])
def test_a_board_too_large_is_one_layout_error(width: int, height: int, named: str) -> None:
    with pytest.raises(LayoutError) as caught:
        parse_layout(big_text(width, height), "huge")
    message = str(caught.value)
    assert message.startswith("huge: layout too large: ") and named in message
    assert "\n" not in message


def test_too_many_free_cells_is_one_layout_error() -> None:
    parse_layout(big_text(400, 400, MAX_FREE_CELLS))  # at the limit: fine (not built)
    with pytest.raises(LayoutError) as caught:
        parse_layout(big_text(400, 400, MAX_FREE_CELLS + 1), "huge")
    assert str(caught.value) == (
        f"huge: layout too large: {MAX_FREE_CELLS + 1:,} free cells in 400x400 (the limit is "
        f"{MAX_FREE_CELLS:,} free cells)")


def test_a_two_megabyte_layout_file_is_a_layout_error_not_a_memory_error(
        tmp_path: Path) -> None:
    path = tmp_path / "huge.lay"
    path.write_text(big_text(1414, 1414, 10**6))
    assert path.stat().st_size > 2 * 10**6
    with pytest.raises(LayoutError) as caught:
        load_layout(path)
    assert str(caught.value).startswith(f"{path}: layout too large: 1414x1414 cells")


def test_a_huge_file_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "huge.lay"
    with path.open("wb") as out:
        out.truncate(64 * 2**20)  # sparse: nothing is written
    with pytest.raises(LayoutError) as caught:
        load_layout(path)
    assert "too large: 67,108,864 bytes (the limit for a layout file is" in str(caught.value)


def test_a_hand_built_layout_over_the_limits_is_refused_by_the_maze() -> None:
    small = parse_layout("%%%\n%P%\n%%%\n")
    huge = Layout("hand", 2000, 3, small.walls, (), (), (1, 1), (), "")
    with pytest.raises(LayoutError, match="layout too large: 2000x3 cells"):
        Maze(huge)


def test_a_replay_embedding_a_huge_layout_is_a_replay_error() -> None:
    from pacman import run_game
    from pacman.agents.ghosts import RandomGhost
    from pacman.agents.simple import RandomAgent

    layout = parse_layout("%%%%%\n%P.G%\n%%%%%\n", "tiny")
    record = run_game(layout, RandomAgent(), [RandomGhost(1)], seed=1)
    data = replay_dict(record, layout, 1)
    data["layout_text"] = big_text(1200, 5)
    with pytest.raises(ReplayError) as caught:
        parse_replay(data, "game.json")
    assert "layout too large: 1200x5 cells" in str(caught.value)
    assert "\n" not in str(caught.value)
