"""The end-of-run summary: per strategy win rate with a 95% Wilson interval, mean VP, failures.

It is computed from the consolidated Parquet files batch by batch, so it costs the same small
memory for a resumed run or a 100,000-game run as for a fresh small one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq

from zsim.rules.scoring import CATEGORIES
from zsim.stats import wilson_interval

_VP = ["vp_total", *CATEGORIES]


def _grouped_sums(path: Path, by: str, columns: list[str]) -> pd.DataFrame:
    """Per-``by`` sums of ``columns`` plus a ``rows`` count, one record batch at a time."""
    total: pd.DataFrame | None = None
    for batch in pq.ParquetFile(path).iter_batches(columns=[by, *columns]):
        frame = batch.to_pandas().assign(rows=1)
        sums = frame.groupby(by).sum(numeric_only=True)
        total = sums if total is None else total.add(sums, fill_value=0)
    return total if total is not None else pd.DataFrame(columns=[*columns, "rows"])


@dataclass
class Summary:
    table: pd.DataFrame  # one row per strategy
    games: int
    failed: int

    def format(self) -> str:
        """The table printed at the end of ``zsim run``."""
        if self.table.empty:
            text = "no finished games"
        else:
            frame = self.table
            percent = _formatter("{:.1%}")
            shown = pd.DataFrame({
                "player-games": frame["games"],
                "win rate": frame["win_rate"].map(percent),
                "95% CI": [f"[{percent(lo)}, {percent(hi)}]"
                           for lo, hi in zip(frame["win_low"], frame["win_high"], strict=True)],
                "mean VP": frame["vp_total"].map(_formatter("{:.1f}")),
                "failures": frame["failures"],
            })
            categories = frame[list(CATEGORIES)].T.map(_formatter("{:.2f}"))
            categories.index = [c.removeprefix("vp_") for c in categories.index]
            categories.columns.name = None
            text = f"{shown.to_string()}\n\nMean VP by category\n{categories.to_string()}"
        failed = (f"{self.failed} of {self.games} games failed" if self.failed
                  else f"{self.games} games, no failures")
        return f"{text}\n\n{failed}"


def _formatter(spec: str) -> Callable[[float], str]:
    """Format a number, showing a missing one (a strategy with no finished game) as '-'."""
    return lambda value: "-" if pd.isna(value) else spec.format(value)


def summarize(out: Path) -> Summary:
    """Per strategy: player-games, wins (shared wins split), win rate and its 95% Wilson
    interval, mean VP total and by category, and the failed games blamed on it."""
    sums = _grouped_sums(out / "players.parquet", "strategy", ["win_share", *_VP])
    games = pq.read_table(out / "games.parquet", columns=["failed", "failed_strategy"])
    failed = games.filter(games["failed"]).to_pandas()
    blamed = failed["failed_strategy"].value_counts()
    sums = sums.reindex(sums.index.union(blamed.index), fill_value=0)
    frame = pd.DataFrame(index=sums.index)
    frame["games"] = sums["rows"].astype(int)
    frame["wins"] = sums["win_share"]
    frame["win_rate"] = frame["wins"] / frame["games"].where(frame["games"] > 0)
    intervals = [wilson_interval(w, g) for w, g in zip(frame["wins"], frame["games"],
                                                         strict=True)]
    frame["win_low"] = [low for low, _ in intervals]
    frame["win_high"] = [high for _, high in intervals]
    for column in _VP:
        frame[column] = sums[column] / frame["games"].where(frame["games"] > 0)
    frame["failures"] = blamed.reindex(frame.index, fill_value=0).astype(int)
    frame.index.name = "strategy"
    return Summary(table=frame, games=games.num_rows, failed=len(failed))
