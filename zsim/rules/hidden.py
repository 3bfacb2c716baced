"""What a seat cannot see, as data: the copy of the table a seat is shown, and the redeal of
everything hidden from it that a search plays on (determinisation).

Hidden from a player: the draw decks, the other players' hands (their backs are public, so the
number of cards of each suit in each hand is known), and in the solo game the order of Li Si's
face-down Unification deck (his "hand") and of his action deck. Everything else is on the
table.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from zsim.rules.tables import Tables
from zsim.state import GameState, PlayerState

if TYPE_CHECKING:
    from zsim.components.schema import LiSiCard


def seat_copy(state: GameState, seat: int, players: list[PlayerState] | None = None,
              lisi_card: LiSiCard | None = None, previous: GameState | None = None
              ) -> GameState:
    """A copy of the state as ``seat`` sees it: the hidden cards are left out (the other hands
    and the decks are empty lists, Li Si's action deck too); their counts are public and shown
    by the view (``hand_backs``, ``deck_sizes``). Nothing in it is shared with the state nor with
    a copy shown to another seat, so what a strategy does to it changes its own copy only.

    ``players``: copies of the player boards made already for this seat. ``lisi_card``: the
    strategy's own copy of Li Si's card, put in the place of the game's (the box the engine
    reads is never handed out). ``previous``: the copy last shown to this seat, which lends the
    new one the parts that still equal the game's (``GameState.copy``); a part the seat
    scribbled on is its own business.
    """
    other = state.copy(only_hand=seat, players=players, previous=previous)
    if other.lisi is not None:
        other.lisi.deck = []
        if lisi_card is not None:
            other.lisi.card = lisi_card
    return other


def seat_window(state: GameState, seat: int, lisi_card: LiSiCard | None = None) -> GameState:
    """The state as ``seat`` sees it, made of the state's own public parts (``GameState.shared``):
    what a seat whose strategy only reads is shown (``zsim.view.shared_readers``). The hidden
    cards are left out as in ``seat_copy``; ``lisi_card`` as there."""
    other = state.shared(seat)
    if other.lisi is not None and lisi_card is not None:
        other.lisi.card = lisi_card
    return other


def redeal(state: GameState, t: Tables, seat: int, rng: random.Random,
           earlier: GameState | None = None) -> None:
    """Redeal, in place and with ``rng``, every card ``seat`` cannot see, consistently with
    what it can: each hidden card is swapped for one of the same suit drawn at random from all
    the hidden cards, so every hand keeps its number of cards of each suit and every deck its
    size; Li Si's action deck is put in a new order.

    ``earlier`` is the same game at an earlier moment of the segment under way (the start a
    replay plays from): the same swap is applied to it, so that replaying it reaches ``state``
    again. A card seen since then (one Li Si has tucked, say) was not hidden any more and is
    not swapped.
    """
    card_type = t.card_type
    lisi_seat = state.lisi.seat if state.lisi is not None else -1
    places = [*state.decks, *(state.hands[s] for s in range(state.n) if s != seat)]
    swap: dict[int, int] = {}
    for suit in range(3):
        cards = [c for place in places for c in place if card_type[c] == suit]
        drawn = sorted(cards)  # sorted first: the deal depends on the RNG, not on the truth
        rng.shuffle(drawn)
        swap.update(zip(cards, drawn, strict=True))
    for board in (state, earlier) if earlier is not None else (state,):
        for place in (*board.decks, *board.hands):
            place[:] = [swap.get(c, c) for c in place]
        for s in range(board.n):
            if s != lisi_seat:
                board.hands[s].sort()
    if state.lisi is not None and seat != lisi_seat:
        deck = state.lisi.deck
        order = sorted(deck)
        rng.shuffle(order)
        if earlier is not None and earlier.lisi is not None:
            before = earlier.lisi.deck
            if before[:len(deck)] == deck:
                before[:len(deck)] = order
        deck[:] = order


def starting_deal(state: GameState, t: Tables, seat: int, tiles: list[int],
                  rng: random.Random) -> dict[int, list[int]]:
    """A deal of the Starting tiles consistent with what ``seat`` knows when it is asked to
    keep one of ``tiles``: it is dealt ``tiles``; each seat before it in turn order, which has
    kept one already (unseen), is dealt a single tile, which it keeps; each seat after it, its
    full deal. The others' tiles are drawn with ``rng`` from the tiles ``seat`` does not hold."""
    box = t.box
    pool = [i for i, tile in enumerate(box.starting_tiles) for _ in range(tile.copies)]
    for tile in tiles:
        pool.remove(tile)
    pool.sort()  # the deal depends on the RNG, not on the order of the box
    rng.shuffle(pool)
    lisi_seat = state.lisi.seat if state.lisi is not None else -1
    order = [s for s in state.turn_order if s != lisi_seat]
    before = order.index(seat)
    dealt = box.board.rules.starting_tiles_dealt
    deal = {}
    for place, other in enumerate(order):
        if other == seat:
            deal[other] = list(tiles)
        else:
            deal[other] = [pool.pop() for _ in range(1 if place < before else dealt)]
    return deal
