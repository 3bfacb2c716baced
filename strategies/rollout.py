"""A one-ply search on the forward model: the example of docs/architecture.md.

At its turn the bot tries every option on forks of the game, determinised for its seat (the
cards it cannot see redealt at random), and plays each fork to the end with a fast policy for
every seat; the option with the best mean margin (its VP minus the best other player's) wins.
Every other question is answered by the heuristic it extends (the ``greedy`` weights unless
given others). It sees nothing a player could not: the forks are dealt from its view.
"""

from __future__ import annotations

import random
from typing import Any

from zsim.decisions import Decision
from zsim.strategies.base import Strategy
from zsim.strategies.basic import BasicStrategy
from zsim.strategies.heuristic import HeuristicStrategy
from zsim.strategies.random_bot import RandomStrategy
from zsim.strategies.search import check_types
from zsim.view import PlayerView

POLICIES: dict[str, type[Strategy]] = {"random": RandomStrategy, "basic": BasicStrategy}


class RolloutStrategy(HeuristicStrategy):
    name = "rollout"
    description = ("tries each turn option on forks of the game played out by a fast policy "
                   "(parameters: rollouts, policy random|basic, and heuristic weights)")
    forks = True  # the engine keeps the snapshots a fork needs

    def __init__(self, rollouts: int = 1, policy: str = "random", **weights: float) -> None:
        check_types(RolloutStrategy.__init__, locals())
        if policy not in POLICIES:
            raise ValueError(f"policy {policy!r}: expected one of {', '.join(POLICIES)}")
        if rollouts < 1:
            raise ValueError(f"rollouts={rollouts}: expected at least 1")
        super().__init__(**weights)
        self.rollouts, self.policy = int(rollouts), policy

    def choose_turn(self, view: PlayerView, decision: Decision) -> Any:
        policy = [POLICIES[self.policy]() for _ in range(view.n_players)]
        rng = random.Random(view.rng.getrandbits(64))  # the forks' chances: the bot's own
        best, top = decision.options[0], -float("inf")
        for option in decision.options:
            margin = 0.0
            for _ in range(self.rollouts):
                fork = view.fork(random.Random(rng.getrandbits(64)))
                fork.answer(option)
                scores = [s["vp_total"] for s in fork.play(policy).scores]
                mine = scores.pop(view.seat)
                margin += mine - max(scores)
            if margin > top:
                best, top = option, margin
        return best
