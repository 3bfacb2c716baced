"""Section 3: does where you sit, or when you first play, decide the game?

Seat fairness is tested per player count with a chi-square goodness-of-fit test of the wins
each position collected against the wins expected there. Every game hands out exactly one win
(split on ties) among its n positions, so the counts are multinomial: the test's own
assumption. The expected wins are not simply equal shares: they add up each seated player's
strategy baseline (the strategy's win rate in that lineup), because with a mixed lineup a
strong bot may sit first more often by chance, which would otherwise look like a
first-player advantage.
"""

from __future__ import annotations

import pandas as pd

from reports.common import MIN_GAMES, new_figure, player_count_label, rate_bars, too_few, win_rates
from reports.loader import RunData
from reports.model import Comparison, Figure, Note, Section, Table
from zsim.stats import goodness_of_fit

INTRO = ("The starting position is the place in the first round's turn order (1st = the first "
         "player); the seat is the player's colour slot, 0 to n-1. Later rounds' turn order "
         "depends on play, so only the start is a property of the setup.")
ORDINALS = {0: "1st", 1: "2nd", 2: "3rd", 3: "4th"}


def _figure(players: pd.DataFrame, column: str, counts: list[int], slug: str, title: str,
            what: str, labels: dict[int, str]) -> tuple[Figure | None, pd.DataFrame, list[Note]]:
    shown = [n for n in counts if players.loc[players["n_players"] == n, "game_key"].nunique()
             >= MIN_GAMES]
    notes = [too_few(f"{title}, {player_count_label(n)}",
                     players.loc[players["n_players"] == n, "game_key"].nunique())
             for n in counts if n not in shown]
    table = win_rates(players, ["n_players", column])
    table["expected"] = players.groupby(["n_players", column])["expected"].mean()
    table = table.reset_index()
    table[column] = table[column].map(labels)
    if not shown:
        return None, table, notes
    fig, axes = new_figure(1, len(shown), height=3.2)
    comparisons = []
    for ax, n in zip(axes[0], shown, strict=True):
        rows = table[table["n_players"] == n].set_index(column)
        rate_bars(ax, rows, fair=1 / n)
        ax.plot(range(len(rows)), rows["expected"], "_", color="black", markersize=28,
                markeredgewidth=2)
        ax.set_title(player_count_label(n))
        ax.set_xlabel(what)
        test = goodness_of_fit(rows["wins"], rows["expected"])
        best = rows["win_rate"].idxmax()
        comparisons.append(Comparison(
            label=f"{what}, {player_count_label(n)}",
            claim=f"In {n}-player games the {what} {best} wins {rows.loc[best, 'win_rate']:.1%}"
                  f" where its players' strategies would win {rows.loc[best, 'expected']:.1%}",
            method="chi-square goodness of fit against the strategies' expected wins",
            pvalue=test.pvalue, effect=test.effect, effect_kind=test.effect_kind,
            games=int(players.loc[players["n_players"] == n, "game_key"].nunique())))
    games = int(players.loc[players["n_players"].isin(shown), "game_key"].nunique())
    figure = Figure(slug, title,
                    f"Win rate by {what} for each player count, with 95% Wilson intervals; the "
                    "dashed line is the fair share and the black tick the rate expected from "
                    "the strategies that sat there. Each player count is tested against the "
                    "expected wins with a chi-square goodness-of-fit test.", games, fig,
                    comparisons)
    return figure, table, notes


def section(data: RunData) -> Section:
    """Win rate by starting position and by seat, per player count, with fairness tests."""
    section = Section("seats", "3. Seats and turn order", INTRO)
    players = data.players.assign(
        expected=data.players.groupby("stratum")["win_share"].transform("mean"))
    if len(data.finished) < MIN_GAMES:
        section.blocks.append(too_few("Seats", len(data.finished)))
        return section
    views = [("seat", "seat-win-rate", "Win rate by seat", "seat",
              {s: str(s) for s in range(4)})]
    if "position" in players:
        views.insert(0, ("position", "position-win-rate", "Win rate by starting position",
                         "starting position", ORDINALS))
    else:
        section.blocks.append(Note("The runs do not record the first player, so starting "
                                   "positions cannot be told apart from seats.", warning=True))
    for column, slug, title, what, labels in views:
        figure, table, notes = _figure(players, column, data.player_counts, slug, title, what,
                                       labels)
        section.blocks.extend(notes)
        if figure:
            section.blocks.append(figure)
        section.blocks.append(Table(slug, title, table,
                                    formats={"win_rate": "{:.1%}", "win_low": "{:.1%}",
                                             "win_high": "{:.1%}", "wins": "{:.1f}",
                                             "expected": "{:.1%}"}))
    return section
