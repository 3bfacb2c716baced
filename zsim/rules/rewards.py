"""Phase 3: Unification rewards, the new turn order, unlocking soldiers, token limits."""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations_with_replacement
from typing import TYPE_CHECKING, Final

from zsim.components.schema import SUITS
from zsim.kinds import ACCEPT, PASS
from zsim.rules import effects, lisi, mausoleum, pieces
from zsim.rules.common import SUIT_NAMES, ask_until_stop, count
from zsim.rules.tables import SUIT_INDEX
from zsim.state import NO_ONE, PlayerState

if TYPE_CHECKING:
    from zsim.decisions import Table

LARGE: Final = 3  # in an unlock payment, a large token of suit s is coded s + LARGE


def token_value(g: Table, p: PlayerState, suit: int) -> int:
    return p.tokens[suit] + g.rules.large_token_value * p.large[suit]


def tiebreak_order(g: Table) -> list[int]:
    """Markers still on the turn-order track top to bottom, then this round's reward column."""
    state = g.state
    on_track = [s for s in state.turn_order if state.marker_column[s] == NO_ONE]
    in_column = sorted((c, s) for s, c in enumerate(state.marker_column) if c != NO_ONE)
    return on_track + [s for _, s in in_column]


def unification_phase(g: Table) -> None:
    state = g.state
    board = g.t.box.unification_boards[state.reward_board]
    state.marker_column = [NO_ONE] * state.n
    for column, aspect in enumerate(board.aspects):
        reward_id = aspect.rewards[state.round - 1]
        award(g, SUIT_INDEX[aspect.aspect], column, reward_id)
    new_turn_order(g)
    lisi_seat = state.lisi.seat if state.lisi is not None else NO_ONE
    for seat in state.turn_order:
        if seat == lisi_seat:
            lisi.spend_leftover_tokens(g, state.players[seat])
        else:
            unlock_with_tokens(g, state.players[seat])
    for seat in state.turn_order:
        enforce_token_limits(g, state.players[seat])


def award(g: Table, suit: int, column: int, reward_id: str) -> None:
    """Offer the reward down the ranking until someone accepts it or everyone has passed."""
    state = g.state
    order = tiebreak_order(g)
    contenders = [s for s in order if token_value(g, state.players[s], suit)]
    contenders.sort(key=lambda s: -token_value(g, state.players[s], suit))  # stable: ties keep
    ability = g.t.box.abilities[reward_id]
    ctx = effects.Context(NO_ONE, 0, suit, "vp_rewards")
    for seat in contenders:
        p = state.players[seat]
        if state.lisi is not None and seat == state.lisi.seat:
            take_reward(g, p, suit, column, reward_id)  # he takes it away from you
            return
        if not effects.feasible_options(g, p, ability, ctx, full=True):
            if g.narrating:
                g.say(f"{g.name(p)} cannot take the {SUITS[suit]} reward")
            continue
        if g.ask(seat, "reward", [ACCEPT, PASS], {"reward": reward_id, "suit": suit}) == PASS:
            if g.narrating:
                g.say(f"{g.name(p)} passes on the {SUITS[suit]} reward")
            continue
        take_reward(g, p, suit, column, reward_id)
        return


def take_reward(g: Table, p: PlayerState, suit: int, column: int, reward_id: str) -> None:
    state = g.state
    state.supply[suit] += p.tokens[suit]
    state.large_on_board[suit] += p.large[suit]
    p.tokens[suit] = 0
    p.large[suit] = 0
    state.marker_column[p.seat] = column
    ability = g.t.box.abilities[reward_id]
    count(p, "n_rewards")
    g.emit("reward", {"seat": p.seat, "aspect": SUITS[suit], "reward": reward_id})
    if g.narrating:
        g.say(f"{g.name(p)} takes the {SUIT_NAMES[suit]} reward: {ability.text}")
    if state.lisi is not None and p.seat == state.lisi.seat:
        return  # Li Si gains nothing from it
    ctx = effects.Context(NO_ONE, 0, suit, "vp_rewards")
    options = effects.feasible_options(g, p, ability, ctx, full=True)
    pick = g.ask(p.seat, "ability_option", options, {"reward": reward_id})
    effects.resolve_steps(g, p, ability.options[pick], ctx)
    mausoleum.place_soldiers(g, p)


def new_turn_order(g: Table) -> None:
    """Players who took no reward keep their order and go first; takers follow by slot."""
    state = g.state
    state.turn_order = tiebreak_order(g)
    if g.narrating:
        g.say("Turn order: " + ", ".join(g.name(state.players[s]) for s in state.turn_order))


def unlock_payments(g: Table, p: PlayerState) -> list[tuple[int, ...]]:
    """Ways to pay one soldier: any ``unlock_cost`` tokens, a large token counting as one token
    (its value matters only for the rewards). A large token is coded as suit + 3."""
    return list(_payments((*p.tokens, *p.large), g.rules.unlock_cost))


@lru_cache(maxsize=4096)
def _payments(held: tuple[int, ...], cost: int) -> tuple[tuple[int, ...], ...]:
    """``unlock_payments`` for these holdings, small suits then large suits (a pure function,
    asked often with the same)."""
    return tuple(
        combo for combo in combinations_with_replacement(range(2 * LARGE), cost)
        if all(combo.count(code) <= held[code] for code in set(combo))
    )


def unlock_with_tokens(g: Table, p: PlayerState) -> None:
    def unlock(payment: tuple[int, ...]) -> None:
        for code in payment:
            if code >= LARGE:
                p.large[code - LARGE] -= 1
                g.state.large_on_board[code - LARGE] += 1
            else:
                p.tokens[code] -= 1
                g.state.supply[code] += 1
        pieces.unlock_soldiers(g, p, 1)
        count(p, "n_soldiers_bought")

    if ask_until_stop(g, p.seat, "unlock", lambda: unlock_payments(g, p) if p.soldiers else [],
                      unlock):
        mausoleum.place_soldiers(g, p)


def enforce_token_limits(g: Table, p: PlayerState) -> None:
    state = g.state
    for s in range(3):
        state.large_on_board[s] += p.large[s]
        p.large[s] = 0
    if state.lisi is not None and p.seat == state.lisi.seat:
        lisi.discard_extra_tokens(g, p)
        return
    keep = g.rules.small_token_keep
    while sum(p.tokens) > keep:
        suit = g.ask(p.seat, "discard_token", [s for s in range(3) if p.tokens[s]])
        p.tokens[suit] -= 1
        state.supply[suit] += 1
