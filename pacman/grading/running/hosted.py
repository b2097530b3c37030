"""The code under test, played from its own process: the referee's side of grading.

`HostedContestant` is what the grading worker (the referee) grades a submission through. The
submission is imported only in its host (`pacman.hosting.host`); the referee
parses the tests and the solutions, plays the games, counts, compares and adds up the points,
and never imports a line of the student's. What the host says is a *report*, and the referee
believes only what it can check:

- a tree test's host reports the action and every successor call, in order, as (node, agent,
  action); the referee replays the calls on its own tree, from the root, and so derives the
  generated nodes itself. A call from a node not generated before it, or one the tree does not
  allow, is a forged report: the run fails;
- a game test's host reports, per move, the action and the `generateSuccessor` calls as
  (parent, agent, action), the parent numbered by the call that made it (0: the state it was
  given); the referee rebuilds each child from its own state and counts the explored set (the
  parents and children, by value), as the classic grader counts;
- an agent test's host answers actions, which the referee's game checks and plays.

A report can only fail a test it could not pass: the referee's state, its generator, its
clock and its count are out of the host's reach. The host's death is the student's crash; a
fresh host takes the next test.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pacman.cs188.loader import describe_fault
from pacman.errors import GradingError
from pacman.game_tree import TreeBudgetError, TreeError, TreeRun, TreeState
from pacman.grading.cases.parser import TreeCase
from pacman.grading.running.tree_run import AgentRun, TreeAgentStandIn
from pacman.hosting.agent_host import UnreadableAction, serve_words
from pacman.hosting.isolation import Child, ChildDied, ProcessLimits, printable
from pacman.hosting.sandbox import GAME_VIEW, WORKDIR, Carried
from pacman.limits import MoveTimeLimit
from pacman.state import GameState

__all__ = ["HostedContestant", "StudentFault", "describe"]

HOST = "pacman.hosting.host"
#: what the student's host sees of the package
HOST_VIEW = GAME_VIEW
#: how long importing the submission may take before it is given up
LOAD_SECONDS = 120.0
FORGED = ("the agent's process reported a successor the referee cannot derive: "
          "{what} (a forged report fails the test)")


class StudentFault(Exception):
    """What the student's code raised, as its host described it, or how the host ended."""

    def __init__(self, text: str, died: str | None = None) -> None:
        super().__init__(text)
        self.described = text
        self.died = died  # how the host ended, if it did


def describe(error: BaseException) -> str:
    """A fault's one line: the host's own description for a hosted student's fault."""
    if isinstance(error, StudentFault):
        return error.described
    return describe_fault(error)


