"""Ratings: one Plackett–Luce strength per strategy, fitted on the finishing orders of games.

A game's ranking is read as a sequence of choices (the exploded logit): first the winner is
picked from all players, then the runner-up from those left, and so on, each player picked
with probability ``exp(r) / sum(exp(r) of those still in)``. Each choice is one group of a
conditional logistic regression (statsmodels' ``ConditionalLogit``), whose parameters are the
ratings ``r`` on the natural-log scale: in a two-player game ``P(A ahead of B) = 1 / (1 +
exp(-(r_A - r_B)))``.

The choice of model settles the awkward cases honestly, with no special code:

- ties: players sharing a rank are picked together, as one set, from those still in; the
  probability of that set is the product of its members' strengths against every other set of
  that size (the exact conditional likelihood for ties). A tie for last carries no choice.
- mirror lineups: a strategy in several seats of one game is one strategy; each of its seats
  is a player of that strength, so a game of greedy, greedy and random compares the two.
  A game with one strategy in every seat compares nothing and is left out.
- degenerate data: every rating gets a weak prior, as if it had won one and lost one game
  against a fixed reference of rating 0 (a standard logistic prior, sd 1.8). Without it a
  strategy that never finished above another would have an infinite rating and the fit no
  covariance; with it every rating is finite, and where the data alone leave a gap unbounded
  the ladder says so. Against hundreds of games its pull is small.

Ratings are reported centred (their mean is 0 in each player count), with 95% Wald intervals
from the model's own covariance (the inverse Hessian at the maximum), transformed to the
centred scale. Player counts are fitted separately: finishing first of four is not winning a
duel. Solo games (against Li Si, who plays by other rules) are left out.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components
from scipy.stats import norm
from statsmodels.discrete.conditional_models import ConditionalLogit

from zsim.design import seat_aliasing
from zsim.errors import UserError

CONFIDENCE = 0.95
SOLO = r"lisi-\d+"  # the solo-mode automaton's strategy names
COLUMNS = ["n_players", "strategy", "rating", "low", "high", "games", "seats", "win_rate",
           "mean_rank"]
GAP_COLUMNS = ["n_players", "higher", "lower", "gap", "low", "high", "p_ahead"]


class RatingError(UserError, ValueError):
    """Games that cannot be rated (fewer than two strategies to compare, no games)."""


@dataclass(frozen=True)
class Ladder:
    """The ratings of one player count, best first, and what a reader must know about them."""

    n_players: int
    table: pd.DataFrame  # COLUMNS, sorted by rating, best first
    gaps: pd.DataFrame  # GAP_COLUMNS: each strategy against the next one down the ladder
    games: int  # games that compared at least two strategies
    tied_games: int  # of those, games with a shared rank
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Ratings:
    """Every player count's ladder, and the counts that could not be rated, with why."""

    ladders: list[Ladder]
    skipped: list[str] = field(default_factory=list)

    @property
    def table(self) -> pd.DataFrame:
        """All ladders in one table (the CSV): one row per player count and strategy."""
        return pd.concat([ladder.table for ladder in self.ladders], ignore_index=True)


def win_probability(gap: float) -> float:
    """P(A finishes ahead of B) in a two-player game, for a rating gap ``r_A - r_B``."""
    return 1 / (1 + math.exp(-gap))


def percent_ahead(p: float) -> str:
    """A probability as a percentage that never rounds a near-certainty to 100%."""
    if p > 0.999:
        return "over 99.9%"
    if p < 0.001:
        return "under 0.1%"
    return f"{p:.0%}" if 0.01 <= p <= 0.99 else f"{p:.1%}"


