"""A game position as text: JSON a person can read and edit, and the engine can continue.

``to_text(checkpoint, tables)`` writes a saved game (``zsim.game.Checkpoint``: the state at the
start of the segment under way, the RNG then, and the answers given since) and
``from_text(text, box)`` reads one back into the checkpoint's fields, so
``Game.from_text(game.to_text(), box)`` continues exactly as the game would have, whichever
build (compiled or pure) wrote or reads it. The format (``FORMAT``) is documented in
docs/research.md; in short, one JSON object:

- ``format``, ``n_players``, ``seed``, ``variants`` (the rule options);
- ``box``, when the game is not played with the built-in box as shipped: ``dir``, the folder of
  a box of one's own (null: the built-in one), and ``variants``, the box's values changed by key
  path (``["rules.palace_vp=8"]``), so that the game plays on under the same box
  (``box_of`` reads it; a box that differs is refused, naming the key);
- where the game stands: ``round``, ``stage`` (``start``, ``round``, ``turns``, ``rewards``,
  ``over``), ``step`` (the turn of the round, in ``turns``), and, written for the reader only,
  ``turn`` (whose turn) and ``question`` (the question pending: seat, kind, options in words);
- ``answers``: the answers given since the segment began (a replay reaches the question again);
- ``board``: the shared table (``GameState``'s fields), ``players``: each player's board
  (``PlayerState``'s), ``hands`` and ``decks``; every card by its name (``"Writing 12"``,
  ``"Alchemist a1"``), every list by region in the order Chu, Wei, Zhao, Qi, Yan, tiles by their
  index in the box's lists;
- ``rng`` (the game's random state, or ``null``: drawn afresh from ``seed``), ``strategy_rngs``,
  ``decisions``, ``told``, ``records``, ``narration``, ``setup``: what the result tables and the
  narration need to go on as they were.

A position written by hand may leave any key out: it then takes the value a fresh setup of
``seed`` gives, player by player and field by field, and the cards the text puts anywhere are
taken out of the draw decks (unless it gives the decks). Every key is read by the state's own
field lists (``fields``), so a field added to the state is written and read with no change
here.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from zsim.errors import UserError
from zsim.options import GameOptions
from zsim.records import ResultRecorder
from zsim.rules.tables import Tables, compile_tables
from zsim.state import GameState, LiSi, MausoleumSpot, PlayerState, WallSection

if TYPE_CHECKING:
    from zsim.components import Box

FORMAT = 1
STAGES = ("start", "round", "turns", "rewards", "over")  # zsim.state.Stage, by value
# Fields holding card ids, and lists or dicts of them (written by the card's name).
CARD_FIELDS = frozenset({"court", "discard", "decks", "hands", "alchemist_supply", "tableau",
                         "master_available", "emperor"})
# Every key of a position (``turn`` and ``question`` are written for the reader, never read).
KEYS = frozenset({"format", "n_players", "players", "seed", "variants", "box", "round", "stage",
                  "step", "turn", "question", "answers", "board", "hands", "decks",
                  "decisions", "told", "setup", "records", "narration", "rng",
                  "strategy_rngs"})
# The keys a position as written has: no fresh setup is needed to fill it in.
COMPLETE = frozenset({"board", "players", "hands", "decks", "rng", "strategy_rngs", "setup",
                      "round", "stage", "step"})


class PositionError(UserError, ValueError):
    """A position text that cannot be read: the message names the key."""


def fields(cls: type) -> tuple[str, ...]:
    """A state class's fields, sorted: its ``__slots__`` as Python runs it, the attributes a
    compiled class declares (``__mypyc_attrs__``) as the compiled engine does, so that both
    builds write the same text."""
    names: tuple[str, ...] = getattr(cls, "__slots__", ()) or getattr(cls, "__mypyc_attrs__", ())
    return tuple(sorted(names))


# --- writing -------------------------------------------------------------------------------------


def to_text(checkpoint: Any, t: Tables, question: dict[str, Any] | None = None,
            strategy_rngs: bool = True) -> str:
    """The text of a saved game (``zsim.game.Checkpoint``); ``question`` (the pending question
    in words, for the reader) is written as given; without ``strategy_rngs``, the bots' own
    random states are left out (a reader then seeds them afresh)."""
    state: GameState = checkpoint.state
    names = t.card_name
    data: dict[str, Any] = {
        "format": FORMAT,
        "n_players": state.n,
        "seed": checkpoint.seed,
        "variants": _options_json(checkpoint.options),
        **_box_json(t.box),
        "round": state.round,
        "stage": STAGES[state.stage],
        "step": state.step,
    }
    if state.stage == 2 and state.turn_order:
        data["turn"] = state.turn_order[state.step % state.n]
    if question is not None:
        data["question"] = question
    data["answers"] = [plain(a) for a in checkpoint.answers]
    data["board"] = {field: _field(field, getattr(state, field), names)
                     for field in fields(GameState)
                     if field not in ("players", "hands", "decks", "n", "round", "stage", "step")}
    data["players"] = [{field: _field(field, getattr(p, field), names)
                        for field in fields(PlayerState) if field != "seat"}
                       for p in state.players]
    data["hands"] = [_field("hands", hand, names) for hand in state.hands]
    data["decks"] = [_field("decks", deck, names) for deck in state.decks]
    data["decisions"] = checkpoint.decisions
    data["told"] = checkpoint.told
    data["setup"] = checkpoint.setup
    data["records"] = {field: plain(getattr(checkpoint.records, field))
                       for field in fields(ResultRecorder)}
    data["narration"] = checkpoint.narration
    data["rng"] = _rng_json(checkpoint.rng)
    if strategy_rngs:
        data["strategy_rngs"] = [_rng_json(r) for r in checkpoint.view_rngs]
    return _dump(data)


def _options_json(options: GameOptions) -> dict[str, Any]:
    return plain(asdict(options))


def _box_json(box: Box) -> dict[str, Any]:
    """The ``box`` key of a game not played with the built-in box as shipped (none for one
    that is: positions of the shipped game read as before)."""
    from zsim.components import default_box_dir
    from zsim.variants import Variants

    own = Path(box.source).resolve() != default_box_dir().resolve()
    if not own and not box.overrides:
        return {}
    return {"box": {"dir": str(Path(box.source).resolve()) if own else None,
                    "variants": Variants(box=box.overrides).as_strings()}}


def _field(name: str, value: Any, names: tuple[str, ...]) -> Any:
    """One field as JSON: cards by name, Wall sections, Mausoleum spots and Li Si by their
    fields, the rest as plain lists and numbers."""
    if isinstance(value, (WallSection, MausoleumSpot)):
        return {slot: plain(getattr(value, slot)) for slot in fields(type(value))}
    if isinstance(value, LiSi):
        own = {slot: plain(getattr(value, slot)) for slot in fields(LiSi) if slot != "card"}
        return {"level": value.card.level, **own}
    if isinstance(value, list) and value and isinstance(value[0], (WallSection, MausoleumSpot)):
        return [_field(name, v, names) for v in value]
    if name in CARD_FIELDS:
        return _cards(value, names)
    return plain(value)


def _cards(value: Any, names: tuple[str, ...]) -> Any:
    if isinstance(value, dict):  # the Emperor tiles: card -> action
        return {names[card]: action for card, action in value.items()}
    if isinstance(value, list):
        return [_cards(v, names) for v in value]
    return names[value]


def plain(value: Any) -> Any:
    """Tuples (typed options too) as lists, dicts with string keys: JSON's own types."""
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    return value