class _Host:
    """One student host process with the submission loaded."""

    def __init__(self, submission: str, folder: Path, memory_mb: int | None,
                 hide: Sequence[str], cpu: int | None) -> None:
        """Start the host and send it the submission to load; `loaded()` waits for it (so the
        caller's own start-up runs meanwhile). In a sandbox, the host has a copy of the
        submission's Python files (`Carried`) and nothing else of the folder."""
        carried = self.carried = Carried()
        inside = carried.carry(submission)
        self.folder = folder
        self.child = Child(HOST, ProcessLimits(memory_mb=memory_mb), cwd=str(folder), private=True,
                           files=carried.pairs(), view=HOST_VIEW, hide=hide)
        if self.child.private:
            submission = inside
        self.busy = False
        self._loading = True
        with contextlib.suppress(ChildDied):  # loaded() says how it ended
            self.child.send({"load": submission, "cpu": cpu})

    def loaded(self) -> None:
        """Wait until the submission is loaded; GradingError (one line) if it cannot be."""
        if not self._loading:
            return
        self._loading = False
        self.busy = True
        try:
            answer = self._answer(LOAD_SECONDS)
        except StudentFault as fault:
            self.close()
            raise GradingError(f"loading the submission ended its process "
                               f"({fault.died or fault})") from None
        if "error" in answer:
            self.close()
            raise GradingError(printable(str(answer["error"])))
        if answer.get("loaded") is not True:
            self.close()
            raise GradingError(printable(f"loading the submission failed: {answer.get('fault')}"))

    def ask(self, request: Mapping[str, Any], timeout: float | None = None) -> dict[str, Any]:
        """Send `request` and wait for its answer, serving the host's draws from the global
        `random` generator meanwhile. StudentFault if the host dies or answers a fault."""
        self.loaded()
        if self.busy:
            raise StudentFault("HostDied: the agent's process was stopped earlier")
        self.busy = True
        try:
            self.child.send(dict(request))
        except ChildDied as died:
            raise StudentFault(f"HostDied: the agent's process died ({died.reason})",
                               died.reason) from None
        return self._answer(timeout)

    def _answer(self, timeout: float | None) -> dict[str, Any]:
        """The host's answer to the request just sent (see `ask`). Each draw it asks for on
        the way is served from the global generator, exactly the words asked for: the host
        holds no word it has not drawn, and every word it was given counts as drawn (there is
        no count of the host's to believe)."""
        child = self.child
        try:
            while True:
                message = child.receive(timeout)
                if message is None:
                    child.kill()
                    raise StudentFault(f"TimeoutError: no answer within {timeout:g}s")
                draw = message.get("draw")
                if draw is None:
                    break
                child.send({"value": serve_words(random.getrandbits, draw)})
        except ChildDied as died:
            raise StudentFault(f"HostDied: the agent's process died ({died.reason})",
                               died.reason) from None
        except BaseException as stopped:  # a time limit interrupted the wait: still busy
            if isinstance(stopped, MoveTimeLimit):  # say where the code was, for the report
                stopped.where = self.where_stuck()
            child.kill()
            raise
        self.busy = False
        if "fault" in message:
            raise StudentFault(printable(str(message["fault"])[:2000]))
        return message

    @property
    def alive(self) -> bool:
        return not self.busy and self.child.process.poll() is None

    def where_stuck(self) -> str:
        """Where the student's code is now (`stalls.where_stuck`): "" for a host that has
        ended, or one whose stacks show none of the student's frames."""
        if self.child.process.poll() is not None:
            return ""
        from pacman.grading.running.stalls import where_stuck

        return where_stuck(self.child.process.pid, lambda: self.child.output,
                           self._student_file)

    def _student_file(self, path: str) -> Path | None:
        """The student's own file that a path of the host's names, or None."""
        if self.child.private:
            if not path.startswith(f"{WORKDIR}/"):
                return None
            source = self.carried.source(path)
            return None if source == path else Path(source)
        candidate = Path(path)
        try:
            candidate.resolve().relative_to(self.folder.resolve())
        except (ValueError, OSError):
            return None
        return candidate if candidate.suffix == ".py" else None

    def close(self) -> str:
        self.child.kill()
        return self.child.close()


class HostedContestant:
    """A submission graded from its own host process (see the module's text).

    The host runs in a sandbox (a copy of the submission's Python files, nothing of the
    suite, the class or the results; `hide`: the suite's folders, kept out of sight even where
    they lie inside the package or the Python installation) where the machine allows it; else
    in the submission's folder. Raises GradingError, as `Contestant` does, when the
    submission cannot be loaded; with `wait=False`, from `loaded()` (the host loads it while
    the caller goes on)."""

    def __init__(self, submission: str | Path, memory_mb: int | None = 2048,
                 hide: Sequence[str | Path] = (), wait: bool = True,
                 agent_random: str = "shared") -> None:
        text = str(submission)
        is_file = text.endswith(".py") or "/" in text or "\\" in text
        #: a file's absolute path, or a module's name as given
        self.spec = str(Path(text).expanduser().resolve()) if is_file else text
        if is_file and not Path(self.spec).is_file():  # said as the loader says it
            raise GradingError(f"no such agent file: {text}")
        self.memory_mb = memory_mb
        #: "own": an agent test's agent draws from a stream of its own; "shared": from the
        #: ghosts' (`pacman.cs188.randomness`)
        self.agent_random = agent_random
        folder = Path(self.spec).parent if is_file else Path.cwd()
        self.folder = folder
        self.hide = [str(Path(h).resolve()) for h in hide]
        self.outputs: list[str] = []
        from pacman.hosting.isolation import share_cpu

        self.cpu = share_cpu()  # the referee and its host take turns: one CPU serves both
        self._host: _Host | None = _Host(self.spec, folder, memory_mb, self.hide, self.cpu)
        if wait:
            self.loaded()

    def loaded(self) -> None:
        """Wait until the submission is loaded (see `wait`); GradingError if it cannot be."""
        self.host().loaded()

    @property
    def name(self) -> str:
        """How reports name the code under test."""
        return self.spec

    @property
    def module_name(self) -> str:
        """The submission's file name (or module name)."""
        return Path(self.spec).name

    def where_stuck(self) -> str:
        """Where the submission's code is now, if its host is busy (see `_Host.where_stuck`)."""
        return "" if self._host is None else self._host.where_stuck()

    def host(self) -> _Host:
        """The live host, a fresh one (the submission loaded again) after a death."""
        if self._host is None or not self._host.alive:
            if self._host is not None:
                self.outputs.append(self._host.close())
            self._host = None
            self._host = _Host(self.spec, self.folder, self.memory_mb, self.hide, self.cpu)
        return self._host

    def close(self) -> str:
        """End the host; returns everything the submission printed."""
        from pacman.hosting.isolation import unshare_cpu

        if self._host is not None:
            self.outputs.append(self._host.close())
            self._host = None
        if self.cpu is not None:
            self.cpu = None
            unshare_cpu()
        return "".join(self.outputs)

    # --- what the test classes ask for ---------------------------------------------------

    def _has(self, name: str) -> bool:
        return bool(self.host().ask({"has": name}).get("has"))

    def tree_agent(self, name: str) -> TreeAgentStandIn | None:
        """A stand-in for the submission's class `name` on tree tests, or None if it has none."""
        return _TreeAgent(self, name) if self._has(name) else None

    def _require(self, name: str) -> None:
        """GradingError, as `Contestant.agent_class` says it, if the submission has no class
        `name`."""
        if not self._has(name):
            raise GradingError(f"{self.name} has no class {name}")

    def game_agent(self, name: str, depth: int) -> _GameAgent:
        """The class `name` at `depth` along a game test, its explored states counted here."""
        self._require(name)
        return _GameAgent(self, name, depth)

    def eval_agent(self, name: str, arguments: Mapping[str, str], seed: int) -> _EvalAgent:
        """The class `name` built from a test's `agentArgs`, playing an agent test seeded with
        `seed`."""
        self._require(name)
        return _EvalAgent(self, name, dict(arguments),
                          seed if self.agent_random == "own" else None)


