"""The experience metrics of each game and of a run, computed from the run's tables alone.

Every metric is defined, with its formula and its source, in ``docs/experience.md``. The
functions of the first part take one game's series as matrices (one row per point of the game,
one column per seat) and the winners, so that each can be checked on a constructed game; the
second part cuts a run's ``trajectories`` and ``choices`` tables into those series, game by
game (``per_game``), and sums them up per player count (``per_run``) and per decision kind
(``per_kind``).

Three series are read from a game's trajectory:

- the **standing** (``standing``: each seat's VP had the game ended at that point) at the
  points where it was recorded: after every round, and after every turn in ``value`` mode.
  Who leads, by how much and since when are read on it, since half the final score comes from
  the end-game categories, which the score track does not show;
- the **score track** (``vp``: the in-game categories) after every turn, then the final total:
  the lead as the players see it on the board;
- the **win probabilities** (``p_win``), where an estimator gave them (``zsim.experience.
  winprob``): after every round, or every turn in ``value`` mode. The final point holds the
  outcome (each winner's share of the win).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np
import pandas as pd

from zsim.stats import bootstrap_interval

STAGES = {"turn": 0, "round": 1, "final": 2}  # the order of the points of one turn
DECIDED = 0.9  # a game is decided once its winners' estimated chance stays above this
COMEBACK_ROUND = 3  # a comeback: won by a player who was last after this round
NAN = math.nan

@dataclass(frozen=True)
class Metric:
    """What one per-game metric measures, its unit, and how a paired difference in it is said:
    ``sentence`` has ``{amount}`` (the difference with its unit) and ``{direction}`` (``up``
    for a rise, ``down`` for a fall)."""

    description: str
    unit: str
    up: str
    down: str
    sentence: str


_SHARE = "percentage points"
#: The metrics of one game (``per_game`` columns); docs/experience.md defines each.
METRICS: dict[str, Metric] = {
    "rounds": Metric("rounds played", "rounds", "longer", "shorter",
                     "games last {amount} {direction}"),
    "turns": Metric("turns played", "turns", "longer", "shorter",
                    "games last {amount} {direction}"),
    "decisions": Metric("questions asked (two options or more)", "questions", "more", "fewer",
                        "a game asks {amount} {direction}"),
    "branching": Metric("options per question asked", "options", "more", "fewer",
                        "a question offers {amount} {direction}"),
    "real_choice": Metric("share of questions with more than one option", _SHARE, "higher",
                          "lower", "the share of questions with a real choice is {amount} "
                          "{direction}"),
    "lead_changes": Metric("changes of the sole leader in standing", "times", "more", "fewer",
                           "the lead in standing changes hands {amount} {direction} per game"),
    "track_lead_changes": Metric("changes of the sole leader on the score track", "times",
                                 "more", "fewer", "the lead on the score track changes hands "
                                 "{amount} {direction} per game"),
    "drama": Metric("largest deficit of the eventual winner in standing", "VP", "more", "less",
                    "the eventual winner trails by {amount} {direction} at worst"),
    "trailed": Metric("share of points with the eventual winner behind in standing", _SHARE,
                      "more", "less", "the eventual winner is behind {amount} {direction} "
                      "of the time"),
    "decided_turn": Metric("turn after which the eventual winner leads in standing for good",
                           "turns", "later", "earlier", "games are decided {amount} "
                           "{direction}"),
    "decided_round": Metric("round after which the eventual winner leads in standing for "
                            "good", "rounds", "later", "earlier",
                            "games are decided {amount} {direction}"),
    "p_decided_turn": Metric(f"turn after which the winner's win probability stays above "
                             f"{DECIDED}", "turns", "later", "earlier",
                             "the winner is clear {amount} {direction}"),
    "p_decided_round": Metric(f"round after which the winner's win probability stays above "
                              f"{DECIDED}", "rounds", "later", "earlier",
                              "the winner is clear {amount} {direction}"),
    "p_drama": Metric("largest gap between the favourite's and the eventual winner's win "
                      "probability", _SHARE, "wider", "narrower",
                      "the eventual winner's chance trails the favourite's by {amount} "
                      "{direction} at worst"),
    "threshold": Metric("highest win probability of a player who did not win", _SHARE,
                        "higher", "lower", "the best chance a loser ever had is {amount} "
                        "{direction}"),
    "uncertainty": Metric("mean normalised entropy of the win probabilities", _SHARE,
                          "higher", "lower", "the outcome's uncertainty is {amount} "
                          "{direction}"),
    "stability": Metric("sum over seats of the variance of their win probability",
                        "variance", "higher", "lower",
                        "the win probabilities' variance is {amount} {direction}"),
    "clarity_gap": Metric("mean gap between the best and second-best option of a turn, as "
                          "the bots value them", "VP", "wider", "narrower",
                          "the best option of a turn stands out by {amount} {direction}"),
    "clarity_narrow": Metric("mean share of a turn's options valued near the best", _SHARE,
                             "higher", "lower", "the share of a turn's options near the best "
                             "is {amount} {direction}"),
    "comeback": Metric(f"won by a player last in standing after round {COMEBACK_ROUND}",
                       _SHARE, "more often", "less often",
                       "games are won from last place {amount} {direction}"),
    "first_player_won": Metric("win share of the first player", _SHARE, "higher", "lower",
                               "the first player's win share is {amount} {direction}"),
}


# --- one game's series -----------------------------------------------------------------------

def sole_leaders(scores: np.ndarray) -> list[int]:
    """At each point, the seat strictly ahead of all others, or -1 where the lead is shared."""
    leaders = []
    for row in np.asarray(scores, dtype=float):
        top = np.flatnonzero(row == row.max())
        leaders.append(int(top[0]) if top.size == 1 else -1)
    return leaders


def lead_changes(scores: np.ndarray) -> int:
    """How often the sole leader changes: the lead passing from one seat to another. A lead
    shared by several seats changes nothing, so a tie at the start and ties along the way are
    not counted; the first sole leader is not a change."""
    current, changes = -1, 0
    for leader in sole_leaders(scores):
        if leader < 0:
            continue
        if current >= 0 and leader != current:
            changes += 1
        current = leader
    return changes


def winners_ahead(scores: np.ndarray, winners: np.ndarray) -> np.ndarray:
    """At each point, whether every eventual winner is strictly ahead of every other seat."""
    scores = np.asarray(scores, dtype=float)
    if winners.all():
        return np.ones(len(scores), dtype=bool)
    return scores[:, winners].min(axis=1) > scores[:, ~winners].max(axis=1)


def for_good(flags: np.ndarray) -> int | None:
    """The first point from which ``flags`` holds at every later point, or None."""
    flags = np.asarray(flags, dtype=bool)
    if flags.size == 0 or not flags[-1]:
        return None
    failing = np.flatnonzero(~flags)
    return int(failing[-1]) + 1 if failing.size else 0


def winner_deficit(scores: np.ndarray, winners: np.ndarray) -> np.ndarray:
    """At each point, how far the eventual winners (their mean) were behind the leader."""
    scores = np.asarray(scores, dtype=float)
    return scores.max(axis=1) - scores[:, winners].mean(axis=1)


def entropy(p: np.ndarray) -> np.ndarray:
    """At each point, the entropy of the win probabilities over the seats, divided by its
    largest value (log of the number of seats): 1 when every seat is equally likely to win, 0
    when one is sure to."""
    p = np.clip(np.asarray(p, dtype=float), 0.0, 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(p > 0, -p * np.log(p), 0.0)
    return terms.sum(axis=1) / math.log(p.shape[1])


def stability(p: np.ndarray) -> float:
    """Ludii's stability: the sum over seats of the variance of each seat's win probability
    over the points (0 when no estimate ever moves)."""
    return float(np.asarray(p, dtype=float).var(axis=0).sum())


# --- a run's tables, game by game ------------------------------------------------------------

def _ordered(trajectories: pd.DataFrame) -> pd.DataFrame:
    """The trajectory rows in time order within each game (a turn, then its round's end, then
    the final scoring)."""
    order = trajectories["stage"].map(STAGES)
    return trajectories.assign(_order=order).sort_values(
        ["run_id", "game", "turn", "_order", "seat"], kind="stable")


def _matrix(points: pd.DataFrame, column: str, seats: int) -> tuple[np.ndarray, pd.DataFrame]:
    """``column`` as one row per point and one column per seat, and each point's first row."""
    values = points[column].to_numpy(dtype=float).reshape(-1, seats)
    return values, points.iloc[::seats]


