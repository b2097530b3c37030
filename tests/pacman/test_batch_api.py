"""`run_batch` from wherever Python runs: a script (with or without the main guard), stdin,
`python -c` (as in a notebook, the main module has no file)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROGRAM = """\
from pacman.experiments import AgentSpec, GameConfig, run_batch
print("the program runs")
result = run_batch([GameConfig(AgentSpec("random"), layout="testClassic", max_moves=20)],
                   games=4, store="r.db", jobs=2)
print("stored", result.stored)
"""


@pytest.mark.parametrize("how", ["script without the main guard", "stdin", "-c"])
def test_run_batch_works_from_any_main_module(tmp_path: Path, how: str) -> None:
    if how == "stdin":
        command, stdin = [sys.executable, "-"], PROGRAM
    elif how == "-c":
        command, stdin = [sys.executable, "-c", PROGRAM], None
    else:
        (tmp_path / "run.py").write_text(PROGRAM)
        command, stdin = [sys.executable, "run.py"], None
    done = subprocess.run(command, input=stdin, cwd=tmp_path, capture_output=True, text=True,
                          timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    # the workers never ran the program again: it printed once, and stored every game
    assert done.stdout == "the program runs\nstored 4\n", done.stdout
    assert done.stderr == ""
