"""The chase's survival tables (`pacman.chase`) against brute force on the real game.

The brute force is its own implementation: it walks real `GameState`s (`legal_actions`,
`successor`, `is_lose`) and asks the real ghosts (`DirectionalGhost(i).distribution`,
`RandomGhost(i).distribution`) for their moves; it shares nothing with the table's transition
arrays. Food is taken away by rebuilding each state with an empty food mask (`recreate`):
with no food left to eat the game can never be won, so it ends only when Pacman is caught.
"""

from __future__ import annotations

import hashlib
import itertools
import subprocess
import sys
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from pacman import Direction, GameState, parse_layout
from pacman.agents.ghosts import DirectionalGhost, RandomGhost
from pacman.chase import (
    ChaseTableError,
    SurvivalTable,
    build_survival_table,
    cache_dir,
    clear_memory,
    survival_table,
)
from pacman.layout import Layout

ROOT = Path(__file__).resolve().parents[2]

#: a ring round a wall block: no dead end, every cell on the loop
LOOP = """
%%%%%%%
%P   G%
% %%% %
%    G%
%%%%%%%
"""
#: a T of corridors with three dead ends
DEAD_END = """
%%%%%%%%
%P  G  %
%%%% %%%
%G   %%%
%%%%%%%%
"""
#: a ladder: six junctions on 13 cells
JUNCTIONS = """
%%%%%%%
%P  G %
% % % %
%   G %
%%%%%%%
"""
MAZES = {"loop": LOOP, "dead_end": DEAD_END, "junctions": JUNCTIONS}
HORIZONS = range(0, 7)  # one ghost; two ghosts: 1, 3 and 5
TOLERANCE = 1e-12


def layout_of(name: str) -> Layout:
    return parse_layout(MAZES[name].strip("\n") + "\n", name)


class BruteForce:
    """Expectimax (or minimax) over real game states with no food (module docstring)."""

    def __init__(self, layout: Layout, ghosts: int, model: str, prob_attack: float = 0.8
                 ) -> None:
        self.base = GameState.initial(layout, num_ghosts=ghosts)
        self.ghosts, self.model = ghosts, model
        self.agents = {i: (DirectionalGhost(i, prob_attack=prob_attack)
                           if model == "directional" else RandomGhost(i))
                       for i in range(1, ghosts + 1)}
        self.value = cache(self._value)
        self.safe = cache(self._safe)

    def state(self, pacman: tuple[int, int], ghosts: tuple[tuple[tuple[int, int], Direction],
                                                            ...]) -> GameState:
        """The state at Pacman's turn with these cells and headings, no food, no capsule."""
        maze = self.base.maze
        flat = [item for cell, heading in ghosts for item in (maze.index(cell), heading.value, 0)]
        state = self.base.recreate([maze.index(pacman), "Stop", flat, 0, 0, 0, 0])
        assert state.food_count == 0 and not state.is_terminal()
        return state

    def _value(self, state: GameState, h: int) -> float:
        """P(Pacman survives h more of his moves), playing best, at his turn."""
        if h == 0:
            return 1.0
        return max(self._after(state.successor(0, action), 1, h)
                   for action in state.legal_actions(0))

    def _after(self, state: GameState, agent: int, h: int) -> float:
        if state.is_lose():
            return 0.0
        assert not state.is_win()
        if agent > self.ghosts:
            return self.value(state, h - 1)
        if self.model == "adversarial":
            return min(self._after(state.successor(agent, action), agent + 1, h)
                       for action in state.legal_actions(agent))
        return sum(chance * self._after(state.successor(agent, action), agent + 1, h)
                   for action, chance in self.agents[agent].distribution(state))

    def _safe(self, state: GameState, h: int) -> bool:
        """Pacman surely survives h more moves whatever the ghosts do (minimax)."""
        if h == 0:
            return True
        return any(self._surely(state.successor(0, action), 1, h)
                   for action in state.legal_actions(0))

    def _surely(self, state: GameState, agent: int, h: int) -> bool:
        if state.is_lose():
            return False
        if agent > self.ghosts:
            return self.safe(state, h - 1)
        return all(self._surely(state.successor(agent, action), agent + 1, h)
                   for action in state.legal_actions(agent))

    def capture_distance(self, state: GameState, horizon: int) -> int:
        return sum(1 for h in range(1, horizon + 1) if self.safe(state, h))


