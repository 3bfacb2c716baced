"""``zsim.api``: batches as DataFrames from Python, the same as the command line's."""

from __future__ import annotations

import pandas as pd
import pytest

from zsim import api
from zsim.lineup import LineupError
from zsim.runner import Experiment

# The suite's own designs are whole balanced blocks: a DesignWarning here is a defect.
pytestmark = pytest.mark.filterwarnings("error::zsim.api.DesignWarning")

# 12 games: 6 at 2 and 6 at 3 players, whole balanced blocks at both (no DesignWarning)
SMALL = {"games": 12, "players": [2, 3], "strategies": ["greedy", "random"], "seed": 4,
         "jobs": 1, "chunk_size": 4}
TABLES = ("players", "games", "walls", "rewards", "abilities", "tiles")


@pytest.fixture(scope="module")
def kept(tmp_path_factory):
    out = tmp_path_factory.mktemp("api") / "kept"
    return api.run(SMALL, out=out, progress=False)


def test_a_run_in_memory_has_the_tables_of_a_run_on_disk(kept):
    memory = api.run(progress=False, **SMALL)
    assert memory.path is None and kept.path is not None and kept.path.is_dir()
    assert memory.run_id == kept.run_id
    for name in TABLES:
        ours, theirs = getattr(memory, name), getattr(kept, name)
        ours = ours.drop(columns=["duration_s"], errors="ignore")
        pd.testing.assert_frame_equal(ours, theirs.drop(columns=["duration_s"], errors="ignore"))
    on_disk = pd.read_parquet(kept.path / "players.parquet")
    assert memory.players["vp_total"].tolist() == on_disk["vp_total"].tolist()
    greedy = on_disk[on_disk["strategy"] == "greedy"]
    assert memory.summary.games == 12 and memory.win_rates.loc["greedy", "games"] == len(greedy)
    assert memory.win_rates.loc["greedy", "win_rate"] == pytest.approx(greedy["win_share"].mean())


def test_load_reads_a_run_again_and_refuses_what_is_not_one(kept, tmp_path):
    again = api.load(kept.path)
    pd.testing.assert_frame_equal(again.players, kept.players)
    with pytest.raises(api.RunDirError, match="no such run directory"):
        api.load(tmp_path / "nowhere")


def test_rate_fits_the_ladder_of_zsim_rate(kept):
    from zsim.ratings import rate
    from zsim.reports.loader import load_runs

    ratings = api.rate(kept)
    pd.testing.assert_frame_equal(ratings.table, api.rate(kept.path).table)
    pd.testing.assert_frame_equal(ratings.table, rate(load_runs([kept.path]).players).table)
    assert set(ratings.table["strategy"]) == {"greedy", "random"}
    assert [ladder.n_players for ladder in ratings.ladders] == [2, 3]


@pytest.mark.parametrize("overrides, message", [
    ({"gamez": 3}, "key 'gamez': Extra inputs are not permitted"),
    ({"strategies": ["nobody"]}, "key 'strategies': unknown strategy 'nobody'"),
    ({"variants": {"board": "board9"}}, "board='board9'"),
    ({"variants": 3}, "key 'variants': give KEY=VALUE strings"),
    ({"variants": ["no_such_key"]}, "key 'variants': variant 'no_such_key' is not KEY=VALUE"),
])
def test_bad_arguments_are_clear_errors(overrides, message):
    with pytest.raises(api.ExperimentError, match=message):
        api.run({**SMALL, "games": 2, "players": [2]}, progress=False, **overrides)


def test_variants_add_to_the_experiments_own():
    base = Experiment(variants={"court_reset": "true"})
    planned = api.make_experiment(base, variants={"board": "board2"})
    assert planned.variants == {"court_reset": "true", "board": "board2"}


def test_variants_are_taken_as_key_value_strings_as_everywhere_else():
    base = Experiment(variants={"court_reset": "true"})
    assert api.make_experiment(base, variants=["board=board2", "rules.palace_vp=8"]).variants \
        == {"court_reset": "true", "board": "board2", "rules.palace_vp": "8"}
    assert api.make_experiment(base, variants="board=board2").variants["board"] == "board2"


def test_a_run_that_is_not_a_whole_balanced_block_warns():
    partial = {"games": 5, "players": [2], "strategies": ["random", "basic", "greedy"],
               "seats": "balanced", "jobs": 1}
    with pytest.warns(api.DesignWarning, match="balanced"):
        api.run(partial, progress=False)


def test_compare_and_sweep_give_the_command_line_tables():
    same = api.compare(SMALL, "court_reset=false", progress=False)
    assert (same.table["difference"] == 0).all() and "Identical" in same.verdict
    table = api.sweep("rules.palace_vp=4,8", SMALL, progress=False)
    assert sorted(table["value"].unique()) == ["4", "8"]  # the values as the sweep shows them
    assert set(table["games"]) <= {6}  # per player count
    with pytest.raises(api.ExperimentError, match="give at least two values"):
        api.sweep("rules.palace_vp=4", SMALL, progress=False)


def test_play_keeps_the_game_its_score_sheet_and_steps():
    game = api.play(["greedy", "random"], players=3, seed=4)
    assert game.scores["strategy"].tolist() == ["greedy", "random", "random"]
    assert (game.scores["vp_total"] == [s["vp_total"] for s in game.result.scores]).all()
    assert game.log[0] == game.steps.query("kind == 'say'")["text"].iloc[0]
    solo = api.play("basic", solo=True, lisi=2, seed=3)
    assert solo.scores["strategy"].tolist() == ["basic", "lisi-2"]
    with pytest.raises(LineupError, match="3 strategies for 2 players"):
        api.play(["random"] * 3, players=2)


@pytest.mark.parametrize("call, error, message", [
    (lambda: api.run(123), TypeError, r"^experiment: expected an experiment file"),
    (lambda: api.play(seed="x"), TypeError, r"^seed: expected an integer, not str 'x'"),
    (lambda: api.play(players="3"), TypeError, r"^players: expected an integer"),
])
def test_arguments_of_the_wrong_type_name_the_parameter(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_load_of_a_file_says_it_is_no_run_directory(tmp_path):
    (tmp_path / "run.json").write_text("{}")
    with pytest.raises(api.RunDirError, match=r"run\.json: a file, not a run directory"):
        api.load(tmp_path / "run.json")
