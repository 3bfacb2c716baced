"""The runner's cost per game in instructions: the bare engine against ``zsim run``'s runner.

``zsim bench`` times the runner, and on a machine shared with other work two timings of the
same games differ by as much as the runner's overhead. The number of instructions a process
executes does not move with the load, so this script counts them with callgrind, for the same
games played two ways:

- ``engine``: a plain loop of ``play_game`` (what ``zsim bench`` calls the bare engine);
- ``runner``: ``start_run`` with one job, whose worker process plays the games, builds the rows
  and writes the chunk files while the run's process merges the tables.

Each is run at two sizes; the difference between the sizes, divided by the games between them,
is the cost of one more game, which the imports and a run's fixed work cancel out of. The
runner's overhead per game is its cost of a game over the engine's, minus 1 (``zsim bench``'s
"in run" figure measures the same thing in time); the fixed work is what the runner adds once
per run (the box's checks, the workers' start, run.json, the summary, lazy imports).

    python benchmarks/runner_instructions.py                    # 4 random players
    python benchmarks/runner_instructions.py --default-lineup   # zsim run's own lineup

Needs valgrind; takes some minutes (callgrind runs code about fifty times slower). Say which
build was measured (the last line).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from zsim.engine_build import ENGINE
from zsim.game import play_game
from zsim.runner import DEFAULT_EXPERIMENT, Experiment, load_experiment
from zsim.runner.batch import start_run
from zsim.runner.boxfiles import load_for_run
from zsim.strategies.registry import resolve

COLLECTED = re.compile(r"Collected : (\d+)")


def experiment(games: int, default_lineup: bool) -> Experiment:
    """The measured games: ``zsim bench``'s two lineups, with one job."""
    base = (load_experiment(DEFAULT_EXPERIMENT) if default_lineup else
            Experiment(games=games, players=[4], strategies=["random"], seed=1))
    return base.with_overrides(games=games, jobs=1, backend="local", max_failures=games)


def play(mode: str, games: int, default_lineup: bool) -> None:
    """Play the games one way (in the process callgrind counts)."""
    run = experiment(games, default_lineup)
    if mode == "runner":
        with tempfile.TemporaryDirectory(prefix="zsim-instructions-") as tmp:
            start_run(run, Path(tmp) / "run", source="bench")
        return
    box, _, _ = load_for_run(run.box_dir(), run.variant_set().box)
    options, schedule = run.options(), run.schedule()
    bots = {name: resolve(name) for name in run.strategies}
    for index in range(games):
        plan = schedule.plan(index)
        play_game(box, [bots[name] for name in plan.strategies], plan.seed, options)


def counted(mode: str, games: int, default_lineup: bool, out: Path) -> int:
    """Instructions of every process of one way of playing (the runner's worker included:
    callgrind follows a fork into the child and counts it in a file of its own)."""
    command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}/cg.%p",
               sys.executable, __file__, "--play", mode, "--games", str(games), str(games)]
    if default_lineup:
        command.append("--default-lineup")
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode:
        sys.exit(f"{mode} with {games} games failed:\n{done.stderr[-2000:]}")
    return sum(int(n) for n in COLLECTED.findall(done.stderr))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs=2, default=[300, 900], metavar=("A", "B"),
                        help="the two sizes (default 300 900)")
    parser.add_argument("--default-lineup", action="store_true",
                        help="the default experiment's lineup instead of 4 random players")
    parser.add_argument("--play", choices=("engine", "runner"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.play:
        play(args.play, args.games[0], args.default_lineup)
        return
    small, large = sorted(args.games)
    if small == large:
        parser.error("--games: give two different sizes")
    counts: dict[str, list[int]] = {}
    with tempfile.TemporaryDirectory(prefix="zsim-callgrind-") as tmp:
        for mode in ("engine", "runner"):
            counts[mode] = [counted(mode, n, args.default_lineup, Path(tmp))
                            for n in (small, large)]
    per_game = {mode: (b - a) / (large - small) for mode, (a, b) in counts.items()}
    extra = per_game["runner"] - per_game["engine"]
    fixed = counts["runner"][0] - counts["engine"][0] - small * extra
    lineup = "the default lineup" if args.default_lineup else "4 random players"
    print(f"{lineup}, {small} and {large} games, instructions (callgrind)")
    for mode in ("engine", "runner"):
        print(f"  {mode:<7} {counts[mode][0]:>16,} {counts[mode][1]:>16,}   "
              f"{per_game[mode] / 1e6:8.2f} M a game")
    print(f"runner's overhead per game: {per_game['runner'] / per_game['engine'] - 1:+.1%}")
    print(f"runner's fixed work per run: {fixed / 1e6:,.0f} M instructions "
          f"({fixed / per_game['engine']:.0f} games' worth)")
    print(f"engine: {ENGINE}")


if __name__ == "__main__":
    main()
