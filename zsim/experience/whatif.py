"""The experience side of ``zsim compare``, ``zsim sweep`` and ``zsim effects``: each pair of
batches they play on common seeds, compared on the experience metrics too.

A command hands ``pair_runs`` its pairs of run directories, each with a label (empty for a
comparison, ``KEY=VALUE`` for a sweep's value, the component for an effect); the result writes
one CSV, prints its headline metrics and verdicts, and gives the report its section.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from zsim.experience.paired import format_table, paired_experience, refit_together, verdict
from zsim.experience.usage import change_lines, changes, usage

if TYPE_CHECKING:
    from zsim.reports.model import Section

CSV = "experience.csv"
USAGE_CSV = "usage.csv"


@dataclass
class PairedExperience:
    """The paired experience tables of a command's pairs of batches, by label (None where a
    batch recorded no trajectories)."""

    tables: list[tuple[str, pd.DataFrame | None]]
    #: Per pair, its components' use base against variant (``zsim.experience.usage``).
    usage: list[tuple[str, pd.DataFrame]] = field(default_factory=list)

    @property
    def table(self) -> pd.DataFrame:
        """Every pair's table in one, with its label first (``pair``)."""
        found = [table.assign(pair=label) for label, table in self.tables if table is not None]
        if not found:
            return pd.DataFrame(columns=["pair"])
        joined = pd.concat(found, ignore_index=True)
        return joined[["pair", *joined.columns[:-1]]]

    def write_csv(self, out: Path) -> Path:
        path = out / CSV
        self.table.to_csv(path, index=False)
        if self.usage:
            pd.concat([t.assign(pair=label) for label, t in self.usage],
                      ignore_index=True).to_csv(out / USAGE_CSV, index=False)
        return path

    def text(self) -> str:
        """The headline metrics and the verdict of each pair, as a command prints them."""
        lines = []
        for label, table in self.tables:
            head = f"experience, {label}" if label else "experience"
            if table is None:
                lines.append(f"{head}: no trajectories recorded in both batches")
                continue
            lines += [f"{head} (variant minus base, * significant after Holm):",
                      format_table(table), verdict(table)]
        for label, joined in self.usage:
            moved = change_lines(joined)
            head = f"usage, {label}" if label else "usage"
            lines += ([f"{head} (base -> variant; what moved by a fifth or more):"]
                      + [f"  {line}" for line in moved] if moved else
                      [f"{head}: no component's use, VP per use or pick rate moved by a fifth"])
        return "\n".join(lines)

    def sections(self) -> list[Section]:
        """The report's section (built in the report's style)."""
        from zsim.reports.experience import paired_sections, usage_section

        return paired_sections(self.tables) + usage_section(self.usage)


def pair_runs(pairs: Sequence[tuple[str, Path, Path]]) -> PairedExperience:
    """Compare each (label, base run, variant run) game by game on the experience metrics."""
    from zsim.experience.data import read

    paths = list(dict.fromkeys(path for _, base, variant in pairs for path in (base, variant)))
    runs = dict(zip(paths, refit_together([read([path]) for path in paths]), strict=True))
    return PairedExperience([(label, paired_experience(runs[base], runs[variant], True))
                             for label, base, variant in pairs],
                            [(label, changes(usage(base), usage(variant)))
                             for label, base, variant in pairs])
