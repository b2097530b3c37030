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


def test_no_dask_future_outlives_the_batch_that_sent_it(tmp_path: Path) -> None:
    """A game still running when the batch stops (Ctrl-C) leaves no Dask future for the
    garbage collector: its error's traceback held the future, and a future collected after
    the client closed made Dask print a traceback after the batch's last line. With the
    collector off, the future must be freed by its last reference going."""
    import gc
    import sys
    import time
    import weakref

    config = resolve_config(GameConfig(AgentSpec("greedy"), layout="smallClassic",
                                       max_moves=150))
    unraised: list[object] = []
    kept_hook, sys.unraisablehook = sys.unraisablehook, unraised.append
    gc.disable()
    try:
        with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                      host="127.0.0.1", dashboard_address=":0") as cluster:
            backend = DaskBackend(cluster.scheduler_address)
            [config] = backend.ship([config])
            executor = backend.start()
            game = executor.submit(play_game, GameTask.of(config.config, 1, 0))
            sent = [weakref.ref(task) for task, _ in executor._sent.values()]  # type: ignore[attr-defined]
            assert len(sent) == 1 and sent[0]() is not None
            backend.stop(executor)  # (as a Ctrl-C does, then the backend's shutdown)
            backend.shutdown()
            assert game.cancelled() or game.exception(timeout=120) is not None
            deadline = time.monotonic() + 120  # (Dask's callback thread lets go of it)
            while sent[0]() is not None and time.monotonic() < deadline:
                time.sleep(0.01)
            assert sent[0]() is None
        gc.collect()
    finally:
        gc.enable()
        sys.unraisablehook = kept_hook
    assert unraised == []
