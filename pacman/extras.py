"""How to add an optional extra to this copy of the project, said for the way it was installed.

The project is installed from a clone (it is not on a package index): `pip install .` or
`pip install -e .` in the clone. The command that adds an extra is then the clone's path with
the extra (`pip install '/path/to/clone[plots]'`, with `-e` for an editable install), which
works from any folder. Where the installation's origin cannot be read, the command names the
distribution, which pip resolves against the copy already installed in that environment.
"""

from __future__ import annotations

import functools
import json
from urllib.parse import unquote, urlparse

__all__ = ["DISTRIBUTION", "EXTRAS", "install_command"]

#: the distribution's name (the package's import name is `pacman`)
DISTRIBUTION = "pacman-adversarial"
#: the optional extras of pyproject.toml, and what each adds
EXTRAS = {
    "plots": "matplotlib, for pacman plot",
    "dask": "dask.distributed, for pacman batch --backend dask",
    "gif": "Pillow, for --gif and --screenshot animations",
    "envs": "Gymnasium and PettingZoo, for pacman.envs",
    "pandas": "pandas and pyarrow, for DataFrames and Parquet exports",
    "dev": "every extra and the test tools",
}


def install_command(extra: str) -> str:
    """The pip command that adds `extra` to the project where this code runs.

    Args:
        extra: one of `EXTRAS`.

    Returns:
        `pip install '/path/to/clone[extra]'` (`-e` first for an editable install) for a copy
        installed from a folder, else `pip install 'pacman-adversarial[extra]'`.
    """
    if extra not in EXTRAS:
        raise ValueError(f"no extra {extra!r}")
    origin = _origin()
    if origin is None:
        return f"pip install '{DISTRIBUTION}[{extra}]'"
    folder, editable = origin
    return f"pip install {'-e ' if editable else ''}'{folder}[{extra}]'"


@functools.lru_cache(maxsize=1)
def _origin() -> tuple[str, bool] | None:
    """The folder this copy was installed from and whether it is editable (pip's
    `direct_url.json`, PEP 610), or None."""
    from importlib import metadata

    try:
        text = metadata.distribution(DISTRIBUTION).read_text("direct_url.json")
        data = json.loads(text or "null")
    except (metadata.PackageNotFoundError, ValueError, OSError):
        return None
    if not isinstance(data, dict) or not str(data.get("url", "")).startswith("file://"):
        return None
    folder = unquote(urlparse(str(data["url"])).path)
    info = data.get("dir_info")
    return folder, bool(isinstance(info, dict) and info.get("editable"))
