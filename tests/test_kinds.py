"""The decision kinds' registry: typed options, their words, one 'ask until stop', misspelt
``choose_`` methods refused, and docs/strategies.md held to the registry."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path
from typing import Any

import pytest

from zsim.components import Box
from zsim.decisions import Decision
from zsim.describe import SCALARS, TYPES, describe, kinds_markdown, question
from zsim.game import Game, play_game
from zsim.kinds import (
    FIELD_DOMAINS,
    KINDS,
    OPTION_TYPES,
    SENTINELS,
    STOP,
    TAG_FIELDS,
    TAGS,
    Court,
    Unify,
)
from zsim.rules.queries import PALACE
from zsim.strategies.base import Strategy, UnknownKind
from zsim.strategies.random_bot import RandomStrategy
from zsim.strategies.registry import UnknownStrategy, resolve
from zsim.view import PlayerView

ROOT = Path(__file__).resolve().parent.parent
REPEATED = ("next_ability", "move_official", "move_worker", "reset_unrest", "place_alchemist",
            "soldier", "unlock")


def fits(kind: str, option: Any) -> bool:
    """Whether an option is of a form its kind's record allows."""
    record = KINDS[kind]
    if isinstance(option, str):
        return option in record.words
    if type(option) in record.types:
        return all(isinstance(getattr(option, f), str if f in TAG_FIELDS else int)
                   for f in option._fields)
    if record.scalar in ("workers", "tokens"):
        return type(option) is tuple and all(type(v) is int for v in option)
    return bool(record.scalar) and type(option) is int


@pytest.fixture(scope="module")
def asked(box: Box) -> list[tuple[Decision, list[str], str]]:
    """Every decision of a few random games of 2, 3 and 4 players and one solo game, each
    option described in words and the question asked at the moment it was asked."""
    found = []
    for n, seed in ((2, 3), (3, 4), (4, 5), (4, 6)):
        game = Game(box, [RandomStrategy() for _ in range(n)], seed, narrate=False)
        game.listen(_Describing(found), ("decision",))
        game.play()
    from zsim.rules.lisi import LiSiSeat
    game = Game(box, [RandomStrategy(), LiSiSeat(3)], 7)
    game.listen(_Describing(found), ("decision",))
    game.play()
    return found


class _Describing:
    def __init__(self, found: list) -> None:
        self.found = found

    def event(self, game: Game, kind: str, data: dict) -> None:
        decision = data["decision"]
        view = game.views[decision.seat]
        self.found.append((decision, [describe(view, decision, o) for o in decision.options],
                           question(view, decision)))


def test_every_option_offered_has_a_form_its_kind_allows(asked):
    kinds = set()
    for decision, _, _ in asked:
        kinds.add(decision.kind)
        assert decision.kind in KINDS
        for option in decision.options:
            assert fits(decision.kind, option), (decision.kind, option)
    assert len(kinds) >= 20  # the games reach most kinds


def test_every_option_is_described_in_words(asked):
    for decision, words, text in asked:
        assert text and not text.startswith(decision.kind + ":")
        assert len(set(words)) == len(words), (decision.kind, words)  # options stay apart
        for option, word in zip(decision.options, words, strict=True):
            assert word and word != repr(option), (decision.kind, option)


def test_the_registry_and_the_wording_cover_each_other():
    types = {t for kind in KINDS.values() for t in kind.types}
    assert types == OPTION_TYPES == set(TYPES)
    scalars = {kind.scalar for kind in KINDS.values() if kind.scalar}
    assert scalars == set(SCALARS)
    assert {w for kind in KINDS.values() for w in kind.words} == set(SENTINELS)
    for option_type in types:
        for field in option_type._fields:
            assert field in FIELD_DOMAINS or field in TAG_FIELDS, (option_type, field)
    # a kind mixing several option types tells them apart by their first word
    for kind in KINDS.values():
        if len(kind.types) > 1:
            assert all(t in TAGS for t in kind.types)


def test_typed_options_are_the_tuples_of_old():
    option = Unify("unify", 5, 2)
    assert option == ("unify", 5, 2) and hash(option) == hash(("unify", 5, 2))
    assert option[1] == option.card == 5 and option.region == 2
    assert str(option) == "Unify(play='unify', card=5, region=2)"


