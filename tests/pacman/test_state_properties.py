"""Property tests over random small layouts and random legal play.

Each random game is also replayed on `Reference`, a deliberately plain transcription of rules
9-16 of docs/rules.md (floats, sets, no bit tricks), and the two must agree after every single
move.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass, field, replace
from itertools import combinations_with_replacement
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pacman import GameState, Layout, parse_layout
from pacman.errors import IllegalMoveError
from pacman.rules import CANONICAL_ORDER, REVERSE, STOP, VECTORS, Direction

Point = tuple[float, float]
SETTINGS = settings(max_examples=60, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow])


# --------------------------------------------------------------------------- random layouts

@st.composite
def layout_texts(draw: st.DrawFn, max_ghosts: int = 3) -> str:
    """A walled rectangle with random interior walls, food and capsules, 1 Pacman, 0-3 ghosts."""
    width = draw(st.integers(3, 8))
    height = draw(st.integers(3, 7))
    interior = [(x, y) for y in range(1, height - 1) for x in range(1, width - 1)]
    chars = draw(st.lists(st.sampled_from("%%  ...o"), min_size=len(interior),
                          max_size=len(interior)))
    grid = dict(zip(interior, chars))
    order = draw(st.permutations(interior))
    grid[order[0]] = "P"
    ghosts = draw(st.integers(0, min(max_ghosts, len(interior) - 1)))
    for cell in order[1:1 + ghosts]:
        grid[cell] = draw(st.sampled_from("GG1234"))
    rows = []
    for y in range(height - 1, -1, -1):
        rows.append("".join(grid.get((x, y), "%") for x in range(width)))
    return "\n".join(rows) + "\n"


# --------------------------------------------------------------------------- the reference rules

def on_grid(p: Point) -> bool:
    return abs(p[0] - round(p[0])) + abs(p[1] - round(p[1])) <= 0.001


def manhattan(a: Point, b: Point) -> float:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


@dataclass(frozen=True)
class Ghost:
    position: Point
    direction: Direction
    start: Point
    timer: int


@dataclass(frozen=True)
class Reference:
    """docs/rules.md 7-16, written out as plainly as possible."""

    walls: frozenset[tuple[int, int]]
    pacman: Point
    facing: Direction
    ghosts: tuple[Ghost, ...]
    food: frozenset[tuple[int, int]]
    capsules: frozenset[tuple[int, int]]
    score: int = 0
    won: bool = False
    lost: bool = False
    events: tuple[str, ...] = field(default=(), compare=False)

    @classmethod
    def of(cls, layout: Layout) -> Reference:
        return cls(layout.walls, layout.pacman_start, STOP,
                   tuple(Ghost(s, STOP, s, 0) for s in layout.ghost_starts),
                   frozenset(layout.food), frozenset(layout.capsules))

    def free(self, p: Point) -> bool:
        return (int(p[0]), int(p[1])) not in self.walls

    def legal(self, agent: int) -> tuple[Direction, ...]:
        if self.won or self.lost:
            return ()
        position = self.pacman if agent == 0 else self.ghosts[agent - 1].position
        if on_grid(position):
            x, y = round(position[0]), round(position[1])
            moves = [d for d in CANONICAL_ORDER
                     if self.free((x + VECTORS[d][0], y + VECTORS[d][1]))]
        else:
            moves = [self.ghosts[agent - 1].direction]
        if agent == 0:
            return tuple(moves)
        moves = [d for d in moves if d is not STOP]
        reverse = REVERSE[self.ghosts[agent - 1].direction]
        if reverse in moves and len(moves) > 1:
            moves.remove(reverse)
        return tuple(moves)

    def successor(self, agent: int, action: Direction) -> Reference:
        assert action in self.legal(agent)
        dx, dy = VECTORS[action]
        events: list[str] = []
        if agent == 0:
            pacman = (self.pacman[0] + dx, self.pacman[1] + dy)
            score, won, lost = self.score - 1, False, False
            food, capsules, ghosts = set(self.food), set(self.capsules), list(self.ghosts)
            cell = (int(pacman[0]), int(pacman[1]))
            if cell in food:
                food.remove(cell)
                score += 10
                events.append("food")
                if not food:
                    score += 500
                    won = True
                    events.append("win")
            if cell in capsules:
                capsules.remove(cell)
                ghosts = [replace(g, timer=40) for g in ghosts]
                events.append("capsule")
            for i, g in enumerate(ghosts):
                if manhattan(g.position, pacman) <= 0.7:
                    if g.timer > 0:
                        score += 200
                        ghosts[i] = replace(g, position=g.start, direction=STOP, timer=0)
                        events.append("eat ghost")
                    elif not won:
                        score -= 500
                        lost = True
                        events.append("caught")
            return replace(self, pacman=pacman, facing=self.facing if action is STOP else action,
                           ghosts=tuple(ghosts), food=frozenset(food),
                           capsules=frozenset(capsules), score=score, won=won, lost=lost,
                           events=tuple(events))
        g = self.ghosts[agent - 1]
        speed = 0.5 if g.timer > 0 else 1.0
        position: Point = (g.position[0] + dx * speed, g.position[1] + dy * speed)
        if g.timer == 1:
            position = (int(position[0] + 0.5), int(position[1] + 0.5))
        g = Ghost(position, action, g.start, max(0, g.timer - 1))
        score, lost = self.score, False
        if manhattan(g.position, self.pacman) <= 0.7:
            if g.timer > 0:
                score += 200
                g = Ghost(g.start, STOP, g.start, 0)
                events.append("eat ghost")
            else:
                score -= 500
                lost = True
                events.append("caught")
        ghosts = list(self.ghosts)
        ghosts[agent - 1] = g
        return replace(self, ghosts=tuple(ghosts), score=score, lost=lost, events=tuple(events))


def view(state: GameState) -> dict[str, Any]:
    """Everything observable about a state, to compare with the reference or with itself."""
    return {
        "pacman": state.pacman_position, "facing": state.pacman_direction,
        "ghosts": state.ghost_positions, "directions": state.ghost_directions,
        "timers": state.scared_timers, "starts": state.ghost_start_positions,
        "food": frozenset(state.food_positions), "capsules": frozenset(state.capsule_positions),
        "score": state.score, "won": state.is_win(), "lost": state.is_lose(),
        "legal": tuple(state.legal_actions(i) for i in range(state.num_agents)),
    }


def reference_view(ref: Reference) -> dict[str, Any]:
    return {
        "pacman": ref.pacman, "facing": ref.facing,
        "ghosts": tuple(g.position for g in ref.ghosts),
        "directions": tuple(g.direction for g in ref.ghosts),
        "timers": tuple(g.timer for g in ref.ghosts),
        "starts": tuple(g.start for g in ref.ghosts),
        "food": ref.food, "capsules": ref.capsules,
        "score": ref.score, "won": ref.won, "lost": ref.lost,
        "legal": tuple(ref.legal(i) for i in range(1 + len(ref.ghosts))),
    }


def snapshot(state: GameState) -> tuple[Any, ...]:
    return (str(state), repr(state), hash(state),
            tuple(getattr(state, slot) for slot in GameState.__slots__), view(state),
            state.food_count, state.capsule_count, state.num_agents)


# --------------------------------------------------------------------------- the checks

AMOUNTS = (10, 500, -1, 200, -500)


def assert_in_walls_nowhere(state: GameState) -> None:
    walls = state.walls
    assert state.pacman_position not in walls
    for x, y in state.ghost_positions:
        if on_grid((x, y)):
            assert (round(x), round(y)) not in walls
        elif x != round(x):  # half-way East-West: both neighbouring grid points are free
            assert (int(x - 0.5), round(y)) not in walls and (int(x + 0.5), round(y)) not in walls
        else:
            assert (round(x), int(y - 0.5)) not in walls and (round(x), int(y + 0.5)) not in walls


def expected_delta(parent: GameState, child: GameState, agent: int) -> int:
    """The score change predicted from what is observable: food, win, eaten ghosts, loss."""
    if agent == 0:
        ate_food = parent.food_count - child.food_count
        capsule = parent.capsule_count - child.capsule_count
        eaten = sum(1 for before, after in zip(parent.scared_timers, child.scared_timers)
                    if after == 0 and (before > 0 or capsule))
        caught = 0
        if not child.is_win():
            px, py = child.pacman_position
            caught = sum(1 for (gx, gy), timer, before in
                         zip(child.ghost_positions, child.scared_timers, parent.scared_timers)
                         if timer == 0 and not (before > 0 or capsule)
                         and abs(gx - px) + abs(gy - py) <= 0.7)
        assert ate_food in (0, 1) and capsule in (0, 1)
        assert child.is_lose() == (caught > 0)
        return -1 + 10 * ate_food + 500 * child.is_win() + 200 * eaten - 500 * caught
    i = agent - 1
    eaten = (parent.scared_timers[i] > 1 and child.scared_timers[i] == 0)
    return 200 * eaten - 500 * child.is_lose()


def possible_deltas(agent: int, ghosts: int) -> set[int]:
    """Sums of the rule amounts one move can produce."""
    if agent:
        return {0, 200, -500}
    totals = set()
    for k in range(ghosts + 1):
        for combo in combinations_with_replacement((200, -500), k):
            for extra in (0, 10, 510):
                totals.add(-1 + extra + sum(combo))
    assert totals <= {sum(c) for n in range(8)
                      for c in combinations_with_replacement(AMOUNTS, n)}
    return totals


@settings(SETTINGS, max_examples=150)
@given(text=layout_texts(), seed=st.integers(0, 2**32 - 1))
def test_random_play_follows_the_rules(text: str, seed: int) -> None:
    layout = parse_layout(text)
    state = GameState.initial(layout)
    ref = Reference.of(layout)
    rng = random.Random(seed)
    assert view(state) == reference_view(ref)
    agent = 0
    for _ in range(80):
        if state.is_terminal():
            break
        legal = state.legal_actions(agent)
        if not legal:  # a ghost boxed in on every side cannot move at all
            agent = (agent + 1) % state.num_agents
            continue
        before = snapshot(state)
        children = [state.successor(agent, a) for a in legal]  # branch like a search would
        assert snapshot(state) == before, "a successor changed its parent"
        action = rng.choice(legal)
        child = children[legal.index(action)]
        assert child == state.successor(agent, action)
        ref = ref.successor(agent, action)
        assert view(child) == reference_view(ref), (agent, action, ref.events)
        delta = child.score - state.score
        assert delta in possible_deltas(agent, state.num_ghosts)
        assert delta == expected_delta(state, child, agent), (agent, action, ref.events)
        assert set(child.food_positions) <= set(state.food_positions)
        assert set(child.capsule_positions) <= set(state.capsule_positions)
        assert_in_walls_nowhere(child)
        state = child
        agent = (agent + 1) % state.num_agents
    if state.is_terminal():
        for i in range(state.num_agents):
            assert state.legal_actions(i) == ()
            for action in Direction:
                with pytest.raises(IllegalMoveError):
                    state.successor(i, action)


# --------------------------------------------------------------------------- maze distances

def doubled_bfs(layout: Layout, source: Point) -> dict[tuple[int, int], float]:
    """Distances from `source` to every grid and half-way point, by BFS in half steps."""

    def free(big: tuple[int, int]) -> bool:
        bx, by = big
        cells = [((bx + dx) // 2, (by + dy) // 2) for dx in (0, bx % 2) for dy in (0, by % 2)]
        if bx % 2 and by % 2:
            return False
        return all(0 <= x < layout.width and 0 <= y < layout.height
                   and (x, y) not in layout.walls for x, y in cells)

    start = (round(2 * source[0]), round(2 * source[1]))
    seen = {start: 0}
    queue = deque([start])
    while queue:
        bx, by = queue.popleft()
        for nx, ny in ((bx - 1, by), (bx + 1, by), (bx, by - 1), (bx, by + 1)):
            if (nx, ny) not in seen and free((nx, ny)):
                seen[(nx, ny)] = seen[(bx, by)] + 1
                queue.append((nx, ny))
    return {big: steps / 2 for big, steps in seen.items()}


def points_of(layout: Layout, halves: bool) -> list[Point]:
    free = [(x, y) for x in range(layout.width) for y in range(layout.height)
            if (x, y) not in layout.walls]
    points: list[Point] = list(free)
    if halves:
        cells = set(free)
        points += [(x + 0.5, y) for x, y in free if (x + 1, y) in cells]
        points += [(x, y + 0.5) for x, y in free if (x, y + 1) in cells]
    return points


@SETTINGS
@given(text=layout_texts(max_ghosts=0))
def test_maze_distance_between_cells_is_the_bfs_metric(text: str) -> None:
    layout = parse_layout(text)
    state = GameState.initial(layout)
    cells = points_of(layout, halves=False)
    bfs = {a: doubled_bfs(layout, a) for a in cells}
    distance = {(a, b): state.maze_distance(a, b) for a in cells for b in cells}
    for a in cells:
        assert distance[a, a] == 0
        for b in cells:
            key = (round(2 * b[0]), round(2 * b[1]))
            if key in bfs[a]:
                assert distance[a, b] == bfs[a][key]
                assert distance[a, b] == distance[b, a]
            else:  # another part of the maze: farther than any real path
                assert distance[a, b] > layout.width * layout.height
    for a in cells:
        for b in cells:
            if (round(2 * b[0]), round(2 * b[1])) not in bfs[a]:
                continue
            for c in cells:
                if (round(2 * c[0]), round(2 * c[1])) in bfs[a]:
                    assert distance[a, c] <= distance[a, b] + distance[b, c]


@SETTINGS
@given(text=layout_texts(max_ghosts=0), data=st.data())
def test_maze_distance_with_half_way_points(text: str, data: st.DataObject) -> None:
    layout = parse_layout(text)
    state = GameState.initial(layout)
    points = points_of(layout, halves=True)
    a = data.draw(st.sampled_from(points))
    from_a = doubled_bfs(layout, a)
    reachable = [p for p in points if (round(2 * p[0]), round(2 * p[1])) in from_a]
    distance = {p: state.maze_distance(a, p) for p in reachable}
    assert distance[a] == 0
    for b in reachable:
        assert distance[b] == from_a[round(2 * b[0]), round(2 * b[1])]
        assert state.maze_distance(b, a) == distance[b]
    for b in reachable:
        for c in reachable:
            assert distance[c] <= distance[b] + state.maze_distance(b, c)


def test_maze_distance_from_a_half_way_point_to_itself_is_zero() -> None:
    state = GameState.initial(parse_layout("%%%%%%\n%P  G%\n%%%%%%\n"))
    assert state.maze_distance((2.5, 1), (2, 1)) == 0.5  # sanity: this part is right
    assert state.maze_distance((2.5, 1), (2.5, 1)) == 0


@SETTINGS
@given(text=layout_texts(), seed=st.integers(0, 2**32 - 1))
def test_distance_queries_agree_with_bfs_during_play(text: str, seed: int) -> None:
    layout = parse_layout(text)
    state = GameState.initial(layout)
    rng = random.Random(seed)
    agent = 0
    for _ in range(40):
        if state.is_terminal():
            break
        from_pacman = doubled_bfs(layout, state.pacman_position)
        for ghost, distance in zip(state.ghost_positions, state.ghost_distances()):
            key = (round(2 * ghost[0]), round(2 * ghost[1]))
            if key in from_pacman:
                assert distance == from_pacman[key]
        reachable = [from_pacman[2 * x, 2 * y] for x, y in state.food_positions
                     if (2 * x, 2 * y) in from_pacman]
        if reachable:
            assert state.nearest_food_distance() == min(reachable)
        elif not state.food_positions:
            assert state.nearest_food_distance() == 0
        legal = state.legal_actions(agent)
        if legal:
            state = state.successor(agent, rng.choice(legal))
        agent = (agent + 1) % state.num_agents
