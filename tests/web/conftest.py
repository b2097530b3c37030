"""A real headless browser for the HTML pages: Debian's Chromium driven by Playwright.

CI installs both (`.ci/run`: `apt-get install chromium`, Playwright from the dev extra), so
there a missing browser fails the tests; elsewhere they are skipped with the reason. The
browser is Debian's (`executable_path`): Playwright never downloads one.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("PACMAN_TEST_CHROMIUM") or shutil.which("chromium") or \
    shutil.which("chromium-browser")
IN_CI = bool(os.environ.get("CI"))


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """A headless Chromium for the whole session."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        if IN_CI:
            raise
        pytest.skip("needs playwright (pip install playwright)")
    if CHROMIUM is None:
        if IN_CI:
            pytest.fail("no chromium: apt-get install chromium")
        pytest.skip("needs Chromium (apt-get install chromium)")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()


class Visit:
    """A page opened from a file, with every request and console error it made."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.requests: list[str] = []
        self.errors: list[str] = []
        page.on("request", lambda request: self.requests.append(request.url))
        page.on("console", lambda message: self.errors.append(message.text)
                if message.type == "error" else None)
        page.on("pageerror", lambda error: self.errors.append(str(error)))

    def open(self, path: Path) -> Any:
        self.page.goto(path.resolve().as_uri())
        return self.page

    def outside_requests(self) -> list[str]:
        """Requests for anything but the file itself (a self-contained page makes none)."""
        return [url for url in self.requests if not url.startswith("file://")
                and not url.startswith("data:") and not url.startswith("blob:")
                and not url.startswith("about:")]


@pytest.fixture
def visit(browser: Any) -> Iterator[Visit]:
    """A fresh page (1200x900) that records its requests and errors."""
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    try:
        yield Visit(context.new_page())
    finally:
        context.close()
