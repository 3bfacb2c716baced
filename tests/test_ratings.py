"""Ratings (``zsim.ratings``, ``zsim rate``): the model against known strengths and a second
computation, ties, mirror lineups, degenerate data, the command line and its figure."""

from __future__ import annotations

import json
import math
from itertools import combinations
from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from figure_checks import tick_label_clashes
from scipy.optimize import minimize
from scipy.special import expit, logit

from zsim.cli import main
from zsim.ratings import RatingError, choices, rate, win_probability
from zsim.reports.common import STYLE
from zsim.reports.ratings import ladder_figure
from zsim.runner import Experiment
from zsim.runner.batch import start_run


def players_of(games: list[tuple[list[str], list[int]]], n_players: int | None = None
               ) -> pd.DataFrame:
    """A players table from (strategy by seat, rank by seat) per game; the winners (rank 1)
    share the win."""
    rows = []
    for key, (seated, ranks) in enumerate(games):
        winners = ranks.count(min(ranks))
        for seat, (strategy, rank) in enumerate(zip(seated, ranks, strict=True)):
            rows.append({"game_key": key, "n_players": n_players or len(seated), "seat": seat,
                         "strategy": strategy, "rank": rank,
                         "win_share": 1 / winners if rank == min(ranks) else 0.0})
    return pd.DataFrame(rows)


def plackett_luce_games(strengths: dict[str, float], games: int, seats: int,
                        seed: int) -> list[tuple[list[str], list[int]]]:
    """Games drawn from a Plackett–Luce model: sorting strength plus Gumbel noise draws a
    finishing order with exactly the model's probabilities."""
    rng = np.random.default_rng(seed)
    names = list(strengths)
    drawn = []
    for _ in range(games):
        seated = list(rng.choice(names, size=seats, replace=False))
        score = np.array([strengths[s] for s in seated]) + rng.gumbel(size=seats)
        ranks = list(np.argsort(np.argsort(-score)) + 1)
        drawn.append((seated, [int(r) for r in ranks]))
    return drawn


def test_the_model_recovers_known_strengths_within_its_intervals():
    truth = {"strong": 1.2, "good": 0.4, "fair": -0.1, "weak": -1.5}
    centred = {s: v - np.mean(list(truth.values())) for s, v in truth.items()}
    ladder = rate(players_of(plackett_luce_games(truth, 3000, 3, seed=7))).ladders[0]
    table = ladder.table.set_index("strategy")
    assert list(table.index) == ["strong", "good", "fair", "weak"]
    gaps = ladder.gaps.set_index("higher")
    assert gaps.loc["strong", "lower"] == "good"
    assert gaps.loc["strong", "gap"] == pytest.approx(table.loc["strong", "rating"]
                                                      - table.loc["good", "rating"])
    # Strategies that met often: their gap is surer than their two intervals side by side.
    assert gaps.loc["strong", "high"] - gaps.loc["strong", "low"] < (
        table.loc["strong", "high"] - table.loc["strong", "low"]
        + table.loc["good", "high"] - table.loc["good", "low"])
    assert (gaps["low"] > 0).all()  # 3000 games settle the order
    for strategy, value in centred.items():
        assert table.loc[strategy, "low"] < value < table.loc[strategy, "high"]
    assert table["rating"].sum() == pytest.approx(0, abs=1e-9)
    assert ladder.notes == [] and ladder.games == 3000


def test_the_intervals_cover_the_truth_about_as_often_as_they_claim():
    truth = {"a": 0.5, "b": 0.0, "c": -0.5}
    centred = {s: v - np.mean(list(truth.values())) for s, v in truth.items()}
    covered = []
    for seed in range(40):
        table = rate(players_of(plackett_luce_games(truth, 150, 2, seed))).ladders[0].table
        covered += [low < centred[s] < high
                    for s, low, high in zip(table["strategy"], table["low"], table["high"],
                                            strict=True)]
    assert 0.88 <= np.mean(covered) <= 1.0  # 95% claimed; 120 intervals


def test_two_strategies_rate_as_the_log_odds_of_their_win_rate():
    rng = np.random.default_rng(3)
    wins = rng.random(2000) < 0.7
    games = [(["a", "b"], [1, 2] if won else [2, 1]) for won in wins]
    ladder = rate(players_of(games)).ladders[0]
    gap = ladder.table.set_index("strategy")["rating"].pipe(lambda r: r["a"] - r["b"])
    # The prior (a win and a loss against a reference per strategy) moves it only a little.
    assert gap == pytest.approx(logit(wins.mean()), abs=0.01)
    assert win_probability(gap) == pytest.approx(wins.mean(), abs=0.003)
    assert win_probability(0.0) == 0.5 and win_probability(1.0) == pytest.approx(expit(1.0))
    # The gap's interval is the binomial log-odds' own: standard error 1 / sqrt(n p (1 - p)).
    step = ladder.gaps.iloc[0]
    assert (step["higher"], step["lower"]) == ("a", "b") and step["gap"] == pytest.approx(gap)
    se = 1 / math.sqrt(len(wins) * wins.mean() * (1 - wins.mean()))
    assert (step["high"] - step["low"]) / (2 * 1.959964) == pytest.approx(se, rel=0.02)
    assert step["p_ahead"] == pytest.approx(win_probability(gap))


