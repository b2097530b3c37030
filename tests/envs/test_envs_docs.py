"""docs/envs.md: every ```python block of the page runs as it is, in a fresh process, with no
warning and no error."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import optional

optional("gymnasium", "envs")

PAGE = Path(__file__).resolve().parents[2] / "docs" / "envs.md"
ROOT = PAGE.parents[1]


def blocks() -> list[str]:
    """The page's ```python blocks, in order."""
    return re.findall(r"^```python\n(.*?)^```$", PAGE.read_text(encoding="utf-8"),
                      re.MULTILINE | re.DOTALL)


def test_the_page_has_its_examples() -> None:
    assert len(blocks()) == 6


#: a line each example prints (their asserts check the rest)
EXPECTED = {
    0: r"score -?\d+ after \d+ moves, won: (True|False)",
    1: r"(win|loss|capped), score -?\d+: the same game, move for move",
    2: r"\(\d+, \d+, 3\) uint8",
    3: r"\(2, 6, 11, 20\)",
    4: r"Parallel: total rewards \{'pacman': -?\d+\.0, 'ghost_1': -?\d+\.0, 'ghost_2': -?\d+\.0\}",
    5: r"won: True, score 579 in 11 moves",
}


@pytest.mark.parametrize("number", range(6))
def test_an_example_runs(number: int, tmp_path: Path) -> None:
    code = blocks()[number]
    script = tmp_path / f"example_{number}.py"
    script.write_text(code, encoding="utf-8")
    done = subprocess.run([sys.executable, "-W", "error", str(script)], capture_output=True,
                          text=True, cwd=ROOT, timeout=120,
                          env={**os.environ, "SDL_VIDEODRIVER": "dummy"})
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    if number in EXPECTED:
        assert re.search(f"^{EXPECTED[number]}$", done.stdout, re.MULTILINE), done.stdout
