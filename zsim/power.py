"""How many games are enough: games needed to detect a shift, from a run's own variance.

The unit is the game, as in ``zsim.compare``: each strategy's mean win share (or VP) per game.
For a shift of ``delta`` between two batches of games, at significance ``alpha`` and the given
power, a two-sided test of the mean (``zsim.stats.mean_sample_size``, the sizing the
regression gate uses) needs

* unpaired (two independent batches): ``n`` games per batch with effect size ``delta / sd``,
  where ``sd`` is the per-game standard deviation of the run;
* paired (two batches on the same seeds, as ``zsim compare`` and ``zsim effects`` play them):
  ``n`` pairs with effect size ``delta / sd_diff``, where ``sd_diff`` is the standard deviation of
  the game-by-game difference. Only two runs on the same seeds show it (their correlation is
  what pairing gains), so without a second run the paired figures are left empty.

Games count whole games of the run: a strategy that sits in two games of three needs half as
many games again as it needs games of its own.

``statsmodels.stats.power`` solves both.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import cast

import numpy as np
import pandas as pd

from zsim.compare import KEYS, per_game
from zsim.stats import mean_sample_size

ALPHA = 0.05
POWER = 0.8
#: Shifts asked about by default: points of win rate, and VP.
WIN_SHIFTS = (2.0, 5.0)
VP_SHIFTS = (1.0, 3.0)


def _games(delta: float, sd: float, paired: bool, alpha: float, power: float,
           share: float) -> float:
    """Whole games of a run (of which the strategy sits in ``share``) a test needs to detect
    ``delta`` at spread ``sd``; nan when no spread was measured (or there is none at all)."""
    own, _ = mean_sample_size(sd, 2, delta, alpha, power, two_sample=not paired)
    return math.nan if math.isnan(own) else float(math.ceil(own / share))


def games_needed(players: pd.DataFrame, paired_with: pd.DataFrame | None = None,
                 win_shifts: Sequence[float] = WIN_SHIFTS, vp_shifts: Sequence[float] = VP_SHIFTS,
                 alpha: float = ALPHA, power: float = POWER) -> pd.DataFrame:
    """Per player count, strategy, metric and shift: the run's per-game spread and the games
    an unpaired and a paired comparison need to detect the shift.

    Win-rate shifts are in points (2 = two percentage points). ``paired_with`` is a second run
    on the same seeds (e.g. a comparison's variant).
    """
    games = per_game(players)
    other = per_game(paired_with) if paired_with is not None else None
    finished = players if "failed" not in players else players[~players["failed"]]
    total = finished.groupby("n_players")["game"].nunique()
    rows = []
    for key, group in games.groupby(level=KEYS):
        n_players, strategy = key
        share = len(group) / total[cast("int", n_players)]  # of the games of this count it sat in
        for metric, shifts, scale in (("win_share", win_shifts, 100.0),
                                      ("vp_total", vp_shifts, 1.0)):
            values = group[metric].to_numpy(float)
            sd = float(values.std(ddof=1)) if len(values) > 1 else math.nan
            sd_diff, correlation = math.nan, math.nan
            if other is not None:
                joined = group[[metric]].join(
                    other[[metric]].add_suffix("_other"), how="inner")
                if len(joined) > 2:
                    a, b = joined[metric].to_numpy(float), joined[f"{metric}_other"].to_numpy(float)
                    sd_diff = float((b - a).std(ddof=1))
                    if a.std() > 0 and b.std() > 0:
                        correlation = float(np.corrcoef(a, b)[0, 1])
            for shift in shifts:
                delta = shift / scale
                rows.append({
                    "n_players": n_players, "strategy": strategy, "metric": metric,
                    "shift": shift, "unit": "points" if metric == "win_share" else "VP",
                    "games": len(values), "share_of_games": share,
                    "mean": float(values.mean()), "sd": sd,
                    "unpaired_games_per_batch": _games(delta, sd, False, alpha, power, share),
                    "paired_sd": sd_diff, "correlation": correlation,
                    "paired_games": _games(delta, sd_diff, True, alpha, power,
                                           share),
                })
    return pd.DataFrame(rows)

