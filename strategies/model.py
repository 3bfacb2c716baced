"""Which estimates module the heuristic bots run.

``strategies/estimates.py`` is the model's only source, and ``zsim/rules/queries.py`` the rules
it reads. An install with a C compiler also builds compiled copies of both,
``strategies.estimates_native`` and ``strategies.queries_native`` (see ``setup.py``), which play
the same decisions about 1.5 times as fast. The copies are used only while each matches its
source byte for byte, so an edit to the estimates or to the queries takes effect at once (at
pure-Python speed until the next ``pip install -e .``). ``ZSIM_PURE_PYTHON=1`` forces the
sources, e.g. to profile them.
"""

from __future__ import annotations

import hashlib
import importlib
import os
from pathlib import Path
from types import ModuleType

from strategies import estimates
from zsim.rules import queries

NATIVE = "strategies.estimates_native"
QUERIES_NATIVE = "strategies.queries_native"


def _digest(module: ModuleType) -> str:
    return hashlib.sha256(Path(str(module.__file__)).read_bytes()).hexdigest()


def _choose() -> tuple[ModuleType, str]:
    """(the module, one line saying which and why) for ``zsim bench`` and the docs."""
    if os.environ.get("ZSIM_PURE_PYTHON"):
        return estimates, "pure Python (ZSIM_PURE_PYTHON is set)"
    try:
        native_queries = importlib.import_module(QUERIES_NATIVE)
        native = importlib.import_module(NATIVE)
    except ImportError:
        return estimates, ("pure Python (no compiled copy: the install had no C compiler, or"
                           " the estimates did not type-check)")
    for copy, source in ((native, estimates), (native_queries, queries)):
        if getattr(copy, "SOURCE_DIGEST", None) != _digest(source):
            return estimates, (f"pure Python (the compiled copy is older than "
                               f"{Path(str(source.__file__)).name}: run pip install -e . again)")
    return native, "compiled with mypyc"


ESTIMATES, BUILD = _choose()
