"""The built-in bots shown the table itself (``zsim.view.shared_readers``): none of their
questions changes the game, they see no hidden card, and no other bot is shown the live table,
not even a subclass of theirs."""

from __future__ import annotations

import pickle
from typing import Any, ClassVar

import pytest

import zsim.game
from zsim import view
from zsim.decisions import Decision
from zsim.game import Game, play_game
from zsim.rules.lisi import LiSiSeat
from zsim.strategies.distilled import DistilledStrategy
from zsim.strategies.heuristic import HeuristicStrategy
from zsim.strategies.random_bot import RandomStrategy
from zsim.strategies.registry import resolve
from zsim.view import PLAYING, PlayerView, shared_readers

ARCHETYPES = ["greedy", "builder", "governor", "alchemist", "courtier", "mausoleum"]


@pytest.fixture
def watched(monkeypatch):
    """Wraps every strategy call of the engine: for a seat shown the live table, the whole
    state (pickled) must be the same after the answer as before it, and the table shown holds
    no hidden card. Returns the count of such calls checked."""
    checked = {"shared": 0, "copied": 0, "forks": 0}
    real = zsim.game.consult

    def consult(game: Any, strategy: Any, view: PlayerView, decision: Decision) -> Any:
        if not game.shares_table(decision.seat):
            checked["copied"] += 1
            return real(game, strategy, view, decision)
        checked["forks"] += type(strategy) not in shared_readers()
        before = pickle.dumps(game.state)
        answer = real(game, strategy, view, decision)
        after = pickle.dumps(game.state)
        assert before == after, f"{strategy.name} changed the game at a {decision.kind!r} question"
        board = view.board
        assert view.me is game.state.players[view.seat]  # shown the table itself
        assert not any(board.decks) and all(not h for s, h in enumerate(board.hands)
                                            if s != view.seat)
        assert board.hands[view.seat] == game.state.hands[view.seat]
        if board.lisi is not None:
            assert board.lisi.deck == [] and board.lisi is not game.state.lisi
        checked["shared"] += 1
        return answer

    monkeypatch.setattr(zsim.game, "consult", consult)
    return checked


@pytest.mark.parametrize("players", [2, 3, 4])
def test_no_question_of_a_built_in_heuristic_changes_the_game(box, watched, players):
    for seed in range(2):
        lineup = [resolve(ARCHETYPES[(seed * 4 + s) % len(ARCHETYPES)]) for s in range(players)]
        play_game(box, lineup, seed)
    assert watched["shared"] > 100 * players  # every question of every seat was checked
    assert watched["copied"] == 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_no_question_of_the_distilled_bot_changes_the_game(box, watched, players):
    play_game(box, [resolve("distilled"), *(resolve("greedy") for _ in range(players - 1))], 7)
    assert watched["shared"] > 100 * players and watched["copied"] == 0


@pytest.mark.parametrize("spec", ["mcts(iterations=2)",
                                  "mcts(iterations=2, rollout='distilled', judge='distilled')"])
def test_a_search_s_forks_show_the_table_itself_to_its_playouts_and_change_nothing(
        box, watched, spec):
    """A fork is the searcher's own game: its driver, whose playout policy is the heuristic
    or ``distilled``, is shown the fork's table itself, and no question of a playout changes
    the fork."""
    result = play_game(box, [resolve(spec), resolve("greedy")], 11)
    assert watched["forks"] > 500  # the playouts' questions, checked one by one
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(view, "_shared", frozenset())  # every seat and fork shown copies
        copied = play_game(box, [resolve(spec), resolve("greedy")], 11)
    assert copied.scores == result.scores and copied.decisions == result.decisions


def test_a_driver_with_another_policy_is_shown_copies(box):
    from zsim.strategies.search import Driver

    def leave(view: PlayerView, decision: Decision, turns: int) -> None:
        return None

    judge = HeuristicStrategy()
    assert Driver(0, leave, judge, judge, 0).reads_only
    assert Driver(0, leave, DistilledStrategy(), DistilledStrategy(), 0).reads_only
    assert not Driver(0, leave, DistilledStrategy(), Scribbler(), 0).reads_only
    assert not Driver(0, leave, RandomStrategy(), judge, 0).reads_only
    assert not Driver(0, leave, Scribbler(), judge, 0).reads_only


def test_nor_in_the_solo_game_nor_beside_other_bots(box, watched):
    play_game(box, [resolve("greedy"), LiSiSeat(2)], 5)
    shared_solo = watched["shared"]
    play_game(box, [resolve("courtier"), RandomStrategy(), resolve("lookahead")], 6)
    assert shared_solo > 50 and watched["shared"] > shared_solo and watched["copied"] > 100


def test_the_games_are_the_ones_copies_give(box):
    """Shown the live table or copies, the heuristic plays the same games."""
    def scores(result: Any) -> list[dict[str, int]]:
        return result.scores

    class Copied(HeuristicStrategy):  # a subclass: shown copies
        name = "greedy"

    class CopiedStyle(DistilledStrategy):  # the archetypes play on the scorer
        name = "distilled"

    for seed in range(3):
        live = play_game(box, [resolve("greedy"), resolve("builder"), resolve("courtier")], seed)
        copied = play_game(box, [Copied(), CopiedStyle(**resolve("builder").params),
                                 CopiedStyle(**resolve("courtier").params)], seed)
        assert scores(live) == scores(copied)
        assert live.decisions == copied.decisions


def test_the_distilled_bot_plays_the_games_copies_give(box):
    class Copied(DistilledStrategy):  # a subclass: shown copies
        name = "distilled"

    for players, seed in [(2, 1), (4, 2)]:
        others = [resolve("greedy") for _ in range(players - 1)]
        live = play_game(box, [resolve("distilled"), *others], seed)
        copied = play_game(box, [Copied(), *others], seed)
        assert live.scores == copied.scores and live.decisions == copied.decisions


class Scribbler(HeuristicStrategy):
    """The heuristic's judgement, plus writing into the table it is shown."""

    name = "scribbler"
    live: ClassVar[list[bool]] = []

    def choose(self, view: PlayerView, decision: Decision) -> Any:
        game = PLAYING[view._token]  # the test's own look at the game, to compare
        Scribbler.live.append(view.me is game.state.players[view.seat])
        view.me.vp["vp_cards"] = view.me.vp.get("vp_cards", 0) + 100
        view.board.supply[:] = [0, 0, 0]
        return super().choose(view, decision)


def test_a_subclass_is_shown_copies_and_changes_nothing(box):
    Scribbler.live.clear()
    scribbled = play_game(box, [RandomStrategy(), Scribbler()], 2)  # the score audit passes
    assert len(Scribbler.live) > 100 and not any(Scribbler.live)
    assert scribbled.scores[1]["vp_total"] < 1000  # none of its +100s counted


def test_a_program_reading_a_game_it_holds_is_shown_a_copy(box):
    game = Game(box, [resolve("greedy"), resolve("greedy")], 3)
    game.play()
    view = game.view(0)
    assert view.me is not game.state.players[0]
    assert view.board.players[1] is not game.state.players[1]
