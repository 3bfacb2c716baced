"""Usage next to outcomes: how often each component is used, what a use scores, and how often
it is picked when offered, in one run and base against variant.

A rule change that makes a component stronger shows first in its use ("Walls on wall_palaces
0.42 -> 0.97 a game, VP per Wall 1.9 -> 14.0"), often before any win rate moves; a comparison
that only says "win rates did not move" hides it. Everything is read from a run's own tables:

- Wall tiles (``games.parquet``, ``walls.parquet``): Walls built on the tile's section per game
  it lay on, and VP per Wall;
- tiles taken (``tiles.parquet``): takers per game, by kind and tile;
- Unification rewards (``rewards.parquet``): times taken per game on the reward's board;
- pick rate when offered (``options.parquet``, recorded with trajectories): for Starting tiles,
  Palace tiles, Master Alchemists and the reward's accept/pass, the share of the questions that
  offered the option in which it was chosen (a tile dealt but not kept counts as offered).
"""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd

COLUMNS = ["kind", "component", "games", "uses_per_game", "vp_per_use", "offered", "picked"]
#: The decision kinds whose options are components, for the pick rate when offered.
PICKED = ("start_tile", "palace_tile", "master", "reward")
#: The decision kinds that offer a tile, and the tile's kind in ``tiles.parquet``.
TAKEN = {"start_tile": "starting", "palace_tile": "palace"}
#: A use rate or VP per use that moves by this share or more is listed by ``changes``.
MOVED = 0.2
UNITS = {"wall_tiles": ("Walls on", "VP per Wall"), "tiles": ("takers of", ""),
         "rewards": ("takes of", ""), "offers": ("", "")}


def _read(run: Path, name: str, columns: list[str] | None = None) -> pd.DataFrame | None:
    try:
        return pd.read_parquet(run / f"{name}.parquet", columns=columns)
    except (OSError, ValueError, KeyError):
        return None


def _walls(games: pd.DataFrame, walls: pd.DataFrame | None) -> pd.DataFrame:
    slots = [c for c in games.columns if c.startswith("wall_tile_")]
    if not slots:
        return pd.DataFrame(columns=COLUMNS)
    long = games.melt(id_vars="game", value_vars=slots, var_name="section", value_name="tile")
    long = long[long["tile"].fillna("") != ""]
    long["section"] = long["section"].str.removeprefix("wall_tile_").astype(int) - 1
    built = (walls.groupby(["game", "section"]).agg(walls=("vp", "size"), vp=("vp", "sum"))
             if walls is not None and len(walls) else
             pd.DataFrame(columns=["walls", "vp"]))
    long = long.join(built, on=["game", "section"]).fillna({"walls": 0, "vp": 0})
    rows = long.groupby("tile").agg(games=("game", "nunique"), walls=("walls", "sum"),
                                    vp=("vp", "sum"))
    return pd.DataFrame({"kind": "wall_tiles", "component": rows.index,
                         "games": rows["games"].to_numpy(),
                         "uses_per_game": (rows["walls"] / rows["games"]).to_numpy(),
                         "vp_per_use": (rows["vp"] / rows["walls"].where(rows["walls"] > 0))
                         .to_numpy()})


def _counted(kind: str, frame: pd.DataFrame | None, key: str, games: int,
             per_board: pd.Series | None = None) -> pd.DataFrame:
    if frame is None or frame.empty or key not in frame:
        return pd.DataFrame(columns=COLUMNS)
    counts = frame.groupby(key).size()
    played = (counts.index.map(lambda c: per_board.get(c, games)) if per_board is not None
              else [games] * len(counts))
    return pd.DataFrame({"kind": kind, "component": counts.index, "games": list(played),
                         "uses_per_game": counts.to_numpy() / list(played),
                         "vp_per_use": math.nan})


def _offers(options: pd.DataFrame | None) -> pd.DataFrame:
    if options is None or options.empty:
        return pd.DataFrame(columns=["kind", "component", "offered", "picked"])
    shown = options[options["kind"].isin(PICKED)]
    rows = shown.groupby(["kind", "option"])[["offered", "chosen"]].sum()
    # a tile's offers go on its row of the tiles taken ("starting start_ship_2")
    return pd.DataFrame({"kind": ["tiles" if k in TAKEN else k for k, _ in rows.index],
                         "component": [f"{TAKEN[k]} {o}" if k in TAKEN else o
                                       for k, o in rows.index],
                         "offered": rows["offered"].to_numpy(),
                         "picked": (rows["chosen"] / rows["offered"]).to_numpy()})


