"""Abilities: the value of resolving effect steps now, in this state, step by step, and of the
best alternative of an ability whose Unrest costs fit."""

from __future__ import annotations

from typing import Any

from zsim.rules import queries
from zsim.rules.tables import REGION_INDEX, SUIT_INDEX
from zsim.strategies.estimates.actions import ActionEstimates
from zsim.strategies.estimates.weights import OFFICIAL_KEYS, REGIONS


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
        kind, w, p = e.effect, self.w, self.p
        if kind.startswith("vp_"):
            return w.vp * self.view.effect_vp(e, here, slot, suit)
        if kind == "raise_unrest":
            return -self.unrest_cost(here if e.where == "here" else REGION_INDEX[e.where],
                                     e.amount)
        if kind == "reduce_unrest":
            if e.where == "here":
                return self.unrest_relief(here, e.amount)
            reliefs = sorted((self.unrest_relief(r, e.amount) for r in REGIONS), reverse=True)
            return sum(reliefs[:e.regions])
        if kind == "reset_unrest":
            reliefs = sorted((self.unrest_relief(r, p.unrest[r]) for r in REGIONS), reverse=True)
            return sum(reliefs[:e.regions])
        if kind == "gain_tokens":
            if e.color == "any":
                return self.best_token(1) * e.count
            s = suit if e.color == "own" else SUIT_INDEX[e.color]
            return self.token_gain(s, min(e.count, self.board.supply[s])) if s >= 0 else 0.0
        if kind == "unlock_soldiers":
            return min(e.count, p.soldiers) * self.soldier_value()
        if kind == "move_officials":
            return 0.6 * self.best_official_move() * min(e.count, 2)
        if kind == "move_workers":
            return 0.6 * self.best_worker_move() * min(e.count, 2)
        if kind == "recruit":
            return self.recruit_value(e, here)
        if kind == "hire":
            regions = REGIONS if e.where == "any" else (
                here if e.where == "here" else REGION_INDEX[e.where],)
            return max(self.worker_value(r, e.count) for r in regions if r >= 0)
        if kind == "ship":
            return self.ship_value(e.steps)
        if kind == "place_alchemist_cards":
            n = min(e.count, len(p.alchemist_supply))
            return n * (w.elixir * self.vp_projection() + 1.0)
        if kind == "place_soldier_free":
            return max(self.spots()[3], default=0.0)
        if kind == "install_governor_free":
            if not p.governors:
                return 0.0
            where = REGIONS if e.regions == "any" else tuple(REGION_INDEX[r] for r in e.regions)
            return max(self.governor_value(r, free=True) for r in where)
        if kind == "build_palace_free":
            if not p.palaces:
                return 0.0
            return max(self.palace_value(r, free=True, large=e.large_token) for r in REGIONS)
        if kind == "build_wall_free":
            return max((self.wall_value(s, i, free=True)
                        for s, i in queries.wall_slots(self.board, p, free=True)), default=0.0)
        return 0.0

    def recruit_value(self, e: Any, here: int) -> float:
        supply = self.p.official_supply
        kinds = range(3) if e.official == "any" else (OFFICIAL_KEYS.index(e.official),)
        types = [t for t in kinds if supply[t]]
        if not types:
            return 0.0
        n = min(e.count, sum(supply[t] for t in types))
        regions = REGIONS if e.where == "any" else (
            here if e.where == "here" else REGION_INDEX[e.where],)
        best = max(self.official_value(t, r) for t in types for r in regions if r >= 0)
        return best * (1 + 0.5 * (n - 1))
