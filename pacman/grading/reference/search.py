"""A plain reference search on test trees, with the classic bugs as switches for diagnostics.

Deliberately independent of `pacman.agents.search` and written for clarity, not speed: a second
implementation is the yardstick that explains a student's failure (and checks our agents).
"""

from __future__ import annotations

from dataclasses import dataclass

from pacman.game_tree import GameTree, TreeRun, TreeState

__all__ = ["Cut", "Generated", "ReferenceOutcome", "reference_search"]

_INF = float("inf")


@dataclass(frozen=True)
class ReferenceOutcome:
    """What the reference search chose and generated, with every root action's value."""

    action: str
    generated: frozenset[str]
    root_values: tuple[tuple[str, float], ...]

    @property
    def best_actions(self) -> tuple[str, ...]:
        """Root actions whose value is the best one, in legal order."""
        best = max(value for _, value in self.root_values)
        return tuple(action for action, value in self.root_values if value == best)


@dataclass(frozen=True)
class Generated:
    """The search generated `child` from `parent` by `action`, with the window (`alpha`,
    `beta`) and the parent's best value so far (`best`, before this child) at that moment."""

    parent: str
    action: str
    child: str
    alpha: float
    beta: float
    best: float


@dataclass(frozen=True)
class Cut:
    """Alpha-beta stopped at `node` after the child reached by `after`: its value `value`
    passed the bound `by` (`"beta"` at MAX, `"alpha"` at MIN) of value `bound`."""

    node: str
    after: str
    value: float
    by: str
    bound: float


def reference_search(tree: GameTree, alg: str, depth: int, *, per_agent_depth: bool = False,
                     prune_on_equality: bool = False, last_ghost_unexpanded: bool = False,
                     no_root_alpha: bool = False, default_value: float | None = None,
                     budget: int = TreeRun.DEFAULT_BUDGET,
                     log: list[Generated | Cut] | None = None) -> ReferenceOutcome:
    """Run `alg` ("MinimaxAgent", "AlphaBetaAgent", "ExpectimaxAgent") on `tree`.

    The switches reproduce classic bugs: `per_agent_depth` counts `depth` in single agent moves
    instead of plies; `last_ghost_unexpanded` evaluates the last ghost's node of the last ply
    instead of expanding it (the classic partial-ply bug); `prune_on_equality` makes alpha-beta
    prune on `>=`/`<=`; `no_root_alpha` never raises alpha between the root's actions.
    `default_value` is used for nodes without a value (otherwise evaluating them raises
    `MissingValueError`). `log` receives every generation and cut, in the order they happen.
    """
    run = TreeRun(tree, default_value, budget=budget)
    n = tree.num_agents
    pruning = alg == "AlphaBetaAgent"

    def cut(v: float, bound: float, above: bool) -> bool:
        if not pruning:
            return False
        if above:
            return v >= bound if prune_on_equality else v > bound
        return v <= bound if prune_on_equality else v < bound

    def value(state: TreeState, agent: int, left: int, alpha: float, beta: float) -> float:
        # `left` counts plies, or agent moves with per_agent_depth, still to search.
        if state.is_win() or state.is_lose():
            return state.score
        if left == 0 and (agent == 0 or per_agent_depth):
            return state.score
        if last_ghost_unexpanded and n > 1 and agent == n - 1 and left == 1:
            return state.score
        actions = state.legal_actions(agent)
        if not actions:
            return state.score
        nxt = (agent + 1) % n
        nxt_left = left - 1 if per_agent_depth or nxt == 0 else left
        if agent == 0:
            best = -_INF
            for action in actions:
                child = generate(state, agent, action, alpha, beta, best)
                best = max(best, value(child, nxt, nxt_left, alpha, beta))
                if cut(best, beta, above=True):
                    if log is not None:
                        log.append(Cut(state.node, action, best, "beta", beta))
                    return best
                alpha = max(alpha, best)
            return best
        if alg == "ExpectimaxAgent":
            values = [value(generate(state, agent, action, alpha, beta, _INF), nxt, nxt_left,
                            alpha, beta) for action in actions]
            return sum(values) / len(values)
        worst = _INF
        for action in actions:
            child = generate(state, agent, action, alpha, beta, worst)
            worst = min(worst, value(child, nxt, nxt_left, alpha, beta))
            if cut(worst, alpha, above=False):
                if log is not None:
                    log.append(Cut(state.node, action, worst, "alpha", alpha))
                return worst
            beta = min(beta, worst)
        return worst

    def generate(state: TreeState, agent: int, action: str, alpha: float, beta: float,
                 best: float) -> TreeState:
        child = state.successor(agent, action)
        if log is not None:
            log.append(Generated(state.node, action, child.node, alpha, beta, best))
        return child

    root = run.root()
    nxt = 1 % n
    left = depth - 1 if per_agent_depth or nxt == 0 else depth
    alpha = -_INF
    root_values: list[tuple[str, float]] = []
    for action in root.legal_actions(0):
        best = max((v for _, v in root_values), default=-_INF)
        v = value(generate(root, 0, action, alpha, _INF, best), nxt, left, alpha, _INF)
        root_values.append((action, v))
        if not no_root_alpha:
            alpha = max(alpha, v)
    if not root_values:
        raise ValueError(f"the start node {tree.start} has no actions")
    outcome = ReferenceOutcome("", frozenset(run.generated), tuple(root_values))
    return ReferenceOutcome(outcome.best_actions[0], outcome.generated, outcome.root_values)
