"""Experiments: many games in parallel, stored as they end, summarised as tables and plots.

One module per job:

- `config`: a game's configuration, key and seed, as frozen values (no SQLite);
- `grid`: the grid of configurations (agents x settings x ghosts x layouts) and experiment files;
- `backends`: where games run (a process pool on this machine, or a Dask cluster);
- `runner`: `run_batch`, the scheduling loop that plays what the store lacks;
- `store`: the SQLite results file; `claims`: how two batches on one file share its games;
- `table`, `plot` and `export`: what the store adds up to, and its games as rows;
- `compare` and `ratings`: paired comparisons and Bradley-Terry ratings;
- `headline`: the lecture's "Assumptions vs. Reality" experiment.

The names below are the Python API for batches; each is imported on first use, so that a
command needing one module does not load the others (SQLite, the process pool).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pacman.lazy import lazy_exports

if TYPE_CHECKING:
    from pacman.errors import BatchError
    from pacman.experiments.backends import Backend, ProcessBackend, default_jobs
    from pacman.experiments.cluster import DaskBackend
    from pacman.experiments.config import GameConfig, GameTask
    from pacman.experiments.grid import (
        Experiment,
        Grid,
        ResolvedConfig,
        cross_settings,
        load_experiment,
        plan,
        resolve_config,
        resolve_configs,
    )
    from pacman.experiments.paired import Comparison, compare_games
    from pacman.experiments.ratings import bootstrap_ratings, bradley_terry, elo_ratings
    from pacman.experiments.runner import (
        DEFAULT_STORE,
        BatchInterrupted,
        BatchResult,
        Progress,
        ProgressCallback,
        format_progress,
        play_game,
        run_batch,
        stored_games,
    )
    from pacman.experiments.store import ResultStore, open_results
    from pacman.experiments.table import select_code, summarize
    from pacman.specs import AgentSpec

__all__ = [
    # a game's configuration, key and seed (config)
    "AgentSpec", "GameConfig", "GameTask",
    # the grid of configurations and experiment files (grid)
    "Experiment", "Grid", "ResolvedConfig", "cross_settings", "load_experiment", "plan",
    "resolve_config", "resolve_configs",
    # where games run (backends)
    "Backend", "DaskBackend", "ProcessBackend", "default_jobs",
    # the batch (runner)
    "DEFAULT_STORE", "BatchError", "BatchInterrupted", "BatchResult", "Progress",
    "ProgressCallback", "format_progress", "play_game", "run_batch", "stored_games",
    # the results file (store)
    "ResultStore", "open_results",
    # what the store adds up to (table)
    "select_code", "summarize",
    # paired comparisons and ratings (compare, ratings)
    "Comparison", "compare_games", "bootstrap_ratings", "bradley_terry", "elo_ratings",
]

_HOMES = {
    "BatchError": "pacman.errors",
    "Backend": "pacman.experiments.backends",
    "DaskBackend": "pacman.experiments.cluster",
    "ProcessBackend": "pacman.experiments.backends",
    "default_jobs": "pacman.experiments.backends",
    "Comparison": "pacman.experiments.paired",
    "compare_games": "pacman.experiments.paired",
    "AgentSpec": "pacman.specs",
    "GameConfig": "pacman.experiments.config",
    "GameTask": "pacman.experiments.config",
    "Experiment": "pacman.experiments.grid",
    "Grid": "pacman.experiments.grid",
    "ResolvedConfig": "pacman.experiments.grid",
    "cross_settings": "pacman.experiments.grid",
    "load_experiment": "pacman.experiments.grid",
    "plan": "pacman.experiments.grid",
    "resolve_config": "pacman.experiments.grid",
    "resolve_configs": "pacman.experiments.grid",
    "bootstrap_ratings": "pacman.experiments.ratings",
    "bradley_terry": "pacman.experiments.ratings",
    "elo_ratings": "pacman.experiments.ratings",
    "DEFAULT_STORE": "pacman.experiments.runner",
    "BatchInterrupted": "pacman.experiments.runner",
    "BatchResult": "pacman.experiments.runner",
    "Progress": "pacman.experiments.runner",
    "ProgressCallback": "pacman.experiments.runner",
    "format_progress": "pacman.experiments.runner",
    "play_game": "pacman.experiments.runner",
    "run_batch": "pacman.experiments.runner",
    "stored_games": "pacman.experiments.runner",
    "ResultStore": "pacman.experiments.store",
    "open_results": "pacman.experiments.store",
    "select_code": "pacman.experiments.table",
    "summarize": "pacman.experiments.table",
}

__getattr__, __dir__ = lazy_exports(__name__, _HOMES)
