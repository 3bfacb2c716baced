"""Replay a report's top findings under strong play, within a time budget.

A finding of the default report is about the game as the heuristic bots play it. ``zsim report
--recheck BOT --budget MINUTES`` replays the findings a setup constraint can reproduce with BOT
in every seat, in a forced-in/kept-out design on common seeds (as ``zsim effects`` plays
them), and says of each whether it *holds* (the replay's 95% interval lies on the finding's
side of zero), *flips* (on the other side) or *cannot tell* (the interval holds zero: too few
games, or no effect):

* a component laid out for the table (a Wall tile, a board, a Master Alchemist...) whose
  presence moved the game's mean score: the paired difference of the game's mean VP, forced in
  minus kept out, game by game on the same seeds;
* a Starting tile whose keepers won more (or less) than others: in the games with the tile
  forced into the deal, the keepers' win share minus the fair share, game by game. With one bot
  in every seat, a keeper's edge can only come from the tile (and the bot's choice to keep it).

A win-rate effect of one strategy cannot be replayed with one bot in every seat, so such
findings are left out. The budget is shared out after one timed game: the first findings get
the games, the rest are named as not replayed.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import scipy

from zsim.runner.experiment import Experiment

HOLDS, FLIPS, CANNOT_TELL = "holds", "flips", "cannot tell"
MIN_GAMES = 2  # fewest games per batch a finding is replayed on
MAX_FINDINGS = 5


@dataclass(frozen=True)
class Candidate:
    """A finding a forced-in/kept-out design can replay: its component, what it measured
    (``"mean_vp"``: the game's mean score; ``"keeper_win"``: the keepers' win share over the
    fair share) and the sign of its effect."""

    claim: str
    kind: str
    component: str
    measure: str
    sign: int
    link: str = ""


@dataclass(frozen=True)
class Rechecked:
    """One replay: ``played`` games per batch, of which ``games`` gave a value (for a Starting
    tile, the forced-in games in which someone kept it)."""

    candidate: Candidate
    played: int
    games: int
    estimate: float
    low: float
    high: float
    verdict: str


def judge(sign: int, low: float, high: float) -> str:
    """Holds when the interval lies on the finding's side of zero, flips when on the other,
    cannot tell when it holds zero (or is missing)."""
    if not (math.isfinite(low) and math.isfinite(high)) or low <= 0 <= high:
        return CANNOT_TELL
    return HOLDS if (low > 0) == (sign > 0) else FLIPS


def mean_interval(values: np.ndarray, confidence: float = 0.95) -> tuple[float, float, float]:
    """Mean and t interval of per-game values; no interval from fewer than two, a zero-width
    one from values that do not vary."""
    values = np.asarray(values, dtype=float)
    if values.size == 0:
        return math.nan, math.nan, math.nan
    mean = float(values.mean())
    if values.size < 2:
        return mean, math.nan, math.nan
    sd = float(values.std(ddof=1))
    if sd == 0:
        return mean, mean, mean
    half = float(scipy.stats.t.ppf(0.5 + confidence / 2, values.size - 1)) * sd / math.sqrt(
        values.size)
    return mean, mean - half, mean + half


def keeper_excess(players: pd.DataFrame, tile: str) -> np.ndarray:
    """Per game with a keeper of ``tile``: the keepers' mean win share minus the fair share."""
    kept = players[players["start_tile"] == tile]
    return (kept.groupby("game")["win_share"].mean() - 1 / kept.groupby("game")["n_players"]
            .first()).to_numpy(float)


def mean_vp_difference(excluded: pd.DataFrame, forced: pd.DataFrame) -> np.ndarray:
    """Per seed played in both: the game's mean VP forced in minus kept out."""
    joined = forced.groupby("game")["vp_total"].mean().to_frame("forced").join(
        excluded.groupby("game")["vp_total"].mean().to_frame("excluded"), how="inner")
    return (joined["forced"] - joined["excluded"]).to_numpy(float)


def measure(candidate: Candidate, excluded: pd.DataFrame, forced: pd.DataFrame) -> np.ndarray:
    if candidate.measure == "keeper_win":
        return keeper_excess(forced, candidate.component)
    return mean_vp_difference(excluded, forced)


Play = Callable[[Experiment, Path], pd.DataFrame]


def batches(base: Experiment, bot: str, candidate: Candidate, games: int
            ) -> list[tuple[str, Experiment]]:
    """The two batches of one replay: ``bot`` in every seat, the component kept out and
    forced in, on the same seeds."""
    planned = []
    for mode in ("exclude", "force"):
        key = f"setup.{mode}.{candidate.kind}"
        planned.append((mode, base.with_overrides(
            f"--recheck {bot}", strategies=[bot], games=games,
            variants={**base.variants, key: candidate.component})))
    return planned


def recheck(base: Experiment, bot: str, candidates: list[Candidate], budget_seconds: float,
            out: Path, play: Play, clock: Callable[[], float] = time.monotonic
            ) -> tuple[list[Rechecked], list[Candidate]]:
    """Replay ``candidates`` (most important first) with ``bot`` in every seat within
    ``budget_seconds``: one timed game first, then as many games per batch as the budget
    allows for as many findings as get ``MIN_GAMES`` each. Returns the replays and the
    findings left out for want of time."""
    if not candidates:
        return [], []
    started = clock()
    first = candidates[0]
    pilot = batches(base, bot, first, 1)[1][1]
    play(pilot, out / "pilot")
    per_game = max(clock() - started, 1e-3)
    left = budget_seconds - (clock() - started)
    affordable = int(left / (2 * MIN_GAMES * per_game))
    chosen = candidates[:max(1, min(len(candidates), affordable, MAX_FINDINGS))]
    games = max(MIN_GAMES, int(left / (2 * len(chosen) * per_game)))
    results = []
    for i, candidate in enumerate(chosen):
        frames = {mode: play(experiment, out / f"{i}-{candidate.component}" / mode)
                  for mode, experiment in batches(base, bot, candidate, games)}
        values = measure(candidate, frames["exclude"], frames["force"])
        estimate, low, high = mean_interval(values)
        results.append(Rechecked(candidate, games, len(values), estimate, low, high,
                                 judge(candidate.sign, low, high)))
    return results, candidates[len(chosen):]
