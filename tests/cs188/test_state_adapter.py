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
