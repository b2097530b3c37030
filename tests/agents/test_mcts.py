"""MCTS for Pacman: budgets and counts, same seed same game, hand-made positions, settings."""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pacman import Direction, GameState, load_layout, parse_layout, run_game
from pacman.agents.ghosts import DirectionalGhost, directional_distribution
from pacman.agents.mcts import (
    DEFAULT_PLAYOUTS,
    MCTSAgent,
    MCTSDecision,
    MCTSSettings,
    MCTSTrace,
    MCTSTree,
    adversarial_distribution,
    follows,
    ghost_chance,
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
    assert DEFAULT_PLAYOUTS == 200 and MCTSAgent(tree="move").playouts == 200


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
    pacman = make_agent("mcts", "pacman", {"tree": "move", "playouts": 30, "horizon": 6,
                                           "ghost_model": ghost_model})
    record = run_game(load_layout("smallClassic"), pacman,
                      [DirectionalGhost(1), DirectionalGhost(2)], seed=seed, max_moves=25)
    return record.outcome, record.score, record.actions, record.pacman_nodes


@pytest.mark.parametrize("ghost_model", ["uniform", "directional", "adversarial"])
def test_same_seed_same_game_in_process(ghost_model: str) -> None:
    first = _game(5, ghost_model)
    assert first == _game(5, ghost_model)
    assert all(isinstance(n, int) and n > 30 for n in first[3])  # every move reports nodes
    assert first != _game(6, ghost_model)


def test_same_seed_same_game_in_a_subprocess(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["play", "-p", "mcts", "-a", "tree=move,playouts=50", "-l", "smallClassic", "--seed",
            "3", "-q", "--max-moves", "30"]
    assert main(argv) == 0
    here = capsys.readouterr().out
    there = subprocess.run([sys.executable, "-m", "pacman", *argv], capture_output=True,
                           text=True, check=True).stdout
    game_line = [line for line in here.splitlines() if line.startswith("game 1:")]
    assert game_line, here  # outcome, score and moves
    assert here == there


def test_reuse_and_the_hybrid_play_the_same_game_in_a_subprocess(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def argv(path: Path) -> list[str]:
        return ["play", "-p", "mcts", "-a", "tree=move,playouts=30,horizon=5,reuse=true,decay=0.5,"
                "leaf_depth=1,ghost_model=adversarial,playout=greedy", "-g", "DirectionalGhost",
                "-l", "smallClassic", "--seed", "3", "-q", "--max-moves", "12", "--record",
                str(path), "--trace"]

    assert main(argv(tmp_path / "here.json")) == 0
    capsys.readouterr()
    subprocess.run([sys.executable, "-m", "pacman", *argv(tmp_path / "there.json")],
                   capture_output=True, text=True, check=True)
    here, there = (json.loads((tmp_path / name).read_text()) for name in ("here.json",
                                                                           "there.json"))
    assert len(here["pacman_traces"]) == 12
    assert [t["playouts"] > 30 for t in here["pacman_traces"]][1:] == [True] * 11  # reused
    for key in ("actions", "score", "pacman_nodes", "pacman_traces"):
        assert here[key] == there[key], key


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
    agent = MCTSAgent(tree="move", playouts=50)
    assert agent.get_action(state) == WEST
    assert agent.last_decision is not None and agent.last_decision.value > 0


@pytest.mark.parametrize("ghost_model", ["uniform", "directional"])
def test_it_avoids_the_forced_loss_that_alphabeta_finds(ghost_model: str) -> None:
    state = position(GHOST_EAST)
    assert set(state.legal_actions(0)) == {WEST, EAST, STOP}
    assert state.successor(0, EAST).is_lose()  # walking into the ghost
    exact = alphabeta(state, 2, score_evaluation)
    assert exact.action == WEST and exact.value > -400
    for seed in range(5):  # at 100 playouts a uniform ghost model left seed 0 on Stop (41-34)
        agent = MCTSAgent(tree="move", playouts=200, ghost_model=ghost_model)
        agent.set_rng(random.Random(seed))
        assert agent.get_action(state) == WEST
        assert agent.last_decision is not None
        root = {move.action: move for move in agent.last_decision.root}
        assert root[EAST].mean == state.successor(0, EAST).score  # every playout lost
        assert root[EAST].visits < root[WEST].visits


def test_equal_moves_get_equal_visits_and_a_draw_breaks_the_tie() -> None:
    """A constant value: UCB's exploration alone chooses, so the counts differ by one at most;
    the four-way tie of the decision is one draw, so over seeds every move is chosen."""
    chosen = set()
    for seed in range(20):
        decision = mcts_search(Symmetric(), lambda s: 0.0, random.Random(seed), playouts=400,
                               horizon=4)
        assert [move.visits for move in decision.root] == [100, 100, 100, 100]
        assert decision.best_actions == ("a", "b", "c", "d")
        chosen.add(decision.action)
    assert chosen == {"a", "b", "c", "d"}


def test_an_infinite_value_leaves_every_move_equal_not_a_crash() -> None:
    """A leaf is worth +inf once the chance agent said "y", else 0: once each move has such
    a leaf its mean is inf and its normalised mean inf/inf = NaN, so no score is largest:
    the moves are equal and one draw chooses (not an empty choice)."""
    chosen = set()
    for seed in range(12):
        decision = mcts_search(Symmetric("ab"), lambda s: math.inf if s.ys else 0.0,
                               random.Random(seed), playouts=20, horizon=2)
        assert sum(move.visits for move in decision.root) == 20
        chosen.add(decision.action)
    assert chosen == {"a", "b"}


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
    ({"playouts": 0}, "playouts must be a whole number from 1 to 1,000,000,000, got 0"),
    ({"nodes": -5}, "nodes must be a whole number from 1 to 1,000,000,000, got -5"),
    ({"nodes": 10**12}, "nodes must be a whole number from 1 to 1,000,000,000, got "
                        "1000000000000"),
    ({"time": 0}, "time must be seconds > 0 and at most 1,000,000, got 0"),
    ({"playouts": 10, "nodes": 100}, "give one budget, not playouts and nodes"),
    ({"playouts": 10, "time": 0.1}, "give one budget, not playouts and time"),
    ({"c": -1}, "c must be a number >= 0, got -1"),
    ({"horizon": 0}, "horizon must be a positive integer"),
    ({"ghost_model": "smart"}, r"unknown ghost_model 'smart' \(choose uniform or directional or "
                               r"adversarial or pincer\)"),
    ({"leaf_depth": -1}, "leaf_depth must be a whole number >= 0, got -1"),
    ({"leaf_depth": 301}, r"leaf_depth must be at most 300 \(the deepest search is 300 moves"),
    ({"decay": 1.5, "reuse": True}, "decay must be a number between 0 and 1, got 1.5"),
    ({"decay": 0.5, "tree": "move"}, r"decay applies only to reuse=true"),
    ({"decay": 0.5}, r"decay applies only to tree=move, not to tree=junction"),
    ({"reuse": "yes"}, "reuse must be true or false, got 'yes'"),
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
        "pacman: error: bad settings for MCTSAgent: playouts must be a whole number from 1 to "
        "1,000,000,000, got 0"]


def test_descriptions_show_the_budget_and_the_model() -> None:
    assert MCTSAgent(tree="move").describe() == "MCTSAgent playouts=200 score horizon=10 c=1"
    assert MCTSAgent(tree="move", time=0.04, evaluation="better", ghost_model="directional", c=0.5,
                     allow_stop=False).describe() == (
        "MCTSAgent time=0.04 better horizon=10 c=0.5 ghost_model=directional allow_stop=False")
    assert MCTSAgent(tree="move", nodes=900).settings.changed() == {"tree": "move",
                                                                    "nodes": 900}


def test_allow_stop_false_keeps_stop_out_of_the_root() -> None:
    agent = MCTSAgent(tree="move", playouts=20, allow_stop=False)
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
        pacman = make_agent("mcts", "pacman", {"tree": "move", "playouts": 30, "horizon": 6,
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
        agent = MCTSAgent(tree="move", playouts=200, ghost_model="directional", playout="greedy")
        agent.set_rng(random.Random(seed))
        assert agent.get_action(state) == SOUTH


def test_playout_settings() -> None:
    assert MCTSAgent(tree="move", playout="greedy").describe() == (
        "MCTSAgent playouts=200 score horizon=10 c=1 playout=greedy epsilon=0.1")
    assert MCTSAgent(tree="move", playout="greedy", epsilon=0).describe().endswith("epsilon=0")
    assert MCTSAgent(tree="move", playout="greedy").settings.changed() == {
        "tree": "move", "playout": "greedy"}
    with pytest.raises(SettingsError, match=r"unknown playout 'smart' \(choose random or greedy\)"):
        MCTSSettings(playout="smart")
    with pytest.raises(SettingsError, match="epsilon must be a number between 0 and 1, got 2"):
        MCTSSettings(playout="greedy", epsilon=2)
    with pytest.raises(SettingsError, match="epsilon applies only to playout=greedy, not to "
                                            "playout=random"):
        MCTSSettings(tree="move", epsilon=0.2)


# --------------------------------------------------------------------------- the trace

SUMMARY_KEYS = ["method", "action", "value", "depth", "nodes_generated", "evaluations", "cuts",
                "pruned", "root_values", "root_visits", "principal_variation", "playouts",
                "tree_size", "stopped", "budget", "c"]


def untraced(decision: MCTSDecision) -> MCTSDecision:
    """The decision without its trace, for comparing a traced search with an untraced one."""
    return MCTSDecision(decision.action, decision.value, decision.nodes_generated,
                        decision.best_actions, decision.playouts, decision.tree_size,
                        decision.root, decision.stopped)


@pytest.mark.parametrize("budget", [{"playouts": 60}, {"node_limit": 700}])
def test_the_trace_is_the_searchs_own_counts_and_changes_nothing(budget: dict[str, int]) -> None:
    state = GameState.initial(load_layout("smallClassic"))
    plain = mcts_search(state, score_evaluation, random.Random(4), horizon=5, **budget)
    traced = mcts_search(state, score_evaluation, random.Random(4), horizon=5, trace=True,
                         **budget)
    assert plain.trace is None and isinstance(traced.trace, MCTSTrace)
    assert untraced(traced) == plain
    summary = traced.trace.summary()
    assert list(summary) == SUMMARY_KEYS and traced.trace.to_json() == summary
    names = [move.action.value for move in plain.root]
    assert summary["root_visits"] == [[m.action.value, m.visits] for m in plain.root]
    assert summary["root_values"] == [[m.action.value, m.mean] for m in plain.root]
    assert sum(visits for _, visits in summary["root_visits"]) == summary["playouts"]
    assert summary["playouts"] == summary["evaluations"] == plain.playouts
    assert {key: summary[key] for key in ("method", "action", "value", "depth",
                                          "nodes_generated", "cuts", "pruned", "tree_size",
                                          "stopped", "c")} == {
        "method": "mcts", "action": plain.action.value, "value": plain.value, "depth": 5,
        "nodes_generated": plain.nodes_generated, "cuts": 0, "pruned": 0,
        "tree_size": plain.tree_size, "stopped": plain.stopped, "c": 1.0}
    assert summary["budget"] == ("playouts=60" if "playouts" in budget else "nodes=700")
    line = summary["principal_variation"]
    assert line[0] == [0, plain.action.value] and 1 < len(line) <= 5
    assert all(agent == 0 and move in {"North", "South", "East", "West", "Stop"}
               for agent, move in line) and names == list(state.legal_actions(0))


def test_the_principal_variation_follows_the_most_visits_ties_to_the_first_tried() -> None:
    """Five playouts, a constant value: every choice is a tie, drawn from the generator; with
    `Random(0)` the root ends b 3, a 2, and b's node b 1, a 1 (b tried first) -> b; the node
    after b, b was added but never passed through, so the line ends there."""
    decision = mcts_search(Symmetric("ab"), lambda s: 0.0, random.Random(0), playouts=5,
                           horizon=3, trace=True)
    assert decision.trace is not None
    summary = decision.trace.summary()
    assert summary["root_visits"] == [["a", 2], ["b", 3]]  # legal order
    assert summary["root_values"] == [["a", 0.0], ["b", 0.0]]
    assert summary["principal_variation"] == [[0, "b"], [0, "b"]]
    assert summary["tree_size"] == decision.tree_size == 6  # root, a, b, bb, ba, ab


def test_a_single_move_has_a_trace_without_a_search() -> None:
    decision = mcts_search(Symmetric("a"), lambda s: 0.0, random.Random(0), time_limit=0.25,
                           trace=True)
    assert decision.trace is not None
    assert decision.trace.summary() == {
        "method": "mcts", "action": "a", "value": "nan", "depth": 10, "nodes_generated": 1,
        "evaluations": 0, "cuts": 0, "pruned": 0, "root_values": [["a", "nan"]],
        "root_visits": [["a", 0]], "principal_variation": [[0, "a"]], "playouts": 0,
        "tree_size": 1, "stopped": "single", "budget": "time=0.25", "c": 1.0}


def test_a_traced_game_keeps_every_moves_summary_and_plays_the_same_game() -> None:
    def game(trace: bool) -> Any:
        pacman = make_agent("mcts", "pacman", {"tree": "move", "playouts": 30, "horizon": 6,
                                               "trace": trace, "ghost_model": "directional"})
        return run_game(load_layout("smallClassic"), pacman,
                        [DirectionalGhost(1), DirectionalGhost(2)], seed=5, max_moves=20)

    plain, traced = game(False), game(True)
    assert plain.pacman_traces == ()
    assert (traced.outcome, traced.score, traced.actions, traced.pacman_nodes) == (
        plain.outcome, plain.score, plain.actions, plain.pacman_nodes)
    traces = traced.pacman_traces
    assert len(traces) == traced.pacman_moves == 20
    assert [t["nodes_generated"] for t in traces] == list(traced.pacman_nodes)
    assert [t["action"] for t in traces] == list(traced.actions[::3])
    assert all(t["method"] == "mcts" and t["playouts"] == 30 and t["budget"] == "playouts=30"
               and sum(n for _, n in t["root_visits"]) == 30 for t in traces)


def test_play_trace_records_mcts_searches(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "mcts.json"
    assert main(["play", "-q", "-p", "mcts", "-a", "tree=move,playouts=20,horizon=4", "-l",
                 "smallClassic", "--seed", "2", "--max-moves", "5", "--record", str(path),
                 "--trace"]) == 0
    capsys.readouterr()
    data = json.loads(path.read_text())
    assert [t["method"] for t in data["pacman_traces"]] == ["mcts"] * 5
    assert [t["nodes_generated"] for t in data["pacman_traces"]] == data["pacman_nodes"]


# --------------------------------------------------------------------------- the adversarial model

BEHIND_A_WALL = """
%%%%%%%
%P    %
%%%%% %
%  G  %
%%%%%%%
"""


def test_the_adversarial_ghost_chases_by_maze_distance_where_the_directional_one_does_not() -> None:
    """The ghost below the wall: West is nearer Pacman as the crow flies (Manhattan 3 against
    5), East by the maze (7 steps against 9)."""
    state = position(BEHIND_A_WALL)
    assert state.legal_actions(1) == (WEST, EAST)
    assert state.ghost_step_distances(1) == (9, 7)
    assert adversarial_distribution(state, 1, state.legal_actions(1)) == [0.0, 1.0]
    assert directional_distribution(state, 1, state.legal_actions(1)) == pytest.approx([0.9, 0.1])
    # a subset of the moves is looked up move by move
    assert adversarial_distribution(state, 1, [EAST]) == [1.0]


def test_the_adversarial_ghost_shares_ties_and_flees_when_scared() -> None:
    fork = position("%%%%%%%\n%  P  %\n%% % %%\n%% G %%\n%%%%%%%\n")
    assert fork.legal_actions(1) == (WEST, EAST) and fork.ghost_step_distances(1) == (3, 3)
    assert adversarial_distribution(fork, 1, (WEST, EAST)) == [0.5, 0.5]
    start = position("%%%%%%%%%\n%  G Po %\n%%%%%%%%%\n")
    assert start.ghost_step_distances(1) == (3, 1)
    assert adversarial_distribution(start, 1, (WEST, EAST)) == [0.0, 1.0]
    scared = start.successor(0, EAST)  # the capsule
    assert scared.scared_timers == (40,) and scared.ghost_step_distances(1) == (3, 2)
    assert adversarial_distribution(scared, 1, (WEST, EAST)) == [1.0, 0.0]


def test_the_adversarial_model_is_uniform_on_a_hand_built_game() -> None:
    assert adversarial_distribution(Symmetric(), 1, ["x", "y"]) == [0.5, 0.5]
    assert ghost_chance("adversarial") is adversarial_distribution
    assert ghost_chance("directional") is directional_distribution
    assert ghost_chance("uniform") is None
    with pytest.raises(ValueError, match=r"unknown ghost_model 'smart' \(choose uniform or "
                                         r"directional or adversarial\)"):
        ghost_chance("smart")


# --------------------------------------------------------------------------- tree reuse

def edges(node: Any, prefix: str = "") -> dict[str, tuple[int, float]]:
    """Every (node, move) of a tree, named by its moves from the root: visits and mean."""
    found = {}
    for move, count in node.counts.items():
        found[prefix + move] = (count, node.totals[move] / count)
        if move in node.children:
            found.update(edges(node.children[move], prefix + move))
    return found


def test_a_subtree_is_the_node_after_the_move_with_its_statistics() -> None:
    """The five playouts of the principal-variation test: the root b 3, a 2; b's node b 1,
    a 1 (their nodes added, never passed through); a's node b 1."""
    tree = MCTSTree()
    mcts_search(Symmetric("ab"), lambda s: 0.0, random.Random(0), playouts=5, horizon=3,
                tree=tree)
    assert (tree.size, tree.visits, tree.lo, tree.hi) == (6, 5, 0.0, 0.0)
    assert edges(tree.root) == {"b": (3, 0.0), "bb": (1, 0.0), "ba": (1, 0.0), "a": (2, 0.0),
                                "ab": (1, 0.0)}
    after_b = tree.subtree("b")
    assert (after_b.size, after_b.visits, after_b.lo, after_b.hi) == (3, 2, 0.0, 0.0)
    assert edges(after_b.root) == {"a": (1, 0.0), "b": (1, 0.0)}
    assert (tree.subtree("a").size, tree.subtree("a").visits) == (2, 1)
    # halved, b's two single visits are dropped: nothing is left, a new tree
    for empty in (tree.subtree("b", 0.5), tree.subtree("c"), tree.subtree("b", 0)):
        assert (empty.size, empty.visits, empty.lo, empty.hi, empty.root.children) == (
            1, 0, math.inf, -math.inf, {})
    with pytest.raises(ValueError, match="decay must be a number between 0 and 1, got 2"):
        tree.subtree("b", 2)


def test_decay_rounds_every_count_down_and_keeps_every_mean() -> None:
    tree = MCTSTree()
    mcts_search(Symmetric("ab"), lambda s: s.score, random.Random(3), playouts=200, horizon=9,
                tree=tree)
    before = edges(tree.root.children["b"])
    lo, hi = tree.lo, tree.hi
    kept = tree.subtree("b", 0.5)
    after = edges(kept.root)
    assert after.keys() == {name for name, (count, _) in before.items()
                            if count >= 2 and all(before[name[:k]][0] >= 2
                                                  for k in range(1, len(name)))}
    assert len(after) < len(before)
    for name, (count, mean) in after.items():
        assert count == before[name][0] // 2
        assert mean == pytest.approx(before[name][1], rel=1e-12)
    assert kept.visits == sum(count for name, (count, _) in after.items() if len(name) == 1)
    below = _child_names(kept)
    assert kept.size == 1 + len(below) and below <= after.keys()  # no node under a dropped move
    assert (kept.lo, kept.hi) == (lo, hi)


def _child_names(tree: MCTSTree) -> set[str]:
    """The names of the nodes below a tree's root (by their moves from it)."""
    names, stack = set(), [("", tree.root)]
    while stack:
        prefix, node = stack.pop()
        for move, child in node.children.items():
            names.add(prefix + move)
            stack.append((prefix + move, child))
    return names


def test_follows_knows_the_next_position_of_the_same_game() -> None:
    state = position(GHOST_EAST)
    after_west = state.successor(0, WEST)
    replies = [after_west.successor(1, move) for move in after_west.legal_actions(1)]
    assert len(replies) == 2
    assert all(follows(state, WEST, reply) for reply in replies)
    assert not follows(state, STOP, replies[0])  # another move of Pacman's
    assert not follows(state, WEST, after_west)  # the ghost has not replied
    assert not follows(state, WEST, state)  # the same position again (explain, replay)
    assert not follows(state, EAST, state.successor(0, EAST))  # caught: the game is over
    assert not follows(state, Direction.NORTH, replies[0])  # not a legal move
    assert not follows(state, WEST, position(LAST_DOT))  # another game
    assert not follows(replies[0], WEST, replies[0].successor(0, WEST).successor(1, WEST)
                       .successor(0, WEST))  # two moves on
    assert not follows(Symmetric(), "a", Symmetric().successor(0, "a").successor(1, "x"))


class Watched(MCTSAgent):
    """An MCTS agent that notes, before each search, the visits the kept tree should carry
    in (the node after its last move, its counts times decay rounded down), and after it the
    decision."""

    def __init__(self, **values: Any) -> None:
        super().__init__(**values)
        self.expected: list[int] = []
        self.decisions: list[MCTSDecision] = []

    def get_action(self, state: Any) -> Any:
        expected = 0
        if self._kept is not None:
            before, move, tree = self._kept
            node = tree.root.children.get(move)
            if node is not None and follows(before, move, state):
                expected = sum(int(count * self.decay) for count in node.counts.values())
        self.expected.append(expected)
        action = super().get_action(state)
        assert self.last_decision is not None
        self.decisions.append(self.last_decision)
        return action


@pytest.mark.parametrize("decay", [1.0, 0.5])
def test_a_reused_tree_carries_the_visits_under_the_move_played(decay: float) -> None:
    pacman = Watched(tree="move", playouts=40, horizon=6, reuse=True, decay=decay, trace=True)
    record = run_game(load_layout("smallClassic"), pacman,
                      [DirectionalGhost(1), DirectionalGhost(2)], seed=5, max_moves=15)
    decisions = pacman.decisions
    assert len(decisions) == record.pacman_moves == (13 if decay == 1.0 else 15)
    assert [d.carried for d in decisions] == pacman.expected
    assert pacman.expected[0] == 0 and min(pacman.expected[1:]) > 0
    for decision in decisions:
        assert decision.playouts == 40  # the budget: this move's playouts
        assert sum(move.visits for move in decision.root) == 40 + decision.carried
        assert decision.trace is not None
        summary = decision.trace.summary()
        assert summary["playouts"] == 40 + decision.carried == sum(
            visits for _, visits in summary["root_visits"])
        assert summary["evaluations"] == 40


def reuse_game(seed: int, **values: Any) -> tuple[Any, ...]:
    pacman = make_agent("mcts", "pacman", {"tree": "move", "horizon": 6, "reuse": True, **values})
    record = run_game(load_layout("smallClassic"), pacman,
                      [DirectionalGhost(1), DirectionalGhost(2)], seed=seed, max_moves=25)
    return record.outcome, record.score, record.actions, record.pacman_nodes


def test_reuse_same_seed_same_game_with_a_playout_or_node_budget() -> None:
    first = reuse_game(5, playouts=30)
    assert first == reuse_game(5, playouts=30)
    assert first != _game(5)  # the kept statistics change the choices
    by_nodes = reuse_game(5, nodes=900, decay=0.5)
    assert by_nodes == reuse_game(5, nodes=900, decay=0.5)
    # the node budget counts this move's nodes: each move stops at the first playout past it
    assert all(900 <= nodes < 900 + 6 * 3 for nodes in by_nodes[3])


def test_reuse_starts_afresh_on_a_position_that_does_not_follow() -> None:
    agent = MCTSAgent(tree="move", playouts=30, reuse=True)
    state = GameState.initial(load_layout("smallClassic"))
    agent.get_action(state)
    move = agent.get_action(state)  # the same position again, as explain asks
    assert agent.last_decision is not None and agent.last_decision.carried == 0
    follower = state.successor(0, move)
    for ghost in (1, 2):
        follower = follower.successor(ghost, follower.legal_actions(ghost)[0])
    agent.get_action(follower)
    assert agent.last_decision.carried > 0
    agent.get_action(position(GHOST_EAST))  # another game
    assert agent.last_decision.carried == 0
    agent.register_initial_state(state)  # a new game forgets the tree
    assert agent._kept is None


def test_reuse_settings_are_described() -> None:
    assert MCTSAgent(tree="move", reuse=True).describe() == (
        "MCTSAgent playouts=200 score horizon=10 c=1 reuse=True")
    assert MCTSAgent(tree="move", reuse=True, decay=0.5, leaf_depth=1).describe() == (
        "MCTSAgent playouts=200 score horizon=10 c=1 reuse=True decay=0.5 leaf_depth=1")
    assert MCTSAgent(tree="move", leaf_depth=2).describe().endswith(" c=1 leaf_depth=2")
    assert MCTSAgent(tree="move", reuse=True, trace=True).settings.changed() == {
        "tree": "move", "reuse": True, "trace": True}
    batch = MCTSSettings.batch_settings({"trace": True, "playouts": 5})
    assert "trace" not in batch and {"reuse", "decay", "leaf_depth"}.isdisjoint(batch)
    assert MCTSSettings.batch_settings({"reuse": True})["reuse"] is True


# --------------------------------------------------------------------------- the hybrid

def test_the_leaf_search_values_the_cut_off_and_its_nodes_count() -> None:
    """Symmetric, horizon 2: a playout makes 4 successor() calls (two moves of each agent);
    a depth-1 leaf search 12 more (4 Pacman moves, 2 replies each) and 8 evaluations, and
    values the cut-off at its y count plus 0.5 (one more reply, y half the time)."""
    plain = mcts_search(Symmetric(), lambda s: s.score, random.Random(0), playouts=10,
                        horizon=2, trace=True)
    hybrid = mcts_search(Symmetric(), lambda s: s.score, random.Random(0), playouts=10,
                         horizon=2, leaf_depth=1, trace=True)
    assert plain.trace is not None and hybrid.trace is not None
    assert (plain.nodes_generated, plain.trace.evaluations) == (1 + 10 * 4, 10)
    assert (hybrid.nodes_generated, hybrid.trace.evaluations) == (1 + 10 * (4 + 12), 80)
    # the same draws (the leaf search draws none), so the same leaves, each valued 0.5 more
    assert [m.visits for m in hybrid.root] == [m.visits for m in plain.root]
    assert [m.mean for m in hybrid.root] == [m.mean + 0.5 for m in plain.root]


def test_the_leaf_search_sees_the_dot_past_the_horizon() -> None:
    """No ghost, a one-move horizon: plain playouts value every move -1 (one step); a depth-1
    leaf search finds the dot one step further: West and East 8 (-2 + 10), Stop -2."""
    state = position(TWO_WAYS)
    plain = mcts_search(state, score_evaluation, random.Random(0), playouts=30, horizon=1)
    assert [m.mean for m in plain.root] == [-1.0, -1.0, -1.0]
    hybrid = mcts_search(state, score_evaluation, random.Random(0), playouts=30, horizon=1,
                         leaf_depth=1, trace=True)
    assert [(m.action, m.mean) for m in hybrid.root] == [(WEST, 8.0), (STOP, -2.0), (EAST, 8.0)]
    assert hybrid.action in (WEST, EAST)
    assert hybrid.nodes_generated == 1 + 30 * (1 + 3)  # the move and its three replies
    assert hybrid.trace is not None and hybrid.trace.evaluations == 30 * 3


def test_a_leaf_search_too_deep_for_the_agents_is_refused() -> None:
    state = GameState.initial(load_layout("smallClassic"))
    with pytest.raises(ValueError, match="search depth 101 with 3 agents is 303 moves deep"):
        mcts_search(state, score_evaluation, random.Random(0), leaf_depth=101)
    with pytest.raises(ValueError, match="leaf_depth must be a whole number >= 0, got -1"):
        mcts_search(state, score_evaluation, random.Random(0), leaf_depth=-1)


def test_hybrid_same_seed_same_game() -> None:
    first = reuse_game(4, playouts=20, leaf_depth=1, ghost_model="adversarial")
    assert first == reuse_game(4, playouts=20, leaf_depth=1, ghost_model="adversarial")
    assert first != reuse_game(4, playouts=20, ghost_model="adversarial")


# --------------------------------------------------------------------------- exact search agrees

WIN_IN_TWO = """
%%%%%%%%%
%..P  G %
%%%%%%%%%
"""

DOT_AND_GHOST = """
%%%%%%%%%%
%   .PG  %
%% %%%%% %
%.       %
%%%%%%%%%%
"""


@pytest.mark.parametrize("ghost_model", ["uniform", "directional", "adversarial"])
def test_it_takes_the_forced_win_in_two_with_a_ghost_behind(ghost_model: str) -> None:
    state = position(WIN_IN_TWO)
    exact = alphabeta(state, 2, score_evaluation)
    assert exact.action == WEST and exact.value > 500  # two dots west, then the game is won
    for seed in range(3):
        agent = MCTSAgent(tree="move", playouts=200, ghost_model=ghost_model)
        agent.set_rng(random.Random(seed))
        assert agent.get_action(state) == WEST


def test_the_adversarial_model_avoids_the_losses_alphabeta_proves() -> None:
    """The ghost is next to Pacman: Stop and East lose at once against a chasing ghost
    (alphabeta: -501), West eats a dot and gets away. Under the adversarial model every playout
    after Stop or East is lost, so their means are exactly -501."""
    state = position(DOT_AND_GHOST)
    exact = alphabeta(state, 2, score_evaluation, trace=True)
    assert exact.trace is not None and exact.action == WEST
    assert dict(exact.trace.root_values) == {"West": 8.0, "Stop": -501.0, "East": -501.0}
    for seed in range(5):
        for playout in ("random", "greedy"):
            agent = MCTSAgent(tree="move", playouts=200, ghost_model="adversarial", playout=playout)
            agent.set_rng(random.Random(seed))
            assert agent.get_action(state) == WEST
            assert agent.last_decision is not None
            means = {m.action: m.mean for m in agent.last_decision.root}
            assert means[STOP] == means[EAST] == -501.0


def test_adversarial_greedy_playouts_avoid_the_dead_end_bait() -> None:
    """Measured, not by construction: adversarial ghosts and greedy playouts chose South in 6
    of 6 seeds (random playouts: 5 of 6, East once)."""
    state = position(BAIT)
    for seed in range(5):
        agent = MCTSAgent(tree="move", playouts=200, ghost_model="adversarial", playout="greedy")
        agent.set_rng(random.Random(seed))
        assert agent.get_action(state) == SOUTH


def test_equal_moves_of_a_pacman_position_get_visits_one_apart() -> None:
    """No ghost and a constant value: every root move's normalised mean is 0.5, so UCB1
    picks the least visited, ties drawn uniformly: 301 playouts are 101, 100, 100, and the
    101 falls on each move for some seed (legal order favoured West before: on a mirrored
    maze it then favoured another direction, and a demo's split followed the orientation)."""
    state = position(TWO_WAYS)
    for extra in ({}, {"leaf_depth": 1}, {"tree": MCTSTree()}):
        decision = mcts_search(state, lambda s: 0.0, random.Random(0), playouts=301,
                               horizon=4, **extra)  # type: ignore[arg-type]
        assert [(m.action, m.visits) for m in decision.root] == [(WEST, 100), (STOP, 100),
                                                                 (EAST, 101)]
        assert decision.action == EAST and decision.best_actions == (EAST,)
    chosen = [mcts_search(state, lambda s: 0.0, random.Random(seed), playouts=301,
                          horizon=4).action for seed in range(12)]
    assert chosen == [EAST, EAST, STOP, WEST, STOP, STOP, EAST, STOP, WEST, EAST, STOP, WEST]
