"""Paired comparisons and sweeps on common random numbers."""

from __future__ import annotations

import re

import pandas as pd
import pytest
from click.testing import CliRunner

from tests.conftest import experiment_file
from zsim.cli import main
from zsim.compare import paired_differences, variance_reduction, verdict
from zsim.rules.scoring import CATEGORIES
from zsim.stats import holm

EXPERIMENT = """\
games: 40
players: [2, 4]
strategies: [basic, random]
seed: 3
jobs: 1
chunk_size: 20
"""


@pytest.fixture(scope="module")
def experiment(tmp_path_factory):
    return experiment_file(tmp_path_factory, EXPERIMENT)


def _compare(experiment, out, *variant):
    result = CliRunner().invoke(main, ["compare", str(experiment), *variant, "--out", str(out),
                                       "--quiet"])
    assert result.exit_code == 0, result.output
    return result.output, pd.read_csv(out / "comparison.csv")


def test_a_no_op_variant_gives_exactly_zero_difference(experiment, tmp_path):
    output, table = _compare(experiment, tmp_path / "noop", "court_reset=false")
    assert (table["difference"] == 0).all()
    assert (table["low"] == 0).all() and (table["high"] == 0).all()
    assert "Identical" in output
    assert (tmp_path / "noop" / "report" / "index.html").is_file()


def test_a_two_vp_palace_change_shows_with_its_size_in_its_category(experiment, tmp_path):
    output, table = _compare(experiment, tmp_path / "palace", "rules.palace_vp=8")
    players = pd.read_parquet(tmp_path / "palace" / "base" / "players.parquet")
    for (n, strategy), rows in table.groupby(["n_players", "strategy"]):
        base = players[(players.n_players == n) & (players.strategy == strategy)]
        palaces = base.groupby("game")["n_palaces"].mean().mean()
        row = rows.set_index("metric").loc["vp_palaces"]
        assert row["difference"] == pytest.approx(2 * palaces)  # +2 VP for every Palace
        unchanged = rows[~rows["metric"].isin(["vp_palaces", "vp_total", "win_share"])]
        assert (unchanged["difference"] == 0).all()  # bots that ignore the value play the same
    assert "vp_palaces" in output and "significant change" in output
    # Win rates first, with the change they could have shown; Palace points move by definition.
    assert "Win rates: " in output and "would have been detected at 80% power" in output
    assert "follow by definition from rules.palace_vp" in output
    html = (tmp_path / "palace" / "report" / "index.html").read_text(encoding="utf-8")
    # Captions name the category that moved, and the variance-reduction table is on the page.
    assert re.search(r"basic \(\dp\) vp_palaces \(p ", html)
    assert "Variance reduction: paired against unpaired intervals" in html
    assert 'id="table-variance-reduction"' in html
    # Holm within each family: the win-rate tests are corrected among themselves only.
    wins = table[table["family"] == "win rate"]
    assert wins["adjusted"].tolist() == pytest.approx(list(holm(wins["pvalue"])), nan_ok=True)


def test_a_bad_variant_path_is_refused(experiment, tmp_path):
    result = CliRunner().invoke(main, ["compare", str(experiment), "rules.palace_vpp=8",
                                       "--out", str(tmp_path / "bad"), "--quiet"])
    assert result.exit_code != 0
    assert "palace_vpp" in result.output


def test_paired_intervals_are_narrower_than_unpaired_ones():
    base = pd.DataFrame({"n_players": 2, "strategy": "x", "game": range(200),
                         "win_share": 0.5, "vp_total": range(200), "failed": False,
                         **{category: 0 for category in CATEGORIES}})
    variant = base.assign(vp_total=base["vp_total"] + 1)
    table = paired_differences(base, variant)
    total = table.set_index("metric").loc["vp_total"]
    assert total["difference"] == 1 and total["low"] == 1 and total["high"] == 1
    assert total["unpaired_high"] - total["unpaired_low"] > 10
    assert "vp_total +1.00" in verdict(table)
    assert variance_reduction(table).empty  # zero-width paired intervals have no factor


