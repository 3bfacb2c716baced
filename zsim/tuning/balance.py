"""The component value that best evens a field's win shares: a paired grid search.

Every value is played on the same game seeds (one master seed), so game *i* differs between two
values only by what the value changes. The objective of a value is the spread of the field's
win rates (highest minus lowest), or, for a designer's target, the distance of one strategy's
rate from it. Its uncertainty comes from a bootstrap over games that draws the *same* games for
every value, so the objectives of two values are compared on the same resampled games: a value
is *plausible* when its objective is not significantly worse than the best value's.

The search evaluates a coarse grid over the range, then refines it between the neighbours of the
best value, as many rounds as asked (integer ranges stop once every integer there is played).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
import yaml

from zsim.compare import per_game
from zsim.errors import UserError
from zsim.yamlload import safe_load

RESAMPLES = 999
CONFIDENCE = 0.95
RANGE = re.compile(r"^\s*(?P<key>[^=]+?)\s*=\s*(?P<low>[^.][^=]*?)\s*\.\.\s*(?P<high>.+?)\s*$")


class BalanceError(UserError, ValueError):
    """A range or target that cannot be searched; the message names it."""


@dataclass(frozen=True)
class Axis:
    """One key and its range; integer when both ends are."""

    key: str
    low: float
    high: float
    integer: bool

    def grid(self, points: int, low: float | None = None, high: float | None = None
             ) -> list[float]:
        """``points`` values evenly over [low, high] (default: the whole range)."""
        start, stop = self.low if low is None else low, self.high if high is None else high
        values = np.linspace(start, stop, max(points, 2))
        if self.integer:
            return sorted({int(v) for v in np.rint(values)})
        return [float(round(v, 6)) for v in values]

    def text(self, value: float) -> str:
        return str(int(value)) if self.integer else f"{value:g}"


def parse_range(spec: str) -> Axis:
    """``KEY=LOW..HIGH`` -> Axis; the ends are numbers and LOW < HIGH."""
    match = RANGE.match(spec)
    if not match:
        raise BalanceError(f"{spec!r} is not KEY=LOW..HIGH (e.g. rules.palace_vp=4..10)")
    ends = []
    for end in ("low", "high"):
        try:
            value = safe_load(match[end])
        except yaml.YAMLError:
            value = None
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise BalanceError(f"{spec!r}: {end} end {match[end]!r} is not a number")
        ends.append(value)
    low, high = ends
    if not low < high:
        raise BalanceError(f"{spec!r}: empty range ({low} is not below {high})")
    return Axis(match["key"], float(low), float(high),
                all(isinstance(v, int) for v in ends))


def refine(axis: Axis, played: Sequence[float], best: float, points: int) -> list[float]:
    """A finer grid between the played neighbours of ``best`` (values not played yet)."""
    ordered = sorted(set(played))
    i = ordered.index(best)
    low = ordered[i - 1] if i > 0 else best
    high = ordered[i + 1] if i + 1 < len(ordered) else best
    if low == high:
        return []
    return [v for v in axis.grid(points + 2, low, high) if v not in ordered]


def win_matrix(players: pd.DataFrame) -> pd.DataFrame:
    """Games x strategies: each strategy's win share in each game (NaN where it sat out)."""
    shares = per_game(players)["win_share"]
    return shares.droplevel("n_players").unstack("strategy").sort_index()


def objective(rates: np.ndarray, strategies: Sequence[str],
              target: tuple[str, float] | None) -> np.ndarray:
    """Spread (highest - lowest rate) or distance from the target, along the last axis."""
    if target is None:
        return np.nanmax(rates, axis=-1) - np.nanmin(rates, axis=-1)
    name, share = target
    return np.abs(rates[..., list(strategies).index(name)] - share)


def assess(matrices: dict[tuple[float, ...], pd.DataFrame], target: tuple[str, float] | None,
           seed: int = 0) -> pd.DataFrame:
    """Per value: objective; the objective corrected for its bias and its interval (a basic
    bootstrap: the spread of noisy rates overstates the true spread, and both remove the
    bootstrap's estimate of by how much); the paired interval of its difference from
    the best value, and whether it is plausible (not significantly worse than the best)."""
    games = sorted(set.intersection(*(set(m.index) for m in matrices.values())))
    strategies = sorted(set.union(*(set(m.columns) for m in matrices.values())))
    if target is not None and target[0] not in strategies:
        raise BalanceError(f"--target: strategy {target[0]!r} is not in the field "
                           f"({', '.join(strategies)})")
    values = list(matrices)
    stacked = np.stack([matrices[v].reindex(index=games, columns=strategies).to_numpy(float)
                        for v in values])  # values x games x strategies
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, len(games), size=(RESAMPLES, len(games)))
    point = objective(np.nanmean(stacked, axis=1), strategies, target)  # per value
    boot = np.stack([objective(np.nanmean(stacked[k][draws], axis=1), strategies, target)
                     for k in range(len(values))])  # values x resamples
    best = int(np.argmin(point))
    tail = (1 - CONFIDENCE) / 2 * 100
    rows = []
    for k, value in enumerate(values):
        # basic (reverse-percentile) interval: a resampled spread runs above the sample's, as
        # a maximum minus a minimum of noisy rates does, and this turns that bias around
        upper, lower = 2 * point[k] - np.percentile(boot[k], [tail, 100 - tail])
        low, high = max(lower, 0.0), upper
        diff_low, diff_high = np.percentile(boot[k] - boot[best], [tail, 100 - tail])
        corrected = max(2 * point[k] - boot[k].mean(), 0.0)
        rows.append({"value": value, "games": len(games), "objective": point[k],
                     "corrected": corrected, "low": low, "high": high, "versus_best_low": diff_low,
                     "versus_best_high": diff_high,
                     "plausible": k == best or diff_low <= 0, "best": k == best})
    return pd.DataFrame(rows)


def search(axes: Sequence[Axis], points: int, rounds: int,
           play: Callable[[tuple[float, ...]], pd.DataFrame],
           target: tuple[str, float] | None) -> tuple[pd.DataFrame, dict]:
    """Play the coarse grid, then ``rounds`` refinements around the best value so far.

    ``play`` runs one value (a tuple, one entry per axis) and returns its players table.
    Returns the assessment of every value played and the win matrices by value.
    """
    matrices: dict[tuple[float, ...], pd.DataFrame] = {}
    todo = list(itertools.product(*(axis.grid(points) for axis in axes)))
    for round_ in range(rounds + 1):
        for value in todo:
            matrices[value] = win_matrix(play(value))
        if round_ == rounds:
            break
        table = assess(matrices, target)
        best = table.loc[table["best"], "value"].iloc[0]
        grids = [sorted({best[i], *refine(axis, [v[i] for v in matrices], best[i], points)})
                 for i, axis in enumerate(axes)]
        todo = [v for v in itertools.product(*grids) if v not in matrices]
        if not todo:
            break
    return assess(matrices, target), matrices
