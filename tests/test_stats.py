"""``zsim.stats`` against scipy, statsmodels and values worked out by hand."""

from __future__ import annotations

import math
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
import statsmodels.api as sm
from scipy import stats
from statsmodels.stats.proportion import proportion_confint

from zsim.stats import (
    adjusted_difference,
    bootstrap_interval,
    cohens_d,
    cohens_h,
    distribution_test,
    excess_test,
    goodness_of_fit,
    holm,
    mean_sample_size,
    paired_test,
    reach_power,
    sign_test,
    wilson_interval,
)


def test_wilson_interval_matches_the_textbook_value():
    # 81 successes in 263 trials: Wilson 95% interval [0.2553, 0.3662] (Newcombe 1998).
    low, high = wilson_interval(81, 263)
    assert low == pytest.approx(0.2553, abs=1e-4) and high == pytest.approx(0.3662, abs=1e-4)
    assert all(math.isnan(v) for v in wilson_interval(0, 0))


@pytest.mark.parametrize("games", [1, 2, 7, 24, 48, 300, 1999, 3000])
def test_wilson_interval_of_no_win_or_every_win_reaches_exactly_zero_or_one(games):
    # statsmodels' formula rounds to 1e-18 above 0 and just below 1: error bars went negative.
    assert wilson_interval(0, games)[0] == 0.0 and wilson_interval(games, games)[1] == 1.0
    for wins in (0, 0.5, games / 3, games - 0.5, games):
        low, high = wilson_interval(wins, games)
        assert 0 <= low <= wins / games <= high <= 1


@pytest.mark.parametrize("confidence", [0.8, 0.95, 0.99])
def test_wilson_interval_is_statsmodels_wilson_interval(confidence):
    # The closed form is computed here, not by statsmodels (whose import a run would pay for);
    # away from the clamped ends it must give statsmodels' numbers.
    for games in (1, 3, 10, 263, 5000):
        for wins in (0.25, 1, games / 7, games / 2, games - 1.5, games - 0.25):
            if not 0 < wins < games:
                continue
            expected = proportion_confint(wins, games, alpha=1 - confidence, method="wilson")
            assert wilson_interval(wins, games, confidence) == pytest.approx(expected, rel=1e-12)


def test_bootstrap_interval_covers_the_mean_and_handles_degenerate_samples():
    rng = np.random.default_rng(1)
    values = rng.normal(10, 2, size=400)
    low, high = bootstrap_interval(values)
    sem = stats.sem(values)
    # For a near-normal sample the percentile interval is close to mean +- 1.96 SEM.
    assert low == pytest.approx(values.mean() - 1.96 * sem, abs=0.3 * sem)
    assert high == pytest.approx(values.mean() + 1.96 * sem, abs=0.3 * sem)
    assert bootstrap_interval(values) == (low, high)  # seeded
    assert bootstrap_interval([3, 3, 3]) == (3.0, 3.0)
    assert all(math.isnan(v) for v in bootstrap_interval([1.0]))


def test_holm_matches_the_step_down_by_hand_and_keeps_missing_values():
    # Sorted p = .01, .02, .03 with m = 3: .03, max(.04, .03), max(.03, .04) -> .03, .04, .04
    adjusted = holm([0.03, 0.01, float("nan"), 0.02])
    assert [adjusted[1], adjusted[3], adjusted[0]] == pytest.approx([0.03, 0.04, 0.04])
    assert math.isnan(adjusted[2])
    assert holm([0.5, 0.9]) == [1.0, 1.0]
    assert holm([]) == []


def test_goodness_of_fit_is_scipys_chisquare_with_cohens_w():
    observed = [60.0, 40.0]
    test = goodness_of_fit(observed)
    reference = stats.chisquare(observed)
    assert test.pvalue == pytest.approx(reference.pvalue)
    assert test.effect == pytest.approx(math.sqrt(4.0 / 100))  # chi2 = 4, N = 100
    assert goodness_of_fit([25, 25, 25, 25]).pvalue == pytest.approx(1.0)
    assert math.isnan(goodness_of_fit([0, 0]).pvalue)
    # Expected shares are rescaled to the observed total.
    assert goodness_of_fit([30, 70], [0.3, 0.7]).pvalue == pytest.approx(1.0)
    assert goodness_of_fit([50, 50], [3, 7]).pvalue == pytest.approx(
        stats.chisquare([50, 50], [30, 70]).pvalue)


