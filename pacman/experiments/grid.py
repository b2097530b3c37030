"""Batch grids: agents x settings x ghosts x numbers of ghosts x layouts, resolved to canonical
configurations (class names, default settings filled in), and experiment files (TOML/JSON)."""

from __future__ import annotations

import itertools
import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pacman.agents.resolve import canonical_agent
from pacman.errors import BatchError, LayoutError
from pacman.experiments.config import GameConfig
from pacman.files import read_bytes
from pacman.hosting.agent_host import resolve_in_host, trusted
from pacman.layout import check_playable, ghosts_in_play, layout_reference, load_layout
from pacman.limits import LOAD_SECONDS, seconds
from pacman.specs import AgentSpec, Setting
from pacman.versions import (
    code_version,
    layout_files,
)

EXPERIMENT_KEYS = ("pacman", "ghosts", "layouts", "num_ghosts", "games", "seed", "max_moves",
                   "move_timeout", "game_timeout")


# --- the grid -----------------------------------------------------------------------------


def cross_settings(name: str, axes: Mapping[str, Setting | Sequence[Setting]]) -> list[AgentSpec]:
    """One spec per combination of settings; a list value holds alternatives to cross.

    `cross_settings("alphabeta", {"depth": [2, 3], "evaluation": "better"})` gives two specs.
    """
    keys = sorted(axes)
    choices = [_alternatives(axes[key]) for key in keys]
    return [AgentSpec.of(name, dict(zip(keys, combination)))
            for combination in itertools.product(*choices)]


def _alternatives(value: Setting | Sequence[Setting]) -> list[Setting]:
    if isinstance(value, (list, tuple)):
        if not value:
            raise BatchError("an empty list of setting values crosses into no configuration")
        return list(value)
    return [value]  # type: ignore[list-item]


@dataclass(frozen=True)
class Grid:
    """The axes crossed into configurations: every Pacman x ghost x number of ghosts x layout."""

    pacman: Sequence[AgentSpec]
    ghosts: Sequence[AgentSpec] = (AgentSpec("RandomGhost"),)
    layouts: Sequence[str] = ("mediumClassic",)
    num_ghosts: Sequence[int | None] = (None,)
    max_moves: int | None = None
    move_time_limit: float | None = None

    def configs(self) -> list[GameConfig]:
        """The crossed configurations, as given (not yet resolved)."""
        return [GameConfig(pacman, ghost, count, layout, self.max_moves,
                           self.move_time_limit)
                for layout in self.layouts for count in self.num_ghosts
                for ghost in self.ghosts for pacman in self.pacman]


@dataclass(frozen=True)
class ResolvedConfig:
    """A canonical configuration, with what a record needs when the batch writes one itself."""

    config: GameConfig
    layout_name: str
    agent_names: tuple[str, ...]
    code: str = ""  # the code version of its games (`pacman.versions`)
    #: the files of the user's its code version hashes: its agents' modules, the files its
    #: settings name and its layout file (they travel to a cluster's workers)
    files: tuple[Path, ...] = ()


def plan(grid: Grid, isolation: str = "process") -> list[ResolvedConfig]:
    """The grid's configurations, resolved and without duplicates, in grid order."""
    return resolve_configs(grid.configs(), isolation)


def resolve_configs(configs: Sequence[GameConfig], isolation: str = "process",
                    load_seconds: float = LOAD_SECONDS) -> list[ResolvedConfig]:
    """Resolve each configuration (see `resolve_config`), dropping duplicates."""
    seen: dict[str, ResolvedConfig] = {}
    for config in configs:
        resolved = resolve_config(config, isolation, load_seconds)
        seen.setdefault(resolved.config.key(), resolved)
    return list(seen.values())


def resolve_config(config: GameConfig, isolation: str = "process",
                   load_seconds: float = LOAD_SECONDS) -> ResolvedConfig:
    """The canonical form of a configuration, checked by building its agents once.

    Agent names become class names (`alphabeta` -> `AlphaBetaAgent`), settings get the class's
    defaults filled in (so `-p alphabeta` and `-a depth=2` are one configuration), a shipped
    layout stays a name and a layout file becomes an absolute path, and `num_ghosts=None`
    becomes the layout's number of ghosts. Raises LayoutError, RegistryError or BatchError.
    With `isolation="process"` (the default), an agent of the user's is resolved in an agent
    host (`canonical_agent` run there), so this process, which writes the results, never
    imports the user's code; `none` resolves it here. Loading an agent of the user's may take
    `load_seconds` (`pacman.limits.load_limit`; with `none`, a soft limit); longer,
    or a process that dies while it loads, is one line naming the agent. An agent whose
    `describe()` fails is resolved all the same: that is its games' business (each is its
    `crash`, as in `pacman play`), not the batch's.
    """
    layout = load_layout(config.layout)
    layout_key = layout_reference(config.layout)
    try:
        count = ghosts_in_play(layout, config.num_ghosts)
    except LayoutError:
        raise BatchError(f"layout {layout.name} has {len(layout.ghost_starts)} ghost start(s): "
                         f"cannot play with {config.num_ghosts} ghosts") from None
    check_playable(layout, count)
    pacman, pacman_name, pacman_files = _canonical(config.pacman, "pacman", 0, isolation,
                                                   load_seconds)
    ghost, ghost_name, ghost_files = _canonical(config.ghost, "ghost", 1, isolation,
                                                load_seconds)
    if config.max_moves is not None and config.max_moves < 1:
        raise BatchError(f"max_moves must be >= 1, got {config.max_moves}")
    limit = config.move_time_limit
    canonical = GameConfig(pacman, ghost, count, layout_key, config.max_moves,
                           None if limit is None else seconds(limit, "move_timeout"),
                           config.paired)
    names = (pacman_name, *[ghost_name] * count)
    files = tuple(sorted({*pacman_files, *ghost_files, *layout_files(layout_key)}))
    return ResolvedConfig(canonical, layout.name, names, code_version(files), files)


