"""Where the chunks run: joblib's loky processes on this machine, or a Dask cluster.

Both go through ``joblib.Parallel`` so the runner has one code path; only the backend set up
here differs. Dask is optional (``pip install zsim[dask]``) and imported only when asked for.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

from joblib import effective_n_jobs, parallel_config


class BackendError(RuntimeError):
    """The requested backend cannot be used (Dask missing, scheduler unreachable)."""


@contextmanager
def using(name: str, jobs: int, scheduler: str | None = None) -> Iterator[int]:
    """Configure joblib for ``name`` (``Parallel()`` then picks it up); yield the worker count.

    loky: ``jobs`` worker processes (negative counts back from all cores; 1 runs in-process).
    dask: a Client on ``scheduler`` when given, whose workers decide the parallelism; otherwise
    a LocalCluster of ``jobs`` single-threaded worker processes (the engine is pure Python, so
    threads would share one GIL).
    """
    if name == "loky":
        with parallel_config(backend="loky", n_jobs=jobs):
            yield effective_n_jobs()
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
        yield sum(client.nthreads().values())
