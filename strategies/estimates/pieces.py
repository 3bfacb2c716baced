"""Officials and Workers: what one more (or one fewer) in a region is worth, as the distance it
takes off (or adds to) the goals it serves: a Palace, a Governor, a Wall's count, a Mausoleum
spot's condition, plus a small spare value for later uses the model does not follow."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Final

from zsim.rules import queries
from zsim.strategies.estimates.elixir import ElixirEstimates
from zsim.strategies.estimates.weights import (
    ALCHEMIST_OFFICIAL,
    ARCHITECT,
    FAR,
    GENERAL,
    OFFICIAL_KEYS,
    OFFICIAL_SPARE,
    REGIONS,
    WORKER_SPARE,
)

NONE: Final[dict[int, tuple[float, int]]] = {}  # no open spot of a condition (never written)


class PieceEstimates(ElixirEstimates):
    __slots__ = ("_official", "_official_loss", "_pay", "_worker_gains", "_worker_losses")

    # The tables below are keyed by one integer packing the arguments (regions and types
    # below 8): cheaper per lookup than a tuple of them.
    _official: list | None
    _official_loss: dict[int, float]
    _worker_gains: dict[int, float]
    _worker_losses: dict[int, float]
    _pay: dict[int, float]

    def refresh(self) -> None:
        super().refresh()
        self._official = None
        self._official_loss = {}
        self._worker_gains = {}
        self._worker_losses = {}
        self._pay = {}

    # --- Officials -------------------------------------------------------------------------

    def official_value(self, t: int, r: int) -> float:
        """One more Official of type ``t`` in region ``r``."""
        table = self._official
        if table is None:
            table = self._official = self._official_table()
        return table[t][r]

    def best_official(self, types: Iterable[int]) -> float:
        """The best ``official_value`` over these Official types and all regions."""
        table = self._official
        if table is None:
            table = self._official = self._official_table()
        best = -math.inf
        for t in types:
            for v in table[t]:
                if v > best:
                    best = v
        return best

    def _official_table(self) -> list[list[float]]:
        p, w, disc, f = self.p, self.w, self.disc, self.f
        palace_goal, gov_goal = self.palace_goals(), self.gov_goals()
        if self._spots is None:
            self.spots()
        spots = self.open_spots
        council_spot = spots.get("council") or NONE
        governor_spot = spots.get("governor") or NONE
        palace_spot = spots.get("palace") or NONE
        workforce_spot = spots.get("workforce") or NONE
        # a spot's discount, one turn later without a soldier: ``disc[gap + d]`` (no slice)
        gap = self.spot_gap
        spare = OFFICIAL_SPARE * self.frac
        table = [[spare] * 5 for _ in range(3)]
        seat, board, limit = self.seat, self.board, self.limit
        workforce, hire_cap = f.workforce_workers, self.cap - f.hire_unrest
        officials, workers, unrest, tableau = p.officials, p.workers, p.unrest, p.tableau
        alchemist_room = bool(queries.elixir_card_regions(self.rules, p))
        rates = (self._walls or self.walls())[0]
        type_rates = [rates.get(key, 0.0) for key in OFFICIAL_KEYS]
        missing, pal_dist = self.missing, self.pal_dist
        for r in REGIONS:
            m = missing[r]
            if not m:
                continue
            offs = officials[r]
            shared = spare + gov_goal[r] * (disc[m] - disc[m + 1])
            hit = council_spot.get(r)
            if hit:
                shared += hit[0] * (disc[gap + m - 1] - disc[gap + m])
            if not board.governor_count[r][seat]:
                hit = governor_spot.get(r)
                if hit:
                    shared += hit[0] * (disc[gap + m] - disc[gap + m + 1])
            before = pal_dist[r]
            step = palace_goal[r] * (disc[before - 1] - disc[before]) if before < FAR else 0.0
            hit = None if board.palace_count[r][seat] else palace_spot.get(r)
            if hit and before < FAR:
                step += hit[0] * (disc[gap + before - 1] - disc[gap + before])
            short = workers[r] < f.palace_workers_here and unrest[r] <= hire_cap
            if not offs[ALCHEMIST_OFFICIAL]:
                v = shared + type_rates[ALCHEMIST_OFFICIAL]
                if p.alchemist_supply and not alchemist_room and len(tableau[r]) < limit:
                    v += w.elixir * 0.5 * self.vp_projection() * w.patience
                table[ALCHEMIST_OFFICIAL][r] = v
            if not offs[ARCHITECT]:
                table[ARCHITECT][r] = shared + type_rates[ARCHITECT] + step
            if not offs[GENERAL]:
                v = shared + type_rates[GENERAL]
                if short:
                    v += step
                if not self.n_hire_ok and unrest[r] <= hire_cap:
                    v += max(0.0, self.worker_value(r, f.hire_workers)) * w.patience
                if workers[r] < workforce:
                    need = -(-(workforce - workers[r]) // f.hire_workers)
                    hit = workforce_spot.get(r)
                    if hit:
                        v += hit[0] * (disc[gap + need] - disc[gap + need + 1])
                table[GENERAL][r] = v
        return table

    def official_loss(self, t: int, r: int, exclude_governor: bool = False) -> float:
        """Taking one Official of type ``t`` out of region ``r``."""
        key = (t * 8 + r) * 2 + exclude_governor
        hit = self._official_loss.get(key)
        if hit is None:
            hit = self._official_loss[key] = self._official_drop(t, r, exclude_governor)
        return hit

    def _official_drop(self, t: int, r: int, exclude_governor: bool) -> float:
        p, disc = self.p, self.disc
        v = OFFICIAL_SPARE * self.frac
        if p.officials[r][t] != 1:
            return v
        m = self.missing[r]
        if not exclude_governor:
            v += self.gov_goals()[r] * (disc[m + 1] - disc[m + 2])
        v += self.wall_rate(OFFICIAL_KEYS[t])
        if m == 0:
            v -= self.spot_progress("council", r, 0, 1)
        if t != ALCHEMIST_OFFICIAL:
            before = self.pal_dist[r]
            after = self.palace_dist(r, architect=False) if t == ARCHITECT else \
                self.palace_dist(r, general=False)
            v += self.palace_goals()[r] * (disc[before] - disc[after])
        return v

    def best_official_move(self) -> float:
        p = self.p
        best = 0.0
        for r in REGIONS:
            offs = p.officials[r]
            for t in range(3):
                if offs[t]:
                    loss = self.official_loss(t, r)
                    for to in (r - 1, r + 1):
                        if 0 <= to < 5:
                            best = max(best, self.official_value(t, to) - loss)
        return best

    # --- Workers ---------------------------------------------------------------------------

    def worker_value(self, r: int, k: int) -> float:
        """``k`` more Workers in region ``r``."""
        key = k * 8 + r
        hit = self._worker_gains.get(key)
        if hit is None:
            hit = self._worker_gains[key] = self._worker_gain(r, k)
        return hit

    def _worker_gain(self, r: int, k: int) -> float:
        p, f, disc = self.p, self.f, self.disc
        wr = p.workers[r]
        v = WORKER_SPARE * k * self.frac
        palace_goal = self.palace_goals()
        here = f.palace_workers_here
        if wr < here <= wr + k:
            after = self.palace_dist(r, here=wr + k)
            v += palace_goal[r] * (disc[after] - disc[self.pal_dist[r]])
        if self.total_workers == 0:
            best = -math.inf
            for i in REGIONS:
                if i != r:
                    gain = palace_goal[i] * (disc[self.palace_dist(i, elsewhere=k)]
                                             - disc[self.pal_dist[i]])
                    if gain > best:
                        best = gain
            v += best
        if not wr:
            have = self.worker_regions
            v += self.wall_phi(have + 1) - self.wall_phi(have) + self.wall_rate(
                "regions_with_workers")
        need = f.workforce_workers
        if wr < need <= wr + k:
            v += self.spot_ready("workforce", r)
        return v

    def worker_loss(self, r: int, k: int, exclude_palace: bool = False) -> float:
        """Taking ``k`` Workers out of region ``r``."""
        key = (k * 8 + r) * 2 + exclude_palace
        hit = self._worker_losses.get(key)
        if hit is None:
            hit = self._worker_losses[key] = self._worker_drop(r, k, exclude_palace)
        return hit

    def _worker_drop(self, r: int, k: int, exclude_palace: bool) -> float:
        p, f, disc = self.p, self.f, self.disc
        wr = p.workers[r]
        v = WORKER_SPARE * k * self.frac
        if not exclude_palace and wr >= f.palace_workers_here > wr - k:
            after = self.palace_dist(r, here=wr - k)
            v += self.palace_goals()[r] * (disc[self.pal_dist[r]]
                                           - disc[after])
        if wr <= k:
            have = self.worker_regions
            v += self.wall_phi(have) - self.wall_phi(have - 1) + self.wall_rate(
                "regions_with_workers")
        need = f.workforce_workers
        if wr >= need > wr - k:
            v -= self.spot_progress("workforce", r, 0, 1)
        return v

    def pay_cost(self, workers: int, exclude: int = -1) -> float:
        """Cheapest loss of ``workers`` Workers taken from as many different regions."""
        key = workers * 8 + exclude + 1  # exclude: a region, or -1
        hit = self._pay.get(key)
        if hit is None:
            wk = self.p.workers
            losses = [self.worker_loss(r, 1) for r in REGIONS if r != exclude and wk[r]]
            losses.sort()
            hit = 0.0
            for loss in losses[:workers]:
                hit += loss
            self._pay[key] = hit
        return hit

    def best_worker_move(self) -> float:
        p = self.p
        best = 0.0
        for r in REGIONS:
            if p.workers[r]:
                loss = self.worker_loss(r, 1)
                for to in (r - 1, r + 1):
                    if 0 <= to < 5:
                        best = max(best, self.worker_value(to, 1) - loss)
        return best
