"""Golden outputs of the MCTS, anytime and traced searches: every move, count and draw, pinned.

Each case runs one search (or a short seeded game) and compares its whole result with what the
code gave when these pins were taken: the readable part (action, nodes, playouts, ...) as
values, the rest (every root statistic, every iteration, every trace node, the transposition
table's entries in the order they were stored) as a digest of its exact `repr`, and the search
generator's next draw (so a draw more or less shows). A fake clock that advances a step a call
pins when and how often a time budget looks at the clock.

A refactoring keeps every pin; a change of behaviour changes them on purpose. To see the
current values: `python tests/agents/test_pinned_searches.py`.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections.abc import Callable
from typing import Any

import pytest

from pacman import GameState, load_layout, parse_layout, run_game
from pacman.agents.anytime import CHANCE, MAX, TranspositionTable, iterative_search
from pacman.agents.evaluation import NAMED
from pacman.agents.ghosts import DirectionalGhost, directional_distribution
from pacman.agents.mcts import MCTSAgent, adversarial_distribution, greedy_playout, mcts_search
from pacman.agents.mcts_ghosts import MCTSGhost, ghost_mcts_search
from pacman.agents.pacman_agents import (
    _ghosts_closing_in_first,
    live_position,
    quiet_moves,
    score_evaluation,
)
from pacman.agents.search_core import actions_without_stop
from pacman.agents.trace import format_tree, traced_search

if __name__ != "__main__":
    from positions import random_positions
else:  # run as a script from anywhere
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).parent))
    from positions import random_positions


def digest(value: Any) -> str:
    """The first 16 hex digits of the SHA-256 of `repr(value)`."""
    return hashlib.sha256(repr(value).encode()).hexdigest()[:16]


class StepClock:
    """A fake clock: each call returns the time one `step` later than the last."""

    def __init__(self, step: float) -> None:
        self.step, self.now, self.calls = step, 0.0, 0

    def __call__(self) -> float:
        self.calls += 1
        self.now += self.step
        return self.now


def start(layout: str) -> GameState:
    """The start of a shipped layout."""
    return GameState.initial(load_layout(layout))


#: a corridor one dot from the end, the ghost two steps away: every line ends within two
#: plies, so the search stops "proven"
ONE_DOT = """
%%%%%%
%G P.%
%%%%%%
"""


def position(text: str) -> GameState:
    """The start of an inline layout."""
    return GameState.initial(parse_layout(text))


def midgame(layout: str, index: int) -> GameState:
    """One of five seeded random-play positions of `layout`, Pacman to move."""
    return random_positions(layout, 5, seed=7)[index]


def ghost_turn(layout: str, index: int, ghost: int = 1) -> GameState:
    """A seeded random-play position of `layout` where ghost `ghost` is to move and has a
    choice: the `index`-th (from 0) such among the first legal moves of the agents before it
    from each of twenty positions."""
    found = []
    for state in random_positions(layout, 20, seed=7):
        for agent in range(ghost):
            if not state.is_terminal():
                state = state.successor(agent, state.legal_actions(agent)[0])
        if not state.is_terminal() and len(state.legal_actions(ghost)) > 1:
            found.append(state)
    return found[index]


# --------------------------------------------------------------------------- MCTS for Pacman

def _mcts(state: GameState, seed: int, **options: Any) -> dict[str, Any]:
    rng = random.Random(seed)
    clock = options.get("clock")
    decision = mcts_search(state, options.pop("evaluate", score_evaluation), rng, **options)
    return {"action": str(decision.action), "nodes": decision.nodes_generated,
            "playouts": decision.playouts, "tree": decision.tree_size,
            "stopped": decision.stopped, "all": digest(decision),
            "next_draw": rng.random(),
            **({"clock_calls": clock.calls} if clock is not None else {})}


MCTS_CASES: dict[str, Callable[[], dict[str, Any]]] = {
    "start uniform random": lambda: _mcts(start("smallClassic"), 1, playouts=60, horizon=5,
                                          trace=True),
    "midgame directional greedy": lambda: _mcts(
        midgame("mediumClassic", 0), 2, playouts=80, horizon=8,
        chance=directional_distribution, playout=greedy_playout(0.1), trace=True),
    "adversarial greedy hybrid": lambda: _mcts(
        midgame("smallClassic", 1), 3, playouts=30, horizon=4, chance=adversarial_distribution,
        playout=greedy_playout(0.2), leaf_depth=1, trace=True),
    "node budget without stop": lambda: _mcts(
        midgame("mediumClassic", 2), 4, node_limit=3000, horizon=10, c=0.5,
        actions=actions_without_stop, trace=True),
    "time budget on a fake clock": lambda: _mcts(
        midgame("smallClassic", 3), 5, time_limit=0.05, horizon=6, clock=StepClock(0.001)),
    "greedy c=0 better": lambda: _mcts(
        midgame("mediumClassic", 4), 6, playouts=50, horizon=6, c=0.0,
        evaluate=NAMED["better"], playout=greedy_playout(0.0)),
}


def _mcts_game(**values: Any) -> dict[str, Any]:
    record = run_game(load_layout("smallClassic"), MCTSAgent(tree="move", **values),
                      [DirectionalGhost(1), DirectionalGhost(2)], seed=11, max_moves=12)
    return {"outcome": str(record.outcome), "score": record.score,
            "actions": digest(record.actions), "nodes": record.pacman_nodes,
            "traces": digest(record.pacman_traces)}


MCTS_GAMES: dict[str, Callable[[], dict[str, Any]]] = {
    "reuse decay 0.5 traced": lambda: _mcts_game(playouts=40, horizon=6, reuse=True,
                                                 decay=0.5, trace=True),
    "greedy directional reuse": lambda: _mcts_game(
        nodes=1500, horizon=8, playout="greedy", ghost_model="directional", reuse=True),
}


# --------------------------------------------------------------------------- MCTS for ghosts

def _ghost_mcts(state: GameState, ghost: int, seed: int, **options: Any) -> dict[str, Any]:
    rng = random.Random(seed)
    clock = options.get("clock")
    decision = ghost_mcts_search(state, ghost, rng, **options)
    return {"action": str(decision.action), "nodes": decision.nodes_generated,
            "playouts": decision.playouts, "tree": decision.tree_size,
            "stopped": decision.stopped, "all": digest(decision),
            "next_draw": rng.random(),
            **({"clock_calls": clock.calls} if clock is not None else {})}


GHOST_CASES: dict[str, Callable[[], dict[str, Any]]] = {
    "paranoid greedy directional": lambda: _ghost_mcts(
        ghost_turn("smallClassic", 0), 1, 1, playouts=60, horizon=6,
        pacman_playout=greedy_playout(0.1), ghost_chance=directional_distribution),
    "maxn random uniform node budget": lambda: _ghost_mcts(
        ghost_turn("mediumClassic", 1), 1, 2, mode="maxn", node_limit=2500,
        horizon=8),
    "second ghost time budget on a fake clock": lambda: _ghost_mcts(
        ghost_turn("mediumClassic", 2, ghost=2), 2, 3, time_limit=0.04, horizon=5,
        clock=StepClock(0.001), pacman_playout=greedy_playout(0.3)),
    "paranoid c=0 weights": lambda: _ghost_mcts(
        ghost_turn("smallClassic", 3), 1, 4, playouts=40, c=0.0, catch_bonus=100.0,
        distance_weight=3.0, evaluate=NAMED["better"]),
}


def _ghost_game(**values: Any) -> dict[str, Any]:
    record = run_game(load_layout("smallClassic"), MCTSAgent(tree="move", playouts=20, horizon=4),
                      [MCTSGhost(1, **values), MCTSGhost(2, **values)], seed=12, max_moves=8)
    return {"outcome": str(record.outcome), "score": record.score,
            "actions": digest(record.actions)}


GHOST_GAMES: dict[str, Callable[[], dict[str, Any]]] = {
    "paranoid team": lambda: _ghost_game(playouts=25, horizon=5),
    "maxn team, random pacman": lambda: _ghost_game(mode="maxn", nodes=800, horizon=5,
                                                    pacman_model="random"),
}


# --------------------------------------------------------------------------- anytime search

def _anytime(state: GameState, evaluation: str = "better", warm: GameState | None = None,
             chance_layers: bool = False, **options: Any) -> dict[str, Any]:
    evaluate = NAMED[evaluation]
    table = options.pop("table", None)
    if chance_layers:
        options["kinds"] = [MAX] + [CHANCE] * (state.num_agents - 1)
    clock = options.get("clock")
    if warm is not None:
        iterative_search(warm, evaluate, table=table, **options)
    decision = iterative_search(state, evaluate, table=table, **options)
    iterations = [(i.depth, i.value, str(i.action), i.nodes) for i in decision.iterations]
    return {"action": str(decision.action), "depth": decision.depth,
            "nodes": decision.nodes_generated, "stopped": decision.stopped,
            "all": digest((decision.value, decision.best_actions, iterations)),
            **({"table": (len(table), digest([(key[1], entry) for key, entry
                                              in table.entries.items()]))}
               if table is not None else {}),
            **({"clock_calls": clock.calls} if clock is not None else {})}


ORDER = _ghosts_closing_in_first

ANYTIME_CASES: dict[str, Callable[[], dict[str, Any]]] = {
    "alphabeta table order depth 5": lambda: _anytime(
        midgame("mediumClassic", 0), max_depth=5, table=TranspositionTable(), order=ORDER),
    "alphabeta warm table": lambda: _anytime(
        midgame("mediumClassic", 1), warm=midgame("mediumClassic", 0), max_depth=4,
        table=TranspositionTable(), order=ORDER),
    "alphabeta no table no ordering": lambda: _anytime(
        midgame("smallClassic", 2), max_depth=4, ordering=False),
    "expectimax star1 directional cutoff": lambda: _anytime(
        midgame("mediumClassic", 3), chance_layers=True, max_depth=3,
        table=TranspositionTable(), order=ORDER, bounds=NAMED["better"].bounds,
        chance=directional_distribution, cutoff=0.05),
    "expectimax star1 uniform": lambda: _anytime(
        midgame("smallClassic", 4), chance_layers=True, max_depth=3, order=ORDER,
        bounds=NAMED["better"].bounds),
    "quiescence 2": lambda: _anytime(
        midgame("mediumClassic", 2), max_depth=4, table=TranspositionTable(), order=ORDER,
        quiescence=2, live=live_position, quiet_moves=quiet_moves),
    "expectimax quiescence": lambda: _anytime(
        midgame("smallClassic", 0), chance_layers=True, max_depth=2, table=TranspositionTable(),
        order=ORDER, bounds=NAMED["better"].bounds, chance=directional_distribution,
        quiescence=2, live=live_position, quiet_moves=quiet_moves),
    "forward 2": lambda: _anytime(
        midgame("mediumClassic", 4), max_depth=5, table=TranspositionTable(), order=ORDER,
        forward=2),
    "singular 50": lambda: _anytime(
        midgame("mediumClassic", 1), max_depth=4, table=TranspositionTable(), order=ORDER,
        singular=50),
    "node budget drops the last iteration": lambda: _anytime(
        midgame("mediumClassic", 3), max_depth=20, node_limit=4000,
        table=TranspositionTable(), order=ORDER),
    "time budget on a fake clock": lambda: _anytime(
        midgame("smallClassic", 1), max_depth=20, time_limit=0.5, clock=StepClock(0.0005),
        table=TranspositionTable(), order=ORDER),
    "score, proven": lambda: _anytime(
        position(ONE_DOT), evaluation="score", max_depth=30, table=TranspositionTable()),
}


# --------------------------------------------------------------------------- traced searches

def _traced(method: str, state: GameState, depth: int, **options: Any) -> dict[str, Any]:
    decision = traced_search(method, state, depth, NAMED["better"], **options)
    trace = decision.trace
    assert trace is not None
    return {"action": str(decision.action), "nodes": decision.nodes_generated,
            "cuts": trace.cuts, "pruned": trace.pruned, "evaluations": trace.evaluations,
            "unrecorded": trace.unrecorded,
            "json": digest(json.dumps(trace.to_json(), sort_keys=True)),
            "tree": digest(format_tree(trace)), "decision": digest(
                (decision.action, decision.value, decision.best_actions))}


TRACE_CASES: dict[str, Callable[[], dict[str, Any]]] = {
    "minimax depth 2": lambda: _traced("minimax", midgame("smallClassic", 0), 2),
    "alphabeta depth 3 labelled": lambda: _traced(
        "alphabeta", midgame("mediumClassic", 1), 3,
        label=lambda s: f"{s.pacman_position}"),
    "alphabeta capped at 60 nodes": lambda: _traced(
        "alphabeta", midgame("mediumClassic", 2), 2, max_nodes=60),
    "expectimax directional": lambda: _traced(
        "expectimax", midgame("smallClassic", 3), 2, chance=directional_distribution),
    "expectimax uniform without stop": lambda: _traced(
        "expectimax", midgame("mediumClassic", 4), 2, actions=actions_without_stop),
}


# --------------------------------------------------------------------------- the pins

PINNED: dict[str, dict[str, Any]] = {
    'anytime: alphabeta no table no ordering': {
        'action': 'East', 'depth': 4, 'nodes': 4508, 'stopped': 'depth', 'all': '20dfd3d5ce70e743'},
    'anytime: alphabeta table order depth 5': {
        'action': 'West', 'depth': 5, 'nodes': 2579, 'stopped': 'depth', 'all': 'bc52292ecb217a65',
        'table': (841, 'a252abbb3283df0d')},
    'anytime: alphabeta warm table': {
        'action': 'West', 'depth': 4, 'nodes': 512, 'stopped': 'depth', 'all': 'ede018a606ffae79',
        'table': (491, '5d92f57f2dbacd6b')},
    'anytime: expectimax quiescence': {
        'action': 'North', 'depth': 2, 'nodes': 70, 'stopped': 'depth', 'all': '78f53179e87bab64',
        'table': (26, '7f431c2eae9006f8')},
    'anytime: expectimax star1 directional cutoff': {
        'action': 'North', 'depth': 3, 'nodes': 198, 'stopped': 'depth', 'all': '662673d8f8d0d19f',
        'table': (67, 'c6cb5ef9fe912612')},
    'anytime: expectimax star1 uniform': {
        'action': 'West', 'depth': 3, 'nodes': 336, 'stopped': 'depth', 'all': '07794a7ab53a9d63'},
    'anytime: forward 2': {
        'action': 'East', 'depth': 5, 'nodes': 3948, 'stopped': 'depth', 'all': '9e31c1b3e88fa376',
        'table': (986, 'bf8da0d96abf5d66')},
    'anytime: node budget drops the last iteration': {
        'action': 'North', 'depth': 5, 'nodes': 4001, 'stopped': 'nodes',
        'all': '08860e06f48033e7', 'table': (1265, '97c32a9a330ac749')},
    'anytime: quiescence 2': {
        'action': 'West', 'depth': 4, 'nodes': 1471, 'stopped': 'depth', 'all': '1f453c63002a9ec6',
        'table': (465, '191a20b8394c79f1')},
    'anytime: score, proven': {
        'action': 'East', 'depth': 2, 'nodes': 16, 'stopped': 'proven', 'all': '6bea1a3c2a1a51b2',
        'table': (4, 'df2c087c62125be3')},
    'anytime: singular 50': {
        'action': 'West', 'depth': 4, 'nodes': 714, 'stopped': 'depth', 'all': 'b5104e18684cbe36',
        'table': (164, '415552adfa6b42f2')},
    'anytime: time budget on a fake clock': {
        'action': 'West', 'depth': 10, 'nodes': 63184, 'stopped': 'time',
        'all': 'd7d87e64f04af35e', 'table': (17472, '35e8e85b318ca4af'), 'clock_calls': 1001},
    'ghost mcts game: maxn team, random pacman': {
        'outcome': 'capped', 'score': 32, 'actions': 'e6cd2b9470e0719e'},
    'ghost mcts game: paranoid team': {
        'outcome': 'capped', 'score': 72, 'actions': '4de50d36ea2ae9f3'},
    'ghost mcts: maxn random uniform node budget': {
        'action': 'West', 'nodes': 2511, 'playouts': 120, 'tree': 121, 'stopped': 'nodes',
        'all': 'b5992553458e80fe', 'next_draw': 0.6277599320363363},
    'ghost mcts: paranoid c=0 weights': {
        'action': 'North', 'nodes': 1049, 'playouts': 40, 'tree': 41, 'stopped': 'playouts',
        'all': '3211b0749b63064a', 'next_draw': 0.7111064578584184},
    'ghost mcts: paranoid greedy directional': {
        'action': 'East', 'nodes': 1303, 'playouts': 60, 'tree': 61, 'stopped': 'playouts',
        'all': 'a2d5edc3089bd38b', 'next_draw': 0.8816629330706961},
    'ghost mcts: second ghost time budget on a fake clock': {
        'action': 'North', 'nodes': 662, 'playouts': 40, 'tree': 41, 'stopped': 'time',
        'all': 'ccb577d5ad73bf63', 'next_draw': 0.9318440821750561, 'clock_calls': 41},
    'mcts game: greedy directional reuse': {
        'outcome': 'capped', 'score': 58, 'actions': 'a1c5b29d12c10ebb',
        'nodes': (1524, 1506, 1512, 1525, 1519, 1521, 1521, 1516, 1502, 1509, 1505, 1506),
        'traces': '2e38e77b22c314a4'},
    'mcts game: reuse decay 0.5 traced': {
        'outcome': 'capped', 'score': 58, 'actions': '65b01e007e06802a',
        'nodes': (721, 717, 720, 718, 695, 694, 719, 686, 690, 624, 612, 571),
        'traces': '62dab89fc59761f4'},
    'mcts: adversarial greedy hybrid': {
        'action': 'West', 'nodes': 784, 'playouts': 30, 'tree': 28, 'stopped': 'playouts',
        'all': '3de2bb95e422429d', 'next_draw': 0.39372994939160366},
    'mcts: greedy c=0 better': {
        'action': 'West', 'nodes': 981, 'playouts': 50, 'tree': 25, 'stopped': 'playouts',
        'all': '3784a9ac0483093a', 'next_draw': 0.19940041475447778},
    'mcts: midgame directional greedy': {
        'action': 'West', 'nodes': 2460, 'playouts': 80, 'tree': 81, 'stopped': 'playouts',
        'all': '7b68d0eef0562cb1', 'next_draw': 0.8736935015678887},
    'mcts: node budget without stop': {
        'action': 'West', 'nodes': 3008, 'playouts': 103, 'tree': 103, 'stopped': 'nodes',
        'all': 'b99c183da2578d19', 'next_draw': 0.9111239704196179},
    'mcts: start uniform random': {
        'action': 'East', 'nodes': 901, 'playouts': 60, 'tree': 60, 'stopped': 'playouts',
        'all': 'ae2fa769b1dcf020', 'next_draw': 0.651117045683278},
    'mcts: time budget on a fake clock': {
        'action': 'West', 'nodes': 402, 'playouts': 50, 'tree': 18, 'stopped': 'time',
        'all': 'ffbbf48a651c5cb3', 'next_draw': 0.5756417862252692, 'clock_calls': 51},
    'trace: alphabeta capped at 60 nodes': {
        'action': 'West', 'nodes': 75, 'cuts': 19, 'pruned': 19, 'evaluations': 23,
        'unrecorded': 15, 'json': 'c9659aeedc384117', 'tree': 'd3ae15ccd58e969b',
        'decision': 'ba6166b337159f13'},
    'trace: alphabeta depth 3 labelled': {
        'action': 'West', 'nodes': 227, 'cuts': 11, 'pruned': 22, 'evaluations': 57,
        'unrecorded': 0, 'json': 'ccd64e158790e73f', 'tree': '3c9a5b9faaf54f0a',
        'decision': 'e909229ed2e9eda4'},
    'trace: expectimax directional': {
        'action': 'West', 'nodes': 64, 'cuts': 0, 'pruned': 0, 'evaluations': 34, 'unrecorded': 0,
        'json': '93cedb26caa8905d', 'tree': '30420f092b694ac1', 'decision': 'd4d621afa037483d'},
    'trace: expectimax uniform without stop': {
        'action': 'East', 'nodes': 127, 'cuts': 0, 'pruned': 0, 'evaluations': 64, 'unrecorded': 0,
        'json': '5d8a7721bed28bc6', 'tree': 'ce7c6e5a811b74b1', 'decision': 'b2fb19cc2c5d6db9'},
    'trace: minimax depth 2': {
        'action': 'North', 'nodes': 79, 'cuts': 0, 'pruned': 0, 'evaluations': 22, 'unrecorded': 0,
        'json': '3298f9f369d5c5c2', 'tree': '57218f7c21189ef2', 'decision': '36211e284ffe6c3d'},
}

ALL_CASES = {**{f"mcts: {k}": v for k, v in MCTS_CASES.items()},
             **{f"mcts game: {k}": v for k, v in MCTS_GAMES.items()},
             **{f"ghost mcts: {k}": v for k, v in GHOST_CASES.items()},
             **{f"ghost mcts game: {k}": v for k, v in GHOST_GAMES.items()},
             **{f"anytime: {k}": v for k, v in ANYTIME_CASES.items()},
             **{f"trace: {k}": v for k, v in TRACE_CASES.items()}}


@pytest.mark.parametrize("name", sorted(ALL_CASES))
def test_the_search_gives_its_pinned_result(name: str) -> None:
    assert ALL_CASES[name]() == PINNED[name]


def test_every_case_is_pinned() -> None:
    assert sorted(PINNED) == sorted(ALL_CASES)


def _pins_text() -> str:
    """The current results as the source of `PINNED`'s entries, wrapped at 100 columns."""
    out = []
    for case_name in sorted(ALL_CASES):
        out.append(f"    {case_name!r}: {{")
        line = "        "
        for key, value in ALL_CASES[case_name]().items():
            item = f"{key!r}: {value!r}, "
            if len(line) + len(item) > 100 and line.strip():
                out.append(line.rstrip())
                line = "        "
            line += item
        out.append(line.rstrip().rstrip(",") + "},")
    return "\n".join(out)


if __name__ == "__main__":
    print(_pins_text())
