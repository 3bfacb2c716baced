"""Build step for the one compiled part of zsim: mypyc copies of ``strategies/estimates.py``
and of the rules queries it reads, ``zsim/rules/queries.py``.

The heuristic bots spend most of their time in the estimates, and compiled they play about
1.5 times as fast with exactly the same decisions. The sources stay the pure-Python modules;
the build compiles copies of them named ``strategies.estimates_native`` and
``strategies.queries_native`` (one mypyc group, so the estimates call the queries natively),
each carrying the digest of the source it came from, so an edited source is never shadowed by a
stale build (``strategies/model.py`` picks the module at import time). The engine itself always
runs the source queries. Without a C compiler, or with ``ZSIM_PURE_PYTHON=1``, nothing is
compiled and the bots run the sources.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

from setuptools import Extension, setup

NATIVE = Path("build/native/strategies")
# source -> its compiled copy's module name; the estimates' import of the queries is pointed at
# the compiled queries in the copy
SOURCES = {Path("strategies/estimates.py"): "estimates_native",
           Path("zsim/rules/queries.py"): "queries_native"}
QUERIES_IMPORT = ("from zsim.rules import queries\n",
                  "from strategies import queries_native as queries\n")


def native_copy(source: Path, name: str) -> Path:
    """Write the copy of ``source`` to compile, with the digest of the source it came from."""
    digest = hashlib.sha256(source.read_bytes()).hexdigest()
    text = source.read_text().replace(*QUERIES_IMPORT)
    copy = NATIVE / f"{name}.py"
    copy.write_text(f"{text}\nSOURCE_DIGEST = {digest!r}\n")
    return copy


def compiled_estimates() -> list[Extension]:
    """The extension modules of the compiled copy, each optional: a failed compile warns."""
    if os.environ.get("ZSIM_PURE_PYTHON"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        return []
    NATIVE.mkdir(parents=True, exist_ok=True)
    (NATIVE / "__init__.py").write_text("")
    copies = [str(native_copy(source, name)) for source, name in SOURCES.items()]
    # The copies are type-checked on their own: the modules they import are read, not checked.
    try:
        extensions = mypycify(["--follow-imports=silent", "--ignore-missing-imports", *copies],
                              opt_level="3")
    except SystemExit:  # mypyc printed the type errors: install the sources alone
        print(f"{', '.join(map(str, SOURCES))} do not type-check (above): installing without "
              "their compiled copies", file=sys.stderr)
        return []
    for extension in extensions:
        extension.optional = True
    return extensions


setup(ext_modules=compiled_estimates())
