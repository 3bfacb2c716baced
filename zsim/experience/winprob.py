"""Each seat's chance to win, estimated at every recorded point of a game.

Two kinds of estimator can fill a trajectory's ``p_win``:

- a **position estimator** (``zsim.experience.record.PositionEstimator``): a function of the game
  at a point, returning each seat's chance to win from there, called by the recorder while the
  game is played (a learned value model is one);
- a **trajectory estimator** (``WinEstimator`` below): fitted on the run's own trajectories and
  applied to them once the run's tables are written. It sees only what the table holds at each
  point (each seat's standing, the turn, the player count), so any such estimator can be
  refitted and checked by hand from the Parquet file.

The one shipped is ``MarginModel``: a conditional logit of who wins on each seat's standing
margin, growing sharper as the game goes on, fitted per player count with two-fold
cross-fitting (each game's estimates come from the model fitted on the other half of the
games). It knows the score and the time left, nothing of the position behind the score: an
honest baseline, not a judgement of the position. Its fit and calibration are in the report.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Protocol, cast

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import scipy.optimize
import scipy.special

TRAJECTORIES = "trajectories.parquet"
METADATA_KEY = b"zsim.p_win"  # the Parquet file's note of the estimator that filled p_win
MIN_GAMES = 20  # games per fold, per player count, below which no model is fitted
SCALE = 10.0  # VP per unit of the margin feature (keeps the coefficients near 1)


class WinEstimator(Protocol):
    """An estimate of every seat's chance to win at every point of a trajectory table.

    ``fit`` learns from trajectories whose games are over (their final points hold the
    outcome); ``predict`` returns, for each row of ``points`` (every seat of a point present),
    that seat's chance to win, summing to 1 over the seats of the point, or NaN where it cannot
    say. ``name`` says in a few words what the estimate is made of.
    """

    name: str

    def fit(self, trajectories: pd.DataFrame) -> WinEstimator: ...

    def predict(self, points: pd.DataFrame) -> np.ndarray: ...


def _progress(trajectories: pd.DataFrame) -> pd.Series:
    """Share of the game's turns played at each row (the game's last turn from its rows: the
    final point's)."""
    last = trajectories.groupby(["run_id", "game"])["turn"].transform("max")
    return trajectories["turn"] / last.where(last > 0, 1)


def features(points: pd.DataFrame) -> tuple[np.ndarray, int]:
    """The margin features of points with a standing, as (points, seats, 3): each seat's
    standing over the point's mean, in tens of VP, times 1, the share of the game played and
    its square. Rows must come in whole points, seats in order, with their ``progress``
    (``_estimable``)."""
    seats = int(points["n_players"].iloc[0])
    standing = points["standing"].to_numpy(dtype=float).reshape(-1, seats)
    margin = (standing - standing.mean(axis=1, keepdims=True)) / SCALE
    progress = points["progress"].to_numpy(dtype=float).reshape(-1, seats)[:, :1]
    return np.stack([margin, margin * progress, margin * progress ** 2], axis=2), seats


def _outcomes(points: pd.DataFrame, trajectories: pd.DataFrame) -> np.ndarray:
    """Each row's seat's final share of the win (the final point's ``p_win``)."""
    final = trajectories[trajectories["stage"] == "final"].set_index(
        ["run_id", "game", "seat"])["p_win"]
    keys = pd.MultiIndex.from_frame(points[["run_id", "game", "seat"]])
    return final.reindex(keys).to_numpy(dtype=float)


def _estimable(trajectories: pd.DataFrame) -> pd.DataFrame:
    """The rows an estimate is made for: every point with a standing before the last round's
    rewards are over (from then on the standing is the final score), in order (game, point,
    seat)."""
    keep = trajectories["standing"].notna() & ~_settled(trajectories)
    rows = trajectories[keep].assign(progress=_progress(trajectories)[keep])
    order = rows["stage"].map({"turn": 0, "round": 1})
    return rows.assign(_order=order).sort_values(
        ["run_id", "game", "turn", "_order", "seat"], kind="stable").drop(columns="_order")


