"""Exact survival tables of the food-free chase, by dynamic programming over every state.

**The chase.** Pacman and one or two ghosts on a layout's free cells; food, capsules and
scared ghosts are EXCLUDED: every ghost is always dangerous, no
capsule is ever eaten, no dot ends the game. A state at Pacman's turn is Pacman's cell and
each ghost's configuration, a cell and a heading (`pacman.chase.moves`): a ghost's legal moves
are docs/rules.md 10 (no Stop, no reversing its heading unless that is its only move; heading
Stop, at a ghost start, allows every way), and its heading after a move is that move.

**One round** (one Pacman move), exactly as the game plays it: Pacman moves (any legal action,
Stop included); if he steps onto a ghost's cell he is caught. Then ghost 1 moves, its
distribution computed from Pacman's *new* cell; it catches him if it lands on his cell. Then
ghost 2 likewise. Collision is on the same cell only (docs/rules.md 15: within 0.7, and two
whole cells are 1 apart), so Pacman and a ghost passing each other is no capture.

**The values.** `V_h[p, c1, c2]` is the probability that Pacman survives `h` more rounds
playing best (the maximum over his legal actions), the ghosts playing their model:
`directional` (`pacman.agents.ghosts.directional_distribution`, the same numbers through the
same helper), `random` (uniform over the legal moves) or `adversarial` (the worst case: the
minimum over the legal moves). `V_0 = 1`, and `V_h = 0` on every state where a ghost stands on
Pacman's cell, so that a ghost landing on him needs no special case. One step:

    U[p', c1, c2] = sum_k P2(k | c2, p') V_h[p', c1, succ2_k]     (ghost 2, expectation or min)
    W[p', c1, c2] = sum_k P1(k | c1, p') U[p', succ1_k, c2]       (ghost 1)
    W[p', c1, c2] = 0 where a ghost is on p'                      (Pacman stepped onto it)
    V_{h+1}[p, c1, c2] = max_{p' in moves(p)} W[p', c1, c2], then 0 where a ghost is on p

Each ghost step works on one Pacman cell's block `[c1, c2]` at a time, so that the work
stays in the cache: slot by slot (`pacman.chase.moves`), a gather of whole rows of the
successor configurations, a product with the weights of Pacman's cell and a sum (the minimum
for the adversarial model); ghost 2's step runs on the transposed block. Pacman's step is an
elementwise maximum of whole blocks. Memory: two float64 arrays of all the states, two uint8
ones and the capture distances (about 2.2 GB at the peak for originalClassic's 118 million
states with two ghosts; 145 MB for mediumClassic's 6 million).

Beside `V_H`, the *capture distance*: the number of rounds (at most `H`) Pacman surely
survives against adversarial ghosts, the sum over `h = 1..H` of the 0/1 worst-case values
(computed in `uint8`; for the adversarial model they are `V_h` itself). And the *curve*:
`V_h` at the layout's start (Pacman's start, the ghosts' starts heading Stop) for every
`h <= H`, recorded on the way.

**Exactness.** Every number is float64 and computed in a fixed order, so the same layout gives
the same bytes in every process; the values equal a brute-force expectimax over real
`GameState`s to rounding (`tests/chase/test_survival_tables.py` checks 1e-12 on every state
of small mazes).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from pacman.chase.cache import Key, layout_hash, read_arrays, write_arrays
from pacman.chase.moves import MODELS, ChaseMoves, Config, chase_moves
from pacman.errors import ChaseTableError
from pacman.layout import Layout, Position
from pacman.rules import DIRECTIONAL_PROB_ATTACK, STOP

if TYPE_CHECKING:
    from pacman.state import GameState

Array = npt.NDArray[Any]

#: the most rounds a table looks ahead
MAX_HORIZON = 10_000
#: the most states (Pacman cells x configurations ** ghosts) a table may hold: two float64
#: arrays of this size are about 3.2 GB
MAX_STATES = 200_000_000
#: tables kept in this process's memory, the least recently asked for dropped first
MEMORY_TABLES = 4


@dataclass(frozen=True, eq=False)
class SurvivalTable:
    """`V_H` and the capture distances of the chase on one layout (module docstring).

    `layout_hash` names the layout's content (`layout_hash`), `curve[h]` is `V_h` at the
    layout's start for `h = 0..horizon`. The arrays (read-only) are indexed `[pacman cell,
    config of ghost 1, config of ghost 2]` in the numbering of `moves`. Lookups are index
    arithmetic on dicts and a flat memoryview (about 0.8 million `survival` calls a second on
    mediumClassic).
    """

    layout_hash: str
    model: str
    ghosts: int
    horizon: int
    prob_attack: float
    curve: tuple[float, ...]
    values: Array = field(repr=False)
    distances: Array = field(repr=False)
    moves: ChaseMoves = field(repr=False)
    walls: frozenset[Position] = field(repr=False)
    _flat_values: memoryview = field(init=False, repr=False)
    _flat_distances: memoryview = field(init=False, repr=False)
    _first_ghosts: tuple[int, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.values.flags.writeable = False  # shared by every caller of the cache
        self.distances.flags.writeable = False
        object.__setattr__(self, "_flat_values", self.values.reshape(-1).data)
        object.__setattr__(self, "_flat_distances", self.distances.reshape(-1).data)
        object.__setattr__(self, "_first_ghosts", tuple(range(1, self.ghosts + 1)))

    def _flat(self, pacman: Position, ghosts: Sequence[Config]) -> int:
        """The flat index of a state; raises `ChaseTableError` for one not in the table."""
        if len(ghosts) != self.ghosts:
            raise ChaseTableError(f"the table is for {self.ghosts} ghost(s), not {len(ghosts)}")
        try:
            flat = self.moves.cell_index[pacman]
            size = len(self.moves.configs)
            for config in ghosts:
                flat = flat * size + self.moves.config_index[config]
        except (KeyError, TypeError):
            raise ChaseTableError(f"no state of the table has Pacman at {pacman!r} and the "
                                  f"ghosts at {list(ghosts)!r}") from None
        return flat

    def survival(self, pacman: Position, ghosts: Sequence[Config]) -> float:
        """`V_H`: the probability that Pacman survives `horizon` more moves playing best.

        Args:
            pacman: Pacman's cell, at his turn.
            ghosts: each ghost's (cell, heading), in agent order; heading Stop only at a
                ghost start before its first move.

        Returns:
            The probability (0.0 when a ghost stands on Pacman's cell); raises
            `ChaseTableError` for a cell or configuration the table does not hold.
        """
        return float(self._flat_values[self._flat(pacman, ghosts)])

    def capture_distance(self, pacman: Position, ghosts: Sequence[Config]) -> int:
        """How many more moves (at most `horizon`) Pacman surely survives, whatever the
        ghosts do (the adversarial worst case), from the state `survival` reads."""
        return int(self._flat_distances[self._flat(pacman, ghosts)])

    def of_state(self, state: GameState, ghosts: Sequence[int] | None = None) -> float | None:
        """`V_H` of a state at Pacman's turn, for the ghosts of agent indexes `ghosts`.

        Args:
            state: a state of a layout with this table's walls, Pacman to move.
            ghosts: the ghosts' agent indexes, in the order of the table's ghosts (the first
                `self.ghosts` ghosts, 1, 2, ..., by default).

        Returns:
            The probability, or None when one of those ghosts is scared, stands half-way
            between cells, or has a configuration the table does not hold (heading Stop away
            from a ghost start). Raises `ChaseTableError` for another maze, or for agent
            indexes that are not this many ghosts of the state.
        """
        if state.layout.walls is not self.walls and state.layout.walls != self.walls:
            raise ChaseTableError("the state's maze is not the table's")
        agents = self._first_ghosts if ghosts is None else ghosts
        count = state.num_agents
        if len(agents) != self.ghosts:
            raise ChaseTableError(f"the table is for {self.ghosts} ghost(s), not agents "
                                  f"{list(agents)}")
        moves = self.moves
        size, config_index = len(moves.configs), moves.config_index
        flat = moves.cell_index[state.pacman_position]
        timers, headings = state.scared_timers, state.ghost_directions
        for agent in agents:
            if not 1 <= agent < count:
                raise ChaseTableError(f"agent {agent} is not a ghost of the state")
            number = config_index.get((state.agent_position(agent), headings[agent - 1]))
            if number is None or timers[agent - 1]:
                return None
            flat = flat * size + number
        return float(self._flat_values[flat])


_memory: OrderedDict[Key, SurvivalTable] = OrderedDict()


def survival_table(layout: Layout, *, ghosts: int = 2, model: str = "directional",
                   horizon: int, prob_attack: float = DIRECTIONAL_PROB_ATTACK) -> SurvivalTable:
    """The survival table of `layout`: from this process's memory, else from the disk cache
    (`pacman.chase.cache`), else built (`build_survival_table`) and kept in both.

    The last `MEMORY_TABLES` tables asked for stay in memory, by (layout hash, model, ghosts,
    horizon, prob_attack); a disk file whose arrays do not fit the request is rebuilt.

    Args:
        layout: the maze (its walls, Pacman's start and its first `ghosts` ghost starts).
        ghosts: 1 or 2 ghosts, the first ones of the layout.
        model: "directional", "random" or "adversarial" (module docstring).
        horizon: H, the number of Pacman moves looked ahead (0 to `MAX_HORIZON`).
        prob_attack: the directional ghost's probability of its best moves.

    Returns:
        The table; raises `ChaseTableError` (one line) for a value out of range.
    """
    check_request(layout, ghosts, model, horizon, prob_attack)
    key = (layout_hash(layout, ghosts), model, ghosts, horizon, float(prob_attack))
    table = _memory.get(key)
    if table is None:
        arrays = read_arrays(key)
        table = None if arrays is None else _stored_table(layout, key, arrays)
        if table is None:
            table = build_survival_table(layout, ghosts, model, horizon, prob_attack)
            write_arrays(key, {"values": table.values, "distances": table.distances,
                               "curve": np.array(table.curve, dtype=np.float64)})
        _memory[key] = table
        while len(_memory) > MEMORY_TABLES:
            _memory.popitem(last=False)
    _memory.move_to_end(key)
    return table


def clear_memory() -> None:
    """Forget the tables kept in this process's memory (the disk copies stay)."""
    _memory.clear()


def _stored_table(layout: Layout, key: Key, arrays: dict[str, Array]
                  ) -> SurvivalTable | None:
    """The table of the arrays read from disk, or None when they do not fit the request."""
    digest, model, ghosts, horizon, prob_attack = key
    moves = chase_moves(layout, model, prob_attack)
    shape = (len(moves.cells),) + (len(moves.configs),) * ghosts
    values, distances, curve = arrays["values"], arrays["distances"], arrays["curve"]
    if (values.shape != shape or values.dtype != np.float64 or distances.shape != shape
            or distances.dtype != _distance_type(horizon)
            or curve.shape != (horizon + 1,) or curve.dtype != np.float64):
        return None
    return SurvivalTable(digest, model, ghosts, horizon, prob_attack,
                         tuple(float(v) for v in curve.tolist()), values, distances, moves,
                         layout.walls)


def check_request(layout: Layout, ghosts: int, model: str, horizon: int,
                  prob_attack: float) -> None:
    """Raise `ChaseTableError` (one line) for a table that cannot be built as asked."""
    if model not in MODELS:
        raise ChaseTableError(f"unknown ghost model {model!r}: use one of {', '.join(MODELS)}")
    if not isinstance(ghosts, int) or ghosts not in (1, 2):
        raise ChaseTableError(f"a survival table is for 1 or 2 ghosts, not {ghosts!r}")
    if len(layout.ghost_starts) < ghosts:
        raise ChaseTableError(f"the layout {layout.name!r} has {len(layout.ghost_starts)} "
                              f"ghost(s), fewer than {ghosts}")
    if isinstance(horizon, bool) or not isinstance(horizon, int) \
            or not 0 <= horizon <= MAX_HORIZON:
        raise ChaseTableError(f"the horizon must be a whole number of moves from 0 to "
                              f"{MAX_HORIZON}, not {horizon!r}")
    if not 0.0 <= prob_attack <= 1.0:
        raise ChaseTableError(f"prob_attack must be a probability, not {prob_attack!r}")


def build_survival_table(layout: Layout, ghosts: int, model: str, horizon: int,
                         prob_attack: float = DIRECTIONAL_PROB_ATTACK) -> SurvivalTable:
    """Build the table by dynamic programming (module docstring), with no cache at all.

    Args and errors as `survival_table`; the result's arrays are float64 (values) and
    uint8 (capture distances up to 255 moves) or uint16.
    """
    check_request(layout, ghosts, model, horizon, prob_attack)
    moves = chase_moves(layout, model, prob_attack)
    shape = (len(moves.cells),) + (len(moves.configs),) * ghosts
    if int(np.prod(shape)) > MAX_STATES:
        raise ChaseTableError(f"a table of {int(np.prod(shape)):,} states is more than the "
                              f"{MAX_STATES:,} allowed")
    start = _start_index(moves, layout, ghosts)
    caught = _caught(moves, shape)
    values = _fresh(shape, caught, np.float64)
    worst = values if model == "adversarial" else _fresh(shape, caught, np.uint8)
    distances = np.zeros(shape, dtype=_distance_type(horizon))
    curve = [float(values[start])]
    spare = np.empty_like(values)
    spare_worst = spare if worst is values else np.empty_like(worst)
    for _ in range(horizon):
        _round(values, spare, moves, caught, model == "adversarial")
        if worst is not values:
            _round(worst, spare_worst, moves, caught, True)
        np.add(distances, worst, out=distances, casting="unsafe")
        curve.append(float(values[start]))
    return SurvivalTable(layout_hash(layout, ghosts), model, ghosts, horizon, prob_attack,
                         tuple(curve), values, distances, moves, layout.walls)


def _distance_type(horizon: int) -> type[np.unsignedinteger]:
    """The capture distances' type: uint8 up to 255 moves, else uint16."""
    return np.uint8 if horizon <= 255 else np.uint16


def _start_index(moves: ChaseMoves, layout: Layout, ghosts: int) -> tuple[int, ...]:
    """The index of the layout's start: Pacman's start, the ghosts' starts heading Stop."""
    return (moves.cell_index[layout.pacman_start],
            *(moves.config_index[(cell, STOP)] for cell in layout.ghost_starts[:ghosts]))


def _fresh(shape: tuple[int, ...], caught: npt.NDArray[np.intp], dtype: type[np.generic]
           ) -> Array:
    """`V_0`: ones, and zeros on the `caught` states (flat indexes)."""
    values = np.ones(shape, dtype=dtype)
    np.put(values, caught, 0)
    return values


def _caught(moves: ChaseMoves, shape: tuple[int, ...]) -> npt.NDArray[np.intp]:
    """The flat indexes, ascending, of the states where some ghost stands on Pacman's cell."""
    found = np.zeros(shape, dtype=bool)
    for p, here in enumerate(moves.at_cell):
        for axis in range(len(shape) - 1):
            found[(p,) + (slice(None),) * axis + (here,)] = True
    return np.flatnonzero(found).astype(np.intp)


def _round(values: Array, spare: Array, moves: ChaseMoves, caught: npt.NDArray[np.intp],
           worst: bool) -> None:
    """Turn `V_h` in `values` into `V_{h+1}` (module docstring), with `spare` as scratch and
    `caught` the flat indexes of the states to zero (`_caught`); `worst` takes the minimum
    over each ghost's moves instead of the expectation.

    A ghost step gathers rows, the fast way: ghost 2's is done on the transposed block. The
    scratch blocks are made once per round and written in place (a fresh array of a few MB
    per block costs more in page faults than the arithmetic)."""
    block_shape = values.shape[1:]
    flipped, moved = np.empty(block_shape, values.dtype), np.empty(block_shape, values.dtype)
    part = np.empty((len(moves.slots[1]) if len(moves.slots) > 1 else 0, *block_shape[1:]),
                    values.dtype)
    for p in range(values.shape[0]):
        pacman = None if worst else p
        if len(block_shape) == 2:
            np.copyto(flipped, values[p].T)  # [ghost 2, ghost 1]
            _ghost_step(flipped, moves, pacman, moved, part)  # ghost 2
            np.copyto(flipped, moved.T)
            _ghost_step(flipped, moves, pacman, spare[p], part)  # ghost 1
        else:
            _ghost_step(values[p], moves, pacman, spare[p], part)
    np.put(spare, caught, 0)
    for p, targets in enumerate(moves.pacman_moves):
        out = values[p]
        np.copyto(out, spare[targets[0]])
        for target in targets[1:]:
            np.maximum(out, spare[target], out=out)
    np.put(values, caught, 0)


def _ghost_step(block: Array, moves: ChaseMoves, pacman: int | None, out: Array,
                part: Array) -> None:
    """One ghost's move along axis 0 of a block of Pacman's cell `pacman`, into `out`: the
    expectation over its successors with that cell's weights, or their minimum when `pacman`
    is None; `part` is scratch of at least `len(moves.slots[1])` rows.

    Slot `k` holds the `k`-th legal move of the configurations that have more than `k` (a
    prefix, `pacman.chase.moves`), so the terms are added in the moves' canonical order; a
    configuration with one move has weight 1.0 exactly, so its product is skipped."""
    weights = None if pacman is None else moves.weights
    shape = (-1,) + (1,) * (block.ndim - 1)
    block.take(moves.slots[0], axis=0, out=out, mode="clip")
    for slot in range(1, len(moves.slots)):
        index = moves.slots[slot]
        head, gathered = out[:len(index)], part[:len(index)]
        block.take(index, axis=0, out=gathered, mode="clip")
        if weights is None:
            np.minimum(head, gathered, out=head)
            continue
        if slot == 1:
            head *= weights[0][pacman][:len(index)].reshape(shape)
        gathered *= weights[slot][pacman].reshape(shape)
        np.add(head, gathered, out=head)


__all__ = ["MAX_HORIZON", "MAX_STATES", "MEMORY_TABLES", "SurvivalTable",
           "build_survival_table", "check_request", "clear_memory", "survival_table"]