def test_distribution_test_uses_mann_whitney_for_two_and_kruskal_for_more():
    rng = np.random.default_rng(2)
    a, b, c = rng.normal(0, 1, 50), rng.normal(1, 1, 50), rng.normal(0.5, 1, 50)
    assert distribution_test([a, b]).pvalue == pytest.approx(
        stats.mannwhitneyu(a, b, alternative="two-sided").pvalue)
    assert distribution_test([a, b, c]).pvalue == pytest.approx(stats.kruskal(a, b, c).pvalue)
    assert distribution_test([a, b]).effect == pytest.approx(cohens_d(b, a))
    assert math.isnan(distribution_test([a, [1.0]]).pvalue)


def test_cohens_d_and_h_known_values():
    assert cohens_d([1, 2, 3], [2, 3, 4]) == pytest.approx(-1.0)
    assert cohens_h(0.5, 0.5) == 0
    assert cohens_h(0.75, 0.5) == pytest.approx(2 * math.asin(math.sqrt(0.75))
                                                - 2 * math.asin(math.sqrt(0.5)))


def test_paired_and_sign_and_excess_tests_match_scipy():
    diff = np.array([1.5, 2.0, -0.5, 3.0, 1.0, 0.5, 2.5, -1.0])
    assert paired_test(diff).pvalue == pytest.approx(stats.wilcoxon(diff).pvalue)
    assert math.isnan(paired_test([0, 0, 0]).pvalue)
    assert sign_test(15, 5).pvalue == pytest.approx(stats.binomtest(15, 20).pvalue)
    assert sign_test(15, 5).effect > 0 > sign_test(5, 15).effect
    observed = np.array([1, 0, 1, 1, 0, 1, 1, 0.5])
    expected = np.full(8, 0.5)
    assert excess_test(observed, expected).pvalue == pytest.approx(
        stats.ttest_1samp(observed - expected, 0).pvalue)


def test_adjusted_difference_without_strata_is_the_difference_of_means():
    rng = np.random.default_rng(3)
    x = rng.integers(0, 2, 2000)
    y = rng.normal(0, 1, 2000) + 0.3 * x
    result = adjusted_difference(y, x)
    assert result.estimate == pytest.approx(y[x == 1].mean() - y[x == 0].mean())
    # HC1 errors for a two-group comparison are Welch's; p-values agree at this size.
    welch = stats.ttest_ind(y[x == 1], y[x == 0], equal_var=False)
    assert result.pvalue == pytest.approx(welch.pvalue, rel=0.05)
    assert result.low < result.estimate < result.high
    assert (result.exposed, result.others) == (int(x.sum()), int((x == 0).sum()))


def test_adjusted_difference_removes_a_confounder_through_strata():
    # Simpson's paradox: inside each stratum exposure adds exactly 1, but the exposed rows sit
    # mostly in the low stratum, so the raw difference is negative.
    y = np.array([0, 1, 1, 1, 10, 10, 10, 11], dtype=float)
    x = np.array([0, 1, 1, 1, 0, 0, 0, 1])
    strata = np.array(["low"] * 4 + ["high"] * 4)
    assert y[x == 1].mean() < y[x == 0].mean()
    assert adjusted_difference(y, x, strata).estimate == pytest.approx(1.0)


def test_adjusted_difference_clusters_undo_duplicated_rows():
    rng = np.random.default_rng(4)
    x = rng.integers(0, 2, 500)
    y = rng.normal(0, 1, 500) + 0.2 * x
    alone = adjusted_difference(y, x)
    twice = adjusted_difference(np.repeat(y, 2), np.repeat(x, 2))
    clustered = adjusted_difference(np.repeat(y, 2), np.repeat(x, 2),
                                    clusters=np.repeat(np.arange(500), 2))
    width = alone.high - alone.low
    assert twice.high - twice.low == pytest.approx(width / math.sqrt(2), rel=0.02)
    assert clustered.high - clustered.low == pytest.approx(width, rel=0.02)


