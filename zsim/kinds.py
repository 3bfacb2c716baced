"""Every kind of decision the rules ask, the type of its options, and what it means.

An option is a small immutable value: a named tuple with named fields (``Unify(play, card,
region)``), a plain int naming one thing of a known *domain* (a region, a card, a Mausoleum
spot...), a tuple of such ints (the regions paying a Wall's Workers), or one of a few words
(``STOP``, ``PASS``...). Named tuples are tuples: they hash, compare equal to the plain tuples
of old (``Unify("unify", 5, 2) == ("unify", 5, 2)``) and still read by index, so a bot written
against tuples keeps working; new code reads fields by name.

``KINDS`` is the one list of decision kinds: each ``Kind`` says which option types, which
scalar domain and which words its options may be, what the choice means and how the human
seat asks it. The codec (``zsim.encode.codec``), the plain-words description
(``zsim.describe``), the strategy base class and ``docs/strategies.md`` are all read from it.

A named tuple field's *name* says its domain (``FIELD_DOMAINS``: ``card`` is a card id,
``source`` and ``target`` are regions...); its first field is a fixed word (``TAGS``) when the
kind mixes several option types, as the old tuples did.

This module is a leaf (it imports nothing of the project) and is compiled with the engine.
"""

from __future__ import annotations

from typing import Final, NamedTuple

# --- the words: one sentinel per meaning -----------------------------------------------------

STOP: Final = "stop"  # ask no more of this repeated question (move no more, place no more...)
PASS: Final = "pass"  # do nothing: no activation after a Court action, decline a reward
ACCEPT: Final = "accept"  # take the Unification reward offered
AREA: Final = "area"  # the Governor goes into the plain area: no bonus slot, no bonus
SOLDIER: Final = "soldier"  # the Elixir symbol's reward taken as an unlocked soldier

SENTINELS: Final[dict[str, str]] = {
    STOP: "ask no more of this repeated question",
    PASS: "do nothing (no activation after the action; decline the reward)",
    ACCEPT: "take the reward",
    AREA: "the Governor goes into the plain area, taking no bonus slot",
    SOLDIER: "unlock a Terracotta Soldier",
}

# --- the words that open a tuple option, when a kind mixes several types ---------------------

UNIFY: Final = "unify"
COURT: Final = "court"
DISCARD: Final = "discard"
ABILITY: Final = "ability"
MOVE: Final = "move"
CARD: Final = "card"


# --- the option types --------------------------------------------------------------------------


class Unify(NamedTuple):
    """A turn: tuck ``card`` from the hand under ``region`` (a Unification action)."""

    play: str  # "unify"
    card: int
    region: int


class Court(NamedTuple):
    """A turn: play ``card`` to the Court and perform the Court ``action``."""

    play: str  # "court"
    card: int
    action: int


class Discard(NamedTuple):
    """A turn with no legal use for any card: lay ``card`` at Court without an action."""

    play: str  # "discard"
    card: int


class Recruit(NamedTuple):
    """Recruit an Official of type ``official`` into ``region``."""

    official: int
    region: int


class WallSlot(NamedTuple):
    """Build a Wall on slot ``slot`` of Wall section ``section``."""

    section: int
    slot: int


class ElixirCard(NamedTuple):
    """The Elixir symbol's reward taken as an Alchemist ``card`` placed in ``region``."""

    reward: str  # "card"
    card: int
    region: int


class Activation(NamedTuple):
    """Activate the ability of the tableau ``card`` the Court action triggered."""

    act: str  # "ability"
    card: int


class Move(NamedTuple):
    """After a Court action, move one Official of type ``official`` from ``source`` to the
    adjacent ``target`` instead of activating."""

    act: str  # "move"
    official: int
    source: int
    target: int


class OfficialMove(NamedTuple):
    """An effect moves an Official of type ``official`` from ``source`` to ``target``."""

    official: int
    source: int
    target: int


class WorkerMove(NamedTuple):
    """An effect moves a Worker from ``source`` to the adjacent ``target``."""

    source: int
    target: int


class AlchemistCard(NamedTuple):
    """An effect places the Alchemist ``card`` from the supply in ``region``."""

    card: int
    region: int