def game_metrics(points: pd.DataFrame) -> dict[str, float]:
    """The trajectory metrics of one game from its trajectory rows (``trajectories`` table
    columns; every point holds a row per seat)."""
    points = _ordered(points)
    seats = int(points["seat"].nunique())
    final = points[points["stage"] == "final"]
    row: dict[str, float] = {
        "rounds": float(points["round"].max()), "turns": float(points["turn"].max())}
    keys = ("lead_changes", "track_lead_changes", "drama", "trailed", "decided_turn",
            "decided_round", "p_decided_turn", "p_decided_round", "p_drama", "threshold",
            "uncertainty", "stability", "comeback")
    row.update(dict.fromkeys(keys, NAN))
    if len(final) != seats:
        return row
    totals = final.sort_values("seat")["vp"].to_numpy(dtype=float)
    winners = totals == totals.max()
    track = points[points["stage"] != "round"]
    vp, _ = _matrix(track, "vp", seats)
    row["track_lead_changes"] = float(lead_changes(vp))
    last_turn = points["turn"].max()
    standing_rows = points[points["standing"].notna()]
    if len(standing_rows) and len(standing_rows) % seats == 0:
        standing, at = _matrix(standing_rows, "standing", seats)
        row["lead_changes"] = float(lead_changes(standing))
        deficit = winner_deficit(standing, winners)
        row["drama"] = float(deficit.max())
        open_ = ~_settled(at, last_turn)
        row["trailed"] = float((deficit[open_] > 0).mean()) if open_.any() else 0.0
        decided = for_good(winners_ahead(standing, winners))
        if decided is not None:
            row["decided_turn"] = float(at["turn"].iloc[decided])
            row["decided_round"] = float(at["round"].iloc[decided])
        row["comeback"] = _comeback(standing, at, winners)
    chance_rows = points[points["p_win"].notna()]
    if len(chance_rows) > seats and len(chance_rows) % seats == 0:
        p, at = _matrix(chance_rows, "p_win", seats)
        open_ = ~_settled(at, last_turn)
        if open_.any():  # estimates before the outcome is known, not only the outcome
            decided = for_good(p[:, winners].sum(axis=1) > DECIDED)
            if decided is not None:
                row["p_decided_turn"] = float(at["turn"].iloc[decided])
                row["p_decided_round"] = float(at["round"].iloc[decided])
            row["p_drama"] = float(winner_deficit(p, winners).max())
            row["threshold"] = float(p[open_][:, ~winners].max()) if (~winners).any() else NAN
            row["uncertainty"] = float(entropy(p[open_]).mean())
            row["stability"] = stability(p[open_])
    return row