def rate(players: pd.DataFrame) -> Ratings:
    """Fit a ladder per player count from a players table (one row per player per game, with
    ``game_key``, ``n_players``, ``seat``, ``strategy``, ``rank`` and ``win_share``)."""
    if players.empty:
        raise RatingError("no finished games to rate")
    solo = players.loc[players["strategy"].str.fullmatch(SOLO), "game_key"].unique()
    players = players[~players["game_key"].isin(solo)]
    ladders, skipped = [], []
    for n, rows in players.groupby("n_players"):
        distinct = rows.groupby("game_key")["strategy"].transform("nunique")
        compared = rows[distinct > 1]
        if compared.empty:
            names = ", ".join(sorted(rows["strategy"].unique()))
            skipped.append(f"{n} players: every game has one strategy in every seat ({names}); "
                           "there is nothing to compare")
            continue
        ladders.append(fit_ladder(compared))
    if not ladders:
        if skipped:
            raise RatingError("nothing to rate: " + "; ".join(skipped))
        raise RatingError("no games between strategies to rate (solo games are not rated)")
    return Ratings(ladders, skipped)


def choices(players: pd.DataFrame) -> pd.DataFrame:
    """The exploded ranking: one row per player per choice they were still in for, with
    ``group`` (the choice) and ``chosen`` (1 for those picked at it). The last choice of a
    game, where everyone left is picked, says nothing and is not listed."""
    ranks = players["rank"].to_numpy()
    games = players["game_key"].to_numpy()
    level = pd.Series(ranks).groupby(games).rank(method="dense").astype(int).to_numpy()
    last = pd.Series(level).groupby(games).transform("max").to_numpy()
    stays = np.minimum(level, last - 1)  # a player is in choices 1 .. its own level
    rows = np.repeat(np.arange(len(players)), stays)
    stage = np.arange(len(rows)) - np.repeat(np.cumsum(stays) - stays, stays) + 1
    group = pd.factorize(games[rows].astype(np.int64) * (int(stays.max(initial=0)) + 1)
                         + stage)[0]
    frame = players.iloc[rows][["game_key", "strategy"]].reset_index(drop=True)
    return frame.assign(group=group, stage=stage, chosen=(stage == level[rows]).astype(float))


def fit_ladder(players: pd.DataFrame) -> Ladder:
    """The ladder of one player count's games (each comparing at least two strategies)."""
    n = int(players["n_players"].iloc[0])
    strategies = sorted(players["strategy"].unique())
    k = len(strategies)
    picked = choices(players)
    code = picked["strategy"].map({s: i for i, s in enumerate(strategies)}).to_numpy(dtype=int)
    exog = np.zeros((len(picked), k))
    exog[np.arange(len(picked)), code] = 1.0
    # The prior: per strategy a game won and a game lost against the reference, whose row is
    # all zeros (rating 0): rows strategy, reference, strategy, reference for each.
    prior_exog = np.kron(np.eye(k), np.array([[1.0], [0.0], [1.0], [0.0]]))
    first = int(picked["group"].max()) + 1 if len(picked) else 0
    prior_groups = np.repeat(np.arange(2 * k), 2) + first
    prior_chosen = np.tile([1.0, 0.0, 0.0, 1.0], k)
    endog = np.concatenate([picked["chosen"].to_numpy(), prior_chosen])
    model = ConditionalLogit(endog, np.vstack([exog, prior_exog]),
                             groups=np.concatenate([picked["group"].to_numpy(), prior_groups]))
    result = model.fit(method="newton", maxiter=100, disp=False)
    if not np.all(np.abs(model.score(result.params)) < 1e-3):  # the prior makes it concave
        raise RatingError(f"{n} players: the fit did not converge")
    centre = np.eye(k) - 1.0 / k
    rating = centre @ result.params
    cov = centre @ np.asarray(result.cov_params()) @ centre.T
    se = np.sqrt(np.clip(np.diag(cov), 0, None))
    z = norm.ppf(0.5 + CONFIDENCE / 2)
    summary = players.groupby("strategy").agg(
        games=("game_key", "nunique"), seats=("seat", "size"),
        win_rate=("win_share", "mean"), mean_rank=("rank", "mean")).reindex(strategies)
    table = pd.DataFrame({"n_players": n, "strategy": strategies, "rating": rating,
                          "low": rating - z * se, "high": rating + z * se,
                          **{c: summary[c].to_numpy() for c in summary.columns}})
    table = table.sort_values(["rating", "strategy"], ascending=[False, True],
                              ignore_index=True)[COLUMNS]
    if not np.isfinite(table[["rating", "low", "high"]].to_numpy()).all():
        raise RatingError(f"{n} players: the fit did not give finite ratings")
    tied = int(players.loc[players.duplicated(["game_key", "rank"]), "game_key"].nunique())
    notes = [note for note in (_unbounded(picked, strategies, n), _seat_note(players, n))
             if note]
    gaps = _gaps(table, pd.DataFrame(cov, index=strategies, columns=strategies), z)
    return Ladder(n, table, gaps, int(players["game_key"].nunique()), tied, notes)


