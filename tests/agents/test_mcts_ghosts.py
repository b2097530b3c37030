"""MCTS ghosts: counts and budgets by hand (ties drawn by the search's generator), same seed
same game, equal moves chosen alike, a pincer, a scared ghost, values, settings, the registry
and the command line."""

from __future__ import annotations

import math
import random
import subprocess
import sys
from typing import Any

import pytest

from pacman import GameState, Outcome, load_layout, parse_layout, run_game
from pacman.agents.ghosts import DirectionalGhost
from pacman.agents.mcts import MCTSAgent
from pacman.agents.mcts_ghosts import (
    MCTSGhost,
    MCTSGhostSettings,
    ghost_mcts_search,
    team_values,
)
from pacman.agents.pacman_agents import AlphaBetaAgent, score_evaluation
from pacman.agents.registry import agent_class, make_agent
from pacman.cli import main
from pacman.errors import RegistryError, SettingsError
from pacman.rules import EAST, SOUTH, STOP, WEST

# Pacman in the west dead end (Stop or East), one dot next to him, the ghost in the middle of
# the corridor (West or East, and in a corridor it cannot turn back).
CORRIDOR = parse_layout("""
%%%%%%%%%
%P.  1 .%
%%%%%%%%%
""")


class CountingRandom(random.Random):
    """A generator that counts its `random()` draws."""

    draws = 0

    def random(self) -> float:
        """A draw, counted."""
        self.draws += 1
        return super().random()


# --------------------------------------------------------------------------- counts, budgets

def _draws(seed: int, count: int) -> list[float]:
    """The first `count` draws of a generator seeded with `seed`."""
    twin = random.Random(seed)
    return [twin.random() for _ in range(count)]


@pytest.mark.parametrize(("playouts", "nodes", "tree", "draws"), [
    # 1: the root's two untried moves: draw 0 picks one, which is expanded (1 node); Pacman's
    #    one playout move (East, his only one without Stop: still a draw, draw 1) and the
    #    ghost's reply (on along the corridor, its only move: no draw); then it is Pacman's
    #    turn after horizon=1 moves. One root move has the visit: no draw to decide.
    (1, 1 + 3, 2, 2),
    # 2: the other root move, now the only untried one (no draw), the same way (draw 2); the
    #    visits tie (1, 1) and one more draw, draw 3, decides.
    (2, 1 + 3 + 3, 3, 4),
    # 3: both root moves tried; West is worth more to the ghost (it ends 1 step from Pacman,
    #    East 5: q 1 and 0), no draw; at Pacman's node his two untried moves, Stop and East:
    #    draw 3 picks one (1 node), then the ghost's reply: no Pacman move, no draw. West has
    #    the most visits: no draw to decide.
    (3, 1 + 3 + 3 + 2, 4, 4),
])
def test_a_search_counts_every_successor(playouts: int, nodes: int, tree: int,
                                         draws: int) -> None:
    state = GameState.initial(CORRIDOR)
    assert state.legal_actions(0) == (STOP, EAST) and state.legal_actions(1) == (WEST, EAST)
    chosen = set()
    for seed in range(12):
        rng = CountingRandom(seed)
        decision = ghost_mcts_search(state, 1, rng, playouts=playouts, horizon=1)
        assert (decision.nodes_generated, decision.tree_size, decision.playouts) == (
            nodes, tree, playouts)
        assert rng.draws == draws and decision.stopped == "playouts"
        drawn = _draws(seed, draws)
        first = (WEST, EAST)[int(drawn[0] * 2)]  # the untried root move drawn first
        visits = tuple(move.visits for move in decision.root)
        if playouts == 1:
            assert visits == ((1, 0) if first == WEST else (0, 1))
            assert decision.action == first and decision.best_actions == (first,)
        elif playouts == 2:
            assert visits == (1, 1) and decision.best_actions == (WEST, EAST)
            assert decision.action == (WEST, EAST)[int(drawn[3] * 2)]
        else:
            assert visits == (2, 1)
            assert decision.action == WEST and decision.best_actions == (WEST,)
        chosen.add(decision.action)
    # a tie of the root's moves went either way (legal order would always give West)
    assert chosen == ({WEST, EAST} if playouts < 3 else {WEST})


