"""`pacman tournament`: every Pacman agent x every ghost agent x every board, paired seeds,
ranked by Bradley-Terry ratings (`pacman.experiments.ratings`)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, TypedDict

from pacman.cli.batch import resumable
from pacman.cli.compare import (
    add_board_options,
    batch_errors,
    board_label,
    one_spec,
    paired_configs,
    play,
    stored_games,
)
from pacman.errors import UsageError

if TYPE_CHECKING:
    from pacman.cli.options import Commands
    from pacman.experiments.config import StoredGame
    from pacman.experiments.grid import ResolvedConfig
    from pacman.experiments.ratings import MatchRecord, Rating

DEFAULT_RESULTS = "results/tournament.db"
DEFAULT_GAMES = 20
DEFAULT_RESAMPLES = 1000
PRIOR = 0.5  # wins added to each side of every pair of agents that met (see ratings)


class Entry(TypedDict):
    """One agent's line of a ratings table (an entry of the JSON's `ratings`)."""

    agent: str
    rating: float
    low: float
    high: float
    pairs_won: float
    pairs: int
    games: int
    pacman_wins: int
    pacman_losses: int
    average_score: float | None


def add_parser(commands: Commands) -> None:
    """The `tournament` subcommand."""
    tournament = commands.add_parser(
        "tournament", help="rank Pacman and ghost agents by Bradley-Terry ratings",
        description="Play every Pacman agent against every ghost agent on every board with "
                    "paired seeds (game i of a board meets the same randomness whoever plays "
                    "it), store the games (run the same command again to resume), and rank "
                    "the agents by Bradley-Terry ratings on the Elo scale, with 95% bootstrap "
                    "intervals: two Pacman agents meet on the same board, seed and ghost "
                    "agent, the higher score winning; two ghost agents meet on the same "
                    "board, seed and Pacman agent, the one Pacman scores less against winning.")
    tournament.add_argument("-p", "--pacman", action="append", metavar="AGENT[@SETTINGS]",
                            help="Pacman agent; repeat for each entrant")
    tournament.add_argument("-g", "--ghosts", action="append", metavar="AGENT[@SETTINGS]",
                            help="ghost agent; repeat for each entrant (default RandomGhost)")
    add_board_options(tournament, DEFAULT_GAMES, DEFAULT_RESULTS,
                      "games per Pacman x ghost x board cell")
    tournament.add_argument("--bootstrap", type=_resamples, default=DEFAULT_RESAMPLES,
                            metavar="N", help="bootstrap resamples for the intervals (default "
                                              f"{DEFAULT_RESAMPLES}; 0: no intervals)")


def _resamples(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if not 0 <= value <= 100_000:
        raise argparse.ArgumentTypeError(f"expected a whole number from 0 to 100000, got "
                                         f"{text}")
    return value


def run(args: argparse.Namespace) -> int:
    """`pacman tournament`."""
    return resumable(_run, args)


def _run(args: argparse.Namespace) -> int:
    if not args.pacman:
        raise UsageError("no Pacman agent: give -p AGENT (repeat -p for each entrant)")
    pacman_texts = list(args.pacman)
    ghost_texts = list(args.ghosts or ["RandomGhost"])
    if len(pacman_texts) < 2 and len(ghost_texts) < 2:
        raise UsageError("a tournament needs two Pacman agents (-p) or two ghost agents (-g)")
    pacman = [one_spec(text, "pacman", args.agents) for text in pacman_texts]
    ghosts = [one_spec(text, "ghost", args.agents) for text in ghost_texts]
    with batch_errors():
        # cells[i][j]: Pacman i against ghost j on every board
        cells = [[paired_configs(p, g, args) for g in ghosts] for p in pacman]
        _check_distinct([cells[i][0] for i in range(len(pacman))], pacman_texts, "Pacman")
        _check_distinct(cells[0], ghost_texts, "ghost")
        every = [resolved for row in cells for cell in row for resolved in cell]
        play(every, args.games, args)
        found = stored_games(every, args.games, args)
    from pacman.experiments.ratings import bootstrap_ratings

    games = [[[g for r in cell for g in found[r.config.key()]] for cell in row]
             for row in cells]
    tables = {}
    for side, names, records in (
            ("pacman", pacman_texts, _records(games, ghost_side=False)),
            ("ghosts", ghost_texts, _records(games, ghost_side=True))):
        if len(names) < 2:
            continue
        if not records:
            raise UsageError(f"no complete games to rate the {side} agents")
        ratings = bootstrap_ratings(names, records, resamples=args.bootstrap, prior=PRIOR)
        tables[side] = [_entry(rating, _own_games(games, names.index(rating.name), side))
                        for rating in ratings]
    boards = [_board(r) for r in cells[0][0]]
    if args.format == "json":
        print(json.dumps({"pacman": pacman_texts, "ghosts": ghost_texts, "boards": boards,
                          "games_per_cell": args.games, "seed": args.seed,
                          "bootstrap": args.bootstrap, "ratings": tables}, indent=2))
        return 0
    print(_markdown(args, pacman_texts, ghost_texts, boards, tables))
    return 0


def _board(resolved: ResolvedConfig) -> str:
    """`smallClassic, 2 ghosts`: a board (its ghost agent left out)."""
    count = resolved.config.num_ghosts
    return board_label(resolved).split(",")[0] + f", {count} ghost{'s' if count != 1 else ''}"


def _check_distinct(configs: Sequence[Sequence[ResolvedConfig]], texts: Sequence[str],
                    role: str) -> None:
    seen: dict[str, str] = {}
    for cell, text in zip(configs, texts):
        key = cell[0].config.key()
        if key in seen:
            raise UsageError(f"{role} agents {seen[key]!r} and {text!r} are the same agent "
                             "with the same settings")
        seen[key] = text


def _records(games: list[list[list[StoredGame]]], ghost_side: bool) -> list[MatchRecord]:
    """One `MatchRecord` per (board, game index): the pairwise results of the Pacman agents
    (meeting on the same ghost agent) or of the ghost agents (on the same Pacman agent)."""
    from pacman.experiments.ratings import MatchRecord, pairwise_wins

    entrants = len(games[0]) if ghost_side else len(games)
    # scores[(board, index, opponent)][entrant] over complete games
    scores: dict[tuple[str, int, int], dict[int, float]] = {}
    for i, row in enumerate(games):
        for j, cell in enumerate(row):
            entrant, opponent = (j, i) if ghost_side else (i, j)
            for game in cell:
                if game.complete and game.score is not None:
                    key = (game.config.seed_key(), game.index, opponent)
                    scores.setdefault(key, {})[entrant] = (-game.score if ghost_side
                                                           else float(game.score))
    records: dict[tuple[str, int], MatchRecord] = {}
    for (board, index, _), meeting in scores.items():
        wins = pairwise_wins(meeting, entrants)
        if (board, index) in records:
            wins = wins + records[(board, index)].wins
        records[(board, index)] = MatchRecord(board, index, wins)
    return [record for record in records.values() if record.wins.sum() > 0]


def _own_games(games: list[list[list[StoredGame]]], entrant: int, side: str
               ) -> list[StoredGame]:
    if side == "pacman":
        return [g for cell in games[entrant] for g in cell]
    return [g for row in games for g in row[entrant]]


def _entry(rating: Rating, own: Sequence[StoredGame]) -> Entry:
    from pacman.record import Outcome

    won = Outcome.WIN
    scores = [g.score for g in own if g.complete and g.score is not None]
    return {"agent": rating.name, "rating": rating.rating, "low": rating.low,
            "high": rating.high, "pairs_won": rating.pairs_won, "pairs": rating.pairs,
            "games": len(own),
            "pacman_wins": sum(g.outcome == won for g in own),
            "pacman_losses": sum(g.outcome == Outcome.LOSS for g in own),
            "average_score": sum(scores) / len(scores) if scores else None}


def _markdown(args: argparse.Namespace, pacman: Sequence[str], ghosts: Sequence[str],
              boards: Sequence[str], tables: dict[str, list[Entry]]) -> str:
    lines = [f"{len(pacman)} Pacman x {len(ghosts)} ghost agents x {len(boards)} board"
             f"{'s' if len(boards) != 1 else ''} ({'; '.join(boards)}), {args.games} games "
             f"per cell, paired seeds (batch seed {args.seed}), results in {args.out}",
             f"ratings: Bradley-Terry (MM), 1500 = the mean, +400 = 10 times the odds; 95% "
             f"bootstrap intervals over {args.bootstrap} resamples of the game indices"]
    for side, title, rate in (("pacman", "Pacman agents", "win rate"),
                              ("ghosts", "Ghost agents", "win rate (Pacman lost)")):
        if side not in tables:
            continue
        lines += ["", f"## {title}", "",
                  f"| rank | agent | rating | 95% interval | pairs won | {rate} | average "
                  "score | games |", "|---:|---|---:|---|---:|---:|---:|---:|"]
        for rank, entry in enumerate(tables[side], 1):
            wins = entry["pacman_wins"] if side == "pacman" else entry["pacman_losses"]
            interval = (f"[{entry['low']:.0f}, {entry['high']:.0f}]" if args.bootstrap
                        else "-")
            score = entry["average_score"]
            lines.append(f"| {rank} | {entry['agent']} | {entry['rating']:.0f} | {interval} | "
                         f"{entry['pairs_won']:g} of {entry['pairs']} | "
                         f"{wins / entry['games']:.2f} | "
                         f"{'-' if score is None else f'{score:.1f}'} | {entry['games']} |")
    return "\n".join(lines)
