"""The turn: every option of a turn question valued at once (tuck a card in a region, or play it
to the Court for an action), sharing what the options have in common: a region and card type
tuck alike, an action is worth the same whichever card performs it, and the cards an action
fires are the same for every card that fires them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from zsim.rules import queries
from zsim.strategies.estimates.choices import best
from zsim.strategies.estimates.weights import ELIXIR, GOVERNOR, HIRE, PALACE, RECRUIT

if TYPE_CHECKING:
    from zsim.strategies.estimates.cards import Estimator
    from zsim.view import PlayerView

KEEP = 0.3  # share of a card's best tuck value lost by spending it at Court instead
MOVE = 0.8  # what moving one Official after a Court action is typically worth, early on


def best_turn(view: PlayerView, est: Estimator, options: list) -> Any:
    """The turn option of highest value (``choices.best``: exact ties broken with the seat's
    RNG)."""
    tucks: dict[tuple[int, int], float] = {}
    keep: dict[int, float] = {}
    card_type = est.f.card_type
    slots = [len(cards) for cards in view.me.tableau]
    bases: dict[tuple[int, int], float] = {}
    for option in options:
        if option[0] == "unify":
            card, r = option[1], option[2]
            key = (r, card_type[card])
            base = bases.get(key)
            if base is None:
                base = bases[key] = est.tuck_base(r, card_type[card])
            v = tucks[card, r] = base + est.future_card(card, slots[r])
            if v > keep.get(card, 0.0):
                keep[card] = v
    board = view.board
    below = queries.court_top(board)
    free = board.court_free
    move = MOVE * est.frac  # the exact move is weighed when the activation is asked
    actions: dict[int, float] = {}
    fired: dict[int, float] = {}
    values = []
    for option in options:
        card = option[1]
        if option[0] == "unify":
            v = tucks[card, option[2]]
        else:
            action = option[2]
            got = actions.get(action)
            if got is None:
                got = actions[action] = action_value(view, est, action)
            v = got
            if queries.activates(action, card, below, free):
                f = fired.get(action)
                if f is None:
                    f = fired[action] = max(est.fired_value(action), move)
                v += f - KEEP * keep.get(card, 0.0)
            else:
                v += move - KEEP * keep.get(card, 0.0)
        values.append(v)
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
