"""Code versions: which code played a stored game, so a rerun after an edit plays new games.

A configuration's code version is a short content hash of the source that decides its games:
this package (every `.py`, `.lay` and `.json` file of `pacman`, its `agents` policies included,
that can change how a game goes: the rules, the game loop, the batch runner, the CS188 layer,
the shipped agents, layouts and evaluation weights; not the command line, the displays, the web
pages, the grader, the demos or the RL environments) and, for an agent of the user's
(`module:Class` or `file.py:Class`), the source of its module and of the modules loaded from
the same folder (the helpers a student's `multiAgents.py` imports), and for a setting naming
the user's code or data (`evaluation=mod:func`, `evaluation=path/file.py:func`, or a file
given as `evaluation=@weights.json`), that file; and a layout played from a file (not a shipped
name), that file.
Editing any of them gives a new code version; the store keeps the games of every version
apart, so the old games stay and new ones are played.

The files of the user's travel with a batch's games to a cluster's workers
(`pacman.experiments.shipping`), which hash the same content; and `package_version` is what a
worker reports of its own package, so a worker running other code is refused before it plays.

Settings are not part of the code version: they are part of the configuration already.
"""

from __future__ import annotations

import hashlib
import inspect
import sys
from collections.abc import Iterable, Mapping
from functools import lru_cache
from pathlib import Path

__all__ = ["CODE_DIGITS", "agent_code_files", "code_version", "code_version_of", "layout_files",
           "package_digest", "package_version", "setting_code_files"]

CODE_DIGITS = 12  # hex digits of a code version
_PACKAGE_ROOT = Path(__file__).resolve().parents[1]
_PACKAGES = ("pacman",)
# parts of `pacman` that never change a game's course: edits there keep the code version
_PRESENTATION = ("cli", "display", "web", "grading", "demos", "envs")


@lru_cache(maxsize=1)
def package_digest() -> str:
    """The hash of this package's game-deciding files: Python source, the shipped layouts and
    the shipped evaluation weights (read once per process)."""
    digest = hashlib.blake2b(digest_size=16)
    for package in _PACKAGES:
        root = _PACKAGE_ROOT / package
        files = [*root.rglob("*.py"), *root.rglob("*.lay"), *root.rglob("*.json")]
        for path in sorted(files):
            if package == "pacman" and path.relative_to(root).parts[0] in _PRESENTATION:
                continue
            digest.update(path.relative_to(_PACKAGE_ROOT).as_posix().encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def package_version() -> str:
    """This package's code version alone (the first `CODE_DIGITS` hex digits of
    `package_digest`): what a worker of a cluster reports, compared with the client's."""
    return package_digest()[:CODE_DIGITS]


def _ours(path: Path) -> bool:
    return any(path.is_relative_to(_PACKAGE_ROOT / package) for package in _PACKAGES)


def agent_code_files(cls: type) -> list[Path]:
    """The source files of a user's agent class: its module's file and the modules loaded
    from the same folder; empty for a class of this package or without a source file."""
    try:
        source = inspect.getsourcefile(cls)
    except TypeError:  # a built-in class
        return []
    if source is None:
        return []
    path = Path(source).resolve()
    if _ours(path):
        return []
    folder = path.parent
    files = {path}
    for module in list(sys.modules.values()):
        name = getattr(module, "__file__", None)
        if not name:
            continue
        other = Path(name).resolve()
        if other.parent == folder and other.suffix == ".py" and not _ours(other):
            files.add(other)
    return sorted(files)


def setting_code_files(settings: Mapping[str, object]) -> list[Path]:
    """The files of the user's that settings name (`module:name` with the module loaded,
    `path/file.py:name`, or `@path/to/file`); this package's own files are left to its
    digest."""
    files = set()
    for value in settings.values():
        if isinstance(value, str) and value.startswith("@") and Path(value[1:]).is_file():
            path = Path(value[1:]).resolve()
            if not _ours(path):
                files.add(path)
            continue
        if not isinstance(value, str) or ":" not in value:
            continue
        target = value.rpartition(":")[0]
        module = sys.modules.get(target)
        name = getattr(module, "__file__", None) if module is not None else (
            target if target.endswith(".py") else None)
        if name and Path(name).is_file():
            path = Path(name).resolve()
            if not _ours(path):
                files.add(path)
    return sorted(files)


def layout_files(reference: str) -> list[Path]:
    """The file a layout reference (`layout_reference`: a shipped name or an absolute path,
    either maybe with `@SYMMETRY`) is played from: empty for a shipped layout."""
    from pacman.layout import shipped_layouts, symmetry_parts

    base, _ = symmetry_parts(reference)
    if base in shipped_layouts() or not Path(base).is_file():
        return []
    path = Path(base).resolve()
    return [] if _ours(path) else [path]


def code_version(files: Iterable[Path] = ()) -> str:
    """The code version of games played by this package with these files of the user's
    (see the module's description)."""
    contents: dict[Path, bytes] = {}
    for path in set(files):
        try:
            contents[path] = path.read_bytes()
        except OSError:
            contents[path] = b"(unreadable)"
    return code_version_of(contents)


def code_version_of(contents: Mapping[Path, bytes]) -> str:
    """`code_version` of files already read: each file's name and content, in path order.

    Args:
        contents: the content of each file of the user's, by its path.

    Returns:
        The code version (`CODE_DIGITS` hex digits).
    """
    digest = hashlib.blake2b(package_digest().encode(), digest_size=16)
    for path in sorted(contents):
        digest.update(b"\0" + path.name.encode() + b"\0" + contents[path])
    return digest.hexdigest()[:CODE_DIGITS]
