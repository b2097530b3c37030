"""What every command shares: the one-line error, typed settings, number checks, displays."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from pacman import settings
from pacman.display.base import Display, NullDisplay


class UsageError(ValueError):
    """A user mistake on the command line: one line on stderr, exit code 2."""


def parse_settings(text: str | None) -> dict[str, Any]:
    """`k=v,k=v` as typed settings (see `pacman.settings`); a mistake is a UsageError."""
    try:
        return settings.parse_settings(text)
    except settings.SettingsError as error:
        raise UsageError(str(error)) from None


typed = settings.typed


def positive_int(text: str) -> int:
    """An argparse type: a whole number >= 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number >= 1, got {value}")
    return value


def non_negative_int(text: str) -> int:
    """An argparse type: a whole number >= 0."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a number >= 0, got {value}")
    return value


def non_negative_float(text: str) -> float:
    """An argparse type: a number >= 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a number >= 0, got {value}")
    return value


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit code 2."""

    def error(self, message: str) -> Any:  # one line, exit code 2, no usage dump
        raise UsageError(message)


def add_output_options(parser: argparse.ArgumentParser) -> None:
    """The window and frame-export flags shared by `play` and `replay`."""
    parser.add_argument("--no-wait", action="store_true",
                        help="do not wait for a key at the end of a game in the window "
                             "(default: wait for a key; with -n > 1, 1 s or a key)")
    parser.add_argument("--screenshot", metavar="FILE.png", default=None,
                        help="save the last frame as a PNG (works with -q/-t too)")
    parser.add_argument("--gif", metavar="FILE.gif", default=None,
                        help="save the game as an animated GIF (needs Pillow: "
                             "pip install 'pacman-adversarial[gif]'), or as PNG frames in a "
                             "folder when the name does not end in .gif")


def make_display(args: argparse.Namespace) -> Display:
    """The display the flags ask for: none (-q), text (-t), else the window (text if none)."""
    if args.quiet:
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
        print(f"pacman: no window ({error}); using the text display", file=sys.stderr)
        return TextDisplay(frame_time=args.frame_time)


def with_export(display: Display, args: argparse.Namespace) -> Display:
    """Wrap the display to write --screenshot/--gif (rendered off-screen, pygame needed)."""
    if not args.screenshot and not args.gif:
        return display
    from pacman.display.render import ExportError, FrameExport
    try:
        return FrameExport(display, screenshot=args.screenshot, gif=args.gif,
                           zoom=args.zoom, frame_time=args.frame_time)
    except ExportError as error:
        raise UsageError(str(error)) from None



def positive_float(text: str) -> float:
    """An argparse type: a number > 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected a number > 0, got {text}")
    return value
