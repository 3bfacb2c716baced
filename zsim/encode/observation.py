"""A seat's observation as a fixed-size vector: what a learner, an environment or a value model
reads of a position.

``observe(view)`` encodes only what the view shows its seat (``zsim.view.PlayerView``): the
public table, the seat's own hand, the backs of the other hands, the sizes of the decks, the
scores, where the game stands and, when given, the kind of the question asked. Nothing hidden
from the seat is read, so two determinised forks of one position (``fork(seat, rng)``: every
hidden card redealt) give that seat the same vector.

The players are encoded from the observer's chair: player slot 0 is the observing seat, then
the others in seat order after it, so that one model serves every seat.

The encoder finds whole numbers only (counts, positions, one-hot 1s) and where they go; each
part of the vector has a fixed divisor that brings its numbers to about [0, 1] (the Unrest cap,
the supply of a piece, 100 VP…), applied by numpy when the vector is made. Finding ints keeps
the compiled encoder free of float objects, and the vector mostly zero costs only its non-zero
entries.

The layout depends on the box and the player count only (``layout``): each named part is a
slice of the vector (``observe_dict`` returns the parts by name). ``ObservationLayout.version``
changes whenever the layout does, so that a model trained on one layout can refuse another.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Final

import numpy as np

from zsim.components.schema import COURT_ACTIONS, OFFICIALS, REGIONS, SUITS
from zsim.decisions import KINDS
from zsim.rules.scoring import IN_GAME_CATEGORIES
from zsim.rules.tables import CARD_TYPES, Tables, compile_tables
from zsim.state import NO_ONE, Stage

if TYPE_CHECKING:
    from zsim.components import Box
    from zsim.state import GameState, PlayerState
    from zsim.view import PlayerView

FORMAT: Final = 1  # bumped whenever the encoding itself changes (not the box: see ``layout``)
STAGES: Final = 5  # ``zsim.state.Stage``: start, round, turns, rewards, over
N_REGIONS, N_SUITS, N_TYPES = len(REGIONS), len(SUITS), len(CARD_TYPES)
N_OFFICIALS, N_ACTIONS = len(OFFICIALS), len(COURT_ACTIONS)
N_COLOURS: Final = 4
KIND_NAMES: Final = tuple(KINDS)
KIND_INDEX: Final = {kind: i for i, kind in enumerate(KIND_NAMES)}
VP, TOKENS, PIECES, CARDS, REGION_CARDS = 100, 10, 10, 10, 3  # divisors of the counts


@dataclass(frozen=True)
class ObservationLayout:
    """Where each named part of the vector lies, for one box and player count, and what its
    numbers are divided by."""

    n_players: int
    size: int
    parts: Mapping[str, slice]
    version: str  # a digest of the format and of every part's name, size and divisor
    start: dict[str, int]  # where each part begins (the encoder's offsets)
    players: tuple[dict[str, int], ...]  # per player slot: where its parts begin, by name
    inverse: np.ndarray  # per entry: 1 / its part's divisor

    def split(self, vector: np.ndarray) -> dict[str, np.ndarray]:
        """The vector's parts by name (views into it, not copies)."""
        return {name: vector[part] for name, part in self.parts.items()}


