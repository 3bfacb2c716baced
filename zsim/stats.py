"""Statistics shared by the run summary and the reports."""

from __future__ import annotations

from statsmodels.stats.proportion import proportion_confint


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
