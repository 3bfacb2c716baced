"""Is the signal a further round of ``distilled`` is fitted on worth anything in real games?

A round of the turn scorer (``python -m zsim.learn.distill``) plays out a policy's favourite
options at each of its turns and fits a correction of the policy to what they played out to.
Before blaming the fit for a round that does not rise, this checks the signal itself: a bot
that plays, at every turn, the option that played out best (the policy's ``--width``
favourites, ``--deals`` deals each, the policy playing every seat after it: exactly what the
round records) against the policy alone, in two-player games with the seats alternated::

    python benchmarks/playout_argmax.py --games 120 --jobs 2
    python benchmarks/playout_argmax.py --scorer '' --games 120 --jobs 2   # the heuristic

It prints the bot's win share (ties split) with a Wilson 95% interval. A share well above half
says the playouts tell better moves from worse in the games themselves, at the cost of
``width`` times ``deals`` playouts a turn; a fit that does not carry that into a cheap scorer
loses it in the fit, not in the signal (docs/learning.md, "Expert iteration").
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np
from joblib import Parallel, delayed
from statsmodels.stats.proportion import proportion_confint

from zsim.components.loader import default_box_dir
from zsim.decisions import Decision
from zsim.game import play_game
from zsim.learn.distill import Rollouts
from zsim.runner.boxfiles import load_for_run
from zsim.strategies.distilled import DistilledStrategy, scorer_path
from zsim.strategies.heuristic import HeuristicStrategy
from zsim.view import PlayerView


class Argmax(Rollouts):
    """The recording bot, playing the option that played out best instead of the policy's."""

    name = "playout-argmax"

    def choose_turn(self, view: PlayerView, decision: Decision) -> Any:
        recorded = len(self.turns)
        choice = super().choose_turn(view, decision)
        if len(self.turns) == recorded:  # nothing to weigh: the policy's answer
            return choice
        _, _, order, worth = self.turns.pop()
        return decision.options[int(order[int(np.argmax(worth))])]


def game(seed: int, scorer: str, width: int, deals: int) -> float:
    """The bot's share of one game's win, in seat ``seed % 2``."""
    seat = seed % 2
    policy = DistilledStrategy(scorer=scorer) if scorer else HeuristicStrategy()
    bot = Argmax(seed, scorer, width, deals)
    seats = [bot, policy] if seat == 0 else [policy, bot]
    box, _, _ = load_for_run(default_box_dir())  # parsed once per process
    winners = play_game(box, list(seats), seed).winners
    return 1.0 / len(winners) if seat in winners else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scorer", default=str(scorer_path(2)),
                        help="the policy's scorer file ('' for the heuristic, greedy)")
    parser.add_argument("--width", type=int, default=6)
    parser.add_argument("--deals", type=int, default=2)
    parser.add_argument("--games", type=int, default=120)
    parser.add_argument("--seed", type=int, default=98000)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    shares = Parallel(n_jobs=args.jobs)(
        delayed(game)(seed, args.scorer, args.width, args.deals)
        for seed in range(args.seed, args.seed + args.games))
    won = float(sum(shares))
    low, high = proportion_confint(won, args.games, method="wilson")
    print(f"playing the best of {args.width} options played out {args.deals} times, against "
          f"{args.scorer or 'greedy'}: {won:g} of {args.games} games, {won / args.games:.1%} "
          f"[{low:.1%}, {high:.1%}]")


if __name__ == "__main__":
    main()
