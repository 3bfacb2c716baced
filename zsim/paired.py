"""Two-sample tests on per-game scores, paired on common games when the two runs share them.

The regression gate replays the baseline's own seeds, so game *i* of both runs starts from the
same setup and, unless the change under test alters a decision, plays the same way: differences
taken game by game cancel all the luck the change does not touch (common random numbers, as in
``zsim.compare``). When the runs played other seeds the samples are independent and the same
questions get their unpaired tests. Every function here takes the two samples as arrays of one
value per game (paired: equal length, aligned) and returns plain numbers.

scipy.stats is reached through ``scipy.stats`` attribute access, which imports it on first use
(see ``zsim.stats``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import scipy
from numpy.typing import ArrayLike

from zsim.stats import sign_test, two_proportion_test, welch_test_from_stats

NAN = float("nan")


@dataclass(frozen=True)
class Shift:
    """A difference ``after - before`` with its interval and two-sided p-value.

    ``gain`` is how many times smaller the variance of the estimate is than that of two
    independent samples of the same sizes (1 for an unpaired test, NaN where undefined): the
    factor of games that pairing saved. ``sd`` is the standard deviation of the per-game
    differences (paired) or NaN (unpaired), for the sample-size hint.
    """

    diff: float
    low: float
    high: float
    pvalue: float
    gain: float = NAN
    sd: float = NAN


def constant_and_equal(before: np.ndarray, after: np.ndarray) -> bool:
    """Both samples hold one and the same value: there is nothing to test (p is NaN, so that
    Holm's procedure does not count it)."""
    return (before.size > 0 and after.size > 0 and np.ptp(before) == 0 and np.ptp(after) == 0
            and before[0] == after[0])


def mean_shift(before: ArrayLike, after: ArrayLike, paired: bool,
               confidence: float = 0.95) -> Shift:
    """Shift of the mean: paired t-test on per-game differences, else Welch's t-test.

    The paired t-test is chosen over Wilcoxon's signed-rank test because the gate's tolerance
    is on the mean and the t interval estimates exactly that; with hundreds of games per group
    the mean of the differences is close to normal whatever their shape. Differences that do
    not vary (a scoring constant that changes no decision adds the same VP to every game) make
    the answer certain: p is 0 for a non-zero shift.
    """
    a, b = np.asarray(before, dtype=float), np.asarray(after, dtype=float)
    if a.size < 2 or b.size < 2 or constant_and_equal(a, b):
        return Shift(float(b.mean() - a.mean()) if a.size and b.size else NAN, NAN, NAN, NAN)
    unpaired_var = a.var(ddof=1) / a.size + b.var(ddof=1) / b.size
    if not paired:
        diff, low, high, p = welch_test_from_stats(a.mean(), a.std(ddof=1), a.size, b.mean(),
                                                   b.std(ddof=1), b.size, confidence)
        return Shift(diff, low, high, p, gain=1.0)
    d = b - a
    sd = float(d.std(ddof=1))
    mean = float(d.mean())
    if sd <= 1e-12 * max(1.0, abs(mean)):  # rounding aside, every game moved by ``mean``
        return Shift(mean, mean, mean, 1.0 if mean == 0 else 0.0, gain=math.inf, sd=0.0)
    result = scipy.stats.ttest_1samp(d, 0.0)
    interval = result.confidence_interval(confidence)
    return Shift(mean, float(interval.low), float(interval.high), float(result.pvalue),
                 gain=float(unpaired_var / (sd * sd / d.size)), sd=sd)


@dataclass(frozen=True)
class DistributionTest:
    """Two-sample Kolmogorov-Smirnov test: the largest distance between the two ECDFs, where
    it lies, and its p-value."""

    distance: float
    at: float
    pvalue: float


def distribution_shift(before: ArrayLike, after: ArrayLike) -> DistributionTest:
    """Did the whole distribution move? Kolmogorov-Smirnov two-sample test.

    KS rather than Anderson-Darling: scipy's k-sample Anderson-Darling p-value is clipped to
    [0.001, 0.25], which Holm's procedure over a few hundred tests could never call
    significant, while KS gives exact or asymptotic p-values of any size. On integer scores
    with ties KS is conservative, and on paired samples (positively correlated) its
    independent-samples null is too, so it errs on the quiet side. The distance (between 0 and
    1) is what its tolerance applies to: how far apart the two shares of games at or below some
    score are.
    """
    a, b = np.asarray(before, dtype=float), np.asarray(after, dtype=float)
    if a.size < 2 or b.size < 2 or constant_and_equal(a, b):
        return DistributionTest(0.0 if a.size and b.size else NAN, NAN, NAN)
    # scipy's exact distribution is tried up to 10,000 values and gives up, with a warning,
    # on large tied samples; the asymptotic one is accurate long before that.
    method: Literal["asymp", "auto"] = "asymp" if a.size * b.size > 10_000 else "auto"
    result = scipy.stats.ks_2samp(a, b, method=method)
    return DistributionTest(float(result.statistic), float(result.statistic_location),
                            float(result.pvalue))


def quantile_shifts(before: ArrayLike, after: ArrayLike, levels: Sequence[float],
                    paired: bool, confidence: float = 0.95, resamples: int = 500,
                    seed: int = 0) -> list[tuple[float, float, Shift]]:
    """Per quantile level: the two quantiles and the shift between them.

    The interval is a percentile bootstrap that, when paired, resamples games (both runs' value
    of a game together), so it keeps the pairing's precision; unpaired, each sample is resampled
    on its own. A quantile is the smallest score with at least that share of games at or below
    it (the inverse of the ECDF, numpy's "inverted_cdf"): a score actually reached, so integer
    VP shift by whole points. Seeded, so a report is reproducible.

    The p-value is not the bootstrap's: a bootstrap p-value cannot fall below 1/resamples, far
    above the levels Holm's procedure needs, and a normal approximation with the bootstrap's
    standard error proved too bold on the few order statistics near a tail quantile of a
    hundred games. It comes from ``quantile_test`` instead.
    """
    a, b = np.asarray(before, dtype=float), np.asarray(after, dtype=float)
    q = np.asarray(levels, dtype=float)
    if a.size < 2 or b.size < 2:
        return [(NAN, NAN, Shift(NAN, NAN, NAN, NAN)) for _ in q]
    base = np.quantile(a, q, method="inverted_cdf")
    now = np.quantile(b, q, method="inverted_cdf")
    if constant_and_equal(a, b):
        return [(float(x), float(y), Shift(0.0, NAN, NAN, NAN))
                for x, y in zip(base, now, strict=True)]
    if paired and np.array_equal(a, b):  # the change did not touch this column in any game
        return [(float(x), float(x), Shift(0.0, 0.0, 0.0, 1.0)) for x in base]
    rng = np.random.default_rng(seed)
    counts_a = _resample_counts(rng, a.size, resamples)
    counts_b = counts_a if paired else _resample_counts(rng, b.size, resamples)
    boot = _weighted_quantiles(b, counts_b, q) - _weighted_quantiles(a, counts_a, q)
    half = (1 - confidence) / 2
    lows, highs = np.quantile(boot, [half, 1 - half], axis=0)
    results = []
    for i in range(q.size):
        results.append((float(base[i]), float(now[i]),
                        Shift(float(now[i] - base[i]), float(lows[i]), float(highs[i]),
                              quantile_test(a, b, float(q[i]), paired))))
    return results


def quantile_test(before: np.ndarray, after: np.ndarray, level: float, paired: bool) -> float:
    """P-value of "both samples have the same ``level`` quantile": Mood's quantile test.

    The pooled sample's quantile ``m`` splits each sample into games at or below it and above
    it; under the null both samples put the same share at or below ``m``. Unpaired, that is a
    two-proportion test; paired, only games on different sides in the two runs tell (McNemar's
    test, exact: a sign test of the two kinds of discordant games). Both hold their level with
    ties and integer scores, where resampling order statistics does not.
    """
    m = np.quantile(np.concatenate([before, after]), level, method="inverted_cdf")
    below_a, below_b = before <= m, after <= m
    if paired:
        result = sign_test(float((below_b & ~below_a).sum()), float((below_a & ~below_b).sum()))
        return 1.0 if math.isnan(result.pvalue) else result.pvalue
    return two_proportion_test(float(below_a.sum()), before.size, float(below_b.sum()),
                               after.size)[3]


def _resample_counts(rng: np.random.Generator, size: int, resamples: int) -> np.ndarray:
    """How often each of ``size`` games is drawn in each of ``resamples`` bootstrap samples."""
    draws = rng.integers(0, size, (resamples, size)) + size * np.arange(resamples)[:, None]
    counts = np.bincount(draws.ravel(), minlength=resamples * size)
    return counts.astype(np.int32).reshape(resamples, size)


def _weighted_quantiles(values: np.ndarray, counts: np.ndarray, levels: np.ndarray) -> np.ndarray:
    """Inverted-ECDF quantiles of ``values`` repeated ``counts`` times, one row per resample:
    sorting the values once and accumulating the counts is much cheaper than sorting every
    resample."""
    order = np.argsort(values, kind="stable")
    cumulative = np.cumsum(counts[:, order], axis=1, dtype=np.int32)
    targets = levels[None, :] * values.size
    positions = np.stack([(cumulative < t[:, None] - 1e-9).sum(axis=1) for t in targets.T],
                         axis=1)
    return values[order][positions]
