"""`MCTSGhost`: a ghost of a team that searches with Monte Carlo tree search (UCT).

Each ghost searches for itself, from its own turn, with `ghost_mcts_search`, and plays the
root's most visited move. Values are vectors, one value per agent (Pacman first). Pacman's
value of a position is `P`: the evaluation (default: the score), less the *catch bonus* when
he is caught there. Before a catch a ghost also counts its *distance term*
`S = -distance_weight * d` (`+distance_weight * d` while it is scared), `d` its maze distance
to Pacman; in a won or lost position `S = 0`. The `mode` setting says what the ghosts are
after:

- `paranoid` (the default): the ghosts are one player against Pacman, zero-sum. Every
  ghost's value is the team's, `-P + S_1 + S_2 + ...`, and Pacman's value is minus that: the
  ghosts want Pacman caught, sooner rather than later, scoring little meanwhile (eating neither
  dots nor scared ghosts), and closed in on; Pacman wants the opposite.
- `maxn`: every agent maximises a utility of its own (max^n). Pacman's is `P`; ghost `g`'s is
  `-P + S_g`: the ghosts share the catch and the score, but each counts only its own distance.
  No ghost is told to cut off an escape for another, and Pacman cares for the score alone.

The **catch bonus** of a catch after Pacman's `d`-th move from the root (`d` = 0: before he
moves again) is `catch_bonus * (horizon + 1 - d) / (horizon + 1)`: the whole bonus for a
catch at once, less for each move Pacman survives. (The score alone would not hurry the
ghosts: it costs Pacman a point a move, so a later catch scores lower for him.) The distance
term gives the ghosts a way to go when no catch is within the horizon.

**The tree** holds *every* agent's move, one agent at a time, in the game's turn order from
the searching ghost: the ghosts still to move in this round, then Pacman, then ghosts 1, 2,
..., then Pacman again. The game is deterministic, so a node is one position: it is
generated once, when the tree is expanded, and kept. Pacman is a player of the tree, not a
model: at his nodes he chooses by UCB1 for his own value, so the ghosts expect his best
replies within the tree. One playout (an iteration) is:

1. **selection**, down the tree: at a node the mover's move is chosen by UCB1 among its legal
   moves (a move not yet tried first; then the largest `q + c * sqrt(ln N / n)`, where `q` is
   the mean of the *mover's own* value for that move: Pacman's for Pacman, the ghost's for a
   ghost, in `paranoid` every ghost's value the same); among several untried moves or equal
   scores, one draw of the search's generator picks uniformly (no draw when there is one), so
   no direction is favoured by the order moves are listed in;
2. **expansion**: the first move not yet in the tree adds one node (one `successor()` call);
3. **playout**, from that node's position and mover, until the game is won or lost or it is
   Pacman's turn after `horizon` Pacman moves from the root (tree moves included): Pacman's
   moves come from the Pacman model (`pacman_model`: `random`, uniform over his legal moves
   without Stop, or `greedy`, `pacman.agents.mcts.greedy_playout(epsilon)`, the safe move
   nearest the food), each ghost's from the ghost model (`ghost_model`: `directional`, the
   directional ghost's distribution, or `uniform`); a ghost with one legal move takes it
   without a draw;
4. **backup**: the last position is valued (a vector: one value per agent, Pacman first) and
   the vector is added to the statistics of every (node, move) on the path. A node whose
   position is won or lost, or where it is Pacman's turn after `horizon` moves, is a leaf of
   the tree: reaching it is the iteration's last position (no playout).

**Values for UCB** are normalised per agent by min-max over every backed-up vector of this
search: `q = (mean - lo) / (hi - lo)` (0.5 while `hi == lo`), as `pacman.agents.mcts` does.

**The decision** is the root's most visited move, ties broken by one more draw of the search's
generator, uniformly (no draw when one move has the most visits); its value is that move's
mean value for the searching ghost. **Nodes**: `nodes_generated` counts the
root plus every `successor()` call (tree, playouts, and every candidate of a greedy Pacman
move), `tree_size` the tree's nodes, `playouts` the iterations. **Budgets** as in
`pacman.agents.mcts`: `playouts`, `nodes` (looked at between playouts) or `time` (seconds,
looked at between playouts); at least one playout is run; with `playouts` or `nodes` the
search is deterministic for its generator (its ties are broken by its own draws, not by
`random`'s module state or hash order). A ghost with one legal move plays it without a
search. Every search draws from a generator seeded with one draw of the game's generator,
so the game's generator moves by exactly one draw per ghost move.

**One search per ghost move**, not one plan per round shared by the team: the game builds
each ghost as an agent of its own (a hosted agent even runs in a process of its own) and
offers no hook through which ghosts could share a plan, short of module-level state, which
the package does not keep. A ghost searching from its own turn also plays from the real
position, after the earlier ghosts' real moves. The price is one search per ghost and round
(docs/multiplayer.md has the time it takes), and only where the ghost has a choice.

One job, the MCTS ghost (its values, its search and the agent), a little over 500 lines because
of this exact description. The budget, UCB1's choice and the decision at the root are shared
with Pacman's search, in `pacman.agents.mcts_core`.
"""

