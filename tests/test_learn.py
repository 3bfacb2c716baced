"""Learned evaluation: positions recorded by a run, a value model trained and validated on them
by ``zsim train``, the model file's checks, and the ``value`` bot playing on it. Tiny runs and
models: this checks behaviour, not strength (docs/strategies.md measures that)."""

from __future__ import annotations

import json
import pickle
import random
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from tests.test_runner import tables
from tests.test_search_bots import at_turn
from zsim.cli import main
from zsim.components import load_box
from zsim.encode.observation import layout
from zsim.game import Game, play_game
from zsim.learn import dataset, features, fit
from zsim.learn.model import (
    ModelError,
    ModelMismatch,
    ValueModel,
    load,
    model_for,
    rules_digest,
    save,
    view_model,
)
from zsim.rules import scoring
from zsim.runner import Experiment
from zsim.runner.batch import start_run
from zsim.strategies.registry import UnknownStrategy, resolve


@pytest.fixture(scope="module")
def trained(tmp_path_factory) -> Path:
    """A tiny training: 8 two-player games of two heuristics, a linear model."""
    out = tmp_path_factory.mktemp("train")
    result = CliRunner().invoke(main, ["train", "--out", str(out), "--games", "8", "-n", "2",
                                       "-s", "greedy", "-s", "builder", "--jobs", "1",
                                       "--learner", "linear", "--quiet"])
    assert result.exit_code == 0, result.output
    return out


def test_zsim_train_writes_a_model_its_validation_and_a_calibration_figure(trained, box):
    model = load(trained / "model.npz")
    assert model.meta["n_players"] == 2 and model.meta["games"] == 8
    assert model.meta["rules_digest"] == rules_digest(box)
    assert model.width == layout(_tables(box), 2).size + features.width(2)
    validation = json.loads((trained / "validation.json").read_text())
    for who in ("model", "baseline", "constant"):
        assert 0 <= validation[who]["brier"] <= 1 and validation[who]["log_loss"] > 0
    bins = validation["model"]["calibration"]
    assert sum(b["positions"] for b in bins) == validation["positions"]
    assert validation["inference_us"]["single"] > 0
    assert (trained / "calibration.png").read_bytes()[:4] == b"\x89PNG"


def _tables(box):
    from zsim.rules.tables import compile_tables

    return compile_tables(box)


def test_the_training_games_are_an_ordinary_run_with_its_positions(trained):
    games = trained / "games"
    players = pd.read_parquet(games / "players.parquet")
    positions = pq.read_table(games / "positions.parquet").to_pandas()
    assert set(positions["game"]) <= set(players["game"]) and len(positions) > 8
    # every recorded question has a row per seat, each seat's own observation
    assert (positions.groupby(["game", "question"])["seat"].nunique() == 2).all()
    rows = dataset.load([games], 2)
    final = players.set_index(["game", "seat"])["win_share"]
    assert set(np.unique(rows.win)) <= {0.0, 0.5, 1.0}
    assert rows.win.sum() == pytest.approx(
        positions.merge(final.reset_index(), on=["game", "seat"])["win_share"].sum())


def test_zsim_train_on_the_same_directory_finishes_the_run_and_trains_again(trained, tmp_path):
    before = pq.read_table(trained / "games" / "positions.parquet")
    result = CliRunner().invoke(main, ["train", "--out", str(trained), "--games", "8", "-n",
                                       "2", "-s", "greedy", "-s", "builder", "--jobs", "1",
                                       "--learner", "linear", "--quiet"])
    assert result.exit_code == 0, result.output
    assert pq.read_table(trained / "games" / "positions.parquet").equals(before)
    assert "Brier" in result.output and "baseline" in result.output


def test_recording_positions_changes_no_game(tmp_path):
    plain = Experiment(games=4, players=[2, 3], strategies=["greedy", "random"], seed=3,
                       jobs=1)
    start_run(plain, tmp_path / "plain")
    start_run(plain.with_overrides(record=["positions"]), tmp_path / "recorded")
    left, right = tables(tmp_path / "plain"), tables(tmp_path / "recorded")
    for name in left:  # the same games, under another run id
        pd.testing.assert_frame_equal(left[name].drop(columns="run_id"),
                                      right[name].drop(columns="run_id"), obj=name)
    assert (tmp_path / "recorded" / "positions.parquet").is_file()
    assert not (tmp_path / "plain" / "positions.parquet").exists()
    assert plain.run_id("x") != plain.with_overrides(record=["positions"]).run_id("x")


