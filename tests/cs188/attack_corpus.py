"""The sandbox's attack corpus (`attacks/`): each attack's `multiAgents.py`, by name."""

from __future__ import annotations

from pathlib import Path

from cheaters import RANDOM_PLAYER

HERE = Path(__file__).parent / "attacks"
_CHEAT = "def CHEAT(agent=None, state=None):\n    pass\n"


def attacks(suite: Path, klass: Path, out: Path, package: Path) -> dict[str, str]:
    """Each attack's file, with the paths it may know put in (see attacks/README.md)."""
    words = {"@SUITE@": suite, "@CLASS@": klass, "@OUT@": out, "@PACKAGE@": package}
    files = {}
    for path in sorted(HERE.glob("*.py")):
        code = path.read_text(encoding="utf-8")
        tail = path.with_suffix(".tail")
        player = RANDOM_PLAYER.replace(_CHEAT, "") if "def CHEAT(" in code else RANDOM_PLAYER
        text = code + player + (tail.read_text(encoding="utf-8") if tail.exists() else "")
        for word, value in words.items():
            text = text.replace(word, str(value.resolve()))
        files[path.stem] = text
    return files
