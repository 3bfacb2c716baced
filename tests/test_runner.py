"""``zsim run`` / ``zsim replay``: reproducible batches, output tables, failures, resume."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import pickle
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
import numpy as np
import pandas as pd
import psutil
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

import zsim.cli.bench as bench
import zsim.runner.batch as batch
from zsim.cli import main
from zsim.cli.bench import Timing, _fastest
from zsim.decisions import Decision
from zsim.engine_build import ENGINE
from zsim.game import RECORD_FIELDS, Game
from zsim.rules.scoring import CATEGORIES
from zsim.runner import (
    DEFAULT_EXPERIMENT,
    Experiment,
    ExperimentError,
    Schedule,
    arrays,
    chunkfile,
    game_seed,
    load_experiment,
    merging,
    provenance,
    worker,
    writer,
)
from zsim.runner.batch import RunInterrupted, WorkerDied, _context, resume_run, start_run
from zsim.runner.boxfiles import load_for_run
from zsim.runner.columns import BASE, TABLES
from zsim.runner.summary import summarize
from zsim.state import NO_ONE
from zsim.stats import wilson_interval
from zsim.strategies import registry
from zsim.strategies.base import Strategy
from zsim.strategies.random_bot import RandomStrategy
from zsim.view import PlayerView

SMALL = Experiment(games=24, players=[4], strategies=["random"], seed=7, chunk_size=5, jobs=1)


class Boom(Strategy):
    """Raises at its first real decision."""

    name = "boom"

    def choose(self, view: PlayerView, decision: Decision) -> Any:
        raise RuntimeError("boom")


class Liar(Strategy):
    """Answers something that is never offered."""

    name = "liar"

    def choose(self, view: PlayerView, decision: Decision) -> Any:
        return "not an option"


def tables(out: Path) -> dict[str, pd.DataFrame]:
    """Every table of a run, without the timing columns that legitimately differ."""
    frames = {name: pd.read_parquet(out / f"{name}.parquet") for name in TABLES}
    frames["games"] = frames["games"].drop(columns=["duration_s"])
    return frames


def assert_same_tables(a: Path, b: Path) -> None:
    left, right = tables(a), tables(b)
    for name in TABLES:
        pd.testing.assert_frame_equal(left[name], right[name], obj=name)


# --- seeds and seating -------------------------------------------------------------------


def test_game_seeds_come_from_the_master_seed_and_index():
    assert game_seed(7, 3) == game_seed(7, 3)
    assert len({game_seed(7, i) for i in range(200)}) == 200
    assert game_seed(7, 3) != game_seed(8, 3)


def test_rotation_cycles_a_short_lineup_and_alternates_player_counts():
    schedule = Schedule(seed=1, players=(2, 4), lineup=("a", "b"), seats="rotate")
    plans = [schedule.plan(i) for i in range(4)]
    assert [p.strategies for p in plans] == [("a", "b"), ("a", "b", "a", "b"),
                                             ("b", "a"), ("b", "a", "b", "a")]


def test_a_long_lineup_rotates_who_sits_out_and_random_seats_permute():
    rotate = Schedule(seed=1, players=(2,), lineup=("a", "b", "c"), seats="rotate")
    assert [rotate.plan(i).strategies for i in range(3)] == [("a", "b"), ("b", "c"), ("c", "a")]
    random_seats = Schedule(seed=1, players=(4,), lineup=("a", "b", "c", "d"), seats="random")
    drawn = {random_seats.plan(i).strategies for i in range(20)}
    assert len(drawn) > 1 and all(sorted(s) == ["a", "b", "c", "d"] for s in drawn)
    assert random_seats.plan(5) == random_seats.plan(5)


# --- experiments -------------------------------------------------------------------------


def test_default_experiment_loads():
    experiment = load_experiment(DEFAULT_EXPERIMENT)
    assert experiment.name == "default" and experiment.games >= 1000


@pytest.mark.parametrize("text, message", [
    ("games: 0\n", "key 'games'"),
    ("players: [5]\n", "key 'players"),
    ("colour: red\n", "key 'colour'"),
    ("variants: {mausoleum: huge}\n", "key 'variants'"),
    ("seats: fixed\nplayers: [2]\nstrategies: [random, random, random]\n", "fixed"),
    ("games: 2\ngames: 3\n", "key 'games' is given twice (lines 1 and 2)"),
    ("seed: true\n", "key 'seed': expected a number, not true"),
    ("players: [2, false]\n", "key 'players': expected a number"),
    ("name: ../../escaped\n", "key 'name': '../../escaped' is not a plain name"),
    ("name: a/b\n", "key 'name': 'a/b' is not a plain name"),
])
def test_bad_experiment_files_name_the_file_and_key(tmp_path, text, message):
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    with pytest.raises(ExperimentError) as error:
        load_experiment(path)
    assert str(path) in str(error.value) and message in str(error.value)


@pytest.mark.parametrize("change, message", [
    ({"strategies": ["nobody"]}, r"key 'strategies'.*nobody"),
    ({"variants": {"board": "board9"}}, r"key 'variants'.*board9"),
])
def test_unknown_strategy_or_board_is_refused_before_any_game(tmp_path, change, message):
    with pytest.raises(ExperimentError, match=message):
        start_run(SMALL.with_overrides(**change), tmp_path / "run")
    assert not (tmp_path / "run").exists()


# --- tables ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def small_run(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("runs") / "small"
    start_run(SMALL, out)
    return out


def test_tables_have_a_row_per_player_game_wall_and_reward(small_run):
    t = tables(small_run)
    assert len(t["games"]) == 24 and not t["games"]["failed"].any()
    assert len(t["players"]) == 24 * 4
    assert list(t["players"]["game"].unique()) == list(range(24))
    for name in ("walls", "rewards"):
        assert len(t[name]) > 0 and t[name]["game"].isin(range(24)).all()
    assert t["players"].groupby("game")["win_share"].sum().round(9).eq(1).all()
    seeds = t["games"].set_index("game")["seed"]
    assert all(seeds[i] == game_seed(7, i) for i in range(24))
    assert {"unification_board", "wall_tile_1", "mausoleum_layout"} <= set(t["games"].columns)
    assert any(c.startswith("n_") for c in t["players"].columns)
    assert t["players"].groupby("game")["colour"].nunique().eq(4).all()  # one colour per seat
    assert not (small_run / "chunks").exists()


def test_each_row_of_the_long_tables_names_the_strategy_of_its_seat(tmp_path):
    mixed = SMALL.with_overrides(games=12, players=[2, 3], strategies=["random", "basic"])
    start_run(mixed, tmp_path / "run")
    t = tables(tmp_path / "run")
    seated = t["players"][["game", "seat", "strategy"]]
    assert seated["strategy"].nunique() == 2
    for name, fields in RECORD_FIELDS.items():
        assert set(fields) < set(t[name].columns) == set(BASE[name].names)  # no stray field
        rows = t[name].merge(seated, on=["game", "seat"], suffixes=("", "_seated"))
        assert len(rows) == len(t[name]) > 0
        assert (rows["strategy"] == rows["strategy_seated"]).all(), name


def test_tiles_table_has_a_row_per_tile_a_player_got(small_run):
    t = tables(small_run)
    tiles, players = t["tiles"], t["players"]
    assert set(tiles["kind"]) == {"palace", "governor", "emperor", "starting"}
    kept = players.merge(tiles[tiles["kind"] == "starting"], on=["game", "seat"],
                         suffixes=("", "_row"))
    assert len(kept) == len(players) and (kept["tile"] == kept["start_tile"]).all()
    counts = tiles.groupby(["game", "seat", "kind"]).size().unstack(fill_value=0).reindex(
        pd.MultiIndex.from_frame(players[["game", "seat"]]), fill_value=0)
    assert (counts["starting"] == 1).all()
    assert counts["emperor"].tolist() == players["n_emperor_tiles"].tolist()
    assert (counts["palace"] <= players["n_palaces"].to_numpy()).all()
    assert (counts["governor"] <= players["n_governors"].to_numpy()).all()
    placed = tiles[tiles["kind"].isin(["palace", "governor"])]
    assert placed["region"].notna().all() and placed["section"].isna().all()
    assert tiles.loc[tiles["kind"] == "emperor", "section"].notna().all()


@pytest.mark.parametrize("lineup", [["random"] * 4, ["random", "lisi-3"]])
def test_the_tiles_a_game_records_are_the_tiles_that_left_the_board(box, lineup):
    for seed in range(6):
        game = Game(box, [registry.resolve(name) for name in lineup], seed)
        laid_out = {kind: sum(len(value.split(",")) for key, value in game.setup.items()
                              if key.startswith(f"{kind}_tile") and value)
                    for kind in ("palace", "emperor")}
        result = game.play()
        state = game.state
        kind = RECORD_FIELDS["tiles"].index("kind")
        got = Counter(tile[kind] for tile in result.tiles)
        assert got["palace"] == laid_out["palace"] - sum(map(len, state.palace_tiles))
        assert got["emperor"] == laid_out["emperor"] - sum(
            section.emperor_tile != NO_ONE for section in state.walls)
        assert got["governor"] == sum(holder != NO_ONE for slots in state.governor_slots
                                      for _, holder in slots)
        assert got["starting"] == sum(not name.startswith("lisi") for name in lineup)


def test_a_box_is_parsed_once_per_process_until_its_files_change(tmp_path):
    box_dir = tmp_path / "components"
    shutil.copytree(SMALL.box_dir(), box_dir)
    first, _, digest = load_for_run(box_dir)
    again, _, same = load_for_run(box_dir)
    assert again is first and same == digest
    with open(box_dir / "board.yaml", "a", encoding="utf-8") as board:
        board.write("# edited\n")
    edited, _, other = load_for_run(box_dir)
    assert other != digest and edited is not first


def test_chunks_cover_the_games_once_and_the_last_ones_are_smaller():
    for games, size in [(2000, 50), (2001, 50), (24, 5), (7, 50), (1, 1)]:
        bounds = batch.chunk_bounds(games, size)
        assert [index for index, _, _ in bounds] == list(range(len(bounds)))
        assert [game for _, start, stop in bounds for game in range(start, stop)] == list(
            range(games))
        assert all(0 < stop - start <= size for _, start, stop in bounds)
    sizes = [stop - start for _, start, stop in batch.chunk_bounds(2000, 50)]
    assert sizes[:38] == [50] * 38 and max(sizes[38:]) == 12


def noting_chunks(log: Path) -> Callable[..., Any]:
    """``worker.play_chunk``, noting each chunk it plays in ``log`` (the workers are other
    processes)."""
    real = worker.play_chunk

    def noted(context: Any, index: int, start: int, stop: int) -> Any:
        with log.open("a") as file:
            file.write(f"{index} {start} {stop}\n")
        return real(context, index, start, stop)

    return noted


def chunks_noted(log: Path) -> list[tuple[int, ...]]:
    return sorted(tuple(map(int, line.split())) for line in log.read_text().splitlines())


def test_a_lone_worker_plays_whole_chunks_and_several_share_a_cut_tail(small_run, tmp_path,
                                                                       monkeypatch):
    # One job: the tail is not cut (each extra chunk costs its tables' fixed work, and a lone
    # worker has no one to finish with); the choice is in run.json, so that a resume with
    # two jobs cuts the run as it started, and the tables are the same either way.
    manifest = json.loads((small_run / "run.json").read_text())
    assert manifest["tail_pieces"] == 1 and manifest["chunk_size"] == 5
    assert [stop - start for _, start, stop in batch.chunk_bounds(24, 5, 1)] == [5, 5, 5, 5, 4]
    out = interrupted_run(tmp_path / "run", 2)
    assert json.loads((out / "run.json").read_text())["tail_pieces"] == 1
    monkeypatch.setattr(worker, "play_chunk", noting_chunks(tmp_path / "played"))
    resume_run(out, jobs=2)
    assert chunks_noted(tmp_path / "played") == batch.chunk_bounds(24, 5, 1)[2:]
    assert json.loads((out / "run.json").read_text())["tail_pieces"] == 1
    assert_same_tables(small_run, out)
    two = tmp_path / "two"
    start_run(SMALL.with_overrides(jobs=2), two)
    assert json.loads((two / "run.json").read_text())["tail_pieces"] == 4
    assert_same_tables(small_run, two)


@pytest.mark.parametrize("value", ["4", 0, 2.5, None])
def test_a_resume_of_a_run_json_with_a_damaged_cut_says_which_key(small_run, tmp_path, value):
    out = interrupted_run(tmp_path / "run", 2)
    manifest = json.loads((out / "run.json").read_text())
    manifest["tail_pieces"] = value
    (out / "run.json").write_text(json.dumps(manifest))
    with pytest.raises(ExperimentError, match=r"run\.json: key 'tail_pieces': .* damaged"):
        resume_run(out)
    assert chunkfile.finished(out) == {0, 1}
    del manifest["tail_pieces"]  # a run started before the key: its tail was cut in quarters
    manifest["chunk_size"] = "5"
    (out / "run.json").write_text(json.dumps(manifest))
    with pytest.raises(ExperimentError, match="key 'chunk_size'"):
        resume_run(out)


def test_a_run_json_without_the_cut_is_resumed_with_its_tail_in_quarters(small_run, tmp_path,
                                                                         monkeypatch):
    out = interrupted_run(tmp_path / "run", 2)
    manifest = json.loads((out / "run.json").read_text())
    del manifest["tail_pieces"]
    (out / "run.json").write_text(json.dumps(manifest))
    monkeypatch.setattr(worker, "play_chunk", noting_chunks(tmp_path / "played"))
    resume_run(out)
    played = chunks_noted(tmp_path / "played")
    assert played == batch.chunk_bounds(24, 5, 4)[2:] and len(played) == 14
    assert_same_tables(small_run, out)


def test_vp_categories_sum_to_the_total(small_run):
    players = pd.read_parquet(small_run / "players.parquet")
    assert (players[list(CATEGORIES)].sum(axis=1) == players["vp_total"]).all()


def test_run_json_records_the_resolved_experiment(small_run):
    run = json.loads((small_run / "run.json").read_text())
    assert run["status"] == "complete" and run["master_seed"] == 7
    assert run["experiment"]["games"] == 24 and run["versions"]["pyarrow"]
    assert run["run_id"] == pd.read_parquet(small_run / "players.parquet")["run_id"].iloc[0]
    assert run["sessions"][0]["games"] == 24
    assert (small_run / "failures.jsonl").read_text() == ""


def test_engine_seconds_are_the_time_the_games_took(small_run):
    session = json.loads((small_run / "run.json").read_text())["sessions"][0]
    durations = pd.read_parquet(small_run / "games.parquet")["duration_s"]
    assert session["engine_seconds"] == pytest.approx(durations.sum(), abs=1e-3)
    assert 0 < session["engine_seconds"] < session["seconds"]


def test_a_table_no_game_filled_has_its_columns_and_no_rows(small_run, tmp_path):
    # A run recording no experience leaves those tables out of its chunk files; the final
    # files still hold the tables' columns, as do those of a chunk whose games gave no rows.
    for name in ("trajectories", "choices", "options", "kingmaking"):
        table = pq.read_table(small_run / f"{name}.parquet")
        assert table.num_rows == 0 and table.schema.equals(BASE[name]), name
        assert list(pd.read_parquet(small_run / f"{name}.parquet").columns) == BASE[name].names
    out = tmp_path / "kept"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(writer, "drop_chunks", lambda out: None)
        start_run(SMALL.with_overrides(games=2, chunk_size=1), out)
    parts = [set(chunkfile.read_parts(chunkfile.path(out, index))) for index in (0, 1)]
    assert all("games" in held and "trajectories" not in held for held in parts)


def test_a_short_run_is_cut_so_that_every_worker_has_games(small_run, tmp_path):
    start_run(SMALL.with_overrides(jobs=2, chunk_size=200), tmp_path / "run")  # 24 games
    manifest = json.loads((tmp_path / "run" / "run.json").read_text())
    assert manifest["chunk_size"] == 12 and manifest["sessions"][-1]["workers"] == 2
    assert batch.chunk_bounds(24, 12) == [(0, 0, 3), (1, 3, 6), (2, 6, 9), (3, 9, 12),
                                          (4, 12, 15), (5, 15, 18), (6, 18, 21), (7, 21, 24)]
    assert_same_tables(small_run, tmp_path / "run")


def test_tables_do_not_depend_on_jobs_or_chunk_size(small_run, tmp_path):
    start_run(SMALL.with_overrides(jobs=2, chunk_size=7), tmp_path / "two")
    assert_same_tables(small_run, tmp_path / "two")


@pytest.mark.skipif(not Path("/proc/self/maps").exists(),
                    reason="listing the process's memory mappings needs Linux")
def test_consolidation_holds_chunk_parts_without_mapping_chunk_files(small_run, tmp_path,
                                                                    monkeypatch):
    # A row group of a small table spans hundreds of chunks. Held as slices of memory-mapped
    # chunk files they kept each whole file resident, and consolidation's memory grew with
    # the run; read alone, a part costs its own bytes.
    out = tmp_path / "kept"
    monkeypatch.setattr(writer, "drop_chunks", lambda out: None)
    start_run(SMALL, out)
    mapped: list[int] = []
    write_table = pq.ParquetWriter.write_table

    def counting(self: pq.ParquetWriter, table: pa.Table, *args: Any, **kwargs: Any) -> None:
        maps = Path("/proc/self/maps").read_text().splitlines()
        mapped.append(sum(chunkfile.CHUNKS in line for line in maps))
        write_table(self, table, *args, **kwargs)

    monkeypatch.setattr(pq.ParquetWriter, "write_table", counting)
    merging.consolidate(out, sorted(chunkfile.finished(out)))
    assert len(mapped) >= 2 and not any(mapped)  # players and games at least
    assert_same_tables(small_run, out)


@pytest.mark.dask
def test_dask_local_cluster_gives_the_same_tables(small_run, tmp_path):
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        experiment = SMALL.with_overrides(backend="dask", scheduler=cluster.scheduler_address,
                                          chunk_size=4)
        start_run(experiment, tmp_path / "dask")
    assert_same_tables(small_run, tmp_path / "dask")


# --- building the tables in workers ----------------------------------------------------


@pytest.mark.parametrize(("values", "kind"), [
    ([3, None, -7, 2**40], pa.int64()),
    ([0.5, None, 1.0], pa.float64()),
    ([True, None, False, True, False, True, True, False, True], pa.bool_()),
    (["wall", None, "Zhào", "", "wall"], pa.string()),
    ([None, None], pa.null()),
])
def test_arrays_match_pyarrow_with_nulls_and_repeats(values, kind):
    assert arrays.array(values, kind).equals(pa.array(values, kind))
    times = np.arange(len(values)) % 3
    repeated = [value for value, n in zip(values, times, strict=True) for _ in range(n)]
    assert arrays.array(values, kind, times).equals(pa.array(repeated, kind))


def test_columns_of_one_type_are_built_together_and_sliced_back():
    types = {"a": pa.int64(), "b": pa.string(), "c": pa.int64()}
    built = arrays.arrays({"a": [1, 2], "b": ["x", None], "c": [None, 4]}, types,
                          repeat=np.array([2, 1]))
    assert {name: array.to_pylist() for name, array in built.items()} == {
        "a": [1, 1, 2], "b": ["x", "x", None], "c": [None, None, 4]}


def test_arrays_match_pyarrow_on_random_columns_of_every_type():
    """Groups of columns of one type, some with nulls and some without, non-ASCII strings and
    repeats (zeros among them): every column as pyarrow builds it from the Python values."""
    rng = np.random.default_rng(7)
    draw = {pa.int64(): lambda: int(rng.integers(-2**40, 2**40)),
            pa.float64(): lambda: float(rng.normal()),
            pa.bool_(): lambda: bool(rng.integers(2)),
            pa.string(): lambda: rng.choice(["", "wall", "Zhào", "楚", "governor tile"])}
    for trial in range(30):
        length = int(rng.integers(1, 12))
        columns, types = {}, {}
        for i in range(6):
            kind = list(draw)[int(rng.integers(len(draw)))]
            nulls = rng.random() < 0.4
            columns[f"c{i}"] = [None if nulls and rng.random() < 0.5 else draw[kind]()
                                for _ in range(length)]
            types[f"c{i}"] = kind
        times = rng.integers(0, 4, length) if trial % 2 else None
        built = arrays.arrays(columns, types, repeat=times)
        for name, values in columns.items():
            expected = values if times is None else [
                value for value, n in zip(values, times, strict=True) for _ in range(n)]
            assert built[name].equals(pa.array(expected, types[name])), (trial, name)


def test_arrays_refuse_values_of_another_type_in_a_group_too():
    """The first, null-free attempt fails on a wrong value like on a null: the slow way then
    names the wrong type, whatever column of the group holds it."""
    with pytest.raises(TypeError, match="int64 column holds float64"):
        arrays.arrays({"a": [1, 2], "b": [3, 4.5]}, {"a": pa.int64(), "b": pa.int64()})
    with pytest.raises(TypeError, match="string column"):
        arrays.arrays({"a": ["x", "y"], "b": [None, 3]}, {"a": pa.string(), "b": pa.string()},
                      repeat=np.array([2, 1]))
    with pytest.raises(TypeError):
        arrays.array([2**70], pa.int64())


def test_shared_columns_of_rows_with_the_same_or_other_keys():
    """Rows with the keys of the first in another order, rows as long as the first with other
    keys, shorter and longer rows: each value lands in its own column, a missing one filled."""
    from zsim.runner.columns import Columns

    cases = [
        [{"wall_tile_1": "a", "n_x": 1}, {"n_x": 2, "wall_tile_1": "b"}],
        [{"wall_tile_1": "a", "n_x": 1}, {"wall_tile_1": "b", "n_y": 3}],
        [{"wall_tile_1": "a", "n_x": 1}, {"wall_tile_1": "b"}, {"n_x": 5, "n_y": 2, "z": 1.5}],
    ]
    for rows in cases:
        columns = Columns("games")
        keys = {key for row in rows for key in row}
        expected = {key: [row.get(key, 0 if key.startswith("n_") else None) for row in rows]
                    for key in keys}
        assert columns._columns(rows) == expected


def test_arrays_refuse_values_of_another_type():
    with pytest.raises(TypeError):
        arrays.array([1, 2.5], pa.int64())
    with pytest.raises(TypeError):
        arrays.array(["a", 3], pa.string())


def test_a_worker_imports_neither_pandas_nor_parquet_nor_the_yaml_loader(tmp_path):
    """A worker process starts for most runs: pandas alone would add a fifth of a second."""
    experiment = SMALL.with_overrides(box=str(SMALL.box_dir().resolve()))
    context = tmp_path / "context.pickle"
    context.write_bytes(pickle.dumps(_context(experiment, "test", None)))
    (tmp_path / chunkfile.CHUNKS).mkdir()
    code = (f"import pickle, sys\n"
            f"from pathlib import Path\n"
            f"from zsim.runner.worker import play_to_disk\n"
            f"play_to_disk(pickle.loads(open({str(context)!r}, 'rb').read()), "
            f"Path({str(tmp_path)!r}), 0, 0, 2)\n"
            f"print(sorted(m for m in ('pandas', 'pyarrow.compute', 'pyarrow.parquet', 'yaml', "
            f"'zsim.runner.experiment') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "[]"
    assert chunkfile.finished(tmp_path) == {0}


# --- failures ----------------------------------------------------------------------------

# Two seats from a rotating lineup of five: games 0 and 1 of every five are played by two
# random bots; the others seat the raising bot, the illegal one, or both.
FAULTY = Experiment(games=10, players=[2], seed=3, chunk_size=4, jobs=1, seats="rotate",
                    strategies=["random", "random", "random", "boom", "liar"])


def test_a_failing_strategy_fails_only_its_games(tmp_path):
    out = tmp_path / "run"
    report = start_run(FAULTY, out, strategies={"boom": Boom(), "liar": Liar()})
    games = pd.read_parquet(out / "games.parquet")
    assert games.loc[games["failed"], "game"].tolist() == [2, 3, 4, 7, 8, 9]
    assert sorted(pd.read_parquet(out / "players.parquet")["game"].unique()) == [0, 1, 5, 6]
    failures = [json.loads(line) for line in (out / "failures.jsonl").read_text().splitlines()]
    assert [f["game"] for f in failures] == [2, 3, 4, 7, 8, 9]
    by_game = {f["game"]: f for f in failures}
    assert by_game[2]["strategy"] == "boom" and "RuntimeError: boom" in by_game[2]["traceback"]
    assert by_game[4]["strategy"] == "liar" and "IllegalChoice" in by_game[4]["error"]
    for failure in failures:
        assert failure["seed"] == game_seed(3, failure["game"]) and failure["decision"]
    assert report.summary.failed == 6 and report.too_many_failures
    assert report.summary.table.loc["boom", "failures"] >= 2


def test_the_summary_of_a_run_is_what_its_tables_hold(tmp_path):
    # The run's summary is summed from the chunks as they are consolidated; recomputed with
    # pandas from the files, and summed again from them (a finished run's), it is the same.
    out = tmp_path / "run"
    report = start_run(FAULTY, out, strategies={"boom": Boom(), "liar": Liar()})
    players = pd.read_parquet(out / "players.parquet")
    games = pd.read_parquet(out / "games.parquet")
    by = players.groupby("strategy")
    blamed = games.loc[games["failed"], "failed_strategy"].value_counts()
    table = report.summary.table
    assert list(table.index) == sorted(set(players["strategy"]) | set(blamed.index))
    assert table["games"].to_dict() == {**dict.fromkeys(blamed.index, 0), **by.size()}
    assert table["failures"].to_dict() == {**dict.fromkeys(by.groups, 0), **blamed}
    finished = table.loc[list(by.groups)]
    assert finished["win_rate"].to_numpy() == pytest.approx(by["win_share"].mean().to_numpy())
    for column in ("vp_total", *CATEGORIES):
        assert finished[column].to_numpy() == pytest.approx(by[column].mean().to_numpy())
    assert table.loc["boom"].drop(["games", "wins", "failures"]).isna().all()
    assert (report.summary.games, report.summary.failed) == (len(games), games["failed"].sum())
    again = summarize(out)
    pd.testing.assert_frame_equal(again.table, table)
    assert again.format() == report.summary.format()
    line = next(row for row in report.summary.format().splitlines() if row.startswith("boom"))
    assert line.split() == ["boom", "0", "-", "[-,", "-]", "-", str(blamed["boom"])]


class Quitter(Strategy):
    """Tries to end the whole program at its first real decision."""

    name = "quitter"

    def choose(self, view: PlayerView, decision: Decision) -> Any:
        sys.exit("bye")


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_bot_calling_exit_fails_only_its_games(tmp_path, jobs):
    lineup = Experiment(games=8, players=[2], seed=3, chunk_size=2, jobs=jobs,
                        strategies=["random", "random", "quitter"])
    report = start_run(lineup, tmp_path / "run", strategies={"quitter": Quitter()})
    failures = [json.loads(line)
                for line in (tmp_path / "run" / "failures.jsonl").read_text().splitlines()]
    assert 0 < len(failures) == report.summary.failed < 8
    assert {(f["strategy"], f["error"]) for f in failures} == {("quitter", "SystemExit: bye")}


def test_cli_exit_status_reflects_failures_and_max_failures(tmp_path, monkeypatch):
    monkeypatch.setitem(registry.BUILT_IN, "boom", Boom)
    args = ["run", "--games", "6", "--players", "2", "-s", "random", "-s", "boom",
            "--jobs", "1", "--quiet"]
    failing = CliRunner().invoke(main, [*args, "--out", str(tmp_path / "a")])
    assert failing.exit_code == 1, failing.output
    assert "6 of 6 games failed" in failing.output and "failures.jsonl" in failing.output
    tolerated = CliRunner().invoke(main, [*args, "--out", str(tmp_path / "b"),
                                          "--max-failures", "6"])
    assert tolerated.exit_code == 0, tolerated.output


def test_a_non_empty_or_unwritable_out_is_refused_before_any_game(tmp_path, monkeypatch):
    def no_games(*args: Any) -> None:
        raise AssertionError("a game ran")

    monkeypatch.setattr(worker, "play_chunk", no_games)
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "notes.txt").write_text("mine")
    result = CliRunner().invoke(main, ["run", "--games", "4", "--out", str(busy)])
    assert result.exit_code == 1 and "not empty" in result.output
    blocked = tmp_path / "file"
    blocked.write_text("")
    result = CliRunner().invoke(main, ["run", "--games", "4", "--out", str(blocked / "x")])
    assert result.exit_code == 1 and "cannot write" in result.output


def test_a_bot_that_cannot_be_pickled_plays_on_this_machine_and_is_refused_for_dask(tmp_path):
    bot = tmp_path / "locked.py"
    bot.write_text("import threading\n"
                   "from zsim.strategies.random_bot import RandomStrategy\n"
                   "class Locked(RandomStrategy):\n"
                   "    def __init__(self):\n"
                   "        super().__init__()\n"
                   "        self.lock = threading.Lock()\n")
    spec = f"{bot}:Locked"
    run = ["run", "--games", "4", "-s", spec, "-s", "random", "--players", "2", "--quiet"]
    refused = CliRunner().invoke(main, [*run, "--backend", "dask", "--jobs", "2",
                                        "--out", str(tmp_path / "dask")])
    assert refused.exit_code == 1
    assert f"{spec} cannot be sent to worker processes" in refused.output
    assert "local backend" in refused.output and not (tmp_path / "dask").exists()
    # the local workers are forks of the run's process: nothing is pickled
    here = CliRunner().invoke(main, [*run, "--jobs", "2", "--out", str(tmp_path / "here")])
    assert here.exit_code == 0, here.output


# --- interruption and resume ---------------------------------------------------------------


def interrupted_from(chunk: int) -> Callable[..., Any]:
    """A stand-in for ``worker.play_chunk`` in this process: it plays the chunks numbered below
    ``chunk`` and is stopped by Ctrl-C at the first one from ``chunk`` on."""
    real = worker.play_chunk

    def play_chunk(context: Any, index: int, start: int, stop: int) -> Any:
        if index >= chunk:
            raise KeyboardInterrupt
        return real(context, index, start, stop)

    return play_chunk


def interrupted_run(out: Path, chunk: int, experiment: Experiment = SMALL) -> Path:
    """``experiment`` run into ``out`` and stopped by Ctrl-C at chunk number ``chunk`` (played
    in this process, ``interrupted_from``)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(worker, "play_chunk", interrupted_from(chunk))
        with pytest.raises(RunInterrupted):
            start_run(experiment, out)
    return out