def test_a_corrupt_model_file_is_one_clear_line(tmp_path):
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a model at all")
    with pytest.raises(ModelError, match=r"^model file .*bad\.npz: cannot read it"):
        load(bad)
    with pytest.raises(UnknownStrategy, match=r"bad\.npz: cannot read it"):
        resolve(f"value(model='{bad}')")
    result = CliRunner().invoke(main, ["play", "-s", f"value(model='{bad}')", "-s", "greedy"])
    assert result.exit_code != 0 and "cannot read it" in result.output
    assert "Traceback" not in result.output


def test_a_model_is_refused_at_another_player_count_and_warns_on_other_rules(trained, box):
    path = str(trained / "model.npz")
    width = load(path).width
    with pytest.raises(ModelError, match="trained for 2 players, not the 3"):
        model_for(path, box, 3, width)
    with pytest.raises(ModelError, match="retrain it"):
        model_for(path, box, 2, width + 1)
    from zsim.components import default_box_dir

    other = load_box(default_box_dir(), [("rules.palace_vp", 8)])
    with pytest.warns(ModelMismatch, match="trained on other rules"):
        model_for(path, other, 2, width)
    result = CliRunner().invoke(main, ["play", "-n", "3", "-s", f"value(model='{path}')",
                                       "-s", "greedy", "--json"])
    assert result.exit_code != 0 and "trained for 2 players, not the 3" in result.output
    assert "Traceback" not in result.output


def test_a_model_saved_and_loaded_predicts_the_same(trained, tmp_path):
    model = load(trained / "model.npz")
    save(model, tmp_path / "again.npz")
    again = load(tmp_path / "again.npz")
    x = np.random.default_rng(1).random((5, model.width), dtype=np.float32)
    assert np.allclose(model.predict(x), again.predict(x))
    assert ((again.predict(x)[:, 1] > 0) & (again.predict(x)[:, 1] < 1)).all()


def test_fitting_needs_two_games_to_hold_one_out(trained):
    rows = dataset.load([trained / "games"], 2)
    one = rows.take(np.flatnonzero(rows.game == rows.game[0]))
    with pytest.raises(dataset.DatasetError, match="too few"):
        dataset.split(one, 0.2, 0)
    with pytest.raises(dataset.DatasetError, match="no positions of 4-player games"):
        dataset.load([trained / "games"], 4)
    assert fit.scores(np.array([1.0, 0.0]), np.array([1.0, 0.0]))["brier"] < 1e-4


def value_bot(trained: Path, **params) -> str:
    extra = "".join(f", {k}={v!r}" for k, v in params.items())
    return f"value(model='{trained / 'model.npz'}'{extra})"


@pytest.mark.parametrize("n, turn", [(2, 9), (2, 30)])
def test_the_value_bot_does_not_see_the_cards_it_cannot_see(trained, box, n, turn):
    game = at_turn(box, n, 6, turn)
    seat = game.pending().seat
    tables = [game, game.fork(seat, random.Random(1)), game.fork(seat, random.Random(2))]
    choices = []
    for table in tables:
        view = table.views[seat]
        view.rng.seed(11)
        choices.append(resolve(value_bot(trained, samples=2)).choose(view, table.pending()))
    assert choices[0] == choices[1] == choices[2]


def test_the_value_bot_answers_every_kind_and_replays_the_same_game(trained, box):
    asked: set[str] = set()
    bot = resolve(value_bot(trained))
    choose = bot.choose

    def spy(view, decision):
        asked.add(decision.kind)
        return choose(view, decision)

    bot.choose = spy
    first = play_game(box, [bot, resolve("greedy")], 5)
    assert {"turn", "start_tile", "reward"} <= asked
    again = play_game(box, [pickle.loads(pickle.dumps(resolve(value_bot(trained)))),
                            resolve("greedy")], 5)
    assert first.scores == again.scores and first.decisions == again.decisions


def test_bad_value_parameters_are_refused_naming_them(trained):
    for spec, message in ((value_bot(trained, samples=0), "samples"),
                          (value_bot(trained, target="draw"), "target"),
                          ("value(model='/no/such/file.npz')", "no such file")):
        with pytest.raises(UnknownStrategy, match=message):
            resolve(spec)


def test_a_linear_model_is_a_model_without_hidden_layers():
    model = ValueModel({}, np.zeros(3, np.float32), np.ones(3, np.float32),
                       (np.array([[1, 0], [0, 0.1], [2, 0]], np.float32),),
                       (np.array([0.5, 0.4], np.float32),))
    out = model.predict(np.array([[1, 2, 3]], np.float32))
    assert out[0, 0] == pytest.approx(7.5) and out[0, 1] == pytest.approx(0.6)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert model.margin(np.array([0, 0, 0], np.float32)) == pytest.approx(0.5)


