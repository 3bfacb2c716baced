"""Plain, mutable game state: small ints and lists in slotted classes, cheap to copy.

Indices used throughout: regions 0..4 (Chu, Wei, Zhao, Qi, Yan), suits 0..2 (Writing, Currency,
Laws), official types 0..2 (Alchemist, Architect, General), seats 0..n-1. Cards are ints: a
Unification card is its printed number (1..120); Alchemist and Master Alchemist cards follow.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from zsim.components.schema import LiSiCard

NO_ONE: Final = -1


class Stage:
    """Where a game stands between two segments (``GameState.stage``): plain ints, compared on
    the hot path."""

    START: Final = 0  # the Starting tiles are to be dealt
    ROUND: Final = 1  # a round is to begin (``round`` is the last one begun)
    TURNS: Final = 2  # ``step`` is the index of the round's next turn
    REWARDS: Final = 3  # the round's Unification rewards are next
    OVER: Final = 4


class PlayerState:
    """Everything one player owns that the table can see: board, supply, score."""

    __slots__ = (
        "alchemist_supply",
        "colour",
        "emperor",
        "entrance",
        "governors",
        "large",
        "master_taken",
        "official_supply",
        "officials",
        "palaces",
        "seat",
        "ship",
        "soldiers",
        "stats",
        "tableau",
        "tokens",
        "unrest",
        "vp",
        "walls",
        "workers",
    )

    def __init__(self, seat: int, blank: bool = False) -> None:
        """``blank``: leave every field but the seat unset, for ``copy`` to fill (compiled
        classes are made through their constructor)."""
        self.seat = seat
        if blank:
            return
        self.colour = seat  # index into COLOURS, dealt at setup (and with it the Alchemist set)
        self.tableau: list[list[int]] = [[], [], [], [], []]
        self.emperor: dict[int, int] = {}  # card -> Court action index set by an Emperor tile
        self.unrest = [0, 0, 0, 0, 0]
        self.officials = [[0, 0, 0] for _ in range(5)]  # [region][type]
        self.official_supply = [0, 0, 0]
        self.workers = [0, 0, 0, 0, 0]
        self.governors = 0  # in supply
        self.palaces = 0
        self.walls = 0
        self.soldiers = 0  # locked on the player board
        self.entrance = 0  # unlocked, waiting at the Mausoleum entrance
        self.alchemist_supply: list[int] = []
        self.ship = 0
        self.master_taken = False
        self.tokens = [0, 0, 0]  # small tokens by suit
        self.large = [0, 0, 0]  # large tokens by suit
        self.vp: dict[str, int] = {}  # in-game VP by category
        self.stats: dict[str, int] = {}  # activity counters, by players-table column (n_*)

    def __getnewargs__(self) -> tuple[int, bool]:
        """Unpickled through the constructor with these (compiled classes are)."""
        return self.seat, True

    def copy(self) -> PlayerState:
        other = PlayerState(self.seat, blank=True)
        other.colour = self.colour
        other.tableau = [r[:] for r in self.tableau]
        other.emperor = dict(self.emperor)
        other.unrest = self.unrest[:]
        other.officials = [r[:] for r in self.officials]
        other.official_supply = self.official_supply[:]
        other.workers = self.workers[:]
        other.governors = self.governors
        other.palaces = self.palaces
        other.walls = self.walls
        other.soldiers = self.soldiers
        other.entrance = self.entrance
        other.alchemist_supply = self.alchemist_supply[:]
        other.ship = self.ship
        other.master_taken = self.master_taken
        other.tokens = self.tokens[:]
        other.large = self.large[:]
        other.vp = dict(self.vp)
        other.stats = dict(self.stats)
        return other

    def shown(self, earlier: PlayerState | None) -> PlayerState:
        """This board as a seat's view shows it now, given the copy that seat was shown last
        (``earlier``): that copy itself while every field still equals this board's, else a new
        copy that keeps the earlier copy's lists and dicts that still equal this board's (they
        are that seat's own already) and copies the others. Without the activity counters
        (``stats``: the runner's records, no part of the table; comparing and copying them at
        every decision cost more than the rest of a board). Each field is compared once, and
        only what changed is copied."""
        if earlier is None:
            other = self.copy()
            other.stats = {}
            return other
        changed = False
        tableau = earlier.tableau
        if tableau != self.tableau:
            tableau, changed = [r[:] for r in self.tableau], True
        officials = earlier.officials
        if officials != self.officials:
            officials, changed = [r[:] for r in self.officials], True
        tokens = earlier.tokens
        if tokens != self.tokens:
            tokens, changed = self.tokens[:], True
        workers = earlier.workers
        if workers != self.workers:
            workers, changed = self.workers[:], True
        unrest = earlier.unrest
        if unrest != self.unrest:
            unrest, changed = self.unrest[:], True
        large = earlier.large
        if large != self.large:
            large, changed = self.large[:], True
        official_supply = earlier.official_supply
        if official_supply != self.official_supply:
            official_supply, changed = self.official_supply[:], True
        alchemist_supply = earlier.alchemist_supply
        if alchemist_supply != self.alchemist_supply:
            alchemist_supply, changed = self.alchemist_supply[:], True
        vp = earlier.vp
        if vp != self.vp:
            vp, changed = dict(self.vp), True
        emperor = earlier.emperor
        if emperor != self.emperor:
            emperor, changed = dict(self.emperor), True
        if not changed and not earlier.stats and self.same_counts(earlier):
            return earlier
        other = PlayerState(self.seat, blank=True)
        other.colour = self.colour
        other.tableau = tableau
        other.emperor = emperor
        other.unrest = unrest
        other.officials = officials
        other.official_supply = official_supply
        other.workers = workers
        other.governors = self.governors
        other.palaces = self.palaces
        other.walls = self.walls
        other.soldiers = self.soldiers
        other.entrance = self.entrance
        other.alchemist_supply = alchemist_supply
        other.ship = self.ship
        other.master_taken = self.master_taken
        other.tokens = tokens
        other.large = large
        other.vp = vp
        other.stats = {}
        return other

    def same_counts(self, other: PlayerState) -> bool:
        """Equal to ``other`` in every field that is a plain number (or flag)."""
        return (self.ship == other.ship and self.entrance == other.entrance
                and self.soldiers == other.soldiers and self.governors == other.governors
                and self.palaces == other.palaces and self.walls == other.walls
                and self.master_taken == other.master_taken and self.seat == other.seat
                and self.colour == other.colour)

    @property
    def vp_in_game(self) -> int:
        return sum(self.vp.values())

    def tableau_cards(self) -> list[int]:
        return [c for region in self.tableau for c in region]


class WallSection:
    """One section of the Great Wall: its slots (Worker cost each), builders, tiles."""

    __slots__ = (
        "emperor_tile", "first_builder", "site", "slots", "tiers", "wall_face", "wall_tile",
    )

    def __init__(self, site: int, tiers: tuple[int, ...], wall_tile: int, wall_face: str,
                 emperor_tile: int) -> None:
        self.site = site
        self.tiers = tiers
        self.slots = [NO_ONE] * len(tiers)
        self.wall_tile = wall_tile
        self.wall_face = wall_face
        self.emperor_tile = emperor_tile  # index into box.emperor_tiles, or NO_ONE
        self.first_builder = NO_ONE

    def __getnewargs__(self) -> tuple[int, tuple[int, ...], int, str, int]:
        """Unpickled through the constructor with these (compiled classes are)."""
        return self.site, self.tiers, self.wall_tile, self.wall_face, self.emperor_tile

    def same(self, other: WallSection) -> bool:
        return (self.slots == other.slots and self.first_builder == other.first_builder
                and self.emperor_tile == other.emperor_tile and self.site == other.site
                and self.tiers == other.tiers and self.wall_tile == other.wall_tile
                and self.wall_face == other.wall_face)

    def copy(self) -> WallSection:
        other = WallSection(self.site, self.tiers, self.wall_tile, self.wall_face,
                            self.emperor_tile)
        other.slots = self.slots[:]
        other.first_builder = self.first_builder
        return other


class MausoleumSpot:
    """One spot of the 3x3 Mausoleum: what it is bound to, its tile, and who stands on it."""

    __slots__ = ("binding", "condition", "slots", "tile", "where")

    def __init__(self, binding: str, where: int, tile: int, condition: str,
                 n_slots: int) -> None:
        self.binding = binding  # a region name, 'site1'..'site3' or 'elixir'
        self.where = where  # the bound region or wall site as an index (0 for the elixir)
        self.tile = tile  # index into box.mausoleum_tiles
        self.condition = condition  # the tile's condition, kept here for the hot path
        self.slots = [NO_ONE] * n_slots

    def __getnewargs__(self) -> tuple[str, int, int, str, int]:
        """Unpickled through the constructor with these (compiled classes are)."""
        return self.binding, self.where, self.tile, self.condition, 0

    def same(self, other: MausoleumSpot) -> bool:
        return (self.slots == other.slots and self.tile == other.tile
                and self.binding == other.binding and self.where == other.where
                and self.condition == other.condition)

    def copy(self) -> MausoleumSpot:
        other = MausoleumSpot(self.binding, self.where, self.tile, self.condition, 0)
        other.slots = self.slots[:]
        return other


class LiSi:
    """Li Si's own state besides his pieces (solo mode): his action deck and the Palace tiles
    he keeps (``zsim.rules.lisi`` plays him)."""

    __slots__ = ("card", "deck", "discard", "palace_tiles", "removed", "seat")

    def __init__(self, seat: int, card: LiSiCard) -> None:
        self.seat = seat
        self.card = card
        self.deck: list[int] = list(card.actions)  # draw from the end
        self.discard: list[int] = []
        self.removed: list[int] = []  # one-time cards already played
        self.palace_tiles: list[tuple[int, int]] = []  # (region, Palace tile kind) on his board

    def __getnewargs__(self) -> tuple[int, LiSiCard]:
        """Unpickled through the constructor with these (compiled classes are)."""
        return self.seat, self.card

    def copy(self) -> LiSi:
        other = LiSi(self.seat, self.card)
        other.deck = self.deck[:]
        other.discard = self.discard[:]
        other.removed = self.removed[:]
        other.palace_tiles = self.palace_tiles[:]
        return other


class GameState:
    """The shared board plus all players. ``copy`` is a cheap structural copy for lookahead."""

    __slots__ = (
        "court",
        "court_free",
        "decks",
        "discard",
        "governor_count",
        "governor_slots",
        "hands",
        "large_on_board",
        "lisi",
        "marker_column",
        "master_available",
        "mausoleum",
        "n",
        "palace_count",
        "palace_tiles",
        "players",
        "reward_board",
        "round",
        "stage",
        "step",
        "supply",
        "turn_order",
        "walls",
    )

    def __init__(self, n: int, blank: bool = False) -> None:
        """``blank``: leave every field but ``n`` unset, for ``copy`` to fill."""
        self.n = n
        if blank:
            return
        self.round = 0  # 1..5 while playing
        self.stage = Stage.START  # where the game stands: see ``Stage``
        self.step = 0  # in Stage.TURNS, the index of the next turn of the round
        self.players = [PlayerState(s) for s in range(n)]
        self.hands: list[list[int]] = [[] for _ in range(n)]  # kept apart: hidden information
        self.decks: list[list[int]] = [[], [], []]
        self.supply = [0, 0, 0]  # small tokens by suit
        self.large_on_board = [1, 1, 1]
        self.court: list[int] = []  # card numbers, bottom first
        self.discard: list[int] = []  # Court cards cleared away (court_reset variant)
        self.court_free = True  # the next Court card activates whatever lies below it
        self.palace_tiles: list[list[int]] = [[] for _ in range(5)]  # palace tile kinds per region
        self.palace_count = [[0] * n for _ in range(5)]  # [region][seat]
        self.governor_slots: list[list[list[int]]] = [[] for _ in range(5)]  # [tile kind, holder]
        self.governor_count = [[0] * n for _ in range(5)]  # [region][seat]
        self.walls: list[WallSection] = []
        self.mausoleum: list[MausoleumSpot] = []  # grid order, row by row
        self.master_available: list[int] = []
        self.turn_order: list[int] = list(range(n))
        self.marker_column: list[int] = [NO_ONE] * n  # aspect slot taken this round, per seat
        self.reward_board = 0  # index into box.unification_boards
        self.lisi: LiSi | None = None  # solo mode only

    def __getnewargs__(self) -> tuple[int, bool]:
        """Unpickled through the constructor with these (compiled classes are)."""
        return self.n, True

    def copy(self, only_hand: int | None = None, players: list[PlayerState] | None = None,
             previous: GameState | None = None) -> GameState:
        """A structural copy: no list, board or piece of it is this state's, so that neither
        the copy nor this state can change the other.

        ``only_hand``: copy that seat's hand alone, and no deck (the other hands and the decks
        are left empty): what that seat may be shown. ``players``: copies of the player boards
        made already (else the boards are copied whole). ``previous``, an earlier copy of this
        state, lends the new one its Wall sections, Mausoleum spots, hands and lists that still
        equal this state's (testing
        is cheaper than copying, and most are equal between two questions): whoever holds both
        copies sees the same objects in them, so a seat's view lends it only its own copies."""
        other = GameState(self.n, blank=True)
        other.round = self.round
        other.stage = self.stage
        other.step = self.step
        q = previous
        if players is not None:  # a seat's view passes its own (``PlayerState.shown``)
            other.players = players
        else:
            other.players = [p.copy() for p in self.players]
        if q is None:
            other.walls = [w.copy() for w in self.walls]
            other.mausoleum = [m.copy() for m in self.mausoleum]
        else:
            # by index, not zip(): the compiled loop then makes no tuple per pair
            walls, old_walls = self.walls, q.walls
            _same_length(walls, old_walls)
            other.walls = [old_walls[i] if old_walls[i].same(walls[i]) else walls[i].copy()
                           for i in range(len(walls))]
            spots, old_spots = self.mausoleum, q.mausoleum
            _same_length(spots, old_spots)
            other.mausoleum = [old_spots[i] if old_spots[i].same(spots[i]) else spots[i].copy()
                               for i in range(len(spots))]
        if only_hand is None:
            other.hands = [h[:] for h in self.hands]
            other.decks = [d[:] for d in self.decks]
        elif q is not None and _hands_lent(q.hands, self.hands, only_hand):
            other.hands = q.hands
            decks = q.decks
            other.decks = decks if not any(decks) else [[], [], []]
        else:
            other.hands = [h[:] if s == only_hand else [] for s, h in enumerate(self.hands)]
            other.decks = [[], [], []]
        other.court_free = self.court_free
        if q is None:
            other.supply = self.supply[:]
            other.large_on_board = self.large_on_board[:]
            other.court = self.court[:]
            other.discard = self.discard[:]
            other.palace_tiles = [r[:] for r in self.palace_tiles]
            other.palace_count = [r[:] for r in self.palace_count]
            other.governor_slots = [[s[:] for s in r] for r in self.governor_slots]
            other.governor_count = [r[:] for r in self.governor_count]
            other.master_available = self.master_available[:]
            other.turn_order = self.turn_order[:]
            other.marker_column = self.marker_column[:]
        else:  # lists are compared whole (in C, nested ones too) before they are copied
            other.supply = q.supply if q.supply == self.supply else self.supply[:]
            other.large_on_board = (q.large_on_board if q.large_on_board == self.large_on_board
                                    else self.large_on_board[:])
            other.court = q.court if q.court == self.court else self.court[:]
            other.discard = q.discard if q.discard == self.discard else self.discard[:]
            other.palace_tiles = (q.palace_tiles if q.palace_tiles == self.palace_tiles
                                  else [r[:] for r in self.palace_tiles])
            other.palace_count = (q.palace_count if q.palace_count == self.palace_count
                                  else [r[:] for r in self.palace_count])
            other.governor_slots = (q.governor_slots if q.governor_slots == self.governor_slots
                                    else [[s[:] for s in r] for r in self.governor_slots])
            other.governor_count = (q.governor_count if q.governor_count == self.governor_count
                                    else [r[:] for r in self.governor_count])
            other.master_available = (q.master_available
                                      if q.master_available == self.master_available
                                      else self.master_available[:])
            other.turn_order = q.turn_order if q.turn_order == self.turn_order else \
                self.turn_order[:]
            other.marker_column = (q.marker_column if q.marker_column == self.marker_column
                                   else self.marker_column[:])
        other.reward_board = self.reward_board
        other.lisi = self.lisi.copy() if self.lisi is not None else None
        return other

    def shared(self, seat: int) -> GameState:
        """This state as ``seat`` may see it, made of this state's own public parts (nothing is
        copied): the other hands and the decks are empty lists, and Li Si's hidden action deck
        is left out of a copy of his pieces. For readers that never write, whom a copy of the
        table at each of their questions would cost more than their own thinking
        (``zsim.view.shared_readers``): the parts change as the game goes on."""
        other = GameState(self.n, blank=True)
        other.round = self.round
        other.stage = self.stage
        other.step = self.step
        other.players = self.players
        other.walls = self.walls
        other.mausoleum = self.mausoleum
        other.hands = [h if s == seat else [] for s, h in enumerate(self.hands)]
        other.decks = [[], [], []]
        other.court_free = self.court_free
        other.supply = self.supply
        other.large_on_board = self.large_on_board
        other.court = self.court
        other.discard = self.discard
        other.palace_tiles = self.palace_tiles
        other.palace_count = self.palace_count
        other.governor_slots = self.governor_slots
        other.governor_count = self.governor_count
        other.master_available = self.master_available
        other.turn_order = self.turn_order
        other.marker_column = self.marker_column
        other.reward_board = self.reward_board
        lisi = self.lisi
        if lisi is not None:
            lisi = lisi.copy()
            lisi.deck = []
        other.lisi = lisi
        return other


def _same_length(mine: list, earlier: list) -> None:
    """An earlier copy lends parts to a copy of the same game only (``GameState.copy``)."""
    if len(mine) != len(earlier):
        raise ValueError(f"an earlier copy with {len(earlier)} parts where this state has "
                         f"{len(mine)}: not a copy of the same game")


def _hands_lent(earlier: list[list[int]], hands: list[list[int]], seat: int) -> bool:
    """Can a seat's earlier copy lend its hands to its new one? Its own hand still equal to
    the game's and every other hand still empty, as copies for that seat show them."""
    if len(earlier) != len(hands) or earlier[seat] != hands[seat]:
        return False
    return not any(earlier[s] for s in range(len(earlier)) if s != seat)
