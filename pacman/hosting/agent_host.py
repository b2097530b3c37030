"""Untrusted agents play from a process of their own; the game of record stays with the referee.

`HostedAgent` stands in the referee's game (`run_game`) for an agent that lives in an agent host
(`pacman.hosting.host`, the one host of every untrusted agent): a child process in a sandbox
of its own where Linux allows one (`Child(private=True)`), with a copy of the code its name and
settings name (`carry_agent`). The referee keeps the only state that counts; each hook call
sends the host the state's fields (`GameState.compact`), the host rebuilds its own copy, runs
the agent's code on it and answers the action's name, which the referee checks and applies to
its own state. Whatever the agent does to its copy, to the host's modules or to the host process
itself changes nothing here: writing a score, patching the rules, forging a count, exiting or
killing its parent is that agent's own outcome (a `crash`, or nothing at all).

Random numbers: the generator the host gives the agent is made of the words of the game's
generator here, asked for when the agent draws and exactly as many as the draw needs
(`serve_words`), so an honest hosted agent draws exactly what it would draw in the referee's
process, and the game is the same game with or without isolation. Time: the referee's clock
times each call, the host included, and a call the referee gives up on (a move over its limit)
leaves the host unusable; its process is ended when the game ends.

`trusted(name, settings)` tells which agents may play in the referee's process: the registry's
own agents, with settings that name no code of the user's.

Loading: starting a host and building its agent (importing the user's code) may take
`TimeLimits.load` seconds (`pacman.limits.load_limit`), 60 s or the game's limit, but not less
than 10 s; a host that takes longer is ended, and the agent is one line (`RegistryError`,
`BatchError`).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pacman.errors import RegistryError
from pacman.limits import LOAD_SECONDS

if TYPE_CHECKING:  # loaded with the first host: a game of trusted agents needs neither
    from pacman.hosting.isolation import Child
    from pacman.specs import AgentSpec
    from pacman.state import GameState

__all__ = ["HostedAgent", "HostFault", "UnreadableAction", "MAX_WORDS", "load_timeout",
           "resolve_in_host", "serve_words", "trusted"]

WORKER = "pacman.hosting.host"
#: idle hosts kept per agent in one process, for the next games (their processes end with
#: this one)
MAX_IDLE = 2
_IDLE: dict[tuple[Any, ...], list[Child]] = {}


def load_timeout(name: str, seconds: float) -> str:
    """The one line for an agent that did not load in time."""
    return (f"{name} did not load within {seconds:g}s (the limit on loading an agent's code: "
            "importing it and building it)")


class HostFault(Exception):
    """What a hosted agent raised, or how its host ended: the game records it as a crash."""


_FAULT_TYPES: dict[str, type[HostFault]] = {}


def _fault(kind: str, text: str) -> HostFault:
    """An exception named like the agent's own (`ZeroDivisionError: ...`), so the game's record
    reads as it does when the agent plays in the referee's process."""
    from pacman.hosting.isolation import printable

    name = kind if kind.isidentifier() else "AgentError"
    cls = _FAULT_TYPES.get(name)
    if cls is None:
        cls = _FAULT_TYPES[name] = type(name, (HostFault,), {})
    return cls(printable(text))


_NAMED: dict[str, type[HostedAgent]] = {}


def _named(name: str) -> type[HostedAgent]:
    """A HostedAgent class named like the hosted agent's class."""
    name = name[:200]
    cls = _NAMED.get(name)
    if cls is None:
        cls = _NAMED[name] = type(name, (HostedAgent,), {})
    return cls


class UnreadableAction:
    """An action a host could not send (not a string), shown by its text: the referee's game
    calls it illegal."""

    def __init__(self, text: str) -> None:
        from pacman.hosting.isolation import printable

        self.text = printable(text)

    def __repr__(self) -> str:
        return self.text


class _Decision:
    """The part of the agent's `last_decision` the referee records: its node count (a search's
    trace stays in the host)."""

    __slots__ = ("nodes_generated",)
    trace = None

    def __init__(self, nodes: int | None) -> None:
        self.nodes_generated = nodes


#: the answer line of a move -> the action it names (the five names, and nothing else)
_ACTIONS = {name.encode(): name for name in ("North", "South", "East", "West", "Stop")}


def _request(letter: str, state: GameState) -> bytes:
    """One hook call's line for the host (`pacman.hosting.host`): the hook's letter, then the
    state's fields (`GameState.compact`) as words: food and capsules in hexadecimal (an int of
    any size: decimal text stops at 4300 digits), the ghosts' fields last."""
    pac, direction, ghosts, food, capsules, score, result = state.compact()
    return (f"{letter} {pac} {direction} {food:x} {capsules:x} {score} {result} "
            f"{' '.join(map(str, ghosts))}\n").encode()


