"""Every per-game experience metric recomputed from a run's Parquet files with plain pandas.

``zsim.experience.metrics`` walks each game's series point by point with numpy; this module
computes the same definitions (docs/experience.md) the other way, as whole-table pandas
operations (group-wise maxima, pivots, reversed cumulative minima), so that a test can set the
two side by side on a real run.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd

KEYS = ["game", "turn", "order"]  # one point of a game


def _points(t: pd.DataFrame) -> pd.DataFrame:
    t = t.assign(order=t["stage"].map({"turn": 0, "round": 1, "final": 2}))
    final = t[t["stage"] == "final"]
    best = final.groupby("game")["vp"].transform("max")
    won = final.loc[final["vp"] == best, ["game", "seat"]].assign(won=True)
    t = t.merge(won, on=["game", "seat"], how="left")
    t["won"] = t["won"].fillna(False).astype(bool)
    t["settled"] = (t["stage"] != "turn") & (t["turn"] == t.groupby("game")["turn"].transform(
        "max"))
    return t.sort_values([*KEYS, "seat"], ignore_index=True)


def _lead_changes(rows: pd.DataFrame, column: str) -> pd.Series:
    """Changes of the sole leader per game: the leader of each point (ties dropped), compared
    with the previous one."""
    top = rows.groupby(KEYS)[column].transform("max")
    alone = rows[rows[column] == top].groupby(KEYS).filter(lambda g: len(g) == 1)
    leaders = alone.set_index(KEYS)["seat"]
    changed = leaders != leaders.groupby(level="game").shift()
    return (changed.groupby(level="game").sum() - 1).clip(lower=0)


def _first_for_good(flags: pd.Series) -> pd.Series:
    """Per game, the first point from which ``flags`` (indexed by point) holds to the end, or
    none: a reversed cumulative minimum marks the points followed by no failure."""
    reverse = flags[::-1].astype(int).groupby(level="game").cummin()[::-1].astype(bool)
    return reverse[reverse].reset_index().groupby("game").first()


def by_hand(run: Path) -> pd.DataFrame:
    """One row per game of ``run`` with every metric of ``zsim.experience.metrics.METRICS``."""
    t = _points(pd.read_parquet(run / "trajectories.parquet"))
    out = t.groupby("game").agg(n_players=("n_players", "first"), rounds=("round", "max"),
                                turns=("turn", "max"))
    # the choices table: sums per game
    choices = pd.read_parquet(run / "choices.parquet")
    sums = choices.groupby("game")[["asked", "forced", "options"]].sum()
    out["decisions"] = sums["asked"]
    out["branching"] = sums["options"] / sums["asked"]
    out["real_choice"] = sums["asked"] / (sums["asked"] + sums["forced"])
    turns = choices[choices["kind"] == "turn"].groupby("game")[["valued", "gap", "narrow"]].sum()
    out["clarity_gap"] = turns["gap"] / turns["valued"].replace(0, np.nan)
    out["clarity_narrow"] = turns["narrow"] / turns["valued"].replace(0, np.nan)
    # the score track: every point but the rounds' ends
    out["track_lead_changes"] = _lead_changes(t[t["stage"] != "round"], "vp")
    # the standing
    s = t[t["standing"].notna()].copy()
    out["lead_changes"] = _lead_changes(s, "standing")
    out["lead_changes"] = out["lead_changes"].fillna(0)
    point = s.groupby(KEYS).agg(
        top=("standing", "max"), settled=("settled", "first"),
        round=("round", "first"),
        winners=("standing", lambda x: x[s.loc[x.index, "won"]].mean()),
        low_winner=("standing", lambda x: x[s.loc[x.index, "won"]].min()),
        high_other=("standing", lambda x: x[~s.loc[x.index, "won"]].max()))
    deficit = point["top"] - point["winners"]
    out["drama"] = deficit.groupby(level="game").max()
    unsettled = deficit[~point["settled"]]
    out["trailed"] = (unsettled > 0).groupby(level="game").mean().reindex(out.index).fillna(0.0)
    ahead = point["low_winner"] > point["high_other"].fillna(-math.inf)
    decided = _first_for_good(ahead)
    out["decided_turn"] = decided["turn"]
    out["decided_round"] = np.nan
    if len(decided):
        out.loc[decided.index, "decided_round"] = point["round"].reindex(
            pd.MultiIndex.from_frame(decided.reset_index()[KEYS])).to_numpy()
    after3 = s[(s["stage"] == "round") & (s["round"] == 3)]
    lowest = after3.groupby("game")["standing"].transform("min")
    out["comeback"] = ((after3["standing"] == lowest) & after3["won"]).groupby(
        after3["game"]).any().astype(float)
    # the win probabilities
    p = t[t["p_win"].notna()]
    p = p[p.groupby("game")["game"].transform("size") > p["n_players"]]
    p = p[p.groupby("game")["settled"].transform(lambda x: (~x).any())]
    if len(p):
        chance = p.groupby(KEYS).agg(
            top=("p_win", "max"), settled=("settled", "first"), round=("round", "first"),
            winners_sum=("p_win", lambda x: x[p.loc[x.index, "won"]].sum()),
            winners_mean=("p_win", lambda x: x[p.loc[x.index, "won"]].mean()))
        clear = _first_for_good(chance["winners_sum"] > 0.9)
        out["p_decided_turn"] = clear["turn"]
        out["p_decided_round"] = np.nan
        if len(clear):
            out.loc[clear.index, "p_decided_round"] = chance["round"].reindex(
                pd.MultiIndex.from_frame(clear.reset_index()[KEYS])).to_numpy()
        out["p_drama"] = (chance["top"] - chance["winners_mean"]).groupby(level="game").max()
        open_ = p[~p["settled"]]
        out["threshold"] = open_[~open_["won"]].groupby("game")["p_win"].max()
        terms = -open_["p_win"] * np.log(open_["p_win"].where(open_["p_win"] > 0))
        entropy = terms.fillna(0).groupby([open_[k] for k in KEYS]).sum()
        n = open_.groupby(KEYS)["n_players"].first()
        out["uncertainty"] = (entropy / np.log(n)).groupby(level="game").mean()
        out["stability"] = open_.groupby(["game", "seat"])["p_win"].var(ddof=0).groupby(
            level="game").sum()
    players = pd.read_parquet(run / "players.parquet")
    first = players[players["seat"] == players["first_player"]].set_index("game")
    out["first_player_won"] = first["win_share"]
    return out.reset_index()