def test_an_interrupted_run_resumes_without_redoing_or_losing_games(small_run, tmp_path,
                                                                  monkeypatch):
    log = tmp_path / "played"  # the workers are other processes: they note it in a file
    real = worker.play_chunk
    stop_at: list[int] = [3]  # read by the workers forked after each change

    def recorded(context: Any, index: int, start: int, stop: int) -> Any:
        if index in stop_at:
            raise KeyboardInterrupt
        with log.open("a") as file:
            file.write(f"{index}\n")
        return real(context, index, start, stop)

    monkeypatch.setattr(worker, "play_chunk", recorded)
    out = tmp_path / "run"
    with pytest.raises(RunInterrupted):
        start_run(SMALL, out)
    assert json.loads((out / "run.json").read_text())["status"] == "interrupted"
    (out / "chunks" / "chunk-000001.bin").unlink()  # a chunk lost mid-write
    stop_at.clear()
    resume_run(out)
    played = list(map(int, log.read_text().split()))
    assert played == [0, 1, 2, 1, *range(3, len(batch.chunk_bounds(24, 5, 1)))]
    assert_same_tables(small_run, out)
    run = json.loads((out / "run.json").read_text())
    assert [s["status"] for s in run["sessions"]] == ["interrupted", "complete"]


def test_a_resume_replays_every_game_when_the_chunks_folder_was_removed(small_run, tmp_path):
    out = interrupted_run(tmp_path / "run", 2)
    shutil.rmtree(out / "chunks")
    resume_run(out)
    assert_same_tables(small_run, out)


