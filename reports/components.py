"""The report section on the other components drawn per game, and their effect on winning.

Starting tiles belong to one player, so a tile's holders are compared with the players of the
same strategy and lineup who kept another tile. When the runs record who got which tile
(``tiles.parquet``), the players who took each Palace, Governor, Emperor or Starting tile are
compared in the same way, on their final score, in the games where the tile was in play. The
components laid out for the whole table (Palace, Governor and Emperor tiles, Master Alchemists,
the Mausoleum layout, and the Wall tiles and Unification board, whose own sections look at
who used them) are also measured as being in play: whether a component shifts a
strategy's win rate (only meaningful when strategies differ) and the game's mean score, against
games of the same lineup without it (per copy in play when a component can appear more than
once).
"""

from __future__ import annotations

import math

import pandas as pd
from matplotlib.figure import Figure as MplFigure

from zsim.reports.assumed import MASTER_PREFIX
from zsim.reports.common import (
    MIN_GAMES,
    association,
    effects_command,
    forest,
    forest_height,
    game_lineups,
    new_figure,
    too_few,
    win_rates,
)
from zsim.reports.loader import RunData
from zsim.reports.model import ALPHA, ASSOCIATION, CAUSAL, Comparison, Figure, Note, Section, Table
from zsim.stats import holm

# (slug, title, column or column prefix, separator inside a cell)
FAMILIES = (
    ("wall-tiles-in-play", "Wall tiles in play", "wall_tile_", ","),
    ("unification-board-in-play", "Unification board in play", "unification_board", ","),
    ("palace-tiles", "Palace tiles", "palace_tiles_", ","),
    ("governor-tiles", "Governor tiles", "governor_tiles_", ","),
    ("emperor-tiles", "Emperor tiles", "emperor_tile_", ","),
    ("master-alchemists", "Master Alchemists", "master_alchemists", ","),
    ("mausoleum-layout", "Mausoleum layout", "mausoleum_layout", "|"),
    ("mausoleum-mode", "Mausoleum mode", "mausoleum_mode", "|"),
)
INTRO = ("Effects are adjusted differences against comparable players or games, with 95% "
         "intervals (clustered by game for player rows). Components laid out for the whole "
         "table can only be linked to who wins when the lineup mixes strategies; who took "
         "which tile is compared when the runs record it (tiles.parquet, see docs/reports.md). "
         "These are associations: for the causal effect of a component, `zsim effects KIND` "
         "plays the same games with it forced into play and kept out.")
#: The component kind (``zsim.options.KINDS``) of each family whose elements a setup
#: constraint can force in or keep out.
KIND_OF_FAMILY = {"wall-tiles-in-play": "wall_tiles", "unification-board-in-play": "board",
                  "palace-tiles": "palace_tiles", "governor-tiles": "governor_tiles",
                  "emperor-tiles": "emperor_tiles", "master-alchemists": "master_alchemists",
                  "mausoleum-layout": "mausoleum_layout"}
#: Two boards in play are one fact seen twice (one board in play is the other out): one topic,
#: shared with the boards section's comparison of their scores.
BOARD_TOPIC = "which Unification board is in play"
#: An effect read from fewer than this share of the games on one side (with the component or
#: without it) is shown as an association (``lopsided``).
SMALL_SHARE = 0.2
MAX_ROWS = 12  # elements a family's figure shows in full; more are condensed (see _condensed)
MIN_DRAWN = 3  # fewest rows a condensed figure draws
# (tile kind in tiles.parquet, title, setup column prefix saying which tiles are in play)
TAKEN = (
    ("palace", "Palace tiles", "palace_tiles_"),
    ("governor", "Governor tiles", "governor_tiles_"),
    ("emperor", "Emperor tiles", "emperor_tile_"),
    ("starting", "Starting tiles", None),  # any Starting tile can be dealt in any game
)