def _settled(trajectories: pd.DataFrame) -> pd.Series:
    """The rows of the points whose standing is the final score: the last round's end and the
    final scoring. Their chance to win is the outcome itself."""
    last = trajectories.groupby(["run_id", "game"])["turn"].transform("max")
    return (trajectories["stage"] != "turn") & (trajectories["turn"] == last)


class MarginModel:
    """Conditional logit of the winner on standing margins: a seat's chance to win a point is
    ``softmax over the seats of (b0 + b1 t + b2 t^2) * margin`` with ``margin`` its standing
    minus the point's mean (in tens of VP) and ``t`` the share of the game played. Fitted by
    maximum likelihood on the final win shares (a shared win counts for each winner), per
    player count."""

    name = ("margin model: a conditional logit of the final win on the standing margin and the "
            "share of the game played, fitted per player count on this run's games")

    def __init__(self) -> None:
        self.coefficients: dict[int, np.ndarray] = {}

    def fit(self, trajectories: pd.DataFrame) -> MarginModel:
        rows = _estimable(trajectories)
        for seats, points in rows.groupby("n_players"):
            if len(points[["run_id", "game"]].drop_duplicates()) < MIN_GAMES:
                continue
            x, _ = features(points)
            y = _outcomes(points, trajectories).reshape(x.shape[:2])
            keep = ~np.isnan(y).any(axis=1)
            self.coefficients[int(cast(int, seats))] = _fit(x[keep], y[keep])
        return self

    def predict(self, points: pd.DataFrame) -> np.ndarray:
        """Chances for rows in whole points, seats in order (``_estimable`` order)."""
        out = np.full(len(points), math.nan)
        for seats, rows in points.groupby("n_players", sort=False):
            beta = self.coefficients.get(int(cast(int, seats)))
            if beta is None:
                continue
            x, _ = features(rows)
            chances = scipy.special.softmax(x @ beta, axis=1)
            out[points.index.get_indexer(rows.index)] = chances.ravel()
        return out


