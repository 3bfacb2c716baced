"""The report section on the solo mode: how each strategy fares against each level of Li Si.

Solo games are the games with a ``lisi-N`` seat. The levels are meant to be ordered: against the
same strategy, Li Si's win rate should rise from level 1 to level 4, so the figure shows the
strategy's rate at each level with its Wilson interval, side by side.
"""

from __future__ import annotations

import pandas as pd

from zsim.reports.common import MIN_GAMES, new_figure, rate_bars, too_few, win_rates
from zsim.reports.loader import RunData
from zsim.reports.model import Figure, Note, Section, Table

INTRO = ("Games against Li Si, the solo-mode automaton, by his level (1 easiest to 4 hardest): "
         "the win rate of each strategy that played him, with 95% Wilson intervals (a shared "
         "win counts half).")


def section(data: RunData) -> Section:
    result = Section("solo", "Solo", INTRO)
    players = data.players
    solo_games = players.loc[players["strategy"].str.fullmatch(r"lisi-\d+"), "game_key"]
    if solo_games.empty:
        result.blocks.append(Note("No solo games in these runs."))
        return result
    solo = players[players["game_key"].isin(solo_games)]
    level = solo.groupby("game_key")["strategy"].agg(
        lambda s: next(x for x in s if x.startswith("lisi-")))
    humans = solo[~solo["strategy"].str.startswith("lisi-")].assign(
        level=lambda f: f["game_key"].map(level))
    table = win_rates(humans, ["strategy", "level"]).reset_index()
    games = int(humans["game_key"].nunique())
    if games < MIN_GAMES:
        result.blocks.append(too_few("Solo win rates", games))
    else:
        strategies = sorted(humans["strategy"].unique())
        fig, axes = new_figure(1, len(strategies), height=3.2)
        for ax, strategy in zip(axes[0], strategies, strict=True):
            rows = table[table["strategy"] == strategy].set_index("level")
            rate_bars(ax, rows)
            ax.set_title(f"{strategy} against Li Si")
        result.blocks.append(Figure(
            "solo-levels", "Win rate against each level of Li Si",
            f"Win rate of each strategy against each Li Si level with 95% Wilson intervals; "
            f"{games} solo games. Lower bars for higher levels mean the levels are ordered.",
            games, fig))
    table["lisi_win_rate"] = 1 - table["win_rate"]
    result.blocks.append(Table("solo-levels", "Solo results by level", pd.DataFrame(table),
                               {c: "{:.1%}" for c in ("win_rate", "win_low", "win_high",
                                                      "lisi_win_rate")}))
    return result
