"""One registry: names -> agent classes and evaluation functions.

`-p` and `-g` accept CS188 class names (`AlphaBetaAgent`, `DirectionalGhost`), short names
(`alphabeta`, `directional`), `module:Class` (a module in the current folder or installed),
`path/to/file.py:Class`, and, with an agents file (`--agents multiAgents.py`), the plain names of
the classes that file defines. A class written against the classic CS188 API (`getAction`) is
built the classic way (settings as strings) and played through the compatibility layer.

A user's own agents get names of their own, as Gymnasium's environments do: `register(name,
"module:Class", role)` in the running process, or a packaging entry point in the group
`pacman.agents` (Pacman agents) or `pacman.ghosts` (ghosts), whose name is the agent's name and
whose value is `module:Class`. Such a name is only another way to write its `module:Class`:
it is resolved to it (`resolve_name`), so the agent is the user's code wherever it plays (in an
agent host of its own, never trusted like the registry's own agents), and a batch stores it
under `module:Class`. The built-in names come first and cannot be taken.
"""

from __future__ import annotations

import importlib
import inspect
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pacman.agents.settings import AgentSettings
from pacman.errors import RegistryError, SettingsError
from pacman.suggest import did_you_mean


@dataclass(frozen=True)
class AgentEntry:
    """A registered agent: where its class lives and whether it plays Pacman or a ghost."""

    class_name: str
    module: str
    short: str
    role: str  # "pacman" or "ghost"
    summary: str

    def load(self) -> type:
        """Import and return the class."""
        return getattr(importlib.import_module(self.module), self.class_name)  # type: ignore[no-any-return]


AGENTS: tuple[AgentEntry, ...] = (
    AgentEntry("RandomAgent", "pacman.agents.simple", "random", "pacman", "uniformly random moves"),
    AgentEntry("GreedyAgent", "pacman.agents.simple", "greedy", "pacman",
               "best one-step successor by score"),
    AgentEntry("ReflexAgent", "pacman.agents.simple", "reflex", "pacman",
               "best one-step successor by an evaluation"),
    AgentEntry("MinimaxAgent", "pacman.agents.pacman_agents", "minimax", "pacman",
               "minimax search"),
    AgentEntry("AlphaBetaAgent", "pacman.agents.pacman_agents", "alphabeta", "pacman",
               "minimax with alpha-beta pruning"),
    AgentEntry("ExpectimaxAgent", "pacman.agents.pacman_agents", "expectimax", "pacman",
               "expectimax search (ghosts as chance nodes)"),
    AgentEntry("IterativeAlphaBetaAgent", "pacman.agents.pacman_agents", "iterative-alphabeta",
               "pacman", "alpha-beta by iterative deepening under a time budget (anytime)"),
    AgentEntry("IterativeExpectimaxAgent", "pacman.agents.pacman_agents", "iterative-expectimax",
               "pacman", "expectimax by iterative deepening, with exact pruning (anytime)"),
    AgentEntry("MCTSAgent", "pacman.agents.mcts", "mcts", "pacman",
               "Monte Carlo tree search: UCT with the ghosts' replies sampled (playouts, nodes "
               "or time)"),
    AgentEntry("KeyboardAgent", "pacman.agents.keyboard", "keyboard", "pacman",
               "you, with the arrow keys or WASD (window only)"),
    AgentEntry("RandomGhost", "pacman.agents.ghosts", "random", "ghost", "uniformly random moves"),
    AgentEntry("DirectionalGhost", "pacman.agents.ghosts", "directional", "ghost",
               "heads for Pacman with probability 0.8"),
    AgentEntry("AdversarialGhost", "pacman.agents.ghosts", "adversarial", "ghost",
               "searches for Pacman (minimax from the ghost's side)"),
    AgentEntry("TeamGhost", "pacman.agents.team_ghosts", "team", "ghost",
               "hunts as a team: alpha-beta over the ghosts' joint moves, cutting off escape"),
    AgentEntry("NoisyHunterGhost", "pacman.agents.noisy_hunter", "noisy-hunter", "ghost",
               "hunts like AdversarialGhost with probability 0.8, moves at random otherwise"),
    AgentEntry("InformedExpectimaxAgent", "pacman.agents.noisy_hunter", "informed-expectimax",
               "pacman",
               "expectimax with the noisy hunter's true probabilities (simulates its search)"),
    AgentEntry("ExpectiminimaxAgent", "pacman.agents.expectiminimax_agent", "expectiminimax",
               "pacman",
               "expectiminimax: each ghost a min or a chance layer (kinds=min,chance)"),
    AgentEntry("MaxnGhost", "pacman.agents.maxn_ghost", "maxn", "ghost",
               "max^n search with its own utilities (cooperative or competitive)"),
    AgentEntry("MCTSGhost", "pacman.agents.mcts_ghosts", "mcts", "ghost",
               "Monte Carlo tree search from its own turn: paranoid (the team against Pacman) "
               "or max^n"),
)


