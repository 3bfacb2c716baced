"""CPU seconds per game of a bot in one seat against ``greedy`` in the others (two players
unless ``--players``), as a ratio to a ``greedy`` mirror on the same seeds, measured game by
game in turns (so that a machine busy with other work slows both alike).
The ladder of docs/strategies.md gives these ratios.

    python benchmarks/bot_cost.py "value(width=3, kinds='turn')" --games 20

The bot's seat rotates with the seed. CPU time (``time.process_time``) of the whole game: both seats
and the engine; and the bot's own questions answered per CPU second of its answers. Say which
build was measured (``zsim --version``).

``--against BOT`` compares two bots instead: each seed's game of the other bot against
``greedy`` is played just before the bot's, in the same seat, and the ratio is to it (a
search's game costs some two hundred ``greedy`` mirrors: too short a yardstick for two
searches).

    python benchmarks/bot_cost.py "mcts(judge='distilled')" --against mcts --games 40
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from zsim.components import load_box
from zsim.components.loader import default_box_dir
from zsim.game import play_game
from zsim.strategies.registry import resolve


def seated(player: Any, others: list[Any], seed: int) -> list[Any]:
    """The seats of a game of ``player`` against ``others`` (one ``greedy`` per other seat):
    the bot's seat rotates with the seed (at two players, seat 0 on odd seeds)."""
    n = len(others) + 1
    seats = list(others)
    seats.insert((seed + 1) % 2 if n == 2 else seed % n, player)
    return seats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bot", help="the bot, named as for zsim run -s")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=5000)
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    parser.add_argument("--against", default="", help="another bot to compare with, instead "
                                                       "of a greedy mirror")
    args = parser.parse_args()
    box = load_box(default_box_dir())
    bot, n = resolve(args.bot), args.players
    greedy = [resolve("greedy") for _ in range(n - 1)]
    other = resolve(args.against) if args.against else None
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
    play_game(box, seated(bot, greedy, args.seed - 1), args.seed - 1)  # warm: model, tables
    if other is not None:
        play_game(box, seated(other, greedy, args.seed - 1), args.seed - 1)
    own.update(questions=0, seconds=0.0)
    spent = {"bot": 0.0, "base": 0.0}
    for seed in range(args.seed, args.seed + args.games):
        for who, seats in (("base", seated(other if other else resolve("greedy"), greedy,
                                           seed)),
                           ("bot", seated(bot, greedy, seed))):
            clock = time.process_time()
            play_game(box, seats, seed)
            spent[who] += time.process_time() - clock
    per = {who: s / args.games for who, s in spent.items()}
    base = f"{args.against} {per['base']:.3f} s" if other else \
        f"greedy mirror {per['base']:.4f} s"
    ratio = f"{per['bot'] / per['base']:.{3 if other else 1}f}"
    print(f"{args.bot}: {per['bot']:.3f} s per game, {base}, ratio {ratio}; its own questions "
          f"{own['questions'] / max(own['seconds'], 1e-9):,.0f}/s "
          f"({args.games} {n}-player games from seed {args.seed})")


if __name__ == "__main__":
    main()
