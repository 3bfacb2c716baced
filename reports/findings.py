"""The report section on the significant imbalances, after correcting for the number of
tests, as findings a designer can act on: grouped, one per topic, causal ones first.

A report runs hundreds of tests; at 5% each, dozens would be "significant" by chance alone. The
tests are therefore corrected with Holm's method, but family by family: a family is the set of
tests that answer one question (by default, one figure's: "does any strategy win more than its
fair share?", "does any Mausoleum spot change who wins?"). Correcting the whole report as one
family would let the 200-odd Mausoleum tests bury a first-player edge asked about on its own.
Each family keeps its chance of any false finding at 5%; the page names every test's family.
Only the tests that survive are listed, the largest standardised effect first (measured in units
of Cohen's "small" benchmark, so a win-rate gap and a score gap can be ranked on one scale).
"""

from __future__ import annotations

import math
from collections import defaultdict

import pandas as pd

from zsim.reports.model import (
    ALPHA,
    GROUPS,
    Comparison,
    Figure,
    Finding,
    FindingList,
    Section,
    Table,
)
from zsim.stats import EFFECT_BENCHMARKS, holm

#: A relative effect (a share of the fair share or of the mean score) of 5% is small, 15%
#: medium, 30% large: a bot winning 29% fewer games than fair is not "negligible", whatever its
#: standardised size, since a win is a rare, noisy outcome whose SD dwarfs such a gap.
RELATIVE_BENCHMARKS = (0.05, 0.15, 0.30)
SIZES = ("negligible", "small", "medium", "large")


def _p(value: float) -> str:
    if math.isnan(value):
        return "–"
    return "< 0.0001" if value < 1e-4 else f"{value:.2g}"


def _tests(count: int) -> str:
    return f"{count} test" if count == 1 else f"{count} tests"


def _rank(value: float, benchmarks: tuple[float, ...]) -> int:
    return 0 if math.isnan(value) else sum(abs(value) >= bound for bound in benchmarks)


def size_label(comparison: Comparison) -> str:
    """The effect's conventional size: the larger of Cohen's (for its standardised value) and
    the relative one (for its share of the fair share or mean score, ``RELATIVE_BENCHMARKS``)."""
    return SIZES[max(_rank(comparison.effect, EFFECT_BENCHMARKS[comparison.effect_kind]),
                     _rank(comparison.relative, RELATIVE_BENCHMARKS))]


def relative_phrase(relative: float, basis: str) -> str:
    """A relative effect in words; empty when there is none.

    Basis ``"fair"`` is a win rate against the fair share (rate / fair share - 1):
    ``-0.29`` -> "29% fewer wins than fair". Any other basis is a difference as a share of it:
    ``0.12, "fair share"`` -> "+12% of the fair share" (a 3-point gain in 4-player games),
    ``0.03, "mean score"`` -> "+3% of the mean score".
    """
    if math.isnan(relative) or not basis:
        return ""
    if basis == "fair":
        return f"{abs(relative):.0%} {'more' if relative >= 0 else 'fewer'} wins than fair"
    shown = f"{relative:+.0%}"
    return f"{'0%' if shown in ('+0%', '-0%') else shown} of the {basis}"  # no sign on a zero


def finding_detail(comparison: Comparison) -> str:
    relative = relative_phrase(comparison.relative, comparison.basis)
    detectable = detectable_phrase(comparison)
    return (f"{comparison.section}; {size_label(comparison)} effect "
            f"({relative + ', ' if relative else ''}{comparison.effect_kind} = "
            f"{comparison.effect:+.2f}); Holm-adjusted p {_p(comparison.adjusted)} within "
            f"“{comparison.family}” ({_tests(comparison.family_size)}); {comparison.method}; "
            f"{comparison.games} games{'; ' + detectable if detectable else ''}")


def significance_sentence(figure: Figure) -> str:
    """The caption's verdict on the figure's comparisons, after Holm correction within their
    family."""
    tested = [c for c in figure.comparisons if not math.isnan(c.adjusted)]
    if not tested:
        return "No statistical test is drawn from this figure."
    families = sorted({(c.family, c.family_size) for c in tested})
    named = "; ".join(f"“{family}”, {_tests(size)}" for family, size in families)
    where = f"within its family ({named}, α = {ALPHA} each)"
    significant = sorted((c for c in tested if c.significant), key=lambda c: -c.strength)
    ranges = [f"±{min(sizes):.2g} to ±{max(sizes):.2g} {unit}".rstrip()
              for unit, sizes in detectable_by_unit(tested).items()]
    seen = (f" These games detect a difference of {' and '.join(ranges)} at 80% power; "
            "smaller ones could be hidden." if ranges else "")
    if not significant:
        subject = "Its tested difference is not" if len(tested) == 1 else \
            f"None of its {len(tested)} tested differences is"
        return f"{subject} significant after Holm correction {where}.{seen}"
    listed = "; ".join(f"{c.label} (p {_p(c.adjusted)})" for c in significant)
    rest = len(tested) - len(significant)
    tail = f" The other {rest} tested difference(s) are not." if rest else ""
    return f"Significant after Holm correction {where}: {listed}.{tail}{seen}"


