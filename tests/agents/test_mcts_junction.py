"""The junction-level MCTS (`tree=junction`, the default of `-p mcts`): the junction graph,
the search's exact choices under playout and node budgets, its ghost models, its settings, and
the move-level search still reachable with `tree=move`."""

from __future__ import annotations

import random
from typing import Any

import pytest
from default_mcts import default_agents_move

from pacman import GameState
from pacman.agents.ghosts import DirectionalGhost, directional_distribution
from pacman.agents.junctions import junction_graph
from pacman.agents.mcts import MCTSAgent, _pacmans_position, mcts_search, sample_index
from pacman.agents.mcts_junction import junction_search, pincer_distribution
from pacman.agents.pacman_agents import score_evaluation
from pacman.agents.survival import layout_tables
from pacman.errors import SettingsError
from pacman.game import run_game
from pacman.layout import load_layout, parse_layout
from pacman.rules import EAST, NORTH, SOUTH, STOP, WEST

#: a ring of 12 cells, one junction on it (2, 3) and a stem South to the dead end (2, 1)
TINY = parse_layout("%%%%%%%\n"
                    "%.....%\n"
                    "%.%%%.%\n"
                    "%P...o%\n"
                    "%%.%%%%\n"
                    "%%G%%%%\n"
                    "%%%%%%%", "tiny")


def medium() -> GameState:
    return GameState.initial(load_layout("mediumClassic"), 2)


def chase_tables(state: GameState) -> dict[int, Any]:
    """The layout's survival tables of 1 and 2 directional ghosts, horizon 15 (what
    `chase=auto` builds)."""
    return layout_tables(state.layout, 2, "directional", 15)


# --------------------------------------------------------------------------- the graph

def test_the_junctions_dead_ends_and_corridors_of_a_small_maze() -> None:
    graph = junction_graph(TINY.walls, TINY.width, TINY.height)
    assert graph.junctions == {(2, 3)} and graph.dead_ends == {(2, 1)}
    assert graph.exits((2, 3)) == (WEST, EAST, SOUTH) and graph.exits((0, 0)) == ()
    stem = graph.corridor((2, 3), SOUTH)
    assert (stem.moves, stem.cells, stem.end, len(stem)) == (
        (SOUTH, SOUTH), ((2, 2), (2, 1)), (2, 1), 2)
    back = graph.corridor((2, 1), NORTH)
    assert (back.end, len(back)) == ((2, 3), 2)
    ring = graph.corridor((2, 3), EAST)  # round the ring, back to the junction
    assert (ring.end, len(ring), ring.moves[:4]) == ((2, 3), 12, (EAST, EAST, EAST, NORTH))
    assert graph.corridor((2, 3), WEST).moves == tuple(m.reverse for m in reversed(ring.moves))
    # from a cell inside a corridor (Pacman's start), each way to the first junction
    assert [(len(c), c.end) for c in (graph.corridor((1, 3), EAST),
                                      graph.corridor((1, 3), NORTH))] == [(1, (2, 3)),
                                                                          (11, (2, 3))]
    with pytest.raises(KeyError):
        graph.corridor((1, 3), WEST)  # a wall


def test_medium_classic_has_20_junctions() -> None:
    layout = load_layout("mediumClassic")
    graph = junction_graph(layout.walls, layout.width, layout.height)
    assert len(graph.junctions) == 20 and len(graph.dead_ends) == 2
    assert junction_graph(layout.walls, layout.width, layout.height) is graph  # cached


# --------------------------------------------------------------------------- the search

@pytest.mark.parametrize(("seed", "options", "expected"), [
    (1, {"playouts": 60}, ("East", 60, 4825, 47, (13, 47), "playouts")),
    (2, {"playouts": 80, "escape": 12}, ("West", 80, 6204, 61, (47, 33), "playouts")),
    (3, {"node_limit": 3000, "survival": 0.9}, ("West", 37, 3089, 34, (22, 15), "nodes")),
])
def test_exact_choices_under_a_playout_or_node_budget(seed: int, options: dict[str, object],
                                                      expected: tuple[object, ...]) -> None:
    decision = junction_search(medium(), random.Random(seed), chance=directional_distribution,
                               trace=True, **options)  # type: ignore[arg-type]
    visits = tuple(move.visits for move in decision.root)
    assert (decision.action.value, decision.playouts, decision.nodes_generated,
            decision.tree_size, visits, decision.stopped) == expected
    assert [move.action for move in decision.root] == [WEST, EAST]  # no Stop at the root
    assert decision.trace is not None and decision.trace.playouts == sum(visits)
    again = junction_search(medium(), random.Random(seed), chance=directional_distribution,
                            trace=True, **options)  # type: ignore[arg-type]
    assert again == decision


