"""The report of a paired comparison (``zsim compare``) and of a sweep (``zsim sweep``).

Both pages show paired differences (variant minus base, game by game on shared seeds) as forest
plots, each family of tests (win rate, VP total, VP by category) Holm-corrected on its own, and
the variance-reduction table: how much narrower pairing made each interval than two unrelated
runs of the same size would have, and the factor of games that saved.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import cast

import matplotlib
import numpy as np
import pandas as pd

from zsim.compare import MIN_PAIRS, variance_reduction, verdict
from zsim.reports.build import BuiltReport, write_sections
from zsim.reports.common import (
    STYLE,
    error_bars,
    figure_legend,
    forest,
    forest_height,
    new_figure,
)
from zsim.reports.findings import relative_phrase
from zsim.reports.model import Comparison, Figure, Note, Section, Table
from zsim.runner.experiment import Experiment

NUMBERS = ("base", "variant", "difference", "low", "high", "unpaired_low", "unpaired_high",
           "pvalue", "adjusted")
METRIC_NAMES = {"win_share": "win rate", "vp_total": "VP total"}


def _label(row: pd.Series) -> str:
    """``builder (4p) vp_palaces``: strategy, player count and what moved."""
    metric = METRIC_NAMES.get(row["metric"], row["metric"])
    return f"{row['strategy']} ({row['n_players']}p) {metric}"


def _comparisons(rows: pd.DataFrame, scale: float, unit: str, prefix: str = "") -> list:
    found = []
    for _, r in rows.iterrows():
        basis = "fair share" if r["metric"] == "win_share" else "mean score"
        phrase = relative_phrase(r["relative"], basis)
        found.append(Comparison(
            label=prefix + _label(r),
            claim=f"{prefix}{_label(r)} moves by {r['difference'] * scale:+.2f} {unit} (95% CI "
                  f"{r['low'] * scale:+.2f} to {r['high'] * scale:+.2f}"
                  f"{'; ' + phrase if phrase else ''})",
            method="Wilcoxon signed-rank test on paired games", pvalue=r["pvalue"],
            effect=r["effect"], effect_kind="d", games=int(r["games"]),
            relative=r["relative"], basis=basis, family=prefix + r["family"],
            adjusted=r["adjusted"], family_size=int(r["family_tests"])))
    return found


def _forest_figure(rows: pd.DataFrame, slug: str, title: str, xlabel: str, scale: float,
                   unit: str, prefix: str = "") -> Figure | Note:
    """The rows' differences as a forest; rows of fewer than ``MIN_PAIRS`` paired games (or
    without an interval) are named, not drawn: a bare dot would read as a certain change."""
    drawable = (rows["games"] >= MIN_PAIRS) & rows["low"].notna() & rows["high"].notna()
    few = [_label(r) for _, r in rows[~drawable].iterrows()]
    if not drawable.any():
        return Note(f"{title}: too few paired games (at most {int(rows['games'].max())}; at "
                    f"least {MIN_PAIRS} needed) to draw a difference with its interval.",
                    warning=True)
    drawn = rows[drawable]
    fig, axes = new_figure(height=forest_height(len(drawn)))
    shown = drawn.assign(estimate=drawn["difference"] * scale, low=drawn["low"] * scale,
                         high=drawn["high"] * scale)
    forest(axes[0, 0], [_label(r) for _, r in shown.iterrows()], shown, title, xlabel)
    games = int(drawn["games"].max())
    caption = (f"{title}: variant minus base, game by game on the same seeds, with 95% "
               f"bootstrap intervals; up to {games} paired games per row. Each row is tested "
               "with a Wilcoxon signed-rank test, Holm-corrected within this figure's family."
               + (f" Too few paired games (fewer than {MIN_PAIRS}) to draw: {', '.join(few)}."
                  if few else ""))
    return Figure(slug, title, caption, games, fig, _comparisons(rows, scale, unit, prefix))


def _difference_figures(table: pd.DataFrame, slug: str, prefix: str = "") -> list:
    """Forest plots of the win-rate, VP total and moved-category differences of ``table``."""
    blocks: list = []
    for family, name, xlabel, scale, unit in (
            ("win rate", "Win rate change", "points of win rate", 100, "points"),
            ("VP total", "VP total change", "VP", 1, "VP")):
        rows = table[table["family"] == family]
        if not rows.empty:
            blocks.append(_forest_figure(rows, f"{slug}-{family.replace(' ', '-').lower()}",
                                         prefix + name, xlabel, scale, unit, prefix))
    moved = table[(table["family"] == "VP by category")
                  & ((table["difference"] != 0) | table["significant"])]
    if not moved.empty:
        blocks.append(_forest_figure(moved, f"{slug}-categories", prefix + "VP change by "
                                     "category", "VP", 1, "VP", prefix))
    return blocks


def _variance_table(table: pd.DataFrame, slug: str) -> Table:
    reduction = variance_reduction(table)
    return Table(slug, "Variance reduction: paired against unpaired intervals", reduction,
                 {"paired_width": "{:.3f}", "unpaired_width": "{:.3f}",
                  "games_factor": "{:.1f}"}, collapsed=len(reduction) > 12)


VARIANCE_NOTE = ("The variance-reduction table compares each paired interval's width with the "
                 "interval two unrelated runs of the same games would give; games_factor is "
                 "how many times more games an unpaired comparison would need for the same "
                 "precision. Rows whose paired interval has zero width (the variant did not "
                 "touch them) are left out.")


def comparison_section(table: pd.DataFrame, base: Experiment, variant: Experiment) -> Section:
    changed = sorted(set(variant.variants.items()) - set(base.variants.items()))
    described = ", ".join(f"{k}={v}" for k, v in changed) or variant.name
    section = Section("comparison", "Paired comparison",
                      f"Base: {base.name}; variant: {described}. "
                      f"{verdict(table, changed=[k for k, _ in changed])}")
    if table.empty:
        section.blocks.append(Note("The two runs have no finished game in common.", True))
        return section
    section.blocks += _difference_figures(table, "compare")
    section.blocks += [Note(VARIANCE_NOTE), _variance_table(table, "variance-reduction"),
                       Table("comparison", "Every paired difference", table,
                             {c: "{:.3f}" for c in NUMBERS} | {"relative": "{:+.1%}"},
                             collapsed=True)]
    return section


def write_comparison_report(table: pd.DataFrame, out: Path, base: Experiment,
                            variant: Experiment, extra: Sequence[Section] = ()) -> BuiltReport:
    """The comparison's report; ``extra`` sections (the paired experience metrics) follow."""
    with matplotlib.rc_context(STYLE):
        section = comparison_section(table, base, variant)
        return write_sections([section, *extra], out / "report", "zsim compare",
                              section.intro)


