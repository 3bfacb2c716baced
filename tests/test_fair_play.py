"""Fair play: nothing a strategy is handed changes the game, the box or what another seat sees;
nothing leads from it to the game, its seed or its RNG; and what a strategy that walks the whole
process does anyway fails its game at the end-of-game audit, naming it (never an honest one).

The cheats are the bots of ``tests/cheats.py``; each plays as the random bot does, so one that
changes nothing leaves the game exactly as two random bots play it.
"""

from __future__ import annotations

import contextlib
import gc
import json
import pickle
import random
import sys
import types
import weakref
from collections import Counter
from pathlib import Path
from typing import Any

import cheats
import pandas as pd
import pytest
from click.testing import CliRunner

from zsim import game as engine
from zsim.cli import main
from zsim.consult import blame
from zsim.decisions import Decision, IllegalChoice
from zsim.game import Game, play_game
from zsim.invariants import ScoreAuditError, score_audit
from zsim.rules.lisi import LiSiSeat
from zsim.state import Stage
from zsim.strategies.random_bot import RandomStrategy
from zsim.strategies.registry import resolve
from zsim.view import NotPlaying, PlayerView

CHEATS = Path(cheats.__file__)


def random_pair() -> list[Any]:
    return [RandomStrategy(), RandomStrategy()]


def scores(result: Any) -> list[int]:
    return [s["vp_total"] for s in result.scores]


# --- the box and its tables --------------------------------------------------------------------


def test_the_tables_shown_cannot_be_written(box):
    with pytest.raises(TypeError, match="read-only"):
        play_game(box, [cheats.TablesWriter(), RandomStrategy()], 1)
    assert box.board.rules.governor_majority_vp[2] == 10
    with pytest.raises(TypeError, match="read-only"):
        box.abilities["x"] = None


def test_forcing_into_the_tables_changes_only_the_cheats_own_copy(box):
    honest = [play_game(box, [RandomStrategy(), resolve("greedy")], seed) for seed in range(3)]
    cheated = [play_game(box, [cheats.TablesDigger(), resolve("greedy")], seed)
               for seed in range(3)]
    assert [scores(r) for r in cheated] == [scores(r) for r in honest]
    # the rules, the engine's box and what another class of bot is shown are untouched...
    rules = box.board.rules
    assert (rules.governor_majority_vp[2], rules.palace_vp, rules.mausoleum_line_vp) == (10, 6, 10)
    assert scores(play_game(box, random_pair(), 0)) == scores(
        play_game(box, [RandomStrategy(), RandomStrategy()], 0))
    # ...and the cheat's own copy did change: its class sees what it wrote
    seen = []

    class Reader(cheats.TablesDigger):
        def choose(self, view: PlayerView, decision: Decision) -> Any:
            seen.append(view.tables.rules.palace_vp)
            return super().choose(view, decision)

    play_game(box, [Reader(), RandomStrategy()], 0)
    assert seen[0] == 6 and seen[-1] == 60


def test_a_strategy_is_shown_a_copy_of_the_box_once_per_class(box):
    shown = []

    class Looker(RandomStrategy):
        def choose(self, view: PlayerView, decision: Decision) -> Any:
            shown.append(view.tables)
            return super().choose(view, decision)

    game = Game(box, [Looker(), Looker()], 1)
    game.play()
    assert len({id(t) for t in shown}) == 1
    assert shown[0] is not game.t and shown[0].box is not box
    assert shown[0].card_type == game.t.card_type
    assert shown[0].box.board.rules == box.board.rules


# --- the decision --------------------------------------------------------------------------------


def test_appending_to_the_options_makes_nothing_legal(box):
    with pytest.raises(IllegalChoice, match="options-appender"):
        for seed in range(10):
            play_game(box, [cheats.OptionsAppender(), RandomStrategy()], seed)


def test_what_a_strategy_does_to_its_question_stays_with_it(box):
    class Scribbler(RandomStrategy):
        def choose(self, view: PlayerView, decision: Decision) -> Any:
            answer = super().choose(view, decision)
            decision.options.clear()
            decision.context["region"] = 99
            return answer

    assert scores(play_game(box, [Scribbler(), RandomStrategy()], 2)) == scores(
        play_game(box, random_pair(), 2))


