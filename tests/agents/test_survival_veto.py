"""The survival veto (`survival=H`): each root move valued by one round of the real game and
the exact survival table after it."""

from __future__ import annotations

import random

import pytest
from default_mcts import default_agents_move

from pacman import GameState, load_layout
from pacman.agents.ghosts import DirectionalGhost
from pacman.agents.registry import make_agent
from pacman.agents.survival import (
    chase_model,
    layout_tables,
    move_survival,
    survival_root,
    within_margin,
)
from pacman.chase.tables import survival_table
from pacman.rules import NORTH, SOUTH, STOP


def positions(layout_name: str, games: int, moves: int, scared: bool = False
              ) -> list[GameState]:
    """Pacman-turn states of random games against directional ghosts (with `scared`, those
    with a ghost scared, else those without)."""
    found = []
    rng = random.Random(7)
    for _ in range(games):
        state = GameState.initial(load_layout(layout_name))
        ghosts = [DirectionalGhost(i) for i in range(1, state.num_agents)]
        for _ in range(moves):
            if state.is_win() or state.is_lose():
                break
            if any(state.scared_timers) == scared:
                found.append(state)
            state = state.successor(0, rng.choice(state.legal_actions(0)))
            for ghost in ghosts:
                if state.is_win() or state.is_lose():
                    break
                actions, chances = zip(*ghost.distribution(state))
                state = state.successor(ghost.index, rng.choices(actions, chances)[0])
    return found


@pytest.mark.parametrize("model", ["directional", "random", "adversarial"])
@pytest.mark.parametrize("layout_name", ["smallClassic", "trappedClassic"])
def test_the_best_move_is_worth_the_next_horizon_of_the_table(layout_name: str,
                                                              model: str) -> None:
    # One round of the real game, then V_H: the best move's value is V_{H+1} of the table, on
    # every position met (the veto and the dynamic programme agree to rounding), for the ghosts
    # of each model: their probabilities, or (adversarial) the move worst for Pacman
    layout = load_layout(layout_name)
    shorter = survival_table(layout, ghosts=2, model=model, horizon=4)
    longer = survival_table(layout, ghosts=2, model=model, horizon=5)
    checked = 0
    for state in positions(layout_name, 6, 40):
        values = move_survival(state, state.legal_actions(0), {2: shorter}, model)
        expected = longer.of_state(state)
        if values is None or expected is None:
            continue
        assert max(values) == pytest.approx(expected, abs=1e-12)
        checked += 1
    assert checked >= 10


def test_each_ghost_model_has_its_chase_model() -> None:
    assert [chase_model(name) for name in ("directional", "uniform", None, "adversarial",
                                           "pincer")] == [
        "directional", "random", "random", "adversarial", "adversarial"]


def test_within_margin_keeps_the_moves_near_the_best_in_their_order() -> None:
    assert within_margin(["N", "S", "E", "W"], [0.5, 0.95, 0.9, 0.84], 0.1) == ["S", "E"]
    assert within_margin(["N", "S"], [0.3, 0.3], 0.0) == ["N", "S"]


def test_the_veto_keeps_the_moves_within_the_margin_of_the_best() -> None:
    layout = load_layout("smallClassic")
    table = survival_table(layout, ghosts=2, horizon=6)
    cut_somewhere = False
    for state in positions("smallClassic", 6, 60):
        legal = state.legal_actions(0)
        generator, values = survival_root(state, None, {2: table}, 0.1)
        if values is None:
            assert generator is None
            continue
        kept = legal if generator is None else generator(state, 0)
        assert list(kept) == [a for a, v in zip(legal, values) if v >= max(values) - 0.1]
        cut_somewhere |= len(kept) < len(legal)
    assert cut_somewhere  # the positions include one where a move is dropped


