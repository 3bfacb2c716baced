"""The forward model: stepping a game from outside, forking it at any question, determinising
a fork for one seat, and saving a game to continue it later."""

from __future__ import annotations

import pickle
import random
import re
from collections import Counter
from typing import Any

import pytest

from zsim.components import Box
from zsim.decisions import Decision, IllegalChoice
from zsim.game import Game, GameResult
from zsim.options import GameOptions
from zsim.rules.lisi import LiSiSeat
from zsim.state import Stage
from zsim.strategies.base import Strategy
from zsim.strategies.random_bot import RandomStrategy
from zsim.strategies.registry import resolve
from zsim.view import PlayerView

LINEUPS = {
    "2 random": ["random", "random"],
    "3 mixed": ["greedy", "random", "builder"],
    "4 heuristic": ["greedy", "builder", "governor", "alchemist"],
    "solo": ["greedy", "lisi-2"],
}


class Answers:
    """Listens to a game and keeps every answer given, in order."""

    def __init__(self) -> None:
        self.given: list[tuple[int, str, Any]] = []

    def event(self, game: Game, kind: str, data: dict[str, Any]) -> None:
        decision = data["decision"]
        self.given.append((decision.seat, decision.kind, data["answer"]))


def seats(names: list[str]) -> list[Any]:
    return [resolve(name) for name in names]


def outcome(result: GameResult) -> tuple:
    """All a game produced; narration with the players named by colour only (the seats'
    strategy names differ between the ways of playing compared)."""
    log = [re.sub(r"\b(\w+) \([^)]*\)", r"\1", line) for line in result.log or ()]
    return (result.scores, result.decisions, result.walls, result.rewards, result.abilities,
            result.tiles, result.start_tiles, log)


def played(box: Box, names: list[str], seed: int) -> tuple[GameResult, list]:
    game = Game(box, seats(names), seed, narrate=True)
    answers = Answers()
    game.listen(answers, ("decision",))
    return game.play(), answers.given


def outside(names: list[str]) -> list[Any]:
    """Li Si stays in his seat; every other seat is answered from outside."""
    return [s if isinstance(s, LiSiSeat) else None for s in seats(names)]


@pytest.mark.parametrize("lineup", LINEUPS)
def test_answering_from_outside_plays_the_same_game_as_the_strategies(box, lineup):
    names = LINEUPS[lineup]
    result, given = played(box, names, seed=4)
    game = Game(box, outside(names), 4, narrate=True)
    for seat, kind, answer in given:
        decision = game.pending()
        assert (decision.seat, decision.kind) == (seat, kind)
        game.answer(answer)
    assert game.pending() is None and game.over
    assert outcome(game.result()) == outcome(result)


def test_every_fork_continues_exactly_as_its_game(box):
    names = LINEUPS["3 mixed"]
    result, given = played(box, names, seed=7)
    game = Game(box, outside(names), 7, narrate=True)
    forks: list[tuple[int, Game]] = []
    picks = set(random.Random(1).sample(range(len(given)), 12)) | {0, len(given) - 1}
    for i, (_, _, answer) in enumerate(given):
        if i in picks:
            fork = game.fork()
            # playing a fork on its own, another way, does not touch its game
            scratch = fork.fork()
            scratch.play([RandomStrategy()] * 3)
            forks.append((i, fork))
        game.answer(answer)
    assert outcome(game.result()) == outcome(result)
    for i, fork in forks:
        for _, _, answer in given[i:]:
            fork.answer(answer)
        assert outcome(fork.result()) == outcome(result), f"fork at answer {i}"


class Searcher(Strategy):
    """Forks at each turn, plays every fork out at random, then answers as ``inner`` would."""

    name = "searcher"
    forks = True

    def __init__(self, inner: Strategy) -> None:
        self.inner = inner
        self.forked = 0

    def choose(self, view: PlayerView, decision: Decision) -> Any:
        if decision.kind == "turn":
            fork = view.fork(random.Random(self.forked))
            assert fork.pending().options == decision.options
            fork.play([RandomStrategy()] * view.n_players)
            self.forked += 1
        return self.inner.choose(view, decision)


def test_a_strategy_that_searches_its_forks_leaves_its_game_as_it_was(box):
    searcher = Searcher(resolve("greedy"))
    alone, _ = played(box, ["greedy", "builder", "random"], seed=3)
    game = Game(box, [searcher, resolve("builder"), resolve("random")], 3, narrate=True)
    searched = game.play()
    assert searcher.forked >= 15  # a fork at each of its turns (fewer with one option)
    assert outcome(searched) == outcome(alone)


