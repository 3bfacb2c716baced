"""Build step for the one compiled part of zsim: a mypyc copy of ``strategies/estimates.py``.

The heuristic bots spend most of their time in the estimates, and compiled they play about
1.5 times as fast with exactly the same decisions. The source stays the pure-Python module;
the build compiles a copy of it named ``strategies.estimates_native`` that carries the digest
of the source it came from, so an edited source is never shadowed by a stale build
(``strategies/model.py`` picks the module at import time). Without a C compiler, or with
``ZSIM_PURE_PYTHON=1``, nothing is compiled and the bots run the source.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

from setuptools import Extension, setup

SOURCE = Path("strategies/estimates.py")
COPY = Path("build/native/strategies/estimates_native.py")


def compiled_estimates() -> list[Extension]:
    """The extension modules of the compiled copy, each optional: a failed compile warns."""
    if os.environ.get("ZSIM_PURE_PYTHON"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        return []
    digest = hashlib.sha256(SOURCE.read_bytes()).hexdigest()
    COPY.parent.mkdir(parents=True, exist_ok=True)
    (COPY.parent / "__init__.py").write_text("")
    COPY.write_text(f"{SOURCE.read_text()}\nSOURCE_DIGEST = {digest!r}\n")
    # The copy is type-checked on its own: the modules it imports are read, not checked.
    try:
        extensions = mypycify(["--follow-imports=silent", "--ignore-missing-imports", str(COPY)],
                              opt_level="3")
    except SystemExit:  # mypyc printed the type errors: install the source alone
        print(f"{SOURCE} does not type-check (above): installing without its compiled copy",
              file=sys.stderr)
        return []
    for extension in extensions:
        extension.optional = True
    return extensions


setup(ext_modules=compiled_estimates())
