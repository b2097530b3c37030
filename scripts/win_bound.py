"""The best chance any Pacman has to win a small layout against directional ghosts, exactly.

`python scripts/win_bound.py trappedClassic` prints, for a growing number of Pacman moves, the
highest probability with which a Pacman agent can win the layout against `DirectionalGhost`s,
whatever it does: an expectimax over every move of Pacman and every move of each ghost with
the ghost's own move probabilities (`DirectionalGhost.distribution`), to the end of the game,
valuing a won game 1 and a lost or unfinished one 0, with the positions memoised (the score is
left out of a position: it does not change who wins). No agent can beat the number printed;
an agent that reaches it plays perfectly for winning. It is exact only where the positions
reachable in the given moves fit in memory: trappedClassic (364 of them) and the like, not
mediumClassic.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pacman import GameState, load_layout
from pacman.agents.ghosts import DirectionalGhost


def best_win_probability(layout: str, num_ghosts: int | None, moves: int) -> tuple[float, int]:
    """The highest probability of a win within `moves` Pacman moves, and the positions valued.

    Args:
        layout: a layout name or path, as `pacman play -l` takes it.
        num_ghosts: the ghosts that play (None: all of the layout's).
        moves: Pacman moves allowed; a game still running after them counts as not won.

    Returns:
        (the probability, the number of distinct positions valued).
    """
    start = GameState.initial(load_layout(layout), num_ghosts)
    agents = start.num_agents
    ghosts = [DirectionalGhost(index) for index in range(1, agents)]
    memo: dict[tuple[Any, ...], float] = {}
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20 * agents * moves + 1000))

    def value(state: GameState, agent: int, left: int) -> float:
        if state.is_win():
            return 1.0
        if state.is_lose() or left == 0:
            return 0.0
        key = (state._pac, state._pac_dir, state._ghosts, state._food, state._capsules,
               agent, left)
        known = memo.get(key)
        if known is not None:
            return known
        following = (agent + 1) % agents
        spent = left - 1 if following == 0 else left  # a round ends after the last ghost
        if agent == 0:
            found = max(value(state.successor(0, action), following, spent)
                        for action in state.legal_actions(0))
        else:
            found = sum(chance * value(state.successor(agent, action), following, spent)
                        for action, chance in ghosts[agent - 1].distribution(state)
                        if chance > 0)
        memo[key] = found
        return found

    return value(start, 0, moves), len(memo)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("layout")
    parser.add_argument("-k", "--num-ghosts", type=int, default=None)
    parser.add_argument("--moves", type=int, nargs="+", default=[10, 20, 40, 80])
    args = parser.parse_args()
    for moves in args.moves:
        chance, positions = best_win_probability(args.layout, args.num_ghosts, moves)
        print(f"{args.layout}: at best {chance:.4f} within {moves} Pacman moves "
              f"({positions} positions)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
