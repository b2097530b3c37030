"""`mcts`: Monte Carlo tree search against the anytime expectimax at the same time per move.

Two Pacmen with the same knowledge and the same time play the same seeded games on two
layouts, against `DirectionalGhost`s:

- **expectimax**: the anytime expectimax (`IterativeExpectimaxAgent`), deepening one ply at
  a time, every ghost reply weighed by the directional ghost's own probabilities
  (`ghost_model=directional`);
- **MCTS** (`MCTSAgent`, `tree=move`: the move-level search, not the junction tree `-p mcts`
  plays by default): UCT over Pacman's moves, the ghosts' replies sampled from the same
  model, greedy playouts (towards the nearest dot, off cells next to a ghost) to 10 Pacman
  moves from the root.

Both value a position by the game's score alone (`evaluation=score`): no hand-made
evaluation, so what differs is the search. Every game ends at `MAX_MOVES` Pacman moves at the
latest (`capped`: the maze not cleared in time). Where each wins:

- on **assumptions-big** (`FAR`: an open maze, its five dots far apart, one ghost) MCTS clears
  the maze in time more often: in seeds 0-7 it won all 8 games, the expectimax 5, whose 3
  failures all ended at the move cap, none at a ghost. When the next dot is farther away
  than the tree reaches (the next dot can be 18 steps away), every move of the expectimax
  scores the same and it wanders; MCTS's playouts walk to the nearest dot whatever its
  distance, so the moves towards it score better;
- on **informedHunt** (`TRAP`) the expectimax wins clearly: the food at the bottom left lies
  in a long dead end. The tree weighs every reply of the ghost, to a depth that covers the
  dead end on this small board; MCTS judges by a few hundred sampled futures, goes in with
  the ghost close behind, and is caught there: in seeds 0-7 it won 2 games, the expectimax 5,
  and 4 of MCTS's 6 failures are catches in the dead end (the expectimax's 3 all are).

**The same time, reproducibly.** A time budget gives a different game on every run and on
every machine, so the demo gives each agent a node budget worth `TIME_PER_MOVE` seconds of its
own search on this project's 2-core machine: `EXPECTIMAX_NODES` and `MCTS_NODES` (both
deterministic: same seed, same game). They were calibrated from the CPU time of each agent's
search at positions of these games (the expectimax 4.0-4.4 microseconds a node, MCTS with greedy
playouts 3.0-3.2; `python scripts/bench.py --only mcts-time` measures it again, in its "demo"
rows). Half the 40 ms of the Pac-Man competitions, a 150-move cap and 8 games a matchup make
`pacman demo mcts -q` about 2,900 Pacman moves in all, under a minute on 2 cores (56 s on
2026-12-06). Eight games show the split, not its size: docs/demos.md has 40 games a matchup.
At a quarter of the competitions' budget the split is gone on assumptions-big. With the
hand-made evaluation `wary` (the expectimax's default) the expectimax is far stronger: this
demo compares the searches, not the best agents.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from pacman.demos.demo import Demo, Finding, Matchup, Results, game_states, summarize
from pacman.demos.informed import DEAD_END
from pacman.record import GameRecord, Outcome
from pacman.specs import AgentSpec, Setting

#: Seconds per move the node budgets stand for on this project's machine (half the real-time
#: budget of the Pac-Man competitions, so that the demo runs in under a minute).
TIME_PER_MOVE = 0.02
#: The anytime expectimax's nodes in `TIME_PER_MOVE` (score evaluation, directional model).
EXPECTIMAX_NODES = 5_000
#: MCTS's nodes in `TIME_PER_MOVE` (greedy playouts, directional model; `nodes` counts every
#: successor a greedy playout generates).
MCTS_NODES = 6_500

EXPECTIMAX: dict[str, Setting] = {"time": 0, "nodes": EXPECTIMAX_NODES, "evaluation": "score",
                                  "ghost_model": "directional"}
MCTS: dict[str, Setting] = {"tree": "move", "nodes": MCTS_NODES, "evaluation": "score",
                            "playout": "greedy",
                            "ghost_model": "directional", "horizon": 10}
#: The move cap of every game: a Pacman that wanders ends there (`capped`). A Pacman that walks
#: from dot to dot clears assumptions-big in 60 to 145 moves.
MAX_MOVES = 150


@dataclass(frozen=True)
class Board:
    """A layout of the demo, which search is expected to win there, and its two matchups."""

    layout: str
    ghosts: int
    winner: Literal["expectimax", "MCTS"]

    @property
    def expectimax(self) -> Matchup:
        """The anytime expectimax on this board."""
        return Matchup(f"expectimax on {self.layout}",
                       AgentSpec.of("IterativeExpectimaxAgent", EXPECTIMAX),
                       (AgentSpec.of("DirectionalGhost"),) * self.ghosts, self.layout,
                       max_moves=MAX_MOVES)

    @property
    def mcts(self) -> Matchup:
        """MCTS on this board."""
        return Matchup(f"MCTS on {self.layout}", AgentSpec.of("MCTSAgent", MCTS),
                       (AgentSpec.of("DirectionalGhost"),) * self.ghosts, self.layout,
                       max_moves=MAX_MOVES)


FAR = Board("assumptions-big", 1, "MCTS")
TRAP = Board("informedHunt", 1, "expectimax")
BOARDS = (FAR, TRAP)

#: The claim holds when MCTS wins more games than the expectimax on `FAR`, and the expectimax
#: at least this share of the games more than MCTS on `TRAP` (8 games: 2).
MIN_GAP = 0.25


def won_alone(records: Sequence[GameRecord], others: Sequence[GameRecord]) -> int:
    """Seeds (game by game, in order) that `records` won and `others` did not."""
    return sum(mine.won and not theirs.won for mine, theirs in zip(records, others))


def caught_in_dead_end(matchup: Matchup, records: Sequence[GameRecord]) -> int:
    """Games lost with Pacman in informedHunt's dead end at the bottom left."""
    return sum(record.outcome is Outcome.LOSS
               and game_states(matchup, record)[-1].pacman_position in DEAD_END
               for record in records)


