"""The search bots (``lookahead``, ``mcts``): whole games through the commands, the same games
from the same seed whatever the number of processes, choices that do not depend on the cards
they cannot see, and their parameters. Budgets are tiny: this checks behaviour, not strength
(strength is measured with ``zsim tournament``, docs/strategies.md)."""

from __future__ import annotations

import contextlib
import json
import pickle
import random

import pandas as pd
import pytest
from click.testing import CliRunner

import zsim.runner.batch as batch
from tests.conftest import experiment_file
from tests.test_runner import assert_same_tables
from zsim.cli import main
from zsim.game import Game, play_game
from zsim.runner import Experiment
from zsim.runner.batch import start_run
from zsim.strategies import lookahead, search
from zsim.strategies.base import Strategy
from zsim.strategies.registry import UnknownStrategy, resolve
from zsim.strategies.search import Driver, Horizon, margin, play_out

MCTS = "mcts(iterations=3, width=3, horizon=1)"
# common deals, sequential halving, and a search at every question that matters
FLAT = "mcts(root='halving', iterations=3, width=3, horizon=1, kinds='all')"
BOTS = ["lookahead", MCTS, FLAT]
# playouts played, and options ordered, by the learned heuristic (``distilled``)
DISTILLED = "mcts(iterations=3, width=3, rollout='distilled', judge='distilled')"
# the last turns searched, the judge's favourite before them
LAST = "mcts(root='halving', iterations=2, width=2, judge='distilled', last=3)"


@pytest.mark.parametrize("bot", BOTS)
def test_zsim_run_plays_2_3_and_4_player_games_alike_with_one_process_or_two(bot, tmp_path):
    args = ["run", "--games", "3", "-n", "2", "-n", "3", "-n", "4", "-s", bot, "-s", "greedy",
            "--seed", "4", "--chunk-size", "1", "--quiet"]
    for jobs in ("1", "2"):
        out = CliRunner().invoke(main, [*args, "--jobs", jobs, "--out", str(tmp_path / jobs)])
        assert out.exit_code == 0, out.output
    players = pd.read_parquet(tmp_path / "1" / "players.parquet")
    assert sorted(players.groupby("seed")["n_players"].first()) == [2, 3, 4]
    assert bot in set(players["strategy"])
    assert_same_tables(tmp_path / "1", tmp_path / "2")


# 9 games on one job: the other lineup's chunk is the job's share, and a lone worker plays it
# whole (the tail is cut only when workers share a run)
@pytest.mark.parametrize("lineup, chunk, step", [([MCTS, "random"], batch.SEARCH_CHUNK_SIZE, 2),
                                                 (["basic", "random"], 9, 9)])
def test_the_progress_bar_moves_every_game_or_two_when_a_search_bot_plays(
        lineup, chunk, step, tmp_path, monkeypatch):
    bars = []

    class Bar:
        def __init__(self):
            self.moves = []
            bars.append(self)

        def update(self, games):
            self.moves.append(games)

    monkeypatch.setattr(batch, "_bar", lambda total, initial, enabled: contextlib.nullcontext(
        Bar()))
    experiment = Experiment(games=9, players=[2], strategies=lineup, seed=2, jobs=1,
                            chunk_size=50)
    start_run(experiment, tmp_path / "run", progress=True)
    assert sum(bars[0].moves) == 9 and max(bars[0].moves) == step
    assert json.loads((tmp_path / "run" / "run.json").read_text())["chunk_size"] == chunk
    start_run(experiment.with_overrides(chunk_size=1), tmp_path / "ones")
    assert_same_tables(tmp_path / "run", tmp_path / "ones")  # the same games either way


def test_compare_and_sweep_take_a_search_bot_like_any_other(tmp_path_factory, tmp_path):
    experiment = experiment_file(tmp_path_factory, f"""\
games: 4
players: [2]
strategies: ["{MCTS}", greedy]
seed: 5
jobs: 1
""")
    for command in (["compare", str(experiment), "rules.palace_vp=8"],
                    ["sweep", "rules.palace_vp=6,8", "--experiment", str(experiment)]):
        out = tmp_path / command[0]
        result = CliRunner().invoke(main, [*command, "--out", str(out), "--quiet"])
        assert result.exit_code == 0, result.output
        table = pd.read_csv(out / ("comparison.csv" if command[0] == "compare" else "sweep.csv"))
        assert MCTS in set(table["strategy"])


