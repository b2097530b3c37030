"""Shared test helpers."""

from __future__ import annotations

import importlib
import os
import shutil
import subprocess
import sys
from types import ModuleType

import pytest


def optional(module: str, extra: str) -> ModuleType:
    """Import a module of an optional extra: skip without it, except in CI (`.ci/run` installs
    every extra, so there a missing one is a failure, not a silent skip)."""
    if os.environ.get("CI"):
        return importlib.import_module(module)
    return pytest.importorskip(module, reason=f"needs the optional extra: "
                                              f"pip install 'pacman-adversarial[{extra}]'")


#: the unprivileged user the sandbox's attack tests run as too (through `setpriv`)
NOBODY = 65534


def nobody_can_run_python() -> bool:
    """Whether tests may run this Python as `NOBODY`: as root, with `setpriv`, and a Python
    that user may execute (a pyenv under a 0700 /root is not; `.ci/run` opens /root's x bit)."""
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        return False
    real = os.path.realpath(sys.executable)
    done = subprocess.run(["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}",
                           "--clear-groups", "/bin/sh", "-c",
                           f'test -x "{real}" && exec "{sys.executable}" -c "import pacman"'],
                          capture_output=True, timeout=60, cwd="/")
    return done.returncode == 0
