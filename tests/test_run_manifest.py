"""A damaged run.json is one clear line, naming the file and the key, for every command that
reads it (``zsim.runner.writer.read_manifest``), and the run's files stay as they were."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from click.testing import CliRunner

from zsim.cli import main
from zsim.learn import dataset
from zsim.runner import Experiment
from zsim.runner.batch import start_run
from zsim.runner.writer import DamagedRun, read_manifest


def small_run(tmp_path_factory, name: str, seed: int) -> Path:
    """Four random two-player games, played into a run directory of their own."""
    out = tmp_path_factory.mktemp("runs") / name
    start_run(Experiment(games=4, players=[2], strategies=["random"], seed=seed, jobs=1,
                         chunk_size=2), out)
    return out


@pytest.fixture(scope="module")
def finished(tmp_path_factory) -> Path:
    return small_run(tmp_path_factory, "run", 3)


def damaged(finished: Path, tmp_path: Path, damage: Any) -> Path:
    run = tmp_path / "run"
    shutil.copytree(finished, run)
    path = run / "run.json"
    if isinstance(damage, str):
        path.write_text(damage)
    else:
        manifest = json.loads(path.read_text())
        damage(manifest)
        path.write_text(json.dumps(manifest))
    return run


def drop(key: str) -> Any:
    return lambda manifest: manifest.pop(key)


def put(key: str, value: Any) -> Any:
    return lambda manifest: manifest.__setitem__(key, value)


DAMAGES = [
    ("{bad", "cannot be read"),
    ("[1, 2]", "expected a JSON object, got list"),
    (put("format", 9), "format 9, not the 1 this zsim reads"),
    (drop("experiment"), "key 'experiment' is missing"),
    (drop("status"), "key 'status' is missing"),
    (drop("box_digest"), "key 'box_digest' is missing"),
    (drop("chunk_size"), "key 'chunk_size' is missing"),
    (put("status", "done"), "key 'status': 'done' is none of running, interrupted"),
    (put("status", 5), "key 'status': 5 is not a string"),
    (put("sessions", None), "key 'sessions': None is not a list"),
    (put("chunk_size", True), "key 'chunk_size': True is not a whole number"),
    (put("chunk_size", 0), "key 'chunk_size': 0 is not a positive whole number"),
    (put("tail_pieces", "4"), "key 'tail_pieces': '4' is not a whole number"),
    (put("experiment", [1]), "key 'experiment': [1] is not an object"),
    (put("play_digest", 3), "key 'play_digest': 3 is not a string or null"),
]


@pytest.mark.parametrize("damage, message", DAMAGES)
def test_every_reader_of_a_damaged_run_json_says_which_key_in_one_line(finished, tmp_path,
                                                                       damage, message):
    run = damaged(finished, tmp_path, damage)
    before = {p.name: p.read_bytes() for p in run.iterdir() if p.is_file()}
    with pytest.raises(DamagedRun, match=re.escape(message)):
        read_manifest(run / "run.json")
    for args in (["run", "--resume", str(run)], ["replay", str(run), "--game", "0"],
                 ["report", str(run), "--out", str(tmp_path / "report")],
                 ["regress", "--baseline", str(run), "--against", str(finished)]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code != 0, (args, result.output)
        assert result.exception is None or isinstance(result.exception, SystemExit), args
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and f"{run / 'run.json'}: " in lines[0] and message in lines[0], \
            (args, result.output)
    assert {p.name: p.read_bytes() for p in run.iterdir() if p.is_file()} == before


def test_the_positions_of_a_damaged_run_are_refused_naming_it(finished, tmp_path):
    run = damaged(finished, tmp_path, drop("box_digest"))
    (run / "positions.parquet").write_bytes((run / "players.parquet").read_bytes())
    with pytest.raises(dataset.DatasetError, match="key 'box_digest' is missing"):
        dataset.load([run], 2)


def test_a_sound_run_json_reads_as_written_and_older_ones_without_the_newer_keys(finished,
                                                                                 tmp_path):
    manifest = read_manifest(finished / "run.json")
    assert manifest == json.loads((finished / "run.json").read_text())
    assert manifest["status"] == "complete" and manifest["tail_pieces"] == 1
    older = damaged(finished, tmp_path, lambda m: [m.pop(k) for k in (
        "format", "tail_pieces", "play_digest", "git", "versions")])
    assert "tail_pieces" not in read_manifest(older / "run.json")
    result = CliRunner().invoke(main, ["replay", str(older), "--game", "1"])
    assert result.exit_code == 0, result.output


# --- the tables beside it --------------------------------------------------------------------


@pytest.fixture(scope="module")
def another(tmp_path_factory) -> Path:
    """A run of the same lineup on other seeds: its tables are not ``finished``'s."""
    return small_run(tmp_path_factory, "other", 4)


