"""The report section on how the strategies do against each other.

Per-player rows of one game are not independent (one player's win is another's loss), so every
test here reduces a game to one number first: a strategy's summed win share against its fair
share, who came out ahead in a pairing, or the score difference between two strategies.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from typing import cast

import numpy as np
import pandas as pd

from zsim.reports.common import (
    MIN_GAMES,
    annotate_cells,
    ecdf_panels,
    mean_intervals,
    new_figure,
    percent,
    player_count_label,
    rate_bars,
    share_of,
    too_few,
    win_rates,
)
from zsim.reports.findings import relative_phrase
from zsim.reports.loader import RunData
from zsim.reports.model import STRATEGY, Comparison, Figure, Note, Section, Table
from zsim.stats import excess_test, paired_test, sign_test

INTRO = ("Win rates count a shared win as 1/k for each of k tied winners; the dashed line is "
         "the fair share (1 / player count). Intervals are 95% Wilson intervals for win rates "
         "and 95% bootstrap intervals for means.")


def _summary(players: pd.DataFrame) -> pd.DataFrame:
    table = win_rates(players, ["n_players", "strategy"])
    grouped = players.groupby(["n_players", "strategy"])
    table["fair_share"] = grouped["n_players"].apply(lambda n: (1 / n).mean())
    table["mean_rank"] = grouped["rank"].mean()
    vp = mean_intervals(players, ["n_players", "strategy"], "vp_total")
    table["mean_vp"], table["vp_low"], table["vp_high"] = vp["mean"], vp["low"], vp["high"]
    return table


def _win_rate_figure(players: pd.DataFrame, table: pd.DataFrame,
                     counts: list[int]) -> Figure:
    strategies = sorted(players["strategy"].unique())
    fig, axes = new_figure(1, len(counts), height=3.4)
    comparisons = []
    for ax, n in zip(axes[0], counts, strict=True):
        rate_bars(ax, cast(pd.DataFrame, table.loc[n]).reindex(strategies), fair=1 / n)
        ax.set_title(player_count_label(n))
        ax.set_xlabel("strategy")
        rows = players[players["n_players"] == n]
        if len(strategies) > 1:
            comparisons += _fair_share_tests(rows, n)
    tested = (" Each strategy's win share per game is tested against its fair share (its "
              "seats / player count): one-sample t-test over games, or, when the win share "
              "never varies (a bot that wins every game, or none), an exact binomial test of "
              "the games won." if comparisons else
              " Not tested: " + ("one strategy in every seat." if len(strategies) < 2 else
                                 f"fewer than {MIN_GAMES} games per strategy in which it did "
                                 "not hold every seat."))
    return Figure("strategy-win-rate", "Win rate by strategy and player count",
                  "Win rate of each strategy per player count with 95% Wilson intervals; the "
                  f"dashed line is the fair share.{tested}", int(players["game_key"].nunique()),
                  fig, comparisons)


def _fair_share_tests(rows: pd.DataFrame, n: int) -> list[Comparison]:
    per_game = rows.groupby(["game_key", "strategy"]).agg(
        share=("win_share", "sum"), seats=("seat", "size")).reset_index()
    found = []
    for strategy, games in per_game.groupby("strategy"):
        # Games where the strategy holds every seat carry no information about it.
        games = games[games["seats"] < n]
        if len(games) < MIN_GAMES:
            continue
        test = excess_test(games["share"], games["seats"] / n)
        rate = games["share"].sum() / games["seats"].sum()
        relative = rate * n - 1
        found.append(Comparison(
            label=f"{strategy} win rate, {n} players",
            claim=f"{strategy} wins {percent(rate)} of its {n}-player seats against a fair "
                  f"share of {percent(1 / n)} ({relative_phrase(relative, 'fair')})",
            method=test.method, pvalue=test.pvalue, effect=test.effect,
            effect_kind=test.effect_kind,
            games=len(games), relative=relative, basis="fair"))
    return found


def _pairings(players: pd.DataFrame) -> pd.DataFrame:
    """One row per ordered pair of players of different strategies in a game."""
    cols = ["game_key", "seat", "strategy", "rank", "vp_total"]
    pairs = players[cols].merge(players[cols], on="game_key", suffixes=("_a", "_b"))
    pairs = pairs[pairs["strategy_a"] != pairs["strategy_b"]]
    ahead = (pairs["rank_a"] < pairs["rank_b"]).astype(float)
    return pairs.assign(score=ahead + 0.5 * (pairs["rank_a"] == pairs["rank_b"]))


def _pair_games(per_game: pd.Series | pd.DataFrame, strategies: list[str]
                ) -> Iterator[tuple[str, str, pd.Series | pd.DataFrame]]:
    """(a, b, that pair's per-game rows) for every pair of strategies with enough games."""
    for a, b in combinations(strategies, 2):
        try:
            games = per_game.xs((a, b), level=("strategy_a", "strategy_b"))
        except KeyError:
            continue
        if len(games) >= MIN_GAMES:
            yield a, b, games


def _head_to_head(players: pd.DataFrame, strategies: list[str]) -> Figure:
    pairs = _pairings(players)
    matrix = pairs.groupby(["strategy_a", "strategy_b"])["score"].mean().unstack()
    matrix = matrix.reindex(index=strategies, columns=strategies)
    per_game = pairs.groupby(["game_key", "strategy_a", "strategy_b"])["score"].mean()
    comparisons = []
    for a, b, games in _pair_games(per_game, strategies):
        ahead, behind = int((games > 0.5).sum()), int((games < 0.5).sum())
        test = sign_test(ahead, behind)
        comparisons.append(Comparison(
            label=f"{a} vs {b}", topic=f"{a} against {b}",
            claim=f"{a} finishes ahead of {b} in {percent(matrix.loc[a, b], 0)} of pairings "
                  f"({ahead} games ahead, {behind} behind)",
            method="sign test over games", pvalue=test.pvalue, effect=test.effect,
            effect_kind=test.effect_kind, games=len(games),
            relative=share_of(matrix.loc[a, b] - 0.5, 0.5), basis="even split"))
    size = 1.2 + 0.9 * len(strategies)
    fig, axes = new_figure(height=size, width=min(9.0, size + 2.5))
    ax = axes[0][0]
    shares = matrix.to_numpy(dtype=float)
    image = ax.imshow(shares, cmap="RdBu", vmin=0, vmax=1)
    annotate_cells(ax, image, np.vectorize(lambda v: "" if np.isnan(v) else f"{v:.0%}")(shares),
                   fontsize=10)
    ax.set_xticks(range(len(strategies)), strategies, rotation=30, ha="right")
    ax.set_yticks(range(len(strategies)), strategies)
    ax.set_xlabel("opponent")
    ax.set_ylabel("strategy")
    ax.grid(False)
    fig.colorbar(image, ax=ax, label="share of pairings finished ahead")
    return Figure("head-to-head", "Head-to-head",
                  "Share of pairings (one player of the row strategy and one of the column "
                  "strategy in the same game) in which the row strategy finished ahead; ties "
                  "count one half. All player counts pooled. Each pair is tested with a sign "
                  "test over games (did the row strategy come out ahead in that game).",
                  int(pairs["game_key"].nunique()), fig, comparisons)


def _scores_figure(players: pd.DataFrame, strategies: list[str], counts: list[int]) -> Figure:
    fig, axes = new_figure(1, len(counts), height=3.4)
    ecdf_panels(axes[0], players, counts, "n_players", strategies, "strategy", "vp_total",
                "final VP")
    for ax, n in zip(axes[0], counts, strict=True):
        ax.set_title(player_count_label(n))
    comparisons = []
    pairs = _pairings(players)
    per_game = (pairs.groupby(["game_key", "strategy_a", "strategy_b"])
                .agg(a=("vp_total_a", "mean"), b=("vp_total_b", "mean")))
    for a, b, games in _pair_games(per_game, strategies):
        diff = games["a"] - games["b"]
        test = paired_test(diff)
        relative = share_of(diff.mean(), (games["a"].mean() + games["b"].mean()) / 2)
        comparisons.append(Comparison(
            label=f"{a} vs {b} score", topic=f"{a} against {b}",
            claim=f"{a} scores {diff.mean():+.1f} VP against {b} in the games they share "
                  f"({relative_phrase(relative, 'mean score')})",
            method="Wilcoxon signed-rank test of per-game score differences",
            pvalue=test.pvalue, effect=test.effect, effect_kind=test.effect_kind,
            games=len(games), relative=relative, basis="mean score"))
    return Figure("score-distributions", "Score distributions",
                  "Distribution of final VP per strategy and player count, as the share of "
                  "players scoring at most each total (a line further right scores more; it "
                  "crosses 50% at the median). Each pair of "
                  "strategies is compared on the difference of their mean scores within the "
                  "games they share (Wilcoxon signed-rank test over games).",
                  int(players["game_key"].nunique()), fig, comparisons)


def vp_categories(players: pd.DataFrame) -> list[str]:
    """The ``vp_*`` category columns (they sum to ``vp_total``), in table order."""
    return [c for c in players.columns if c.startswith("vp_") and c != "vp_total"]


def _categories_figure(players: pd.DataFrame, counts: list[int]) -> tuple[Figure, Table]:
    everything = vp_categories(players)
    means = players.groupby(["strategy", "n_players"])[everything].mean()
    # A category nobody scored in (no game awarded it) would only crowd the legend.
    categories = [c for c in everything if means[c].fillna(0).ne(0).any()]
    empty = [c.removeprefix("vp_") for c in everything if c not in categories]
    labels = [f"{s}, {n}p" for s, n in means.index]
    fig, axes = new_figure(height=max(2.6, 1.2 + 0.45 * len(labels)))
    ax = axes[0][0]
    left = np.zeros(len(means))
    colors = [f"C{i}" if i < 10 else "0.6" for i in range(len(categories))]
    for category, color in zip(categories, colors, strict=True):
        values = means[category].fillna(0).to_numpy(dtype=float)
        ax.barh(labels, values, left=left, label=category.removeprefix("vp_"),
                color=color, hatch="//" if categories.index(category) >= 10 else None)
        left += values
    ax.invert_yaxis()
    ax.set_xlabel("mean VP")
    ax.grid(axis="y", visible=False)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=8)
    unscored = (f" No player scored in {', '.join(empty)}, left out." if empty else "")
    figure = Figure("vp-categories", "Mean VP by category",
                    "Mean VP per player by scoring category (the categories add up to the "
                    f"final score), per strategy and player count.{unscored}",
                    int(players["game_key"].nunique()), fig)
    table = means.T
    table.columns = labels
    return figure, Table("vp-categories", "Mean VP by category", table.reset_index(
        names="category"), formats={c: "{:.2f}" for c in labels})