# Every option type: an answer of exactly one of these types (or a plain tuple) is matched to the
# option it equals (``zsim.game.as_offered``).
OPTION_TYPES: Final[frozenset[type]] = frozenset({
    Unify, Court, Discard, Recruit, WallSlot, ElixirCard, Activation, Move, OfficialMove,
    WorkerMove, AlchemistCard})

# The fixed first word of the option types that share a kind with another type.
TAGS: Final[dict[type, str]] = {Unify: UNIFY, Court: COURT, Discard: DISCARD, ElixirCard: CARD,
                         Activation: ABILITY, Move: MOVE}

# What each field name of an option type counts; the domains are sized by the box and the
# player count (``zsim.encode.codec``). A tag field (``TAGS``) holds its one word.
FIELD_DOMAINS: Final[dict[str, str]] = {
    "card": "card", "region": "region", "source": "region", "target": "region",
    "action": "action", "official": "official", "section": "section", "slot": "slot",
}
TAG_FIELDS: Final = ("play", "reward", "act")

# The domains of scalar options and of the fields above, in words.
DOMAINS: Final[dict[str, str]] = {
    "card": "a card id (a Unification card's printed number; Alchemist and Master Alchemist "
            "cards follow; zsim.rules.tables)",
    "region": "a region: 0 Chu, 1 Wei, 2 Zhao, 3 Qi, 4 Yan",
    "action": "a Court action: 0 recruit, 1 hire, 2 elixir, 3 palace, 4 governor, 5 wall",
    "official": "an Official type: 0 Alchemist, 1 Architect, 2 General",
    "suit": "a suit: 0 Writing, 1 Currency, 2 Laws",
    "section": "a Wall section, 0 up, in site order",
    "slot": "a slot of a Wall section, 0 up",
    "spot": "a Mausoleum spot, 0 up, row by row",
    "starting_tile": "a Starting tile: its index in the box's starting tiles",
    "palace_tile": "a Palace tile kind: its index in the box's palace tiles",
    "governor_slot": "a Governor bonus slot of the region, 0 up",
    "alternative": "an alternative of a two-sided ability, 0 or 1",
    "workers": "a tuple of distinct regions, in increasing order, each paying one Worker",
    "tokens": "a tuple of token codes in increasing order, one per token paid: a small token "
              "is its suit (0..2), a large one its suit + 3",
}


class Kind(NamedTuple):
    """One decision kind: the types its options may be (named tuples), the domain of its scalar
    options ("" for none), the words it may offer, what it decides and how it is asked."""

    name: str
    types: tuple[type, ...]
    scalar: str
    words: tuple[str, ...]
    meaning: str
    question: str