def test_one_move_is_played_without_a_search_and_bad_arguments_are_refused() -> None:
    ring = GameState.initial(TINY, 0).successor(0, EAST)  # on the junction, ghost-less
    decision = junction_search(ring, random.Random(0), playouts=5)
    assert decision.stopped == "playouts" and decision.playouts == 5
    assert [move.action for move in decision.root] == [WEST, EAST, SOUTH]
    state = ring.successor(0, SOUTH).successor(0, SOUTH)  # the dead end: North only
    single = junction_search(state, random.Random(0), playouts=5, trace=True)
    assert (single.action, single.stopped, single.playouts) == (NORTH, "single", 0)
    state = ring
    with pytest.raises(ValueError, match="survival must be a number between 0 and 1"):
        junction_search(state, random.Random(0), survival=1.5)
    with pytest.raises(ValueError, match="give one budget"):
        junction_search(state, random.Random(0), playouts=5, node_limit=9)


# --------------------------------------------------------------------------- ghost models

def test_the_default_ghost_model_is_exactly_the_directional_ghosts_distribution() -> None:
    agent = MCTSAgent()
    assert (agent.tree, agent.ghost_model, agent.horizon) == ("junction", "directional", 30)
    state = medium()
    states = [state]
    for move in (WEST, WEST, WEST):
        state = state.successor(0, move)
        for ghost in (1, 2):
            state = state.successor(ghost, state.legal_actions(ghost)[0])
        states.append(state)
    assert agent._chance is directional_distribution
    for position in states:
        for ghost in (1, 2):
            expected = DirectionalGhost(ghost).distribution(position)
            actions = position.legal_actions(ghost)
            assert list(zip(actions, agent._chance(position, ghost, actions),
                            strict=True)) == expected


def test_pincer_ghosts_head_for_the_junctions_in_front_of_and_behind_pacman() -> None:
    state = medium()
    for ghost in (1, 2):
        actions = state.legal_actions(ghost)
        probabilities = pincer_distribution(state, ghost, actions)
        assert sum(probabilities) == pytest.approx(1.0)
        assert all(p in (0.0, 1.0 / probabilities.count(max(probabilities)))
                   for p in probabilities)
    agent = MCTSAgent(ghost_model="pincer", playouts=20)
    assert agent._chance is pincer_distribution
    with pytest.raises(SettingsError, match="ghost_model=pincer applies only to tree=junction"):
        MCTSAgent(tree="move", ghost_model="pincer")


# --------------------------------------------------------------------------- the agent

def test_the_defaults_are_the_junction_tree_and_every_move_only_setting_is_refused() -> None:
    assert MCTSAgent().describe() == ("MCTSAgent playouts=200 tree=junction horizon=30 c=1 "
                                      "ghost_model=directional survival=0.7 escape=12 "
                                      "chase=auto chase_margin=0.01 cycles=0.3")
    for values, name in (({"evaluation": "better"}, "evaluation"), ({"reuse": True}, "reuse"),
                         ({"playout": "greedy"}, "playout"), ({"leaf_depth": 1}, "leaf_depth"),
                         ({"allow_stop": False}, "allow_stop")):
        with pytest.raises(SettingsError, match=f"^MCTSAgent: {name} applies only to "
                                                "tree=move, not to tree=junction$"):
            MCTSAgent(**values)
    for values, name in (({"survival": 0.5}, "survival"), ({"escape": 0}, "escape"),
                         ({"cycles": 0}, "cycles")):
        with pytest.raises(SettingsError, match=f"^MCTSAgent: {name} applies only to "
                                                "tree=junction, not to tree=move$"):
            MCTSAgent(tree="move", **values)


def test_the_old_search_is_reachable_with_tree_move() -> None:
    agent = MCTSAgent(tree="move", playouts=40)
    assert agent.describe() == "MCTSAgent playouts=40 score horizon=10 c=1"  # as it always was
    assert (agent.horizon, agent.ghost_model) == (10, "uniform")
    agent.rng = random.Random(5)
    state = GameState.initial(load_layout("smallClassic"))
    move = agent.get_action(state)
    seed = random.Random(5).getrandbits(64)
    decision = mcts_search(state, score_evaluation, random.Random(seed), playouts=40,
                           horizon=10)
    assert move == decision.action and agent.last_decision == decision
    assert STOP in [m.action for m in decision.root]


