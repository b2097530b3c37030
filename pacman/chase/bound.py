"""The best chance any Pacman has to win a layout, exactly where it can be counted.

`exact_win_chance` values every position a game of the layout can reach, against ghosts whose
move probabilities are known (`DirectionalGhost`, `RandomGhost`): Pacman takes the move with
the highest chance of a win, each ghost moves with its own probabilities, a won game is worth
1 and a lost one, or one still running at the move cap, 0. No agent can win more often; an
agent that wins this often plays perfectly for winning.

A position is what the rules read: Pacman's cell, each ghost's cell, heading and scared
timer, the food and capsules left, and whose turn it is. The score is left out (it does not
change who wins), and so is Pacman's heading (no rule reads it). The positions are found by
a breadth-first walk from the start; the walk stops, and the layout is too big to count, when
there are more than `limit` of them (a layout that could have more than `HOPELESS` times the
limit, counting its cells, food and capsules, is not walked at all).

Two cases give the number:

- **Every game ends.** When no position can come back (the positions form a graph without a
  cycle), every game ends within a fixed number of Pacman moves whatever anyone plays. If
  that number is within the move cap, the chance is computed in exact fractions, the ghosts'
  probabilities read as the small fractions they are (each within 1e-15 of the float the game
  draws with, and summing to exactly 1), and the answer holds for a game of any length.
- **A game can go on.** Otherwise the chance is that of a win within the move cap (a game of
  `pacman play` is capped at 3,000 Pacman moves unless told otherwise), computed by value
  iteration over the cap's rounds in float64, stopping early once a round changes nothing
  (then no longer cap would change it either).
"""

from __future__ import annotations

import dataclasses
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from pacman.agents.ghosts import DirectionalGhost, GhostAgent, RandomGhost
from pacman.errors import BoundError
from pacman.layout import Layout
from pacman.maze import maze_for
from pacman.state import GameState

__all__ = ["GHOST_MODELS", "BoundError", "ChaseBound", "WinChance", "best_possible",
           "chase_bound", "exact_win_chance", "fewest_moves"]

#: the ghosts whose move probabilities a bound can use, by the name `pacman play -g` takes
GHOST_MODELS: dict[str, Callable[[int], GhostAgent[Any]]] = {
    "DirectionalGhost": DirectionalGhost, "RandomGhost": RandomGhost}

_WIN, _LOSE = -1, -2  # the kinds of an ended position; 0 is Pacman's turn, k ghost k's


@dataclass(frozen=True)
class WinChance:
    """The best chance of a win, and how it was found.

    Attributes:
        chance: the probability, as a float.
        fraction: the same probability as an exact fraction when every game ends (None when
            it was computed in float64 over the move cap).
        positions: how many positions were valued.
        longest: when every game ends, the most Pacman moves any game can last; else None.
        converged: when a game can go on, the Pacman moves after which one more changed
            nothing (None: it was still changing at the cap).
        max_moves: the move cap the chance is for.
    """

    chance: float
    fraction: Fraction | None
    positions: int
    longest: int | None
    converged: int | None
    max_moves: int

    @property
    def reason(self) -> str:
        """Why the number is what it claims to be, in one sentence."""
        if self.fraction is not None:
            return (f"exact: every game ends within {self.longest} Pacman moves whatever "
                    f"anyone plays, and all {self.positions:,} positions were valued in "
                    "exact fractions, so no agent wins more often in a game of any length")
        if self.converged is not None:
            return (f"exact up to float64 rounding: all {self.positions:,} positions valued; "
                    f"the chance stops changing after {self.converged} Pacman moves, so it "
                    f"is the best for any cap of at least {self.converged} moves")
        return (f"exact up to float64 rounding for a game capped at {self.max_moves} Pacman "
                f"moves (all {self.positions:,} positions valued; a longer cap could win more)")


#: a layout whose positions could number more than this many times the limit is not walked:
#: the walk would end at the limit after minutes (mediumClassic's food alone makes 2**97)
HOPELESS = 1000


