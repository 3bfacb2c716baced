"""What a report section is made of: figures, tables, notes, and the comparisons it tested.

Sections build these plain objects; ``zsim.reports.findings`` corrects every comparison's
p-value together; ``zsim.reports.html`` and ``zsim.reports.build`` turn them into a page and
files. Keeping the objects free of rendering means a section can be tested by looking at its data.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import pandas as pd
from matplotlib.figure import Figure as MplFigure

from zsim.stats import EFFECT_BENCHMARKS

ALPHA = 0.05  # family-wise error rate of each family of tests (one figure's question)

#: The groups findings are listed in, causal ones first. A *causal setup effect* compares games
#: whose setup drew a component with games that did not: the deal is random, so the difference
#: is the component's doing. An *association* compares players who chose something (a tile
#: kept, a Wall held, a reward taken) with players who did not; who chooses is not random.
CAUSAL = "causal setup effects"
STRATEGY = "strategy"
SEATING = "seat, colour and turn order"
ASSOCIATION = "associations"
GROUPS = (CAUSAL, STRATEGY, SEATING, ASSOCIATION)


@dataclass
class Comparison:
    """One statistical test, phrased so that it can become a finding.

    ``claim`` is a sentence stating what was observed (e.g. "seat 1 wins 56% of 2-player
    games"); ``effect`` is a standardised effect size of kind ``effect_kind`` (see
    ``zsim.stats.EFFECT_BENCHMARKS``). ``relative`` is the same effect in a designer's terms, as
    a share of ``basis`` (see ``zsim.reports.findings.relative_phrase``: -0.29 with basis "fair" is
    29% fewer wins than fair; 0.12 with basis "fair share" a gain of 12% of it). ``family``
    names the question the test answers with others (by default its figure's title):
    ``zsim.reports.findings`` Holm-corrects each family on its own and fills in ``adjusted`` and
    ``family_size``.
    """

    label: str
    claim: str
    method: str
    pvalue: float
    effect: float
    effect_kind: str
    games: int
    figure: str = ""
    section: str = ""
    relative: float = math.nan
    basis: str = ""
    family: str = ""
    adjusted: float = math.nan
    family_size: int = 0
    group: str = ""  # one of GROUPS; empty: its section's (``Section.group``)
    #: What the finding is about ("Players who kept start_ship_2"): tests of one topic (its
    #: win rate and its score) are one finding on the page. Empty: the label.
    topic: str = ""
    #: For an association: the command whose design tests the same question causally; or,
    #: when no command does, why not and what replays it instead.
    causal_test: str = ""
    no_test: str = ""
    #: The assumed components the comparison involves, id -> the reason they are assumed
    #: (filled in by ``zsim.reports.assumed.mark``).
    assumed: dict[str, str] = field(default_factory=dict)
    #: The smallest difference (in the claim's unit) the test detects with 80% power at
    #: ``ALPHA``, from its interval; NaN when the test gives no interval.
    detectable: float = math.nan
    unit: str = ""
    #: The component the test is about, as (kind, id) of ``zsim.options.KINDS``, when a
    #: forced-in/kept-out design can replay it (``zsim report --recheck``); empty otherwise.
    component: tuple[str, str] | tuple[()] = ()
    #: The difference itself and its 95% interval, in ``unit`` (NaN when the test gives none):
    #: what a replay under other bots is judged against (``zsim.recheck.judge``).
    estimate: float = math.nan
    low: float = math.nan
    high: float = math.nan
    #: For a component in play: the share of the compared games that had it. An effect read
    #: from the few games on one side (a tile almost always in play) is shown as an
    #: association until a designed experiment confirms it (``zsim.reports.recheck``).
    exposed_share: float = math.nan

    @property
    def significant(self) -> bool:
        return self.adjusted < ALPHA

    @property
    def strength(self) -> float:
        """The effect in units of Cohen's "small" benchmark, for ranking findings."""
        if math.isnan(self.effect):
            return 0.0
        return abs(self.effect) / EFFECT_BENCHMARKS[self.effect_kind][0]


@dataclass
class Figure:
    """A matplotlib figure with its caption; ``slug`` names its files and its page anchor."""

    slug: str
    title: str
    caption: str
    games: int
    figure: MplFigure
    comparisons: list[Comparison] = field(default_factory=list)

    @property
    def anchor(self) -> str:
        return f"fig-{self.slug}"


@dataclass
class Table:
    """A table shown on the page and written as CSV.

    ``data`` keeps raw numbers (the CSV); ``formats`` maps columns to format strings used only
    for the page. ``collapsed`` tables are folded away on the page (long reference tables).
    ``transposed`` tables are shown with one column per row of ``data`` and one row per
    column: a few records of many fields (the runs) fit the page's width that way.
    """

    slug: str
    title: str
    data: pd.DataFrame
    formats: dict[str, str] = field(default_factory=dict)
    collapsed: bool = False
    transposed: bool = False


@dataclass
class Note:
    """A paragraph: an explanation, or why a figure is not drawn ("too few games")."""

    text: str
    warning: bool = False


@dataclass
class Finding:
    """One finding: its strongest test, and the other significant tests of the same topic
    (the same players' win rate and score, say), listed with it rather than apart."""

    lead: Comparison
    also: list[Comparison] = field(default_factory=list)
    #: The verdict of its replay under other bots or by design (``zsim.recheck.VERDICTS``),
    #: empty when it was not replayed, and the sentence that says it with both intervals.
    verdict: str = ""
    recheck: str = ""

    @property
    def group(self) -> str:
        return self.lead.group


@dataclass
class FindingList:
    """The findings, grouped (``GROUPS``), most important first; ``empty`` is shown when there
    are none."""

    items: list[Finding]
    empty: str


@dataclass
class Point:
    """One sentence of the summary, with where on the page it is shown (an anchor)."""

    text: str
    link: str = ""


@dataclass
class Points:
    """A titled list of sentences (the summary's parts)."""

    title: str
    items: list[Point]
    empty: str = "Nothing to report."


Block = Figure | Table | Note | FindingList | Points


@dataclass
class Section:
    """A section of the page. ``number`` is its place on the page, given when the page is put
    together (``zsim.reports.build``), so a section can be added anywhere in the list.
    ``group`` is the finding group of its comparisons that do not name their own."""

    slug: str
    title: str
    intro: str
    blocks: list[Block] = field(default_factory=list)
    group: str = ASSOCIATION
    number: int = 0

    @property
    def heading(self) -> str:
        return f"{self.number}. {self.title}" if self.number else self.title

    @property
    def figures(self) -> list[Figure]:
        return [b for b in self.blocks if isinstance(b, Figure)]

    @property
    def tables(self) -> list[Table]:
        return [b for b in self.blocks if isinstance(b, Table)]

    @property
    def comparisons(self) -> list[Comparison]:
        """Every comparison of the section's figures, tagged with where it is shown; a
        comparison without a family belongs to its figure's."""
        found = []
        for fig in self.figures:
            for comparison in fig.comparisons:
                comparison.figure, comparison.section = fig.anchor, self.title
                comparison.family = comparison.family or fig.title
                comparison.group = comparison.group or self.group
                found.append(comparison)
        return found
