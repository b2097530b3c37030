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

from pacman.demos.demo import Demo, Finding, Matchup, Results, summarize
from pacman.specs import AgentSpec

LAYOUT = "trappedClassic"
GHOSTS = (AgentSpec.of("RandomGhost"), AgentSpec.of("RandomGhost"))
MINIMAX = Matchup("minimax", AgentSpec.of("AlphaBetaAgent", {"depth": 3}), GHOSTS, LAYOUT)
EXPECTIMAX = Matchup("expectimax", AgentSpec.of("ExpectimaxAgent", {"depth": 3}), GHOSTS, LAYOUT)

#: The claim: minimax never wins, and ends every game within this many moves (it gives up) ...
MINIMAX_MAX_MOVES = 3
#: ... while expectimax wins about half of its games: the 95% interval of its win rate reaches
#: into this range (so one game, won or lost, does not refute it, and 0/30 or 30/30 does).
EXPECTIMAX_WIN_RATE = (0.25, 0.75)


def judge(results: Results) -> Finding:
    """Minimax always loses at once; expectimax wins about half of its games."""
    minimax_games = results.get(MINIMAX.label, ())
    expectimax_games = results.get(EXPECTIMAX.label, ())
    if not minimax_games or not expectimax_games:
        return Finding(False, "no games played")
    minimax, expectimax = summarize(minimax_games), summarize(expectimax_games)
    longest = max(record.pacman_moves for record in minimax_games)
    wins = [record for record in expectimax_games if record.won]
    win_score = f", {sum(r.score for r in wins) / len(wins):.0f} when it won" if wins else ""
    low, high = EXPECTIMAX_WIN_RATE
    holds = (minimax.wins == 0 and longest <= MINIMAX_MAX_MOVES
             and expectimax.win_high >= low and expectimax.win_low <= high)
    text = (f"Minimax Pacman won {minimax.wins_text()} (mean score {minimax.mean_score:.1f}, "
            f"every game over after at most {_moves(longest)}); Expectimax Pacman won "
            f"{expectimax.wins_text()} ({expectimax.wins / expectimax.games:.0%}, 95% interval "
            f"{expectimax.interval_text()}; mean score {expectimax.mean_score:.1f}"
            f"{win_score}). ")
    if holds:
        text += ("Believing the ghosts perfect, minimax sees only losses and dies as early as "
                 "it can; expectimax gambles on the random ghosts and wins about half the time.")
    else:
        text += (f"The claim needs minimax to win no game and to die within "
                 f"{_moves(MINIMAX_MAX_MOVES)}, and expectimax's win rate to be about half "
                 f"(its 95% interval reaching into {low:.0%}-{high:.0%}).")
    return Finding(holds, text)


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
