"""The run directory on disk: chunk files while the run goes, consolidated tables at the end.

While a run goes, each finished chunk lands in ``chunks/`` as Arrow IPC files, each written to
a temporary name and renamed into place; the chunk's ``games`` file is renamed last and marks it
finished, so a crash can only lose the chunks in flight. At the end the chunks are consolidated
one at a time into single Parquet files (flat memory) that ``pandas.read_parquet`` reads
directly; ``chunks/`` is removed once run.json says the run is complete.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from zsim.runner import tables
from zsim.runner.worker import ChunkResult

CHUNKS = "chunks"
RUN_JSON = "run.json"
FAILURES = "failures.jsonl"
_FINISHED = re.compile(r"games-(\d+)\.arrow")
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
    (out / CHUNKS).mkdir()


def atomic_write(path: Path, data: bytes) -> None:
    """Write to a temporary file beside ``path`` and rename it into place."""
    tmp = path.with_name(f".{path.name}.tmp")
    with open(tmp, "wb") as handle:
        handle.write(data)
    os.replace(tmp, path)


def write_json(path: Path, data: dict[str, Any]) -> None:
    atomic_write(path, (json.dumps(data, indent=2, default=str) + "\n").encode())


def read_json(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def _chunk_path(out: Path, name: str, index: int) -> Path:
    suffix = "jsonl" if name == "failures" else "arrow"
    return out / CHUNKS / f"{name}-{index:06d}.{suffix}"


def write_chunk(out: Path, chunk: ChunkResult) -> None:
    for name, data in sorted(chunk.files.items(), key=lambda item: item[0] == "games"):
        atomic_write(_chunk_path(out, name, chunk.index), data)


def finished_chunks(out: Path) -> set[int]:
    """Indices of the chunks whose files are all in place."""
    folder = out / CHUNKS
    if not folder.is_dir():
        return set()
    return {int(m.group(1)) for p in folder.iterdir() if (m := _FINISHED.fullmatch(p.name))}


def _read_chunk(path: Path) -> pa.Table:
    with pa.memory_map(str(path)) as source:
        return pa.ipc.open_stream(source).read_all()


def _chunk_files(out: Path, name: str, indices: list[int]) -> Iterator[Path]:
    for index in indices:
        path = _chunk_path(out, name, index)
        if path.exists():
            yield path


def consolidate(out: Path, indices: list[int]) -> None:
    """Merge the chunks, in game order, into the final tables (``chunks/`` stays)."""
    for name in tables.TABLES:
        paths = list(_chunk_files(out, name, indices))
        schemas = []
        for path in paths:
            with pa.memory_map(str(path)) as source:
                schemas.append(pa.ipc.open_stream(source).schema)
        schema = tables.unified_schema(name, schemas)
        final = out / f"{name}.parquet"
        tmp = final.with_name(f".{final.name}.tmp")
        with pq.ParquetWriter(tmp, schema) as parquet:
            group: list[pa.Table] = []
            size = 0
            for path in paths:
                group.append(tables.conform(_read_chunk(path), schema))
                size += group[-1].nbytes
                if size >= ROW_GROUP_BYTES:
                    parquet.write_table(pa.concat_tables(group))
                    group, size = [], 0
            if group:
                parquet.write_table(pa.concat_tables(group))
        os.replace(tmp, final)
    tmp = out / f".{FAILURES}.tmp"
    with open(tmp, "wb") as merged:
        for path in _chunk_files(out, "failures", indices):
            merged.write(path.read_bytes())
    os.replace(tmp, out / FAILURES)


def drop_chunks(out: Path) -> None:
    """Remove ``chunks/`` once run.json records the run as complete."""
    shutil.rmtree(out / CHUNKS, ignore_errors=True)
