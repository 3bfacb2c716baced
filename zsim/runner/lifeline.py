"""What a loky worker process does as it starts: import the code that plays chunks, and watch
its parent.

loky's workers outlive a parent killed by ``kill -9`` (or dead of any other cause that runs no
clean-up), and would go on playing the chunks they hold and writing them into a run directory
that a ``--resume`` may by then be playing into. A thread of each worker therefore checks, twice
a second, that its parent is still the process that started it (an orphan is adopted by
another), and ends the worker at once otherwise. The parent names itself, and the watch
starts before the import: a parent killed while its worker was still starting (importing takes
a second or more on a busy machine) would otherwise leave the worker watching for its new
parent, init, forever. Only the standard library here: the ``zsim run`` process pickles
``start`` before it imports the runner.
"""

from __future__ import annotations

import atexit
import gc
import os
import threading
import time
from importlib import import_module

CHECK_SECONDS = 0.5


def start(module: str, parent: int) -> None:
    """Initializer of a worker of process ``parent``: leave when the parent is gone, and import
    ``module``."""
    threading.Thread(target=_watch, args=(parent,), name="zsim-parent-watch",
                     daemon=True).start()
    atexit.register(gc.freeze)  # a quick exit, as zsim.cli's: the run waits for it
    import_module(module)


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(CHECK_SECONDS)
    os._exit(1)