def _parts(t: Tables, n: int) -> list[tuple[str, int, float]]:
    """Every part of the vector in order: its name, size and divisor, for this box and
    player count."""
    box, board = t.box, t.box.board
    rules = board.rules
    cards = len(t.card_type)
    sections = board.wall.sites * board.wall.sections_per_site
    slots = len(board.wall.tiers[n])  # type: ignore[index]
    spots = sum(len(row) for row in board.mausoleum.grid)
    spot_slots = len(board.mausoleum.slot_values)
    bonus_slots = rules.governor_bonus_slots[n]
    seats = n + 1  # a one-hot of "no one" and each player slot
    per_player: list[tuple[str, int, float]] = [
        ("seat_order", n, 1),  # where this player sits in the turn order
        ("colour", N_COLOURS, 1),
        ("tableau_types", N_REGIONS * N_TYPES, REGION_CARDS),  # cards by region and type
        ("tableau_triggers", N_REGIONS * N_ACTIONS, REGION_CARDS),  # … and trigger in force
        ("tableau_cards", cards, 1),  # which cards
        ("unrest", N_REGIONS, rules.unrest_cap),
        ("officials", N_REGIONS * N_OFFICIALS, rules.officials_per_type),
        ("official_supply", N_OFFICIALS, rules.officials_per_type),
        ("workers", N_REGIONS, PIECES),
        ("governors", 1, rules.governors),  # in supply
        ("palaces", 1, rules.palaces),
        ("walls", 1, rules.walls),
        ("soldiers", 2, rules.soldiers),  # locked, then waiting at the Mausoleum's entrance
        ("alchemist_supply", 1, PIECES),
        ("ship", 1, max(t.elixir_end, 1)),
        ("master_taken", 1, 1),
        ("small_tokens", N_SUITS, TOKENS),
        ("large_tokens", N_SUITS, 1),
        ("vp", len(IN_GAME_CATEGORIES) + 1, VP),  # by in-game category, then in all
        ("hand_backs", N_SUITS, CARDS),
        ("reward_slot", 4, 1),  # the aspect slot taken this round: none, or one of three
    ]
    parts: list[tuple[str, int, float]] = [
        ("round", rules.rounds + 1, 1),  # one-hot, 0 before the first
        ("stage", STAGES, 1),
        ("turn_step", 1, 3 * rules.cards_per_suit_per_round * n),  # turns of the round played
        ("my_turn", 1, 1),
        ("question", len(KIND_NAMES) + 1, 1),  # the kind asked, or none
        ("hand", cards, 1),
        ("decks", N_SUITS, len(box.cards) // N_SUITS),
        ("small_supply", N_SUITS, TOKENS),
        ("large_on_board", N_SUITS, 1),
        ("court_size", 1, CARDS),
        ("court_free", 1, 1),
        ("court_top", 1, max(c.number for c in box.cards)),  # the top card's number
        ("court_top_type", N_TYPES, 1),
        ("court_top_trigger", N_ACTIONS, 1),
        ("reward_board", len(box.unification_boards), 1),
        ("palace_tiles", N_REGIONS * len(box.palace_tiles), rules.palace_spaces[n]),
        ("palace_count", N_REGIONS * n, rules.palace_spaces[n]),
        ("governor_count", N_REGIONS * n, rules.governors),
        ("governor_slots", N_REGIONS * bonus_slots * (len(box.governor_tiles) + seats), 1),
        ("wall_sections", sections * (len(box.wall_tiles) + 2 + len(box.emperor_tiles) + 1
                                      + seats * (slots + 1)), 1),
        ("mausoleum", spots * (len(box.mausoleum_tiles) + len(_bindings(t))
                               + seats * spot_slots), 1),
        ("masters", len(t.master_cards), 1),
        ("lisi_level", 4, 1),
        ("lisi_actions", 3, CARDS),  # Li Si's action cards left, played, removed
    ]
    for slot in range(n):
        parts.extend((f"p{slot}_{name}", size, divisor) for name, size, divisor in per_player)
    return parts


def _bindings(t: Tables) -> tuple[str, ...]:
    return tuple(sorted({b for row in t.box.board.mausoleum.grid for b in row}))


def layout(t: Tables, n: int) -> ObservationLayout:
    """The layout of the vector for this box and player count, made once per box (the box
    is hashed by identity; hashing the tables by value would cost more than the encoding)."""
    return _layout(t.box, n)


@cache
def _layout(box: Box, n: int) -> ObservationLayout:
    parts: dict[str, slice] = {}
    inverse: list[float] = []
    signature = [str(FORMAT)]
    for name, size, divisor in _parts(compile_tables(box), n):
        parts[name] = slice(len(inverse), len(inverse) + size)
        inverse.extend([1.0 / divisor] * size)
        # as a float: the compiled build holds every divisor as one, and the version must not
        # depend on the build (a model trained on one would be refused by the other)
        signature.append(f"{name}:{size}/{float(divisor)}")
    version = hashlib.sha256("|".join(signature).encode()).hexdigest()[:12]
    start = {name: part.start for name, part in parts.items()}
    players = tuple({name.split("_", 1)[1]: begin for name, begin in start.items()
                     if name.startswith(f"p{slot}_")} for slot in range(n))
    return ObservationLayout(n, len(inverse), parts, version, start, players,
                             np.asarray(inverse, dtype=np.float64))


class Entries:
    """The vector's non-zero entries as the encoder finds them, before scaling: the indices
    of the 1s (most entries: one-hots, cards), and the other whole numbers with their indices.
    Numbers put twice at one index are summed (``numpy.bincount`` makes the vector). Turning
    Python lists into arrays is most of the vector's cost, so zeros are left out and the 1s
    carry no count."""

    def __init__(self) -> None:
        self.ones: list[int] = []
        self.index: list[int] = []
        self.count: list[int] = []

    def put(self, i: int, count: int) -> None:
        if count == 1:
            self.ones.append(i)
        elif count:
            self.index.append(i)
            self.count.append(count)

    def dense(self, size: int) -> np.ndarray:
        """The entries as a vector of ``size`` counts (float64)."""
        counts = np.bincount(np.fromiter(self.index, np.intp, len(self.index)),
                             np.fromiter(self.count, np.float64, len(self.count)), size)
        counts += np.bincount(np.fromiter(self.ones, np.intp, len(self.ones)), None, size)
        return counts


def observe(view: PlayerView, kind: str | None = None) -> np.ndarray:
    """The seat's observation as a float32 vector of ``layout(view.tables, n).size``;
    ``kind``: the decision asked (its one-hot part stays 0 without one)."""
    lay = layout(view.tables, view.n_players)
    return (encode(view, kind).dense(lay.size) * lay.inverse).astype(np.float32)


def observe_dict(view: PlayerView, kind: str | None = None) -> dict[str, np.ndarray]:
    """``observe`` as named parts (see ``ObservationLayout.parts``)."""
    return layout(view.tables, view.n_players).split(observe(view, kind))


def encode(view: PlayerView, kind: str | None = None) -> Entries:
    """The observation's non-zero entries, before scaling (``observe`` makes the vector)."""
    t = view.tables
    n = view.n_players
    lay = layout(t, n)
    at = lay.start
    out = Entries()
    board = view.board
    me = view.seat
    order = [(me + k) % n for k in range(n)]  # the seat in each player slot
    slot_of = [0] * n  # each seat's player slot, plus one (0 is "no one")
    for slot, seat in enumerate(order):
        slot_of[seat] = slot + 1

    out.put(at["round"] + min(board.round, t.rules.rounds), 1)
    out.put(at["stage"] + board.stage, 1)
    if board.stage == Stage.TURNS:
        out.put(at["turn_step"], board.step)
        if board.turn_order[board.step % n] == me:
            out.put(at["my_turn"], 1)
    out.put(at["question"] + (KIND_INDEX[kind] if kind is not None else len(KIND_NAMES)), 1)
    base = at["hand"]
    for card in view.hand:
        out.put(base + card, 1)
    base = at["decks"]
    for suit, size in enumerate(view.deck_sizes):
        out.put(base + suit, size)
    for suit in range(N_SUITS):
        out.put(at["small_supply"] + suit, board.supply[suit])
        out.put(at["large_on_board"] + suit, board.large_on_board[suit])
    court = board.court
    out.put(at["court_size"], len(court))
    if board.court_free:
        out.put(at["court_free"], 1)
    if court:
        top = court[-1]
        out.put(at["court_top"], top)
        out.put(at["court_top_type"] + t.card_type[top], 1)
        out.put(at["court_top_trigger"] + t.card_trigger[top], 1)
    out.put(at["reward_board"] + board.reward_board, 1)
    _regions(out, at, board, t, order, slot_of)
    _walls(out, at["wall_sections"], board, t, slot_of)
    _mausoleum(out, at["mausoleum"], board, t, slot_of)
    base = at["masters"]
    for i, card in enumerate(t.master_cards):
        if card in board.master_available:
            out.put(base + i, 1)
    lisi = board.lisi
    if lisi is not None:
        out.put(at["lisi_level"] + min(lisi.card.level, 4) - 1, 1)
        # his action deck lies face down, its size public: the cards neither played nor removed
        base = at["lisi_actions"]
        out.put(base, len(lisi.card.actions) - len(lisi.discard) - len(lisi.removed))
        out.put(base + 1, len(lisi.discard))
        out.put(base + 2, len(lisi.removed))
    players = view.players
    for slot, seat in enumerate(order):
        _player(out, lay.players[slot], players[seat], view, board, t)
    return out


def _regions(out: Entries, at: dict[str, int], board: GameState, t: Tables,
             order: list[int], slot_of: list[int]) -> None:
    n = len(order)
    kinds = len(t.box.palace_tiles)
    base = at["palace_tiles"]
    for r in range(N_REGIONS):
        for kind in board.palace_tiles[r]:
            out.put(base + r * kinds + kind, 1)
    palaces, governors = at["palace_count"], at["governor_count"]
    for r in range(N_REGIONS):
        for slot in range(n):
            seat = order[slot]
            out.put(palaces + r * n + slot, board.palace_count[r][seat])
            out.put(governors + r * n + slot, board.governor_count[r][seat])
    tiles = len(t.box.governor_tiles)
    width = tiles + n + 1
    base = at["governor_slots"]
    per_region = (at["wall_sections"] - base) // N_REGIONS
    for r in range(N_REGIONS):
        for i, tile_holder in enumerate(board.governor_slots[r]):
            here = base + r * per_region + i * width
            out.put(here + tile_holder[0], 1)
            holder = tile_holder[1]
            out.put(here + tiles + (slot_of[holder] if holder != NO_ONE else 0), 1)


def _walls(out: Entries, base: int, board: GameState, t: Tables, slot_of: list[int]) -> None:
    box = t.box
    seats = len(slot_of) + 1
    tiles, emperors = len(box.wall_tiles), len(box.emperor_tiles)
    slots = len(board.walls[0].tiers) if board.walls else 0
    width = tiles + 2 + emperors + 1 + seats * (slots + 1)
    for s, section in enumerate(board.walls):
        here = base + s * width
        out.put(here + section.wall_tile, 1)
        out.put(here + tiles + (0 if section.wall_face == "a" else 1), 1)
        here += tiles + 2
        out.put(here + (section.emperor_tile if section.emperor_tile >= 0 else emperors), 1)
        here += emperors + 1
        first = section.first_builder
        out.put(here + (slot_of[first] if first != NO_ONE else 0), 1)
        here += seats
        for k, builder in enumerate(section.slots):
            out.put(here + k * seats + (slot_of[builder] if builder != NO_ONE else 0), 1)


def _mausoleum(out: Entries, base: int, board: GameState, t: Tables,
               slot_of: list[int]) -> None:
    seats = len(slot_of) + 1
    tiles = len(t.box.mausoleum_tiles)
    bindings = _bindings(t)
    slots = len(t.box.board.mausoleum.slot_values)
    width = tiles + len(bindings) + seats * slots
    for j, spot in enumerate(board.mausoleum):
        here = base + j * width
        out.put(here + spot.tile, 1)
        out.put(here + tiles + bindings.index(spot.binding), 1)
        here += tiles + len(bindings)
        for k, holder in enumerate(spot.slots):
            out.put(here + k * seats + (slot_of[holder] if holder != NO_ONE else 0), 1)


def _player(out: Entries, at: dict[str, int], p: PlayerState, view: PlayerView,
            board: GameState, t: Tables) -> None:
    out.put(at["seat_order"] + board.turn_order.index(p.seat), 1)
    out.put(at["colour"] + p.colour, 1)
    types, triggers, cards = at["tableau_types"], at["tableau_triggers"], at["tableau_cards"]
    card_type, card_trigger = t.card_type, t.card_trigger
    emperor = p.emperor
    for r in range(N_REGIONS):
        for card in p.tableau[r]:
            out.put(types + r * N_TYPES + card_type[card], 1)
            trigger = emperor[card] if card in emperor else card_trigger[card]
            out.put(triggers + r * N_ACTIONS + trigger, 1)
            out.put(cards + card, 1)
    unrest, workers, officials = at["unrest"], at["workers"], at["officials"]
    for r in range(N_REGIONS):
        out.put(unrest + r, p.unrest[r])
        out.put(workers + r, p.workers[r])
        row = p.officials[r]
        for o in range(N_OFFICIALS):
            out.put(officials + r * N_OFFICIALS + o, row[o])
    base = at["official_supply"]
    for o in range(N_OFFICIALS):
        out.put(base + o, p.official_supply[o])
    out.put(at["governors"], p.governors)
    out.put(at["palaces"], p.palaces)
    out.put(at["walls"], p.walls)
    out.put(at["soldiers"], p.soldiers)
    out.put(at["soldiers"] + 1, p.entrance)
    out.put(at["alchemist_supply"], len(p.alchemist_supply))
    out.put(at["ship"], p.ship)
    if p.master_taken:
        out.put(at["master_taken"], 1)
    small, large = at["small_tokens"], at["large_tokens"]
    for suit in range(N_SUITS):
        out.put(small + suit, p.tokens[suit])
        out.put(large + suit, p.large[suit])
    base = at["vp"]
    total = 0
    for i, category in enumerate(IN_GAME_CATEGORIES):
        vp = p.vp.get(category, 0)
        total += vp
        out.put(base + i, vp)
    out.put(base + len(IN_GAME_CATEGORIES), total)
    backs = view.hand_backs(p.seat)
    base = at["hand_backs"]
    for suit in range(N_SUITS):
        out.put(base + suit, backs[suit])
    column = board.marker_column[p.seat]
    out.put(at["reward_slot"] + (column + 1 if column != NO_ONE else 0), 1)


__all__ = ["FORMAT", "KIND_NAMES", "Entries", "ObservationLayout", "encode", "layout",
           "observe", "observe_dict"]
