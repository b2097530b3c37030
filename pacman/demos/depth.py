"""`depth`: the lecture's "Limited depth (2)" and "Limited depth (10)".

The same Pacman, valuing a state by its score alone, searches 2 plies or 10. On the
`depthLimit` layout it starts at the end of a pocket, and the nearest dot is 6 steps away:

```
%%%%%%%%%%%%
%P  %.   . %      P: Pacman at the closed end of a pocket (3 cells, then down to the maze)
%%% % %%%% %
%.      .  %      the nearest dot is 6 steps from P, the others 8 to 12
% %%%%%% % %
%.   G     %      one random ghost
%%%%%%%%%%%%
```

Within 2 plies no dot can be eaten, every move scores the same, and the tie is broken the
same way each time: Pacman steps out of the corner and back, again and again (it dithers),
until the ghost wanders into the pocket and catches it there. Within 10 plies the dots are in
sight: Pacman walks out, eats them one after the other and wins. Stop is left out of both
Pacmen's moves (`allow_stop=False`), so dithering shows as motion; the only difference between
the two matchups is the depth. Both are the anytime alpha-beta agent without a time limit
(`IterativeAlphaBetaAgent time=0`), which searches exactly `depth` plies.
"""

from __future__ import annotations

from collections.abc import Sequence

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
from pacman.specs import AgentSpec, Setting

LAYOUT = "depthLimit"
GHOSTS = (AgentSpec.of("RandomGhost"),)
#: `time=0`: no time limit, each move searches exactly `depth` plies (the value is plain
#: alpha-beta's); the transposition table and move ordering make 10 plies quick.
SETTINGS: dict[str, Setting] = {"time": 0, "evaluation": "score", "allow_stop": False}
PACMAN = "IterativeAlphaBetaAgent"
SHALLOW = Matchup("depth 2", AgentSpec.of(PACMAN, {"depth": 2, **SETTINGS}), GHOSTS, LAYOUT)
DEEP = Matchup("depth 10", AgentSpec.of(PACMAN, {"depth": 10, **SETTINGS}), GHOSTS, LAYOUT)

#: The claim holds when depth 2 wins at most this share of its games ...
SHALLOW_MAX_WIN_RATE = 0.1
#: ... and depth 10 at least this share.
DEEP_MIN_WIN_RATE = 0.8


def dots_eaten(matchup: Matchup, record: GameRecord) -> int:
    """How many dots Pacman ate in the game."""
    states = game_states(matchup, record)
    return states[0].food_count - states[-1].food_count


def _numbers(matchup: Matchup, summary: Summary, records: Sequence[GameRecord]) -> str:
    eaten = sum(dots_eaten(matchup, r) for r in records) / len(records)
    moves = sum(r.pacman_moves for r in records)
    turned = sum(reversals(matchup, r) for r in records) / moves if moves else 0.0
    return (f"{matchup.label} won {summary.wins_text()} (95% interval "
            f"{summary.interval_text()}; {summary.outcomes_text()}), mean score "
            f"{summary.mean_score:.1f} in {summary.mean_moves:.1f} moves, {eaten:.1f} of the "
            f"layout's dots eaten per game, {turned:.0%} of its moves undoing the one before")


def judge(results: Results) -> Finding:
    """Depth 2 rarely wins (it dithers, then is caught); depth 10 nearly always wins."""
    shallow_games = results.get(SHALLOW.label, ())
    deep_games = results.get(DEEP.label, ())
    if not shallow_games or not deep_games:
        return Finding(False, "no games played")
    shallow, deep = summarize(shallow_games), summarize(deep_games)
    holds = (shallow.wins <= SHALLOW_MAX_WIN_RATE * shallow.games
             and deep.wins >= DEEP_MIN_WIN_RATE * deep.games)
    text = (f"Searching {_numbers(SHALLOW, shallow, shallow_games)}; searching "
            f"{_numbers(DEEP, deep, deep_games)}. ")
    if holds:
        text += ("With no dot within 2 plies every move looks the same, and Pacman dithers "
                 "in its corner until the ghost comes; 10 plies see the dots, and it goes and "
                 "eats them.")
    else:
        text += (f"The claim needs depth 2 to win at most {SHALLOW_MAX_WIN_RATE:.0%} of its "
                 f"games and depth 10 at least {DEEP_MIN_WIN_RATE:.0%}.")
    return Finding(holds, text)


DEMOS: tuple[Demo, ...] = (
    Demo(
        name="depth",
        title="Limited depth (2) vs (10)",
        summary="the same score-only Pacman dithers in its corner and dies searching 2 plies, "
                "and wins searching 10",
        matchups=(SHALLOW, DEEP),
        judge=judge,
        games=20,
    ),
)
