"""A worker process ends when the run's process that started it does.

Without this, the workers of a ``zsim run`` killed with ``kill -9`` (or dead of any other cause
that runs no clean-up) would go on playing the chunks they hold and writing them into a run
directory that a ``--resume`` may by then be playing into. On Linux the kernel kills a worker
as its parent dies (``PR_SET_PDEATHSIG``), even one stuck in C code; everywhere, a thread of the
worker also checks twice a second that its parent is still the process that started it (an
orphan is adopted by another) and ends the worker otherwise.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import threading
import time

CHECK_SECONDS = 0.5
_PR_SET_PDEATHSIG = 1


def watch(parent: int) -> None:
    """End this process as soon as process ``parent``, which started it, is gone."""
    if sys.platform == "linux":
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # gone before the watch began
        os._exit(1)
    threading.Thread(target=_watch, args=(parent,), name="zsim-parent-watch",
                     daemon=True).start()


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(CHECK_SECONDS)
    os._exit(1)
