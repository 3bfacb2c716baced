"""``zsim effects KIND`` end to end (``zsim.causal``): paired batches with a component forced in
and kept out."""

from __future__ import annotations

import pandas as pd
import pytest
from click.testing import CliRunner

from tests.conftest import experiment_file
from zsim.cli import main

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
