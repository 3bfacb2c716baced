"""``zsim bench``: how fast the engine and the runner are, alone and in parallel.

For each lineup it times the bare engine (a loop of ``play_game`` in this process), the runner
with one job (the difference is the runner's overhead: seeding, rows, tables, files) and the
runner with ``--jobs N`` (parallel efficiency = games/s with N jobs / (N x games/s with one)).
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from strategies.registry import resolve
from zsim.components import load_box
from zsim.game import play_game
from zsim.runner import DEFAULT_EXPERIMENT, Experiment, load_experiment
from zsim.runner.batch import RunReport, start_run
from zsim.runner.worker import peak_rss_bytes

MIB = 1024 * 1024


@dataclass
class Timing:
    lineup: str
    mode: str
    games: int
    seconds: float
    decisions: int
    peak_rss_bytes: int

    @property
    def rate(self) -> float:
        return self.games / self.seconds


@click.command("bench")
@click.option("--games", type=click.IntRange(min=1), default=2000, show_default=True,
              help="Games per measurement.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=os.cpu_count() or 1,
              show_default="all cores", help="Workers of the parallel measurement.")
@click.option("--chunk-size", type=click.IntRange(min=1), default=100, show_default=True,
              help="Games per chunk in the runner measurements.")
@click.option("--repeat", type=click.IntRange(min=1), default=1, show_default=True,
              help="Times each measurement, keeping the fastest (for a busy machine).")
def command(games: int, jobs: int, chunk_size: int, repeat: int) -> None:
    """Measure games/s, decisions/s, runner overhead, parallel efficiency and peak RSS
    for 4 random players and for the default experiment's lineup."""
    default = load_experiment(DEFAULT_EXPERIMENT)
    lineups = {
        "4 random": Experiment(games=games, players=[4], strategies=["random"], seed=1),
        "default": default,
    }
    rows = []
    for label, base in lineups.items():
        experiment = base.with_overrides(games=games, chunk_size=chunk_size, jobs=1,
                                         backend="loky", max_failures=games)
        engine = _fastest(repeat, _engine, label, experiment)
        single = _fastest(repeat, _runner, label, experiment, 1)
        rows.append((engine, None, None))
        rows.append((single, None, single.seconds / engine.seconds - 1))
        if jobs > 1:
            parallel = _fastest(repeat, _runner, label, experiment.with_overrides(jobs=jobs), jobs)
            rows.append((parallel, parallel.rate / (jobs * single.rate), None))
    click.echo(_table(rows))


def _fastest(repeat: int, measure: Callable[..., Timing], *args: Any) -> Timing:
    """The fastest of ``repeat`` measurements: other load on the machine only slows runs down."""
    timings = [measure(*args) for _ in range(repeat)]
    best = min(timings, key=lambda t: t.seconds)
    best.peak_rss_bytes = max(t.peak_rss_bytes for t in timings)
    return best


def _engine(label: str, experiment: Experiment) -> Timing:
    """The bare engine: the same games, played in a plain loop with no runner around them."""
    box = load_box(experiment.box_dir())
    options = experiment.options()
    instances = {name: resolve(name) for name in experiment.strategies}
    schedule = experiment.schedule()
    plans = [schedule.plan(i) for i in range(experiment.games)]
    decisions = 0
    clock = time.perf_counter()
    for plan in plans:
        seated = [instances[name] for name in plan.strategies]
        decisions += play_game(box, seated, plan.seed, options).decisions
    seconds = time.perf_counter() - clock
    return Timing(label, "engine, 1 core", experiment.games, seconds, decisions,
                  peak_rss_bytes())


def _runner(label: str, experiment: Experiment, jobs: int) -> Timing:
    with tempfile.TemporaryDirectory(prefix="zsim-bench-") as tmp:
        report: RunReport = start_run(experiment, Path(tmp) / "run", source="bench")
    peak = max(report.peak_rss_bytes, report.worker_peak_rss_bytes)
    return Timing(label, f"runner, {jobs} job{'s' if jobs > 1 else ''}", report.played,
                  report.seconds, report.decisions, peak)


def _table(rows: list[tuple[Timing, float | None, float | None]]) -> str:
    header = (f"{'lineup':<10}{'mode':<16}{'games':>7}{'seconds':>9}{'games/s':>9}"
              f"{'decisions/s':>13}{'efficiency':>12}{'overhead':>10}{'peak RSS':>10}")
    lines = [header, "-" * len(header)]
    for timing, efficiency, overhead in rows:
        lines.append(
            f"{timing.lineup:<10}{timing.mode:<16}{timing.games:>7}{timing.seconds:>9.2f}"
            f"{timing.rate:>9.1f}{timing.decisions / timing.seconds:>13.0f}"
            f"{_percent(efficiency):>12}{_percent(overhead):>10}"
            f"{timing.peak_rss_bytes / MIB:>7.0f} MiB")
    lines.append("overhead: runner time with 1 job over bare engine time, minus 1; "
                 "efficiency: games/s with N jobs over N x games/s with 1 job; "
                 "peak RSS: largest process (the runner's own with 1 job, a worker's with N)")
    return "\n".join(lines)


def _percent(value: float | None) -> str:
    return "" if value is None else f"{value:.1%}"