def _most_positions(layout: Layout, ghosts: int) -> int:
    """A crude upper bound on a game's positions: Pacman's cell, each ghost's cell and
    heading, the food and capsules left, whose turn (scared timers left out)."""
    cells: int = layout.width * layout.height - len(layout.walls)
    food: int = len(layout.food) + len(layout.capsules)
    return int(cells * (5 * cells) ** ghosts) * (1 << food) * (ghosts + 1)


def _check_ghost(ghost: str) -> None:
    if ghost not in GHOST_MODELS:
        raise BoundError(f"no move probabilities for {ghost!r}: a bound knows "
                         f"{', '.join(GHOST_MODELS)}")


def _key(state: GameState, agent: int) -> tuple[Any, ...]:
    return (state._pac, state._ghosts, state._food, state._capsules, agent)


def _as_fraction(chance: float) -> Fraction:
    """The small fraction a ghost's move probability is (its float is the nearest double)."""
    fraction = Fraction(chance).limit_denominator(10_000)
    if abs(float(fraction) - chance) > 1e-15:
        raise BoundError(f"a ghost probability {chance!r} is not a small fraction")
    return fraction


class _Graph:
    """Every reachable position: its kind and its successors with their probabilities."""

    def __init__(self, start: GameState, ghosts: Sequence[GhostAgent[Any]], limit: int) -> None:
        self.kinds: list[int] = []
        self.edges: list[list[tuple[int, Fraction]]] = []
        index: dict[tuple[Any, ...], int] = {}
        agents = start.num_agents
        queue: deque[tuple[GameState, int]] = deque()

        def visit(state: GameState, agent: int) -> int:
            key = _key(state, agent)
            known = index.get(key)
            if known is not None:
                return known
            if len(self.kinds) >= limit:
                raise OverflowError
            index[key] = found = len(self.kinds)
            self.kinds.append(_WIN if state.is_win() else _LOSE if state.is_lose() else agent)
            self.edges.append([])
            if self.kinds[found] >= 0:
                queue.append((state, agent))
            return found

        visit(start, 0)
        while queue:
            state, agent = queue.popleft()
            here = index[_key(state, agent)]
            following = (agent + 1) % agents
            if agent == 0:
                moves = [(action, Fraction(1)) for action in state.legal_actions(0)]
            else:
                moves = [(action, _as_fraction(chance))
                         for action, chance in ghosts[agent - 1].distribution(state)
                         if chance > 0]
                if sum(chance for _, chance in moves) != 1:
                    raise BoundError("a ghost's move probabilities do not sum to 1")
            self.edges[here] = [(visit(state.successor(agent, action), following), chance)
                                for action, chance in moves]

    def order(self) -> list[int] | None:
        """The positions, each after every position it leads to; None if one can recur."""
        waiting = [len(edges) for edges in self.edges]
        before: list[list[int]] = [[] for _ in self.edges]
        for here, edges in enumerate(self.edges):
            for there, _ in edges:
                before[there].append(here)
        ready = [here for here, count in enumerate(waiting) if count == 0]
        done: list[int] = []
        while ready:
            here = ready.pop()
            done.append(here)
            for earlier in before[here]:
                waiting[earlier] -= 1
                if waiting[earlier] == 0:
                    ready.append(earlier)
        return done if len(done) == len(self.edges) else None


def _exact(graph: _Graph, order: list[int]) -> tuple[Fraction, int]:
    """The chance at the start in fractions, and the longest game in Pacman moves."""
    value: list[Fraction] = [Fraction(0)] * len(graph.kinds)
    longest = [0] * len(graph.kinds)
    for here in order:
        kind, edges = graph.kinds[here], graph.edges[here]
        if kind == _WIN:
            value[here] = Fraction(1)
        elif kind == 0:
            value[here] = max(value[there] for there, _ in edges)
        elif kind > 0:
            value[here] = sum((chance * value[there] for there, chance in edges), Fraction(0))
        step = 1 if kind == 0 else 0
        longest[here] = step + max((longest[there] for there, _ in edges), default=0)
    return value[0], longest[0]


