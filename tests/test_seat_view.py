"""A seat's view: what a player at the table sees, and nothing a strategy does to it changes
the game. Each cheat below changed the game (or saw hidden cards) when the view handed out the
live state."""

from __future__ import annotations

import random
from typing import Any, ClassVar

import pytest

from zsim.decisions import Decision
from zsim.game import Game, play_game
from zsim.strategies.random_bot import RandomStrategy
from zsim.strategies.registry import resolve
from zsim.view import PlayerView


class OwnVP(RandomStrategy):
    def choose(self, view: PlayerView, decision: Decision) -> Any:
        view.me.vp["vp_cards"] = view.me.vp.get("vp_cards", 0) + 100
        return super().choose(view, decision)


class OpponentsTokens(RandomStrategy):
    def choose(self, view: PlayerView, decision: Decision) -> Any:
        for p in view.players:
            if p.seat != view.seat:
                p.tokens[:] = [0, 0, 0]
                p.large[:] = [0, 0, 0]
        return super().choose(view, decision)


class OwnHand(RandomStrategy):
    def choose(self, view: PlayerView, decision: Decision) -> Any:
        if view.hand:
            view.hand.pop()
        view.me.soldiers += 2
        view.board.walls[0].slots[0] = view.seat
        return super().choose(view, decision)


class Peeker(RandomStrategy):
    seen: ClassVar[list[int]] = []

    def choose(self, view: PlayerView, decision: Decision) -> Any:
        board = view.board
        Peeker.seen += [c for deck in board.decks for c in deck]
        Peeker.seen += [c for s, hand in enumerate(board.hands) if s != view.seat for c in hand]
        if board.lisi is not None:
            Peeker.seen += board.lisi.deck
        return super().choose(view, decision)


@pytest.mark.parametrize("cheat", [OwnVP, OpponentsTokens, OwnHand])
@pytest.mark.parametrize("players", [2, 4])
def test_a_cheat_changes_nothing_but_its_own_copy(box, cheat, players):
    for seed in range(3):
        honest = play_game(box, [RandomStrategy() for _ in range(players)], seed)
        cheated = play_game(box, [cheat(), *(RandomStrategy() for _ in range(players - 1))],
                            seed)
        assert cheated.scores == honest.scores
        assert cheated.decisions == honest.decisions


class Vandal(RandomStrategy):
    """Scribbles over every public part of its copy of the table."""

    def choose(self, view: PlayerView, decision: Decision) -> Any:
        board = view.board
        for p in board.players:
            p.tokens[:] = [9, 9, 9]
            p.workers[:] = [0] * 5
            p.tableau[0].append(1)
        for part in (*board.walls, *board.mausoleum):
            part.slots[:] = [view.seat] * len(part.slots)
        board.supply[:] = [0, 0, 0]
        board.court.append(1)
        for region in (*board.palace_tiles, *board.governor_slots):
            region.clear()
        return super().choose(view, decision)


@pytest.mark.parametrize("players", [2, 4])
def test_a_cheat_cannot_mislead_the_seats_that_look_after_it(box, players):
    """What one seat scribbles on its copy must never reach the copy shown to the next seat,
    which reads the table."""
    others = [resolve("greedy") for _ in range(players - 1)]
    for seed in range(2):
        honest = play_game(box, [RandomStrategy(), *others], seed)
        cheated = play_game(box, [Vandal(), *others], seed)
        assert cheated.scores == honest.scores
        assert cheated.decisions == honest.decisions


def test_a_heuristic_that_cheats_does_not_score_its_cheat(box):
    class Greedy(type(resolve("greedy"))):
        def choose(self, view: PlayerView, decision: Decision) -> Any:
            answer = super().choose(view, decision)
            view.me.vp["vp_cards"] = view.me.vp.get("vp_cards", 0) + 100
            return answer

    cheat = Greedy(**resolve("greedy").params)
    cheated = play_game(box, [cheat, resolve("greedy")], 3)
    honest = play_game(box, [resolve("greedy"), resolve("greedy")], 3)
    assert cheated.scores == honest.scores


@pytest.mark.parametrize("seats", [["random"] * 4, ["random", "lisi-3"]])
def test_no_hidden_card_can_be_seen_through_the_view(box, seats):
    Peeker.seen = []
    names = [Peeker() if name == "random" else resolve(name) for name in seats]
    play_game(box, names, 5)
    assert Peeker.seen == []


def test_the_view_shows_the_public_counts_of_hidden_cards(box):
    game = Game(box, [None, None, None], 2)
    decision = game.pending()
    while decision.kind != "turn":
        decision = game.answer(decision.options[0])
    view = game.views[decision.seat]
    state = game.state
    assert view.deck_sizes == tuple(len(d) for d in state.decks)
    for seat in range(3):
        types = [game.t.card_type[c] for c in state.hands[seat]]
        assert view.hand_backs(seat) == tuple(types.count(s) for s in range(3))
    assert view.hand == state.hands[decision.seat] and view.hand is not state.hands[decision.seat]


class Keeper(RandomStrategy):
    """Reads everything its view offers at its first decision, and keeps it."""

    def choose(self, view: PlayerView, decision: Decision) -> Any:
        if not hasattr(self, "values"):
            self.values = [getattr(view, name) for name in dir(view)
                           if not name.startswith("__") and not callable(getattr(view, name))]
            self.view = view
        return super().choose(view, decision)


def test_nothing_of_the_engine_hangs_off_the_view(box):
    keeper = Keeper()
    game = Game(box, [keeper, RandomStrategy()], 1)
    game.play()
    engine = (Game, random.Random)
    assert not any(isinstance(value, Game) for value in keeper.values)
    assert all(v is keeper.view.rng for v in keeper.values if isinstance(v, engine))
    assert keeper.view.rng is not game.rng


def test_a_view_read_from_outside_follows_the_answers_given_from_outside(box):
    game = Game(box, [None, None], 4)
    decision = game.pending()
    for _ in range(30):
        view = game.views[decision.seat]
        assert view.me.vp == game.state.players[decision.seat].vp
        live = game.state.players[decision.seat]
        fields = [name for name in dir(live) if not name.startswith("_")
                  and not callable(getattr(live, name)) and name != "stats"]
        assert len(fields) > 15
        assert all(getattr(view.me, name) == getattr(live, name) for name in fields)
        # the runner's activity counters are its records, not part of the table shown
        assert view.me.stats == {} and all(p.stats == {} for p in view.players)
        assert view.hand == game.state.hands[decision.seat]
        decision = game.answer(decision.options[-1])


def test_a_seat_sees_the_table_again_after_scribbling_on_its_copy(box):
    """A board copy lends a seat's next copy the parts still equal to the game's: a part the
    seat wrote into is copied afresh, so every decision shows the table as it is, and no part
    shown is ever the engine's own."""
    game = Game(box, [None, None], 6)
    decision = game.pending()
    fields = ["tableau", "officials", "tokens", "workers", "unrest", "large", "official_supply",
              "alchemist_supply", "vp", "emperor"]
    for step in range(60):
        view = game.views[decision.seat]
        me, live = view.me, game.state.players[decision.seat]
        for name in fields:
            assert getattr(me, name) == getattr(live, name), name
            assert getattr(me, name) is not getattr(live, name), name
        for other in view.players:
            assert other is not game.state.players[other.seat]
        if step % 3 == 0:  # scribble: the next copy must not show it
            me.tokens[:] = [9, 9, 9]
            me.tableau[0].append(999)
            me.vp["cheat"] = 100
            me.emperor[1] = 5
            me.ship = 99
        decision = game.answer(decision.options[-1])