def test_the_setting_is_shown_and_off_by_default() -> None:
    agent = make_agent("iterative-expectimax", "pacman", {"survival": 12,
                                                          "ghost_model": "directional"})
    assert "survival=12" in agent.settings_text()
    assert "survival" not in make_agent("iterative-expectimax", "pacman", {}).settings_text()
    narrow = make_agent("iterative-expectimax", "pacman", {"survival": 12,
                                                           "survival_margin": 0.05})
    assert "survival_margin=0.05" in narrow.settings_text()


def test_the_leaf_term_takes_weight_times_the_missing_survival_off() -> None:
    from pacman.agents.survival import SurvivalAware

    table = survival_table(load_layout("smallClassic"), ghosts=2, horizon=6)
    evaluation = SurvivalAware(lambda state: 10.0, 300.0, lambda: {2: table})
    seen_below_one = False
    for state in positions("smallClassic", 4, 60):
        survival = table.of_state(state)
        assert survival is not None  # no ghost is scared in these positions
        assert evaluation(state) == pytest.approx(10.0 - 300.0 * (1.0 - survival), abs=1e-9)
        seen_below_one |= survival < 1
    assert seen_below_one
    assert SurvivalAware(lambda state: 10.0, 300.0, lambda: None)(state) == 10.0


def test_the_leaf_term_is_in_the_agent_only_with_a_weight() -> None:
    from pacman.agents.survival import SurvivalAware

    weighted = make_agent("iterative-expectimax", "pacman", {"survival": 6,
                                                             "survival_weight": 300})
    assert isinstance(weighted.evaluation, SurvivalAware)
    assert "survival_weight=300" in weighted.settings_text()
    plain = make_agent("iterative-expectimax", "pacman", {"survival": 6})
    assert not isinstance(plain.evaluation, SurvivalAware)


def test_with_a_ghost_scared_the_dangerous_one_is_chased_alone() -> None:
    from pacman.agents.survival import chase_value

    layout = load_layout("smallClassic")
    one = survival_table(layout, ghosts=1, horizon=6)
    two = survival_table(layout, ghosts=2, horizon=6)
    checked = 0
    for state in positions("smallClassic", 4, 60):
        data = state.compact()
        for scared in (1, 2):  # the same position with one ghost's timer set
            ghosts = list(data[2])
            ghosts[3 * (scared - 1) + 2] = 5
            mixed = state.recreate([data[0], data[1], ghosts, *data[3:]])
            assert mixed.scared_timers[scared - 1] == 5
            dangerous = 3 - scared
            assert chase_value(mixed, {1: one, 2: two}) == one.of_state(mixed, [dangerous])
            checked += 1
        both = list(data[2])
        both[2] = both[5] = 5
        assert chase_value(state.recreate([data[0], data[1], both, *data[3:]]),
                           {1: one, 2: two}) == 1.0
    assert checked >= 20


# ------------------------------------------------------------------ the sure win (wins=True)

def _wins_on_the_line(state: GameState, moves: int, memo: dict[tuple[GameState, int], bool],
                      agent: int = 0) -> bool:
    """Pacman, stepping towards the nearest dot left (the first move in legal order that
    brings him closer), eats the last dot within `moves` moves, whatever legal moves the
    ghosts make (every reply tried)."""
    if state.is_win():
        return True
    if state.is_lose():
        return False
    key = (state, agent)
    if key in memo:
        return memo[key]
    if agent == 0:
        if moves == 0:
            return False
        here = state.pacman_position
        dot = min(state.food_positions, key=lambda food: state.maze_distance(here, food))
        closer = next(action for action in state.legal_actions(0)
                      if state.maze_distance(state.successor(0, action).pacman_position, dot)
                      < state.maze_distance(here, dot))
        result = _wins_on_the_line(state.successor(0, closer), moves - 1, memo, 1)
    else:
        after = agent + 1 if agent + 1 < state.num_agents else 0
        result = all(_wins_on_the_line(state.successor(agent, action), moves, memo, after)
                     for action in state.legal_actions(agent))
    memo[key] = result
    return result


