"""Statistics shared by the run summary, the reports and the regression gate."""

from __future__ import annotations

import math
from collections.abc import Sequence

from scipy.stats import t as student_t
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import (
    confint_proportions_2indep,
    proportion_confint,
    proportions_ztest,
)


def wilson_interval(wins: float, games: float, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a win rate.

    ``wins`` may be fractional: a shared win counts as 1/k for each of the k tied winners.
    The Wilson interval stays inside [0, 1] and behaves at rates near 0 or 1 and at small
    counts, where the normal approximation does not.
    """
    if games <= 0:
        return (float("nan"), float("nan"))
    low, high = proportion_confint(wins, games, alpha=1 - confidence, method="wilson")
    return float(low), float(high)


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
    half = float(student_t.ppf(0.5 + confidence / 2, df)) * se
    p = float(2 * student_t.sf(abs(diff) / se, df))
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
    """
    if not pvalues:
        return []
    return [float(p) for p in multipletests(list(pvalues), method="holm")[1]]
