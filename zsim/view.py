"""What a strategy may look at: the table as a seated player sees it, and nothing it can change.

The view hands out a *copy* of the table as this seat sees it (``zsim.rules.hidden.seat_copy``):
the public state, the player's own hand, and no other hand nor any deck (their sizes are
public: ``hand_backs``, ``deck_sizes``). The copy is made on first use in each decision and
shared by everything the strategy reads in it, so a strategy that writes into it changes its own
copy only. It borrows the parts that still equal the game's from the copy last shown to any
seat (``Host.shown``); as they are compared with the game's first, what one seat scribbled is
never shown to the next. The helpers below compute from the live game and return fresh
numbers and lists.
``fork`` gives the seat a game to search: a copy with every hidden card redealt at random.

The view reaches its game through a closure, not an attribute: Python has no private data, so
a strategy that digs through closures or the garbage collector is out of the contract; through
what it is given, it cannot change the game nor see what its player cannot.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol

from zsim.decisions import Table
from zsim.rules import effects, mausoleum, turn
from zsim.rules.hidden import seat_copy
from zsim.rules.tables import Tables
from zsim.state import GameState, MausoleumSpot, PlayerState, WallSection


class Host(Table, Protocol):
    """What a view needs of its game (``zsim.game.Game``; the engine imports the view, not
    the other way round)."""

    consults: int  # strategy calls so far: the view's copy of the table is made once per call
    shown: GameState | None  # the copy last shown to any seat: the next one borrows from it

    @property
    def log(self) -> list[str] | None: ...

    def fork(self, seat: int | None = None, rng: random.Random | None = None) -> Any: ...


class PlayerView:
    __slots__ = ("_game", "_rng", "_rng_shared", "_seen", "_seen_at", "memo", "seat")

    def __init__(self, game: Host, seat: int, rng: random.Random) -> None:
        self._game: Callable[[], Host] = lambda: game
        self.seat = seat
        self._rng = rng
        self._rng_shared = False  # shared with a fork's view: copied by the first to draw
        # The seat's strategy may keep per-game memory here: a strategy instance plays many
        # games (and seats), so anything it remembers about one game belongs to that game's view.
        self.memo: dict = {}
        self._seen: GameState | None = None  # this decision's copy of the table
        self._seen_at = -1  # the game's strategy call it was made for

    @property
    def rng(self) -> random.Random:
        """The strategy's own seeded RNG for this game."""
        if self._rng_shared:  # a fork shares it until either side draws: copy it then
            own = random.Random.__new__(random.Random)
            own.setstate(self._rng.getstate())
            self._rng, self._rng_shared = own, False
        return self._rng

    def copy_for(self, game: Host) -> PlayerView:
        """This seat's view in a fork of the game: the same RNG state and memory, copied (the
        RNG when either side first draws from it)."""
        other = PlayerView(game, self.seat, self._rng)
        other._rng_shared = self._rng_shared = True
        other.memo = dict(self.memo)
        return other

    def _table(self) -> GameState:
        game = self._game()
        if self._seen_at != game.consults:
            self._seen = game.shown = seat_copy(game.state, self.seat, game.shown)
            self._seen_at = game.consults
        return self._seen  # type: ignore[return-value]

    def fork(self, rng: random.Random | None = None) -> Any:
        """A copy of the game at this decision for this seat to search: every card it cannot
        see redealt at random (from ``rng``, by default one drawn from the view's RNG), every
        seat answered by the caller (``pending`` / ``answer`` / ``play``). The strategy must
        declare ``forks = True``."""
        if rng is None:
            rng = random.Random(self.rng.getrandbits(64))
        return self._game().fork(self.seat, rng)

    @property
    def tables(self) -> Tables:
        return self._game().t

    @property
    def n_players(self) -> int:
        return self._game().n

    @property
    def round(self) -> int:
        return self._game().state.round

    @property
    def me(self) -> PlayerState:
        return self._table().players[self.seat]

    @property
    def players(self) -> list[PlayerState]:
        return self._table().players

    @property
    def hand(self) -> list[int]:
        return self._table().hands[self.seat]

    def hand_backs(self, seat: int) -> tuple[int, int, int]:
        """How many Writing, Currency and Laws cards a player holds (the backs are public)."""
        game = self._game()
        card_type = game.t.card_type
        hand = game.state.hands[seat]
        return tuple(sum(1 for c in hand if card_type[c] == s) for s in range(3))  # type: ignore[return-value]

    @property
    def deck_sizes(self) -> tuple[int, ...]:
        """Cards left in each suit's draw deck."""
        return tuple(len(deck) for deck in self._game().state.decks)

    @property
    def board(self) -> GameState:
        """The table as this seat sees it: other hands and the decks are empty lists."""
        return self._table()

    @property
    def walls(self) -> list[WallSection]:
        return self._table().walls

    @property
    def mausoleum(self) -> list[MausoleumSpot]:
        return self._table().mausoleum

    @property
    def court_top(self) -> int | None:
        court = self._game().state.court
        return court[-1] if court else None

    def card_ability_vp(self, card: int) -> int:
        """VP the best alternative of a tableau card's ability would score right now."""
        game = self._game()
        p = game.state.players[self.seat]
        region, slot = turn.card_location(p, card)
        ctx = effects.Context(region, slot, game.t.card_type[card], "vp_cards")
        ability = game.t.card_ability[card]
        assert ability is not None  # every card has one: None only fills unused card numbers
        return max((effects.steps_vp(game, p, ability.options[i], ctx)
                    for i in effects.feasible_options(game, p, ability, ctx, full=False)),
                   default=0)

    def option_vp(self, ability_id: str, option: int, region: int = -1) -> int:
        """VP one alternative of a named ability would score now for this player."""
        game = self._game()
        steps = game.t.box.abilities[ability_id].options[option]
        return effects.steps_vp(game, game.state.players[self.seat], steps,
                                effects.Context(region, 0, -1, ""))

    # --- read-only helpers for strategies' estimates (each wraps a rules function) -------------

    @property
    def turns_left(self) -> int:
        """Cards this player will still play: the hand plus the draws of the rounds to come."""
        game = self._game()
        rules = game.rules
        per_round = 3 * rules.cards_per_suit_per_round
        return len(game.state.hands[self.seat]) + per_round * (rules.rounds - game.state.round)

    @property
    def log(self) -> list[str]:
        """The narration so far (empty unless the game is narrated); it tells public moves only."""
        return list(self._game().log or ())

    def effect_vp(self, effect: object, here: int = -1, slot: int = 0, suit: int = -1) -> int:
        """VP one scoring effect step would give this player now, sitting in region ``here``."""
        game = self._game()
        return effects.effect_vp(game, game.state.players[self.seat], effect,
                                 effects.Context(here, slot, suit, ""))

    @property
    def usable_mausoleum_slots(self) -> int:
        """Slots of each Mausoleum tile in use at this player count."""
        return mausoleum.usable_slots(self._game())

    def palace_regions(self) -> list[int]:
        """Regions where this player could build a Palace with a Court action now."""
        game = self._game()
        return turn.palace_regions(game, game.state.players[self.seat])
