"""The agent host: the child process where one untrusted agent lives (`HostedAgent`'s other side).

The referee (`pacman.hosting.agent_host`) sends one request at a time and this side answers it:

- `build`: the agent by name and settings (the registry builds it here, so a user's file, a
  CS188 student's class or an `evaluation=module:function` is imported only in this process),
  and the layout's text and the number of ghosts, so that states can be rebuilt from their
  fields; the answer is the agent's `describe()` text;
- `resolve`: a batch configuration's agent resolved to its canonical settings, description
  and code files (`pacman.experiments.grid.canonical_agent`), for a batch that must not import
  the user's code itself;
- a hook call, `set_rng`, `register_initial_state`, `get_action` or `final` (the hot path:
  one a move, so it skips JSON): one line, the hook's letter (`s`, `r`, `a`, `f`) and the
  state's fields (`GameState.compact`) as words, food and capsules in hexadecimal (no limit on
  their size), the ghosts' fields last. The agent gets a state rebuilt from them
  (`GameState.recreate`): a fresh value for each call, so whatever the agent does to it stays
  here. The answer is one line too: `NODES ACTION` for a move (the `nodes_generated` of the
  agent's `last_decision`, `-` for none, and the action's name), `done` for another hook, or a
  JSON message for anything else (an error, an action that is not one of the five names).

The agent's random numbers are the referee's: its generator (`RefereeRandom`) asks the referee
for every draw, so an agent here draws exactly the numbers it would draw in the referee's
process, in the same order as every other agent of the game. Whatever the agent raises is
answered as an error with the exception's name and text (the referee records a `crash`).
"""

from __future__ import annotations

import json
import random
from typing import Any

from pacman.hosting.isolation import Channel, child_setup, follow_cpu
from pacman.rules import Direction

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
    """Serve one agent until the referee closes the channel.

    The hook calls bypass `Channel.receive` and `Channel.send` (JSON, a lock): this loop reads
    and writes raw lines (`receive_line`, `send_line`), one line each way a move, and only a
    line that starts with `{` is JSON (a `build` or a `resolve`). `RefereeRandom` still talks
    JSON over the same streams, between a call's line and its answer."""
    channel = child_setup()
    readline, write = channel.receive_line, channel.send_line
    agent: Any = None
    origin: Any = None
    while True:
        line = readline()
        if not line:
            return
        if line[0] != 0x7B:  # not `{`: a hook call
            write(_call(agent, origin, line, channel))
            continue
        request = json.loads(line)
        if "build" in request:
            agent, origin, answer = _build(request["build"])
            channel.send(answer)
        elif "resolve" in request:
            channel.send(_resolve(request["resolve"]))


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

    follow_cpu(request.get("cpu"))
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
    except BaseException as error:  # (the referee records the class's name instead)
        return agent, origin, {"built": None, "describe_error": _error(error)["error"],
                               "hooks": hooks, "class": type(agent).__name__}


#: an action's answer line after its node count, by the action's name (a `Direction` finds
#: its own: it hashes and compares as its name); any other action is answered in JSON
_ANSWERS = {name: f" {name}\n".encode() for name in ("North", "South", "East", "West", "Stop")}
_HOOKS = {0x73: "set_rng", 0x72: "register_initial_state", 0x61: "get_action", 0x66: "final"}
_DONE = b"done\n"


def _call(agent: Any, origin: Any, line: bytes, channel: Channel) -> bytes:
    """The answer line to one hook call's line (the referee's `HostedAgent._exchange`)."""
    try:
        hook = _HOOKS[line[0]]
        method: Any = getattr(agent, hook, None)
        if hook == "set_rng":
            if callable(method):
                method(RefereeRandom(channel))
            return _DONE
        if hook != "get_action" and not callable(method):
            return _DONE  # an optional hook the agent does not have
        # hook, pac, direction, food, capsules, score, result, then the ghosts' fields
        words = line.decode("ascii").split()
        state = origin.recreate((words[1], words[2], words[7:], int(words[3], 16),
                                 int(words[4], 16), words[5], words[6]))
        result = method(state)
        if hook != "get_action":
            return _DONE
        decision = getattr(agent, "last_decision", None)
        nodes = getattr(decision, "nodes_generated", None)
        count = nodes if type(nodes) is int else None
        if type(result) is str or type(result) is Direction:  # the usual answer
            tail = _ANSWERS.get(result)
            if tail is not None:
                return (b"-" if count is None else b"%d" % count) + tail
        if not isinstance(result, str):  # not an action at all: the referee shows its repr
            answer: dict[str, Any] = {"nodes": count, "unreadable": repr(result)[:80]}
        else:  # legal or not, the referee judges it
            answer = {"nodes": count, "done": str.__str__(result) if not hasattr(
                result, "value") else str(result.value)}
        return json.dumps(answer).encode() + b"\n"
    except BaseException as error:  # the agent's own fault: the referee records it
        return json.dumps(_error(error)).encode() + b"\n"


if __name__ == "__main__":
    main()
