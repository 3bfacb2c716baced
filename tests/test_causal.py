"""``zsim effects KIND`` end to end (``zsim.causal``): paired batches with a component forced in
and kept out."""

from __future__ import annotations

import re

import matplotlib
import pandas as pd
import pytest
from click.testing import CliRunner
from figure_checks import tick_label_clashes
from statsmodels.stats.multitest import multipletests

from tests.conftest import experiment_file
from zsim.cli import main
from zsim.reports.causal import causal_section
from zsim.reports.common import STYLE
from zsim.runner.experiment import load_experiment

EXPERIMENT = """\
games: 12
players: [2]
strategies: [basic, random]
seed: 5
jobs: 1
chunk_size: 6
"""


@pytest.fixture(scope="module")
def experiment(tmp_path_factory):
    return experiment_file(tmp_path_factory, EXPERIMENT)


def _effects(experiment, out, *args):
    return CliRunner().invoke(main, ["effects", *args, "--experiment", str(experiment),
                                     "--out", str(out), "--quiet"])


def test_effects_of_a_wall_tile_are_paired_differences_of_forced_and_excluded_batches(
        experiment, tmp_path):
    out = tmp_path / "walls"
    result = _effects(experiment, out, "wall_tiles", "--only", "wall_pairs")
    assert result.exit_code == 0, result.output
    walls = [f"wall_tile_{s}" for s in range(1, 7)]
    forced = pd.read_parquet(out / "wall_pairs" / "force" / "games.parquet")
    excluded = pd.read_parquet(out / "wall_pairs" / "exclude" / "games.parquet")
    assert (forced[walls] == "wall_pairs").any(axis=1).all()
    assert not (excluded[walls] == "wall_pairs").any(axis=1).any()
    assert (forced["seed"] == excluded["seed"]).all()
    table = pd.read_csv(out / "effects.csv")
    assert set(table["component"]) == {"wall_pairs"}
    # Recompute the all-players VP effect by hand from the two players tables.
    means = [pd.read_parquet(out / "wall_pairs" / mode / "players.parquet")
             .groupby("game")["vp_total"].mean() for mode in ("force", "exclude")]
    row = table[(table["strategy"] == "all players") & (table["metric"] == "vp_total")].iloc[0]
    assert row["difference"] == pytest.approx((means[0] - means[1]).mean())
    assert row["low"] <= row["difference"] <= row["high"]
    assert set(table.loc[table["strategy"] != "all players", "metric"]) == {"win_share",
                                                                            "vp_total"}
    page = (out / "report" / "index.html").read_text()
    assert "Effects of each Wall tile" in page and "effects-wall_tiles-win-rate" in page
    assert "What pairing saved" in page
    assert "wall_pairs" in result.output and "win rate (points)" in result.output


def test_components_that_cannot_be_left_out_are_skipped_saying_why(experiment, tmp_path):
    result = _effects(experiment, tmp_path / "boards", "board", "--only", "board1",
                      "--games", "4")
    assert result.exit_code == 0, result.output
    four = tmp_path / "four.yaml"
    four.write_text(EXPERIMENT.replace("players: [2]", "players: [4]"))
    result = _effects(four, tmp_path / "palace", "palace_tiles", "--only", "palace_laws")
    assert result.exit_code == 1
    assert "no Palace tile can be both forced and excluded" in result.output
    assert "setup lays out 15 of the 15" in result.output


def test_an_unknown_component_or_kind_is_refused(experiment, tmp_path):
    result = _effects(experiment, tmp_path / "bad", "wall_tiles", "--only", "wall_nope")
    assert result.exit_code == 2 and "unknown Wall tile 'wall_nope'" in result.output
    result = _effects(experiment, tmp_path / "bad", "walls")
    assert result.exit_code == 2 and "wall_tiles" in result.output


def test_the_page_names_one_family_whose_size_and_holm_p_values_agree(experiment, tmp_path):
    out = tmp_path / "two"
    result = _effects(experiment, out, "wall_tiles", "--only", "wall_pairs", "--only",
                      "wall_palaces")
    assert result.exit_code == 0, result.output
    table = pd.read_csv(out / "effects.csv")
    tested = table["pvalue"].notna()
    assert set(table["family"]) == {"what each Wall tile does"}
    assert set(table["family_tests"]) == {int(tested.sum())}
    by_hand = multipletests(table.loc[tested, "pvalue"], method="holm")[1]
    assert table.loc[tested, "adjusted"].to_numpy() == pytest.approx(by_hand)
    page = (out / "report" / "index.html").read_text()
    assert f"“what each Wall tile does”, {int(tested.sum())} tests" in page
    assert not re.search(r"\D0 tests", page) and "“”" not in page
    # Every panel on one x scale, one x label for the figure, and no tick labels that collide.
    with matplotlib.rc_context(STYLE):
        section = causal_section(table, "wall_tiles", load_experiment(experiment), {})
    for figure in section.figures:
        shown = [ax for ax in figure.figure.axes if ax.get_visible()]
        assert len({ax.get_xlim() for ax in shown}) == 1
        assert figure.figure.get_supxlabel() and not any(ax.get_xlabel() for ax in shown)
        figure.figure.canvas.draw()
        assert tick_label_clashes(figure) == []


def test_effects_play_stages_until_every_win_rate_difference_is_precise(experiment, tmp_path):
    out = tmp_path / "precise"
    result = _effects(experiment, out, "wall_tiles", "--only", "wall_pairs", "--games", "6",
                      "--until-precision", "60")
    assert result.exit_code == 0, result.output
    sequences = pd.read_csv(out / "confidence_sequences.csv")
    assert (sequences["half_width"] <= 0.6).all()
    stages = 1 + len(list(out.glob("stage-*")))
    assert result.output.count("stage ") >= stages and "anytime-valid" in result.output
    forced = [pd.read_parquet(out / "wall_pairs" / "force" / "players.parquet")] + [
        pd.read_parquet(path / "wall_pairs" / "force" / "players.parquet")
        for path in sorted(out.glob("stage-*"))]
    assert sequences["games"].max() == sum(f["game"].nunique() for f in forced)
