"""Section 8: the significant imbalances, after correcting for the number of tests.

A report runs hundreds of tests; at 5% each, dozens would be "significant" by chance alone.
Every comparison of every section is therefore Holm-corrected together, and only those that
survive are listed, the largest standardised effect first (measured in units of Cohen's
"small" benchmark, so a win-rate gap and a score gap can be ranked on one scale).
"""

from __future__ import annotations

import math

import pandas as pd

from reports.model import ALPHA, Comparison, Figure, FindingList, Section, Table
from zsim.stats import EFFECT_BENCHMARKS, holm


def _p(value: float) -> str:
    if math.isnan(value):
        return "–"
    return "< 0.0001" if value < 1e-4 else f"{value:.2g}"


def size_label(comparison: Comparison) -> str:
    """Cohen's conventional size of the effect ("negligible" below the small benchmark)."""
    small, medium, large = EFFECT_BENCHMARKS[comparison.effect_kind]
    size = abs(comparison.effect)
    return next((label for bound, label in ((large, "large"), (medium, "medium"),
                                             (small, "small")) if size >= bound), "negligible")


def finding_detail(comparison: Comparison) -> str:
    return (f"{comparison.section}; {size_label(comparison)} effect, "
            f"{comparison.effect_kind} = {comparison.effect:+.2f}; Holm-adjusted "
            f"p {_p(comparison.adjusted)}; {comparison.method}; {comparison.games} games")


def significance_sentence(figure: Figure) -> str:
    """The caption's verdict on the figure's comparisons, after Holm correction."""
    tested = [c for c in figure.comparisons if not math.isnan(c.adjusted)]
    if not tested:
        return "No statistical test is drawn from this figure."
    significant = sorted((c for c in tested if c.significant), key=lambda c: -c.strength)
    if not significant:
        return (f"None of its {len(tested)} tested differences is significant after Holm "
                f"correction over the whole report (α = {ALPHA}).")
    listed = "; ".join(f"{c.label} (p {_p(c.adjusted)})" for c in significant)
    rest = len(tested) - len(significant)
    tail = f" The other {rest} tested difference(s) are not." if rest else ""
    return (f"Significant after Holm correction over the whole report (α = {ALPHA}): "
            f"{listed}.{tail}")


def section(sections: list[Section]) -> Section:
    """Holm-correct every comparison of ``sections`` and list the significant ones."""
    comparisons = [c for s in sections for c in s.comparisons]
    for comparison, adjusted in zip(comparisons, holm([c.pvalue for c in comparisons]),
                                    strict=True):
        comparison.adjusted = adjusted
    tested = [c for c in comparisons if not math.isnan(c.adjusted)]
    significant = sorted((c for c in tested if c.significant), key=lambda c: -c.strength)
    intro = (f"{len(tested)} comparisons were tested across the report and Holm-corrected "
             f"together (family-wise α = {ALPHA}); {len(significant)} are significant. They "
             "are listed largest effect first. An effect's size is its standardised value "
             "against Cohen's benchmarks (d and h: 0.2 small, 0.5 medium, 0.8 large; w: 0.1, "
             "0.3, 0.5). Bots are not people: an imbalance between bots is a lead to check, "
             "not a verdict.")
    rows = pd.DataFrame([{
        "section": c.section, "comparison": c.label, "claim": c.claim, "method": c.method,
        "games": c.games, "p": c.pvalue, "holm_p": c.adjusted, "effect": c.effect,
        "effect_kind": c.effect_kind, "size": size_label(c), "significant": c.significant,
        "figure": c.figure} for c in comparisons],
        columns=["section", "comparison", "claim", "method", "games", "p", "holm_p", "effect",
                 "effect_kind", "size", "significant", "figure"])
    rows = rows.sort_values(["significant", "holm_p"], ascending=[False, True])
    return Section("findings", "8. Findings", intro, [
        FindingList(significant, "No difference is significant after correction: with this "
                                 "many games, no imbalance stands out from chance."),
        Table("tests", "Every test in this report", rows,
              formats={"p": "{:.3g}", "holm_p": "{:.3g}", "effect": "{:+.3f}"},
              collapsed=True),
    ])
