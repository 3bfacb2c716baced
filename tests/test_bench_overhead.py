"""``zsim bench``'s CPU overhead: with several rounds, the median of each round's ratio."""

from __future__ import annotations

import pytest

from zsim.cli.bench import Row, Timing, _cpu_overhead, _table


def timing(mode: str, cpu: float, engine: float | None = None) -> Timing:
    return Timing("4 random", mode, 100, cpu, cpu, 1000, 1, engine)


def test_one_round_is_the_ratio_of_the_two_runs():
    engine, runner = timing("engine, 1 core", 2.0), timing("runner, 1 job", 2.5, 2.1)
    assert _cpu_overhead(Row(runner, versus=engine)) == pytest.approx(1.25)


def test_several_rounds_give_the_median_of_their_own_ratios():
    # the fastest runs (3.0 and 2.0) come from different rounds: their ratio, 1.5, is none of
    # the rounds' own (1.1, 1.2 and 1.3 over the engine just before each)
    engine, runner = timing("engine, 1 core", 2.0), timing("runner, 1 job", 3.0, 2.9)
    row = Row(runner, versus=engine, rounds=[(4.4, 4.0), (3.0, 2.5), (2.6, 2.0)])
    assert _cpu_overhead(row) == pytest.approx(1.2)
    text = _table([Row(engine), row])
    assert "/ 20.0% /" in text
    assert "4 random: CPU overhead by round 10.0%, 20.0%, 30.0%" in text