def test_the_scores_now_are_the_rules_own_and_tell_the_result_tables_nothing(box):
    game = at_turn(box, 3, 4, 20)
    records = len(game.records.walls)
    values = features.scores_now(game, 1) * features.SCALE
    totals = [row["vp_total"] for row in scoring.final_scores(game.fork())]
    k = len(features.END_CATEGORIES) + 1
    assert [values[slot * k + k - 1] for slot in range(3)] == pytest.approx(
        [totals[1], totals[2], totals[0]])  # from seat 1's chair
    assert values[-1] == pytest.approx(totals[1] - max(totals[0], totals[2]))
    assert len(game.records.walls) == records


def model_search(trained: Path) -> str:
    return (f"mcts(root='halving', iterations=4, width=3, horizon=1, kinds='all', "
            f"leaf='model', model='{trained / 'model.npz'}')")


def test_a_search_on_the_model_does_not_see_the_cards_it_cannot_see(trained, box):
    game = at_turn(box, 2, 6, 12)
    seat = game.pending().seat
    choices = []
    for table in (game, game.fork(seat, random.Random(1)), game.fork(seat, random.Random(2))):
        view = table.views[seat]
        view.rng.seed(11)
        choices.append(resolve(model_search(trained)).choose(view, table.pending()))
    assert choices[0] == choices[1] == choices[2]


def test_a_search_on_the_model_replays_the_same_game_and_pickles(trained, box):
    seats = [resolve(model_search(trained)), resolve("greedy")]
    first = play_game(box, seats, 21)
    again = play_game(box, [pickle.loads(pickle.dumps(s)) for s in seats], 21)
    assert first.scores == again.scores and first.decisions == again.decisions


def test_a_model_of_another_observation_layout_is_refused(trained, box, tmp_path):
    model = load(trained / "model.npz")
    save(ValueModel({**model.meta, "observation": "0123456789ab"}, model.mean, model.scale,
                    model.weights, model.biases), tmp_path / "old.npz")
    game = at_turn(box, 2, 6, 3)
    view = game.views[game.pending().seat]
    with pytest.raises(ModelError, match="observation layout 0123456789ab"):
        resolve(f"value(model='{tmp_path / 'old.npz'}')").choose(view, game.pending())


def test_a_model_gives_the_single_cards_no_weight_unless_asked(trained, box):
    model = load(trained / "model.npz")
    encoding = layout(_tables(box), 2)
    cards = features.card_columns(dict(encoding.parts), model.width)
    assert cards[encoding.parts["hand"]].all() and cards[encoding.parts["p1_tableau_cards"]].all()
    assert not cards[encoding.parts["p0_tableau_types"]].any() and model.meta["ignored"]
    game = at_turn(box, 2, 6, 9)
    x = features.inputs(game, game.views[game.pending().seat])
    other = x.copy()
    other[cards] = 1.0 - other[cards]  # every card moved in or out of every hand and tableau
    assert model.margin(other) == pytest.approx(model.margin(x))
    other[~cards] += 1.0
    assert model.margin(other) != pytest.approx(model.margin(x))


def test_the_shipped_model_reads_todays_observation(box):
    game = at_turn(box, 2, 6, 3)
    view = game.views[game.pending().seat]
    with warnings.catch_warnings():  # made for the built-in box: no warning of other rules
        warnings.simplefilter("error", ModelMismatch)
        model = view_model("", view)  # refused if the encoding changed since it was trained
    assert model.meta["n_players"] == 2
    assert model.meta["rules_digest"] == rules_digest(box)


def test_the_value_bot_leaves_the_kinds_it_does_not_value_to_the_heuristic(trained, box):
    game = Game(box, [None, None], 8)
    decision = game.pending()
    assert decision.kind == "start_tile" and len(decision.options) > 1
    view = game.views[decision.seat]
    bot = resolve(value_bot(trained, kinds="turn", width=2))
    assert bot.choose(view, decision) == resolve("greedy").choose(view, decision)
    assert bot.forks and bot.valued == {"turn"}


@pytest.mark.parametrize("hidden", ["0,-3", "64,0", "big", ","])
def test_bad_hidden_sizes_are_refused_before_any_game(tmp_path, hidden):
    out = tmp_path / "model"
    result = CliRunner().invoke(main, ["train", "--out", str(out), "--games", "2", "-n", "2",
                                       "--learner", "mlp", "--hidden", hidden, "--jobs", "1",
                                       "--quiet"])
    assert result.exit_code == 2
    assert f"Invalid value for --hidden: {hidden!r}: expected sizes like 64 or 128,32, each " \
           "at least 1" in result.output
    assert not out.exists()
