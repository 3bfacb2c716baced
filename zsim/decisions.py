"""The decision protocol: the engine asks, a strategy answers with one of the offered options.

Every choice the rules leave to a player is a ``Decision``: its ``kind`` (one of
``zsim.kinds.KINDS``, which also says what its options are), the seat asked, the legal
``options`` (typed named tuples, ints or words; every one of them is legal and leads to a
completable move) and a small ``context`` mapping with what the choice is about.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from zsim.kinds import KINDS

__all__ = ["KINDS", "Decision", "IllegalChoice", "Player", "Table"]  # KINDS: from zsim.kinds

if TYPE_CHECKING:
    import random

    from zsim.components.schema import Rules
    from zsim.options import GameOptions
    from zsim.rules.tables import Tables
    from zsim.state import GameState, PlayerState


class Decision:
    """One question to one seat. Cheap to build: it is created hundreds of times per game."""

    __slots__ = ("context", "kind", "options", "seat")

    def __init__(self, kind: str, seat: int, options: list[Any],
                 context: dict[str, Any] | None = None) -> None:
        self.kind = kind
        self.seat = seat
        self.options = options
        self.context = context or {}

    def __repr__(self) -> str:
        return f"Decision({self.kind!r}, seat={self.seat}, options={self.options!r})"


class IllegalChoice(Exception):
    """A strategy answered with something that is not one of the offered options."""

    def __init__(self, strategy: str, decision: Decision, answer: Any, seed: int) -> None:
        self.strategy = strategy
        self.decision = decision
        self.answer = answer
        self.seed = seed
        super().__init__(
            f"strategy {shown(strategy)} answered {shown(answer)} to a {decision.kind!r} "
            f"decision (seat {decision.seat}, game seed {seed}); legal options were "
            f"{decision.options!r}"
        )


def safe_text(value: Any, render: Callable[[Any], Any], limit: int, unreadable: str,
              not_text: str) -> str:
    """``render(value)`` cut to ``limit`` characters, or ``unreadable`` when it raises and
    ``not_text`` when it gives no ``str``: what a strategy made (an answer, a name, an
    exception) may recurse, raise or run long in its ``__repr__`` or ``__str__``, and the
    message that names the strategy must still be written."""
    try:
        text = render(value)
    except BaseException:  # anything a strategy's code raises
        return unreadable
    if type(text) is not str:
        return not_text
    return text if len(text) <= limit else f"{text[:limit]}..."


def shown(value: Any, limit: int = 200) -> str:
    """``repr(value)`` cut to ``limit`` characters, or what it is when its repr fails."""
    name = type(value).__name__
    return safe_text(value, repr, limit, f"<a {name} whose repr fails>", f"<a {name}>")


class Player(Protocol):
    """What sits in a seat: a name for the result tables, and an answer to each question.

    ``view`` is what that player sees of the table (``zsim.view.PlayerView``). A strategy that
    forks the game from its view says so with a true ``forks`` attribute (the engine then keeps
    the snapshots a fork needs). ``zsim.strategies.base.Strategy`` is the authoring base class.
    """

    name: str

    def choose(self, view: Any, decision: Decision) -> Any: ...


class Table(Protocol):
    """All that the rules use of the game they run in: the state, the box's tables, the
    variants, the game's RNG, a way to ask a seat, and a way to tell what happened.

    The rules never import the engine (``zsim.game``) nor any bot: the engine is one
    implementation of this protocol, and a test double is another. ``ask`` returns one of
    ``options`` for ``seat``; ``emit`` reports an event to the listeners (the result tables,
    the narration, a viewer); ``say`` is ``emit`` of a narration line, and ``narrating`` says
    whether anyone listens to those, so that the rules build no line nobody reads.
    """

    t: Tables
    rules: Rules
    state: GameState
    options: GameOptions
    n: int
    rng: random.Random
    narrating: bool

    def ask(self, seat: int, kind: str, options: list[Any],
            context: dict[str, Any] | None = None) -> Any: ...

    def emit(self, kind: str, data: dict[str, Any]) -> None: ...

    def say(self, line: str) -> None: ...

    def name(self, p: PlayerState) -> str: ...
