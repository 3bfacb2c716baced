"""Root parallelism: the playouts of a flat search's round, played in worker processes.

A flat root (``mcts(root='halving')``) plays every candidate on the same deals, and each
(deal, candidate) playout is independent of the others: a round's playouts can be played on
several cores at once. The searching process deals each fork itself (``view.fork``, from the
deal's seed, as a playout in the process would), saves it (``Game.checkpoint``, some 16 KB) and
sends it with the candidate to a worker, which restores it and plays it out with the same
driver; the values come back in the order they were sent, and are added up in that order, so
that the search chooses exactly as it does in one process, whatever the number of workers.

The workers are a process pool of this process, started at the first parallel search and kept
(``_pool``). A batch run's worker plays the playouts itself, with the same result: the run
already plays a game on each core (``zsim.cores``, told as a chunk starts), and so does a
daemonic process, which may not have children.
"""

from __future__ import annotations

import atexit
import multiprocessing
import pickle
import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from zsim import cores
from zsim.strategies.search import Driver, Horizon, margin, play_out

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

    from zsim.components import Box
    from zsim.view import PlayerView

# the pools of this process, by (workers, the box they restore forks with)
_POOLS: dict[tuple[int, int], tuple[ProcessPoolExecutor, Any]] = {}
_BOX: list[Any] = []  # in a worker: the box its forks are restored with


def can_fork_workers() -> bool:
    """Whether this process may share its playouts: not in a batch run's worker
    (``zsim.cores``), nor in a daemonic process, which may not have children."""
    return cores.free() and not multiprocessing.current_process().daemon


def play_deal(view: PlayerView, seed: int, options: list[Any],
              driver_for: Callable[[Any], Driver], jobs: int,
              play: Callable[..., float] = play_out) -> list[float]:
    """The value of each of ``options`` played out on the deal of ``seed`` (``driver_for(option)``
    makes the driver of each), on ``jobs`` processes when this process may start them, else
    here by ``play`` (``search.play_out``)."""
    if jobs <= 1 or len(options) <= 1 or not can_fork_workers():
        return [play(view, random.Random(seed), driver_for(option)) for option in options]
    fork = view.fork(random.Random(seed))
    saved = pickle.dumps(fork.checkpoint(), protocol=pickle.HIGHEST_PROTOCOL)
    pool = _pool(jobs, fork.t.box)
    drivers = [driver_for(option) for option in options]
    futures = [pool.submit(_play, saved, view.n_players, driver) for driver in drivers]
    return [future.result() for future in futures]


def _pool(jobs: int, box: Box) -> ProcessPoolExecutor:
    """The pool of ``jobs`` workers for forks of ``box``, started once per process (the box,
    the search's own copy, goes to each worker once, as it starts)."""
    key = (jobs, id(box))
    found = _POOLS.get(key)
    if found is None or found[1] is not box:
        from concurrent.futures import ProcessPoolExecutor  # only where a search shares

        context = multiprocessing.get_context("forkserver")
        if found is not None:  # another box under a reused id: its pool goes
            found[0].shutdown(wait=False, cancel_futures=True)
        pool = ProcessPoolExecutor(max_workers=jobs, mp_context=context,
                                   initializer=_keep_box, initargs=(box,))
        found = _POOLS[key] = (pool, box)
    return found[0]


def _keep_box(box: Box) -> None:
    _BOX[:] = [box]


def _play(saved: bytes, n_players: int, driver: Driver) -> float:
    """In a worker: the saved fork restored and played out by ``driver`` in every seat."""
    from zsim.game import Game

    fork = driver.game = Game.restore(_BOX[0], pickle.loads(saved), [None] * n_players)
    try:
        result = fork.play([driver] * n_players)
    except Horizon as stop:
        return stop.value
    return margin([s["vp_total"] for s in result.scores], driver.seat)


@atexit.register
def _shut() -> None:
    for pool, _ in _POOLS.values():
        pool.shutdown(wait=False, cancel_futures=True)
    _POOLS.clear()
