"""The playtest app in headless Chromium: a designer sets up a game with a variant, plays it to
the end against greedy by clicking, takes a move back, asks for a hint, and reads the score
sheet, which must be the engine's. Hot-seat play hides each hand from the other player.

The screenshots stay in pytest's temporary directory (``--basetemp`` to keep them somewhere).
"""

from __future__ import annotations

import random
import time

import pytest
from chromium import Browser, chromium
from serving import call, running

from zsim.game import Game
from zsim.rules.scoring import CATEGORIES
from zsim.serve.replay import Replay, replayed

pytestmark = pytest.mark.skipif(chromium() is None, reason="Chromium is not installed")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    folder = tmp_path_factory.mktemp("serve-browser")
    with running(folder / "games", pace=0) as (base, _), \
            Browser(folder / "profile", width=1500, height=1100) as browser:
        yield base, browser, folder


def idle(browser: Browser) -> str:
    """Wait until the page waits for someone, and say for what."""
    return browser.wait_for("window.whenIdle()")


def text(browser: Browser, selector: str) -> str:
    return browser.evaluate(f"document.querySelector({selector!r}).textContent")


def question(browser: Browser) -> tuple[str, tuple[str, list[str]]]:
    """Wait until the page waits for someone: for what, and the question it shows with its
    options in words (one round trip, as the game takes a hundred of them). A turn shows its
    cards first and a card's uses once it is picked: the options are then the page's data."""
    state, asked, shown = browser.wait_for(
        "window.whenIdle().then((state) => [state, "
        "document.getElementById('question').textContent, "
        "game.question ? game.question.options.map(o => o.text) : []])")
    return state, (asked, shown)


def choose(browser: Browser, index: int) -> None:
    """Answer option ``index`` as a person does: on a turn, its card first, then its use."""
    card = browser.evaluate(f"game.question.picks ? game.question.picks[{index}].card : null")
    if card is not None and not browser.evaluate(
            f"!!document.querySelector('#cards button.picked[data-card=\"{card}\"]')"):
        browser.click(f'#cards button[data-card="{card}"]')
    browser.click(f'#options button[data-index="{index}"]')


def start(browser: Browser, base: str, seats: list[str], variant: str | None = None,
          seed: int = 12) -> str:
    """Fill the new-game form and start; the game's id."""
    browser.open(f"{base}/")
    for seat, spec in enumerate(seats):
        browser.evaluate(f"document.querySelector('input[name=seat{seat}]').value = "
                         f"{spec!r}")
    if len(seats) != 2:
        browser.click(f"input[name=mode][value='{len(seats)}']")
    if variant:
        browser.click(f"input[name=variant_file][value='{variant}']")
    browser.evaluate(f"document.querySelector('input[name=seed]').value = '{seed}'")
    browser.click("#start")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # the page goes to the game's once it is set up
        try:
            if browser.evaluate("location.pathname.startsWith('/game/') && "
                                "typeof window.whenIdle === 'function'"):
                return browser.evaluate("document.body.dataset.game")
        except RuntimeError:  # asked while it navigates
            pass
        time.sleep(0.05)
    raise AssertionError(f"the game did not open: {text(browser, '#error')}")


