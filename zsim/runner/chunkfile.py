"""One finished chunk on disk: its tables as Arrow IPC streams, and its failure records.

A run keeps each finished chunk in ``chunks/`` as one file, written to a temporary name, flushed
to the disk and renamed into place: a chunk is on disk whole or not at all, so a crash can only
lose the chunks in flight. One file rather than one per table, since creating a file costs more
than writing a chunk's bytes. Worker processes on the run's machine write their chunks
themselves, so this module stays light: json, hashlib, os and pyarrow's buffers, nothing of
Parquet.

A file says what it holds (``Label``: the run id, the chunk's games and a digest of their
seeds) and carries a SHA-256 of everything after it, so that ``--resume`` adopts only chunks
that are whole and belong to the run it finishes (``check``).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa

CHUNKS = "chunks"
_FINISHED = re.compile(r"chunk-(\d+)\.bin")
_MAGIC = b"ZSIMCHK2"
_DIGEST = hashlib.sha256().digest_size
_HEAD = len(_MAGIC) + _DIGEST + 8  # magic, digest of the rest, length of the JSON header


class ChunkDamaged(ValueError):
    """A chunk file that cannot be trusted: cut short, altered, or of another format."""


@dataclass(frozen=True)
class Label:
    """What a chunk file holds: games ``start..stop-1`` of run ``run_id``, with these seeds."""

    run_id: str
    index: int
    start: int
    stop: int
    seeds: str  # seeds_digest of the games' seeds

    @property
    def games(self) -> int:
        return self.stop - self.start


def seeds_digest(seeds: Iterable[int]) -> str:
    """A short digest of a chunk's game seeds, in game order."""
    return hashlib.sha256(",".join(map(str, seeds)).encode()).hexdigest()[:16]


def temporary(path: Path) -> Path:
    """The hidden name beside ``path`` that a file is written under before it is renamed to
    ``path``."""
    return path.with_name(f".{path.name}.tmp")


def atomic_write(path: Path, data: bytes | Iterable[bytes]) -> None:
    """Write to a temporary file beside ``path``, flush it to the disk, rename it into place
    and flush the directory, so that after a crash ``path`` holds the old bytes or the new ones.
    A failed write (a full disk) leaves no temporary file behind."""
    tmp = temporary(path)
    try:
        with open(tmp, "wb") as handle:
            for piece in [data] if isinstance(data, bytes) else data:
                handle.write(piece)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException as error:
        tmp.unlink(missing_ok=True)
        if isinstance(error, OSError) and error.filename is None:
            error.filename = str(path)  # a failed write does not say where it went
        raise
    sync_dir(path.parent)


def sync_dir(folder: Path) -> None:
    """Flush a directory's entries (the renames into it) to the disk, where the system allows."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:  # some file systems cannot sync a directory; the rename still happened
        pass
    finally:
        os.close(fd)


def path(out: Path, index: int) -> Path:
    return out / CHUNKS / f"chunk-{index:06d}.bin"


def write(out: Path, label: Label, parts: Mapping[str, bytes]) -> None:
    """The magic, the SHA-256 of the rest, the length of a JSON header (the label and where each
    part lies), the header, and the parts one after another."""
    spans, at = {}, 0
    for name, data in parts.items():
        spans[name] = [at, at + len(data)]
        at += len(data)
    header = json.dumps({"run_id": label.run_id, "index": label.index,
                         "games": [label.start, label.stop], "seeds": label.seeds,
                         "parts": spans}).encode()
    body = [len(header).to_bytes(8, "little"), header, *parts.values()]
    digest = hashlib.sha256()
    for piece in body:
        digest.update(piece)
    atomic_write(path(out, label.index), [_MAGIC, digest.digest(), *body])


def check(file: Path) -> Label:
    """The label of a chunk file that is whole; ``ChunkDamaged`` says what is wrong otherwise."""
    try:
        data = file.read_bytes()
    except OSError as error:
        raise ChunkDamaged(f"cannot be read ({error.strerror})") from None
    if len(data) < _HEAD:
        raise ChunkDamaged("is empty or cut short")
    if not data.startswith(_MAGIC):
        raise ChunkDamaged("is not a chunk file of this version of zsim")
    if hashlib.sha256(memoryview(data)[len(_MAGIC) + _DIGEST:]).digest() != \
            data[len(_MAGIC):len(_MAGIC) + _DIGEST]:
        raise ChunkDamaged("fails its checksum (cut short or altered)")
    header = _header(data)
    try:
        start, stop = header["games"]
        return Label(run_id=str(header["run_id"]), index=int(header["index"]), start=int(start),
                     stop=int(stop), seeds=str(header["seeds"]))
    except (KeyError, TypeError, ValueError):
        raise ChunkDamaged("has a header without its run id, games or seeds") from None


def _header(data: bytes) -> dict:
    size = int.from_bytes(data[len(_MAGIC) + _DIGEST:_HEAD], "little")
    try:
        header = json.loads(data[_HEAD:_HEAD + size])
    except ValueError:
        raise ChunkDamaged("has an unreadable header") from None
    if not isinstance(header, dict):
        raise ChunkDamaged("has an unreadable header")
    return header


def read_parts(file: Path, names: Iterable[str] | None = None) -> dict[str, pa.Buffer]:
    """The named parts of a chunk file (all of them by default), each read on its own.

    The merging keeps a row group's worth of a table's chunks in memory, hundreds of chunks
    for a small table. A part read alone costs its own bytes; a slice of a memory-mapped file
    would keep the pages of the whole file resident, so that memory grew with the run.
    """
    with open(file, "rb") as handle:
        head = handle.read(_HEAD)
        size = int.from_bytes(head[len(_MAGIC) + _DIGEST:], "little")
        spans = json.loads(handle.read(size))["parts"]
        parts = {}
        for name in spans if names is None else names:
            start, stop = spans[name]
            handle.seek(_HEAD + size + start)
            parts[name] = pa.py_buffer(handle.read(stop - start))
    return parts


def finished(out: Path) -> set[int]:
    """Indices of the chunk files on disk (checked or not)."""
    folder = out / CHUNKS
    if not folder.is_dir():
        return set()
    return {int(m.group(1)) for p in folder.iterdir() if (m := _FINISHED.fullmatch(p.name))}
