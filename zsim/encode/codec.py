"""Fixed integer ids for every option of every decision: one action space per box and player
count, for learners and the environments (``zsim.env``).

The space lists, kind after kind in the registry's order (``zsim.kinds.KINDS``), every value an
option of that kind can take with this box and player count: for each option type of the kind,
every combination of its fields' domains (the first field varying slowest); then each value of
its scalar domain; then its words. So ``("turn", Unify("unify", card, region))`` has one id for
each card and region, whatever the hand, and the ids of a decision's options are where its
options sit in that list. The domains are sized by the box and the player count
(``domain_values``): every card id of the box, the 5 regions, the 6 Court actions, the Wall's
sections and the slots a section has at this count, the Mausoleum's spots, the box's Starting
and Palace tiles, the Governor bonus slots a region has at this count, the alternatives of the
box's two-sided abilities, every set of regions that can pay a Wall, every way of paying the
tokens that unlock a soldier.

The ids stay the same for a given box and player count. ``Codec.version`` is ``FORMAT`` and a
digest of the space's layout: a change of box that moves any id (another card, another Wall
tier) changes it, and one that moves none (a VP value, an ability's text) does not.

``encode`` and ``decode`` are a dict and a list lookup; ``mask`` marks the pending decision's
options in a boolean vector of the space's size.
"""

from __future__ import annotations

import hashlib
from functools import cache
from itertools import combinations, combinations_with_replacement, product
from typing import TYPE_CHECKING, Any

import numpy as np

from zsim.components.schema import COURT_ACTIONS, REGIONS, SUITS
from zsim.kinds import FIELD_DOMAINS, KINDS, TAG_FIELDS, TAGS
from zsim.rules.rewards import LARGE
from zsim.rules.tables import compile_tables

if TYPE_CHECKING:
    from zsim.components import Box
    from zsim.decisions import Decision

FORMAT = 1  # bumped whenever the way the space is laid out changes (not the box: see version)


class UnknownAction(ValueError):
    """An id outside the action space, or an option that has no id in it."""


def domain_values(box: Box, n_players: int) -> dict[str, tuple[Any, ...]]:
    """Every value of every domain (``zsim.kinds.DOMAINS``) with this box and player count."""
    t = compile_tables(box)
    board, rules = box.board, box.board.rules
    tiers = board.wall.tiers[n_players]  # type: ignore[index]
    alternatives = max(len(ability.options) for ability in box.abilities.values())
    regions = range(len(REGIONS))
    return {
        "card": tuple(c for c in range(len(t.card_name)) if t.card_name[c]),
        "region": tuple(regions),
        "action": tuple(range(len(COURT_ACTIONS))),
        "official": (0, 1, 2),
        "suit": tuple(range(len(SUITS))),
        "section": tuple(range(board.wall.sites * board.wall.sections_per_site)),
        "slot": tuple(range(len(tiers))),
        "spot": tuple(range(sum(len(row) for row in board.mausoleum.grid))),
        "starting_tile": tuple(range(len(box.starting_tiles))),
        "palace_tile": tuple(range(len(box.palace_tiles))),
        "governor_slot": tuple(range(rules.governor_bonus_slots[n_players])),  # type: ignore[index]
        "alternative": tuple(range(alternatives)),
        "workers": tuple(combo for size in range(1, max(tiers) + 1)
                         for combo in combinations(regions, size)),
        "tokens": tuple(combinations_with_replacement(range(2 * LARGE), rules.unlock_cost)),
    }


class Codec:
    """The action space of one box and player count: ``encode``, ``decode`` and ``mask``."""

    def __init__(self, box: Box, n_players: int) -> None:
        if not 2 <= n_players <= 4:
            raise ValueError(f"a game has 2 to 4 players, not {n_players}")
        self.n_players = n_players
        domains = domain_values(box, n_players)
        self.actions: list[tuple[str, Any]] = []  # id -> (kind, option)
        self._ids: dict[str, dict[Any, int]] = {}
        self.kinds: dict[str, range] = {}  # kind -> its ids
        layout: list[str] = []
        for kind in KINDS.values():
            ids = self._ids[kind.name] = {}
            first = len(self.actions)
            for option_type in kind.types:
                fields = [(TAGS[option_type],) if field in TAG_FIELDS
                          else domains[FIELD_DOMAINS[field]]
                          for field in option_type._fields]  # type: ignore[attr-defined]
                layout.append(f"{kind.name}:{option_type.__name__}:{fields}")
                for values in product(*fields):
                    self._add(kind.name, option_type(*values), ids)
            if kind.scalar:
                layout.append(f"{kind.name}:{kind.scalar}:{list(domains[kind.scalar])}")
                for value in domains[kind.scalar]:
                    self._add(kind.name, value, ids)
            layout.append(f"{kind.name}:{list(kind.words)}")
            for word in kind.words:
                self._add(kind.name, word, ids)
            self.kinds[kind.name] = range(first, len(self.actions))
        self.size = len(self.actions)
        digest = hashlib.sha256("\n".join(layout).encode()).hexdigest()[:12]
        self.version = f"{FORMAT}-{digest}"

    def _add(self, kind: str, option: Any, ids: dict[Any, int]) -> None:
        ids[option] = len(self.actions)
        self.actions.append((kind, option))

    def encode(self, kind: str, option: Any) -> int:
        """The id of ``option`` of a ``kind`` decision (a plain tuple equal to a typed option
        has its id)."""
        try:
            return self._ids[kind][option]
        except (KeyError, TypeError):
            raise UnknownAction(f"no id for option {option!r} of a {kind!r} decision in this "
                                f"action space ({self.n_players} players)") from None

    def decode(self, action: int) -> tuple[str, Any]:
        """(kind, option) of an id: the option is of its registry type (``zsim.kinds``)."""
        if not 0 <= action < self.size:
            raise UnknownAction(f"action {action} is outside the action space (0..{self.size - 1})")
        return self.actions[action]

    def legal(self, decision: Decision) -> list[int]:
        """The ids of the decision's options, in the order offered."""
        ids = self._ids[decision.kind]
        try:
            return [ids[option] for option in decision.options]
        except KeyError as error:
            raise UnknownAction(f"option {error.args[0]!r} of a {decision.kind!r} decision has "
                                f"no id in this action space") from None

    def mask(self, decision: Decision | None) -> np.ndarray:
        """A boolean vector of the space's size, true at the ids of the decision's options (all
        false for no decision: the game is over)."""
        mask = np.zeros(self.size, dtype=bool)
        if decision is not None:
            mask[self.legal(decision)] = True
        return mask

    def option(self, decision: Decision, action: int) -> Any:
        """The decision's own option with id ``action``, to answer it with; an id of another
        kind, or of an option not offered now, is refused."""
        kind, option = self.decode(action)
        if kind != decision.kind:
            raise UnknownAction(f"action {action} is a {kind!r} option, but the question is a "
                                f"{decision.kind!r} decision")
        for offered in decision.options:
            if offered == option and type(offered) is type(option):
                return offered
        raise UnknownAction(f"action {action} ({kind} {option!r}) is not among the options "
                            "offered now")


@cache
def codec(box: Box, n_players: int) -> Codec:
    """The codec of a box and player count, built once."""
    return Codec(box, n_players)
