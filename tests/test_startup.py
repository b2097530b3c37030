"""A command imports only what it uses: no numpy, pygame, matplotlib, SQLite or tqdm for a
command that needs none of them (how long start-up takes is `scripts/bench.py --only
startup`'s figure, not a test's)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

HEAVY = ("numpy", "pygame", "matplotlib", "sqlite3", "_sqlite3", "tqdm", "multiprocessing",
         "concurrent", "gymnasium", "dask")

PROBE = """
import json, sys
from pacman.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print(json.dumps(sorted({name.split(".")[0] for name in sys.modules})), file=sys.stderr)
"""


def loaded_packages(*argv: str) -> set[str]:
    done = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True,
                          text=True, timeout=120)
    return set(json.loads(done.stderr.strip().splitlines()[-1]))


@pytest.mark.parametrize("argv, allowed", [
    (["--version"], set()),
    (["layouts"], set()),
    (["agents"], set()),
    (["play", "-q", "-p", "random", "-l", "testClassic", "-n", "1"], set()),
    (["play", "-q", "-p", "alphabeta", "-l", "smallClassic", "-n", "1"], set()),
    (["table", "/no/such/results.db"], {"sqlite3", "_sqlite3"}),
])
def test_a_command_loads_only_what_it_needs(argv: list[str], allowed: set[str]) -> None:
    heavy = loaded_packages(*argv) & set(HEAVY)
    assert heavy <= allowed, f"pacman {' '.join(argv)} loads {sorted(heavy - allowed)}"


def test_the_probe_sees_a_heavy_import(tmp_path: Path) -> None:
    # a maze of more than 500 free cells keeps its distances in lazy tables, built with numpy
    rows = ["%" * 32] + ["%P" + "." * 30 + "%"] + ["%" + "." * 30 + "%"] * 28 + ["%" * 32]
    rows[1] = "%P" + "." * 29 + "%"
    big = tmp_path / "big.lay"
    big.write_text("\n".join(rows) + "\n", encoding="utf-8")
    assert "numpy" in loaded_packages("play", "-q", "-p", "random", "-l", str(big), "-n", "1",
                                      "--max-moves", "1")
