"""The same batch on a Dask cluster: a local two-worker cluster on 127.0.0.1."""

from __future__ import annotations

from pathlib import Path

from conftest import optional
from pacman.experiments import DaskBackend, play_game, resolve_config, run_batch
from pacman.experiments.config import GameConfig, GameTask
from pacman.experiments.store import ResultStore
from pacman.specs import AgentSpec

distributed = optional("distributed", "dask")


def test_a_batch_on_a_local_dask_cluster_stores_the_same_games(tmp_path: Path) -> None:
    configs = [GameConfig(AgentSpec.of("alphabeta", {"depth": 1}), layout="testClassic",
                          max_moves=150),
               GameConfig(AgentSpec("greedy"), AgentSpec("directional"), layout="smallClassic",
                          max_moves=150)]
    db = tmp_path / "dask.db"
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=":0") as cluster, \
            DaskBackend(cluster.scheduler_address) as backend:
        assert backend.slots == 2
        result = run_batch(configs, games=3, store=db, seed=11, backend=backend)
        assert (result.planned, result.stored) == (6, 6)
        again = run_batch(configs, games=3, store=db, seed=11, backend=backend)
        assert (again.already, again.stored) == (6, 0)
    with ResultStore(db) as store:
        games = store.games()
    assert len(games) == 6
    for game in games:  # what a worker process of the default backend would have played
        task = GameTask.of(resolve_config(game.config).config, 11, game.index)
        assert game.record() == play_game(task)
