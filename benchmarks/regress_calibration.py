"""Calibration of ``zsim regress``: false alarms on reseeded replays, power on known changes.

Plays a baseline's experiment under many master seeds (cached, so a second call only compares)
and reports, for the gate as it was (unpaired means and win rates only, 1 VP tolerance) and as
it is (paired on common seeds, distributions and quantiles, the baseline's tolerances):

- false alarms, unpaired: the baseline's seed against other seeds, unchanged rules;
- false alarms, paired: the same runs with their game seeds relabelled as the baseline's, as
  after a refactor that draws in another order: every game differs, no rule does, yet the
  games pair, so this is the paired tests' level;
- power (a): ``rules.extra_soldier_vp`` [0, 2, 5, 9] -> [1, 3, 6, 10], real runs. The bots
  value soldiers by differences of that table, so no decision changes (the benchmark checks
  that every column but the two VP ones is equal) and every player gains exactly 1 VP of
  ``vp_extra_soldiers`` and of ``vp_total``;
- power (b): a change of spread at an equal mean: the Elixir scores (1 + s) times as much in
  games whose seed is even and (1 - s) times in the others, so its mean is unchanged in
  expectation while the spread of ``vp_elixir`` and ``vp_total`` grows. Applied to each replay
  of the same games (paired), and to replays of other seeds (unpaired).

Rates come with Wilson 95% intervals. Every trial compares with one baseline run per seed; the
false-alarm trials share the baseline's seed, as in docs/regress.md.

    python benchmarks/regress_calibration.py --replays 100 --variant-replays 20 --jobs 1
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

from zsim.regress import Recording, compare, load_summary, read_run, record
from zsim.runner.batch import start_run
from zsim.runner.experiment import Experiment
from zsim.stats import wilson_interval

SCORE_CONSTANT = {"rules.extra_soldier_vp": "[1, 3, 6, 10]"}
BEFORE_TOLERANCE = {"vp": 1.0, "win_rate": 0.02}  # the CI gate's, before paired tests


def play(experiment: Experiment, seed: int, cache: Path, variants: dict[str, str] | None = None,
         tag: str = "") -> Recording:
    """The experiment under ``seed`` (and ``variants``), played once into ``cache``."""
    directory = cache / f"{experiment.name}-{experiment.games}-seed{seed}{tag}"
    manifest = directory / "run.json"
    if not (manifest.is_file() and json.loads(manifest.read_text())["status"] == "complete"):
        if directory.exists():
            raise SystemExit(f"{directory} is incomplete: remove it and run again")
        start_run(experiment.with_overrides("calibration", seed=seed,
                                            variants={**experiment.variants,
                                                      **(variants or {})}), directory)
    return read_run(directory)


def relabelled(now: Recording, base: Recording) -> Recording:
    """``now``'s games under ``base``'s game seeds: other games that pair with the baseline's."""
    seeds = base.players.drop_duplicates("game").set_index("game")["seed"]
    players = now.players.assign(seed=now.players["game"].map(seeds))
    return record(players, experiment=_experiment(now))


def spread(run: Recording, factor: float) -> Recording:
    """The change of spread (b): Elixir VP times 1 + factor in even-seeded games, 1 - factor in
    the others, totals, ranks and win shares recomputed."""
    players = run.players.copy()
    scale = np.where(players["seed"] % 2 == 0, 1 + factor, 1 - factor)
    elixir = (players["vp_elixir"] * scale).round().astype(int)
    players["vp_total"] += elixir - players["vp_elixir"]
    players["vp_elixir"] = elixir
    best = players.groupby("game")["vp_total"].transform("max")
    players["rank"] = players.groupby("game")["vp_total"].rank(method="min", ascending=False)
    players["rank"] = players["rank"].astype(int)
    top = players["vp_total"] == best
    players["win_share"] = top / top.groupby(players["game"]).transform("sum")
    return record(players, experiment=_experiment(run))


def _experiment(run: Recording) -> Experiment:
    return run.summary.to_experiment("calibration")


def check_no_decision_changed(base: Recording, variant: Recording) -> None:
    """The score constant (a) must leave every game as it was, 1 VP aside."""
    moved = base.players.drop(columns=["vp_total", "vp_extra_soldiers"])
    same = variant.players.drop(columns=["vp_total", "vp_extra_soldiers"])
    ones = variant.players[["vp_total", "vp_extra_soldiers"]] - base.players[
        ["vp_total", "vp_extra_soldiers"]]
    if not (moved.equals(same) and (ones == 1).all().all()):
        raise SystemExit("the score constant changed a decision: pick another one")


