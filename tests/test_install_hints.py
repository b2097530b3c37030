"""Every install line works for its reader: the hints the code prints and the docs' lines.

The project is installed from a clone, not from a package index. A hint the code prints names
the folder this copy was installed from (`pacman.extras.install_command`); an install line of
the docs is one a reader can type in a clone (`pip install '.[plots]'`), or names the
distribution only where it says it is for an environment that holds the project already.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from pacman.extras import DISTRIBUTION, EXTRAS, install_command

ROOT = Path(__file__).resolve().parents[1]
_PYPROJECT = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
#: the extras of pyproject.toml (read by hand: tomllib is Python 3.11's, the project runs on 3.10)
PROJECT_EXTRAS = set(re.findall(r"^([a-z]+) = \[", _PYPROJECT.split(
    "[project.optional-dependencies]", 1)[1].split("\n[", 1)[0], re.MULTILINE))
#: `pip install ...` up to the end of the command (a quote, a backtick, a bracket or the line)
INSTALL = re.compile(r"pip install ([^`\n)]*)")


def _doc_files() -> list[Path]:
    files = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    files += sorted((ROOT / "docs").rglob("*.ipynb"))
    return files


def _doc_lines() -> list[tuple[str, str, str]]:
    found = []
    for path in _doc_files():
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".ipynb":
            text = "\n".join("".join(cell["source"]) for cell in json.loads(text)["cells"])
        for line in text.splitlines():
            for match in INSTALL.finditer(line):
                found.append((path.name, match.group(1).strip(), line))
    return found


def test_the_extras_the_code_knows_are_the_projects() -> None:
    assert set(EXTRAS) == PROJECT_EXTRAS
    assert f'name = "{DISTRIBUTION}"' in _PYPROJECT


def test_the_hint_names_where_this_copy_was_installed_from() -> None:
    from importlib import metadata

    text = metadata.distribution(DISTRIBUTION).read_text("direct_url.json")
    origin = json.loads(text) if text else None
    for extra in EXTRAS:
        command = install_command(extra)
        if origin is None:
            assert command == f"pip install '{DISTRIBUTION}[{extra}]'"
        else:  # a clone: its folder, editable as it was installed
            editable = bool(origin.get("dir_info", {}).get("editable"))
            folder = origin["url"].removeprefix("file://")
            assert command == f"pip install {'-e ' if editable else ''}'{folder}[{extra}]'"
            assert (Path(folder) / "pyproject.toml").is_file()


def test_every_hint_the_code_prints_is_made_by_install_command() -> None:
    """No message of the code spells an install line by hand (it would be wrong for someone)."""
    for path in sorted((ROOT / "pacman").rglob("*.py")):
        if path.name == "extras.py":
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if "pip install" in line and "--force-reinstall" not in line and (
                    "'.[" not in line):
                pytest.fail(f"{path.relative_to(ROOT)}:{number}: an install line not made by "
                            f"install_command: {line.strip()}")


@pytest.mark.parametrize(("doc", "command", "line"), _doc_lines(),
                         ids=lambda value: value if len(value) < 40 else value[:40])
def test_every_install_line_of_the_docs_works_where_its_reader_is(
        doc: str, command: str, line: str) -> None:
    extras = set(re.findall(r"\[([a-z,]+)\]", command))
    for group in extras:
        assert set(group.split(",")) <= set(EXTRAS), (doc, line)
    if DISTRIBUTION in command:  # said as what it is: for an environment that has the project
        assert "pacman-adversarial_" in command or "installed" in line or "clone" in line or (
            "environment" in line), (doc, line)
        return
    ok = (command.startswith((".", "-e .", '-e ".', "-e '.", "'.", '".'))
          or command.startswith(("nbclient", "pacman_adversarial-", "--no-deps"))
          or command.startswith("-e '/path/to/clone[")  # a printed hint, shown as an example
          or (command.startswith("-e") and "." in command))
    assert ok, (doc, line)
