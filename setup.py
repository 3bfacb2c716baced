"""Build step for the compiled engine: the rules, the state, the game loop, the seat's view and
the heuristic bots' estimates, compiled with mypyc under their own module names.

Compiled, the engine plays the same games, decision for decision, about four times as fast
(4.0x [3.9, 4.1] on the default lineup). The
build is optional: without mypy or a C compiler, when the sources do not type-check, or with
``ZSIM_PURE_PYTHON=1`` set at install time, nothing is compiled and the install has the sources
alone. A build that succeeds writes ``zsim/compiled.json`` beside the modules, with the digest
of each source it compiled; ``zsim.engine_build`` (imported by ``zsim/__init__.py``) uses a compiled
module only while every source of the build still has its recorded digest, so an edited source
takes effect at once (at pure-Python speed until the next ``pip install -e .``). An editable
install whose in-place build still matches every source keeps it (``reusable``): a second
``pip install -e`` does not compile the engine again.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import sysconfig
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

# One mypyc group (one shared library): calls between these modules are native calls.
COMPILED = (
    "zsim/state.py",
    "zsim/decisions.py",
    "zsim/kinds.py",
    "zsim/records.py",
    "zsim/view.py",
    "zsim/game.py",
    "zsim/invariants.py",  # checked at the end of every game the engine and the runner play
    *sorted(str(path) for path in Path("zsim/rules").glob("*.py") if path.name != "__init__.py"),
    # the bots' estimates, one module per concern (the package's __init__ only names them)
    *sorted(str(path) for path in Path("zsim/strategies/estimates").glob("*.py")
            if path.name != "__init__.py"),
    "zsim/encode/observation.py",
    "zsim/experience/record.py",
)
COMPILED_DIGESTS: dict[str, str] = {}  # filled when mypyc reads the sources
MANIFEST = "compiled.json"  # in the zsim package: {module: sha256 of the source compiled}
# Type errors mypy reports for types it cannot narrow (an optional attribute known to be set,
# a YAML dict keyed by player counts read with an int): the compiled code does the generic
# operation there, as Python does.
LENIENT = ("--disable-error-code=union-attr", "--disable-error-code=index",
           "--disable-error-code=call-overload")
# Commands that build the extensions (the others only ask setuptools for metadata), and those
# that build them in place, beside the sources (an editable install).
BUILDS = {"build", "build_ext", "bdist_wheel", "editable_wheel", "install", "develop"}
IN_PLACE = {"editable_wheel", "develop", "--inplace", "-i"}


def module_name(source: str) -> str:
    return source.removesuffix(".py").replace("/", ".")


def digests() -> dict[str, str]:
    return {module_name(source): hashlib.sha256(Path(source).read_bytes()).hexdigest()
            for source in COMPILED}


def remove_earlier_build(in_place: bool) -> None:
    """Remove what an earlier build left where this one puts its extensions: beside the sources
    for an editable install, in setuptools' ``build/lib*`` directories otherwise. A build that
    fails or is switched off then installs the sources alone, and a wheel's build leaves an
    editable install's extensions in place."""
    for root in [Path()] if in_place else Path("build").glob("lib*"):
        (root / "zsim" / MANIFEST).unlink(missing_ok=True)
        for source in COMPILED:
            for built in (root / source).parent.glob(f"{Path(source).stem}.*.so"):
                built.unlink()
        for library in root.glob("*__mypyc.*.so"):
            library.unlink()


def reusable(root: Path = Path()) -> bool:
    """Whether the in-place build under ``root`` is whole and fresh: its record names every
    source with the digest it has now, and every extension is there for this Python. A second
    editable install (``pip install -e ".[test]"`` after ``pip install -e .``) then keeps it
    instead of compiling the same sources again, five CPU-minutes for nothing."""
    try:
        recorded = json.loads((root / "zsim" / MANIFEST).read_text())
    except (OSError, ValueError):
        return False
    here = {module_name(source): hashlib.sha256((root / source).read_bytes()).hexdigest()
            for source in COMPILED}
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    return (recorded == here
            and all((root / source).with_suffix(suffix).is_file() for source in COMPILED)
            and any(root.glob(f"*__mypyc{suffix}")))


def compiled_engine() -> list[Extension]:
    """The extension modules of the engine, or none (see the module docstring)."""
    if not BUILDS & set(sys.argv[1:]):
        return []
    in_place = bool(IN_PLACE & set(sys.argv[1:]))
    # the switch read as zsim.engine_build.switched_off reads it (0, false, no, off: compile)
    switch = os.environ.get("ZSIM_PURE_PYTHON", "").strip().lower()
    if in_place and switch in ("", "0", "false", "no", "off") and reusable():
        print("the engine's in-place build matches its sources: kept, not compiled again",
              file=sys.stderr)
        return []
    remove_earlier_build(in_place=in_place)
    if switch not in ("", "0", "false", "no", "off"):
        print("ZSIM_PURE_PYTHON is set: installing the engine's sources alone", file=sys.stderr)
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("mypy is missing: installing the engine's sources alone", file=sys.stderr)
        return []
    # The digests of the sources as mypyc reads them: a source edited while the C compiler
    # runs is then recorded as stale, never as built.
    print("compiling the engine with mypyc: about five CPU-minutes (ZSIM_PURE_PYTHON=1 "
          "installs the sources alone)", file=sys.stderr)
    COMPILED_DIGESTS.update(digests())
    # The modules they import are read for their types, not compiled.
    try:
        extensions = mypycify(["--follow-imports=silent", "--ignore-missing-imports",
                               "--explicit-package-bases", *LENIENT, *COMPILED],
                              opt_level="3")
    except SystemExit:  # mypyc printed the type errors: install the sources alone
        print("the engine does not type-check (above): installing its sources alone",
              file=sys.stderr)
        return []
    return extensions


class BuildWithManifest(build_ext):
    """build_ext that records what it compiled in ``zsim/compiled.json``, only once every
    extension is built: a compile that fails (no C compiler) leaves no record, and the engine
    runs its sources."""

    def run(self) -> None:
        if not self.extensions:
            return
        built = [Path(self.build_lib, self.get_ext_filename(ext.name))
                 for ext in self.extensions]
        try:
            super().run()
        except Exception as error:  # any compiler failure: the sources alone
            for path in built:  # a part built without the rest would be imported as it is
                path.unlink(missing_ok=True)
            print(f"the engine could not be compiled ({error}): installing its sources alone",
                  file=sys.stderr)
            return
        record = json.dumps(COMPILED_DIGESTS, indent=1, sort_keys=True) + "\n"
        targets = [Path(self.build_lib, "zsim", MANIFEST)]
        if self.inplace:  # an editable install runs the extensions from the source tree
            targets.append(Path("zsim", MANIFEST))
        for target in targets:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(record)


setup(ext_modules=compiled_engine(), cmdclass={"build_ext": BuildWithManifest})
