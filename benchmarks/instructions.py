"""Play the default experiment's games in a plain loop, for a profiler or an instruction count.

CPU time moves with the machine's load; the number of instructions a build executes does not,
so two commits can be compared on a busy machine by counting instructions inside ``play_game``
with callgrind (the compiled build names it ``CPyDef_game___play_game``):

    valgrind --tool=callgrind --toggle-collect='CPyDef_game___play_game' \\
        python benchmarks/instructions.py --games 20

prints ``Collected : N`` (instructions of the games, the untimed first game included), and
``callgrind_annotate --inclusive=yes callgrind.out.PID`` shows where they went. Without
valgrind the script prints the games' CPU time and games per CPU-second, like ``zsim bench``'s
engine row. Say which build ran (the last line: ``zsim --version``'s engine).
"""

from __future__ import annotations

import argparse
import time

from zsim.engine_build import ENGINE
from zsim.game import play_game
from zsim.runner import DEFAULT_EXPERIMENT, load_experiment
from zsim.runner.boxfiles import load_for_run
from zsim.strategies.registry import resolve


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games to play after a first one")
    args = parser.parse_args()
    experiment = load_experiment(DEFAULT_EXPERIMENT).with_overrides(
        games=args.games + 1, jobs=1, backend="local")
    box, _, _ = load_for_run(experiment.box_dir(), experiment.variant_set().box)
    options = experiment.options()
    bots = {name: resolve(name) for name in experiment.strategies}
    schedule = experiment.schedule()
    plans = [schedule.plan(i) for i in range(args.games + 1)]
    first, *rest = plans
    play_game(box, [bots[name] for name in first.strategies], first.seed, options)  # warm-up
    clock = time.process_time()
    for plan in rest:
        play_game(box, [bots[name] for name in plan.strategies], plan.seed, options)
    cpu = time.process_time() - clock
    print(f"{len(rest)} games, {cpu:.2f} CPU s, {len(rest) / cpu:.1f} games/CPU-s")
    print(f"engine: {ENGINE}")


if __name__ == "__main__":
    main()
