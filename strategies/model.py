"""Which estimates module the heuristic bots run.

``strategies/estimates.py`` is the model's only source. An install with a C compiler also builds
a compiled copy of it, ``strategies.estimates_native`` (see ``setup.py``), which plays the same
decisions about 1.5 times as fast. The copy is used only while it matches the source byte for
byte, so an edit to the estimates takes effect at once (at pure-Python speed until the next
``pip install -e .``). ``ZSIM_PURE_PYTHON=1`` forces the source, e.g. to profile it.
"""

from __future__ import annotations

import hashlib
import importlib
import os
from pathlib import Path
from types import ModuleType

from strategies import estimates

NATIVE = "strategies.estimates_native"


def _choose() -> tuple[ModuleType, str]:
    """(the module, one line saying which and why) for ``zsim bench`` and the docs."""
    if os.environ.get("ZSIM_PURE_PYTHON"):
        return estimates, "pure Python (ZSIM_PURE_PYTHON is set)"
    try:
        native = importlib.import_module(NATIVE)
    except ImportError:
        return estimates, ("pure Python (no compiled copy: the install had no C compiler, or"
                           " the estimates did not type-check)")
    digest = hashlib.sha256(Path(estimates.__file__).read_bytes()).hexdigest()
    if getattr(native, "SOURCE_DIGEST", None) != digest:
        return estimates, ("pure Python (the compiled copy is older than strategies/estimates.py:"
                           " run pip install -e . again)")
    return native, "compiled with mypyc"


ESTIMATES, BUILD = _choose()
