"""What a strategy may look at: the table as a seated player sees it, and nothing it can change.

What a view returns is the seat's own copy of the table (``zsim.rules.hidden.seat_copy``): the
public state, the player's own hand, and no other hand nor any deck (their sizes are public:
``hand_backs``, ``deck_sizes``), and no player's activity counters (``stats``, the runner's
records). Each part is copied when first read in a decision (the seat's board alone for ``me``,
the hand alone for ``hand``, every board for ``players``, the whole table for ``board``) and
shared by what the strategy reads in that decision; nothing of it is shared with the game nor
with another seat, so a strategy that writes into it changes what it alone sees. The exception
is a built-in bot that only reads (``shared_readers``, by exact class): its seat is shown the
table itself, the hidden cards left out. The helpers below compute from the game and return
fresh numbers and lists.
``tables`` is the strategy's own copy of the box (``public_tables``), never the engine's.
``fork`` gives the seat a game to search: a copy with every hidden card redealt at random.

A view holds no reference to its game. The engine lists the games it is playing now in
``PLAYING``, by a number of their own, and a view finds its game there while the engine plays
it (during its decisions, and while its game is stepped); the engine keeps the seats' views
and strategies out of sight of the game object (``zsim.game``). So from what a strategy is
handed (its view, its decision, itself), following attributes, closures or the garbage
collector's referents and referrers finds no object the game plays with. A program holding a
game reads a seat's view of it with ``Game.view(seat)``, a view that holds its game: the
engine never hands one to a strategy.
"""

from __future__ import annotations

import copy
import importlib
import random
from typing import Any, Final, Protocol
from weakref import WeakKeyDictionary

from zsim.components import Box
from zsim.components.schema import LiSiCard
from zsim.decisions import Table
from zsim.rules import effects, turn
from zsim.rules.hidden import seat_copy, seat_window
from zsim.rules.tables import Tables, build_tables
from zsim.state import GameState, MausoleumSpot, PlayerState, WallSection


class Host(Table, Protocol):
    """What a view needs of its game (``zsim.game.Game``; the engine imports the view, not
    the other way round)."""

    token: int  # the game's number in ``PLAYING``
    asked_seat: int  # the seat whose strategy is answering now (-1: none)
    consults: int  # strategy calls and outside answers so far: a view copies once per each

    def shares_table(self, seat: int) -> bool: ...

    @property
    def log(self) -> list[str] | None: ...

    def fork(self, seat: int | None = None, rng: random.Random | None = None) -> Any: ...

    def public_tables(self, seat: int) -> Tables: ...

    def seat_view(self, seat: int) -> PlayerView: ...


# The games the engine is playing now, by their number: where a seat's view finds its game.
PLAYING: Final[dict[int, Host]] = {}

# The strategy classes whose seats are shown the table itself rather than a copy of it: the
# built-in bots that only read it, by exact type (a subclass, which may write, is shown
# copies). Copying the table at every question cost the heuristic bots more than their rules
# engine; tests/test_shared_views.py plays every one at every player count and checks that none
# of its questions changes the game. A fixed list, read by ``shared_readers``: no public set a
# bot could add its own class to (and be shown the live table).
_SHARED_READERS: Final = (("zsim.strategies.heuristic", "HeuristicStrategy"),
                          ("zsim.strategies.distilled", "DistilledStrategy"))
_shared: frozenset[type] | None = None


def shared_readers() -> frozenset[type]:
    """The classes of ``_SHARED_READERS`` (imported on the first call, which is a game's)."""
    global _shared
    if _shared is None:
        _shared = frozenset(getattr(importlib.import_module(module), name)
                            for module, name in _SHARED_READERS)
    return _shared


class NotPlaying(Exception):
    """A seat's view read while its game is not being played."""


