"""Views of a game behind one `Display` protocol; pygame is imported only by `window`."""

from pacman.display.base import Display, GameRestart, GameStopped, MoveInfo, NullDisplay

__all__ = ["Display", "GameRestart", "GameStopped", "MoveInfo", "NullDisplay"]
