"""Strategy, seat, colour and starting position as effects of one model of winning.

Per player count, ``win_share ~ strategy + seat + colour + position`` is fitted as a logistic
model (a binomial GLM of the win share, so a win shared by k players counts 1/k, as everywhere
in the report) with standard errors clustered by game: the players of one game are not
independent, since one's win is another's loss. Each term is reported as *adjusted win rates*
(predictive margins): the mean predicted win rate had every player had that level, the other
terms as they were, with a delta-method interval; a Wald test per term says whether its levels
differ at all.

A term is only fitted when the data can separate it from the others. It is *refused*, with the
reason, when the design aliases it: a seat that each lineup always fills in the same order
(``zsim.design.seat_aliasing``), a colour or starting position that is a function of the seat,
or any term that adds no rank to the design once the earlier terms are in. A level nobody of it
ever won with (or always won with) would drive the logistic model to infinity; its rows are left
out of the fit and the level is reported as observed, saying so.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from typing import cast

import numpy as np
import pandas as pd
from scipy import stats

from zsim.components.schema import COLOURS
from zsim.design import seat_aliasing

#: The terms in the order they enter the model, with their display names.
TERMS = {"strategy": "strategy", "seat": "seat", "colour": "colour",
         "position": "starting position"}
Z = stats.norm.ppf(0.975)


@dataclass
class SeatModel:
    """The fitted model of one player count: adjusted win rates, tests and refusals."""

    n_players: int
    games: int
    colour_is_seat: bool  # every seat always had the same colour
    effects: pd.DataFrame  # term, level, adjusted, low, high, observed, player_games, fitted
    tests: dict[str, float] = field(default_factory=dict)  # term -> Wald p-value
    refused: dict[str, str] = field(default_factory=dict)  # term -> why it was not fitted

    def term(self, name: str) -> pd.DataFrame:
        return self.effects[self.effects["term"] == name].set_index("level")


def colours(players: pd.DataFrame) -> pd.Series:
    """Each player's colour: the recorded ``colour`` column, or the seat's colour where it is
    missing (runs made before colours were dealt, alone or pooled with newer ones)."""
    by_seat = players["seat"].map(dict(enumerate(COLOURS)))
    if "colour" in players.columns:
        return players["colour"].astype(object).where(players["colour"].notna(), by_seat)
    return by_seat


def _orderings(frame: pd.DataFrame, by: str) -> list[tuple[str, ...]]:
    ordered = frame.sort_values(["game_key", by])
    return [tuple(g) for _, g in ordered.groupby("game_key", sort=False)["strategy"]]


def _is_function_of(frame: pd.DataFrame, column: str, of: str) -> bool:
    return bool((frame.groupby(of)[column].nunique() <= 1).all())


def _refusals(frame: pd.DataFrame) -> tuple[dict[str, str], bool]:
    refused: dict[str, str] = {}
    if frame["strategy"].nunique() < 2:
        refused["strategy"] = "one strategy in every seat: there is nothing to compare"
    if (why := seat_aliasing(_orderings(frame, "seat"))) is not None:
        refused["seat"] = why
    colour_is_seat = _is_function_of(frame, "colour", "seat")
    if colour_is_seat:
        refused["colour"] = ("every seat had the same colour in every game, so colour and seat "
                             "are one effect (shown as the seat, labelled by its colour)")
    elif (why := seat_aliasing(_orderings(frame, "colour_index"))) is not None:
        refused["colour"] = why.replace("seat order", "colour order")
    if "position" not in frame.columns:
        refused["position"] = "the runs do not record the first player"
    elif _is_function_of(frame, "position", "seat"):
        refused["position"] = ("the first player was the same seat in every game, so the "
                               "starting position is the seat")
    return refused, colour_is_seat


def _dummies(frame: pd.DataFrame, term: str, levels: list) -> pd.DataFrame:
    values = frame[term]
    return pd.DataFrame({f"{term}={level}": (values == level).astype(float)
                         for level in levels[1:]}, index=frame.index)


def _design(frame: pd.DataFrame, terms: dict[str, list]) -> pd.DataFrame:
    parts = [pd.DataFrame({"const": 1.0}, index=frame.index)]
    parts += [_dummies(frame, term, levels) for term, levels in terms.items()]
    return pd.concat(parts, axis=1)


def fit_seat_model(players: pd.DataFrame) -> SeatModel:
    """Fit the model to the player rows of one player count (finished games only).

    ``players`` needs ``game_key``, ``n_players``, ``seat``, ``strategy`` and ``win_share``;
    ``colour`` and ``position`` are used when present.
    """
    from statsmodels.genmod.families import Binomial
    from statsmodels.genmod.generalized_linear_model import GLM

    n = int(players["n_players"].iloc[0])
    frame = players.assign(colour=colours(players))
    frame["colour_index"] = frame["colour"].map({c: i for i, c in enumerate(COLOURS)})
    refused, colour_is_seat = _refusals(frame)
    candidates = [t for t in TERMS if t not in refused and t in frame.columns]
    observed = _observed(frame, [t for t in TERMS if t in frame.columns])
    games = int(frame["game_key"].nunique())
    # Levels that never (or always) won: left out of the fit, reported as observed.
    degenerate = observed[(observed["observed"] <= 0) | (observed["observed"] >= 1)]
    degenerate = degenerate[degenerate["term"].isin(candidates)]
    fitted = frame
    for term, level in zip(degenerate["term"], degenerate["level"], strict=True):
        fitted = fitted[fitted[term] != level]
    model = SeatModel(n, games, colour_is_seat, observed.assign(
        adjusted=math.nan, low=math.nan, high=math.nan, fitted=False), refused=refused)
    if fitted.empty or fitted["win_share"].sum() <= 0:
        for term in candidates:
            refused.setdefault(term, "no wins left to model")
        return model
    terms: dict[str, list] = {}
    for term in candidates:
        levels = sorted(fitted[term].unique())
        if len(levels) < 2:
            refused[term] = "only one level left to compare"
            continue
        trial = {**terms, term: levels}
        before = np.linalg.matrix_rank(_design(fitted, terms).to_numpy())
        if np.linalg.matrix_rank(_design(fitted, trial).to_numpy()) - before < len(levels) - 1:
            refused[term] = (f"aliased with {', '.join(TERMS[t] for t in terms)}: the design "
                             "cannot tell them apart")
            continue
        terms[term] = levels
    if not terms:
        return model
    x = _design(fitted, terms)
    groups = pd.factorize(fitted["game_key"])[0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # fractional (shared-win) responses are intended
        fit = GLM(fitted["win_share"].to_numpy(float), x.to_numpy(),
                  family=Binomial()).fit(cov_type="cluster", cov_kwds={"groups": groups})
    params, cov = np.asarray(fit.params), np.asarray(fit.cov_params())
    rows = model.effects.set_index(["term", "level"])
    for term, levels in terms.items():
        # the design's columns are unique: each name is at one position
        columns = [cast("int", x.columns.get_loc(c))
                   for c in _dummies(fitted.head(0), term, levels)]
        if not np.isfinite(cov[np.ix_(columns, columns)]).all():
            # Clustered errors need more games than the model has parameters.
            refused[term] = f"too few games ({games}) to estimate its effect"
            continue
        restriction = np.zeros((len(columns), len(params)))
        restriction[np.arange(len(columns)), columns] = 1
        model.tests[term] = float(fit.wald_test(restriction, scalar=True).pvalue)
        for level in levels:
            margin, low, high = _margin(x, term, levels, level, params, cov)
            rows.loc[(term, level), ["adjusted", "low", "high", "fitted"]] = (
                margin, low, high, True)
    model.effects = rows.reset_index()
    return model


def _margin(x: pd.DataFrame, term: str, levels: list, level: object, params: np.ndarray,
            cov: np.ndarray) -> tuple[float, float, float]:
    """Mean predicted win rate with ``term`` set to ``level`` for everyone, and its delta-method
    interval (clipped to [0, 1])."""
    counterfactual = x.copy()
    for other in levels[1:]:
        counterfactual[f"{term}={other}"] = float(other == level)
    design = counterfactual.to_numpy()
    p = 1 / (1 + np.exp(-design @ params))
    margin = float(p.mean())
    gradient = (p * (1 - p)) @ design / len(p)
    se = float(np.sqrt(gradient @ cov @ gradient))
    return margin, max(0.0, margin - Z * se), min(1.0, margin + Z * se)


def _observed(frame: pd.DataFrame, terms: list[str]) -> pd.DataFrame:
    parts = []
    for term in terms:
        grouped = frame.groupby(term)["win_share"]
        parts.append(pd.DataFrame({"term": term, "level": grouped.mean().index,
                                   "observed": grouped.mean().to_numpy(),
                                   "player_games": grouped.size().to_numpy()}))
    return pd.concat(parts, ignore_index=True)
