"""The escape check: can Pacman stay alive for N more of his moves if every ghost chases him?

A pincer (two ghosts closing in on both ends of the corridors Pacman is in) is decided many
moves before it closes: on mediumClassic, 8-10 of Pacman's moves, 24-30 plies with two ghosts,
far past what a search completes in 0.1 s. This check looks that far along one narrow line: the
ghosts branch only over their *chasing moves* (the legal moves that bring them closest to
Pacman, or for a scared ghost the ones that take it farthest: what a `DirectionalGhost` does
80% of the time), usually one, two on a tie, and Pacman over all of his. It is a forward
pruning at the root of the anytime agents (`escape=N`): a move after which Pacman cannot
survive the chase is dropped, unless every move is. A ghost that leaves the chase (the
directional ghost's other 20%) can still close a pincer the check did not foresee.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pacman.agents.search_core import ActionGenerator, legal_actions


def chasing_moves(state: Any, agent: int) -> Sequence[Any]:
    """The legal moves of ghost `agent` that bring it closest to Pacman (a scared ghost:
    farthest from him): one, or several that tie."""
    actions: Sequence[Any] = state.legal_actions(agent)
    if len(actions) == 1:
        return actions
    distances = state.ghost_step_distances(agent)
    best = (max if state.scared_timers[agent - 1] else min)(distances)
    return [a for a, d in zip(actions, distances, strict=True) if d == best]


Seen = dict[tuple[Any, int, int], bool]


def survives(state: Any, moves: int, seen: Seen | None = None, agent: int = 0) -> bool:
    """True if Pacman has moves that keep him alive (or win) for `moves` more of his moves
    whatever chasing moves the ghosts make (`agent` is the one to move in `state`). A
    depth-first search, Pacman's moves farthest from the nearest ghost first; it stops at the
    first line that survives. `seen` remembers the positions already decided (pass one dict to
    share it between calls)."""
    if state.is_lose():
        return False
    if state.is_win() or (agent == 0 and moves == 0):
        return True
    seen = {} if seen is None else seen
    key = (state, moves, agent)
    known = seen.get(key)
    if known is None:
        if agent == 0:
            children = [state.successor(0, action) for action in state.legal_actions(0)]
            children.sort(key=lambda child: -min(child.ghost_distances(), default=0.0))
            known = any(survives(child, moves - 1, seen, 1 % state.num_agents)
                        for child in children)
        else:
            nxt = (agent + 1) % state.num_agents
            known = all(survives(state.successor(agent, action), moves, seen, nxt)
                        for action in chasing_moves(state, agent))
        seen[key] = known
    return known


def escaping_moves(state: Any, actions: Sequence[Any], moves: int) -> list[Any]:
    """The `actions` of Pacman in `state` after which he survives `moves` of his moves in all
    (this one included) against chasing ghosts, in the order given."""
    seen: Seen = {}
    nxt = 1 % state.num_agents
    return [action for action in actions
            if survives(state.successor(0, action), moves - 1, seen, nxt)]


def escape_root(state: Any, legal: ActionGenerator | None, moves: int) -> ActionGenerator | None:
    """`legal` (None: the state's legal actions) with Pacman's moves at `state`, the root of a
    search, cut down to those that escape (`escaping_moves`). When no move escapes, or every
    one does, it is `legal` itself."""
    base = legal if legal is not None else legal_actions
    actions = base(state, 0)
    kept = escaping_moves(state, actions, moves)
    if not kept or len(kept) == len(actions):
        return legal
    return cut_root(state, base, kept)


def cut_root(root: Any, legal: ActionGenerator, kept: Sequence[Any]) -> ActionGenerator:
    """`legal` with Pacman's moves at `root` (the very state object a search starts from)
    replaced by `kept`: how a root check hands its verdict to the search."""

    def root_cut(s: Any, agent: int) -> Sequence[Any]:
        return kept if s is root and agent == 0 else legal(s, agent)

    return root_cut