Gate = Callable[[Recording, Recording], pd.DataFrame]


def gates(baseline_file: Path) -> dict[str, Gate]:
    """The gate before (unpaired means, old tolerance) and now (the baseline's settings)."""
    settings = load_summary(baseline_file)

    def before(base: Recording, now: Recording) -> pd.DataFrame:
        base = base.with_settings(BEFORE_TOLERANCE, settings.alpha)
        return compare(base, now, paired=False, distributions=False)

    def after(base: Recording, now: Recording) -> pd.DataFrame:
        base = base.with_settings(settings.tolerance, settings.alpha, settings.quantiles)
        return compare(base, now, resamples=100)

    return {"before": before, "after": after}


def rate(alarms: list[bool]) -> str:
    low, high = wilson_interval(sum(alarms), len(alarms))
    return f"{sum(alarms)}/{len(alarms)} ({sum(alarms) / len(alarms):.0%}, 95% CI " \
           f"{low:.0%}-{high:.0%})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--baseline", type=Path, default=Path("configs/baselines/ci.yaml"))
    parser.add_argument("--games", type=int, help="games per run (default: the baseline's)")
    parser.add_argument("--replays", type=int, default=100, help="reseeded replays (nulls)")
    parser.add_argument("--variant-replays", type=int, default=20,
                        help="baselines on which each change is tried")
    parser.add_argument("--spread", type=float, default=0.25, help="factor s of change (b)")
    parser.add_argument("--cache", type=Path, default=Path("runs/calibration"))
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()

    summary = load_summary(args.baseline)
    experiment = summary.to_experiment(str(args.baseline)).with_overrides(
        "calibration", games=args.games, jobs=args.jobs, chunk_size=250)
    first = experiment.seed
    started = time.perf_counter()
    # The changed runs first: with a cache, a later call with fewer --replays reuses them all.
    constant = {s: play(experiment, s, args.cache, SCORE_CONSTANT, "-constant")
                for s in range(first, first + args.variant_replays)}
    runs = {s: play(experiment, s, args.cache)
            for s in range(first, first + max(args.replays + 1, args.variant_replays))}
    played = time.perf_counter() - started
    for s, variant in constant.items():
        check_no_decision_changed(runs[s], variant)

    base = runs[first]
    controls = [runs[s] for s in range(first + 1, first + args.replays + 1)]
    bases = [runs[s] for s in range(first, first + args.variant_replays)]
    trials: dict[str, list[tuple[Recording, Recording]]] = {
        "false alarms, other seeds (unpaired)": [(base, c) for c in controls],
        "false alarms, reshuffled games on the same seeds (paired)":
            [(base, relabelled(c, base)) for c in controls],
        "power (a): +1 VP score constant, same seeds": [(b, constant[int(b.summary.experiment[
            "seed"])]) for b in bases],
        f"power (b): spread x{1 + args.spread:g}/x{1 - args.spread:g} of vp_elixir, same seeds":
            [(b, spread(b, args.spread)) for b in bases],
        "power (b): the same, on other seeds (unpaired)":
            [(base, spread(c, args.spread)) for c in controls[:args.variant_replays]],
    }
    print(f"{args.baseline}: {experiment.games} games per run, players {experiment.players}, "
          f"{experiment.strategies}; played in {played:.0f} s (cached runs count 0)")
    for name, pairs in trials.items():
        print(f"\n{name}: {len(pairs)} trials")
        for label, gate in gates(args.baseline).items():
            clock = time.perf_counter()
            tables = [gate(a, b) for a, b in pairs]
            alarms = [bool(t["alarm"].any()) for t in tables]
            kinds = pd.concat([t[t["alarm"]] for t in tables]) if any(alarms) else None
            seconds = (time.perf_counter() - clock) / len(pairs)
            what = "" if kinds is None else " by " + ", ".join(
                f"{k} {n}" for k, n in kinds.groupby("kind").size().items())
            print(f"  {label:6s} gate alarms {rate(alarms)}{what}; {seconds:.2f} s per compare")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
