"""The agent host: the child process where one untrusted agent lives (`HostedAgent`'s other side).

The referee (`pacman.hosting.agent_host`) sends one request at a time and this side answers it:

- `build`: the agent by name and settings (the registry builds it here, so a user's file, a
  CS188 student's class or an `evaluation=module:function` is imported only in this process),
  and the layout's text and the number of ghosts, so that states can be rebuilt from their
  fields; the answer is the agent's `describe()` text;
- `resolve`: a batch configuration's agent resolved to its canonical settings, description
  and code files (`pacman.experiments.grid.canonical_agent`), for a batch that must not import
  the user's code itself;
- `call`: one of the agent's hooks (`set_rng`, `register_initial_state`, `get_action`, `final`)
  on a state rebuilt from the referee's (`GameState.recreate`): a fresh value for each call, so
  whatever the agent does to it stays here. The answer is the action's name (for
  `get_action`) and the `nodes_generated` of the agent's `last_decision`.

The agent's random numbers are the referee's: its generator (`RefereeRandom`) asks the referee
for every draw, so an agent here draws exactly the numbers it would draw in the referee's
process, in the same order as every other agent of the game. Whatever the agent raises is
answered as an error with the exception's name and text (the referee records a `crash`).
"""

from __future__ import annotations

import random
from typing import Any

from pacman.hosting.isolation import Channel, child_setup

__all__ = ["RefereeRandom", "main"]


class RefereeRandom(random.Random):
    """A generator whose every draw comes from the referee's generator of the game.

    `random()` and `getrandbits(k)` ask the referee over the channel; every other method of
    `random.Random` (`choice`, `shuffle`, `randint`, `uniform`, ...) is built on them, as in
    the referee's own generator, so it draws the same numbers. Seeding it or setting its state
    changes nothing: there is no state here to change."""

    def __init__(self, channel: Channel) -> None:
        super().__init__(0)
        self._channel = channel

    def _ask(self, request: dict[str, Any]) -> Any:
        self._channel.send({"draw": request})
        answer = self._channel.receive()
        if answer is None or "value" not in answer:
            raise SystemExit(70)  # the referee is gone
        return answer["value"]

    def random(self) -> float:
        """The referee's next float in [0, 1)."""
        return float(self._ask({"kind": "random"}))

    def getrandbits(self, k: int, /) -> int:
        """The referee's next `k` random bits."""
        if isinstance(k, bool) or not isinstance(k, int) or k < 0:
            raise ValueError("number of bits must be non-negative")
        return int(self._ask({"kind": "bits", "k": k}))


def _error(error: BaseException) -> dict[str, Any]:
    try:
        text = str(error)
    except BaseException:
        text = "<unprintable>"
    return {"error": {"type": type(error).__name__, "text": text}}


def main() -> None:
    """Serve one agent until the referee closes the channel."""
    channel = child_setup()
    agent: Any = None
    origin: Any = None
    while True:
        request = channel.receive()
        if request is None:
            return
        if "build" in request:
            agent, origin, answer = _build(request["build"])
            channel.send(answer)
            continue
        if "resolve" in request:
            channel.send(_resolve(request["resolve"]))
            continue
        channel.send(_call(agent, origin, request["call"], request.get("state"), channel))


def _resolve(request: dict[str, Any]) -> dict[str, Any]:
    """A batch configuration's agent, resolved here (`canonical_agent`) for a parent that will
    not import its code."""
    from pacman.experiments.grid import canonical_agent
    from pacman.task import AgentSpec

    try:
        spec, description, files = canonical_agent(
            AgentSpec.from_json(request["agent"]), str(request["role"]), int(request["index"]))
    except BaseException as error:  # the user's code may raise anything while it loads
        return _error(error)
    return {"resolved": {"agent": spec.to_json(), "description": description,
                         "files": [str(path) for path in files]}}


_ORIGINS: dict[tuple[str, str, int], Any] = {}  # the last board's first state


def _build(request: dict[str, Any]) -> tuple[Any, Any, dict[str, Any]]:
    from pacman.agents.registry import make_agent
    from pacman.game import describe
    from pacman.layout import parse_layout
    from pacman.state import GameState

    try:
        board = (str(request["layout_text"]), str(request["layout_name"]),
                 int(request["num_ghosts"]))
        origin = _ORIGINS.get(board)
        if origin is None:  # a host plays game after game on the same board: parse it once
            _ORIGINS.clear()
            origin = _ORIGINS[board] = GameState.initial(parse_layout(board[0], board[1]),
                                                         board[2])
        agent = make_agent(request["name"], request["role"], request["settings"],
                           index=int(request["index"]))
    except BaseException as error:  # the user's code may raise anything while it loads
        return None, None, _error(error)
    # the optional hooks it has: the referee calls no other (one round trip less each)
    hooks = [hook for hook in ("set_rng", "register_initial_state", "final")
             if callable(getattr(agent, hook, None))]
    try:  # a description that fails is the game's business (a crash), not the build's
        return agent, origin, {"built": describe(agent), "hooks": hooks}
    except BaseException as error:
        return agent, origin, {"built": None, "describe_error": _error(error)["error"],
                               "hooks": hooks}


def _call(agent: Any, origin: Any, hook: str, fields: Any,
          channel: Channel) -> dict[str, Any]:
    try:
        if hook == "set_rng":
            method = getattr(agent, "set_rng", None)
            if callable(method):
                method(RefereeRandom(channel))
            return {"done": None}
        method = getattr(agent, hook, None)
        if hook != "get_action" and not callable(method):
            return {"done": None}  # an optional hook the agent does not have
        state = origin.recreate(fields)
        result = method(state)  # type: ignore[misc]  # get_action: checked when built
        if hook != "get_action":
            return {"done": None}
        decision = getattr(agent, "last_decision", None)
        nodes = getattr(decision, "nodes_generated", None)
        answer: dict[str, Any] = {"nodes": nodes if type(nodes) is int else None}
        if isinstance(result, str):  # legal or not, the referee judges it
            answer["done"] = str.__str__(result) if not hasattr(result, "value") else (
                str(result.value))
        else:  # not an action at all: the referee records it by its repr
            answer["unreadable"] = repr(result)[:80]
        return answer
    except BaseException as error:  # the agent's own fault: the referee records it
        return _error(error)


if __name__ == "__main__":
    main()
