"""Reading a user's input file: one checked way for every command.

Every file a command reads on a user's say-so (a layout, a replay, a weights file, an
experiment file, a test case) goes through `read_bytes` or `read_text` here, which

- refuses what is not a regular file (a folder, a device such as `/dev/zero`, a FIFO, a
  symlink loop) before reading a byte;
- refuses a file larger than its kind's cap (`LIMITS`), and never reads more than the cap
  plus one byte, so a file that grows while it is read, or one whose size the system does not
  report (`/proc`), cannot exhaust memory;
- turns every `OSError` (missing, permission denied, a loop of links) and undecodable text
  into the caller's one-line error naming the file.

Text is UTF-8; a leading byte-order mark is dropped, as editors on some systems write one.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable
from pathlib import Path

__all__ = ["LIMITS", "read_bytes", "read_text"]

LIMITS: dict[str, int] = {
    "layout": 8 * 2**20,
    "replay": 256 * 2**20,
    "weights": 16 * 2**20,
    "experiment": 4 * 2**20,
    "test": 32 * 2**20,
    "code": 16 * 2**20,  # a module of the user's that travels to a cluster's workers
}
"""The largest file of each kind, in bytes. A replay holds one game's states (the largest
shipped game's is under 2 MB); the other kinds are hand-written or small."""

ErrorFactory = Callable[[str], Exception]
"""Builds the caller's error from a one-line reason, which already names the file."""


def _reason(error: OSError) -> str:
    if error.errno == errno.ENOENT:
        return "no such file"
    if error.errno == errno.ELOOP:
        return "a loop of symbolic links"
    if error.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    return error.strerror or type(error).__name__


def _check_regular(info: os.stat_result, name: str, kind: str, limit: int,
                   error: ErrorFactory) -> None:
    if not stat.S_ISREG(info.st_mode):
        what = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file"
        raise error(f"{name}: {what}")
    if info.st_size > limit:
        raise error(f"{name}: too large: {info.st_size:,} bytes "
                    f"(the limit for a {kind} file is {limit:,})")


def read_bytes(path: str | Path, kind: str, error: ErrorFactory) -> bytes:
    """The content of the regular file `path`, at most `LIMITS[kind]` bytes.

    Args:
        path: the file, as the user named it (it is named so in the error).
        kind: a key of `LIMITS` (`"layout"`, `"replay"`, `"weights"`, `"experiment"`, `"test"`).
        error: builds the exception to raise from a one-line message such as
            `"replays/x.json: permission denied"`.

    Returns:
        The file's bytes.

    Raises:
        Whatever `error` builds, when the file is missing, unreadable, not a regular file or
        larger than the cap.
    """
    limit = LIMITS[kind]
    name = str(path)
    try:
        # stat before opening: opening a FIFO would wait for a writer
        _check_regular(os.stat(path), name, kind, limit, error)
        with open(path, "rb") as handle:
            _check_regular(os.fstat(handle.fileno()), name, kind, limit, error)
            data = handle.read(limit + 1)
    except OSError as problem:
        raise error(f"{name}: cannot read: {_reason(problem)}") from None
    if len(data) > limit:
        raise error(f"{name}: too large: over {limit:,} bytes (the limit for a {kind} file)")
    return data


def read_text(path: str | Path, kind: str, error: ErrorFactory) -> str:
    """`read_bytes` decoded as UTF-8, a leading byte-order mark dropped; text that is not
    UTF-8 is `error(f"{path}: not UTF-8 text")`."""
    data = read_bytes(path, kind, error)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise error(f"{path}: not UTF-8 text") from None