def _iterated(graph: _Graph, agents: int, max_moves: int) -> tuple[float, int | None]:
    """The chance of a win within `max_moves` Pacman moves, and when it stopped changing."""
    kinds = np.array(graph.kinds)
    value = (kinds == _WIN).astype(np.float64)
    layers = []
    for agent in reversed(range(agents)):  # the last ghost first: it reads last round's values
        sources = np.flatnonzero(kinds == agent)
        src = np.repeat(np.arange(len(sources)), [len(graph.edges[s]) for s in sources])
        dst = np.array([there for s in sources for there, _ in graph.edges[s]], dtype=np.int64)
        weight = np.array([float(chance) for s in sources for _, chance in graph.edges[s]])
        layers.append((agent, sources, src, dst, weight))
    for moves in range(1, max_moves + 1):
        before = value.copy()
        for agent, sources, src, dst, weight in layers:
            if agent:
                value[sources] = np.bincount(src, weights=weight * value[dst],
                                             minlength=len(sources))
            else:
                best = np.full(len(sources), -1.0)
                np.maximum.at(best, src, value[dst])
                value[sources] = best
        if np.array_equal(before, value):
            return float(value[0]), moves - 1
    return float(value[0]), None


def exact_win_chance(layout: Layout, num_ghosts: int | None = None,
                     ghost: str = "DirectionalGhost", *, max_moves: int = 3000,
                     limit: int = 2_000_000) -> WinChance | None:
    """The highest probability with which any Pacman wins `layout`, when it can be counted.

    Args:
        layout: the layout.
        num_ghosts: the ghosts that play, the first ones of the layout (None: all).
        ghost: the ghosts' kind, a key of `GHOST_MODELS`.
        max_moves: the move cap of the game, in Pacman moves (at least 1).
        limit: the most positions to value; a layout with more is too big to count.

    Returns:
        The chance and how it was found, or None when the layout has more than `limit`
        positions.

    Raises:
        BoundError: an unknown ghost, or a cap or limit below 1.
    """
    _check_ghost(ghost)
    if max_moves < 1 or limit < 1:
        raise BoundError("the move cap and the position limit must be at least 1")
    start = GameState.initial(layout, num_ghosts)
    if _most_positions(layout, start.num_agents - 1) > HOPELESS * limit:
        return None
    ghosts = [GHOST_MODELS[ghost](index) for index in range(1, start.num_agents)]
    try:
        graph = _Graph(start, ghosts, limit)
    except OverflowError:
        return None
    order = graph.order()
    if order is not None:
        fraction, longest = _exact(graph, order)
        if longest <= max_moves:
            return WinChance(float(fraction), fraction, len(graph.kinds), longest, None,
                             max_moves)
    chance, converged = _iterated(graph, start.num_agents, max_moves)
    return WinChance(chance, None, len(graph.kinds), None, converged, max_moves)