def section(data: RunData) -> Section:
    """Win rates, mean rank, head-to-head, score distributions and VP by category."""
    section = Section("strategies", "Strategies", INTRO, group=STRATEGY)
    players, counts = data.players, data.player_counts
    if len(data.finished) < MIN_GAMES:
        section.blocks.append(too_few("Strategies", len(data.finished)))
        return section
    strategies = data.strategies
    table = _summary(players)
    blocks = section.blocks
    blocks.append(_win_rate_figure(players, table, counts))
    blocks.append(Table("strategies", "Strategies by player count", table.reset_index(),
                        formats={"win_rate": "{:.1%}", "win_low": "{:.1%}",
                                 "win_high": "{:.1%}", "fair_share": "{:.1%}",
                                 "wins": "{:.1f}", "mean_rank": "{:.2f}", "mean_vp": "{:.1f}",
                                 "vp_low": "{:.1f}", "vp_high": "{:.1f}"}))
    if len(strategies) > 1:
        blocks.append(_head_to_head(players, strategies))
    else:
        blocks.append(Note(f"One strategy ({strategies[0]}) in every seat: there is no "
                           "head-to-head to draw and no strategy to compare."))
    blocks.append(_scores_figure(players, strategies, counts))
    blocks.extend(_categories_figure(players, counts))
    return section
