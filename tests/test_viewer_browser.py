"""The game viewer in headless Chromium: keys move through the game, and the page shows it.

The screenshots stay in pytest's temporary directory (``--basetemp`` to keep them somewhere).
"""

from __future__ import annotations

import json
import time
from collections import Counter

import pytest
from chromium import Browser, chromium

from zsim.lineup import seat_game
from zsim.viewer.page import write_page
from zsim.viewer.record import record_game

pytestmark = pytest.mark.skipif(chromium() is None, reason="Chromium is not installed")

RIGHT, LEFT, DOWN, END, HOME, PAGE_UP = (("ArrowRight", 39), ("ArrowLeft", 37),
                                         ("ArrowDown", 40), ("End", 35), ("Home", 36),
                                         ("PageUp", 33))


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    folder = tmp_path_factory.mktemp("viewer")
    result, record = record_game(seat_game(["greedy", "builder", "random"], 3, seed=21))
    page = write_page(record, folder / "game.html")
    with Browser(folder / "profile") as browser:
        browser.open(page.as_uri())
        yield browser, result, record, folder


def where(browser) -> str:
    return browser.evaluate("document.getElementById('where').textContent")


def totals(browser) -> list[int]:
    return browser.evaluate(
        "[...document.querySelectorAll('#scores .score-total')].map(c => Number(c.textContent))")


def test_the_page_opens_on_the_first_step_without_errors(game):
    browser, _, record, folder = game
    assert where(browser).startswith(f"Step 1 / {len(record['steps'])} · Setup")
    assert totals(browser) == [0, 0, 0]
    assert browser.console_errors() == []
    assert browser.screenshot(folder / "start.png").stat().st_size > 20_000


def test_keys_step_forward_and_back_decision_by_decision_and_turn_by_turn(game):
    browser, _, record, folder = game
    steps = record["steps"]
    browser.press(*HOME)
    for _ in range(3):
        browser.press(*RIGHT)
    assert where(browser).startswith("Step 4 /")
    browser.press(*LEFT)
    assert where(browser).startswith("Step 3 /")
    browser.press(*RIGHT, shift=True)  # the next turn: round 1's first
    shown = int(where(browser).split()[1]) - 1
    assert steps[shown]["turn"] != steps[2]["turn"] and steps[shown - 1]["turn"] == steps[2]["turn"]
    assert "Round 1" in where(browser)
    browser.press(*DOWN)  # the next decision: its options, the chosen one marked
    shown = int(where(browser).split()[1]) - 1
    step = steps[shown]
    assert step["kind"] == "decision"
    options = browser.evaluate("[...document.querySelectorAll('#options li')]"
                               ".map(li => [li.className, li.textContent])")
    assert len(options) == len(step["options"])
    assert [i for i, (css, _) in enumerate(options) if css == "chosen"] == [step["chosen"]]
    assert step["options"][step["chosen"]] in options[step["chosen"]][1]
    browser.screenshot(folder / "decision.png")


def test_the_last_step_shows_the_final_scores_and_the_walls_built(game):
    browser, result, record, folder = game
    browser.press(*END)
    assert "Game over" in where(browser)
    assert totals(browser) == [s["vp_total"] for s in result.scores]
    holders = browser.evaluate("[...document.querySelectorAll('.wall-slot')]"
                               ".map(s => Number(s.dataset.holder))")
    assert Counter(h for h in holders if h >= 0) == Counter(seat for seat, *_ in result.walls)
    assert sum(result.scores[s]["vp_walls"] for s in range(3)) > 0  # some Wall scored
    browser.screenshot(folder / "final.png")
    browser.press(*PAGE_UP)  # back to the start of the last round
    assert f"Round {record['meta']['rounds']}" in where(browser)
    assert browser.evaluate("document.getElementById('round').value") == "5"
    first = next(i for i, step in enumerate(record["steps"]) if step["round"] == 5)
    assert where(browser).startswith(f"Step {first + 1} /")
    assert browser.console_errors() == []


def test_the_slider_and_the_round_menu_move_too(game):
    browser, _, record, _ = game
    browser.evaluate("const s = document.getElementById('slider'); s.value = 100;"
                     "s.dispatchEvent(new Event('input'))")
    assert where(browser).startswith("Step 101 /")
    browser.evaluate("const m = document.getElementById('round'); m.value = '3';"
                     "m.dispatchEvent(new Event('change'))")
    first = next(i for i, step in enumerate(record["steps"]) if step["round"] == 3)
    assert where(browser).startswith(f"Step {first + 1} / {len(record['steps'])} · Round 3")
    browser.press(*RIGHT)  # the keys still work once the menu was used
    assert where(browser).startswith(f"Step {first + 2} /")


def test_the_position_of_a_step_is_offered_as_text(game):
    browser, _, record, folder = game
    browser.press(*HOME)
    for _ in range(5):
        browser.press(*DOWN)  # the fifth decision
    shown = int(where(browser).split()[1]) - 1
    step = record["steps"][shown]
    assert step["kind"] == "decision"
    browser.press("p", 80)
    text = ""
    for _ in range(100):  # the texts are unpacked on first use, asynchronously
        text = browser.evaluate("document.getElementById('position').value")
        if text:
            break
        time.sleep(0.05)
    position = json.loads(text)
    assert position["question"]["kind"] == step["decision"]
    assert position["question"]["options"] == step["options"]
    help_text = browser.evaluate("document.getElementById('position-help').textContent")
    assert f"step {shown + 1}," in help_text and "zsim play --from" in help_text
    browser.screenshot(folder / "position.png")
    browser.press("p", 80)  # and closed again
    assert browser.evaluate("document.getElementById('position-panel').hidden") is True
    assert browser.console_errors() == []
