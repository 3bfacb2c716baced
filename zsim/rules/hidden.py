"""What a seat cannot see, as data: the copy of the table a seat is shown, and the redeal of
everything hidden from it that a search plays on (determinisation).

Hidden from a player: the draw decks, the other players' hands (their backs are public, so the
number of cards of each suit in each hand is known), and in the solo game the order of Li Si's
face-down Unification deck (his "hand") and of his action deck. Everything else is on the
table.
"""

from __future__ import annotations

import random

from zsim.rules.tables import Tables
from zsim.state import GameState


def seat_copy(state: GameState, seat: int) -> GameState:
    """A copy of the state as ``seat`` sees it: the hidden cards are left out (the other hands
    and the decks are empty lists, Li Si's action deck too); their counts are public and shown
    by the view (``hand_backs``, ``deck_sizes``)."""
    other = state.copy()
    for s in range(state.n):
        if s != seat:
            other.hands[s] = []
    other.decks = [[], [], []]
    if other.lisi is not None:
        other.lisi.deck = []
    return other


def redeal(state: GameState, t: Tables, seat: int, rng: random.Random) -> None:
    """Redeal, in place and with ``rng``, every card ``seat`` cannot see, consistently with
    what it can: each other hand keeps its number of cards of each suit, each deck its size,
    and Li Si's action deck its cards, in a new order."""
    card_type = t.card_type
    lisi_seat = state.lisi.seat if state.lisi is not None else -1
    others = [s for s in range(state.n) if s != seat]
    for suit, deck in enumerate(state.decks):
        pool = deck[:]
        wanted = []
        for s in others:
            held = [c for c in state.hands[s] if card_type[c] == suit]
            pool += held
            wanted.append(len(held))
        rng.shuffle(pool)
        for s, k in zip(others, wanted, strict=True):
            hand = state.hands[s]
            hand[:] = [c for c in hand if card_type[c] != suit] + pool[len(pool) - k:]
            del pool[len(pool) - k:]
        deck[:] = pool
    for s in others:
        if s == lisi_seat:
            rng.shuffle(state.hands[s])
        else:
            state.hands[s].sort()
    if state.lisi is not None and seat != lisi_seat:
        rng.shuffle(state.lisi.deck)
