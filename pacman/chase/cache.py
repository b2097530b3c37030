"""Where survival tables are kept between processes: one `.npz` file per table on disk.

The files live under `$XDG_CACHE_HOME/pacman-adversarial/chase/` (`~/.cache/...` when the
variable is unset or empty; the package has no cache-directory setting of its own). A file is
written to a temporary file of the same directory and moved into place with `os.replace`, so
that a reader never sees half a file; a directory that cannot be written only costs the disk
copy. A file that cannot be read, or that records another request (`Key`), reads as missing:
the caller (`pacman.chase.tables.survival_table`, which also keeps tables in memory) checks
the arrays' shapes and types, and rebuilds and writes again what does not fit, silently. The
layout hash is of the maze's content (size, walls, Pacman's and the ghosts' starts), not of
its name or food, so that renaming a layout keeps its table.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from pacman.layout import Layout

#: bump when the file's content changes meaning: older files are then rebuilt
FORMAT_VERSION = 1
#: what a table was built from: (layout hash, model, ghosts, horizon, prob_attack)
Key = tuple[str, str, int, int, float]
ARRAYS = ("values", "distances", "curve")


def layout_hash(layout: Layout, ghosts: int) -> str:
    """A hex digest of what a table of `layout` with `ghosts` ghosts depends on: the size,
    the walls, Pacman's start and the ghosts' starts (module docstring)."""
    text = json.dumps([layout.width, layout.height, sorted(layout.walls), layout.pacman_start,
                       list(layout.ghost_starts), ghosts])
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def cache_dir() -> Path:
    """The directory of the disk cache (module docstring)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "pacman-adversarial" / "chase"


def table_path(key: Key) -> Path:
    """The file of the table of `key`."""
    digest, model, ghosts, horizon, prob_attack = key
    return cache_dir() / f"{digest}-{model}-g{ghosts}-h{horizon}-p{prob_attack!r}.npz"


def _meta(key: Key) -> str:
    return json.dumps({"version": FORMAT_VERSION, "key": list(key)})


def read_arrays(key: Key) -> dict[str, npt.NDArray[Any]] | None:
    """The arrays `ARRAYS` stored for `key`, or None when the file is missing, damaged in any
    way, or of another request."""
    try:
        with np.load(table_path(key), allow_pickle=False) as data:
            if str(data["meta"]) != _meta(key):
                return None
            return {name: data[name] for name in ARRAYS}
    except Exception:  # any damage at all reads as missing: the caller rebuilds the table
        return None


def write_arrays(key: Key, arrays: dict[str, npt.NDArray[Any]]) -> None:
    """Store `arrays` for `key` atomically (module docstring); a failure to write is ignored."""
    path, temporary = table_path(key), None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".npz")
        with os.fdopen(handle, "wb") as stream:
            np.savez(stream, meta=np.array(_meta(key)), **arrays)  # type: ignore[arg-type]
        os.replace(temporary, path)
        temporary = None
    except OSError:
        pass
    finally:
        if temporary is not None:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
