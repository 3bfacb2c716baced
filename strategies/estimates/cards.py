"""Cards: tucking one into a region (its tokens, its Unrest, what it adds to the tiles that
count cards), its ability's future activations at a flat rate, and activating the tableau's
cards now. ``Estimator`` is the whole chain, the class the heuristic builds."""

from __future__ import annotations

from zsim.rules import queries
from zsim.rules.tables import ALCHEMIST
from zsim.strategies.estimates.abilities import AbilityEstimates
from zsim.strategies.estimates.weights import ALCHEMIST_OFFICIAL, REGIONS


class Estimator(AbilityEstimates):
    """Estimates for one seat, built for one decision (the heuristic shares it with the rest of
    that turn after a ``refresh``). Every table is built on first use."""

    __slots__ = ("_card_values", "_triggered")

    _card_values: dict[int, float]
    _triggered: list[list[tuple[int, int]]] | None

    def refresh(self) -> None:
        super().refresh()
        self._card_values = {}
        self._triggered = None

    def tuck_base(self, r: int, suit: int) -> float:
        """Tucking any card of ``suit`` in region ``r``: tokens, Unrest, what it adds to tiles."""
        f = self.f
        slot = len(self.p.tableau[r])
        tokens = min(f.tokens_per_slot[slot], self.board.supply[suit])
        return (self.token_gain(suit, tokens) - self.unrest_cost(r, f.unrest_per_slot[slot])
                + self.composition(r, suit))

    def future_card(self, card: int, slot: int) -> float:
        """A card's ability at a flat rate, times the activations it can expect from now on."""
        return (self.w.abilities * self.activations(self.f.card_trigger[card])
                * self.st.card[card][slot])

    def composition(self, r: int, card_type: int) -> float:
        """What one more card of ``card_type`` in region ``r`` adds to tiles that count cards."""
        p = self.p
        counts, totals = self.type_counts()
        row = counts[r]
        filled = len(p.tableau[r])
        v = self.spot_progress("full", r, self.limit - filled, self.limit - filled - 1)
        if row[card_type] == 1 and row[0] < 2 and row[1] < 2 and row[2] < 2 and row[3] < 2:
            v += self.wall_rate("regions_with_pair")
        mine, lower = totals[card_type], 0  # the only type with the fewest cards?
        for count in totals:
            if count <= mine:
                lower += 1
        if lower == 1:
            v += self.wall_rate("quadruplets")
        if p.palaces:
            gain = self.tile_gain(r)[card_type]
            if gain:
                v += self.w.palaces * gain * self.disc[self.pal_dist[r]]
        return v

    def alchemist_card_value(self, card: int, r: int) -> float:
        """Putting an Alchemist card from our supply into region ``r``."""
        slot = len(self.p.tableau[r])
        return (self.w.elixir * self.vp_projection() + self.composition(r, ALCHEMIST)
                + self.future_card(card, slot))

    def alchemist_home(self) -> int:
        """The region an Alchemist card would most likely go to: room, and Alchemists there."""
        p, counts = self.p, self.type_counts()[0]
        return max(REGIONS, key=lambda r: (len(p.tableau[r]) < self.limit,
                                           p.officials[r][ALCHEMIST_OFFICIAL],
                                           counts[r][ALCHEMIST]))

    def triggered(self) -> list[list[tuple[int, int]]]:
        """Per Court action, (region, card) of the tableau cards it would activate
        (``queries.triggered_cards``). Cards whose Unrest costs do not fit are listed too;
        ``card_value`` prices them out."""
        if self._triggered is None:
            self._triggered = queries.triggered_cards(self.tables, self.rules, self.p)
        return self._triggered

    def fired_value(self, action: int) -> float:
        """What activating every card ``action`` triggers is worth now (each only if it pays)."""
        total = 0.0
        for _, card in self.triggered()[action]:
            v = self.card_value(card)
            if v > 0:
                total += v
        return total

    def card_value(self, card: int) -> float:
        """Activating a tableau card's ability now (its best alternative)."""
        hit = self._card_values.get(card)
        if hit is None:
            region, slot = -1, 0
            for r, cards in enumerate(self.p.tableau):
                if card in cards:
                    region, slot = r, cards.index(card)
                    break
            hit = self._card_values[card] = self.alternatives_value(
                self.f.card_steps[card], region, slot, self.f.card_type[card])
        return hit
