"""The experience metrics of two rule sets, compared game by game on common seeds.

A base run and a variant run of ``zsim compare`` (or two values of a sweep, or a component forced
in and kept out by ``zsim effects``) play game *i* from the same seed, so each game's metric can
be differenced with its twin (common random numbers, as ``zsim.compare`` does for win rates and
VP). Per player count and metric: both means, the mean paired difference with its 95% bootstrap
interval, Wilcoxon's signed-rank test, and Holm's correction over the table (one family: "did the
variant change how games unfold?"). ``sentences`` says each difference in words, or refuses to:
a change is stated only when its Holm-adjusted p-value is below 0.05.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from zsim.experience.metrics import ALL, METRICS
from zsim.experience.winprob import MarginModel
from zsim.stats import bootstrap_interval, holm, paired_test

if TYPE_CHECKING:
    from zsim.experience.data import Experience

ALPHA = 0.05
COLUMNS = ["n_players", "metric", "games", "base", "variant", "difference", "low", "high",
           "pvalue", "effect", "adjusted", "significant"]


def paired_metrics(base: pd.DataFrame, variant: pd.DataFrame,
                   metrics: Sequence[str] = tuple(METRICS),
                   resamples: int = 1999) -> pd.DataFrame:
    """Paired differences (variant minus base) of the per-game metrics of two runs
    (``zsim.experience.metrics.per_game``), joined on the game index; a game counts for a
    metric when both runs have it."""
    joined = base.merge(variant, on=["game", "n_players"], suffixes=("_base", "_variant"))
    groups = [(str(n), rows) for n, rows in joined.groupby("n_players")]
    if len(groups) > 1:
        groups.append((ALL, joined))
    rows = []
    for label, games in groups:
        for metric in metrics:
            before = games[f"{metric}_base"].to_numpy(dtype=float)
            after = games[f"{metric}_variant"].to_numpy(dtype=float)
            both = ~(np.isnan(before) | np.isnan(after))
            before, after = before[both], after[both]
            if not before.size:
                continue
            diff = after - before
            low, high = bootstrap_interval(diff, resamples=resamples)
            test = paired_test(diff)
            rows.append({"n_players": label, "metric": metric, "games": int(diff.size),
                         "base": float(before.mean()), "variant": float(after.mean()),
                         "difference": float(diff.mean()), "low": low, "high": high,
                         "pvalue": test.pvalue, "effect": test.effect})
    table = pd.DataFrame(rows, columns=COLUMNS[:-2])
    tested = table["n_players"] != ALL  # the pooled rows repeat the per-count tests' games
    table["adjusted"] = math.nan
    table.loc[tested, "adjusted"] = holm(table.loc[tested, "pvalue"]) if tested.any() else []
    table["significant"] = table["adjusted"] < ALPHA
    return table[COLUMNS]


def _amount(metric: str, value: float) -> str:
    unit = METRICS[metric].unit
    if unit == "percentage points":
        return f"{abs(value) * 100:.1f} percentage points"
    return f"{abs(value):.2f} {unit}"


def sentence(row: pd.Series) -> str:
    """One paired difference in words: the change and its interval when it is significant
    after Holm's correction, otherwise a refusal that gives the interval."""
    metric = METRICS[row["metric"]]
    players = "all player counts" if row["n_players"] == ALL else f"{row['n_players']} players"
    scale = 100 if metric.unit == "percentage points" else 1
    interval = (f"95% CI {row['low'] * scale:+.2f} to {row['high'] * scale:+.2f}"
                if not math.isnan(row["low"]) else "no interval")
    where = f"{players}, {row['games']} paired games"
    if not row["significant"] or row["difference"] == 0:
        return (f"No detectable change in {metric.description} ({where}): "
                f"{row['difference'] * scale:+.2f} ({interval}).")
    direction = metric.up if row["difference"] > 0 else metric.down
    said = metric.sentence.format(amount=_amount(row["metric"], row["difference"]),
                                  direction=direction)
    return (f"With the variant {said} ({where}; {interval}; Holm-adjusted p "
            f"{row['adjusted']:.2g}).")