def _games_per_value(rows: pd.DataFrame) -> str:
    played = sorted({int(g) for g in rows["games_played"]})
    return f"{played[0]}" if len(played) == 1 else f"{played[0]}–{played[-1]}"


def _sweep_lines(rows: pd.DataFrame, key: str, values: list, n_players: int) -> Figure:
    fig, axes = new_figure(cols=2, height=3.8)
    left, right = axes[0]
    positions = np.arange(len(values))
    lines = rows.groupby("strategy", sort=True)
    for i, (strategy, line) in enumerate(lines):
        line = line.set_index("value").reindex(values)
        rate = line["win_rate"].to_numpy(float) * 100
        # Each strategy's intervals a little to the side, so that they do not hide each other.
        dodge = (i - (len(lines) - 1) / 2) * 0.25 / max(len(lines), 1)
        left.errorbar(positions + dodge, rate, yerr=error_bars(rate, line["win_low"] * 100,
                                                               line["win_high"] * 100),
                      marker="o", capsize=2, label=strategy)
        right.plot(positions, line["vp_total"], marker="o", label=strategy)
    for ax, title in ((left, "Win rate (%)"), (right, "Mean VP total")):
        ax.set_xticks(list(positions), [str(v) for v in values])
        ax.set_xlabel(key)
        ax.set_title(title)
    figure_legend(fig, left)
    games = _games_per_value(rows)
    return Figure(
        f"sweep-{n_players}p", f"{n_players} players",
        f"Win rate (95% Wilson intervals) and mean VP total of each strategy for each value "
        f"of {key}, {n_players} players, {games} games per value on shared seeds.",
        int(rows["games_played"].max()), fig)


def sweep_section(table: pd.DataFrame, differences: pd.DataFrame, key: str) -> Section:
    """Win rate and mean VP against the swept value, one line per strategy, then each value's
    paired difference from the first (base) value."""
    values = list(dict.fromkeys(table["value"]))
    section = Section("sweep", f"Sweep of {key}",
                      f"One batch per value of {key}, all on the same game seeds; the first "
                      f"value ({values[0]}) is the base the others are compared with, game by "
                      "game.")
    for n_players, rows in table.groupby("n_players"):
        section.blocks.append(_sweep_lines(rows, key, values, int(cast("int", n_players))))
    section.blocks.append(Table("sweep", "Win rate and mean VP by category per value", table,
                                {c: "{:.3f}" for c in table.columns if c.startswith(("vp_",
                                                                                     "win"))}))
    for i, (value, rows) in enumerate(differences.groupby("value", sort=False), start=1):
        section.blocks.append(Note(f"{key}={value} against {key}={values[0]}: "
                                   f"{verdict(rows, changed=[key])}"))
        section.blocks += _difference_figures(rows.drop(columns="value"), f"sweep-value-{i}",
                                              f"{key}={value}: ")
    if not differences.empty:
        section.blocks += [
            Note(VARIANCE_NOTE),
            _variance_table(differences, "sweep-variance-reduction"),
            Table("sweep-differences", f"Every paired difference from {key}={values[0]}",
                  differences, {c: "{:.3f}" for c in NUMBERS} | {"relative": "{:+.1%}"},
                  collapsed=True)]
    return section


def write_sweep_report(table: pd.DataFrame, differences: pd.DataFrame, out: Path,
                       key: str, extra: Sequence[Section] = ()) -> BuiltReport:
    """The sweep's report; ``extra`` sections (the paired experience metrics) follow."""
    with matplotlib.rc_context(STYLE):
        return write_sections([sweep_section(table, differences, key), *extra], out / "report",
                              "zsim sweep",
                              f"Sweep of {key} over {', '.join(map(str, table['value'].unique()))}")
