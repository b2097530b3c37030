"""This package's release: `pacman.__version__`, as `pyproject.toml` gives it. What a replay and a
stored game name as the release that played them (which code played them is `pacman.versions`).
A module of its own, importing nothing, so that any layer can name it."""

__all__ = ["RELEASE"]

RELEASE = "0.1.0"