KINDS: Final[dict[str, Kind]] = {kind.name: kind for kind in (
    Kind("start_tile", (), "starting_tile", (),
         "which dealt Starting tile to keep", "Which Starting tile do you keep?"),
    Kind("turn", (Unify, Court, Discard), "", (),
         "the turn: a card of the hand tucked in a region, played to the Court for an action, "
         "or (when no card has a use) laid at Court for nothing",
         "Your turn: which card, and what for?"),
    Kind("recruit", (Recruit,), "", (),
         "the Recruit action: which Official, into which region",
         "Which Official do you recruit, and where?"),
    Kind("hire", (), "region", (), "the Hire action: the region where the Workers are hired",
         "Where do you hire the Workers?"),
    Kind("palace", (), "region", (), "the region where the Palace is built",
         "Where do you build the Palace?"),
    Kind("palace_worker", (), "region", (),
         "a region paying one of the Workers a Palace takes from elsewhere",
         "Which region pays the Worker?"),
    Kind("palace_tile", (), "palace_tile", (), "the Palace tile taken with a Palace",
         "Which Palace tile do you take?"),
    Kind("large_token", (), "suit", (), "the suit of the large Unification token taken",
         "Which large Unification token do you take?"),
    Kind("governor", (), "region", (), "the region where the Governor is installed",
         "Where do you install the Governor?"),
    Kind("governor_slot", (), "governor_slot", (AREA,),
         "the bonus slot the Governor covers (its bonus follows), or the plain area",
         "Which Governor space?"),
    Kind("wall", (WallSlot,), "", (), "where the Wall is built",
         "Where do you build the Wall?"),
    Kind("wall_workers", (), "workers", (), "the regions paying the Wall's Workers",
         "Which regions pay the Workers?"),
    Kind("emperor", (), "card", (), "the tableau card that receives the Emperor tile",
         "Which card gets the Emperor tile?"),
    Kind("elixir", (ElixirCard,), "", (SOLDIER,),
         "the Elixir symbol's reward: a soldier unlocked, or an Alchemist card placed",
         "The Elixir symbol: which reward?"),
    Kind("master", (), "card", (), "the Master Alchemist card taken",
         "Which Master Alchemist card do you take?"),
    Kind("activate", (Activation, Move), "", (PASS,),
         "after a Court action: activate a triggered card, or move one Official, or nothing",
         "After your action: activate, move an Official, or pass?"),
    Kind("next_ability", (Activation,), "", (STOP,),
         "the next triggered card to activate, or no more", "Activate another card?"),
    Kind("ability_option", (), "alternative", (),
         "the alternative of a two-sided ability (a card's, a reward's, a Starting tile's)",
         "Which side of the ability?"),
    Kind("bonus", (), "alternative", (),
         "the alternative of a Governor bonus (the bonus itself is not optional)",
         "Which side of the Governor bonus?"),
    Kind("region", (), "region", (), "the region an effect acts on (context['effect'] says "
         "which)", "Which region?"),
    Kind("official", (), "official", (), "the Official type an effect recruits",
         "Which Official?"),
    Kind("token", (), "suit", (), "the suit of a small Unification token gained",
         "Which Unification token?"),
    Kind("move_official", (OfficialMove,), "", (STOP,),
         "an Official an effect moves, or no more", "Move an Official?"),
    Kind("move_worker", (WorkerMove,), "", (STOP,), "a Worker an effect moves, or no more",
         "Move a Worker?"),
    Kind("reset_unrest", (), "region", (STOP,),
         "a region whose Unrest an effect resets to 0, or no more",
         "Reset the Unrest of which region?"),
    Kind("place_alchemist", (AlchemistCard,), "", (STOP,),
         "an Alchemist card an effect places, or no more (when the effect says 'up to')",
         "Place an Alchemist card?"),
    Kind("soldier", (), "spot", (STOP,),
         "the Mausoleum spot of an unlocked soldier, or no more for now",
         "Place a Terracotta Soldier?"),
    Kind("lisi_soldier", (), "spot", (),
         "the Mausoleum spot where Li Si validates a tile (asked of his opponent when he meets "
         "more conditions than he has soldiers waiting)",
         "Li Si meets more Mausoleum conditions than he has soldiers waiting: which tile does "
         "he validate?"),
    Kind("reward", (), "", (ACCEPT, PASS), "whether to take the Unification reward offered",
         "Take this Unification reward?"),
    Kind("unlock", (), "tokens", (STOP,),
         "the tokens paid to unlock one more soldier, or no more",
         "Unlock a Terracotta Soldier with tokens?"),
    Kind("discard_token", (), "suit", (),
         "the suit of a small token given back over the limit",
         "Which small token do you give back?"),
)}


# --- the options that do not depend on the box, made once ------------------------------------

_REGIONS = range(5)
# RECRUITS[official][region]
RECRUITS: Final[tuple[tuple[Recruit, ...], ...]] = tuple(
    tuple(Recruit(t, r) for r in _REGIONS) for t in range(3))
# OFFICIAL_MOVES[official][source][target] and MOVES likewise (every pair of regions: only
# adjacent ones are offered)
OFFICIAL_MOVES: Final[tuple[tuple[tuple[OfficialMove, ...], ...], ...]] = tuple(
    tuple(tuple(OfficialMove(t, r, to) for to in _REGIONS) for r in _REGIONS) for t in range(3))
MOVES: Final[tuple[tuple[tuple[Move, ...], ...], ...]] = tuple(
    tuple(tuple(Move(MOVE, t, r, to) for to in _REGIONS) for r in _REGIONS) for t in range(3))
WORKER_MOVES: Final[tuple[tuple[WorkerMove, ...], ...]] = tuple(
    tuple(WorkerMove(r, to) for to in _REGIONS) for r in _REGIONS)