def test_adjusted_difference_reports_nothing_when_exposure_cannot_be_separated():
    y = np.arange(6, dtype=float)
    x = np.array([0, 0, 0, 1, 1, 1])
    strata = np.array([0, 0, 0, 1, 1, 1])  # exposure is the stratum
    result = adjusted_difference(y, x, strata)
    assert math.isnan(result.estimate) and (result.exposed, result.others) == (3, 3)


def test_adjusted_difference_matches_the_full_stratum_dummy_model():
    rng = np.random.default_rng(5)
    n = 3000
    strata = rng.integers(0, 6, n)
    games = np.arange(n) // 3
    x = (rng.random(n) < 0.2 + 0.1 * strata).astype(float)
    y = rng.normal(0, 1, n) + 0.5 * strata + 0.25 * x
    result = adjusted_difference(y, x, strata, games)
    design = np.column_stack([x, pd.get_dummies(strata, dtype=float).to_numpy()])
    full = sm.OLS(y, design).fit(cov_type="cluster", cov_kwds={"groups": games})
    assert result.estimate == pytest.approx(full.params[0])
    assert result.high - result.low == pytest.approx(
        float(np.diff(full.conf_int()[0])[0]), rel=0.01)
    assert result.pvalue == pytest.approx(full.pvalues[0], rel=0.05)


def test_games_needed_for_a_shift_many_times_its_sd_is_the_fewest_the_test_takes():
    # a paired run in which a change moved a few games: the per-game differences have a tiny
    # SD, so one game already detects the tolerance (the search used to fail on its bracket)
    needed, detectable = mean_sample_size(0.01, 2000, 3.0, 0.01, 0.8, two_sample=False)
    assert needed == 1 and 0 < detectable < 0.01
    assert reach_power(lambda n: 1.0, 0.8, 1, 1e15) == 1
    needed, _ = mean_sample_size(10.0, 2000, 3.0, 0.01, 0.8, two_sample=False)
    assert needed == pytest.approx(((stats.norm.ppf(0.995) + stats.norm.ppf(0.8)) * 10 / 3) ** 2,
                                   rel=0.01)


def test_the_command_line_starts_without_the_statistics_libraries():
    # scipy.stats and statsmodels cost most of a second to import; commands that compute no
    # statistic (help, play, components, ...) must not pay for them.
    code = ("import sys, zsim.cli; "
            "print(sorted(m for m in sys.modules if m.startswith(('scipy.stats', 'statsmodels'))))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True).stdout.strip()
    assert loaded == "[]"


def test_the_excess_test_of_a_share_that_never_varies_is_an_exact_binomial_test():
    always = excess_test(np.ones(20), np.full(20, 0.5))
    assert always.pvalue == pytest.approx(stats.binomtest(20, 20, 0.5).pvalue)
    assert "binomial" in always.method and always.effect > 0
    never = excess_test(np.zeros(30), np.full(30, 0.25))
    assert never.pvalue == pytest.approx(stats.binomtest(0, 30, 0.25).pvalue)
    assert never.pvalue < 1e-3
    varied = excess_test(np.full(10, 0.5), np.full(10, 0.25))  # constant, never won outright
    assert math.isnan(varied.pvalue) and varied.method.startswith("not testable")


def test_an_outcome_that_never_varies_gives_no_adjusted_difference():
    """Not 0 within a 0-wide interval: nothing was measured."""
    exposure = np.tile([0, 1], 50)
    result = adjusted_difference(np.ones(100), exposure, strata=np.repeat([0, 1], 50))
    assert math.isnan(result.estimate) and math.isnan(result.low) and math.isnan(result.pvalue)
    assert result.exposed == 50 and result.others == 50
