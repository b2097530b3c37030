"""What every command shares: the one-line error, typed settings, number checks, displays."""

from __future__ import annotations

import argparse
import contextlib
import errno
import math
import os
import re
import stat
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn, TypeAlias, overload

from pacman import settings_text as settings
from pacman.display.formats import MAX_ANIMATION_FPS, MIN_ANIMATION_FPS, animation_format
from pacman.errors import LimitError, UsageError

if TYPE_CHECKING:
    from pacman.display.protocol import Display

#: Pacman moves after which a game of `play` or `batch` is `capped` unless the user lifts the
#: cap (0): games that cannot end (a Pacman that only stops, ghosts that never catch it) end.
DEFAULT_MAX_MOVES = 3000


#: `k=v,k=v` as typed settings, `NAME[@k=v,k=v]` as (name, settings text), one value typed: a
#: mistake is a `SettingsError` (a PacmanError: the CLI's one line)
parse_settings = settings.parse_settings
split_agent = settings.split_agent
typed = settings.typed


#: the longest number text read: far more digits than any bound here needs (a seed has 19),
#: few enough that reading one is instant (Python's `int` refuses 4,300 digits, slowly)
MAX_NUMBER_CHARS = 100

#: a number as people type it, in ASCII digits (`float` also takes `1_0` and other scripts'
#: digits, such as `٣`; agent settings refuse them too)
_DECIMAL = re.compile(r"\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*", re.ASCII)
_WHOLE = re.compile(r"\s*[+-]?\d+\s*", re.ASCII)
#: the words `float` reads: read, so that the range (never met by them) says what is wanted
_FLOAT_WORDS = re.compile(r"\s*[+-]?(?:inf|infinity|nan)\s*", re.ASCII | re.IGNORECASE)


def read_number(text: str, kind: type[float] = float) -> float | None:
    """`text` as a number of `kind` (`int`: a whole number), or None when it is not one.

    The one reading of a number on the command line: ASCII digits, an optional sign, for a
    float a decimal point and exponent (and `inf` and `nan`, which no range admits); at most
    `MAX_NUMBER_CHARS` characters. `1_0`, `٣` and other scripts' digits, which `int()` and
    `float()` take, are not numbers here, as in agent settings (`pacman.settings_text`).
    """
    if len(text) > MAX_NUMBER_CHARS:
        return None
    if kind is int:
        return int(text) if _WHOLE.fullmatch(text) else None
    if _DECIMAL.fullmatch(text) or _FLOAT_WORDS.fullmatch(text):
        return float(text)
    return None


def shown(text: str, most: int = 40) -> str:
    """`text` quoted for a one-line message, cut to `most` characters."""
    return repr(text) if len(text) <= most else repr(text[:most - 3] + "...")


@overload
def number_in(low: float, high: float, kind: type[int], *, low_open: bool = False
              ) -> Callable[[str], int]: ...


@overload
def number_in(low: float, high: float, kind: type[float] = float, *, low_open: bool = False
              ) -> Callable[[str], float]: ...


def number_in(low: float, high: float, kind: type[float] = float, *, low_open: bool = False
              ) -> Callable[[str], float]:
    """An argparse type: a finite number of `kind` in [low, high] (`low_open`: above low),
    read by `read_number`."""

    def parse(text: str) -> float:
        value = read_number(text, kind)
        if value is None:
            whole = "whole " if kind is int else ""
            raise argparse.ArgumentTypeError(f"expected a {whole}number, got {shown(text)}")
        if not math.isfinite(value) or value > high or (value <= low if low_open
                                                         else value < low):
            side = f"> {low:g}" if low_open else f">= {low:g}"
            raise argparse.ArgumentTypeError(f"expected a number {side} and <= {high:g}, got "
                                             f"{text.strip()}")
        return value

    return parse


