"""The run directory on disk: run.json, and at the end the consolidated tables.

While a run goes, each finished chunk lands in ``chunks/`` (``zsim.runner.chunkfile``). At the
end the chunks are consolidated one at a time into single Parquet files (flat memory) that
``pandas.read_parquet`` reads directly; ``chunks/`` is removed once run.json says the run is
complete.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from zsim.runner import chunkfile, tables
from zsim.runner.chunkfile import CHUNKS, atomic_write

RUN_JSON = "run.json"
FAILURES = "failures.jsonl"
# Chunks are merged into row groups of about this size: large enough for fast writes, good
# compression and little file metadata, small enough to keep consolidation's memory flat.
ROW_GROUP_BYTES = 32 * 1024 * 1024


class OutputError(OSError):
    """The output directory cannot take a new run."""


def prepare_out(out: Path) -> None:
    """Refuse a non-empty or unwritable output directory before any game runs."""
    if out.exists() and not out.is_dir():
        raise OutputError(f"--out {out}: exists and is not a directory")
    if out.is_dir() and any(out.iterdir()):
        raise OutputError(f"--out {out}: directory is not empty; choose a new one, or finish "
                          f"an interrupted run with --resume {out}")
    try:
        out.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=out):
            pass
    except OSError as error:
        raise OutputError(f"--out {out}: cannot write there: {error.strerror}") from None


def write_json(path: Path, data: dict[str, Any]) -> None:
    atomic_write(path, (json.dumps(data, indent=2, default=str) + "\n").encode())


def read_json(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def _streams(out: Path, name: str, indices: list[int]) -> Iterator[pa.ipc.RecordBatchStreamReader]:
    for index in indices:
        yield pa.ipc.open_stream(chunkfile.read_parts(chunkfile.path(out, index), [name])[name])


def consolidate(out: Path, indices: list[int]) -> None:
    """Merge the chunks, in game order, into the final tables (``chunks/`` stays).

    Two tables are merged at a time, the players table (the largest) first: reading Arrow and
    writing Parquet run outside Python's lock, so the second core shortens this last step of a
    run, when nothing else runs. Memory stays flat at two row groups.
    """
    schemas: dict[str, list[pa.Schema]] = {name: [] for name in tables.TABLES}
    failures = []
    for index in indices:
        for name, part in chunkfile.read_parts(chunkfile.path(out, index)).items():
            if name in schemas:
                schema = pa.ipc.open_stream(part).schema
                if not any(schema.equals(seen) for seen in schemas[name]):
                    schemas[name].append(schema)  # chunks mostly repeat one schema
            else:
                failures.append(part)
    with ThreadPoolExecutor(max_workers=2) as pool:
        for done in [pool.submit(_merge, out, name, tables.unified_schema(name, schemas[name]),
                                 indices) for name in tables.TABLES]:
            done.result()
    tmp = out / f".{FAILURES}.tmp"
    with open(tmp, "wb") as merged:
        for part in failures:
            merged.write(part)
    os.replace(tmp, out / FAILURES)


def _merge(out: Path, name: str, schema: pa.Schema, indices: list[int]) -> None:
    final = out / f"{name}.parquet"
    tmp = final.with_name(f".{final.name}.tmp")
    with pq.ParquetWriter(tmp, schema) as parquet:
        group: list[pa.Table] = []
        size = 0
        for stream in _streams(out, name, indices):
            group.append(tables.conform(stream.read_all(), schema))
            size += group[-1].nbytes
            if size >= ROW_GROUP_BYTES:
                parquet.write_table(pa.concat_tables(group))
                group, size = [], 0
        if group:
            parquet.write_table(pa.concat_tables(group))
    os.replace(tmp, final)


def drop_chunks(out: Path) -> None:
    """Remove ``chunks/`` once run.json records the run as complete."""
    shutil.rmtree(out / CHUNKS, ignore_errors=True)