# --- the copies shown ----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4])
def test_lists_equal_to_everything_change_nothing_another_seat_sees(box, players):
    for seed in range(3):
        others = [resolve("greedy") for _ in range(players - 1)]
        honest = play_game(box, [RandomStrategy(), *others], seed)
        cheated = play_game(box, [cheats.LiarPlanter(), *others], seed)
        assert scores(cheated) == scores(honest)
        assert cheated.decisions == honest.decisions


def test_no_two_seats_are_shown_the_same_objects(box):
    shown: dict[int, set[int]] = {0: set(), 1: set()}
    kept = []  # keeps the copies alive, so that no id is reused

    class Collector(RandomStrategy):
        def choose(self, view: PlayerView, decision: Decision) -> Any:
            board = view.board
            parts = [board, *board.players, *board.walls, *board.mausoleum, board.supply,
                     board.court, *(p.tokens for p in board.players)]
            kept.append(parts)
            shown[view.seat].update(map(id, parts))
            return super().choose(view, decision)

    play_game(box, [Collector(), Collector()], 3)
    assert shown[0] and shown[1] and not shown[0] & shown[1]


# --- no path to the game -------------------------------------------------------------------------

STOP = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.CodeType,
        types.FrameType, types.MethodType, types.MethodDescriptorType,
        types.WrapperDescriptorType, types.GetSetDescriptorType, types.MemberDescriptorType,
        weakref.ref)
IMMUTABLE = (int, float, str, bytes, bool, type(None), tuple, frozenset)


def referents(roots: list[Any]) -> dict[int, Any]:
    """Every object reachable from ``roots`` through references (attributes, ``__dict__``,
    slots, closures, containers: the garbage collector's referents), except into code
    (classes, modules, functions: from those the whole program is reachable)."""
    found: dict[int, Any] = {}
    todo = list(roots)
    while todo:
        obj = todo.pop()
        if id(obj) in found or isinstance(obj, STOP):
            continue
        found[id(obj)] = obj
        todo.extend(gc.get_referents(obj))
        if isinstance(obj, (list, tuple, dict, set, frozenset)):
            continue
        for name in getattr(type(obj), "__slots__", ()):
            with contextlib.suppress(AttributeError):  # a slot never set
                todo.append(getattr(obj, name))
    return found


def live_objects(game: Game) -> dict[int, Any]:
    """The mutable objects the game plays with: itself, its state, RNG, box, records..."""
    return {i: o for i, o in referents([game, game.state, game.rng, game.t, game.options,
                                        game.records, game.setup]).items()
            if not isinstance(o, IMMUTABLE)}


class Prober(RandomStrategy):
    """At a turn of round 3, hands everything it was handed to the test's check."""

    name = "prober"
    forks = True

    def __init__(self, check: Any) -> None:
        self.check = check
        self.done = False

    def choose(self, view: PlayerView, decision: Decision) -> Any:
        if not self.done and decision.kind == "turn" and view.round == 3:
            self.done = True
            fork = view.fork()
            handed = [self, view, decision, view.memo, view.rng, view.tables, fork,
                      fork.pending(), fork.view(view.seat), view.me, view.players, view.board,
                      view.hand, view.walls, view.mausoleum, view.log]
            self.check(handed)
        return super().choose(view, decision)


@pytest.mark.parametrize("seats", [2, "solo"])
def test_nothing_handed_to_a_strategy_leads_to_its_game(box, seats):
    checked = []

    def check(handed: list[Any]) -> None:
        live = live_objects(game)
        reached = referents(handed)
        assert not set(reached) & set(live), [type(live[i]) for i in set(reached) & set(live)]
        assert not hasattr(handed[1], "_game")
        checked.append(len(reached))

    prober = Prober(check)
    lineup = [prober, LiSiSeat(2)] if seats == "solo" else [prober, RandomStrategy()]
    game = Game(box, lineup, 4)
    game.play()
    assert checked and checked[0] > 1000  # the walk went through its copy of the box


def referrers(start: list[Any], depth: int, ignore: set[int]) -> list[Any]:
    """What refers to ``start``, and to those, ``depth`` steps up (the garbage collector's
    referrers), stopping at frames and at modules' globals (from a frame or a module the
    whole program is reachable)."""
    module_dicts = {id(vars(m)) for m in list(sys.modules.values()) if m is not None}
    seen = set(ignore) | {id(o) for o in start}
    level, found = list(start), []
    for _ in range(depth):
        up = []
        ignore_here = {id(level), id(up), id(found)}
        for obj in level:
            for ref in gc.get_referrers(obj):
                if (id(ref) in seen or id(ref) in ignore_here or isinstance(ref, types.FrameType)
                        or id(ref) in module_dicts):
                    continue
                seen.add(id(ref))
                up.append(ref)
        found.extend(up)
        level = up
    return found