def test_the_values_of_the_hand_count() -> None:
    # Either root move, then East: Pacman eats the dot (+10 - 1 = 9), the ghost's value is -9
    # (distance_weight 0: the score alone); after Stop he has -1 and the ghost +1. Draw 0
    # picks the first root move, draws 1 and 2 are Pacman's playout moves (East), draw 3
    # breaks the root's tie in the third playout (both -9: q = 0.5 and equal exploration),
    # draw 4 picks Pacman's untried move at that node, Stop or East; then one root move has
    # 2 visits: no draw to decide.
    state = GameState.initial(CORRIDOR)
    decision = ghost_mcts_search(state, 1, random.Random(0), playouts=3, horizon=1,
                                 distance_weight=0)
    assert [(move.visits, move.mean) for move in decision.root] == [(2, -9.0), (1, -9.0)]
    assert decision.value == -9.0 and decision.best_actions == (WEST,)
    seen = set()
    for seed in range(12):
        drawn = _draws(seed, 5)
        twice = (WEST, EAST)[int(drawn[3] * 2)]
        mean = (-9 + 1) / 2 if (STOP, EAST)[int(drawn[4] * 2)] == STOP else -9.0
        rng = CountingRandom(seed)
        decision = ghost_mcts_search(state, 1, rng, playouts=3, horizon=1, distance_weight=0)
        assert rng.draws == 5
        assert [(move.visits, move.mean) for move in decision.root] == [
            (2, mean) if move == twice else (1, -9.0) for move in (WEST, EAST)]
        assert (decision.action, decision.value, decision.best_actions) == (
            twice, mean, (twice,))
        seen.add((twice, mean))
    # every combination came up: either move may be tried twice, after Stop or East
    assert seen == {(WEST, -4.0), (WEST, -9.0), (EAST, -4.0), (EAST, -9.0)}


def test_an_infinite_value_leaves_every_move_equal_not_a_crash() -> None:
    # Pacman eating a dot is worth -inf to him (+inf to the ghost), and he eats one after
    # either root move: the ghost's hi and both root means are inf, both normalised means
    # inf/inf = NaN, so neither score is largest: the two moves are equal (with no best one,
    # a search that kept only a largest score would have nothing to choose from)
    state = GameState.initial(CORRIDOR)
    chosen = set()
    for seed in range(12):
        decision = ghost_mcts_search(state, 1, random.Random(seed), playouts=20, horizon=2,
                                     evaluate=lambda s: -math.inf if s.food_count < 2 else 0.0)
        assert sum(move.visits for move in decision.root) == 20
        chosen.add(decision.action)
    assert chosen == {WEST, EAST}


def test_the_node_and_time_budgets_are_looked_at_between_playouts() -> None:
    state = GameState.initial(CORRIDOR)
    by_nodes = ghost_mcts_search(state, 1, random.Random(0), node_limit=5, horizon=1)
    assert (by_nodes.playouts, by_nodes.nodes_generated, by_nodes.stopped) == (2, 7, "nodes")
    ticks = iter(range(100))
    by_time = ghost_mcts_search(state, 1, random.Random(0), time_limit=2.5, horizon=1,
                                clock=lambda: float(next(ticks)))
    assert (by_time.playouts, by_time.stopped) == (3, "time")  # the deadline 2.5, clock 3


def test_one_legal_move_is_played_without_a_search_but_the_generator_moves_once() -> None:
    state = GameState.initial(load_layout("smallClassic"))
    assert state.legal_actions(1) == (EAST,)
    ghost, twin = MCTSGhost(1), random.Random(7)
    ghost.set_rng(random.Random(7))
    assert ghost.get_action(state) == EAST
    assert ghost.last_decision is not None
    assert (ghost.last_decision.stopped, ghost.last_decision.nodes_generated) == ("single", 1)
    twin.getrandbits(64)
    assert ghost.rng.random() == twin.random()
    assert ghost.distribution(state) == [(EAST, 1.0)]


def test_the_distribution_is_the_roots_visit_shares() -> None:
    state = GameState.initial(CORRIDOR)
    ghost = MCTSGhost(1, playouts=40)
    distribution = ghost.distribution(state)
    assert ghost.last_decision is not None
    assert distribution == [(move.action, move.visits / 40) for move in
                            ghost.last_decision.root]
    assert [action for action, _ in distribution] == [WEST, EAST]
    assert sum(p for _, p in distribution) == pytest.approx(1.0)


