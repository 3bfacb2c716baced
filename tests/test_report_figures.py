"""The report's figures as a reader sees them: they build on degenerate data, lay out without
warnings, keep legends off the data, print heatmap numbers in a readable ink, and line dots up
with their labels."""

from __future__ import annotations

import math
import re
import shutil
import warnings
from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd
import pytest
from figure_checks import tick_label_clashes
from matplotlib.collections import LineCollection, PathCollection
from matplotlib.colors import to_rgb
from matplotlib.lines import Line2D
from matplotlib.transforms import Bbox

from zsim.reports import strategies
from zsim.reports.build import build_sections, write_sections
from zsim.reports.common import STYLE
from zsim.reports.components import FAMILIES, MAX_ROWS, MIN_DRAWN
from zsim.reports.loader import load_runs
from zsim.reports.model import Figure, Section
from zsim.runner import Experiment
from zsim.runner.batch import start_run


def _run(out: Path, **settings) -> Path:
    start_run(Experiment(jobs=1, chunk_size=24, **settings), out)
    return out


@pytest.fixture(scope="module")
def lopsided(tmp_path_factory) -> Path:
    """greedy against random: greedy wins every game, random none (Wilson bounds at 0 and 1)."""
    return _run(tmp_path_factory.mktemp("runs") / "lopsided", games=48, players=[2],
                strategies=["greedy", "random"], seed=1)


@pytest.fixture(scope="module")
def mixed(tmp_path_factory) -> Path:
    """Three strategies at two player counts: every figure of the report is drawn."""
    return _run(tmp_path_factory.mktemp("runs") / "mixed", games=120, players=[2, 4],
                strategies=["basic", "greedy", "random"], seed=4)


@pytest.fixture(scope="module")
def lopsided_sections(lopsided) -> list[Section]:
    return sections_of(lopsided)


@pytest.fixture(scope="module")
def mixed_sections(mixed) -> list[Section]:
    return sections_of(mixed)


def sections_of(*runs: Path) -> list[Section]:
    """The report's sections with every figure laid out, any warning (a collapsed
    constrained layout only warns) raised as an error."""
    data = load_runs(list(runs))
    with matplotlib.rc_context(STYLE), warnings.catch_warnings():
        warnings.simplefilter("error")
        sections = build_sections(data)
        for figure in (f for s in sections for f in s.figures):
            figure.figure.get_layout_engine().execute(figure.figure)
            figure.figure.draw_without_rendering()
    return sections


def figures_of(sections: list[Section]) -> dict[str, Figure]:
    return {f.slug: f for s in sections for f in s.figures}


def _data_boxes(ax) -> list[Bbox]:
    """Display-space boxes of what an axes plots: each point of a line, each bar, each
    error-bar segment's ends, each image and text."""
    boxes = []
    for artist in ax.get_children():
        if not artist.get_visible():
            continue
        if isinstance(artist, Line2D):
            points = ax.transData.transform(np.column_stack(artist.get_data()).astype(float))
            boxes += [Bbox([p, p]) for p in points if np.isfinite(p).all()]
        elif isinstance(artist, LineCollection):
            for segment in artist.get_segments():
                points = ax.transData.transform(segment)
                boxes += [Bbox([p, p]) for p in points if np.isfinite(p).all()]
        elif isinstance(artist, PathCollection):
            points = artist.get_offset_transform().transform(artist.get_offsets())
            boxes += [Bbox([p, p]) for p in points if np.isfinite(p).all()]
        elif artist in ax.patches or artist in ax.images or artist in ax.texts:
            boxes.append(artist.get_window_extent())
    return boxes


def legend_clashes(figure: Figure) -> list[str]:
    """Legends that lie on plotted data (a legend outside every axes never does)."""
    fig = figure.figure
    legends = [*fig.legends, *(ax.get_legend() for ax in fig.axes if ax.get_legend())]
    clashes = []
    for legend in legends:
        box = legend.get_window_extent()
        for ax in fig.axes:
            if not ax.get_visible() or not box.overlaps(ax.get_window_extent()):
                continue
            if any(box.overlaps(data) for data in _data_boxes(ax)):
                clashes.append(f"{figure.slug}: legend on the data of {ax.get_title()!r}")
    return clashes