#: CS188's names for our evaluations, as `-a evalFn=...` gives them.
CS188_EVALUATIONS = {"scoreEvaluationFunction": "score", "betterEvaluationFunction": "better"}


#: the entry-point group of each role's agents in installed packages' metadata
ENTRY_POINT_GROUPS = {"pacman": "pacman.agents", "ghost": "pacman.ghosts"}
_REGISTERED: dict[tuple[str, str], str] = {}  # (role, name case-folded) -> "module:Class"
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_.-]{0,63}")
_TARGET = re.compile(r"[A-Za-z_][\w.]*:[A-Za-z_]\w*", re.ASCII)


def register(name: str, target: str, role: str = "pacman") -> None:
    """Give the agent class `target` (`module:Class`) the name `name` for `role` (`pacman` or
    `ghost`) in this process: `-p name` (or `make_agent(name, ...)`) then plays it.

    Args:
        name: the agent's name: a letter, then letters, digits, `_`, `.` or `-` (at most 64);
            matched case aside.
        target: where the class lives, `module:Class` (an installed module or one on the path).
        role: `pacman` or `ghost`.

    Raises:
        RegistryError: a bad name, target or role, or a name a built-in agent has.
    """
    if role not in ENTRY_POINT_GROUPS:
        raise RegistryError(f"bad role {role!r}: pacman or ghost")
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise RegistryError(f"bad agent name {name!r}: a letter, then letters, digits, _, . "
                            "or - (at most 64)")
    if not isinstance(target, str) or not _TARGET.fullmatch(target):
        raise RegistryError(f"bad agent target {target!r}: write module:Class")
    if registered(name, role) is not None:
        raise RegistryError(f"{name!r} is a built-in {role} agent's name: choose another")
    _REGISTERED[role, name.casefold()] = target


def plugin_target(name: str, role: str) -> str | None:
    """The `module:Class` a user's name stands for (`register`, then the installed packages'
    entry points of `ENTRY_POINT_GROUPS[role]`), or None. Reads names only: nothing is
    imported to answer."""
    found = _REGISTERED.get((role, name.casefold()))
    if found is not None:
        return found
    return _entry_points(role).get(name.casefold())


def plugin_names(role: str) -> dict[str, str]:
    """Every user's name for `role` (registered, then entry points) and its `module:Class`."""
    return {**_entry_points(role), **{key: target for (kind, key), target
                                       in _REGISTERED.items() if kind == role}}


def _entry_points(role: str) -> dict[str, str]:
    from importlib.metadata import entry_points

    group = ENTRY_POINT_GROUPS.get(role)
    if group is None:
        return {}
    return {point.name.casefold(): point.value for point in entry_points(group=group)
            if _NAME.fullmatch(point.name) and _TARGET.fullmatch(point.value.strip())
            and registered(point.name, role) is None}


def registered(name: str, role: str) -> AgentEntry | None:
    """The registry's entry for a class or short name (case aside), or None: read from the
    table alone, so nothing of the user's is imported to answer."""
    for entry in AGENTS:
        if entry.role == role and name in (entry.class_name, entry.short):
            return entry
    for entry in AGENTS:
        if name.lower() in (entry.class_name.lower(), entry.short) and entry.role == role:
            return entry
    return None