def _game(seed: int) -> tuple[Any, ...]:
    ghosts = [MCTSGhost(1, playouts=50), MCTSGhost(2, playouts=50)]
    record = run_game(load_layout("smallClassic"), make_agent("expectimax", "pacman"), ghosts,
                      seed=seed, max_moves=40)
    assert record.fault is None, record.fault
    last = [ghost.last_decision for ghost in ghosts]
    return (record.outcome, record.score, record.pacman_moves, record.actions,
            [(d.nodes_generated, d.playouts, d.tree_size) for d in last if d is not None])


def test_same_seed_same_game() -> None:
    first = _game(4)
    assert first == _game(4)
    outcome, score, moves, actions, last = first
    assert (outcome, score, moves) == (Outcome.LOSS, -382, 22)
    assert actions[:9] == ("West", "East", "West", "West", "East", "West", "West", "East",
                           "South")
    assert last == [(1, 0, 1), (182, 50, 12)]  # ghost 1 had one move left; ghost 2 searched
    assert _game(5)[:3] == (Outcome.LOSS, -340, 20)


PLAY = ["play", "-q", "-p", "expectimax", "-g", "mcts", "-l", "smallClassic", "-n", "2",
        "--seed", "1"]


def test_the_command_line_plays_mcts_ghosts(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(PLAY) == 0
    assert capsys.readouterr().out.splitlines()[:2] == [
        "game 1: seed 1, loss, score -400, 20 moves", "game 2: seed 2, loss, score -398, 18 moves"]


@pytest.mark.slow
def test_same_seed_same_game_in_a_subprocess(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(PLAY) == 0
    here = capsys.readouterr().out
    there = subprocess.run([sys.executable, "-m", "pacman", *PLAY], capture_output=True,
                           text=True, check=True).stdout
    assert here == there


# --------------------------------------------------------------------------- values

def test_values_paranoid_and_maxn() -> None:
    state = GameState.initial(parse_layout("%%%%%%%%%\n%1 P. 2 %\n%%%%%%%%%\n"))
    assert state.ghost_distances() == (2, 3) and state.score == 0
    # before a catch: -distance_weight per step of each hunting ghost
    assert team_values(state, "paranoid", score_evaluation, 500, 2, 0, 10) == (10, -10, -10)
    assert team_values(state, "maxn", score_evaluation, 500, 2, 0, 10) == (0, -4, -6)
    # a catch after Pacman's 3rd move: 500 * (11 - 3) / 11, no distance terms
    caught = state.successor(0, WEST).successor(1, EAST)
    assert caught.is_lose() and caught.score == -501
    bonus = 500 * 8 / 11
    assert team_values(caught, "maxn", score_evaluation, 500, 2, 3, 10) == pytest.approx(
        (-501 - bonus, 501 + bonus, 501 + bonus))
    assert team_values(caught, "paranoid", score_evaluation, 500, 2, 3, 10) == pytest.approx(
        (-501 - bonus, 501 + bonus, 501 + bonus))
    won = state.successor(0, EAST)
    assert won.is_win()
    assert team_values(won, "maxn", score_evaluation, 500, 2, 1, 10) == (
        won.score, -won.score, -won.score)


def test_a_scared_ghost_counts_its_distance_the_other_way() -> None:
    state = GameState.initial(parse_layout("%%%%%%%%%%\n%1 Po. 2 %\n%%%%%%%%%%\n"))
    scared = state.successor(0, EAST)
    assert scared.scared_timers == (40, 40)
    d1, d2 = scared.ghost_distances()
    assert team_values(scared, "maxn", score_evaluation, 500, 1, 1, 10) == (
        scared.score, d1 - scared.score, d2 - scared.score)


# --------------------------------------------------------------------------- positions

# A ring (as in test_team_ghosts): Pacman on the top corridor, both ghosts on the bottom one,
# left of the middle, so that the shortest way to Pacman is West for both of them.
RING = parse_layout("""
%%%%%%%%%%%
%    P    %
% %%%%%%% %
%  12     %
%%%%%%%%%%%
""")


@pytest.mark.parametrize("mode", ["paranoid", "maxn"])
def test_the_ghosts_go_round_both_sides_of_the_ring(mode: str) -> None:
    """Measured, not by construction: the pincer in 10 of 10 seeds in both modes (the team
    ghost's plan in test_team_ghosts)."""
    state = GameState.initial(RING)
    for seed in range(3):
        first, second = MCTSGhost(1, mode=mode), MCTSGhost(2, mode=mode)
        first.set_rng(random.Random(seed))
        second.set_rng(random.Random(seed))
        assert first.get_action(state) == WEST
        assert second.get_action(state.successor(1, WEST)) == EAST


# Mirror-symmetric about Pacman's and the ghost's column: West and East are worth the same to
# the ghost. Pacman's only way out of his dead end is South, the ghost's next move is on along
# the corridor, so with horizon=1 every playout is forced and the search goes the same way in
# every seed but where it breaks a tie (untried moves, equal scores, equal visits at the root).
MIRRORED = parse_layout("""
%%%%%%%%%%%
%%%%%P%%%%%
%         %
% %%%%%%% %
%    1    %
%%%%%%%%%%%
""")


@pytest.mark.parametrize("mode", ["paranoid", "maxn"])
def test_equal_moves_are_chosen_alike_not_by_legal_order(mode: str) -> None:
    """Breaking ties by legal order chose West in 12 of 12 seeds, both modes; drawn, each
    equal move is chosen in some seeds."""
    state = GameState.initial(MIRRORED)
    assert state.legal_actions(0) == (STOP, SOUTH) and state.legal_actions(1) == (WEST, EAST)
    chosen = []
    for seed in range(12):
        ghost = MCTSGhost(1, mode=mode, horizon=1)
        ghost.set_rng(random.Random(seed))
        chosen.append(ghost.get_action(state))
        decision = ghost.last_decision
        assert decision is not None and decision.playouts == 200
        assert sum(move.visits for move in decision.root) == 200
        assert decision.action in decision.best_actions
    assert chosen.count(WEST) >= 1 and chosen.count(EAST) >= 1, chosen


# A larger ring with dots: one chasing ghost never catches a Pacman that runs round it.
BIG_RING = parse_layout("""
%%%%%%%%%%%%%
%.....P.....%
%.%%%%%%%%%.%
%.%%%%%%%%%.%
%...12......%
%%%%%%%%%%%%%
""")


def _ring_game(ghosts: list[Any], seed: int) -> tuple[Outcome, int]:
    pacman = AlphaBetaAgent(depth=2, evaluation="better")
    record = run_game(BIG_RING, pacman, ghosts, seed=seed, max_moves=100)
    assert record.fault is None, record.fault
    return record.outcome, record.pacman_moves


def test_the_team_of_mcts_ghosts_traps_pacman_on_the_ring() -> None:
    """Measured: MCTS ghosts caught him in 8 of 8 seeds after 12 or 13 moves (the team ghost
    after 12); directional ghosts let him eat every dot in 6 of 8 (25 moves)."""
    for seed in range(3):
        outcome, moves = _ring_game([MCTSGhost(1), MCTSGhost(2)], seed)
        assert outcome == Outcome.LOSS and moves <= 13
    assert _ring_game([DirectionalGhost(1), DirectionalGhost(2)], 0) == (Outcome.WIN, 25)


# Pacman in the west dead end of a long corridor, the dot at the far east end, the ghost
# between. With a capsule next to him, he eats it at once and the ghost is scared.
WITH_CAPSULE = "%%%%%%%%%%%%%%%%%%%%%\n%Po      1         .%\n%%%%%%%%%%%%%%%%%%%%%\n"
WITHOUT = WITH_CAPSULE.replace("o", " ")


@pytest.mark.parametrize("mode", ["paranoid", "maxn"])
def test_a_scared_ghost_flees_and_a_hunting_one_closes_in(mode: str) -> None:
    """Measured: East (away) when scared and West (in) when not, in 10 of 10 seeds, both
    modes, both Pacman models."""
    scared = GameState.initial(parse_layout(WITH_CAPSULE)).successor(0, EAST)
    hunting = GameState.initial(parse_layout(WITHOUT)).successor(0, EAST)
    assert scared.scared_timers == (40,) and hunting.scared_timers == (0,)
    for seed in range(3):
        ghost = MCTSGhost(1, mode=mode)
        ghost.set_rng(random.Random(seed))
        assert ghost.get_action(scared) == EAST
        assert ghost.get_action(hunting) == WEST


# --------------------------------------------------------------------------- settings

@pytest.mark.parametrize(("values", "message"), [
    ({"mode": "smart"}, r"unknown mode 'smart' \(choose paranoid or maxn\)"),
    ({"playouts": 0}, "playouts must be a whole number from 1 to 1,000,000,000, got 0"),
    ({"nodes": -5}, "nodes must be a whole number from 1 to 1,000,000,000, got -5"),
    ({"playouts": 10**25}, "playouts must be a whole number from 1 to 1,000,000,000, got a "
                           "number of about 25 digits"),
    ({"time": 0}, "time must be seconds > 0 and at most 1,000,000, got 0"),
    ({"playouts": 10, "time": 0.1}, "give one budget, not playouts and time"),
    ({"horizon": 0}, "horizon must be a positive integer"),
    ({"c": -1}, "c must be a number >= 0, got -1"),
    ({"catch_bonus": -1}, "catch_bonus must be a finite number >= 0, got -1"),
    ({"catch_bonus": float("inf")}, "catch_bonus must be a finite number >= 0, got inf"),
    ({"distance_weight": "far"}, "distance_weight must be a finite number >= 0, got 'far'"),
    ({"pacman_model": "smart"}, r"unknown pacman_model 'smart' \(choose random or greedy\)"),
    ({"ghost_model": "smart"},
     r"unknown ghost_model 'smart' \(choose uniform or directional\)"),
    ({"epsilon": 2}, "epsilon must be a number between 0 and 1, got 2"),
    ({"pacman_model": "random", "epsilon": 0.2},
     "epsilon applies only to pacman_model=greedy, not to pacman_model=random"),
])
def test_bad_settings_are_refused(values: dict[str, Any], message: str) -> None:
    with pytest.raises(SettingsError, match=message):
        MCTSGhostSettings(**values)
    with pytest.raises(RegistryError, match=f"bad settings for MCTSGhost: {message}"):
        make_agent("mcts", "ghost", values, index=1)


def test_a_bad_setting_on_the_command_line_is_one_line_and_exit_2() -> None:
    run = subprocess.run([sys.executable, "-m", "pacman", "play", "-q", "-p", "expectimax",
                          "-g", "mcts", "--ghost-args", "mode=smart", "-l", "smallClassic"],
                         capture_output=True, text=True)
    assert run.returncode == 2
    assert run.stderr.strip().splitlines() == [
        "pacman: error: bad settings for MCTSGhost: unknown mode 'smart' (choose paranoid or "
        "maxn)"]


@pytest.mark.parametrize(("arguments", "message"), [
    ({"ghost": 0}, "no ghost 0 in a game of 2 ghost"),
    ({"ghost": 1, "mode": "smart"}, "unknown mode 'smart'"),
    ({"ghost": 1, "playouts": 5, "node_limit": 9}, "give one budget"),
    ({"ghost": 1, "distance_weight": -1.0}, "distance_weight must be a finite number >= 0"),
])
def test_the_search_refuses_bad_arguments(arguments: dict[str, Any], message: str) -> None:
    state = GameState.initial(RING)
    ghost = arguments.pop("ghost")
    with pytest.raises(ValueError, match=message):
        ghost_mcts_search(state, ghost, random.Random(0), **arguments)
    lost = GameState.initial(parse_layout("%%%%%%\n%P1 .%\n%%%%%%\n")).successor(0, EAST)
    with pytest.raises(ValueError, match="terminal"):
        ghost_mcts_search(lost, 1, random.Random(0))


def test_descriptions() -> None:
    assert MCTSGhost(1).describe() == "MCTSGhost paranoid playouts=200 score horizon=10 c=1"
    assert MCTSGhost(2, mode="maxn", time=0.02, catch_bonus=100, distance_weight=0,
                     pacman_model="random", ghost_model="uniform").describe() == (
        "MCTSGhost maxn time=0.02 score horizon=10 c=1 catch_bonus=100 distance_weight=0 "
        "pacman_model=random ghost_model=uniform")
    assert MCTSGhost(1, epsilon=0).describe().endswith(" epsilon=0")


def test_mcts_names_a_ghost_with_g_and_pacman_with_p() -> None:
    assert agent_class("mcts", "ghost") is MCTSGhost
    assert agent_class("mcts", "pacman") is MCTSAgent
    assert agent_class("MCTSGhost", "ghost") is MCTSGhost
    with pytest.raises(RegistryError, match="unknown Pacman agent 'MCTSGhost'"):
        agent_class("MCTSGhost", "pacman")
