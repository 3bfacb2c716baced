"""Conservation laws and bounds that must hold between any two steps of a game, and the audit
of the score sheet at its end.

``violations`` is used by the test suite (after every decision of many random games) and by the
runner after every game: a broken invariant names the player and the component.
``score_audit`` compares each player's VP with the VP the game's own events scored
(``ResultRecorder.ledger``): the engine runs it before it returns any result, so VP that reached
a score sheet any other way (a strategy writing into the game) fail the game.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from zsim.rules.tables import Tables
from zsim.state import GameState


class ScoreAuditError(RuntimeError):
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
    """Every invariant broken by this state (empty when all hold)."""
    rules, n = t.box.board.rules, state.n
    found: list[str] = []

    def expect(ok: bool, message: str) -> None:
        if not ok:
            found.append(message)

    for p in state.players:
        who = f"seat {p.seat}"
        for kind in range(3):
            on_board = sum(region[kind] for region in p.officials)
            expect(p.official_supply[kind] + on_board == rules.officials_per_type,
                   f"{who}: officials of type {kind} not conserved")
            expect(min(region[kind] for region in p.officials) >= 0,
                   f"{who}: negative officials")
        governors = sum(row[p.seat] for row in state.governor_count)
        expect(p.governors + governors == rules.governors, f"{who}: Governors not conserved")
        palaces = sum(row[p.seat] for row in state.palace_count)
        expect(p.palaces + palaces == rules.palaces, f"{who}: Palaces not conserved")
        walls = sum(w.slots.count(p.seat) for w in state.walls)
        expect(p.walls + walls == rules.walls, f"{who}: Walls not conserved")
        placed = sum(spot.slots.count(p.seat) for spot in state.mausoleum)
        expect(p.soldiers + p.entrance + placed == rules.soldiers,
               f"{who}: soldiers not conserved")
        expect(all(spot.slots.count(p.seat) <= 1 for spot in state.mausoleum),
               f"{who}: two soldiers on one Mausoleum tile")
        expect(all(0 <= u <= rules.unrest_cap for u in p.unrest), f"{who}: Unrest out of range")
        expect(all(len(r) <= rules.region_card_limit for r in p.tableau),
               f"{who}: too many cards in a region")
        expect(0 <= p.colour < len(t.alchemist_sets), f"{who}: no Alchemist set for its colour")
        expect(min(p.workers) >= 0 and min(p.tokens) >= 0 and min(p.large) >= 0,
               f"{who}: negative Workers or tokens")
        own_set = set(t.alchemist_sets[p.colour])
        alchemists = [c for c in p.tableau_cards() if t.card_type[c] == 3]
        held = set(p.alchemist_supply) | set(alchemists)
        expect(own_set <= held and len(held - own_set) <= 1,
               f"{who}: Alchemist cards not conserved")
    for suit in range(3):
        small = state.supply[suit] + sum(p.tokens[suit] for p in state.players)
        expect(small == rules.small_tokens[n], f"small tokens of suit {suit} not conserved")
        large = state.large_on_board[suit] + sum(p.large[suit] for p in state.players)
        expect(large == 1, f"large token of suit {suit} not conserved")
    cards = Counter(c for deck in state.decks for c in deck)
    cards.update(c for hand in state.hands for c in hand)
    cards.update(state.court)
    cards.update(state.discard)
    cards.update(c for p in state.players for c in p.tableau_cards() if t.card_type[c] != 3)
    expect(len(cards) == len(t.box.cards) and max(cards.values()) == 1,
           "Unification cards not conserved")
    for section in state.walls:
        expect(len(set(s for s in section.slots if s >= 0)) == sum(
            1 for s in section.slots if s >= 0), "a player has two Walls in one section")
    return found
