"""`horizon`: the horizon effect, and quiescence search as its remedy.

The same depth-2 Pacman (evaluation `food`: score, distance to the nearest dot, dots left)
plays with and without quiescence on the `horizon` layout:

```
%%%%%%%%%%%%%
%    ...    %      a dead end with three dots, reached through one opening
%%%%%% %%%%%%
%G    P     %      Pacman at the foot of the opening, the ghost in the corridor
% %%%%%%%%% %
%.    .    .%      the other dots, along a loop
%%%%%%%%%%%%%
```

Two plies ahead the dots in the dead end look like the best thing to eat, and the ghost is
still some steps away: the plain search goes in. A move later the ghost stands in the opening
and Pacman is caught in the dead end: the danger lay just past the search's horizon. With
`quiescence=2` a leaf where a ghost could strike next is searched on until it is quiet, so the
search sees the ghost close the opening and, most of the time, keeps to the loop (when the ghost
is far enough to make the dots look safe, it still goes in, and is sometimes caught). Both
Pacmen are the anytime
alpha-beta agent with no time limit (`time=0`: exactly 2 plies); the only difference is the
quiescence setting.
"""

from __future__ import annotations

from collections.abc import Sequence

from pacman.demos.demo import Demo, Finding, Matchup, Results, Summary, game_states, summarize
from pacman.record import GameRecord, Outcome
from pacman.specs import AgentSpec, Setting

LAYOUT = "horizon"
GHOSTS = (AgentSpec.of("DirectionalGhost"),)
SETTINGS: dict[str, Setting] = {"depth": 2, "time": 0, "evaluation": "food"}
PACMAN = "IterativeAlphaBetaAgent"
PLAIN = Matchup("depth 2", AgentSpec.of(PACMAN, SETTINGS), GHOSTS, LAYOUT, max_moves=200)
QUIET = Matchup("depth 2 + quiescence", AgentSpec.of(PACMAN, {**SETTINGS, "quiescence": 2}), GHOSTS,
                LAYOUT, max_moves=200)

#: The claim holds when the plain search wins at most this share of its games ...
PLAIN_MAX_WIN_RATE = 0.35
#: ... the quiescent one at least this share ...
QUIET_MIN_WIN_RATE = 0.5
#: ... and the quiescent one at least this many games in 100 more.
MIN_GAIN = 0.25


DEAD_END_ROW = 5  # the y of the dead end's row (rows count from the bottom, from 0)


def caught_in_dead_end(matchup: Matchup, records: Sequence[GameRecord]) -> int:
    """Games lost with Pacman in the dead end."""
    return sum(r.outcome is Outcome.LOSS
               and game_states(matchup, r)[-1].pacman_position[1] == DEAD_END_ROW
               for r in records)


def _numbers(matchup: Matchup, summary: Summary, records: Sequence[GameRecord]) -> str:
    caught = caught_in_dead_end(matchup, records)
    return (f"{matchup.label} won {summary.wins_text()} (95% interval "
            f"{summary.interval_text()}; {summary.outcomes_text()}), caught in the dead end "
            f"{caught} time{'' if caught == 1 else 's'}")


def judge(results: Results) -> Finding:
    """The plain search is caught in the dead end; with quiescence Pacman keeps out of it."""
    plain_games = results.get(PLAIN.label, ())
    quiet_games = results.get(QUIET.label, ())
    if not plain_games or not quiet_games:
        return Finding(False, "no games played")
    plain, quiet = summarize(plain_games), summarize(quiet_games)
    plain_rate, quiet_rate = plain.wins / plain.games, quiet.wins / quiet.games
    holds = (plain_rate <= PLAIN_MAX_WIN_RATE and quiet_rate >= QUIET_MIN_WIN_RATE
             and quiet_rate - plain_rate >= MIN_GAIN)
    text = (f"Searching 2 plies, {_numbers(PLAIN, plain, plain_games)}; with "
            f"quiescence, {_numbers(QUIET, quiet, quiet_games)}. ")
    if holds:
        text += ("Two plies see the dots in the dead end but not the ghost closing its "
                 "opening; searching on while a ghost could strike shows the trap.")
    else:
        text += (f"The claim needs the plain search to win at most {PLAIN_MAX_WIN_RATE:.0%}, "
                 f"the quiescent one at least {QUIET_MIN_WIN_RATE:.0%} and "
                 f"{MIN_GAIN:.0%} more.")
    return Finding(holds, text)


DEMOS: tuple[Demo, ...] = (
    Demo(
        name="horizon",
        title="The horizon effect, and quiescence",
        summary="a depth-2 Pacman walks into a dead end whose danger lies one step past its "
                "horizon; with quiescence it mostly keeps out",
        matchups=(PLAIN, QUIET),
        judge=judge,
        games=20,
    ),
)
