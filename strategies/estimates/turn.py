"""The turn: every option of a turn question valued at once (tuck a card in a region, or play it
to the Court for an action), sharing what the options have in common: a region and card type
tuck alike, an action is worth the same whichever card performs it, and the cards an action
fires are the same for every card that fires them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from zsim.rules import queries
from zsim.strategies.estimates.choices import best
from zsim.strategies.estimates.weights import ELIXIR, GOVERNOR, HIRE, PALACE, RECRUIT

if TYPE_CHECKING:
    from zsim.strategies.estimates.cards import Estimator
    from zsim.view import PlayerView

KEEP: Final = 0.3  # share of a card's best tuck value lost by spending it at Court instead
MOVE: Final = 0.8  # what moving one Official after a Court action is typically worth, early on


def best_turn(view: PlayerView, est: Estimator, options: list) -> Any:
    """The turn option of highest value (``choices.best``: exact ties broken with the seat's
    RNG).

    The options are ``Unify`` and ``Court`` tuples (a hand of discards is not weighed), read as
    plain ``(play, card, region or action)`` triples; the tucks are valued first (a Court play
    gives up its card's best tuck), in place in the list of values; the shared parts are kept
    under small integer keys, which cost less than tuples."""
    keep: dict[int, float] = {}  # card -> its best tuck
    bases: dict[int, float] = {}  # region * 8 + card type -> ``tuck_base``
    card_type = est.f.card_type
    slots = [len(cards) for cards in view.me.tableau]
    triples: list[tuple[str, int, int]] = options
    n = len(triples)
    values = [0.0] * n
    for i in range(n):
        play, card, r = triples[i]
        if play == "unify":
            kind = card_type[card]
            key = r * 8 + kind
            base = bases.get(key)
            if base is None:
                base = bases[key] = est.tuck_base(r, kind)
            v = values[i] = base + est.future_card(card, slots[r])
            if v > keep.get(card, 0.0):
                keep[card] = v
    board = view.board
    below = queries.court_top(board)
    free = board.court_free
    move = MOVE * est.frac  # the exact move is weighed when the activation is asked
    actions: dict[int, float] = {}
    fired: dict[int, float] = {}
    for i in range(n):
        play, card, r = triples[i]
        if play != "unify":
            got = actions.get(r)
            if got is None:
                got = actions[r] = action_value(view, est, r)
            v = got
            if queries.activates(r, card, below, free):
                f = fired.get(r)
                if f is None:
                    f = fired[r] = max(est.fired_value(r), move)
                v += f - KEEP * keep.get(card, 0.0)
            else:
                v += move - KEEP * keep.get(card, 0.0)
            values[i] = v
    return best(view, options, values)


def action_value(view: PlayerView, est: Estimator, action: int) -> float:
    """The best way to perform a Court action (offered, so possible), before abilities."""
    rules = est.rules
    if action == RECRUIT:
        supply = view.me.official_supply
        return est.best_official([t for t in range(3) if supply[t]])
    if action == HIRE:
        return max(est.worker_value(r, rules.hire_workers) - est.unrest_cost(
            r, rules.hire_unrest) for r in queries.hire_regions(rules, view.me))
    if action == ELIXIR:
        return est.ship_value(rules.elixir_steps)
    if action == GOVERNOR:
        return max(est.governor_value(r, free=False)
                   for r in queries.governor_regions(view.me))
    if action == PALACE:
        return max(est.palace_value(r, free=False)
                   for r in queries.palace_regions(rules, view.me))
    return est.best_wall()
