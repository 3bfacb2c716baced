"""The run directory on disk: run.json, and the chunk files' removal.

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
from typing import Any

from zsim.runner import lock
from zsim.runner.chunkfile import CHUNKS, atomic_write

RUN_JSON = "run.json"
# The layout of run.json and of the tables beside it; one that reads another refuses it. Runs
# written before run.json recorded it have this layout.
RUN_FORMAT = 1
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


class DamagedRun(ValueError):
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
