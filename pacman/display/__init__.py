"""Views of a game behind one `Display` protocol; only the drawing modules (`render`, `export`,
`window`, `tree_view`, `search_panel`) import pygame, and only a window or a picture loads them."""

from pacman.display.protocol import Display, GameRestart, GameStopped, MoveInfo, NullDisplay

__all__ = ["Display", "GameRestart", "GameStopped", "MoveInfo", "NullDisplay"]