def rewrite(name: str, change: Any) -> Any:
    """A damage: ``name``.parquet read, changed by ``change`` and written back."""
    def damage(run: Path, other: Path) -> None:
        path = run / f"{name}.parquet"
        change(pd.read_parquet(path)).to_parquet(path)
    return damage


def copy_from_other(name: str) -> Any:
    return lambda run, other: shutil.copy(other / f"{name}.parquet", run / f"{name}.parquet")


TABLE_READERS = ("resume", "report", "rate", "power", "regress")
TABLE_DAMAGES = [
    (copy_from_other("players"), "players", "holds rows of run", TABLE_READERS),
    (rewrite("players", lambda p: p.assign(vp_total=p["vp_total"].astype(str))), "players",
     "column 'vp_total' holds", TABLE_READERS),
    (rewrite("players", lambda p: p.iloc[:0]), "players", "no rows, but games.parquet has 4",
     TABLE_READERS),
    (rewrite("players", lambda p: p.iloc[1:]), "players", "not a row per player",
     TABLE_READERS),
    (rewrite("games", lambda g: g.iloc[:2]), "games", "holds 2 rows of 2 games, not the 4",
     (*TABLE_READERS, "replay")),
    (lambda run, other: (run / "games.parquet").write_bytes(b"not parquet"), "games",
     "cannot be", (*TABLE_READERS, "replay")),
    (lambda run, other: (run / "games.parquet").unlink(), "games", "missing", TABLE_READERS),
]


@pytest.mark.parametrize("damage, table, message, readers", TABLE_DAMAGES)
def test_every_reader_of_a_table_not_the_runs_own_names_the_file_in_one_line(
        finished, another, tmp_path, damage, table, message, readers):
    run = tmp_path / "run"
    shutil.copytree(finished, run)
    damage(run, another)
    before = {p.name: p.read_bytes() for p in run.iterdir() if p.is_file()}
    commands = {"resume": ["run", "--resume", str(run)],
                "replay": ["replay", str(run), "--game", "0"],
                "report": ["report", str(run), "--out", str(tmp_path / "report")],
                "rate": ["rate", str(run)], "power": ["power", str(run)],
                "regress": ["regress", "--baseline", str(run), "--against", str(finished)]}
    for reader in readers:
        result = CliRunner().invoke(main, commands[reader])
        assert result.exit_code != 0, (reader, result.output)
        assert result.exception is None or isinstance(result.exception, SystemExit), reader
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and str(run) in lines[0] and f"{table}.parquet" in lines[0] \
            and message in lines[0], (reader, result.output)
    assert {p.name: p.read_bytes() for p in run.iterdir() if p.is_file()} == before


def test_a_run_whose_every_game_failed_is_refused_by_power_in_one_line(finished, tmp_path):
    run = tmp_path / "run"
    shutil.copytree(finished, run)
    games = pd.read_parquet(run / "games.parquet").assign(failed=True)
    games.to_parquet(run / "games.parquet")
    pd.read_parquet(run / "players.parquet").iloc[:0].to_parquet(run / "players.parquet")
    result = CliRunner().invoke(main, ["power", str(run)])
    assert result.exit_code == 1 and result.output.strip().splitlines() == [
        f"Error: {run}: no game finished, so there is no variance to measure (see its "
        f"failures.jsonl)"]
