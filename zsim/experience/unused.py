"""What the players never do: options never taken and components that never come into use.

Both read the run's tables only: the ``options`` table (how often each kind of option was
offered and chosen, per decision kind) and the setup columns of the games with the ``tiles`` and
``walls`` tables (which tiles were laid out, and which were taken or built on).
"""

from __future__ import annotations

import pandas as pd

MIN_OFFERED = 30  # questions (or games in play) before "never" means something
#: Decision kinds whose options are components: the tile or card an option names.
COMPONENT_KINDS = {"start_tile": "Starting tile", "palace_tile": "Palace tile",
                   "master": "Master Alchemist"}


def option_use(options: pd.DataFrame) -> pd.DataFrame:
    """Per decision kind and kind of option: the questions that offered it, how often it was
    chosen there, and that as a share (``chosen_share``), over the whole run."""
    use = options.groupby(["kind", "option"], as_index=False)[["offered", "chosen"]].sum()
    use["chosen_share"] = use["chosen"] / use["offered"]
    return use.sort_values(["kind", "chosen_share", "offered"], ascending=[True, True, False],
                           ignore_index=True)


def never_taken(options: pd.DataFrame, min_offered: int = MIN_OFFERED) -> pd.DataFrame:
    """The options offered in at least ``min_offered`` questions and never chosen."""
    use = option_use(options)
    return use[(use["chosen"] == 0) & (use["offered"] >= min_offered)].reset_index(drop=True)


#: (kind of component, setup column or prefix naming those in play, separator, how a game's
#: use of one is found: the tiles table's kind, or the walls table)
LAID_OUT = (
    ("Wall tile", "wall_tile_", ",", "walls"),
    ("Governor tile", "governor_tiles_", ",", "governor"),
    ("Emperor tile", "emperor_tile_", ",", "emperor"),
    ("Palace tile", "palace_tiles_", ",", "palace"),
)


def component_use(games: pd.DataFrame, tiles: pd.DataFrame | None,
                  walls: pd.DataFrame | None) -> pd.DataFrame:
    """Per tile laid out on the table: the games it was in play, the games some player took
    it (Palace, Governor and Emperor tiles) or built a Wall on its sections (Wall tiles), and
    that as a share. Games are keyed by ``game_key`` (``zsim.reports.loader``)."""
    from zsim.reports.components import component_counts

    rows = []
    for kind, column, separator, used_by in LAID_OUT:
        if not any(c.startswith(column) for c in games.columns):
            continue
        if used_by == "walls":
            if walls is None:
                continue
            used = walls[["game_key", "tile"]]
        else:
            if tiles is None:
                continue
            used = tiles.loc[tiles["kind"] == used_by, ["game_key", "tile"]]
        in_play = component_counts(games, column, separator) > 0
        taken = used.drop_duplicates()
        for component in in_play.columns:
            games_in = set(in_play.index[in_play[component]])
            games_used = set(taken.loc[taken["tile"] == component, "game_key"]) & games_in
            rows.append({"kind": kind, "component": component, "games_in_play": len(games_in),
                         "games_used": len(games_used)})
    table = pd.DataFrame(rows, columns=["kind", "component", "games_in_play", "games_used"])
    table["used_share"] = table["games_used"] / table["games_in_play"].where(
        table["games_in_play"] > 0)
    return table.sort_values(["kind", "used_share"], ignore_index=True)


def dead_components(games: pd.DataFrame, tiles: pd.DataFrame | None,
                    walls: pd.DataFrame | None, options: pd.DataFrame | None,
                    min_games: int = MIN_OFFERED) -> pd.DataFrame:
    """The components in play in at least ``min_games`` games (or offered in as many
    questions) that nobody ever used: tiles never taken, Wall tiles never built on, and the
    Starting tiles, Palace tiles and Master Alchemists offered in a choice and never chosen."""
    laid = component_use(games, tiles, walls)
    dead = laid[(laid["games_used"] == 0) & (laid["games_in_play"] >= min_games)]
    rows = [dead.rename(columns={"games_in_play": "chances", "games_used": "uses"})
            .assign(measured_in="games")[["kind", "component", "chances", "uses",
                                          "measured_in"]]]
    if options is not None and len(options):
        chosen = never_taken(options[options["kind"].isin(COMPONENT_KINDS)], min_games)
        rows.append(pd.DataFrame({
            "kind": chosen["kind"].map(COMPONENT_KINDS), "component": chosen["option"],
            "chances": chosen["offered"], "uses": chosen["chosen"], "measured_in": "questions"}))
    return pd.concat(rows, ignore_index=True)
