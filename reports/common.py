"""Helpers every section shares: thresholds, win-rate tables, adjusted comparisons, plots.

Sections differ in what they compare, not in how, so the "how" lives here once: a win rate is
always a mean of ``win_share`` with a Wilson interval; an effect is always
``zsim.stats.adjusted_difference`` within comparable groups and clustered by game; a figure
always comes from ``new_figure`` so sizes and fonts match across the page.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import pandas as pd
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.colors import to_rgb
from matplotlib.figure import Figure as MplFigure
from matplotlib.figure import FigureBase
from matplotlib.image import AxesImage
from matplotlib.ticker import MaxNLocator

from zsim.reports.findings import relative_phrase
from zsim.reports.model import Comparison, Note
from zsim.stats import adjusted_difference, bootstrap_interval, detectable_shift, wilson_interval

if TYPE_CHECKING:
    from matplotlib.typing import ColorType, RcKeyType

#: Fewest games (or rows, for a group compared with the rest) a figure or test is based on.
#: Below this an interval is too wide to show anything and a plot would mislead.
MIN_GAMES = 30

STYLE: dict[RcKeyType, Any] = {
    "font.size": 10,
    "axes.titlesize": 11,
    "axes.labelsize": 10,
    "legend.fontsize": 9,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "svg.hashsalt": "zsim",  # stable SVG ids, so rebuilt reports diff cleanly
}
WIDTH = 9.0  # inches: fits a laptop screen at the page's width
LEGEND_COLUMNS = 7  # legend entries per row across a figure of WIDTH


def new_figure(rows: int = 1, cols: int = 1, height: float = 3.6,
               width: float = WIDTH) -> tuple[MplFigure, np.ndarray]:
    """A figure (not registered with pyplot, so nothing leaks) and its axes as a 2-D array."""
    fig = MplFigure(figsize=(width, height), layout="constrained")
    axes = fig.subplots(rows, cols, squeeze=False)
    return fig, axes


def too_few(what: str, have: int, need: int = MIN_GAMES) -> Note:
    return Note(f"{what}: too few games ({have}; at least {need} needed), so nothing is "
                f"drawn.", warning=True)


def percent(value: float, digits: int = 1) -> str:
    return "–" if value is None or math.isnan(value) else f"{value:.{digits}%}"


def player_count_label(n: int) -> str:
    return f"{n} players"


def win_rates(players: pd.DataFrame, by: str | list[str]) -> pd.DataFrame:
    """Per group: player-games, wins (shared wins split), win rate and its Wilson interval."""
    grouped = players.groupby(by, observed=True)
    table = pd.DataFrame({"player_games": grouped.size(), "wins": grouped["win_share"].sum()})
    table["win_rate"] = table["wins"] / table["player_games"]
    bounds = [wilson_interval(w, g) for w, g in zip(table["wins"], table["player_games"],
                                                     strict=True)]
    table["win_low"] = [low for low, _ in bounds]
    table["win_high"] = [high for _, high in bounds]
    return table


def mean_intervals(values: pd.DataFrame, by: str | list[str], column: str) -> pd.DataFrame:
    """Per group: count, mean of ``column`` and its bootstrap interval."""
    rows = []
    for key, group in values.groupby(by, observed=True):
        low, high = bootstrap_interval(group[column].to_numpy())
        keys = key if isinstance(key, tuple) else (key,)
        rows.append((*keys, len(group), group[column].mean(), low, high))
    names = [by] if isinstance(by, str) else list(by)
    return pd.DataFrame(rows, columns=[*names, "n", "mean", "low", "high"]).set_index(names)


def relative_basis(frame: pd.DataFrame, outcome: str) -> tuple[float, str]:
    """What a difference in ``outcome`` is measured against in a designer's terms: a win-rate
    difference against the fair share (1 / player count, averaged over the rows), a score
    against the mean score, anything else (Walls built, VP per Wall) against its mean."""
    if outcome == "win_share" and "n_players" in frame:
        return float((1 / frame["n_players"]).mean()), "fair share"
    return float(frame[outcome].mean()), "mean score" if outcome in SCORES else "mean"


SCORES = ("vp_total", "mean_vp")  # outcomes that are a player's (or a game's mean) final score


def share_of(value: float, reference: float) -> float:
    """``value`` as a share of ``reference``; NaN when the reference is zero or missing."""
    return value / reference if reference and not math.isnan(reference) else math.nan


def association(frame: pd.DataFrame, *, outcome: str, exposure: pd.Series | np.ndarray,
            strata: str | None, clusters: str | None, label: str, subject: str,
            measure: str, method_note: str, scale: float = 1.0, unit: str = "VP",
            digits: int = 1, group: str = "", causal_test: str = "", no_test: str = "",
            component: tuple[str, str] | tuple[()] = (),
            ) -> tuple[dict[str, float], Comparison | None]:
    """Adjusted difference of ``outcome`` for ``subject`` against comparable others.

    ``group`` says what kind of finding it is (``zsim.reports.model.GROUPS``; by default the
    section's); ``causal_test`` is the command that answers the same question by design, for
    an association.

    Returns the numbers for a table/forest row (scaled: ``scale=100`` turns a win-rate
    difference into percentage points; ``relative`` is the unscaled difference as a share of
    ``relative_basis``) and a ``Comparison`` when there are enough rows (at least ``MIN_GAMES``
    on each side of a 0/1 exposure) and the exposure can be separated from the strata;
    otherwise ``None``.
    """
    exposed = np.asarray(exposure, dtype=float)
    result = adjusted_difference(
        frame[outcome].to_numpy(dtype=float), exposed,
        None if strata is None else frame[strata].to_numpy(),
        None if clusters is None else frame[clusters].to_numpy())
    reference, basis = relative_basis(frame, outcome)
    relative = share_of(result.estimate, reference)
    row = {"estimate": result.estimate * scale, "low": result.low * scale,
           "high": result.high * scale, "p": result.pvalue, "relative": relative,
           "exposed": result.exposed, "others": result.others}
    # A 0/1 exposure needs enough rows on both sides; a count (cards tucked, copies in play)
    # is a slope, which needs enough rows overall.
    binary = bool(np.isin(exposed, (0, 1)).all())
    small = min(result.exposed, result.others) if binary else len(frame) // 2
    if small < MIN_GAMES or math.isnan(result.pvalue):
        return row, None
    phrase = relative_phrase(relative, basis)
    claim = (f"{subject}: {measure} {row['estimate']:+.{digits}f} {unit} "
             f"(95% CI {row['low']:+.{digits}f} to {row['high']:+.{digits}f}"
             f"{'; ' + phrase if phrase else ''})")
    games = int(frame[clusters].nunique()) if clusters else len(frame)
    return row, Comparison(label=label, claim=claim, method=f"adjusted difference, {method_note}",
                           pvalue=result.pvalue, effect=result.effect, effect_kind="d",
                           games=games, relative=relative, basis=basis, group=group,
                           causal_test=causal_test, no_test=no_test, topic=subject, unit=unit,
                           component=component,
                           detectable=detectable_shift(row["low"], row["high"]),
                           estimate=row["estimate"], low=row["low"], high=row["high"],
                           exposed_share=float((exposed > 0).mean()) if len(exposed) else
                           math.nan)


def effects_command(kind: str, component: str) -> str:
    """The command that measures a component's effect by design: the same games played with it
    forced into play and kept out (``zsim effects``)."""
    return f"zsim effects {kind} --only {component} --out effects-{component}"


def error_bars(value: np.ndarray, low: np.ndarray, high: np.ndarray) -> np.ndarray:
    """Error-bar lengths below and above ``value``: never negative (matplotlib refuses those),
    zero where an interval is missing, so a degenerate estimate still draws."""
    below, above = np.asarray(value, float) - low, np.asarray(high, float) - value
    return np.nan_to_num(np.clip(np.vstack([below, above]), 0, None))


def forest(ax: Axes, labels: Sequence[str], rows: pd.DataFrame, title: str,
           xlabel: str) -> None:
    """Point estimates with 95% intervals, one line per label; the zero line means no effect."""
    y = np.arange(len(labels))[::-1]
    est, low, high = (rows[c].to_numpy(dtype=float) for c in ("estimate", "low", "high"))
    ax.errorbar(est, y, xerr=error_bars(est, low, high), fmt="o", color="tab:blue", ecolor="0.4",
                capsize=2, markersize=4)
    ax.axvline(0, color="0.3", linewidth=0.8)
    ax.set_yticks(y, labels)
    ax.set_ylim(-0.6, len(labels) - 0.4)  # half a row around the rows, however many
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.xaxis.set_major_locator(MaxNLocator(5))  # numbers that fit a narrow panel
    ax.grid(axis="y", visible=False)


def forest_height(rows: int) -> float:
    return max(2.4, 0.9 + 0.26 * rows)


def bars_with_intervals(ax: Axes, table: pd.DataFrame, groups: Sequence, series: Sequence,
                        value: str, low: str, high: str, *, labels: dict | None = None) -> None:
    """Grouped bars: one group per ``groups`` value (index level 0), one bar per ``series``
    value (index level 1), with error bars from the interval columns.

    The series are named in one legend per figure, above the axes: a legend inside each of
    several narrow axes ran across its neighbours once there were more than four series.
    """
    width = 0.8 / max(len(series), 1)
    x = np.arange(len(groups))
    for i, name in enumerate(series):
        rows = table.reindex([(g, name) for g in groups])
        v = rows[value].to_numpy(dtype=float)
        err = error_bars(v, rows[low].to_numpy(dtype=float), rows[high].to_numpy(dtype=float))
        ax.bar(x + (i - (len(series) - 1) / 2) * width, v, width, yerr=err, capsize=2,
               label=(labels or {}).get(name, str(name)), color=f"C{i}", ecolor="0.3")
    ax.set_xticks(x, [str(g) for g in groups])
    figure = ax.get_figure()
    if figure is not None and not figure.legends:
        figure_legend(figure, ax)


def rate_bars(ax: Axes, table: pd.DataFrame, fair: float | None = None) -> None:
    """One bar per row of a ``win_rates`` table with its Wilson interval; ``fair`` draws the
    fair share as a dashed line."""
    labels = [str(i) for i in table.index]
    rate = table["win_rate"].to_numpy(dtype=float)
    err = error_bars(rate, table["win_low"].to_numpy(dtype=float),
                     table["win_high"].to_numpy(dtype=float))
    ax.bar(labels, rate, yerr=err, capsize=3, color=[f"C{i % 10}" for i in range(len(labels))],
           ecolor="0.3")
    if fair is not None:
        ax.axhline(fair, color="0.3", linestyle="--", linewidth=1)
    top = max(0.05, float(np.nanmax(table["win_high"], initial=0)) * 1.15)
    # Headroom above 100%, so that the cap of an interval reaching 1 is not cut by the frame;
    # no tick is labelled above 100%.
    ax.set_ylim(0, min(1.08, top))
    ax.yaxis.set_major_locator(MaxNLocator(6))
    ax.yaxis.set_major_formatter(lambda v, _: f"{v:.0%}" if v <= 1 + 1e-9 else "")
    ax.set_ylabel("win rate")
    ax.tick_params(axis="x", labelrotation=30 if max(map(len, labels), default=0) > 8 else 0)


def game_lineups(players: pd.DataFrame) -> pd.Series:
    """The lineup label of each finished game, by ``game_key``."""
    return players.groupby("game_key")["lineup"].first()


def luminance(colour: ColorType) -> float:
    """WCAG relative luminance of a matplotlib colour (0 black, 1 white)."""
    channels = np.asarray(to_rgb(colour), dtype=float)
    linear = np.where(channels <= 0.04045, channels / 12.92, ((channels + 0.055) / 1.055) ** 2.4)
    return float(linear @ (0.2126, 0.7152, 0.0722))


def contrast(a: ColorType, b: ColorType) -> float:
    """WCAG contrast ratio of two colours, from 1 (none) to 21 (black on white)."""
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def text_colour(background: ColorType) -> str:
    """Black or white, whichever reads better on ``background`` (a heatmap cell)."""
    return max(("black", "white"), key=lambda ink: contrast(ink, background))


def annotate_cells(ax: Axes, image: AxesImage, texts: np.ndarray, fontsize: float = 8) -> None:
    """Write ``texts`` (same shape as the image) in the cells of a heatmap drawn by ``imshow``,
    each in the ink that contrasts with its cell's colour; empty strings are skipped."""
    values = np.asarray(image.get_array(), dtype=float)
    for (i, j), text in np.ndenumerate(texts):
        if text:
            ink = "black" if np.isnan(values[i, j]) else text_colour(
                cast("ColorType", image.cmap(image.norm(values[i, j]))))  # one RGBA
            ax.text(j, i, text, ha="center", va="center", fontsize=fontsize, color=ink)


def figure_legend(fig: FigureBase, ax: Axes, columns: int | None = None) -> None:
    """One legend for the figure, above its axes (outside the data), from ``ax``'s labelled
    artists."""
    handles, names = ax.get_legend_handles_labels()
    if handles:
        fig.legend(handles, names, loc="outside upper center", fontsize=8, frameon=False,
                   ncol=min(len(names), columns or LEGEND_COLUMNS))


def ecdf_panels(axes: Sequence[Axes], frame: pd.DataFrame, panels: Sequence, panel: str,
                lines: Sequence, line: str, value: str, xlabel: str) -> None:
    """One empirical CDF per ``lines`` value in each panel (one panel per ``panels`` value):
    many distributions stay readable where overlaid step histograms hide each other, and the
    median is read where a line crosses 50%. The figure gets one legend above the axes."""
    for ax, key in zip(axes, panels, strict=True):
        rows = frame[frame[panel] == key]
        for i, name in enumerate(lines):
            values = rows.loc[rows[line] == name, value].dropna()
            if len(values):
                ax.ecdf(values, color=f"C{i % 10}", linewidth=1.4, label=str(name))
        ax.set_xlabel(xlabel)
        ax.yaxis.set_major_formatter(lambda v, _: f"{v:.0%}")
    axes[0].set_ylabel("share of players at or below")
    figure = axes[0].get_figure()
    if figure is not None and not figure.legends:
        handles: dict[str, Artist] = {}
        for ax in axes:
            handles.update(zip(*reversed(ax.get_legend_handles_labels()), strict=True))
        names = [str(n) for n in lines if str(n) in handles]
        figure.legend([handles[n] for n in names], names, loc="outside upper center",
                      fontsize=8, frameon=False, ncol=min(len(names), LEGEND_COLUMNS))
