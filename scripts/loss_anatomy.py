"""How the lost games of a results file were lost, read with the exact survival table.

`python scripts/loss_anatomy.py RESULTS.db [--horizon H]` replays every lost game of the file
(its stored moves, from the layout's start) and, at each of Pacman's turns, reads `V_H`, the
chance that Pacman playing his best survives the next `H` moves of the food-free chase against
directional ghosts (`pacman.chase`). For each loss it prints one line:

- the agent (with the settings in which the lost games differ), seed, moves and score;
- `trap set`: how many moves before the catch `V_H` last fell below 0.5 and stayed there (the
  moment the pincer closed for good), and `V_H` at that move's previous turn;
- `lowest earlier`: the lowest `V_H` before that, i.e. whether he had been in danger before;
- `scared`: whether a ghost was scared at some point in the last 10 moves (then the table does
  not apply and shows `-`);
- `kind`: `pincer` (the table saw the catch coming: `V_H` below 0.5 at least 3 moves before
  it), `sudden` (it did not: a ghost's random move, or a catch the table valued as survivable
  until the last moves), or `scared` (a ghost was scared near the end).

And a count of each kind. Only games against `DirectionalGhost`s with at most two ghosts are
read; the others are skipped with a note.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pacman import GameState, load_layout
from pacman.chase import survival_table
from pacman.experiments.store import open_results


def pacman_turns(layout_name: str, actions: tuple[str, ...], ghosts: int) -> list[GameState]:
    """The states at Pacman's turns of a game, from its stored moves."""
    state = GameState.initial(load_layout(layout_name), ghosts)
    turns = []
    for number, action in enumerate(actions):
        agent = number % state.num_agents
        if agent == 0:
            turns.append(state)
        state = state.successor(agent, action)
        if state.is_win() or state.is_lose():
            break
    return turns


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results")
    parser.add_argument("--horizon", type=int, default=15)
    args = parser.parse_args()
    kinds: Counter[str] = Counter()
    with open_results(args.results) as store:
        games = [game for game in store.games() if game.outcome.value == "loss"]
    settings = [dict(game.config.pacman.settings) for game in games]
    shared = set.intersection(*(set(s.items()) for s in settings)) if settings else set()
    for game, own in zip(games, settings, strict=True):
        config = game.config
        label = " ".join([config.pacman.name] + [f"{k}={v}" for k, v in sorted(own.items())
                                                  if (k, v) not in shared])
        layout = load_layout(config.layout)
        ghosts = len(layout.ghost_starts) if config.num_ghosts is None else config.num_ghosts
        if config.ghost.name != "DirectionalGhost" or not 1 <= ghosts <= 2:
            print(f"skipped: {label} seed {game.seed} (not 1-2 directional ghosts)")
            continue
        record = game.record()
        table = survival_table(layout, ghosts=ghosts, horizon=args.horizon)
        turns = pacman_turns(config.layout, record.actions, ghosts)
        values = [table.of_state(state) for state in turns]
        scared = any(value is None for value in values[-10:])
        closed = len(values)
        while closed > 0 and (value := values[closed - 1]) is not None and value < 0.5:
            closed -= 1
        before = len(values) - closed
        earlier = [v for v in values[:max(closed - 1, 0)] if v is not None]
        kind = "scared" if scared else "pincer" if before >= 3 else "sudden"
        kinds[kind] += 1
        shown = "-" if closed == 0 or values[closed - 1] is None else f"{values[closed - 1]:.3f}"
        print(f"{label} seed {game.seed}: {record.pacman_moves} moves, score "
              f"{record.score}; trap set {before} moves before the catch (V before: {shown}); "
              f"lowest earlier {min(earlier, default=1.0):.3f}; scared {scared}; {kind}")
    print(", ".join(f"{kind} {n}" for kind, n in kinds.most_common()) or "no losses")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
