"""Golden transcripts of seeded games, replayed and diffed against files in `golden/`.

A transcript lists every move (agent, action, where it ended, score), the board every few Pacman
moves and at the end, and the outcome. When a rule or an agent changes on purpose, regenerate
the files and review the diff like code:

    PACMAN_UPDATE_GOLDEN=1 pytest tests/pacman/test_golden.py
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from pacman import GameState, load_layout, run_game
from pacman.display.protocol import MoveInfo
from pacman.record import GameRecord

GOLDEN_DIR = Path(__file__).parent / "golden"
UPDATE = os.environ.get("PACMAN_UPDATE_GOLDEN") == "1"


@dataclass(frozen=True)
class Game:
    """One seeded game to pin."""

    name: str
    layout: str
    pacman: str  # "RandomAgent" / "GreedyAgent"
    ghosts: str  # "RandomGhost" / "DirectionalGhost"
    seed: int
    max_moves: int | None = None
    board_every: int = 10


GAMES = (
    # a win, with scared ghosts and one eaten
    Game("smallClassic-greedy-random-9", "smallClassic", "GreedyAgent", "RandomGhost", seed=9,
         board_every=20),
    # capped, with scared ghosts at half speed
    Game("mediumClassic-random-random-5", "mediumClassic", "RandomAgent", "RandomGhost",
         seed=5, max_moves=120, board_every=30),
    # directional ghosts: a loss after eating a scared ghost
    Game("mediumClassic-greedy-directional-15", "mediumClassic", "GreedyAgent",
         "DirectionalGhost", seed=15),
    # the trap: every move drawn
    Game("trappedClassic-greedy-random-8", "trappedClassic", "GreedyAgent", "RandomGhost",
         seed=8, board_every=1),
)


def _agent(name: str) -> Callable[..., Any]:
    from pacman.agents import ghosts, simple

    return getattr(simple, name, None) or getattr(ghosts, name)  # type: ignore[no-any-return]


def _point(p: tuple[float, float]) -> str:
    return "(" + ", ".join(f"{c:g}" for c in p) + ")"


class Transcript:
    """A display that writes the transcript."""

    def __init__(self, board_every: int) -> None:
        self.board_every = board_every
        self.lines: list[str] = []
        self.moves = 0

    def start(self, state: GameState, agents: tuple[str, ...]) -> None:
        self.lines += [f"agents: {' | '.join(agents)}", str(state)]

    def update(self, state: GameState, move: MoveInfo) -> None:
        self.moves += 1
        if move.agent == 0:
            where = _point(state.pacman_position)
            extra = f"score {state.score}"
        else:
            where = _point(state.ghost_positions[move.agent - 1])
            timer = state.scared_timers[move.agent - 1]
            extra = f"scared {timer}" if timer else ""
        self.lines.append(f"{self.moves:4d} {move.agent} {move.action:<5} {where:<10} "
                          f"{extra}".rstrip())
        if move.agent == state.num_agents - 1 and move.pacman_moves % self.board_every == 0:
            self.lines.append(str(state))

    def finish(self, state: GameState, record: GameRecord) -> None:
        self.lines += ["final:", str(state),
                       f"outcome: {record.outcome.value}, score {record.score}, "
                       f"{record.pacman_moves} Pacman moves"]


def transcript(game: Game) -> tuple[str, GameRecord]:
    """Play `game` and return its transcript text (and record)."""
    layout = load_layout(game.layout)
    pacman = _agent(game.pacman)()
    ghosts = [_agent(game.ghosts)(i + 1) for i in range(len(layout.ghost_starts))]
    display = Transcript(game.board_every)
    record = run_game(layout, pacman, ghosts, seed=game.seed, max_moves=game.max_moves,
                      display=display)
    header = [f"# {game.name}: `pacman play -l {game.layout} -p {game.pacman} "
              f"-g {game.ghosts} --seed {game.seed}"
              + (f" --max-moves {game.max_moves}`" if game.max_moves else "`"),
              "# regenerate: PACMAN_UPDATE_GOLDEN=1 pytest tests/pacman/test_golden.py"]
    return "\n".join(header + display.lines) + "\n", record


def update_golden() -> list[Path]:
    """Rewrite every golden file from the current code."""
    GOLDEN_DIR.mkdir(exist_ok=True)
    written = []
    for game in GAMES:
        path = GOLDEN_DIR / f"{game.name}.txt"
        path.write_text(transcript(game)[0])
        written.append(path)
    return written


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_golden_transcript(game: Game) -> None:
    path = GOLDEN_DIR / f"{game.name}.txt"
    text, _ = transcript(game)
    if UPDATE:
        GOLDEN_DIR.mkdir(exist_ok=True)
        path.write_text(text)
    assert path.exists(), f"missing {path}: run with PACMAN_UPDATE_GOLDEN=1 to create it"
    expected = path.read_text()
    if text != expected:
        diff = "".join(difflib.unified_diff(
            expected.splitlines(keepends=True), text.splitlines(keepends=True),
            fromfile=str(path), tofile="this run", n=2))
        pytest.fail(f"the game no longer matches its golden transcript:\n{diff[:6000]}")


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_golden_record_replays_on_game_state(game: Game) -> None:
    """The record's action list alone reproduces the game's score and outcome."""
    _, record = transcript(game)
    layout = load_layout(game.layout)
    state = GameState.initial(layout)
    for index, action in enumerate(record.actions):
        state = state.successor(index % state.num_agents, action)
    assert state.score == record.score
    assert state.is_win() == (record.outcome.value == "win")
    assert state.is_lose() == (record.outcome.value == "loss")


def test_golden_games_cover_the_interesting_events() -> None:
    """Guard the choice of seeds: together the games win, lose, get capped and scare ghosts."""
    texts = {g.name: (GOLDEN_DIR / f"{g.name}.txt").read_text() for g in GAMES}
    outcomes = {t.rsplit("outcome: ", 1)[1].split(",")[0] for t in texts.values()}
    assert {"win", "loss", "capped"} <= outcomes
    together = "".join(texts.values())
    assert "scared" in together
    assert ".5," in together or ".5)" in together