def test_no_referrer_of_what_a_strategy_is_handed_is_its_game(box):
    results = []

    def check(handed: list[Any]) -> None:
        ours = {id(handed), id(results)}
        above = referrers([handed[0], handed[1], handed[3], handed[4], handed[2]], 4, ours)
        results.append([type(o).__name__ for o in above if o is game or o is game.state])

    game = Game(box, [Prober(check), RandomStrategy()], 6)
    game.play()
    assert results == [[]]


def test_a_fork_has_its_own_seed_rng_and_deal(box):
    cheats.DeckPeeker.seen.clear()
    game = Game(box, [cheats.DeckPeeker(), RandomStrategy()], 11)
    start = Game(box, [None, None], 11)  # the same game before its first question
    first_decks = [d[:] for d in start.state.decks]
    real_states = []

    class Watch:
        def event(self, g: Any, kind: str, data: dict[str, Any]) -> None:
            real_states.append(g.rng.getstate())
            if g._snap is not None:
                real_states.append(g._snap.rng)

    game.listen(Watch(), ("decision",))
    game.play()
    for seed, options, rng_state, snap_rng, _ in cheats.DeckPeeker.seen.values():
        assert seed != 11
        rebuilt = Game(box, [None, None], seed, options)
        assert rebuilt.state.decks != first_decks  # the real deal cannot be rebuilt from it
        assert rng_state not in real_states and snap_rng not in real_states
    assert cheats.DeckPeeker.seen


def test_a_view_is_read_only_while_its_game_is_played(box):
    kept = []

    class Keeper(RandomStrategy):
        def choose(self, view: PlayerView, decision: Decision) -> Any:
            kept.append(view)
            return super().choose(view, decision)

    game = Game(box, [Keeper(), RandomStrategy()], 1)
    game.play()
    with pytest.raises(NotPlaying, match=r"game\.view"):
        kept[0].me  # noqa: B018
    assert game.view(0).me.vp == game.state.players[0].vp  # the holder of the game reads it


def test_a_view_reads_only_its_own_seat_in_its_own_decisions(box):
    # writing the view's seat, making a view for another seat from the view's class, or using
    # another seat's view found in memory: none of them reads another seat's hand
    written: list[bool] = []
    read: list[str] = []

    def found(seat: int) -> PlayerView:
        return next(o for o in gc.get_objects()
                    if type(o) is PlayerView and o.seat == seat and o._owner is None)

    class SeatSwap(RandomStrategy):
        def choose(self, view: PlayerView, decision: Decision) -> Any:
            other = 1 - view.seat
            try:
                view.seat = other  # type: ignore[misc]
                written.append(True)
            except AttributeError:
                written.append(False)
            ways = {"forged": type(view)(view._token, other, random.Random()),
                    "found": found(other)}
            for name, other_view in ways.items():
                with contextlib.suppress(NotPlaying):
                    other_view.hand  # noqa: B018
                    read.append(name)
            assert view.seat == 1 - other and view.hand is not None  # its own still reads
            return super().choose(view, decision)

    result = Game(box, [SeatSwap(), RandomStrategy()], 3).play()
    assert written and not any(written)  # the seat cannot be written
    assert read == []  # nor another seat's hand read
    assert result.decisions > 0


def test_a_seats_rng_does_not_give_the_games_seed_back(box):
    # a strategy reads its RNG's whole state; Python's seeding runs backwards to the number it
    # was seeded with, which must not be the game's seed or a simple function of it (the deal
    # would follow): no small number seeds the RNG a seat is handed
    states: list[Any] = []

    class Reader(RandomStrategy):
        def choose(self, view: PlayerView, decision: Decision) -> Any:
            if not states:
                states.append(view.rng.getstate())
            return super().choose(view, decision)

    Game(box, [Reader(), RandomStrategy()], 5).play()
    assert states and all(random.Random(k).getstate() != states[0] for k in range(5000))
    assert engine.seat_rng(5, 0).getstate() == states[0]  # the same seed, the same RNG


# --- the end-of-game audit -----------------------------------------------------------------------


