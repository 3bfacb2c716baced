"""Statistics shared by the run summary, the reports and the regression gate.

Every interval and test the reports show comes from here, so one place decides how a win rate's
uncertainty is computed or which test judges seat fairness. The heavy lifting is done by scipy and
statsmodels; this module only picks the method, handles the degenerate cases (no data, no
variation) and returns plain numbers.

scipy.stats and statsmodels take most of a second to import, longer than a short command runs,
so they are reached only when a function needs them: scipy loads ``scipy.stats`` on first
attribute access, and statsmodels (and pandas) are imported inside the functions that use
them. The Wilson interval, which every ``zsim run`` prints, is the one exception: its closed
form needs only a normal quantile (the standard library's), and importing statsmodels for it
cost about 0.45 s, a third of a 200-game run's time outside its games (the tests hold it to
statsmodels' values).

Effect sizes are standardised so that findings of different kinds can be ranked together:
Cohen's *d* (a difference over the outcome's standard deviation), Cohen's *h* (a difference of
two proportions on the arcsine scale) and Cohen's *w* (a goodness-of-fit deviation). Their
conventional small, medium and large benchmarks are in ``EFFECT_BENCHMARKS``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np
import scipy
from numpy.typing import ArrayLike

#: Cohen's benchmarks for a small, medium and large effect of each standardised kind.
EFFECT_BENCHMARKS = {"d": (0.2, 0.5, 0.8), "h": (0.2, 0.5, 0.8), "w": (0.1, 0.3, 0.5)}


def wilson_interval(wins: float, games: float, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a win rate.

    ``wins`` may be fractional: a shared win counts as 1/k for each of the k tied winners.
    The Wilson interval stays inside [0, 1] and behaves at rates near 0 or 1 and at small
    counts, where the normal approximation does not. It always contains the observed rate.
    """
    if games <= 0:
        return (float("nan"), float("nan"))
    z = NormalDist().inv_cdf(1 - (1 - confidence) / 2)
    rate = wins / games
    shrink = 1 + z * z / games
    center = (rate + z * z / (2 * games)) / shrink
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / shrink
    # The formula's rounding leaves 0 wins with a lower bound of about 1e-18 and every game won
    # with an upper bound just below 1, i.e. an interval that misses its own estimate; error
    # bars drawn from it turn negative. The exact bounds are 0 and 1.
    low = 0.0 if wins <= 0 else min(center - half, rate)
    high = 1.0 if wins >= games else max(center + half, rate)
    return low, high


def bootstrap_interval(values: ArrayLike, statistic: Callable[..., float] = np.mean,
                       confidence: float = 0.95, resamples: int = 1999,
                       seed: int = 0) -> tuple[float, float]:
    """Percentile bootstrap interval of ``statistic`` (default: the mean).

    Used for means of skewed, bounded quantities (VP per Wall, mean VP) where a normal interval
    would be off. The percentile method is chosen over BCa because BCa's jackknife costs
    O(n^2) and a report computes dozens of these; with 1999 resamples the two agree closely for
    the sample sizes a report accepts. Seeded, so a report is reproducible. Fewer than two
    values give no interval; values that are all equal give a zero-width one. Missing (NaN)
    values are left out, as ``pandas`` leaves them out of the mean.
    """
    data = np.asarray(values, dtype=float)
    data = data[~np.isnan(data)]
    if data.size < 2:
        return (float("nan"), float("nan"))
    if np.ptp(data) == 0:
        return (float(data[0]), float(data[0]))
    result = scipy.stats.bootstrap((data,), statistic, confidence_level=confidence,
                                   n_resamples=resamples, method="percentile", rng=seed)
    return float(result.confidence_interval.low), float(result.confidence_interval.high)


def difference_interval(before: ArrayLike, after: ArrayLike, confidence: float = 0.95,
                        resamples: int = 1999, seed: int = 0) -> tuple[float, float]:
    """Percentile bootstrap interval of ``mean(after) - mean(before)`` for two independent
    samples, each resampled on its own.

    The yardstick for paired comparisons: it is the interval two unrelated runs of the same sizes
    would give, so its width against the paired interval's shows what pairing saved.
    """
    a = np.asarray(before, dtype=float)
    b = np.asarray(after, dtype=float)
    if a.size < 2 or b.size < 2:
        return (float("nan"), float("nan"))
    if np.ptp(a) == 0 and np.ptp(b) == 0:
        return (float(b[0] - a[0]), float(b[0] - a[0]))
    result = scipy.stats.bootstrap(
        (a, b), lambda x, y, axis: np.mean(y, axis=axis) - np.mean(x, axis=axis),
        confidence_level=confidence, n_resamples=resamples, method="percentile",
        paired=False, vectorized=True, rng=seed)
    return float(result.confidence_interval.low), float(result.confidence_interval.high)


