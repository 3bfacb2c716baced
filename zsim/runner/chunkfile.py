"""One finished chunk on disk: its tables as Arrow IPC streams, and its failure records.

A run keeps each finished chunk in ``chunks/`` as one file, written to a temporary name and
renamed into place: a chunk is on disk whole or not at all, so a crash can only lose the chunks
in flight. One file rather than one per table, since creating a file costs more than writing a
chunk's bytes. Worker processes on the run's machine write their chunks themselves, so this
module stays light: json, os and pyarrow's buffers, nothing of Parquet.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

import pyarrow as pa

CHUNKS = "chunks"
_FINISHED = re.compile(r"chunk-(\d+)\.bin")


def atomic_write(path: Path, data: bytes) -> None:
    """Write to a temporary file beside ``path`` and rename it into place."""
    tmp = path.with_name(f".{path.name}.tmp")
    with open(tmp, "wb") as handle:
        handle.write(data)
    os.replace(tmp, path)


def path(out: Path, index: int) -> Path:
    return out / CHUNKS / f"chunk-{index:06d}.bin"


def write(out: Path, index: int, parts: Mapping[str, bytes]) -> None:
    """The chunk's parts one after another, behind the length of a JSON index of where each
    lies and that index."""
    spans, at = {}, 0
    for name, data in parts.items():
        spans[name] = [at, at + len(data)]
        at += len(data)
    header = json.dumps(spans).encode()
    atomic_write(path(out, index),
                 b"".join([len(header).to_bytes(8, "little"), header, *parts.values()]))


def read_parts(file: Path, names: Iterable[str] | None = None) -> dict[str, pa.Buffer]:
    """The named parts of a chunk file (all of them by default), each read on its own.

    Consolidation keeps a row group's worth of a table's chunks in memory, hundreds of chunks
    for a small table. A part read alone costs its own bytes; a slice of a memory-mapped file
    would keep the pages of the whole file resident, so that memory grew with the run.
    """
    with open(file, "rb") as handle:
        size = int.from_bytes(handle.read(8), "little")
        spans = json.loads(handle.read(size))
        parts = {}
        for name in spans if names is None else names:
            start, stop = spans[name]
            handle.seek(8 + size + start)
            parts[name] = pa.py_buffer(handle.read(stop - start))
    return parts


def finished(out: Path) -> set[int]:
    """Indices of the chunks on disk."""
    folder = out / CHUNKS
    if not folder.is_dir():
        return set()
    return {int(m.group(1)) for p in folder.iterdir() if (m := _FINISHED.fullmatch(p.name))}