def test_sweep_runs_one_batch_per_value_on_shared_seeds(experiment, tmp_path):
    out = tmp_path / "sweep"
    # Without --quiet, and stderr is not a terminal: no progress bar may be written into it.
    result = CliRunner().invoke(main, ["sweep", "rules.palace_vp=4,8,6", "--experiment",
                                       str(experiment), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "game/s" not in result.output and "\r" not in result.output
    table = pd.read_csv(out / "sweep.csv")
    assert sorted(table["value"].unique()) == [4, 6, 8]
    seeds = [pd.read_parquet(out / f"value-{i}" / "games.parquet")["seed"] for i in (0, 1, 2)]
    assert seeds[0].tolist() == seeds[1].tolist() == seeds[2].tolist()
    assert (out / "report" / "figures" / "sweep-2p.png").is_file()
    # Each later value against the first, game by game, recomputed here with plain pandas.
    differences = pd.read_csv(out / "sweep_differences.csv")
    assert sorted(differences["value"].unique()) == [6, 8]
    players = [pd.read_parquet(out / f"value-{i}" / "players.parquet") for i in (0, 1)]
    per_game = [p.groupby(["n_players", "strategy", "game"])["vp_palaces"].mean()
                for p in players]
    expected = (per_game[1] - per_game[0]).groupby(["n_players", "strategy"]).mean()
    got = differences[(differences["value"] == 8) & (differences["metric"] == "vp_palaces")]
    assert got.set_index(["n_players", "strategy"])["difference"].to_dict() == pytest.approx(
        expected.to_dict())
    assert "rules.palace_vp=8 against rules.palace_vp=4:" in result.output
    html = (out / "report" / "index.html").read_text(encoding="utf-8")
    assert 'id="table-sweep-variance-reduction"' in html
    assert "rules.palace_vp=8: VP change by category" in html
    assert "rules.palace_vp=8 against rules.palace_vp=4: Win rates:" in html
    assert "follow by definition from rules.palace_vp" in html
    assert not pd.read_csv(out / "variance_reduction.csv").empty
    # The caption counts the games played at each player count, from the games table.
    games = pd.read_parquet(out / "value-0" / "games.parquet")
    for n, count in games.groupby("n_players").size().items():
        assert f"{n} players, {count} games per value on shared seeds" in html
    assert CliRunner().invoke(main, ["sweep", "rules.palace_vp=4", "--out",
                                     str(tmp_path / "one")]).exit_code != 0


def test_compare_plays_stages_until_the_win_rate_differences_are_precise(experiment, tmp_path):
    out = tmp_path / "precise"
    result = CliRunner().invoke(main, ["compare", str(experiment), "rules.palace_vp=8",
                                       "--games", "8", "--until-precision", "70", "--out",
                                       str(out), "--quiet"])
    assert result.exit_code == 0, result.output
    sequences = pd.read_csv(out / "confidence_sequences.csv")
    assert (sequences["half_width"] <= 0.7).all()
    stages = [out, *sorted(out.glob("stage-*"))]
    bases = [pd.read_parquet(s / "base" / "players.parquet") for s in stages]
    variants = [pd.read_parquet(s / "variant" / "players.parquet") for s in stages]
    # Each stage is paired on its own seeds, and no two stages share one.
    for base, variant in zip(bases, variants, strict=True):
        assert base["seed"].tolist() == variant["seed"].tolist()
    assert len({seed for b in bases for seed in b["seed"]}) == sum(b["game"].nunique()
                                                                    for b in bases)
    table = pd.read_csv(out / "comparison.csv")
    assert table["games"].max() == sequences["games"].max() == sum(
        b.groupby("n_players")["game"].nunique().max() for b in bases)


def test_three_paired_games_give_no_power_statement_no_nan_and_no_bare_dots(experiment,
                                                                              tmp_path):
    """Three games pair too few to judge: the verdict says so instead of "±0.0 points would
    have been detected", the terminal prints a dash for a missing interval, and no row is drawn
    as a dot without its interval."""
    output, table = _compare(experiment, tmp_path / "tiny", "rules.palace_vp=8", "--games", "3")
    assert table["games"].max() < 10
    assert table["pvalue"].isna().all()  # nothing is tested on so few pairs
    assert "too few paired games" in output and "would have been detected" not in output
    assert "±0.0" not in output and "NaN" not in output and "nan" not in output
    html = (tmp_path / "tiny" / "report" / "index.html").read_text(encoding="utf-8")
    assert "would have been detected" not in html
    assert not list((tmp_path / "tiny" / "report" / "figures").glob("compare-*.png"))
    assert "Win rate change: too few paired games" in html


def test_rows_of_too_few_paired_games_are_named_not_drawn():
    from zsim.reports.whatif import _forest_figure

    rows = pd.DataFrame({"n_players": [2, 4], "strategy": ["a", "b"],
                         "metric": ["win_share", "win_share"], "family": "win rate",
                         "games": [40, 1], "difference": [0.05, 0.0], "low": [0.01, None],
                         "high": [0.09, None], "relative": [0.1, 0.0], "pvalue": [0.01, None],
                         "effect": [0.3, None], "adjusted": [0.02, None],
                         "family_tests": [1, 1]})
    figure = _forest_figure(rows, "compare-win-rate", "Win rate change", "points", 100,
                            "points")
    labels = [t.get_text() for t in figure.figure.axes[0].get_yticklabels()]
    assert labels == ["a (2p) win rate"]
    assert "Too few paired games (fewer than 10) to draw: b (4p) win rate." in figure.caption

@pytest.mark.parametrize("values", ["6,6", "6,06", "4,6,6.0"])
def test_a_sweep_value_given_twice_is_refused_before_any_game(experiment, tmp_path, values):
    out = tmp_path / "sweep"
    result = CliRunner().invoke(main, ["sweep", f"rules.palace_vp={values}", "--experiment",
                                       str(experiment), "--out", str(out)])
    assert result.exit_code == 2
    assert "rules.palace_vp: the value 6 is given twice" in result.output
    assert "Traceback" not in result.output and not out.exists()


def test_a_strategy_that_wins_every_game_of_both_runs_claims_no_detectable_change():
    """greedy against random wins every game of the base and of the variant: the win-rate
    intervals have no width, and the verdict says the games cannot tell what they would have
    detected, not that "±0.0 points would have been detected"."""
    from zsim.compare import MIN_PAIRS, verdict

    rows = [{"n_players": 2, "strategy": name, "metric": "win_share", "games": MIN_PAIRS * 2,
             "base": share, "variant": share, "difference": 0.0, "low": 0.0, "high": 0.0,
             "significant": False} for name, share in (("greedy", 1.0), ("random", 0.0))]
    rows.append({"n_players": 2, "strategy": "greedy", "metric": "vp_total",
                 "games": MIN_PAIRS * 2, "base": 90.0, "variant": 92.0, "difference": 2.0,
                 "low": 1.0, "high": 3.0, "significant": True})
    said = verdict(pd.DataFrame(rows))
    assert "±0.0" not in said
    assert "cannot say what change they would have detected" in said
