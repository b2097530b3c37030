"""`smart-ghosts`: the lecture's "Smart ghosts (coordination)".

Two ghosts that plan together (`TeamGhost`: one search over both ghosts' joint moves, valuing
how few cells Pacman can still reach first) close in from both ends of a corridor and trap
Pacman. Two ghosts that each hunt for themselves (`AdversarialGhost`, the same depth) run down
the same corridor behind Pacman, and a lone hunter can be dodged around a loop forever.

The layout, `smartGhosts`, is three long corridors joined at both ends and by two links in the
middle: six loops, and no dead end (but the ghosts' start) where one ghost alone could corner
Pacman.
"""

from __future__ import annotations

from collections.abc import Sequence

from pacman.demos.demo import Demo, Finding, Matchup, Results, Summary, game_states, summarize
from pacman.record import GameRecord
from pacman.specs import AgentSpec

LAYOUT = "smartGhosts"
#: Alpha-beta to exactly 3 plies (no time budget: the same game for the same seed).
PACMAN = AgentSpec.of("IterativeAlphaBetaAgent",
               {"depth": 3, "time": 0, "evaluation": "better", "tie_break": "random"})
TEAM = AgentSpec.of("TeamGhost", {"depth": 2})
INDEPENDENT = AgentSpec.of("AdversarialGhost", {"depth": 2})

TEAM_LABEL = "two team ghosts"
INDEPENDENT_LABEL = "two independent ghosts"
ALONE_LABEL = "one team ghost"

MATCHUPS = (
    Matchup(TEAM_LABEL, PACMAN, (TEAM, TEAM), LAYOUT),
    Matchup(INDEPENDENT_LABEL, PACMAN, (INDEPENDENT, INDEPENDENT), LAYOUT),
    Matchup(ALONE_LABEL, PACMAN, (TEAM,), LAYOUT),
)

#: The claim holds when the team catches Pacman in at least this share of its games ...
TEAM_CATCH_RATE = 2 / 3
#: ... and independent ghosts (and a lone ghost) in at most half the team's rate.
OTHERS_SHARE = 0.5


def catches(summary: Summary) -> int:
    """Games in which Pacman was caught."""
    return summary.outcomes.get("loss", 0)


def describe(summary: Summary) -> str:
    """`caught 9/10 (Pacman won 1/10, mean score -97, 53 moves)`."""
    return (f"caught {catches(summary)}/{summary.games} (Pacman won {summary.wins_text()}, "
            f"mean score {summary.mean_score:.0f}, {summary.mean_moves:.0f} moves)")


def ghost_spread(matchup: Matchup, records: Sequence[GameRecord]) -> float:
    """The mean maze distance between the first two ghosts over every state of the games."""
    distances = [state.maze_distance(*state.ghost_positions[:2])
                 for record in records for state in game_states(matchup, record)]
    return sum(distances) / len(distances) if distances else 0.0


def judge(results: Results) -> Finding:
    """Team ghosts catch Pacman in most games; independent ones and a lone one far less."""
    team, independent, alone = (summarize(results.get(label, ()))
                                for label in (TEAM_LABEL, INDEPENDENT_LABEL, ALONE_LABEL))
    if not (team.games and independent.games and alone.games):
        return Finding(False, "no games played")
    rate = catches(team) / team.games
    holds = (rate >= TEAM_CATCH_RATE
             and catches(independent) / independent.games <= OTHERS_SHARE * rate
             and catches(alone) / alone.games <= OTHERS_SHARE * rate)
    spread = {m.label: ghost_spread(m, results[m.label]) for m in MATCHUPS if len(m.ghosts) > 1}
    text = (f"Two team ghosts {describe(team)}; two independent adversarial ghosts of the same "
            f"depth {describe(independent)}; one team ghost alone {describe(alone)}. "
            f"The team's ghosts kept {spread[TEAM_LABEL]:.1f} cells apart on average, the "
            f"independent ones {spread[INDEPENDENT_LABEL]:.1f}. ")
    if holds:
        text += ("A lone hunter, or two that chase down the same corridor, is dodged around "
                 "the loops; two that plan together cut off both ends.")
    else:
        text += (f"The claim needs the team to catch Pacman in at least {TEAM_CATCH_RATE:.0%} "
                 f"of its games and the others in at most half as many.")
    return Finding(holds, text)


DEMOS: tuple[Demo, ...] = (
    Demo(
        name="smart-ghosts",
        title="Smart ghosts (coordination)",
        summary="two ghosts that search as a team trap Pacman; two that hunt alone do not",
        matchups=MATCHUPS,
        judge=judge,
        games=10,
    ),
)
