"""What the forward model costs: a fork at a turn question, plain and determinised, a question
stepped from outside, and a random rollout to the end of the game.

Games are paused at every turn question of a few 4-player games answered from outside (the
first option each time); at each, ``fork()`` and ``fork(seat, rng)`` are timed, the fastest of
``--repeat`` calls kept (a busy machine only adds). The amortised cost is the CPU time of
``--repeat`` forks made and dropped in a row, the cycle collector on, divided by their number:
it counts what freeing the forks costs, which the fastest call leaves out when a fork is freed
only by the cycle collector, later. Rollouts play a determinised fork to the end with four
random strategies. ``ZSIM_PURE_PYTHON=1`` measures the engine's sources instead of its
compiled build (docs/running.md, "The compiled engine").

``--stepping N`` compares, game by game (interleaved), the CPU time per question of N random
games played in process (``RandomStrategy`` in every seat) and of the same seeds stepped from
outside (``pending`` / ``answer`` with a random option each time), replayed and, with greenlet
installed, on the game's suspended segment (``Game.suspends``), with the ratios per game.

    python benchmarks/forward_model.py --games 5 --repeat 5
    python benchmarks/forward_model.py --stepping 20
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from functools import partial

from zsim.components import default_box_dir, load_box
from zsim.engine_build import ENGINE
from zsim.game import Game, greenlet_module, play_game
from zsim.strategies.random_bot import RandomStrategy


def best_of(repeat: int, call) -> float:
    """The fastest of ``repeat`` calls, in seconds."""
    fastest = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        fastest = min(fastest, time.perf_counter() - start)
    return fastest


def amortised(repeat: int, call) -> float:
    """CPU seconds per call of ``repeat`` calls in a row, their results dropped at once."""
    start = time.process_time()
    for _ in range(repeat):
        call()
    return (time.process_time() - start) / repeat


def stepping(box, games: int, players: int) -> None:
    """CPU µs per question in process and from outside (replayed, and on the game's suspended
    segment when greenlet is installed), interleaved game by game."""
    ways = {"in process": [], "from outside, replayed": []}
    if greenlet_module() is not None:
        ways["from outside, suspended"] = []
    for seed in range(games + 1):
        start = time.process_time()
        asked = play_game(box, [RandomStrategy() for _ in range(players)], seed).decisions
        ways["in process"].append((time.process_time() - start) / asked)
        for label in list(ways)[1:]:
            game, rng, asked = Game(box, [None] * players, seed), random.Random(seed), 0
            game.suspends = label.endswith("suspended")
            start = time.process_time()
            decision = game.pending()
            while decision is not None:
                decision = game.answer(decision.options[rng.randrange(len(decision.options))])
                asked += 1
            ways[label].append((time.process_time() - start) / asked)
    print(f"{games} random {players}-player games; engine: {ENGINE}")
    inside = ways["in process"][1:]  # the first game of each warms the caches
    for label, times in ways.items():
        times = times[1:]
        ratios = [o / i for i, o in zip(inside, times, strict=True)]
        print(f"{label + ', per question':40} median {statistics.median(times) * 1e6:7.1f} us"
              f"   x in process: median {statistics.median(ratios):5.2f} "
              f"({min(ratios):.2f} to {max(ratios):.2f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--stepping", type=int, default=0, metavar="GAMES")
    args = parser.parse_args()
    box = load_box(default_box_dir())
    if args.stepping:
        stepping(box, args.stepping, args.players)
        return
    plain, determinised, steps, rollouts = [], [], [], []
    plain_amortised, determinised_amortised = [], []
    for seed in range(args.games):
        game = Game(box, [None] * args.players, seed)
        decision = game.pending()
        while decision is not None:
            if decision.kind == "turn":
                rng = random.Random(seed)
                plain.append(best_of(args.repeat, game.fork))
                determinised.append(best_of(
                    args.repeat, partial(game.fork, decision.seat, random.Random(1))))
                plain_amortised.append(amortised(args.repeat, game.fork))
                determinised_amortised.append(amortised(
                    args.repeat, partial(game.fork, decision.seat, random.Random(1))))
                if len(rollouts) < 10 * (seed + 1):
                    fork = game.fork(decision.seat, rng)
                    start = time.perf_counter()
                    fork.play([RandomStrategy() for _ in range(args.players)])
                    rollouts.append(time.perf_counter() - start)
            start = time.perf_counter()
            decision = game.answer(decision.options[0])
            steps.append(time.perf_counter() - start)
    print(f"{args.games} games of {args.players} players, {len(plain)} turn questions; "
          f"engine: {ENGINE}")
    for label, times in (("fork() at a turn question", plain),
                         ("fork(seat, rng) at a turn question", determinised),
                         ("fork() amortised, collector on", plain_amortised),
                         ("fork(seat, rng) amortised, collector on", determinised_amortised),
                         ("answer() from outside, per question", steps)):
        print(f"{label:40} median {statistics.median(times) * 1e6:7.1f} us   "
              f"90th percentile {statistics.quantiles(times, n=10)[-1] * 1e6:7.1f} us")
    print(f"{'random rollout to the end':40} median {statistics.median(rollouts) * 1e3:7.2f} ms"
          f"   ({1 / statistics.median(rollouts):.0f} rollouts/s)")


if __name__ == "__main__":
    main()