from __future__ import annotations

import math
import random
import time as _time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pacman import Direction, GameState
from pacman.agents.ghosts import GhostAgent
from pacman.agents.mcts import DEFAULT_EPSILON, greedy_playout, named_evaluation
from pacman.agents.mcts_core import (
    DEFAULT_PLAYOUTS,
    PlayoutBudget,
    PlayoutPolicy,
    RootMove,
    budget_text,
    check_budget,
    default_playouts,
    most_visited,
    one_budget,
    root_statistics,
    sample_index,
    select_ucb,
)
from pacman.agents.pacman_agents import GHOST_MODELS, chance_model, score_evaluation
from pacman.agents.search_core import ChanceModel, actions_without_stop
from pacman.agents.settings import (
    AgentSettings,
    evaluation_spec,
    finite_non_negative,
    one_of,
    optional_count,
    optional_seconds,
    positive_int,
    probability,
    setting,
)
from pacman.errors import SettingsError

__all__ = ["MCTSGhost", "MCTSGhostSettings", "GhostMCTSDecision", "ghost_mcts_search",
           "team_values", "MODES", "PACMAN_MODELS", "DEFAULT_CATCH_BONUS",
           "DEFAULT_DISTANCE_WEIGHT"]

#: the names of the `mode` setting
MODES = ("paranoid", "maxn")

#: the names of the `pacman_model` setting
PACMAN_MODELS = ("random", "greedy")

#: the bonus of a catch at once, unless told (the size of the score's own 500 for a catch)
DEFAULT_CATCH_BONUS = 500.0

#: what one maze step between a ghost and Pacman is worth, unless told
DEFAULT_DISTANCE_WEIGHT = 1.0

Evaluation = Callable[[Any], float]


@dataclass(frozen=True)
class GhostMCTSDecision:
    """What one ghost's MCTS search chose and how it went.

    `action` is the root's most visited move (ties: one draw, uniformly), `value` its mean
    value for the searching ghost, `best_actions` every root move with that many visits (legal
    order). `root` has each root move's visits and mean value for the searching ghost (visits
    sum to `playouts`). `stopped` says why the search ended: "playouts", "nodes", "time", or
    "single" (one legal move: no search).
    """

    action: Any
    value: float
    nodes_generated: int
    best_actions: tuple[Any, ...]
    playouts: int
    tree_size: int
    root: tuple[RootMove, ...]
    stopped: str


def team_values(state: GameState, mode: str, evaluate: Evaluation, catch_bonus: float,
                distance_weight: float, pacman_moves: int, horizon: int) -> tuple[float, ...]:
    """Every agent's value of `state` (Pacman first, then the ghosts in agent order), as the
    module describes for `mode`; `pacman_moves` is how many moves Pacman has made since the
    root (it prices a catch)."""
    pacman = float(evaluate(state))
    if state.is_lose():
        pacman -= catch_bonus * (horizon + 1 - pacman_moves) / (horizon + 1)
    if state.is_win() or state.is_lose():
        shaping = [0.0] * (state.num_agents - 1)
    else:
        shaping = [distance_weight * (distance if timer > 0 else -distance)
                   for distance, timer in zip(state.ghost_distances(), state.scared_timers,
                                              strict=True)]
    if mode == "paranoid":
        team = sum(shaping) - pacman
        return (-team, *([team] * len(shaping)))
    return (pacman, *(own - pacman for own in shaping))


