"""Junction-level Monte Carlo tree search for Pacman (after Pepels, Winands and Lanctot's Ms
Pac-Man agent, IEEE TCIAIG 2014).

`junction_search` runs playouts from a Pacman `GameState` until its budget is spent and returns
an `MCTSDecision` (the same record as the move-level search's, `pacman.agents.mcts`).

**The tree's edges are corridors** (`pacman.agents.junctions`): at the root, Pacman's moves
without Stop, each the first move of the corridor from his cell that way; below, the corridors
leaving the junction or dead end the edge above reached (every open direction, back the way
he came too). An edge is walked move by move, every ghost replying after each of Pacman's
moves, so a 4-edge line covers some 20 moves on mediumClassic. The tree is open-loop, as the
move-level one: a node is a sequence of corridors, its statistics an average over the ghosts'
sampled replies.

**One playout** (one iteration):

1. **selection** down the tree (below), walking each chosen corridor;
2. **expansion**: the first edge that leaves the tree adds one node (where it ends);
3. **playout**: from the junction reached, Pacman takes corridors among its exits except the
   way back (the way back only at a dead end): of those, the *clear* ones (he reaches the
   corridor's end before every ghost that is not scared, by maze distance from where each
   stands now), or all when none is; then, unless one draw falls below `PLAYOUT_EPSILON`,
   those whose corridor holds a dot, else those whose end is nearest the search's *target*
   (the dot nearest Pacman at the root); one more draw picks uniformly among what is left
   (no draw for one corridor);
4. it stops when the game is won or lost or `horizon` Pacman moves have been played from the
   root (inside a corridor too); the result is backed up along the tree's path.

**Ghosts** reply after each Pacman move, each in turn (agents 1, 2, ...; a ghost with no
legal move passes, none after the game ended), one draw of the search's generator over its
legal moves with the probabilities of `chance(state, agent, actions)` (None: uniform). The
agent's default is the directional ghost's own distribution (`directional_distribution`,
what `DirectionalGhost.distribution` gives), or `pincer_distribution` (module function below).

**The result** of a playout is two numbers:

- *survival*: 0 when Pacman was caught, else 1 (a won game is 1);
- *reward*: 0 when caught; 1 for a won game; else
  `ALIVE + FOOD * min(1, eaten / horizon) + PROGRESS * (1 - min(d, PROGRESS_RANGE) /
  PROGRESS_RANGE)`, where `eaten` sums, over the dots eaten, `1 - t / (2 * horizon)` for the
  dot eaten by Pacman's move `t` (0 for the root's first move: sooner is worth more) and `d`
  is the maze distance from the last position to its nearest dot (`nearest_food_distance`).
  Dying costs at least `ALIVE` against any line that survives.

With survival `tables` (`pacman.chase`; the agent's `chase`, on by default), a playout that
reaches the horizon alive counts, instead of 1, the exact chance `V_H` that Pacman survives `H`
more moves of the food-free chase from its last position (`pacman.agents.survival.chase_value`: its
dangerous ghosts; 1 when the tables do not hold the position, and 1 when Pacman surely wins
from there, `pacman.agents.survival.sure_win`) as its survival, and its reward is multiplied
by it: a playout that ends just before a pincer closes counts as mostly lost.
With `margin` below 1 the tables also cut the root (before the escape check): each root move is
valued by one round of the real game and the tables (`pacman.agents.survival.move_survival`,
the ghosts by `chase_model`, a sure win worth 1 there too), and a move more than `margin` below
the best is dropped. Stop is valued too, though the tree has no Stop edge: when Stop is the
only move within `margin` of the best, Pacman stands still without a search (in a dead end
with a ghost at its mouth, the ghost may have to turn away; a tree without Stop would walk
into it). The tables know no food: without the sure win, the last dots at the end of a dead
end look like a trap, and the cut keeps Pacman out of it for the rest of the game.

**Tactics** (Pepels et al.'s survival and pill tactics). At a node, a tried move is *safe*
while it has fewer than `SAFETY_VISITS` visits, then when its mean survival is at least
`survival` (the threshold). Each playout first decides the
tactic from the root: *survival* when no tried root move is safe, else *pill*. Selection at a
node is UCB1 (`mcts_core.select_ucb`: an untried move first, ties by one draw):

- pill: among the untried and the safe moves, on the mean reward, min-max normalised by the
  smallest and largest reward backed up so far (as the move-level search normalises); at a
  node where every tried move is unsafe and none is untried, as survival;
- survival: among all moves, on the mean survival (values 0 to 1, not normalised).

**The decision** is the most visited root move (ties: one more draw) among the visited safe
ones, or among all when none is safe (the survival tactic); its `value` is its mean reward
(pill) or mean survival (survival). Under the pill tactic Pacman *commits* to his corridor:
on a cell that is neither a junction nor a dead end, the move the way he faces is played,
without a draw, when it is among those safe moves with at least `SAFETY_VISITS` visits (he
turns back in a corridor only when going on is unsafe, so he does not dither).

**The cycle breaker** (`cycles=P`, > 0; after the plain searches' `cycles`). Against
ghosts that hunt, the tree can find nothing better than keeping them behind, and Pacman goes
round one block of the maze with both ghosts behind him for hundreds of moves without eating
(a lap is longer than the horizon). The agent (`MCTSAgent`) remembers, for every cell of the
game where Pacman moved with the same food and capsules left, the moves he played there and
how often, wherever the ghosts were (they are seldom exactly where they were the lap before),
and hands the search this position's (`played`). When a move of the decision's candidates
(the safe visited moves, or all under the survival tactic) was played here before, the search
is the same, and the decision is the candidate with at least `SAFETY_VISITS` visits of best
mean (reward, or survival under the survival tactic) less `P` per earlier time it was played
here (ties: the more visited, then the root's order; no draw); Pacman does not commit to his
corridor then. The means are on the rewards' 0-1 scale, so `P` is too.

**The escape check** (`escape`, > 0): before the playouts the root moves (those the table cut
kept, when it is on) are cut down to those after which Pacman survives `escape` of his moves
against ghosts that all chase him (`pacman.agents.escape.escaping_moves`), unless none does;
its `successor()` calls count in no node total, but its time is inside a time budget (the
clock is read before it). The table cut comes first because it is exact for the ghosts'
own model: the escape check's ghosts all chase him, and run first it could leave only a
move the tables value far below one it dropped. A root with one move (after the checks) is
played without a search, as the move-level search does; with the table cut on and Stop
legal, the cut weighs every move against Stop (a root with one move too), so Pacman stands
still when only Stop is within the margin (the escape check does not value Stop; the tables
do).

**Budgets** are the move-level search's (`mcts_core.PlayoutBudget`): `playouts`, `nodes`
(every `successor()` call, Pacman's and the ghosts', plus 1 for the root) or `time`, looked at
after each playout. With `playouts` or `nodes` the search is deterministic for a given
generator. Draws, in order: per playout, a selection tie's draw where there is one, each
ghost's reply, each playout junction's draws (none for one exit); one more for the
decision's tie (none when Pacman commits or the cycle breaker decides).
"""