def _settled(at: pd.DataFrame, last_turn: int) -> np.ndarray:
    """Which points come once the outcome is known: the last round's end (its standing is the
    final score) and the final scoring."""
    return ((at["stage"].to_numpy() != "turn") & (at["turn"].to_numpy() == last_turn))


def _comeback(standing: np.ndarray, at: pd.DataFrame, winners: np.ndarray) -> float:
    """1 when an eventual winner was last (alone or tied) in standing after round
    ``COMEBACK_ROUND``, 0 when none was, NaN when that round's end was not recorded."""
    ends = np.flatnonzero((at["stage"].to_numpy() == "round")
                          & (at["round"].to_numpy() == COMEBACK_ROUND))
    if not ends.size:
        return NAN
    then = standing[ends[0]]
    return float((then[winners] == then.min()).any())


def choice_metrics(choices: pd.DataFrame) -> pd.DataFrame:
    """Per game, from its ``choices`` rows: the questions asked and those with one option
    only, the options per question, and the clarity of the turn questions as the bots valued
    them."""
    keys = ["run_id", "game"]
    sums = choices.groupby(keys)[["asked", "forced", "options"]].sum()
    turns = choices[choices["kind"] == "turn"].groupby(keys)[["valued", "gap", "narrow"]].sum()
    frame = pd.DataFrame({
        "decisions": sums["asked"],
        "forced": sums["forced"],
        "branching": sums["options"] / sums["asked"].where(sums["asked"] > 0),
        "real_choice": sums["asked"] / (sums["asked"] + sums["forced"]).where(
            sums["asked"] + sums["forced"] > 0),
    })
    valued = turns["valued"].where(turns["valued"] > 0)
    frame["clarity_gap"] = (turns["gap"] / valued).reindex(frame.index)
    frame["clarity_narrow"] = (turns["narrow"] / valued).reindex(frame.index)
    return frame.reset_index()


