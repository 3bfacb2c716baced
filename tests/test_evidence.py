"""The statistics a designer acts on, recomputed another way: detectable sizes, games for a
precision, confidence sequences, verdicts of replays, the findings' groups, assumed marks."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
import scipy.stats

from zsim.compare import by_definition, verdict
from zsim.components import default_box_dir, load_box
from zsim.game import Game
from zsim.options import GameOptions
from zsim.paths import configs_dir
from zsim.recheck import (
    CANNOT_TELL,
    FLIPS,
    HOLDS,
    SHRINKS,
    VANISHED,
    judge,
    keeper_edge,
    keeper_excess,
    mean_interval,
)
from zsim.reports.assumed import MARK, Marker, assumed_components, component_names, mark
from zsim.reports.common import forest, new_figure
from zsim.reports.findings import findings
from zsim.reports.model import ASSOCIATION, CAUSAL, STRATEGY, Comparison, Figure, Section, Table
from zsim.reports.summary import rare_rewards, strategy_table
from zsim.rules import queries
from zsim.sequential import half_width, sequence, stage_seed, until_precision
from zsim.stats import detectable_shift, games_for_precision
from zsim.variants import other_readings, parse


def test_the_detectable_shift_is_statsmodels_power_solved_for_the_effect():
    from statsmodels.stats.power import NormalIndPower

    rng = np.random.default_rng(3)
    values = rng.normal(0.02, 0.4, 400)
    sd, n = values.std(ddof=1), values.size
    half = 1.959963985 * sd / math.sqrt(n)
    by_hand = NormalIndPower().solve_power(nobs1=n, alpha=0.05, power=0.8, ratio=0) * sd
    assert detectable_shift(values.mean() - half, values.mean() + half) == pytest.approx(
        by_hand, rel=1e-4)
    assert math.isnan(detectable_shift(math.nan, 1.0))
    assert detectable_shift(0.3, 0.3) == 0  # no spread: any shift would show


def test_games_for_a_precision_grow_with_the_square_of_the_narrowing():
    assert games_for_precision(100, -10, 10, 5) == 400  # half the width: four times the games
    assert games_for_precision(100, -2, 2, 5) == 16
    assert math.isnan(games_for_precision(0, -1, 1, 1)) and math.isnan(
        games_for_precision(10, -1, 1, 0))


def test_the_confidence_sequence_covers_at_every_look_where_fixed_intervals_do_not():
    from statsmodels.stats.proportion import proportion_confint

    # 300 simulated runs of win/lose games, looked at after every 10 games up to 600: a 95%
    # interval that holds at every look misses the true rate in at most 5% of the runs,
    # while an ordinary interval checked at every look misses far more often.
    rng = np.random.default_rng(7)
    p, runs, looks = 0.3, 300, range(20, 601, 10)
    wins = rng.random((runs, 600)) < p
    missed_cs = missed_fixed = 0
    for run in wins:
        cs_miss = fixed_miss = False
        for n in looks:
            _mean, low, high = sequence(run[:n].astype(float), planned=200)
            cs_miss |= not low <= p <= high
            low_f, high_f = proportion_confint(run[:n].sum(), n, method="normal")
            fixed_miss |= not low_f <= p <= high_f
        missed_cs += cs_miss
        missed_fixed += fixed_miss
    assert missed_cs / runs <= 0.05
    assert missed_fixed / runs > 0.15


def test_confidence_sequences_on_degenerate_data():
    assert sequence(np.array([1.0]), 100)[1:] == (-math.inf, math.inf)  # one game: no interval
    mean, low, high = sequence(np.zeros(40), 100)  # never won in 40 games: not known to ±0
    assert mean == 0 and high - low > 0.05
    assert math.isinf(half_width(0.5, 1, 100))
    assert stage_seed(5, 0) == 5 and stage_seed(5, 1) != stage_seed(5, 2)


def test_playing_until_precise_stops_at_the_first_stage_narrow_enough():
    rng = np.random.default_rng(1)

    def play(stage: int) -> np.ndarray:
        return (rng.random(200) < 0.4).astype(float)

    def intervals(stages: list[np.ndarray]) -> pd.DataFrame:
        mean, low, high = sequence(np.concatenate(stages), 200)
        return pd.DataFrame([{"estimate": mean, "low": low, "high": high}])

    said: list[str] = []
    stages, table = until_precision(0.06, play, intervals, said.append)
    widths = [(intervals(stages[:k])["high"] - intervals(stages[:k])["low"]).iloc[0] / 2
              for k in range(1, len(stages) + 1)]
    assert widths[-1] <= 0.06 < widths[-2]  # stopped at the first stage within reach
    assert len(said) == len(stages) and table["half_width"].iloc[0] == pytest.approx(widths[-1])
    capped, _ = until_precision(0.0001, play, intervals, said.append, max_stages=2)
    assert len(capped) == 2 and "without reaching" in said[-1]


def test_a_replay_holds_flips_or_cannot_tell():
    assert judge(1, 0.5, 2.0) == HOLDS and judge(-1, -3, -1) == HOLDS
    assert judge(1, -2.0, -0.1) == FLIPS
    assert judge(1, -0.1, 2.0) == CANNOT_TELL and judge(1, math.nan, math.nan) == CANNOT_TELL


def test_a_replay_short_of_the_original_shrinks_or_vanished():
    # the finding: +41 points [+35, +47]
    assert judge(1, 30.0, 50.0, 41.0) == HOLDS
    assert judge(1, 2.0, 15.0, 41.0) == SHRINKS  # still positive, wholly short of +41
    assert judge(1, -6.0, 8.0, 41.0) == VANISHED  # holds zero, excludes +41
    assert judge(1, -6.0, 45.0, 41.0) == CANNOT_TELL  # holds both: too few games
    assert judge(-1, -10.0, -2.0, -17.6) == SHRINKS and judge(-1, -3.0, 4.0, -17.6) == VANISHED
    assert judge(-1, 1.0, 9.0, -17.6) == FLIPS


def test_a_keepers_edge_pairs_each_forced_game_with_the_same_seat_kept_out():
    forced = pd.DataFrame({"game": [0, 0, 1, 1, 2, 2], "seat": [0, 1, 0, 1, 0, 1],
                           "start_tile": ["a", "b", "b", "a", "b", "b"],
                           "win_share": [1.0, 0.0, 0.5, 0.5, 1.0, 0.0]})
    excluded = forced.assign(win_share=[0.0, 1.0, 0.5, 0.5, 1.0, 0.0], start_tile="b")
    # game 0: seat 0 kept it and won, lost without it (+1); game 1: seat 1 tied both (0)
    assert list(keeper_edge(excluded, forced, "a")) == [1.0, 0.0]
    assert keeper_edge(excluded, forced, "zzz").size == 0


def test_walls_built_compare_the_tiles_section_with_the_same_section_kept_out(tmp_path):
    from zsim.recheck import walls_built_difference

    forced, excluded = tmp_path / "force", tmp_path / "exclude"
    for where in (forced, excluded):
        where.mkdir()
    pd.DataFrame({"game": [0, 1], "wall_tile_1": ["t", "u"], "wall_tile_2": ["u", "t"]}
                 ).to_parquet(forced / "games.parquet")
    # game 0: t on section 0, 3 Walls there (1 with it kept out); game 1: t on section 1,
    # no Wall there (2 with it kept out)
    pd.DataFrame({"game": [0, 0, 0, 0, 1], "section": [0, 0, 0, 1, 0],
                  "vp": [1, 2, 3, 9, 9]}).to_parquet(forced / "walls.parquet")
    pd.DataFrame({"game": [0, 1, 1], "section": [0, 1, 1], "vp": [5, 4, 6]}).to_parquet(
        excluded / "walls.parquet")
    assert list(walls_built_difference(excluded, forced, "t")) == [2.0, -2.0]
    # VP per Wall there: game 0 2 against 5; game 1 has no Wall on t's section: no value
    assert list(walls_built_difference(excluded, forced, "t", vp=True)) == [-3.0]


def test_mirror_findings_are_one_replay_and_summary_findings_come_first():
    from zsim.reports.model import Finding, FindingList
    from zsim.reports.recheck import candidates

    def tested(label, component, estimate, group=CAUSAL, topic=""):
        return Comparison(label=label, claim=label, method="t", pvalue=0.001, effect=estimate,
                          effect_kind="d", games=100, group=group, topic=topic, adjusted=0.001,
                          component=component, estimate=estimate, low=estimate - 1,
                          high=estimate + 1)

    boards = Finding(tested("board1: mean VP", ("board", "board1"), 3.0),
                     [tested("board2: mean VP", ("board", "board2"), -3.0)])
    tile = Finding(tested("Starting tile s1", ("starting_tiles", "s1"), 41.0, ASSOCIATION))
    strategy = Finding(tested("wall_pairs: governor win rate", ("wall_tiles", "wall_pairs"),
                              9.7))  # a causal effect from balanced games: not replayed
    lopsided = Finding(tested("wall_x: governor win rate", ("wall_tiles", "wall_x"), 9.7,
                              ASSOCIATION))
    listing = Section("findings", "Findings", "", [FindingList(
        [boards, strategy, tile, lopsided], "")])
    found = candidates(listing, [[tile]])
    assert [c.component for _, c in found] == ["s1", "board1", "wall_x"]
    # the summary's parts in turn: the first of each, then the second of each
    assert [c.component for _, c in candidates(listing, [[boards, lopsided], [tile]])] == [
        "board1", "s1", "wall_x"]
    assert found[0][1].original == pytest.approx(0.41) and found[0][1].measure == "keeper_win"
    assert found[1][1].mirrors == ("board2: mean VP",) and found[1][1].sign == 1
    assert found[2][1].measure == "strategy_win" and found[2][1].strategy == "governor"


def test_an_effect_read_from_few_games_is_an_association_until_a_design_confirms_it():
    from zsim.reports.components import lopsided

    few = Comparison(label="wall_pairs: governor win rate", claim="With wall_pairs in play: x",
                     method="t", pvalue=0.001, effect=0.3, effect_kind="d", games=100,
                     group=CAUSAL, exposed_share=0.86)
    lopsided(few, "wall_tiles", "wall_pairs")
    assert few.group == ASSOCIATION and "14% of games without it" in few.claim
    assert few.causal_test.startswith("zsim effects wall_tiles --only wall_pairs")
    even = Comparison(label="board1: mean VP", claim="c", method="t", pvalue=0.001, effect=0.3,
                      effect_kind="d", games=100, group=CAUSAL, exposed_share=0.5)
    lopsided(even, "board", "board1")
    assert even.group == CAUSAL and not even.causal_test


def test_the_games_until_precision_plays_come_from_the_runners_confidence_sequences():
    from zsim.reports.summary import games_for_sequences

    rng = np.random.default_rng(5)
    games = 400
    rows = [{"game_key": g, "n_players": 2, "strategy": s, "win_share": float(w)}
            for g in range(games) for s, w in zip(("a", "b"), ((1, 0) if rng.random() < 0.55
                                                               else (0, 1)), strict=True)]
    players = pd.DataFrame(rows)
    needed = games_for_sequences(players, games, half=5.0)
    stages = int(needed // games)
    assert needed == stages * games
    for strategy in ("a", "b"):
        values = players.loc[players["strategy"] == strategy, "win_share"].to_numpy()
        from zsim.sequential import spread
        sd = spread(values, 1.0)
        assert half_width(sd, stages * games, games) <= 0.05
        if stages > 1:
            assert max(half_width(spread(players.loc[players["strategy"] == s, "win_share"]
                                         .to_numpy(), 1.0), (stages - 1) * games, games)
                       for s in ("a", "b")) > 0.05


def test_the_replay_interval_is_the_t_interval_and_keepers_are_counted_per_game():
    values = np.array([0.75, -0.25, 0.75, 0.75, -0.25, 0.75])
    mean, low, high = mean_interval(values)
    assert mean == pytest.approx(values.mean())
    by_hand = scipy.stats.ttest_1samp(values, 0).confidence_interval(0.95)
    assert (low, high) == pytest.approx((by_hand.low, by_hand.high))
    assert mean_interval(np.array([0.5]))[1:] == pytest.approx((math.nan, math.nan),
                                                               nan_ok=True)
    assert mean_interval(np.zeros(3)) == (0, 0, 0)
    players = pd.DataFrame({"game": [0, 0, 1, 1, 2, 2], "n_players": 2,
                            "start_tile": ["a", "b", "b", "a", "b", "b"],
                            "win_share": [1.0, 0.0, 0.5, 0.5, 1.0, 0.0]})
    assert list(keeper_excess(players, "a")) == [0.5, 0.0]  # games 0 and 1; game 2 has none
    assert keeper_excess(players, "zzz").size == 0


def _comparison(label: str, group: str, strength: float, topic: str = "") -> Comparison:
    return Comparison(label=label, claim=label, method="t", pvalue=0.001, effect=strength,
                      effect_kind="d", games=100, group=group, topic=topic, adjusted=0.001)


def test_findings_are_grouped_causal_first_and_one_per_topic():
    listed = findings([
        _comparison("kept X: win rate", ASSOCIATION, 2.0, topic="keepers of X"),
        _comparison("kept X: VP", ASSOCIATION, 1.0, topic="keepers of X"),
        _comparison("board in play", CAUSAL, 0.3),
        _comparison("greedy wins", STRATEGY, 0.5),
        _comparison("tile in play", CAUSAL, 0.9),
        Comparison(label="not significant", claim="", method="t", pvalue=0.5, effect=3.0,
                   effect_kind="d", games=100, group=CAUSAL, adjusted=0.5)])
    assert [f.lead.label for f in listed] == ["tile in play", "board in play", "greedy wins",
                                              "kept X: win rate"]
    assert [c.label for c in listed[-1].also] == ["kept X: VP"]


def test_by_definition_names_what_a_key_moves_whatever_the_players_do():
    assert by_definition(["rules.palace_vp"]) == {"vp_palaces", "vp_total"}
    assert by_definition(["court_reset"]) == set()


def _difference(metric: str, diff: float, low: float, high: float, significant: bool) -> dict:
    return {"n_players": 4, "strategy": "greedy", "metric": metric, "games": 240,
            "difference": diff, "low": low, "high": high, "significant": significant}


def test_a_sweep_verdict_puts_win_rates_first_with_what_they_could_have_shown():
    table = pd.DataFrame([_difference("win_share", 0.01, -0.04, 0.06, False),
                          _difference("vp_palaces", 6.0, 5.0, 7.0, True),
                          _difference("vp_total", 5.5, 4.0, 7.0, True)])
    said = verdict(table, changed=["rules.palace_vp"])
    detectable = detectable_shift(-0.04, 0.06) * 100
    assert said.startswith("Win rates: no significant change (with 240 paired games a change "
                           f"of ±{detectable:.1f} points")
    assert "2 score change(s) follow by definition from rules.palace_vp" in said
    assert "Scores:" not in said  # nothing moved that the rule does not move by itself


def test_the_strategy_table_is_wilson_intervals_of_plain_win_shares():
    from statsmodels.stats.proportion import proportion_confint

    players = pd.DataFrame({"n_players": 2, "strategy": ["a", "b"] * 5, "game_key": np.repeat(
        range(5), 2), "win_share": [1, 0, 1, 0, 0, 1, 0.5, 0.5, 1, 0], "vp_total": 10})
    data = type("Data", (), {"players": players})()
    table = strategy_table(data).set_index("strategy")
    low, high = proportion_confint(3.5, 5, method="wilson")
    assert table.loc["a", "win_rate"] == pytest.approx(0.7)
    assert (table.loc["a", "win_low"], table.loc["a", "win_high"]) == pytest.approx((low, high))
    never = players.assign(win_share=np.where(players["strategy"] == "a", 0.0, 1.0))
    table = strategy_table(type("Data", (), {"players": never})()).set_index("strategy")
    assert table.loc["a", "win_rate"] == 0 and table.loc["a", "win_low"] == 0


def test_rarely_taken_rewards_are_counted_per_game_on_their_board():
    finished = pd.DataFrame({"game_key": range(40), "unification_board": ["b1"] * 40})
    rewards = pd.DataFrame({"game_key": [0, 0, *list(range(1, 40))],  # twice in one game
                            "reward": ["rare", "rare"] + ["common"] * 39})
    data = type("Data", (), {"finished": finished, "rewards": rewards})()
    points = rare_rewards(data)
    share = rewards.groupby("reward")["game_key"].nunique()["rare"] / len(finished)
    assert len(points) == 1 and f"{share:.1%}" in points[0].text and "rare" in points[0].text


def test_assumed_components_are_marked_in_labels_tables_and_findings():
    box = load_box(default_box_dir())
    assumed = assumed_components(box)
    assert "start_recruit_alchemist" in assumed and "start_ship_2" not in assumed
    assert component_names(box)["master_1"].startswith("master_1 (")
    fig, axes = new_figure()
    rows = pd.DataFrame({"estimate": [1.0, 2.0], "low": [0.0, 1.0], "high": [2.0, 3.0]})
    forest(axes[0, 0], ["start_recruit_alchemist", "start_ship_2"], rows, "t", "x")
    test = Comparison(label="Starting tile start_recruit_alchemist", claim="kept it",
                      method="t", pvalue=0.01, effect=1, effect_kind="d", games=10)
    figure = Figure("tiles", "Tiles", "Caption.", 10, fig, [test])
    table = Table("tiles", "Tiles", pd.DataFrame({"tile": ["start_ship_2", "wall_palaces"],
                                                  "n": [1, 2]}))
    mark([Section("s", "S", "", [figure, table])], assumed)
    fig.canvas.draw()
    labels = [t.get_text() for t in axes[0, 0].get_yticklabels()]
    assert labels == [f"start_recruit_alchemist{MARK}", "start_ship_2"]
    assert MARK in figure.caption and assumed["start_recruit_alchemist"][:-1] in figure.caption
    assert set(test.assumed) == {"start_recruit_alchemist"}
    assert list(table.data["assumed"] == "") == [True, False]
    assert Marker({"master_1": "x"}).found("master_10 and master_1") == {"master_1": "x"}


def test_the_other_reading_of_the_starting_tile_is_a_variant_file_that_loads():
    path = configs_dir("variants") / "starting_tile_choice.yaml"
    assert other_readings(configs_dir("variants"))["start_recruit_alchemist"] == [path]
    box = parse([str(path)]).load_box(default_box_dir())
    tiles = {t.id: t for t in box.starting_tiles}
    assert "start_recruit_alchemist" not in tiles
    assert tiles["start_recruit_official"].copies == 3
    assert sum(t.copies for t in box.starting_tiles) == 10  # still ten tiles
    officials = [[e.official for e in option] for option in
                 box.abilities["start_recruit_official"].options]
    assert officials == [["general", "alchemist"], ["general", "architect"],
                         ["general", "general"]]


def test_the_alchemist_starting_tile_gives_a_general_and_an_alchemist_in_chu_as_read(box):
    # Ruling 17: "recruit 1 General in Chu, then 1 Alchemist/Architect/General in Chu" is three
    # tiles; the Alchemist one puts exactly one General and one Alchemist in Chu, and from then
    # on an Elixir symbol may place an Alchemist card there (and only there).
    options = GameOptions().with_variants(["setup.force.starting_tiles=start_recruit_alchemist"])
    game = Game(box, [None, None], 4, options)
    wanted = next(i for i, t in enumerate(box.starting_tiles)
                  if t.id == "start_recruit_alchemist")
    keeper = None
    decision = game.pending()
    while decision.kind == "start_tile":
        choice = wanted if wanted in decision.options else decision.options[0]
        keeper = decision.seat if choice == wanted else keeper
        decision = game.answer(choice)
    assert keeper is not None
    for player in game.state.players:
        alchemists = sum(region[0] for region in player.officials)
        regions = queries.elixir_card_regions(game.rules, player)
        if player.seat == keeper:
            assert list(player.officials[0]) == [1, 0, 1]  # Chu: Alchemist, Architect, General
            assert sum(map(sum, player.officials)) == 2 and regions == (0,)
        else:  # no other tile recruits an Alchemist: no Elixir symbol can place a card yet
            assert alchemists == 0 and regions == ()


def test_a_seat_colour_or_first_player_edge_is_replayed_as_the_levels_excess_win_share():
    from zsim.recheck import SEAT, seat_excess
    from zsim.reports.recheck import _candidate

    players = pd.DataFrame({"game": [0, 0, 1, 1], "n_players": 2, "seat": [0, 1, 0, 1],
                            "first_player": [1, 1, 0, 0], "colour": ["Blue", "Red", "Red",
                                                                      "Blue"],
                            "win_share": [1.0, 0.0, 0.0, 1.0]})
    assert list(seat_excess(players, "colour", "Blue")) == [0.5, 0.5]
    assert list(seat_excess(players, "position", "0")) == [-0.5, -0.5]  # the first player
    assert list(seat_excess(players, "seat", "1")) == [-0.5, 0.5]
    blue = Comparison(label="colour, 4 players", claim="Blue wins 28.5%", method="Wald",
                      pvalue=0.001, effect=0.1, effect_kind="h", games=100, adjusted=0.001,
                      component=(f"{SEAT}colour", "Blue"), estimate=3.5, low=1.6, high=5.4)
    candidate = _candidate(blue)
    assert candidate is not None and candidate.measure == "seat_win"
    assert candidate.original == pytest.approx(0.035) and candidate.sign == 1