def _canonical(spec: AgentSpec, role: str, index: int, isolation: str,
               load_seconds: float = LOAD_SECONDS) -> tuple[AgentSpec, str, list[Path]]:
    if trusted(spec.name, role, spec.settings_dict()):
        return canonical_agent(spec, role, index)
    if isolation == "process":
        return resolve_in_host(spec, role, index, load_seconds)
    from pacman.hosting.local import loading

    with loading(spec.name, load_seconds):
        return canonical_agent(spec, role, index)


# --- experiment files ---------------------------------------------------------------------


@dataclass(frozen=True)
class Experiment:
    """What an experiment file says; an empty axis or None means 'not given here'."""

    pacman: tuple[AgentSpec, ...] = ()
    ghosts: tuple[AgentSpec, ...] = ()
    layouts: tuple[str, ...] = ()
    num_ghosts: tuple[int | None, ...] = ()
    games: int | None = None
    seed: int | None = None
    max_moves: int | None = None
    move_time_limit: float | None = None
    game_time_limit: float | None = None


def load_experiment(path: str | Path) -> Experiment:
    """Read an experiment file: TOML (`.toml`, Python 3.11+) or JSON (`.json`).

    Keys: `pacman` and `ghosts` (lists of agent names, or tables with `agent` and settings,
    where a list value is crossed), `layouts`, `num_ghosts` (a value or a list), `games`,
    `seed`, `max_moves`, `move_timeout`, `game_timeout`.
    """
    path = Path(path)
    raw = read_bytes(path, "experiment", lambda reason: BatchError(f"experiment file {reason}"))
    data: Any
    if path.suffix.lower() == ".toml":
        if sys.version_info >= (3, 11):
            import tomllib

            try:
                data = tomllib.loads(raw.decode("utf-8"))
            except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
                raise BatchError(f"{path}: {error}") from None
        else:
            raise BatchError(f"{path}: TOML experiment files need Python 3.11; write it as JSON")
    elif path.suffix.lower() == ".json":
        try:
            data = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError) as error:
            raise BatchError(f"{path}: {error}") from None
    else:
        raise BatchError(f"{path}: an experiment file must end in .toml or .json")
    try:
        return _experiment(data)
    except (BatchError, TypeError, ValueError) as error:
        raise BatchError(f"{path}: {error}") from None


def _experiment(data: Any) -> Experiment:
    if not isinstance(data, dict):
        raise BatchError("the experiment must be a table of keys")
    unknown = sorted(set(data) - set(EXPERIMENT_KEYS))
    if unknown:
        raise BatchError(f"unknown key(s) {', '.join(unknown)}; known: "
                         f"{', '.join(EXPERIMENT_KEYS)}")

    def listed(key: str) -> list[Any]:
        value = data.get(key, [])
        if value == [] and key in data:  # not "use the default": a grid of nothing
            raise BatchError(f"{key} is an empty list: give at least one value, or leave "
                             f"{key} out for the default")
        return value if isinstance(value, list) else [value]

    def number(key: str, kind: type) -> Any:
        value = data.get(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, (int, float)) or (
                kind is int and not isinstance(value, int)):
            raise BatchError(f"{key} must be a {'whole ' if kind is int else ''}number, "
                             f"got {value!r}")
        return kind(value)

    def limit(key: str) -> float | None:
        value = data.get(key)
        return None if value is None else seconds(value, key)

    for key in ("layouts",):
        if not all(isinstance(v, str) for v in listed(key)):
            raise BatchError(f"{key} must be names (strings)")
    counts = listed("num_ghosts")
    if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in counts):
        raise BatchError("num_ghosts must be whole numbers >= 0")
    games = number("games", int)
    if games is not None and games < 1:
        raise BatchError(f"games must be >= 1, got {games}")
    return Experiment(
        pacman=tuple(_agents(listed("pacman"), "pacman")),
        ghosts=tuple(_agents(listed("ghosts"), "ghosts")),
        layouts=tuple(listed("layouts")), num_ghosts=tuple(counts), games=games,
        seed=number("seed", int), max_moves=number("max_moves", int),
        move_time_limit=limit("move_timeout"), game_time_limit=limit("game_timeout"))


def _agents(entries: list[Any], key: str) -> list[AgentSpec]:
    specs: list[AgentSpec] = []
    for entry in entries:
        if isinstance(entry, str):
            specs.append(AgentSpec(entry))
        elif isinstance(entry, dict) and isinstance(entry.get("agent"), str):
            axes = {k: v for k, v in entry.items() if k != "agent"}
            for k, v in axes.items():
                for value in v if isinstance(v, list) else [v]:
                    if value is not None and not isinstance(value, (bool, int, float, str)):
                        raise BatchError(f"{key}: setting {k} must be a number, a string, a "
                                         f"boolean or a list of them, got {value!r}")
            specs.extend(cross_settings(entry["agent"], axes))
        else:
            raise BatchError(f"{key}: each entry is an agent name or a table with 'agent' "
                             f"and its settings, got {entry!r}")
    return specs
