"""The lecture demos: `pacman demo NAME`. Each demo is a module here defining one `Demo`.

`MODULES` lists the demo modules in the order `pacman demo` shows them. A module of the list
that is not there (yet) is skipped; a module that is there is imported as it is, so an error in
it is an error, never a silently missing demo.
"""

from __future__ import annotations

import importlib
import importlib.util

from pacman.demos.demo import Demo
from pacman.errors import UnknownDemo
from pacman.suggest import did_you_mean

__all__ = ["MODULES", "UnknownDemo", "all_demos", "find_demo"]

#: The demo modules (in `pacman/demos/`), in the order the demos are listed.
MODULES: tuple[str, ...] = ("depth", "thrashing", "minexp", "coordination", "informed",
                            "utilities", "mixed", "horizon", "forward", "mcts")


def _present(module: str) -> bool:
    """Whether `pacman.demos.<module>` exists (without importing it)."""
    return importlib.util.find_spec(f"{__name__}.{module}") is not None


def all_demos() -> tuple[Demo, ...]:
    """Every demo of the modules that exist, in `MODULES` order, each module's in its order."""
    demos: list[Demo] = []
    seen: dict[str, str] = {}
    for module in MODULES:
        if not _present(module):
            continue
        for demo in importlib.import_module(f"{__name__}.{module}").DEMOS:
            if demo.name in seen:
                raise RuntimeError(f"demo {demo.name!r} is defined twice: in "
                                   f"pacman.demos.{seen[demo.name]} and pacman.demos.{module}")
            seen[demo.name] = module
            demos.append(demo)
    return tuple(demos)


def find_demo(name: str) -> Demo:
    """The demo called `name`; if there is none, `UnknownDemo` (one line: the demo whose name is
    closest, or every demo's name when none is close)."""
    demos = all_demos()
    for demo in demos:
        if demo.name == name:
            return demo
    hint = did_you_mean(name, [demo.name for demo in demos])
    if hint:
        raise UnknownDemo(f"unknown demo {name!r} {hint}")
    raise UnknownDemo(f"unknown demo {name!r}; demos: {', '.join(d.name for d in demos)}")