from __future__ import annotations

import math
import random
import time as _time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pacman.agents.escape import chasing_moves, escaping_moves
from pacman.agents.junctions import JunctionGraph, junction_graph
from pacman.agents.mcts_core import (
    MCTSDecision,
    MCTSTrace,
    PlayoutBudget,
    RootMove,
    _single_move,
    budget_text,
    check_budget,
    most_visited,
    sample_index,
    select_ucb,
)
from pacman.agents.search_core import ChanceModel, action_name
from pacman.agents.survival import Tables, chase_value, move_survival, within_margin
from pacman.rules import STOP

__all__ = ["junction_search", "pincer_distribution", "ALIVE", "FOOD", "PROGRESS",
           "PROGRESS_RANGE", "DEFAULT_SURVIVAL", "DEFAULT_JUNCTION_HORIZON"]

#: a surviving playout's reward before food: what dying costs at least
ALIVE = 0.3
#: the weight of the food eaten in a surviving playout's reward
FOOD = 0.5
#: the weight of ending near a dot in a surviving playout's reward
PROGRESS = 0.2
#: the maze distance to the nearest dot beyond which ending farther earns nothing more
PROGRESS_RANGE = 30.0
#: the chance that a playout corridor is drawn among all the clear ones, not the food's
PLAYOUT_EPSILON = 0.2
#: the visits a move needs before its survival rate can rule it out
SAFETY_VISITS = 10
#: the survival rate below which a move is not taken for its food (the threshold)
DEFAULT_SURVIVAL = 0.7
#: Pacman moves from the root after which a junction playout stops
DEFAULT_JUNCTION_HORIZON = 30


