"""`min-vs-exp`: the lecture's "Min vs. Exp" on `trappedClassic`.

Pacman starts in the top corridor, a ghost two steps to its right at the corridor's dead end,
and the other ghost in the only way down to the food:

```
%%%%%%%%
%   P G%      Pacman, and a ghost at the dead end of the corridor
%G%%%%%%      the other ghost in the passage down to the food
%....  %
%%%%%%%%
```

Minimax Pacman (alpha-beta, depth 3, the score as evaluation) assumes both ghosts play their
best: every line of play then ends in a loss, and the quickest loss costs the fewest time
points, so it runs into the nearest ghost at once (score -501). Expectimax Pacman (same depth)
takes the ghosts for the random ghosts they are: the ghost in the passage may leave it free,
and it tries its luck. Against random ghosts that gamble wins about half the time (score 532).
"""

from __future__ import annotations

from pacman.demos.base import Agent, Demo, Matchup, Results, Verdict, summarize

LAYOUT = "trappedClassic"
GHOSTS = (Agent("RandomGhost"), Agent("RandomGhost"))
MINIMAX = Matchup("minimax", Agent("AlphaBetaAgent", {"depth": 3}), GHOSTS, LAYOUT)
EXPECTIMAX = Matchup("expectimax", Agent("ExpectimaxAgent", {"depth": 3}), GHOSTS, LAYOUT)

#: The claim: minimax never wins, and ends every game within this many moves (it gives up) ...
MINIMAX_MAX_MOVES = 3
#: ... while expectimax wins a share of its games in this range (about half).
EXPECTIMAX_WIN_RATE = (0.25, 0.75)


def judge(results: Results) -> Verdict:
    """Minimax always loses at once; expectimax wins about half of its games."""
    minimax_games = results.get(MINIMAX.label, ())
    expectimax_games = results.get(EXPECTIMAX.label, ())
    if not minimax_games or not expectimax_games:
        return Verdict(False, "no games played")
    minimax, expectimax = summarize(minimax_games), summarize(expectimax_games)
    longest = max(record.pacman_moves for record in minimax_games)
    wins = [record for record in expectimax_games if record.won]
    win_score = sum(r.score for r in wins) / len(wins) if wins else 0.0
    rate = expectimax.wins / expectimax.games
    low, high = EXPECTIMAX_WIN_RATE
    holds = (minimax.wins == 0 and longest <= MINIMAX_MAX_MOVES and low <= rate <= high)
    text = (f"Minimax Pacman won {minimax.wins_text()} (mean score {minimax.mean_score:.1f}, "
            f"every game over after at most {_moves(longest)}); Expectimax Pacman won "
            f"{expectimax.wins_text()} ({rate:.0%}, 95% interval {expectimax.interval_text()}; "
            f"mean score {expectimax.mean_score:.1f}, {win_score:.0f} when it won). ")
    if holds:
        text += ("Believing the ghosts perfect, minimax sees only losses and dies as early as "
                 "it can; expectimax gambles on the random ghosts and wins about half the time.")
    else:
        text += (f"The claim needs minimax to win no game and to die within "
                 f"{MINIMAX_MAX_MOVES} moves, and expectimax to win {low:.0%} to {high:.0%} "
                 "of its games.")
    return Verdict(holds, text)


def _moves(count: int) -> str:
    return f"{count} move" if count == 1 else f"{count} moves"


DEMOS: tuple[Demo, ...] = (
    Demo(
        name="min-vs-exp",
        title="Min vs. Exp",
        summary="trapped between two random ghosts, minimax Pacman gives up at once; "
                "expectimax tries its luck and wins about half its games",
        matchups=(MINIMAX, EXPECTIMAX),
        judge=judge,
        games=30,
    ),
)