class PlayerView:
    """One seat's view of one game (see the module docstring)."""

    __slots__ = ("_at", "_board", "_hand", "_last", "_me", "_memo", "_owner", "_players", "_rng",
                 "_rng_shared", "_seat", "_shares", "_shown", "_tables", "_token")

    def __init__(self, token: int, seat: int, rng: random.Random,
                 memo: dict[Any, Any] | None = None, owner: Host | None = None) -> None:
        """``owner``: the game, for a view read by the program that holds it
        (``Game.view``); a seat's own view has none and finds its game in ``PLAYING``."""
        self._token = token
        self._seat = seat
        self._owner = owner
        self._rng = rng
        self._rng_shared = False  # shared with a fork's view: copied by the first to draw
        # The seat's strategy may keep per-game memory here: a strategy instance plays many
        # games (and seats), so anything it remembers about one game belongs to that game's view.
        self._memo: dict[Any, Any] = memo if memo is not None else {}
        self._tables: Tables | None = None
        self._at = -1  # the game's strategy call the parts below were copied in
        self._me: PlayerState | None = None
        self._players: list[PlayerState] | None = None
        self._hand: list[int] | None = None
        self._board: GameState | None = None
        # what this seat was last shown, in any decision: a part still equal to the game's is
        # shown again rather than copied (whatever the seat did to it, no other seat sees it)
        self._shown: list[PlayerState | None] = []
        self._last: GameState | None = None
        # shown the table itself (shared_readers): 1 yes, 0 no, -1 not asked yet; a program's
        # view of a game it holds is always a copy
        self._shares = -1 if owner is None else 0

    @property
    def seat(self) -> int:
        """The seat this view is of (read-only: a view reads its own seat's hand only)."""
        return self._seat

    @property
    def rng(self) -> random.Random:
        """The strategy's own seeded RNG for this game."""
        if self._owner is not None:
            return self._owner.seat_view(self.seat).rng
        if self._rng_shared:  # a fork shares it until either side draws: copy it then
            own = random.Random.__new__(random.Random)
            own.setstate(self._rng.getstate())
            self._rng, self._rng_shared = own, False
        return self._rng

    @property
    def memo(self) -> dict[Any, Any]:
        """The strategy's memory of this game (a dict it may fill as it likes)."""
        if self._owner is not None:
            return self._owner.seat_view(self.seat).memo
        return self._memo

    def copy_for(self, token: int) -> PlayerView:
        """This seat's view in a fork of the game (numbered ``token``): the same RNG state and
        memory, copied (the RNG when either side first draws from it)."""
        other = PlayerView(token, self.seat, self._rng, dict(self._memo))
        other._rng_shared = self._rng_shared = True
        return other

    def _host(self) -> Host:
        owner = self._owner
        if owner is not None:
            return owner
        game = PLAYING.get(self._token)
        if game is None:
            raise NotPlaying("a seat's view can be read only while its game is being played "
                             "(in a decision); a program holding the game reads it with "
                             "game.view(seat)")
        if game.asked_seat != self._seat:
            # a seat's view reads the game only in that seat's own decisions: a view made for
            # another seat, or one found in memory, reads nothing
            raise NotPlaying(f"seat {self._seat}'s view can be read only in seat "
                             f"{self._seat}'s own decisions")
        return game

    def _now(self) -> Host:
        """The game, with the parts copied in an earlier decision dropped."""
        game = self._host()
        if self._at != game.consults:
            self._at = game.consults
            self._me = self._players = self._hand = self._board = None
            shares = self._shares
            if shares < 0:
                shares = self._shares = int(game.shares_table(self.seat))
            if shares:
                self._share(game)
        return game

    def _share(self, game: Host) -> None:
        """This decision's parts for a seat shown the table itself (``shared_readers``): the
        state's own public parts, and its own hand; never another hand nor a deck."""
        lisi = game.state.lisi
        card = lisi_card(lisi.card, game.t, self.tables) if lisi is not None else None
        board = self._board = seat_window(game.state, self.seat, card)
        self._players = board.players
        self._me = board.players[self.seat]
        self._hand = board.hands[self.seat]

    def fork(self, rng: random.Random | None = None) -> Any:
        """A copy of the game at this decision for this seat to search: every card it cannot
        see redealt at random (from ``rng``, by default one drawn from the view's RNG), every
        seat answered by the caller (``pending`` / ``answer`` / ``play``). The strategy must
        declare ``forks = True``."""
        game = self._host()
        if rng is None:
            rng = random.Random(self.rng.getrandbits(64))
        return game.fork(self.seat, rng)

    @property
    def tables(self) -> Tables:
        """The box's card facts and numbers: the strategy's own copy (read-only)."""
        tables = self._tables
        if tables is None:
            tables = self._tables = self._host().public_tables(self.seat)
        return tables

    @property
    def n_players(self) -> int:
        return self._host().n

    @property
    def round(self) -> int:
        return self._host().state.round

    @property
    def me(self) -> PlayerState:
        game = self._now()
        if self._board is not None:
            return self._board.players[self.seat]
        if self._players is not None:
            return self._players[self.seat]
        me = self._me
        if me is None:
            me = self._me = self._player(game, self.seat)
        return me

    @property
    def players(self) -> list[PlayerState]:
        game = self._now()
        if self._board is not None:
            return self._board.players
        players = self._players
        if players is None:
            players = self._players = self._boards(game)
        return players

    def _boards(self, game: Host) -> list[PlayerState]:
        """Copies of every player board (the seat's own one already copied, if any)."""
        me, seat = self._me, self.seat
        return [me if s == seat and me is not None else self._player(game, s)
                for s in range(game.n)]

    def _player(self, game: Host, seat: int) -> PlayerState:
        """A copy of a player's board (``PlayerState.shown``): the one this seat was last shown
        if it still equals the game's, else a new one lending it the parts still equal."""
        live = game.state.players[seat]
        shown = self._shown
        if not shown:
            shown.extend([None] * game.n)
        board = shown[seat] = live.shown(shown[seat])
        return board

    @property
    def hand(self) -> list[int]:
        game = self._now()
        if self._board is not None:
            return self._board.hands[self.seat]
        hand = self._hand
        if hand is None:
            hand = self._hand = game.state.hands[self.seat][:]
        return hand

    @property
    def board(self) -> GameState:
        """The table as this seat sees it: other hands and the decks are empty lists."""
        game = self._now()
        board = self._board
        if board is None:
            state = game.state
            players = self._players if self._players is not None else self._boards(game)
            lisi = state.lisi
            card = lisi_card(lisi.card, game.t, self.tables) if lisi is not None else None
            board = self._board = self._last = seat_copy(state, self.seat, players, card,
                                                         self._last)
            if self._hand is not None:  # the hand read earlier in this decision stays its own
                board.hands[self.seat] = self._hand
        return board

    @property
    def walls(self) -> list[WallSection]:
        return self.board.walls

    @property
    def mausoleum(self) -> list[MausoleumSpot]:
        return self.board.mausoleum

    def hand_backs(self, seat: int) -> tuple[int, int, int]:
        """How many Writing, Currency and Laws cards a player holds (the backs are public)."""
        game = self._host()
        card_type = game.t.card_type
        hand = game.state.hands[seat]
        return tuple(sum(1 for c in hand if card_type[c] == s) for s in range(3))  # type: ignore[return-value]

    @property
    def deck_sizes(self) -> tuple[int, ...]:
        """Cards left in each suit's draw deck."""
        return tuple(len(deck) for deck in self._host().state.decks)

    @property
    def court_top(self) -> int | None:
        court = self._host().state.court
        return court[-1] if court else None

    def card_ability_vp(self, card: int) -> int:
        """VP the best alternative of a tableau card's ability would score right now."""
        game = self._host()
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
        game = self._host()
        steps = game.t.box.abilities[ability_id].options[option]
        return effects.steps_vp(game, game.state.players[self.seat], steps,
                                effects.Context(region, 0, -1, ""))

    # --- read-only helpers for strategies' estimates (each wraps a rules function) -------------

    @property
    def turns_left(self) -> int:
        """Cards this player will still play: the hand plus the draws of the rounds to come."""
        game = self._host()
        rules = game.rules
        per_round = 3 * rules.cards_per_suit_per_round
        return len(game.state.hands[self.seat]) + per_round * (rules.rounds - game.state.round)

    @property
    def log(self) -> list[str]:
        """The narration so far (empty unless the game is narrated); it tells public moves only."""
        return list(self._host().log or ())

    def effect_vp(self, effect: object, here: int = -1, slot: int = 0, suit: int = -1) -> int:
        """VP one scoring effect step would give this player now, sitting in region ``here``."""
        game = self._host()
        return effects.effect_vp(game, game.state.players[self.seat], effect,
                                 effects.Context(here, slot, suit, ""))

    def palace_regions(self) -> list[int]:
        """Regions where this player could build a Palace with a Court action now."""
        game = self._host()
        return turn.palace_regions(game, game.state.players[self.seat])