def test_a_resume_with_other_code_or_bots_is_refused_and_loses_nothing(small_run, tmp_path,
                                                                      monkeypatch):
    out = interrupted_run(tmp_path / "run", 2)
    finished = sorted(p.name for p in (out / "chunks").iterdir())
    with monkeypatch.context() as changed:
        changed.setattr(batch, "play_digest", lambda lineup: "0" * 16)
        with pytest.raises(ExperimentError, match="code or the lineup's bots changed"):
            resume_run(out)
    assert sorted(p.name for p in (out / "chunks").iterdir()) == finished
    resume_run(out)  # with the code it started with
    assert_same_tables(small_run, out)


def test_the_play_digest_follows_the_code_and_the_bots_parameters(tmp_path, monkeypatch):
    package = tmp_path / "zsim"
    (package / "cli").mkdir(parents=True)
    (package / "game.py").write_text("RULE = 1\n")
    (package / "cli" / "run.py").write_text("OPTION = 1\n")
    monkeypatch.setattr(provenance, "_PACKAGES", (package,))
    monkeypatch.setattr(provenance, "_NOT_PLAYING", (package / "cli",))
    lineup = {"greedy": registry.resolve("greedy")}
    before = provenance.play_digest(lineup)
    assert provenance.play_digest({"greedy": registry.resolve("greedy")}) == before
    (package / "cli" / "run.py").write_text("OPTION = 2\n")
    assert provenance.play_digest(lineup) == before  # the command line plays no game
    assert provenance.play_digest({"greedy": registry.resolve("greedy(patience=0.9)")}) \
        != before
    (package / "game.py").write_text("RULE = 2\n")
    assert provenance.play_digest(lineup) != before