def _start_tiles(players: pd.DataFrame) -> list:
    tiles = sorted(players["start_tile"].dropna().unique())
    rows, comparisons = [], []
    for tile in tiles:
        row, comparison = association(
            players, outcome="win_share", exposure=players["start_tile"] == tile,
            strata="stratum", clusters="game_key", label=f"Starting tile {tile}",
            subject=f"Players who kept {tile}", measure="win rate", scale=100,
            unit="points", method_note="same strategy and lineup, game-clustered",
            causal_test=effects_command("starting_tiles", tile),
            component=("starting_tiles", tile))
        rows.append(row)
        if comparison:
            comparisons.append(comparison)
    effects = pd.DataFrame(rows, index=tiles)
    fig, axes = new_figure(height=forest_height(len(tiles)))
    forest(axes[0][0], tiles, effects, "win rate against other Starting tiles",
           "difference (percentage points)")
    figure = Figure("start-tiles", "Starting tiles",
                    "Difference in win rate between players who kept the Starting tile and "
                    "players of the same strategy and lineup who kept another, with 95% "
                    "intervals clustered by game. Which tiles a player was dealt is not "
                    "recorded, so a tile that a bot prefers is compared with the tiles it "
                    "passed over.", int(players["game_key"].nunique()), fig, comparisons)
    table = win_rates(players, "start_tile").join(effects.add_prefix("effect_points_"))
    table = Table("start-tiles", "Starting tiles: win rates and adjusted effects",
                  table.reset_index(),
                  formats={"win_rate": "{:.1%}", "win_low": "{:.1%}", "win_high": "{:.1%}",
                           "wins": "{:.1f}", "effect_points_estimate": "{:+.1f}",
                           "effect_points_low": "{:+.1f}", "effect_points_high": "{:+.1f}",
                           "effect_points_p": "{:.3g}"})
    return [figure, table]


def _takers(data: RunData, tiles: pd.DataFrame) -> list:
    """Final score of the players who took each tile against the players of the same strategy
    and lineup who did not, in the games where the tile was in play (the way Wall holders are
    compared), one figure per kind of tile and one table for all."""
    players = data.players[data.players["run_id"].isin(tiles["run_id"].unique())]
    blocks: list = []
    summary = []
    for kind, title, column in TAKEN:
        taken = tiles[tiles["kind"] == kind]
        if taken.empty:
            continue
        counts = component_counts(data.finished, column, ",") if column else None
        labels, rows, comparisons = [], [], []
        for tile in sorted(taken["tile"].unique()):
            rows_in_play = players if counts is None or tile not in counts else players[
                players["game_key"].map(counts[tile]).fillna(0) > 0]
            takers = taken.loc[taken["tile"] == tile].set_index(["game_key", "seat"]).index
            took = pd.MultiIndex.from_frame(rows_in_play[["game_key", "seat"]]).isin(takers)
            row, comparison = association(
                rows_in_play, outcome="vp_total", exposure=took, strata="stratum",
                clusters="game_key", label=f"taking {tile}",
                subject=f"Players who {'kept' if kind == 'starting' else 'took'} {tile}",
                measure="final score against other players of the same strategy and lineup",
                method_note="same strategy and lineup, game-clustered",
                causal_test=effects_command(f"{kind}_tiles", tile))
            labels.append(tile)
            rows.append(row)
            if comparison:
                comparisons.append(comparison)
            vp = rows_in_play["vp_total"]
            summary.append({"kind": kind, "tile": tile,
                            "games_in_play": int(rows_in_play["game_key"].nunique()),
                            "players_who_took_it": int(took.sum()),
                            "takers_mean_vp": vp[took].mean(), "others_mean_vp": vp[~took].mean(),
                            "effect_vp_estimate": row["estimate"], "effect_vp_low": row["low"],
                            "effect_vp_high": row["high"], "effect_vp_p": row["p"]})
        fig, axes = new_figure(height=forest_height(len(labels)))
        forest(axes[0][0], labels, pd.DataFrame(rows), "final score: took it against did not",
               "difference (VP)")
        blocks.append(Figure(
            f"{kind}-tile-takers", f"{title}: the players who took them",
            f"Difference in final score between the players who took each {title[:-1]} and the "
            "players of the same strategy and lineup who did not, in games where the tile was "
            "in play, with 95% intervals clustered by game. Association, not cause: a player "
            "who is ahead can afford more tiles.", int(players["game_key"].nunique()), fig,
            comparisons))
    if summary:
        blocks.append(Table(
            "tile-takers", "Tiles taken: final score of the takers and adjusted effects",
            pd.DataFrame(summary),
            formats={"takers_mean_vp": "{:.1f}", "others_mean_vp": "{:.1f}",
                     "effect_vp_estimate": "{:+.1f}", "effect_vp_low": "{:+.1f}",
                     "effect_vp_high": "{:+.1f}", "effect_vp_p": "{:.3g}"}))
    return blocks


def component_counts(games: pd.DataFrame, column: str, separator: str) -> pd.DataFrame:
    """Copies of each component in play per game (rows: ``game_key``), from the setup columns
    named ``column`` or starting with it; empty cells mean "nothing here"."""
    columns = [c for c in games.columns if c == column or c.startswith(column)]
    long = games[["game_key", *columns]].melt(id_vars="game_key")
    long = long.assign(element=long["value"].fillna("").astype(str).str.split(separator,
                                                                                regex=False))
    long = long.explode("element")
    long = long[long["element"].str.len() > 0]
    counts = pd.crosstab(long["game_key"], long["element"])
    return counts.reindex(games["game_key"], fill_value=0)


