"""The component box as shipped to workers, and the digest that identifies its rules.

The parent loads and validates the box once; workers get it pickled with each chunk (about
50 KB, a millisecond to unpickle, against a fifth of a second to parse the YAML again) and keep
the first copy, so the engine's per-box caches stay warm across chunks. A loaded Box holds
read-only ``mappingproxy`` mappings, which pickle cannot handle by itself; a private dispatch
table teaches this one pickler to rebuild them, without changing pickling anywhere else.

The digest of the component files goes into the run id, and tells a resume or a replay whether
the rules changed since the run.
"""

from __future__ import annotations

import copyreg
import hashlib
import io
import json
import pickle
from collections.abc import Iterable, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any

from zsim import components
from zsim.components import Box

_LOADED: dict[str, Box] = {}


def box_digest(box_dir: Path) -> str:
    """A digest of every YAML file of a component directory, names and contents."""
    digest = hashlib.sha256()
    add_files(digest, box_dir, box_dir.rglob("*.y*ml"))
    return digest.hexdigest()[:16]


def add_files(digest: Any, root: Path, paths: Iterable[Path]) -> None:
    """Feed ``digest`` each file's path relative to ``root`` and its bytes, in path order, so
    that a renamed, added, removed or edited file changes it."""
    for path in sorted(paths):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")


def run_box_digest(box_dir: Path, overrides: Sequence[tuple[str, Any]] = ()) -> str:
    """The digest of the rules a run plays: the component files, then any box variants."""
    digest = box_digest(box_dir)
    if not overrides:
        return digest
    changes = json.dumps([list(pair) for pair in overrides], sort_keys=True)
    return hashlib.sha256(f"{digest}:{changes}".encode()).hexdigest()[:16]


def load_for_run(box_dir: Path, overrides: Sequence[tuple[str, Any]] = ()
                 ) -> tuple[Box, bytes, str]:
    """Load and validate a component directory with its box variants (raising ``BoxError``);
    return the box, the box packed for the workers, and the digest of these rules. This process
    keeps the box for its own chunks, and for its next runs of the same rules: the digest
    covers every component file and variant, so a sweep or a benchmark parses them once."""
    digest = run_box_digest(box_dir, overrides)
    box = _LOADED.get(digest)
    if box is None:
        box = _LOADED[digest] = components.load_box(box_dir, overrides)
    return box, _pack(box), digest


def unpack_box(blob: bytes, digest: str) -> Box:
    """The Box of a packed blob, unpickled once per process."""
    box = _LOADED.get(digest)
    if box is None:
        box = _LOADED[digest] = pickle.loads(blob)
    return box


def _reduce_mappingproxy(proxy: MappingProxyType) -> tuple[Any, ...]:
    return (MappingProxyType, (dict(proxy),))


def _pack(box: Box) -> bytes:
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = {**copyreg.dispatch_table, MappingProxyType: _reduce_mappingproxy}
    pickler.dump(box)
    return buffer.getvalue()
