"""Experiments: many games in parallel, stored as they end, summarised as tables and plots.

One module per job:

- `grid`: the grid of configurations (agents x settings x ghosts x layouts) and experiment files;
- `backends`: where games run (a process pool on this machine, or a Dask cluster);
- `runner`: `run_batch`, the scheduling loop that plays what the store lacks;
- `store`: the SQLite results store; `versions`: the code version of a game;
- `table`, `plot` and `export`: what the store adds up to, and its games as rows;
- `compare` and `ratings`: paired comparisons and Bradley-Terry ratings;
- `headline`: the lecture's "Assumptions vs. Reality" experiment.

The names below are the Python API for batches.
"""

from pacman.experiments.backends import Backend, DaskBackend, ProcessBackend, default_jobs
from pacman.experiments.compare import Comparison, compare_games
from pacman.experiments.grid import (
    BatchError,
    Experiment,
    Grid,
    ResolvedConfig,
    cross_settings,
    load_experiment,
    plan,
    resolve_config,
    resolve_configs,
)
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
from pacman.experiments.store import AgentSpec, GameConfig, GameTask, ResultStore, open_results
from pacman.experiments.table import select_code, summarize

__all__ = [
    "DEFAULT_STORE",
    "AgentSpec",
    "Backend",
    "BatchError",
    "BatchInterrupted",
    "BatchResult",
    "Comparison",
    "DaskBackend",
    "Experiment",
    "GameConfig",
    "GameTask",
    "Grid",
    "ProcessBackend",
    "Progress",
    "ProgressCallback",
    "ResolvedConfig",
    "ResultStore",
    "bootstrap_ratings",
    "bradley_terry",
    "compare_games",
    "cross_settings",
    "default_jobs",
    "elo_ratings",
    "format_progress",
    "load_experiment",
    "open_results",
    "plan",
    "play_game",
    "resolve_config",
    "resolve_configs",
    "run_batch",
    "select_code",
    "stored_games",
    "summarize",
]