def _dump(data: dict[str, Any]) -> str:
    """JSON with one line per key, and per player, Wall section and Mausoleum spot: short
    enough to read, long lists (a deck, the random state) kept on one line."""
    lines = ["{"]
    items = list(data.items())
    for i, (key, value) in enumerate(items):
        comma = "," if i < len(items) - 1 else ""
        if isinstance(value, dict) and key in ("board", "records", "setup", "question", "box"):
            inner = [f"  {json.dumps(k)}: {_compact(v)}" for k, v in value.items()]
            lines.append(f"  {json.dumps(key)}: {{\n" + ",\n".join(
                "  " + line for line in inner) + f"\n  }}{comma}")
        elif key in ("players", "hands", "decks", "strategy_rngs") and isinstance(value, list):
            inner = [f"    {_compact(v)}" for v in value]
            lines.append(f"  {json.dumps(key)}: [\n" + ",\n".join(inner) + f"\n  ]{comma}")
        else:
            lines.append(f"  {json.dumps(key)}: {_compact(value)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(", ", ": "), ensure_ascii=False)


# --- reading -------------------------------------------------------------------------------------


def from_text(text: str, box: Box, fresh: Callable[[int, int, GameOptions], Any]
              ) -> dict[str, Any]:
    """The fields of the ``zsim.game.Checkpoint`` a position text describes. ``fresh(players,
    seed, options)`` is the checkpoint of a game of that seed just set up: what the text
    leaves out is taken from it (the engine gives it: this module sits below the engine)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise PositionError(f"not JSON: {error}") from None
    except RecursionError:
        raise PositionError("refused: nested too deeply for a position") from None
    except ValueError as error:  # a number of more digits than Python converts
        raise PositionError(f"not a position: {str(error).split(';')[0]}") from None
    if not isinstance(data, dict):
        raise PositionError("a position is a JSON object")
    if data.get("format", FORMAT) != FORMAT:
        raise PositionError(f"format: {data['format']!r}; this version reads format {FORMAT}")
    t = compile_tables(box)
    n = _int(data, "n_players")
    if not 2 <= n <= 4:
        raise PositionError(f"n_players: {n}; a game has 2 to 4 players")
    seed = _int(data, "seed", 1)
    options = _options(data.get("variants", {}))
    _check_box(data, box)
    unknown = sorted(set(data) - KEYS)
    if unknown:
        raise PositionError(f"{unknown[0]}: no such key of a position; the keys: "
                            f"{', '.join(sorted(KEYS))}")
    # a whole position (as written) needs no fresh game to fill it in
    checkpoint = None if set(data) >= COMPLETE else fresh(n, seed, options)
    state = checkpoint.state if checkpoint is not None else GameState(n)
    ids = {name: card for card, name in enumerate(t.card_name) if name}
    _read_state(data, state, ids, box)
    rng = data.get("rng")
    if checkpoint is None or (rng is not None and "strategy_rngs" in data and "setup" in data):
        return _checkpoint(data, seed, options, state, n)
    return {
        "seed": seed,
        "options": options,
        "state": state,
        "rng": _rng(rng) if rng is not None else checkpoint.rng,
        "decisions": _int(data, "decisions", 0),
        "answers": [_tuples(a) for a in data.get("answers", [])],
        "told": _int(data, "told", 0),
        "records": _records(data.get("records"), state),
        "narration": data.get("narration"),
        "setup": data.get("setup", checkpoint.setup),
        "view_rngs": [_rng(r) for r in data["strategy_rngs"]] if "strategy_rngs" in data
        else checkpoint.view_rngs,
    }


def _checkpoint(data: dict[str, Any], seed: int, options: GameOptions, state: GameState,
                n: int) -> dict[str, Any]:
    """The checkpoint's fields of a position that gives every one of them."""
    return {
        "seed": seed, "options": options, "state": state, "rng": _rng(data["rng"]),
        "decisions": _int(data, "decisions", 0),
        "answers": [_tuples(a) for a in data.get("answers", [])],
        "told": _int(data, "told", 0), "records": _records(data.get("records"), state),
        "narration": data.get("narration"), "setup": data["setup"],
        "view_rngs": [_rng(r) for r in data["strategy_rngs"]],
    }


def box_of(text: str) -> tuple[str | None, tuple[str, ...]]:
    """The box a position was played with: the folder of a box of one's own (None: the
    built-in box) and the box values it changed, as ``KEY=VALUE`` strings (``--variant``).
    A text that is not a position gives the built-in box: ``from_text`` says what is wrong."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return None, ()
    return _box_given(data) if isinstance(data, dict) else (None, ())


def _box_given(data: dict[str, Any]) -> tuple[str | None, tuple[str, ...]]:
    given = data.get("box")
    if given is None:
        return None, ()
    if not isinstance(given, dict) or set(given) - {"dir", "variants"}:
        raise PositionError('box: expected {"dir": FOLDER or null, "variants": [KEY=VALUE...]}')
    folder, variants = given.get("dir"), given.get("variants", [])
    if folder is not None and not isinstance(folder, str):
        raise PositionError(f"box.dir: expected a folder or null, got {folder!r}")
    if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
        raise PositionError("box.variants: expected a list of KEY=VALUE strings")
    return folder, tuple(variants)


def _check_box(data: dict[str, Any], box: Box) -> None:
    """Refuse a box whose changed values differ from the ones the position was played with
    (a game continued under other rules than it began with, silently), naming the first."""
    from zsim.options import OptionError
    from zsim.variants import parse

    if "box" not in data:
        return
    try:
        wanted = dict(parse(_box_given(data)[1]).box)
    except OptionError as error:
        raise PositionError(f"box.variants: {error}") from None
    have = dict(box.overrides)
    for key in sorted(set(wanted) | set(have)):
        if wanted.get(key, _UNSET) != have.get(key, _UNSET):
            played = f"{key}={wanted[key]!r}" if key in wanted else f"{key} as the box has it"
            given = f"{key}={have[key]!r}" if key in have else f"{key} as the box has it"
            raise PositionError(f"box.variants: the position was played with {played}, the "
                                f"box given has {given}")


_UNSET = object()


def _int(data: dict[str, Any], key: str, default: int | None = None) -> int:
    value = data.get(key, default)
    if type(value) is not int:
        raise PositionError(f"{key}: expected a whole number, got {value!r}")
    return value


def _options(variants: Any) -> GameOptions:
    if not isinstance(variants, dict):
        raise PositionError("variants: expected a mapping of rule options")
    try:
        values = dict(variants)
        if "setup" in values:
            values["setup"] = _tuples(values["setup"])
        return GameOptions(**values)
    except TypeError as error:
        raise PositionError(f"variants: {error}") from None


def _read_state(data: dict[str, Any], state: GameState, ids: dict[str, int], box: Box) -> None:
    rules = box.board.rules
    highest = {"round": rules.rounds,
               "step": 3 * rules.cards_per_suit_per_round * state.n}  # the turns of a round
    for key in ("round", "step"):
        if key in data:
            value = _int(data, key)
            if not 0 <= value <= highest[key]:
                raise PositionError(f"{key}: {value}; expected 0 to {highest[key]}")
            setattr(state, key, value)
    if "stage" in data:
        if data["stage"] not in STAGES:
            raise PositionError(f"stage: {data['stage']!r}; one of {', '.join(STAGES)}")
        state.stage = STAGES.index(data["stage"])
    placed: dict[int, str] = {}
    board = data.get("board", {})
    if not isinstance(board, dict):
        raise PositionError("board: expected a mapping of the table's fields")
    for field, value in board.items():
        if field not in fields(GameState) or field in ("players", "hands", "decks", "n"):
            raise PositionError(f"board.{field}: no such field of the table")
        setattr(state, field, _value(f"board.{field}", field, value, getattr(state, field),
                                     ids, box, placed))
    players = data.get("players", [])
    if not isinstance(players, list) or len(players) > state.n:
        raise PositionError(f"players: expected a list of at most {state.n} player boards")
    for seat, given in enumerate(players):
        p = state.players[seat]
        for field, value in given.items():
            if field not in fields(PlayerState) or field == "seat":
                raise PositionError(f"players[{seat}].{field}: no such field of a player")
            read = _value(f"players[{seat}].{field}", field, value, getattr(p, field), ids,
                          box, placed)
            if field in COUNTS:
                _check_counts(f"players[{seat}].{field}", read)
            setattr(p, field, read)
    _fill_supplies(board, players, state, box)
    if "hands" in data:
        state.hands = _value("hands", "hands", data["hands"], state.hands, ids, box, placed)
    if "decks" in data:
        state.decks = _value("decks", "decks", data["decks"], state.decks, ids, box, placed)
    else:  # the cards placed elsewhere leave the decks a fresh setup dealt
        state.decks = [[c for c in deck if c not in placed] for deck in state.decks]


def _fill_supplies(board: dict[str, Any], players: list[Any], state: GameState,
                   box: Box) -> None:
    """What the text leaves out and its pieces decide: each supply a player or the table keeps
    of what the text places (Officials, Governors, Palaces, Walls, soldiers, tokens), so that
    every piece is in one place (``zsim.invariants``), and whether the next Court card is the
    game's first (only while the Court pile is empty). A text that places more pieces than the
    box has is refused, naming the field."""
    rules, n = box.board.rules, state.n
    small = next(count for players, count in rules.small_tokens.items() if players == n)
    if "court_free" not in board:
        state.court_free = not state.court
    for suit in range(3):
        for field, total, held in (("supply", small, "tokens"),
                                   ("large_on_board", 1, "large")):
            if field not in board:
                left = total - sum(getattr(p, held)[suit] for p in state.players)
                if left < 0:
                    raise PositionError(f"players[*].{held}: {total - left} of suit {suit} "
                                        f"held, the box has {total}")
                getattr(state, field)[suit] = left
    for p in state.players:
        given = players[p.seat] if p.seat < len(players) else {}
        if "official_supply" not in given:
            on_board = [sum(region[kind] for region in p.officials) for kind in range(3)]
            if max(on_board) > rules.officials_per_type:
                raise PositionError(f"players[{p.seat}].officials: {max(on_board)} of one type "
                                    f"placed, a player has {rules.officials_per_type}")
            p.official_supply = [rules.officials_per_type - k for k in on_board]
        placed = {  # supply field: (the box's count, where the text places them, how many)
            "governors": (rules.governors, "board.governor_count",
                          sum(row[p.seat] for row in state.governor_count)),
            "palaces": (rules.palaces, "board.palace_count",
                        sum(row[p.seat] for row in state.palace_count)),
            "walls": (rules.walls, "board.walls",
                      sum(w.slots.count(p.seat) for w in state.walls)),
            "soldiers": (rules.soldiers, "board.mausoleum and the entrance",
                         p.entrance + sum(m.slots.count(p.seat) for m in state.mausoleum)),
        }
        for field, (total, where, used) in placed.items():
            if field in given:
                continue
            if used > total:
                raise PositionError(f"{where}: {used} of seat {p.seat}'s {field} placed, a "
                                    f"player has {total}")
            setattr(p, field, total - used)


def _value(where: str, field: str, value: Any, before: Any, ids: dict[str, int], box: Box,
           placed: dict[int, str]) -> Any:
    """A field's value read back into the state's own types."""
    if where == "board.walls":
        return [_section(f"{where}[{i}]", v) for i, v in enumerate(_list(where, value))]
    if where == "board.mausoleum":
        return [_spot(f"{where}[{i}]", v) for i, v in enumerate(_list(where, value))]
    if field == "lisi":
        return None if value is None else _lisi(where, value, box)
    if field == "emperor":  # marks on cards of the tableaux: no place of their own
        return _card_ids(where, value, ids, {})
    if field in CARD_FIELDS:
        return _card_ids(where, value, ids, placed)
    if isinstance(before, dict):
        if not isinstance(value, dict):
            raise PositionError(f"{where}: expected a mapping")
        return dict(value)
    if isinstance(before, tuple):
        return _tuples(value)
    return _lists(value)


# The fields of a player board that count pieces, tokens, VP...: whole numbers, never negative
# (a board with -3 Workers played on to a winner), nor beyond what a game can hold.
COUNTS = frozenset({"unrest", "officials", "official_supply", "workers", "governors", "palaces",
                    "walls", "soldiers", "entrance", "ship", "tokens", "large", "vp", "stats"})
MAX_COUNT = 1_000_000


def _check_counts(where: str, value: Any) -> None:
    """Refuse a count that is not a whole number from 0 to ``MAX_COUNT``, naming it."""
    items = value.items() if isinstance(value, dict) else enumerate(
        value if isinstance(value, list | tuple) else [value])
    for key, item in items:
        if isinstance(item, list | tuple):
            _check_counts(f"{where}[{key}]", item)
        elif type(item) is not int or not 0 <= item <= MAX_COUNT:
            at = f"{where}[{key!r}]" if isinstance(value, dict | list | tuple) else where
            raise PositionError(f"{at}: {item!r}; expected a whole number from 0 to "
                                f"{MAX_COUNT:,}")


def _list(where: str, value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise PositionError(f"{where}: expected a list")
    return value


def _card_ids(where: str, value: Any, ids: dict[str, int], placed: dict[int, str]) -> Any:
    if isinstance(value, dict):
        return {_card(where, k, ids, placed): v for k, v in value.items()}
    if isinstance(value, list):
        return [_card_ids(f"{where}[{i}]", v, ids, placed) for i, v in enumerate(value)]
    return _card(where, value, ids, placed)


def _card(where: str, name: Any, ids: dict[str, int], placed: dict[int, str]) -> int:
    """A card's id; a card already placed elsewhere (``placed``: card -> where) is refused:
    a game with two copies of one card plays on with more cards than the box has."""
    card = ids.get(name) if isinstance(name, str) else None
    if card is None:
        raise PositionError(f"{where}: no card is called {name!r} (cards are named as "
                            "'Writing 12', 'Alchemist a1'...)")
    if card in placed:
        raise PositionError(f"{where}: {name!r} is placed twice (also in {placed[card]})")
    placed[card] = where
    return card


def _section(where: str, value: Any) -> WallSection:
    try:
        section = WallSection(value["site"], tuple(value["tiers"]), value["wall_tile"],
                              value["wall_face"], value["emperor_tile"])
        section.slots = list(value["slots"])
        section.first_builder = value["first_builder"]
    except (KeyError, TypeError) as error:
        raise PositionError(f"{where}: a Wall section needs {error}") from None
    return section


def _spot(where: str, value: Any) -> MausoleumSpot:
    try:
        spot = MausoleumSpot(value["binding"], value["where"], value["tile"], value["condition"], 0)
        spot.slots = list(value["slots"])
    except (KeyError, TypeError) as error:
        raise PositionError(f"{where}: a Mausoleum spot needs {error}") from None
    return spot


def _lisi(where: str, value: Any, box: Box) -> LiSi:
    cards = {c.level: c for c in box.solo.lisi_cards}
    if value.get("level") not in cards:
        raise PositionError(f"{where}.level: Li Si plays at level {', '.join(map(str, cards))}")
    lisi = LiSi(value["seat"], cards[value["level"]])
    for field in fields(LiSi):
        if field not in ("seat", "card") and field in value:
            setattr(lisi, field, _tuple_items(value[field])
                    if field == "palace_tiles" else list(value[field]))
    return lisi


def _tuple_items(value: list[Any]) -> list[tuple[Any, ...]]:
    return [tuple(v) for v in value]


def _records(value: Any, state: GameState) -> ResultRecorder:
    """The records of a position. Without a ``ledger`` (the VP scored so far, by seat and
    category, which the end-of-game audit holds the score sheet to), the players' VP in the
    position count as scored."""
    records = ResultRecorder(state.n)
    records.ledger = [dict(p.vp) for p in state.players]
    if value is None:
        return records
    for field in fields(ResultRecorder):
        if field in value:
            rows = value[field]
            setattr(records, field, list(rows) if field == "start_tiles"
                    else [dict(row) for row in rows] if field == "ledger"
                    else [tuple(row) for row in rows])
    return records


def _rng_json(state: tuple[Any, ...]) -> list[Any]:
    """A ``random.Random`` state (version, 625 words, gauss) as JSON."""
    version, words, gauss = state
    return [version, list(words), gauss]


def _rng(value: Any) -> tuple[Any, ...]:
    """A random generator's state as ``random.getstate()`` gives it, checked by setting it on a
    generator (a wrong one would fail the game later, far from the text that held it)."""
    try:
        version, words, gauss = value
        state = version, tuple(words), gauss
        random.Random().setstate(state)
    except (TypeError, ValueError, OverflowError):
        raise PositionError("rng: expected [version, [words], gauss] as random.getstate() "
                            "gives, or null") from None
    return state


def _tuples(value: Any) -> Any:
    """JSON lists back to tuples (an answer, a random state)."""
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value


def _lists(value: Any) -> Any:
    """JSON lists as the state's lists (nested)."""
    if isinstance(value, list):
        return [_lists(v) for v in value]
    return value
