"""Which build of the engine runs: the modules compiled with mypyc at install time, or their
Python sources.

An install with a C compiler compiles the engine (``setup.py``) into extension modules that sit
beside their sources under the same names, and records the digest of every source it compiled
in ``zsim/compiled.json``. The compiled modules are one group, calling each other natively, so
they are used all together or not at all: only while every source still has its recorded
digest (an edited or checked-out source is never shadowed by an older build: the whole engine
then runs from source until the next ``pip install -e .``), and never when
``ZSIM_PURE_PYTHON`` is set, so that both builds can be measured from one install.

The choice is made once, when ``zsim`` is first imported (``zsim/__init__.py`` imports this
module before any engine module), and enforced by a finder put first on ``sys.meta_path``
that loads each module of the build from the file chosen, whatever the order in which Python's
own finders would look. ``ENGINE`` says which build runs and why (``zsim --version``,
``zsim bench``).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Sequence
from importlib.machinery import EXTENSION_SUFFIXES, ExtensionFileLoader, ModuleSpec
from importlib.util import spec_from_file_location
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent  # holds the zsim and strategies packages
MANIFEST = Path(__file__).with_name("compiled.json")
SWITCH = "ZSIM_PURE_PYTHON"
GROUP = "__mypyc"  # the name's ending of the build's shared library
OFF = ("", "0", "false", "no", "off")  # values of the switch that leave the compiled build on


def switched_off(environ: dict[str, str] | os._Environ[str] = os.environ) -> bool:
    """Whether the switch asks for the sources: ``ZSIM_PURE_PYTHON=1`` does,
    ``ZSIM_PURE_PYTHON=0`` (or unset, or empty) does not."""
    return environ.get(SWITCH, "").strip().lower() not in OFF


def source_of(module: str) -> Path:
    return ROOT.joinpath(*module.split(".")).with_suffix(".py")


def extension_of(module: str) -> Path | None:
    """The compiled module beside the source, if the build left one for this interpreter."""
    source = source_of(module)
    for suffix in EXTENSION_SUFFIXES:
        candidate = source.with_name(source.stem + suffix)
        if candidate.exists():
            return candidate
    return None


def _digest(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def choose(recorded: dict[str, str], switched_off: bool) -> tuple[bool, str]:
    """(use the compiled modules, one line saying which build runs and why), given the build's
    record (module -> digest of the source it compiled; empty: nothing was compiled)."""
    if not recorded:
        return False, ("pure Python (not compiled: the install had no C compiler or no mypy, "
                       f"the engine did not type-check, or {SWITCH}=1 was set)")
    if switched_off:
        return False, f"pure Python ({SWITCH}={os.environ.get(SWITCH)})"
    stale = [name for name, digest in recorded.items() if _digest(source_of(name)) != digest]
    if stale:
        shown = ", ".join(str(source_of(name).relative_to(ROOT)) for name in sorted(stale))
        return False, f"pure Python (stale: {shown}; pip install -e . compiles it again)"
    missing = sorted(name for name in recorded if extension_of(name) is None)
    if missing:
        return False, f"pure Python (incomplete build: no compiled {', '.join(missing)})"
    return True, "compiled (mypyc)"


class BuildFinder:
    """Loads each module of the build from its extension or from its source, as chosen."""

    def __init__(self, modules: Sequence[str], compiled: bool) -> None:
        self.modules = frozenset(modules)
        self.compiled = compiled

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if self.compiled and fullname.endswith(GROUP) and "." not in fullname:
            return _group_spec(fullname)
        if fullname not in self.modules:
            return None
        if self.compiled:
            extension = str(extension_of(fullname))
            return spec_from_file_location(fullname, extension,
                                           loader=ExtensionFileLoader(fullname, extension))
        source = source_of(fullname)
        if not source.exists():  # a module the build had and the sources no longer have
            return None  # (moved into a package, say): Python's own finders look for it
        return spec_from_file_location(fullname, source)


def _group_spec(fullname: str) -> ModuleSpec | None:
    """The build's shared library (``<digest>__mypyc``, which every compiled module imports),
    from the top of the tree it was built in. An editable install maps it only when it
    compiles: a second ``pip install -e`` that keeps the build would leave it unfound."""
    for suffix in EXTENSION_SUFFIXES:
        candidate = ROOT / (fullname + suffix)
        if candidate.exists():
            return spec_from_file_location(fullname, str(candidate),
                                           loader=ExtensionFileLoader(fullname, str(candidate)))
    return None  # an installed wheel keeps it in site-packages: Python's own finders have it


def _install() -> tuple[bool, str]:
    try:
        recorded: dict[str, str] = json.loads(MANIFEST.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        recorded = {}
    compiled, line = choose(recorded, switched_off())
    if recorded:
        sys.meta_path.insert(0, BuildFinder(list(recorded), compiled))
    return compiled, line


COMPILED, ENGINE = _install()