def wcag_contrast(a, b) -> float:
    """WCAG 2 contrast ratio, worked out here from the definition."""
    def lum(colour):
        c = np.array(to_rgb(colour))
        c = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
        return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]
    high, low = sorted((lum(a), lum(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def cell_inks(figure: Figure) -> list[tuple[str, float]]:
    """(text, contrast with its cell) for every number written on a heatmap."""
    found = []
    for ax in figure.figure.axes:
        for image in ax.images:
            values = np.asarray(image.get_array(), dtype=float)
            for text in ax.texts:
                x, y = text.get_position()
                value = values[round(y), round(x)]
                cell = image.cmap(image.norm(value))
                found.append((text.get_text(), wcag_contrast(text.get_color(), cell)))
    return found


def test_a_strategy_that_never_wins_and_one_that_always_does_give_a_report(
        lopsided, lopsided_sections, tmp_path):
    players = pd.read_parquet(lopsided / "players.parquet")
    rates = players.groupby("strategy")["win_share"].mean()
    assert rates["greedy"] == 1 and rates["random"] == 0  # the degenerate case, for real
    sections = lopsided_sections
    figures = figures_of(sections)
    assert {"strategy-win-rate", "head-to-head", "score-distributions"} <= set(figures)
    summary = next(t for s in sections for t in s.tables if t.slug == "strategies").data
    summary = summary.set_index("strategy")
    assert summary.loc["random", "win_low"] == 0 and summary.loc["greedy", "win_high"] == 1
    assert (summary["win_low"] <= summary["win_rate"]).all()
    assert (summary["win_rate"] <= summary["win_high"]).all()
    for figure in figures.values():
        assert not legend_clashes(figure)
    with matplotlib.rc_context(STYLE):  # and the files are written (SVG, PNG, the page)
        built = write_sections(sections, tmp_path / "report", "zsim report", "")
    assert built.figures == len(figures) and built.index.is_file()


def test_one_strategy_one_game_and_empty_columns_give_a_report(lopsided, tmp_path):
    alone = _run(tmp_path / "alone", games=36, players=[2], strategies=["random"], seed=2)
    one = _run(tmp_path / "one", games=1, players=[2], strategies=["basic", "random"], seed=3)
    assert figures_of(sections_of(alone))  # drawn, though there is nothing to compare
    assert not figures_of(sections_of(one))  # too few games: notes, no figure
    empty = tmp_path / "empty"  # columns present but never filled in
    shutil.copytree(lopsided, empty)
    players = pd.read_parquet(empty / "players.parquet")
    for column in ("vp_cards", "n_abilities_activated", "n_cards_writing", "vp_walls"):
        players[column] = np.nan
    players["start_tile"] = None
    players.to_parquet(empty / "players.parquet")
    games = pd.read_parquet(empty / "games.parquet")
    games["mausoleum_layout"] = None
    games.to_parquet(empty / "games.parquet")
    figures = figures_of(sections_of(empty))
    assert "cards-by-suit" in figures and "mausoleum-layout" not in figures
    for figure in figures.values():
        assert not legend_clashes(figure)


def test_no_legend_of_the_full_report_covers_plotted_data(mixed_sections):
    figures = figures_of(mixed_sections)
    assert len(figures) >= 15
    assert [clash for f in figures.values() for clash in legend_clashes(f)] == []



def test_no_tick_labels_of_the_full_report_overlap(mixed_sections):
    figures = figures_of(mixed_sections)
    clashes = [clash for f in figures.values() for clash in tick_label_clashes(f)]
    assert clashes == [], "; ".join(clashes)


def test_overlapping_tick_labels_are_caught():
    from zsim.reports.common import new_figure

    fig, axes = new_figure(width=2)
    axes[0][0].bar([f"a long label {i}" for i in range(6)], range(6))
    fig.get_layout_engine().execute(fig)
    fig.draw_without_rendering()
    assert tick_label_clashes(Figure("x", "x", "", 1, fig))

def test_a_legend_on_the_data_is_caught():
    # The check above must be able to fail: a legend drawn over a line is a clash.
    from zsim.reports.common import new_figure

    fig, axes = new_figure()
    ax = axes[0][0]
    ax.plot(np.linspace(0, 1, 50), np.linspace(0, 1, 50), label="a line")
    ax.plot([0, 1], [0.95, 0.95], label="another")
    ax.legend(loc="upper left")
    fig.get_layout_engine().execute(fig)
    fig.draw_without_rendering()
    assert legend_clashes(Figure("x", "x", "", 1, fig))


def test_heatmap_numbers_contrast_with_their_cells(mixed_sections):
    figures = figures_of(mixed_sections)
    for slug in ("card-triggers", "head-to-head", "board-take-rates"):
        inks = cell_inks(figures[slug])
        assert inks, slug
        # WCAG AA for text: 4.5:1. Black on the darkest blue is about 1.3:1.
        assert min(contrast for _, contrast in inks) >= 4.5, (slug, min(inks, key=lambda i: i[1]))
    darkest = figures["card-triggers"].figure.axes[0].images[0]
    assert wcag_contrast("black", darkest.cmap(1.0)) < 4.5  # the check would catch black ink


def test_ability_dots_sit_on_their_labels_and_the_suits_have_a_legend(mixed, mixed_sections):
    figure = figures_of(mixed_sections)["card-abilities"]
    bars, dots = figure.figure.axes[:2]
    suits = sorted(pd.read_parquet(mixed / "abilities.parquet")["suit"].unique())
    legend = figure.figure.legends[0]
    assert [t.get_text() for t in legend.get_texts()] == suits
    labels = {label.get_text(): bars.transData.transform((0, tick))[1]
              for label, tick in zip(bars.get_yticklabels(), bars.get_yticks(), strict=True)}
    assert len(labels) > 3
    colours = {bar.get_label(): to_rgb(bar.patches[0].get_facecolor())
               for bar in bars.containers}
    rows = 0
    for line, suit in zip(dots.get_lines(), suits, strict=True):
        assert to_rgb(line.get_color()) == colours[suit]  # a suit's dots wear its bars' colour
        for x, y in line.get_xydata():  # in data units, also on a categorical axis
            if math.isnan(x):
                continue
            shown = dots.transData.transform((x, y))[1]
            # The dot's height on screen is one of the labels' heights, to the pixel.
            assert min(abs(shown - h) for h in labels.values()) < 0.5
            rows += 1
    assert rows >= len(labels)


def test_the_mausoleum_layout_figure_shows_only_what_matters(mixed_sections):
    sections = mixed_sections
    figure = figures_of(sections)["mausoleum-layout"]
    table = next(t for s in sections for t in s.tables if t.slug == "mausoleum-layout").data
    assert len(table) > MAX_ROWS  # many spot bindings in the table...
    drawn = sum(len(ax.get_yticklabels()) for ax in figure.figure.axes)
    assert drawn <= MAX_ROWS and len(figure.figure.axes) <= 2  # ...few rows on the figure
    significant = [c for c in figure.comparisons if c.significant]
    # a few significant rows are drawn among the strongest others, never a figure of one row
    assert drawn == (len(significant) if len(significant) >= MIN_DRAWN else MAX_ROWS)


def test_a_category_nobody_scored_in_is_left_out_of_the_legend(lopsided, lopsided_sections,
                                                              tmp_path):
    players = pd.read_parquet(lopsided / "players.parquet")
    assert (players["vp_rewards"] == 0).all()
    legend = figures_of(lopsided_sections)["vp-categories"].figure.axes[0].get_legend()
    names = [t.get_text() for t in legend.get_texts()]
    assert "rewards" not in names and "walls" in names
    scored = tmp_path / "scored"
    shutil.copytree(lopsided, scored)
    players.loc[0, "vp_rewards"] = 2
    players.to_parquet(scored / "players.parquet")
    with matplotlib.rc_context(STYLE):
        section = strategies.section(load_runs([scored]))
    legend = figures_of([section])["vp-categories"].figure.axes[0].get_legend()
    assert "rewards" in [t.get_text() for t in legend.get_texts()]


def test_master_alchemists_are_named_by_what_they_do_and_governor_panels_share_one_label(
        mixed_sections):
    figures = figures_of(mixed_sections)
    masters = figures["master-alchemists"]
    labels = [t.get_text() for ax in masters.figure.axes if ax.get_visible()
              for t in ax.get_yticklabels() if t.get_text()]
    odd = [label for label in labels if not re.fullmatch(r"master_\d†? \(.+\)", label)]
    assert labels and not odd, odd
    governors = figures["governor-tiles"]
    assert governors.figure.get_supxlabel()
    assert not any(ax.get_xlabel() for ax in governors.figure.axes if ax.get_visible())
    assert tick_label_clashes(governors) == []
    # Assumed Governor tiles carry the mark on their label and the reason in the caption.
    assert any("†" in t.get_text() for ax in governors.figure.axes
               for t in ax.get_yticklabels())
    assert "split as 3, 3, 2, 2 copies" in governors.caption


def test_a_bot_that_wins_every_game_is_found_by_the_strategy_test(lopsided_sections):
    """greedy wins all 48 games against random: the t statistic is 0/0, so the win shares are
    judged by an exact binomial test, a finite p-value that survives Holm, and the caption
    states the test it ran."""
    from scipy.stats import binomtest

    from zsim.reports.findings import significance_sentence

    figure = figures_of(lopsided_sections)["strategy-win-rate"]
    tests = {c.label: c for c in figure.comparisons}
    assert set(tests) == {"greedy win rate, 2 players", "random win rate, 2 players"}
    for comparison in tests.values():
        assert comparison.pvalue == pytest.approx(binomtest(48, 48, 0.5).pvalue)
        assert "binomial" in comparison.method and comparison.significant
    assert "exact binomial test" in figure.caption
    assert "No statistical test" not in significance_sentence(figure)
    assert "Significant after Holm correction" in significance_sentence(figure)


def test_a_win_rate_that_never_varies_gives_no_estimate_rather_than_a_certain_zero(
        lopsided_sections):
    """greedy wins every game: no component can be linked to its win rate. The table leaves
    the effect blank (not 0 within 0 to 0), no figure draws it, and a note says why."""
    sections = {s.slug: s for s in lopsided_sections}
    components = sections["components"]
    layout = next(t for t in components.tables if t.slug == "mausoleum-layout").data
    for strategy in ("greedy", "random"):
        numbers = [f"{strategy} win rate: {n}" for n in ("estimate", "low", "high", "p")]
        assert layout[numbers].isna().all().all()
    assert layout["game's mean VP: estimate"].notna().any()
    laid_out = [f for f in components.figures if f.slug in {slug for slug, *_ in FAMILIES}]
    assert laid_out
    drawn = [label.get_text() for f in laid_out for ax in f.figure.axes
             for label in ax.get_yticklabels()] + [ax.get_title() for f in laid_out
                                                   for ax in f.figure.axes]
    assert not [text for text in drawn if "win rate" in text]
    notes = [b.text for b in components.blocks if hasattr(b, "warning")]
    assert any("Mausoleum layout: greedy win rate, random win rate not estimable" in n
               for n in notes)


def test_a_rate_of_100_percent_keeps_its_cap_and_the_axes_are_labelled(lopsided_sections):
    """greedy's interval reaches 100%: the axis leaves room above it for the cap; the x axis
    says what its bars are, and every panel of cards-by-suit names its y axis."""
    figures = figures_of(lopsided_sections)
    ax = figures["strategy-win-rate"].figure.axes[0]
    assert ax.get_ylim()[1] > 1 and ax.get_xlabel() == "strategy"
    assert all(label.get_text() in ("", "0%", "20%", "40%", "60%", "80%", "100%")
               for label in ax.get_yticklabels())
    assert all(a.get_ylabel() for a in figures["cards-by-suit"].figure.axes)


def test_the_fan_has_headroom_over_100_percent_and_its_legend_off_the_bands(lopsided, tmp_path):
    run = _run(tmp_path / "fan", games=60, players=[2], strategies=["greedy", "random"],
               seed=1, trajectories="vp")
    figure = figures_of(sections_of(run))["experience-fan"]
    top = figure.figure.axes[0]
    assert top.get_ylim()[1] > 1 and top.get_ylim()[0] < 0
    assert top.get_legend() is None and figure.figure.legends  # above the panels
    assert not legend_clashes(figure)