def test_the_audit_compares_every_tally_with_what_was_scored():
    assert score_audit([{"vp_cards": 3}, {}], [{"vp_cards": 3}, {}]) == []
    assert score_audit([{"vp_cards": 9480}, {"vp_palaces": 0}],
                       [{"vp_cards": 3}, {"vp_palaces": 6}]) == [
        (0, "vp_cards", 9477), (1, "vp_palaces", -6)]


@pytest.mark.parametrize("cheat", [cheats.HeapWalker, cheats.StackWalker, cheats.Sabotage,
                                   cheats.OpponentVP, cheats.LedgerWriter])
@pytest.mark.parametrize("seat", [0, 1])
def test_vp_written_into_the_game_fail_it_naming_the_cheat_whoever_gains(box, cheat, seat):
    """VP written on any sheet (its own, its opponent's, taken from it, with the ledger of
    scored VP written too) fail the game at the decision it was written in, naming the strategy
    that was deciding then: never the seat whose sheet changed."""
    lineup = [RandomStrategy(), RandomStrategy()]
    lineup[seat] = cheat()
    with pytest.raises(ScoreAuditError, match=f"while strategy '{cheat.name}' \\(seat {seat}\\)"
                       ) as failed:
        play_game(box, lineup, 5)
    assert failed.value.seat == seat
    assert blame(failed.value) == (seat, "turn")


def test_vp_that_appear_outside_every_decision_blame_no_one(box):
    """The end-of-game audit still holds the sheets to what was scored; what it finds was not
    written during any strategy's call, so it names the seats and blames no strategy."""
    game = Game(box, [RandomStrategy(), RandomStrategy()], 5)
    game.state.players[1].vp["vp_cards"] = 7  # not scored by the rules, and by no strategy
    with pytest.raises(ScoreAuditError, match=r"seat 1 \(random\) has 7 VP more") as failed:
        game.play()
    assert failed.value.seat is None and blame(failed.value) == (None, None)


@pytest.mark.parametrize("seat", [0, 1])
def test_a_bot_that_writes_another_seat_into_its_question_is_blamed_itself(box, seat):
    lineup = [RandomStrategy(), RandomStrategy()]
    lineup[seat] = cheats.Framer()
    with pytest.raises(RuntimeError, match="look over there") as failed:
        play_game(box, lineup, 5)
    assert blame(failed.value) == (seat, "turn")


def test_the_audit_passes_every_honest_game(box):
    for seed, lineup in enumerate([["greedy", "builder", "random"], ["greedy", "lisi-3"],
                                   ["rollout(rollouts=1)", "random"]]):
        result = play_game(box, [resolve(name) for name in lineup], seed)
        assert len(result.scores) == len(lineup)


# --- through the runner --------------------------------------------------------------------------


class Run:
    """A finished run's players table and failures, read from its files."""

    def __init__(self, out: Path) -> None:
        self.players = pd.read_parquet(out / "players.parquet")
        self.failures = [json.loads(line)
                         for line in (out / "failures.jsonl").read_text().splitlines()]


def run(tmp_path: Path, name: str, cheat: str | None) -> Run:
    """``zsim run --games 40 -n 2 -s cheats.py:CHEAT -s random`` (both seats random without a
    cheat), in this process."""
    out = tmp_path / name
    first = f"{CHEATS}:{cheat}" if cheat else "random"
    result = CliRunner().invoke(main, ["run", "--games", "40", "-n", "2", "-s", first,
                                       "-s", "random", "--jobs", "1", "--quiet",
                                       "--max-failures", "40", "--out", str(out)])
    assert result.exit_code in (0, 1), result.output
    return Run(out)


def vp(results: Run) -> pd.Series:
    return results.players.set_index(["game", "seat"])["vp_total"].sort_index()


@pytest.fixture(scope="module")
def honest_run(tmp_path_factory: pytest.TempPathFactory) -> Run:
    return run(tmp_path_factory.mktemp("honest"), "run", None)


@pytest.mark.parametrize("cheat", ["TablesDigger", "LiarPlanter", "OwnVP", "DeckPeeker"])
def test_in_a_run_a_cheat_that_changes_nothing_changes_nothing(tmp_path, honest_run, cheat):
    cheated = run(tmp_path, cheat, cheat)
    assert cheated.failures == []
    assert vp(cheated).equals(vp(honest_run))


@pytest.mark.parametrize("cheat, error", [("TablesWriter", "TypeError"),
                                          ("OptionsAppender", "IllegalChoice"),
                                          ("HeapWalker", "ScoreAuditError"),
                                          ("StackWalker", "ScoreAuditError")])