def paused_at_turn(box: Box, names: list[str], seed: int, turns: int) -> Game:
    """A game answered from outside (first options), paused at a later turn question."""
    game = Game(box, outside(names), seed)
    seen = 0
    while True:
        decision = game.pending()
        if decision.kind == "turn":
            seen += 1
            if seen == turns:
                return game
        game.answer(decision.options[-1])


def hidden(game: Game, seat: int) -> Counter:
    state = game.state
    cards = Counter(c for deck in state.decks for c in deck)
    cards.update(c for s, hand in enumerate(state.hands) if s != seat for c in hand)
    return cards


@pytest.mark.parametrize("lineup", ["4 heuristic", "solo"])
def test_a_determinised_fork_redeals_only_what_the_seat_cannot_see(box, lineup):
    game = paused_at_turn(box, LINEUPS[lineup], seed=2, turns=9)
    seat = game.pending().seat
    rng_before = game.rng.getstate()
    state_before = pickle.dumps(game.state)
    fork = game.fork(seat, random.Random(5))
    assert game.rng.getstate() == rng_before and pickle.dumps(game.state) == state_before
    assert fork.pending().options == game.pending().options
    assert fork.state.hands[seat] == game.state.hands[seat]
    assert hidden(fork, seat) == hidden(game, seat)
    card_type = game.t.card_type
    for s in range(game.n):
        backs = [Counter(card_type[c] for c in g.state.hands[s]) for g in (game, fork)]
        assert backs[0] == backs[1]
    assert [len(d) for d in fork.state.decks] == [len(d) for d in game.state.decks]
    redealt = [fork.state.decks, fork.state.hands]
    assert redealt != [game.state.decks, game.state.hands]
    assert all(s is None or isinstance(s, LiSiSeat) for s in fork.strategies)  # Li Si is data
    again = game.fork(seat, random.Random(5))
    assert [again.state.decks, again.state.hands] == redealt  # the fork's RNG decides it all
    if game.state.lisi is not None:
        assert sorted(fork.state.lisi.deck) == sorted(game.state.lisi.deck)


def test_a_determinised_fork_at_a_sub_question_replays_its_turn(box):
    game = Game(box, outside(LINEUPS["4 heuristic"]), 8)
    while not (game.pending().kind != "turn" and game.state.stage == Stage.TURNS
               and game._answers):
        game.answer(game.pending().options[0])
    decision = game.pending()
    fork = game.fork(decision.seat, random.Random(3))
    assert (fork.pending().kind, fork.pending().options) == (decision.kind, decision.options)
    fork.play([RandomStrategy()] * 4)
    assert fork.over and not game.over


def test_stepping_refuses_what_was_not_offered_and_the_end(box):
    game = Game(box, [None, None], 1)
    decision = game.pending()
    with pytest.raises(IllegalChoice, match="the caller"):
        game.answer(("nonsense",))
    assert game.pending() is decision
    game.play([RandomStrategy(), RandomStrategy()])
    assert game.pending() is None
    with pytest.raises(RuntimeError, match="over"):
        game.answer(0)


def test_a_seat_left_without_a_strategy_is_named(box):
    game = Game(box, [RandomStrategy(), None], 1)
    with pytest.raises(RuntimeError, match="seat 1 has no strategy"):
        game.play()


def test_a_fork_at_a_question_needs_a_strategy_that_says_it_forks(box):
    class Sneaky(RandomStrategy):
        def choose(self, view: PlayerView, decision: Decision) -> Any:
            view.fork()
            return super().choose(view, decision)

    with pytest.raises(RuntimeError, match="forks = True"):
        Game(box, [Sneaky(), RandomStrategy()], 1).play()


def test_a_game_saved_at_a_question_continues_from_its_checkpoint(box):
    names = LINEUPS["4 heuristic"]
    result, given = played(box, names, seed=5)
    game = Game(box, outside(names), 5, GameOptions(), narrate=True)
    for _, _, answer in given[:150]:
        game.answer(answer)
    saved = pickle.dumps(game.checkpoint())
    restored = Game.restore(box, pickle.loads(saved), outside(names))
    assert restored.pending().options == game.pending().options
    for _, _, answer in given[150:]:
        restored.answer(answer)
    assert outcome(restored.result()) == outcome(result)


# --- a suspended segment: stepping without replay ----------------------------------------


