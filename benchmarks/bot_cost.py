"""CPU seconds per two-player game of a bot against ``greedy``, as a ratio to a ``greedy``
mirror on the same seeds, measured game by game in turns (so that a machine busy with other
work slows both alike). The ladder of docs/strategies.md gives these ratios.

    python benchmarks/bot_cost.py "value(width=3, kinds='turn')" --games 20

Seats alternate with the seed. CPU time (``time.process_time``) of the whole game: both seats
and the engine; and the bot's own questions answered per CPU second of its answers. Say which
build was measured (``zsim --version``).
"""

from __future__ import annotations

import argparse
import time

from zsim.components import load_box
from zsim.components.loader import default_box_dir
from zsim.game import play_game
from zsim.strategies.registry import resolve


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bot", help="the bot, named as for zsim run -s")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=5000)
    args = parser.parse_args()
    box = load_box(default_box_dir())
    bot, greedy = resolve(args.bot), resolve("greedy")
    own = {"questions": 0, "seconds": 0.0}  # the bot's own questions and the CPU they took
    choose = bot.choose

    def timed(view, decision):
        clock = time.process_time()
        try:
            return choose(view, decision)
        finally:
            own["seconds"] += time.process_time() - clock
            own["questions"] += 1

    bot.choose = timed
    play_game(box, [bot, greedy], args.seed - 1)  # warm: the model and the tables loaded
    own.update(questions=0, seconds=0.0)
    spent = {"bot": 0.0, "greedy": 0.0}
    for seed in range(args.seed, args.seed + args.games):
        for who, seats in (("greedy", [greedy, resolve("greedy")]),
                           ("bot", [bot, greedy] if seed % 2 else [greedy, bot])):
            clock = time.process_time()
            play_game(box, seats, seed)
            spent[who] += time.process_time() - clock
    per = {who: s / args.games for who, s in spent.items()}
    print(f"{args.bot}: {per['bot']:.3f} s per game, greedy mirror {per['greedy']:.4f} s, "
          f"ratio {per['bot'] / per['greedy']:.1f}; its own questions "
          f"{own['questions'] / max(own['seconds'], 1e-9):,.0f}/s "
          f"({args.games} games from seed {args.seed})")


if __name__ == "__main__":
    main()