class _JNode:
    """An open-loop node: per move (the first move of a corridor), visits, summed survival,
    summed reward and the child node (`visits` is the sum of `counts`)."""

    __slots__ = ("alive", "children", "counts", "totals", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.counts: dict[Any, int] = {}
        self.alive: dict[Any, float] = {}
        self.totals: dict[Any, float] = {}
        self.children: dict[Any, _JNode] = {}


def pincer_distribution(state: Any, agent: int, actions: Sequence[Any]) -> list[float]:
    """The `pincer` ghost model: ghosts that close both ends of Pacman's corridor.

    Pacman's *front* is the end of the corridor from his cell in the direction he faces (his
    cell when he faces Stop or a wall), his *back* the end of the corridor the other way (his
    cell when that way is a wall). Odd-numbered ghosts (1, 3, ...) head for the front, even
    ones for the back: each plays, uniformly, one of the legal moves after which its maze
    distance to its target is least, measured from the cell the move reaches; a ghost
    within 3 steps of its target, or of Pacman, heads for Pacman instead. A scared ghost flees
    as `adversarial_distribution` (`pacman.agents.mcts`) has it: uniformly among the moves that
    take it farthest from him in maze distance (the escape check's `chasing_moves`). A state
    without a layout (a hand-built `SearchState`) gets uniform probabilities.
    """
    if len(actions) == 1:
        return [1.0]
    if not hasattr(state, "layout"):
        return [1.0 / len(actions)] * len(actions)
    if state.scared_timers[agent - 1]:
        fleeing = chasing_moves(state, agent)
        return [1.0 / len(fleeing) if move in fleeing else 0.0 for move in actions]
    layout = state.layout
    graph = junction_graph(layout.walls, layout.width, layout.height)
    pacman = state.pacman_position
    facing = state.pacman_direction
    front = back = pacman
    if facing != STOP:
        if facing in graph.exits(pacman):
            front = graph.corridor(pacman, facing).end
        if facing.reverse in graph.exits(pacman):
            back = graph.corridor(pacman, facing.reverse).end
    target = front if agent % 2 == 1 else back
    x, y = state.agent_position(agent)
    here = (int(x), int(y))
    distance = state.maze_distance
    if distance(here, target) <= 3 or distance(here, pacman) <= 3:
        target = pacman
    reached = [distance((here[0] + move.vector[0], here[1] + move.vector[1]), target)
               for move in actions]
    best = min(reached)
    share = 1.0 / reached.count(best)
    return [share if value == best else 0.0 for value in reached]


def junction_search(state: Any, rng: random.Random, *, playouts: int | None = None,
                    node_limit: int | None = None, time_limit: float | None = None,
                    horizon: int = DEFAULT_JUNCTION_HORIZON, c: float = 1.0,
                    chance: ChanceModel | None = None, survival: float = DEFAULT_SURVIVAL,
                    escape: int = 0, tables: Tables | None = None, margin: float = 1.0,
                    chase_model: str = "directional", cycles: float = 0.0,
                    played: Mapping[Any, int] | None = None, trace: bool = False,
                    clock: Callable[[], float] = _time.perf_counter) -> MCTSDecision:
    """Junction-level UCT from a Pacman `GameState` (Pacman to move) until the budget is spent
    (module docstring).

    Args:
        state: the position; a `GameState`, not won or lost, Pacman with a move.
        rng: every draw of the search comes from it.
        playouts, node_limit, time_limit: the budget, one of them (none: 200 playouts).
        horizon: Pacman moves from the root after which a playout stops.
        c: UCB1's exploration constant.
        chance: the ghosts' move probabilities; None: uniform.
        survival: the survival rate a move needs to be taken for its food (0 to 1).
        escape: the escape check's moves (0: off).
        tables: survival tables of one and two ghosts (`pacman.chase`) that value a playout
            ending alive at the horizon; None: it counts as survived.
        margin: with `tables`, root moves whose survival after one round is more than this
            below the best move's are dropped (1 or more: none is).
        chase_model: the ghosts of that round: "directional", uniform ("random") or the worst
            case ("adversarial"), as `pacman.agents.survival.chase_model` names them.
        cycles: the cycle breaker's points (0: off; module docstring).
        played: the moves Pacman played before at this position of the game, and how often
            (the cycle breaker's memory, keyed as the caller keys positions: `MCTSAgent` by
            Pacman's cell and the food and capsules left; None or empty: none).
        trace: also return an `MCTSTrace` of the root (its principal variation lists the
            first move of each corridor on the most visited line).
        clock: the clock `time_limit` is measured on.

    Returns:
        The decision (the root's moves are Pacman's legal moves without Stop; Stop itself
        only as the table cut's single move).

    Raises:
        ValueError: a bad budget, horizon, constant or threshold, or a terminal or stuck root.
    """
    playouts = check_budget(playouts, node_limit, time_limit, horizon, c)
    if isinstance(survival, bool) or not isinstance(survival, (int, float)) or not (
            0.0 <= survival <= 1.0):
        raise ValueError(f"survival must be a number between 0 and 1, got {survival!r}")
    if isinstance(cycles, bool) or not isinstance(cycles, (int, float)) or not (
            0.0 <= cycles < math.inf):
        raise ValueError(f"cycles must be a number of at least 0, got {cycles!r}")
    if state.is_win() or state.is_lose():
        raise ValueError("cannot search from a terminal state: the game is already won or lost")
    legal = state.legal_actions(0)
    root_actions = tuple(move for move in legal if move != STOP)
    budget = budget_text(playouts, node_limit, time_limit)
    if not root_actions:
        raise ValueError("cannot search from a state where Pacman has no move but Stop")
    weigh_stop = bool(tables) and margin < 1.0 and STOP in legal  # even one move, against Stop
    if len(root_actions) == 1 and not weigh_stop:
        return _single_move(root_actions[0], horizon, budget, float(c), trace)
    spent = PlayoutBudget(playouts, node_limit, time_limit, clock)  # the checks' time counts
    if tables and margin < 1.0:
        stop = (STOP,) if weigh_stop else ()
        values = move_survival(state, root_actions + stop, tables, chase_model, wins=True)
        if values is not None:
            kept = within_margin(root_actions + stop, values, margin)
            if kept == [STOP]:  # standing still is the one way to survive: no tree needed
                return _single_move(STOP, horizon, budget, float(c), trace)
            root_actions = tuple(move for move in kept if move != STOP)
    if escape and len(root_actions) > 1:  # among the moves the tables kept
        kept = escaping_moves(state, root_actions, escape)
        if kept:
            root_actions = tuple(kept)
    if len(root_actions) == 1:
        return _single_move(root_actions[0], horizon, budget, float(c), trace)
    layout = state.layout
    graph = junction_graph(layout.walls, layout.width, layout.height)
    search = _JunctionSearch(state, graph, rng.random, root_actions, horizon, float(c), chance,
                             float(survival), tables or None)
    stopped = search.run(spent)
    return search.decision(stopped, trace, budget, played or {}, float(cycles))


class _JunctionSearch:
    """One run of `junction_search` past its checks: its settings, counters and the steps of
    a playout (`iterate`: `descend`, `play_out`, `walk`, `back_up`)."""

    __slots__ = ("c", "chance", "done", "draw", "eaten", "generated", "graph", "hi", "horizon",
                 "lo", "num_agents", "path", "root", "root_actions", "state", "survival",
                 "tables", "target", "tree_size")

    def __init__(self, state: Any, graph: JunctionGraph, draw: Callable[[], float],
                 root_actions: tuple[Any, ...], horizon: int, c: float,
                 chance: ChanceModel | None, survival: float,
                 tables: Tables | None = None) -> None:
        self.state, self.graph, self.draw = state, graph, draw
        self.tables = tables
        self.root_actions, self.horizon, self.c = root_actions, horizon, c
        self.chance, self.survival = chance, survival
        self.num_agents = state.num_agents
        self.root = _JNode()
        self.generated, self.done, self.tree_size = 1, 0, 1
        self.lo, self.hi = math.inf, -math.inf
        self.eaten = 0.0
        self.path: list[tuple[_JNode, Any]] = []
        foods = state.food_positions
        here, distance = state.pacman_position, state.maze_distance
        self.target = min(foods, key=lambda food: distance(here, food)) if foods else None

    def run(self, budget: PlayoutBudget) -> str:
        """Playouts until `budget` is spent (at least one); returns why it stopped."""
        while True:
            self.iterate()
            self.done += 1
            stopped = budget.spent(self.done, self.generated)
            if stopped is not None:
                return stopped

    def safe(self, node: _JNode, move: Any) -> bool:
        """A tried move is safe while it has fewer than `SAFETY_VISITS` visits (a few unlucky
        playouts do not rule it out), then while its mean survival reaches the threshold."""
        count = node.counts[move]
        return count < SAFETY_VISITS or node.alive[move] >= self.survival * count

    def surviving(self) -> bool:
        """The survival tactic: no tried root move is safe."""
        root = self.root
        return not any(self.safe(root, move) for move in root.counts)

    def select(self, node: _JNode, moves: Sequence[Any], survive: bool) -> Any:
        """UCB1's move at `node` under the tactic (module docstring)."""
        if not survive:
            counts = node.counts
            allowed = [move for move in moves if move not in counts or self.safe(node, move)]
            if allowed:
                return select_ucb(allowed, counts, node.totals, node.visits, self.c, self.lo,
                                  self.hi, self.draw)
        return select_ucb(moves, node.counts, node.alive, node.visits, self.c, 0.0, 1.0,
                          self.draw)

    def iterate(self) -> None:
        """One playout: down the tree, on to the horizon unless the game ended, backed up."""
        self.eaten = 0.0
        s, steps, ended, cell, last = self.descend()
        if not ended:
            s = self.play_out(s, steps, cell, last)
        self.back_up(s)

    def descend(self) -> tuple[Any, int, bool, Any, Any]:
        """Selection and expansion, walking each corridor chosen. Returns the position
        reached, Pacman's moves from the root, whether the game ended or the horizon was
        reached (`ended`), the cell reached and the last move."""
        s = self.state
        cell = s.pacman_position
        root = node = self.root
        graph, path = self.graph, self.path
        path.clear()
        survive = self.surviving()
        steps = 0
        while True:
            moves = self.root_actions if node is root else graph.exits(cell)
            move = self.select(node, moves, survive)
            path.append((node, move))
            corridor = graph.corridor(cell, move)
            s, steps, ended = self.walk(s, corridor.moves, steps)
            if ended:
                return s, steps, True, cell, move
            cell = corridor.end
            child = node.children.get(move)
            if child is None:
                node.children[move] = _JNode()
                self.tree_size += 1
                return s, steps, False, cell, corridor.moves[-1]
            node = child

    def play_out(self, s: Any, steps: int, cell: Any, last: Any) -> Any:
        """Corridors drawn uniformly among the exits but the way back, until the game ends or
        the horizon."""
        graph, draw = self.graph, self.draw
        while True:
            exits = graph.exits(cell)
            back = last.reverse
            onward = [move for move in exits if move != back] or list(exits)
            if len(onward) > 1:
                clear = [move for move in onward if self.clear(s, graph.corridor(cell, move))]
                if clear:
                    onward = clear
                if len(onward) > 1 and draw() >= PLAYOUT_EPSILON:
                    onward = self.towards_food(s, cell, onward)
            move = onward[0] if len(onward) == 1 else onward[int(draw() * len(onward))]
            corridor = graph.corridor(cell, move)
            s, steps, ended = self.walk(s, corridor.moves, steps)
            if ended:
                return s
            cell, last = corridor.end, corridor.moves[-1]

    def towards_food(self, s: Any, cell: Any, moves: list[Any]) -> list[Any]:
        """Among `moves` (leaving `cell`), those whose corridor holds a dot, else those whose
        end is nearest the search's `target` dot (maze distance)."""
        graph = self.graph
        fed = [move for move in moves
               if any(s.has_food(x, y) for x, y in graph.corridor(cell, move).cells)]
        if fed or self.target is None:
            return fed or moves
        distance, target = s.maze_distance, self.target
        reach = [distance(graph.corridor(cell, move).end, target) for move in moves]
        best = min(reach)
        return [move for move, far in zip(moves, reach, strict=True) if far == best]

    @staticmethod
    def clear(s: Any, corridor: Any) -> bool:
        """Pacman reaches the corridor's end before every ghost that is not scared, by maze
        distance (a ghost inside the corridor never lets him)."""
        end, length = corridor.end, len(corridor)
        distance = s.maze_distance
        for position, timer in zip(s.ghost_positions, s.scared_timers):
            if not timer and distance(position, end) <= length:
                return False
        return True

    def walk(self, s: Any, moves: Sequence[Any], steps: int) -> tuple[Any, int, bool]:
        """Pacman's `moves` from `steps` moves past the root, the ghosts' sampled replies after
        each, counting the food eaten (`eaten`); stops early when the game ends or the horizon
        is reached (then `ended` is True)."""
        chance, draw, horizon, num_agents = self.chance, self.draw, self.horizon, self.num_agents
        generated = 0
        ended = False
        for move in moves:
            food = s.food_count
            s = s.successor(0, move)
            generated += 1
            if s.food_count < food:
                self.eaten += 1.0 - steps / (2.0 * horizon)
            steps += 1
            for agent in range(1, num_agents):
                if s.is_win() or s.is_lose():
                    break
                options = s.legal_actions(agent)
                if not options:
                    continue
                if chance is None:
                    reply = options[int(draw() * len(options))]
                else:
                    reply = options[sample_index(chance(s, agent, options), draw())]
                s = s.successor(agent, reply)
                generated += 1
            if s.is_win() or s.is_lose() or steps >= horizon:
                ended = True
                break
        self.generated += generated
        return s, steps, ended

    def back_up(self, s: Any) -> None:
        """The playout's survival and reward (module docstring), added to every (node, move)
        on the path; the reward widens the range UCB normalises by."""
        if s.is_lose():
            alive, value = 0.0, 0.0
        elif s.is_win():
            alive, value = 1.0, 1.0
        else:
            alive = 1.0
            if self.tables is not None:
                chance = chase_value(s, self.tables, wins=True)
                if chance is not None:
                    alive = chance
            food = min(1.0, self.eaten / self.horizon)
            near = min(float(s.nearest_food_distance()), PROGRESS_RANGE)
            value = alive * (ALIVE + FOOD * food + PROGRESS * (1.0 - near / PROGRESS_RANGE))
        if value < self.lo:
            self.lo = value
        if value > self.hi:
            self.hi = value
        for node, move in self.path:
            node.visits += 1
            node.counts[move] = node.counts.get(move, 0) + 1
            node.alive[move] = node.alive.get(move, 0.0) + alive
            node.totals[move] = node.totals.get(move, 0.0) + value

    def onward(self, pool: Sequence[RootMove]) -> RootMove | None:
        """The commitment, under the pill tactic: inside a corridor (Pacman's cell neither a
        junction nor a dead end), his move on the way he faces when it is among `pool` (the
        safe moves) with at least `SAFETY_VISITS` visits, else None."""
        state = self.state
        if self.graph.is_stop(state.pacman_position):
            return None
        facing = state.pacman_direction
        return next((move for move in pool
                     if move.action == facing and move.visits >= SAFETY_VISITS), None)

    def decision(self, stopped: str, trace: bool, budget: str, played: Mapping[Any, int],
                 cycles: float) -> MCTSDecision:
        """The most visited root move among the safe ones (all, when none is safe), with the
        root's statistics under the tactic; with `trace`, the trace too. With the cycle
        breaker (`cycles`, and moves `played` here before), the move of best mean less its
        penalty among those with `SAFETY_VISITS` visits (module docstring)."""
        root = self.root
        survive = self.surviving()
        sums = root.alive if survive else root.totals
        stats = tuple(RootMove(move, root.counts.get(move, 0),
                               sums[move] / root.counts[move] if root.counts.get(move)
                               else math.nan) for move in self.root_actions)
        pool = stats if survive else tuple(
            move for move in stats if move.visits and self.safe(root, move.action))
        broken = _break_cycle(pool, played, cycles)
        onward = None if survive or broken else self.onward(pool)
        best: tuple[RootMove, ...]
        if broken:
            chosen, best = broken[0], broken
        elif onward is not None:
            chosen, best = onward, (onward,)
        else:
            chosen, best = most_visited(pool, self.draw)
        recorded = None
        if trace:
            recorded = MCTSTrace(
                action_name(chosen.action), chosen.mean, self.horizon, self.generated,
                self.done, tuple((action_name(move.action), move.mean) for move in stats),
                tuple((action_name(move.action), move.visits) for move in stats),
                tuple(action_name(move) for move in _line(root, chosen.action)),
                sum(move.visits for move in stats), self.tree_size, stopped, budget, self.c)
        return MCTSDecision(chosen.action, chosen.mean, self.generated,
                            tuple(move.action for move in best), self.done, self.tree_size,
                            stats, stopped, recorded)


def _break_cycle(pool: Sequence[RootMove], played: Mapping[Any, int], cycles: float
                 ) -> tuple[RootMove, ...]:
    """The cycle breaker's choice among `pool` (the decision's candidates): when a move of
    the pool was `played` here before (and `cycles` is on), the move with at least
    `SAFETY_VISITS` visits of best mean less `cycles` per earlier time played here (ties:
    more visits, then the root's order); empty when the breaker does not apply (no such
    move, or none with enough visits)."""
    if not cycles or not any(played.get(move.action, 0) for move in pool):
        return ()
    candidates = [move for move in pool if move.visits >= SAFETY_VISITS]
    if not candidates:
        return ()
    return (min(candidates, key=lambda move: (
        cycles * played.get(move.action, 0) - move.mean, -move.visits)),)


def _line(root: _JNode, first: Any) -> list[Any]:
    """The most visited line's corridors (each by its first move): `first`, then at each node
    the move with the most visits (ties to the first tried)."""
    line = [first]
    node = root.children.get(first)
    while node is not None and node.counts:
        best, most = None, 0
        for move, visits in node.counts.items():
            if visits > most:
                best, most = move, visits
        line.append(best)
        node = node.children.get(best)
    return line
