"""Abilities: the value of resolving effect steps now, in this state, step by step (each kind's
record in ``zsim.rules.effects`` says how its bot value is made of the estimates), and of the
best alternative of an ability whose Unrest costs fit."""

from __future__ import annotations

from typing import Any

from zsim.rules import queries
from zsim.rules.effects import EFFECTS
from zsim.strategies.estimates.actions import ActionEstimates


class AbilityEstimates(ActionEstimates):
    __slots__ = ()

    def alternatives_value(self, alternatives: tuple, here: int, slot: int, suit: int) -> float:
        """The best alternative whose Unrest costs fit (none fits: a large negative)."""
        rules, p = self.rules, self.p
        best = -1e9
        for steps in alternatives:
            if queries.costs_payable(rules, p, steps, here):
                v = self.steps_value(steps, here, slot, suit)
                if v > best:
                    best = v
        return best

    def steps_value(self, steps: tuple, here: int, slot: int, suit: int) -> float:
        """Resolving these steps now, in this state."""
        total = 0.0
        for e in steps:
            total += self.step_value(e, here, slot, suit)
        return total

    def step_value(self, e: Any, here: int, slot: int, suit: int) -> float:
        """Resolving one step now: its kind's record says how (``EFFECTS``)."""
        return EFFECTS[e.effect].worth(self, e, here, slot, suit)

    def scored(self, e: Any, here: int, slot: int, suit: int) -> float:
        return self.w.vp * self.view.effect_vp(e, here, slot, suit)

    def best_spot(self) -> float:
        return max(self.spots()[3], default=0.0)

    def alchemist_cards_value(self, n: int) -> float:
        return n * (self.w.elixir * self.vp_projection() + 1.0)
