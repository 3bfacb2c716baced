"""The runner's own stop (Ctrl-C or SIGTERM in the run's process), told apart from a
``KeyboardInterrupt`` that a strategy raises.

A game fails on whatever its strategies raise, ``BaseException`` included (``KeyboardInterrupt``,
``GeneratorExit``, ``SystemExit``): a bot must not stop a run, nor have ``--resume`` repeat the
stop. Only a stop the run's process was asked for goes through: its signal handlers note it
here before they raise. A run's worker processes ignore Ctrl-C and die of SIGTERM, so there
every ``KeyboardInterrupt`` is a strategy's.
"""

from __future__ import annotations

import threading

_asked = threading.Event()


def ask() -> None:
    """Note that the run's process was told to stop (called by its signal handlers)."""
    _asked.set()


def clear() -> None:
    """A new run of this process starts: no stop asked of it yet."""
    _asked.clear()


def is_stop(error: BaseException) -> bool:
    """Whether ``error`` is the runner's own stop, to let through a game rather than fail it."""
    return isinstance(error, KeyboardInterrupt) and _asked.is_set()
