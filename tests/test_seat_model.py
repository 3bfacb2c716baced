"""The seat/colour/position/strategy model on frames where the truth is known, and its refusals."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from figure_checks import tick_label_clashes

from zsim.components.schema import COLOURS
from zsim.reports.seat_model import fit_seat_model
from zsim.reports.seats import section
from zsim.runner.seeds import Schedule


def _games(games: int, lineup: tuple[str, ...], seats: str, weight, colour_deal: bool = False,
           seed: int = 0) -> pd.DataFrame:
    """Player rows of 4-player games whose winner is drawn with probability proportional to
    ``weight(strategy, seat, colour)``; the first player is drawn at random."""
    rng = np.random.default_rng(seed)
    schedule = Schedule(seed=seed, players=(4,), lineup=lineup, seats=seats)
    rows = []
    for g in range(games):
        seated = schedule.plan(g).strategies
        dealt = rng.permutation(4) if colour_deal else np.arange(4)
        weights = np.array([weight(s, seat, COLOURS[dealt[seat]])
                            for seat, s in enumerate(seated)], float)
        winner = rng.choice(4, p=weights / weights.sum())
        first = rng.integers(4)
        for seat, strategy in enumerate(seated):
            rows.append({"game_key": g, "n_players": 4, "seat": seat, "strategy": strategy,
                         "colour": COLOURS[dealt[seat]], "first_player": first,
                         "position": (seat - first) % 4,
                         "win_share": float(seat == winner)})
    return pd.DataFrame(rows)


def test_a_seat_advantage_is_recovered_and_strategies_stay_fair():
    frame = _games(2400, ("a", "b", "c", "d", "e"), "balanced",
                   lambda s, seat, c: 2.0 if seat == 0 else 1.0).drop(columns="colour")
    model = fit_seat_model(frame)
    seat = model.term("seat")["adjusted"]
    assert seat[0] == pytest.approx(0.4, abs=0.035)
    assert seat[[1, 2, 3]].to_numpy() == pytest.approx([0.2] * 3, abs=0.03)
    assert model.tests["seat"] < 1e-6 and model.tests["strategy"] > 0.001
    assert model.colour_is_seat and "colour" in model.refused
    intervals = model.term("seat")
    assert ((intervals["low"] < seat) & (seat < intervals["high"])).all()


def test_a_strong_strategy_and_a_dealt_colour_are_told_apart_from_the_seat():
    frame = _games(2400, ("a", "b", "c", "d"), "balanced",
                   lambda s, seat, c: (3.0 if s == "a" else 1.0) * (2.0 if c == "Red" else 1.0),
                   colour_deal=True)
    model = fit_seat_model(frame)
    assert not model.colour_is_seat and {"strategy", "seat", "colour"} <= set(model.tests)
    assert model.term("strategy")["adjusted"]["a"] > 0.45
    assert model.term("colour")["adjusted"].idxmax() == "Red"
    assert model.tests["colour"] < 1e-6 and model.tests["seat"] > 0.001


def test_seat_is_refused_when_each_lineup_always_sits_in_one_order():
    rotated = _games(300, ("a", "b", "c", "d", "e", "f"), "rotate", lambda *_: 1.0)
    model = fit_seat_model(rotated)
    assert "seat" not in model.tests and "same seat order" in model.refused["seat"]
    assert "strategy" in model.tests  # strategies still compared, adjusted for position
    fixed = _games(200, ("a", "b", "c", "d"), "fixed", lambda *_: 1.0)
    assert "seat" in fit_seat_model(fixed).refused


def test_a_position_that_is_always_the_seat_is_refused():
    frame = _games(200, ("a", "b", "c", "d"), "balanced", lambda *_: 1.0)
    frame["position"] = frame["seat"]
    model = fit_seat_model(frame)
    assert "starting position is the seat" in model.refused["position"]


def test_degenerate_frames_one_strategy_and_a_strategy_that_never_wins():
    alone = _games(200, ("a",), "balanced", lambda s, seat, c: 2.0 if seat == 0 else 1.0)
    model = fit_seat_model(alone)
    assert "strategy" in model.refused and "seat" in model.tests
    never = _games(400, ("a", "b", "c", "d"), "balanced",
                   lambda s, *_: 0.0 if s == "d" else 1.0)
    model = fit_seat_model(never)
    strategy = model.term("strategy")
    assert strategy.loc["d", "observed"] == 0 and not strategy.loc["d", "fitted"]
    assert strategy.loc[["a", "b", "c"], "adjusted"].to_numpy() == pytest.approx([1 / 3] * 3,
                                                                              abs=0.06)
    nobody = never.assign(win_share=0.0)
    model = fit_seat_model(nobody)
    assert not model.tests and model.refused["seat"] == "no wins left to model"


class _Data:
    """The part of ``RunData`` the section reads."""

    def __init__(self, players: pd.DataFrame) -> None:
        self.players = players
        self.finished = players.drop_duplicates("game_key")
        self.player_counts = [4]


def test_the_section_draws_colour_labelled_seats_or_refuses_them_saying_why():
    balanced = _games(240, ("a", "b", "c", "d", "e"), "balanced", lambda *_: 1.0)
    built = section(_Data(balanced.drop(columns="colour")))
    figure = built.figures[0]
    seat_axis = figure.figure.axes[0]
    labels = [t.get_text() for t in seat_axis.get_xticklabels()]
    assert labels == [f"{c}\nseat {s}" for s, c in enumerate(COLOURS)]
    claims = " ".join(c.claim for c in figure.comparisons)
    assert re.search(r"seat (Blue|Yellow|Red|Purple) \(seat \d\) wins", claims)
    assert "\n" not in claims
    bars = [patch.get_facecolor() for patch in seat_axis.patches]
    assert bars[0][2] > bars[0][0] and bars[2][0] > bars[2][2]  # Blue is blue, Red is red
    rotated = _games(240, ("a", "b", "c", "d", "e", "f"), "rotate", lambda *_: 1.0)
    built = section(_Data(rotated))
    notes = [b.text for b in built.blocks if hasattr(b, "text")]
    assert any("no conclusion about seat" in n and "same seat order" in n for n in notes)
    assert any("no conclusion about colour" in n and "refused with it" in n for n in notes)
    assert all(ax.get_title() != "seat" for f in built.figures for ax in f.figure.axes)


def test_with_dealt_colours_seats_are_numbered_and_colours_get_their_own_coloured_panel():
    dealt = _games(240, ("a", "b", "c", "d"), "balanced", lambda *_: 1.0, colour_deal=True)
    figure = section(_Data(dealt)).figures[0]
    titles = [ax.get_title() for ax in figure.figure.axes]
    assert titles[:2] == ["seat", "colour"]
    seat_axis, colour_axis = figure.figure.axes[:2]
    assert [t.get_text() for t in seat_axis.get_xticklabels()] == [str(s) for s in range(4)]
    figure.figure.get_layout_engine().execute(figure.figure)
    figure.figure.draw_without_rendering()
    assert tick_label_clashes(figure) == []
    names = [t.get_text() for t in colour_axis.get_xticklabels()]
    assert sorted(names) == sorted(COLOURS)
    yellow = colour_axis.patches[names.index("Yellow")].get_facecolor()
    assert yellow[0] > 0.8 and yellow[1] > 0.6 and yellow[2] < 0.2


def test_runs_without_colours_pooled_with_dealt_ones_take_the_seat_colour_where_missing():
    dealt = _games(200, ("a", "b", "c", "d"), "balanced", lambda *_: 1.0, colour_deal=True)
    old = dealt.assign(game_key=dealt["game_key"] + 1000, colour=None)
    model = fit_seat_model(pd.concat([dealt, old], ignore_index=True))
    assert set(model.term("colour").index) == set(COLOURS)
    assert model.term("colour")["player_games"].sum() == 1600


def test_long_strategy_names_stay_readable_under_their_bars():
    names = ("alchemist", "builder", "courtier", "governor", "greedy", "mausoleum")
    dealt = _games(240, names, "balanced", lambda *_: 1.0, colour_deal=True)
    figure = section(_Data(dealt)).figures[0]
    figure.figure.get_layout_engine().execute(figure.figure)
    figure.figure.draw_without_rendering()
    assert tick_label_clashes(figure) == []


def test_a_seat_term_gets_its_relative_change_so_its_size_word_matches_a_strategy_row():
    """The size word is the larger of Cohen's h and the relative change: a seat winning 14% of
    4-player games against a fair 25% is "large" (43% fewer wins), as a strategy row says of
    the same rate, not "small" from h alone."""
    from zsim.reports.findings import size_label

    weak_first_seat = _games(400, ("a", "b", "c", "d", "e"), "balanced",
                             lambda _strategy, seat, _colour: 0.5 if seat == 0 else 1.0, seed=2)
    built = section(_Data(weak_first_seat))
    tested = {c.label: c for f in built.figures for c in f.comparisons}
    for comparison in tested.values():
        assert comparison.basis == "fair" and np.isfinite(comparison.relative)
        assert f"{abs(comparison.relative):.0%} " in comparison.claim
    seat = tested["seat, 4 players"]
    assert seat.relative < -0.3 and abs(seat.effect) < 0.5
    assert size_label(seat) == "large"
