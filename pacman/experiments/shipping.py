"""The user's files a batch's games need, carried to a cluster's workers by content.

A worker of a Dask cluster runs in a folder of its own, maybe on another machine: it cannot
read the client's agent modules, layouts or weights files, and a relative path in a setting
would name another file there. So the client reads each file once (`ship`), the worker writes
the content into a folder of its own named by the content's hash (`unpack`), plays the game
with the configuration's references pointed at those copies (`localise`), and puts the
client's references back into the record (`restore`): the stored record is the one the client
would have played, and the workers need nothing but this package.

What travels, for each configuration: the files its code version hashes
(`ResolvedConfig.files`: the module of a `file.py:Class` agent and the modules it loads from its
folder, a file a setting names, the layout file), and any other file the configuration names by
path. A module imported by name (`mypackage.agents:Class`, `evaluation=mymodule:function` with
no `mymodule.py` in the current folder) does not travel: workers must have it installed, as
they have this package, and a worker that does not is refused (`GameNotStarted`). Data an agent
opens by itself does not travel either.

A worker keeps the copies in `<temp>/pacman-shipped-<uid>/<hash>/`, a folder only its user may
write to, one folder per distinct content, reused by every later game that needs it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import shutil
import stat
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from pacman.errors import BatchError
from pacman.experiments.config import GameConfig
from pacman.experiments.grid import ResolvedConfig
from pacman.files import read_bytes
from pacman.record import GameRecord
from pacman.specs import AgentSpec, Setting
from pacman.versions import code_version_of

__all__ = ["ShippedFolder", "Shipment", "localise", "restore", "ship", "unpack"]


@dataclass(frozen=True)
class ShippedFolder:
    """Files of one folder of the client's, by content; `digest` names the worker's copy."""

    digest: str
    files: tuple[tuple[str, bytes], ...]  # (file name, content), by name


@dataclass(frozen=True)
class Shipment:
    """What one configuration's games need of the user's files (empty for shipped agents,
    layouts and evaluations)."""

    folders: tuple[ShippedFolder, ...] = ()
    #: each path as the configuration writes it, the digest of its folder and its file name
    references: tuple[tuple[str, str, str], ...] = ()
    #: modules the configuration imports by name: a worker must have them installed
    modules: tuple[str, ...] = ()
    #: the code version of the shipped content (`pacman.versions.code_version_of`)
    code: str = ""


# --- the client ----------------------------------------------------------------------------


def ship(resolved: ResolvedConfig) -> Shipment:
    """Read the files the games of `resolved` need, once.

    Args:
        resolved: a configuration as `pacman.experiments.grid.resolve_config` gives it.

    Returns:
        The shipment, whose `code` is the code version of what was read (the configuration's
        own code version unless a file changed since it was resolved).

    Raises:
        BatchError: a file that cannot be read (one line naming it).
    """
    contents: dict[Path, bytes] = {}

    def read(path: Path) -> bytes:
        if path not in contents:
            contents[path] = read_bytes(path, _kind(path), lambda reason: BatchError(
                f"cannot send {reason} to the workers"))
        return contents[path]

    for path in resolved.files:
        read(path)
    code = code_version_of({path: contents[path] for path in resolved.files})
    paths, modules = _references(resolved.config)
    folders: dict[Path, dict[str, bytes]] = {}
    for path in paths.values():
        read(path)
        folder = folders.setdefault(path.parent, {})
        for other, content in contents.items():  # its siblings travel with it
            if other.parent == path.parent:
                folder[other.name] = content
    digests = {parent: _digest(files) for parent, files in folders.items()}
    return Shipment(
        folders=tuple(ShippedFolder(digests[parent], tuple(sorted(files.items())))
                      for parent, files in sorted(folders.items())),
        references=tuple((text, digests[path.parent], path.name)
                         for text, path in sorted(paths.items())),
        modules=tuple(sorted(modules)), code=code)


def _kind(path: Path) -> str:
    """The size cap a file gets (`pacman.files.LIMITS`)."""
    return {".py": "code", ".lay": "layout"}.get(path.suffix, "weights")


def _digest(files: Mapping[str, bytes]) -> str:
    digest = hashlib.blake2b(digest_size=16)
    for name in sorted(files):
        digest.update(name.encode() + b"\0" + files[name] + b"\0")
    return digest.hexdigest()


#: the settings that may name code of the user's (`evaluation=module:function`)
CODE_SETTINGS = ("evaluation", "evalFn")


def code_target(key: str, value: Setting) -> str | None:
    """The module part of a setting that names code (`evaluation=module:function`,
    `evaluation=path/file.py:function`), or None (`pacman.agents.evaluation.names_code`)."""
    from pacman.agents.evaluation import names_code

    if key not in CODE_SETTINGS or not isinstance(value, str) or not names_code(value):
        return None
    return value.strip().partition(":")[0]


def _references(config: GameConfig) -> tuple[dict[str, Path], set[str]]:
    """The paths a configuration names (as written, with the file each means here) and the
    modules it imports by name."""
    from pacman.agents.registry import code_file
    from pacman.layout import shipped_layouts, symmetry_parts

    paths: dict[str, Path] = {}
    modules: set[str] = set()

    def code(target: str) -> None:
        found = code_file(target)
        if found is not None and found.is_file():
            paths[target] = found.resolve()
        elif found is None:
            modules.add(target)

    base, _ = symmetry_parts(config.layout)
    if base not in shipped_layouts() and Path(base).is_file():
        paths[base] = Path(base).resolve()
    for spec in (config.pacman, config.ghost):
        target, sep, _ = spec.name.rpartition(":")
        if sep and target:
            code(target)
        for key, value in spec.settings:
            if isinstance(value, str) and value.startswith("@"):
                if Path(value[1:]).is_file():  # a weights file, or a file of the agent's
                    paths[value[1:]] = Path(value[1:]).resolve()
            elif (module := code_target(key, value)) is not None:
                code(module)
    return paths, modules


# --- the worker ----------------------------------------------------------------------------


def shipping_root() -> Path:
    """The folder this user's copies are kept in, made if missing; OSError if it is not a
    folder of this user's alone (another user could put code there)."""
    uid = getattr(os, "getuid", lambda: None)()
    root = Path(tempfile.gettempdir()) / f"pacman-shipped-{uid if uid is not None else 'user'}"
    root.mkdir(mode=0o700, exist_ok=True)
    info = root.lstat()
    if not stat.S_ISDIR(info.st_mode) or (uid is not None and info.st_uid != uid) or (
            info.st_mode & 0o022):
        raise OSError(f"{root} is not a folder of this user's alone")
    return root


