"""The report's Elixir-route finding (ruling 9a) and the marking of assumed board keys, Li Si's
versions and the default board choice."""

from __future__ import annotations

from dataclasses import replace

import pandas as pd
import pytest

from zsim.components import default_box_dir, load_box
from zsim.paths import configs_dir
from zsim.reports import route_fill
from zsim.reports.assumed import MARK, assumed_components
from zsim.reports.loader import load_runs
from zsim.runner import Experiment
from zsim.runner.batch import start_run

LONG_ROUTE = configs_dir("variants") / "long_elixir_route.yaml"


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Two small 4-player runs: the default route and the longer reading."""
    base = tmp_path_factory.mktemp("route")
    default, longer = base / "default", base / "long"
    start_run(Experiment(games=12, players=[4], strategies=["basic"], seed=3, jobs=1), default)
    start_run(Experiment(games=12, players=[4], strategies=["basic"], seed=3, jobs=1,
                         variants={"elixir.vp": "[0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, "
                                                "7, 7, 8, 8, 9, 9, 10, 11]",
                                   "elixir.elixir_spaces": "[3, 6, 9, 12, 15, 18, 21]"}),
              longer)
    return default, longer


def test_the_share_on_the_last_space_is_counted_per_route(runs):
    data = load_runs(list(runs))
    table = route_fill.route_fill(data).set_index("last_space")
    assert list(table.index) == [15, 21]
    players = data.players.assign(run=data.players["run_id"].astype(str))
    for last, run in ((15, runs[0]), (21, runs[1])):
        # counted a second way: the run's own players table, read directly
        seats = pd.read_parquet(run / "players.parquet")
        assert table.loc[last, "seats"] == len(seats) == 48
        assert table.loc[last, "on_last"] == int((seats["n_ship"] == last).sum())
    assert len(players) == 96


def test_a_filled_route_is_a_marked_finding_about_the_assumed_route(runs):
    data = load_runs([runs[0]])
    data = replace(data, players=data.players.assign(n_ship=15))  # every Ship at the end
    block = route_fill.points(data)
    assert len(block.items) == 1
    text = block.items[0].text
    assert "48 of 48 seats (100%)" in text and "at 4 players" in text
    assert f"elixir.vp{MARK}" in text and f"elixir.elixir_spaces{MARK}" in text
    assert "assumed: elixir.vp (" in text and LONG_ROUTE.name in text


def test_a_route_that_does_not_fill_says_so(runs):
    data = load_runs([runs[0]])
    data = replace(data, players=data.players.assign(n_ship=[3, 15, 9, 12] * 12))
    block = route_fill.points(data)
    assert block.items == [] and "does not fill" in block.empty and "25% at 4 players" in \
        block.empty


def test_the_longer_route_variant_file_loads_and_names_what_it_reads_again():
    from zsim.variants import other_readings, parse

    box = parse([str(LONG_ROUTE)]).load_box(default_box_dir())
    route = box.board.elixir
    assert len(route.vp) == 22 and route.elixir_spaces == (3, 6, 9, 12, 15, 18, 21)
    assert route.master_alchemist_space == 9
    assert list(route.vp[:-1]) == [s // 2 for s in range(21)] and route.vp[-1] == 11
    assert all(b - a in (0, 1) for a, b in zip(route.vp, route.vp[1:], strict=False))
    assert other_readings(configs_dir("variants"))["elixir.vp"] == [LONG_ROUTE]


def test_assumed_board_keys_versions_and_the_default_board_are_marked():
    assumed = assumed_components(load_box(default_box_dir()))
    assert {"elixir.vp", "elixir.elixir_spaces", "rules.palace_spaces", "wall.tiers",
            "board.regions", "mausoleum.grid"} <= set(assumed)
    assert not {"rules.rounds", "rules.palace_vp", "rules.governor_majority_vp",
                "rules.extra_soldier_vp", "rules.small_tokens"} & set(assumed)
    assert {f"lisi-{level}" for level in range(1, 5)} <= set(assumed)
    assert "27e" in assumed["lisi-2"] and "Alchemist set" in assumed["lisi-2"]
    assert "board=random" in assumed
