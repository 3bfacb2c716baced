"""The step record of a game, its page, and the commands that write it."""

from __future__ import annotations

import base64
import copy
import gzip
import json
from collections import Counter

import pytest
from click.testing import CliRunner

from zsim.cli import main
from zsim.game import Game, play_game
from zsim.lineup import seat_game
from zsim.runner import Experiment
from zsim.runner.batch import start_run
from zsim.strategies.heuristic import HeuristicStrategy
from zsim.strategies.registry import resolve
from zsim.viewer.page import render
from zsim.viewer.record import record_game

LINEUPS = [
    (["greedy", "builder", "random", "basic"], 4, False),
    (["alchemist", "random", "governor"], 3, False),
    (["mausoleum"], 2, True),  # against Li Si
]


@pytest.fixture(scope="module", params=LINEUPS, ids=["4p", "3p", "solo"])
def recorded(request):
    names, players, solo = request.param
    seated = seat_game(names, players, seed=17, solo=solo, lisi_level=3)
    result, record = record_game(seated)
    return seat_game(names, players, seed=17, solo=solo, lisi_level=3), result, record


def assert_same_game(seated, result):
    """The game ``seated`` plays unrecorded is the recorded one, ``result``."""
    plain = play_game(seated.box, seated.strategies, seated.seed, seated.options, narrate=True)
    assert plain.scores == result.scores and plain.decisions == result.decisions
    assert (plain.walls, plain.rewards, plain.abilities, plain.tiles) == (
        result.walls, result.rewards, result.abilities, result.tiles)
    assert plain.log == result.log


def test_recording_a_game_does_not_change_it(recorded):
    seated, result, _ = recorded
    assert_same_game(seated, result)


@pytest.mark.parametrize("bot, valued", [
    ("mcts(iterations=2)", True),
    # these weigh a turn's options on forks only: nothing for the record to show
    ("lookahead", False), ("mcts(root='halving', iterations=2, width=2, kinds='all')", False)])
def test_a_search_bot_is_recorded_and_plays_as_unrecorded(bot, valued):
    """The record asks the deciding bot for its values at each of its questions, while the game
    stands at the question: a search forks from there (it once forked a game that had moved
    past it, and failed on an option of another question)."""
    names, seed = [bot, "greedy"], 5
    result, record = record_game(seat_game(names, 2, seed=seed))
    assert_same_game(seat_game(names, 2, seed=seed), result)
    searched = [step for step in record["steps"] if step["kind"] == "decision"
                and step["by"] == 0 and step["decision"] == "turn" and len(step["options"]) > 1]
    shown = [step for step in searched if step["values"] is not None]
    if valued:  # a turn with nothing to weigh shows none
        assert len(shown) >= len(searched) / 2 > 0


def test_the_record_holds_every_line_and_decision_and_ends_on_the_result(recorded):
    _, result, record = recorded
    assert json.loads(json.dumps(record)) == record  # plain JSON data
    steps = record["steps"]
    assert [s["text"] for s in steps if s["kind"] == "say"] == result.log
    decisions = [s for s in steps if s["kind"] == "decision"]
    assert len(decisions) == result.decisions
    for step in decisions:
        assert 0 <= step["chosen"] < len(step["options"]) >= 2
        assert step["values"] is None or len(step["values"]) == len(step["options"])
    assert [s["state"] for s in steps] == sorted(s["state"] for s in steps)
    assert {s["state"] for s in steps} == set(range(len(record["states"])))
    final = steps[-1]
    assert final["kind"] == "final" and final["scores"] == result.scores
    walls = Counter(seat for seat, *_ in result.walls)
    last = record["states"][final["state"]]
    assert Counter(h for slots in last["walls"] for h in slots if h >= 0) == walls
    lisi = 1 if record["meta"]["solo"] else None  # his Palace tiles score only at the end
    for seat, board in enumerate(last["players"]):
        player = record["boards"][board]
        assert seat == lisi or sum(player["vp"].values()) == sum(
            result.scores[seat][c] for c in record["meta"]["in_game_categories"])
    rounds = [s["round"] for s in steps]
    assert rounds == sorted(rounds) and rounds[-1] == record["meta"]["rounds"]


def test_heuristic_bots_give_their_value_of_each_option_and_choose_the_best(recorded):
    _, _, record = recorded
    players = record["meta"]["players"]
    valued = 0
    for step in record["steps"]:
        if step["kind"] != "decision":
            continue
        strategy = players[step["by"]]["strategy"]
        if strategy in ("random", "basic") or strategy.startswith("lisi"):
            assert step["values"] is None
        elif step["values"] is not None:
            valued += 1
            values = [v for v in step["values"] if v is not None]
            # the archetypes play on the scorer, which chooses among the heuristic's few
            # favourites only (docs/strategies.md): the plain heuristic picks the best of all
            if type(resolve(strategy)) is HeuristicStrategy:
                assert step["values"][step["chosen"]] == max(values)
    assert valued > 20


