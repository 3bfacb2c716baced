"""Where the chunks run: worker processes on this machine, or a Dask cluster.

Either way ``Pool.play`` hands back each chunk's counts once the chunk is on disk
(``zsim.runner.chunkfile``), in the order the chunks finish.

``local`` (the default) plays on ``jobs`` worker processes that the run's process starts and
watches (``zsim.runner.processes``): it plays no game itself, so that no strategy can keep it
from stopping at Ctrl-C or from ending a game over its time limit. The workers write their
chunk files themselves, so what comes back is a few counts.

On Dask, ``joblib.Parallel`` with the Dask backend sends the chunks to the cluster, whose
workers need not share a disk with this process: their results carry the chunk's bytes, and
this process writes them. There the time limits are the watchdog's alone (a Dask worker is not
the runner's to kill). Dask is optional (``pip install zsim[dask]``) and imported only when
asked for.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from cloudpickle import dumps
from joblib import effective_n_jobs

from zsim.errors import UserError
from zsim.runner import processes

if TYPE_CHECKING:
    from zsim.runner.worker import ChunkResult, RunContext

Chunk = tuple[int, int, int]  # index, first game, end
LOCAL = "local"


class BackendError(UserError, RuntimeError):
    """The requested backend cannot be used (Dask missing, scheduler unreachable)."""


@dataclass(frozen=True)
class Pool:
    """The processes that play a run's chunks: ``size`` of them for run.json, and how."""

    size: int
    play: Callable[[RunContext, Path, list[Chunk]], Iterator[ChunkResult]]


@contextmanager
def using(name: str, jobs: int, scheduler: str | None = None) -> Iterator[Pool]:
    """The pool of backend ``name``.

    local: ``jobs`` worker processes (negative counts back from all cores, as in joblib).
    dask: a Client on ``scheduler`` when given, whose workers decide the parallelism;
    otherwise a LocalCluster of ``jobs`` single-threaded worker processes (the engine is pure
    Python, so threads would share one GIL).
    """
    if name == LOCAL:
        size = workers(name, jobs)
        assert size is not None
        yield Pool(size, partial(processes.play, workers=size))
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
        yield Pool(sum(client.nthreads().values()), partial(_play_on_dask, client))


def workers(name: str, jobs: int, scheduler: str | None = None) -> int | None:
    """The processes that ``using`` gives a run, or None where a Dask scheduler's workers
    decide it."""
    if name == LOCAL:
        return int(effective_n_jobs(jobs))
    return jobs if jobs > 0 and not scheduler else None


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


def pickles_lineup(backend: str) -> bool:
    """Whether the run's workers get the lineup pickled: Dask's always, this machine's only
    where they do not start as forks of the run's process."""
    return backend != LOCAL or processes.START_METHOD != "fork"


def pickling_error(obj: object) -> Exception | None:
    """What stops the workers' pickler (cloudpickle) from pickling ``obj``, if anything. Any
    exception can come out of an object's own pickling code, so any is reported."""
    try:
        dumps(obj)
    except Exception as error:
        return error
    return None


def _play_on_dask(client: Any, context: RunContext, out: Path, pending: list[Chunk]
                  ) -> Iterator[ChunkResult]:
    """Results as they finish, a few chunks in flight per Dask thread, so that neither the
    tasks nor the results pile up in memory. Every chunk is a task of the cluster, never played
    in this process (joblib would play them here with one worker thread). The run's context
    goes pickled by value (cloudpickle), so that a bot defined in a file of this machine reaches
    workers that cannot import it; a task hands back its counts or its error as text."""
    from distributed import as_completed

    from zsim.runner import chunkfile, processes, worker

    shipped = client.scatter(dumps(context), broadcast=True)
    window = max(2, 2 * sum(client.nthreads().values()))
    queue = iter(pending)

    def submit(chunk: Chunk) -> Any:
        return client.submit(worker.play_shipped, shipped, *chunk, pure=False)

    running = as_completed([submit(chunk) for chunk in itertools.islice(queue, window)])
    for future in running:
        what, value = future.result()
        if what != "done":
            raise processes.WorkerError(f"a Dask worker failed: {value}")
        chunkfile.write(out, value.label, value.files)
        yield value
        following = next(queue, None)
        if following is not None:
            running.add(submit(following))
