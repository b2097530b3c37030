"""Untrusted agents play from a process of their own; the game of record stays with the referee.

`HostedAgent` stands in the referee's game (`run_game`) for an agent that lives in an agent host
(`pacman.hosting.agent_worker`): a child process with its own process namespace where Linux
gives one (`Child(private=True)`). The referee keeps the only state that counts; each hook call
sends the host the state's fields (`GameState.compact`), the host rebuilds its own copy, runs
the agent's code on it and answers the action's name, which the referee checks and applies to
its own state. Whatever the agent does to its copy, to the host's modules or to the host process
itself changes nothing here: writing a score, patching the rules, forging a count, exiting or
killing its parent is that agent's own outcome (a `crash`, or nothing at all).

Random numbers: the host's generator asks the referee for every draw (`RefereeRandom`), so an
honest hosted agent draws exactly what it would draw in the referee's process, and the game is
the same game with or without isolation. Time: the referee's clock times each call, the host
included, and a call the referee gives up on (a move over its limit) leaves the host
unusable; its process is ended when the game ends.

`trusted(name, settings)` tells which agents may play in the referee's process: the registry's
own agents, with settings that name no code of the user's.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pacman.errors import RegistryError

if TYPE_CHECKING:  # loaded with the first host: a game of trusted agents needs neither
    from pacman.hosting.isolation import Child
    from pacman.state import GameState
    from pacman.task import AgentSpec

__all__ = ["HostedAgent", "HostFault", "resolve_in_host", "trusted"]

WORKER = "pacman.hosting.agent_worker"
#: how long building an agent (importing the user's file) may take before it is given up
BUILD_SECONDS = 60.0
#: idle hosts kept per agent in one process, for the next games (their processes end with
#: this one)
MAX_IDLE = 2
_IDLE: dict[tuple[Any, ...], list[Child]] = {}


class HostFault(Exception):
    """What a hosted agent raised, or how its host ended: the game records it as a crash."""


_FAULT_TYPES: dict[str, type[HostFault]] = {}


def _fault(kind: str, text: str) -> HostFault:
    """An exception named like the agent's own (`ZeroDivisionError: ...`), so the game's record
    reads as it does when the agent plays in the referee's process."""
    name = kind if kind.isidentifier() else "AgentError"
    cls = _FAULT_TYPES.get(name)
    if cls is None:
        cls = _FAULT_TYPES[name] = type(name, (HostFault,), {})
    return cls(text)


class _Unreadable:
    """An action the host could not send (not a string): the referee calls it illegal."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


class _Decision:
    """The part of the agent's `last_decision` the referee records: its node count."""

    def __init__(self, nodes: int | None) -> None:
        self.nodes_generated = nodes


