"""An agent's canonical description: the spec a batch stores, resolved once by building it.

`canonical_agent(spec, role, index)` turns what a user wrote (`alphabeta`, `-a depth=2`, a
class of the user's by `module:Class` or `path/file.py:Class`) into the one spec every equal
agent has: the class's name, its default settings filled in, the CS188 spelling `evalFn` read
as our `evaluation`, and the settings that never change how it plays (observing ones, and late
ones at their default) left out, so that a configuration's key and its games' seeds do not
move. It builds the agent once, so bad settings are found before a game, and names the files
of the user's code the agent runs (for its code version, `pacman.versions`).

It runs the agent's code: for an agent of the user's, a batch calls it in an agent host
(`pacman.hosting.host`), so the process that writes the results never imports that code.
"""

from __future__ import annotations

import inspect
from pathlib import Path

from pacman.agents.registry import (
    CS188_EVALUATIONS,
    AgentEntry,
    find_agent,
    make_agent,
    resolve_name,
    typed_settings,
)
from pacman.cs188.loader import is_cs188_agent_class
from pacman.errors import BatchError, RegistryError
from pacman.game import describe
from pacman.interrupts import is_user_interrupt
from pacman.specs import AgentSpec, Setting
from pacman.versions import agent_code_files, setting_code_files

__all__ = ["canonical_agent"]


def canonical_agent(spec: AgentSpec, role: str, index: int) -> tuple[AgentSpec, str, list[Path]]:
    """The spec with default settings filled in, the description of the agent built from it
    (built once, so bad settings are found now), and the files of the user's code it runs (for
    its code version). Runs the agent's code: for an agent of the user's, in its host."""
    found = find_agent(spec.name, role)
    if isinstance(found, AgentEntry):
        if found.class_name == "KeyboardAgent":
            raise BatchError("the keyboard agent needs a window: it cannot play in a batch")
        name, cls = found.class_name, found.load()
    else:  # a file's class by its absolute path, so any worker (and a rerun) finds it
        name, cls = resolve_name(spec.name, role), found
    if "evalFn" in spec.settings_dict() and not is_cs188_agent_class(cls) and (
            "evaluation" not in spec.settings_dict()):
        settings_in = spec.settings_dict()  # the CS188 spelling of our `evaluation` setting
        value = settings_in.pop("evalFn")
        settings_in["evaluation"] = CS188_EVALUATIONS.get(str(value), value)
        spec = AgentSpec.of(spec.name, settings_in)
    typed = typed_settings(cls)
    if typed is not None:
        # settings that change what an agent reports, never how it plays (a search trace),
        # and settings a class gained after results were stored, at the value that plays as
        # before, stay out of the configuration: its key and its games' seeds do not move
        leave_out = {item.name for item in typed.fields() if item.observing} | {
            k for k, v in spec.settings if any(
                item.late and item.name == k and item.default == v for item in typed.fields())}
        if leave_out & set(spec.settings_dict()):
            spec = AgentSpec.of(spec.name, {k: v for k, v in spec.settings_dict().items()
                                            if k not in leave_out})
    try:
        agent = make_agent(name, role, spec.settings_dict(), index=index)
    except RegistryError:
        raise
    except Exception as error:  # a user's class may raise anything while it is built
        raise BatchError(f"cannot build {role} agent {name}: {type(error).__name__}: "
                         f"{error}") from None
    settings: dict[str, Setting]
    if typed is not None:
        settings = typed.batch_settings(spec.settings_dict())
    else:  # a class of the user's: its keyword parameters' plain defaults, then the given
        settings = {}
        try:
            parameters = list(inspect.signature(cls).parameters.values())
        except (TypeError, ValueError):
            parameters = []
        for parameter in parameters:
            default = parameter.default
            if parameter.name != "index" and (
                    default is None or isinstance(default, (bool, int, float, str))):
                settings[parameter.name] = default
        settings.update(spec.settings)
    files = agent_code_files(cls) + setting_code_files(spec.settings_dict())
    try:  # a description that fails is its games' business (their crash), as in `play`
        description = describe(agent)
    except BaseException as error:
        if is_user_interrupt(error):
            raise
        description = type(agent).__name__  # the name `run_game` records for it
    return AgentSpec.of(name, settings), description, files