def _by_hand(games: list[tuple[list[str], list[int]]], strategies: list[str]) -> np.ndarray:
    """The same model maximised directly: each rank level picks its set of tied players from
    those left, with probability exp(sum of their ratings) over that sum for every set of the
    same size; plus one win and one loss against a reference of rating 0 per strategy."""
    index = {s: i for i, s in enumerate(strategies)}

    def minus_loglike(r: np.ndarray) -> float:
        total = float(np.sum(np.log(expit(r)) + np.log(expit(-r))))
        for seated, ranks in games:
            left = list(range(len(seated)))
            for level in sorted(set(ranks)):
                chosen = [p for p in left if ranks[p] == level]
                if len(chosen) == len(left):
                    break
                strength = [r[index[seated[p]]] for p in left]
                sets = [sum(c) for c in combinations(strength, len(chosen))]
                total += sum(r[index[seated[p]]] for p in chosen) - math.log(
                    sum(math.exp(v) for v in sets))
                left = [p for p in left if p not in chosen]
        return -total

    best = minimize(minus_loglike, np.zeros(len(strategies)), method="BFGS",
                    options={"gtol": 1e-9})
    return best.x - best.x.mean()


def test_ties_and_mirror_lineups_match_the_likelihood_maximised_by_hand():
    games = [
        (["a", "b", "c", "a"], [1, 2, 2, 4]),  # a tie in the middle, a in two seats
        (["b", "c", "a", "c"], [1, 1, 3, 4]),  # a shared win
        (["c", "a", "b", "b"], [1, 2, 3, 3]),  # a tie for last: no choice between them
        (["a", "b", "c", "b"], [2, 1, 3, 4]),
        (["c", "b", "a", "a"], [1, 3, 2, 4]),
        (["a", "a", "a", "a"], [1, 2, 3, 4]),  # one strategy in every seat: left out
    ]
    ladder = rate(players_of(games)).ladders[0]
    assert ladder.games == 5 and ladder.tied_games == 3
    table = ladder.table.set_index("strategy").sort_index()
    expected = _by_hand(games[:5], ["a", "b", "c"])
    np.testing.assert_allclose(table["rating"].to_numpy(), expected, atol=1e-4)
    # The mirror game changes nothing: it is left out, and it compares nothing anyway.
    without = rate(players_of(games[:5])).ladders[0].table.set_index("strategy").sort_index()
    np.testing.assert_allclose(without["rating"], table["rating"], atol=1e-9)
    assert table.loc["a", "seats"] == 7 and table.loc["a", "games"] == 5


def test_the_exploded_ranking_lists_each_choice_once_with_its_picked_players():
    picked = choices(players_of([(["a", "b", "c", "d"], [1, 2, 2, 4]),
                                 (["a", "b"], [1, 1])]))
    # Game 0: a from all four, then b and c together from b, c, d; d's last pick says nothing.
    # Game 1: a shared win between the only two players: nothing to choose.
    assert picked.groupby("group")["strategy"].apply(list).tolist() == [
        ["a", "b", "c", "d"], ["b", "c", "d"]]
    assert picked.groupby("group")["chosen"].sum().tolist() == [1, 2]


def test_a_strategy_that_never_wins_gets_a_finite_rating_and_a_warning():
    games = [(["greedy", "random"], [1, 2]), (["random", "greedy"], [2, 1]),
             (["basic", "random"], [1, 2]), (["greedy", "basic"], [1, 2])] * 5
    ladder = rate(players_of(games)).ladders[0]
    assert np.isfinite(ladder.table[["rating", "low", "high"]].to_numpy()).all()
    assert list(ladder.table["strategy"]) == ["greedy", "basic", "random"]
    assert len(ladder.notes) == 1
    assert "[greedy] > [basic] > [random]" in ladder.notes[0]


def test_one_game_an_all_tied_game_and_one_strategy_are_answered_not_crashed():
    one = rate(players_of([(["a", "b"], [1, 2])])).ladders[0]
    assert np.isfinite(one.table[["rating", "low", "high"]].to_numpy()).all()
    assert one.table["strategy"].tolist() == ["a", "b"] and "[a] > [b]" in one.notes[0]
    tied = rate(players_of([(["a", "b", "c"], [1, 1, 1])])).ladders[0]
    assert tied.tied_games == 1 and np.allclose(tied.table["rating"], 0)
    assert (tied.table["low"] < 0).all() and (tied.table["high"] > 0).all()
    with pytest.raises(RatingError, match=r"nothing to rate: 2 players: every game has one "
                                          r"strategy in every seat \(basic\)"):
        rate(players_of([(["basic", "basic"], [1, 2])] * 3))
    with pytest.raises(RatingError, match="no finished games"):
        rate(players_of([]).reindex(columns=["game_key", "n_players", "seat", "strategy",
                                             "rank", "win_share"]))