def usage(run: Path) -> pd.DataFrame:
    """One run's usage table (``COLUMNS``): per component, the games it could be used in, its
    uses per game, VP per use (Walls), and how often it was picked when offered (when the run
    recorded its options)."""
    games = _read(run, "games")
    if games is None or games.empty:
        return pd.DataFrame(columns=COLUMNS)
    if "failed" in games:
        games = games[~games["failed"].fillna(False).astype(bool)]
    played = int(games["game"].nunique())
    tiles = _read(run, "tiles")
    rewards = _read(run, "rewards")
    boards = None
    if rewards is not None and "unification_board" in games:
        board_of = games.set_index("game")["unification_board"]
        rewards = rewards.assign(board=rewards["game"].map(board_of))
        rewards = rewards.assign(component=rewards["board"] + " " + rewards["reward"])
        on_board = games["unification_board"].value_counts()
        boards = pd.Series({c: int(on_board.get(c.split(" ")[0], played))
                            for c in rewards["component"].unique()})
    if tiles is not None and not tiles.empty:
        tiles = tiles.assign(component=tiles["kind"] + " " + tiles["tile"].astype(str))
    used = pd.concat([frame for frame in (
        _walls(games, _read(run, "walls")),
        _counted("tiles", tiles, "component", played),
        _counted("rewards", rewards, "component", played, boards)) if len(frame)],
        ignore_index=True)
    if used.empty:
        used = pd.DataFrame(columns=COLUMNS[:5])
    offers = _offers(_read(run, "options"))
    table = used.merge(offers, on=["kind", "component"], how="outer") if len(offers) else \
        used.assign(offered=math.nan, picked=math.nan)
    return table[COLUMNS].reset_index(drop=True)


def changes(base: pd.DataFrame, variant: pd.DataFrame, moved: float = MOVED) -> pd.DataFrame:
    """Base against variant, component by component: every column of both, and ``moved``
    when a use rate, VP per use or pick rate changed by ``moved`` (a share) or more."""
    joined = base.merge(variant, on=["kind", "component"], how="outer",
                        suffixes=("_base", "_variant"))
    # a component used on one side only was used 0 times a game on the other (a tile forced
    # in against kept out): the move from 0 is the news
    for side, other in (("base", "variant"), ("variant", "base")):
        unused = joined[f"uses_per_game_{side}"].isna() & joined[f"uses_per_game_{other}"].notna()
        joined.loc[unused, f"uses_per_game_{side}"] = 0.0
    flags = []
    for column in ("uses_per_game", "vp_per_use", "picked"):
        before, after = joined[f"{column}_base"], joined[f"{column}_variant"]
        scale = before.abs().where(before.abs() > 0, after.abs())
        flags.append(((after - before).abs() / scale).fillna(0) >= moved)
    joined["moved"] = pd.concat(flags, axis=1).any(axis=1) if flags else False
    return joined


def change_lines(joined: pd.DataFrame, largest: int = 8) -> list[str]:
    """The components whose use moved most, a line each: ``Walls on wall_palaces 0.42 -> 0.97
    a game, VP per Wall 1.9 -> 14.0``."""
    moved = joined[joined["moved"]].copy()
    if moved.empty:
        return []
    moved["size"] = (moved["uses_per_game_variant"] - moved["uses_per_game_base"]).abs() / \
        moved["uses_per_game_base"].abs().clip(lower=1e-9)
    lines = []
    for _, row in moved.sort_values("size", ascending=False).head(largest).iterrows():
        use, vp = UNITS.get(row["kind"], ("", ""))
        parts = []
        if _finite(row["uses_per_game_base"]) or _finite(row["uses_per_game_variant"]):
            parts.append(f"{use} {row['component']}".strip() + " "
                         f"{_num(row['uses_per_game_base'])} -> "
                         f"{_num(row['uses_per_game_variant'])} a game")
        if vp and (_finite(row["vp_per_use_base"]) or _finite(row["vp_per_use_variant"])):
            parts.append(f"{vp} {_num(row['vp_per_use_base'], 1)} -> "
                         f"{_num(row['vp_per_use_variant'], 1)}")
        if _finite(row["picked_base"]) or _finite(row["picked_variant"]):
            parts.append(f"{row['component'] if not parts else ''} picked when offered "
                         f"{_pct(row['picked_base'])} -> {_pct(row['picked_variant'])}"
                         .strip())
        lines.append(", ".join(parts))
    return lines


def _finite(value: object) -> bool:
    return isinstance(value, (int, float)) and math.isfinite(value)


def _num(value: object, digits: int = 2) -> str:
    return f"{value:.{digits}f}" if _finite(value) else "–"


def _pct(value: object) -> str:
    return f"{value:.0%}" if _finite(value) else "–"
