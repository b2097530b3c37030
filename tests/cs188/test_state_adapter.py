"""The camelCase state: every CS188 API value equals what the classic code returns.

`data/classic_api.json.gz` was recorded by running the classic CS188 `GameState` along seeded
random games (4 layouts, 1-3 ghosts, scared ghosts at half-integer positions included): at
each state, every query a student can make. Here our adapter replays the same games and must
answer identically (the values' `repr`s, so `3` and `3.0` differ).
"""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path
from typing import Any

import pytest

from pacman.cs188.state import CS188GameState, GameContext
from pacman.layout import load_layout, parse_layout
from pacman.state import GameState

GOLDEN = Path(__file__).parent / "data" / "classic_api.json.gz"


def snapshot(s: CS188GameState, full: bool) -> dict[str, Any]:
    """The same queries, in the same form, as the recording script made."""
    d: dict[str, Any] = {}
    n = s.getNumAgents()
    d["n"] = n
    d["legal"] = [s.getLegalActions(i) for i in range(n)]
    d["pac"] = repr(s.getPacmanPosition())
    ps = s.getPacmanState()
    d["pacstate"] = [repr(ps.getPosition()), ps.getDirection(), repr(ps.configuration.pos),
                     ps.configuration.direction, ps.scaredTimer, repr(ps.start.pos),
                     ps.isPacman]
    d["ghosts"] = [repr(p) for p in s.getGhostPositions()]
    d["gstates"] = [[repr(g.getPosition()), g.getDirection(), g.scaredTimer,
                     repr(g.start.pos), g.start.direction, g.isPacman]
                    for g in s.getGhostStates()]
    d["gpos_i"] = [repr(s.getGhostPosition(i)) for i in range(1, n)]
    d["score"] = repr(s.getScore())
    d["caps"] = repr(sorted(s.getCapsules()))
    d["nfood"] = s.getNumFood()
    d["win"], d["lose"] = s.isWin(), s.isLose()
    d["hash_eq"] = s == s.deepCopy()
    food = s.getFood()
    d["hasfood"] = [s.hasFood(x, y) for x in range(food.width)
                    for y in range(food.height)].count(True)
    if full:
        d["food"] = repr(food.asList())
        d["foodstr"] = str(food)
        d["walls"] = repr(s.getWalls().asList()[:50])
        d["str"] = str(s)
    return d


def games() -> list[dict[str, Any]]:
    with gzip.open(GOLDEN, "rt", encoding="utf-8") as handle:
        data: list[dict[str, Any]] = json.load(handle)
    return data


@pytest.mark.parametrize("game", games(), ids=lambda g: "-".join(map(str, g["plan"])))
def test_every_query_answers_as_the_classic_state(game: dict[str, Any]) -> None:
    name, ghosts, seed = game["plan"]
    choose = random.Random(seed * 1000 + ghosts)
    state = CS188GameState(GameState.initial(load_layout(name), ghosts))
    agent = 0
    for recorded in game["trace"]:
        assert snapshot(state, "str" in recorded) == recorded
        if state.isWin() or state.isLose():
            break
        state = state.generateSuccessor(agent, choose.choice(sorted(
            state.getLegalActions(agent))))
        agent = (agent + 1) % state.getNumAgents()


SMALL = parse_layout("%%%%%%\n%P. G%\n%%%%%%\n", "tiny")


def test_ghost_queries_reject_pacman_and_missing_ghosts() -> None:
    state = CS188GameState(GameState.initial(SMALL))
    with pytest.raises(Exception, match="Pacman"):
        state.getGhostState(0)
    with pytest.raises(Exception, match="Invalid index"):
        state.getGhostPosition(2)


def test_successors_of_a_finished_game_and_illegal_moves_raise() -> None:
    state = CS188GameState(GameState.initial(SMALL))
    with pytest.raises(Exception, match=r"[Ii]llegal"):
        state.generateSuccessor(0, "North")
    won = state.generateSuccessor(0, "East")
    assert won.isWin() and won.getLegalActions() == []
    with pytest.raises(Exception, match="terminal"):
        won.generateSuccessor(0, "Stop")