def test_in_a_run_a_cheat_that_is_caught_fails_its_games_by_name(tmp_path, cheat, error):
    cheated = run(tmp_path, cheat, cheat)
    name = f"{CHEATS}:{cheat}"
    assert cheated.failures, "no game failed"
    assert {(f["strategy"], f["error"].split(":")[0]) for f in cheated.failures} == {
        (name, error)}
    played = cheated.players[cheated.players["strategy"] == name]
    assert len(played) + len(cheated.failures) == 40  # the rest played on


@pytest.mark.parametrize("cheat", ["Sabotage", "OpponentVP", "LedgerWriter", "Framer"])
def test_in_a_run_a_cheat_on_another_sheet_or_seat_is_blamed_itself(tmp_path, cheat):
    cheated = run(tmp_path, cheat, cheat)
    assert cheated.failures
    name = f"{CHEATS}:{cheat}"
    assert {f["strategy"] for f in cheated.failures} == {name}
    assert all(f["strategies"][f["seat"]] == name for f in cheated.failures)
    assert {f["seat"] for f in cheated.failures} == {0, 1}  # in either seat


def test_in_a_run_a_bot_that_writes_another_seat_and_overruns_is_blamed_itself(tmp_path):
    out = tmp_path / "run"
    result = CliRunner().invoke(main, ["run", "--games", "2", "-n", "2", "-s",
                                       f"{CHEATS}:SlowFramer", "-s", "random", "--jobs", "1",
                                       "--quiet", "--max-failures", "2", "--seats", "fixed",
                                       "--decision-time-limit", "0.5", "--out", str(out)])
    assert result.exit_code == 0, result.output
    failures = [json.loads(line) for line in (out / "failures.jsonl").read_text().splitlines()]
    assert len(failures) == 2
    for failure in failures:
        assert (failure["strategy"], failure["seat"], failure["decision"]) == (
            f"{CHEATS}:SlowFramer", 0, "turn")
        assert f"strategy '{CHEATS}:SlowFramer' (seat 0) took more" in failure["error"]


# --- forks ---------------------------------------------------------------------------------------


def at_question(box, seed: int, round_: int, seat: int) -> Game:
    game = Game(box, [None, None], seed)
    decision = game.pending()
    while not (game.state.round == round_ and decision.seat == seat):
        decision = game.answer(decision.options[0])
    return game


def test_a_fork_for_one_seat_asks_another_seat_again_from_the_redealt_cards(box):
    # 2 players, seed 1000, round 2, seat 1 asked, fork for seat 0: the fork's question named
    # seat 1's true cards, and answering it failed ("a replayed 'turn' answer ... is no longer
    # offered") in 19 forks out of 20.
    game = at_question(box, 1000, 2, 1)
    asked = game.pending()
    assert asked.kind == "turn"
    for k in range(20):
        fork = game.fork(0, random.Random(k))
        question = fork.pending()
        assert (question.seat, question.kind) == (1, "turn")
        assert {o[1] for o in question.options} <= set(fork.state.hands[1])
        fork.answer(question.options[k % len(question.options)])
        fork.play(random_pair())
        assert fork.over
    assert game.pending() is asked and not game.over


def test_a_fork_at_its_own_starting_tile_question_keeps_its_tiles_and_redeals_the_rest(box):
    game = Game(box, [None, None, None], 8)
    game.answer(game.pending().options[0])
    asked = game.pending()
    order = game.state.turn_order
    assert game.state.stage == Stage.START and asked.seat == order[1]
    last_seat = set()
    for k in range(10):
        fork = game.fork(asked.seat, random.Random(k))
        question = fork.pending()  # the first seat, which has kept a tile unseen, is not asked
        assert (question.seat, question.kind, question.options) == (
            asked.seat, "start_tile", asked.options)
        later = fork.answer(question.options[k % 2])
        if later.kind == "start_tile":
            assert later.seat == order[2]
            copies = Counter([*asked.options, *later.options])
            assert all(copies[t] <= box.starting_tiles[t].copies for t in copies)
            last_seat.add(tuple(later.options))
        fork.play([RandomStrategy() for _ in range(3)])
        assert fork.over
    assert len(last_seat) > 1  # drawn again, not the real deal