class HostedAgent:
    """An agent of `name` with `settings`, playing from its own agent host process.

    The exchange is the host's (`pacman.hosting.host`): a hook call is one line each
    way, read and written on the host's pipes here, with no JSON unless something unusual
    comes back (a draw of the referee's generator, an error, an action that is not one of the
    five names)."""

    def __init__(self, name: str, role: str, settings: Mapping[str, Any], index: int,
                 layout: Any, num_ghosts: int, memory_mb: int | None = 2048,
                 load_seconds: float = LOAD_SECONDS) -> None:
        """Start (or take an idle) host and build the agent there within `load_seconds`;
        RegistryError (one line naming the agent) if it fails, dies or takes longer."""
        self.index = index
        self._rng: random.Random | None = None
        self._usable = True
        self.last_decision: _Decision | None = None
        from pacman.hosting.isolation import Child, ChildDied, ProcessLimits, printable
        from pacman.hosting.sandbox import Carried

        self._key = (name, role, tuple(sorted(settings.items())), index, memory_mb)
        from pacman.hosting.isolation import share_cpu

        # the host runs on the referee's CPU for the game: decided before a new host starts,
        # whose start-up would make the machine look busy
        self._cpu = share_cpu()
        idle = _IDLE.get(self._key)
        carried = Carried()
        inside, inside_settings = carry_agent(name, settings, carried, role)
        try:
            child = self._child = idle.pop() if idle else Child(
                WORKER, ProcessLimits(memory_mb=memory_mb), private=True, files=carried.pairs())
        except BaseException:
            self._leave_cpu()
            raise
        if child.private:
            name, settings = inside, inside_settings
        try:
            child.send({"build": {
                "name": name, "role": role, "settings": dict(settings), "index": index,
                "layout_text": layout.text, "layout_name": layout.name,
                "num_ghosts": num_ghosts, "cpu": self._cpu}})
            answer = child.receive(load_seconds)
        except ChildDied as died:
            self.close()
            raise RegistryError(f"{name} could not be built: its process died "
                                f"({died.reason})") from None
        if answer is None:
            self._child.kill()
            self.close()
            raise RegistryError(load_timeout(name, load_seconds))
        if "built" not in answer:
            self.close()
            error = answer.get("error") or {}
            text = str(error.get("text")) if error.get("ours") is True else (
                f"{name} failed while being built: {error.get('type')}: {error.get('text')}")
            raise RegistryError(printable(carried.as_given(text)))  # the paths as given here
        self._description = printable(carried.as_given(str(answer["built"])))
        self._describe_error = answer.get("describe_error")
        if isinstance(self._describe_error, dict):
            # a game records an agent whose `describe()` fails by its class's name
            # (`type(agent).__name__`): the hosted class's, not this stand-in's
            self.__class__ = _named(str(answer.get("class", "HostedAgent")))
        hooks = answer.get("hooks")
        self._hooks = set(hooks) if isinstance(hooks, list) else {
            "set_rng", "register_initial_state", "final"}
        self._shown = len(child.output)  # what earlier games of this host printed

    # --- the agent's hooks, as run_game calls them ------------------------------------------

    def describe(self) -> str:
        """The hosted agent's own description (raising what its `describe` raised)."""
        error = self._describe_error
        if isinstance(error, dict):
            raise _fault(str(error.get("type", "AgentError")), str(error.get("text", "")))
        return self._description

    def set_rng(self, rng: random.Random) -> None:
        """Keep the game's generator (the host draws from it) and tell the host."""
        self._rng = rng
        if "set_rng" in self._hooks:
            self._exchange(b"s\n")

    def register_initial_state(self, state: GameState) -> None:
        """The agent's `register_initial_state`, in its host."""
        if "register_initial_state" in self._hooks:
            self._exchange(_request("r", state))

    def get_action(self, state: GameState) -> Any:
        """The agent's action in `state`, computed in its host on a copy of the state."""
        answer = self._exchange(_request("a", state))
        if type(answer) is bytes:  # `NODES ACTION`: the usual answer
            nodes, _, name = answer.partition(b" ")
            action = _ACTIONS.get(name)
            try:
                count = None if nodes == b"-" else int(nodes)
            except ValueError:
                action = None
            if action is None:
                from pacman.hosting.isolation import GARBAGE

                raise self._gone(GARBAGE, kill=True)
            self.last_decision = _Decision(count)
            return action
        assert isinstance(answer, dict)
        counted = answer.get("nodes")
        self.last_decision = _Decision(counted if type(counted) is int else None)
        if "unreadable" in answer:
            return UnreadableAction(str(answer["unreadable"]))
        return str(answer.get("done"))

    def final(self, state: GameState) -> None:
        """The agent's `final`, in its host. Then the host waits, idle, for the next game of
        the same agent in this process (its imports done: a batch does not start a process
        per game), or is ended if the game gave up on it."""
        try:
            if self._usable and "final" in self._hooks:
                self._exchange(_request("f", state))
        finally:
            self.release()

    def release(self) -> None:
        """Done with this game: keep a host that is still usable for the next game of the
        same agent, end any other (at once: one the game gave up on may still be busy)."""
        self._leave_cpu()
        if self._usable and not self._child.pending and self._child.process.poll() is None:
            self._usable = False
            idle = _IDLE.setdefault(self._key, [])
            if len(idle) < MAX_IDLE:
                idle.append(self._child)
                return
        self._child.kill()
        self.close()

    def printed(self) -> str:
        """What the agent printed (stdout and stderr) since the last call, bounded: its host
        keeps the start and the end of a flood."""
        text = self._child.output
        new, self._shown = text[self._shown:], len(text)
        return new

    def close(self) -> str:
        """End the host process; returns what it printed."""
        self._usable = False
        self._leave_cpu()
        return self._child.close()

    def _leave_cpu(self) -> None:
        if self._cpu is not None:
            self._cpu = None
            from pacman.hosting.isolation import unshare_cpu

            unshare_cpu()

    # --- the exchange --------------------------------------------------------------------

    def _exchange(self, request: bytes) -> bytes | dict[str, Any]:
        """Send one hook call's line and return the host's answer: its line, or the JSON
        message it sent instead (an error is raised as the agent's own). The host's draws of
        the game's generator are answered on the way."""
        if not self._usable:
            raise _fault("HostFault", "the agent's process was stopped earlier in this game")
        self._usable = False  # until the host answers: a call given up on leaves it so
        from pacman.hosting.isolation import ChildDied

        child = self._child
        try:
            child.send_line(request)
            while True:
                line = child.receive_line(None)
                assert line is not None  # no time limit: a line or ChildDied
                if line[:1] != b"{":
                    break
                message = self._message(line)
                draw = message.get("draw")
                if draw is None:
                    error = message.get("error")
                    self._usable = True
                    if isinstance(error, dict):
                        raise _fault(str(error.get("type", "AgentError")),
                                     str(error.get("text", "")))
                    return message
                if self._rng is None:
                    self._rng = random.Random(0)
                child.send({"value": serve_words(self._rng.getrandbits, draw)})
        except ChildDied as died:
            raise self._gone(died.reason) from None
        self._usable = True
        return line

    def _message(self, line: bytes) -> dict[str, Any]:
        """A JSON line of the host's; ChildDied (the host is ended) if it is not one."""
        from pacman.hosting.isolation import GARBAGE, ChildDied

        try:
            message = json.loads(line)
        except ValueError:
            message = None
        if not isinstance(message, dict):
            self._child.kill()
            raise ChildDied(GARBAGE)
        return message

    def _gone(self, reason: str, kill: bool = False) -> HostFault:
        """The crash of a host that ended or broke the exchange; its process is ended."""
        if kill:
            self._child.kill()
        self.close()
        return _fault("HostDied", f"the agent's process died ({reason})")


