"""Paired comparisons: the same games played under two rule sets.

A base run and a variant run share their master seed, so game *i* has the same seed, seating and
(unless the variant changes them) the same shuffles and setup draws in both. Differences are
therefore taken game by game: every source of luck the variant does not touch cancels out, and
far fewer games detect a change than two independent runs would (common random numbers).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pandas as pd

from zsim.rules.scoring import CATEGORIES
from zsim.stats import (
    bootstrap_interval,
    detectable_shift,
    difference_interval,
    holm,
    paired_test,
)

METRICS = ("win_share", "vp_total", *CATEGORIES)
KEYS = ["n_players", "strategy"]
ALPHA = 0.05
#: Fewest paired games a difference is drawn or judged on: below it a bootstrap interval is
#: missing or of no width (three games of identical twins give ±0.0) and a signed-rank test
#: cannot reach 5% even before Holm, so no power statement or interval would be true.
MIN_PAIRS = 10


def family(metric: str) -> str:
    """The question a metric's tests answer together (and are Holm-corrected within): did the
    variant move win rates, final scores, or where the points come from."""
    return {"win_share": "win rate", "vp_total": "VP total"}.get(metric, "VP by category")


def per_game(players: pd.DataFrame, metrics: Sequence[str] = METRICS) -> pd.DataFrame:
    """Each strategy's mean of every metric in each game (a strategy may hold several seats),
    indexed by player count, strategy and game."""
    finished = players if "failed" not in players else players[~players["failed"]]
    return finished.groupby([*KEYS, "game"])[list(metrics)].mean()


def paired_differences(base: pd.DataFrame, variant: pd.DataFrame,
                       resamples: int = 999) -> pd.DataFrame:
    """Per player count, strategy and metric: both means, the paired difference with its
    bootstrap interval, the interval two independent runs of the same size would give, the
    difference relative to the fair share (win rate) or the base's mean score (VP), and the
    paired test's p-value, Holm-adjusted within its ``family`` (win rate, VP total, VP by
    category)."""
    # a merge on the index (join's suffixes= is pandas 3 only; lsuffix/rsuffix deprecated there)
    joined = per_game(base).merge(per_game(variant), how="inner", left_index=True,
                                  right_index=True, suffixes=("_base", "_variant"))
    rows = []
    for (n_players, strategy), games in joined.groupby(level=KEYS):
        for metric in METRICS:
            before = games[f"{metric}_base"].to_numpy(float)
            after = games[f"{metric}_variant"].to_numpy(float)
            diff = after - before
            low, high = bootstrap_interval(diff, resamples=resamples)
            unpaired_low, unpaired_high = difference_interval(before, after, resamples=resamples)
            test = paired_test(diff if len(diff) >= MIN_PAIRS else diff[:0])  # too few: none
            # A designer's yardstick: a win-rate change against the fair share, points against
            # the mean final score in the base games.
            reference = 1 / n_players if metric == "win_share" else \
                games["vp_total_base"].mean()
            rows.append({
                "n_players": n_players, "strategy": strategy, "metric": metric,
                "family": family(metric), "games": len(diff), "base": before.mean(),
                "variant": after.mean(), "difference": diff.mean(), "low": low, "high": high,
                "unpaired_low": unpaired_low, "unpaired_high": unpaired_high,
                "relative": diff.mean() / reference if reference else float("nan"),
                "pvalue": test.pvalue, "effect": test.effect,
            })
    table = pd.DataFrame(rows, columns=[
        "n_players", "strategy", "metric", "family", "games", "base", "variant", "difference",
        "low", "high", "unpaired_low", "unpaired_high", "relative", "pvalue", "effect"])
    table["adjusted"] = pd.Series(dtype=float)
    table["family_tests"] = 0
    for _, members in table.groupby("family"):
        table.loc[members.index, "adjusted"] = holm(members["pvalue"])
        table.loc[members.index, "family_tests"] = int(members["pvalue"].notna().sum())
    table["significant"] = table["adjusted"] < ALPHA
    return table


#: Words of a variant key, and the VP categories a change of that key moves by definition (a
#: higher Palace VP raises Palace points whatever the players do): a significant change there
#: says nothing about balance, so a verdict says so instead of counting it as news.
BY_DEFINITION = (
    ("palace_vp", ("vp_palaces",)), ("palace_tiles", ("vp_palace_tiles",)),
    ("wall", ("vp_walls",)), ("governor", ("vp_governor_tiles", "vp_majorities")),
    ("majorit", ("vp_majorities",)), ("mausoleum", ("vp_mausoleum", "vp_mausoleum_lines")),
    ("elixir", ("vp_elixir",)), ("ship", ("vp_elixir",)), ("abilities", ("vp_cards",)),
    ("cards", ("vp_cards",)), ("boards", ("vp_rewards",)), ("reward", ("vp_rewards",)),
    ("soldier", ("vp_extra_soldiers", "vp_mausoleum")),
)


def by_definition(changed: Sequence[str]) -> set[str]:
    """The VP categories (and so the VP total) that the changed keys move by definition."""
    found = {category for key in changed for word, categories in BY_DEFINITION
             if word in key.lower() for category in categories}
    return found | ({"vp_total"} if found else set())


def verdict(table: pd.DataFrame, largest: int = 3, changed: Sequence[str] = ()) -> str:
    """What moved: win rates first (or that none moved, with the smallest win-rate change
    these games detect at 80% power), then scores, with the changes that ``changed`` (the
    variant keys) makes by definition named as such."""

    if table.empty:
        return "No games in common between the two runs."
    if not (table["difference"] != 0).any():
        return "Identical: the variant changed no result in these games."
    win = table[table["metric"] == "win_share"]
    seen = _detectable(win)
    moved_win = win[win["significant"]]
    said = ("; " + seen if seen.startswith("too few") else f" ({seen})") if seen else ""
    if moved_win.empty:
        parts = [f"Win rates: no significant change{said}."]
    else:
        parts = [f"Win rates: {_listed(moved_win, largest)}{said}."]
    defined = by_definition(changed)
    scores = table[(table["metric"] != "win_share") & table["significant"]]
    expected = scores[scores["metric"].isin(defined)]
    news = scores[~scores["metric"].isin(defined)]
    if len(expected):
        parts.append(f"{len(expected)} score change(s) follow by definition from "
                     f"{', '.join(changed)} ({', '.join(sorted(set(expected['metric'])))}).")
    if len(news):
        parts.append(f"Scores: {_listed(news, largest)}.")
    elif not len(expected):
        parts.append("Scores: no significant change.")
    return " ".join(parts)


def _detectable(win: pd.DataFrame) -> str:
    """The smallest win-rate change the paired games would have detected at 80% power, or that
    there are too few paired games to say (``MIN_PAIRS``)."""
    games = int(win["games"].max()) if len(win) else 0
    if games < MIN_PAIRS:
        return (f"too few paired games ({games}; at least {MIN_PAIRS} needed) to say what "
                "change they could have detected") if len(win) else ""
    judged = win[win["games"] >= MIN_PAIRS]
    sizes = [detectable_shift(lo, hi) * 100 for lo, hi in zip(judged["low"], judged["high"],
                                                               strict=True)]
    # an interval of no width (a strategy that won, or lost, every game of both runs) has no
    # spread to measure power by: "±0.0 points would have been detected" would be false
    sizes = [x for x in sizes if math.isfinite(x) and x > 0]
    if not sizes and len(judged):
        return ("every pair of games gave the same win shares, so these games cannot say what "
                "change they would have detected")
    return (f"with {games} paired games a change of ±{max(sizes):.1f} points or more would "
            "have been detected at 80% power" if sizes else "")


def _listed(moved: pd.DataFrame, largest: int) -> str:
    moved = moved.reindex(moved["difference"].abs().sort_values(ascending=False).index)
    shown = "; ".join(_describe(row) for _, row in moved.head(largest).iterrows())
    more = len(moved) - largest
    return f"{len(moved)} significant change(s): {shown}" + (f"; and {more} more" if more > 0
                                                            else "")


def _describe(row: pd.Series) -> str:
    scale, unit = (100, " points") if row["metric"] == "win_share" else (1, " VP")
    name = "win rate" if row["metric"] == "win_share" else row["metric"]
    return (f"{row['strategy']} ({row['n_players']}p) {name} {row['difference'] * scale:+.2f}"
            f"{unit} [{row['low'] * scale:+.2f}, {row['high'] * scale:+.2f}]")


def variance_reduction(table: pd.DataFrame) -> pd.DataFrame:
    """How much narrower the paired intervals are than unpaired ones of the same games, and the
    factor of games an unpaired comparison would need for the same precision."""
    widths = table.assign(
        paired_width=table["high"] - table["low"],
        unpaired_width=table["unpaired_high"] - table["unpaired_low"],
    )
    widths = widths[widths["paired_width"] > 0]
    widths["games_factor"] = (widths["unpaired_width"] / widths["paired_width"]) ** 2
    keys = ["value", *KEYS] if "value" in widths else KEYS  # a sweep's rows name their value
    return widths[[*keys, "metric", "games", "paired_width", "unpaired_width", "games_factor"]]
