"""The ``positions`` table: what each seat saw at a sample of a game's questions.

At about ``SAMPLE`` of the questions of a game (every kind, drawn from the game's seed alone, so
the same game records the same positions in any run), every seat's input to a value model is
recorded (``zsim.learn.features.inputs``: its observation of the table, built from that seat's
view only, and the end-game scores of the public pieces as they stand), with the VP on the
track at that moment. The game's outcome is not in the row: a value model is
fitted on these rows joined with the players table (``zsim.learn.dataset``), which says how
each seat finished. Solo games (against Li Si) record nothing.

Each observation is made from a view of its own, not the seat's strategy's: recording reads
the table the way a seated player would, and changes nothing the strategies see or draw.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyarrow as pa

from zsim.rules.lisi import LiSiSeat

SAMPLE = 0.15  # share of questions at which the seats' observations are recorded
OBSERVATION = "observation"  # the column of the model inputs (float32 lists)


class PositionRecorder:
    """One chunk's positions (a ``zsim.runner.recorders.Collector``)."""

    def __init__(self) -> None:
        self.rows: list[tuple[Any, ...]] = []  # the finished games' rows
        self.vectors: list[np.ndarray] = []
        self._rows: list[tuple[Any, ...]] = []  # the game being played
        self._vectors: list[np.ndarray] = []
        self._ids: tuple[int, int, int] = (0, 0, 0)
        self._draw = random.Random(0)
        self._questions = 0

    def attach(self, game: Any, plan: Any) -> None:
        self._rows, self._vectors, self._questions = [], [], 0
        if any(isinstance(s, LiSiSeat) for s in game.strategies):
            return
        self._ids = (plan.index, plan.seed, plan.n_players)
        self._draw = random.Random(f"positions {plan.seed}")
        game.listen(self, ("decision",))

    def event(self, game: Any, kind: str, data: dict[str, Any]) -> None:
        """A question answered: the table stands as it was when it was asked."""
        from zsim.learn.features import inputs  # the encoding, only when a run records

        self._questions += 1
        if self._draw.random() >= SAMPLE:
            return
        decision = data["decision"]
        state = game.state
        track = [sum(p.vp.values()) for p in state.players]
        for seat in range(game.n):
            best_other = max(v for s, v in enumerate(track) if s != seat)
            view = game.view(seat)
            self._vectors.append(inputs(game, view))
            self._rows.append((*self._ids, seat, self._questions, decision.kind,
                               decision.seat == seat, state.round, track[seat],
                               track[seat] - best_other))

    def finish(self, ok: bool) -> None:
        if ok:
            self.rows += self._rows
            self.vectors += self._vectors
        self._rows, self._vectors = [], []

    def table(self) -> pa.Table:
        columns = list(zip(*self.rows, strict=True)) if self.rows else [()] * len(FIELDS)
        arrays = [pa.array(list(values), type=kind)
                  for values, (_, kind) in zip(columns, FIELDS, strict=True)]
        # a list per row (every row of a run is as long): a chunk without any has the same type
        offsets = np.concatenate(([0], np.cumsum([len(v) for v in self.vectors], dtype=np.int32)))
        flat = np.concatenate(self.vectors) if self.vectors else np.zeros(0, np.float32)
        arrays.append(pa.ListArray.from_arrays(pa.array(offsets.astype(np.int32)),
                                               pa.array(flat, pa.float32())))
        names = [name for name, _ in FIELDS] + [OBSERVATION]
        return pa.Table.from_arrays(arrays, names=names)


FIELDS = (("game", pa.int64()), ("seed", pa.int64()), ("n_players", pa.int64()),
          ("seat", pa.int64()), ("question", pa.int64()), ("kind", pa.string()),
          ("asked", pa.bool_()), ("round", pa.int64()), ("vp_now", pa.int64()),
          ("margin_now", pa.int64()))