def welch_test_from_stats(mean1: float, sd1: float, n1: int, mean2: float, sd2: float, n2: int,
                          confidence: float = 0.95) -> tuple[float, float, float, float]:
    """Welch's t-test of ``mean2 - mean1`` from summary statistics alone.

    Returns (difference, interval low, interval high, two-sided p-value). It needs only n, mean
    and SD of each sample, so a stored summary can be tested against a new run without the
    raw rows. The interval and the p-value come from the same Welch-Satterthwaite degrees of
    freedom (scipy's ``ttest_ind_from_stats`` gives the same p-value but no interval). When
    neither sample varies the answer is certain: p is 1 for equal means, 0 otherwise.
    """
    diff = mean2 - mean1
    var1, var2 = sd1 * sd1 / n1, sd2 * sd2 / n2
    se = math.sqrt(var1 + var2)
    if se == 0:
        return diff, diff, diff, 1.0 if diff == 0 else 0.0
    df = (var1 + var2) ** 2 / sum(v * v / (n - 1) for v, n in ((var1, n1), (var2, n2)) if v > 0)
    half = float(scipy.stats.t.ppf(0.5 + confidence / 2, df)) * se
    p = float(2 * scipy.stats.t.sf(abs(diff) / se, df))
    return diff, diff - half, diff + half, p


def two_proportion_test(wins1: float, n1: float, wins2: float, n2: float,
                        confidence: float = 0.95) -> tuple[float, float, float, float]:
    """Two-proportion z-test of ``rate2 - rate1``, with Newcombe's interval for the difference.

    Returns (difference, interval low, interval high, two-sided p-value). Wins may be
    fractional (shared wins count 1/k); outcomes in [0, 1] vary no more than Bernoulli ones,
    so the pooled binomial variance keeps the test conservative. Newcombe's interval is built
    from Wilson intervals and, like them, behaves near 0 and 1. When both rates are 0 (or
    both 1) the pooled variance is 0 and the rates are equal: p is 1.
    """
    from statsmodels.stats.proportion import confint_proportions_2indep, proportions_ztest

    diff = wins2 / n2 - wins1 / n1
    low, high = confint_proportions_2indep(wins2, n2, wins1, n1, method="newcomb",
                                           alpha=1 - confidence)
    pooled = (wins1 + wins2) / (n1 + n2)
    if pooled in (0, 1):
        return diff, float(low), float(high), 1.0
    _, p = proportions_ztest([wins2, wins1], [n2, n1])
    return diff, float(low), float(high), float(p)


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm-adjusted p-values: compare each with alpha to keep the family-wise error at alpha.

    Holm's step-down procedure holds for any dependence between the tests (VP categories of
    one strategy, win rates of one table) and is uniformly more powerful than Bonferroni.
    A missing (NaN) p-value, from a test that could not be run, stays missing and does not
    count towards the number of tests.
    """
    from statsmodels.stats.multitest import multipletests

    p = np.asarray(pvalues, dtype=float)
    adjusted = np.full(p.shape, np.nan)
    present = ~np.isnan(p)
    if present.any():
        adjusted[present] = multipletests(p[present], method="holm")[1]
    return [float(v) for v in adjusted]


@dataclass(frozen=True)
class Test:
    """A test's statistic and two-sided p-value, with a standardised effect size."""

    statistic: float
    pvalue: float
    effect: float
    effect_kind: str  # "d", "h" or "w", see EFFECT_BENCHMARKS
    method: str = ""  # the test actually run, when a function chooses between tests


def cohens_h(p1: float, p2: float) -> float:
    """Cohen's h for the difference of two proportions (positive when ``p1`` > ``p2``)."""
    from statsmodels.stats.proportion import proportion_effectsize

    return float(proportion_effectsize(p1, p2))


def cohens_d(a: ArrayLike, b: ArrayLike) -> float:
    """Cohen's d: difference of means over the pooled standard deviation."""
    x, y = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    pooled = np.sqrt(((x.size - 1) * x.var(ddof=1) + (y.size - 1) * y.var(ddof=1))
                     / (x.size + y.size - 2))
    return float((x.mean() - y.mean()) / pooled) if pooled > 0 else float("nan")