def test_player_counts_are_rated_apart_and_solo_games_left_out():
    games = [(["a", "b"], [1, 2]), (["b", "a"], [1, 2]), (["a", "b", "b"], [2, 1, 3]),
             (["a", "lisi-2"], [1, 2]), (["a", "a", "a"], [1, 2, 3])]
    ratings = rate(players_of(games))
    assert [ladder.n_players for ladder in ratings.ladders] == [2, 3]
    assert set(ratings.table["strategy"]) == {"a", "b"}
    assert ratings.ladders[0].games == 2  # the solo game is not one of them
    assert ratings.skipped == []


def test_a_seat_aliased_design_is_pointed_out():
    games = [(["a", "b"], [1, 2]), (["a", "b"], [2, 1]), (["a", "b"], [1, 2])]
    notes = rate(players_of(games)).ladders[0].notes
    assert any("always sat in the same seat order" in note for note in notes)


@pytest.fixture(scope="module")
def small_run(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("runs") / "small"
    start_run(Experiment(games=36, players=[2, 3], strategies=["greedy", "basic", "random"],
                         seed=2, jobs=1), out)
    return out


def test_cli_prints_writes_and_draws_the_ladder(small_run, tmp_path):
    csv, figure = tmp_path / "ratings.csv", tmp_path / "ladder.png"
    result = CliRunner().invoke(main, ["rate", str(small_run), "--csv", str(csv),
                                       "--figure", str(figure)])
    assert result.exit_code == 0, result.output
    assert "2 players: 18 games" in result.output and "3 players: 18 games" in result.output
    assert "95% interval" in result.output and "1/(1+exp(-d))" in result.output
    assert "gaps down the ladder (95%)" in result.output
    table = pd.read_csv(csv)
    assert sorted(set(table["n_players"])) == [2, 3]
    assert set(table["strategy"]) == {"greedy", "basic", "random"}
    assert table.notna().all().all()
    assert figure.stat().st_size > 5000
    result = CliRunner().invoke(main, ["rate", str(small_run), "--json"])
    assert result.exit_code == 0, result.output
    shown = json.loads(result.output)
    ladders = {ladder["n_players"]: ladder for ladder in shown["ladders"]}
    two = pd.DataFrame(ladders[2]["ratings"]).set_index("strategy")
    np.testing.assert_allclose(two["rating"],
                               table[table["n_players"] == 2].set_index("strategy")["rating"])
    assert len(ladders[2]["gaps"]) == 2 and ladders[2]["gaps"][0]["higher"] == two.index[0]
    # The ranks in the table are the run's own.
    players = pd.read_parquet(small_run / "players.parquet")
    mean_rank = players[players["n_players"] == 2].groupby("strategy")["rank"].mean()
    np.testing.assert_allclose(two["mean_rank"], mean_rank.reindex(two.index))


def test_the_ladder_figure_labels_every_strategy_readably(small_run):
    from zsim.reports.loader import load_runs

    ratings = rate(load_runs([small_run]).players)
    with matplotlib.rc_context(STYLE):
        figure = ladder_figure(ratings)
        figure.figure.get_layout_engine().execute(figure.figure)
        figure.figure.draw_without_rendering()
    assert tick_label_clashes(figure) == []
    labels = [t.get_text() for t in figure.figure.axes[0].get_yticklabels()]
    best_first = ratings.ladders[0].table["strategy"].tolist()
    assert labels == best_first[::-1]  # best on top


def test_cli_errors_are_one_clear_line(small_run, tmp_path):
    result = CliRunner().invoke(main, ["rate", str(tmp_path / "nowhere")])
    assert result.exit_code == 1 and "no such run directory" in result.output
    alone = tmp_path / "alone"
    start_run(Experiment(games=4, players=[2], strategies=["random"], seed=1, jobs=1), alone)
    result = CliRunner().invoke(main, ["rate", str(alone)])
    assert result.exit_code == 1
    assert "nothing to rate: 2 players: every game has one strategy in every seat (random)" \
        in result.output
    result = CliRunner().invoke(main, ["rate", str(small_run), "--figure",
                                       str(tmp_path / "no" / "such" / "dir.png")])
    assert result.exit_code == 1 and "cannot be written" in result.output
    nowhere = tmp_path / "no" / "such" / "x.csv"
    result = CliRunner().invoke(main, ["rate", str(small_run), "--csv", str(nowhere)])
    assert result.exit_code == 1
    assert result.output.startswith(f"Error: --csv {nowhere}: cannot be written (")
    assert len(result.output.splitlines()) == 1
