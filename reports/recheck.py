"""The report section of ``zsim report --recheck``: the top findings replayed under strong play.

Which findings can be replayed, and how, is ``zsim.recheck``'s; this module picks them from
the built findings (causal ones first, as listed) and shows the replays' verdicts.
"""

from __future__ import annotations

import math

import pandas as pd

from zsim.recheck import Candidate, Rechecked
from zsim.reports.model import Finding, FindingList, Point, Points, Section, Table


def candidates(listing: Section) -> list[Candidate]:
    """The listed findings a forced-in/kept-out design with one bot can replay, in the order
    they are listed (causal setup effects first): a component's effect on the game's mean
    score, and a Starting tile's keepers' win rate."""
    listed: list[Finding] = next((b.items for b in listing.blocks
                                  if isinstance(b, FindingList)), [])
    found: dict[tuple[str, str, str], Candidate] = {}
    for finding in listed:
        for comparison in (finding.lead, *finding.also):
            if not comparison.component or not comparison.component[0]:
                continue
            kind, component = comparison.component
            if kind == "starting_tiles":
                what = "keeper_win"
            elif comparison.label.endswith("mean VP"):
                what = "mean_vp"
            else:
                continue
            sign = 1 if (comparison.effect if not math.isnan(comparison.effect) else 0) >= 0 \
                else -1
            found.setdefault((kind, component, what), Candidate(
                comparison.claim, kind, component, what, sign, comparison.figure))
    return list(found.values())


MEASURES = {"keeper_win": ("keepers' win share over the fair share", 100, "points"),
            "mean_vp": ("game's mean VP, forced in minus kept out", 1, "VP")}


def section(bot: str, budget: float, results: list[Rechecked],
            left_out: list[Candidate]) -> Section:
    result = Section("recheck", f"Findings under strong play ({bot})", (
        f"The top findings a setup constraint can reproduce, replayed with {bot} in every seat "
        f"within {budget:g} minutes: each component forced into play and kept out on the same "
        "game seeds. A finding holds when the replay's 95% interval lies on its side of zero, "
        "flips when it lies on the other side, and cannot tell when it holds zero (too few "
        "games, or no effect under this play). A strategy's own win-rate effect cannot be "
        "replayed with one bot in every seat and is left out."))
    rows = []
    points = []
    for r in results:
        what, scale, unit = MEASURES[r.candidate.measure]
        rows.append({"component": r.candidate.component, "kind": r.candidate.kind,
                     "measure": what, "finding_sign": r.candidate.sign,
                     "games_per_batch": r.played, "games_measured": r.games,
                     "estimate": r.estimate * scale, "low": r.low * scale,
                     "high": r.high * scale, "verdict": r.verdict,
                     "finding": r.candidate.claim})
        interval = ("no interval" if math.isnan(r.low)
                    else f"[{r.low * scale:+.1f}, {r.high * scale:+.1f}]")
        over = (f"kept in {r.games} of {r.played} games with the tile forced into the deal"
                if r.candidate.measure == "keeper_win" else f"over {r.games} paired games")
        points.append(Point(f"{r.verdict.upper()}: {r.candidate.claim}. Under {bot}, "
                            f"{what}: {r.estimate * scale:+.1f} {unit} {interval}, {over}.",
                            r.candidate.link))
    points += [Point(f"Not replayed for want of time: {c.claim}.", c.link) for c in left_out]
    result.blocks.append(Points("Verdicts", points, "No listed finding can be replayed with "
                                                    "one bot in every seat."))
    if rows:
        result.blocks.append(Table("recheck", "Replays", pd.DataFrame(rows),
                                   formats={"estimate": "{:+.2f}", "low": "{:+.2f}",
                                            "high": "{:+.2f}"}))
    return result
