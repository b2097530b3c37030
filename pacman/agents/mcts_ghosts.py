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
of this exact description.
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
from pacman.agents.mcts import (
    DEFAULT_EPSILON,
    DEFAULT_PLAYOUTS,
    PlayoutPolicy,
    RootMove,
    check_budget,
    greedy_playout,
    named_evaluation,
    one_budget,
    sample_index,
    tie_draw,
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
    for name, number in (("catch_bonus", catch_bonus), ("distance_weight", distance_weight)):
        reason = _weight(name, number)
        if reason is not None:
            raise ValueError(reason)
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r} (choose {' or '.join(MODES)})")
    num_agents = state.num_agents
    if not 1 <= ghost < num_agents:
        raise ValueError(f"no ghost {ghost} in a game of {num_agents - 1} ghost(s)")
    if state.is_win() or state.is_lose():
        raise ValueError("cannot search from a terminal state: the game is already won or lost")
    root_moves = tuple(state.legal_actions(ghost))
    if len(root_moves) == 1:
        return GhostMCTSDecision(root_moves[0], math.nan, 1, root_moves, 0, 1,
                                 (RootMove(root_moves[0], 0, math.nan),), "single")
    deadline = None if time_limit is None else clock() + time_limit
    draw = rng.random
    generated = 1
    tree_size = 1
    done = 0
    lo = [math.inf] * num_agents
    hi = [-math.inf] * num_agents

    def values(s: GameState, pacman_moves: int) -> tuple[float, ...]:
        return team_values(s, mode, evaluate, catch_bonus, distance_weight, pacman_moves,
                           horizon)

    def node_at(s: GameState, agent: int, pacman_moves: int) -> _Node:
        """A new node; a leaf (with its value) when the game or the horizon ends there."""
        if s.is_win() or s.is_lose() or (agent == 0 and pacman_moves >= horizon):
            node = _Node(s, agent, pacman_moves, ())
            node.leaf = values(s, pacman_moves)
            return node
        return _Node(s, agent, pacman_moves, s.legal_actions(agent))

    def playout(s: GameState, agent: int, pacman_moves: int) -> tuple[float, ...]:
        """The models' moves from `agent`'s turn until the game or the horizon ends."""
        nonlocal generated
        while not (s.is_win() or s.is_lose()):
            if agent == 0:
                if pacman_moves >= horizon:
                    break
                moves = actions_without_stop(s, 0)
                if pacman_playout is None:
                    s = s.successor(0, moves[int(draw() * len(moves))])
                    generated += 1
                else:
                    _, s, made = pacman_playout(s, moves, draw)
                    generated += made
                pacman_moves += 1
            else:
                moves = s.legal_actions(agent)
                if len(moves) == 1:
                    move = moves[0]
                elif ghost_chance is None:
                    move = moves[int(draw() * len(moves))]
                else:
                    move = moves[sample_index(ghost_chance(s, agent, moves), draw())]
                s = s.successor(agent, move)
                generated += 1
            agent = agent + 1 if agent + 1 < num_agents else 0
        return values(s, pacman_moves)

    root = _Node(state, ghost, 0, root_moves)
    path: list[tuple[_Node, Any]] = []
    stopped = "playouts"
    while True:
        node = root
        path.clear()
        while node.moves:
            move = _select(node, c, lo, hi, draw)
            path.append((node, move))
            child = node.children.get(move)
            if child is None:
                agent = node.agent
                s = node.state.successor(agent, move)
                generated += 1
                child = node_at(s, agent + 1 if agent + 1 < num_agents else 0,
                                node.pacman_moves + (agent == 0))
                node.children[move] = child
                tree_size += 1
                node = child
                break
            node = child
        result = node.leaf if node.leaf is not None else playout(
            node.state, node.agent, node.pacman_moves)
        for agent, value in enumerate(result):
            if value < lo[agent]:
                lo[agent] = value
            if value > hi[agent]:
                hi[agent] = value
        for visited, move in path:
            visited.visits += 1
            visited.counts[move] = visited.counts.get(move, 0) + 1
            total = visited.totals.get(move)
            if total is None:
                visited.totals[move] = list(result)
            else:
                for agent, value in enumerate(result):
                    total[agent] += value
        done += 1
        if playouts is not None and done >= playouts:
            break
        if node_limit is not None and generated >= node_limit:
            stopped = "nodes"
            break
        if deadline is not None and clock() >= deadline:
            stopped = "time"
            break
    stats = tuple(RootMove(a, root.counts.get(a, 0),
                           root.totals[a][ghost] / root.counts[a] if root.counts.get(a)
                           else math.nan)
                  for a in root_moves)
    most = max(move.visits for move in stats)
    best = tuple(move for move in stats if move.visits == most)
    chosen = tie_draw(best, draw)
    return GhostMCTSDecision(chosen.action, chosen.mean, generated,
                             tuple(move.action for move in best), done, tree_size, stats,
                             stopped)


def _select(node: _Node, c: float, lo: Sequence[float], hi: Sequence[float],
            draw: Callable[[], float]) -> Any:
    """UCB1 for the node's mover: an untried move, else the largest normalised mean of the
    mover's own value plus exploration; among equals (several untried moves, or equal scores;
    every move when every score is NaN) one draw picks uniformly (none for one move)."""
    counts, totals, agent, moves = node.counts, node.totals, node.agent, node.moves
    for move in moves:
        if move not in counts:  # a list only while the node still has untried moves
            untried = [move for move in moves if move not in counts]
            return tie_draw(untried, draw)
    low = lo[agent]
    spread = hi[agent] - low
    log_visits = math.log(node.visits) if node.visits > 0 else 0.0
    best: list[Any] = []
    best_score = -math.inf
    for move in moves:
        n = counts[move]
        q = (totals[move][agent] / n - low) / spread if spread > 0 else 0.5
        score = q + c * math.sqrt(log_visits / n)
        if score > best_score:
            best, best_score = [move], score
        elif score == best_score:
            best.append(move)
    # no best when every score is NaN (an infinite value made the normalisation 0/0): all equal
    return tie_draw(best or moves, draw)


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
        if chosen.playouts is None and chosen.nodes is None and chosen.time is None:
            self.playouts: int | None = DEFAULT_PLAYOUTS
        else:
            self.playouts = chosen.playouts
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
        if self.playouts is not None:
            budget = f"playouts={self.playouts}"
        elif self.nodes is not None:
            budget = f"nodes={self.nodes}"
        else:
            budget = f"time={self.time:g}"
        parts = [self.mode, budget, self._evaluation_name, f"horizon={self.horizon}",
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