def lopsided(comparison: Comparison, kind: str, element: str) -> None:
    """A component's effect read from a small share of the games (a tile almost always in
    play, so "without it" is a handful of deals) is not trusted as a causal effect: the few
    games on one side may differ in more than that component. It is shown as an association,
    named with that share and with the designed experiment that tests it (forced in against
    kept out on the same seeds), until a replay confirms it."""
    share = comparison.exposed_share
    if not (math.isfinite(share) and min(share, 1 - share) < SMALL_SHARE):
        return
    side = "without" if share > 0.5 else "with"
    comparison.group = ASSOCIATION
    comparison.causal_test = effects_command(kind, element.removeprefix(MASTER_PREFIX))
    comparison.claim += (f", read from the {min(share, 1 - share):.0%} of games {side} it "
                         "(an association until the designed experiment confirms it)")


def _skipped_note(title: str, skipped: list[str]) -> Note:
    return Note(f"{title}: {', '.join(skipped)} in play in every game (or in none) of each "
                "lineup, so there is nothing to compare them with.")


def _family(data: RunData, slug: str, title: str, counts: pd.DataFrame) -> list:
    players = data.players
    strategies = data.strategies if len(data.strategies) > 1 else []
    per_game = players.groupby("game_key")["vp_total"].mean().rename("mean_vp").to_frame()
    per_game["lineup"] = game_lineups(players)
    per_game = per_game.join(counts)
    panels: dict[str, list] = {f"{s} win rate": [] for s in strategies}
    panels["game's mean VP"] = []
    # (element, panel, its row, its test or None when too few rows to test)
    effects: list[tuple[str, str, dict, Comparison | None]] = []
    labels, skipped = [], []
    topic = BOARD_TOPIC if slug == "unification-board-in-play" else ""
    kind = KIND_OF_FAMILY.get(slug, "")
    for element in counts.columns:
        found = []
        component = (kind, element.removeprefix(MASTER_PREFIX))
        for strategy in strategies:
            rows = players[players["strategy"] == strategy]
            found.append(association(
                rows, outcome="win_share", exposure=rows["game_key"].map(counts[element]),
                strata="lineup", clusters="game_key", label=f"{element}: {strategy} win rate",
                subject=f"With {element} in play", measure=f"{strategy} win rate",
                scale=100, unit="points per copy",
                method_note="same lineup, game-clustered", group=CAUSAL, component=component))
        found.append(association(
            per_game, outcome="mean_vp", exposure=per_game[element], strata="lineup",
            clusters=None, label=f"{element}: mean VP", subject=f"With {element} in play",
            measure="mean VP per player", unit="VP per copy", method_note="same lineup",
            group=CAUSAL, component=component))
        for _, comparison in found:
            if comparison and topic:
                comparison.topic = topic
            if comparison and kind:
                lopsided(comparison, kind, element)
        if all(math.isnan(row["estimate"]) for row, _ in found):
            skipped.append(element)
            continue
        labels.append(data.names.get(element, element))
        for (name, panel), (row, comparison) in zip(panels.items(), found, strict=True):
            panel.append(row)
            if not math.isnan(row["estimate"]):
                effects.append((data.names.get(element, element), name, row, comparison))
    if not labels:
        return [_skipped_note(title, skipped)] if skipped else []
    constant = [name for name, rows in panels.items()
                if all(math.isnan(row["estimate"]) for row in rows)]
    drawn = {name: rows for name, rows in panels.items() if name not in constant}
    comparisons = [comparison for *_, comparison in effects if comparison]
    games = int(per_game.index.nunique())
    caption = (f"Effect of each element of the {title.lower()} being in play (per copy): on "
               "each strategy's win rate against games of the same lineup without it "
               "(clustered by game), and on the game's mean VP per player against games of the "
               "same lineup, with 95% intervals.")
    if len(labels) > MAX_ROWS:
        blocks: list = [_condensed(slug, title, caption, games, effects, len(labels))]
    else:
        blocks = [Figure(slug, title, caption, games, _panels(drawn, labels), comparisons)]
    if skipped:
        blocks.append(_skipped_note(title, skipped))
    if constant:
        they = "it" if len(constant) == 1 else "they"
        blocks.append(Note(f"{title}: {', '.join(constant)} not estimable: {they} did not "
                           "vary within any lineup (a strategy that won every game, or none), "
                           f"so no element can be linked to {'it' if they == 'it' else 'them'}"
                           "; not drawn, and blank in the table."))
    table = pd.concat({name: pd.DataFrame(rows, index=labels) for name, rows in panels.items()},
                      axis=1)
    table.columns = [f"{panel}: {stat}" for panel, stat in table.columns]
    blocks.append(Table(slug, f"{title}: effects", table.reset_index(names="element"),
                        collapsed=True))
    return blocks