def seconds(text: str) -> float:
    """An argparse type: a time limit in seconds, checked by the one check of a time limit
    (`pacman.limits.seconds`: above 0 and at most `MAX_SECONDS`), read by `read_number`."""
    from pacman.limits import MAX_SECONDS  # when a limit is given: a command starts without it
    from pacman.limits import seconds as checked_seconds

    value = read_number(text)
    try:
        if value is not None:
            return checked_seconds(value, "a time limit")
    except LimitError:
        pass
    raise argparse.ArgumentTypeError(f"expected seconds > 0 and at most {MAX_SECONDS:,.0f}, "
                                     f"got {shown(text)}")


#: Bounds of the plain number options: finite, and far beyond any sensible use.
MOST = 10**9
positive_int = number_in(1, MOST, int)
non_negative_int = number_in(0, MOST, int)
non_negative_float = number_in(0, 1e6)
positive_float = number_in(0, 1e6, low_open=True)
seed_int = number_in(0, 2**63 - 1, int)


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit code 2."""

    def error(self, message: str) -> NoReturn:  # one line, exit code 2, no usage dump
        raise UsageError(message)


#: What each command's `add_parser(commands)` is given: the subcommands of the `pacman` parser
#: (`add_subparsers(parser_class=Parser)`); a string, as argparse's class is not generic when run.
Commands: TypeAlias = "argparse._SubParsersAction[Parser]"


_fps_in_range = number_in(MIN_ANIMATION_FPS, MAX_ANIMATION_FPS)


def animation_fps(text: str) -> float:
    """The argparse type of `--animation-fps`: a number in [0.01, 50], saying why 50."""
    try:
        return _fps_in_range(text)
    except argparse.ArgumentTypeError as error:
        value = read_number(text)
        if value is not None and value > MAX_ANIMATION_FPS:
            raise argparse.ArgumentTypeError(
                f"{error} (browsers play frames shorter than 20 ms at 10 fps; to go through "
                f"a game faster, keep fewer rounds with --animation-skip)") from None
        raise


def add_output_options(parser: argparse.ArgumentParser) -> None:
    """The window and frame-export flags shared by `play` and `replay`."""
    parser.add_argument("--no-wait", action="store_true",
                        help="do not wait for a key at the end of a game in the window "
                             "(default: wait for a key; with -n > 1, 1 s or a key)")
    parser.add_argument("--screenshot", metavar="FILE.png", default=None,
                        help="save the last frame as a PNG (works with -q/-t too)")
    parser.add_argument("--gif", "--animation", dest="gif", metavar="FILE", default=None,
                        help="save the game, one frame per round, as an animated FILE.gif or "
                             "FILE.webp (lossless; both need Pillow, the gif extra), or as "
                             "PNG frames in a folder for any other name")
    parser.add_argument("--animation-fps", dest="animation_fps", metavar="FPS",
                        type=animation_fps, default=None,
                        help=f"frames per second of the .gif/.webp (at most "
                             f"{MAX_ANIMATION_FPS:g}; default: one frame per --frame-time, "
                             f"10 fps at the default 0.1 s)")
    parser.add_argument("--animation-skip", dest="animation_skip", metavar="K",
                        type=positive_int, default=None,
                        help="keep one frame in K: the start, every K-th round and always the "
                             "end screen (default 1: every round)")


#: Every option of a command that names a file or folder it writes: (attribute, flag, kind);
#: kind "file", "folder", or "animation" (a file for a .gif/.webp name, else a folder of PNGs)
OUTPUT_OPTIONS = (("record", "--record", "file"), ("record_dir", "--record-dir", "folder"),
                  ("screenshot", "--screenshot", "file"), ("gif", "--gif/--animation", "animation"),
                  ("html", "--html", "file"))


def check_output_paths(args: argparse.Namespace) -> None:
    """Refuse output paths that cannot be written, and animation options that cannot apply,
    before any game is played: each of `OUTPUT_OPTIONS` the command has goes through
    `check_output`; two options naming the same path are a mistake too."""
    seen: dict[str, str] = {}
    for option, flag, kind in OUTPUT_OPTIONS:
        value = getattr(args, option, None)
        if value is None:
            continue
        if not value.strip():
            raise UsageError(f"{flag} needs a {'folder' if kind == 'folder' else 'file'} name")
        folder = kind == "folder" or (kind == "animation" and animation_format(value) is None)
        check_output(flag, value, folder=folder)
        key = os.path.normcase(os.path.abspath(value))
        if key in seen:
            raise UsageError(f"{seen[key]} and {flag} both write {_path_text(value)}: "
                             "give each its own name")
        seen[key] = flag
    gif = getattr(args, "gif", None)
    for option in ("animation_fps", "animation_skip"):
        value = getattr(args, option, None)
        if value is None:
            continue
        flag = "--" + option.replace("_", "-")
        if gif is None:
            raise UsageError(f"{flag} needs --gif/--animation FILE")
        if option == "animation_fps" and animation_format(gif) is None:
            raise UsageError(f"{flag} sets the speed of a .gif or .webp file; a folder of PNG "
                             f"frames ({gif}) has none")



def check_output(flag: str, value: str, *, folder: bool = False) -> None:
    """Raise a one-line `UsageError` unless `value` can be written as a file (or, `folder`,
    a folder of files), saying why: checked on the disk, before anything is played.

    The path must be empty of nothing but a name, a regular file (never a device such as
    `/dev/null` or `/dev/full`, nor a folder) or a folder as asked when it exists, writable,
    and under a folder this process can write in (its missing folders are made later), with
    no name longer than the file system takes. Checked by doing: a missing file or folder is
    made and removed again, a folder is written in, so that what the kernel refuses (read-only
    mounts, `/proc`, permissions, for root too where they bind it) is refused here."""
    what = "folder" if folder else "file"
    if not value.strip():
        raise UsageError(f"{flag} needs a {what} name")
    problem = _unwritable(Path(value), folder)
    if problem:
        raise UsageError(f"{flag} {_path_text(value)} {problem}")


def _unwritable(path: Path, folder: bool) -> str | None:
    """Why `path` cannot be written (as a folder if `folder`), or None: `check_output`."""
    if "\0" in str(path):
        return "holds a NUL character"
    try:
        info: os.stat_result | None = path.stat()
    except OSError as error:
        if not _missing(error):  # a loop of links, no permission
            return _why(error, path)
        info = None
    if info is not None:
        if stat.S_ISDIR(info.st_mode):
            if not folder:
                suffix = path.suffix if animation_format(path) else ""
                return (f"is a folder: give a file name ending in {suffix}" if suffix
                        else "is a folder: give a file name")
            return _probe_folder(path)
        if not stat.S_ISREG(info.st_mode):  # /dev/null, /dev/full, a pipe: never written
            return (f"is a device, a pipe or a socket: give a {'folder' if folder else 'file'} "
                    "name")
        if folder:
            return "is a file: give a folder"
        if not os.access(path, os.W_OK):
            return "cannot be written: permission denied (or a read-only file system)"
        return None
    # missing: the nearest folder that exists must be one this process writes in
    missing = [path]
    parent = path.parent
    while True:
        try:
            info = parent.stat()
        except OSError as error:
            if not _missing(error):
                return _why(error, parent)
            if parent == parent.parent:
                return "is on no folder that exists"
            missing.append(parent)
            parent = parent.parent
            continue
        break
    if not stat.S_ISDIR(info.st_mode):
        return f"cannot be made: {_path_text(str(parent))} is a file, not a folder"
    longest = _name_max(parent)
    for part in missing:
        size = len(os.fsencode(part.name))
        if size > longest:
            return f"cannot be made: a name of {size} bytes (this file system takes {longest})"
    if len(missing) > 1:  # the folders in between are made when it is written
        return _probe_folder(parent)
    try:  # the file or folder itself, made and removed again: the kernel's own answer
        if folder:
            path.mkdir()
            path.rmdir()
        else:
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
            path.unlink()
    except OSError as error:
        return _why(error, path)
    return None


def _path_text(path: str, most: int = 200) -> str:
    """A path as one line of text: what is not printable escaped, cut to `most` characters."""
    text = path if path.isprintable() else repr(path)[1:-1]
    return text if len(text) <= most else text[:most - 3] + "..."


def _missing(error: OSError) -> bool:
    """Whether a `stat` error means the path is not there yet: missing, under a file (which
    the walk up finds), or a name too long (which the walk up measures)."""
    return error.errno in (errno.ENOENT, errno.ENOTDIR, errno.ENAMETOOLONG)


def _probe_folder(folder: Path) -> str | None:
    """Why no file can be made in `folder`, or None (a file made there and removed)."""
    import tempfile  # here: it imports `random`, which a command that writes nothing never needs

    try:
        descriptor, name = tempfile.mkstemp(prefix=".pacman-check-", dir=folder)
    except OSError as error:
        return f"cannot be written in {_path_text(str(folder))}: {error.strerror or error}"
    os.close(descriptor)
    with contextlib.suppress(OSError):
        os.unlink(name)
    return None


def _name_max(folder: Path) -> int:
    """The longest name, in bytes, the file system of `folder` takes (255 if it cannot say)."""
    try:
        return os.pathconf(folder, "PC_NAME_MAX")
    except (OSError, ValueError, AttributeError):
        return 255


def _why(error: OSError, path: Path) -> str:
    """An `OSError` met on `path` as the end of a one-line message."""
    reason = error.strerror or type(error).__name__
    where = f" ({error.filename})" if error.filename and str(error.filename) != str(path) \
        else ""
    return f"cannot be written: {reason}{where}"

ISOLATION_HELP = ("where a user's agent (a file, a module, a CS188 class, or an "
                  "evaluation=module:function) runs: process (default), in an agent host of its "
                  "own, so nothing it does changes the game of record; none, in this process, "
                  "trusted (for a debugger)")


def add_isolation_option(parser: argparse.ArgumentParser) -> None:
    """`--isolation process|none` (`pacman.hosting.local.build_agents`)."""
    from pacman.hosting import ISOLATIONS

    parser.add_argument("--isolation", choices=ISOLATIONS, default=ISOLATIONS[0],
                        help=ISOLATION_HELP)


def make_display(args: argparse.Namespace) -> Display:
    """The display the flags ask for: none (-q), text (-t), else the window (text if none)."""
    if args.quiet:
        from pacman.display.protocol import NullDisplay

        return NullDisplay()
    from pacman.display.text import TextDisplay
    if args.text:
        return TextDisplay(frame_time=args.frame_time)
    try:
        from pacman.display import window
        end_wait = 0.0 if args.no_wait else (None if getattr(args, "num_games", 1) == 1
                                             else 1.0)
        return window.open_window(frame_time=args.frame_time, zoom=args.zoom,
                                  end_wait=end_wait)
    except Exception as error:
        web = " (`pacman play --ui web` shows the game in a browser)" if hasattr(
            args, "ui") else ""
        print(f"pacman: no window ({error}); using the text display{web}", file=sys.stderr)
        return TextDisplay(frame_time=args.frame_time)


def with_export(display: Display, args: argparse.Namespace) -> Display:
    """Wrap the display to write --screenshot/--gif (rendered off-screen, pygame needed), at
    --animation-fps, keeping one frame in --animation-skip."""
    if not args.screenshot and not args.gif:
        return display
    from pacman.display.export import FrameExport
    return FrameExport(display, screenshot=args.screenshot, gif=args.gif,
                       zoom=args.zoom, frame_time=args.frame_time,
                       fps=getattr(args, "animation_fps", None),
                       skip=getattr(args, "animation_skip", None) or 1)
