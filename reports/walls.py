"""The report section on Wall tiles: how often each is built on, what its Walls score, who wins
with it.

A Wall tile lies on one Wall section per game; ``walls.parquet`` has one row per Wall built.
Each tile is compared with the other tiles *in the same situation*: Walls built per section
within the same lineup and section, VP per Wall within the same tier and player count, and the
holders' win rate against the other players of the same games and strategy. These adjustments
matter: a strong bot builds more Walls and wins more, and higher tiers score more.
"""

from __future__ import annotations

import pandas as pd

from zsim.reports.common import (
    MIN_GAMES,
    association,
    bars_with_intervals,
    effects_command,
    error_bars,
    game_lineups,
    mean_intervals,
    new_figure,
    too_few,
    win_rates,
)
from zsim.reports.loader import RunData
from zsim.reports.model import CAUSAL, Figure, Note, Section, Table

INTRO = ("Every tile is compared with the other tiles in the same situation (see each "
         "caption); intervals are 95% (bootstrap for means, Wilson for win rates, "
         "game-clustered for adjusted differences).")

#: What tests a tile's VP per Wall: `zsim effects` measures win rates and scores, not the
#: Walls of one section, so the report's recheck does it by design.
PER_WALL = ("`zsim effects wall_tiles` measures win rates, not VP per Wall; the report's "
            "recheck (`zsim report RUN`, by default) forces the tile into play against "
            "another tile on the same section, game by game, and compares VP per Wall there")

def _slots(data: RunData) -> pd.DataFrame:
    """One row per Wall section of each finished game: its tile and the Walls built on it."""
    games = data.finished
    columns = sorted(c for c in games.columns if c.startswith("wall_tile_"))
    slots = games.melt(id_vars=["game_key", "n_players"], value_vars=columns,
                       var_name="section", value_name="tile").dropna(subset=["tile"])
    slots = slots[slots["tile"] != ""]
    slots["section"] = slots["section"].str.removeprefix("wall_tile_").astype(int) - 1
    built = data.walls.groupby(["game_key", "section"]).size().rename("walls")
    slots = slots.join(built, on=["game_key", "section"])
    slots["walls"] = slots["walls"].fillna(0).astype(int)
    lineups = game_lineups(data.players)
    slots["stratum"] = (slots["game_key"].map(lineups) + ", section "
                        + slots["section"].astype(str))
    return slots


def _built_figure(slots: pd.DataFrame, tiles: list[str], counts: list[int]) -> Figure:
    means = mean_intervals(slots, ["tile", "n_players"], "walls")
    comparisons = []
    for tile in tiles:
        _, comparison = association(
            slots, outcome="walls", exposure=slots["tile"] == tile, strata="stratum",
            clusters="game_key", label=f"Walls built on {tile}",
            subject=f"Sections with {tile}", measure="Walls built per game",
            method_note="same lineup and section, game-clustered", unit="Walls", digits=2,
            group=CAUSAL, component=("wall_tiles", tile))
        if comparison:
            comparisons.append(comparison)
    fig, axes = new_figure(height=3.4)
    ax = axes[0][0]
    bars_with_intervals(ax, means, tiles, counts, "mean", "low", "high",
                        labels={n: f"{n} players" for n in counts})
    ax.set_ylabel("Walls built per game")
    ax.tick_params(axis="x", labelrotation=20)
    return Figure("wall-built", "How often each Wall tile is built on",
                  "Mean number of Walls built on a tile's section per game in which the tile "
                  "is in play, per player count, with 95% bootstrap intervals. Each tile is "
                  "tested against the other tiles of the same section and lineup "
                  "(adjusted difference, standard errors clustered by game).",
                  int(slots["game_key"].nunique()), fig, comparisons)


def _vp_figure(walls: pd.DataFrame, tiles: list[str]) -> Figure:
    by_tier = mean_intervals(walls, ["tile", "tier"], "vp")
    overall = mean_intervals(walls, "tile", "vp").reindex(tiles)
    walls = walls.assign(stratum="tier " + walls["tier"].astype(str) + ", "
                         + walls["n_players"].astype(str) + " players")
    comparisons = []
    for tile in tiles:
        _, comparison = association(
            walls, outcome="vp", exposure=walls["tile"] == tile, strata="stratum",
            clusters="game_key", label=f"VP per Wall on {tile}",
            subject=f"A Wall on {tile}", measure="scores",
            method_note="same tier and player count, game-clustered",
            component=("wall_tiles", tile), no_test=PER_WALL)
        if comparison:
            comparisons.append(comparison)
    tiers = sorted(walls["tier"].unique())
    fig, axes = new_figure(1, 2, height=3.6)
    bars_with_intervals(axes[0][0], by_tier, tiles, tiers, "mean", "low", "high",
                        labels={t: f"tier {t}" for t in tiers})
    axes[0][0].set_ylabel("VP per Wall")
    axes[0][0].set_title("by tier")
    ax = axes[0][1]
    ax.bar(tiles, overall["mean"], yerr=error_bars(overall["mean"], overall["low"],
                                                   overall["high"]),
           capsize=3, color="C0", ecolor="0.3")
    ax.set_title("all tiers")
    for ax in axes[0]:
        ax.tick_params(axis="x", labelrotation=35)
        for label in ax.get_xticklabels():
            label.set_horizontalalignment("right")
    return Figure("wall-vp", "VP per Wall by tile and tier",
                  "Mean VP a Wall scored at the end, by tile and tier (left) and over all "
                  "tiers (right), with 95% bootstrap intervals. Each tile is tested against "
                  "Walls of the same tier and player count on other tiles (adjusted "
                  "difference, standard errors clustered by game).",
                  int(walls["game_key"].nunique()), fig, comparisons)


