"""Palaces and Governors as goals: the Palace tiles left in each region and what they would pay,
and per region what one more Palace or Governor would bring (its VP, its tile or bonus, the
majority it tips, the Mausoleum spot it opens). The steps towards them are in ``pieces``."""

from __future__ import annotations

import math

from zsim.rules import queries
from zsim.state import NO_ONE
from zsim.strategies.estimates.facts import per_card_gain
from zsim.strategies.estimates.seat import TILE_GAIN_KEY, TILES_KEY
from zsim.strategies.estimates.tokens import TokenEstimates
from zsim.strategies.estimates.weights import REGIONS


class GoalEstimates(TokenEstimates):
    __slots__ = ("_best_tile", "_gov_goals", "_palace_goals")

    _palace_goals: list[float] | None
    _gov_goals: list[float] | None
    _best_tile: list[float | None]

    def start(self) -> None:
        super().start()
        self._palace_goals = None
        self._gov_goals = None

    def refresh(self) -> None:
        super().refresh()
        self._best_tile = [None] * 5

    # --- Palace tiles (per game memo: a region's tiles only go, its cards only come) -----------

    def tile_vp(self, r: int) -> list[tuple[int, int, tuple, tuple[tuple[int, int], ...]]]:
        """(VP, Unrest it costs, steps, their ``queries.unrest_raises``) of each Palace tile
        left in region ``r``, today."""
        p, board = self.p, self.board
        memo = self.memo
        key = TILES_KEY + r * 10_000 + len(p.tableau[r]) * 100 + len(board.palace_tiles[r])
        hit: list[tuple[int, int, tuple, tuple[tuple[int, int], ...]]] | None = memo.get(key)
        if hit is None:
            box = self.tables.box
            hit = []
            for kind in dict.fromkeys(board.palace_tiles[r]):
                steps = box.abilities[box.palace_tiles[kind].ability].options[0]
                vp = sum(self.view.effect_vp(e, r) for e in steps)
                unrest = sum(e.amount for e in steps if e.effect == "raise_unrest")
                hit.append((vp, unrest, steps, queries.unrest_raises(steps)))
            memo[key] = hit
        return hit

    def best_tile(self, r: int) -> float:
        """The best Palace tile a Palace in ``r`` would take now, net of its Unrest."""
        best = self._best_tile[r]
        if best is None:
            p, cap = self.p, self.cap
            best = 0.0
            for vp, k, _, raises in self.tile_vp(r):
                if queries.raises_payable(cap, p, raises, r):
                    v = self.w.palaces * vp - (self.unrest_cost(r, k) if k else 0.0)
                    if v > best:
                        best = v
            self._best_tile[r] = best
        return best

    def tile_gain(self, r: int) -> list[int]:
        """Per card type, the most VP one more such card adds to a Palace tile left in ``r``."""
        memo = self.memo
        key = TILE_GAIN_KEY + r * 100 + len(self.board.palace_tiles[r])
        hit = memo.get(key)
        if hit is None:
            hit = memo[key] = [
                max((sum(per_card_gain(e, t) for e in steps) for _, _, steps, _ in self.tile_vp(r)),
                    default=0)
                for t in range(4)]
        return hit

    # --- goals ---------------------------------------------------------------------------

    def palace_goals(self) -> list[float]:
        """Per region, what one more Palace there would bring (0 with no Palace left)."""
        if self._palace_goals is None:
            p, w, board, seat = self.p, self.w, self.board, self.seat
            goals = [0.0] * 5
            if p.palaces:
                base = w.palaces * self.f.palace_vp + w.rewards * 1.5
                regions_rate = self.wall_rate("regions_with_palace")
                counts = board.palace_count
                for r in REGIONS:
                    v = base + self.best_tile(r)
                    if not counts[r][seat]:
                        v += regions_rate + self.spot_ready("palace", r)
                    goals[r] = v
            self._palace_goals = goals
        return self._palace_goals

    def gov_goals(self) -> list[float]:
        """Per region, what one more Governor there would bring (0 with no Governor left)."""
        if self._gov_goals is None:
            p, w, board, seat = self.p, self.w, self.board, self.seat
            goals = [0.0] * 5
            if p.governors:
                tile_ability = self.f.governor_ability
                ability = self.st.ability
                for r in REGIONS:
                    bonus = 0.0
                    for kind, holder in board.governor_slots[r]:
                        name = tile_ability[kind]
                        if holder == NO_ONE and name is not None and ability[name] > bonus:
                            bonus = ability[name]
                    v = (w.majority * self.majority_gain(r) + w.governor_bonus * bonus
                         + self.unrest_relief(r, p.unrest[r]))
                    if not board.governor_count[r][seat]:
                        v += self.spot_ready("governor", r)
                    goals[r] = v
            self._gov_goals = goals
        return self._gov_goals

    def majority_gain(self, r: int, extra: int = 1) -> float:
        """Expected majority VP gained in region ``r`` by ``extra`` more Governors."""
        counts = self.board.governor_count[r]
        seat = self.seat
        mine = counts[seat]
        top, tied = 0, 0
        for s, c in enumerate(counts):
            if s != seat:
                if c > top:
                    top, tied = c, 1
                elif c == top:
                    tied += 1
        prize = self.f.governor_majority_vp[self.n]
        return prize * (self._share(mine + extra, top, tied) - self._share(mine, top, tied))

    def _share(self, mine: int, top: int, tied: int) -> float:
        """Expected share of a region's majority prize: certain at the end, smooth before."""
        if mine == 0:
            return 0.0
        lead = mine - top
        if lead == 0:
            return 1 / (1 + tied)
        k = 0.7 + 2.5 * (1 - self.frac)
        if lead > 0:
            return 1 - 0.5 * math.exp(-k * lead)
        return 0.5 * math.exp(k * lead)