def detectable_by_unit(comparisons: list[Comparison]) -> dict[str, list[float]]:
    """The detectable sizes of ``comparisons`` by unit: a family may test win rates (points)
    and scores (VP) together, and a size in points says nothing beside one in VP."""
    found: dict[str, list[float]] = defaultdict(list)
    for comparison in comparisons:
        if not math.isnan(comparison.detectable):
            found[comparison.unit].append(comparison.detectable)
    return dict(found)


def correct(comparisons: list[Comparison]) -> None:
    """Holm-correct ``comparisons`` family by family (a family is a section's question), filling
    in ``adjusted`` and ``family_size``."""
    families: dict[tuple[str, str], list[Comparison]] = defaultdict(list)
    for comparison in comparisons:
        families[comparison.section, comparison.family].append(comparison)
    for members in families.values():
        tested = sum(not math.isnan(c.pvalue) for c in members)
        for comparison, adjusted in zip(members, holm([c.pvalue for c in members]),
                                        strict=True):
            comparison.adjusted, comparison.family_size = adjusted, tested


def findings(comparisons: list[Comparison]) -> list[Finding]:
    """The significant comparisons as findings: grouped (``GROUPS``, causal ones first), one
    finding per topic (a topic's other significant tests go with its strongest), and within a
    group the largest standardised effect first."""
    significant = [c for c in comparisons if c.significant]
    by_topic: dict[tuple[str, str], list[Comparison]] = defaultdict(list)
    for comparison in sorted(significant, key=lambda c: -c.strength):
        topic = comparison.topic or f"{comparison.section}: {comparison.label}"
        by_topic[comparison.group, topic].append(comparison)
    found = [Finding(tests[0], tests[1:]) for tests in by_topic.values()]
    order = {group: i for i, group in enumerate(GROUPS)}
    return sorted(found, key=lambda f: (order.get(f.group, len(GROUPS)), -f.lead.strength))


def detectable_phrase(comparison: Comparison) -> str:
    """``smallest detectable ±2.1 points`` (80% power), empty when the test has no interval."""
    if math.isnan(comparison.detectable):
        return ""
    return f"detectable at 80% power: ±{comparison.detectable:.2g} {comparison.unit}".rstrip()


def section(sections: list[Section], data: object = None) -> Section:
    """Holm-correct the comparisons of ``sections`` family by family and list the significant
    ones as findings, grouped and deduplicated."""
    comparisons = [c for s in sections for c in s.comparisons]
    correct(comparisons)
    tested = [c for c in comparisons if not math.isnan(c.adjusted)]
    listed = findings(tested)
    significant = sum(c.significant for c in tested)
    families = len({(c.section, c.family) for c in tested})
    intro = (f"{len(tested)} comparisons were tested in {families} families (a family is the "
             "set of tests that answer one question, usually one figure's) and Holm-corrected "
             f"within each family (family-wise α = {ALPHA} per family; the table names each "
             f"test's family). {significant} are significant, making {len(listed)} findings: "
             "the tests of one topic (a tile's keepers' win rate and score) are one finding. "
             "They are grouped: causal setup effects (games whose random setup drew a component "
             "against games that did not) first, then strategy, seat, colour and turn order, "
             "then associations (players who chose something against those who did not, "
             "which shows what goes with winning, not what causes it; each names the command "
             "that tests it by design, or says that none does). A causal setup effect read "
             "from fewer than a fifth of the games on one side (a component almost always in "
             "play) is listed as an association. Within a group the largest effect comes first. An "
             "effect's size is the larger of two readings: its standardised value against "
             "Cohen's benchmarks (d and h: 0.2 small, 0.5 medium, 0.8 large; w: 0.1, 0.3, 0.5) "
             "and its size relative to the fair share (win rates) or the mean (scores): 5% "
             "small, 15% medium, 30% large. Each test's detectable size is the smallest "
             "difference it finds four times in five (80% power). Components marked † are "
             "assumed (not printed in the rulebook); the reason follows. Bots are not people: "
             "an imbalance between bots is a lead to check, not a verdict.")
    rows = pd.DataFrame([{
        "group": c.group, "section": c.section, "family": c.family,
        "family_tests": c.family_size, "comparison": c.label, "claim": c.claim,
        "method": c.method, "games": c.games, "p": c.pvalue, "holm_p": c.adjusted,
        "effect": c.effect, "effect_kind": c.effect_kind, "relative": c.relative,
        "relative_to": c.basis, "size": size_label(c), "detectable_80": c.detectable,
        "unit": c.unit, "significant": c.significant,
        "assumed": "; ".join(f"{k}: {v}" for k, v in c.assumed.items()),
        "causal_test": c.causal_test, "figure": c.figure} for c in comparisons],
        columns=["group", "section", "family", "family_tests", "comparison", "claim", "method",
                 "games", "p", "holm_p", "effect", "effect_kind", "relative", "relative_to",
                 "size", "detectable_80", "unit", "significant", "assumed", "causal_test",
                 "figure"])
    rows = rows.sort_values(["significant", "holm_p"], ascending=[False, True])
    return Section("findings", "Findings", intro, [
        FindingList(listed, "No difference is significant after correction: with this "
                            "many games, no imbalance stands out from chance."),
        Table("tests", "Every test in this report, with its family", rows,
              formats={"p": "{:.3g}", "holm_p": "{:.3g}", "effect": "{:+.3f}",
                       "relative": "{:+.1%}", "detectable_80": "{:.3g}"},
              collapsed=True),
    ])
