"""The balanced seating design and the check that warns when seat is aliased with lineup."""

from __future__ import annotations

from collections import Counter
from itertools import combinations, permutations
from math import comb

import pytest
from click.testing import CliRunner

from zsim.cli import main
from zsim.design import seat_aliasing
from zsim.runner import DEFAULT_EXPERIMENT, load_experiment
from zsim.runner.seeds import Schedule

LINEUP = ("a", "b", "c", "d", "e", "f")


def _seatings(schedule: Schedule, games: range) -> list[tuple[str, ...]]:
    return [schedule.plan(i).strategies for i in games]


@pytest.mark.parametrize("lineup, count", [(LINEUP, 4), (LINEUP[:5], 3), (LINEUP[:4], 4),
                                           (LINEUP[:3], 2)])
def test_each_complete_block_seats_every_subset_and_every_strategy_in_every_seat(lineup,
                                                                                 count):
    schedule = Schedule(seed=3, players=(count,), lineup=lineup, seats="balanced")
    block = schedule.block_size(count)
    for start in (0, 2 * block):  # two different blocks, each balanced on its own
        seated = _seatings(schedule, range(start, start + block))
        per_seat = Counter((s, name) for seating in seated for s, name in enumerate(seating))
        assert set(per_seat.values()) == {comb(len(lineup) - 1, count - 1)}
        assert len(per_seat) == len(lineup) * count
        subsets = Counter(frozenset(seating) for seating in seated)
        assert set(subsets) == {frozenset(c) for c in combinations(lineup, count)}
        assert set(subsets.values()) == {count}


def test_successive_blocks_cover_every_seat_order_of_every_subset():
    schedule = Schedule(seed=0, players=(4,), lineup=LINEUP, seats="balanced")
    cycle = schedule.block_size(4) * 6  # (4 - 1)! blocks
    seated = Counter(_seatings(schedule, range(cycle)))
    expected = {order for subset in combinations(LINEUP, 4) for order in permutations(subset)}
    assert set(seated) == expected and set(seated.values()) == {1}


def test_balanced_seating_depends_on_the_index_only_and_player_counts_alternate():
    schedule = Schedule(seed=5, players=(3, 4), lineup=LINEUP[:4], seats="balanced")
    again = Schedule(seed=5, players=(3, 4), lineup=LINEUP[:4], seats="balanced")
    assert [again.plan(i) for i in reversed(range(40))] == [schedule.plan(i)
                                                            for i in reversed(range(40))]
    assert [schedule.plan(i).n_players for i in range(4)] == [3, 4, 3, 4]
    four = [schedule.plan(i).strategies for i in range(1, 2 * schedule.block_size(4), 2)]
    assert Counter(s[0] for s in four) == {name: 1 for name in LINEUP[:4]}


def test_a_short_lineup_is_cycled_and_balanced_over_its_seats():
    schedule = Schedule(seed=0, players=(4,), lineup=("a", "b"), seats="balanced")
    assert schedule.block_size(4) == 4
    assert Counter(s[0] for s in _seatings(schedule, range(4))) == {"a": 2, "b": 2}


def test_seat_aliasing_is_found_in_rotate_and_fixed_designs_only():
    def plans(seats, lineup=LINEUP, count=4, games=120):
        return _seatings(Schedule(seed=1, players=(count,), lineup=lineup, seats=seats),
                         range(games))

    assert "same seat order" in seat_aliasing(plans("rotate"))
    assert "same seat order" in seat_aliasing(plans("fixed", lineup=LINEUP[:4]))
    assert seat_aliasing(plans("balanced")) is None
    assert seat_aliasing(plans("random")) is None
    assert seat_aliasing(plans("rotate", lineup=LINEUP[:4])) is None  # every order of one lineup
    assert seat_aliasing([("a", "a", "a", "a")] * 10) is None  # nothing to order


def test_the_default_experiment_is_balanced_in_whole_blocks():
    experiment = load_experiment(DEFAULT_EXPERIMENT)
    assert experiment.seats == "balanced"
    assert experiment.games % experiment.schedule().block_size(4) == 0
    assert experiment.design_warnings() == []
    partial = experiment.with_overrides(games=130).design_warnings()
    assert len(partial) == 1 and "2 complete block(s) of 60; the last 10 games" in partial[0]


@pytest.mark.parametrize("seats, warned", [("rotate", True), ("balanced", False),
                                           ("random", False)])
def test_zsim_run_warns_when_seat_is_aliased_with_lineup(tmp_path, seats, warned):
    result = CliRunner().invoke(main, [
        "run", "--games", "24", "-n", "2", "-s", "random", "-s", "basic", "-s", "greedy",
        "--seats", seats, "--jobs", "1", "--quiet", "--out", str(tmp_path / "run")])
    assert result.exit_code == 0, result.output
    assert ("seat effects cannot be measured" in result.output) is warned
