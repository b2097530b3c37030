"""The agent host: the one process where untrusted code runs, whatever the command.

Started by a referee as a `Child(private=True)`: in a sandbox where the machine allows it
(`pacman.hosting.sandbox`), with a copy of the agent's files. Two referees talk to it:

- a game's (`pacman.hosting.agent_host.HostedAgent`: play, batch, compare, tournament, tune,
  the envs), seeing the package's full view. Its requests: `build` (the agent by name and
  settings, built here by the registry, so the user's file, CS188 class or
  `evaluation=module:function` is imported only in this process; with the layout's text and
  the number of ghosts, so that states can be rebuilt from their fields; answered with the
  agent's `describe()` text and the optional hooks it has), `resolve` (a batch
  configuration's agent resolved to its canonical settings, description and code files, for a
  batch that will not import the user's code itself), then the hook calls;
- the grader's (`pacman.grading.running.hosted`), seeing only the game and the CS188 stand-ins
  (the package's agents, registry and grading code are not in its world). Its requests:
  `load` (import the submission with the CS188 loader), `has` (whether it has a class), `tree`
  (run a class on a test tree and report the action and every successor call as (node, agent,
  action), which the referee replays on its own tree), `game_agent` with `register` and `move`
  (a search agent along a game test, reporting per move its action and its calls as (parent,
  agent, action), the parent numbered by the call that made it, 0 for the state given), and
  `eval_agent` with `call` (an agent test's agent, answering actions).

One line protocol: a request or an answer is one line. A hook call of a built agent is the
hot path, one line each way a move with no JSON: the hook's letter (`s`, `r`, `a`, `f`) and the
state's fields (`GameState.compact`) as words, food and capsules in hexadecimal, the ghosts'
fields last; the agent gets a state rebuilt from them (`GameState.recreate`), a fresh value for
each call, so whatever it does to it stays here. The answer is `NODES ACTION` for a move (the
`nodes_generated` of the agent's `last_decision`, `-` for none), `done` for another hook, or
JSON for anything else (an error, an action that is not one of the five names). Every other
request and answer is a JSON object on a line of its own.

Random numbers (`_Words`): every draw here is made of the 32-bit words of a generator, asked
for when the code draws and exactly as many as the draw needs, so this process never holds a
number it has not drawn:

- a built agent's `set_rng` gets a generator whose words are the game's generator's, in the
  referee (the same numbers it would draw there, in the same order as every other agent's);
- the module-level functions of `random` (what CS188 code and the classic `util` call) draw
  from the referee's generator during a grader's tree and game tests (the classic order, as in
  one process), from an agent test's own stream when the grader sends a seed for one
  (`pacman.cs188.randomness`), and from a generator of this process's for a built agent (which
  `random.seed` seeds: a CS188 class in a game seeds it from the game's seed).

Whatever the code raises is answered as its description (the referee records a `crash`).
"""

from __future__ import annotations

import json
import random
import signal
import sys
from collections.abc import Mapping
from typing import Any

from pacman.cs188.randomness import MODULE_FUNCTIONS, agent_stream
from pacman.hosting.isolation import Channel, child_setup, follow_cpu
from pacman.rules import Direction

__all__ = ["MAX_LOGGED_CALLS", "STALL_SIGNAL", "main"]

#: the signal that makes a host write every thread's stack to its output (`faulthandler`)
STALL_SIGNAL = signal.SIGUSR1
#: what the host answers per successor call, at most (a run past it reports no calls: the
#: referee then records the run as failed, which a report could never make better)
MAX_LOGGED_CALLS = 2_000_000


