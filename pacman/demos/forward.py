"""`forward-pruning`: forward pruning, and the detour it never searches.

The same depth-3 Pacman (evaluation `food`) searches every move, or only the best one of each
node by a one-step look (`forward=1`), on the `detour` layout:

```
%%%%%%%%%%%%%
% G.P       %      the top corridor: a dot beside the ghost, a dead end to the east
%%%%%% %%%%%%
%.          %      the way out: down through the gap, then the loop with the other dots
% %%%%%%%%% %
% .    .    %
%%%%%%%%%%%%%
```

The full search steps east to the gap, turns down through it, eats the dots along the loop and
comes back for the last one: it wins. Forward pruning keeps only the best-looking move of each
node by a one-step look, for Pacman and for the ghost alike; turning down through the gap looks
no better one step ahead than going on, so the line through it is cut, and Pacman runs on east
into the corridor's dead end, where the ghost catches it. Both are
the anytime alpha-beta agent with no time limit (`time=0`: exactly 3 plies); the only
difference is the `forward` setting.
"""

from __future__ import annotations

from collections.abc import Sequence

from pacman.demos.demo import Demo, Finding, Matchup, Results, Summary, summarize
from pacman.record import GameRecord
from pacman.specs import AgentSpec, Setting

LAYOUT = "detour"
GHOSTS = (AgentSpec.of("DirectionalGhost"),)
SETTINGS: dict[str, Setting] = {"depth": 3, "time": 0, "evaluation": "food"}
PACMAN = "IterativeAlphaBetaAgent"
FULL = Matchup("full search", AgentSpec.of(PACMAN, SETTINGS), GHOSTS, LAYOUT, max_moves=200)
PRUNED = Matchup("forward pruning", AgentSpec.of(PACMAN, {**SETTINGS, "forward": 1}), GHOSTS,
                 LAYOUT, max_moves=200)

#: The claim holds when the full search wins at least this share of its games ...
FULL_MIN_WIN_RATE = 0.7
#: ... and the pruned one at most this share.
PRUNED_MAX_WIN_RATE = 0.35


def _numbers(matchup: Matchup, summary: Summary, records: Sequence[GameRecord]) -> str:
    moves = sum(r.pacman_moves for r in records) / len(records)
    return (f"{matchup.label} won {summary.wins_text()} (95% interval "
            f"{summary.interval_text()}; {summary.outcomes_text()}), {moves:.1f} moves a game")


def judge(results: Results) -> Finding:
    """The full search goes down through the gap and wins; the pruned one runs into the dead
    end and is caught."""
    full_games = results.get(FULL.label, ())
    pruned_games = results.get(PRUNED.label, ())
    if not full_games or not pruned_games:
        return Finding(False, "no games played")
    full, pruned = summarize(full_games), summarize(pruned_games)
    holds = (full.wins >= FULL_MIN_WIN_RATE * full.games
             and pruned.wins <= PRUNED_MAX_WIN_RATE * pruned.games)
    text = (f"The {_numbers(FULL, full, full_games)}; "
            f"{_numbers(PRUNED, pruned, pruned_games)}. ")
    if holds:
        text += ("Keeping only the move that looks best one step ahead, the pruned search cuts "
                 "the line down through the gap and runs into the corridor's dead end; the "
                 "full search takes the detour.")
    else:
        text += (f"The claim needs the full search to win at least {FULL_MIN_WIN_RATE:.0%} "
                 f"and the pruned one at most {PRUNED_MAX_WIN_RATE:.0%}.")
    return Finding(holds, text)


DEMOS: tuple[Demo, ...] = (
    Demo(
        name="forward-pruning",
        title="Forward pruning misses the detour",
        summary="a depth-3 Pacman that searches only the best-looking move of each node runs "
                "into a dead end; the full search takes the detour and wins",
        matchups=(FULL, PRUNED),
        judge=judge,
        games=20,
    ),
)
