"""Every Python example of the documentation runs: the `>>>` sessions of the README and of
docs/*.md as doctests, from the project's folder as the pages say."""

from __future__ import annotations

import doctest
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted(page for page in [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]
               if ">>> " in page.read_text(encoding="utf-8"))


def test_the_sessions_are_found() -> None:
    names = {page.name for page in PAGES}
    assert {"README.md", "state-api.md", "agents.md", "rules.md", "research.md"} <= names


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_a_pages_sessions_run(page: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    failures, tried = doctest.testfile(
        str(page), module_relative=False, encoding="utf-8", verbose=False,
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, report=True)
    assert tried > 0 and failures == 0, f"{failures} of {tried} examples of {page.name} failed"
    assert os.getcwd() == str(ROOT)
