"""Building: a Palace, a Governor or a Wall placed now (by a Court action, or free through an
ability), net of the Officials or Workers it spends."""

from __future__ import annotations

import math

from zsim.rules import queries
from zsim.strategies.estimates.pieces import PieceEstimates


class ActionEstimates(PieceEstimates):
    __slots__ = ()

    def palace_value(self, r: int, free: bool, large: bool = True) -> float:
        """Building a Palace in region ``r`` (``free``: no Architect or Workers needed)."""
        w, f = self.w, self.f
        v = w.palaces * f.palace_vp + self.best_tile(r)
        if not self.board.palace_count[r][self.seat]:
            v += self.wall_rate("regions_with_palace") + self.spot_ready("palace", r)
        on_board = self.board.large_on_board
        if large and (on_board[0] or on_board[1] or on_board[2]):
            carry = 2 * self.token_carry()
            best = -math.inf
            for s in range(3):
                if on_board[s]:
                    gain = self.token_gain(s, f.large_token_value) - carry
                    if gain > best:
                        best = gain
            v += best
        if not free:
            v -= self.worker_loss(r, f.palace_workers_here, exclude_palace=True)
            v -= self.pay_cost(f.palace_workers_elsewhere, exclude=r)
        return v

    def governor_value(self, r: int, free: bool) -> float:
        """Installing a Governor in region ``r`` (``free``: no Officials spent)."""
        v = self.gov_goals()[r]
        if not free:
            spent = 0.0
            for t in range(3):
                spent += self.official_loss(t, r, exclude_governor=True)
            v -= spent
        return v

    def wall_value(self, s: int, slot: int, free: bool) -> float:
        """Building a Wall on section ``s``, slot ``slot`` (``free``: no Workers paid)."""
        section = self.board.walls[s]
        tier = section.tiers[slot]
        found = self.walls()[1][s]
        v = 0.0
        if found:
            for i, _, vp in found:
                if i == slot:
                    v = vp
                    break
        v += self.section_bonus(s)
        if tier == max(section.tiers):
            v += self.spot_ready("high_wall", section.site)
        if not free:
            v -= self.pay_cost(tier)
        return v

    def best_wall(self) -> float:
        """The best Wall a Court action can build now (``queries.wall_slots``), net of the
        Workers paid."""
        walls, found_by = self.board.walls, self.walls()[1]
        best = -math.inf
        for s, i in queries.wall_slots(self.board, self.p, free=False):
            section = walls[s]
            t = section.tiers[i]
            vp = 0.0
            found = found_by[s]
            assert found is not None  # a slot the Workers can pay is an open slot
            for j, _, expected in found:
                if j == i:
                    vp = expected
                    break
            v = vp + self.section_bonus(s) - self.pay_cost(t)
            if t == max(section.tiers):
                v += self.spot_ready("high_wall", section.site)
            if v > best:
                best = v
        return best