def lisi_card(card: LiSiCard, engine: Tables, own: Tables) -> LiSiCard:
    """Li Si's ``card`` of the ``engine``'s box, as it is in the box of ``own``: a strategy's
    copy of it (the same card when ``own`` is the engine's)."""
    index = next(i for i, c in enumerate(engine.box.solo.lisi_cards) if c is card)
    return own.box.solo.lisi_cards[index]


# --- the strategies' copies of the box -----------------------------------------------------------

# strategy class -> box -> its copy of the box's tables (both keys weak: a copy lives as long
# as the class and the box it was made for)
_PUBLIC: WeakKeyDictionary[Any, WeakKeyDictionary[Box, Tables]] = WeakKeyDictionary()


def public_tables(tables: Tables, strategy: object) -> Tables:
    """The tables of a copy of ``tables``' box made for ``strategy``'s class, once per class and
    box in a process. What a strategy is shown of the box is this copy: the engine reads its own,
    which no strategy can reach, and a strategy that forces its way into its copy (the box's
    tables are read-only, but Python keeps nothing private) changes what its own class sees,
    never the rules nor what another class of bot sees."""
    owner = type(strategy)
    copies = _PUBLIC.get(owner)
    if copies is None:
        copies = _PUBLIC[owner] = WeakKeyDictionary()
    public = copies.get(tables.box)
    if public is None:
        public = copies[tables.box] = build_tables(copy.deepcopy(tables.box))
    return public
