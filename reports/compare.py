"""The report of a paired comparison (``zsim compare``) and of a sweep (``zsim sweep``)."""

from __future__ import annotations

from pathlib import Path

import matplotlib
import pandas as pd

from reports.build import BuiltReport, write_sections
from reports.common import STYLE, forest, forest_height, new_figure
from reports.model import Comparison, Figure, Note, Section, Table
from zsim.compare import verdict
from zsim.runner.experiment import Experiment


def _label(row: pd.Series) -> str:
    return f"{row['strategy']} ({row['n_players']}p)"


def _forest_figure(rows: pd.DataFrame, slug: str, title: str, xlabel: str, scale: float,
                   games: int) -> Figure:
    fig, axes = new_figure(height=forest_height(len(rows)))
    ax = axes[0, 0]
    shown = rows.assign(estimate=rows["difference"] * scale, low=rows["low"] * scale,
                        high=rows["high"] * scale)
    forest(ax, [_label(r) + ("" if "metric" not in r or r["metric"] in ("win_share", "vp_total")
                             else f" {r['metric']}") for _, r in shown.iterrows()],
           shown, title, xlabel)
    caption = (f"{title}: variant minus base, game by game on the same seeds, with 95% "
               f"bootstrap intervals; {games} paired games per row.")
    comparisons = [
        Comparison(label=_label(r), claim=f"{_label(r)} {r['metric']} moves by "
                   f"{r['difference'] * scale:+.2f}", method="Wilcoxon signed-rank test on "
                   "paired games", pvalue=r["pvalue"], effect=r["effect"], effect_kind="d",
                   games=int(r["games"]), adjusted=r["adjusted"])
        for _, r in rows.iterrows()]
    return Figure(slug, title, caption, games, fig, comparisons)


def comparison_section(table: pd.DataFrame, base: Experiment, variant: Experiment) -> Section:
    games = int(table["games"].max()) if len(table) else 0
    changed = sorted(set(variant.variants.items()) - set(base.variants.items()))
    described = ", ".join(f"{k}={v}" for k, v in changed) or variant.name
    section = Section("comparison", "Paired comparison",
                      f"Base: {base.name}; variant: {described}. {verdict(table)}")
    if table.empty:
        section.blocks.append(Note("The two runs have no finished game in common.", True))
        return section
    wins = table[table["metric"] == "win_share"]
    section.blocks.append(_forest_figure(wins, "compare-win-rate", "Win rate change",
                                         "points of win rate", 100, games))
    totals = table[table["metric"] == "vp_total"]
    section.blocks.append(_forest_figure(totals, "compare-vp-total", "VP total change", "VP", 1,
                                         games))
    moved = table[(table["metric"].str.startswith("vp_")) & (table["metric"] != "vp_total")
                  & ((table["difference"] != 0) | table["significant"])]
    if not moved.empty:
        section.blocks.append(_forest_figure(moved, "compare-categories",
                                             "VP change by category", "VP", 1, games))
    section.blocks.append(Table("comparison", "Every paired difference", table,
                                {c: "{:.3f}" for c in ("base", "variant", "difference", "low",
                                                        "high", "unpaired_low",
                                                        "unpaired_high", "pvalue", "adjusted")},
                                collapsed=True))
    return section


def write_comparison_report(table: pd.DataFrame, out: Path, base: Experiment,
                            variant: Experiment) -> BuiltReport:
    with matplotlib.rc_context(STYLE):
        section = comparison_section(table, base, variant)
        return write_sections([section], out / "report", "zsim compare", verdict(table))


def sweep_section(table: pd.DataFrame, key: str) -> Section:
    """Win rate and mean VP by category against the swept value, one line per strategy."""
    section = Section("sweep", f"Sweep of {key}",
                      f"One batch per value of {key}, all on the same game seeds.")
    values = list(dict.fromkeys(table["value"]))
    for n_players, rows in table.groupby("n_players"):
        fig, axes = new_figure(cols=2, height=3.6)
        left, right = axes[0]
        positions = range(len(values))
        for strategy, line in rows.groupby("strategy", sort=True):
            line = line.set_index("value").loc[values]
            left.errorbar(positions, line["win_rate"] * 100,
                          yerr=[(line["win_rate"] - line["win_low"]) * 100,
                                (line["win_high"] - line["win_rate"]) * 100],
                          marker="o", capsize=3, label=strategy)
            right.plot(positions, line["vp_total"], marker="o", label=strategy)
        for ax, title in ((left, "Win rate (%)"), (right, "Mean VP total")):
            ax.set_xticks(list(positions), [str(v) for v in values])
            ax.set_xlabel(key)
            ax.set_title(title)
        left.legend(fontsize="small")
        games = int(rows["games"].min())
        section.blocks.append(Figure(
            f"sweep-{n_players}p", f"{n_players} players",
            f"Win rate (95% Wilson intervals) and mean VP total of each strategy for each value "
            f"of {key}, {n_players} players, {games} games per value on shared seeds.",
            games, fig))
    section.blocks.append(Table("sweep", "Win rate and mean VP by category per value", table,
                                {c: "{:.3f}" for c in table.columns if c.startswith(("vp_",
                                                                                     "win"))}))
    return section


def write_sweep_report(table: pd.DataFrame, out: Path, key: str) -> BuiltReport:
    with matplotlib.rc_context(STYLE):
        return write_sections([sweep_section(table, key)], out / "report", "zsim sweep",
                              f"Sweep of {key} over {', '.join(map(str, table['value'].unique()))}")
