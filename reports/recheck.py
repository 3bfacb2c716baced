"""The report's recheck: the top findings replayed under stronger play, and their verdicts.

Which findings can be replayed, and how, is ``zsim.recheck``'s; this module picks them from the
built findings (those named on the summary first), gives each listed finding its verdict (or
says why it has none) and builds the section that shows the replays.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import replace

import pandas as pd

from zsim.recheck import SEAT, UNITS, Candidate, Rechecked
from zsim.reports.model import (
    ASSOCIATION,
    STRATEGY,
    Comparison,
    Finding,
    FindingList,
    Point,
    Points,
    Section,
    Table,
)

#: What the replay measured, per measure of ``zsim.recheck.UNITS``.
MEASURES = {"keeper_win": "the keeper's win share minus the same seat's with the tile kept out",
            "mean_vp": "the game's mean VP, forced in minus kept out",
            "strategy_win": "its win share, forced in minus kept out",
            "walls_built": "Walls built on its section, forced in minus another tile there",
            "wall_vp": "VP per Wall on its section, forced in minus another tile there",
            "seat_win": "its win share minus the fair share, nothing forced"}
NOT_REPLAYABLE = ("not rechecked: a strategy's own win rate cannot be replayed with one bot in "
                  "every seat")
HEURISTIC_ONLY = "heuristic bots only (not replayed)"


def listed_findings(listing: Section) -> list[Finding]:
    return next((b.items for b in listing.blocks if isinstance(b, FindingList)), [])


def _candidate(comparison: Comparison) -> Candidate | None:
    """The replay of one test, when a forced-in/kept-out design can make it."""
    if not comparison.component or not comparison.component[0]:
        return None
    kind, component = comparison.component
    strategy = ""
    if kind.startswith(SEAT):
        what = "seat_win"
    elif kind == "starting_tiles":
        what = "keeper_win"
    elif comparison.label.startswith("Walls built on"):
        what = "walls_built"
    elif comparison.label.startswith("VP per Wall on"):
        what = "wall_vp"
    elif comparison.label.endswith("mean VP"):
        what = "mean_vp"
    elif (comparison.label.endswith(" win rate") and ": " in comparison.label
          and comparison.group == ASSOCIATION):  # a causal effect from lopsided games
        what = "strategy_win"
        strategy = comparison.label.split(": ", 1)[1].removesuffix(" win rate")
    else:
        return None
    scale = UNITS[what][0]
    effect = comparison.estimate if math.isfinite(comparison.estimate) else comparison.effect
    return Candidate(comparison.claim, kind, component, what,
                     1 if (effect if math.isfinite(effect) else 0) >= 0 else -1,
                     comparison.figure, comparison.estimate / scale, comparison.low / scale,
                     comparison.high / scale, strategy=strategy)


def candidates(listing: Section, parts: list[list[Finding]] | None = None
               ) -> list[tuple[Finding, Candidate]]:
    """The listed findings a forced-in/kept-out design can replay: those of ``parts`` (the
    summary's, by part) first, taking the first of each part in turn (so that the strongest
    association is replayed as early as the strongest causal effect), then the others in
    listed order. Within a finding, the tests of one component kind and measure are one
    replay: a board in play and the other kept out are one fact seen from both sides (a
    mirror), replayed once."""
    listed = listed_findings(listing)
    first = [f for turn in itertools.zip_longest(*(parts or [])) for f in turn if f is not None]
    order = [*first, *(f for f in listed if f not in first)]
    found: list[tuple[Finding, Candidate]] = []
    seen: set[tuple[str, str, str, str]] = set()
    for finding in order:
        own: dict[tuple[str, str, str], int] = {}
        for comparison in (finding.lead, *finding.also):
            candidate = _candidate(comparison)
            if candidate is None:
                continue
            key = (candidate.kind, candidate.measure, candidate.strategy)
            if key in own and candidate.kind == "board":
                i = own[key]
                found[i] = (finding, replace(found[i][1], mirrors=(
                    *found[i][1].mirrors, candidate.claim)))
                continue
            if (*key, candidate.component) in seen:
                continue
            seen.add((*key, candidate.component))
            own[key] = len(found)
            found.append((finding, candidate))
    return found


def numbers(value: float, low: float, high: float, scale: float, unit: str) -> str:
    interval = ("no interval" if not (math.isfinite(low) and math.isfinite(high))
                else f"[{low * scale:+.1f}, {high * scale:+.1f}]")
    return f"{value * scale:+.1f} {unit} {interval}"


def replay_sentence(r: Rechecked) -> str:
    """The replay's numbers beside the finding's: ``vanished under distilled: +0.8 points
    [-6.1, +7.7] over 150 paired games, against +41.0 points [+36.2, +45.8] here``."""
    scale, unit = UNITS[r.candidate.measure]
    c = r.candidate
    over = (f"{r.games} of {r.played} paired games had a keeper" if c.measure == "keeper_win"
            else f"over {r.games} games" if c.measure == "seat_win"
            else f"over {r.games} paired games")
    return (f"{r.verdict} under {r.bot}: {numbers(r.estimate, r.low, r.high, scale, unit)} "
            f"({over}), against {numbers(c.original, c.original_low, c.original_high, scale, unit)}"
            " in these games")


def attach(pairs: list[tuple[Finding, Candidate]], results: list[Rechecked],
           left_out: list[Candidate]) -> None:
    """Give each replayed finding its verdict and sentence (the first replay of a finding
    speaks for it; a finding of several replays lists each), and say of the others why they
    have none."""
    by_candidate = {id(r.candidate): r for r in results}
    for finding, candidate in pairs:
        r = by_candidate.get(id(candidate))
        if r is None:
            if not finding.recheck:
                finding.recheck = ("not replayed for want of time" if candidate in left_out
                                   else "not replayed")
            continue
        if not finding.verdict:
            finding.verdict, finding.recheck = r.verdict, replay_sentence(r)
        elif replay_sentence(r) not in finding.recheck:
            finding.recheck += f"; {replay_sentence(r)}"


def unreplayed(finding: Finding) -> str:
    """Why a finding of the summary has no verdict."""
    if finding.recheck:
        return finding.recheck
    if finding.group == ASSOCIATION:
        return HEURISTIC_ONLY
    return NOT_REPLAYABLE if finding.group == STRATEGY else "not replayed"


def section(bot: str, budget: float, results: list[Rechecked],
            left_out: list[Candidate]) -> Section:
    result = Section("recheck", f"Findings under stronger play ({bot})", (
        f"The top findings a setup constraint can reproduce, replayed with {bot} in every seat "
        f"within {budget:g} minutes (a strategy's win rate moved by a component: with the "
        "run's own lineup, the designed experiment `zsim effects` plays): each component forced "
        "into play and kept out on the same game seeds. Verdicts compare the replay's 95% "
        "interval with zero and with the finding's own estimate: holds (on the finding's side "
        "of zero, reaching its estimate), shrinks (on its side, but wholly short of its "
        "estimate), vanished (holds zero and excludes the estimate), flips (the other side of "
        "zero), cannot tell (holds both: too few games). Mirror findings (the other board "
        "kept out) are replayed with the one they mirror."))
    rows = []
    points = []
    for r in results:
        scale, unit = UNITS[r.candidate.measure]
        c = r.candidate
        rows.append({"component": c.component, "kind": c.kind, "measure": MEASURES[c.measure],
                     "strategy": c.strategy, "bot": r.bot, "unit": unit,
                     "finding_sign": c.sign, "original": c.original * scale,
                     "original_low": c.original_low * scale,
                     "original_high": c.original_high * scale,
                     "games_per_batch": r.played, "games_measured": r.games,
                     "estimate": r.estimate * scale, "low": r.low * scale,
                     "high": r.high * scale, "verdict": r.verdict, "finding": c.claim,
                     "mirrors": "; ".join(c.mirrors)})
        mirrored = f" (and its mirror: {'; '.join(c.mirrors)})" if c.mirrors else ""
        points.append(Point(f"{r.verdict.upper()}: {c.claim}{mirrored}. Replayed, "
                            f"{MEASURES[c.measure]}: {replay_sentence(r)}.", c.link))
    points += [Point(f"Not replayed for want of time: {c.claim}.", c.link) for c in left_out]
    result.blocks.append(Points("Verdicts", points, "No listed finding can be replayed with "
                                                    "a setup constraint."))
    if rows:
        result.blocks.append(Table("recheck", "Replays", pd.DataFrame(rows),
                                   formats={c: "{:+.2f}" for c in (
                                       "estimate", "low", "high", "original", "original_low",
                                       "original_high")}))
    return result


def terminal_lines(results: list[Rechecked], left_out: list[Candidate]) -> list[str]:
    """What ``zsim report`` prints of the replays: the replay's numbers, not the finding's."""
    lines = [f"{replay_sentence(r)}: {r.candidate.claim}" for r in results]
    return lines + [f"not replayed for want of time: {c.claim}" for c in left_out]