def test_legal_action_lists_are_fresh_plain_strings() -> None:
    state = CS188GameState(GameState.initial(SMALL))
    actions = state.getLegalActions()
    assert actions == ["Stop", "East"] and all(type(a) is str for a in actions)
    actions.remove("Stop")
    assert state.getLegalActions() == ["Stop", "East"]


def test_explored_states_are_counted_by_value_when_asked() -> None:
    context = GameContext()
    root = context.wrap(GameState.initial(load_layout("smallClassic"), 2))
    root.generateSuccessor(0, "West")
    assert len(context.explored) == 0  # off unless a grader switches it on
    context.explored.counting = True
    for action in root.getLegalActions():
        child = root.generateSuccessor(0, action)
        child.generateSuccessor(1, child.getLegalActions(1)[0])
    again = root.generateSuccessor(0, root.getLegalActions()[0])  # an equal state
    assert again == root.generateSuccessor(0, root.getLegalActions()[0])
    # the root, its 3 children, one grandchild each
    assert context.explored.reset() == 1 + 2 * len(root.getLegalActions())
    assert context.explored.reset() == 0


# --- `state.data`: the classic fields students read ------------------------------------------


def played(layout_name: str, ghosts: int, moves: int, seed: int) -> list[CS188GameState]:
    """The adapter states of a seeded random game (Pacman and ghosts move at random)."""
    rng = random.Random(seed)
    state = GameState.initial(load_layout(layout_name), ghosts)
    context = GameContext()
    states = [context.wrap(state)]
    for turn in range(moves):
        if state.is_terminal():
            break
        agent = turn % state.num_agents
        state = state.successor(agent, rng.choice(state.legal_actions(agent)))
        states.append(context.wrap(state))
    return states


@pytest.mark.parametrize("layout_name, ghosts", [("smallClassic", 2), ("mediumClassic", 2),
                                                 ("trickyClassic", 4)])
def test_the_data_fields_hold_the_classic_values(layout_name: str, ghosts: int) -> None:
    layout = load_layout(layout_name)
    for s in played(layout_name, ghosts, 300, seed=len(layout_name)):
        data = s.data
        assert data.layout.walls.data == s.getWalls().data
        assert (data.layout.width, data.layout.height) == (layout.width, layout.height)
        assert data.layout.totalFood == len(layout.food) == data.layout.food.count()
        assert data.layout.numGhosts == ghosts
        assert data.layout.capsules == list(layout.capsules)
        assert data.layout.agentPositions[0] == (True, layout.pacman_start)
        assert data.food == s.getFood() and data.capsules == s.getCapsules()
        assert data.score == s.getScore() and isinstance(data.score, int)
        assert (data._win, data._lose) == (s.isWin(), s.isLose())
        agents = data.agentStates
        assert agents[0].configuration.pos == s.getPacmanPosition() and agents[0].isPacman
        assert agents[0].configuration.direction == s.getPacmanState().getDirection()
        for number, ghost in enumerate(agents[1:], start=1):
            classic = s.getGhostState(number)
            assert ghost.configuration.pos == classic.configuration.pos
            assert ghost.configuration.direction == classic.configuration.direction
            assert ghost.scaredTimer == classic.scaredTimer and not ghost.isPacman


def test_the_data_fields_are_read_only_and_changing_a_copy_changes_nothing() -> None:
    s = played("smallClassic", 2, 0, seed=0)[0]
    for target, name in ((s.data, "score"), (s.data, "food"), (s.data.layout, "totalFood"),
                         (s.data, "_win")):
        with pytest.raises(AttributeError, match="read-only"):
            setattr(target, name, 10**6)
    food = s.data.food
    x, y = food.asList()[0]
    food[x][y] = False
    s.data.layout.walls[0][0] = False
    s.data.agentStates[0].configuration.pos = (99, 99)
    s.data.agentStates[1].scaredTimer = 40
    assert s.getFood()[x][y] and s.data.food[x][y] and s.getWalls()[0][0]
    assert s.data.agentStates[0].configuration.pos == s.getPacmanPosition()
    assert s.data.agentStates[1].scaredTimer == 0 == s.getGhostState(1).scaredTimer