def test_a_game_against_greedy_played_to_the_end_by_clicking(site):
    base, browser, folder = site
    browser.open(f"{base}/")
    assert "Zhanguo playtest" in text(browser, "h1")
    browser.screenshot(folder / "new-game.png")
    game = start(browser, base, ["human", "greedy"], variant="palace_vp_8")
    # the bots' moves are shown one by one, with a pause after each (here 250 ms)
    browser.open(f"{base}/game/{game}?pace=250")
    state, first = question(browser)
    assert state == "question"
    asked = [first]
    shown: set[str] = set()
    clicks = 0
    # the person may be asked twice running (a deal's questions come in the rules' order)
    # before a bot moves: answer until the bots have played
    while not {"Red (greedy)…", "Blue (greedy)…"} & shown and clicks < 6:
        if clicks:
            state, asking = question(browser)
            assert state == "question"
            asked.append(asking)
        choose(browser, 0)
        clicks += 1
        while browser.evaluate("document.body.dataset.state") == "busy":
            shown.add(text(browser, "#status"))
            time.sleep(0.05)
    assert "Red (greedy)…" in shown or "Blue (greedy)…" in shown, shown
    browser.open(f"{base}/game/{game}?pace=0")
    rng = random.Random(3)
    undone, hinted, wide = False, False, False
    # the variant is on the page all the time, and in its title
    assert "rules.palace_vp=8" in text(browser, "#variant")
    assert "rules.palace_vp=8" in browser.evaluate("document.title")
    while (looked := question(browser))[0] == "question":
        asking = looked[1]
        shown = asking[1]
        assert shown
        if not hinted and len(asked) >= 8 and asking[0].startswith("Your turn"):
            # a turn is a card, then its use: the cards of the hand, each once, with short
            # labels and the ability text on demand; picking one frames its targets
            cards = browser.evaluate("[...document.querySelectorAll('#cards button')]"
                                     ".map(b => [b.textContent, b.title])")
            picks = browser.evaluate("game.question.picks")
            assert len(cards) == len({p["card"] for p in picks}) < len(shown)
            assert all(len(label) < 30 and title for label, title in cards)
            assert browser.evaluate("document.querySelectorAll('#options button').length") == 0
            browser.screenshot(folder / "picker-cards.png")
            browser.click("#cards button:nth-child(1)")
            uses = browser.evaluate("[...document.querySelectorAll('#options button')]"
                                    ".map(b => b.textContent)")
            assert uses and all(len(use) < 30 for use in uses), uses
            assert picks[0]["card"] == browser.evaluate(
                "Number(document.querySelector('#cards button.picked').dataset.card)")
            assert browser.evaluate("document.getElementById('cardtext').textContent")
            assert browser.evaluate("document.querySelectorAll('#board .target').length") >= 2
            # the options act somewhere on the board: pointing at one frames it
            browser.hover("#options li:nth-child(1) button")
            assert browser.evaluate("document.querySelectorAll('#board .target').length") >= 2
            browser.screenshot(folder / "question.png")
            browser.evaluate("document.getElementById('hintbot').value = 'greedy'")
            browser.click("#hint")
            assert idle(browser) == "question"
            assert "greedy would choose" in text(browser, "#hinted")
            chosen = browser.evaluate("Number(document.querySelector('#options li.hinted "
                                      "button').dataset.index)")
            values = browser.evaluate("[...document.querySelectorAll('#options .value')]"
                                      ".map(v => v.textContent)")
            hinted_card = browser.evaluate(f"game.question.picks[{chosen}].card")
            assert browser.evaluate("Number(document.querySelector('#cards button.picked')"
                                    ".dataset.card)") == hinted_card
            assert len(values) == browser.evaluate(
                "document.querySelectorAll('#options button').length")
            browser.screenshot(folder / "hint.png")
            asked.append(asking)
            choose(browser, chosen)  # follow the hint
            hinted = True
            clicks += 1
            continue
        if not undone and len(asked) == 20:
            # take back the 6th question: the page asks it again, as it was
            assert browser.evaluate("document.getElementById('undoto').options.length") == 20
            browser.evaluate("const s = document.getElementById('undoto');"
                             "s.selectedIndex = s.options.length - 6")
            browser.click("#undo")
            assert question(browser) == ("question", asked[5])
            del asked[5:]
            undone = True
            continue
        asked.append(asking)
        if asking[0].startswith("Your turn") and round_of(browser) >= 2 and not wide:
            browser.screenshot(folder / "hand-round-2.png")  # the hand's card numbers
            # a card's number (100 and more: three digits) never runs into its trigger word
            assert browser.evaluate(OVERLAPS) == []
            wide = True
        choose(browser, rng.randrange(len(shown)))
        clicks += 1
    state = looked[0]
    assert state == "over", text(browser, "#status")
    assert undone and hinted
    # no position to save once the game is over
    assert browser.evaluate("document.getElementById('position').offsetParent") is None
    browser.screenshot(folder / "final.png")
    # the score sheet is the engine's, replayed from the game's own file
    _, saved = call(f"{base}/api/games/{game}/replay")
    seated = replayed(Replay.from_json(saved, "the saved game"))
    result = Game(seated.box, seated.strategies, seated.seed, seated.options).play()
    sheet = browser.evaluate(
        "Object.fromEntries([...document.querySelectorAll('#scores tr[data-category]')]"
        ".map(r => [r.dataset.category, [...r.cells].slice(1).map(c => Number(c.textContent))]))")
    assert sheet == {c: [result.scores[s][c] for s in range(2)] for c in CATEGORIES}
    totals = browser.evaluate("[...document.querySelectorAll('#scores .score-total')]"
                              ".map(c => Number(c.textContent))")
    assert totals == [s["vp_total"] for s in result.scores]
    assert "Winner" in text(browser, "#winners")
    assert saved["setup"]["variants"] == ["rules.palace_vp=8"]
    assert browser.console_errors() == []
    assert 40 < clicks < 200
    # the link to the full viewer opens the whole game
    browser.open(base + browser.evaluate("document.getElementById('viewer').getAttribute('href')"))
    browser.press("End", 35)
    assert "Game over" in text(browser, "#where")


def round_of(browser: Browser) -> int:
    where = text(browser, "#where")
    return int(where.split("Round ")[1].split()[0]) if "Round " in where else 0


OVERLAPS = """[...document.querySelectorAll('#board .hand .card')].filter((card) => {
  const [number, trigger] = [...card.querySelectorAll('text')].map((t) => t.getBBox());
  return number.x + number.width > trigger.x && trigger.y + trigger.height > number.y
    && number.y + number.height > trigger.y;
}).map((card) => card.dataset.card)"""


def test_hot_seat_players_each_see_only_their_own_hand(site):
    base, browser, folder = site
    start(browser, base, ["human", "human"], seed=14)
    curtains, looked = 0, set()
    while len(looked) < 2:
        state = idle(browser)
        seat = browser.evaluate("game.question.seat")
        if state == "curtain":  # a new player's turn: no hand is drawn face up
            curtains += 1
            assert browser.evaluate("document.querySelectorAll('#board .hand .card').length") \
                == 0
            browser.click("#reveal")
            assert idle(browser) == "question"
        faces = browser.evaluate("[...document.querySelectorAll('#board .hand')].map(h => "
                                 "[Number(h.dataset.seat), h.querySelectorAll('.card').length,"
                                 " h.querySelectorAll('.card-back').length])")
        for hand_seat, face_up, backs in faces:
            if hand_seat == seat:
                assert backs == 0
            else:
                assert face_up == 0
        if all(face_up + backs for _, face_up, backs in faces) and seat not in looked:
            looked.add(seat)  # both hands have cards: one shown, the other as backs
            browser.screenshot(folder / f"hot-seat-{seat}.png")
        choose(browser, 0)
        assert curtains < 60
    assert curtains >= 2
    assert browser.console_errors() == []