def _fit(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Maximum-likelihood coefficients of the conditional logit (points, seats, features),
    with a faint ridge so that a run whose leader always wins still gives finite ones."""
    ridge = 1e-3

    def loss(beta: np.ndarray) -> tuple[float, np.ndarray]:
        utility = x @ beta
        log_p = utility - scipy.special.logsumexp(utility, axis=1, keepdims=True)
        p = np.exp(log_p)
        weight = y.sum(axis=1, keepdims=True)
        value = -(y * log_p).sum() + ridge * beta @ beta
        gradient = -np.einsum("ks,ksd->d", y - p * weight, x) + 2 * ridge * beta
        return float(value), gradient

    start = np.zeros(x.shape[2])
    return scipy.optimize.minimize(loss, start, jac=True, method="BFGS").x


def folds(trajectories: pd.DataFrame) -> pd.Series:
    """Each row's fold, 0 or 1: a game's rank among the games of its run and player count,
    odd or even (player counts alternate game by game, so the index alone would split them)."""
    games = trajectories[["run_id", "game", "n_players"]].drop_duplicates()
    rank = games.groupby(["run_id", "n_players"])["game"].rank(method="first").astype(int)
    fold = pd.Series((rank % 2).to_numpy(), index=pd.MultiIndex.from_frame(games[["run_id",
                                                                                  "game"]]))
    keys = pd.MultiIndex.from_frame(trajectories[["run_id", "game"]])
    return pd.Series(fold.reindex(keys).to_numpy(), index=trajectories.index)


def cross_fitted(trajectories: pd.DataFrame, estimator: type[MarginModel] = MarginModel
                 ) -> pd.Series:
    """``p_win`` for every row of ``trajectories`` with a standing before the final point,
    each game's from a model fitted on the games of the other fold (``folds``), so that no
    estimate has seen its own game's outcome; indexed like the rows."""
    rows = _estimable(trajectories)
    fold_of = folds(trajectories)
    estimates = pd.Series(math.nan, index=rows.index)
    for fold in (0, 1):
        model = estimator().fit(trajectories[fold_of != fold])
        test = rows[fold_of.loc[rows.index] == fold]
        if len(test):
            estimates.loc[test.index] = model.predict(test)
    return estimates


def fill(trajectories: pd.DataFrame) -> pd.DataFrame:
    """The trajectories with ``p_win`` estimated where it is missing and a standing is known
    (a position estimator's values, already there, are kept); at the end of the last round,
    where the standing is the final score, ``p_win`` is the outcome."""
    filled = trajectories.copy()
    settled = _settled(filled) & filled["p_win"].isna()
    filled.loc[settled, "p_win"] = _outcomes(filled[settled], trajectories)
    estimates = cross_fitted(trajectories)
    missing = filled["p_win"].isna().reindex(estimates.index).to_numpy()
    filled.loc[estimates.index[missing], "p_win"] = estimates[missing]
    return filled


def refit(trajectories: pd.DataFrame) -> pd.DataFrame:
    """The trajectories with every estimate before the last round's end made again (``fill``
    on these rows alone): for runs whose ``p_win`` the margin model estimated, refitted on
    them all together."""
    cleared = trajectories.copy()
    cleared.loc[~_settled(cleared) & (cleared["stage"] != "final"), "p_win"] = math.nan
    return fill(cleared)


def fill_run(out: Path, given_by: str | None = None) -> None:
    """Estimate the missing ``p_win`` of a run's trajectories file and write it back in place
    (under a temporary name first), noting the estimators in the file's metadata: ``given_by``
    names the position estimator whose values the recorder wrote, if any (with the player
    counts it covered). Only the rows with a standing are read into pandas: in ``vp`` mode, a
    twentieth of the file."""
    path = out / TRAJECTORIES
    table = pq.read_table(path)
    if not table.num_rows:
        return
    known = np.flatnonzero(pc.is_valid(table["standing"]).to_numpy(zero_copy_only=False))
    rows = table.take(known).to_pandas()
    given = sorted(rows.loc[rows["p_win"].notna() & (rows["stage"] == "turn"),
                            "n_players"].unique())
    notes = [MarginModel.name]
    if given_by is not None and given:
        notes.insert(0, f"{given_by} ({', '.join(map(str, given))} players)")
    filled = fill(rows)
    chances = table["p_win"].to_numpy(zero_copy_only=False).astype(float)
    chances[known] = filled["p_win"].to_numpy(dtype=float)
    column = table.schema.get_field_index("p_win")
    table = table.set_column(column, "p_win", pa.array(chances, from_pandas=True))
    table = table.replace_schema_metadata({**(table.schema.metadata or {}),
                                           METADATA_KEY: "; ".join(notes).encode()})
    temporary = path.with_name(f".{path.name}.tmp")
    try:
        pq.write_table(table, temporary)
        temporary.replace(path)
    finally:
        temporary.unlink(missing_ok=True)


def estimator_note(path: Path) -> str | None:
    """What filled a trajectories file's ``p_win`` (its metadata), if anything did."""
    metadata = pq.read_schema(path).metadata or {}
    note = metadata.get(METADATA_KEY)
    return note.decode() if note is not None else None


def calibration(trajectories: pd.DataFrame, bins: int = 10) -> pd.DataFrame:
    """How well the estimates match the outcomes: the estimated points (before the last round's
    end, where the outcome is known) cut into ``bins``
    equal ranges of ``p_win``, each with its mean estimate, the share of the win its seats
    actually took, and the rows it holds; plus the Brier score of all estimates as an attribute
    (``frame.attrs["brier"]``)."""
    rows = trajectories[trajectories["p_win"].notna() & ~_settled(trajectories)]
    outcome = _outcomes(rows, trajectories)
    frame = pd.DataFrame({"p_win": rows["p_win"].to_numpy(dtype=float), "won": outcome})
    frame = frame.dropna()
    frame["bin"] = np.minimum((frame["p_win"] * bins).astype(int), bins - 1)
    table = frame.groupby("bin").agg(estimated=("p_win", "mean"), observed=("won", "mean"),
                                     rows=("won", "size")).reset_index()
    table["range"] = [f"{b / bins:.1f}-{(b + 1) / bins:.1f}" for b in table["bin"]]
    table.attrs["brier"] = (float(((frame["p_win"] - frame["won"]) ** 2).mean())
                            if len(frame) else math.nan)
    return table[["range", "estimated", "observed", "rows"]]
