"""Explain a failed case: re-run the agent and the reference search with the classic bugs.

Two complementary probes, because a buggy agent often crashes on the real tree (it evaluates a
node the test gives no value):

- re-run the *agent* at other depths on the real tree and see whether it then matches the
  solution (depth - 1: one ply too deep; depth + 1: too shallow; depth * num_agents: depth
  counted per agent move);
- run the agent once more on a *tolerant* tree (missing values read as 0) and compare what it
  did with the reference search run with one bug switched on.
"""

from __future__ import annotations

import time
from typing import Any

from pacman.game_tree import MissingValueError, TerminalSuccessorError, TreeBudgetError
from pacman.grading.cases.parser import TreeCase
from pacman.grading.reference.search import ReferenceOutcome, reference_search
from pacman.grading.running.tree_run import AgentRun, run_agent

__all__ = ["HINTS", "diagnose"]

TOLERANT_VALUE = 0.0

HINTS = {
    "too_deep": "search depth off by one: the agent searches one ply too deep "
                "(it would pass with depth - 1)",
    "too_shallow": "search depth off by one: the agent searches one ply too shallow "
                   "(it would pass with depth + 1)",
    "per_agent": "depth is counted per agent move instead of per ply "
                 "(one ply = MAX's move + one move of every other agent)",
    "partial_ply": "partial-ply bug: in the last ply the last agent does not move (its node "
                   "is evaluated instead of expanded); a ply ends after every agent has moved",
    "no_root_alpha": "alpha-beta does not raise alpha at the root: pass the best value found "
                     "so far to the next root action's search",
    "equality": "alpha-beta prunes on equality: prune only when v > beta (MAX) "
                "or v < alpha (MIN)",
    "no_pruning": "alpha-beta does not prune: it generated exactly what minimax generates",
    "prunes": "the agent prunes like alpha-beta, but minimax must expand every child",
    "as_minimax": "expectimax treats chance nodes as MIN nodes: average their children",
    "tie": "root tie: return the first best action in legal-action order",
    "non_leaf": "evaluate only leaves: nodes at the depth limit and win/lose nodes",
    "terminal": "a win/lose node is a leaf: evaluate it, never generate its successors",
    "duplicates": "generate each child once (keep the successor you generated)",
}


#: nodes each probe may generate, and seconds all probes of one case may take: diagnostics on
#: a cyclic or huge tree give up instead of running for ever
PROBE_BUDGET = 50_000
DIAGNOSTIC_SECONDS = 3.0


def diagnose(case: TreeCase, agent_class: Any, actual: AgentRun) -> tuple[str, ...]:
    """Hints that explain why `actual` (the agent's run on `case`) differs from the solution."""
    hints: list[str] = []
    expected = (case.expected_action, case.expected_generated)
    deadline = time.monotonic() + DIAGNOSTIC_SECONDS

    if actual.error_type == MissingValueError.__name__:
        hints.append(HINTS["non_leaf"])
    if actual.error_type == TerminalSuccessorError.__name__:
        hints.append(HINTS["terminal"])
    if actual.error_type == TreeBudgetError.__name__:
        return tuple(hints)  # probing a run that never ended would not end either
    if actual.duplicates:
        hints.append(HINTS["duplicates"])

    def agent_at(depth: int, default: float | None = None) -> AgentRun | None:
        if time.monotonic() > deadline:
            return None
        return run_agent(agent_class, case, depth, default, budget=PROBE_BUDGET)

    def passes_at(depth: int) -> bool:
        run = agent_at(depth)
        return run is not None and run.same_as(*expected)

    # Probe 1: the agent itself at other depths, on the real tree.
    depth, agents = case.depth, case.tree.num_agents
    if depth > 1 and passes_at(depth - 1):
        hints.append(HINTS["too_deep"])
    if passes_at(depth + 1):
        hints.append(HINTS["too_shallow"])
    if agents > 1 and passes_at(depth * agents):
        hints.append(HINTS["per_agent"])

    # The agent itself passing at another depth is direct evidence: no need to guess further.
    if hints and all(h in (HINTS["too_deep"], HINTS["too_shallow"], HINTS["per_agent"])
                     for h in hints):
        return tuple(dict.fromkeys(hints))

    # Probe 2: the agent on a tolerant tree against the reference with one bug switched on.
    tolerant = agent_at(depth, TOLERANT_VALUE)
    if tolerant is not None and tolerant.error is None and not tolerant.duplicates:
        observed = tolerant

        def behaves_like(alg: str = case.alg, search_depth: int = depth,
                         **bug: Any) -> bool:  # the bug switches of reference_search
            if time.monotonic() > deadline:
                return False
            try:
                reference = reference_search(case.tree, alg, search_depth,
                                             default_value=TOLERANT_VALUE,
                                             budget=PROBE_BUDGET, **bug)
            except (MissingValueError, TreeBudgetError):
                return False
            return observed.same_as(reference.action, reference.generated)

        if depth > 1 and behaves_like(search_depth=depth - 1):
            hints.append(HINTS["too_shallow"])
        if behaves_like(search_depth=depth + 1):
            hints.append(HINTS["too_deep"])
        if agents > 1 and behaves_like(per_agent_depth=True):
            hints.append(HINTS["per_agent"])
        if agents > 1 and behaves_like(last_ghost_unexpanded=True):
            hints.append(HINTS["partial_ply"])
        if case.alg == "AlphaBetaAgent":
            if behaves_like(prune_on_equality=True):
                hints.append(HINTS["equality"])
            if behaves_like(no_root_alpha=True):
                hints.append(HINTS["no_root_alpha"])
            if behaves_like(alg="MinimaxAgent"):
                hints.append(HINTS["no_pruning"])
        elif case.alg == "MinimaxAgent" and behaves_like(alg="AlphaBetaAgent"):
            hints.append(HINTS["prunes"])
        elif case.alg == "ExpectimaxAgent" and behaves_like(alg="MinimaxAgent"):
            hints.append(HINTS["as_minimax"])

    if (actual.error is None and actual.generated == case.expected_generated
            and actual.action != case.expected_action):
        correct = _reference_or_none(case)
        if correct is not None and actual.action in correct.best_actions:
            hints.append(HINTS["tie"])
    if time.monotonic() > deadline:
        hints.append(f"(the diagnostics stopped after {DIAGNOSTIC_SECONDS:g} s)")
    return tuple(dict.fromkeys(hints))


def _reference_or_none(case: TreeCase) -> ReferenceOutcome | None:
    try:
        return reference_search(case.tree, case.alg, case.depth, budget=PROBE_BUDGET)
    except (MissingValueError, TreeBudgetError, ValueError):
        return None
