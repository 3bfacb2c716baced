"""The playtest app (``zsim serve``): its games, what each page may see, and its robustness.

The server runs for real (uvicorn on a loopback port, games in worker processes); the requests
are plain HTTP. The browser test is ``test_serve_browser.py``.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import re
import subprocess
import sys
import threading
import time
from typing import Any

import pytest
from click.testing import CliRunner
from serving import call, new_game, running

from zsim.cli import main
from zsim.components import default_box_dir, load_box
from zsim.components.schema import SUITS
from zsim.game import Game
from zsim.position import PositionError
from zsim.serve.adapter import SECRET_KINDS, option_words, targets
from zsim.serve.live import LiveGame
from zsim.serve.replay import (
    Replay,
    ReplayError,
    ReplayMismatch,
    Setup,
    load,
    replayed,
    viewer_record,
)
from zsim.serve.seatview import SECRET, seat_step, seat_table, suits_of
from zsim.viewer.record import game_meta, table_snapshot

BOTS = '''
import os, sys, time
from zsim.strategies.base import Strategy


class Sleeper(Strategy):
    """Never answers in time."""
    def choose(self, view, decision):
        time.sleep(600)


class Exits(Strategy):
    """Calls ``sys.exit`` at its first turn."""
    def choose(self, view, decision):
        if decision.kind == "turn":
            sys.exit(3)
        return decision.options[0]


class Dies(Strategy):
    """Ends its process at its first turn, as a crash would."""
    def choose(self, view, decision):
        if decision.kind == "turn":
            os._exit(0)
        return decision.options[0]


class Broken(Strategy):
    """Fails at its first turn."""
    def choose(self, view, decision):
        if decision.kind == "turn":
            raise RuntimeError("out of ideas")
        return decision.options[0]
'''


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with running(tmp_path_factory.mktemp("games")) as (base, sessions):
        yield base, sessions


def play(base: str, game: str, rng: random.Random, answers: int | None = None,
         responses: list | None = None) -> dict[str, Any]:
    """Answer the questions of ``game`` with random options (``answers`` of them, or to the
    end) and return the last payload; every payload is appended to ``responses``."""
    status, payload = call(f"{base}/api/games/{game}")
    assert status == 200, payload
    if responses is not None:
        responses.append(payload)
    given = 0
    while payload["question"] is not None and (answers is None or given < answers):
        question = payload["question"]
        status, payload = call(f"{base}/api/games/{game}/answer?after={payload['next']}"
                               f"&epoch={payload['epoch']}",
                               {"number": question["number"],
                                "option": rng.randrange(len(question["options"]))})
        assert status == 200, payload
        if responses is not None:
            responses.append(payload)
        given += 1
    return payload


# --- a game as data: its replay ----------------------------------------------------------------


def random_game(setup: Setup, seed: int = 0) -> LiveGame:
    live = LiveGame(Replay(setup))
    rng = random.Random(seed)
    while live.pending is not None:
        question = live.question()
        live.answer(question["number"], rng.randrange(len(question["options"])))
    return live


def test_a_replay_plays_the_same_game_again_without_asking_the_bots():
    setup = Setup(players=3, seats=("human", "greedy", "builder"), seed=11,
                  variants=("rules.palace_vp=8",))
    live = random_game(setup)
    assert live.finished and live.failure is None
    saved = Replay.from_json(json.loads(json.dumps(Replay(setup, live.saved).to_json())), "x")
    again = LiveGame(saved)
    assert again.finished and again.saved == live.saved
    assert again.game.result().scores == live.game.result().scores
    record = viewer_record(saved)  # what zsim view FILE shows
    assert record["steps"][-1]["scores"] == live.game.result().scores
    assert record["meta"]["players"][0]["strategy"] == "human"
    assert "(outside)" not in json.dumps(record)
    # the engine alone, every seat answered from the file, gives the same score sheet
    seated = replayed(saved)
    result = Game(seated.box, seated.strategies, seated.seed, seated.options).play()
    assert result.scores == live.game.result().scores


def test_a_replay_that_no_longer_fits_names_the_answer(tmp_path):
    setup = Setup(players=2, seats=("human", "random"), seed=3)
    live = random_game(setup)
    answers = list(live.saved)
    seat, _ = answers[5]
    answers[5] = (seat, ["nonsense", 99])
    with pytest.raises(ReplayMismatch, match=r"saved answer 6 \(\['nonsense', 99\]\)"):
        LiveGame(Replay(setup, answers))
    path = tmp_path / "broken.json"
    for text, message in [("{", "not JSON"), ('{"format": "x"}', "not a zsim replay"),
                          ('{"format": "zsim-replay", "version": 9}', "version 9"),
                          ('{"format": "zsim-replay", "version": 1, "answers": [1]}',
                           "list of \\[seat, answer\\] pairs"),
                          ('{"format": "zsim-replay", "version": 1, "setup": {}}',
                           "setup has no 'players'")]:
        path.write_text(text)
        with pytest.raises(ReplayError, match=message):
            load(path)


def test_zsim_view_writes_the_page_of_a_saved_game(tmp_path):
    setup = Setup(players=2, seats=("human", "greedy"), seed=4)
    live = random_game(setup)
    path = tmp_path / "game.json"
    Replay(setup, live.saved[:60]).save(path)  # saved half-way
    result = CliRunner().invoke(main, ["view", str(path)])
    assert result.exit_code == 0, result.output
    page = (tmp_path / "game.html").read_text()
    assert "The game was saved here, after 60 answers." in page
    path.write_text("[1, 2]")
    result = CliRunner().invoke(main, ["view", str(path)])
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [
        f"Error: {path}: not a zsim replay (no \"format\": \"zsim-replay\")"]


# --- what a seat may see -------------------------------------------------------------------


def test_a_seat_sees_its_own_hand_and_the_backs_of_the_others():
    setup = Setup(players=3, seats=("human", "human", "greedy"), seed=8)
    game = LiveGame(Replay(setup, random_game(setup, seed=1).saved[:40])).game
    full = table_snapshot(game)
    suits = suits_of(game_meta(game, None))
    for seat in (0, 1, None):
        shown = seat_table(full, seat, suits)
        for other, board in enumerate(shown["players"]):
            if other == seat:
                assert board == full["players"][other]
                continue
            assert board["hand"] is None
            assert board["hand_backs"] == [
                sum(game.t.card_type[c] == suit for c in full["players"][other]["hand"])
                for suit in range(len(SUITS))]
            assert {k: v for k, v in board.items() if k not in ("hand", "hand_backs")} == \
                {k: v for k, v in full["players"][other].items() if k != "hand"}
        assert {k: v for k, v in shown.items() if k != "players"} == \
            {k: v for k, v in full.items() if k != "players"}


def test_what_a_seat_is_shown_does_not_change_when_the_hidden_cards_are_redealt():
    """At each human question, the table, question and options the page gets are the same in
    two determinised forks of the game (every card the seat cannot see redealt at random)."""
    setup = Setup(players=3, seats=("human", "greedy", "random"), seed=19)
    live = LiveGame(Replay(setup))
    rng = random.Random(2)
    suits = suits_of(game_meta(live.game, None))
    checked = 0
    while live.pending is not None:
        question = live.question()
        shown = seat_table(table_snapshot(live.game), 0, suits)
        for draw in range(2):
            fork = live.game.fork(0, random.Random(draw))
            decision = fork.pending()
            assert seat_table(table_snapshot(fork), 0, suits) == shown
            assert [o for o in decision.options] == live.pending.options
            checked += 1
        live.answer(question["number"], rng.randrange(len(question["options"])))
    assert checked > 100


def test_another_players_starting_tile_is_shown_only_once_chosen():
    live = LiveGame(Replay(Setup(players=2, seats=("human", "greedy"), seed=2)))
    live.answer(live.question()["number"], 0)
    chosen = [s for s in live.recorder.steps
              if s["kind"] == "decision" and s["decision"] in SECRET_KINDS]
    assert {s["by"] for s in chosen} == {0, 1}
    for step in chosen:
        mine = seat_step(step, step["by"])
        assert mine["chosen"] == step["options"][step["chosen"]]
        assert seat_step(step, 1 - step["by"])["chosen"] == SECRET
        assert seat_step(step, None)["chosen"] == SECRET


def test_every_option_target_names_something_on_the_table():
    """The board frames what an option acts on: each target names a hand card, a tableau
    region or card of the seat asked, a board region, a Governor slot, a Wall slot or a
    Mausoleum spot that is there."""
    seen: set[str] = set()
    for seed in range(23, 33):  # games until every kind of target has come up
        if {"hand", "tableau", "court", "region", "wall"} <= seen:
            break
        _check_targets(Setup(players=2, seats=("human", "basic"), seed=seed), seen)
    assert {"hand", "tableau", "court", "region", "wall"} <= seen


def _check_targets(setup: Setup, seen: set[str]) -> None:
    live = LiveGame(Replay(setup))
    rng = random.Random(5)
    while live.pending is not None:
        decision, state = live.pending, live.game.state
        me = state.players[decision.seat]
        for option in decision.options:
            for target in targets(decision, option):
                seen.add(target["on"])
                where = target["on"]
                if where in ("hand", "tableau", "tableau_card"):
                    assert target["seat"] == decision.seat
                if where == "hand":
                    assert target["card"] in state.hands[decision.seat]
                elif where == "tableau_card":
                    assert any(target["card"] in cards for cards in me.tableau)
                elif where in ("tableau", "region"):
                    assert 0 <= target["region"] < 5
                elif where == "wall":
                    assert 0 <= target["slot"] < len(state.walls[target["section"]].slots)
                elif where == "spot":
                    assert 0 <= target["spot"] < len(state.mausoleum)
                elif where == "governor_slot":
                    assert 0 <= target["slot"] < len(state.governor_slots[target["region"]])
                else:
                    assert where == "court"
        question = live.question()
        live.answer(question["number"], rng.randrange(len(question["options"])))


# --- the scan of every response against the true hidden cards --------------------------------

CARD_KEYS = frozenset({"hand", "court", "tableau", "emperor", "masters", "card"})


def hidden_cards(game: Game) -> dict[int | None, set[int]]:
    """Per seat (None: no seat), the Unification cards it cannot see now: the decks and the
    other hands (Li Si's face-down deck is his hand)."""
    state = game.state
    decks = {card for deck in state.decks for card in deck}
    hands = [set(hand) for hand in state.hands]
    return {seat: decks.union(*(hands[k] for k in range(game.n) if k != seat))
            for seat in (None, *range(game.n))}


class HiddenAtEachStep:
    """A listener beside the step record's: the hidden cards when each step is recorded."""

    def __init__(self) -> None:
        self.hidden: list[dict[int | None, set[int]]] = []

    def event(self, game: Game, kind: str, data: dict[str, Any]) -> None:
        self.hidden.append(hidden_cards(game))


def true_hidden(replay: Replay) -> tuple[list[dict[int | None, set[int]]], Any, Game]:
    """Play the replay again in this process, noting the hidden cards at every step."""
    seated = replayed(replay)
    game = Game(seated.box, seated.strategies, seated.seed, seated.options, narrate=True)
    spy = HiddenAtEachStep()
    game.listen(spy, ("say", "decision"))
    result = game.play()
    spy.hidden.append(hidden_cards(game))  # the final scoring's step
    return spy.hidden, result, game


def leaks(value: Any, hidden: set[int], names: re.Pattern[str] | None,
          cards: bool = False) -> list[str]:
    """Every hidden card in a JSON value: as an int anywhere under a key naming cards, or by
    its name in any text."""
    found = []
    if isinstance(value, dict):
        for key, item in value.items():
            under = cards or key in CARD_KEYS
            if under and key.isdigit() and int(key) in hidden:
                found.append(f"card {key} as a key")
            if names is not None and names.search(key):
                found.append(f"{names.search(key)[0]!r} in key {key!r}")
            found += leaks(item, hidden, names, under)
    elif isinstance(value, list):
        for item in value:
            found += leaks(item, hidden, names, cards)
    elif isinstance(value, bool) or value is None:
        pass
    elif isinstance(value, int):
        if cards and value in hidden:
            found.append(f"card {value}")
    elif isinstance(value, str) and names is not None:
        found += [f"{m[0]!r} in {value!r}" for m in names.finditer(value)]
    return found


def scan(payload: dict[str, Any], hidden: list[dict[int | None, set[int]]],
         card_name: tuple[str, ...], humans: list[int]) -> list[str]:
    """The leaks of one response: each step against the cards hidden when it was recorded
    (from the seat the steps are shown to; the answer of a decision against those hidden once
    it acted, as a card played is shown as it is played), the rest against those hidden now
    (from the seat to play). The meta data's card catalogue (the box's every card, the same
    for every game) is not scanned."""

    def pattern(cards: set[int]) -> re.Pattern[str] | None:
        if not cards:
            return None
        return re.compile(r"\b(?:" + "|".join(re.escape(card_name[c]) for c in cards) + r")\b")

    found = []
    alone = humans[0] if len(humans) == 1 else None
    for offset, step in enumerate(payload["steps"]):
        index = payload["from"] + offset
        cards = hidden[index][alone]
        names = pattern(cards)
        shown = {k: v for k, v in step.items() if k != "chosen"}
        found += leaks(shown, cards, names) + leaks(payload["tables"][step["state"]], cards, names)
        if "chosen" in step:  # an answer shows what it plays: scanned once it acted
            after = hidden[min(index + 1, len(hidden) - 1)][alone]
            found += leaks(step["chosen"], after, pattern(after))
    now = hidden[min(payload["next"], len(hidden) - 1)][payload["viewer"]]
    rest = {k: v for k, v in payload.items() if k not in ("steps", "tables", "meta")}
    if payload["meta"] is not None:
        rest["meta"] = {k: v for k, v in payload["meta"].items() if k != "cards"}
    found += leaks(rest, now, pattern(now))
    for lisi in _mappings(payload, "lisi"):  # Li Si's action deck: its size only
        assert isinstance(lisi["deck"], int)
    return found


def _mappings(value: Any, key: str) -> list[dict[str, Any]]:
    if isinstance(value, dict):
        return ([value[key]] if isinstance(value.get(key), dict) else []) + [
            m for item in value.values() for m in _mappings(item, key)]
    if isinstance(value, list):
        return [m for item in value for m in _mappings(item, key)]
    return []


@pytest.mark.parametrize("setup", [
    {"players": 2, "seats": ["human", "greedy"], "seed": 31},
    {"players": 3, "seats": ["human", "greedy", "human"], "seed": 32},
    {"players": 2, "solo": True, "lisi_level": 2, "seats": ["human"], "seed": 33},
], ids=["against-greedy", "hot-seat", "solo"])
def test_no_response_of_a_whole_game_holds_a_card_its_seat_cannot_see(server, setup, tmp_path):
    base, _ = server
    game = new_game(base, **setup)
    responses: list[dict[str, Any]] = []
    rng = random.Random(7)
    play(base, game, rng, answers=20, responses=responses)
    last = play(base, game, rng, responses=responses)  # it starts with a reload of the page
    assert last["status"] == "over"
    status, replay_json = call(f"{base}/api/games/{game}/replay")
    assert status == 200
    replay = Replay.from_json(replay_json, "the served replay")
    hidden, result, engine = true_hidden(replay)
    assert len(hidden) == last["next"]  # one hidden set per step of the record
    card_name = engine.t.card_name
    humans = last["humans"]
    found = [leak for payload in responses for leak in scan(payload, hidden, card_name, humans)]
    assert found == []
    # the page's score sheet is the engine's
    assert last["meta"]["result"]["scores"] == result.scores
    assert last["steps"][-1]["kind"] == "final"
    assert last["steps"][-1]["scores"] == result.scores
    checked = sum(len(payload["steps"]) for payload in responses)
    (tmp_path / "scan.txt").write_text(f"{len(responses)} responses, {checked} steps, "
                                       f"{sum(len(h[None]) for h in hidden)} hidden cards\n")
    print(f"scan: {len(responses)} responses, {checked} steps")


def test_the_scan_finds_a_hidden_card_sent_to_a_page():
    """The scan itself: a whole table (every hand in it) is a leak, as is a name in a text."""
    setup = Setup(players=2, seats=("human", "greedy"), seed=31)
    live = LiveGame(Replay(setup, random_game(setup).saved[:50]))
    hidden = hidden_cards(live.game)
    full = table_snapshot(live.game)
    other = sorted(live.game.state.hands[1])[0]
    names = re.compile(rf"\b{live.game.t.card_name[other]}\b")
    assert f"card {other}" in leaks(full, hidden[0], names)
    assert leaks(seat_table(full, 0, suits_of(game_meta(live.game, None))), hidden[0], names) \
        == []
    assert leaks({"text": f"tucks {live.game.t.card_name[other]} in Qin"}, hidden[0], names)


# --- requests ------------------------------------------------------------------------------


def test_bad_requests_get_a_4xx_and_one_line(server, tmp_path):
    base, _ = server
    game = new_game(base, players=2, seats=["human", "random"], seed=5)
    _, payload = call(f"{base}/api/games/{game}")
    number = payload["question"]["number"]
    missing = tmp_path / "nowhere"
    cases = [
        (call(f"{base}/api/games", raw=b"players=2", method="POST",
              headers={"Content-Type": "application/x-www-form-urlencoded"}),
         415, "send the request as JSON"),
        (call(f"{base}/api/games", raw=b"{", method="POST",
              headers={"Content-Type": "application/json"}), 400, "not JSON"),
        (call(f"{base}/api/games", {"players": 2}), 400, "seats: Field required"),
        (call(f"{base}/api/games", {"players": 5, "seats": ["human"]}), 400, "players:"),
        (call(f"{base}/api/games", {"seats": ["human"], "colour": "red"}), 400, "colour:"),
        (call(f"{base}/api/games", {"players": 3, "seats": ["human", "greedy"]}), 400,
         "seats: 2 given for 3 players"),
        (call(f"{base}/api/games", {"players": 2, "seats": ["human", "gredy"]}), 400,
         "seat 2: no bot is called 'gredy' (did you mean greedy?)"),
        (call(f"{base}/api/games", {"players": 2, "seats": ["human", "mcts(iterations=-1)"]}),
         400, "mcts"),
        (call(f"{base}/api/games", {"players": 2, "seats": ["human", "greedy"],
                                    "variants": ["rules.palace_vpp=8"]}), 400, "palace_vpp"),
        (call(f"{base}/api/games", {"players": 2, "seats": ["human", "greedy"],
                                    "variants": [str(missing / "v.yaml")]}), 400,
         "does not exist"),
        (call(f"{base}/api/games", {"players": 2, "seats": ["human", "greedy"],
                                    "box": str(missing)}), 400, "nowhere"),
        (call(f"{base}/api/games/nosuchgame"), 404, "no game 'nosuchgame'"),
        (call(f"{base}/api/games/bad%24id"), 404, "'bad$id' is not a game id"),
        (call(f"{base}/api/nothing"), 404, "no page /api/nothing"),
        (call(f"{base}/api/games/{game}/answer"), 405, "GET is not allowed"),
        (call(f"{base}/api/games/{game}/answer", {"number": number, "option": 999}), 400,
         "option 999 does not exist"),
        (call(f"{base}/api/games/{game}/answer", {"number": number + 3, "option": 0}), 409,
         f"question {number + 3} is not the one asked"),
        (call(f"{base}/api/games/{game}/answer", {"number": number, "option": "0"}), 400,
         "option: Input should be a valid integer"),
        (call(f"{base}/api/games/{game}/undo", {"number": 1}), 409, "question 1 is not"),
        (call(f"{base}/api/games/{game}/hint", {"bot": "gredy"}), 422, "unknown strategy"),
        (call(f"{base}/api/games/{game}/hint", {"bot": "human"}), 422, "not a bot"),
        (call(f"{base}/api/games/{game}?after=x"), 400, "after='x' is not a whole number"),
    ]
    for (status, answer), expected, message in cases:
        assert status == expected, (message, answer)
        assert message in answer["error"], (message, answer)
        assert "\n" not in answer["error"] and "Traceback" not in answer["error"]
    # a page gets a page that says why
    status, page = call(f"{base}/game/{game}/viewer")
    assert status == 409 and "the game is not over: the full viewer shows every hand" in page
    status, page = call(f"{base}/game/nosuchgame")
    assert status == 404 and "no game &#39;nosuchgame&#39;" in page and 'href="/"' in page
    # a request naming another host is refused (a site cannot reach the app by a name of its)
    status, answer = call(f"{base}/", headers={"Host": "attacker.example"})
    assert status == 400
    # and the game is where it was
    _, after = call(f"{base}/api/games/{game}")
    assert after["question"]["number"] == number


def test_a_request_too_big_or_too_deep_gets_a_4xx_and_echoes_little(server):
    base, _ = server
    deep = call(f"{base}/api/games", raw=b"[" * 50_000, method="POST",
                headers={"Content-Type": "application/json"})
    big = call(f"{base}/api/games", {"players": 2, "seats": ["human", "greedy"],
                                     "variants": ["x" * 70_000]})  # a little over: sent whole
    long_variant = call(f"{base}/api/games", {"players": 2, "seats": ["human", "greedy"],
                                              "variants": ["y" * 60_000]})
    assert deep[0] == 400 and "not JSON" in deep[1]["error"]
    assert big[0] == 413 and "the request is over 64 KiB" in big[1]["error"]
    assert long_variant[0] == 400 and "yyy" in long_variant[1]["error"]
    for _, answer in (deep, big, long_variant):
        assert len(answer["error"]) < 400 and "\n" not in answer["error"]
    # a long message is cut between two words, never inside one
    from zsim.serve.app import _short

    cut = _short("unknown strategy 'x'; available: " + ", ".join(["mausoleum"] * 60), 120)
    assert cut.endswith("mausoleum\u2026") and len(cut) <= 120
    # a body sent in chunks, with no length told, is refused once it is over, too
    connection = http.client.HTTPConnection(base.removeprefix("http://"), timeout=60)
    connection.request("POST", "/api/games", body=iter([b"[" * 1024] * 70),
                       headers={"Content-Type": "application/json"}, encode_chunked=True)
    chunked = connection.getresponse()
    assert chunked.status == 413 and "over 64 KiB" in json.loads(chunked.read())["error"]
    connection.close()
    game = new_game(base, players=2, seats=["human", "random"])  # the server goes on
    too_long = call(f"{base}/api/games/{game}?after={'9' * 5000}x")
    assert too_long[0] == 400 and len(too_long[1]["error"]) < 100


def test_undo_takes_the_game_back_to_a_human_question(server):
    base, _ = server
    game = new_game(base, players=2, seats=["human", "greedy"], seed=41)
    rng = random.Random(3)
    asked = []
    _, payload = call(f"{base}/api/games/{game}")
    for _ in range(12):
        question = payload["question"]
        asked.append(question)
        _, payload = call(f"{base}/api/games/{game}/answer",
                          {"number": question["number"], "option": 0})
    point = next(p for p in payload["undo"] if p["number"] == asked[5]["number"])
    assert point["seat"] == 0 and "\u2192" in point["text"]
    status, back = call(f"{base}/api/games/{game}/undo", {"number": point["number"]})
    assert status == 200
    assert back["question"] == asked[5]
    assert back["epoch"] == payload["epoch"] + 1 and back["from"] == 0
    assert [p["number"] for p in back["undo"]] == [q["number"] for q in reversed(asked[:5])]
    # a page of the epoch before gets the whole game again
    _, stale = call(f"{base}/api/games/{game}?after={payload['next']}&epoch={payload['epoch']}")
    assert stale["from"] == 0 and stale["question"] == asked[5]
    # and the game plays on from there, another way
    last = play(base, game, rng)
    assert last["status"] == "over"


def test_a_hint_gives_the_bots_choice_and_values_and_the_game_stays(server):
    base, sessions = server
    game = new_game(base, players=2, seats=["human", "greedy"], seed=43)
    payload = play(base, game, random.Random(1), answers=4)
    while payload["question"]["kind"] != "turn":
        payload = play(base, game, random.Random(1), answers=1)
    question = payload["question"]
    status, hint = call(f"{base}/api/games/{game}/hint", {"bot": "greedy"})
    assert status == 200, hint
    assert hint["bot"] == "greedy"
    assert len(hint["values"]) == len(question["options"])
    values = [v for v in hint["values"] if v is not None]
    assert hint["values"][hint["choice"]] == max(values)
    # the same bot in the same seat would choose so (the game's own fork, in this process)
    served = call(f"{base}/api/games/{game}/replay")[1]
    assert served["setup"]["seed"] is None  # hidden until the game is over
    live = LiveGame(sessions.get(game).replay)
    assert live.hint("greedy") == hint
    _, after = call(f"{base}/api/games/{game}")
    assert after["question"] == question
    status, hint = call(f"{base}/api/games/{game}/hint", {"bot": "mcts(iterations=4)"})
    assert status == 200 and 0 <= hint["choice"] < len(question["options"])


def test_games_survive_a_reload_and_a_restart_of_the_server(tmp_path):
    folder = tmp_path / "games"
    with running(folder) as (base, _):
        game = new_game(base, players=2, seats=["human", "builder"], seed=47,
                        variants=["rules.palace_vp=8"])
        before = play(base, game, random.Random(2), answers=15)
        _, reloaded = call(f"{base}/api/games/{game}")
        assert reloaded["question"] == before["question"]
        assert reloaded["next"] == before["next"]
    saved = json.loads((folder / f"{game}.json").read_text())
    assert saved["setup"]["variants"] == ["rules.palace_vp=8"]
    with running(folder) as (base, _):
        _, again = call(f"{base}/api/games/{game}")
        assert again["question"] == before["question"]
        assert again["next"] == before["next"]
        status, page = call(f"{base}/")
        assert status == 200 and f'href="/game/{game}"' in page
        last = play(base, game, random.Random(2))
        assert last["status"] == "over"
        status, page = call(f"{base}/game/{game}/viewer")
        assert status == 200 and "Final scoring" in page


def test_several_games_at_once_and_too_many_workers_are_rebuilt(tmp_path):
    with running(tmp_path / "games", max_running=2) as (base, sessions):
        games = [new_game(base, players=2, seats=["human", "random"], seed=50 + i)
                 for i in range(3)]
        rngs = [random.Random(i) for i in range(3)]
        numbers = {}
        for _ in range(3):
            for game, rng in zip(games, rngs, strict=True):
                before = call(f"{base}/api/games/{game}")[1]["question"]["number"]
                assert numbers.get(game, before) == before  # each goes on where it was
                numbers[game] = play(base, game, rng, answers=2)["question"]["number"]
                assert sum(s.worker is not None for s in sessions.games.values()) <= 2
        assert play(base, games[0], rngs[0])["status"] == "over"


def test_a_bot_that_fails_ends_its_game_with_a_message(server, tmp_path):
    base, _ = server
    bots = tmp_path / "bots.py"
    bots.write_text(BOTS)
    game = new_game(base, players=2, seats=["human", "random"], seed=53)
    payload = play(base, game, random.Random(4), answers=1)
    while payload["question"]["kind"] != "turn":
        payload = play(base, game, random.Random(4), answers=1)
    status, answer = call(f"{base}/api/games/{game}/hint", {"bot": f"{bots}:Broken"})
    assert status == 422  # a hint that fails is no hint, and the game stays
    assert answer["error"] == f"the bot '{bots}:Broken' failed: RuntimeError: out of ideas"
    assert call(f"{base}/api/games/{game}")[1]["question"] == payload["question"]
    # one that exits, or ends the game's process, is named too, and the game stays
    for bot, error in (("Exits", "failed: SystemExit: 3"),
                       ("Dies", "(seat 0) ended the game's process over a 'turn' decision: "
                                "no hint")):
        status, answer = call(f"{base}/api/games/{game}/hint", {"bot": f"{bots}:{bot}"})
        assert (status, answer["error"]) == (422, f"the bot '{bots}:{bot}' {error}")
        assert call(f"{base}/api/games/{game}")[1]["question"] == payload["question"]
    for bot, error in (("Exits", "(seat 1) failed at a 'turn' decision"),
                       ("Dies", "(seat 1) ended the game's process over a 'turn' decision")):
        stopped = play(base, new_game(base, players=2, seats=["human", f"{bots}:{bot}"],
                                      seed=53), random.Random(4))
        assert stopped["status"] == "failed" and f"the bot '{bots}:{bot}' {error}" in \
            stopped["failure"], stopped["failure"]
    game = new_game(base, players=2, seats=["human", f"{bots}:Broken"], seed=53)
    payload = play(base, game, random.Random(4))
    assert payload["status"] == "failed"
    assert f"the bot '{bots}:Broken' (seat 1) failed at a 'turn' decision" in payload["failure"]
    assert "RuntimeError: out of ideas" in payload["failure"]
    status, answer = call(f"{base}/api/games/{game}/answer", {"number": 0, "option": 0})
    assert status == 409 and "failed" in answer["error"]
    # the other games go on, and this one can be taken back before the failure
    assert call(f"{base}/api/games/{new_game(base, players=2, seats=['human', 'random'])}")[0] \
        == 200
    status, back = call(f"{base}/api/games/{game}/undo", {"number": payload["undo"][0]["number"]})
    assert status == 200 and back["status"] == "playing" and back["question"] is not None


def test_a_bot_that_overruns_is_stopped_and_the_other_games_go_on(tmp_path):
    bots = tmp_path / "bots.py"
    bots.write_text(BOTS)
    with running(tmp_path / "games", bot_seconds=5) as (base, sessions):
        other = new_game(base, players=2, seats=["human", "random"], seed=59)
        slow = new_game(base, players=2, seats=["human", f"{bots}:Sleeper"], seed=61)
        done: dict[str, Any] = {}

        def answer_the_slow_game() -> None:  # until the sleeper is asked, and stopped
            done["payload"] = play(base, slow, random.Random(1))
            done["at"] = time.monotonic()

        thread = threading.Thread(target=answer_the_slow_game)
        thread.start()
        time.sleep(0.5)
        play(base, other, random.Random(1), answers=5)  # while the sleeper sleeps
        answered = time.monotonic()
        thread.join(60)
        assert answered < done["at"]
        payload = done["payload"]
        assert payload["status"] == "failed"
        assert f"the bot '{bots}:Sleeper' (seat 1) took more than 5 s over a" in \
            payload["failure"]
        assert sessions.games[slow].worker is None  # its process was ended
        # the game shows where it stopped, after a reload too, and can go back to the question
        _, reloaded = call(f"{base}/api/games/{slow}")
        assert reloaded["status"] == "failed" and reloaded["failure"] == payload["failure"]
        assert reloaded["undo"][0]["text"] == "the question asked when the game stopped"
        # a hint that overruns is no hint: the game goes on, in a new process
        asked = call(f"{base}/api/games/{other}")[1]["question"]
        status, answer = call(f"{base}/api/games/{other}/hint", {"bot": f"{bots}:Sleeper"})
        assert status == 422 and answer["error"].endswith("took more than 5 s over a "
                                                          f"{asked['kind']!r} decision: no hint")
        assert sessions.games[other].worker is None
        assert play(base, other, random.Random(1))["status"] == "over"


# --- the command ---------------------------------------------------------------------------


def test_zsim_serve_says_which_extra_to_install_when_it_is_missing(monkeypatch):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "starlette" else real(name, *a))
    result = CliRunner().invoke(main, ["serve"])
    assert result.exit_code == 2  # a command that cannot start
    assert result.output.splitlines() == [
        "Error: zsim serve needs starlette: install it with pip install 'zsim[serve]'"]


