"""The run directory on disk: run.json, and at the end the consolidated tables.

While a run goes, each finished chunk lands in ``chunks/`` (``zsim.runner.chunkfile``). At the
end the chunks are consolidated one at a time into single Parquet files (flat memory) that
``pandas.read_parquet`` reads directly; ``chunks/`` is removed once run.json says the run is
complete.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from zsim.runner import chunkfile, lock
from zsim.runner.chunkfile import CHUNKS, atomic_write, sync_dir
from zsim.runner.columns import TABLES, conform, unified_schema

RUN_JSON = "run.json"
# The layout of run.json and of the tables beside it; one that reads another refuses it. Runs
# written before run.json recorded it have this layout.
RUN_FORMAT = 1
FAILURES = "failures.jsonl"
# Chunks are merged into row groups of about this size: large enough for fast writes, good
# compression and little file metadata, small enough to keep consolidation's memory flat.
ROW_GROUP_BYTES = 32 * 1024 * 1024
_REMOVERS = 8  # threads removing the chunk files


class OutputError(OSError):
    """The output directory cannot take a new run."""


def claim_out(out: Path) -> lock.RunLock:
    """Lock a new or empty output directory for a run (``zsim.runner.lock``); refuse a
    non-empty or unwritable one before any game runs."""
    if out.exists() and not out.is_dir():
        raise OutputError(f"--out {out}: exists and is not a directory")
    not_empty = OutputError(f"--out {out}: directory is not empty; choose a new one, or finish "
                            f"an interrupted run with --resume {out}")
    if out.is_dir() and any(out.iterdir()):
        raise not_empty
    try:
        out.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=out):
            pass
        held = lock.create(out)
    except FileExistsError:  # another run took it since the check above
        raise not_empty from None
    except OSError as error:
        raise OutputError(f"--out {out}: cannot write there: {error.strerror}") from None
    if any(path.name != lock.LOCK for path in out.iterdir()):
        held.release()
        raise not_empty
    return held


def write_json(path: Path, data: dict[str, Any]) -> None:
    atomic_write(path, (json.dumps(data, indent=2, default=str) + "\n").encode())


def read_json(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def _streams(out: Path, name: str, indices: list[int]) -> Iterator[pa.ipc.RecordBatchStreamReader]:
    for index in indices:
        yield pa.ipc.open_stream(chunkfile.read_parts(chunkfile.path(out, index), [name])[name])


def consolidate(out: Path, indices: list[int],
                observe: Callable[[str, pa.Table], None] | None = None,
                recorded: tuple[str, ...] = ()) -> None:
    """Merge the chunks, in game order, into the final tables (``chunks/`` stays); ``observe``,
    if given, is handed each chunk's table with the table's name as it is merged (from the
    merging threads), so that the summary needs no second pass over the files.

    ``recorded`` names the extra tables the run records (``zsim.runner.recorders``), merged
    like the result tables. Two tables are merged at a time, the players table (the largest)
    first: reading Arrow and writing Parquet run outside Python's lock, so the second core
    shortens this last step of a run, when nothing else runs. Memory stays flat at two row
    groups. Every table is written under a temporary name and flushed to the disk, and only
    once all are written are they renamed into place: a failure (a full disk) leaves no final
    table of this run, only the chunks, for ``--resume``.
    """
    names = (*TABLES, *recorded)
    schemas: dict[str, list[pa.Schema]] = {name: [] for name in names}
    holding: dict[str, list[int]] = {name: [] for name in names}  # the chunks with that part
    failures = []
    for index in indices:
        for name, part in chunkfile.read_parts(chunkfile.path(out, index)).items():
            if name in schemas:
                holding[name].append(index)
                schema = pa.ipc.open_stream(part).schema
                if not any(schema.equals(seen) for seen in schemas[name]):
                    schemas[name].append(schema)  # chunks mostly repeat one schema
            else:
                failures.append(part)
    finals = [*(out / f"{name}.parquet" for name in names), out / FAILURES]
    temporary = {final: final.with_name(f".{final.name}.tmp") for final in finals}
    # Flushing a file to the disk is a wait, not work: each file is flushed by a thread of its
    # own as soon as it is written, so that the waits overlap each other and the merging.
    flushing = ThreadPoolExecutor(max_workers=len(finals))
    flushed: list[Future[None]] = []

    def written(path: Path) -> None:
        flushed.append(flushing.submit(_sync_file, path))

    try:
        pool = ThreadPoolExecutor(max_workers=2)
        try:
            with open(temporary[out / FAILURES], "wb") as merged:
                for part in failures:
                    merged.write(part)
            written(temporary[out / FAILURES])
            for done in [pool.submit(_merge, out, name, unified_schema(name, schemas[name]),
                                     holding[name], temporary[out / f"{name}.parquet"], observe,
                                     written)
                         for name in names]:
                done.result()
            for flush in flushed:
                flush.result()
        finally:  # on an error or Ctrl-C too, no table may be written after the clean-up below
            pool.shutdown(wait=True, cancel_futures=True)
            flushing.shutdown(wait=True)
    except BaseException as error:
        for tmp in temporary.values():
            tmp.unlink(missing_ok=True)
        if isinstance(error, OSError) and error.filename is None:
            error.filename = str(out)
        raise
    for final, tmp in temporary.items():
        os.replace(tmp, final)
    sync_dir(out)


def _sync_file(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _merge(out: Path, name: str, schema: pa.Schema, indices: list[int], tmp: Path,
           observe: Callable[[str, pa.Table], None] | None,
           written: Callable[[Path], None]) -> None:
    """Write the table ``name`` of the chunks ``indices`` (those that have it; none gives a file
    of the table's columns without rows) to ``tmp``, and hand the file to ``written`` to be
    flushed to the disk."""
    with pq.ParquetWriter(tmp, schema) as parquet:
        group: list[pa.Table] = []
        size = 0
        for stream in _streams(out, name, indices):
            group.append(conform(stream.read_all(), schema))
            if observe is not None:
                observe(name, group[-1])
            size += group[-1].nbytes
            if size >= ROW_GROUP_BYTES:
                parquet.write_table(pa.concat_tables(group))
                group, size = [], 0
        if group:
            parquet.write_table(pa.concat_tables(group))
    written(tmp)


def drop_chunks(out: Path) -> None:
    """Remove ``chunks/`` once run.json records the run as complete. Each removal of a file
    waits for the disk, so a few threads remove them together and the waits overlap (three
    to eight times faster than one after the other on a busy disk)."""
    folder = out / CHUNKS
    try:
        files = list(folder.iterdir())
    except OSError:
        return
    if files:
        with ThreadPoolExecutor(max_workers=min(len(files), _REMOVERS)) as pool:
            list(pool.map(_remove, files))
    shutil.rmtree(folder, ignore_errors=True)  # the folder, and anything but a file in it


def _remove(path: Path) -> None:
    with contextlib.suppress(OSError):  # a directory, or gone already: rmtree sees to it
        path.unlink()