def _capped(records: Sequence[GameRecord]) -> int:
    return sum(record.outcome is Outcome.CAPPED for record in records)


def _side(board: Board, name: str, records: Sequence[GameRecord],
          others: Sequence[GameRecord]) -> str:
    summary = summarize(records)
    matchup = board.expectimax if name == "expectimax" else board.mcts
    text = (f"{name} won {summary.wins_text()} ({won_alone(records, others)} where the other "
            f"lost; mean score {summary.mean_score:.0f}")
    if board is TRAP:
        caught = caught_in_dead_end(matchup, records)
        text += f", caught in the dead end {caught} time{'' if caught == 1 else 's'}"
    else:
        text += f", {_capped(records)} capped at {MAX_MOVES} moves"
    return text + ")"


def _board_holds(board: Board, results: Results) -> tuple[bool, str] | None:
    """Whether `board` showed its winner, and the numbers; None without games."""
    searched = results.get(board.expectimax.label, ())
    sampled = results.get(board.mcts.label, ())
    if not searched or not sampled:
        return None
    games = min(len(searched), len(sampled))
    searched, sampled = searched[:games], sampled[:games]
    ahead = sum(r.won for r in searched) - sum(r.won for r in sampled)  # the expectimax's lead
    holds = ahead >= MIN_GAP * games if board.winner == "expectimax" else ahead < 0
    text = (f"On {board.layout}, {_side(board, 'expectimax', searched, sampled)}; "
            f"{_side(board, 'MCTS', sampled, searched)}.")
    return holds, text


def judge(results: Results) -> Finding:
    """MCTS wins (narrowly) on assumptions-big; the expectimax wins on informedHunt."""
    verdicts = [_board_holds(board, results) for board in BOARDS]
    if any(verdict is None for verdict in verdicts):
        return Finding(False, "no games played")
    holds = all(verdict[0] for verdict in verdicts if verdict is not None)
    text = " ".join(verdict[1] for verdict in verdicts if verdict is not None) + " "
    if holds:
        text += ("Where the next dot lies beyond the tree, every move scores the same to the "
                 "expectimax and it wanders, while MCTS's playouts walk to the dot; where one "
                 "line decides (the ghost following Pacman into the dead end), the tree weighs "
                 "every ghost reply and sampled futures miss it.")
    else:
        text += (f"The claim needs MCTS to win more games than the expectimax on "
                 f"{FAR.layout}, and the expectimax at least {MIN_GAP:.0%} of the games more "
                 f"than MCTS on {TRAP.layout}.")
    return Finding(holds, text)


DEMOS: tuple[Demo, ...] = (
    Demo(
        name="mcts",
        title="MCTS vs. expectimax at the same time per move",
        summary=f"with the score alone and {TIME_PER_MOVE * 1000:.0f} ms a move, MCTS's "
                "playouts find far-apart dots the tree cannot see, so it clears an open maze "
                "in time more often; in a long dead end the exact tree is caught far less "
                "often than sampled futures",
        matchups=(FAR.expectimax, FAR.mcts, TRAP.expectimax, TRAP.mcts),
        judge=judge,
        games=8,
    ),
)
