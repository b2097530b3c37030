"""`mixed`: the lecture's "Mixed layer types" on `mixedGhosts`.

Pacman faces two different ghosts: agent 1 hunts (`AdversarialGhost`, alpha-beta from the
ghost's side) and agent 2 moves at random (`RandomGhost`). Three Pacmen search 3 plies with
the same evaluation (`cautious`) and the same settings; only their model of the ghosts
differs:

- expectiminimax (`ExpectiminimaxAgent kinds=min,chance`): a min layer for the hunter and a
  chance layer for the random ghost, the true picture;
- minimax (`AlphaBetaAgent`, the same decisions as minimax): min layers for both;
- expectimax (`ExpectimaxAgent`): chance layers for both.

```
%%%%%%%%%%%%%
%%%%%%.%%%%%%      A: food at the bottom of a pocket two cells deep
%%%%%% %%%%%%
%     P     %      E: the pocket's entrance; Pacman starts on it
% %%%% %%%% %
%           %
% %%%% %%%% %
%     1     %      the hunter starts 4 moves from E
% %%%% %%%% %
%.    2     %      B: food in the corner; the random ghost starts in the bottom corridor
%%%%%%%%%%%%%
```

It is the `assumptions` layout with a second, random ghost. Eating the last food wins at
once, so A is safe only when it is eaten last. Expectimax takes the hunter for a random
ghost, dives for A and is shut in: it loses every game within a few moves. Minimax does not
fall for that, but it takes the random ghost for a second hunter: on its way to B, with a
ghost on each side, it sees no escape from two perfect hunters, gives up and dies. Only
expectiminimax gets both ghosts right, eats B first and A last, and wins most games.
"""

from __future__ import annotations

from pacman.demos.demo import Demo, Finding, Matchup, Results, Summary, summarize
from pacman.specs import AgentSpec, Setting

LAYOUT = "mixedGhosts"
GHOSTS = (AgentSpec.of("AdversarialGhost"), AgentSpec.of("RandomGhost"))
SETTINGS: dict[str, Setting] = {"depth": 3, "evaluation": "cautious", "allow_stop": False}
EXPECTIMINIMAX = Matchup("expectiminimax", AgentSpec.of("ExpectiminimaxAgent",
                                                 {**SETTINGS, "kinds": "min,chance"}),
                         GHOSTS, LAYOUT)
MINIMAX = Matchup("minimax", AgentSpec.of("AlphaBetaAgent", SETTINGS), GHOSTS, LAYOUT)
EXPECTIMAX = Matchup("expectimax", AgentSpec.of("ExpectimaxAgent", SETTINGS), GHOSTS, LAYOUT)

#: The claim: expectiminimax wins at least this share of its games ...
MIN_WIN_RATE = 0.7
#: ... a win rate at least this much above minimax's and expectimax's, and a higher mean
#: score than both.
MIN_MARGIN = 0.25


def _line(label: str, summary: Summary) -> str:
    return (f"{label} won {summary.wins_text()} ({summary.wins / summary.games:.0%}, 95% "
            f"interval {summary.interval_text()}; mean score {summary.mean_score:.1f}, "
            f"{summary.mean_moves:.1f} moves)")


def judge(results: Results) -> Finding:
    """Expectiminimax wins most games, clearly more than minimax and expectimax."""
    games = [results.get(m.label, ()) for m in (EXPECTIMINIMAX, MINIMAX, EXPECTIMAX)]
    if not all(games):
        return Finding(False, "no games played")
    mixed, minimax, expectimax = (summarize(g) for g in games)

    def rate(summary: Summary) -> float:
        return summary.wins / summary.games

    holds = (rate(mixed) >= MIN_WIN_RATE
             and all(rate(mixed) - rate(other) >= MIN_MARGIN
                     and mixed.mean_score > other.mean_score
                     for other in (minimax, expectimax)))
    text = (_line("Expectiminimax Pacman (min layer for the hunter, chance layer for the "
                  "random ghost)", mixed) + "; " + _line("minimax (min layers for both)",
                                                        minimax)
            + "; " + _line("expectimax (chance layers for both)", expectimax) + ". ")
    if holds:
        text += ("Expectimax takes the hunter for a random ghost and is shut in the pocket; "
                 "minimax takes the random ghost for a second hunter and gives up when caught "
                 "between the two; the right layer for each ghost wins.")
    else:
        text += (f"The claim needs expectiminimax to win at least {MIN_WIN_RATE:.0%} of its "
                 f"games, at least {MIN_MARGIN:.0%} more than minimax and than expectimax, "
                 "and a higher mean score than both.")
    return Finding(holds, text)


DEMOS: tuple[Demo, ...] = (
    Demo(
        name="mixed",
        title="Mixed layer types",
        summary="against a hunting and a random ghost, expectiminimax (min + chance layers) "
                "beats both minimax (too timid) and expectimax (too reckless)",
        matchups=(EXPECTIMINIMAX, MINIMAX, EXPECTIMAX),
        judge=judge,
        games=30,
    ),
)