def first_player_share(players: pd.DataFrame) -> pd.DataFrame:
    """Per game, the win share of the player first in the first round's turn order (the
    players table's ``first_player``), or nothing when the runs do not record it."""
    if "first_player" not in players.columns:
        return pd.DataFrame(columns=["run_id", "game", "first_player_won"])
    first = players[players["seat"] == players["first_player"]]
    return first[["run_id", "game"]].assign(first_player_won=first["win_share"].to_numpy())


def per_game(trajectories: pd.DataFrame, choices: pd.DataFrame | None = None,
             players: pd.DataFrame | None = None) -> pd.DataFrame:
    """One row per game: its player count and every metric of ``METRICS`` it has data for
    (NaN where a series was not recorded)."""
    rows = []
    for (run_id, game), points in _ordered(trajectories).groupby(["run_id", "game"],
                                                                  sort=False):
        row = {"run_id": run_id, "game": int(cast(int, game)),
               "n_players": int(points["n_players"].iloc[0])}
        row.update(game_metrics(points))
        rows.append(row)
    frame = pd.DataFrame(rows, columns=["run_id", "game", "n_players", "rounds", "turns",
                                        *(k for k in METRICS if k not in (
                                            "rounds", "turns", "decisions", "branching",
                                            "real_choice", "clarity_gap", "clarity_narrow",
                                            "first_player_won"))])
    keys = ["run_id", "game"]
    extra = [choice_metrics(choices)] if choices is not None and len(choices) else []
    if players is not None and len(players):
        extra.append(first_player_share(players))
    for table in extra:
        frame = frame.merge(table, on=keys, how="left")
    for metric in METRICS:
        if metric not in frame.columns:
            frame[metric] = NAN
    return frame[[*keys, "n_players", *METRICS]].sort_values(keys, ignore_index=True)


ALL = "all"  # the player-count label of the rows that pool every player count


def per_run(games: pd.DataFrame, metrics: Sequence[str] = tuple(METRICS)) -> pd.DataFrame:
    """Per player count (and ``all`` counts pooled when there are several) and metric: the mean
    over the games, its 95% bootstrap interval, the median and the games it covers."""
    groups = [(str(n), rows) for n, rows in games.groupby("n_players")]
    if len(groups) > 1:
        groups.append((ALL, games))
    out = []
    for label, rows in groups:
        for metric in metrics:
            values = rows[metric].to_numpy(dtype=float)
            values = values[~np.isnan(values)]
            low, high = bootstrap_interval(values)
            out.append({"n_players": label, "metric": metric, "games": int(values.size),
                        "mean": float(values.mean()) if values.size else NAN,
                        "low": low, "high": high,
                        "median": float(np.median(values)) if values.size else NAN})
    return pd.DataFrame(out, columns=["n_players", "metric", "games", "mean", "low", "high",
                                      "median"])


def per_kind(choices: pd.DataFrame) -> pd.DataFrame:
    """Per player count and decision kind: questions asked and forced, the branching factor
    (options per question asked), the share of questions with a real choice, and the bots'
    clarity (mean best-minus-second gap and share of options near the best, over the
    questions they valued)."""
    sums = choices.groupby(["n_players", "kind"])[
        ["asked", "forced", "options", "valued", "gap", "narrow", "spread"]].sum()
    games = choices.groupby("n_players")["game"].nunique()
    asked = sums["asked"].where(sums["asked"] > 0)
    valued = sums["valued"].where(sums["valued"] > 0)
    table = pd.DataFrame({
        "asked": sums["asked"], "forced": sums["forced"],
        "per_game": (sums["asked"] + sums["forced"]) / games.reindex(
            sums.index.get_level_values("n_players")).to_numpy(),
        "branching": sums["options"] / asked,
        "real_choice": sums["asked"] / (sums["asked"] + sums["forced"]),
        "valued": sums["valued"], "clarity_gap": sums["gap"] / valued,
        "clarity_narrow": sums["narrow"] / valued, "clarity_spread": sums["spread"] / valued,
    })
    return table.reset_index().sort_values(["n_players", "per_game"],
                                           ascending=[True, False], ignore_index=True)
