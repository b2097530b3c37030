"""The agents built on agents/multiplayer.py: `MaxnGhost` and `ExpectiminimaxAgent`."""

from __future__ import annotations

import pytest

from pacman import Direction, GameState, load_layout
from pacman.agents.expectiminimax_agent import ExpectiminimaxAgent, parse_kinds
from pacman.agents.maxn_ghost import CATCH_UTILITY, MaxnGhost, TurnView, catcher, game_utilities
from pacman.agents.pacman_agents import ExpectimaxAgent, MinimaxAgent
from pacman.agents.registry import make_agent
from pacman.cli import main
from pacman.demos.demo import Matchup, play_matchup
from pacman.errors import RegistryError
from pacman.layout import parse_layout
from pacman.specs import AgentSpec

# Ghost 1 at x=1, Pacman at x=3, the only food at x=4, ghost 2 at x=6 (all on y=1).
CORRIDOR = parse_layout("%%%%%%%%\n%1 P. 2%\n%%%%%%%%", "corridor")
EAST, WEST = Direction.EAST, Direction.WEST


def corridor() -> GameState:
    """The corridor's start."""
    return GameState.initial(CORRIDOR)


# ------------------------------------------------------------------------------ MaxnGhost

def test_utilities_of_a_running_game_by_hand() -> None:
    # Pacman's safe cells: x=3 (0 vs 2 and 3) and x=4 (1 vs 3 and 2); x=2 ties with ghost 1
    # and x=5 is nearer ghost 2: 2 cells. Maze distances to Pacman: ghost 1 2, ghost 2 3.
    state = corridor()
    assert game_utilities(state, "cooperative") == (2.0, -2.0, -2.0)
    assert game_utilities(state, "competitive") == (2.0, -2.0, -3.0)


def test_utilities_of_a_catch_depend_on_who_caught() -> None:
    caught = corridor().successor(0, WEST).successor(1, EAST)  # ghost 1 steps onto Pacman
    assert caught.is_lose() and catcher(caught) == 1
    c = CATCH_UTILITY
    assert game_utilities(caught, "cooperative") == (-c, c, c)
    assert game_utilities(caught, "competitive") == (-c, c, -c)
    won = corridor().successor(0, EAST)  # the last food
    assert won.is_win() and catcher(won) is None
    assert game_utilities(won, "cooperative") == game_utilities(won, "competitive") == (c, -c, -c)


def test_turn_view_starts_with_the_searching_ghost() -> None:
    state = corridor()
    view = TurnView(state, 2)
    assert [view.real(k) for k in range(3)] == [2, 0, 1]
    assert view.legal_actions(0) == state.legal_actions(2)
    assert view.legal_actions(1) == state.legal_actions(0)
    moved = view.successor(0, WEST).state
    assert moved.ghost_positions[1] == (5, 1) and moved.pacman_position == (3, 1)
    ghost = MaxnGhost(index=2, utilities="competitive")
    assert ghost.view_utilities(view) == (-3.0, 2.0, -2.0)  # (ghost 2, Pacman, ghost 1)


def test_maxn_ghost_plays_its_search_and_describes_itself() -> None:
    ghost = make_agent("maxn", "ghost", {"utilities": "competitive", "depth": 1}, index=2)
    assert ghost.describe() == "MaxnGhost depth=1 utilities=competitive"
    state = corridor().successor(0, WEST)
    action = ghost.get_action(state)
    assert ghost.last_decision is not None and action in ghost.last_decision.best_actions
    assert action == WEST  # the only legal move of a ghost at the start of the corridor's end
    assert sum(p for _, p in ghost.distribution(state)) == pytest.approx(1.0)


@pytest.mark.parametrize(("settings", "message"), [
    ({"depth": 0}, "depth must be a whole number >= 1, got 0"),
    ({"utilities": "friendly"}, "unknown utilities 'friendly' (choose cooperative or "
                                "competitive)"),
])
def test_maxn_ghost_rejects_bad_settings(settings: dict[str, object], message: str) -> None:
    with pytest.raises(RegistryError, match=message.replace("(", r"\(").replace(")", r"\)")):
        make_agent("MaxnGhost", "ghost", settings, index=1)


def test_same_seed_same_game_with_maxn_ghosts() -> None:
    matchup = Matchup("m", AgentSpec.of("GreedyAgent"),
                      (AgentSpec.of("MaxnGhost", {"depth": 1}),) * 2, "utilitiesRing",
                      max_moves=40)
    assert play_matchup(matchup, 3) == play_matchup(matchup, 3)


# -------------------------------------------------------------------- ExpectiminimaxAgent

def small_states() -> list[GameState]:
    """A few states of smallClassic with two ghosts."""
    state = GameState.initial(load_layout("smallClassic"), 2)
    states = [state]
    for action in (WEST, WEST, EAST):
        state = state.successor(0, action)
        for ghost in (1, 2):
            state = state.successor(ghost, state.legal_actions(ghost)[0])
        states.append(state)
    return states


@pytest.mark.parametrize("state", small_states())
def test_one_kind_for_every_ghost_is_minimax_or_expectimax(state: GameState) -> None:
    for kinds, plain in (("min", MinimaxAgent), ("chance", ExpectimaxAgent)):
        mixed = ExpectiminimaxAgent(depth=2, evaluation="better", kinds=kinds)
        reference = plain(depth=2, evaluation="better")
        assert mixed.get_action(state) == reference.get_action(state)
        assert mixed.last_decision == reference.last_decision


def test_kinds_per_ghost() -> None:
    agent = make_agent("expectiminimax", "pacman", {"kinds": "min,chance", "depth": 1})
    assert agent.describe() == "ExpectiminimaxAgent depth=1 score kinds=min,chance"
    assert agent.layer_kinds(3) == ("max", "min", "chance")
    assert agent.layer_kinds(2) == ("max", "min")  # ghosts the game does not have: ignored
    with pytest.raises(ValueError, match="kinds lists 2 ghosts but the game has 3"):
        agent.layer_kinds(4)
    assert ExpectiminimaxAgent(kinds="chance").layer_kinds(4) == ("max", *["chance"] * 3)
    with pytest.raises(ValueError, match="kinds lists 2 ghosts but the game has 4"):
        agent.register_initial_state(GameState.initial(load_layout("originalClassic"), 4))


def test_kinds_parsing() -> None:
    assert parse_kinds(" min , chance ") == ("min", "chance")
    assert parse_kinds(["max"]) == ("max",)
    for bad in ("min,dice", "", 3):
        with pytest.raises(ValueError, match="kinds must"):
            parse_kinds(bad)  # type: ignore[arg-type]


def test_bad_kinds_on_the_command_line_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["play", "-p", "expectiminimax", "-a", "kinds=min,dice", "-q", "--seed", "1"])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "kinds must list one of min, chance, max per ghost" in err
