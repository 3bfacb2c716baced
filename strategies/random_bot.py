"""The uniform random player: every legal option equally likely, from the game's seeded RNG."""

from __future__ import annotations

from typing import Any

from zsim.decisions import Decision
from zsim.strategies.base import Strategy
from zsim.view import PlayerView


class RandomStrategy(Strategy):
    name = "random"
    description = "uniformly random among the legal options"

    def choose(self, view: PlayerView, decision: Decision) -> Any:
        # The base class would dispatch and then do exactly this; skipping it keeps the
        # engine benchmark measuring the engine.
        options = decision.options
        return options[view.rng.randrange(len(options))]
