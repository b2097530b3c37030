"""`informed`: the lecture's "Informed probabilities".

The ghost (`NoisyHunterGhost`) runs its depth-2 hunting search (the `AdversarialGhost`'s) 80%
of the time and moves uniformly at random otherwise. Three Pacmans of the same depth and
evaluation face it: minimax (every ghost move is the worst one), uniform expectimax (every
ghost move is equally likely), and informed expectimax, whose chance nodes use the true model:
it simulates the ghost's search at every ghost node and gives 0.8 to the moves it would pick
and 0.2 to all of them. Knowing the opponent pays, and it costs a whole ghost search per
chance node.

The layout, `informedHunt`, was picked among random small mazes for a clear difference: the
two uninformed Pacmans follow the top corridor west and go down into the long dead end at the
bottom left with the hunter on their heels, where it catches them; the informed one circles the
small loop beside it while the hunter is close, and comes back for that food later.
"""

from __future__ import annotations

from collections.abc import Sequence

from pacman.demos.demo import Demo, Finding, Matchup, Results, Summary, game_states, summarize
from pacman.record import GameRecord, Outcome
from pacman.specs import AgentSpec, Setting

LAYOUT = "informedHunt"
SEARCH: dict[str, Setting] = {"depth": 2, "evaluation": "better"}
GHOST = AgentSpec.of("NoisyHunterGhost", {"depth": 2, "prob_search": 0.8})

MINIMAX_LABEL = "minimax"
UNIFORM_LABEL = "uniform expectimax"
INFORMED_LABEL = "informed expectimax"

PACMEN = (
    (MINIMAX_LABEL, AgentSpec.of("AlphaBetaAgent", SEARCH)),
    (UNIFORM_LABEL, AgentSpec.of("ExpectimaxAgent", SEARCH)),
    (INFORMED_LABEL, AgentSpec.of("InformedExpectimaxAgent",
                           {**SEARCH, "ghost_depth": 2, "prob_search": 0.8})),
)

MATCHUPS = tuple(Matchup(label, pacman, (GHOST,), LAYOUT) for label, pacman in PACMEN)

#: The long dead end at the bottom left of `informedHunt` (its column and its floor).
DEAD_END = frozenset({(1, y) for y in range(1, 5)} | {(x, 1) for x in range(1, 6)})

#: The claim holds when informed expectimax wins at least this share of the games more than
#: each of the others, and has the best mean score.
WIN_RATE_GAP = 0.25


def mean_nodes(records: Sequence[GameRecord]) -> float:
    """Search nodes per Pacman move (the informed agent's include its ghost simulations)."""
    nodes = [n for record in records for n in record.pacman_nodes if n is not None]
    return sum(nodes) / len(nodes) if nodes else 0.0


def caught_in_dead_end(matchup: Matchup, records: Sequence[GameRecord]) -> int:
    """Games lost with Pacman in `DEAD_END`."""
    return sum(game_states(matchup, record)[-1].pacman_position in DEAD_END
               for record in records if record.outcome == Outcome.LOSS)


def describe(summary: Summary, nodes: float) -> str:
    """`won 36/40 [77%, 96%], mean score 446, 49 moves, 96 nodes a move`."""
    return (f"won {summary.wins_text()} {summary.interval_text()}, mean score "
            f"{summary.mean_score:.0f}, {summary.mean_moves:.0f} moves, {nodes:,.0f} nodes a move")


def judge(results: Results) -> Finding:
    """Informed expectimax beats minimax and uniform expectimax in wins and mean score."""
    records = {label: results.get(label, ()) for label, _ in PACMEN}
    summaries = {label: summarize(games) for label, games in records.items()}
    if not all(s.games for s in summaries.values()):
        return Finding(False, "no games played")
    informed = summaries[INFORMED_LABEL]
    others = [summaries[MINIMAX_LABEL], summaries[UNIFORM_LABEL]]
    holds = all(informed.wins / informed.games - other.wins / other.games >= WIN_RATE_GAP
                and informed.mean_score > other.mean_score for other in others)
    parts = [f"{label} {describe(summaries[label], mean_nodes(records[label]))}"
             for label, _ in PACMEN]
    losses = {m.label: (caught_in_dead_end(m, records[m.label]),
                        summaries[m.label].outcomes.get("loss", 0)) for m in MATCHUPS}
    text = ("Against a ghost that hunts 80% of the time: " + "; ".join(parts) + ". Caught in "
            "the dead end at the bottom left: " + ", ".join(
                f"{label} {inside} of {lost} losses" for label, (inside, lost) in losses.items())
            + ". ")
    if holds:
        text += ("Expecting the ghost's real choices beats expecting the worst and expecting "
                 "chance, at the price of simulating the ghost's search at every chance node.")
    else:
        text += (f"The claim needs informed expectimax to win at least {WIN_RATE_GAP:.0%} of "
                 "the games more than each of the others, with the best mean score.")
    return Finding(holds, text)


DEMOS: tuple[Demo, ...] = (
    Demo(
        name="informed",
        title="Informed probabilities",
        summary="expectimax with the ghost's true model (80% search, 20% random) beats "
                "minimax and uniform expectimax",
        matchups=MATCHUPS,
        judge=judge,
        games=10,
    ),
)
