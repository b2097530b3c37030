"""MCTS for Pacman: budgets and counts, same seed same game, hand-made positions, settings."""

from __future__ import annotations

import random
import subprocess
import sys
from typing import Any

import pytest

from pacman import Direction, GameState, load_layout, parse_layout, run_game
from pacman.agents.ghosts import DirectionalGhost
from pacman.agents.mcts import (
    DEFAULT_PLAYOUTS,
    MCTSAgent,
    MCTSSettings,
    greedy_playout,
    mcts_search,
)
from pacman.agents.pacman_agents import score_evaluation
from pacman.agents.registry import make_agent
from pacman.agents.search import alphabeta
from pacman.cli import main
from pacman.errors import RegistryError, SettingsError

WEST, EAST, STOP = Direction.WEST, Direction.EAST, Direction.STOP


class Symmetric:
    """A hand-built endless game where Pacman's moves are all alike: Pacman picks one of
    `moves` letters, the one chance agent one of two; a leaf's value depends only on how many
    times the chance agent said "y" (so no Pacman move is better than another)."""

    num_agents = 2

    def __init__(self, moves: str = "abcd", ys: int = 0, depth: int = 0) -> None:
        self.moves, self.ys, self.depth = moves, ys, depth

    def legal_actions(self, agent: int) -> list[str]:
        """Pacman: the letters; the chance agent: x or y."""
        return list(self.moves) if agent == 0 else ["x", "y"]

    def successor(self, agent: int, action: str) -> Symmetric:
        """A new node one move deeper."""
        return Symmetric(self.moves, self.ys + (action == "y"), self.depth + 1)

    def is_win(self) -> bool:
        """Never."""
        return False

    def is_lose(self) -> bool:
        """Never."""
        return False

    @property
    def score(self) -> float:
        """The chance agent's y count."""
        return float(self.ys)


def position(text: str) -> GameState:
    """The start of an inline layout."""
    return GameState.initial(parse_layout(text))


# --------------------------------------------------------------------------- budgets and counts

def test_root_visits_sum_to_the_playouts_and_nodes_are_successor_calls() -> None:
    state = GameState.initial(load_layout("smallClassic"))
    decision = mcts_search(state, score_evaluation, random.Random(1), playouts=60, horizon=5)
    assert decision.playouts == 60 and decision.stopped == "playouts"
    assert sum(move.visits for move in decision.root) == 60
    assert [move.action for move in decision.root] == list(state.legal_actions(0))
    # every playout adds at most one node, and plays at most horizon x agents moves
    assert 1 < decision.tree_size <= 61
    assert 60 < decision.nodes_generated <= 1 + 60 * 5 * state.num_agents
    most = max(move.visits for move in decision.root)
    assert decision.action == decision.best_actions[0]
    assert [m.action for m in decision.root if m.visits == most] == list(decision.best_actions)


def test_the_default_budget_is_200_playouts() -> None:
    state = GameState.initial(load_layout("smallClassic"))
    assert mcts_search(state, score_evaluation, random.Random(0), horizon=2).playouts == 200
    assert DEFAULT_PLAYOUTS == 200 and MCTSAgent().playouts == 200


def test_a_node_budget_stops_at_the_first_playout_past_it() -> None:
    state = GameState.initial(load_layout("smallClassic"))
    decision = mcts_search(state, score_evaluation, random.Random(2), node_limit=500,
                           horizon=4)
    assert decision.stopped == "nodes"
    assert 500 <= decision.nodes_generated < 500 + 4 * state.num_agents
    assert sum(move.visits for move in decision.root) == decision.playouts


def test_a_time_budget_is_looked_at_between_playouts() -> None:
    ticks = iter(range(10**6))

    def clock() -> float:  # one second per look: the deadline falls after 5 playouts
        return float(next(ticks))

    decision = mcts_search(Symmetric(), lambda s: 0.0, random.Random(0), time_limit=5.5,
                           horizon=3, clock=clock)
    assert decision.stopped == "time" and decision.playouts == 6


def test_one_legal_move_is_played_without_a_search() -> None:
    decision = mcts_search(Symmetric("a"), lambda s: 0.0, random.Random(0), playouts=10)
    assert (decision.action, decision.playouts, decision.stopped) == ("a", 0, "single")


# --------------------------------------------------------------------------- same seed, same game