class _Node:
    """A tree node: a position, the agent to move there, and per move its visits, summed
    value vector and child. A leaf has no moves."""

    __slots__ = ("agent", "children", "counts", "leaf", "moves", "pacman_moves", "state",
                 "totals", "visits")

    def __init__(self, state: GameState, agent: int, pacman_moves: int,
                 moves: Sequence[Any]) -> None:
        self.state, self.agent, self.pacman_moves = state, agent, pacman_moves
        self.moves = moves
        self.visits = 0
        self.counts: dict[Any, int] = {}
        self.totals: dict[Any, list[float]] = {}
        self.children: dict[Any, _Node] = {}
        self.leaf: tuple[float, ...] | None = None


def ghost_mcts_search(state: GameState, ghost: int, rng: random.Random, *,
                      mode: str = "paranoid", evaluate: Evaluation = score_evaluation,
                      playouts: int | None = None, node_limit: int | None = None,
                      time_limit: float | None = None, horizon: int = 10, c: float = 1.0,
                      catch_bonus: float = DEFAULT_CATCH_BONUS,
                      distance_weight: float = DEFAULT_DISTANCE_WEIGHT,
                      pacman_playout: PlayoutPolicy | None = None,
                      ghost_chance: ChanceModel | None = None,
                      clock: Callable[[], float] = _time.perf_counter) -> GhostMCTSDecision:
    """UCT from `state`, ghost `ghost` to move, until the budget is spent (see the module).

    Args:
        state: the position; not won or lost, ghost `ghost` to move.
        ghost: the searching ghost's agent index (1 or more).
        rng: every random draw of the search (playout moves, and the ties of selection and of
            the decision) comes from it.
        mode: `paranoid` (the ghosts against Pacman) or `maxn` (a utility per agent).
        evaluate: Pacman's value of a position (higher is better for Pacman).
        playouts: the number of iterations; with none of the three budgets given, 200.
        node_limit: stop once `nodes_generated` reaches it (looked at between playouts).
        time_limit: seconds; stop at the first playout's end past it.
        horizon: Pacman moves from the root after which a playout is cut off and valued.
        c: UCB1's exploration constant (values normalised to [0, 1]); 0 is greedy.
        catch_bonus: the bonus of a catch at once (see the module), finite and >= 0.
        distance_weight: what a maze step between a ghost and Pacman is worth before a catch
            (see the module), finite and >= 0.
        pacman_playout: Pacman's playout policy (e.g. `greedy_playout(0.1)`); None: uniform
            over his legal moves without Stop.
        ghost_chance: the ghosts' playout move probabilities, `chance(state, agent, moves)`;
            None: uniform. (`MCTSGhost` passes the greedy policy and the directional
            distribution unless told otherwise.)
        clock: the clock `time_limit` is measured on.

    Returns:
        The decision: the root's most visited move, with the root's statistics and counts.

    Raises:
        ValueError: a bad mode, ghost, budget, horizon or constant, or a terminal root.
    """
    playouts = check_budget(playouts, node_limit, time_limit, horizon, c)
    _check_search(state, ghost, mode, catch_bonus, distance_weight)
    root_moves = tuple(state.legal_actions(ghost))
    if len(root_moves) == 1:
        return GhostMCTSDecision(root_moves[0], math.nan, 1, root_moves, 0, 1,
                                 (RootMove(root_moves[0], 0, math.nan),), "single")
    budget = PlayoutBudget(playouts, node_limit, time_limit, clock)
    search = _GhostSearch(_Node(state, ghost, 0, root_moves), rng.random, horizon, c,
                          lambda s, pacman_moves: team_values(
                              s, mode, evaluate, catch_bonus, distance_weight, pacman_moves,
                              horizon),
                          pacman_playout, ghost_chance)
    stopped = search.run(budget)
    return search.decision(ghost, stopped)