@pytest.mark.parametrize("bot", BOTS)
def test_zsim_run_plays_the_solo_game_against_lisi(bot, tmp_path):
    out = CliRunner().invoke(main, ["run", "--games", "1", "--solo", "--lisi", "2", "-s", bot,
                                    "--jobs", "1", "--quiet", "--out", str(tmp_path / "solo")])
    assert out.exit_code == 0, out.output
    players = pd.read_parquet(tmp_path / "solo" / "players.parquet")
    assert list(players["strategy"]) == [bot, "lisi-2"]


@pytest.mark.parametrize("bot", [*BOTS, DISTILLED])
@pytest.mark.parametrize("seats", [["-n", "2", "-s", "courtier"], ["-n", "3", "-s", "courtier"],
                                   ["-n", "4", "-s", "courtier"], ["--solo", "--lisi", "1"]])
def test_zsim_play_plays_it_and_the_same_game_twice(bot, seats):
    args = ["play", "-s", bot, *seats, "--seed", "8", "--json"]
    out = CliRunner().invoke(main, args)
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["players"][0]["strategy"] == bot
    assert CliRunner().invoke(main, args).output == out.output


@pytest.mark.parametrize("bot", [*BOTS, DISTILLED, LAST])
def test_a_pickled_bot_plays_the_same_game(box, bot):
    seats = [resolve(bot), resolve("greedy")]
    first = play_game(box, seats, 12)
    again = play_game(box, [pickle.loads(pickle.dumps(s)) for s in seats], 12)
    assert first.scores == again.scores and first.decisions == again.decisions