def code_file(target: str) -> Path | None:
    """The `.py` file the `target` of `target:Name` means, or None for an installed module: a
    path (`dir/mod.py`, or `dir/mod` for `dir/mod.py`), or `module.py` in the current folder."""
    if target.endswith(".py"):
        return Path(target)
    if "/" in target or "\\" in target:
        return Path(target) if Path(target).is_file() else Path(f"{target}.py")
    if target.isidentifier() and Path(f"{target}.py").is_file():
        return Path(f"{target}.py")
    return None


def _load_file(path: str | Path) -> Any:
    from pacman.cs188.loader import load_student_file
    from pacman.errors import StudentCodeError

    try:
        return load_student_file(path)
    except StudentCodeError as error:
        raise RegistryError(str(error)) from None


def _class_from_file(path: str | Path, class_name: str) -> type:
    from pacman.cs188.loader import find_class
    from pacman.errors import StudentCodeError

    try:
        return _agent_class(find_class(_load_file(path), class_name), f"{path}:{class_name}")
    except StudentCodeError as error:
        raise RegistryError(str(error)) from None


def _agent_class(cls: type, name: str) -> type:
    """`cls` if it can play (it has `get_action`, or the classic `getAction`)."""
    if not (callable(getattr(cls, "get_action", None)) or callable(getattr(cls, "getAction",
                                                                           None))):
        raise RegistryError(f"{name} is not an agent: it has no get_action(state) method")
    return cls


def find_agent(name: str, role: str) -> AgentEntry | type:
    """The entry for a registered name (class or short), or the class of `module:Class` /
    `file.py:Class` (a `module.py` in the current folder is read before installed modules)."""
    entry = registered(name, role)
    if entry is not None:
        return entry
    if ":" in name:
        target, _, class_name = name.rpartition(":")
        if not target or not class_name.isidentifier():
            raise RegistryError(f"bad agent name {name!r}: write module:Class or "
                                "path/to/file.py:Class")
        path = code_file(target)
        if path is not None:
            return _class_from_file(path, class_name)
        try:
            module = importlib.import_module(target)
        except ImportError as error:
            raise RegistryError(f"cannot import agent module {target!r}: {error}") from None
        except BaseException as error:  # SystemExit too: the module's fault, one line
            from pacman.interrupts import is_user_interrupt

            if is_user_interrupt(error):
                raise
            raise RegistryError(f"agent module {target!r} failed while loading: "
                                f"{type(error).__name__}: {error}") from None
        cls = getattr(module, class_name, None)
        if not inspect.isclass(cls):
            raise RegistryError(f"module {target!r} has no class {class_name!r}")
        return _agent_class(cls, name)
    found = classic_agent_file(name)
    if found is not None:
        return _class_from_file(found, name)
    plugin = plugin_target(name, role)
    if plugin is not None:
        return find_agent(plugin, role)
    raise unknown_agent(name, role)


def unknown_agent(name: str, role: str) -> RegistryError:
    """The error for a name of no agent of `role`: the registered name closest to it (`did you
    mean`), or when none is close, every registered name and the other ways to name an agent."""
    entries = [entry for entry in AGENTS if entry.role == role]
    who = "Pacman" if role == "pacman" else role
    if _stem(name) != name.casefold():  # `MyAgent`, `RandomGhost`: read as a class name
        hint = did_you_mean(name, [entry.class_name for entry in entries], key=_stem)
    else:
        hint = did_you_mean(name, [*(entry.short for entry in entries), *plugin_names(role)])
    if hint:
        return RegistryError(f"unknown {who} agent {name!r} {hint}")
    names = ", ".join(f"{entry.class_name} ({entry.short})" for entry in entries)
    return RegistryError(f"unknown {who} agent {name!r}; known: {names}; or module:Class, "
                         "file.py:Class, or --agents FILE.py with the class name")


def _stem(name: str) -> str:
    """`name` case-folded without an `Agent` or `Ghost` ending, which every class name has: so
    that `MyAgent` is compared as `my` (close to no agent), not as most of `MCTSAgent`."""
    folded = name.casefold()
    for ending in ("agent", "ghost"):
        if folded.endswith(ending) and len(folded) > len(ending):
            return folded.removesuffix(ending)
    return folded


