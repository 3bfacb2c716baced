"""What a heuristic turn decision costs: a fixed part and a part per option, fitted by least
squares on the CPU time of every turn question the default lineup's heuristic bots answer.

Each question's time is ``time.thread_time_ns`` around the bot's ``choose`` (the engine's own
work before and after is not in it). The fit is ``time = fixed + per_option * options`` over the
turn questions whose options are weighed (a hand of discards only, answered at random, is left
out). The timer's own cost, measured on an empty call, is taken off the fixed part. The games
are played ``--rounds`` times and the fit is given per round, so that its spread shows; on a
busy machine compare two builds with this script run in turns.

    python benchmarks/decision_cost.py --games 30 --rounds 3

Say which build ran (the last line: ``zsim --version``'s engine).
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from zsim.engine_build import ENGINE
from zsim.game import play_game
from zsim.runner import DEFAULT_EXPERIMENT, load_experiment
from zsim.runner.boxfiles import load_for_run
from zsim.strategies.heuristic import HeuristicStrategy
from zsim.strategies.registry import resolve


def fit(points: list[tuple[int, int]]) -> tuple[float, float]:
    """(intercept, slope) of the least-squares line through (x, y) points."""
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    sxy = sum((x - mx) * (y - my) for x, y in points)
    slope = sxy / sxx if sxx else 0.0
    return my - slope * mx, slope


def timer_cost() -> float:
    """Nanoseconds the two clock reads around a call add (an empty call, the median of many)."""

    def empty() -> None:
        return None

    samples = []
    for _ in range(20_000):
        clock = time.thread_time_ns()
        empty()
        samples.append(time.thread_time_ns() - clock)
    return statistics.median(samples)


def timed(bot: HeuristicStrategy, points: list[tuple[int, int]]) -> None:
    """Record (options, ns) of each weighed turn question ``bot`` answers."""
    choose = type(bot).choose

    def wrapper(view: Any, decision: Any) -> Any:
        if decision.kind != "turn" or decision.options[0][0] == "discard":
            return choose(bot, view, decision)
        clock = time.thread_time_ns()
        answer = choose(bot, view, decision)
        points.append((len(decision.options), time.thread_time_ns() - clock))
        return answer

    bot.choose = wrapper  # type: ignore[method-assign]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=30, help="games per round")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    experiment = load_experiment(DEFAULT_EXPERIMENT).with_overrides(
        games=args.games + 1, jobs=1, backend="local")
    box, _, _ = load_for_run(experiment.box_dir(), experiment.variant_set().box)
    options = experiment.options()
    schedule = experiment.schedule()
    plans = [schedule.plan(i) for i in range(args.games + 1)]
    points: list[tuple[int, int]] = []
    bots = {name: resolve(name) for name in experiment.strategies}
    for bot in bots.values():
        if isinstance(bot, HeuristicStrategy):
            timed(bot, points)
    first, *rest = plans
    play_game(box, [bots[name] for name in first.strategies], first.seed, options)  # warm-up
    overhead = timer_cost()
    fits = []
    for round_ in range(args.rounds):
        points.clear()
        for plan in rest:
            play_game(box, [bots[name] for name in plan.strategies], plan.seed, options)
        fixed, per = fit(points)
        fixed -= overhead
        mean_n = sum(x for x, _ in points) / len(points)
        mean_t = sum(y for _, y in points) / len(points) - overhead
        fits.append((fixed, per, mean_t))
        print(f"round {round_ + 1}: {len(points)} turn decisions, {mean_n:.1f} options on "
              f"average; {mean_t / 1000:.1f} us each = {fixed / 1000:.1f} us fixed + "
              f"{per / 1000:.2f} us per option")
    fixed_all = [f for f, _, _ in fits]
    print(f"fixed: median {statistics.median(fixed_all) / 1000:.1f} us "
          f"[{min(fixed_all) / 1000:.1f}, {max(fixed_all) / 1000:.1f}] over {args.rounds} "
          f"rounds; per option median {statistics.median(p for _, p, _ in fits) / 1000:.2f} us; "
          f"timer {overhead:.0f} ns taken off")
    print(f"engine: {ENGINE}")


if __name__ == "__main__":
    main()
