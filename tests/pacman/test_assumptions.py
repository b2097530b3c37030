"""The headline experiment: `pacman assumptions` output, stored rows, resume, and the pattern."""

from __future__ import annotations

from pathlib import Path

import pytest

from pacman import load_layout
from pacman.cli import main
from pacman.experiments import headline as experiments
from pacman.experiments.headline import Cell, pattern_failures
from pacman.experiments.store import open_results


def cell(row: str, column: str, wins: int, games: int, score: float,
         won: float | None) -> Cell:
    return Cell(row, column, games, wins, 0.0, 1.0, score, None, won, 10.0, {})


def lecture_like() -> list[Cell]:
    return [cell("Minimax Pacman", "Adversarial ghost", 100, 100, 496, 496),
            cell("Minimax Pacman", "Random ghost", 95, 100, 470, 499),
            cell("Expectimax Pacman", "Adversarial ghost", 30, 100, -200, 510),
            cell("Expectimax Pacman", "Random ghost", 92, 100, 430, 505)]


def test_the_pattern_holds_for_lecture_like_numbers() -> None:
    assert pattern_failures(lecture_like()) == []


@pytest.mark.parametrize(("index", "replacement", "message"), [
    (0, cell("Minimax Pacman", "Adversarial ghost", 89, 100, 400, 496), "below 90%"),
    (1, cell("Minimax Pacman", "Random ghost", 80, 100, 400, 499), "below 90%"),
    (2, cell("Expectimax Pacman", "Adversarial ghost", 41, 100, -10, 500), "above 40%"),
    (2, cell("Expectimax Pacman", "Adversarial ghost", 40, 100, 12, 500), "not negative"),
    (3, cell("Expectimax Pacman", "Random ghost", 89, 100, 400, 505), "below 90%"),
    (3, cell("Expectimax Pacman", "Random ghost", 95, 100, 480, 498), "below Minimax's"),
])
def test_each_broken_condition_is_named(index: int, replacement: Cell, message: str) -> None:
    cells = lecture_like()
    cells[index] = replacement
    failures = pattern_failures(cells)
    assert len(failures) == 1 and message in failures[0]


def test_the_layout_ships_with_one_ghost_and_few_food() -> None:
    layout = load_layout(experiments.LAYOUT)
    assert len(layout.ghost_starts) == 1
    assert len(layout.food) == 2
    assert not layout.capsules


def test_command_prints_the_table_stores_the_games_and_resumes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "assumptions.db"
    assert main(["assumptions", "--games", "2", "-j", "2", "-o", str(out)]) == 0
    text = capsys.readouterr().out
    assert "Minimax rows are computed with alpha-beta" in text
    assert "| | Adversarial ghost | Random ghost |" in text
    for row in ("Minimax Pacman", "Expectimax Pacman"):
        assert text.count(f"| {row} | Won ") == 2  # ours and the lecture's
    assert "| Expectimax Pacman | Won 1/5, Avg. Score: -303 | Won 5/5, Avg. Score: 503 |" in text
    assert "8 games played now, 0 were already" in text
    with open_results(out) as store:
        games = store.games()
    assert len(games) == 8
    assert {(g.config.pacman.name, g.config.ghost.name) for g in games} == {
        (p, g) for p in ("AlphaBetaAgent", "ExpectimaxAgent")
        for g in ("AdversarialGhost", "RandomGhost")}
    assert all(g.config.layout == "assumptions" and g.config.num_ghosts == 1 for g in games)
    assert all(dict(g.config.pacman.settings)["depth"] == 4 for g in games)

    assert main(["assumptions", "--games", "2", "-j", "1", "-o", str(out)]) == 0
    again = capsys.readouterr().out
    assert "0 games played now, 8 were already" in again
    assert again.split("\n\n")[:4] == text.split("\n\n")[:4]  # the same table


@pytest.mark.slow
def test_the_lecture_pattern_holds_at_100_games_per_cell(tmp_path: Path) -> None:
    cells, result = experiments.run(100, store=tmp_path / "full.db")
    assert result.planned == 400
    assert pattern_failures(cells) == []
