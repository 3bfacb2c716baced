"""Walls: what each Wall tile pays per thing it counts, the slots still open to this seat, and
what a first Wall on a section brings besides (the Emperor tile, the Mausoleum spots of its
site). Building one, with the Workers it costs, is valued in ``actions``."""

from __future__ import annotations

import math

from zsim.rules import queries
from zsim.state import NO_ONE
from zsim.strategies.estimates.mausoleum import MausoleumEstimates

Slots = list[tuple[int, int, float]]  # a section's open slots: (slot, tier, expected VP)


class WallEstimates(MausoleumEstimates):
    __slots__ = ("_phi", "_section_bonus", "_walls")

    _walls: tuple[dict[str, float], list[Slots | None]] | None
    _phi: dict[int, float]
    _section_bonus: dict[int, float]

    def start(self) -> None:
        super().start()
        self._walls = None
        self._phi = {}  # from the Walls table alone: kept by ``refresh``

    def refresh(self) -> None:
        super().refresh()
        self._section_bonus = {}

    def walls(self) -> tuple[dict[str, float], list[Slots | None]]:
        """(VP gained per +1 of each counted thing, open slots per section as
        [(slot, tier, expected VP)], or None where we cannot build: a Wall of ours there, no
        Wall left, no slot open; ``queries.wall_slots`` with no Workers paid)."""
        if self._walls is not None:
            return self._walls
        sections = self.wall_tiles()
        seat, p, disc = self.seat, self.p, self.disc
        counts = queries.wall_counts(self.tables, self.board, p)
        can_build = p.walls > 0  # ``queries.wall_slots(free=True)``, read section by section
        rates: dict[str, float] = {}
        open_slots: list[Slots | None] = []
        have = self.worker_regions
        growth = 0.35 * self.frac
        ww = self.w.walls
        board_walls = self.board.walls
        for s in range(len(sections)):
            key, values, most = sections[s]
            section = board_walls[s]
            slots, tiers = section.slots, section.tiers
            if queries.holds(slots, seat):
                rates[key] = rates.get(key, 0.0) + values[tiers[slots.index(seat)] - 1]
                open_slots.append(None)
                continue
            if not can_build or not queries.holds(slots, NO_ONE):  # no slot open
                open_slots.append(None)
                continue
            count = counts[key]
            expect = ww * (count + growth * (most - count if most > count else 0))
            best_rate = 0.0
            found: Slots = []
            for i in range(len(slots)):
                if slots[i] != NO_ONE:
                    continue
                t = tiers[i]
                value = values[t - 1]
                found.append((i, t, value * expect))
                rate = value * disc[1 + t - have if t > have else 1]
                if rate > best_rate:
                    best_rate = rate
            rates[key] = rates.get(key, 0.0) + best_rate
            open_slots.append(found)
        self._walls = ({k: v * ww for k, v in rates.items()}, open_slots)
        return self._walls

    def wall_tiles(self) -> list[tuple[str, tuple[int, ...], int]]:
        """Per section: what its tile counts (``queries.wall_key``), the VP of its tiers, and
        the most that count can reach (per game memo: the tiles never change)."""
        sections: list[tuple[str, tuple[int, ...], int]] | None = self.memo.get("walls")
        if sections is None:
            tiles = self.tables.box.wall_tiles
            sections = []
            for section in self.board.walls:
                tile = tiles[section.wall_tile]
                scoring = tile.a if section.wall_face == "a" else tile.b
                key = queries.wall_key(scoring)
                sections.append((key, tuple(scoring.values), 3 if key == "quadruplets" else 5))
            self.memo["walls"] = sections
        return sections

    def wall_rate(self, key: str) -> float:
        """VP our Walls (built, or in reach) gain when what tile ``key`` counts grows by one."""
        return (self._walls or self.walls())[0].get(key, 0.0)

    def wall_phi(self, reach: int) -> float:
        """Potential of the Walls we could still build with Workers in ``reach`` regions."""
        hit = self._phi.get(reach)
        if hit is None:
            disc = self.disc
            hit = 0.0
            for found in self.walls()[1]:
                if found:
                    top = -math.inf
                    for _, t, vp in found:
                        v = vp * disc[1 + t - reach if t > reach else 1]
                        if v > top:
                            top = v
                    hit += top
            self._phi[reach] = hit
        return hit

    def section_bonus(self, s: int) -> float:
        """What the first Wall of ours on section ``s`` brings besides its own VP: the Emperor
        tile if we open the section, and the Mausoleum spots of its site."""
        hit = self._section_bonus.get(s)
        if hit is None:
            section = self.board.walls[s]
            site, seat = section.site, self.seat
            hit = 0.0
            if section.slots.count(NO_ONE) == len(section.slots):
                if section.emperor_tile != NO_ONE and any(self.p.tableau):
                    hit += self.w.abilities * 2.0 * self.frac
                hit += self.spot_ready("first_builder", site)
            for other in self.board.walls:
                if other is not section and other.site == site and queries.holds(other.slots,
                                                                                   seat):
                    hit += self.spot_ready("both_sections", site)
            self._section_bonus[s] = hit
        return hit
