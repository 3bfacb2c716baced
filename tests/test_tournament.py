"""``zsim tournament``: the round robin's balance, its rounding and refusals, and a real one."""

from __future__ import annotations

from collections import Counter
from itertools import permutations

import pandas as pd
import pytest
from click.testing import CliRunner

from zsim.cli import main
from zsim.runner.experiment import ExperimentError
from zsim.tournament import plan_tournament, round_games
from zsim.whatif import base_experiment


@pytest.mark.parametrize(("lineup", "players", "rounds"), [
    (("a", "b", "c"), 2, 3), (("a", "b", "c", "d"), 3, 2),
    (("greedy", "builder", "governor", "alchemist", "courtier", "mausoleum"), 4, 1)])
def test_every_subset_sits_in_every_seat_order_equally_often(lineup, players, rounds):
    planned = plan_tournament(base_experiment(None), lineup, players,
                              round_games(len(lineup), players) * rounds)
    schedule = planned.experiment.schedule()
    seatings = [schedule.plan(i).strategies for i in range(planned.experiment.games)]
    orders = Counter(seatings)
    # Every ordered lineup of distinct strategies, each as often as every other.
    assert set(orders) == set(permutations(lineup, players))
    assert set(orders.values()) == {rounds}
    subsets = Counter(frozenset(s) for s in seatings)
    assert len(set(subsets.values())) == 1
    seats = Counter((strategy, seat) for s in seatings for seat, strategy in enumerate(s))
    assert len(seats) == len(lineup) * players and len(set(seats.values())) == 1


def test_a_game_count_is_rounded_up_to_whole_rounds_and_said_so():
    planned = plan_tournament(base_experiment(None), ["greedy", "basic", "random"], 2, 400)
    assert planned.round_games == 6 and planned.experiment.games == 402
    assert planned.rounds == 67
    assert "rounds of 6 games (3 lineup(s) of 2 x 2 seat orders): --games 400 rounded up to " \
           "402 (67 round(s))" in planned.describe()
    exact = plan_tournament(base_experiment(None), ["greedy", "basic", "random"], 2, 12)
    assert exact.experiment.games == 12 and "rounded" not in exact.describe()
    assert exact.experiment.seats == "balanced" and exact.experiment.players == [2]


@pytest.mark.parametrize(("lineup", "players", "message"), [
    (["greedy"], 2, "at least two strategies"),
    (["greedy", "basic", "greedy"], 2, "strategy 'greedy' is given twice"),
    (["greedy", " greedy "], 2, "strategy 'greedy' is given twice"),
    (["greedy", "basic", "random"], 4, "at 4 players needs at least 4 strategies"),
])
def test_a_lineup_that_cannot_make_a_round_robin_is_refused(lineup, players, message):
    with pytest.raises(ExperimentError, match=message):
        plan_tournament(base_experiment(None), lineup, players, 10)


def test_cli_plays_a_balanced_run_of_parameterised_strategies_and_rates_it(tmp_path):
    out = tmp_path / "t"
    tuned = "greedy(patience=0.3, walls=2)"
    result = CliRunner().invoke(main, [
        "tournament", "-s", tuned, "-s", "basic", "-s", "random", "--games", "10",
        "--players", "2", "--jobs", "1", "--seed", "4", "--out", str(out), "--csv",
        str(tmp_path / "ratings.csv")])
    assert result.exit_code == 0, result.output
    assert "--games 10 rounded up to 12 (2 round(s))" in result.output
    assert "2 players: 12 games" in result.output and tuned in result.output
    players = pd.read_parquet(out / "players.parquet")
    assert players["game"].nunique() == 12
    seats = players.groupby(["strategy", "seat"]).size()
    assert len(seats) == 6 and set(seats) == {4}
    lineups = players.groupby("game")["strategy"].agg(frozenset).value_counts()
    assert len(lineups) == 3 and set(lineups) == {4}
    ratings = pd.read_csv(tmp_path / "ratings.csv")
    assert set(ratings["strategy"]) == {tuned, "basic", "random"}
    # The run is an ordinary one: `zsim rate` reads it and says the same.
    again = CliRunner().invoke(main, ["rate", str(out), "--csv", str(tmp_path / "again.csv")])
    assert again.exit_code == 0, again.output
    pd.testing.assert_frame_equal(ratings, pd.read_csv(tmp_path / "again.csv"))


def test_cli_refuses_bad_lineups_and_unknown_strategies_before_playing(tmp_path):
    result = CliRunner().invoke(main, ["tournament", "-s", "greedy", "-s", "greedy",
                                       "--out", str(tmp_path / "a")])
    assert result.exit_code == 1 and "given twice" in result.output
    assert not (tmp_path / "a").exists()
    result = CliRunner().invoke(main, ["tournament", "-s", "greedy", "-s", "nosuchbot",
                                       "--players", "2", "--games", "2", "--jobs", "1",
                                       "--out", str(tmp_path / "b")])
    assert result.exit_code == 1 and "nosuchbot" in result.output
