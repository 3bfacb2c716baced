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


def read_json(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


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
