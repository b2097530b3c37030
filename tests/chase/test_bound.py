"""`pacman bound`: the best chance any Pacman has to win a layout, which the strongest-Pacman
table (docs/results.md) gives beside its win rates."""

from __future__ import annotations

from fractions import Fraction

import pytest

from pacman import load_layout
from pacman.chase.bound import BoundError, exact_win_chance
from pacman.cli import main


def bound(capsys: pytest.CaptureFixture[str], *args: str) -> list[str]:
    assert main(["bound", *args]) == 0
    return capsys.readouterr().out.splitlines()


def test_trapped_classic_is_won_one_time_in_ten_exactly(capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    # Pacman must pass the ghost in the one gap down to the food: he wins only if that ghost
    # steps down at its first move, which a directional ghost does with probability 0.2 x 1/2
    # (a random move, one of its two), and then he can always win
    lines = bound(capsys, "trappedClassic")
    assert lines[0] == ("trappedClassic, 2 DirectionalGhosts: the best chance of a win is "
                        "0.1 (1/10)")
    assert lines[1] == ("  exact: every game ends within 9 Pacman moves whatever anyone "
                        "plays, and all 110 positions were valued in exact fractions, so no "
                        "agent wins more often in a game of any length")


def test_the_chance_is_a_fraction_and_random_ghosts_give_another() -> None:
    layout = load_layout("trappedClassic")
    directional = exact_win_chance(layout)
    assert directional is not None and directional.fraction == Fraction(1, 10)
    random = exact_win_chance(layout, ghost="RandomGhost")
    # a random ghost in the gap steps down with probability 1/2 (one of its two moves)
    assert random is not None and random.fraction == Fraction(1, 2)


def test_a_cap_shorter_than_the_longest_game_is_counted_over_the_cap() -> None:
    layout = load_layout("trappedClassic")
    # 9 moves are the longest game: with a cap of 8 the fractions no longer hold for any
    # length, and the chance is that of a win within 8 moves (Pacman needs more than 5)
    capped = exact_win_chance(layout, max_moves=8)
    assert capped is not None and capped.fraction is None and capped.converged is None
    assert capped.chance == pytest.approx(0.1, abs=1e-15)
    assert exact_win_chance(layout, max_moves=5).chance == 0.0  # type: ignore[union-attr]


def test_a_layout_without_ghosts_is_won_for_sure_once_there_are_moves_enough() -> None:
    layout = load_layout("trappedClassic")
    # the 4 dots take 8 moves to eat; with Stop a position can come back, so the chance is
    # counted over the cap, and every position's value is settled after 10 moves
    chances = [exact_win_chance(layout, 0, max_moves=moves) for moves in range(1, 11)]
    assert [found.chance for found in chances if found] == [0.0] * 7 + [1.0] * 3
    alone = exact_win_chance(layout, 0)
    assert alone is not None and alone.chance == 1.0 and alone.converged == 10


def test_minimax_classic_with_two_ghosts_is_won_at_most_96_7_percent(
        capsys: pytest.CaptureFixture[str]) -> None:
    lines = bound(capsys, "minimaxClassic", "-k", "2")
    assert lines[0] == ("minimaxClassic, 2 DirectionalGhosts: the best chance of a win is "
                        "0.9668259438")
    assert "all 54,487 positions valued; the chance stops changing after 126 Pacman moves" \
        in lines[1]


def test_the_value_iteration_agrees_with_the_fractions_where_both_apply() -> None:
    from pacman.agents.ghosts import DirectionalGhost, RandomGhost
    from pacman.chase.bound import _exact, _Graph, _iterated
    from pacman.state import GameState

    start = GameState.initial(load_layout("trappedClassic"))
    for kind in (DirectionalGhost, RandomGhost):
        graph = _Graph(start, [kind(1), kind(2)], 10**6)
        order = graph.order()
        assert order is not None  # every game ends
        fraction, longest = _exact(graph, order)
        chance, converged = _iterated(graph, start.num_agents, 3000)
        assert converged is not None and converged <= longest
        assert chance == pytest.approx(float(fraction), abs=1e-14)


def test_too_many_positions_is_said_and_not_guessed(capsys: pytest.CaptureFixture[str]) -> None:
    assert exact_win_chance(load_layout("mediumClassic"), limit=1000) is None
    lines = bound(capsys, "mediumClassic", "--positions", "1000")
    # without the capsules Pacman could run from the two ghosts for the 97 moves a win takes
    # all but certainly: the chase bounds nothing here, and says so
    assert lines[0] == ("mediumClassic, 2 DirectionalGhosts: the best chance of a win is not "
                        "known; the chase alone gives 0.99999995")
    assert lines[1].startswith("  not a bound: the layout has capsules")
    assert lines[1].endswith("more than 1,000 positions, too many to count exactly")


def test_the_chase_bounds_a_layout_without_capsules(capsys: pytest.CaptureFixture[str]) -> None:
    lines = bound(capsys, "testClassic", "--positions", "100")
    assert lines[0].startswith("testClassic, 1 DirectionalGhost: the best chance of a win is "
                               "at most ")
    assert lines[1].startswith("  an upper bound: a win takes at least 8 Pacman moves")


def test_bad_requests_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(BoundError, match="no move probabilities for 'Hunter'"):
        exact_win_chance(load_layout("trappedClassic"), ghost="Hunter")
    for args in (["nowhere"], ["trappedClassic", "-g", "Hunter"],
                 ["trappedClassic", "--max-moves", "0"], ["trappedClassic", "-k", "-1"]):
        try:
            code = main(["bound", *args])
        except SystemExit as stop:  # argparse's own refusals
            code = stop.code
        assert code == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("pacman: error: ")


def test_the_strongest_agent_reaches_the_bound_on_trapped_classic() -> None:
    """The anytime expectimax of the strongest-Pacman table plays trappedClassic perfectly for
    winning: it wins exactly the games in which the ghost in the gap (agent 1) steps down at
    its first move, the only games any agent can win (at 3,700 nodes a move, its 40 ms budget)."""
    from pacman import run_game
    from pacman.agents.ghosts import DirectionalGhost
    from pacman.agents.registry import make_agent

    layout = load_layout("trappedClassic")
    won, stepped_down = [], []
    for seed in range(30):
        pacman = make_agent("iterative-expectimax", "pacman", {
            "time": 0, "nodes": 3700, "ghost_model": "directional", "evaluation": "learned"})
        record = run_game(layout, pacman, [DirectionalGhost(1), DirectionalGhost(2)], seed=seed)
        if record.outcome.value == "win":
            won.append(seed)
        if record.actions[1] == "South":
            stepped_down.append(seed)
    assert won == stepped_down
    assert 0 < len(won) < 30  # both kinds of game happen: the test can tell them apart