def at_turn(box, n: int, seed: int, turn: int) -> Game:
    """A game of ``n`` seats answered from outside, stopped at its ``turn``-th turn question."""
    game = Game(box, [None] * n, seed)
    seen = 0
    while True:
        decision = game.pending()
        seen += decision.kind == "turn"
        if decision.kind == "turn" and seen == turn:
            return game
        game.answer(decision.options[len(decision.options) // 2])


@pytest.mark.parametrize("bot", [*BOTS, "mcts(iterations=12, rollout='random')", DISTILLED,
                                 "mcts(root='halving', iterations=4, rollout='distilled')",
                                 LAST.replace("last=3", "last=27")])  # 26 cards left: searched
@pytest.mark.parametrize("n, turn", [(2, 9), (3, 14)])
def test_its_choice_does_not_depend_on_the_cards_it_cannot_see(box, bot, n, turn):
    game = at_turn(box, n, 6, turn)
    seat = game.pending().seat
    tables = [game, game.fork(seat, random.Random(1)), game.fork(seat, random.Random(2))]
    hidden = [(t.state.decks, [h for s, h in enumerate(t.state.hands) if s != seat])
              for t in tables]
    assert hidden[0] != hidden[1] != hidden[2] != hidden[0]  # the cards it cannot see differ
    choices = []
    for table in tables:
        view = table.views[seat]
        view.rng.seed(11)  # the seat's own RNG, the same in the three games
        choices.append(resolve(bot).choose(view, table.pending()))
    assert choices[0] == choices[1] == choices[2]


class Peeking:
    """A seat's view whose forks are the game itself, hidden cards and all (given to the
    search's playouts only: the compiled estimates take the real view)."""

    def __init__(self, view, game: Game) -> None:
        self.view, self.game = view, game

    def __getattr__(self, name):
        return getattr(self.view, name)

    def fork(self, rng=None) -> Game:
        return self.game.fork()


def test_a_search_of_the_true_hidden_cards_would_choose_otherwise(box, monkeypatch):
    # What the test above rules out can happen: searching the true hidden cards instead of a
    # redeal, the same search (same seat RNG) picks another option at some of these questions.
    # (rare enough that one game may show none: four games' questions, 52 in all)
    differ = 0
    for seed, turn in [(seed, turn) for seed in (6, 7, 8, 9) for turn in range(3, 40, 3)]:
        game = at_turn(box, 2, seed, turn)
        view = game.views[game.pending().seat]
        choices = []
        for peek in (False, True):
            if peek:
                monkeypatch.setattr(lookahead, "play_out", lambda v, rng, driver, game=game:
                                    search.play_out(Peeking(v, game), rng, driver))
            view.rng.seed(11)
            choices.append(resolve("lookahead").choose_turn(view, game.pending()))
            monkeypatch.undo()
        differ += choices[0] != choices[1]
    assert differ


def test_a_fork_stops_at_the_horizon_with_the_seats_standing(box):
    game = at_turn(box, 2, 3, 5)
    view = game.views[game.pending().seat]
    judge = resolve("greedy")
    stops = []

    def pick(v, d, turns):
        stops.append((v.seat, turns))
        return None

    value = play_out(view, random.Random(1), Driver(view.seat, pick, judge, judge, horizon=2))
    mine = [turns for seat, turns in stops if seat == view.seat]
    assert mine == [0, 1]  # the searched question and the next; the one after is the horizon
    assert isinstance(value, float)
    whole = play_out(view, random.Random(1), Driver(view.seat, pick, judge, judge, horizon=0))
    assert whole == int(whole)  # played to the end: the final margin, in whole VP
    assert margin([30, 41, 12], 1) == 11 and margin([30, 41, 12], 0) == -11
    assert issubclass(Horizon, Exception)


def test_a_node_below_the_root_with_every_option_tried_is_searched_by_ucb(box):
    # At the other player's turn, late in a round, there are few options: once all are tried
    # the node is searched among them, however much its visits would widen it.
    bot = resolve("mcts(iterations=12, width=1, horizon=1)")
    for seed in (0, 1):
        assert play_game(box, [bot, resolve("greedy")], seed).decisions


class Clumsy(Strategy):
    """A search whose forks go wrong at another seat's turn: a policy that raises, or one that
    answers what was never offered."""

    name, forks = "clumsy", True

    def __init__(self, fault: str) -> None:
        self.fault = fault

    def choose_turn(self, view, decision):
        fault = self.fault

        class Policy(Strategy):
            def choose_turn(self, v, d):
                if v.seat == view.seat:
                    return d.options[0]
                if fault == "raise":
                    raise RuntimeError("the policy broke")
                return "not an option"

        view.fork().play([Policy()] * view.n_players)
        return decision.options[0]


@pytest.mark.parametrize("fault, error", [("raise", "RuntimeError"),
                                          ("illegal", "IllegalChoice")])
def test_a_search_that_fails_inside_its_fork_is_blamed_not_the_seat_of_the_fork(
        fault, error, tmp_path):
    experiment = Experiment(games=2, players=[3], strategies=["clumsy", "random", "random"],
                            seed=4, jobs=1, seats="fixed")
    start_run(experiment, tmp_path / "run", strategies={"clumsy": Clumsy(fault)})
    failures = [json.loads(line) for line in
                (tmp_path / "run" / "failures.jsonl").read_text().splitlines()]
    assert len(failures) == 2
    for failure in failures:
        blamed = (failure["strategy"], failure["seat"], failure["decision"])
        assert blamed == ("clumsy", 0, "turn")
        assert error in failure["error"]


def test_a_budget_in_seconds_plays_a_game(box):
    result = play_game(box, [resolve("mcts(seconds=0.005, width=2)"), resolve("basic")], 1)
    assert result.strategies[0] == "mcts(seconds=0.005, width=2)"


@pytest.mark.parametrize("spec, message", [
    ("mcts(rollout='mcts')", "rollout 'mcts': expected one of heuristic, distilled, basic"),
    ("mcts(iterations=0)", "iterations"),
    ("mcts(horizon=-1)", "horizon"),
    ("mcts(depth=3)", "has no parameter 'depth'"),
    ("lookahead(samples=0)", "samples"),
    ("lookahead(palaces=-1)", "palaces"),
    ("mcts(root='tree')", "root"),
    ("mcts(kinds='turn,bidding')", "bidding"),
    ("mcts(root='halving', seconds=1)", "seconds"),
    ("mcts(leaf='model')", "horizon"),
    ("mcts(leaf='oracle', horizon=1)", "leaf"),
    ("mcts(judge='basic')", "judge 'basic': expected one of heuristic, distilled"),
    ("mcts(last=-1)", "last must not be negative"),
    ("mcts(leaf='model', horizon=2, model='/no/such/file.npz')",
     r"^strategy 'mcts': model file /no/such/file.npz: no such file$"),
    ("mcts(iterations='a')", r"^strategy 'mcts': parameter 'iterations': expected a whole "
                             r"number, not 'a'$"),
    ("mcts(iterations=[1])", r"^strategy 'mcts': parameter 'iterations': expected a whole "
                             r"number, not \[1\]$"),
    ("mcts(iterations=1.5)", r"'iterations': expected a whole number, not 1.5$"),
    ("mcts(iterations=True)", r"'iterations': expected a whole number, not True$"),
    ("mcts(exploration='high')", r"'exploration': expected a number, not 'high'$"),
    ("mcts(root=1)", r"^strategy 'mcts': parameter 'root': expected text, not 1$"),
    ("lookahead(width=None)", r"^strategy 'lookahead': parameter 'width': expected a whole"),
    ("rollout(rollouts=2.5)", r"^strategy 'rollout': parameter 'rollouts': expected a whole"),
    ("rollout(policy=3)", r"^strategy 'rollout': parameter 'policy': expected text, not 3$"),
    ("value(samples=False)", r"^strategy 'value': parameter 'samples': expected a whole number"),
    ("mcts(foo=1)", r"^strategy 'mcts' has no parameter 'foo'; its parameters: iterations, "
                    r"seconds, .*, last, jobs; and the heuristic's: patience, vp, .*, unrest$"),
    ("mcts(jobs=0)", "jobs=0: expected at least 1"),
    ("mcts(jobs=2)", "root='halving' and leaf='standing' only"),
    ("mcts(root='halving', leaf='model', horizon=2, jobs=2)", "leaf='standing' only"),
])
def test_bad_parameters_are_refused_naming_them(spec, message):
    with pytest.raises(UnknownStrategy, match=message):
        resolve(spec)


def test_a_whole_float_is_a_whole_number_and_an_int_is_a_number():
    bot = resolve("mcts(iterations=2.0, exploration=2)")
    assert bot.iterations == 2 and bot.exploration == 2.0


HALVING = "mcts(root='halving', iterations=8, width=4, horizon=1)"


def test_halving_tries_every_candidate_on_the_same_deals_and_keeps_to_its_budget(box, monkeypatch):
    from zsim.strategies import mcts

    game = at_turn(box, 2, 6, 9)
    view = game.views[game.pending().seat]
    tried = []

    def spy(v, rng, driver):
        seed = rng.getrandbits(64)
        tried.append((driver.first, seed))
        return float(hash((driver.first, seed)) % 7)

    monkeypatch.setattr(mcts, "play_out", spy)
    choice = resolve(HALVING).choose(view, game.pending())
    deals: dict = {}
    for option, seed in tried:
        deals.setdefault(option, []).append(seed)
    first_round = [seeds[:1] for seeds in deals.values()]
    assert len(deals) == 4 and all(seeds == first_round[0] for seeds in first_round)
    finalists = [o for o, seeds in deals.items() if len(seeds) > 1]
    assert len(finalists) == 2 and deals[finalists[0]] == deals[finalists[1]]
    assert choice in finalists and len(tried) <= 8


@pytest.mark.parametrize("width, iterations, deals", [
    (8, 12, [8, 4]),  # 8 + 4 + 2 would overrun 12: the best of the last 4 on two deals
    (8, 24, [8, 4, 4, 2, 2, 2, 2]),  # room for every round: 1, 2 then 4 deals a candidate
    (6, 12, [6, 3, 2]),
    (8, 5, [8]),  # under one playout a candidate: each is still tried once
    (8, 11, [8]),  # 3 left for 4 candidates: the best on the first deal
])
def test_halving_spends_no_more_playouts_than_its_iterations(box, monkeypatch, width,
                                                              iterations, deals):
    """Whatever the width, a halving root spends at most ``iterations`` playouts, except that
    every candidate is tried once, and plays each round it begins for every candidate left;
    it chooses the best mean among the candidates of the last deal."""
    from zsim.strategies import mcts

    game = at_turn(box, 2, 6, 9)
    decision = game.pending()
    assert len(decision.options) >= 8  # the position offers enough candidates
    tried: list = []

    def spy(v, rng, driver):
        seed = rng.getrandbits(64)
        tried.append((driver.first, seed))
        return float(hash((driver.first, seed)) % 7)

    monkeypatch.setattr(mcts, "play_out", spy)
    bot = resolve(f"mcts(root='halving', iterations={iterations}, width={width}, horizon=1)")
    choice = bot.choose(game.views[decision.seat], decision)
    seeds = list(dict.fromkeys(seed for _, seed in tried))
    assert [sum(s == seed for _, s in tried) for seed in seeds] == deals
    assert len(tried) == sum(deals) <= max(iterations, width)
    values: dict = {}
    for option, seed in tried:
        values.setdefault(option, []).append(hash((option, seed)) % 7)
    last = [o for o, s in tried if s == seeds[-1]]
    assert choice in last
    assert all(sum(values[choice]) / len(values[choice]) >= sum(values[o]) / len(values[o])
               for o in last)


@pytest.mark.parametrize("kinds, searched", [("turn", {"turn"}),
                                             ("all", {"turn", "start_tile", "reward"})])
def test_a_search_answers_the_kinds_it_is_given(box, kinds, searched, monkeypatch):
    from zsim.strategies import mcts

    asked: set[str] = set()
    search = mcts.MctsStrategy.search

    def spy(self, view, decision):
        asked.add(decision.kind)
        return search(self, view, decision)

    monkeypatch.setattr(mcts.MctsStrategy, "search", spy)
    bot = resolve(f"mcts(root='halving', iterations=2, width=2, horizon=1, kinds='{kinds}')")
    play_game(box, [bot, resolve("greedy")], 3)
    assert searched <= asked and asked <= set(mcts.SEARCHABLE) | {"turn"}
    if kinds == "turn":
        assert asked == {"turn"}


@pytest.mark.parametrize("kinds", ["turn", "all"])
def test_last_searches_the_seats_last_turns_only_and_takes_the_judges_favourite_before(
        box, monkeypatch, kinds):
    """``last=3``: every fork is played from a question with at most 3 cards left to play (and
    some are), and every earlier question is answered with the judge's favourite, no fork."""
    from zsim.strategies import mcts

    forked: list[int] = []
    early: list[tuple] = []
    real_play_out, real_search = mcts.play_out, mcts.MctsStrategy.search

    def spy_play_out(view, rng, driver):
        forked.append(view.turns_left)
        return real_play_out(view, rng, driver)

    def spy_search(self, view, decision):
        answer = real_search(self, view, decision)
        if view.turns_left > 3 and not (decision.kind == "turn" and
                                        mcts.nothing_to_weigh(decision)):
            judge = search.judge_of("distilled", self.params)
            early.append((answer, search.preferred(judge, view, decision, 1)[0]))
        return answer

    monkeypatch.setattr(mcts, "play_out", spy_play_out)
    monkeypatch.setattr(mcts.MctsStrategy, "search", spy_search)
    spec = f"root='halving', iterations=2, width=2, judge='distilled', kinds='{kinds}'"
    play_game(box, [resolve(f"mcts({spec}, last=3)"), resolve("greedy")], 4)
    assert 3 in forked and set(forked) <= {0, 1, 2, 3}  # 0: questions after the last card
    assert len(early) > 20 and all(answer == favourite for answer, favourite in early)
    forked.clear()
    play_game(box, [resolve(f"mcts({spec})"), resolve("greedy")], 4)
    assert max(forked) > 20  # without ``last``, the first turns are searched too


def test_a_last_beyond_the_game_searches_every_turn_as_without_it(box):
    spec = "root='halving', iterations=2, width=2, horizon=1"
    games = [play_game(box, [resolve(f"mcts({spec}{extra})"), resolve("greedy")], 8)
             for extra in ("", ", last=99")]
    assert games[0].scores == games[1].scores and games[0].decisions == games[1].decisions


def test_a_flat_search_on_two_processes_plays_the_games_it_plays_on_one(box, tmp_path,
                                                                       monkeypatch):
    # root parallelism: a round's playouts are played by a pool of processes, each deal dealt
    # and saved by the search, and added up in order: the same choices, whatever the jobs
    from zsim import cores
    from zsim.strategies import rootpool

    # a run played in this test process earlier (one job, in process) marked its cores taken
    monkeypatch.setattr(cores, "_TAKEN", [False])

    spec = "mcts(judge='distilled', root='halving', width=4, iterations=4, last=3{})"
    one = play_game(box, [resolve(spec.format("")), resolve("greedy")], 21)
    two = play_game(box, [resolve(spec.format(", jobs=2")), resolve("greedy")], 21)
    assert one.decisions == two.decisions and one.scores == two.scores
    assert rootpool._POOLS, "the playouts were shared with a pool"
    # in a batch run each worker plays its own playouts (the run's cores are taken): the
    # same tables as one process
    runs = {}
    for jobs in ("", ", jobs=2"):
        out = runs[jobs] = tmp_path / f"run{len(runs)}"
        start_run(Experiment(games=2, players=[2], strategies=[spec.format(jobs), "greedy"],
                             seed=5, jobs=1), out)
    tables_one, tables_two = (pd.read_parquet(runs[j] / "players.parquet") for j in runs)
    columns = [c for c in tables_one.columns if c not in ("run_id", "strategy")]
    pd.testing.assert_frame_equal(tables_one[columns], tables_two[columns])
