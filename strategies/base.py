"""The strategy authoring API: override ``choose_<kind>`` for the decisions you care about."""

from __future__ import annotations

from typing import Any

from zsim.decisions import KINDS, Decision
from zsim.view import PlayerView

METHODS = {kind: f"choose_{kind}" for kind in KINDS}  # the method answering each decision kind


class Strategy:
    """Base class of every bot.

    The engine calls ``choose(view, decision)``; it dispatches to ``choose_<decision.kind>`` when
    the subclass defines one, and to ``default`` otherwise. ``default`` picks uniformly at random
    with the view's seeded RNG, so a bot that overrides nothing is the random bot.
    """

    name = "base"
    description = ""

    def choose(self, view: PlayerView, decision: Decision) -> Any:
        method = getattr(self, METHODS[decision.kind], None)
        if method is None:
            return self.default(view, decision)
        return method(view, decision)

    def default(self, view: PlayerView, decision: Decision) -> Any:
        options = decision.options
        return options[view.rng.randrange(len(options))]
