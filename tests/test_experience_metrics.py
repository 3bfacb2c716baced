"""The experience metrics on constructed trajectories whose answers are known by hand."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from zsim.experience import metrics, unused
from zsim.experience.metrics import (
    entropy,
    for_good,
    game_metrics,
    lead_changes,
    per_game,
    per_kind,
    per_run,
    stability,
    winners_ahead,
)
from zsim.experience.paired import paired_metrics, sentence, sentences, verdict
from zsim.experience.record import option_clarity
from zsim.runner.columns import BASE

TURNS = 2  # turns per round in the constructed games


def trajectory(standing: list[list[float]], track: list[list[float]] | None = None,
               p: list[list[float]] | None = None, game: int = 0, run: str = "r",
               every_turn: bool = False) -> pd.DataFrame:
    """A game's trajectory rows: ``standing`` after each round (the last is the final score),
    the score ``track`` after each turn (zeros by default), ``p`` the win probabilities after
    each round (none by default). With ``every_turn`` the standing of a round holds after each
    of its turns too."""
    seats = len(standing[0])
    rows = []
    turn = 0
    for r, round_standing in enumerate(standing, start=1):
        for _ in range(TURNS):
            turn += 1
            vp = track[turn - 1] if track is not None else [0] * seats
            for seat in range(seats):
                rows.append({"round": r, "turn": turn, "stage": "turn", "mover": 0,
                             "seat": seat, "vp": vp[seat],
                             "standing": round_standing[seat] if every_turn else None,
                             "p_win": None})
        for seat in range(seats):
            rows.append({"round": r, "turn": turn, "stage": "round", "mover": -1, "seat": seat,
                         "vp": 0, "standing": round_standing[seat],
                         "p_win": p[r - 1][seat] if p is not None else None})
    final = standing[-1]
    best = max(final)
    winners = [s for s in range(seats) if final[s] == best]
    for seat in range(seats):
        rows.append({"round": len(standing), "turn": turn, "stage": "final", "mover": -1,
                     "seat": seat, "vp": final[seat], "standing": final[seat],
                     "p_win": 1 / len(winners) if seat in winners else 0.0})
    frame = pd.DataFrame(rows).assign(run_id=run, game=game, n_players=seats, strategy="s")
    frame["standing"] = frame["standing"].astype(float)
    frame["p_win"] = frame["p_win"].astype(float)
    return frame


WIRE_TO_WIRE = [[10, 5, 0], [20, 9, 4], [30, 15, 8], [40, 20, 10], [55, 30, 20]]
# seat 2 trails all game (by 18 at worst, after round 3, when it is last), then wins
COMEBACK = [[10, 5, 2], [20, 10, 8], [30, 18, 12], [40, 30, 28], [50, 45, 60]]


def test_a_game_won_wire_to_wire_has_no_lead_change_no_drama_and_is_decided_at_once():
    row = game_metrics(trajectory(WIRE_TO_WIRE))
    assert row["lead_changes"] == 0
    assert row["drama"] == 0 and row["trailed"] == 0
    assert row["decided_round"] == 1 and row["decided_turn"] == TURNS
    assert row["comeback"] == 0


def test_a_last_round_comeback_has_its_drama_and_is_decided_only_at_the_end():
    row = game_metrics(trajectory(COMEBACK))
    assert row["drama"] == 18  # 30 - 12 after round 3, the furthest it was behind
    assert row["trailed"] == 1.0  # behind at every round's end before the last
    assert row["lead_changes"] == 1
    assert row["decided_round"] == 5 and row["decided_turn"] == 5 * TURNS
    assert row["comeback"] == 1  # last after round 3 (12 against 30 and 18)


def test_the_lead_changes_only_when_another_player_takes_it_alone():
    assert lead_changes(np.array([[0, 0], [1, 0], [1, 1], [1, 2], [3, 2]])) == 2
    assert lead_changes(np.array([[0, 0, 0], [0, 0, 0]])) == 0  # never a sole leader
    assert lead_changes(np.array([[2, 1], [2, 2], [3, 1]])) == 0  # a tie does not change it


def test_ties_and_shared_wins():
    # two winners tied at the end, level with each other all game and ahead of the third
    row = game_metrics(trajectory([[5, 5, 0], [9, 9, 1], [20, 20, 3]]))
    assert row["lead_changes"] == 0 and row["drama"] == 0 and row["decided_round"] == 1
    # everyone tied at every point: decided from the start, nobody ever behind
    flat = game_metrics(trajectory([[3, 3], [6, 6]]))
    assert flat["decided_round"] == 1 and flat["drama"] == 0 and flat["lead_changes"] == 0
    assert winners_ahead(np.array([[1, 1]]), np.array([True, True])).all()


def test_for_good_finds_the_first_point_of_the_last_run():
    assert for_good(np.array([False, True, False, True, True])) == 3
    assert for_good(np.array([True, True])) == 0
    assert for_good(np.array([True, False])) is None
    assert for_good(np.array([], dtype=bool)) is None


def test_the_score_track_has_its_own_lead_changes():
    track = [[1, 0], [1, 2], [3, 2], [3, 2], [3, 5], [6, 5], [6, 7], [8, 7], [8, 9], [9, 9]]
    row = game_metrics(trajectory([[5, 1], [9, 2], [12, 3], [15, 4], [20, 9]], track=track))
    # seat 0, then 1, 0, 1, 0, 1, 0, 1 on the track, then seat 0 alone by the final score
    assert row["track_lead_changes"] == 8
    assert row["lead_changes"] == 0


def test_win_probability_metrics():
    p = [[0.5, 0.5], [0.4, 0.6], [0.95, 0.05], [0.92, 0.08], [1.0, 0.0]]
    row = game_metrics(trajectory([[1, 0], [0, 2], [5, 1], [8, 3], [9, 4]], p=p))
    assert row["p_decided_round"] == 3  # above 0.9 from round 3 to the end
    assert row["threshold"] == pytest.approx(0.6)  # the loser's best chance
    assert row["p_drama"] == pytest.approx(0.2)  # 0.6 - 0.4 after round 2
    # the points once the outcome is known (the last round's end, the final scoring) are left
    # out of uncertainty and stability
    assert row["uncertainty"] == pytest.approx(entropy(np.array(p[:-1])).mean())
    assert row["stability"] == pytest.approx(np.array(p[:-1]).var(axis=0).sum())


def test_entropy_and_stability_bounds():
    assert entropy(np.array([[0.25] * 4])) == pytest.approx([1.0])
    assert entropy(np.array([[1.0, 0.0, 0.0]])) == pytest.approx([0.0])
    assert stability(np.array([[0.5, 0.5], [0.5, 0.5]])) == 0


def test_without_win_probabilities_or_standing_those_metrics_are_missing():
    frame = trajectory(WIRE_TO_WIRE)
    frame.loc[frame["stage"] == "round", "p_win"] = np.nan
    row = game_metrics(frame)
    assert math.isnan(row["uncertainty"]) and math.isnan(row["p_decided_round"])
    frame.loc[frame["stage"] == "round", "standing"] = np.nan
    row = game_metrics(frame)
    assert row["decided_round"] == 5  # only the final point left: decided at the end
    assert math.isnan(row["comeback"])  # round 3's standing is unknown


def test_value_mode_decides_at_the_turn():
    row = game_metrics(trajectory(COMEBACK, every_turn=True))
    assert row["decided_turn"] == 4 * TURNS + 1  # after the first turn of round 5
    assert row["decided_round"] == 5


def choices_rows() -> pd.DataFrame:
    rows = [("turn", 10, 0, 200, 10, 20.0, 2.0, 50.0), ("recruit", 4, 6, 12, 4, 4.0, 1.0, 3.0),
            ("turn", 10, 0, 100, 0, 0.0, 0.0, 0.0)]
    frame = pd.DataFrame(rows, columns=["kind", "asked", "forced", "options", "valued", "gap",
                                        "narrow", "spread"])
    return frame.assign(run_id="r", game=0, n_players=2, seat=[0, 0, 1], strategy="s")


def test_branching_real_choices_and_clarity():
    games = metrics.choice_metrics(choices_rows()).iloc[0]
    assert games["decisions"] == 24 and games["forced"] == 6
    assert games["branching"] == pytest.approx(312 / 24)
    assert games["real_choice"] == pytest.approx(24 / 30)
    assert games["clarity_gap"] == pytest.approx(20 / 10)  # turn questions the bots valued
    kinds = per_kind(choices_rows()).set_index("kind")
    assert kinds.loc["recruit", "real_choice"] == pytest.approx(0.4)
    assert kinds.loc["turn", "branching"] == pytest.approx(15)
    assert kinds.loc["turn", "per_game"] == 20


def test_option_clarity():
    gap, narrow, spread = option_clarity([1.0, 4.0, 2.0, 5.0])
    assert gap == 1.0
    assert narrow == 0.25  # mean 3, best 5: near the best is 4.5 or above, so 5 alone
    assert spread == pytest.approx(np.var([1, 4, 2, 5]))
    assert option_clarity([3.0, 3.0]) == (0.0, 1.0, 0.0)  # all level: every option as good
    assert option_clarity([2.0]) is None


def test_per_game_and_per_run_with_one_game_and_degenerate_data():
    trajectories = trajectory(WIRE_TO_WIRE)
    players = pd.DataFrame({"run_id": "r", "game": 0, "seat": [0, 1, 2], "first_player": 1,
                            "win_share": [1.0, 0.0, 0.0]})
    games = per_game(trajectories, choices_rows(), players)
    assert list(games.columns) == ["run_id", "game", "n_players", *metrics.METRICS]
    assert games.loc[0, "first_player_won"] == 0.0
    summary = per_run(games).set_index("metric")
    assert summary.loc["lead_changes", "mean"] == 0
    assert math.isnan(summary.loc["lead_changes", "low"])  # one game: no interval
    empty = per_game(BASE["trajectories"].empty_table().to_pandas())
    assert empty.empty and list(empty.columns) == list(games.columns)


def test_per_run_pools_player_counts():
    frames = [trajectory(WIRE_TO_WIRE, game=0), trajectory(COMEBACK, game=1),
              trajectory([[5, 1], [9, 2]], game=2)]
    summary = per_run(per_game(pd.concat(frames, ignore_index=True)))
    drama = summary[summary["metric"] == "drama"].set_index("n_players")["mean"]
    assert drama["3"] == 9 and drama["2"] == 0 and drama[metrics.ALL] == 6


def test_never_taken_options_and_dead_components():
    options = pd.DataFrame({
        "kind": ["turn", "turn", "turn", "start_tile", "start_tile"],
        "option": ["court wall", "unify", "court hire", "tile_a", "tile_b"],
        "offered": [40, 40, 10, 35, 35], "chosen": [0, 30, 0, 35, 0]})
    never = unused.never_taken(options)
    assert set(never["option"]) == {"court wall", "tile_b"}  # court hire: offered too rarely
    games = pd.DataFrame({"game_key": range(40), "wall_tile_1": ["w1"] * 40,
                          "wall_tile_2": ["w2"] * 40})
    walls = pd.DataFrame({"game_key": [3, 4], "tile": ["w1", "w1"]})
    dead = unused.dead_components(games, None, walls, options)
    assert set(dead["component"]) == {"w2", "tile_b"}
    use = unused.component_use(games, None, walls).set_index("component")
    assert use.loc["w1", "used_share"] == pytest.approx(2 / 40)


def per_game_frame(decided: list[float], game0: int = 0, n: int = 4) -> pd.DataFrame:
    frame = pd.DataFrame({"run_id": "r", "game": range(game0, game0 + len(decided)),
                          "n_players": n, "decided_round": decided})
    for metric in metrics.METRICS:
        if metric not in frame:
            frame[metric] = np.nan
    return frame


def test_a_paired_shift_is_said_and_a_null_one_refused():
    rng = np.random.default_rng(1)
    base = rng.integers(2, 6, 200).astype(float)
    earlier = np.maximum(base - (rng.random(200) < 0.7), 1)
    table = paired_metrics(per_game_frame(list(base)), per_game_frame(list(earlier)),
                           metrics=["decided_round"])
    row = table.iloc[0]
    assert row["games"] == 200 and row["difference"] < 0 and row["significant"]
    assert row["low"] < row["difference"] < row["high"] < 0
    said = sentence(row)
    assert said.startswith("With the variant games are decided") and "rounds earlier" in said
    same = paired_metrics(per_game_frame(list(base)), per_game_frame(list(base)),
                          metrics=["decided_round"])
    assert not same["significant"].any()
    assert sentences(same)[0].startswith("No detectable change in round after which")
    assert "no significant change" in verdict(same)


def test_paired_metrics_with_one_game_and_missing_values():
    table = paired_metrics(per_game_frame([3.0]), per_game_frame([2.0]),
                           metrics=["decided_round", "drama"])
    assert list(table["metric"]) == ["decided_round"]  # drama is missing in both
    assert math.isnan(table.iloc[0]["low"]) and not table.iloc[0]["significant"]
    assert "no interval" in sentence(table.iloc[0])
