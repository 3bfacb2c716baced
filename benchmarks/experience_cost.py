"""What recording each game's course costs a run: the default experiment's first games run
(``start_run``, one process, so that this process's CPU time is the whole run's: playing, the
tables, writing and consolidating them, and fitting the win-probability estimator) with each
``trajectories`` mode, rounds interleaved, the fastest round of each kept.

    python benchmarks/experience_cost.py --games 100 --rounds 3 --modes off,vp,value

Run with an older tree's interpreter (one without the ``trajectories`` option) it measures that
tree's run as ``none``, for a before/after comparison back to back. Say which build ran
(``zsim --version``): the figures are for the compiled engine unless it says otherwise.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path


def run_once(games: int, mode: str, out: Path) -> float:
    """CPU seconds of one run of ``games`` default games recording ``mode``."""
    from zsim.runner import DEFAULT_EXPERIMENT, load_experiment
    from zsim.runner.batch import start_run

    experiment = load_experiment(DEFAULT_EXPERIMENT)
    changes = {"games": games, "jobs": 1, "chunk_size": 50}
    if mode != "none":
        changes["trajectories"] = mode
    experiment = experiment.model_copy(update=changes)
    shutil.rmtree(out, ignore_errors=True)
    start = time.process_time()
    start_run(experiment, out, progress=False)
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--modes", default="off,vp,value",
                        help="comma-separated; 'none' for a tree without the option")
    args = parser.parse_args()
    from zsim.runner import Experiment

    modes = args.modes.split(",")
    if "trajectories" not in Experiment.model_fields:
        modes = ["none"]
    best = dict.fromkeys(modes, float("inf"))
    with tempfile.TemporaryDirectory() as folder:
        run_once(10, modes[0], Path(folder) / "warm")  # imports and per-box caches
        for _ in range(args.rounds):
            for mode in modes:
                best[mode] = min(best[mode], run_once(args.games, mode, Path(folder) / mode))
    base = best[modes[0]]
    for mode in modes:
        print(f"trajectories {mode:<6} {args.games / best[mode]:7.2f} games/CPU-s"
              f"   ({best[mode]:.2f} CPU-s, x{best[mode] / base:.3f} of {modes[0]})")


if __name__ == "__main__":
    main()