def every_state(table: SurvivalTable) -> Iterator[tuple[tuple[int, int], tuple[object, ...]]]:
    """Every (Pacman cell, ghost configurations) of the table."""
    for pacman in table.moves.cells:
        for ghosts in itertools.product(table.moves.configs, repeat=table.ghosts):
            yield pacman, ghosts


def check_every_state(table: SurvivalTable, brute: BruteForce,
                      read: Callable[[GameState], float]) -> int:
    """Compare the table with `read` of the brute force on every state; the number checked."""
    checked = 0
    for pacman, ghosts in every_state(table):
        got = table.survival(pacman, ghosts)  # type: ignore[arg-type]
        if any(cell == pacman for cell, _ in ghosts):  # type: ignore[misc]
            assert got == 0.0 and table.capture_distance(pacman, ghosts) == 0  # type: ignore
            continue
        state = brute.state(pacman, ghosts)  # type: ignore[arg-type]
        want = read(state)
        assert abs(got - want) <= TOLERANCE, (pacman, ghosts, got, want)
        assert table.of_state(state) == got
        checked += 1
    return checked


@pytest.mark.parametrize("ghosts", [1, 2])
@pytest.mark.parametrize("maze", sorted(MAZES))
def test_directional_table_equals_brute_force_expectimax_on_every_state(maze: str,
                                                                        ghosts: int) -> None:
    layout = layout_of(maze)
    brute = BruteForce(layout, ghosts, "directional")
    for horizon in HORIZONS if ghosts == 1 else (1, 3, 5):
        table = build_survival_table(layout, ghosts, "directional", horizon)
        assert check_every_state(table, brute, lambda s, h=horizon: brute.value(s, h)) > 0
        start = brute.state(layout.pacman_start,
                            tuple((cell, Direction.STOP) for cell in layout.ghost_starts[:ghosts]))
        assert table.curve == tuple(table_curve(layout, ghosts, "directional", horizon))
        assert abs(table.curve[-1] - brute.value(start, horizon)) <= TOLERANCE


def table_curve(layout: Layout, ghosts: int, model: str, horizon: int) -> list[float]:
    """The start values of tables of every shorter horizon: the curve, read the long way."""
    from pacman.chase.tables import _start_index

    found = []
    for h in range(horizon + 1):
        table = build_survival_table(layout, ghosts, model, h)
        found.append(float(table.values[_start_index(table.moves, layout, ghosts)]))
    return found


@pytest.mark.parametrize("model", ["random", "adversarial"])
@pytest.mark.parametrize("ghosts", [1, 2])
def test_random_and_adversarial_tables_equal_brute_force(model: str, ghosts: int) -> None:
    layout = layout_of("junctions")
    brute = BruteForce(layout, ghosts, model)
    for horizon in (1, 4):
        table = build_survival_table(layout, ghosts, model, horizon)
        assert check_every_state(table, brute, lambda s, h=horizon: brute.value(s, h)) > 0


def test_a_ghost_with_one_move_takes_it_with_weight_one_exactly() -> None:
    from pacman import load_layout
    from pacman.chase.moves import chase_moves

    for model in ("directional", "random"):
        moves = chase_moves(load_layout("mediumClassic"), model, 0.8)
        assert moves.weights is not None
        assert (moves.weights[0][:, len(moves.slots[1]):] == 1.0).all()  # the step skips them
        assert np.allclose(sum(np.pad(w, ((0, 0), (0, len(moves.configs) - w.shape[1])))
                               for w in moves.weights), 1.0, rtol=0, atol=1e-15)


