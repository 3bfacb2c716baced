"""Play until precise enough: more games in whole stages, judged by confidence sequences.

``--until-precision X`` (on ``run``, ``compare``, ``sweep`` and ``effects``) keeps adding games
until every interval of interest (each strategy's win rate, or each paired win-rate difference)
is at most ±X points wide. Looking at an interval after every stage and stopping once it is
narrow enough would make ordinary 95% intervals too narrow: they hold at one planned sample
size, not at one chosen by looking. The intervals judged here are *confidence sequences*:
95% intervals that hold at every number of games at once, so at whatever stage the loop stops.

The sequence is the asymptotic confidence sequence of Waudby-Smith, Arnold, Wu, Howard and
Ramdas ("Time-uniform central limit theory and asymptotic confidence sequences", Annals of
Statistics, 2024): Robbins' normal-mixture boundary around the running mean, scaled by the
running standard deviation of the per-game values,

    mean_t ± sd_t * sqrt(2 (t r² + 1) / (t² r²) * log(sqrt(t r² + 1) / alpha)),

with ``r`` tuned so that the sequence is narrowest near ``planned`` games. Its reference
implementation (the ``confseq`` package) needs the Boost C++ headers to build, which a plain
``pip install`` does not have; the boundary is a closed form, so it is written out here and
checked against a simulation in the tests.

Every stage is a whole experiment of its own game seeds: stage 0 is the experiment as given,
stage ``k`` the same experiment with the master seed ``stage_seed(seed, k)``. Each stage
therefore plays whole blocks of a balanced design, and the batches of one stage (a base and
its variant, a component forced in and kept out) share their seeds, so pairing holds inside
every stage. Games of later stages are numbered from ``k * STRIDE`` when the stages are pooled.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

import numpy as np
import pandas as pd

from zsim.compare import KEYS, per_game

ALPHA = 0.05
STRIDE = 10_000_000  # game numbers of stage k start at k * STRIDE when stages are pooled
MAX_STAGES = 64  # a cap, so that an unreachable precision cannot play forever
T = TypeVar("T")


def stage_seed(seed: int, stage: int) -> int:
    """The master seed of stage ``stage`` (the experiment's own for stage 0)."""
    if stage == 0:
        return seed
    return int(np.random.SeedSequence([seed, 0x5EC, stage]).generate_state(1)[0] % 2**31)


def stage_dir(out: Path, stage: int) -> Path:
    """Where stage ``stage`` of an output directory goes: ``out`` itself for stage 0."""
    return out if stage == 0 else out / f"stage-{stage}"


def pooled(stages: Sequence[pd.DataFrame]) -> pd.DataFrame:
    """Players tables of several stages as one, games numbered apart."""
    return pd.concat([frame.assign(game=frame["game"] + k * STRIDE)
                      for k, frame in enumerate(stages)], ignore_index=True)


def half_width(sd: float, n: int, planned: int, alpha: float = ALPHA) -> float:
    """Half-width of the asymptotic confidence sequence after ``n`` values of standard
    deviation ``sd``, tuned to be narrowest near ``planned`` values."""
    if n < 2 or not math.isfinite(sd):
        return math.inf
    log_term = -2 * math.log(alpha)
    r2 = (log_term + math.log(log_term + 1)) / max(planned, 1)
    return sd * math.sqrt(2 * (n * r2 + 1) / (n * n * r2)
                          * math.log(math.sqrt(n * r2 + 1) / alpha))


def spread(values: np.ndarray, span: float) -> float:
    """The standard deviation the sequence is scaled by: the values' own, with the variance of
    a value spread evenly over ``span`` (the outcome's range: 1 for a win share, 2 for a
    difference of two) counted as one more observation. Without it, a strategy that has not
    won yet (every value 0) would look known to ±0 after a few games."""
    squares = float(((values - values.mean()) ** 2).sum())
    return math.sqrt((span * span / 4 + squares) / (values.size + 1))


def sequence(values: np.ndarray, planned: int, span: float = 1.0,
             alpha: float = ALPHA) -> tuple[float, float, float]:
    """Mean and confidence-sequence interval of ``values`` (one per game, within a range of
    ``span``)."""
    values = np.asarray(values, dtype=float)
    values = values[~np.isnan(values)]
    if values.size < 2:
        return (float(values.mean()) if values.size else math.nan), -math.inf, math.inf
    mean = float(values.mean())
    width = half_width(spread(values, span), values.size, planned, alpha)
    return mean, mean - width, mean + width


def win_rate_sequences(players: pd.DataFrame, planned: int) -> pd.DataFrame:
    """Per player count and strategy: the win rate per game (the strategy's mean win share in
    each game it sat in) with its confidence sequence."""
    games = per_game(players, ["win_share"])
    rows = []
    for (n_players, strategy), group in games.groupby(level=KEYS):
        mean, low, high = sequence(group["win_share"].to_numpy(), planned)
        rows.append({"n_players": n_players, "strategy": strategy, "games": len(group),
                     "estimate": mean, "low": low, "high": high})
    return pd.DataFrame(rows, columns=["n_players", "strategy", "games", "estimate", "low",
                                       "high"])


def difference_sequences(base: pd.DataFrame, variant: pd.DataFrame,
                         planned: int) -> pd.DataFrame:
    """Per player count and strategy: the paired win-rate difference (variant minus base,
    game by game) with its confidence sequence."""
    joined = per_game(base, ["win_share"]).add_suffix("_base").join(
        per_game(variant, ["win_share"]).add_suffix("_variant"), how="inner")
    rows = []
    for (n_players, strategy), group in joined.groupby(level=KEYS):
        diff = (group["win_share_variant"] - group["win_share_base"]).to_numpy()
        mean, low, high = sequence(diff, planned, span=2.0)
        rows.append({"n_players": n_players, "strategy": strategy, "games": len(diff),
                     "estimate": mean, "low": low, "high": high})
    return pd.DataFrame(rows, columns=["n_players", "strategy", "games", "estimate", "low",
                                       "high"])


def widest(intervals: pd.DataFrame) -> float:
    """The largest half-width among ``intervals`` (in win-rate units, 0..1)."""
    if intervals.empty:
        return math.inf
    return float(((intervals["high"] - intervals["low"]) / 2).max())


def until_precision(precision: float, play: Callable[[int], T],
                    intervals: Callable[[list[T]], pd.DataFrame],
                    say: Callable[[str], None] = print,
                    max_stages: int = MAX_STAGES) -> tuple[list[T], pd.DataFrame]:
    """Play stage after stage (``play(k)`` plays stage ``k`` and returns its data) until
    every interval of ``intervals(stages so far)`` is at most ``±precision`` (a share: 0.03
    is three points of win rate), or ``max_stages`` stages are played. Returns the stages and
    the last intervals, with a ``half_width`` column."""
    stages: list[T] = []
    while True:
        stages.append(play(len(stages)))
        table = intervals(stages)
        table = table.assign(half_width=(table["high"] - table["low"]) / 2)
        worst = widest(table)
        say(f"stage {len(stages)}: widest interval ±{worst * 100:.1f} points "
            f"(target ±{precision * 100:g}; anytime-valid 95% confidence sequences)")
        if worst <= precision or len(stages) >= max_stages:
            if worst > precision:
                say(f"stopped after {max_stages} stages without reaching ±{precision * 100:g}")
            return stages, table
