"""The `pacman` console script: our CLI, even in a folder that holds the classic `pacman.py`.

A CS188 project folder has its own `pacman.py`; with that folder on `PYTHONPATH` (or as the
current folder of `python -c`), `import pacman` would find the classic file instead of this
package. The launcher takes such entries off `sys.path` before it imports our package.
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path


def _interrupted_while_loading(signum: int, frame: object) -> None:
    os.write(2, b"pacman: interrupted\n")
    os._exit(130)


# a Ctrl-C while the command still loads is one line (the command installs its own handler);
# so is a `kill` of a batch, which takes SIGTERM as a Ctrl-C once it runs
signal.signal(signal.SIGINT, _interrupted_while_loading)
if sys.argv[1:2] == ["batch"]:
    signal.signal(signal.SIGTERM, _interrupted_while_loading)


def _shadows(entry: str, ours: Path) -> bool:
    folder = Path(entry or ".").resolve()
    if folder == ours:
        return False
    return (folder / "pacman.py").is_file() or (folder / "pacman" / "__init__.py").is_file()


def main() -> int:
    """Run `pacman.cli.main` with our own `pacman` package."""
    ours = Path(__file__).resolve().parent
    sys.path[:] = [entry for entry in sys.path if not _shadows(entry, ours)]
    loaded = sys.modules.get("pacman")
    if loaded is not None and Path(getattr(loaded, "__file__", "") or "").parent.parent != ours:
        del sys.modules["pacman"]
    from pacman.cli import main as cli_main

    return cli_main()


if __name__ == "__main__":
    sys.exit(main())
