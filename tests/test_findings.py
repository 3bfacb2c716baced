"""How the report corrects its tests and names effect sizes: Holm within each family, sizes in
a designer's terms."""

from __future__ import annotations

import math

import pytest
from statsmodels.stats.multitest import multipletests

from zsim.reports.common import new_figure
from zsim.reports.findings import correct, relative_phrase, section, size_label
from zsim.reports.model import Comparison, Figure, Section


def _test(label: str, p: float, effect: float = 0.1, relative: float = math.nan,
          basis: str = "") -> Comparison:
    return Comparison(label=label, claim=label, method="t", pvalue=p, effect=effect,
                      effect_kind="h", games=100, relative=relative, basis=basis)


def _figure(slug: str, title: str, comparisons: list[Comparison]) -> Figure:
    fig, _ = new_figure()
    return Figure(slug, title, "", 100, fig, comparisons)


def test_a_large_family_does_not_dilute_a_question_asked_on_its_own():
    seat = _test("first player", 0.001)
    layout = [_test(f"spot {i}", 0.2 + i / 1000) for i in range(237)]
    sections = [Section("seats", "3. Seats", "", [_figure("seats", "Win rate by seat", [seat])]),
                Section("components", "6. Other", "", [_figure("layout", "Mausoleum layout",
                                                               layout)])]
    summary = section(sections)
    assert seat.adjusted == pytest.approx(0.001) and seat.significant  # a family of one
    assert seat.family == "Win rate by seat" and seat.family_size == 1
    expected = multipletests([c.pvalue for c in layout], method="holm")[1]
    assert [c.adjusted for c in layout] == pytest.approx(list(expected))
    assert {c.family_size for c in layout} == {237}
    table = summary.tables[0].data
    assert set(table["family"]) == {"Win rate by seat", "Mausoleum layout"}
    assert table.set_index("comparison").loc["first player", "family_tests"] == 1
    # One family over the whole report, as before, would have buried it:
    assert multipletests([0.001, *(c.pvalue for c in layout)], method="holm")[1][0] > 0.05


def test_families_can_be_named_across_figures_and_untestable_ones_do_not_count():
    a, b = _test("a", 0.01), _test("b", 0.02)
    a.family = b.family = "one question"
    missing = _test("c", math.nan)
    a.section = b.section = missing.section = "s"
    missing.family = "one question"
    correct([a, b, missing])
    assert a.adjusted == pytest.approx(0.02) and b.adjusted == pytest.approx(0.02)
    assert a.family_size == 2 and math.isnan(missing.adjusted)


def test_a_large_relative_effect_is_never_called_negligible():
    # mausoleum winning 17.8% of 4-player seats against a fair 25%: h = -0.18, 29% fewer wins.
    fewer = _test("mausoleum", 1e-5, effect=-0.178, relative=0.178 / 0.25 - 1, basis="fair")
    assert size_label(fewer) == "medium"
    assert relative_phrase(fewer.relative, fewer.basis) == "29% fewer wins than fair"
    # A difference of 3 points of win rate in 4-player games, as a share of the fair 25%:
    assert relative_phrase(0.03 / 0.25, "fair share") == "+12% of the fair share"
    assert size_label(_test("tiny", 0.5, effect=0.01, relative=0.02)) == "negligible"
    assert size_label(_test("big d", 0.5, effect=0.9, relative=0.01)) == "large"
    assert relative_phrase(0.031, "mean score") == "+3% of the mean score"
    assert relative_phrase(math.nan, "mean score") == ""