def _holders(data: RunData, slots: pd.DataFrame, tiles: list[str]) -> tuple[Figure, list]:
    players = data.players
    held = data.walls[["game_key", "seat", "tile"]].drop_duplicates()
    rates, rows, comparisons = [], [], []
    for tile in tiles:
        in_play = slots.loc[slots["tile"] == tile, "game_key"].unique()
        rows_in_play = players[players["game_key"].isin(in_play)]
        holders = held[held["tile"] == tile].set_index(["game_key", "seat"]).index
        holds = pd.MultiIndex.from_frame(rows_in_play[["game_key", "seat"]]).isin(holders)
        rate = win_rates(rows_in_play.assign(holds=holds), "holds")
        rates.append(rate.reindex([True, False]).assign(tile=tile))
        row, comparison = association(
            rows_in_play, outcome="win_share", exposure=holds, strata="stratum",
            clusters="game_key", label=f"holding a Wall on {tile}",
            subject=f"Players holding a Wall on {tile}",
            measure="win rate against other players of the same strategy and lineup",
            method_note="same strategy and lineup, game-clustered", scale=100, unit="points",
            causal_test=effects_command("wall_tiles", tile))
        rows.append(row)
        if comparison:
            comparisons.append(comparison)
    table = pd.concat(rates).reset_index().set_index(["tile", "holds"])
    fig, axes = new_figure(height=3.4)
    bars_with_intervals(axes[0][0], table, tiles, [True, False], "win_rate", "win_low",
                        "win_high", labels={True: "holds a Wall on it",
                                            False: "holds none (tile in play)"})
    ax = axes[0][0]
    ax.set_ylabel("win rate")
    ax.yaxis.set_major_formatter(lambda v, _: f"{v:.0%}")
    ax.tick_params(axis="x", labelrotation=20)
    figure = Figure("wall-holders", "Win rate of players holding Walls on each tile",
                    "Win rate of players who hold at least one Wall on the tile against those "
                    "who hold none, in games where the tile is in play, with 95% Wilson "
                    "intervals. The test compares players of the same strategy and lineup "
                    "(adjusted difference in win rate, standard errors clustered by game).",
                    int(slots["game_key"].nunique()), fig, comparisons)
    return figure, [table, pd.DataFrame(rows, index=tiles)]


def section(data: RunData) -> Section:
    """Build rate, VP per Wall by tier, and holders' win rate for each Wall tile."""
    section = Section("walls", "Wall tiles", INTRO)
    if not any(c.startswith("wall_tile_") for c in data.games.columns):
        section.blocks.append(Note("The runs do not record Wall tiles.", warning=True))
        return section
    slots = _slots(data)
    games = int(slots["game_key"].nunique())
    if games < MIN_GAMES:
        section.blocks.append(too_few("Wall tiles", games))
        return section
    tiles = sorted(slots["tile"].unique())
    built = _built_figure(slots, tiles, data.player_counts)
    holders, (holder_rates, holder_effects) = _holders(data, slots, tiles)
    summary = slots.groupby("tile").agg(games_in_play=("game_key", "nunique"),
                                        walls_built=("walls", "sum"),
                                        walls_per_game=("walls", "mean"))
    summary["share_of_games"] = summary["games_in_play"] / games
    summary["vp_per_wall"] = data.walls.groupby("tile")["vp"].mean()
    for tier, vp in data.walls.groupby("tier"):
        summary[f"vp_tier_{tier}"] = vp.groupby("tile")["vp"].mean()
    summary["holders_win_rate"] = holder_rates.xs(True, level="holds")["win_rate"]
    summary["others_win_rate"] = holder_rates.xs(False, level="holds")["win_rate"]
    summary["holder_effect_points"] = holder_effects["estimate"]
    summary["holder_effect_low"] = holder_effects["low"]
    summary["holder_effect_high"] = holder_effects["high"]
    summary["holder_effect_p"] = holder_effects["p"]
    fmt = {c: "{:.2f}" for c in summary.columns if c.startswith(("vp_", "walls_per"))}
    fmt.update({c: "{:.1%}" for c in ("share_of_games", "holders_win_rate",
                                      "others_win_rate")})
    fmt.update({c: "{:+.1f}" for c in summary.columns if c.startswith("holder_effect")})
    fmt["holder_effect_p"] = "{:.3g}"
    section.blocks += [built, _vp_figure(data.walls, tiles), holders,
                       Table("wall-tiles", "Wall tiles", summary.reset_index(), formats=fmt)]
    if "face" in data.walls.columns:
        faces = data.walls.groupby(["tile", "face"]).agg(walls=("vp", "size"),
                                                         vp_per_wall=("vp", "mean"))
        section.blocks.append(Table("wall-faces", "Walls and VP by tile face",
                                    faces.reset_index(), formats={"vp_per_wall": "{:.2f}"},
                                    collapsed=True))
    return section