def test_another_prob_attack_is_the_directional_ghost_s_own() -> None:
    layout = layout_of("dead_end")
    brute = BruteForce(layout, 2, "directional", prob_attack=0.35)
    table = build_survival_table(layout, 2, "directional", 3, prob_attack=0.35)
    check_every_state(table, brute, lambda s: brute.value(s, 3))


@pytest.mark.parametrize("ghosts", [1, 2])
@pytest.mark.parametrize("maze", ["dead_end", "loop"])
def test_capture_distance_equals_brute_force_minimax(maze: str, ghosts: int) -> None:
    layout = layout_of(maze)
    brute = BruteForce(layout, ghosts, "adversarial")
    horizon = 7
    for model in ("directional", "adversarial"):
        table = build_survival_table(layout, ghosts, model, horizon)
        distances = set()
        for pacman, ghost_configs in every_state(table):
            if any(cell == pacman for cell, _ in ghost_configs):  # type: ignore[misc]
                continue
            state = brute.state(pacman, ghost_configs)  # type: ignore[arg-type]
            got = table.capture_distance(pacman, ghost_configs)  # type: ignore[arg-type]
            assert got == brute.capture_distance(state, horizon), (pacman, ghost_configs)
            distances.add(got)
        # the check sees short and long distances alike (one ghost never catches Pacman on
        # a loop)
        assert distances == {horizon} if (maze, ghosts) == ("loop", 1) else len(distances) > 2


def table_digest(table: SurvivalTable) -> str:
    digest = hashlib.blake2b(digest_size=16)
    for array in (table.values, table.distances, np.array(table.curve)):
        digest.update(array.tobytes())
    return digest.hexdigest()


def test_the_same_layout_gives_the_same_bytes_in_every_process() -> None:
    code = ("import hashlib, numpy as np\n"
            "from pacman import load_layout\n"
            "from pacman.chase import build_survival_table\n"
            "t = build_survival_table(load_layout('smallClassic'), 2, 'directional', 6)\n"
            "d = hashlib.blake2b(digest_size=16)\n"
            "for a in (t.values, t.distances, np.array(t.curve)): d.update(a.tobytes())\n"
            "print(d.hexdigest())\n")
    runs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True, cwd=ROOT).stdout.strip() for _ in range(2)}
    from pacman import load_layout

    assert runs == {table_digest(build_survival_table(load_layout("smallClassic"), 2,
                                                      "directional", 6))}


