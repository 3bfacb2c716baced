"""The experience recorder on real games, the runner's experience tables, the win-probability
estimator and the kingmaking replay."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pandas as pd
import pytest

from tests.experience_by_hand import by_hand
from zsim.decisions import Decision
from zsim.experience import kingmaking, metrics, valuewin, winprob
from zsim.experience.data import read
from zsim.experience.record import ExperienceRecorder, option_label
from zsim.game import Game
from zsim.options import GameOptions
from zsim.rules.scoring import standing
from zsim.runner import Experiment
from zsim.runner.batch import start_run
from zsim.strategies.base import Strategy
from zsim.strategies.random_bot import RandomStrategy
from zsim.strategies.registry import resolve
from zsim.view import PlayerView

LINEUP = ["greedy", "builder", "random"]


def seats(names: list[str]) -> list[Any]:
    return [resolve(name) for name in names]


def played(box, names: list[str], seed: int, mode: str | None = "vp"):
    game = Game(box, seats(names), seed)
    recorder = ExperienceRecorder(game, mode).listen(game) if mode else None
    result = game.play()
    return game, result, recorder.finish(game, result) if recorder else None


def outcome(result) -> tuple:
    return (result.scores, result.decisions, result.walls, result.rewards, result.abilities,
            result.tiles)


@pytest.mark.parametrize("mode", ["vp", "value"])
def test_recording_changes_no_game(box, mode):
    for seed in (3, 8):
        assert outcome(played(box, LINEUP, seed, None)[1]) == outcome(
            played(box, LINEUP, seed, mode)[1])


def test_the_trajectory_has_every_turn_round_and_the_final_score(box):
    game, result, records = played(box, LINEUP, 5)
    rows = pd.DataFrame(records["trajectories"], columns=[
        "seat", "round", "turn", "stage", "mover", "vp", "standing", "p_win"])
    n, rounds = 3, game.rules.rounds
    turns = rounds * 3 * game.rules.cards_per_suit_per_round * n
    assert (rows["stage"] == "turn").sum() == turns * n
    assert (rows["stage"] == "round").sum() == rounds * n
    final = rows[rows["stage"] == "final"].set_index("seat")
    assert list(final["vp"]) == [s["vp_total"] for s in result.scores]
    assert list(final["p_win"]) == [1.0 / len(result.winners) if s in result.winners else 0.0
                                    for s in range(n)]
    # the last round's standing is the final score; the score track never goes down
    last = rows[(rows["stage"] == "round") & (rows["round"] == rounds)].set_index("seat")
    assert list(last["standing"]) == list(final["vp"])
    assert (rows[rows["stage"] == "turn"].groupby("seat")["vp"].diff().dropna() >= 0).all()
    assert rows.loc[rows["stage"] == "turn", "standing"].isna().all()  # vp mode
    assert set(rows.loc[rows["stage"] == "turn", "mover"]) <= set(range(n))


def test_value_mode_records_the_standing_after_every_turn(box):
    _game, _, records = played(box, LINEUP, 5, "value")
    rows = pd.DataFrame(records["trajectories"], columns=[
        "seat", "round", "turn", "stage", "mover", "vp", "standing", "p_win"])
    assert rows["standing"].notna().all()
    # the standing is the score track plus the end-game categories, never less
    assert (rows["standing"] >= rows["vp"]).all()


def test_a_position_estimator_fills_the_win_probabilities_as_the_game_is_played(box):
    calls = []

    def even(game: Game) -> list[float]:
        calls.append(game.state.round)
        return [1 / game.n] * game.n

    game = Game(box, seats(LINEUP), 2)
    recorder = ExperienceRecorder(game, "value", estimator=even).listen(game)
    records = recorder.finish(game, game.play())
    chances = [row[-1] for row in records["trajectories"] if row[3] != "final"]
    assert chances and all(c == pytest.approx(1 / 3) for c in chances)
    assert len(calls) == len(chances) // 3


def test_choices_count_every_question_and_the_bots_values(box):
    _game, result, records = played(box, ["greedy", "random", "builder"], 4)
    choices = pd.DataFrame(records["choices"], columns=[
        "seat", "kind", "asked", "forced", "options", "valued", "gap", "narrow", "spread"])
    assert choices["asked"].sum() == result.decisions
    assert choices["forced"].sum() > 0  # lone options are told as forced, never asked
    assert (choices["options"] >= 2 * choices["asked"]).all()
    valued = choices.groupby("seat")["valued"].sum()
    assert valued[1] == 0 and valued[0] > 0 and valued[2] > 0  # the random bot values nothing
    turn = choices[(choices["kind"] == "turn") & (choices["seat"] == 0)].iloc[0]
    assert turn["valued"] == turn["asked"] or turn["valued"] > 0.9 * turn["asked"]
    assert (choices["gap"] >= 0).all() and (choices["narrow"] <= choices["valued"]).all()
    options = pd.DataFrame(records["options"], columns=["seat", "kind", "option", "offered",
                                                        "chosen"])
    assert (options["chosen"] <= options["offered"]).all()
    per_kind = options.groupby(["seat", "kind"])["chosen"].sum()
    asked = choices.set_index(["seat", "kind"])["asked"]
    assert (per_kind.reindex(asked.index).fillna(0) == asked).all()  # one label chosen each


def test_the_recorded_values_are_the_ones_the_viewer_shows(box):
    """What the heuristic noted while it chose is what it says when asked again."""
    game = Game(box, [None, None], 6)
    strategy = resolve("greedy")
    kept = strategy.keep_values(game.views[0])
    for _ in range(40):
        decision = game.pending()
        if decision.seat == 0:
            answer = strategy.choose(game.views[0], decision)
            noted = dict(kept)
            kept.clear()
            again = strategy.option_values(game.views[0], decision)
            assert [noted.get(o) for o in decision.options] == again
            assert kept == {}  # asking again noted nothing more
        else:
            answer = decision.options[0]
        game.answer(answer)


def test_option_labels(box):
    game = Game(box, [None, None], 1)
    assert option_label(game, "turn", ("court", 5, 3)) == "court palace"
    assert option_label(game, "turn", ("unify", 5, 2)) == "unify"
    assert option_label(game, "hire", 0) == "chu"
    assert option_label(game, "recruit", (1, 4)) == "architect"
    assert option_label(game, "reward", "pass") == "pass"
    assert option_label(game, "activate", ("move", 0, 1, 2)) == "move"
    assert option_label(game, "palace_tile", 0) == box.palace_tiles[0].id
    assert option_label(game, "soldier", 3) == "index"


def test_standing_tells_no_one_and_matches_the_final_score(box):
    game = Game(box, seats(LINEUP), 9)
    told = []
    game.listen(type("Tell", (), {"event": lambda self, g, k, d: told.append(k)})(),
                ("walls",))
    result = game.play()
    assert told == ["walls"] * 3  # the final scoring's, not the standing's
    assert standing(game) == [s["vp_total"] for s in result.scores]


@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("experience") / "run"
    start_run(Experiment(games=80, players=[2, 3], strategies=["greedy", "random"], seed=4,
                         jobs=1, chunk_size=20, kingmaking=2, trajectories="vp"), out)
    return out


def test_a_run_writes_the_experience_tables_with_win_probabilities(small_run):
    experience = read([small_run])
    t = experience.trajectories
    assert experience.recorded and not experience.every_turn
    assert t.groupby("game").ngroups == 80
    rounds = t[t["stage"] == "round"]
    assert rounds["p_win"].notna().all()
    sums = rounds.groupby(["game", "turn"])["p_win"].sum()
    assert np.allclose(sums, 1.0)  # a point's chances add up to one
    assert t.loc[t["stage"] == "turn", "p_win"].isna().all()
    assert experience.estimators == [winprob.MarginModel.name]
    players = pd.read_parquet(small_run / "players.parquet")
    final = t[t["stage"] == "final"].merge(players, on=["game", "seat"])
    assert (final["vp"] == final["vp_total"]).all()
    assert (final["strategy_x"] == final["strategy_y"]).all()
    games = experience.games
    assert len(games) == 80 and games["first_player_won"].notna().all()
    km = pd.read_parquet(small_run / "kingmaking.parquet")
    assert set(km["game"]) == {0, 1}  # the first two games only
    assert (km["kingmaker"] <= ~km["could_win"]).all()
    assert (km.loc[km["kingmaker"], "outcomes"] > 1).all()


def test_a_run_without_trajectories_has_empty_tables_and_the_same_games(small_run, tmp_path):
    out = tmp_path / "off"
    start_run(Experiment(games=80, players=[2, 3], strategies=["greedy", "random"], seed=4,
                         jobs=1, chunk_size=20, trajectories="off"), out)
    assert not read([out]).recorded
    assert winprob.estimator_note(out / "trajectories.parquet") is None
    columns = ["game", "seat", "vp_total", "rank"]
    pd.testing.assert_frame_equal(pd.read_parquet(out / "players.parquet")[columns],
                                  pd.read_parquet(small_run / "players.parquet")[columns])


def synthetic(games: int) -> pd.DataFrame:
    """Two-player games whose winner is drawn from a known logit of the standing margin after
    round 3 (0.8 per ten VP), recorded after each of 4 rounds and at the end."""
    rng = np.random.default_rng(3)
    rows = []
    for game in range(games):
        standing = rng.normal(0, 15, size=(4, 2)).cumsum(axis=0)
        utility = 0.8 * (standing[-2] - standing[-2].mean()) / 10
        p = np.exp(utility) / np.exp(utility).sum()
        winner = rng.choice(2, p=p)
        final = standing[-2] + [100 * (s == winner) for s in range(2)]
        for r in range(4):
            for seat in range(2):
                point = final if r == 3 else standing[r]
                rows.append({"run_id": "r", "game": game, "n_players": 2, "seat": seat,
                             "round": r + 1, "turn": 10 * (r + 1), "stage": "round",
                             "standing": float(point[seat]), "vp": 0, "p_win": np.nan})
        for seat in range(2):
            rows.append({"run_id": "r", "game": game, "n_players": 2, "seat": seat,
                         "round": 4, "turn": 40, "stage": "final",
                         "standing": float(final[seat]), "vp": int(final[seat]),
                         "p_win": float(seat == winner)})
    return pd.DataFrame(rows)


def test_the_margin_model_is_calibrated_on_games_of_a_known_law():
    t = synthetic(400)
    filled = winprob.fill(t)
    assert filled.loc[t["stage"] == "round", "p_win"].notna().all()
    last = filled[(filled["stage"] == "round") & (filled["round"] == 4)]
    assert set(last["p_win"]) == {0.0, 1.0}  # the last round's end is the final score
    table = winprob.calibration(filled, bins=5)
    assert (table["estimated"] - table["observed"]).abs().max() < 0.1
    assert table.attrs["brier"] < 0.25


def test_too_few_games_give_no_estimate():
    filled = winprob.fill(synthetic(30))  # 15 per fold: fewer than winprob.MIN_GAMES
    early = filled[(filled["stage"] == "round") & (filled["round"] < 4)]
    assert early["p_win"].isna().all()


class Fickle(Strategy):
    """Answers by a count kept across all its instances and games: a replay asks it again
    later in the count, and it answers otherwise."""

    name = "fickle"
    asked = 0

    def choose(self, view: PlayerView, decision: Decision) -> Any:
        Fickle.asked += 1
        return decision.options[Fickle.asked % len(decision.options)]


def test_kingmaking_examines_the_last_choices_of_the_players_who_did_not_win(box):
    strategies = seats(["greedy", "builder", "governor"])
    game = Game(box, strategies, 12)
    log = kingmaking.AnswerLog()
    game.listen(log, ("decision",))
    result = game.play()
    records = kingmaking.analyse(box, GameOptions(), strategies, 12, log.answers,
                                 result.winners, last=2)
    losers = {s for s in range(3) if s not in result.winners}
    assert {r[0] for r in records} == losers
    assert sorted(r[2] for r in records) == sorted([1, 2] * len(losers))
    for _seat, _, _, options, _kept, outcomes, could_win, king in records:
        assert options >= 2 and 1 <= outcomes <= options
        assert king == (not could_win and outcomes > 1)
    candidates = kingmaking.candidates(
        [(0, "turn", 1), (1, "turn", 1), (0, "reward", 1), (0, "turn", 2)], {0}, last=1)
    assert candidates == {3: 1}


def test_a_strategy_that_answers_otherwise_on_replay_is_named(box):
    strategies = [Fickle(), RandomStrategy()]
    game = Game(box, strategies, 3)
    log = kingmaking.AnswerLog()
    game.listen(log, ("decision",))
    result = game.play()
    with pytest.raises(RuntimeError, match=r"seed 3: seat 0 answers question \d+ otherwise"):
        kingmaking.analyse(box, GameOptions(), [Fickle(), RandomStrategy()], 3, log.answers,
                           result.winners)


def test_every_metric_of_every_game_recomputed_by_hand_from_the_parquet_files(small_run):
    """``per_game`` against the same definitions as whole-table pandas operations
    (tests/experience_by_hand.py), on a real run: every metric, every game, 2 and 3 players."""
    mine = read([small_run]).games.drop(columns="run_id").set_index("game").sort_index()
    hand = by_hand(small_run).set_index("game").sort_index()[mine.columns]
    for metric in mine.columns:
        assert mine[metric].notna().any(), metric  # the run gives each metric a value
    pd.testing.assert_frame_equal(mine, hand, check_dtype=False, rtol=1e-9)
    # a run's summary is the mean over its games, per player count
    summary = metrics.per_run(read([small_run]).games)
    means = hand.groupby("n_players")[list(metrics.METRICS)].mean()
    for n, row in means.iterrows():
        got = summary[summary["n_players"] == str(n)].set_index("metric")["mean"]
        assert np.allclose(got[row.index].to_numpy(float), row.to_numpy(float), equal_nan=True)


def test_the_value_model_estimates_two_player_games_without_changing_them(box):
    for seed in (3, 11):
        plain = Game(box, seats(["greedy", "random"]), seed)
        valued = Game(box, seats(["greedy", "random"]), seed)
        estimate = valuewin.estimator(valued)
        assert estimate is not None
        recorder = ExperienceRecorder(valued, "value", estimator=estimate).listen(valued)
        result = valued.play()
        assert outcome(plain.play()) == outcome(result)
        rows = pd.DataFrame(recorder.finish(valued, result)["trajectories"], columns=[
            "seat", "round", "turn", "stage", "mover", "vp", "standing", "p_win"])
        points = rows[rows["stage"] != "final"]
        assert points["p_win"].between(0, 1).all()
        assert np.allclose(points.groupby(["turn", "stage"])["p_win"].sum(), 1.0)
        # the model is informed: the winner is its favourite over the last round
        last = points[points["round"] == points["round"].max()]
        winner = result.winners[0]
        assert last.loc[last["seat"] == winner, "p_win"].mean() > 0.5
    assert valuewin.estimator(Game(box, seats(LINEUP), 1)) is None  # no 3-player model


def test_a_value_run_takes_two_player_chances_from_the_model_and_says_so(tmp_path):
    out = tmp_path / "value"
    start_run(Experiment(games=8, players=[2, 3], strategies=["greedy", "random"], seed=5,
                         jobs=1, trajectories="value"), out)
    t = pd.read_parquet(out / "trajectories.parquet")
    turns = t[t["stage"] == "turn"]
    assert turns.loc[turns["n_players"] == 2, "p_win"].notna().all()
    assert turns.loc[turns["n_players"] == 3, "p_win"].isna().all()  # no model, too few games
    note = winprob.estimator_note(out / "trajectories.parquet")
    assert note is not None and note.startswith(f"{valuewin.NAME} (2 players); ")
    # the same games as a run recording nothing
    start_run(Experiment(games=8, players=[2, 3], strategies=["greedy", "random"], seed=5,
                         jobs=1, trajectories="off"), tmp_path / "off")
    columns = ["game", "seat", "vp_total", "rank"]
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "off" / "players.parquet")[columns],
                                  pd.read_parquet(out / "players.parquet")[columns])


def test_the_option_tallies_come_in_the_same_order_in_every_process():
    """options.parquet's rows in one order whatever the process's string hashes are."""
    import subprocess
    import sys

    script = ("from tests.test_experience_record import played; "
              "from zsim.components.loader import default_box_dir, load_box; "
              "box = load_box(default_box_dir()); "
              "print(played(box, ['greedy', 'random', 'builder'], 4)[2]['options'])")
    outputs = {
        subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                       env={**os.environ, "PYTHONHASHSEED": seed}).stdout
        for seed in ("1", "2", "3")}
    assert len(outputs) == 1 and len(next(iter(outputs))) > 1000