def _action(value: Any) -> Any:
    """A host's action as the referee's game takes it: a string, or an `UnreadableAction`
    (the host's `{"repr": ...}` for anything else), which the game calls illegal."""
    if isinstance(value, str):
        return value
    return UnreadableAction(printable(str(value.get("repr") if isinstance(value, dict)
                                          else value)))


class _TreeAgent(TreeAgentStandIn):
    """The submission's tree-test class, run in its host, replayed on the referee's tree."""

    def __init__(self, contestant: HostedContestant, name: str) -> None:
        self.contestant, self.name = contestant, name

    def run(self, case: TreeCase, depth: int, default_value: float | None, classic: bool,
            budget: int) -> AgentRun:
        tree = case.tree
        request = {"tree": {"tree": {
            "start": tree.start, "num_agents": tree.num_agents,
            "children": {node: [list(pair) for pair in pairs]
                         for node, pairs in tree.children.items()},
            "values": dict(tree.values), "win": sorted(tree.win_states),
            "lose": sorted(tree.lose_states)},
            "alg": self.name, "depth": depth, "default": default_value, "classic": classic,
            "budget": budget}}
        try:
            answer = self.contestant.host().ask(request)
        except StudentFault as fault:
            return AgentRun(None, frozenset({tree.start}),
                            error=f"the agent raised {fault}", error_type="StudentFault")
        return replay_tree(case, answer, default_value, classic, budget)


def replay_tree(case: TreeCase, answer: Mapping[str, Any], default_value: float | None,
                classic: bool, budget: int) -> AgentRun:
    """The run a host reported, as the referee derives it from the reported calls."""
    run = TreeRun(case.tree, default_value, classic, budget)
    error = answer.get("error")
    error_type = answer.get("error_type")
    error = None if error is None else printable(str(error)[:2000])
    if error_type in (None, "TreeBudgetError") and answer.get("calls") is None:
        # no calls: only a failure may be reported this way
        if error_type != "TreeBudgetError":
            return _forged(case, "no calls reported")
        generated = answer.get("generated")
        nodes = {str(n) for n in generated} if isinstance(generated, list) else set()
        return AgentRun(None, frozenset(nodes | {case.tree.start}), (), error, error_type)
    calls = answer.get("calls")
    if not isinstance(calls, list):
        return _forged(case, "no list of calls")
    for number, call in enumerate(calls):
        if not (isinstance(call, list) and len(call) == 3 and isinstance(call[0], str)):
            return _forged(case, f"call {number + 1} is not (node, agent, action)")
        node, agent, action = call
        if node not in run.generated:
            return _forged(case, f"call {number + 1} starts from node {node!r}, which was not "
                                 "generated before it")
        try:
            TreeState(run, node).successor(agent, action if isinstance(action, str) else
                                           repr(action))
        except TreeBudgetError as problem:
            error, error_type = str(problem), type(problem).__name__
            break
        except TreeError:  # it raised in the host too (which said so, or the code caught it)
            continue
    action = answer.get("action")
    action = None if action is None or error is not None else str(action)
    duplicates = tuple(f"{node} --{name}--> generated {count} times"
                       for node, name, count in run.duplicate_edges())
    return AgentRun(action, frozenset(run.generated), duplicates,
                    None if error is None else str(error),
                    None if error_type is None else str(error_type))