def goodness_of_fit(observed: ArrayLike, expected: ArrayLike | None = None) -> Test:
    """Chi-square goodness of fit of ``observed`` counts against ``expected`` shares.

    For seat fairness the counts are each position's summed win shares: each game hands out
    exactly one win (split on ties) among its positions, so the counts are multinomial, which
    is what the test assumes. ``expected`` (default: equal shares) is rescaled to the observed
    total; the reports pass the wins expected from the strategies that sat in each position, so
    a strong bot that happened to sit first more often is not mistaken for a first-player
    advantage. (A logistic model is not needed: every game fills every position once.)
    Fractional counts from shared wins are accepted. The effect is Cohen's w.
    """
    counts = np.asarray(observed, dtype=float)
    total = counts.sum()
    shares = np.ones(counts.size) if expected is None else np.asarray(expected, dtype=float)
    if counts.size < 2 or total <= 0 or shares.sum() <= 0:
        return Test(float("nan"), float("nan"), float("nan"), "w")
    result = scipy.stats.chisquare(counts, shares / shares.sum() * total)
    return Test(float(result.statistic), float(result.pvalue),
                float(np.sqrt(result.statistic / total)), "w")


def distribution_test(groups: Sequence[ArrayLike]) -> Test:
    """Do these independent samples come from one distribution? Rank-based, two-sided.

    Two groups: Mann-Whitney U; more: Kruskal-Wallis. Both compare whole score distributions
    without assuming normality and are robust to the long tails of VP totals. The effect is
    Cohen's d between the groups with the highest and the lowest mean.
    """
    samples = [np.asarray(g, dtype=float) for g in groups]
    if len(samples) < 2 or any(s.size < 2 for s in samples):
        return Test(float("nan"), float("nan"), float("nan"), "d")
    result = (scipy.stats.mannwhitneyu(samples[0], samples[1], alternative="two-sided")
              if len(samples) == 2 else scipy.stats.kruskal(*samples))
    means = [s.mean() for s in samples]
    effect = cohens_d(samples[int(np.argmax(means))], samples[int(np.argmin(means))])
    return Test(float(result.statistic), float(result.pvalue), effect, "d")


def paired_test(differences: ArrayLike) -> Test:
    """Wilcoxon signed-rank test that paired differences centre on zero.

    Used for two strategies' scores in the games they both played, so each game is one
    independent observation. The effect is the mean difference over its standard deviation
    (Cohen's d for paired data).
    """
    diff = np.asarray(differences, dtype=float)
    if diff.size < 2 or not diff.any():
        return Test(float("nan"), float("nan"), float("nan"), "d")
    result = scipy.stats.wilcoxon(diff)
    sd = diff.std(ddof=1)
    effect = float(diff.mean() / sd) if sd > 0 else float("nan")
    return Test(float(result.statistic), float(result.pvalue), effect, "d")


def sign_test(wins: float, losses: float) -> Test:
    """Exact binomial (sign) test that wins and losses are equally likely; ties are left out.

    Head-to-head comparisons count each game once (who came out ahead), so the games are
    independent trials. The effect is Cohen's h between the observed share and one half.
    """
    trials = round(wins + losses)
    if trials < 1:
        return Test(float("nan"), float("nan"), float("nan"), "h")
    result = scipy.stats.binomtest(round(wins), trials, 0.5)
    return Test(float(result.statistic), float(result.pvalue),
                cohens_h(wins / (wins + losses), 0.5), "h")


EXCESS_T = "one-sample t-test of per-game win share against fair share"
EXCESS_BINOMIAL = "exact binomial test of games won against the fair share"


