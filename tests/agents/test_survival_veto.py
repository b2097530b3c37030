"""The survival veto (`survival=H`): each root move valued by one round of the real game and
the exact survival table after it."""

from __future__ import annotations

import random

import pytest

from pacman import GameState, load_layout
from pacman.agents.ghosts import DirectionalGhost
from pacman.agents.registry import make_agent
from pacman.agents.survival import chase_model, move_survival, survival_root, within_margin
from pacman.chase.tables import survival_table


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
