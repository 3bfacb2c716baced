"""Fitting a value model, and judging it on held-out games against a scores-only baseline.

The learners (``LEARNERS``) are scikit-learn's, from the ``[learn]`` extra; each fitted model is
exported to the plain-numpy ``ValueModel`` the bots use. The two targets, the final margin
(scaled to unit variance for the fit, scaled back in the exported output layer) and the win
share, are fitted together by one multi-output model.

Validation, on games none of whose positions were fitted: the Brier score and log-loss of the
win chances (a shared win counts as its share), the calibration (mean predicted chance against
the observed win share in ten bins of the prediction), and the margin's RMSE; the same for the
baseline, a logistic regression that knows only the VP margin on the track and how far the game
is (``margin_now``, ``progress`` and their product), so that what the observation adds is seen.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from zsim.learn.dataset import Positions
from zsim.learn.model import P_FLOOR, ValueModel

LEARNERS = ("mlp", "linear")
STD_FLOOR = 0.1  # the least spread a feature is scaled by
MAX_EPOCHS = 40  # passes over the positions at most (early stopping ends most fits sooner)


def _sklearn() -> Any:
    """scikit-learn, or ``MissingExtra`` naming the ``[learn]`` extra in one line."""
    from zsim.extras import require

    require("learn", "fitting a value model")
    import sklearn.linear_model
    import sklearn.neural_network

    return sklearn


@dataclass
class Fitted:
    model: ValueModel
    seconds: float


def fit(train: Positions, learner: str = "mlp", hidden: tuple[int, ...] = (64,),
        seed: int = 0, meta: dict[str, Any] | None = None,
        ignore: np.ndarray | None = None) -> Fitted:
    """Fit ``learner`` on ``train`` and export it. The inputs flagged in ``ignore`` are
    scaled by zero: the model reads the same vector but gives them no weight."""
    sklearn = _sklearn()
    if learner not in LEARNERS:
        raise ValueError(f"learner {learner!r}: expected one of {', '.join(LEARNERS)}")
    clock = time.process_time()
    x = train.observations
    mean = x.mean(axis=0, dtype=np.float64)
    std = x.std(axis=0, dtype=np.float64)
    # the encoding keeps every value about [0, 1] already; a floor on the spread keeps a rare
    # feature (a tile seen in a handful of games) from being blown up to hundreds
    scale = np.where(std > 0, 1.0 / np.maximum(std, STD_FLOOR), 0.0)
    if ignore is not None:
        scale[ignore] = 0.0
    z = ((x - mean.astype(np.float32)) * scale.astype(np.float32)).astype(np.float32)
    m_mean, m_std = float(train.margin.mean()), float(train.margin.std() or 1.0)
    y = np.column_stack([(train.margin - m_mean) / m_std, train.win]).astype(np.float32)
    if learner == "linear":
        reg = sklearn.linear_model.Ridge(alpha=10.0).fit(z, y)
        weights = [reg.coef_.T.copy()]
        biases = [reg.intercept_.copy()]
    else:
        reg = sklearn.neural_network.MLPRegressor(
            hidden_layer_sizes=hidden, alpha=1e-3, learning_rate_init=1e-3, batch_size=512,
            max_iter=MAX_EPOCHS, early_stopping=True, validation_fraction=0.1,
            n_iter_no_change=4, random_state=seed).fit(z, y)
        weights = [w.copy() for w in reg.coefs_]
        biases = [b.copy() for b in reg.intercepts_]
    weights[-1][:, 0] *= m_std  # the margin back in VP
    biases[-1][0] = biases[-1][0] * m_std + m_mean
    model = ValueModel(
        meta={**(meta or {}), "learner": learner, "hidden": list(hidden) if learner == "mlp"
              else [], "n_players": train.n_players, "width": int(x.shape[1])},
        mean=mean.astype(np.float32), scale=scale.astype(np.float32),
        weights=tuple(w.astype(np.float32) for w in weights),
        biases=tuple(b.astype(np.float32) for b in biases))
    return Fitted(model, time.process_time() - clock)


def baseline(train: Positions) -> Any:
    """The scores-only baseline: a logistic regression of the win share on the track margin,
    the progress of the game and their product (a share fitted as weighted wins and losses)."""
    sklearn = _sklearn()
    x = _baseline_features(train)
    rows = np.concatenate([x, x])
    labels = np.concatenate([np.ones(len(x)), np.zeros(len(x))])
    weights = np.concatenate([train.win, 1.0 - train.win])
    keep = weights > 0
    return sklearn.linear_model.LogisticRegression(C=1.0, max_iter=500).fit(
        rows[keep], labels[keep], sample_weight=weights[keep])


def _baseline_features(p: Positions) -> np.ndarray:
    return np.column_stack([p.margin_now, p.progress, p.margin_now * p.progress])


def scores(p_win: np.ndarray, outcome: np.ndarray) -> dict[str, float]:
    """Brier score and log-loss of win chances against win shares."""
    p = np.clip(p_win, P_FLOOR, 1 - P_FLOOR)
    return {"brier": float(np.mean((p - outcome) ** 2)),
            "log_loss": float(-np.mean(outcome * np.log(p) + (1 - outcome) * np.log(1 - p)))}


def calibration(p_win: np.ndarray, outcome: np.ndarray, bins: int = 10) -> list[dict[str, float]]:
    """Per bin of predicted chance: its positions, mean prediction and observed win share."""
    edges = np.linspace(0, 1, bins + 1)
    where = np.clip(np.digitize(p_win, edges[1:-1]), 0, bins - 1)
    return [{"low": float(edges[b]), "high": float(edges[b + 1]), "positions": int(n),
             "predicted": float(p_win[where == b].mean()),
             "observed": float(outcome[where == b].mean())}
            for b in range(bins) if (n := int((where == b).sum()))]


def validate(model: ValueModel, train: Positions, test: Positions) -> dict[str, Any]:
    """The model and the baseline on the held-out games (see the module docstring)."""
    predicted = model.predict(test.observations)
    base = baseline(train).predict_proba(_baseline_features(test))[:, 1]
    return {
        "games": len(np.unique(test.game)), "positions": len(test),
        "model": {**scores(predicted[:, 1], test.win),
                  "margin_rmse": float(np.sqrt(np.mean((predicted[:, 0] - test.margin) ** 2))),
                  "calibration": calibration(predicted[:, 1], test.win)},
        "baseline": {**scores(base, test.win), "calibration": calibration(base, test.win)},
        "constant": scores(np.full(len(test), train.win.mean()), test.win),
    }


def inference_cost(model: ValueModel, observations: np.ndarray, repeat: int = 2000
                   ) -> dict[str, float]:
    """CPU microseconds per position: one at a time, and in batches of 16 and 256."""
    costs = {}
    rows = observations[:256] if len(observations) >= 256 else np.resize(
        observations, (256, observations.shape[1]))
    for label, batch in (("single", 1), ("batch16", 16), ("batch256", 256)):
        calls = max(1, repeat // batch)
        clock = time.process_time()
        for i in range(calls):
            model.predict(rows[(i * batch) % 256:(i * batch) % 256 + batch])
        costs[label] = (time.process_time() - clock) / (calls * batch) * 1e6
    return costs
