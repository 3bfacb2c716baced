"""How a run's chunks are shared between the runner's own thread and a pool of workers.

``backends._shared`` works with any ``concurrent.futures`` executor, so a thread pool stands in
for loky's processes here; the runner's tests cover the real pool end to end.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import Executor, Future, ThreadPoolExecutor

import pytest

from zsim.runner.backends import _Handout, _shared

PENDING = [(index, 10 * index, 10 * index + 10) for index in range(30)]


def _player(played: list[tuple[int, str]], then=None):
    """A stand-in for playing a chunk: notes which thread played which chunk."""

    def play(index: int, start: int, stop: int) -> int:
        time.sleep(0.002)
        played.append((index, threading.current_thread().name))
        if then is not None:
            then(index)
        return index

    return play


def test_each_chunk_is_played_once_and_both_sides_play():
    played: list[tuple[int, str]] = []
    with ThreadPoolExecutor(1, thread_name_prefix="pool") as pool:
        results = list(_shared(PENDING, _player(played), pool, workers=1))
    assert sorted(results) == list(range(30))
    assert sorted(index for index, _ in played) == list(range(30))
    players = {name.startswith("pool") for _, name in played}
    assert players == {True, False}  # the pool and this thread each played some


def test_chunks_a_pool_refuses_are_played_here():
    played: list[tuple[int, str]] = []
    pool = ThreadPoolExecutor(1, thread_name_prefix="pool")

    def shut_after_two(index: int) -> None:
        if sum(name.startswith("pool") for _, name in played) == 2:
            pool.shutdown(wait=False)  # from now on submit raises

    results = list(_shared(PENDING, _player(played, shut_after_two), pool, workers=1))
    pool.shutdown(wait=True)
    assert sorted(results) == list(range(30))
    assert sorted(index for index, _ in played) == list(range(30))
    # the chunk it already held when it was shut down, at most, and no more
    assert sum(name.startswith("pool") for _, name in played) in (2, 3)


@pytest.mark.parametrize("failing", ["pool", "MainThread"])
def test_a_failed_chunk_stops_the_run_with_its_error(failing):
    played: list[tuple[int, str]] = []

    def fail_in(index: int) -> None:
        if threading.current_thread().name.startswith(failing):
            raise ValueError(f"chunk {index} failed")

    pool = ThreadPoolExecutor(1, thread_name_prefix="pool")
    with pytest.raises(ValueError, match="failed"):
        list(_shared(PENDING, _player(played, fail_in), pool, workers=1))
    time.sleep(0.2)  # long enough for a pool still being handed chunks to play them all
    pool.shutdown(wait=True)
    assert len(played) < len(PENDING)  # nothing was handed out after the failure


def test_without_a_pool_this_thread_plays_everything_in_order():
    played: list[tuple[int, str]] = []
    assert list(_shared(PENDING, _player(played), None, workers=1)) == list(range(30))


class _Holding(Executor):
    """An executor whose chunks are done only when the test says so."""

    def __init__(self) -> None:
        self.held: list[Future] = []

    def submit(self, fn, /, *args, **kwargs) -> Future:
        self.held.append(Future())
        return self.held[-1]


def test_at_the_end_of_a_run_a_worker_holds_one_chunk_at_a_time():
    pool = _Holding()
    chunks = _Handout(PENDING[:8], _player([]), pool, workers=1)
    chunks.to_worker()
    chunks.to_worker()
    assert len(pool.held) == 2  # the chunk it plays and the next
    pool.held[0].set_result(0)
    assert len(pool.held) == 3  # handed another at once: 5 are left
    for _ in range(3):
        assert chunks.to_self() is not None  # this thread plays 3: 2 are left, one each
    pool.held[1].set_result(1)
    assert len(pool.held) == 3  # the worker still holds one: the next stays for either side
    pool.held[2].set_result(2)
    assert len(pool.held) == 4  # it holds none: it gets the next
    assert chunks.to_self() is not None and chunks.to_self() is None
    pool.held[3].set_result(3)
    assert len(pool.held) == 4
    assert len(chunks.collect(wait=False)) == 4 and chunks.all_done()
