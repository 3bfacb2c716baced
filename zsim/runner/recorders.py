"""Extra tables a run may record from its games, beside the result tables.

A recorder is named in the experiment (``record: [positions]``). In each chunk the worker makes
one ``start()`` collector per recorder; the collector is attached to each game before it plays
(``attach(game, plan)``, which listens to the game's events) and told when the game finished
(``finish(ok)``: a failed game's rows are dropped); ``table()`` is the chunk's Arrow table,
written beside the result tables and merged into ``<name>.parquet`` like them. The
recorders are looked up by name on first use, so that a run that records nothing imports none.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any, Protocol

import pyarrow as pa

# name -> "module:factory" of the recorder
RECORDERS = {"positions": "zsim.learn.positions:PositionRecorder"}


class Collector(Protocol):
    """One chunk's rows of a recorded table."""

    def attach(self, game: Any, plan: Any) -> None: ...

    def finish(self, ok: bool) -> None: ...

    def table(self) -> pa.Table: ...


def collectors(names: list[str] | tuple[str, ...]) -> dict[str, Collector]:
    """A fresh collector per recorder named, by table name."""
    found = {}
    for name in names:
        module, _, factory = RECORDERS[name].partition(":")
        found[name] = getattr(import_module(module), factory)()
    return found