class TupleBot(Strategy):
    """A bot of old: answers the random bot's choice rebuilt as a plain tuple."""

    name = "tuples"

    def choose(self, view: PlayerView, decision: Decision) -> Any:
        option = decision.options[view.rng.randrange(len(decision.options))]
        return tuple(option) if isinstance(option, tuple) else option


def test_a_bot_answering_plain_tuples_plays_the_same_game(box):
    typed = play_game(box, [RandomStrategy(), RandomStrategy(), RandomStrategy()], 11)
    plain = play_game(box, [TupleBot(), TupleBot(), TupleBot()], 11)
    assert plain.scores == typed.scores and plain.decisions == typed.decisions


def test_every_repeated_question_offers_one_word_to_stop(asked):
    stops = {kind for kind in KINDS if STOP in KINDS[kind].words}
    assert stops == set(REPEATED)
    for decision, _, _ in asked:
        assert "done" not in decision.options
        # (an effect's free soldier and an Alchemist placement in full are not optional)
        if decision.kind in REPEATED and not (decision.kind == "place_alchemist"
                                              or decision.context.get("free")):
            assert decision.options[-1] == STOP  # offered last, after what can be done


def test_a_misspelt_choose_method_is_refused_naming_the_nearest_kind():
    with pytest.raises(UnknownKind, match=r"Typo defines choose_palce.*'palce'.*choose_palace"):
        class Typo(Strategy):
            def choose_palce(self, view, decision):
                return decision.options[0]
    with pytest.raises(UnknownKind, match="choose_xyzzy"):
        class Far(Strategy):
            def choose_xyzzy(self, view, decision):
                return decision.options[0]

    class Fine(Strategy):  # every real kind, and names that are not choose_ methods, pass
        def choose_palace(self, view, decision):
            return decision.options[0]

        def chooser(self):
            return None

    assert Fine().name == "base"


def test_the_registry_refuses_a_bot_file_with_a_misspelt_method(tmp_path):
    path = tmp_path / "bots.py"
    path.write_text(textwrap.dedent("""
        from zsim.strategies.heuristic import HeuristicStrategy

        class PalaceFirst(HeuristicStrategy):
            def choose_rewards(self, view, decision):
                return "accept"
    """))
    with pytest.raises(UnknownStrategy) as error:
        resolve(f"{path}:PalaceFirst")
    message = str(error.value)
    assert "choose_rewards" in message and "choose_reward?" in message
    assert "Traceback" not in message


def test_docs_list_the_kinds_as_the_registry_does():
    text = (ROOT / "docs" / "strategies.md").read_text()
    assert kinds_markdown() in text, (
        "docs/strategies.md's table of decision kinds differs from zsim.kinds.KINDS: paste "
        "the output of `python -c 'from zsim.describe import kinds_markdown; "
        "print(kinds_markdown())'` into its 'Decision kinds' section")


def test_the_docs_example_bot_reads_fields_by_name(box):
    text = (ROOT / "docs" / "strategies.md").read_text()
    example = re.search(r"```python\n(\"\"\"Bots of my own.*?)```", text, re.DOTALL)
    assert example is not None
    code = example.group(1)
    assert not re.search(r"\bo\[\d\]", code)  # no field read by index
    namespace: dict[str, Any] = {}
    exec(compile(code, "my_bots.py", "exec"), namespace)
    bot = namespace["PalaceFirst"]()
    game = Game(box, [bot, resolve("greedy")], 5)
    turns: list[tuple[Decision, Any]] = []
    game.listen(_Turns(turns), ("decision",))
    result = game.play()
    palace = [(d, answer) for d, answer in turns
              if any(type(o) is Court and o.action == PALACE for o in d.options)]
    assert palace and result.stats[0]["n_court_palace"] == len(palace)
    assert all(type(answer) is Court and answer.action == PALACE for _, answer in palace)


class _Turns:
    """Seat 0's turn questions and its answers."""

    def __init__(self, turns: list) -> None:
        self.turns = turns

    def event(self, game: Game, kind: str, data: dict) -> None:
        if data["decision"].kind == "turn" and data["decision"].seat == 0:
            self.turns.append((data["decision"], data["answer"]))