def test_a_second_call_is_served_from_memory_and_a_damaged_file_is_rebuilt(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import pacman.chase.tables as chase_tables

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    clear_memory()
    layout = layout_of("junctions")
    first = survival_table(layout, ghosts=2, horizon=4)
    assert survival_table(layout, ghosts=2, horizon=4) is first
    files = list(cache_dir().glob("*.npz"))
    assert cache_dir() == tmp_path / "pacman-adversarial" / "chase" and len(files) == 1
    assert not list(cache_dir().glob(".tmp-*"))

    def no_build(*args: object, **kwargs: object) -> SurvivalTable:
        raise AssertionError("built again")

    clear_memory()
    with monkeypatch.context() as patch:  # from disk, not built
        patch.setattr(chase_tables, "build_survival_table", no_build)
        again = survival_table(layout, ghosts=2, horizon=4)
    assert again is not first and table_digest(again) == table_digest(first)
    assert again.curve == first.curve
    built = []
    monkeypatch.setattr(chase_tables, "build_survival_table",
                        lambda *a, **k: built.append(1) or build_survival_table(*a, **k))
    for damage in (b"garbage", files[0].read_bytes()[:200], b""):
        files[0].write_bytes(damage)
        clear_memory()
        rebuilt = survival_table(layout, ghosts=2, horizon=4)
        assert table_digest(rebuilt) == table_digest(first)
        assert np.load(files[0])["values"].shape == first.values.shape  # written again
    assert len(built) == 3
    # a file that records another request, or the right one with arrays of another shape
    with np.load(files[0]) as stored:
        meta = str(stored["meta"])
    other = build_survival_table(layout, 1, "directional", 4)
    for recorded in (meta.replace('"directional"', '"random"'), meta):
        np.savez(files[0], meta=np.array(recorded), values=other.values,
                 distances=other.distances, curve=np.array(other.curve))
        clear_memory()
        assert table_digest(survival_table(layout, ghosts=2, horizon=4)) == table_digest(first)
    assert len(built) == 5
    clear_memory()


def test_the_in_memory_key_holds_model_horizon_ghosts_and_prob_attack(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    clear_memory()
    layout = layout_of("loop")
    tables = [survival_table(layout, ghosts=2, horizon=3),
              survival_table(layout, ghosts=1, horizon=3),
              survival_table(layout, ghosts=2, horizon=4),
              survival_table(layout, ghosts=2, horizon=3, model="random"),
              survival_table(layout, ghosts=2, horizon=3, prob_attack=0.5)]
    assert len({id(t) for t in tables}) == 5
    assert len(list(cache_dir().glob("*.npz"))) == 5
    clear_memory()


def test_lookups_read_states_and_refuse_others() -> None:
    layout = layout_of("junctions")
    table = build_survival_table(layout, 2, "directional", 5)
    state = GameState.initial(layout)
    assert table.of_state(state) == table.curve[-1] == table.survival(
        layout.pacman_start, [(cell, Direction.STOP) for cell in layout.ghost_starts])
    assert table.of_state(state, ghosts=[2, 1]) == table.survival(
        layout.pacman_start, [(cell, Direction.STOP) for cell in layout.ghost_starts[::-1]])
    scared = state.recreate([*state.compact()[:2], [state.compact()[2][0], "Stop", 3,
                                                    *state.compact()[2][3:]],
                             *state.compact()[3:]])
    assert table.of_state(scared) is None
    moved = state.successor(0, "Stop").successor(1, "West").successor(2, "West")
    assert table.of_state(moved) is not None
    with pytest.raises(ChaseTableError, match="no state of the table"):
        table.survival((0, 0), [((4, 3), Direction.STOP)] * 2)
    with pytest.raises(ChaseTableError, match="no state of the table"):
        table.survival(layout.pacman_start, [((3, 3), Direction.STOP)] * 2)  # not a start
    with pytest.raises(ChaseTableError, match="2 ghost"):
        table.survival(layout.pacman_start, [((4, 3), Direction.STOP)])
    with pytest.raises(ChaseTableError, match="maze"):
        table.of_state(GameState.initial(layout_of("loop")))


@pytest.mark.parametrize("kwargs, message", [
    ({"model": "smart"}, "unknown ghost model 'smart': use one of directional, random, "
                         "adversarial"),
    ({"horizon": -1}, "the horizon must be a whole number of moves from 0 to 10000, not -1"),
    ({"horizon": 2.5}, "the horizon must be a whole number"),
    ({"ghosts": 3}, "a survival table is for 1 or 2 ghosts, not 3"),
    ({"prob_attack": 1.5}, "prob_attack must be a probability, not 1.5"),
])
def test_requests_out_of_range_are_one_line_errors(kwargs: dict[str, object],
                                                   message: str) -> None:
    arguments: dict[str, object] = {"horizon": 3, **kwargs}
    with pytest.raises(ChaseTableError) as caught:
        survival_table(layout_of("loop"), **arguments)  # type: ignore[arg-type]
    assert str(caught.value).startswith(message) and "\n" not in str(caught.value)
    with pytest.raises(ChaseTableError, match="has 1 ghost"):
        survival_table(layout_of("loop").with_ghosts(1), ghosts=2, horizon=3)
