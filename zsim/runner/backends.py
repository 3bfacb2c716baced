"""Where the chunks run: in this process with loky worker processes beside it, or on Dask.

Either way ``Pool.play`` hands back each chunk's counts once the chunk is on disk
(``zsim.runner.chunkfile``), in the order the chunks finish.

On this machine a run of N jobs plays in this process and in N - 1 worker processes of loky,
joblib's process pool. This process has everything loaded and starts playing at once, while a
worker first spends about a quarter of a second of CPU starting Python and importing joblib,
numpy, pyarrow, pydantic and the engine: one worker fewer is one such start fewer, which took
the parallel efficiency of two jobs from about 89% to 93%. ``joblib.Parallel`` cannot play
beside its caller (one job means no worker at all), hence loky's executor itself. Workers write
their chunk files themselves, so what comes back is a few counts: no worker waits for this
process, busy with a chunk of its own, to read a chunk's bytes off a pipe.

A worker's start costs CPU whenever it happens, but it need not delay the run: ``zsim run``
calls ``start_workers`` as soon as it knows how many it needs, and the workers start, import the
code that plays chunks and wait, on a core this process leaves idle while it imports the rest of
the runner and loads the box. For the same reason this module imports the worker code only when a
run plays: ``start_workers`` needs no more than loky.

On Dask, ``joblib.Parallel`` with the Dask backend sends the chunks to the cluster, whose
workers need not share a disk with this process: their results carry the chunk's bytes, and
this process writes them. Dask is optional (``pip install zsim[dask]``) and imported only when
asked for.
"""

from __future__ import annotations

import os
import threading
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from queue import SimpleQueue
from types import ModuleType
from typing import TYPE_CHECKING

from joblib import Parallel, delayed, effective_n_jobs, parallel_config
from joblib.externals.loky import get_reusable_executor
from joblib.externals.loky.backend.reduction import dumps

from zsim.runner import lifeline

if TYPE_CHECKING:
    from zsim.runner.worker import ChunkResult, RunContext

# What a chunk runs: a worker imports it as it starts, before any chunk reaches it.
_WORKER_MODULE = "zsim.runner.worker"

Chunk = tuple[int, int, int]  # index, first game, end

# Chunks handed to each worker at a time: the one it plays and the next, which it starts as
# soon as it finishes (``_Handout`` then hands it another at once); at the end of a run, one.
_IN_FLIGHT_PER_WORKER = 2


class BackendError(RuntimeError):
    """The requested backend cannot be used (Dask missing, scheduler unreachable)."""


@dataclass(frozen=True)
class Pool:
    """The processes that play a run's chunks: ``size`` of them for run.json, and how."""

    size: int
    play: Callable[[RunContext, Path, list[Chunk]], Iterator[ChunkResult]]


@contextmanager
def using(name: str, jobs: int, scheduler: str | None = None) -> Iterator[Pool]:
    """The pool of backend ``name``.

    loky: ``jobs`` processes, this one included (negative counts back from all cores, as in
    joblib). dask: a Client on ``scheduler`` when given, whose workers decide the parallelism;
    otherwise a LocalCluster of ``jobs`` single-threaded worker processes (the engine is pure
    Python, so threads would share one GIL).
    """
    if name == "loky":
        size = effective_n_jobs(jobs)
        yield Pool(size, partial(_play_here_and_beside, workers=size - 1))
        return
    connect = _dask().Client  # imported only for Dask runs
    with ExitStack() as stack:
        if scheduler:
            try:
                client = stack.enter_context(connect(scheduler, timeout="20s"))
            except OSError as error:
                raise BackendError(f"cannot reach Dask scheduler {scheduler}: {error}") from None
        else:
            client = stack.enter_context(connect(stack.enter_context(local_cluster(jobs))))
        stack.enter_context(parallel_config(backend="dask", n_jobs=-1))
        yield Pool(sum(client.nthreads().values()), _play_on_dask)


def _dask() -> ModuleType:
    """dask.distributed, or a BackendError saying how to install it."""
    try:
        import dask.distributed
    except ImportError:
        raise BackendError("--backend dask needs Dask: pip install 'zsim[dask]'") from None
    return dask.distributed


@contextmanager
def local_cluster(jobs: int) -> Iterator[object]:
    """A Dask LocalCluster on this machine: ``jobs`` single-threaded worker processes (all
    cores when not positive); the engine is pure Python, so threads would share one GIL."""
    workers = jobs if jobs > 0 else None
    with _dask().LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                              dashboard_address=None) as cluster:
        yield cluster


def ships_chunks(backend: str, jobs: int) -> bool:
    """Whether a run's chunks are played in other processes, which get them pickled, the
    strategies included."""
    return backend != "loky" or effective_n_jobs(jobs) > 1


def pickling_error(obj: object) -> Exception | None:
    """What stops the workers' pickler (loky's: cloudpickle) from pickling ``obj``, if anything.
    Any exception can come out of an object's own pickling code, so any is reported."""
    try:
        dumps(obj)
    except Exception as error:
        return error
    return None


def start_workers(backend: str, jobs: int) -> None:
    """Start the worker processes of a run with ``jobs`` on ``backend`` now, so that their start
    overlaps this process's own loading and the run finds them ready. loky starts all of a
    pool's processes at its first call, and each imports the worker code as it starts, so one
    call that does nothing is enough. Nothing to do for one job, or on Dask (its workers are the
    cluster's)."""
    workers = effective_n_jobs(jobs) - 1 if backend == "loky" else 0
    if workers > 0:
        _loky(workers).submit(os.getpid)