def _forged(case: TreeCase, what: str) -> AgentRun:
    return AgentRun(None, frozenset({case.tree.start}), error=FORGED.format(what=what),
                    error_type="ForgedReport")


class _Played:
    """An agent of the submission's that plays a game from its host: built there (`_build`)
    on the first call of each host, a fresh one after a death."""

    def __init__(self, contestant: HostedContestant, name: str) -> None:
        self.contestant, self.name = contestant, name
        self._built: _Host | None = None

    def _host(self, state: GameState) -> _Host:
        host = self.contestant.host()
        if host is not self._built:
            board = {"text": state.layout.text, "name": state.layout.name,
                     "num_ghosts": state.num_agents - 1}
            answer = host.ask(self._build(board))
            if "error" in answer:
                raise GradingError(printable(str(answer["error"])))
            self._built = host
            self._on_built(answer)
        return host

    def _build(self, board: dict[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    def _on_built(self, answer: Mapping[str, Any]) -> None:
        """What the host said when it built the agent."""


class _GameAgent(_Played):
    """A game test's student, played from its host and counted by the referee."""

    def __init__(self, contestant: HostedContestant, name: str, depth: int) -> None:
        super().__init__(contestant, name)
        self.depth = depth
        self.forged: str | None = None  # the first forged report, if any

    def _build(self, board: dict[str, Any]) -> dict[str, Any]:
        return {"game_agent": {"alg": self.name, "depth": self.depth, "board": board}}

    def register_initial_state(self, state: GameState) -> None:
        """The agent's `registerInitialState`, in its host."""
        self._host(state).ask({"register": state.compact()})

    def move(self, state: GameState) -> tuple[Any, int]:
        """The agent's action in `state`, and the explored count the referee derives from the
        reported calls (-1 for a report it cannot derive: no staff count matches it)."""
        answer = self._host(state).ask({"move": state.compact()})
        action = answer.get("action")
        count = _explored(state, answer.get("calls"))
        if count < 0 and self.forged is None:
            self.forged = "its calls name a state that was never generated"
        return _action(action), count


def _explored(root: GameState, calls: Any) -> int:
    """The classic explored count of the calls a host reported from `root`; -1 if they name a
    parent that was never made."""
    if not isinstance(calls, list):
        return -1
    states: list[GameState | None] = [root]
    explored: set[GameState] = set()
    for call in calls:
        if not (isinstance(call, list) and len(call) == 3 and type(call[0]) is int
                and 0 <= call[0] < len(states)):
            return -1
        parent = states[call[0]]
        if parent is None:
            return -1
        child: GameState | None = None
        if not parent.is_terminal():
            try:
                child = parent.successor(call[1], call[2])
            except Exception:  # the student's call raised there too, and maybe caught it
                child = None
        if child is not None:
            explored.add(parent)
            explored.add(child)
        states.append(child)
    return len(explored)


class _EvalAgent(_Played):
    """An agent test's agent, played from its host."""

    def __init__(self, contestant: HostedContestant, name: str,
                 arguments: dict[str, str], own_random: int | None) -> None:
        super().__init__(contestant, name)
        self.arguments = arguments
        self.own_random = own_random  # the seed of its own stream, or None: the ghosts'
        self._register = False

    def _build(self, board: dict[str, Any]) -> dict[str, Any]:
        return {"eval_agent": {"name": self.name, "arguments": self.arguments, "board": board,
                               "own_random": self.own_random}}

    def _on_built(self, answer: Mapping[str, Any]) -> None:
        self._register = bool(answer.get("register"))

    def register_initial_state(self, state: GameState) -> None:
        """The agent's `registerInitialState`, in its host."""
        host = self._host(state)
        if self._register:
            host.ask({"call": {"hook": "register_initial_state", "state": state.compact()}})

    def get_action(self, state: GameState) -> Any:
        """The agent's action, computed in its host on a copy of `state`."""
        return _action(self._host(state).ask(
            {"call": {"hook": "get_action", "state": state.compact()}}).get("action"))
