"""The final tables merged from the chunks while a run plays (``zsim.runner.merging``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from zsim.runner import chunkfile, merging
from zsim.runner.columns import TABLES, conform, unified_schema
from zsim.runner.worker import _ipc

BASE = unified_schema("games", [])


def games(first: int, count: int, **extra: list[Any]) -> pa.Table:
    """A games table of ``count`` rows from game ``first``, with ``extra`` columns."""
    columns = {"run_id": ["r"] * count, "game": list(range(first, first + count)),
               "seed": list(range(count)), "n_players": [2] * count,
               "failed": [False] * count, **extra}
    return pa.table(columns)


def write_chunk(out: Path, index: int, table: pa.Table, failures: bytes = b"") -> None:
    parts = {"games": _ipc(table)}
    if failures:
        parts["failures"] = failures
    label = chunkfile.Label("r", index, index * 10, index * 10 + table.num_rows, "0" * 16)
    chunkfile.write(out, label, parts)


@pytest.fixture
def out(tmp_path: Path) -> Path:
    (tmp_path / chunkfile.CHUNKS).mkdir()
    return tmp_path


# Chunk 2 brings a counter and turns a column of nulls into strings: the file begun with the
# first chunks' columns is begun again.
CHUNKS = [
    games(0, 3, n_walls=[1, 2, 3], tile_1=pa.nulls(3)),
    games(3, 2, n_walls=[0, 5], tile_1=pa.nulls(2)),
    games(5, 4, n_walls=[1, 1, 1, 1], n_ships=[2, 0, 0, 7], tile_1=["a", None, "b", "c"]),
    games(9, 1),
]


def expected_games() -> pd.DataFrame:
    schema = unified_schema("games", [chunk.schema for chunk in CHUNKS])
    return pa.concat_tables([conform(chunk, schema) for chunk in CHUNKS]).to_pandas()


@pytest.mark.parametrize("order", [[0, 1, 2, 3], [3, 1, 2, 0], [2, 0, 3, 1]])
def test_chunks_offered_in_any_order_merge_in_game_order_with_every_column(out, order,
                                                                          monkeypatch):
    begun: list[list[str]] = []
    real = merging._Table._begin_again

    def begin_again(table: Any, schema: pa.Schema) -> None:
        begun.append(schema.names[len(BASE):])
        real(table, schema)

    monkeypatch.setattr(merging._Table, "_begin_again", begin_again)
    for index, chunk in enumerate(CHUNKS):
        write_chunk(out, index, chunk, failures=f'{{"game": {index}}}\n'.encode())
    seen: list[tuple[str, int]] = []
    merger = merging.Merger(out, range(len(CHUNKS)),
                            observe=lambda name, table: seen.append((name, table.num_rows)))
    for index in order:
        merger.offer(index)
    merger.finish()
    merged = pd.read_parquet(out / "games.parquet")
    pd.testing.assert_frame_equal(merged, expected_games())
    assert merged["n_ships"].tolist() == [0, 0, 0, 0, 0, 2, 0, 0, 7, 0]  # filled with 0
    assert pq.read_table(out / "games.parquet").column("tile_1").to_pylist() == [
        None, None, None, None, None, "a", None, "b", "c", None]
    # each chunk observed once, in game order, though the file was begun twice
    assert seen == [("games", 3), ("games", 2), ("games", 4), ("games", 1)]
    assert (out / "failures.jsonl").read_text() == "".join(
        f'{{"game": {index}}}\n' for index in range(len(CHUNKS)))
    for name in TABLES:  # a table no chunk has rows of is a file of its columns
        if name != "games":
            assert pq.read_table(out / f"{name}.parquet").schema == unified_schema(name, [])
    assert sorted(p.name for p in out.glob(".*")) == []
    # begun with the first chunk's columns, and again at the third
    assert begun == [["n_walls", "tile_1"], ["n_ships", "n_walls", "tile_1"]]


def test_a_small_row_group_size_changes_the_groups_not_the_rows(out, monkeypatch):
    monkeypatch.setattr(merging, "ROW_GROUP_BYTES", 1)
    for index, chunk in enumerate(CHUNKS):
        write_chunk(out, index, chunk)
    merging.consolidate(out, list(range(len(CHUNKS))))
    assert pq.ParquetFile(out / "games.parquet").num_row_groups == len(CHUNKS)
    pd.testing.assert_frame_equal(pd.read_parquet(out / "games.parquet"), expected_games())


def test_a_failed_write_stops_the_run_at_its_next_chunk_and_leaves_no_table(out, monkeypatch):
    monkeypatch.setattr(merging, "ROW_GROUP_BYTES", 1)  # every chunk written at once

    def full(self: Any, table: pa.Table, *args: Any, **kwargs: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(pq.ParquetWriter, "write_table", full)
    for index, chunk in enumerate(CHUNKS):
        write_chunk(out, index, chunk)
    merger = merging.Merger(out, range(len(CHUNKS)))
    merger.offer(0)
    merger._thread.join(timeout=30)  # the merging stopped at its first write
    with pytest.raises(OSError, match="No space left"):
        merger.offer(1)
    with pytest.raises(OSError, match="No space left"):
        merger.finish()
    assert sorted(p.name for p in out.iterdir()) == [chunkfile.CHUNKS]


def test_an_aborted_merging_leaves_no_file_and_finish_refuses_missing_chunks(out):
    for index, chunk in enumerate(CHUNKS):
        write_chunk(out, index, chunk)
    merger = merging.Merger(out, range(len(CHUNKS)))
    merger.offer(0)
    merger.offer(1)
    with pytest.raises(RuntimeError, match=r"chunks \[2, 3\] were never offered"):
        merger.finish()
    merger.abort()
    assert sorted(p.name for p in out.iterdir()) == [chunkfile.CHUNKS]


def test_a_fork_waits_for_the_chunk_being_merged(out, monkeypatch):
    """A worker forked while the merging is inside a chunk would inherit the locks it holds;
    the fork waits until the chunk is merged."""
    import os
    import threading

    inside, go_on = threading.Event(), threading.Event()
    real = merging._Table.add

    def add(table: Any, *args: Any) -> None:
        inside.set()
        go_on.wait(30)
        real(table, *args)

    monkeypatch.setattr(merging._Table, "add", add)
    write_chunk(out, 0, CHUNKS[0])
    merger = merging.Merger(out, [0])
    merger.offer(0)
    assert inside.wait(30)
    forked: list[int] = []

    def fork() -> None:
        pid = os.fork()
        if pid == 0:
            os._exit(0)
        os.waitpid(pid, 0)
        forked.append(pid)

    forking = threading.Thread(target=fork)
    forking.start()
    forking.join(0.5)
    assert forking.is_alive() and not forked  # held back while the chunk is merged
    go_on.set()
    forking.join(30)
    assert forked
    merger.finish()
    assert pq.read_table(out / "games.parquet").num_rows == CHUNKS[0].num_rows