def _gaps(table: pd.DataFrame, cov: pd.DataFrame, z: float) -> pd.DataFrame:
    """Each rung of the ladder against the next one down: the gap, its interval (from the
    covariance of the two ratings, so it is narrower than their own intervals suggest when
    they met often) and the chance of finishing ahead in a two-player game it stands for."""
    higher, lower = table["strategy"].iloc[:-1].tolist(), table["strategy"].iloc[1:].tolist()
    rating = table.set_index("strategy")["rating"]
    gap = rating[higher].to_numpy() - rating[lower].to_numpy()
    var = np.array([cov.loc[a, a] + cov.loc[b, b] - 2 * cov.loc[a, b]
                    for a, b in zip(higher, lower, strict=True)])
    se = np.sqrt(np.clip(var, 0, None))
    return pd.DataFrame({"n_players": table["n_players"].iloc[0], "higher": higher,
                         "lower": lower, "gap": gap, "low": gap - z * se, "high": gap + z * se,
                         "p_ahead": [win_probability(g) for g in gap]})[GAP_COLUMNS]


def _unbounded(picked: pd.DataFrame, strategies: list[str], n: int) -> str | None:
    """Why the data alone leave some gap unbounded, or None when they bound them all.

    The maximum-likelihood ratings exist when every strategy finished above every other one
    through some chain of games (the "finished above" graph is strongly connected); otherwise
    the gaps between the graph's parts rest on the prior. The parts are listed best first: no
    strategy of a later part ever finished above one of an earlier part.
    """
    index = {s: i for i, s in enumerate(strategies)}
    chosen = picked[picked["chosen"] == 1][["group", "strategy"]]
    beaten = picked[picked["chosen"] == 0][["group", "strategy"]]
    pairs = chosen.merge(beaten, on="group", suffixes=("_a", "_b"))
    pairs = pairs[pairs["strategy_a"] != pairs["strategy_b"]]
    k = len(strategies)
    graph = coo_matrix((np.ones(len(pairs)), (pairs["strategy_a"].map(index),
                                              pairs["strategy_b"].map(index))), shape=(k, k))
    parts, label = connected_components(graph.tocsr(), directed=True, connection="strong")
    if parts == 1:
        return None
    above = np.zeros((parts, parts), dtype=bool)  # part i finished above part j somewhere
    above[label[pairs["strategy_a"].map(index)], label[pairs["strategy_b"].map(index)]] = True
    np.fill_diagonal(above, False)
    order: list[int] = []
    left = set(range(parts))
    while left:  # topological order: a part no remaining part finished above
        top = min(p for p in left if not any(above[q, p] for q in left if q != p))
        order.append(top)
        left.remove(top)
    groups = [", ".join(s for s in strategies if label[index[s]] == p) for p in order]
    return (f"{n} players: no strategy of a later group ever finished above one of an earlier "
            f"group ({' > '.join(f'[{g}]' for g in groups)}), so the games alone do not bound "
            "the gaps between groups: their size is set by the prior (one win and one loss "
            "against a reference) and the real gap may be larger")


def _seat_note(players: pd.DataFrame, n: int) -> str | None:
    seatings = players.sort_values(["game_key", "seat"]).groupby("game_key")["strategy"].agg(
        tuple)
    why = seat_aliasing(seatings)
    if why is None:
        return None
    return (f"{n} players: {why}; the ratings include whatever advantage their seats gave "
            "(a seat-balanced run, such as `zsim tournament` plays, avoids this)")
