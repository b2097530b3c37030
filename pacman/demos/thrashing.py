"""`thrashing` and `thrashing-fixed`: the lecture's "Thrashing (d=2)" and "Thrashing fixed".

A depth-2 Pacman that values a state by its score alone sees no difference between eating a
dot now and eating one a move later: both leaves of its tree score +10 - 2 moves. Between two
dots it then never commits. On the `thrashing` layout Pacman starts at A, with a dot F to its
right and a dot G below its left neighbour B:

```
%%%%%%%%%%%%%%%
%  P. %       %      B, A (= P) and F on the top row
% .%% % %%%%% %      G below B
%     .    .  %
%%%%%%% %%%%% %
%G            %      the ghost starts far away
%%%%%%%%%%%%%%%
```

At A, "West then eat G" ties with "eat F now", and West comes first among equals: Pacman steps
to B. At B, "East then eat F" ties with "eat G now", and East comes first: back to A. It goes
back and forth beside two dots until the ghost comes, then runs, and often dies. Stop is left
out of its moves (`allow_stop=False`), so the dithering shows as motion; with Stop allowed,
"wait, then eat" ties with "eat now" in the same way and it stands still beside the dot.

The fix changes only the evaluation: `food` (score, minus 1.5 per step to the nearest dot,
minus 10 per dot left) makes eating now better than eating later, because after eating now the
second move already heads for the next dot. That Pacman eats, and wins.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from pacman.demos.demo import (
    Demo,
    Finding,
    Matchup,
    Results,
    Summary,
    game_states,
    reversals,
    summarize,
)
from pacman.record import GameRecord
from pacman.specs import AgentSpec

LAYOUT = "thrashing"
GHOSTS = (AgentSpec.of("RandomGhost"),)
SCORE_ONLY = Matchup(
    "score only", AgentSpec.of("AlphaBetaAgent", {"depth": 2, "evaluation": "score",
                                           "allow_stop": False}), GHOSTS, LAYOUT)
FIXED = Matchup(
    "food evaluation", AgentSpec.of("AlphaBetaAgent", {"depth": 2, "evaluation": "food",
                                                "allow_stop": False}), GHOSTS, LAYOUT)

#: Thrashing shows when, in at least this share of the games, ...
THRASH_MIN_SHARE = 0.9
#: ... Pacman made at least this many moves with a dot one step away that it did not eat.
THRASH_MIN_DITHER = 10
#: Fixed: at most this many such moves per game on average, and at least this share of wins.
FIXED_MAX_DITHER = 1.0
FIXED_MIN_WIN_RATE = 0.8

def dithering_moves(matchup: Matchup, record: GameRecord) -> int:
    """Pacman's moves made with a dot one step away that did not eat a dot."""
    states = game_states(matchup, record)
    count = 0
    for turn, (before, after) in enumerate(pairwise(states)):
        pacman = turn % before.num_agents == 0
        if pacman and before.nearest_food_distance() == 1 and after.food_count == before.food_count:
            count += 1
    return count


def _behaviour(matchup: Matchup, records: Sequence[GameRecord]) -> tuple[list[int], float]:
    """Dithering moves of each game, and the share of Pacman's moves that were reversals."""
    dither = [dithering_moves(matchup, r) for r in records]
    moves = sum(r.pacman_moves for r in records)
    turned = sum(reversals(matchup, r) for r in records)
    return dither, (turned / moves if moves else 0.0)


def _numbers(label: str, matchup: Matchup, summary: Summary, dither: Sequence[int],
             turned: float) -> str:
    mean = sum(dither) / len(dither)
    return (f"{label} won {summary.wins_text()} within the {matchup.max_moves}-move cap "
            f"(95% interval {summary.interval_text()}; outcomes {summary.outcomes_text()}), "
            f"mean score {summary.mean_score:.1f} in {summary.mean_moves:.1f} moves. Per game "
            f"it made {mean:.1f} moves beside a dot without eating it (fewest {min(dither)}, "
            f"most {max(dither)}), and {turned:.0%} of its moves undid the one before")


def judge_thrashing(results: Results) -> Finding:
    """The score-only Pacman dithers beside the dots in (nearly) every game."""
    records = results.get(SCORE_ONLY.label, ())
    if not records:
        return Finding(False, "no games played")
    summary = summarize(records)
    dither, turned = _behaviour(SCORE_ONLY, records)
    dithered = sum(count >= THRASH_MIN_DITHER for count in dither)
    holds = dithered >= THRASH_MIN_SHARE * len(records)
    text = _numbers("The score-only Pacman (depth 2)", SCORE_ONLY, summary, dither, turned) + ". "
    if holds:
        text += (f"In {dithered}/{len(records)} games it stepped back and forth beside the "
                 f"dots for {THRASH_MIN_DITHER} moves or more: eating now and eating a move "
                 "later score the same within its horizon, so it never commits.")
    else:
        text += (f"It dithered {THRASH_MIN_DITHER} moves or more in only {dithered}/"
                 f"{len(records)} games; the claim needs {THRASH_MIN_SHARE:.0%} of them.")
    return Finding(holds, text)


def judge_fixed(results: Results) -> Finding:
    """With the `food` evaluation Pacman eats what is beside it, and wins."""
    records = results.get(FIXED.label, ())
    if not records:
        return Finding(False, "no games played")
    summary = summarize(records)
    dither, turned = _behaviour(FIXED, records)
    holds = (sum(dither) <= FIXED_MAX_DITHER * len(dither)
             and summary.wins >= FIXED_MIN_WIN_RATE * summary.games)
    text = _numbers("The Pacman with the food evaluation (depth 2)", FIXED, summary, dither,
                    turned) + ". "
    if holds:
        text += ("Rewarding the dots eaten and the closeness of the next one makes eating now "
                 "strictly better: it commits, eats, and wins (a loss is the ghost catching it: "
                 "this evaluation ignores ghosts beyond its two-move horizon).")
    else:
        text += (f"The claim needs at most {FIXED_MAX_DITHER:.0f} such move per game and at "
                 f"least {FIXED_MIN_WIN_RATE:.0%} of the games won.")
    return Finding(holds, text)


DEMOS: tuple[Demo, ...] = (
    Demo(
        name="thrashing",
        title="Thrashing (d=2)",
        summary="a depth-2 Pacman scoring states by the score alone steps back and forth "
                "beside two dots instead of eating them",
        matchups=(SCORE_ONLY,),
        judge=judge_thrashing,
        games=30,
    ),
    Demo(
        name="thrashing-fixed",
        title="Thrashing fixed",
        summary="the same Pacman and position with an evaluation that rewards food eaten and "
                "closeness to food: it eats and wins",
        matchups=(FIXED,),
        judge=judge_fixed,
        games=30,
    ),
)