def test_a_fork_at_another_seats_starting_tile_question_deals_them_again(box):
    game = Game(box, [None, None, None], 8)
    game.answer(game.pending().options[0])
    asked = game.pending()
    first_seat = game.state.turn_order[0]
    fork = game.fork(first_seat, random.Random(1))
    first = fork.pending()
    assert first.kind == "start_tile" and first.seat == first_seat
    fork.play([RandomStrategy() for _ in range(3)])
    assert fork.over and game.pending() is asked


def test_forks_are_freed_as_soon_as_dropped(box):
    """No reference cycle: the collector is not needed to free a fork and its seats."""
    game = at_question(box, 3, 2, 0)
    gc.collect()
    gc.disable()
    try:
        before = len(engine._SEATED)
        for k in range(5):
            fork = game.fork(0, random.Random(k))
            fork.play(random_pair())
            plain = game.fork()
            del fork, plain
        assert len(engine._SEATED) == before
    finally:
        gc.enable()


def test_a_strategy_holding_the_fork_it_plays_lets_it_go(box):
    class Holder(RandomStrategy):
        game: Any = None

    game = at_question(box, 3, 2, 0)
    before = len(engine._SEATED)
    gc.disable()
    try:
        holder = Holder()
        holder.game = game.fork(0, random.Random(1))
        holder.game.play([holder, holder])
        del holder  # it still holds its fork: nothing else does
        assert len(engine._SEATED) == before
    finally:
        gc.enable()


# --- the engine's refusals -----------------------------------------------------------------------


@pytest.mark.parametrize("seat", [-1, 5, 2])
def test_a_fork_for_a_seat_that_is_not_there_is_refused(box, seat):
    game = Game(box, [None, None], 1)
    game.pending()
    with pytest.raises(ValueError, match="an int from 0 to 1"):
        game.fork(seat, random.Random(1))
    with pytest.raises((TypeError, ValueError), match="int"):  # the compiled engine: TypeError
        game.fork("0", random.Random(1))


def test_a_checkpoint_restored_with_the_wrong_seats_is_refused(box):
    game = Game(box, [None, None, None], 1)
    game.pending()
    saved = game.checkpoint()
    with pytest.raises(ValueError, match="3 seats"):
        Game.restore(box, saved, [None, None])
    with pytest.raises(ValueError, match="Li Si"):
        Game.restore(box, saved, [LiSiSeat(1), None, None])


def test_a_game_cannot_be_pickled_and_says_what_to_do(box):
    game = Game(box, [None, None], 1)
    with pytest.raises(TypeError, match=r"checkpoint\(\)"):
        pickle.dumps(game)
    saved = pickle.loads(pickle.dumps(game.checkpoint()))
    assert Game.restore(box, saved, [None, None]).pending().options == game.pending().options


def test_the_docs_warn_that_unpickling_a_checkpoint_runs_code():
    docs = (Path(__file__).parent.parent / "docs" / "architecture.md").read_text()
    assert "runs whatever code" in docs


def test_the_classes_shown_the_table_itself_are_a_fixed_list_no_bot_can_join():
    """No public mutable set: a bot cannot add its own class to be shown the live table."""
    import zsim.view as view
    from zsim.strategies.distilled import DistilledStrategy
    from zsim.strategies.heuristic import HeuristicStrategy

    assert not hasattr(view, "SHARED_READERS")
    readers = view.shared_readers()
    assert readers == frozenset({HeuristicStrategy, DistilledStrategy})
    with pytest.raises(AttributeError):
        readers.add(RandomStrategy)  # type: ignore[attr-defined]


def test_in_a_run_a_bot_that_writes_another_seat_and_ends_its_worker_is_blamed_itself(tmp_path):
    cheated = run(tmp_path, "exit-framer", "ExitFramer")
    name = f"{CHEATS}:ExitFramer"
    assert len(cheated.failures) == 40
    assert all(f["strategy"] == name and f["strategies"][f["seat"]] == name
               and f["error"].startswith("ProcessDied") for f in cheated.failures)


def test_in_serve_a_bot_that_writes_another_seat_and_fails_is_blamed_itself():
    from zsim.serve.live import LiveGame
    from zsim.serve.replay import Replay, Setup

    live = LiveGame(Replay(Setup(players=2, seats=("human", f"{CHEATS}:Framer"), seed=5)))
    rng = random.Random(0)
    while live.pending is not None:
        question = live.question()
        live.answer(question["number"], rng.randrange(len(question["options"])))
    assert live.failure is not None
    assert live.failure.startswith(f"the bot '{CHEATS}:Framer' (seat 1) failed at a 'turn'")