class _Words(random.Random):
    """A generator made of another's 32-bit words: the referee's, asked for over the channel
    when the code draws, exactly as many as the draw needs; or, while `own` is set, those of
    a generator in this process (which `seed` then seeds). `random()` and `getrandbits(k)`
    combine the words exactly as CPython's generator does, and every other method of
    `random.Random` is built on those two, so the code here draws exactly the numbers it would
    draw from the generator the words come from."""

    def __init__(self, channel: Channel) -> None:
        self.own: random.Random | None = None
        super().__init__(0)
        self._channel = channel

    def seed(self, a: Any = None, version: int = 2) -> None:
        """Seed the generator of this process the words come from, if they do; the
        referee's cannot be seeded from here."""
        own = getattr(self, "own", None)
        if own is not None:
            own.seed(a, version)

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


def _error(error: BaseException) -> dict[str, Any]:
    """A built agent's fault, by its class's name and text; `ours` when it is one of this
    package's one-line errors (a file that does not load, a bad setting), whose text is the
    whole message."""
    from pacman.errors import PacmanError

    try:
        text = str(error)
    except BaseException:
        text = "<unprintable>"
    return {"error": {"type": type(error).__name__, "text": text,
                      "ours": isinstance(error, PacmanError)}}


def _fault(error: BaseException) -> dict[str, Any]:
    """A graded submission's fault, described as the classic grader shows it."""
    from pacman.cs188.loader import describe_fault

    try:
        text = describe_fault(error)
    except BaseException:
        text = type(error).__name__
    return {"fault": text[:2000], "type": type(error).__name__}


