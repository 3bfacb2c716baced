"""One figure per alarm of ``zsim regress``: the two ECDFs with what moved marked.

A table of numbers says *that* a column moved; the two empirical distribution functions show
*where*: a whole curve shifted sideways (a constant), a tail stretched (a spread), a step that
appeared. The region that alarmed is shaded: between the two means, between the two quantiles
at their level, or the gap between the curves where the Kolmogorov-Smirnov distance lies.
matplotlib is imported only here, when an alarm needs drawing.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from zsim.regress import DISTRIBUTION, MEAN, QUANTILE, Recording, samples

if TYPE_CHECKING:
    from matplotlib.axes import Axes


def figure_name(row: pd.Series) -> str:
    """A file name that says which comparison alarmed, e.g. ``basic-4p-vp_total-q10.png``."""
    what = {MEAN: "mean", DISTRIBUTION: "ecdf"}.get(row["kind"], f"q{row['level'] * 100:g}")
    return f"{row['strategy']}-{row['players']}p-{row['metric']}-{what}.png"


def write_alarm_figures(baseline: Recording, now: Recording, table: pd.DataFrame,
                        directory: Path) -> list[Path]:
    """Draw every alarming row of ``table`` (from ``compare``) into ``directory``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    written = []
    alarms = table[table["alarm"]]
    if not alarms.empty:
        directory.mkdir(parents=True, exist_ok=True)
    for _, row in alarms.iterrows():
        before, after = samples(baseline, now, bool(table.attrs.get("paired")),
                                row["strategy"], int(row["players"]), row["metric"])
        fig, ax = plt.subplots(figsize=(7, 4.5))
        ax.ecdf(before, label=f"baseline ({before.size} games)", color="tab:blue")
        ax.ecdf(after, label=f"now ({after.size} games)", color="tab:orange")
        _mark(ax, row, before, after)
        ax.set_xlabel(f"{row['metric']} per game (mean over the strategy's seats)")
        ax.set_ylabel("share of games at or below")
        ax.set_title(f"{row['strategy']} {row['players']}p {row['metric']}: {_label(row)}",
                     fontsize=10)
        ax.legend(loc="lower right", fontsize=8)
        path = directory / figure_name(row)
        fig.savefig(path, dpi=100, bbox_inches="tight")
        plt.close(fig)
        written.append(path)
    return written


def _label(row: pd.Series) -> str:
    if row["kind"] == DISTRIBUTION:
        return f"KS distance {row['diff']:.3f} at {row['at']:g} (Holm p {row['p_holm']:.2g})"
    what = "mean" if row["kind"] == MEAN else f"{row['level'] * 100:g}th percentile"
    return (f"{what} {row['baseline']:.2f} -> {row['now']:.2f} ({row['diff']:+.2f}, "
            f"Holm p {row['p_holm']:.2g}, {row['test']})")


def _mark(ax: Axes, row: pd.Series, before: np.ndarray, after: np.ndarray) -> None:
    style: dict[str, Any] = {"color": "tab:red", "alpha": 0.2}
    if row["kind"] == DISTRIBUTION:
        at = row["at"]
        low, high = sorted((float(np.mean(before <= at)), float(np.mean(after <= at))))
        ax.vlines(at, low, high, colors="tab:red", linewidth=4, alpha=0.6,
                  label="largest gap (KS)")
        return
    left, right = sorted((row["baseline"], row["now"]))
    ax.axvspan(left, right, **style, label="shift")
    if row["kind"] == QUANTILE:
        ax.axhline(row["level"], color="tab:red", linewidth=0.8, linestyle="--")
