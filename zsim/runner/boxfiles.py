"""The component box as shipped to workers: its YAML files, not the loaded ``Box``.

A loaded Box holds read-only mappings that do not pickle, and a remote Dask worker may not have
the run's component directory at all. So the parent reads the files once, ships their bytes
with each chunk (tens of KB), and every worker process loads them once and keeps the Box, which
also keeps the engine's per-box caches warm across chunks. The digest of the same bytes goes
into the run id, and tells a resume or a replay whether the rules changed since the run.
"""

from __future__ import annotations

import hashlib
import tempfile
from pathlib import Path

from zsim.components import Box, load_box

_LOADED: dict[str, Box] = {}


def read_box_files(box_dir: Path) -> dict[str, bytes]:
    """Every YAML file of a component directory, by path relative to it."""
    return {path.relative_to(box_dir).as_posix(): path.read_bytes()
            for path in sorted(box_dir.rglob("*.y*ml"))}


def files_digest(files: dict[str, bytes]) -> str:
    digest = hashlib.sha256()
    for name in sorted(files):
        digest.update(name.encode() + b"\0" + files[name] + b"\0")
    return digest.hexdigest()[:16]


def box_digest(box_dir: Path) -> str:
    return files_digest(read_box_files(box_dir))


def load_for_run(box_dir: Path) -> tuple[dict[str, bytes], str]:
    """Load and validate a component directory in this process (raising ``BoxError``), and
    return its files and digest for shipping; this process then needs no second load."""
    files = read_box_files(box_dir)
    digest = files_digest(files)
    _LOADED[digest] = load_box(box_dir)
    return files, digest


def load_shipped_box(files: dict[str, bytes], digest: str) -> Box:
    """The Box of shipped files, loaded once per process."""
    box = _LOADED.get(digest)
    if box is None:
        with tempfile.TemporaryDirectory(prefix="zsim-box-") as tmp:
            for name, data in files.items():
                path = Path(tmp, name)
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(data)
            box = _LOADED[digest] = load_box(tmp)
    return box