@pytest.mark.parametrize("layout_name", ["smallClassic", "contestClassic"])
def test_a_sure_win_is_won_on_its_line_whatever_the_ghosts_do(layout_name: str) -> None:
    # Positions of random games with the food cut down to one to three dots near Pacman:
    # wherever sure_win says so, every sequence of the ghosts' legal moves loses to Pacman
    # walking the line (as many moves as the farthest dot is away)
    from pacman.agents.survival import sure_win

    rng = random.Random(3)
    sure = unsure = 0
    for state in positions(layout_name, 12, 60):
        cells = state.layout.food
        here = state.pacman_position
        near = [bit for bit, cell in enumerate(cells) if 0 < state.maze_distance(here, cell) <= 7]
        if not near:
            continue
        chosen = rng.sample(near, min(len(near), rng.randint(1, 3)))
        data = state.compact()
        fewer = state.recreate([*data[:3], sum(1 << bit for bit in chosen), *data[4:]])
        if not sure_win(fewer):
            unsure += 1
            continue
        far = max(state.maze_distance(here, food) for food in fewer.food_positions)
        assert _wins_on_the_line(fewer, int(far), {}), fewer.compact()
        sure += 1
    assert sure >= 15 and unsure >= 15


#: a corridor of dots, Pacman at its West end, a side passage down from (3, 4); `G` marks
#: where the ghost stands: 3 moves from the passage's top (West of it on the line) and the
#: farthest dot 5 away (sure win), or 2 and 4 (the ghost's second move meets Pacman)
SIDE = ("%%%%%%%\n"
        "%P....%\n"
        "%%%.%%%\n"
        "%%%{}%%%\n"
        "%%%{}%%%\n"
        "%%%%%%%")


@pytest.mark.parametrize(("ghost_row", "sure"), [(1, True), (2, False)])
def test_a_ghost_as_far_from_the_last_dot_as_pacman_rules_the_sure_win_out(
        ghost_row: int, sure: bool) -> None:
    from pacman.agents.survival import sure_win
    from pacman.layout import parse_layout

    rows = ("G", ".") if ghost_row == 2 else (".", "G")
    state = GameState.initial(parse_layout(SIDE.format(*rows), "side"))
    assert state.ghost_positions == ((3, ghost_row),)
    assert state.maze_distance(state.ghost_positions[0], (5, 4)) == 6 - ghost_row
    state = state.recreate([*state.compact()[:3], sum(  # the corridor's dots only
        1 << bit for bit, cell in enumerate(state.layout.food) if cell[1] == 4),
        *state.compact()[4:]])
    assert state.food_positions == ((2, 4), (3, 4), (4, 4), (5, 4))
    assert sure_win(state) is sure
    assert _wins_on_the_line(state, 4, {}) is sure  # the line is won exactly when sure


def test_the_root_cut_with_sure_wins_keeps_the_move_into_the_last_dots_dead_end() -> None:
    # contestClassic, 2026-12-07 at time=0.1: the last two dots at (1, 3) and (1, 2), down a
    # dead end, both ghosts 7 moves away. The table, which knows no food, values South 0.906
    # and North 1.0 and the cut kept North: Pacman left, and the game ran to the move cap.
    # South eats both dots before a ghost can reach him
    state = GameState.initial(load_layout("contestClassic"), 2).recreate(
        [44, "South", [186, "East", 0, 228, "South", 0], 3, 1, 365, 0])
    assert state.pacman_position == (1, 4) and state.food_positions == ((1, 2), (1, 3))
    tables = layout_tables(state.layout, 2, "directional", 15)
    moves = [NORTH, SOUTH, STOP]
    assert set(moves) == set(state.legal_actions(0))
    old = move_survival(state, moves, tables)
    assert old is not None and [round(value, 3) for value in old] == [1.0, 0.906, 0.906]
    assert within_margin(moves, old, 0.01) == [NORTH]
    new = move_survival(state, moves, tables, wins=True)
    assert new == [1.0, 1.0, 1.0]  # Stop too: the ghosts are still too far
    assert within_margin(moves, new, 0.01) == moves
    assert default_agents_move(state) == SOUTH  # the default MCTS asks for the sure wins