def sentences(table: pd.DataFrame, metrics: Sequence[str] | None = None) -> list[str]:
    """``sentence`` for each row of a ``paired_metrics`` table (or of those ``metrics``)."""
    rows = table if metrics is None else table[table["metric"].isin(metrics)]
    return [sentence(row) for _, row in rows.iterrows()]


def verdict(table: pd.DataFrame, largest: int = 3) -> str:
    """One line: the experience metrics that moved significantly, largest effects first, or
    that none did."""
    if table.empty:
        return "Experience: no game in common with trajectories in both runs."
    moved = table[table["significant"]]
    if moved.empty:
        return "Experience: no significant change in how games unfold."
    moved = moved.reindex(moved["effect"].abs().sort_values(ascending=False).index)
    shown = "; ".join(
        METRICS[row["metric"]].sentence.format(
            amount=_amount(row["metric"], row["difference"]),
            direction=METRICS[row["metric"]].up if row["difference"] > 0
            else METRICS[row["metric"]].down) + f" ({row['n_players']}p)"
        for _, row in moved.head(largest).iterrows())
    more = len(moved) - largest
    return (f"Experience: {len(moved)} significant change(s): {shown}"
            + (f"; and {more} more" if more > 0 else ""))


def paired_runs(base: Path, variant: Path) -> pd.DataFrame | None:
    """``paired_experience`` of two run directories played on the same seeds."""
    from zsim.experience.data import read

    return paired_experience(read([base]), read([variant]))


def refit_together(runs: Sequence[Experience]) -> list[Experience]:
    """``runs`` with the win probabilities the margin model estimated estimated again by one
    model fitted on all of them together (``zsim.experience.winprob.refit``), when every run
    recorded them; otherwise as they are. A sweep pairs its first value with each other one:
    one fit over every batch gives the base games the same estimates, and so the same base
    values, in every comparison."""
    from zsim.experience.data import Experience
    from zsim.experience.winprob import refit

    if not runs or not all(r.recorded and r.estimators == [MarginModel.name] for r in runs):
        return list(runs)
    both = refit(pd.concat([r.trajectories for r in runs], ignore_index=True))
    return [Experience(both[both["run_id"].isin(r.trajectories["run_id"].unique())],
                       r.choices, r.options, r.players, r.estimators) for r in runs]


def paired_experience(before: Experience, after: Experience,
                      refitted: bool = False) -> pd.DataFrame | None:
    """``paired_metrics`` of the experience of two runs played on the same seeds, or None
    when either recorded no trajectories.

    Win probabilities the margin model estimated are estimated again, by one model fitted on
    both runs together (``zsim.experience.winprob.refit``): with a model of its own fitted on
    each, a difference between the two fits would shift every game's estimates alike, and the
    paired test would take that for an effect of the variant. ``refitted``: the caller did
    so already, over more runs (``refit_together``)."""
    if not (before.recorded and after.recorded):
        return None
    if not refitted:
        before, after = refit_together([before, after])
    return paired_metrics(before.games, after.games)


#: The metrics a command prints (the CSV and the report hold them all).
HEADLINE = ("decided_round", "p_decided_round", "lead_changes", "drama", "comeback",
            "uncertainty", "clarity_gap", "decisions")


def _bracket(low: float, high: float) -> str:
    return "[–]" if math.isnan(low) or math.isnan(high) else f"[{low:+.3f}, {high:+.3f}]"


def format_table(table: pd.DataFrame, metrics: Sequence[str] = HEADLINE) -> str:
    """The headline metrics' paired differences as text, one row per player count and
    metric (``*``: significant after Holm's correction)."""
    shown = table[table["metric"].isin(metrics)].copy()
    shown["difference"] = [f"{d:+.3f} {_bracket(lo, hi)}{'*' if s else ''}"
                           for d, lo, hi, s in zip(shown["difference"], shown["low"],
                                                   shown["high"], shown["significant"],
                                                   strict=True)]
    return shown[["n_players", "metric", "games", "base", "variant", "difference",
                  "adjusted"]].to_string(index=False, float_format=lambda v: f"{v:.3f}",
                                         na_rep="–")  # untested: a dash, not "NaN"
