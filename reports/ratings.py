"""The report section on a rating for every strategy, from the finishing orders
(``zsim.ratings``).

Win rates only count who came first; a rating also uses who came second, third and last, and
puts strategies that never met on one scale through the opponents they shared. The section is
built whenever the runs hold at least two strategies outside the solo mode; ``zsim rate`` draws
the same ladder figure.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from zsim.ratings import (
    SOLO,
    Ladder,
    RatingError,
    Ratings,
    percent_ahead,
    rate,
    win_probability,
)
from zsim.reports.common import MIN_GAMES, new_figure, player_count_label, too_few
from zsim.reports.loader import RunData
from zsim.reports.model import STRATEGY, Figure, Note, Section, Table

INTRO = ("Each strategy's Plackett–Luce rating, fitted on the full finishing order of every "
         "game (not only who won), separately per player count and centred at 0. A gap of d "
         "between two strategies means the higher one finishes ahead of the lower one in a "
         "two-player game with probability 1 / (1 + exp(-d)): a gap of 0.5 is 62%, 1 is 73%, "
         "2 is 88%. Bars are 95% intervals from the model's covariance. Players who share a "
         "rank are counted as finishing together; a strategy in several seats of one game is "
         "one strategy (docs/ratings.md).")


def applies(data: RunData) -> bool:
    """Whether the runs have two strategies to rate (solo games against Li Si aside)."""
    strategies = data.players["strategy"]
    return strategies[~strategies.str.fullmatch(SOLO)].nunique() > 1


def ladder_figure(ratings: Ratings) -> Figure:
    """One panel per player count: each strategy's rating with its interval, best on top."""
    ladders = ratings.ladders
    rows = max(len(ladder.table) for ladder in ladders)
    longest = max(len(s) for ladder in ladders for s in ladder.table["strategy"])
    fig, axes = new_figure(1, len(ladders), height=max(2.4, 1.3 + 0.36 * rows),
                           width=min(9.0, 3.0 + 0.07 * longest + 2.6 * len(ladders)))
    for ax, ladder in zip(axes[0], ladders, strict=True):
        table = ladder.table.iloc[::-1]  # y grows upwards: the best on top
        y = np.arange(len(table))
        rating = table["rating"].to_numpy(dtype=float)
        err = np.vstack([rating - table["low"].to_numpy(dtype=float),
                         table["high"].to_numpy(dtype=float) - rating])
        ax.errorbar(rating, y, xerr=err, fmt="o", color="C0", ecolor="0.3", capsize=3)
        ax.axvline(0, color="0.5", linestyle="--", linewidth=1)
        ax.set_yticks(y, table["strategy"].tolist())
        ax.set_ylim(-0.6, len(table) - 0.4)
        ax.set_xlabel("rating (log scale)")
        ax.set_title(f"{player_count_label(ladder.n_players)} ({ladder.games} games)")
        ax.grid(axis="y", visible=False)
    games = sum(ladder.games for ladder in ladders)
    return Figure("rating-ladder", "Rating ladder",
                  "Plackett–Luce rating of each strategy per player count (0 = the mean "
                  "strategy), with 95% intervals; higher is stronger. A gap of d is a "
                  "probability 1 / (1 + exp(-d)) of finishing ahead in a two-player game.",
                  games, fig)


def _reading(ladder: Ladder) -> str:
    best, worst = ladder.table.iloc[0], ladder.table.iloc[-1]
    gap = best["rating"] - worst["rating"]
    chance = percent_ahead(win_probability(gap))
    return (f"{player_count_label(ladder.n_players)}: {best['strategy']} is rated "
            f"{gap:.2f} above {worst['strategy']}, a {chance} chance of finishing ahead of it "
            f"in a two-player game; {ladder.tied_games} of "
            f"{ladder.games} games had a shared rank.")


def section(data: RunData) -> Section | None:
    """The ladder figure, the ratings table, and what the data leave unsettled; None when
    the runs hold fewer than two strategies outside the solo mode."""
    if not applies(data):
        return None
    result = Section("ratings", "Ratings", INTRO, group=STRATEGY)
    if len(data.finished) < MIN_GAMES:
        result.blocks.append(too_few("Ratings", len(data.finished)))
        return result
    try:
        ratings = rate(data.players)
    except RatingError as error:
        result.blocks.append(Note(f"No ratings: {error}.", warning=True))
        return result
    enough = [ladder for ladder in ratings.ladders if ladder.games >= MIN_GAMES]
    for ladder in ratings.ladders:
        if ladder not in enough:
            result.blocks.append(too_few(f"Ratings, {player_count_label(ladder.n_players)}",
                                         ladder.games))
    if not enough:
        return result
    shown = Ratings(enough, ratings.skipped)
    result.blocks.append(ladder_figure(shown))
    result.blocks.append(Note(" ".join(_reading(ladder) for ladder in enough)))
    for text in [*(note for ladder in enough for note in ladder.notes), *ratings.skipped]:
        result.blocks.append(Note(text + ".", warning=True))
    result.blocks.append(Table("ratings", "Ratings by player count", shown.table,
                               formats={"rating": "{:+.2f}", "low": "{:+.2f}",
                                        "high": "{:+.2f}", "win_rate": "{:.1%}",
                                        "mean_rank": "{:.2f}"}))
    gaps = pd.concat([ladder.gaps for ladder in enough], ignore_index=True)
    result.blocks.append(Table("rating-gaps", "Gaps down the ladder", gaps,
                               formats={"gap": "{:.2f}", "low": "{:+.2f}", "high": "{:+.2f}",
                                        "p_ahead": "{:.1%}"}))
    return result