def test_replay_warns_when_the_code_or_bots_changed_since_the_run(small_run, tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    manifest = json.loads((small_run / "run.json").read_text())
    (run / "run.json").write_text(json.dumps({**manifest, "play_digest": "0" * 16}))
    result = CliRunner().invoke(main, ["replay", str(run), "--game", "1"])
    assert result.exit_code == 0, result.output
    assert "code or the lineup's bots changed since the run" in result.output
    same = CliRunner().invoke(main, ["replay", str(small_run), "--game", "1"])
    assert "changed since the run" not in same.output


class DiesOnce(RandomStrategy):
    """The random bot, except that the first time it plays it ends its process: with
    ``os._exit`` (any code, 0 included), or a signal to itself."""

    def __init__(self, mark: Path, how: str = "exit 9") -> None:
        self.mark, self.how = mark, how

    def choose(self, view: PlayerView, decision: Decision) -> Any:
        if not self.mark.exists():
            self.mark.touch()
            what, value = self.how.split()
            if what == "exit":
                os._exit(int(value))
            os.kill(os.getpid(), getattr(signal, value))
        return super().choose(view, decision)


@pytest.mark.parametrize("how, said", [
    ("exit 0", "exit code 0"), ("exit 9", "exit code 9"), ("signal SIGKILL", "killed by SIGKILL"),
])
def test_a_strategy_that_ends_its_worker_fails_its_own_game_and_the_run_goes_on(
        small_run, tmp_path, how, said):
    out = tmp_path / "run"
    dying = {"random": DiesOnce(tmp_path / "died", how)}
    report = start_run(SMALL.with_overrides(max_failures=1), out, strategies=dying)
    assert report.summary.failed == 1 and not report.too_many_failures
    games = pd.read_parquet(out / "games.parquet")
    failed = games[games["failed"]].iloc[0]
    assert failed["game"] == 0 and failed["failed_strategy"] == "random"
    assert failed["failed_decision"] == "start_tile"
    assert failed["error"] == (
        f"ProcessDied: the process playing the game died ({said}) while strategy 'random' "
        f"(seat {failed['failed_seat']:.0f}) was deciding 'start_tile', so the runner started "
        f"another in its place")
    [failure] = [json.loads(line) for line in (out / "failures.jsonl").read_text().splitlines()]
    assert failure["strategy"] == "random" and failure["game"] == 0
    assert_workers_go()
    # the chunk's other games were played again, and came out as in a run without the death
    for name, table in tables(out).items():
        expected = tables(small_run)[name]
        if "game" in table:
            table, expected = table[table["game"] != 0], expected[expected["game"] != 0]
        # a failed game's row makes its table's integer columns floats, with nulls
        pd.testing.assert_frame_equal(table.reset_index(drop=True),
                                      expected.reset_index(drop=True), obj=name,
                                      check_dtype=False)


def _dies_once_between_games(mark: Path) -> Callable[[], int]:
    """``peak_rss_bytes``, read as each chunk ends, except that the first time it kills its
    process, as the out-of-memory killer could outside any strategy call."""
    measure = worker.peak_rss_bytes

    def peak() -> int:
        if not mark.exists():
            mark.touch()
            os._exit(9)
        return measure()

    return peak


def test_a_worker_that_dies_outside_a_strategy_stops_the_run_and_leaves_it_resumable(
        small_run, tmp_path, monkeypatch):
    out = tmp_path / "run"
    monkeypatch.setattr(worker, "peak_rss_bytes", _dies_once_between_games(tmp_path / "died"))
    with pytest.raises(WorkerDied, match=r"a worker process died \(exit code 9\)"):
        start_run(SMALL.with_overrides(jobs=2), out)
    assert json.loads((out / "run.json").read_text())["status"] == "interrupted"
    assert_workers_go()
    resume_run(out, jobs=2)  # it died once: now it measures
    assert_same_tables(small_run, out)


def worker_processes() -> list[psutil.Process]:
    """This process's worker processes that are still alive (forks: the same command line)."""
    alive, me = [], psutil.Process()
    for child in me.children(recursive=True):
        try:
            if child.status() != psutil.STATUS_ZOMBIE and child.cmdline() == me.cmdline():
                alive.append(child)
        except psutil.NoSuchProcess:  # exited, or a zombie, since it was listed
            pass
    return alive


def assert_workers_go() -> None:
    """Stopped workers are not waited for: they go within moments."""
    for _ in range(50):
        if not worker_processes():
            break
        time.sleep(0.1)
    assert not worker_processes()


def test_ctrl_c_in_a_parallel_run_stops_the_workers_and_loses_nothing(small_run, tmp_path):
    out = interrupted_run(tmp_path / "run", 0, SMALL.with_overrides(jobs=2))  # its first chunk
    assert_workers_go()
    resume_run(out, jobs=2)
    assert_same_tables(small_run, out)


def test_a_run_refused_before_its_first_game_leaves_no_process(tmp_path):
    out = tmp_path / "taken"
    out.mkdir()
    (out / "x").touch()
    result = CliRunner().invoke(main, ["run", "--games", "4", "--jobs", "2", "--quiet",
                                       "--out", str(out)])
    assert result.exit_code == 1 and "not empty" in result.output
    assert not worker_processes()


def test_ctrl_c_exits_130_with_a_resume_hint(tmp_path, monkeypatch):
    monkeypatch.setattr(worker, "play_chunk", interrupted_from(0))
    out = tmp_path / "run"
    result = CliRunner().invoke(main, ["run", "--games", "4", "--jobs", "1", "--out", str(out)])
    assert result.exit_code == 130 and f"--resume {out}" in result.output
    monkeypatch.undo()
    resumed = CliRunner().invoke(main, ["run", "--resume", str(out), "--quiet"])
    assert resumed.exit_code == 0, resumed.output
    assert len(pd.read_parquet(out / "games.parquet")) == 4


# --- CLI ---------------------------------------------------------------------------------


def test_cli_overrides_the_experiment_file_and_prints_a_summary(tmp_path):
    out = tmp_path / "run"
    result = CliRunner().invoke(main, [
        "run", "--games", "8", "--players", "2", "--players", "3", "-s", "random", "-s", "basic",
        "--seed", "5", "--jobs", "1", "--chunk-size", "3", "--variant", "mausoleum=advanced",
        "--out", str(out), "--quiet"])
    assert result.exit_code == 0, result.output
    assert "win rate" in result.output and "95% CI" in result.output
    games = pd.read_parquet(out / "games.parquet")
    assert games["n_players"].tolist() == [2, 3] * 4
    assert set(games["mausoleum_mode"]) == {"advanced"}
    assert set(pd.read_parquet(out / "players.parquet")["strategy"]) == {"random", "basic"}


def test_zsim_run_loads_neither_pandas_nor_the_statistics_libraries(tmp_path):
    # Their imports took most of a short run's time outside its games; the summary needs none.
    code = ("import sys\n"
            "from zsim.cli import main\n"
            "main(['run', '--games', '3', '-n', '2', '-s', 'random', '--jobs', '1', '--quiet',\n"
            f"      '--out', {str(tmp_path / 'run')!r}], standalone_mode=False)\n"
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'pandas', 'statsmodels'}),\n"
            "      'scipy.stats' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert "3 games, no failures" in done.stdout
    assert done.stdout.splitlines()[-1] == "[] False"