@dataclass(frozen=True)
class ChaseBound:
    """`P(win) <= V_T`: the chance of surviving the fewest moves that eat every dot.

    No game is won before Pacman has made `moves` moves (he eats at most one dot a move, and
    must reach the farthest one), and no game is won in which he was caught first: so the
    best chance of a win is at most the best chance of surviving `moves` moves of the chase,
    food ignored, which a survival table gives exactly (`pacman.chase.tables`). Against more
    than two ghosts the chase counts the two that start nearest Pacman: fewer ghosts catch
    him no more often, so the bound still holds. A capsule breaks it: the table counts every
    ghost as dangerous, and a Pacman who eats a capsule can survive what the chase says he
    cannot; on a layout with capsules the number is the chase's, not a bound.

    Attributes:
        chance: V_T at the layout's start.
        moves: T, the fewest Pacman moves any win takes (a lower bound on them).
        ghosts: the ghost agents (1-based) whose chase is counted.
        holds: False on a layout with capsules (see above).
    """

    chance: float
    moves: int
    ghosts: tuple[int, ...]
    holds: bool

    @property
    def reason(self) -> str:
        """What the number is, in one sentence."""
        chased = " and ".join(str(ghost) for ghost in self.ghosts)
        text = (f"a win takes at least {self.moves} Pacman moves, and Pacman survives "
                f"{self.moves} moves of the chase by ghost{'s' if len(self.ghosts) > 1 else ''}"
                f" {chased} (food ignored) at best with this chance (exact survival table)")
        if self.holds:
            return "an upper bound: " + text
        return ("not a bound: the layout has capsules, which the chase leaves out and which "
                "can save Pacman where it says he is caught; " + text)


def fewest_moves(layout: Layout) -> int:
    """A lower bound on the Pacman moves that eat every dot: one dot a move at most, and the
    farthest dot is that many moves away."""
    maze = maze_for(layout)
    farthest = max(maze.maze_distance(layout.pacman_start, dot) for dot in layout.food)
    return max(len(layout.food), int(farthest))


def chase_bound(layout: Layout, num_ghosts: int | None = None,
                ghost: str = "DirectionalGhost") -> ChaseBound:
    """The upper bound `P(win) <= V_T` of `ChaseBound`, from the exact survival table.

    Args:
        layout: the layout (with food; at least one ghost plays).
        num_ghosts: the ghosts that play, the first ones of the layout (None: all).
        ghost: the ghosts' kind, a key of `GHOST_MODELS`.

    Returns:
        The bound, with T and the ghosts it counts.
    """
    from pacman.chase.tables import survival_table

    _check_ghost(ghost)
    playing = layout.with_ghosts(len(layout.ghost_starts) if num_ghosts is None else num_ghosts)
    if not playing.ghost_starts:
        raise BoundError("a chase needs at least one ghost")
    maze = maze_for(playing)
    nearest = sorted(range(len(playing.ghost_starts)), key=lambda g: (
        maze.maze_distance(playing.pacman_start, playing.ghost_starts[g]), g))[:2]
    chased = tuple(sorted(nearest))
    chase = dataclasses.replace(playing, ghost_starts=tuple(
        playing.ghost_starts[g] for g in chased))
    moves = fewest_moves(playing)
    model = "directional" if ghost == "DirectionalGhost" else "random"
    table = survival_table(chase, ghosts=len(chased), model=model, horizon=moves)
    return ChaseBound(table.curve[moves], moves, tuple(g + 1 for g in chased),
                      not playing.capsules)


def best_possible(layout: Layout, num_ghosts: int | None = None,
                  ghost: str = "DirectionalGhost", *, max_moves: int = 3000,
                  limit: int = 2_000_000, chase_cells: int = 200,
                  ) -> WinChance | ChaseBound | None:
    """The best chance of a win where it can be counted, else the chase's bound on it.

    Args:
        layout: the layout.
        num_ghosts: the ghosts that play, the first ones of the layout (None: all).
        ghost: the ghosts' kind, a key of `GHOST_MODELS`.
        max_moves: the game's move cap, in Pacman moves.
        limit: the most positions `exact_win_chance` values.
        chase_cells: the most open cells a layout may have for its survival table to be
            built here (a table of two ghosts grows with the cube of them).

    Returns:
        The exact chance, else the bound, else None (no ghost, or too big for both).
    """
    exact = exact_win_chance(layout, num_ghosts, ghost, max_moves=max_moves, limit=limit)
    if exact is not None:
        return exact
    playing = len(layout.ghost_starts) if num_ghosts is None else num_ghosts
    cells = layout.width * layout.height - len(layout.walls)
    if not playing or not layout.food or cells > chase_cells:
        return None
    return chase_bound(layout, num_ghosts, ghost)