def excess_test(observed: ArrayLike, expected: ArrayLike) -> Test:
    """One-sample t-test that per-game observed values exceed their expected values on average.

    Used for a strategy's win share per game against its fair share (its seats over the player
    count): per-game sums are independent, where per-player rows of one game are not. The
    effect is Cohen's h between the observed and the expected mean rate.

    When the excess does not vary (a bot that wins every game, or none) the t statistic is
    0/0, yet that is the most extreme finding there is. If every game was won outright or lost
    (shares 0 or 1) against one fair share, each game is a Bernoulli trial and an exact
    binomial test judges the wins; otherwise there is nothing to test (NaN, ``method`` says
    so).
    """
    obs, exp = np.asarray(observed, dtype=float), np.asarray(expected, dtype=float)
    excess = obs - exp
    if excess.size < 2:
        return Test(float("nan"), float("nan"), float("nan"), "h", "not testable: too few games")
    effect = cohens_h(float(np.clip(obs.mean(), 0, 1)), float(np.clip(exp.mean(), 0, 1)))
    if np.ptp(excess) > 0:
        result = scipy.stats.ttest_1samp(excess, 0.0)
        return Test(float(result.statistic), float(result.pvalue), effect, "h", EXCESS_T)
    if np.isin(obs, (0, 1)).all() and np.ptp(exp) == 0 and 0 < exp[0] < 1:
        exact = scipy.stats.binomtest(int(obs.sum()), obs.size, float(exp[0]))
        return Test(float(exact.statistic), float(exact.pvalue), effect, "h", EXCESS_BINOMIAL)
    return Test(float("nan"), float("nan"), effect, "h",
                "not testable: the win share never varied against the fair share")


@dataclass(frozen=True)
class Difference:
    """An adjusted difference in an outcome between exposed rows and the others."""

    estimate: float
    low: float
    high: float
    pvalue: float
    effect: float  # estimate over the outcome's standard deviation (Cohen's d)
    exposed: int  # rows with a non-zero exposure
    others: int


def adjusted_difference(outcome: ArrayLike, exposure: ArrayLike,
                        strata: ArrayLike | None = None, clusters: ArrayLike | None = None,
                        confidence: float = 0.95) -> Difference:
    """How much higher ``outcome`` is for exposed rows, within strata, with clustered errors.

    A linear model ``outcome ~ exposure + stratum`` fitted by least squares: the coefficient of
    ``exposure`` is the difference between exposed and unexposed rows of the same stratum,
    averaged over strata. For a 0/1 (or win-share) outcome this is a linear probability model,
    so the estimate reads directly as a difference in win rate. Strata remove confounders such
    as strategy strength and player count (a strong bot builds more Walls *and* wins more).

    Rows of one game are not independent (one player's win is another's loss), so the
    standard error is cluster-robust by ``clusters`` (the game); without clusters it is
    heteroscedasticity-robust (HC1). The exposure may be numeric (a count): the estimate is
    then the change per unit.
    """
    import pandas as pd
    from statsmodels.regression.linear_model import OLS

    y = np.asarray(outcome, dtype=float)
    x = np.asarray(exposure, dtype=float)
    levels = np.zeros(y.size) if strata is None else np.asarray(strata)
    exposed, others = int((x != 0).sum()), int((x == 0).sum())
    nothing = Difference(*(float("nan"),) * 5, exposed, others)
    # Frisch-Waugh-Lovell: regressing within-stratum deviations of y on those of x gives the
    # stratum-dummy model's coefficient and residuals at the cost of one column, not one per
    # stratum. The standard error matches the full model's up to its degrees-of-freedom factor
    # (n - 1) / (n - k), a difference far below 1% at the sizes a report tests.
    frame = pd.DataFrame({"y": y, "x": x})
    centred = frame - frame.groupby(pd.factorize(levels)[0]).transform("mean")
    if y.size < 3 or not centred["x"].abs().gt(1e-12).any():
        return nothing  # the exposure does not vary inside any stratum
    if not centred["y"].abs().gt(1e-12).any():
        # The outcome does not vary inside any stratum (a bot that wins every game): the
        # difference is not estimable, where the fit would give 0 within a 0-wide interval.
        return nothing
    model = OLS(centred["y"].to_numpy(), centred[["x"]].to_numpy(), hasconst=False)
    if clusters is None:
        fit = model.fit(cov_type="HC1")
    else:
        groups = pd.factorize(np.asarray(clusters))[0]
        if groups.max() < 2:
            return nothing
        fit = model.fit(cov_type="cluster", cov_kwds={"groups": groups})
    low, high = fit.conf_int(alpha=1 - confidence)[0]
    sd = y.std(ddof=1)
    effect = float(fit.params[0] / sd) if sd > 0 else float("nan")
    return Difference(float(fit.params[0]), float(low), float(high), float(fit.pvalues[0]),
                      effect, exposed, others)


