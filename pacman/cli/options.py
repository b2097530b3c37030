"""What every command shares: the one-line error, typed settings, number checks, displays."""

from __future__ import annotations

import argparse
import math
import re
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, NoReturn, TypeAlias, overload

from pacman import settings_text as settings
from pacman.display.formats import MAX_ANIMATION_FPS, MIN_ANIMATION_FPS, animation_format
from pacman.errors import LimitError, UsageError
from pacman.limits import MAX_SECONDS
from pacman.limits import seconds as checked_seconds

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


def check_output_paths(args: argparse.Namespace) -> None:
    """Refuse output paths that cannot be written before any game is played."""
    from pathlib import Path

    for option, kind in (("record", "file"), ("screenshot", "file"), ("record_dir", "folder"),
                         ("gif", "any")):
        value = getattr(args, option, None)
        if value is None:
            continue
        flag = "--gif/--animation" if option == "gif" else "--" + option.replace("_", "-")
        if not value.strip():
            raise UsageError(f"{flag} needs a {'folder' if kind == 'folder' else 'file'} name")
        path = Path(value)
        if kind == "file" and path.is_dir():
            raise UsageError(f"{flag} {value} is a folder: give a file name")
        if kind == "folder" and path.exists() and not path.is_dir():
            raise UsageError(f"{flag} {value} is a file: give a folder")
        if kind == "any" and animation_format(path) and path.is_dir():
            raise UsageError(f"{flag} {value} is a folder: give a file name ending in "
                             f"{path.suffix}")
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
