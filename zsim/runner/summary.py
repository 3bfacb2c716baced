"""The end-of-run summary: per strategy win rate with a 95% Wilson interval, mean VP, failures.

It is built from sums per strategy (``Tally``). A run collects them from the chunk tables that
the merging reads anyway (``zsim.runner.merging``), so its end reads nothing back;
a finished run's files give the same sums record batch by record batch (``summarize``), in the
same small memory for 100,000 games as for ten. Both stay on numpy and pyarrow's arrays: pandas
is imported only when someone asks for ``Summary.table`` (a notebook), since importing it took a
fifth of a second of every ``zsim run``'s time outside its games (pyarrow's own group-by, too,
imports pandas).
"""

from __future__ import annotations

import math
import threading
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from zsim.rules.scoring import CATEGORIES
from zsim.stats import wilson_interval

if TYPE_CHECKING:
    import pandas as pd

_VP = ("vp_total", *CATEGORIES)
_SUMMED = ("win_share", *_VP)  # the players columns summed per strategy
# The columns of ``Summary.table``, in order.
COLUMNS = ("games", "wins", "win_rate", "win_low", "win_high", *_VP, "failures")


class Tally:
    """Per strategy, the player rows and their sums of win shares and VP; the games, and the
    failed ones blamed on each strategy (or on none: the engine's own failures). Tables are
    added one at a time, from any thread."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.rows: Counter[str] = Counter()
        self.sums: dict[str, np.ndarray] = {}  # strategy -> sums of _SUMMED
        self.games = 0
        self.failed: Counter[str | None] = Counter()

    def add(self, name: str, table: pa.Table | pa.RecordBatch) -> None:
        """Count a chunk (or batch) of the table ``name``; other tables than players and games
        are not summarised."""
        if name == "players":
            self._add_players(table)
        elif name == "games":
            self._add_games(table)

    def _add_players(self, table: pa.Table | pa.RecordBatch) -> None:
        if not table.num_rows:
            return
        names, where = np.unique(np.array(table.column("strategy").to_pylist()),
                                 return_inverse=True)
        counts = np.bincount(where, minlength=len(names))
        # Integer VP columns are summed exactly as floats (far below 2**53). Lists, not
        # to_numpy: pyarrow's conversion to numpy imports pandas.
        sums = np.column_stack([
            np.bincount(where, weights=cast(list[float], table.column(c).to_pylist()),
                        minlength=len(names)) for c in _SUMMED])
        with self._lock:
            for name, count, row in zip(names.tolist(), counts.tolist(), sums, strict=True):
                self.rows[name] += count
                self.sums[name] = self.sums[name] + row if name in self.sums else row

    def _add_games(self, table: pa.Table | pa.RecordBatch) -> None:
        failed = [blamed for failed, blamed in zip(table.column("failed").to_pylist(),
                                                   table.column("failed_strategy").to_pylist(),
                                                   strict=True) if failed]
        with self._lock:
            self.games += table.num_rows
            self.failed.update(failed)

    def summary(self) -> Summary:
        """Per strategy: player-games, wins (shared wins split), win rate and its 95% Wilson
        interval, mean VP total and by category, and the failed games blamed on it."""
        blamed = {name: count for name, count in self.failed.items() if name is not None}
        rows = {}
        for name in sorted(self.rows.keys() | blamed.keys()):
            games = self.rows.get(name, 0)
            sums = dict(zip(_SUMMED, self.sums[name].tolist(), strict=True)) if games else {}
            wins = sums.get("win_share", 0.0)
            low, high = wilson_interval(wins, games)
            rows[name] = {"games": games, "wins": wins,
                          "win_rate": wins / games if games else math.nan,
                          "win_low": low, "win_high": high,
                          **{c: sums[c] / games if games else math.nan for c in _VP},
                          "failures": blamed.get(name, 0)}
        return Summary(rows=rows, games=self.games, failed=sum(self.failed.values()))


@dataclass(frozen=True)
class Summary:
    rows: dict[str, dict[str, Any]]  # strategy -> the figures of COLUMNS, strategies sorted
    games: int
    failed: int

    @property
    def table(self) -> pd.DataFrame:
        """One row per strategy (the index, named ``strategy``), the columns of ``COLUMNS``."""
        import pandas as pd

        frame = pd.DataFrame.from_dict(self.rows, orient="index", columns=list(COLUMNS))
        frame = frame.astype({c: float for c in COLUMNS if c not in ("games", "failures")})
        frame.index.name = "strategy"
        return frame

    def format(self) -> str:
        """The table printed at the end of ``zsim run``."""
        if not self.rows:
            text = "no finished games"
        else:
            percent, figures = _formatter("{:.1%}"), list(self.rows.values())
            shown = {
                "player-games": [str(f["games"]) for f in figures],
                "win rate": [percent(f["win_rate"]) for f in figures],
                "95% CI": [f"[{percent(f['win_low'])}, {percent(f['win_high'])}]"
                           for f in figures],
                "mean VP": [_formatter("{:.1f}")(f["vp_total"]) for f in figures],
                "failures": [str(f["failures"]) for f in figures],
            }
            by_category = {name: [_formatter("{:.2f}")(f[c]) for c in CATEGORIES]
                           for name, f in self.rows.items()}
            text = (f"{_text_table('strategy', list(self.rows), shown)}\n\nMean VP by category\n"
                    f"{_text_table('', [c.removeprefix('vp_') for c in CATEGORIES], by_category)}")
        failed = (f"{self.failed} of {self.games} games failed" if self.failed
                  else f"{self.games} games, no failures")
        return f"{text}\n\n{failed}"


def _formatter(spec: str) -> Callable[[float], str]:
    """Format a number, showing a missing one (a strategy with no finished game) as '-'."""
    return lambda value: "-" if math.isnan(value) else spec.format(value)


def _text_table(title: str, index: Sequence[str], columns: dict[str, list[str]]) -> str:
    """Rows named by ``index`` (left-aligned, under ``title``), then ``columns`` right-aligned
    under their names."""
    cells = [[title, *columns], *([name, *values] for name, *values in
                                  zip(index, *columns.values(), strict=True))]
    widths = [max(map(len, column)) for column in zip(*cells, strict=True)]
    return "\n".join(
        "  ".join([row[0].ljust(widths[0]), *(cell.rjust(width) for cell, width
                                              in zip(row[1:], widths[1:], strict=True))])
        .rstrip() for row in cells)


def summarize(out: Path) -> Summary:
    """The summary of the finished run in ``out``, from its Parquet files."""
    tally = Tally()
    for name, columns in (("players", ["strategy", *_SUMMED]),
                          ("games", ["failed", "failed_strategy"])):
        for batch in pq.ParquetFile(out / f"{name}.parquet").iter_batches(columns=columns):
            tally.add(name, batch)
    return tally.summary()
