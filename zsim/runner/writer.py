"""The run directory on disk: run.json, the checks of the tables beside it, and the chunk
files' removal.

While a run goes, each finished chunk lands in ``chunks/`` (``zsim.runner.chunkfile``) and is
merged into the final tables, single Parquet files that ``pandas.read_parquet`` reads directly
(``zsim.runner.merging``); ``chunks/`` is removed once run.json says the run is complete.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

from zsim.errors import UserError
from zsim.runner import lock
from zsim.runner.chunkfile import CHUNKS, atomic_write

if TYPE_CHECKING:
    import pandas as pd

RUN_JSON = "run.json"
# The layout of run.json and of the tables beside it; one that reads another refuses it. Runs
# written before run.json recorded it have this layout.
RUN_FORMAT = 1
_REMOVERS = 8  # threads removing the chunk files


class OutputError(UserError, OSError):
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


STATUSES = ("running", "interrupted", "failed", "complete")
# run.json's keys that every reader relies on, and their JSON types; then those that a run
# started by an older zsim may lack (``tail_pieces``: its tail was cut in quarters)
_KEYS: dict[str, tuple[type, ...]] = {
    "run_id": (str,), "status": (str,), "experiment": (dict,), "box_digest": (str,),
    "chunk_size": (int,), "sessions": (list,)}
_OPTIONAL: dict[str, tuple[type, ...]] = {
    "tail_pieces": (int,), "play_digest": (str, type(None)), "git": (dict, type(None)),
    "versions": (dict,), "master_seed": (int,)}
_COUNTS = ("chunk_size", "tail_pieces")  # cut the run into chunks: positive


class DamagedRun(UserError, ValueError):
    """A run.json that cannot be read, or whose keys are missing or of the wrong type; the
    message names the file and the key."""


def read_manifest(path: Path) -> dict[str, Any]:
    """run.json, checked: JSON, an object, this zsim's layout, and every key the readers use
    of its type (a status that is one of ``STATUSES``, chunk counts that are positive). A file
    damaged by hand or by a disk gives one ``DamagedRun`` instead of an error deep inside
    whatever read it first."""
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise DamagedRun(f"{path}: cannot be read ({error})") from None
    if not isinstance(manifest, dict):
        raise DamagedRun(f"{path}: expected a JSON object, got {type(manifest).__name__}")
    if manifest.get("format", RUN_FORMAT) != RUN_FORMAT:
        raise DamagedRun(f"{path}: format {manifest['format']!r}, not the {RUN_FORMAT} this "
                         f"zsim reads: another version of zsim wrote it")
    for key, kinds in (*_KEYS.items(), *_OPTIONAL.items()):
        if key not in manifest:
            if key in _KEYS:
                raise DamagedRun(f"{path}: key {key!r} is missing: the file is damaged, or not "
                                 f"a zsim run's")
            continue
        value = manifest[key]
        # JSON's true and false are Python bools, which are ints too
        if isinstance(value, bool) or not isinstance(value, kinds):
            raise DamagedRun(f"{path}: key {key!r}: {value!r} is not "
                             f"{' or '.join(_JSON_NAMES[kind] for kind in kinds)}; the file is "
                             f"damaged")
        if key in _COUNTS and isinstance(value, int) and value < 1:
            raise DamagedRun(f"{path}: key {key!r}: {value!r} is not a positive whole number; "
                             f"the file is damaged")
    if manifest["status"] not in STATUSES:
        raise DamagedRun(f"{path}: key 'status': {manifest['status']!r} is none of "
                         f"{', '.join(STATUSES)}; the file is damaged")
    return manifest


_JSON_NAMES = {str: "a string", int: "a whole number", dict: "an object", list: "a list",
               type(None): "null"}


# The columns of the tables that every reader computes with: numbers (or flags) in any table
# this zsim writes; a table whose column holds text was edited or written by something else.
NUMERIC = {"games": ("game", "seed", "n_players"),
           "players": ("game", "seed", "n_players", "seat", "vp_total", "rank", "win_share")}
_REDO = "restore it from a copy of the run, or play the run again into a new directory"


def read_table(run: Path, name: str, columns: list[str] | None = None) -> pd.DataFrame:
    """``name``.parquet of the run in ``run`` (only ``columns``, if given); ``DamagedRun``
    naming the file when it is missing or cannot be read."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = run / f"{name}.parquet"
    if not path.is_file():
        raise DamagedRun(f"{path}: missing; {_REDO}")
    try:
        return pq.read_table(path, columns=columns).to_pandas()
    except (OSError, ValueError, pa.ArrowException) as error:  # a column not in it: ValueError
        first = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise DamagedRun(f"{path}: cannot be read as this run's table ({first}); "
                         f"{_REDO}") from None