def _game(seed: int, ghost_model: str = "uniform") -> tuple[Any, ...]:
    pacman = make_agent("mcts", "pacman", {"playouts": 30, "horizon": 6,
                                           "ghost_model": ghost_model})
    record = run_game(load_layout("smallClassic"), pacman,
                      [DirectionalGhost(1), DirectionalGhost(2)], seed=seed, max_moves=25)
    return record.outcome, record.score, record.actions, record.pacman_nodes


@pytest.mark.parametrize("ghost_model", ["uniform", "directional"])
def test_same_seed_same_game_in_process(ghost_model: str) -> None:
    first = _game(5, ghost_model)
    assert first == _game(5, ghost_model)
    assert all(isinstance(n, int) and n > 30 for n in first[3])  # every move reports nodes
    assert first != _game(6, ghost_model)


def test_same_seed_same_game_in_a_subprocess(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["play", "-p", "mcts", "-a", "playouts=50", "-l", "smallClassic", "--seed", "3",
            "-q", "--max-moves", "30"]
    assert main(argv) == 0
    here = capsys.readouterr().out
    there = subprocess.run([sys.executable, "-m", "pacman", *argv], capture_output=True,
                           text=True, check=True).stdout
    game_line = [line for line in here.splitlines() if line.startswith("game 1:")]
    assert game_line, here  # outcome, score and moves
    assert here == there


# --------------------------------------------------------------------------- positions

LAST_DOT = """
%%%%%%%%
%.P   G%
%%%%%%%%
"""

GHOST_EAST = """
%%%%%%%%%%
%..  PG  %
%%%%%%%%%%
"""


def test_it_takes_the_forced_win_that_alphabeta_finds() -> None:
    state = position(LAST_DOT)
    exact = alphabeta(state, 2, score_evaluation)
    assert exact.action == WEST and state.successor(0, WEST).is_win()
    agent = MCTSAgent(playouts=50)
    assert agent.get_action(state) == WEST
    assert agent.last_decision is not None and agent.last_decision.value > 0


@pytest.mark.parametrize("ghost_model", ["uniform", "directional"])
def test_it_avoids_the_forced_loss_that_alphabeta_finds(ghost_model: str) -> None:
    state = position(GHOST_EAST)
    assert set(state.legal_actions(0)) == {WEST, EAST, STOP}
    assert state.successor(0, EAST).is_lose()  # walking into the ghost
    exact = alphabeta(state, 2, score_evaluation)
    assert exact.action == WEST and exact.value > -400
    for seed in range(3):
        agent = MCTSAgent(playouts=100, ghost_model=ghost_model)
        agent.set_rng(random.Random(seed))
        assert agent.get_action(state) == WEST
        assert agent.last_decision is not None
        root = {move.action: move for move in agent.last_decision.root}
        assert root[EAST].mean == state.successor(0, EAST).score  # every playout lost
        assert root[EAST].visits < root[WEST].visits


def test_equal_moves_get_equal_visits_and_the_first_wins_the_tie() -> None:
    """A constant value: UCB's exploration alone chooses, so the counts differ by one at most;
    a tie goes to the first move in legal order."""
    decision = mcts_search(Symmetric(), lambda s: 0.0, random.Random(0), playouts=400,
                           horizon=4)
    visits = [move.visits for move in decision.root]
    assert visits == [100, 100, 100, 100]
    assert decision.action == "a" and decision.best_actions == ("a", "b", "c", "d")


@pytest.mark.parametrize("seed", range(5))
def test_equally_good_noisy_moves_are_not_starved(seed: int) -> None:
    """Values drawn alike for every move: no move gets less than half its share (UCB's
    logarithmic exploration keeps every arm's count near N / K when the means are equal)."""
    decision = mcts_search(Symmetric(), lambda s: s.score, random.Random(seed), playouts=400,
                           horizon=3)
    visits = [move.visits for move in decision.root]
    assert sum(visits) == 400
    assert min(visits) >= 50, visits


# --------------------------------------------------------------------------- settings

@pytest.mark.parametrize(("values", "message"), [
    ({"playouts": 0}, "playouts must be a positive integer, got 0"),
    ({"nodes": -5}, "nodes must be a positive integer, got -5"),
    ({"time": 0}, "time must be a number of seconds > 0, got 0"),
    ({"playouts": 10, "nodes": 100}, "give one budget, not playouts and nodes"),
    ({"playouts": 10, "time": 0.1}, "give one budget, not playouts and time"),
    ({"c": -1}, "c must be a number >= 0, got -1"),
    ({"horizon": 0}, "horizon must be a positive integer"),
    ({"ghost_model": "smart"}, r"unknown ghost_model 'smart' \(choose uniform or directional\)"),
])
def test_bad_settings_are_refused(values: dict[str, Any], message: str) -> None:
    with pytest.raises(SettingsError, match=message):
        MCTSSettings(**values)
    with pytest.raises(RegistryError, match=f"bad settings for MCTSAgent: {message}"):
        make_agent("mcts", "pacman", values)


def test_a_bad_setting_on_the_command_line_is_one_line_and_exit_2() -> None:
    run = subprocess.run([sys.executable, "-m", "pacman", "play", "-p", "mcts", "-a",
                          "playouts=0", "-q"], capture_output=True, text=True)
    assert run.returncode == 2
    assert run.stderr.strip().splitlines() == [
        "pacman: error: bad settings for MCTSAgent: playouts must be a positive integer, got 0"]


def test_descriptions_show_the_budget_and_the_model() -> None:
    assert MCTSAgent().describe() == "MCTSAgent playouts=200 score horizon=10 c=1"
    assert MCTSAgent(time=0.04, evaluation="better", ghost_model="directional", c=0.5,
                     allow_stop=False).describe() == (
        "MCTSAgent time=0.04 better horizon=10 c=0.5 ghost_model=directional allow_stop=False")
    assert MCTSAgent(nodes=900).settings.changed() == {"nodes": 900}


def test_allow_stop_false_keeps_stop_out_of_the_root() -> None:
    agent = MCTSAgent(playouts=20, allow_stop=False)
    agent.get_action(position(GHOST_EAST))
    assert agent.last_decision is not None
    assert STOP not in [move.action for move in agent.last_decision.root]


# --------------------------------------------------------------------------- greedy playouts

NORTH, SOUTH = Direction.NORTH, Direction.SOUTH


class Draws:
    """A `draw()` that returns the given numbers in turn and counts how many were taken."""

    def __init__(self, *values: float) -> None:
        self.values, self.taken = list(values), 0

    def __call__(self) -> float:
        self.taken += 1
        return self.values.pop(0)


def greedy_move(text: str, *draws: float, epsilon: float = 0.0) -> tuple[Any, int, int]:
    """The greedy policy's move from an inline layout's start, its successor() calls and the
    draws it took."""
    state = position(text)
    moves = [m for m in state.legal_actions(0) if m != STOP]
    draw = Draws(*draws)
    move, child, made = greedy_playout(epsilon)(state, moves, draw)
    assert child == state.successor(0, move)
    return move, made, draw.taken


FOOD_WEST = """
%%%%%%%%%%%
%.  P   .G%
%%%%%%%%%%%
"""

GHOST_BY_THE_DOT = """
%%%%%%%%%%
%G.P    .%
%%%%%%%%%%
"""

TRAPPED = """
%%%%%%%%
%G.P.G %
%%%%%%%%
"""

TWO_WAYS = """
%%%%%%%
%. P .%
%%%%%%%
"""


def test_greedy_moves_towards_the_nearest_dot_without_a_tie_draw() -> None:
    # the west dot is 3 steps away, the east one 4: one draw (epsilon), no tie to break
    assert greedy_move(FOOD_WEST, 0.5) == (WEST, 2, 1)


def test_greedy_eats_a_dot_before_going_nearer_another_but_not_next_to_a_ghost() -> None:
    # West eats the dot at once, but ends 1 step from the ghost: the safe move is East
    assert greedy_move(GHOST_BY_THE_DOT, 0.5) == (EAST, 2, 1)
    # both moves are dangerous (each ends next to a ghost): the dot comes first again; here
    # both eat one, so a second draw breaks the tie in legal order (West, East)
    assert greedy_move(TRAPPED, 0.5, 0.2) == (WEST, 2, 2)
    assert greedy_move(TRAPPED, 0.5, 0.7) == (EAST, 2, 2)
    # eating the last dot wins the game: never dangerous, even next to a ghost
    assert greedy_move("%%%%%%%\n%G.P  %\n%%%%%%%\n", 0.5) == (WEST, 2, 1)


def test_greedy_breaks_ties_with_the_draws_and_plays_epsilon_random_moves() -> None:
    assert greedy_move(TWO_WAYS, 0.5, 0.2) == (WEST, 2, 2)
    assert greedy_move(TWO_WAYS, 0.5, 0.7) == (EAST, 2, 2)
    # below epsilon: a uniform move, only its successor generated
    assert greedy_move(FOOD_WEST, 0.05, 0.9, epsilon=0.1) == (EAST, 1, 2)
    assert greedy_move(FOOD_WEST, 0.1, epsilon=0.1)[0] == WEST  # not below: greedy


def test_greedy_refuses_a_bad_epsilon() -> None:
    with pytest.raises(ValueError, match=r"epsilon must be a number between 0 and 1, got 1\.5"):
        greedy_playout(1.5)


@pytest.mark.parametrize("ghost_model", ["uniform", "directional"])
def test_greedy_playouts_same_seed_same_game(ghost_model: str) -> None:
    def game(seed: int) -> tuple[Any, ...]:
        pacman = make_agent("mcts", "pacman", {"playouts": 30, "horizon": 6,
                                               "ghost_model": ghost_model,
                                               "playout": "greedy"})
        record = run_game(load_layout("smallClassic"), pacman,
                          [DirectionalGhost(1), DirectionalGhost(2)], seed=seed, max_moves=25)
        return record.outcome, record.score, record.actions, record.pacman_nodes

    first = game(5)
    assert first == game(5)
    assert first != game(6)
    assert first != _game(5, ghost_model)  # the policy plays another game


def test_greedy_counts_every_candidate_successor() -> None:
    state = GameState.initial(load_layout("smallClassic"))
    plain = mcts_search(state, score_evaluation, random.Random(1), playouts=60, horizon=5)
    greedy = mcts_search(state, score_evaluation, random.Random(1), playouts=60, horizon=5,
                         playout=greedy_playout(0.0))
    assert greedy.playouts == plain.playouts == 60
    # a greedy playout move generates 1 to 4 successors, a random one exactly 1
    assert greedy.nodes_generated > plain.nodes_generated
    assert greedy.nodes_generated <= 1 + 60 * 5 * (state.num_agents + 3)


BAIT = """
%%%%%%%%%%%%
%.     P G %
%%%%%%% %% %
%       .  %
%%%%%%%%%%%%
"""


def test_the_dead_end_dot_is_a_bait() -> None:
    """West goes for the dot at the end of the corridor with the ghost right behind: after it
    and the ghost's chasing reply, a 7-ply minimax search finds the loss."""
    state = position(BAIT)
    assert set(state.legal_actions(0)) == {WEST, EAST, SOUTH, STOP}
    chased = state.successor(0, WEST).successor(1, WEST)
    assert alphabeta(chased, 7, score_evaluation).value < -400
    assert alphabeta(state, 8, score_evaluation).action != WEST


def test_greedy_playouts_with_the_directional_model_avoid_the_dead_end_bait() -> None:
    """Measured, not by construction: with the directional model, greedy playouts chose South
    (away from the bait) in 12 of 12 seeds, random ones in 6 of 12 (West in 5)."""
    state = position(BAIT)
    for seed in range(5):
        agent = MCTSAgent(playouts=200, ghost_model="directional", playout="greedy")
        agent.set_rng(random.Random(seed))
        assert agent.get_action(state) == SOUTH


def test_playout_settings() -> None:
    assert MCTSAgent(playout="greedy").describe() == (
        "MCTSAgent playouts=200 score horizon=10 c=1 playout=greedy epsilon=0.1")
    assert MCTSAgent(playout="greedy", epsilon=0).describe().endswith("epsilon=0")
    assert MCTSAgent(playout="greedy").settings.changed() == {"playout": "greedy"}
    with pytest.raises(SettingsError, match=r"unknown playout 'smart' \(choose random or greedy\)"):
        MCTSSettings(playout="smart")
    with pytest.raises(SettingsError, match="epsilon must be a number between 0 and 1, got 2"):
        MCTSSettings(playout="greedy", epsilon=2)
    with pytest.raises(SettingsError, match="epsilon applies only to playout=greedy, not to "
                                            "playout=random"):
        MCTSSettings(epsilon=0.2)
