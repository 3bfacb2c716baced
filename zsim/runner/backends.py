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

On Dask, ``joblib.Parallel`` with the Dask backend sends the chunks to the cluster, whose
workers need not share a disk with this process: their results carry the chunk's bytes, and
this process writes them. Dask is optional (``pip install zsim[dask]``) and imported only when
asked for.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, wait
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from joblib import Parallel, delayed, effective_n_jobs, parallel_config
from joblib.externals.loky import get_reusable_executor

from zsim.runner import chunkfile
from zsim.runner.worker import ChunkResult, RunContext, play_chunk, play_to_disk

Chunk = tuple[int, int, int]  # index, first game, end

# Chunks handed to each worker at a time: the one it plays and two more, so that it never
# waits for this process, busy with a chunk of its own, to hand it the next.
_IN_FLIGHT_PER_WORKER = 3


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
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise BackendError("--backend dask needs Dask: pip install 'zsim[dask]'") from None
    with ExitStack() as stack:
        if scheduler:
            try:
                client = stack.enter_context(Client(scheduler, timeout="20s"))
            except OSError as error:
                raise BackendError(f"cannot reach Dask scheduler {scheduler}: {error}") from None
        else:
            workers = jobs if jobs > 0 else None
            cluster = stack.enter_context(LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=True,
                dashboard_address=None))
            client = stack.enter_context(Client(cluster))
        stack.enter_context(parallel_config(backend="dask", n_jobs=-1))
        yield Pool(sum(client.nthreads().values()), _play_on_dask)


def stop_workers() -> None:
    """Stop the loky worker processes that a run leaves for the next run of this process, and
    wait until they exit (so that, for one, their CPU time is counted as this process's
    children's). Asking loky for its executor any other way would first resize it to all cores,
    starting worker processes only to stop them."""
    get_reusable_executor(reuse=True).shutdown(wait=True)


def _play_here_and_beside(context: RunContext, out: Path, pending: list[Chunk],
                          workers: int) -> Iterator[ChunkResult]:
    """Play ``pending`` in this process and in ``workers`` loky processes, each taking the next
    chunk when it is free. Ctrl-C, or a worker that dies, stops the workers at once; the chunks
    already on disk stay there for ``--resume``."""
    queue = deque(pending)
    running: set[Future[ChunkResult]] = set()
    executor = get_reusable_executor(max_workers=workers) if workers and pending else None
    try:
        while queue or running:
            finished = {future for future in running if future.done()}
            running -= finished
            for future in finished:
                yield future.result()
            while executor and queue and len(running) < workers * _IN_FLIGHT_PER_WORKER:
                running.add(executor.submit(play_to_disk, context, out, *queue.popleft()))
            if queue:
                yield play_to_disk(context, out, *queue.popleft())
            elif running and not finished:
                wait(running, return_when=FIRST_COMPLETED)
    except BaseException:
        if executor:
            executor.shutdown(wait=False, kill_workers=True)
        raise


def _play_on_dask(context: RunContext, out: Path, pending: list[Chunk]) -> Iterator[ChunkResult]:
    """Results as they finish; joblib dispatches only a few chunks ahead, so neither the
    pending tasks nor the results pile up in memory."""
    parallel = Parallel(return_as="generator_unordered", batch_size=1, pre_dispatch="2*n_jobs")
    for chunk in parallel(delayed(play_chunk)(context, index, start, stop)
                          for index, start, stop in pending):
        chunkfile.write(out, chunk.index, chunk.files)
        yield chunk