def _check_search(state: GameState, ghost: int, mode: str, catch_bonus: float,
                  distance_weight: float) -> None:
    """Refuse a bad weight, mode or ghost, or a terminal root (in this order).

    Raises:
        ValueError: what is wrong, as a user can act on it.
    """
    for name, number in (("catch_bonus", catch_bonus), ("distance_weight", distance_weight)):
        reason = _weight(name, number)
        if reason is not None:
            raise ValueError(reason)
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r} (choose {' or '.join(MODES)})")
    if not 1 <= ghost < state.num_agents:
        raise ValueError(f"no ghost {ghost} in a game of {state.num_agents - 1} ghost(s)")
    if state.is_win() or state.is_lose():
        raise ValueError("cannot search from a terminal state: the game is already won or lost")


class _GhostSearch:
    """One run of `ghost_mcts_search` past its checks: its settings, its counters
    (`generated`, `done` playouts, `tree_size`, and per agent the range `lo`, `hi` of the
    backed-up values) and the steps of one playout, `iterate`: `descend` (selection and
    expansion), `play_out` and `back_up`. `values(state, pacman_moves)` is `team_values` with
    the search's mode and weights."""

    __slots__ = ("c", "done", "draw", "generated", "ghost_chance", "hi", "horizon", "lo",
                 "num_agents", "pacman_playout", "path", "root", "tree_size", "values")

    def __init__(self, root: _Node, draw: Callable[[], float], horizon: int, c: float,
                 values: Callable[[GameState, int], tuple[float, ...]],
                 pacman_playout: PlayoutPolicy | None,
                 ghost_chance: ChanceModel | None) -> None:
        self.root, self.draw, self.horizon, self.c, self.values = root, draw, horizon, c, values
        self.pacman_playout, self.ghost_chance = pacman_playout, ghost_chance
        self.num_agents = root.state.num_agents
        self.generated = self.tree_size = 1  # the root
        self.done = 0
        self.lo = [math.inf] * self.num_agents
        self.hi = [-math.inf] * self.num_agents
        self.path: list[tuple[_Node, Any]] = []  # this playout's (node, move)s

    def run(self, budget: PlayoutBudget) -> str:
        """Playouts until `budget` is spent (at least one); returns why it stopped."""
        while True:
            self.iterate()
            self.done += 1
            stopped = budget.spent(self.done, self.generated)
            if stopped is not None:
                return stopped

    def iterate(self) -> None:
        """One playout: down the tree to a new node or a leaf, played out from a new node,
        and its value vector backed up."""
        node = self.descend()
        self.back_up(node.leaf if node.leaf is not None else self.play_out(
            node.state, node.agent, node.pacman_moves))

    def descend(self) -> _Node:
        """Selection and expansion: from the root, the mover's UCB1 move at each node
        (`select_ucb` on the mover's own values and range) until a leaf or a move not yet in
        the tree, whose node is added (one `successor()` call). Returns the node reached;
        `path` holds the (node, move)s played."""
        node = self.root
        c, lo, hi, draw = self.c, self.lo, self.hi, self.draw
        path = self.path
        path.clear()
        while node.moves:
            agent = node.agent
            move = select_ucb(node.moves, node.counts, node.totals, node.visits, c,
                              lo[agent], hi[agent], draw, agent)
            path.append((node, move))
            child = node.children.get(move)
            if child is None:
                s = node.state.successor(agent, move)
                self.generated += 1
                child = self.node_at(s, agent + 1 if agent + 1 < self.num_agents else 0,
                                     node.pacman_moves + (agent == 0))
                node.children[move] = child
                self.tree_size += 1
                return child
            node = child
        return node

    def node_at(self, s: GameState, agent: int, pacman_moves: int) -> _Node:
        """A new node; a leaf (with its value) when the game or the horizon ends there."""
        if s.is_win() or s.is_lose() or (agent == 0 and pacman_moves >= self.horizon):
            node = _Node(s, agent, pacman_moves, ())
            node.leaf = self.values(s, pacman_moves)
            return node
        return _Node(s, agent, pacman_moves, s.legal_actions(agent))

    def play_out(self, s: GameState, agent: int, pacman_moves: int) -> tuple[float, ...]:
        """The models' moves from `agent`'s turn until the game or the horizon ends (a ghost
        with one legal move takes it without a draw); the last position's value vector."""
        draw, num_agents, horizon = self.draw, self.num_agents, self.horizon
        policy, chance = self.pacman_playout, self.ghost_chance
        generated = 0
        while not (s.is_win() or s.is_lose()):
            if agent == 0:
                if pacman_moves >= horizon:
                    break
                moves = actions_without_stop(s, 0)
                if policy is None:
                    s = s.successor(0, moves[int(draw() * len(moves))])
                    generated += 1
                else:
                    _, s, made = policy(s, moves, draw)
                    generated += made
                pacman_moves += 1
            else:
                moves = s.legal_actions(agent)
                if len(moves) == 1:
                    move = moves[0]
                elif chance is None:
                    move = moves[int(draw() * len(moves))]
                else:
                    move = moves[sample_index(chance(s, agent, moves), draw())]
                s = s.successor(agent, move)
                generated += 1
            agent = agent + 1 if agent + 1 < num_agents else 0
        self.generated += generated
        return self.values(s, pacman_moves)

    def back_up(self, result: tuple[float, ...]) -> None:
        """Widen each agent's range of values by `result` and add the vector to every (node,
        move) of the playout's path."""
        lo, hi = self.lo, self.hi
        for agent, value in enumerate(result):
            if value < lo[agent]:
                lo[agent] = value
            if value > hi[agent]:
                hi[agent] = value
        for visited, move in self.path:
            visited.visits += 1
            visited.counts[move] = visited.counts.get(move, 0) + 1
            total = visited.totals.get(move)
            if total is None:
                visited.totals[move] = list(result)
            else:
                for agent, value in enumerate(result):
                    total[agent] += value

    def decision(self, ghost: int, stopped: str) -> GhostMCTSDecision:
        """The root's most visited move (one more draw for a tie) and its statistics, means
        for the searching `ghost`."""
        root = self.root
        stats = root_statistics(root.moves, root.counts, root.totals, ghost)
        chosen, best = most_visited(stats, self.draw)
        return GhostMCTSDecision(chosen.action, chosen.mean, self.generated,
                                 tuple(move.action for move in best), self.done,
                                 self.tree_size, stats, stopped)