#: words of a generator a host may ask for in one draw (`getrandbits` of 32,768 bits): a host
#: that asks for more gets that many
MAX_WORDS = 1024


def serve_words(getrandbits: Callable[[int], int], request: Any) -> list[int]:
    """A host's draw (`{"kind": "words", "n": N}`), served from a generator: its next N 32-bit
    words, exactly as many as asked for (at most `MAX_WORDS`). Every word served counts as
    drawn: no count of the host's is believed.

    Args:
        getrandbits: the `getrandbits` of the generator the host's numbers come from.
        request: the host's draw, as it sent it.

    Returns:
        The words, in order.
    """
    count = request.get("n") if isinstance(request, dict) else None
    count = count if type(count) is int and 0 < count <= MAX_WORDS else MAX_WORDS
    return [getrandbits(32) for _ in range(count)]


def trusted(name: str, role: str, settings: Mapping[str, Any]) -> bool:
    """True for an agent that may play in the referee's process: one of the registry's own,
    whose settings name no code of the user's (an `evaluation=module:function` or
    `file.py:function`); a weights file (`@file.json`) is data and may. Decided from the text
    alone: nothing of the user's is imported to find out."""
    from pacman.agents.registry import registered

    if registered(name, role) is None:
        return False
    evaluation = settings.get("evaluation", settings.get("evalFn"))
    if evaluation is None:
        return True
    if not isinstance(evaluation, str):  # a Python object of the caller's
        return False
    from pacman.agents.evaluation import names_code

    return not names_code(evaluation)


