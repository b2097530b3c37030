"""`utilities`: the lecture's "Multi-agent utilities" on `utilitiesRing`.

Two ghosts search the whole game with max^n (`MaxnGhost`, depth 2), each maximising its own
utility, against the same Pacman (alpha-beta, depth 2, the `better` evaluation). Only the
ghosts' utilities differ between the two matchups:

- `cooperative`: a ghost gains whenever *any* ghost catches Pacman, and until then as
  Pacman's room (the cells it reaches before every ghost) shrinks;
- `competitive`: a ghost gains only when it catches Pacman itself, loses when the other ghost
  does, and until then gains as it gets closer itself.

```
%%%%%%%%%%%%%%%%%
%...............%      the top of the loop
%.%%%%%%.%%%%%%.%
%.%%%%%%.%%%%%%.%
%.......P.......%      Pacman on the crossbar; the middle passage joins it to the top
%.%%%%%%%%%%%%%.%
%.%%%%%%%%%%%%%.%
%.......GG......%      both ghosts start side by side at the bottom
%%%%%%%%%%%%%%%%%
```

The board is loops of corridors: one ghost alone never catches a Pacman that keeps running
around a loop. The cooperative ghosts split up and come round the loop from both sides (their
shared utility rewards shrinking Pacman's room from two sides), and catch Pacman in most
games. The competitive ghosts each want the catch for themselves: closing in from the other
side would hand it to the rival, so they chase along the same shortest path, one behind the
other, and Pacman eats everything.
"""

from __future__ import annotations

from collections.abc import Sequence

from pacman.demos.demo import Demo, Finding, Matchup, Results, Summary, game_states, summarize
from pacman.record import GameRecord, Outcome
from pacman.specs import AgentSpec

LAYOUT = "utilitiesRing"
PACMAN = AgentSpec.of("AlphaBetaAgent", {"depth": 2, "evaluation": "better"})


def _ghosts(utilities: str) -> tuple[AgentSpec, ...]:
    return (AgentSpec.of("MaxnGhost", {"depth": 2, "utilities": utilities}),) * 2


COOPERATIVE = Matchup("cooperative", PACMAN, _ghosts("cooperative"), LAYOUT)
COMPETITIVE = Matchup("competitive", PACMAN, _ghosts("competitive"), LAYOUT)

#: The claim: cooperative ghosts catch Pacman in at least this share of the games ...
MIN_COOPERATIVE_CATCHES = 0.5
#: ... and competitive ghosts in at most this share.
MAX_COMPETITIVE_CATCHES = 0.2


def catches(records: Sequence[GameRecord]) -> int:
    """Games the ghosts won (Pacman caught)."""
    return sum(record.outcome is Outcome.LOSS for record in records)


def mean_catch_moves(records: Sequence[GameRecord]) -> float:
    """Mean Pacman moves before the catch, over the games the ghosts won (0 if none)."""
    caught = [record.pacman_moves for record in records if record.outcome is Outcome.LOSS]
    return sum(caught) / len(caught) if caught else 0.0


def mean_ghost_gap(matchup: Matchup, records: Sequence[GameRecord]) -> float:
    """Mean maze distance between the two ghosts after each whole round (all games)."""
    gaps: list[float] = []
    round_moves = 1 + len(matchup.ghosts)
    for record in records:
        for state in game_states(matchup, record)[round_moves::round_moves]:
            if state.is_terminal():
                break
            first, second = state.ghost_positions[:2]
            gaps.append(state.maze_distance(first, second))
    return sum(gaps) / len(gaps) if gaps else 0.0


def _line(label: str, matchup: Matchup, records: Sequence[GameRecord],
          summary: Summary) -> str:
    from pacman.experiments.table import wilson_interval

    caught = catches(records)
    low, high = wilson_interval(caught, len(records))
    when = (f", after {mean_catch_moves(records):.1f} Pacman moves on average" if caught
            else "")
    return (f"{label} ghosts caught Pacman in {caught}/{len(records)} games "
            f"({caught / len(records):.0%}, 95% interval [{low:.0%}, {high:.0%}]{when}; "
            f"Pacman won {summary.wins_text()}, mean score {summary.mean_score:.1f}; the "
            f"ghosts were {mean_ghost_gap(matchup, records):.1f} cells apart on average)")


def judge(results: Results) -> Finding:
    """Cooperative ghosts catch Pacman in most games, competitive ones in few."""
    together = results.get(COOPERATIVE.label, ())
    apart = results.get(COMPETITIVE.label, ())
    if not together or not apart:
        return Finding(False, "no games played")
    together_rate = catches(together) / len(together)
    apart_rate = catches(apart) / len(apart)
    holds = (together_rate >= MIN_COOPERATIVE_CATCHES
             and apart_rate <= MAX_COMPETITIVE_CATCHES)
    text = (_line("Cooperative", COOPERATIVE, together, summarize(together)) + "; "
            + _line("competitive", COMPETITIVE, apart, summarize(apart)) + ". ")
    if holds:
        text += ("With a shared utility the ghosts split up and close the loop from both "
                 "sides; each competitive ghost wants the catch for itself, so they chase "
                 "along the same path and Pacman outruns them.")
    else:
        text += (f"The claim needs cooperative ghosts to catch Pacman in at least "
                 f"{MIN_COOPERATIVE_CATCHES:.0%} of the games and competitive ones in at most "
                 f"{MAX_COMPETITIVE_CATCHES:.0%}.")
    return Finding(holds, text)


DEMOS: tuple[Demo, ...] = (
    Demo(
        name="utilities",
        title="Multi-agent utilities",
        summary="two max^n ghosts: with a shared utility they trap Pacman in most games; "
                "each for itself, they let it get away",
        matchups=(COOPERATIVE, COMPETITIVE),
        judge=judge,
        games=30,
    ),
)