def _weight(name: str, value: Any) -> str | None:
    """A finite number >= 0."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not (
            0 <= value < math.inf):
        return f"{name} must be a finite number >= 0, got {value!r}"
    return None


@dataclass(frozen=True)
class MCTSGhostSettings(AgentSettings):
    """The MCTS ghost's settings: what the ghosts are after (mode), one budget, the playouts'
    horizon and models, the evaluation, the catch bonus and UCB's constant."""

    mode: str = setting(
        "paranoid", "paranoid: the ghosts are one player against Pacman, zero-sum (minus "
        "Pacman's value plus every ghost's distance term); maxn: each agent its own utility "
        "(Pacman his value; a ghost minus it plus its own distance term)",
        check=one_of(*MODES))
    playouts: int | None = setting(
        None, f"playouts per ghost move (deterministic); with no budget given, "
        f"{DEFAULT_PLAYOUTS}", check=optional_count)
    nodes: int | None = setting(
        None, "nodes per ghost move (root plus every successor; looked at between playouts); "
        "deterministic", check=optional_count)
    time: float | None = setting(
        None, "seconds per ghost move (looked at between playouts); give only one of "
        "playouts, nodes, time", check=optional_seconds)
    horizon: int = setting(
        10, "Pacman moves from the root after which a playout stops and is valued",
        check=positive_int)
    evaluation: str | Evaluation = setting(
        "score", "Pacman's value of a position (as for the plain searches); the ghosts' is "
        "minus it in paranoid mode", check=evaluation_spec)
    catch_bonus: float = setting(
        DEFAULT_CATCH_BONUS, "the ghosts' bonus for a catch at once, less by 1/(horizon+1) of "
        "it for every move Pacman survives first", check=_weight)
    distance_weight: float = setting(
        DEFAULT_DISTANCE_WEIGHT, "what a maze step between a ghost and Pacman is worth to the "
        "ghosts before a catch: minus it per step of a hunting ghost, plus it per step of a "
        "scared one (in paranoid mode summed over the ghosts)", check=_weight)
    c: float = setting(1.0, "UCB1's exploration constant (values in [0, 1]); 0: greedy",
                       check=finite_non_negative)
    pacman_model: str = setting(
        "greedy", "Pacman's moves in the playouts: random (uniform, no Stop), or greedy (as "
        "MCTSAgent's playout=greedy: the safe move nearest a dot)",
        check=one_of(*PACMAN_MODELS))
    epsilon: float = setting(
        DEFAULT_EPSILON, "pacman_model=greedy only: the chance of a uniformly random playout "
        "move", check=probability)
    ghost_model: str = setting(
        "directional", "the ghosts' moves in the playouts: directional (the directional "
        "ghost's distribution) or uniform", check=one_of(*GHOST_MODELS))

    def __post_init__(self) -> None:
        super().__post_init__()
        one_budget(self)
        if self.pacman_model != "greedy" and self.epsilon != DEFAULT_EPSILON:
            raise SettingsError(f"epsilon applies only to pacman_model=greedy, not to "
                                f"pacman_model={self.pacman_model}")


