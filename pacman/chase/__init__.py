"""Exact survival tables of the food-free chase: how likely Pacman, playing best, survives the
next H moves against one or two ghosts, for every state of a layout (`pacman.chase.tables`).

A policy-layer package: it reads the game core and `pacman.agents.ghosts` (the directional
ghost's own probabilities), nothing from the applications.
"""

from __future__ import annotations

from pacman.chase.cache import cache_dir, layout_hash
from pacman.chase.moves import MODELS
from pacman.chase.tables import (
    MAX_HORIZON,
    SurvivalTable,
    build_survival_table,
    clear_memory,
    survival_table,
)
from pacman.errors import ChaseTableError

__all__ = ["survival_table", "SurvivalTable", "build_survival_table", "ChaseTableError",
           "MODELS", "MAX_HORIZON", "cache_dir", "clear_memory", "layout_hash"]
