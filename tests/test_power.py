"""Games needed to detect a shift (``zsim power``) and the convergence of running estimates."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from scipy import stats

from zsim.cli import main
from zsim.power import games_needed
from zsim.reports.convergence import running_win_rates
from zsim.rules.scoring import CATEGORIES
from zsim.runner import Experiment
from zsim.runner.batch import start_run


def _players(games: int, seed: int = 0, noise_of: pd.DataFrame | None = None) -> pd.DataFrame:
    """Two-player games of strategies a and b: a wins with probability 0.4; VP normal(100, 20).
    With ``noise_of``, the same games again with VP moved by a little noise (a paired batch)."""
    rng = np.random.default_rng(seed)
    if noise_of is not None:
        return noise_of.assign(vp_total=noise_of["vp_total"] + rng.normal(0, 2, len(noise_of)))
    rows = []
    for game in range(games):
        a_wins = rng.random() < 0.4
        for strategy, won in (("a", a_wins), ("b", not a_wins)):
            rows.append({"game": game, "game_key": game, "n_players": 2, "strategy": strategy,
                         "seat": int(strategy == "b"), "win_share": float(won),
                         "vp_total": rng.normal(100, 20)})
    return pd.DataFrame(rows)


def _row(table, strategy, metric, shift, column):
    rows = table[(table["strategy"] == strategy) & (table["metric"] == metric)
                 & (table["shift"] == shift)]
    return float(rows[column].iloc[0])


@pytest.fixture(scope="module")
def players():
    return _players(4000).assign(**{c: 0.0 for c in CATEGORIES})


def test_unpaired_games_follow_the_normal_formula_and_the_inverse_square_of_the_shift(players):
    table = games_needed(players, win_shifts=(5.0, 10.0), vp_shifts=(2.0,))
    z = stats.norm.ppf(0.975) + stats.norm.ppf(0.8)
    sd = players.loc[players["strategy"] == "a", "win_share"].std()
    formula = 2 * z ** 2 * sd ** 2 / 0.05 ** 2
    assert _row(table, "a", "win_share", 5.0, "unpaired_games_per_batch") == pytest.approx(
        formula, rel=0.01)
    ratio = (_row(table, "a", "win_share", 5.0, "unpaired_games_per_batch")
             / _row(table, "a", "win_share", 10.0, "unpaired_games_per_batch"))
    assert ratio == pytest.approx(4, rel=0.02)
    assert _row(table, "a", "vp_total", 2.0, "sd") == pytest.approx(20, rel=0.05)
    assert math.isnan(_row(table, "a", "vp_total", 2.0, "paired_games"))  # needs a second run


def test_paired_batches_that_agree_need_far_fewer_games(players):
    variant = _players(0, seed=1, noise_of=players)
    table = games_needed(players, variant, win_shifts=(5.0,), vp_shifts=(2.0,))
    paired = _row(table, "a", "vp_total", 2.0, "paired_games")
    unpaired = _row(table, "a", "vp_total", 2.0, "unpaired_games_per_batch")
    assert _row(table, "a", "vp_total", 2.0, "correlation") > 0.95
    assert paired < unpaired / 20
    # The game-by-game differences are the added noise alone, of sd 2.
    assert _row(table, "a", "vp_total", 2.0, "paired_sd") == pytest.approx(2, rel=0.05)


def test_a_strategy_that_never_wins_and_a_part_time_strategy(players):
    never = players.assign(win_share=np.where(players["strategy"] == "a", 0.0, 1.0))
    table = games_needed(never, win_shifts=(5.0,), vp_shifts=(2.0,))
    assert math.isnan(_row(table, "a", "win_share", 5.0, "unpaired_games_per_batch"))
    half = players[(players["strategy"] == "b") | (players["game"] % 2 == 0)]
    full = games_needed(players, win_shifts=(5.0,), vp_shifts=(2.0,))
    part = games_needed(half, win_shifts=(5.0,), vp_shifts=(2.0,))
    assert _row(part, "a", "vp_total", 2.0, "share_of_games") == pytest.approx(0.5)
    assert (_row(part, "a", "vp_total", 2.0, "unpaired_games_per_batch")
            == pytest.approx(2 * _row(full, "a", "vp_total", 2.0, "unpaired_games_per_batch"),
                             rel=0.1))
    one = games_needed(players[players["game"] == 0], win_shifts=(5.0,), vp_shifts=())
    assert one["unpaired_games_per_batch"].isna().all()


def test_running_win_rates_end_at_the_overall_rate_inside_their_intervals(players):
    running = running_win_rates(players)
    last = running[running["played"] == running["played"].max()].set_index("strategy")
    overall = players.groupby("strategy")["win_share"].mean()
    assert last["win_rate"].to_numpy() == pytest.approx(overall.to_numpy())
    assert ((running["low"] <= running["win_rate"]) & (running["win_rate"] <= running["high"])
            ).all()
    width = running.assign(width=running["high"] - running["low"]).set_index("played")
    a = width[width["strategy"] == "a"]["width"]
    assert a.loc[4000] < a.loc[1000] < a.loc[250]  # narrows as games accumulate


def test_zsim_power_on_a_run_and_on_a_pair_of_runs(tmp_path):
    experiment = Experiment(games=12, players=[2], strategies=["basic", "random"], jobs=1,
                            seed=2)
    start_run(experiment, tmp_path / "base")
    start_run(experiment.with_overrides(variants={"court_reset": "true"}), tmp_path / "variant")
    runner = CliRunner()
    alone = runner.invoke(main, ["power", str(tmp_path / "base"), "--win", "5", "--vp", "3",
                                 "--csv", str(tmp_path / "power.csv")])
    assert alone.exit_code == 0, alone.output
    assert "unpaired_games_per_batch" in alone.output and "correlation" not in alone.output
    assert len(pd.read_csv(tmp_path / "power.csv")) == 4  # 2 strategies x 2 shifts
    paired = runner.invoke(main, ["power", str(tmp_path / "base"), str(tmp_path / "variant")])
    assert paired.exit_code == 0 and "paired_games" in paired.output
    missing = runner.invoke(main, ["power", str(tmp_path / "nowhere")])
    assert missing.exit_code == 1 and "no such run directory" in missing.output
