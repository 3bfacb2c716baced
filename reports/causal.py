"""The report of ``zsim effects KIND``: each component's paired, causal effect of being in play.

Every effect is a difference between two batches on common seeds, one with the component forced
into play and one with it excluded (``zsim.causal``), so unlike the main report's component
sections it is a cause, not an association. The p-values are Holm-adjusted over this page's
tests: one family, the question "what does each component of this kind do?".
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.ticker import MaxNLocator

from zsim.causal import ALL_PLAYERS, family_name
from zsim.compare import variance_reduction
from zsim.options import KINDS
from zsim.reports.build import BuiltReport, write_sections
from zsim.reports.common import STYLE, forest, forest_height, new_figure
from zsim.reports.model import CAUSAL, Comparison, Figure, Note, Section, Table
from zsim.runner.experiment import Experiment
from zsim.stats import detectable_shift

COLUMNS = 3


def _label(row: pd.Series, counts: int) -> str:
    return row["component"] + (f" ({row['n_players']}p)" if counts > 1 else "")


def _comparison(row: pd.Series, kind: str, label: str) -> Comparison:
    win = row["metric"] == "win_share"
    scale, unit = (100, "points") if win else (1, "VP")
    measure = f"{row['strategy']} win rate" if win else (
        "mean VP of all players" if row["strategy"] == ALL_PLAYERS else f"{row['strategy']} VP")
    return Comparison(
        label=f"{label}: {measure}",
        claim=(f"{KINDS[kind]} {label} in play rather than out: {measure} "
               f"{row['difference'] * scale:+.1f} {unit} (95% CI {row['low'] * scale:+.1f} to "
               f"{row['high'] * scale:+.1f})"),
        method="Wilcoxon signed-rank test on games paired by seed, forced in against excluded",
        pvalue=row["pvalue"], effect=row["effect"], effect_kind="d", games=int(row["games"]),
        adjusted=row["adjusted"], family=row["family"], family_size=int(row["family_tests"]),
        group=CAUSAL, unit=unit, detectable=detectable_shift(row["low"] * scale,
                                                              row["high"] * scale))


def _figure(table: pd.DataFrame, kind: str, metric: str, slug: str, title: str) -> Figure:
    rows = table[table["metric"] == metric]
    strategies = sorted(s for s in rows["strategy"].unique() if s != ALL_PLAYERS)
    if ALL_PLAYERS in set(rows["strategy"]):
        strategies.append(ALL_PLAYERS)
    counts = rows["n_players"].nunique()
    labels = list(dict.fromkeys(_label(r, counts) for _, r in rows.iterrows()))
    scale, unit = (100, "percentage points") if metric == "win_share" else (1, "VP")
    grid_rows = math.ceil(len(strategies) / COLUMNS)
    cols = min(COLUMNS, len(strategies))
    fig, axes = new_figure(grid_rows, cols, height=grid_rows * forest_height(len(labels)))
    comparisons = []
    for i, strategy in enumerate(strategies):
        ax = axes[i // cols][i % cols]
        shown = rows[rows["strategy"] == strategy].assign(
            label=lambda f: [_label(r, counts) for _, r in f.iterrows()])
        shown = shown.set_index("label").reindex(labels)
        forest(ax, labels, shown.assign(estimate=shown["difference"] * scale,
                                        low=shown["low"] * scale, high=shown["high"] * scale),
               strategy if strategy != ALL_PLAYERS else "mean of all players", "")
        ax.xaxis.set_major_locator(MaxNLocator(4))  # a narrow panel has room for few numbers
        if i % cols:
            ax.set_yticklabels([])
        comparisons += [_comparison(r, kind, label) for label, r in shown.dropna(
            subset=["pvalue"]).iterrows()]
    spread = rows[["low", "high"]].to_numpy(float) * scale
    if np.isfinite(spread).any():  # one scale for every panel, so effects compare at a glance
        low, high = float(np.nanmin(spread)), float(np.nanmax(spread))
        pad = max(0.5, (high - low) * 0.05)
        for ax in axes.flat:
            ax.set_xlim(low - pad, high + pad)
    for j in range(len(strategies), grid_rows * cols):
        axes[j // cols][j % cols].set_visible(False)
    fig.supxlabel(f"in play minus out ({unit}); one scale for every panel", fontsize=10)
    games = int(rows["games"].max()) if len(rows) else 0
    caption = (f"{title}: for each {KINDS[kind]}, games with it forced into play minus the same "
               f"games (same seeds) with it excluded, with 95% bootstrap intervals of the paired "
               f"difference; {games} paired games per row.")
    return Figure(slug, title, caption, games, fig, comparisons)


def causal_section(table: pd.DataFrame, kind: str, experiment: Experiment,
                    skipped: dict[str, str]) -> Section:
    tests = int(table["family_tests"].max()) if len(table) else 0
    section = Section(
        "effects", f"Effects of each {KINDS[kind]}",
        f"Experiment {experiment.name} ({', '.join(experiment.strategies)}; "
        f"{'/'.join(map(str, experiment.players))} players; seats {experiment.seats}), played "
        f"twice per {KINDS[kind]}: with setup.force.{kind} and with setup.exclude.{kind}, on "
        "the same game seeds. Setup only swaps the component in or out, so each difference is "
        "the effect of having it in play. p-values are Holm-adjusted over every test of this "
        f"page, one family (“{family_name(kind)}”, {tests} tests); the table's family and "
        "family_tests columns say the same.")
    for component, why in skipped.items():
        section.blocks.append(Note(f"{component} not measured: {why}.", warning=True))
    if table.empty:
        return section
    section.blocks.append(_figure(table, kind, "win_share", f"effects-{kind}-win-rate",
                                  "Win rate"))
    section.blocks.append(_figure(table, kind, "vp_total", f"effects-{kind}-vp", "VP"))
    section.blocks.append(Table(
        f"effects-{kind}", "Every paired effect (forced in minus excluded)", table,
        formats={c: "{:.3f}" for c in ("excluded", "forced", "difference", "low", "high",
                                        "unpaired_low", "unpaired_high", "effect")}
        | {"pvalue": "{:.3g}", "adjusted": "{:.3g}"}))
    saved = variance_reduction(table).groupby(["metric"])[["paired_width", "unpaired_width",
                                                          "games_factor"]].median()
    section.blocks.append(Table(
        f"effects-{kind}-pairing", "What pairing saved (medians over the table): interval "
        "widths, and how many times the games two independent batches would need",
        saved.reset_index(), formats={"paired_width": "{:.3f}", "unpaired_width": "{:.3f}",
                                      "games_factor": "{:.1f}"}))
    return section


def write_causal_report(table: pd.DataFrame, out: Path, kind: str, experiment: Experiment,
                        skipped: dict[str, str], extra: Sequence[Section] = ()) -> BuiltReport:
    """The effects' report; ``extra`` sections (the paired experience metrics) follow."""
    with matplotlib.rc_context(STYLE):
        section = causal_section(table, kind, experiment, skipped)
        moved = int(table["significant"].sum()) if len(table) else 0
        return write_sections([section, *extra], out / "report", "zsim effects",
                              f"{KINDS[kind]}: {moved} significant effect(s) of "
                              f"{len(table)} tested")
