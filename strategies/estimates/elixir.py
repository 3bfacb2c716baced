"""The Elixir route: the Ship VP the seat can expect by the end, and what moving the Ship now
brings (its VP times the Alchemist cards, the Elixir symbols passed, the Master Alchemist)."""

from __future__ import annotations

from zsim.rules import queries
from zsim.rules.tables import ALCHEMIST
from zsim.strategies.estimates.goals import GoalEstimates
from zsim.strategies.estimates.weights import FUTURE_ALCHEMISTS, SEARCH_SHARE


class ElixirEstimates(GoalEstimates):
    __slots__ = ("_vp_proj",)

    _vp_proj: float | None

    def refresh(self) -> None:
        super().refresh()
        self._vp_proj = None

    def vp_projection(self) -> float:
        """Ship VP we expect to reach by the end, if the plan's share of Searches goes on."""
        if self._vp_proj is None:
            f, p = self.f, self.p
            searches = self.turns * SEARCH_SHARE * self.w.elixir
            reach = min(f.elixir_end, p.ship + int(f.elixir_steps * searches))
            self._vp_proj = float(f.elixir_vp[reach])
        return self._vp_proj

    def ship_value(self, steps: int) -> float:
        """Advancing the Ship ``steps`` spaces, Elixir symbols and Master Alchemist included."""
        f, p, w = self.f, self.p, self.w
        s = p.ship
        s2 = min(f.elixir_end, s + steps)
        if s2 == s:
            return 0.0
        pending = len(p.alchemist_supply) + (0 if p.master_taken else 1)
        ahead = symbols = 0
        for x in f.elixir_spaces:
            if x > s:
                ahead += 1
                if x <= s2:
                    symbols += 1
        cards = self.type_counts()[1][ALCHEMIST] + FUTURE_ALCHEMISTS * min(
            pending, ahead) * self.frac
        v = w.elixir * cards * (f.elixir_vp[s2] - f.elixir_vp[s])
        if symbols:
            reward = self.soldier_value() if p.soldiers else 0.0
            if p.alchemist_supply and queries.elixir_card_regions(self.rules, p):
                reward = max(reward, w.elixir * self.vp_projection() + 1.0)
            v += symbols * reward
        master = f.master_space
        if s < master and not p.master_taken:
            if s2 >= master and self.board.master_available:
                v += w.elixir * self.vp_projection() * 0.8 + 2.0
            per = f.elixir_steps
            before = -(-(master - s) // per)
            after = 0 if s2 >= master else -(-(master - s2) // per)
            v += self.spot_progress("master_alchemist", 0, before, after)
        return v