def test_a_junction_game_is_the_same_game_for_the_same_seed() -> None:
    def play() -> tuple[str, int, tuple[str, ...], int]:
        record = run_game(load_layout("smallClassic"), MCTSAgent(playouts=30, escape=6),
                          [DirectionalGhost(1), DirectionalGhost(2)], seed=4, max_moves=20)
        return str(record.outcome), record.score, record.actions, record.pacman_nodes

    first = play()
    assert first == play()
    assert "Stop" not in first[2][::3]


# --------------------------------------------------------------------------- chase tables

def test_a_playout_that_ends_alive_counts_the_chase_tables_survival() -> None:
    import pacman.agents.mcts_junction as junction
    from pacman.agents.mcts_core import PlayoutBudget
    from pacman.agents.survival import chase_value

    state = medium()
    tables = chase_tables(state)
    asked: list[float] = []

    def spy(s: GameState, held: dict[int, object], wins: bool = False) -> float | None:
        assert held is tables and wins and not (s.is_win() or s.is_lose())
        value = chase_value(s, tables, wins)
        assert value is not None
        asked.append(value)
        return value

    graph = junction_graph(state.layout.walls, state.layout.width, state.layout.height)
    search = junction._JunctionSearch(state, graph, random.Random(3).random, (WEST, EAST), 12,
                                      1.0, directional_distribution, 0.7, tables)
    original = junction.chase_value
    junction.chase_value = spy  # type: ignore[assignment]
    try:
        search.run(PlayoutBudget(40, None, None, lambda: 0.0))
    finally:
        junction.chase_value = original
    root = search.root
    caught = 40 - len(asked)
    # every playout that was not caught counted the table's value where it ended as its
    # survival (a caught one counts 0)
    assert sum(root.counts.values()) == 40 and 0 <= caught < 40
    assert sum(root.alive.values()) == pytest.approx(sum(asked), abs=1e-12)
    assert min(asked) < 1.0


def test_chase_tables_of_horizon_0_change_no_draw_and_no_decision() -> None:
    from pacman.chase.tables import survival_table

    state = medium()
    tables = {ghosts: survival_table(state.layout, ghosts=ghosts, horizon=0) for ghosts in (1, 2)}
    plain = junction_search(state, random.Random(2), playouts=80,
                            chance=directional_distribution, trace=True)
    with_tables = junction_search(state, random.Random(2), playouts=80,
                                  chance=directional_distribution, trace=True, tables=tables)
    assert with_tables == plain  # V_0 is 1 wherever Pacman is not caught


def test_the_chase_setting_is_described_refused_with_tree_move_and_replays() -> None:
    assert MCTSAgent(chase=15).describe() == (
        "MCTSAgent playouts=200 tree=junction horizon=30 c=1 ghost_model=directional "
        "survival=0.7 escape=12 chase=15 chase_margin=0.01 cycles=0.3")
    assert MCTSAgent(chase=0).describe().endswith(" escape=12 chase=0 cycles=0.3")
    with pytest.raises(SettingsError, match=r"^MCTSAgent: chase applies only to "
                                            r"tree=junction, not to tree=move$"):
        MCTSAgent(tree="move", chase=15)
    assert MCTSAgent(tree="move", chase=0).describe() == MCTSAgent(tree="move").describe()
    for bad in (-1, "always", 1.5):
        with pytest.raises(SettingsError, match="chase must be auto or a whole number >= 0"):
            MCTSAgent(chase=bad)
    with pytest.raises(SettingsError, match=r"chase_margin applies only with the tables "
                                            r"\(chase=auto or chase=H\), not with chase=0$"):
        MCTSAgent(chase=0, chase_margin=0.1)
    with pytest.raises(SettingsError, match=r"^MCTSAgent: chase_margin applies only to "
                                            r"tree=junction, not to tree=move$"):
        MCTSAgent(tree="move", chase_margin=0.1)
    assert MCTSAgent(chase=15, chase_margin=0.1).describe().endswith(
        " chase=15 chase_margin=0.1 cycles=0.3")
    assert MCTSAgent(chase_margin=1).describe().endswith(" chase=auto chase_margin=1 cycles=0.3")

    def play() -> tuple[str, int, tuple[str, ...], int]:
        record = run_game(load_layout("smallClassic"), MCTSAgent(playouts=30, chase=8),
                          [DirectionalGhost(1), DirectionalGhost(2)], seed=4, max_moves=20)
        return str(record.outcome), record.score, record.actions, record.pacman_nodes

    first = play()
    assert first == play()