class MCTSGhost(GhostAgent[MCTSGhostSettings]):
    """A ghost searching with MCTS from its own turn (UCT over every agent's moves, paranoid
    or max^n, under a playout, node or time budget); see `pacman.agents.mcts_ghosts`."""

    Settings = MCTSGhostSettings

    def __init__(self, index: int = 1, settings: MCTSGhostSettings | None = None,
                 **values: Any) -> None:
        super().__init__(index, settings, **values)
        chosen = self.settings
        self.playouts = default_playouts(chosen.playouts, chosen.nodes, chosen.time)
        self.nodes, self.time = chosen.nodes, chosen.time
        self.mode, self.horizon, self.c = chosen.mode, chosen.horizon, float(chosen.c)
        self.catch_bonus = float(chosen.catch_bonus)
        self.distance_weight = float(chosen.distance_weight)
        self.evaluation, self._evaluation_name = named_evaluation(chosen.evaluation)
        self.pacman_model, self.epsilon = chosen.pacman_model, float(chosen.epsilon)
        self._pacman_playout = (greedy_playout(self.epsilon) if self.pacman_model == "greedy"
                                else None)
        self.ghost_model = chosen.ghost_model
        self._ghost_chance = chance_model(self.ghost_model)
        self.last_decision: GhostMCTSDecision | None = None

    def settings_text(self) -> str:
        """E.g. `paranoid playouts=200 score horizon=10 c=1`, then what is not the default."""
        parts = [self.mode, budget_text(self.playouts, self.nodes, self.time),
                 self._evaluation_name, f"horizon={self.horizon}",
                 f"c={self.c:g}"]
        if self.catch_bonus != DEFAULT_CATCH_BONUS:
            parts.append(f"catch_bonus={self.catch_bonus:g}")
        if self.distance_weight != DEFAULT_DISTANCE_WEIGHT:
            parts.append(f"distance_weight={self.distance_weight:g}")
        if self.pacman_model != "greedy":
            parts.append(f"pacman_model={self.pacman_model}")
        elif self.epsilon != DEFAULT_EPSILON:
            parts.append(f"epsilon={self.epsilon:g}")
        if self.ghost_model != "directional":
            parts.append(f"ghost_model={self.ghost_model}")
        return " ".join(parts)

    def search(self, state: GameState) -> GhostMCTSDecision:
        """One search from this ghost's turn (kept in `last_decision`), seeded by one draw of
        the game's generator."""
        search_rng = random.Random(self.rng.getrandbits(64))
        decision = ghost_mcts_search(
            state, self.index, search_rng, mode=self.mode, evaluate=self.evaluation,
            playouts=self.playouts, node_limit=self.nodes,
            time_limit=None if self.time is None else float(self.time), horizon=self.horizon,
            c=self.c, catch_bonus=self.catch_bonus, distance_weight=self.distance_weight,
            pacman_playout=self._pacman_playout,
            ghost_chance=self._ghost_chance)
        self.last_decision = decision
        return decision

    def distribution(self, state: GameState) -> list[tuple[Direction, float]]:
        """The root's visit shares of one search (the one legal move: probability 1)."""
        decision = self.search(state)
        if decision.playouts == 0:
            return [(decision.action, 1.0)]
        return [(move.action, move.visits / decision.playouts) for move in decision.root]

    def get_action(self, state: GameState) -> Direction:
        """The root's most visited move of one search (see `search`)."""
        action: Direction = self.search(state).action
        return action