def test_zsim_serve_prints_its_address_and_serves(tmp_path):
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(
        [sys.executable, "-m", "zsim", "serve", "--port", "0", "--games", str(tmp_path)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        line = process.stdout.readline()
        match = re.fullmatch(r"zsim serve: (http://127\.0\.0\.1:\d+/) \(games kept in .*\)\n",
                             line)
        assert match, line
        deadline = time.monotonic() + 30
        while True:
            try:
                status, page = call(match[1])
                break
            except OSError:
                assert time.monotonic() < deadline
                time.sleep(0.1)
        assert status == 200 and "Start the game" in page
    finally:
        process.terminate()
        process.wait(30)
    result = CliRunner().invoke(main, ["serve", "--port", str(_busy_port())])
    assert result.exit_code == 1 and result.output.startswith("Error: cannot listen on")


def _busy_port() -> int:
    import socket

    holder = socket.create_server(("127.0.0.1", 0))
    _busy_port.holder = holder  # type: ignore[attr-defined]  # kept open for the test
    return holder.getsockname()[1]


def test_the_position_saved_mid_game_is_the_game_as_it_stands(server):
    """The page's "Save the position" gives the text ``zsim play --from`` reads: loaded, it asks
    the same seat the same question, with the same options in words."""
    base, _ = server
    game = new_game(base, players=2, seats=["human", "greedy"], seed=34)
    last = play(base, game, random.Random(3), answers=12)
    status, text = call(f"{base}/api/games/{game}/position")
    assert status == 200, text
    assert last["status"] == "playing" and isinstance(text, dict)  # sent as JSON
    loaded = Game.from_text(json.dumps(text), load_box(default_box_dir()))
    decision = loaded.pending()
    assert (decision.seat, decision.kind) == (last["question"]["seat"], last["question"]["kind"])
    words = option_words(loaded.views[decision.seat], decision)
    assert words == [option["text"] for option in last["question"]["options"]]
    assert call(f"{base}/api/games/nosuchgame/position")[0] == 404


def test_a_position_saved_under_a_variant_plays_on_under_it(server, tmp_path):
    """A game with a box variant, saved as a position and continued by ``zsim play --from``,
    plays on with the variant's values (Palaces at 8 VP), as the saved game's own replay does;
    a --variant that would change them is refused in one line."""
    base, _ = server
    game = new_game(base, players=2, seats=["human", "greedy"], seed=35,
                    variants=["palace_vp_8"])
    play(base, game, random.Random(5), answers=10)
    status, text = call(f"{base}/api/games/{game}/position")
    assert status == 200, text
    assert text["box"] == {"dir": None, "variants": ["rules.palace_vp=8"]}
    position = tmp_path / "p.json"
    position.write_text(json.dumps(text))
    runner = CliRunner()
    played = runner.invoke(main, ["play", "--from", str(position), "-s", "greedy", "--json"])
    assert played.exit_code == 0, played.output
    players = json.loads(played.output)["players"]
    # every Palace built scores 8 under the variant (the score sheet is the engine's own)
    loaded = Game.from_text(json.dumps(text), load_box(default_box_dir(),
                                                       [("rules.palace_vp", 8)]))
    assert loaded.rules.palace_vp == 8
    assert all(p["vp_palaces"] % 8 == 0 for p in players)
    refused = runner.invoke(main, ["play", "--from", str(position), "-s", "greedy",
                                   "--variant", "rules.palace_vp=6"])
    assert refused.exit_code == 1
    assert "played with rules.palace_vp=8" in refused.output
    assert len(refused.output.strip().splitlines()) == 1
    # the built-in box as shipped is refused too: the position names the value it needs
    with pytest.raises(PositionError, match=r"rules\.palace_vp=8"):
        Game.from_text(json.dumps(text), load_box(default_box_dir()))
    # the page and the saved-games list name the variant
    assert "rules.palace_vp=8" in call(f"{base}/game/{game}")[1]
    assert "rules.palace_vp=8" in call(f"{base}/")[1]