def classic_agent_file(class_name: str, folder: str | Path = ".") -> Path | None:
    """Like the classic `pacman.py`: the first `*gents.py` file in `folder` that defines a class
    `class_name` (found by reading the files, not running them)."""
    if not class_name.isidentifier():
        return None
    import re

    pattern = re.compile(rf"^class\s+{re.escape(class_name)}\b", re.MULTILINE)
    for path in sorted(Path(folder).glob("*gents.py")):
        try:
            if pattern.search(path.read_text(encoding="utf-8", errors="replace")):
                return path
        except OSError:
            continue
    return None


def resolve_name(name: str, role: str, agents_file: str | Path | None = None) -> str:
    """The agent name `make_agent` reads: with an agents file, a plain name of a class that file
    defines becomes `/abs/path/file.py:Class`; a file path in `file.py:Class` becomes absolute.
    Without one, a class name that a `*gents.py` file of the current folder defines (spelled
    exactly, `MinimaxAgent`) is that file's class, as the classic `pacman.py -p MinimaxAgent`
    plays it, even where a built-in agent has the same class name; the built-in agents keep
    their short names (`minimax`). A user's name (`register`, entry points) becomes its
    `module:Class`. Any other plain name is no agent: `unknown_agent`'s error, raised here,
    before a host is started to build it."""
    if agents_file is not None and name.isidentifier():
        student = _load_file(agents_file)
        defined = getattr(student.module, name, None)
        if inspect.isclass(defined) and getattr(defined, "__module__", None) in (
                student.module.__name__, *(m.__name__ for m in student.siblings.values())):
            return f"{student.path}:{name}"
    target, sep, class_name = name.rpartition(":")
    path = code_file(target) if sep and target else None
    if path is not None:
        return f"{path.expanduser().resolve()}:{class_name}"
    entry = registered(name, role) if not sep else None
    if not sep and (entry is None or name != entry.short):
        found = classic_agent_file(name)
        if found is not None:
            return f"{found.resolve()}:{name}"
    if not sep and entry is None:
        plugin = plugin_target(name, role)
        if plugin is None:
            raise unknown_agent(name, role)
        return plugin
    return name


def agent_names(role: str) -> list[str]:
    """The registered class names for a role."""
    return [entry.class_name for entry in AGENTS if entry.role == role]


def make_agent(name: str, role: str, settings: Mapping[str, Any] | None = None,
               index: int | None = None) -> Any:
    """Build an agent by name with keyword settings; bad names/settings raise RegistryError."""
    return build_agent(agent_class(name, role), settings, index)


def agent_class(name: str, role: str) -> type:
    """The class an agent name stands for (see `find_agent`)."""
    found = find_agent(name, role)
    return found.load() if isinstance(found, AgentEntry) else found


def accepts_setting(name: str, role: str, setting: str) -> bool:
    """True if the agent named `name` takes the keyword setting `setting`."""
    return _accepts(agent_class(name, role), setting)


def build_agent(cls: type, settings: Mapping[str, Any] | None = None,
                index: int | None = None) -> Any:
    """Build an agent of `cls`: a classic CS188 class the classic way (settings as strings, in
    the compatibility layer), any other class with keyword settings (`evalFn` read as
    `evaluation`); bad settings raise RegistryError."""
    kwargs = dict(settings or {})
    if callable(getattr(cls, "getAction", None)):  # maybe classic: only then its layer loads
        from pacman.cs188.loader import is_cs188_agent_class

        if is_cs188_agent_class(cls):
            return _make_classic(cls, kwargs, 0 if index is None else index)
    if "evalFn" in kwargs and "evaluation" not in kwargs and _accepts(cls, "evaluation"):
        value = kwargs.pop("evalFn")  # the CS188 spelling of the setting, and its names
        kwargs["evaluation"] = CS188_EVALUATIONS.get(value, value) if isinstance(
            value, str) else value
    typed = typed_settings(cls)
    if typed is not None:
        return _build_typed(cls, typed, kwargs, index)
    if index is not None and _accepts(cls, "index"):
        kwargs["index"] = index
    try:
        agent = cls(**kwargs)
    except TypeError as error:
        raise _settings_error(cls, error) from None
    except ValueError as error:
        message = str(error).removeprefix(f"{cls.__name__}: ")
        raise RegistryError(f"bad settings for {cls.__name__}: {message}") from None
    except BaseException as error:  # a user's class may raise anything (SystemExit too)
        _reraise_user_interrupt(error)
        raise RegistryError(f"{cls.__name__} failed while being built: "
                            f"{_fault_text(error)}") from None
    if index is not None and not _accepts(cls, "index"):
        try:
            agent.index = index
        except BaseException as error:  # e.g. __slots__ without index: it does not need one
            _reraise_user_interrupt(error)
    return agent


