"""Whether this process may start processes of its own to share a search's work.

A batch run's worker plays one game on each core the run was given, so a strategy that shares
its playouts among processes (``mcts(..., jobs=N)``: ``zsim.strategies.rootpool``) plays them
itself there, with the same results: ``taken()`` is called as a worker plays its first chunk.
This module holds only the flag, so that a worker says so without importing the strategies.
"""

from __future__ import annotations

_TAKEN: list[bool] = [False]


def taken() -> None:
    """This process's cores are a run's: its strategies start no processes of their own."""
    _TAKEN[0] = True


def free() -> bool:
    """Whether a strategy of this process may start processes of its own."""
    return not _TAKEN[0]
