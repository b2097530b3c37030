"""The student's host: the only process where a graded submission's code runs.

Started by the referee (`pacman.grading.running.hosted`) as a `Child(private=True)`: in a
sandbox where the machine allows it (`pacman.hosting.sandbox`), with a copy of the submission's
files and the package's game view: this module, the CS188 stand-ins and the game, never the
project's agents, registry or grading code (so it imports none of them). It gets the test's
*inputs* (a tree, a layout's text, a state's fields, an
agent's name and arguments), never a test's or a solution's path, and answers what the code
did:

- `load`: import the submission (the CS188 loader for a file);
- `has`: whether the submission has a class of that name;
- `tree`: run the class on a test tree and report the action and every successor call it made
  (node, agent, action), in order; the referee replays the calls on its own tree;
- `game_agent`, then `register` and `move`: a search agent along a game test, reporting per move
  its action and its `generateSuccessor` calls as (parent, agent, action), where the parent is
  0 for the state it was given and `k` for the child made by the `k`-th call; the referee derives
  the states and counts the explored set itself;
- `eval_agent`, then `call`: an agent test's agent, answering actions.

Random numbers: the module-level functions of `random` (what student code and the classic
`util` call) draw from the referee's own generator (`_Words`: its 32-bit words, asked for one
draw at a time), so the draws interleave with the ghosts' exactly as they do in one process;
an agent test's agent draws from a stream of its own instead when the referee sends a seed for
one (`own_random`). `random.seed` here changes nothing the game uses. Whatever the code raises
is answered as its one-line description.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from pacman.cs188.randomness import MODULE_FUNCTIONS, agent_stream
from pacman.hosting.isolation import Channel, child_setup

__all__ = ["main"]

#: what the host answers per successor call, at most (a run past it reports no calls: the
#: referee then records the run as failed, which a report could never make better)
MAX_LOGGED_CALLS = 2_000_000


class _Words(random.Random):
    """The referee's generator, word for word: every draw is made of the 32-bit words of the
    referee's Mersenne Twister, asked for when the code draws, exactly as many as the draw
    needs (this process never holds a word it has not used). `random()` and `getrandbits(k)`
    combine the words exactly as CPython's generator does, and every other method of
    `random.Random` is built on those two, so the code here draws exactly the numbers it would
    draw in the referee's process. While `own` is set (an agent test with a stream of its own,
    `pacman.cs188.randomness`), the words come from it instead and the referee's generator is
    not touched. Seeding this generator or setting its state changes nothing: there is no state
    here to change."""

    def __init__(self, channel: Channel) -> None:
        super().__init__(0)
        self._channel = channel
        self.own: random.Random | None = None

    def _words(self, count: int) -> list[int]:
        own = self.own
        if own is not None:
            return [own.getrandbits(32) for _ in range(count)]
        self._channel.send({"draw": {"kind": "words", "n": count}})
        answer = self._channel.receive()
        words = None if answer is None else answer.get("value")
        if not (isinstance(words, list) and len(words) == count):
            raise SystemExit(70)  # the referee is gone
        return [int(w) for w in words]

    def random(self) -> float:
        """The next float in [0, 1), from two words (CPython's `genrand_res53`)."""
        high, low = self._words(2)
        return ((high >> 5) * 67108864.0 + (low >> 6)) * (1.0 / 9007199254740992.0)

    def getrandbits(self, k: int, /) -> int:
        """`k` random bits: the top `k` bits of one word, or words least significant first."""
        if isinstance(k, bool) or not isinstance(k, int):
            raise TypeError("getrandbits() requires an integer")
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        if k == 0:
            return 0
        result, shift = 0, 0
        for word in self._words((k + 31) // 32):
            if k < 32:
                word >>= 32 - k
            result |= word << shift
            shift += 32
            k -= 32
        return result


def _fault(error: BaseException) -> dict[str, Any]:
    from pacman.cs188.loader import describe_fault

    try:
        text = describe_fault(error)
    except BaseException:
        text = type(error).__name__
    return {"fault": text[:2000], "type": type(error).__name__}


class _Host:
    """The submission and the agent it currently plays."""

    def __init__(self, channel: Channel, words: _Words) -> None:
        self.channel = channel
        self.words = words
        self.stream: random.Random | None = None  # the agent test's own, if it has one
        self.module: Any = None
        self.agent: Any = None
        self.move: Any = None
        self.origin: Any = None
        self.log: list[tuple[int, int, Any]] = []
        self.cpu: Any = None  # the referee's CPU, which this process shares

    def serve(self, request: dict[str, Any]) -> dict[str, Any]:
        if "cpu" in request:
            self.cpu = request.pop("cpu")
        kind = next(iter(request), "")
        # an agent test's agent draws from its own stream, if it has one; all else from the
        # referee's generator
        self.words.own = self.stream if kind == "call" else None
        handler = getattr(self, f"_{kind}", None)
        if handler is None:
            return {"fault": f"unknown request {kind!r}", "type": "ValueError"}
        try:
            answer: dict[str, Any] = handler(request[kind])
            return answer
        except BaseException as error:  # the submission's own fault: the referee records it
            return _fault(error)

    def _load(self, path: str) -> dict[str, Any]:
        from pacman.hosting.isolation import follow_cpu

        follow_cpu(self.cpu)
        from pacman.cs188.loader import load_agents
        from pacman.errors import StudentCodeError

        try:
            self.module = load_agents(path)
        except StudentCodeError as error:
            return {"error": str(error)}
        return {"loaded": True}

    def _class(self, name: Any) -> Any:
        value = getattr(self.module, str(name), None)
        return value if isinstance(value, type) else None

    def _has(self, name: str) -> dict[str, Any]:
        return {"has": self._class(name) is not None}

    def _tree(self, request: Mapping[str, Any]) -> dict[str, Any]:
        from pacman.cs188.tree import tree_action, tree_error
        from pacman.game_tree import GameTree, TreeBudgetError, TreeRun

        spec = request["tree"]
        tree = GameTree(str(spec["start"]), int(spec["num_agents"]),
                        {str(node): tuple((str(a), str(c)) for a, c in pairs)
                         for node, pairs in spec["children"].items()},
                        {str(node): float(value) for node, value in spec["values"].items()},
                        frozenset(spec["win"]), frozenset(spec["lose"]))
        default = request.get("default")
        run = TreeRun(tree, None if default is None else float(default),
                      bool(request.get("classic")), int(request["budget"]))
        run.log = []
        cls = self._class(request["alg"])
        answer: dict[str, Any] = {"action": None, "error": None, "error_type": None}
        try:
            action = tree_action(cls, int(request["depth"]), run.root())
            answer["action"] = None if action is None else str(action)
        except BaseException as error:
            answer.update(error=tree_error(error)[:2000], error_type=type(error).__name__)
            if isinstance(error, TreeBudgetError):  # the calls would be millions: say so
                answer["generated"] = sorted(run.generated)
                return answer
        answer["calls"] = [[node, agent, _name(action)] for node, agent, action in run.log]
        return answer

    def _game_agent(self, request: Mapping[str, Any]) -> dict[str, Any]:
        from pacman.cs188.agent import StudentAgent
        from pacman.cs188.loader import is_cs188_agent_class

        self._board(request)
        cls = self._class(request["alg"])
        if cls is None:
            return {"error": f"the submission has no class {request['alg']}"}
        depth = int(request["depth"])
        if is_cs188_agent_class(cls):
            self.agent = StudentAgent(cls(depth=depth))
            self.move = _logged_classic(self.agent, self.log)
        else:
            self.agent = cls(depth=depth)
            self.move = _logged_ours(self.agent, self.log)
        return {"built": True}

    def _register(self, fields: Any) -> dict[str, Any]:
        self.agent.register_initial_state(self.origin.recreate(fields))
        return {"done": True}

    def _move(self, fields: Any) -> dict[str, Any]:
        self.log.clear()
        action = self.move(self.origin.recreate(fields))
        if len(self.log) > MAX_LOGGED_CALLS:
            return {"action": _name(action), "calls": None}
        return {"action": _name(action),
                "calls": [[parent, agent, _name(act)] for parent, agent, act in self.log]}

    def _eval_agent(self, request: Mapping[str, Any]) -> dict[str, Any]:
        from pacman.cs188.agent import build_student_agent
        from pacman.cs188.loader import is_cs188_agent_class
        from pacman.settings import typed

        self._board(request)
        cls = self._class(request["name"])
        if cls is None:
            return {"error": f"the submission has no class {request['name']}"}
        arguments = {str(k): str(v) for k, v in dict(request["arguments"]).items()}
        if is_cs188_agent_class(cls):
            self.agent = build_student_agent(cls, arguments, 0)
        else:  # a class of this project's own API: its settings as keywords
            self.agent = cls(**{key: typed(value) for key, value in arguments.items()})
        seed = request.get("own_random")
        self.stream = None if seed is None else agent_stream(int(seed))
        return {"built": True, "register": callable(
            getattr(self.agent, "register_initial_state", None))}

    def _call(self, request: Mapping[str, Any]) -> dict[str, Any]:
        hook = str(request["hook"])
        if hook not in ("register_initial_state", "get_action"):
            return {"fault": f"no hook {hook}", "type": "ValueError"}
        result = getattr(self.agent, hook)(self.origin.recreate(request["state"]))
        return {"action": _name(result)}

    def _board(self, request: Mapping[str, Any]) -> None:
        from pacman.layout import parse_layout
        from pacman.state import GameState

        board = request["board"]
        self.origin = GameState.initial(parse_layout(str(board["text"]), str(board["name"])),
                                        int(board["num_ghosts"]))


def _name(action: Any) -> Any:
    """An action as the referee reads it: a string as a string; anything else by its repr,
    wrapped so that it cannot pass for a string (the referee calls it illegal)."""
    if isinstance(action, str):
        return str.__str__(action) if not hasattr(action, "value") else str(action.value)
    if action is None:
        return None
    try:
        return {"repr": repr(action)[:80]}
    except BaseException:
        return {"repr": "<unprintable>"}


def _logged_classic(student: Any, log: list[tuple[int, int, Any]]) -> Any:
    """A classic agent's move on a state whose every successor call is logged as (parent,
    agent, action); the children get the numbers 1, 2, ... in the order they are made."""
    from pacman.cs188.state import CS188GameState
    from pacman.stack import call_with_room

    student.context.explored.counting = False  # the referee counts

    class Logged(CS188GameState):
        __slots__ = ("_node",)
        _node: int

        def generateSuccessor(self, agentIndex: int, action: str) -> CS188GameState:
            log.append((self._node, agentIndex, action))
            state = self.core
            if state.is_terminal():
                raise Exception("Can't generate a successor of a terminal state.")
            child = Logged(state.successor(agentIndex, action), self.context)
            child._node = len(log)
            return child

    def classic_move(state: Any) -> Any:
        root = Logged(state, student.context)
        root._node = 0
        return call_with_room(student.agent.getAction, root)

    return classic_move


def _logged_ours(agent: Any, log: list[tuple[int, int, Any]]) -> Any:
    """The same for an agent of this project's own API (`successor` calls)."""

    class Ours:
        __slots__ = ("_node", "_state")

        def __init__(self, state: Any, node: int) -> None:
            self._state, self._node = state, node

        def successor(self, agent_index: int, action: Any) -> Ours:
            log.append((self._node, agent_index, action))
            return Ours(self._state.successor(agent_index, action), len(log))

        def __getattr__(self, name: str) -> Any:
            return getattr(self._state, name)

    return lambda state: agent.get_action(Ours(state, 0))


def main() -> None:
    """Serve the referee until it closes the channel."""
    channel = child_setup()
    words = _Words(channel)
    for name in MODULE_FUNCTIONS:  # before the submission is imported: `from random import`
        setattr(random, name, getattr(words, name))
    host = _Host(channel, words)
    while True:
        request = channel.receive()
        if request is None:
            return
        channel.send(host.serve(request))


if __name__ == "__main__":
    main()