def test_replay_narrates_the_recorded_game(small_run):
    result = CliRunner().invoke(main, ["replay", str(small_run), "--game", "3"])
    assert result.exit_code == 0, result.output
    assert f"--seed {game_seed(7, 3)}" in result.output
    assert "=== Round 1 ===" in result.output and "vp_total" in result.output
    replayed = json.loads(CliRunner().invoke(
        main, ["replay", str(small_run), "--game", "3", "--json"]).output)
    players = pd.read_parquet(small_run / "players.parquet").query("game == 3")
    assert [p["vp_total"] for p in replayed["players"]] == players["vp_total"].tolist()


# --- statistics --------------------------------------------------------------------------


def test_wilson_interval_takes_shared_wins_and_stays_in_bounds():
    low, high = wilson_interval(2.5, 10)
    assert 0 < low < 0.25 < high < 1
    assert wilson_interval(0, 5)[0] == 0
    assert wilson_interval(5, 5)[1] == pytest.approx(1)


def test_bench_prints_its_table():
    result = CliRunner().invoke(main, ["bench", "--games", "4", "--jobs", "1"])
    assert result.exit_code == 0, result.output
    for text in ("4 random", "default", "engine, 1 core", "runner, 1 job", "decisions/s"):
        assert text in result.output
    assert f"engine: {ENGINE}." in result.output
    runner = next(line for line in result.output.splitlines()
                  if line.startswith("4 random") and "runner, 1 job" in line)
    *figures, stolen = runner.split()
    # overhead by wall time, CPU time and in run; then the machine's steal time, where known
    assert sum(word.endswith("%") for word in figures) == 3
    assert stolen == "-" or 0 <= float(stolen.rstrip("%")) <= 100
    assert "stolen: of the machine's busy time" in result.output


def test_bench_gives_the_parallel_run_its_efficiency_in_run():
    """With two jobs, the efficiency is given three ways, the last from the parallel run alone:
    its games' time over twice its wall time, a share of the wall time at most 1 (the workers
    cannot play longer than the run lasts), whatever the machine did between runs."""
    result = CliRunner().invoke(main, ["bench", "--games", "12", "--jobs", "2", "--chunk-size",
                                       "3", "-s", "random", "--players", "2"])
    assert result.exit_code == 0, result.output
    parallel = next(line for line in result.output.splitlines() if "runner, 2 jobs" in line)
    shares = [float(word.rstrip("%")) for word in parallel.split()[:-1] if word.endswith("%")]
    assert len(shares) == 3 and 0 < shares[2] <= 100
    assert "in run: the N-job run's time inside play_game" in result.output