def carry_agent(name: str, settings: Mapping[str, Any], carried: Any, role: str
                ) -> tuple[str, dict[str, Any]]:
    """The agent's name and settings as its sandboxed host must read them: a user's name for
    an agent (`pacman.agents.registry.register`, an entry point) as its `module:Class`, which
    the host may not know, and each piece of code they name (`file.py:Class`,
    `evaluation=module:function`) carried into the host's working folder
    (`pacman.hosting.sandbox.Carried`) and named there."""
    from pacman.agents.evaluation import names_code
    from pacman.agents.registry import plugin_target, registered

    inside = dict(settings)
    if ":" not in name and registered(name, role) is None:
        name = plugin_target(name, role) or name
    if ":" in name:
        target, _, rest = name.rpartition(":")
        name = f"{carried.carry(target)}:{rest}"
    for key in ("evaluation", "evalFn"):
        value = inside.get(key)
        if isinstance(value, str) and names_code(value):
            target, _, rest = value.strip().partition(":")
            inside[key] = f"{carried.carry(target)}:{rest}"
    return name, inside


def resolve_in_host(spec: AgentSpec, role: str, index: int,
                    load_seconds: float = LOAD_SECONDS) -> tuple[AgentSpec, str, list[Path]]:
    """`pacman.agents.resolve.canonical_agent` of an agent of the user's, run in an agent
    host of its own (so the process that asks never imports the agent's code): the canonical
    spec, the agent's description and its code files. The errors are the ones the same call
    raises in this process (`RegistryError`, `BatchError`, one line each), and BatchError if
    it takes longer than `load_seconds` or its process dies."""
    from pacman import errors
    from pacman.hosting.isolation import Child, ChildDied, ProcessLimits
    from pacman.hosting.sandbox import Carried
    from pacman.specs import AgentSpec

    carried = Carried()
    name, settings = carry_agent(spec.name, dict(spec.settings), carried, role)
    child = Child(WORKER, ProcessLimits(), private=True, files=carried.pairs())
    asked = AgentSpec.of(name, settings) if child.private else spec
    try:
        child.send({"resolve": {"agent": asked.to_json(), "role": role, "index": index}})
        answer = child.receive(load_seconds)
    except ChildDied as died:
        raise errors.BatchError(f"cannot build {role} agent {spec.name}: its process died "
                                f"({died.reason})") from None
    finally:
        child.kill()
        child.close()
    if answer is None:
        raise errors.BatchError(f"{role} agent {load_timeout(spec.name, load_seconds)}")
    error = answer.get("error")
    if isinstance(error, dict) or not isinstance(answer.get("resolved"), dict):
        error = error if isinstance(error, dict) else {"type": "", "text": repr(answer)[:200]}
        kind = getattr(errors, str(error.get("type")), None)
        text = str(error.get("text", ""))
        if isinstance(kind, type) and issubclass(kind, errors.PacmanError) and kind not in (
                errors.LayoutError, errors.TestCaseError):
            raise kind(text)
        raise errors.BatchError(f"cannot build {role} agent {spec.name}: "
                                f"{error.get('type')}: {text}")
    resolved = answer["resolved"]
    files = resolved.get("files")
    if not isinstance(files, list) or not all(isinstance(f, str) for f in files):
        raise errors.BatchError(f"cannot build {role} agent {spec.name}: its host answered "
                                "no list of files")
    try:
        canonical = AgentSpec.from_json(resolved.get("agent"), f"{role} agent")
    except ValueError as problem:
        raise errors.BatchError(f"cannot build {role} agent {spec.name}: {problem}") from None
    if child.private:  # the host named its copies: the names this process would give
        target, colon, rest = canonical.name.rpartition(":")
        canonical = AgentSpec.of(
            f"{carried.source(target)}{colon}{rest}" if colon else canonical.name,
            {key: carried.as_given(value) if isinstance(value, str) else value
             for key, value in canonical.settings_dict().items()})
    return canonical, carried.as_given(str(resolved.get("description", canonical.name)))[:200], [
        Path(carried.source(f)) for f in files]
