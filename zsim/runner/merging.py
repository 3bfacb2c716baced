"""The final tables of a run, merged from its chunks while the run still plays.

Each finished chunk is on disk (``zsim.runner.chunkfile``) as soon as it is reported. A thread of
the run's process merges the chunks, in game order, into one Parquet file per table under a
temporary name, as they arrive: on a machine with a core to spare (a run with fewer jobs than
cores, or the last chunks of any run) the merging costs the run no time, where merging them all
at the end made every run wait for it.

A table's columns are only known once every chunk is seen: a rare counter or a setup column may
first appear in a late chunk. A table file is begun with the columns of the chunks merged so
far; a chunk that brings a new column (or a wider type) begins it again with the wider
columns, from the chunks merged so far, which are still on disk. Most runs see every column in
their first chunks, so a table is rarely begun twice, and never more than its chunks' reading
and writing again.

Memory stays flat: a table's rows are written as a row group once they hold ``ROW_GROUP_BYTES``,
and when the tables together hold twice that, the largest is written.

Only ``finish`` makes the tables final: every file flushed to the disk, then all renamed into
place together. ``abort`` (or a failure) removes the temporary files, so a run stopped or
failed halfway has no table of its own on disk, only its chunks, for ``--resume``.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from zsim.runner import chunkfile
from zsim.runner.chunkfile import sync_dir, temporary
from zsim.runner.columns import TABLES, conform, unified_schema

FAILURES = "failures.jsonl"
# Chunks are merged into row groups of about this size: large enough for fast writes, good
# compression and little file metadata, small enough to keep the merging's memory flat.
ROW_GROUP_BYTES = 32 * 1024 * 1024

Observer = Callable[[str, pa.Table], None]

# The run's process forks its workers, sometimes while the run plays (a worker in place of one
# killed over a time limit). A fork copies every lock as it is at that instant, and one that the
# merging thread held then (the memory allocator's, pyarrow's) would stay held forever in the
# child. So a fork waits until the merging is between two chunks, where it holds none.
_BETWEEN_CHUNKS = threading.Lock()
os.register_at_fork(before=_BETWEEN_CHUNKS.acquire, after_in_parent=_BETWEEN_CHUNKS.release,
                    after_in_child=_BETWEEN_CHUNKS.release)


class Merger:
    """Merge the chunks ``indices`` of the run in ``out`` (in that order) as each is
    ``offer``-ed, into the result tables and the ``recorded`` extra tables; ``observe``, if
    given, is handed each chunk's table with the table's name once, as it is merged (from the
    merging thread), so that the summary needs no pass of its own over the files."""

    def __init__(self, out: Path, indices: Iterable[int], recorded: tuple[str, ...] = (),
                 observe: Observer | None = None) -> None:
        self.out = out
        self._order = list(indices)
        self._tables = {name: _Table(out, name) for name in (*TABLES, *recorded)}
        self._failures: list[pa.Buffer] = []  # the chunks' failure records, in game order
        self._observe = observe
        self._ready: set[int] = set()
        self._changed = threading.Condition()
        self._stopping = False
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._merge_all, name="zsim-merger", daemon=True)
        self._thread.start()

    @property
    def files(self) -> list[Path]:
        """The final files: one per table, and the failure records."""
        return [*(self.out / f"{name}.parquet" for name in self._tables), self.out / FAILURES]

    def offer(self, index: int) -> None:
        """Chunk ``index`` is on disk. Raises what stopped the merging, if anything did (a full
        disk), so that the run stops at once rather than after its last game."""
        if self._error is not None:
            raise self._error
        with self._changed:
            self._ready.add(index)
            self._changed.notify()

    def finish(self) -> None:
        """Once every chunk is offered: wait for the merging, flush every file to the disk and
        rename them all into place. On a failure no final file of the run is left."""
        missing = set(self._order) - self._ready
        if missing and self._error is None:
            raise RuntimeError(f"chunks {sorted(missing)} were never offered to the merging")
        try:
            self._thread.join()
            if self._error is not None:
                raise self._error
            staged = {final: temporary(final) for final in self.files}
            with open(staged[self.out / FAILURES], "wb") as merged:
                for part in self._failures:
                    merged.write(part)
            # Flushing a file to the disk is a wait, not work: the waits overlap in threads.
            with ThreadPoolExecutor(max_workers=len(staged)) as flushing:
                list(flushing.map(_sync_file, staged.values()))
        except BaseException as error:
            self.abort()
            if isinstance(error, OSError) and error.filename is None:
                error.filename = str(self.out)
            raise
        for final, tmp in staged.items():
            os.replace(tmp, final)
        sync_dir(self.out)

    def abort(self) -> None:
        """Stop merging (after the chunk under way) and remove the temporary files."""
        with self._changed:
            self._stopping = True
            self._changed.notify()
        self._thread.join()
        for table in self._tables.values():
            table.discard()
        for final in self.files:
            temporary(final).unlink(missing_ok=True)

    def _merge_all(self) -> None:
        try:
            for index in self._order:
                with self._changed:
                    while index not in self._ready and not self._stopping:
                        self._changed.wait()
                    if self._stopping:
                        return
                with _BETWEEN_CHUNKS:
                    self._merge(index)
            # Encoding Parquet runs outside Python's lock: two tables at a time, the largest
            # first, shorten this last step, when the run's games are over.
            with _BETWEEN_CHUNKS, ThreadPoolExecutor(max_workers=2) as closing:
                list(closing.map(_Table.close, sorted(self._tables.values(),
                                                      key=lambda table: -table.size)))
        except BaseException as error:  # raised by offer and finish, in the run's thread
            self._error = error

    def _merge(self, index: int) -> None:
        for name, part in chunkfile.read_parts(chunkfile.path(self.out, index)).items():
            table = self._tables.get(name)
            if table is None:
                self._failures.append(part)
                continue
            table.add(index, pa.ipc.open_stream(part).read_all(), self._observe)
            held = sum(table.size for table in self._tables.values())
            if held >= 2 * ROW_GROUP_BYTES:
                max(self._tables.values(), key=lambda table: table.size).flush()


class _Table:
    """One table's file under its temporary name, and the rows not yet written to it."""

    def __init__(self, out: Path, name: str) -> None:
        self.out, self.name = out, name
        self.tmp = temporary(out / f"{name}.parquet")
        self.schema = unified_schema(name, [])
        self.merged: list[int] = []  # the chunks with rows of this table, merged so far
        self.group: list[pa.Table] = []
        self.size = 0
        self._writer: pq.ParquetWriter | None = None

    def add(self, index: int, table: pa.Table, observe: Observer | None) -> None:
        schema = unified_schema(self.name, [self.schema, table.schema])
        if not schema.equals(self.schema):
            self._begin_again(schema)
        conformed = conform(table, self.schema)
        if observe is not None:
            observe(self.name, conformed)
        self.merged.append(index)
        self._hold(conformed)

    def _begin_again(self, schema: pa.Schema) -> None:
        """The file with ``schema``'s columns, from the chunks merged so far."""
        self.discard()
        self.schema = schema
        for index in self.merged:
            part = chunkfile.read_parts(chunkfile.path(self.out, index), [self.name])[self.name]
            self._hold(conform(pa.ipc.open_stream(part).read_all(), schema))

    def _hold(self, table: pa.Table) -> None:
        self.group.append(table)
        self.size += table.nbytes
        if self.size >= ROW_GROUP_BYTES:
            self.flush()

    def flush(self) -> None:
        """Write the rows held as a row group."""
        if self.group:
            if self._writer is None:
                self._writer = pq.ParquetWriter(self.tmp, self.schema)
            self._writer.write_table(pa.concat_tables(self.group))
            self.group, self.size = [], 0

    def close(self) -> None:
        """Write the rest; a table without rows is a file of its columns."""
        self.flush()
        if self._writer is None:
            self._writer = pq.ParquetWriter(self.tmp, self.schema)
        self._writer.close()

    def discard(self) -> None:
        """Drop the rows held and the file begun."""
        if self._writer is not None:
            with contextlib.suppress(OSError):  # a full disk: the file is removed anyway
                self._writer.close()
            self._writer = None
        self.tmp.unlink(missing_ok=True)
        self.group, self.size = [], 0


def consolidate(out: Path, indices: list[int], observe: Observer | None = None,
                recorded: tuple[str, ...] = ()) -> None:
    """Merge the chunks ``indices`` (all on disk) into the final tables at once (``chunks/``
    stays)."""
    merger = Merger(out, indices, recorded, observe)
    for index in indices:
        merger.offer(index)
    merger.finish()


def _sync_file(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
