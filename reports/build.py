"""Build a report: load runs, build every section, correct the tests, write the files.

The output directory holds ``index.html`` (self-contained), ``figures/SLUG.png`` and
``figures/SLUG.svg`` for every figure, and ``tables/SLUG.csv`` for every table. Rebuilding into
the same directory replaces the previous report; a directory holding anything else is refused,
so a typo in ``--out`` cannot mix a report into a run directory or delete files.
"""

from __future__ import annotations

import io
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import matplotlib

from zsim.errors import UserError
from zsim.reports import (
    assumed,
    boards,
    cards,
    components,
    convergence,
    experience,
    findings,
    overview,
    ratings,
    seats,
    solo,
    strategies,
    summary,
    walls,
)
from zsim.reports.common import STYLE
from zsim.reports.html import render
from zsim.reports.loader import RunData, RunDirError, load_runs
from zsim.reports.model import Section

#: The analysis sections in page order: each module's ``section(data)`` builds one (or returns
#: None when it does not apply to these runs). A new section goes into this list where it
#: belongs on the page; numbers follow from the order. The summary and the findings, which read
#: every other section's tests, come first.
SECTIONS = (overview, strategies, seats, walls, boards, components, cards, solo, convergence,
            ratings, experience)
PNG_DPI = 110
OWN = {"index.html", "figures", "tables", "recheck"}  # everything a report writes


class ReportOutputError(UserError, OSError):
    """The output directory cannot take a report."""


@dataclass(frozen=True)
class BuiltReport:
    index: Path
    figures: int
    tables: int
    significant: int
    summary: Section | None = None  # the report's summary section, when it has one


def _prepare(out: Path) -> None:
    if out.exists() and not out.is_dir():
        raise ReportOutputError(f"--out {out}: exists and is not a directory")
    if out.is_dir() and {p.name for p in out.iterdir()} - OWN:
        raise ReportOutputError(f"--out {out}: directory holds files that are not a report's; "
                                "choose a new or empty one")
    for folder in ("figures", "tables"):
        shutil.rmtree(out / folder, ignore_errors=True)
        try:  # a parent that is a file, or a place no one may write
            (out / folder).mkdir(parents=True)
        except OSError as error:
            raise ReportOutputError(f"--out {out}: cannot be written ({error.strerror})") \
                from None


def _check_unique(sections: list[Section]) -> None:
    for kind, slugs in (("figure", [f.slug for s in sections for f in s.figures]),
                        ("table", [t.slug for s in sections for t in s.tables])):
        duplicated = {s for s in slugs if slugs.count(s) > 1}
        if duplicated:
            raise ValueError(f"duplicate {kind} slug(s): {', '.join(sorted(duplicated))}")


#: Called with the findings section once it is built; may return a section that follows it
#: (``zsim report --recheck`` replays the findings there).
AfterFindings = Callable[[Section], "Section | None"]


def build_sections(data: RunData, after_findings: AfterFindings | None = None
                   ) -> list[Section]:
    """Every section of the report of ``data`` in page order and numbered, its tests
    corrected and its assumed components marked (call inside ``matplotlib.rc_context(STYLE)``,
    so that figures get the report's style)."""
    built = [module.section(data) for module in SECTIONS]
    analyses = [section for section in built if section is not None]
    assumed.mark(analyses, data.assumed)
    listed = findings.section(analyses, data)
    extra = after_findings(listed) if after_findings is not None else None
    page = [summary.section(data, analyses, listed), listed, *([extra] if extra else []),
            *analyses]
    for number, section in enumerate(page, start=1):
        section.number = number
    return page


def build_report(run_dirs: list[Path], out: Path,
                 after_findings: AfterFindings | None = None) -> BuiltReport:
    """Write the report of ``run_dirs`` (pooled) into ``out``."""
    data = load_runs(run_dirs)
    if data.finished.empty:
        raise RunDirError(f"{', '.join(map(str, run_dirs))}: no game finished ({len(data.games)} "
                          f"failed: see failures.jsonl), so there is nothing to report")
    _prepare(out)
    with matplotlib.rc_context(STYLE):
        sections = build_sections(data, after_findings)
        significant = sum(c.significant for s in sections for c in s.comparisons)
        names = ", ".join(str(p) for p in run_dirs)
        listed = next(s for s in sections if s.slug == "findings")
        subtitle = (f"{len(data.finished)} finished games from {names}. {significant} "
                    f"significant test(s): see the summary and section {listed.number}, "
                    f"{listed.title}.")
        return write_sections(sections, out, "zsim report", subtitle)


def write_sections(sections: list[Section], out: Path, title: str,
                   subtitle: str) -> BuiltReport:
    """Write built sections as ``index.html`` with every figure (PNG, SVG) and table (CSV)."""
    _prepare(out)
    _check_unique(sections)
    images = {}
    for figure in (f for s in sections for f in s.figures):
        # Lay the figure out once; otherwise each of the two saves would redo it.
        engine = figure.figure.get_layout_engine()
        if engine is not None:
            engine.execute(figure.figure)
        figure.figure.set_layout_engine("none")
        svg = io.BytesIO()
        figure.figure.savefig(svg, format="svg")
        images[figure.slug] = svg.getvalue()
        (out / "figures" / f"{figure.slug}.svg").write_bytes(svg.getvalue())
        figure.figure.savefig(out / "figures" / f"{figure.slug}.png", dpi=PNG_DPI)
    for table in (t for s in sections for t in s.tables):
        table.data.to_csv(out / "tables" / f"{table.slug}.csv", index=False)
    index = out / "index.html"
    index.write_text(render(title, subtitle, sections, images), encoding="utf-8")
    significant = sum(c.significant for s in sections for c in s.comparisons)
    summary = next((s for s in sections if s.slug == "summary"), None)
    return BuiltReport(index, len(images), sum(len(s.tables) for s in sections), significant,
                       summary)
