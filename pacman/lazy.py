"""Front files that load their names on first use, so that importing a package costs nothing
until one of its names is used (PEP 562: a module's `__getattr__` and `__dir__`)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any

__all__ = ["lazy_exports"]


def lazy_exports(package: str, homes: Mapping[str, str]
                 ) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """`__getattr__` and `__dir__` for the front file of `package`.

    Args:
        package: the package's `__name__`.
        homes: each exported name and the module it lives in.

    Returns:
        The two functions to assign to the package's `__getattr__` and `__dir__`. A name is
        imported from its home the first time it is asked for, then kept in the package.
    """
    def __getattr__(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(home), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted({*vars(sys.modules[package]), *homes})

    return __getattr__, __dir__
