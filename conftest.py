"""Shared test helpers."""

from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest


def optional(module: str, extra: str) -> ModuleType:
    """Import a module of an optional extra: skip without it, except in CI (`.ci/run` installs
    every extra, so there a missing one is a failure, not a silent skip)."""
    if os.environ.get("CI"):
        return importlib.import_module(module)
    return pytest.importorskip(module, reason=f"needs the optional extra: "
                                              f"pip install 'pacman-adversarial[{extra}]'")
