"""The report section on Unification cards: what players tuck, how often abilities fire, what
they yield.

The player table counts cards tucked per suit, abilities activated and VP from cards. The
per-activation detail (which ability, from which trigger, for how many VP) needs the optional
``abilities.parquet`` log; without it that part says it was not recorded.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from zsim.reports.common import (
    MIN_GAMES,
    annotate_cells,
    association,
    bars_with_intervals,
    figure_legend,
    mean_intervals,
    new_figure,
    too_few,
)
from zsim.reports.loader import ABILITIES, RunData
from zsim.reports.model import Figure, Note, Section, Table

INTRO = ("Unification cards are tucked into a tableau under one of three suits; a tucked "
         "card's ability activates when its trigger (a Court action) is played.")


def _suits_figure(players: pd.DataFrame, suits: list[str]) -> Figure:
    strategies = sorted(players["strategy"].unique())
    long = players.melt(id_vars=["strategy", "game_key"],
                        value_vars=[f"n_cards_{s}" for s in suits], var_name="suit",
                        value_name="cards")
    long["suit"] = long["suit"].str.removeprefix("n_cards_")
    extra = [c for c in ("n_abilities_activated", "vp_cards") if c in players.columns]
    fig, axes = new_figure(1, 1 + len(extra), height=3.4)
    bars_with_intervals(axes[0][0], mean_intervals(long, ["suit", "strategy"], "cards"),
                        suits, strategies, "mean", "low", "high")
    axes[0][0].set_title("cards tucked per player")
    axes[0][0].set_ylabel("cards")
    axes[0][0].set_xlabel("suit")
    titles = {"n_abilities_activated": ("abilities activated per player", "activations"),
              "vp_cards": ("VP from cards per player", "VP")}
    for ax, column in zip(axes[0][1:], extra, strict=True):
        means = mean_intervals(players.assign(all="all"), ["all", "strategy"], column)
        bars_with_intervals(ax, means, ["all"], strategies, "mean", "low", "high")
        ax.set_xticks([])
        ax.set_title(titles[column][0])
        ax.set_ylabel(titles[column][1])
    comparisons = []
    for suit in suits:
        _, comparison = association(
            players, outcome="win_share", exposure=players[f"n_cards_{suit}"],
            strata="stratum", clusters="game_key", label=f"{suit} cards tucked",
            subject=f"Each {suit} card tucked", measure="win rate", scale=100,
            unit="points", method_note="per card, same strategy and lineup, game-clustered")
        if comparison:
            comparisons.append(comparison)
    return Figure("cards-by-suit", "Cards tucked by suit, abilities and card VP",
                  "Mean Unification cards tucked per player by suit, abilities activated and VP "
                  "scored from cards, per strategy, with 95% bootstrap intervals. For each "
                  "suit, the change in win rate per card tucked is estimated against players "
                  "of the same strategy and lineup (clustered by game); comparing the suits' "
                  "estimates shows whether one suit is worth more.",
                  int(players["game_key"].nunique()), fig, comparisons)


def _activation_blocks(abilities: pd.DataFrame, games: int) -> list:
    """Per ability and suit: activations per game and VP per activation; triggers by suit."""
    grouped = abilities.groupby(["ability", "suit"])
    table = pd.DataFrame({"activations": grouped.size(), "vp": grouped["vp"].sum()})
    table["per_game"] = table["activations"] / games
    table["vp_per_activation"] = table["vp"] / table["activations"]
    suits = sorted(abilities["suit"].unique())
    order = list(table.groupby("ability")["per_game"].sum().sort_values().index)
    rows = np.arange(len(order))  # one row per ability, shared by both panels
    fig, axes = new_figure(1, 2, height=max(3.0, 1.2 + 0.28 * len(order)))
    bars, dots = axes[0]
    dots.sharey(bars)
    left = np.zeros(len(order))
    for i, suit in enumerate(suits):
        values = table["per_game"].xs(suit, level="suit").reindex(order).fillna(0).to_numpy()
        bars.barh(rows, values, left=left, color=f"C{i}", label=suit)
        left += values
        vp = table["vp_per_activation"].xs(suit, level="suit").reindex(order).to_numpy()
        dots.plot(vp, rows, "o", color=f"C{i}")
    bars.set_yticks(rows, order)
    bars.set_ylim(-0.6, len(order) - 0.4)
    bars.set_xlabel("activations per game")
    dots.set_xlabel("VP per activation")
    dots.tick_params(axis="y", labelleft=False)
    for ax in axes[0]:
        ax.grid(axis="y", visible=False)
    figure_legend(fig, bars)
    figure = Figure("card-abilities", "Ability activations and their VP",
                    "How often each ability activates per game, stacked by the suit of the "
                    "card that carries it (left), and the VP each activation scored on "
                    "average, one dot per suit in the same colours (right).", games, fig)
    triggers = pd.crosstab(abilities["trigger"], abilities["suit"]) / games
    tfig, taxes = new_figure(height=max(2.4, 0.8 + 0.35 * len(triggers)), width=6.0)
    ax = taxes[0][0]
    cells = triggers.to_numpy(dtype=float)
    image = ax.imshow(cells, cmap="Blues", aspect="auto")
    annotate_cells(ax, image, np.vectorize(lambda v: f"{v:.2f}")(cells))
    ax.set_xticks(range(len(triggers.columns)), triggers.columns)
    ax.set_yticks(range(len(triggers.index)), triggers.index)
    ax.grid(False)
    tfig.colorbar(image, ax=ax, label="activations per game")
    trigger_figure = Figure("card-triggers", "Activations by trigger and suit",
                            "Ability activations per game by the trigger that fired them and "
                            "the card's suit.", games, tfig)
    return [figure, trigger_figure,
            Table("card-abilities", "Abilities by suit", table.reset_index(),
                  formats={"per_game": "{:.2f}", "vp_per_activation": "{:.2f}"})]


def section(data: RunData) -> Section:
    """Cards tucked by suit and, when logged, per-ability activations and VP."""
    section = Section("cards", "Cards", INTRO)
    games = len(data.finished)
    if games < MIN_GAMES:
        section.blocks.append(too_few("Cards", games))
        return section
    suits = sorted(c.removeprefix("n_cards_") for c in data.players.columns
                   if c.startswith("n_cards_"))
    if suits:
        section.blocks.append(_suits_figure(data.players, suits))
    if data.abilities is None:
        section.blocks.append(Note(
            f"Per-ability activations are not recorded in this run (no {ABILITIES}.parquet): "
            "how often each ability and trigger activates, and the VP each yields, cannot be "
            "shown. The player table's totals are above."))
    else:
        finished = data.abilities[data.abilities["game_key"].isin(data.finished["game_key"])]
        section.blocks += _activation_blocks(finished, games)
    return section
