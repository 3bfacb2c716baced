"""Conservation laws and bounds that must hold between any two steps of a game, and the audit
of the score sheet at its end.

``violations`` is used by the test suite (after every decision of many random games) and by the
runner after every game: a broken invariant names the player and the component.
``score_audit`` compares each player's VP with the VP the game's own events scored
(``ResultRecorder.ledger``): the engine runs it before it returns any result, so VP that reached
a score sheet any other way (a strategy writing into the game) fail the game.
"""

from __future__ import annotations

from collections.abc import Sequence

from zsim.rules.tables import Tables
from zsim.state import GameState


class ScoreAuditError(Exception):
    """A score sheet that disagrees with the VP scored during the game. ``seat`` is the seat
    with the most VP it did not score (whose strategy is the likely cause), or None when every
    difference is a loss."""

    def __init__(self, message: str, seat: int | None) -> None:
        super().__init__(message)
        self.seat = seat


def score_audit(tallies: Sequence[dict[str, int]], ledger: Sequence[dict[str, int]]
                ) -> list[tuple[int, str, int]]:
    """(seat, VP category, VP in the tally but never scored) for every category where a
    player's running tally (``PlayerState.vp``) differs from what the game's ``vp`` events
    scored; empty when the score sheet is what the game scored."""
    found = []
    for seat, (tally, scored) in enumerate(zip(tallies, ledger, strict=True)):
        for category in sorted(set(tally) | set(scored)):
            extra = tally.get(category, 0) - scored.get(category, 0)
            if extra:
                found.append((seat, category, extra))
    return found


def violations(state: GameState, t: Tables) -> list[str]:
    """Every invariant broken by this state (empty when all hold).

    The runner checks every game it plays, so this is written to cost little beside a game:
    plain loops, and a message made only for an invariant that is broken."""
    rules, n = t.box.board.rules, state.n
    found: list[str] = []
    card_type, alchemist_sets = t.card_type, t.alchemist_sets
    officials_per_type, unrest_cap = rules.officials_per_type, rules.unrest_cap
    region_card_limit = rules.region_card_limit
    wall_slots = [section.slots for section in state.walls]
    spot_slots = [spot.slots for spot in state.mausoleum]
    # Every Unification card is in one place: decks, hands, the Court, the discard or a tableau
    # (Alchemist cards, each player's own, are counted apart): as many places as cards, and
    # each card in one.
    cards: set[int] = set()
    places = 0
    for pile in (*state.decks, *state.hands, state.court, state.discard):
        cards.update(pile)
        places += len(pile)
    for p in state.players:
        seat = p.seat
        for kind in range(3):
            on_board = 0
            lowest = 0
            for region in p.officials:
                count = region[kind]
                on_board += count
                if count < lowest:
                    lowest = count
            if p.official_supply[kind] + on_board != officials_per_type:
                found.append(f"seat {seat}: officials of type {kind} not conserved")
            if lowest < 0:
                found.append(f"seat {seat}: negative officials")
        governors = 0
        for row in state.governor_count:
            governors += row[seat]
        if p.governors + governors != rules.governors:
            found.append(f"seat {seat}: Governors not conserved")
        palaces = 0
        for row in state.palace_count:
            palaces += row[seat]
        if p.palaces + palaces != rules.palaces:
            found.append(f"seat {seat}: Palaces not conserved")
        walls = 0
        for slots in wall_slots:
            walls += slots.count(seat)
        if p.walls + walls != rules.walls:
            found.append(f"seat {seat}: Walls not conserved")
        placed = 0
        doubled = False
        for slots in spot_slots:
            here = slots.count(seat)
            placed += here
            if here > 1:
                doubled = True
        if p.soldiers + p.entrance + placed != rules.soldiers:
            found.append(f"seat {seat}: soldiers not conserved")
        if doubled:
            found.append(f"seat {seat}: two soldiers on one Mausoleum tile")
        if min(p.unrest) < 0 or max(p.unrest) > unrest_cap:
            found.append(f"seat {seat}: Unrest out of range")
        alchemists: set[int] = set()
        crowded = False
        for region_cards in p.tableau:
            if len(region_cards) > region_card_limit:
                crowded = True
            for card in region_cards:
                if card_type[card] == 3:
                    alchemists.add(card)
                else:
                    cards.add(card)
                    places += 1
        if crowded:
            found.append(f"seat {seat}: too many cards in a region")
        if not 0 <= p.colour < len(alchemist_sets):
            found.append(f"seat {seat}: no Alchemist set for its colour")
        if min(p.workers) < 0 or min(p.tokens) < 0 or min(p.large) < 0:
            found.append(f"seat {seat}: negative Workers or tokens")
        own_set = set(alchemist_sets[p.colour])
        held = alchemists.union(p.alchemist_supply)
        if not (own_set <= held and len(held - own_set) <= 1):
            found.append(f"seat {seat}: Alchemist cards not conserved")
    for suit in range(3):
        small = state.supply[suit]
        large = state.large_on_board[suit]
        for p in state.players:
            small += p.tokens[suit]
            large += p.large[suit]
        if small != rules.small_tokens[n]:
            found.append(f"small tokens of suit {suit} not conserved")
        if large != 1:
            found.append(f"large token of suit {suit} not conserved")
    if not len(cards) == places == len(t.box.cards):
        found.append("Unification cards not conserved")
    for slots in wall_slots:
        builders = [s for s in slots if s >= 0]
        if len(set(builders)) != len(builders):
            found.append("a player has two Walls in one section")
    return found