def typed_settings(cls: type) -> type[AgentSettings] | None:
    """The settings class of an agent class built on `BaseAgent` (its `Settings`, taken by its
    `settings` argument), or None for a class that takes plain keyword settings."""
    found = getattr(cls, "Settings", None)
    if not (isinstance(found, type) and issubclass(found, AgentSettings)):
        return None
    try:
        takes = "settings" in inspect.signature(cls).parameters
    except (TypeError, ValueError):
        return None
    return found if takes else None


def _build_typed(cls: type, typed: type[AgentSettings], values: Mapping[str, Any],
                 index: int | None) -> Any:
    """An agent of a typed-settings class: the settings checked once, then the agent built."""
    try:
        chosen = typed.of(values)
    except SettingsError as error:
        raise RegistryError(f"bad settings for {cls.__name__}: {error}") from None
    try:
        return cls(settings=chosen) if index is None else cls(index, settings=chosen)
    except ValueError as error:  # an evaluation that cannot be resolved, a ghost's index
        message = str(error).removeprefix(f"{cls.__name__}: ")
        raise RegistryError(f"bad settings for {cls.__name__}: {message}") from None
    except BaseException as error:  # a user's subclass may raise anything (SystemExit too)
        _reraise_user_interrupt(error)
        raise RegistryError(f"{cls.__name__} failed while being built: "
                            f"{_fault_text(error)}") from None


def _reraise_user_interrupt(error: BaseException) -> None:
    from pacman.interrupts import is_user_interrupt

    if is_user_interrupt(error):
        raise error


def _fault_text(error: BaseException) -> str:
    from pacman.cs188.loader import describe_fault

    return describe_fault(error)


def _make_classic(cls: type, settings: dict[str, Any], index: int) -> Any:
    """A classic CS188 agent, built as the classic `pacman.py` builds it, in its adapter."""
    from pacman.cs188.agent import build_student_agent
    from pacman.cs188.loader import describe_fault

    try:
        return build_student_agent(cls, settings, index)
    except TypeError as error:
        raise _settings_error(cls, error) from None
    except BaseException as error:
        _reraise_user_interrupt(error)
        raise RegistryError(f"{cls.__name__} failed while being built: "
                            f"{describe_fault(error)}") from None


def _settings_error(cls: type, error: TypeError) -> RegistryError:
    """Bad settings, said in the user's words: `got an unexpected keyword argument 'x'` comes
    from some `__init__` the user never wrote, so only the setting's name is kept."""
    text = str(error)
    unknown = re.search(r"unexpected keyword argument '([^']+)'", text)
    if unknown:
        text = f"unknown setting {unknown.group(1)!r}"
    else:
        text = re.sub(r"^[\w.<>]+\(\) ", "", text)  # "C.__init__() missing 1 ..." -> "missing ..."
    accepted = _parameters(cls)
    return RegistryError(f"bad settings for {cls.__name__}: {text} (it accepts: "
                         f"{', '.join(accepted) or 'no settings'})")


def _parameters(cls: type) -> list[str]:
    typed = typed_settings(cls)
    if typed is not None:
        return list(typed.names())
    try:
        signature = inspect.signature(cls)
    except (TypeError, ValueError):
        return []
    return [p for p in signature.parameters if p not in ("self", "index")]


def _accepts(cls: type, parameter: str) -> bool:
    typed = typed_settings(cls)
    if typed is not None:
        return parameter in typed.names()
    try:
        return parameter in inspect.signature(cls).parameters
    except (TypeError, ValueError):
        return False