class _Host:
    """What this process holds: the code it was given and the agent it currently plays."""

    def __init__(self, channel: Channel, words: _Words) -> None:
        self.channel = channel
        self.words = words  # the module-level functions of `random` draw from it
        self.local = random.Random()  # a built agent's module-level draws
        self.stream: random.Random | None = None  # an agent test's own stream, if it has one
        self.module: Any = None  # a graded submission
        self.agent: Any = None
        self.move: Any = None
        self.origin: Any = None
        self.log: list[tuple[int, int, Any]] = []
        self.cpu: Any = None  # the referee's CPU, which this process shares
        self.hooks: frozenset[str] = frozenset()
        self._board_key: tuple[str, str, int] | None = None

    # --- JSON requests -------------------------------------------------------------------

    def serve(self, request: dict[str, Any]) -> dict[str, Any]:
        if "cpu" in request:
            self.cpu = request.pop("cpu")
        kind = next(iter(request), "")
        if kind in ("build", "resolve"):
            self.words.own = self.local
            return self._build(request[kind]) if kind == "build" else _resolve(request[kind])
        # a grader's: an agent test's agent draws from its own stream, if it has one; all
        # else from the referee's generator
        self.words.own = self.stream if kind == "call" else None
        handler = getattr(self, f"_{kind}", None)
        if handler is None:
            return {"fault": f"unknown request {kind!r}", "type": "ValueError"}
        try:
            answer: dict[str, Any] = handler(request[kind])
            return answer
        except BaseException as error:  # the submission's own fault: the referee records it
            return _fault(error)

    def _build(self, request: Mapping[str, Any]) -> dict[str, Any]:
        from pacman.agents.registry import make_agent
        from pacman.game import describe

        follow_cpu(request.get("cpu"))
        try:
            self._board({"text": request["layout_text"], "name": request["layout_name"],
                         "num_ghosts": request["num_ghosts"]})
            agent = make_agent(request["name"], request["role"], request["settings"],
                               index=int(request["index"]))
        except BaseException as error:  # the user's code may raise anything while it loads
            self.agent = None
            return _error(error)
        self.agent = agent
        # the optional hooks it has: the referee calls no other (one round trip less each)
        hooks = [hook for hook in ("set_rng", "register_initial_state", "final")
                 if callable(getattr(agent, hook, None))]
        self.hooks = frozenset(hooks)
        try:  # a description that fails is the game's business (a crash), not the build's
            return {"built": describe(agent), "hooks": hooks}
        except BaseException as error:  # (the referee records the class's name instead)
            return {"built": None, "describe_error": _error(error)["error"],
                    "hooks": hooks, "class": type(agent).__name__}

    def _load(self, path: str) -> dict[str, Any]:
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

        self._board(request["board"])
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
        register = getattr(self.agent, "register_initial_state", None)
        if callable(register):  # optional, as in the referee's process (`CountingAgent`)
            register(self.origin.recreate(fields))
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
        from pacman.settings_text import typed

        self._board(request["board"])
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

    def _board(self, board: Mapping[str, Any]) -> None:
        """The first state of the board the next states are rebuilt on (parsed once for a
        host that plays game after game on the same board)."""
        from pacman.layout import parse_layout
        from pacman.state import GameState

        key = (str(board["text"]), str(board["name"]), int(board["num_ghosts"]))
        if self.origin is None or self._board_key != key:
            self.origin = GameState.initial(parse_layout(key[0], key[1]), key[2])
            self._board_key = key

    # --- the hot path: a built agent's hooks ----------------------------------------------

    def hook(self, line: bytes) -> bytes:
        """The answer line to one hook call's line (`HostedAgent._exchange`)."""
        agent = self.agent
        try:
            hook = _HOOKS[line[0]]
            if hook == "set_rng":
                if "set_rng" in self.hooks:
                    rng = _Words(self.channel)  # the game's generator, in the referee
                    agent.set_rng(rng)
                return _DONE
            if hook != "get_action" and hook not in self.hooks:
                return _DONE  # an optional hook the agent does not have
            method: Any = getattr(agent, hook)
            # hook, pac, direction, food, capsules, score, result, then the ghosts' fields
            words = line.decode("ascii").split()
            state = self.origin.recreate((words[1], words[2], words[7:], int(words[3], 16),
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


def _resolve(request: Mapping[str, Any]) -> dict[str, Any]:
    """A batch configuration's agent, resolved here (`canonical_agent`) for a parent that will
    not import its code."""
    from pacman.agents.resolve import canonical_agent
    from pacman.specs import AgentSpec

    try:
        spec, description, files = canonical_agent(
            AgentSpec.from_json(request["agent"]), str(request["role"]), int(request["index"]))
    except BaseException as error:  # the user's code may raise anything while it loads
        return _error(error)
    return {"resolved": {"agent": spec.to_json(), "description": description,
                         "files": [str(path) for path in files]}}


#: an action's answer line after its node count, by the action's name (a `Direction` finds
#: its own: it hashes and compares as its name); any other action is answered in JSON
_ANSWERS = {name: f" {name}\n".encode() for name in ("North", "South", "East", "West", "Stop")}
_HOOKS = {0x73: "set_rng", 0x72: "register_initial_state", 0x61: "get_action", 0x66: "final"}
_DONE = b"done\n"


def _name(action: Any) -> Any:
    """An action as the grader reads it: a string as a string; anything else by its repr,
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
    """Serve the referee until it closes the channel.

    A hook call bypasses `Channel.receive` and `Channel.send` (JSON, a lock): this loop reads
    and writes raw lines (`receive_line`, `send_line`), one line each way a move, and only a
    line that starts with `{` is JSON. A draw's exchange (`_Words`) uses JSON on the same
    streams, between a request's line and its answer."""
    channel = child_setup()
    import faulthandler

    # where the code is stuck, on demand (`STALL_SIGNAL`): every thread's stack, written by C
    # code to the captured output even while the code spins in a loop that never yields
    faulthandler.register(STALL_SIGNAL, file=sys.stderr, all_threads=True)
    words = _Words(channel)
    for name in MODULE_FUNCTIONS:  # before any code is imported: `from random import`
        setattr(random, name, getattr(words, name))
    host = _Host(channel, words)
    readline, write = channel.receive_line, channel.send_line
    while True:
        line = readline()
        if not line:
            return
        if line[0] != 0x7B:  # not `{`: a built agent's hook call
            write(host.hook(line))
            continue
        channel.send(host.serve(json.loads(line)))


if __name__ == "__main__":
    main()