@pytest.mark.skipif(not bench.FORKS, reason="the parallel bare engine forks")
def test_bench_plays_the_bare_engine_on_n_cores_as_the_runners_ceiling():
    """The bare engine in 2 processes at once gets an efficiency against the one-core loop,
    and the runner's 2 jobs a share of its speed."""
    result = CliRunner().invoke(main, ["bench", "--games", "12", "--jobs", "2", "--chunk-size",
                                       "3", "-s", "random", "--players", "2"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    one, two = (next(line for line in lines if mode in line)
                for mode in ("engine, 1 core", "engine, 2 cores"))
    words = [line.split() for line in (one, two)]
    assert words[0][4] == words[1][4] == "12"  # games
    assert len([w for w in words[1][:-1] if w.endswith("%")]) == 2  # wall and CPU efficiency
    ceiling = next(line for line in lines if line.startswith("engine, N cores:"))
    share = float(ceiling.split("chosen: ")[1].rstrip(".%"))
    assert share > 0


@pytest.mark.skipif(not bench.FORKS, reason="the parallel bare engine forks")
def test_bench_engine_on_n_cores_plays_what_the_loop_plays():
    """Every game once, in all the processes together: the decisions are the loop's."""
    experiment = Experiment(games=10, players=[3], strategies=["random", "greedy"], seed=5)
    alone = bench._engine("x", experiment)
    together = bench._engines("x", experiment, 3)
    assert together.mode == "engine, 3 cores" and together.games == 10
    assert together.decisions == alone.decisions and together.peak_rss_bytes > 0


@pytest.mark.skipif(not bench.FORKS, reason="the parallel bare engine forks")
def test_bench_engine_on_n_cores_says_when_a_process_failed(monkeypatch):
    def broken(*args):
        raise RuntimeError("a game broke")

    monkeypatch.setattr(bench, "_play_all", broken)
    experiment = Experiment(games=4, players=[2], strategies=["random"], seed=1)
    with pytest.raises(click.ClickException, match="the bare engine on 2 cores failed"):
        bench._engines("4 random", experiment, 2)


def test_bench_steal_is_the_hypervisors_share_of_the_busy_time():
    # /proc/stat's columns: user, nice, system, idle, iowait, irq, softirq, steal
    before = [100, 0, 20, 500, 5, 0, 0, 10]
    after = [160, 0, 30, 900, 9, 0, 10, 40]  # busy: 60 + 10 + 10 + 30 = 110, of it stolen 30
    assert bench._stolen(before, after) == pytest.approx(30 / 110)
    assert bench._stolen(before, before) == 0.0  # nothing ran: nothing was taken either
    assert bench._stolen(None, after) is None and bench._share(None) == "-"
    assert bench._share(0.125) == "12.5%"
    ticks = bench._cpu_ticks()
    if Path("/proc/stat").exists():
        assert ticks is not None and len(ticks) == 8 and all(t >= 0 for t in ticks)


def test_bench_measurements_carry_the_steal_of_their_own_time(monkeypatch):
    readings = iter([[0, 0, 0, 0, 0, 0, 0, 0], [90, 0, 0, 0, 0, 0, 0, 10]])
    monkeypatch.setattr(bench, "_cpu_ticks", lambda: next(readings))
    timing = bench._measured(lambda: Timing("x", "engine, 1 core", 1, 1.0, 1.0, 1, 1))
    assert timing.stolen == pytest.approx(0.1)


def test_bench_measures_a_chosen_lineup_and_refuses_unknown_bots():
    result = CliRunner().invoke(main, ["bench", "--games", "3", "--jobs", "1", "-s", "greedy",
                                       "-s", "random", "--players", "2"])
    assert result.exit_code == 0, result.output
    assert "chosen" in result.output and "2 players from greedy, random" in result.output
    assert "4 random" not in result.output
    bad = CliRunner().invoke(main, ["bench", "--games", "3", "-s", "no_such_bot"])
    assert bad.exit_code == 2 and "no_such_bot" in bad.output


def test_bench_times_whole_run_processes_with_runner():
    result = CliRunner().invoke(main, ["bench", "--runner", "--games", "6", "--short-games", "2",
                                       "--jobs", "2", "--chunk-size", "2", "-s", "random",
                                       "--players", "2"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "whole zsim run processes: random, chunks of 2"
    rows = [line.split() for line in lines[3:6]]
    assert [row[:2] for row in rows] == [["2", "1"], ["6", "1"], ["6", "2"]]
    for row in rows:
        jobs, (wall, in_games, outside, around) = int(row[1]), map(float, row[2:6])
        # two games of the compiled engine take under 5 ms: shown as 0.00 s
        assert 0 <= in_games < wall and 0 < around < wall
        assert outside == pytest.approx(wall - in_games / jobs, abs=0.011)
    assert lines[6].startswith("parallel efficiency, 2 jobs over 1: ")


def test_bench_plays_each_lineup_untimed_before_measuring_it(monkeypatch):
    """One-time costs of the process (imports, the box) must not land in the first
    measurement: a warm-up run of a few games comes before the engine and runner are timed."""
    calls: list[tuple[Any, ...]] = []
    real_run, real_engine = bench.start_run, bench._engine

    def run(experiment, out, **kwargs):
        calls.append(("run", experiment.games, experiment.jobs))
        return real_run(experiment, out, **kwargs)

    def engine(label, experiment):
        calls.append(("engine", experiment.games))
        return real_engine(label, experiment)

    monkeypatch.setattr(bench, "start_run", run)
    monkeypatch.setattr(bench, "_engine", engine)
    result = CliRunner().invoke(main, ["bench", "--games", "20", "--jobs", "1", "-s", "random",
                                       "--players", "2"])
    assert result.exit_code == 0, result.output
    assert calls == [("run", 8, 1), ("engine", 20), ("run", 20, 1)]


def test_bench_repeats_take_turns_and_keep_the_fastest_of_each_mode():
    calls: list[str] = []

    def measure(mode: str, seconds: list[float]) -> Callable[[], Timing]:
        def timing() -> Timing:
            calls.append(mode)
            return Timing("x", mode, 10, seconds.pop(0), 1.0, 0, len(calls))
        return timing

    engine, runner = _fastest(3, [measure("engine", [3.0, 1.0, 2.0]),
                                  measure("runner", [1.5, 2.5, 1.2])])
    assert calls == ["engine", "runner"] * 3
    assert (engine.mode, engine.seconds, runner.seconds) == ("engine", 1.0, 1.2)
    assert (engine.peak_rss_bytes, runner.peak_rss_bytes) == (5, 6)  # the largest of each


@pytest.mark.skipif(not Path("/proc/self/clear_refs").exists(),
                    reason="resetting the peak RSS needs Linux")
def test_each_bench_measurement_reports_its_own_peak_memory():
    # In a fresh process, as `zsim bench` is: the test process's own high-water mark, left by
    # the tests before this one, can be higher than both measurements.
    code = """
import numpy as np
from zsim.cli.bench import Timing, _measured
from zsim.runner.worker import peak_rss_bytes

def measure(megabytes):
    def timing():
        np.ones(megabytes * 2**20, np.uint8)  # resident until freed on return
        return Timing("x", "m", 1, 1.0, 1.0, 0, peak_rss_bytes())
    return timing

large, small = _measured(measure(256)), _measured(measure(1))
print(large.peak_rss_bytes - small.peak_rss_bytes)
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert int(done.stdout) > 200 * 2**20


def test_run_solo_marks_lisi_and_takes_variant_files(tmp_path):
    out = tmp_path / "solo"
    variant = tmp_path / "v.yaml"
    variant.write_text("rules.palace_vp: 7\nmausoleum: advanced\n")
    result = CliRunner().invoke(main, ["run", "--solo", "--lisi", "2", "-s", "random",
                                       "--games", "6", "--jobs", "1", "--quiet",
                                       "--variant", str(variant), "--out", str(out)])
    assert result.exit_code == 0, result.output
    players = pd.read_parquet(out / "players.parquet")
    assert set(players["strategy"]) == {"random", "lisi-2"}
    assert (players["vp_palaces"] % 7 == 0).all()
    games = pd.read_parquet(out / "games.parquet")
    assert set(games["mausoleum_mode"]) == {"advanced"} and set(games["lisi_level"]) == {2}


# --- what a run directory guarantees --------------------------------------------------------

SLOW_BOT = '''
import time
from zsim.strategies.random_bot import RandomStrategy

class Slow(RandomStrategy):
    """The random bot, pausing at the first decision of each game it plays."""

    def choose(self, view, decision):
        if not view.memo:
            view.memo["paused"] = True
            time.sleep({pause})
        return super().choose(view, decision)
'''


def slow_bot(folder: Path, pause: float = 0.05) -> str:
    """The spec of a bot that plays as ``random`` does, but slowly enough to stop mid-run."""
    path = folder / "slow_bot.py"
    path.write_text(SLOW_BOT.format(pause=pause))
    return f"{path}:Slow"


def zsim_process(*args: str) -> subprocess.Popen[str]:
    """``zsim ARGS`` in a process of its own."""
    return subprocess.Popen([sys.executable, "-c", "from zsim.cli import main; main()", *args],
                            text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)


def wait_for(condition: Callable[[], bool], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "waited in vain"
        time.sleep(0.05)


def test_two_runs_started_together_into_one_out_cannot_both_play(tmp_path):
    # Both processes wait at a barrier just before claiming --out, so both find it empty.
    out, barrier = tmp_path / "run", tmp_path / "barrier"
    barrier.mkdir()
    code = (f"import os, sys, time\n"
            f"from pathlib import Path\n"
            f"from zsim.runner import writer\n"
            f"real = writer.claim_out\n"
            f"def claim(out):\n"
            f"    Path({str(barrier)!r}, str(os.getpid())).touch()\n"
            f"    while len(os.listdir({str(barrier)!r})) < 2: time.sleep(0.01)\n"
            f"    return real(out)\n"
            f"writer.claim_out = claim\n"
            f"from zsim.cli import main\n"
            f"main(['run', '--games', '12', '-n', '2', '-s', 'random', '--jobs', '1', "
            f"'--quiet', '--seed', sys.argv[1], '--out', {str(out)!r}])\n")
    runs = [subprocess.Popen([sys.executable, "-c", code, seed], text=True,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            for seed in ("7", "8")]
    outputs = [run.communicate(timeout=120)[0] for run in runs]
    codes = sorted(run.returncode for run in runs)
    assert codes == [0, 1], outputs
    assert any("directory is not empty" in output for output in outputs)
    seeds = pd.read_parquet(out / "games.parquet")["seed"]
    assert len(seeds) == 12
    winner = json.loads((out / "run.json").read_text())["master_seed"]
    assert set(seeds) == {game_seed(winner, i) for i in range(12)}


def test_a_resume_while_the_run_plays_is_refused_and_a_killed_runs_lock_is_taken_over(
        tmp_path):
    out = tmp_path / "run"
    bot = slow_bot(tmp_path, pause=0.1)
    args = ["--games", "16", "-n", "2", "-s", bot, "-s", "random", "--seed", "3",
            "--chunk-size", "4", "--quiet"]
    run = zsim_process("run", *args, "--jobs", "2", "--out", str(out))
    try:
        wait_for(lambda: chunkfile.finished(out))
        with pytest.raises(OSError, match=f"another zsim run \\(process {run.pid}\\)"):
            resume_run(out)
        workers = psutil.Process(run.pid).children(recursive=True)
        assert workers
        run.kill()  # kill -9: no clean-up, the lock file stays behind
        run.wait()
        # The workers notice that their parent is gone, and end rather than write on.
        wait_for(lambda: not any(w.is_running() and w.status() != psutil.STATUS_ZOMBIE
                                 for w in workers), seconds=10)
    finally:
        run.kill()
    assert (out / "run.lock").exists()
    report = resume_run(out, jobs=1)  # the stale lock is taken over
    assert report.summary.failed == 0 and not (out / "run.lock").exists()
    whole = tmp_path / "whole"
    CliRunner().invoke(main, ["run", *args, "--jobs", "1", "--out", str(whole)],
                       catch_exceptions=False)
    assert_same_tables(whole, out)


def test_a_worker_ends_when_its_parent_dies_even_stuck_in_c_code(tmp_path):
    # The child holds the interpreter's lock in a C call, so no thread of it runs Python: only
    # the kernel's parent-death signal can end it.
    code = ("import ctypes, os, time\n"
            "from zsim.runner import lifeline\n"
            "parent = os.getpid()\n"
            "child = os.fork()\n"
            "if child == 0:\n"
            "    lifeline.watch(parent)\n"
            "    ctypes.PyDLL(None).sleep(120)\n"
            "    os._exit(0)\n"
            "time.sleep(1)\n"
            "print(child, flush=True)\n"
            "os._exit(0)\n")
    parent = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True)
    worker = psutil.Process(int(parent.stdout))
    try:
        wait_for(lambda: not worker.is_running() or worker.status() == psutil.STATUS_ZOMBIE,
                 seconds=10)
    finally:
        with contextlib.suppress(psutil.NoSuchProcess):
            worker.kill()


def test_sigterm_stops_a_run_like_ctrl_c_and_it_resumes_to_the_same_tables(tmp_path):
    out = tmp_path / "run"
    bot = slow_bot(tmp_path)
    args = ["--games", "32", "-n", "2", "-s", bot, "-s", "random", "--seed", "5",
            "--chunk-size", "4", "--quiet"]
    run = zsim_process("run", *args, "--jobs", "2", "--out", str(out))
    wait_for(lambda: chunkfile.finished(out))
    workers = psutil.Process(run.pid).children(recursive=True)
    run.terminate()
    output = run.communicate(timeout=60)[0]
    assert run.returncode == 143, output
    on_disk = sum(stop - start for index, start, stop in batch.chunk_bounds(32, 4)
                  if index in chunkfile.finished(out))
    assert f"terminated (SIGTERM) with {on_disk} of 32 games finished" in output
    assert f"zsim run --resume {out}" in output and "Traceback" not in output
    assert json.loads((out / "run.json").read_text())["status"] == "interrupted"
    wait_for(lambda: not any(w.is_running() and w.status() != psutil.STATUS_ZOMBIE
                             for w in workers), seconds=10)
    assert not (out / "run.lock").exists()
    resume_run(out, jobs=1)
    whole = tmp_path / "whole"
    CliRunner().invoke(main, ["run", *args, "--jobs", "1", "--out", str(whole)],
                       catch_exceptions=False)
    assert_same_tables(whole, out)


def damage(file: Path, how: str) -> None:
    data = file.read_bytes()
    if how == "empty":
        file.write_bytes(b"")
    elif how == "truncated":
        file.write_bytes(data[: len(data) // 2])
    else:  # 16 bytes flipped in the middle, where the tables lie
        middle = len(data) // 2
        file.write_bytes(data[:middle] + bytes(b ^ 0xFF for b in data[middle:middle + 16])
                         + data[middle + 16:])


@pytest.mark.parametrize("how", ["empty", "truncated", "flipped"])
def test_a_damaged_chunk_is_played_again_and_said_so(small_run, tmp_path, capsys, how):
    out = interrupted_run(tmp_path / "run", 3)
    damaged = chunkfile.path(out, 1)
    damage(damaged, how)
    capsys.readouterr()
    resume_run(out)
    said = capsys.readouterr().err.strip().splitlines()
    assert len(said) == 1 and str(damaged) in said[0]
    assert "games 5-9 will be played again" in said[0]
    assert_same_tables(small_run, out)


def test_a_chunk_of_another_run_is_played_again(small_run, tmp_path, capsys):
    out = interrupted_run(tmp_path / "run", 3)
    other = interrupted_run(tmp_path / "other", 3, SMALL.with_overrides(seed=8))
    shutil.copy(chunkfile.path(other, 2), chunkfile.path(out, 2))
    capsys.readouterr()
    resume_run(out)
    said = capsys.readouterr().err
    assert "chunk-000002.bin belongs to another run" in said
    assert_same_tables(small_run, out)


def test_a_chunk_that_holds_other_games_is_played_again(small_run, tmp_path, capsys):
    out = interrupted_run(tmp_path / "run", 3)
    shutil.copy(chunkfile.path(out, 0), chunkfile.path(out, 1))  # games 0-4 as chunk 1
    capsys.readouterr()
    resume_run(out)
    assert "holds games 0-4, not those of chunk 1" in capsys.readouterr().err
    assert_same_tables(small_run, out)


def test_a_resume_of_an_edited_run_json_is_refused_and_loses_nothing(small_run, tmp_path,
                                                                     capsys):
    out = interrupted_run(tmp_path / "run", 3)
    manifest = json.loads((out / "run.json").read_text())
    manifest["experiment"]["seed"] = 8
    (out / "run.json").write_text(json.dumps(manifest))
    with pytest.raises(ExperimentError, match="edited since the run started"):
        resume_run(out)
    assert chunkfile.finished(out) == {0, 1, 2}
    # Edited with a matching run id as well, the chunks of seed 7 are not adopted.
    eight = interrupted_run(tmp_path / "eight", 0, SMALL.with_overrides(seed=8))
    manifest["run_id"] = json.loads((eight / "run.json").read_text())["run_id"]
    (out / "run.json").write_text(json.dumps(manifest))
    capsys.readouterr()
    resume_run(out)
    assert capsys.readouterr().err.count("belongs to another run") == 3
    resume_run(eight)
    assert_same_tables(eight, out)


def no_space(after: int) -> Callable[..., Any]:
    """A stand-in for ``os.fsync`` that finds the disk too full for a chunk file from the
    ``after``-th on (the small run.json still fits, once the chunk's temporary file is gone)."""
    chunks = [0]
    real = os.fsync

    def fsync(fd: int) -> None:
        if ".chunk-" in os.readlink(f"/proc/self/fd/{fd}"):
            chunks[0] += 1
            if chunks[0] >= after:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(fd)

    return fsync


def leftovers(out: Path) -> list[str]:
    return sorted(p.name for p in out.rglob("*") if p.name.endswith(".tmp"))


@pytest.mark.skipif(not Path("/proc/self/fd").exists(), reason="names open files as Linux does")
def test_a_full_disk_fails_the_run_in_one_line_and_a_resume_finishes_it(small_run, tmp_path,
                                                                       monkeypatch):
    out = tmp_path / "run"
    monkeypatch.setattr(os, "fsync", no_space(after=3))
    result = CliRunner().invoke(main, ["run", "--games", "24", "-s", "random", "--seed", "7",
                                       "--chunk-size", "5", "--jobs", "1", "--quiet",
                                       "--out", str(out)])
    monkeypatch.undo()
    assert result.exit_code == 1, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "No space left on device" in lines[0]
    assert f"{out / 'chunks'}" in lines[0] and f"zsim run --resume {out}" in lines[0]
    assert "free some space" in lines[0]
    assert json.loads((out / "run.json").read_text())["status"] == "failed"
    assert leftovers(out) == [] and not (out / "run.lock").exists()
    resume_run(out)
    assert_same_tables(small_run, out)


def test_a_full_disk_while_the_tables_are_written_leaves_none_of_them(small_run, tmp_path,
                                                                     monkeypatch):
    out = tmp_path / "run"
    written = [0]
    real = pq.ParquetWriter.write_table

    def write_table(self: pq.ParquetWriter, table: pa.Table, *args: Any, **kwargs: Any) -> None:
        written[0] += 1
        if written[0] >= 4:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(self, table, *args, **kwargs)

    monkeypatch.setattr(pq.ParquetWriter, "write_table", write_table)
    with pytest.raises(batch.RunFailed, match="No space left on device"):
        start_run(SMALL, out)
    monkeypatch.undo()
    assert written[0] >= 4 and not list(out.glob("*.parquet"))
    assert not (out / "failures.jsonl").exists() and leftovers(out) == []
    assert json.loads((out / "run.json").read_text())["status"] == "failed"
    resume_run(out)
    assert_same_tables(small_run, out)


class StuckOnceMarked(RandomStrategy):
    """The random bot, until a mark file appears: then it sleeps at every decision."""

    def __init__(self, mark: Path) -> None:
        self.mark = mark

    def choose(self, view: PlayerView, decision: Decision) -> Any:
        if self.mark.exists():
            time.sleep(60)
        return super().choose(view, decision)


@pytest.fixture
def ctrl_c_raises():
    """SIGINT raises KeyboardInterrupt, as at a terminal, even in a suite started with SIGINT
    ignored (as a shell starts a background job), where Python leaves it ignored."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def test_ctrl_c_counts_the_games_on_disk_whoever_played_them(tmp_path, ctrl_c_raises):
    out, mark = tmp_path / "run", tmp_path / "stuck"

    def ctrl_c_once_a_worker_wrote_a_chunk() -> None:
        wait_for(lambda: chunkfile.finished(out))
        mark.touch()
        time.sleep(0.5)
        os.kill(os.getpid(), signal.SIGINT)

    threading.Thread(target=ctrl_c_once_a_worker_wrote_a_chunk, daemon=True).start()
    with pytest.raises(RunInterrupted) as stopped:
        start_run(SMALL.with_overrides(jobs=2), out,
                  strategies={"random": StuckOnceMarked(mark)})
    on_disk = sum(stop - start for index, start, stop in batch.chunk_bounds(24, 5)
                  if index in chunkfile.finished(out))
    assert on_disk > 0 and stopped.value.finished == on_disk
    assert f"with {on_disk} of 24 games finished" in str(stopped.value)
    assert_workers_go()


# --- misbehaving strategies -----------------------------------------------------------------


class Blocks(RandomStrategy):
    """Blocks in a system call at its third decision of every game, and swallows what stops
    it as ``except Exception`` would."""

    def choose(self, view: PlayerView, decision: Decision) -> Any:
        view.memo["asked"] = view.memo.get("asked", 0) + 1
        if view.memo["asked"] == 3:
            with contextlib.suppress(Exception):
                time.sleep(120)
        return super().choose(view, decision)


class Dawdles(RandomStrategy):
    """Takes a little time over every decision: no single one is long, the game is."""

    def choose(self, view: PlayerView, decision: Decision) -> Any:
        time.sleep(0.01)
        return super().choose(view, decision)


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_strategy_over_the_decision_time_limit_fails_its_games_and_the_batch_goes_on(
        tmp_path, jobs):
    lineup = Experiment(games=6, players=[2], seed=3, chunk_size=3, jobs=jobs,
                        strategies=["random", "random", "blocks"], decision_time_limit=0.3)
    report = start_run(lineup, tmp_path / "run", strategies={"blocks": Blocks()})
    games = pd.read_parquet(tmp_path / "run" / "games.parquet")
    seated = games["strategies"].str.contains("blocks")
    assert games.loc[seated, "failed"].all() and not games.loc[~seated, "failed"].any()
    assert set(games.loc[seated, "failed_strategy"]) == {"blocks"}
    assert games.loc[seated, "failed_decision"].notna().all()
    assert games.loc[seated, "error"].str.startswith(
        "TimeLimitExceeded: strategy 'blocks' (seat").all()
    assert games.loc[seated, "error"].str.contains("more than 0.3 s over a").all()
    assert report.summary.failed == seated.sum() > 0


def test_a_game_over_the_game_time_limit_fails_naming_who_was_deciding(tmp_path):
    lineup = Experiment(games=2, players=[2], seed=3, chunk_size=2, jobs=1,
                        strategies=["dawdles", "random"], decision_time_limit=0,
                        game_time_limit=0.3)
    start_run(lineup, tmp_path / "run", strategies={"dawdles": Dawdles()})
    games = pd.read_parquet(tmp_path / "run" / "games.parquet")
    assert games["failed"].all() and set(games["failed_strategy"]) == {"dawdles"}
    assert games["error"].str.contains("the game took more than 0.3 s").all()


def test_the_time_limits_are_options_of_the_experiment_and_the_command_line(tmp_path):
    path = tmp_path / "limits.yaml"
    path.write_text("decision_time_limit: 2.5\ngame_time_limit: 0\n")
    experiment = load_experiment(path)
    assert (experiment.decision_time_limit, experiment.game_time_limit) == (2.5, 0)
    assert Experiment().decision_time_limit == 10 and Experiment().game_time_limit == 300
    out = tmp_path / "run"
    result = CliRunner().invoke(main, ["run", "--games", "2", "-n", "2", "--jobs", "1",
                                       "--decision-time-limit", "0", "--quiet",
                                       "--out", str(out)])
    assert result.exit_code == 0, result.output
    run = json.loads((out / "run.json").read_text())
    assert run["experiment"]["decision_time_limit"] == 0
    bad = CliRunner().invoke(main, ["run", "--decision-time-limit", "-1"])
    assert bad.exit_code == 2 and "--decision-time-limit" in bad.output


class EqualToAll:
    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = object.__hash__


class AnswersAnything(RandomStrategy):
    """Answers an object equal to every option instead of one of them."""

    def choose(self, view: PlayerView, decision: Decision) -> Any:
        return EqualToAll()


class NumpyAnswers(RandomStrategy):
    """Answers the right value, but as a numpy integer where an int was offered."""

    def choose(self, view: PlayerView, decision: Decision) -> Any:
        answer = super().choose(view, decision)
        return np.int64(answer) if type(answer) is int else answer


@pytest.mark.parametrize("bot, error", [
    (AnswersAnything, "IllegalChoice"),
    (NumpyAnswers, "IllegalChoice"),
])
def test_a_strategy_that_cheats_is_the_one_blamed(tmp_path, bot, error):
    lineup = Experiment(games=4, players=[2], seed=3, chunk_size=4, jobs=1,
                        strategies=["cheat", "random"])
    start_run(lineup, tmp_path / "run", strategies={"cheat": bot()})
    failures = [json.loads(line)
                for line in (tmp_path / "run" / "failures.jsonl").read_text().splitlines()]
    assert len(failures) == 4
    assert {f["strategy"] for f in failures} == {"cheat"}
    assert all(f["error"].startswith(error) and f["decision"] for f in failures)


def test_a_game_that_ends_with_a_broken_invariant_fails_by_seed(tmp_path, monkeypatch):
    # Nothing raises in these games: only the check of the invariants at their end sees the
    # soldiers that a faulty rule (here, one at the start of each turn of a 3-player game) made
    # up. It is played by a listener of the game: the compiled engine's calls between its own
    # modules cannot be patched.
    real = worker.Game

    class FaultyRule:
        def event(self, g, kind, data):
            if g.n == 3:
                g.state.players[data["seat"]].soldiers += 1

    def forging_game(*args, **kwargs):
        game = real(*args, **kwargs)
        game.listen(FaultyRule(), ("turn",))
        return game

    monkeypatch.setattr(worker, "Game", forging_game)
    lineup = Experiment(games=4, players=[2, 3], seed=3, chunk_size=4, jobs=1,
                        strategies=["random"])
    start_run(lineup, tmp_path / "run")
    games = pd.read_parquet(tmp_path / "run" / "games.parquet")
    three = games["n_players"] == 3
    assert games["failed"].tolist() == three.tolist() and three.any()
    for _, game in games[three].iterrows():
        assert game["error"].startswith(
            f"BrokenInvariant: game seed {game_seed(3, game['game'])} ended with broken "
            "invariants: seat 0: soldiers not conserved")
        assert pd.isna(game["failed_strategy"])  # the engine's fault: no strategy is blamed
    players = pd.read_parquet(tmp_path / "run" / "players.parquet")
    assert set(players["game"]) == set(games.loc[~three, "game"])


@pytest.mark.parametrize("spec, parameter", [
    ("builder(walls=1e999)", "walls"),
    ("greedy(patience=float('nan'))", None),
    ("greedy(walls=[1.0, 1e999])", "walls"),
])
def test_non_finite_bot_parameters_are_refused_naming_the_parameter(spec, parameter):
    with pytest.raises(registry.UnknownStrategy) as refused:
        registry.resolve(spec)
    if parameter:
        assert f"parameter {parameter!r}" in str(refused.value)


def test_a_bot_file_with_an_infinite_weight_is_refused(tmp_path):
    path = tmp_path / "wild.yaml"
    path.write_text("description: wild\nweights:\n  walls: .inf\n")
    with pytest.raises(registry.UnknownStrategy, match=r"walls.*finite"):
        registry.resolve(str(path))


# --- bad input ------------------------------------------------------------------------------


def test_an_experiment_whose_variants_explode_is_refused_in_one_line(tmp_path):
    path = tmp_path / "bomb.yaml"
    levels = "".join(f"  - &{chr(98 + i)} [{', '.join([f'*{chr(97 + i)}'] * 9)}]\n"
                     for i in range(8))
    path.write_text(f"games: 4\nanchors:\n  - &a [x, x, x, x, x, x, x, x, x]\n{levels}"
                    f"variants:\n  rules.palace_vp: *i\n")
    result = CliRunner().invoke(main, ["run", str(path), "--out", str(tmp_path / "run")])
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [
        f"Error: {path}: refused: its aliases expand to more than 100,000 values "
        f"(an alias bomb?)"]


@pytest.mark.parametrize("args, message", [
    (["-s", "nobody"], "Error: command line (--strategy): key 'strategies': unknown strategy "
                       "'nobody'"),
    (["--variant", "rules.soldiers=0"], "Error: command line (--variant): key 'variants': "
                                        "board.yaml: rules.soldiers: 0 soldiers per player"),
    (["--variant", "board=board9"], "Error: command line (--variant): key 'variants': variant "
                                    "board='board9'"),
])
def test_errors_in_values_given_on_the_command_line_say_so(tmp_path, args, message):
    # Random seats, so that no warning about a partial balanced block comes before the error.
    result = CliRunner().invoke(main, ["run", "--games", "2", "--jobs", "1", "--quiet",
                                       "--seats", "random", *args,
                                       "--out", str(tmp_path / "run")])
    assert result.exit_code == 1 and result.output.startswith(message), result.output
    assert "default.yaml" not in result.output and not (tmp_path / "run").exists()


def test_a_per_player_count_variant_with_number_keys_runs(tmp_path):
    out = tmp_path / "run"
    result = CliRunner().invoke(main, ["run", "--games", "2", "-n", "2", "--jobs", "1",
                                       "--quiet", "--variant",
                                       "rules.small_tokens={2: 7, 3: 9, 4: 11}",
                                       "--out", str(out)])
    assert result.exit_code == 0, result.output
    resumed = resume_run(out)  # run.json's copy of the variant reads back the same
    assert resumed.played == 0


def test_sigterm_while_the_tables_are_written_leaves_none_of_them(small_run, tmp_path,
                                                                 monkeypatch):
    real = merging._Table.close
    sent: list[int] = []

    def close(table: Any) -> None:
        real(table)
        if not sent:  # once the first table is written
            sent.append(signal.SIGTERM)
            os.kill(os.getpid(), signal.SIGTERM)

    monkeypatch.setattr(merging._Table, "close", close)
    out = tmp_path / "run"
    with pytest.raises(RunInterrupted, match=r"terminated \(SIGTERM\) with 24 of 24 games"):
        start_run(SMALL, out)
    monkeypatch.undo()
    assert not list(out.glob("*.parquet")) and leftovers(out) == []
    assert json.loads((out / "run.json").read_text())["status"] == "interrupted"
    resume_run(out)
    assert_same_tables(small_run, out)