def check_tables(run: Path, manifest: dict[str, Any], games: pd.DataFrame,
                 players: pd.DataFrame | None = None,
                 others: dict[str, pd.DataFrame] | None = None) -> None:
    """Refuse tables that are not the run's as run.json describes it, in one ``DamagedRun``
    naming the file: rows of another run, text where numbers belong, a games table without
    every game of the run, and a players table whose games are not the finished ones of the
    games table. Readers compute with these tables directly, so a table copied from another
    run, cut short or edited would otherwise give a wrong result, or an error deep inside a
    computation. ``games`` needs the columns ``game`` and ``failed``; the others are checked
    where present."""
    frames = {"games": games, **({"players": players} if players is not None else {}),
              **(others or {})}
    for name, frame in frames.items():
        path = run / f"{name}.parquet"
        _check_run_id(path, frame, str(manifest["run_id"]))
        _check_numeric(path, frame, NUMERIC.get(name, ()))
    _check_games(run / "games.parquet", games, manifest)
    if players is not None:
        _check_players(run / "players.parquet", players, games)


def _check_run_id(path: Path, frame: pd.DataFrame, run_id: str) -> None:
    if "run_id" not in frame.columns or frame.empty:
        return
    others = sorted({str(value) for value in frame["run_id"].unique()} - {run_id})
    if others:
        raise DamagedRun(f"{path}: holds rows of run {others[0]}, not of this run ({run_id} in "
                         f"{RUN_JSON}): it was copied from another run; {_REDO}")


def _check_numeric(path: Path, frame: pd.DataFrame, columns: tuple[str, ...]) -> None:
    from pandas.api.types import is_numeric_dtype

    for column in columns:
        if column in frame.columns and not is_numeric_dtype(frame[column]):
            raise DamagedRun(f"{path}: column {column!r} holds {frame[column].dtype}, not "
                             f"numbers: the file was edited or is not a zsim run's; {_REDO}")


def _check_games(path: Path, games: pd.DataFrame, manifest: dict[str, Any]) -> None:
    """Every game of the run once, each flagged failed or not."""
    if games.empty:
        raise DamagedRun(f"{path}: no rows: the file is damaged or not this run's; {_REDO}")
    if not set(games["failed"].dropna().unique()) <= {True, False}:
        raise DamagedRun(f"{path}: column 'failed' holds {games['failed'].dtype}, not flags: "
                         f"the file was edited or is not a zsim run's; {_REDO}")
    expected = manifest["experiment"].get("games")
    count = games["game"].nunique()
    if isinstance(expected, int) and not isinstance(expected, bool) and (
            count != expected or len(games) != expected):
        raise DamagedRun(f"{path}: holds {len(games)} rows of {count} games, not the "
                         f"{expected} games of {RUN_JSON}: the file was cut or is not this "
                         f"run's; {_REDO}")


def _check_players(path: Path, players: pd.DataFrame, games: pd.DataFrame) -> None:
    """A row per seat of each finished game, and none of another game."""
    finished = games[~games["failed"].fillna(False).astype(bool)]
    if players.empty and not finished.empty:
        raise DamagedRun(f"{path}: no rows, but games.parquet has {len(finished)} finished "
                         f"games: the file is damaged or not this run's; {_REDO}")
    rows = players.groupby("game").size()
    wanted = finished.set_index("game")["n_players"] if "n_players" in finished.columns \
        else rows.reindex(finished["game"])
    if set(rows.index) != set(wanted.index) or \
            (rows.reindex(wanted.index).to_numpy() != wanted.to_numpy()).any():
        raise DamagedRun(f"{path}: its rows are not a row per player of each finished game of "
                         f"games.parquet ({rows.size} games against {len(finished)}): the "
                         f"file is damaged or not this run's; {_REDO}")


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