def _panels(panels: dict[str, list], labels: list[str]) -> MplFigure:
    """One forest per panel (each strategy's win rate, the game's mean VP), every element a
    row."""
    cols = min(3, len(panels))
    rows_n = math.ceil(len(panels) / cols)
    fig, axes = new_figure(rows_n, cols, height=rows_n * forest_height(len(labels)))
    for i, (name, rows) in enumerate(panels.items()):
        ax = axes[i // cols][i % cols]
        forest(ax, labels, pd.DataFrame(rows), name, "")
        if i % cols:
            ax.set_yticklabels([])
    for j in range(len(panels), rows_n * cols):
        axes[j // cols][j % cols].set_visible(False)
    # One label for all panels: repeated under each narrow panel, the labels ran into each other.
    fig.supxlabel("difference with it in play: percentage points of win rate (the game's mean "
                  "VP panel: VP)" if len(panels) > 1 else "difference with it in play (VP)",
                  fontsize=10)
    return fig


def _condensed(slug: str, title: str, caption: str, games: int,
               effects: list[tuple[str, str, dict, Comparison | None]],
               elements: int) -> Figure:
    """A family with too many elements for a panel each (the Mausoleum layout's spot bindings):
    only the effects that are significant after Holm correction within the family, or, when
    none is, the ``MAX_ROWS`` with the smallest p-values, one row per element and outcome."""
    tested = {i: comparison for i, (*_, comparison) in enumerate(effects) if comparison}
    adjusted = dict(zip(tested, holm([c.pvalue for c in tested.values()]), strict=True))
    significant = [i for i in tested if adjusted[i] < ALPHA]
    ranked = sorted(range(len(effects)), key=lambda i: (adjusted.get(i, math.inf),
                                                        _p_or_inf(effects[i][2]["p"])))
    # A few significant effects are drawn among the strongest others, never alone: a figure of
    # one row tells less than the table.
    chosen = ([i for i in ranked if i in significant] if len(significant) >= MIN_DRAWN
              else ranked[:MAX_ROWS])
    units = {"win rate": [i for i in chosen if "win rate" in effects[i][1]],
             "mean VP": [i for i in chosen if "win rate" not in effects[i][1]]}
    units = {unit: rows for unit, rows in units.items() if rows}
    fig, axes = new_figure(1, len(units), height=forest_height(max(map(len, units.values()))))
    for ax, (unit, rows) in zip(axes[0], units.items(), strict=True):
        labels = [f"{effects[i][0]} ({effects[i][1]})" for i in rows]
        xlabel = "difference (percentage points)" if unit == "win rate" else "difference (VP)"
        forest(ax, labels, pd.DataFrame([effects[i][2] for i in rows]), unit, xlabel)
    shown = (f"Only the {len(chosen)} effects significant after Holm correction within this "
             f"figure's family are drawn, of {len(effects)} on {elements} elements"
             if len(significant) >= MIN_DRAWN else
             f"The {len(chosen)} of {len(effects)} effects ({elements} elements) with the "
             "smallest p-values are drawn")
    return Figure(slug, title, f"{caption} {shown}; every element is in the table below.",
                  games, fig, list(tested.values()))


def _p_or_inf(p: float) -> float:
    return math.inf if math.isnan(p) else p


def section(data: RunData) -> Section:
    """Starting tiles and, when recorded, every tile taken per player; table-wide components
    per game."""
    section = Section("components", "Other components", INTRO)
    if len(data.finished) < MIN_GAMES:
        section.blocks.append(too_few("Other components", len(data.finished)))
        return section
    if "start_tile" in data.players.columns and data.players["start_tile"].notna().any():
        section.blocks += _start_tiles(data.players)
    if data.tiles is not None:
        section.blocks += _takers(data, data.tiles)
    if len(data.strategies) < 2:
        section.blocks.append(Note("One strategy in every seat: a component laid out for the "
                                   "whole table cannot change which strategy wins, so only "
                                   "its effect on scores is shown."))
    for slug, title, column, separator in FAMILIES:
        if not any(c == column or c.startswith(column) for c in data.games.columns):
            continue
        counts = component_counts(data.finished, column, separator)
        section.blocks += _family(data, slug, title, counts)
    return section