def stepped(box: Box, players: int, seed: int, suspends: bool, forks: bool = False
            ) -> tuple[int, list[dict[str, int]]]:
    """A game stepped from outside with random answers (on a continuation or replayed); with
    ``forks``, at every 23rd question a fork and a saved copy are stepped a little apart."""
    game = Game(box, [None] * players, seed)
    game.suspends = suspends
    rng, asked = random.Random(seed), 0
    decision = game.pending()
    while decision is not None:
        if forks and asked % 23 == 7:
            fork = game.fork()
            fork.suspends = suspends
            fork.answer(decision.options[-1])
            fork.drop_continuation()
            Game.restore(box, game.checkpoint(), [None] * players).answer(decision.options[0])
        decision = game.answer(decision.options[rng.randrange(len(decision.options))])
        asked += 1
    return asked, game.result().scores


@pytest.mark.parametrize("players", [2, 4])
def test_a_suspended_segment_plays_the_game_a_replay_plays(box: Box, players: int) -> None:
    pytest.importorskip("greenlet")
    for seed in range(2):
        assert stepped(box, players, seed, True, forks=True) == stepped(box, players, seed,
                                                                        False)


def test_a_suspending_game_steps_on_its_continuation_and_ends_it(box: Box) -> None:
    pytest.importorskip("greenlet")
    game = Game(box, [None, None], 3)
    game.suspends = True
    decision = game.pending()
    assert game._runner is not None  # the segment waits at its question, not unwound
    game.answer(decision.options[0])
    assert game._runner is not None
    twin = game.fork()  # a fork carries no continuation: its first answer replays
    assert twin._runner is None
    game.drop_continuation()  # the game stays at its question and replays from now on
    assert game._runner is None and game.pending() is not None
    rng = random.Random(1)
    for copy in (game, twin):
        copy.suspends = copy is twin
    while game.pending() is not None:
        option = rng.choice(game.pending().options)
        game.answer(option)
        twin.answer(option)
    assert twin.over and twin.result().scores == game.result().scores


def test_a_strategy_seat_is_asked_inside_a_suspended_segment(box: Box) -> None:
    pytest.importorskip("greenlet")
    scores = []
    for suspends in (False, True):
        game = Game(box, [None, resolve("greedy"), None], 8)
        game.suspends = suspends
        rng = random.Random(8)
        decision = game.pending()
        while decision is not None:
            assert decision.seat != 1
            decision = game.answer(rng.choice(decision.options))
        scores.append(game.result().scores)
    assert scores[0] == scores[1]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_determinised_fork_at_its_own_starting_tile_ability_stands_there(
        box: Box, players: int) -> None:
    """Once the Starting tiles are kept, a seat asked about its tile's ability gets a fork
    standing at that question (every seat keeps one tile in it), which plays on."""
    found = 0
    for seed in range(30):
        game = Game(box, [None] * players, seed)
        rng = random.Random(seed)
        decision = game.pending()
        while decision is not None and game.state.stage == Stage.START:
            if decision.kind != "start_tile":
                for k in range(4):
                    fork = game.fork(decision.seat, random.Random(k))
                    there = fork.pending()
                    assert there is not None and (there.seat, there.kind, there.options) == (
                        decision.seat, decision.kind, decision.options)
                    fork.answer(there.options[0])
                found += 1
            decision = game.answer(decision.options[rng.randrange(len(decision.options))])
    assert found >= 3


def test_forks_and_texts_of_a_suspended_game_play_on_as_it_does(box: Box) -> None:
    """Segments' starts on a continuation are chained, not copied: a fork or a position text
    taken anywhere replays them, and plays on exactly as the game does."""
    pytest.importorskip("greenlet")
    draws = random.Random(5)
    fractions = [draws.random() for _ in range(2000)]

    def pick(decision: Decision, asked: int) -> Any:
        return decision.options[int(fractions[asked] * len(decision.options))]

    game = Game(box, [None] * 3, 5)
    game.suspends = True
    copies: list[tuple[int, Game]] = []
    asked, decision = 0, game.pending()
    while decision is not None:
        if asked in (40, 41, 90, 150):
            fork = game.fork()
            fork.suspends = asked % 2 == 0
            copies += [(asked, fork), (asked, Game.from_text(game.to_text(), box))]
        decision = game.answer(pick(decision, asked))
        asked += 1
    for start, copy in copies:
        at, decision = start, copy.pending()
        while decision is not None:
            decision = copy.answer(pick(decision, at))
            at += 1
        assert at == asked and copy.result().scores == game.result().scores