def test_chase_auto_builds_the_tables_of_horizon_15_on_a_layout_within_the_limit(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import pacman.agents.mcts as mcts
    from pacman.chase.moves import chase_moves, table_states
    from pacman.chase.tables import survival_table

    for name in ("smallClassic", "trappedClassic", "mediumClassic"):
        layout = load_layout(name)
        moves = chase_moves(layout, "directional", 0.8)
        for ghosts in (1, 2):
            assert table_states(layout, ghosts) == len(moves.cells) * len(moves.configs) ** ghosts
    state = GameState.initial(load_layout("smallClassic"), 2)  # 1,440,000 states with two
    monkeypatch.setattr(mcts, "AUTO_CHASE_STATES", 1_440_000)
    agent = MCTSAgent(playouts=30)
    agent.register_initial_state(state)
    tables = agent._chase_tables(state)
    assert tables is not None and sorted(tables) == [1, 2]
    assert all(table is survival_table(state.layout, ghosts=ghosts, horizon=15)
               for ghosts, table in tables.items())
    monkeypatch.setattr(mcts, "AUTO_CHASE_STATES", 1_439_999)
    for agent in (MCTSAgent(playouts=30), MCTSAgent(playouts=30, chase=0),
                  MCTSAgent(tree="move", playouts=30)):
        agent.register_initial_state(state)
        assert agent._chase_tables(state) is None
    explicit = MCTSAgent(playouts=30, chase=15)  # asked for: built whatever the limit
    assert explicit._chase_tables(state) == tables


def test_the_default_agent_searches_with_the_tables_and_the_margin() -> None:
    state = GameState.initial(load_layout("smallClassic"), 2)
    tables = chase_tables(state)
    for _ in range(6):  # a few moves in, where the ghosts are near enough to matter
        state = state.successor(0, WEST if WEST in state.legal_actions(0) else EAST)
        for agent in (1, 2):
            state = state.successor(agent, state.legal_actions(agent)[0])
    agent = MCTSAgent(playouts=60, trace=True)
    agent.rng = random.Random(3)
    agent.register_initial_state(state)
    agent.get_action(state)
    seed = random.Random(3).getrandbits(64)
    expected = junction_search(state, random.Random(seed), playouts=60,
                               chance=directional_distribution, escape=12, tables=tables,
                               margin=0.01, trace=True)
    assert agent.last_decision == expected
    plain = junction_search(state, random.Random(seed), playouts=60,
                            chance=directional_distribution, escape=12, trace=True)
    assert expected != plain  # the tables change the search here


def test_the_table_cut_stands_still_when_only_stop_survives() -> None:
    from pacman.agents.survival import move_survival

    # a position of a game the default MCTS lost on 2026-12-07: Pacman in mediumClassic's
    # ghost house, a ghost at its door heading in, the other far off
    start = GameState.initial(load_layout("mediumClassic"), 2)
    state = start.recreate([406, "West", [674, "East", 0, 452, "South", 0],
                            192258229865786281100687631, 0, 486, 0])
    assert (state.pacman_position, state.ghost_positions) == ((9, 5), ((15, 7), (10, 6)))
    tables = chase_tables(state)
    values = move_survival(state, (WEST, EAST, NORTH, STOP), tables)
    assert values[3] == 1.0 and max(values[:3]) < 0.2  # every move but Stop walks into it
    search = dict(playouts=60, chance=directional_distribution, escape=12, trace=True)
    decision = junction_search(state, random.Random(1), tables=tables, margin=0.01, **search)
    assert decision.action == STOP and decision.playouts == 0
    assert junction_search(state, random.Random(1), **search).action != STOP  # no Stop edge
    # Stop among other moves within the margin is not played: the tree searches the others
    assert junction_search(state, random.Random(1), tables=tables, margin=0.9,
                           **search).action != STOP


def test_chase_margin_cuts_the_root_to_the_moves_near_the_best_survival() -> None:
    from pacman.agents.survival import move_survival
    from pacman.chase.tables import survival_table

    state = GameState.initial(load_layout("smallClassic"), 2)
    tables = {ghosts: survival_table(state.layout, ghosts=ghosts, horizon=10)
              for ghosts in (1, 2)}
    rng = random.Random(0)
    cut = 0
    for _ in range(200):  # a random walk against directional ghosts, checked at every turn
        moves = tuple(move for move in state.legal_actions(0) if move != STOP)
        values = move_survival(state, moves, tables)
        assert values is not None
        kept = [move for move, value in zip(moves, values, strict=True)
                if value >= max(values) - 0.1]
        decision = junction_search(state, random.Random(1), playouts=20,
                                   chance=directional_distribution, tables=tables, margin=0.1)
        if len(kept) > 1:
            assert [move.action for move in decision.root] == kept
        else:
            assert (decision.action, decision.stopped) == (kept[0], "single")
        cut += len(kept) < len(moves)
        state = state.successor(0, rng.choice(moves))
        for ghost in (1, 2):
            if state.is_win() or state.is_lose():
                break
            actions = state.legal_actions(ghost)
            state = state.successor(ghost, actions[sample_index(directional_distribution(
                state, ghost, actions), rng.random())])
        if state.is_win() or state.is_lose():
            state = GameState.initial(load_layout("smallClassic"), 2)
    assert cut > 0  # the walk met positions where a move was dropped


@pytest.mark.parametrize(("ghost_model", "expected"), [
    ("directional", "directional"), ("uniform", "random"), ("adversarial", "adversarial"),
    ("pincer", "adversarial")])
def test_the_tables_and_the_root_round_take_the_ghosts_alike(
        monkeypatch: pytest.MonkeyPatch, ghost_model: str, expected: str) -> None:
    # chase_margin values each root move by one round of the game and then the tables: the
    # ghosts of that round are the tables' own, whatever the search's ghost model
    import pacman.agents.mcts as mcts_module
    import pacman.agents.mcts_junction as junction_module

    seen: dict[str, str] = {}
    real_tables, real_survival = mcts_module.layout_tables, junction_module.move_survival

    def tables(layout: Any, ghosts: int, model: str, horizon: int) -> Any:
        seen["tables"] = model
        return real_tables(layout, ghosts, model, horizon)

    def survival(state: Any, actions: Any, tables: Any, model: str = "directional",
                 wins: bool = False) -> Any:
        seen["round"], seen["wins"] = model, wins
        return real_survival(state, actions, tables, model, wins)

    monkeypatch.setattr(mcts_module, "layout_tables", tables)
    monkeypatch.setattr(junction_module, "move_survival", survival)
    state = GameState.initial(load_layout("smallClassic"), 2)
    agent = MCTSAgent(playouts=10, ghost_model=ghost_model, escape=0, chase=6, chase_margin=0.1)
    agent.register_initial_state(state)
    agent.get_action(state)
    assert seen == {"tables": expected, "round": expected, "wins": True}


# --------------------------------------------------------------------------- cycle breaker

def test_the_cycle_breaker_takes_the_best_mean_less_the_penalty_for_moves_played_here() -> None:
    # (survival=0: every visited move is safe, so both are the decision's candidates)
    search: dict[str, Any] = {"chance": directional_distribution, "playouts": 80,
                              "survival": 0.0}
    plain = junction_search(medium(), random.Random(2), **search)
    assert plain.action == WEST and [m.visits for m in plain.root] == [44, 36]
    assert plain.root[1].mean > plain.root[0].mean  # East: fewer visits, a better mean
    # nothing played here before, or the breaker off: the plain search, draw for draw
    assert junction_search(medium(), random.Random(2), cycles=0.5, played={}, **search) == plain
    assert junction_search(medium(), random.Random(2), cycles=0, played={WEST: 3},
                           **search) == plain
    west, east = plain.root
    for played, cycles in (({WEST: 1}, 1.0), ({WEST: 1}, 1e-9), ({EAST: 2}, 0.05),
                           ({WEST: 1, EAST: 1}, 0.2)):
        decision = junction_search(medium(), random.Random(2), cycles=cycles, played=played,
                                   **search)
        assert decision.root == plain.root  # the same search
        penalised = {move.action: move.mean - cycles * played.get(move.action, 0)
                     for move in (west, east)}
        assert decision.action == max(penalised, key=lambda move: penalised[move])
        assert decision.best_actions == (decision.action,)
    assert junction_search(medium(), random.Random(2), cycles=1.0, played={WEST: 1},
                           **search).action == EAST
    # an unsafe move is never the breaker's: with the default threshold East is unsafe here
    default = {"chance": directional_distribution, "playouts": 80}
    assert junction_search(medium(), random.Random(2), cycles=1.0, played={WEST: 1},
                           **default).action == WEST
    with pytest.raises(ValueError, match="cycles must be a number of at least 0"):
        junction_search(medium(), random.Random(2), cycles=-0.1, **search)


def test_the_cycles_setting_is_described_refused_with_tree_move_and_remembers_each_game(
        ) -> None:
    assert MCTSAgent(cycles=0.1).describe().endswith(" chase=auto chase_margin=0.01 cycles=0.1")
    assert MCTSAgent().describe().endswith(" chase_margin=0.01 cycles=0.3")  # on by default
    assert MCTSAgent(cycles=0).describe().endswith(" chase_margin=0.01 cycles=0")  # off
    assert "cycles" not in MCTSAgent(tree="move").describe()
    with pytest.raises(SettingsError, match=r"^MCTSAgent: cycles applies only to "
                                            r"tree=junction, not to tree=move$"):
        MCTSAgent(tree="move", cycles=0.1)
    agent = MCTSAgent(playouts=30, escape=6, cycles=0.1)

    def play() -> tuple[str, int, tuple[str, ...], int]:
        record = run_game(load_layout("smallClassic"), agent,
                          [DirectionalGhost(1), DirectionalGhost(2)], seed=4, max_moves=40)
        return str(record.outcome), record.score, record.actions, record.pacman_nodes

    first = play()
    assert sum(sum(moves.values()) for moves in agent._played.values()) == len(first[2][::3])
    assert first == play()  # (a new game forgets the last one's positions)


def test_the_cycle_breaker_remembers_pacmans_cell_and_the_food_wherever_the_ghosts_are(
        ) -> None:
    start = medium()
    moved = start.successor(1, start.legal_actions(1)[0])  # a ghost moved, nothing else
    assert moved.position != start.position
    assert _pacmans_position(moved) == _pacmans_position(start)
    ate = start.successor(0, WEST)
    assert _pacmans_position(ate) != _pacmans_position(start)


# Positions of games the default MCTS lost on 2026-12-07 at time=0.1, where the escape check
# (ghosts that all chase him) keeps West alone and West was played without the tables, Pacman
# caught some ten moves later. By the directional ghosts' exact table (West, North, Stop):
# on mediumClassic Stop is safe and West is not (the one-move root must be weighed against
# Stop); on smallClassic, a ghost beside Pacman heading at him, North is worth 0.92 and West
# 0.61 (the table cut must run before the escape check, which would have dropped North).
@pytest.mark.parametrize(("layout", "compact", "cells", "values", "expected"), [
    ("mediumClassic", [574, "South", [578, "South", 0, 402, "East", 0],
                       192258229866989288788328448, 0, 808, 0],
     ((13, 1), ((13, 3), (9, 3))), (0.649, 0.133, 1.0), STOP),
    ("smallClassic", [114, "West", [174, "West", 0, 142, "West", 0], 35817828227481600, 0,
                      440, 0],
     ((4, 1), ((6, 3), (5, 1))), (0.613, 0.919, 0.0), NORTH),
], ids=["weighed-against-stop", "cut-before-escape"])
def test_the_table_cut_overrules_the_move_the_escape_check_alone_keeps(
        layout: str, compact: list[object], cells: tuple[object, ...],
        values: tuple[float, ...], expected: Any) -> None:
    from pacman.agents.escape import escaping_moves
    from pacman.agents.survival import move_survival

    state = GameState.initial(load_layout(layout), 2).recreate(compact)
    assert (state.pacman_position, state.ghost_positions) == cells
    assert escaping_moves(state, (WEST, NORTH), 12) == [WEST]
    tables = chase_tables(state)
    exact = move_survival(state, (WEST, NORTH, STOP), tables)
    assert exact is not None and tuple(round(value, 3) for value in exact) == values
    search = dict(playouts=60, chance=directional_distribution, escape=12, trace=True)
    decision = junction_search(state, random.Random(1), tables=tables, margin=0.01, **search)
    assert (decision.action, decision.playouts) == (expected, 0)  # the cut left one move
    assert junction_search(state, random.Random(1), **search).action == WEST  # no tables
    assert default_agents_move(state) == expected  # the default agent, as in the game
