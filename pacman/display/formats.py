"""What an animation may be, without pygame: the command line checks its options with these
before anything is drawn, and `pacman.display.export` writes by them."""

from __future__ import annotations

from pathlib import Path

__all__ = ["ANIMATION_SUFFIXES", "MAX_ANIMATION_FPS", "MIN_ANIMATION_FPS", "animation_format"]

#: The file suffixes written as one animated file (any other name is a folder of PNG frames).
ANIMATION_SUFFIXES = (".gif", ".webp")
#: The fastest animation: browsers play a frame shorter than 20 ms as if it lasted 100 ms.
MAX_ANIMATION_FPS = 50.0
#: The slowest animation: 100 s a frame (a GIF holds at most 655.35 s).
MIN_ANIMATION_FPS = 0.01


def animation_format(path: str | Path) -> str | None:
    """`"gif"` or `"webp"` for a path with that suffix (any case), None for a folder of PNGs."""
    suffix = Path(path).suffix.lower()
    return suffix[1:] if suffix in ANIMATION_SUFFIXES else None
