"""The strategy authoring API: override ``choose_<kind>`` for the decisions you care about."""

from __future__ import annotations

import difflib
from typing import Any

from zsim.decisions import Decision
from zsim.kinds import KINDS
from zsim.state import NO_ONE
from zsim.view import PlayerView

PREFIX = "choose_"
METHODS = {kind: f"{PREFIX}{kind}" for kind in KINDS}  # the method answering each decision kind


class UnknownKind(TypeError):
    """A strategy class answers a decision kind that does not exist (a misspelt method would
    otherwise never be called, and its decisions silently go to ``default``)."""


def check_methods(cls: type) -> None:
    """Refuse a class whose own ``choose_<name>`` methods name a kind that is not in
    ``zsim.kinds.KINDS``, naming the method and the nearest kind."""
    for attr in vars(cls):
        if not attr.startswith(PREFIX):
            continue
        kind = attr[len(PREFIX):]
        if kind in KINDS:
            continue
        near = difflib.get_close_matches(kind, list(KINDS), n=1)
        hint = f"did you mean {PREFIX}{near[0]}?" if near else \
            f"the kinds: {', '.join(KINDS)}"
        raise UnknownKind(f"strategy class {cls.__qualname__} defines {attr}, but no decision "
                          f"kind is called {kind!r}; {hint}")


class Strategy:
    """Base class of every bot.

    The engine calls ``choose(view, decision)``; it dispatches to ``choose_<decision.kind>`` when
    the subclass defines one, and to ``default`` otherwise. ``default`` picks uniformly at random
    with the view's seeded RNG, so a bot that overrides nothing is the random bot.
    """

    name = "base"
    description = ""
    forks = False  # True for a strategy that forks the game from its view (a search)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        check_methods(cls)

    def choose(self, view: PlayerView, decision: Decision) -> Any:
        method = getattr(self, METHODS[decision.kind], None)
        if method is None:
            return self.default(view, decision)
        return method(view, decision)

    def default(self, view: PlayerView, decision: Decision) -> Any:
        options = decision.options
        return options[view.rng.randrange(len(options))]

    def choose_lisi_soldier(self, view: PlayerView, decision: Decision) -> Any:
        """Li Si's opponent picks which tile he validates: by default the one that scores him
        least (the slot his soldier takes, plus a Mausoleum line it would complete), and among
        those a tile this player already stands on, where he takes no slot they could use."""
        board = view.tables.box.board.mausoleum
        spots, size, lisi = view.mausoleum, len(board.grid), decision.context["seat"]
        held = {i for i, spot in enumerate(spots) if lisi in spot.slots}

        def completes_line(j: int) -> int:
            row, col = divmod(j, size)
            lines = ([row * size + c for c in range(size)], [r * size + col for r in range(size)])
            return sum(all(k == j or k in held for k in line) for line in lines)

        def cost(j: int) -> tuple[int, bool]:
            slot = spots[j].slots.index(NO_ONE)
            vp = board.slot_values[slot] + completes_line(j) * view.tables.rules.mausoleum_line_vp
            return vp, view.seat not in spots[j].slots

        return min(decision.options, key=cost)
