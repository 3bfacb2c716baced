"""The Mausoleum: what each spot is worth to this seat and how far it is from meeting the spot's
condition, what a soldier at the entrance is worth, and what meeting a condition brings.

A spot's worth is its slot's VP plus its share of the rows and columns it may complete (each
other spot of a line counted by the chance we get there); its distance is the actions still
needed to meet its condition (its record in ``zsim.rules.mausoleum`` says how many),
discounted by the seat's patience.
"""

from __future__ import annotations

from zsim.rules import queries
from zsim.rules.mausoleum import CONDITIONS
from zsim.strategies.estimates.seat import Seat


class MausoleumEstimates(Seat):
    __slots__ = ("_soldier", "_spots", "open_spots", "spot_gap")

    _spots: tuple[list[int], list[int], list[bool], list[float]] | None
    # condition -> where -> (full worth, distance) of each spot a soldier could still take
    # (nested by condition, not keyed by a (condition, where) tuple: no tuple per lookup)
    open_spots: dict[str, dict[int, tuple[float, int]]]
    spot_gap: int
    _soldier: float | None

    def start(self) -> None:
        super().start()
        self._spots = None
        self.open_spots = {}
        self.spot_gap = 0

    def refresh(self) -> None:
        super().refresh()
        self._soldier = None

    def spots(self) -> tuple[list[int], list[int], list[bool], list[float]]:
        """[worth of a soldier there now (0: taken or full), distance, mine, full worth (slot +
        rows and columns)] per spot."""
        if self._spots is not None:
            return self._spots
        p, board, seat, f = self.p, self.board, self.seat, self.f
        values = f.slot_values
        worth: list[int] = []
        dist: list[int] = []
        mine: list[bool] = []
        free = [False] * len(board.mausoleum)
        for j in queries.free_spots(self.tables, board, p):
            free[j] = True
        for j, spot in enumerate(board.mausoleum):
            slots = spot.slots
            if queries.holds(slots, seat):
                worth.append(0)
                mine.append(True)
                dist.append(0)
                continue
            mine.append(False)
            if free[j]:
                worth.append(values[queries.open_slot(slots, seat)])
                dist.append(CONDITIONS[spot.condition].distance(self, spot.where))
            else:
                worth.append(0)
                dist.append(0)
        gap = self.spot_gap = 0 if p.entrance else 1
        disc = self.disc
        chance = [1.0 if mine[j] else (disc[dist[j] + gap] if worth[j] else 0.0)
                  for j in range(len(worth))]
        line_vp = f.mausoleum_line_vp
        wm = self.w.mausoleum
        full = [0.0] * len(worth)
        open_spots: dict[str, dict[int, tuple[float, int]]] = {}
        usable_soldiers = p.entrance or p.soldiers
        for j, spot in enumerate(board.mausoleum):
            value = worth[j]
            if value:
                lines = 0.0
                for a, b in f.lines_of[j]:
                    lines += chance[a] * chance[b]
                full[j] = wm * (value + line_vp * lines)
                if usable_soldiers:
                    row = open_spots.get(spot.condition)
                    if row is None:
                        row = open_spots[spot.condition] = {}
                    row[spot.where] = (full[j], dist[j])
        self.open_spots = open_spots
        self._spots = (worth, dist, mine, full)
        return self._spots

    def spot_progress(self, condition: str, where: int, before: int, after: int) -> float:
        """Value of bringing a spot's condition from ``before`` to ``after`` actions away."""
        if self._spots is None:
            self.spots()
        row = self.open_spots.get(condition)
        hit = row.get(where) if row is not None else None
        if hit is None or before == after:
            return 0.0
        disc, gap = self.disc, self.spot_gap
        return hit[0] * (disc[after + gap] - disc[before + gap])

    def spot_ready(self, condition: str, where: int) -> float:
        """Value of meeting a spot's condition now (from its current distance)."""
        if self._spots is None:
            self.spots()
        row = self.open_spots.get(condition)
        hit = row.get(where) if row is not None else None
        if hit is None or not hit[1]:
            return 0.0
        disc, gap = self.disc, self.spot_gap
        return hit[0] * (disc[gap] - disc[hit[1] + gap])

    def spare_loss(self) -> float:
        """Spare-soldier VP lost by taking one soldier off the entrance."""
        e = self.p.entrance
        table = self.f.extra_soldier_vp
        top = len(table) - 1
        return self.w.soldiers * (table[min(e, top)] - table[min(max(e - 1, 0), top)])

    def spot_place(self, j: int) -> float:
        """Placing an unlocked soldier on spot ``j`` now."""
        return self.spots()[3][j] - self.spare_loss()

    def soldier_value(self) -> float:
        """One more unlocked soldier at the entrance."""
        if self._soldier is None:
            _, dist, _, full = self.spots()
            disc = self.disc
            best = 0.0
            for j, value in enumerate(full):
                if value:
                    v = value * disc[dist[j]]
                    if v > best:
                        best = v
            e = self.p.entrance
            table = self.f.extra_soldier_vp
            top = len(table) - 1
            spare = self.w.soldiers * (table[min(e + 1, top)] - table[min(e, top)])
            self._soldier = max(best, spare)
        return self._soldier