def _loky(workers: int) -> Executor:
    """loky's reusable pool of ``workers`` processes, which import the worker code as they start
    and end when this process does (``zsim.runner.lifeline``). Asked for the same way every
    time, so that it hands back the processes already started rather than starting new ones."""
    return get_reusable_executor(max_workers=workers, initializer=lifeline.start,
                                 initargs=(_WORKER_MODULE, os.getpid()))


def stop_workers(kill: bool = False) -> None:
    """Stop the loky worker processes that a run leaves for the next run of this process, and
    wait until they exit (so that, for one, their CPU time is counted as this process's
    children's); with ``kill``, terminate them and return at once, as when a run is refused
    before it plays (a worker still starting would otherwise hold up the exit).

    Asking loky for its executor any other way would first resize it to all cores, starting
    worker processes only to stop them."""
    get_reusable_executor(reuse=True).shutdown(wait=not kill, kill_workers=kill)


def _play_here_and_beside(context: RunContext, out: Path, pending: list[Chunk],
                          workers: int) -> Iterator[ChunkResult]:
    """Play ``pending`` in this process and in ``workers`` loky processes, each taking the next
    chunk when it is free. Ctrl-C, or a worker that dies, stops the workers at once; the chunks
    already on disk stay there for ``--resume``."""
    from zsim.runner import worker

    executor = _loky(workers) if workers and pending else None
    try:
        yield from _shared(pending, partial(worker.play_to_disk, context, out), executor, workers)
    except BaseException:
        if executor:
            executor.shutdown(wait=False, kill_workers=True)
        raise


def _shared(pending: list[Chunk], play: Callable[..., ChunkResult], executor: Executor | None,
            workers: int) -> Iterator[ChunkResult]:
    """Each chunk's result, in the order they finish: this thread plays a chunk whenever it is
    free, ``executor``'s ``workers`` hold their share (see ``_Handout``). An error stops the
    handing out."""
    chunks = _Handout(pending, play, executor, workers)
    try:
        for _ in range(workers * _IN_FLIGHT_PER_WORKER):
            chunks.to_worker()
        while True:
            mine = chunks.to_self()
            if mine is not None:
                yield play(*mine)
            elif chunks.all_done():
                return
            for future in chunks.collect(wait=mine is None):
                yield future.result()
    finally:
        chunks.stop()


class _Handout:
    """The chunks left to play, shared by the thread that plays here and the executor's thread
    that receives the workers' results (loky's, in a run).

    A worker's chunk that finishes hands that worker its next chunk at once, from the
    executor's thread (a done callback): this process, busy with a chunk of its own, need not
    come back first. So a worker holds only the chunk it plays and the next. At the end of a
    run, once no more chunks are left than processes play them, the workers hold one chunk
    each: a chunk a worker holds but has not started is one that a process running out of work
    cannot take, and the run would wait for it.
    """

    def __init__(self, pending: list[Chunk], play: Callable[..., ChunkResult],
                 executor: Executor | None, workers: int) -> None:
        self._queue = deque(pending)
        self._play = play
        self._executor = executor
        self._workers = workers
        self._lock = threading.Lock()  # the queue, the running set and the count held change
        self._running: set[Future[ChunkResult]] = set()  # not collected yet
        self._held = 0  # handed to the workers and not done
        self._finished: SimpleQueue[Future[ChunkResult]] = SimpleQueue()
        self._stopped = False

    def to_self(self) -> Chunk | None:
        """The next chunk for this process to play, if any is left."""
        with self._lock:
            return self._queue.popleft() if self._queue else None

    def to_worker(self, done: Future[ChunkResult] | None = None) -> None:
        """Send the next chunk to the workers; called again as each of their chunks is done."""
        if done is not None:
            with self._lock:
                self._held -= 1
            self._finished.put(done)
            if done.cancelled() or done.exception() is not None:
                return  # the run stops: collecting this future raises its error
        with self._lock:
            if self._executor is None or self._stopped or not self._queue:
                return
            if self._held >= self._workers and len(self._queue) <= self._workers + 1:
                return  # the end of the run: each worker holds one
            try:
                future = self._executor.submit(self._play, *self._queue[0])
            except RuntimeError:  # shut down, or broken: a running future already says why
                return
            self._queue.popleft()  # only once submitted: a chunk is never dropped
            self._running.add(future)
            self._held += 1
        future.add_done_callback(self.to_worker)  # runs at once if already done: not locked

    def collect(self, wait: bool) -> list[Future[ChunkResult]]:
        """The workers' chunks done since the last call; with ``wait``, at least one."""
        done = [self._finished.get()] if wait else []
        while not self._finished.empty():
            done.append(self._finished.get())
        with self._lock:
            self._running.difference_update(done)
        return done

    def all_done(self) -> bool:
        """Nothing left to play, and every worker's chunk collected."""
        with self._lock:
            return not self._queue and not self._running

    def stop(self) -> None:
        """Hand out nothing more (done callbacks may still come)."""
        with self._lock:
            self._stopped = True


def _play_on_dask(context: RunContext, out: Path, pending: list[Chunk]) -> Iterator[ChunkResult]:
    """Results as they finish; joblib dispatches only a few chunks ahead, so neither the
    pending tasks nor the results pile up in memory."""
    from zsim.runner import chunkfile, worker

    parallel = Parallel(return_as="generator_unordered", batch_size=1, pre_dispatch="2*n_jobs")
    for chunk in parallel(delayed(worker.play_chunk)(context, index, start, stop)
                          for index, start, stop in pending):
        chunkfile.write(out, chunk.label, chunk.files)
        yield chunk