def unpack(shipment: Shipment, root: Path | None = None) -> dict[str, str]:
    """Write the shipment's files on this machine (each folder once: a copy already there is
    used as it is when its content is right).

    Args:
        shipment: what the client sent.
        root: where the copies go (default `shipping_root()`).

    Returns:
        The local path of each reference of the shipment, by the reference as written.

    Raises:
        OSError: the copies cannot be written.
    """
    if not shipment.folders:
        return {}
    root = shipping_root() if root is None else root
    places = {folder.digest: _place(root, folder) for folder in shipment.folders}
    return {text: str(places[digest] / name) for text, digest, name in shipment.references}


def _place(root: Path, folder: ShippedFolder) -> Path:
    for name, _ in folder.files:
        if name in ("", ".", "..") or Path(name).name != name:
            raise OSError(f"not a file name: {name!r}")
    if not all(c in "0123456789abcdef" for c in folder.digest) or not folder.digest:
        raise OSError(f"not a content hash: {folder.digest!r}")
    target = root / folder.digest
    for _ in range(3):  # another worker of this machine may be writing the same copy
        if _complete(target, folder):
            return target
        staging = Path(tempfile.mkdtemp(dir=root, prefix=".incoming-"))
        try:
            for name, content in folder.files:
                (staging / name).write_bytes(content)
            if target.exists() and not _complete(target, folder):
                shutil.rmtree(target, ignore_errors=True)  # a damaged copy
            os.rename(staging, target)
        except OSError:
            if not target.is_dir():
                raise
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    if not _complete(target, folder):
        raise OSError(f"cannot write a whole copy into {target}")
    return target


def _complete(target: Path, folder: ShippedFolder) -> bool:
    try:
        return all((target / name).read_bytes() == content for name, content in folder.files)
    except OSError:
        return False


def localise(config: GameConfig, paths: Mapping[str, str]) -> GameConfig:
    """`config` with each path it writes pointed at its local copy (`unpack`'s answer)."""
    from pacman.layout import symmetry_parts

    if not paths:
        return config
    base, symmetry = symmetry_parts(config.layout)
    layout = (paths[base] + (f"@{symmetry}" if symmetry else "") if base in paths
              else config.layout)
    return dataclasses.replace(config, layout=layout, pacman=_localise_agent(config.pacman, paths),
                               ghost=_localise_agent(config.ghost, paths))


def _localise_agent(spec: AgentSpec, paths: Mapping[str, str]) -> AgentSpec:
    target, sep, name = spec.name.rpartition(":")
    agent = f"{paths[target]}:{name}" if sep and target in paths else spec.name
    settings: dict[str, Setting] = {}
    for key, value in spec.settings:
        if isinstance(value, str) and value.startswith("@") and value[1:] in paths:
            value = "@" + paths[value[1:]]
        elif isinstance(value, str) and code_target(key, value) in paths:
            head, _, tail = value.strip().partition(":")
            value = f"{paths[head]}:{tail}"
        settings[key] = value
    return AgentSpec.of(agent, settings)


def restore(record: GameRecord, paths: Mapping[str, str]) -> GameRecord:
    """The record with the local copies' paths written as the client wrote them (in the agents'
    descriptions and the fault), so it is the record the client's machine would store."""
    if not paths:
        return record
    back = sorted(((local, text) for text, local in paths.items()),
                  key=lambda pair: len(pair[0]), reverse=True)

    def client(text: str) -> str:
        for local, written in back:
            text = text.replace(local, written)
        return text

    return dataclasses.replace(record, agents=tuple(client(name) for name in record.agents),
                               fault=None if record.fault is None else client(record.fault))