def test_every_decision_step_offers_the_position_at_its_question(recorded):
    seated, _, record = recorded
    texts = gzip.decompress(base64.b64decode(record["positions"])).decode().split("\x1e")
    decisions = [step for step in record["steps"] if step["kind"] == "decision"]
    assert [step["position"] for step in decisions] == list(range(len(texts)))
    assert all("position" not in step for step in record["steps"] if step["kind"] != "decision")
    for step in decisions[::7]:  # a sample: each one a game read back at that very question
        game = Game.from_text(texts[step["position"]], seated.box)
        decision = game.pending()
        assert decision.kind == step["decision"] and decision.seat == step["by"]
        assert json.loads(texts[step["position"]])["question"]["options"] == step["options"]
    # the last question's position, played on with the recorded answers, ends as the game did
    last = decisions[-1]
    game = Game.from_text(texts[last["position"]], seated.box)
    game.answer(game.pending().options[last["chosen"]])
    assert game.over and game.result().scores == record["meta"]["result"]["scores"]


def test_the_page_is_one_offline_file_with_the_record_inside(recorded):
    record = copy.deepcopy(recorded[2])
    record["steps"][0]["text"] = "</script><script>alert(1)</script>"
    page = render(record)
    opening = '<script id="record" type="application/json">'
    start = page.index(opening) + len(opening)
    end = page.index("</script>", start)
    assert json.loads(page[start:end]) == record  # nothing in the game can close the element
    assert "http://" not in page.replace("http://www.w3.org/2000/svg", "")
    assert "https://" not in page and " src=" not in page and "<link" not in page


@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("runs") / "small"
    start_run(Experiment(games=4, players=[2, 3], strategies=["greedy", "random"], seed=2,
                         jobs=1), out)
    return out


def _embedded(path):
    page = path.read_text(encoding="utf-8")
    start = page.index('type="application/json">') + len('type="application/json">')
    return json.loads(page[start:page.index("</script>", start)])


def test_play_replay_and_view_write_the_same_game_page(small_run, tmp_path):
    runner = CliRunner()
    out = runner.invoke(main, ["replay", str(small_run), "--game", "1", "--html",
                               str(tmp_path / "replay.html")])
    assert out.exit_code == 0, out.output
    assert "vp_total" in out.output and "=== Round 1 ===" not in out.output
    plan = Experiment(games=4, players=[2, 3], strategies=["greedy", "random"], seed=2
                      ).schedule().plan(1)
    args = ["play", "-n", str(plan.n_players), "--seed", str(plan.seed)]
    for name in plan.strategies:
        args += ["-s", name]
    out = runner.invoke(main, [*args, "--html", str(tmp_path / "play.html")])
    assert out.exit_code == 0, out.output
    out = runner.invoke(main, ["view", str(small_run), "--game", "1"])
    assert out.exit_code == 0, out.output
    viewed = small_run / "view" / "game-1.html"
    pages = [_embedded(p) for p in (tmp_path / "replay.html", tmp_path / "play.html", viewed)]
    assert pages[0] == pages[1] == pages[2]
    assert pages[0]["meta"]["seed"] == plan.seed


def test_a_page_that_cannot_be_written_is_a_clear_error(tmp_path):
    (tmp_path / "file").write_text("not a folder")
    page = tmp_path / "file" / "game.html"
    out = CliRunner().invoke(main, ["play", "-n", "2", "--html", str(page)])
    assert out.exit_code == 1 and f"{page}: cannot be written" in out.output


BOOM = '''
from zsim.strategies.base import Strategy


class Boom(Strategy):
    name = "boom"

    def choose(self, view, decision):
        if view.round == 2:
            raise RuntimeError("boom in round 2")
        return decision.options[0]
'''


def test_a_failed_game_is_shown_up_to_its_failure(tmp_path):
    bot = tmp_path / "boom.py"
    bot.write_text(BOOM)
    page = tmp_path / "failed.html"
    out = CliRunner().invoke(main, ["play", "-n", "2", "-s", f"{bot}:Boom", "-s", "random",
                                    "--html", str(page)])
    assert out.exit_code == 1
    assert "(seat 0) failed" in out.output and "RuntimeError: boom in round 2" in out.output
    assert str(page) in out.output and "Traceback" not in out.output
    record = _embedded(page)
    last = record["steps"][-1]
    assert last["kind"] == "failed" and "boom in round 2" in last["text"]
    assert last["round"] == 2 and record["meta"]["result"] is None
