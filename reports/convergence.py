"""The report section on how many games are enough.

Two views of the same question. The convergence figure replays the run in game order: each
strategy's win rate as games accumulate, with its 95% Wilson interval, so a reader sees whether
an estimate has settled and how fast its interval narrows (as one over the square root of the
games: halving it takes four times the games). The power table turns the run's own spread into
the games a follow-up comparison needs to detect a given shift (``zsim.power``; ``zsim power``
prints it, with the paired figures when given the two batches of a comparison).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from zsim.power import games_needed
from zsim.reports.common import MIN_GAMES, new_figure, player_count_label, too_few
from zsim.reports.loader import RunData
from zsim.reports.model import Figure, Note, Section, Table

INTRO = ("Whether the run played enough games for its headline numbers, and how many a "
         "follow-up needs. Games are taken in the order they were played (run by run when "
         "several are pooled).")
CHECKPOINTS = 60


def running_win_rates(players: pd.DataFrame) -> pd.DataFrame:
    """Each strategy's cumulative win rate and Wilson interval after each game (rows: games
    played so far, one player count)."""
    from statsmodels.stats.proportion import proportion_confint

    order = {key: i + 1 for i, key in enumerate(sorted(players["game_key"].unique()))}
    frame = players.assign(played=players["game_key"].map(order))
    wins = frame.pivot_table(index="played", columns="strategy", values="win_share",
                             aggfunc="sum", fill_value=0.0).cumsum()
    seats = frame.pivot_table(index="played", columns="strategy", values="win_share",
                              aggfunc="size", fill_value=0).cumsum()
    rows = []
    for strategy in wins.columns:
        w, n = wins[strategy].to_numpy(float), seats[strategy].to_numpy(float)
        seen = n > 0
        low, high = proportion_confint(w[seen], n[seen], method="wilson")
        rows.append(pd.DataFrame({"played": wins.index[seen], "strategy": strategy,
                                  "win_rate": w[seen] / n[seen], "low": low, "high": high}))
    return pd.concat(rows, ignore_index=True)


def _figure(players: pd.DataFrame, counts: list[int]) -> Figure:
    fig, axes = new_figure(1, len(counts), height=3.4)
    widest = []
    for ax, n in zip(axes[0], counts, strict=True):
        running = running_win_rates(players[players["n_players"] == n])
        total = int(running["played"].max())
        marks = np.unique(np.geomspace(min(10, total), total, CHECKPOINTS).astype(int))
        for i, (strategy, line) in enumerate(running.groupby("strategy")):
            line = line.set_index("played").reindex(marks).dropna()
            ax.plot(line.index, line["win_rate"], color=f"C{i % 10}", label=strategy)
            ax.fill_between(line.index, line["low"], line["high"], color=f"C{i % 10}",
                            alpha=0.15, linewidth=0)
        last = running[running["played"] == total]
        widest.append((n, float(((last["high"] - last["low"]) / 2).max()), total))
        ax.axhline(1 / n, color="0.3", linestyle="--", linewidth=1)
        ax.set_xscale("log")
        ax.xaxis.set_major_formatter(lambda v, _: f"{v:,.0f}")
        ax.set_xlabel("games played")
        ax.set_title(player_count_label(n))
        ax.yaxis.set_major_formatter(lambda v, _: f"{v:.0%}")
    axes[0][0].set_ylabel("win rate so far")
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside upper center", frameon=False, fontsize=8,
               ncol=min(len(labels), 7))
    now = "; ".join(f"{player_count_label(n)}: ±{half * 100:.1f} points after {total} games"
                    for n, half, total in widest)
    return Figure("convergence", "Win rates as games accumulate",
                  "Each strategy's win rate over the games played so far (log scale), with its "
                  "95% Wilson interval shaded; the dashed line is the fair share. Widest "
                  f"half-interval at the end: {now}. Halving it takes four times the games.",
                  int(players["game_key"].nunique()), fig)


def section(data: RunData) -> Section:
    """The convergence figure and the games a follow-up needs, per strategy."""
    section = Section("convergence", "How many games are enough", INTRO)
    counts = [n for n in data.player_counts
              if data.players.loc[data.players["n_players"] == n, "game_key"].nunique()
              >= MIN_GAMES]
    if not counts:
        section.blocks.append(too_few("Convergence", len(data.finished)))
        return section
    section.blocks.append(_figure(data.players, counts))
    table = games_needed(data.players)
    section.blocks.append(Table(
        "games-needed", "Games needed to detect a shift (unpaired, at this run's spread)",
        table[["n_players", "strategy", "metric", "shift", "unit", "sd",
               "unpaired_games_per_batch"]],
        formats={"sd": "{:.3g}", "unpaired_games_per_batch": "{:,.0f}"}))
    section.blocks.append(Note(
        "Games per batch for a two-sided test on per-game means at 5% significance and 80% "
        "power, counted in whole games of the run. A paired comparison (zsim compare, zsim "
        "effects: the same seeds in both batches) needs fewer, by how much the paired games "
        "agree: `zsim power BASE_RUN VARIANT_RUN` measures it."))
    return section