def mean_sample_size(sd: float, units: int, tolerance: float, level: float, power: float,
                     two_sample: bool) -> tuple[float, float]:
    """Games that detect a mean shift of ``tolerance`` with an outcome (or, ``two_sample``
    False, a per-game paired difference) of SD ``sd``, and the shift ``units`` games detect;
    NaN without spread. Used by the regression gate's hint and by ``zsim power``."""
    ratio = 1.0 if two_sample else 0.0  # statsmodels: ratio 0 is a one-sample test
    if not sd > 0 or units < 2:
        return math.nan, math.nan
    shift = tolerance / sd
    needed = (reach_power(lambda n: normal_power(shift, n, level, ratio), power, 1, 1e15)
              if tolerance > 0 else math.nan)
    detectable = sd * reach_power(lambda d: normal_power(d, units, level, ratio), power,
                                  1e-9, 1e3)
    return needed, detectable


def normal_power(effect: float, n: float, level: float, ratio: float = 1.0) -> float:
    """The power of a two-sample test (``ratio`` 1) or a one-sample test of paired differences
    (``ratio`` 0) by statsmodels' normal approximation. With hundreds of games it agrees with
    the t distribution to well under 1%, while statsmodels' t power turns NaN for the large
    samples that small effects at Holm's levels need."""
    from statsmodels.stats.power import NormalIndPower

    return NormalIndPower().power(effect, n, level, ratio=ratio)


def reach_power(power_at: Callable[[float], float], target: float, low: float,
                high: float) -> float:
    """Where a power curve that rises with its argument (sample size or effect size) reaches
    ``target``, NaN if not below ``high``.

    statsmodels' ``solve_power`` can settle on a wrong root for small effects at small alpha
    (it gave fewer games for a stricter level), so the bracket grows by doubling from ``low``
    and a bracketed search finishes. A curve already at ``target`` at ``low`` (a shift many
    times its SD, as when a change moved a few games of a paired run) gives ``low``.
    """
    if power_at(low) >= target:
        return low
    lower, upper = low, 2 * low
    while power_at(upper) < target:
        if upper >= high:
            return math.nan
        lower, upper = upper, 2 * upper
    return float(scipy.optimize.brentq(lambda x: power_at(x) - target, lower, upper, xtol=1e-9))


def detectable_shift(low: float, high: float, alpha: float = 0.05, power: float = 0.8,
                     confidence: float = 0.95) -> float:
    """The smallest true shift a test detects with ``power`` at level ``alpha``, from the
    ``confidence`` interval it gave (normal approximation): the interval's standard error
    times ``z(1 - alpha/2) + z(power)``. It is what a "no significant change" could still
    hide: a shift this size or larger would have been found four times in five."""
    if not (math.isfinite(low) and math.isfinite(high)):
        return math.nan
    normal = NormalDist()
    se = (high - low) / (2 * normal.inv_cdf(0.5 + confidence / 2))
    return se * (normal.inv_cdf(1 - alpha / 2) + normal.inv_cdf(power))


def trials_for_wilson(rate: float, half_width: float, confidence: float = 0.95) -> float:
    """Fewest trials whose Wilson interval at ``rate`` is within ``± half_width`` (half its
    width, as the reports measure it); NaN for a rate outside [0, 1] or no width.

    The binomial variance at the rate, not the width of the interval at hand, decides it: an
    interval from a handful of games is dominated by the ``z^2 / n`` terms, so scaling it by
    (width / target)^2 says far too few games. The half-width falls as the trials grow, so a
    bracketed search on it finds the count."""
    if not (0 <= rate <= 1 and half_width > 0):
        return math.nan

    def excess(trials: float) -> float:
        low, high = wilson_interval(rate * trials, trials, confidence)
        return (high - low) / 2 - half_width

    upper = 1.0
    while excess(upper) > 0:
        if upper > 1e12:
            return math.nan
        upper *= 2
    if upper == 1.0:
        return 1.0
    found = float(scipy.optimize.brentq(excess, upper / 2, upper, xtol=1e-6))
    trials = math.ceil(found - 1e-6)
    return float(trials if excess(trials) <= 0 else trials + 1)


def games_for_precision(games: int, low: float, high: float, half_width: float) -> float:
    """Games an interval of ``low, high`` on ``games`` games needs to narrow to
    ``± half_width``: its width falls with the square root of the games."""
    width = (high - low) / 2
    if not (games > 0 and half_width > 0 and math.isfinite(width)):
        return math.nan
    return float(math.ceil(round(games * (width / half_width) ** 2, 9)))  # no float dust