class HostedAgent:
    """An agent of `name` with `settings`, playing from its own agent host process."""

    def __init__(self, name: str, role: str, settings: Mapping[str, Any], index: int,
                 layout: Any, num_ghosts: int, memory_mb: int | None = 2048) -> None:
        self.index = index
        self._rng: random.Random | None = None
        self._usable = True
        self.last_decision: _Decision | None = None
        from pacman.hosting.isolation import Child, ChildDied, Limits

        self._key = (name, role, tuple(sorted(settings.items())), index, memory_mb)
        idle = _IDLE.get(self._key)
        self._child = idle.pop() if idle else Child(WORKER, Limits(memory_mb=memory_mb),
                                                    private=True)
        try:
            self._child.send({"build": {
                "name": name, "role": role, "settings": dict(settings), "index": index,
                "layout_text": layout.text, "layout_name": layout.name,
                "num_ghosts": num_ghosts}})
            answer = self._child.receive(BUILD_SECONDS)
        except ChildDied as died:
            self.close()
            raise RegistryError(f"{name} could not be built: its process died "
                                f"({died.reason})") from None
        if answer is None or "built" not in answer:
            self.close()
            error = (answer or {}).get("error") or {
                "type": "TimeoutError", "text": f"over {BUILD_SECONDS:g}s to build"}
            raise RegistryError(f"{name} failed while being built: {error.get('type')}: "
                                f"{error.get('text')}")
        self._description = str(answer["built"])
        self._describe_error = answer.get("describe_error")
        hooks = answer.get("hooks")
        self._hooks = set(hooks) if isinstance(hooks, list) else {
            "set_rng", "register_initial_state", "final"}
        self._shown = len(self._child.output)  # what earlier games of this host printed

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
            self._call("set_rng", None)

    def register_initial_state(self, state: GameState) -> None:
        """The agent's `register_initial_state`, in its host."""
        if "register_initial_state" in self._hooks:
            self._call("register_initial_state", state)

    def get_action(self, state: GameState) -> Any:
        """The agent's action in `state`, computed in its host on a copy of the state."""
        answer = self._call("get_action", state)
        nodes = answer.get("nodes")
        self.last_decision = _Decision(nodes if type(nodes) is int else None)
        if "unreadable" in answer:
            return _Unreadable(str(answer["unreadable"]))
        return str(answer.get("done"))

    def final(self, state: GameState) -> None:
        """The agent's `final`, in its host. Then the host waits, idle, for the next game of
        the same agent in this process (its imports done: a batch does not start a process
        per game), or is ended if the game gave up on it."""
        try:
            if self._usable and "final" in self._hooks:
                self._call("final", state)
        finally:
            self.release()

    def release(self) -> None:
        """Done with this game: keep a host that is still usable for the next game of the
        same agent, end any other (at once: one the game gave up on may still be busy)."""
        if self._usable and self._child.process.poll() is None:
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
        return self._child.close()

    # --- the exchange --------------------------------------------------------------------

    def _call(self, hook: str, state: GameState | None) -> dict[str, Any]:
        from pacman.hosting.isolation import ChildDied

        if not self._usable:
            raise _fault("HostFault", "the agent's process was stopped earlier in this game")
        self._usable = False  # until the host answers: a call given up on leaves it so
        child = self._child
        try:
            child.send({"call": hook, "state": None if state is None else state.compact()})
            while True:
                message = child.receive(None)
                if message is None:  # pragma: no cover - no timeout was given
                    continue
                draw = message.get("draw")
                if draw is None:
                    break
                child.send({"value": self._draw(draw)})
        except ChildDied as died:
            self.close()
            raise _fault("HostDied", f"the agent's process died ({died.reason})") from None
        error = message.get("error")
        if isinstance(error, dict):
            self._usable = True
            raise _fault(str(error.get("type", "AgentError")), str(error.get("text", "")))
        self._usable = True
        return message

    def _draw(self, request: Any) -> float | int:
        """The referee's generator's next number, as the host asked for it."""
        rng = self._rng if self._rng is not None else random.Random(0)
        self._rng = rng
        if isinstance(request, dict) and request.get("kind") == "bits":
            bits = request.get("k")
            if isinstance(bits, int) and not isinstance(bits, bool) and 0 <= bits <= 1 << 16:
                return rng.getrandbits(bits)
            raise _fault("ValueError", f"a draw of {bits!r} bits")
        return rng.random()


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


def resolve_in_host(spec: AgentSpec, role: str, index: int) -> tuple[AgentSpec, str, list[Path]]:
    """`pacman.experiments.grid.canonical_agent` of an agent of the user's, run in an agent
    host of its own (so the process that asks never imports the agent's code): the canonical
    spec, the agent's description and its code files. The errors are the ones the same call
    raises in this process (`RegistryError`, `BatchError`, one line each)."""
    from pacman import errors
    from pacman.hosting.isolation import Child, ChildDied, Limits
    from pacman.task import AgentSpec

    child = Child(WORKER, Limits(), private=True)
    try:
        child.send({"resolve": {"agent": spec.to_json(), "role": role, "index": index}})
        answer = child.receive(BUILD_SECONDS)
    except ChildDied as died:
        raise errors.BatchError(f"cannot build {role} agent {spec.name}: its process died "
                                f"({died.reason})") from None
    finally:
        child.kill()
        child.close()
    if answer is None:
        raise errors.BatchError(f"cannot build {role} agent {spec.name}: over "
                                f"{BUILD_SECONDS:g}s")
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
    return canonical, str(resolved.get("description", canonical.name))[:200], [
        Path(f) for f in files]
