"""A game as a list of steps, each with the table as it stood: what the viewer page shows.

``StepRecorder`` is a ``zsim.game.Listener``: the engine tells it of every narration line,
decision, turn and phase, and it keeps, per step, the line or the question (the options offered,
the one chosen, and the bot's value of each where the bot gives them) and a snapshot of the
table. The record is plain JSON-able data; the page (``zsim.viewer.page``) reads nothing else,
so any source of the same events (a future event bus of the engine) can feed it unchanged.

A step's snapshot is taken when its event arrives: after the change a narration line tells of,
and before the rules act on a decision's answer. Consecutive equal snapshots are stored once,
and so is each distinct player board: a snapshot names its players' boards by their index in
``boards``, since most steps change one player's board at most (it halves the page).
"""

from __future__ import annotations

import base64
import gzip
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from zsim.components.schema import COLOURS, COURT_ACTIONS, OFFICIALS, REGIONS, SUITS
from zsim.describe import describe, question
from zsim.game import Game, GameResult
from zsim.rules.lisi import LiSiSeat
from zsim.rules.scoring import CATEGORIES, IN_GAME_CATEGORIES
from zsim.rules.tables import CARD_TYPES
from zsim.state import GameState, PlayerState
from zsim.variants import played

if TYPE_CHECKING:
    from zsim.decisions import Decision, Player
    from zsim.lineup import SeatedGame

FORMAT = 1  # the record's layout version, read by the page


def seat_colour(game: Game, seat: int) -> str:
    """The colour a seat plays (the one place the viewer reads it)."""
    return COLOURS[game.state.players[seat].colour]


def seat_label(game: Game, seat: int) -> str:
    """Who plays a seat: its strategy's name, or ``outside`` for a seat answered from outside
    the game (``Game.pending``/``answer``), as the engine's narration calls it."""
    strategy = game.strategies[seat]
    return strategy.name if strategy is not None else "outside"


@dataclass
class StepRecorder:
    """Collects the steps of one game; see the module docstring."""

    steps: list[dict[str, Any]] = field(default_factory=list)
    states: list[dict[str, Any]] = field(default_factory=list)
    boards: list[dict[str, Any]] = field(default_factory=list)  # distinct player boards
    _board_index: dict[str, int] = field(default_factory=dict, repr=False)
    turn: int = 0  # numbers the turns and phases, so that the page can step turn by turn
    seat: int | None = None  # whose turn it is (None in a phase that is no one's turn)

    def event(self, game: Game, kind: str, data: dict[str, Any]) -> None:
        if kind == "turn":
            self.turn += 1
            self.seat = data["seat"]
        elif kind == "phase":
            self.turn += 1
            self.seat = None
        elif kind == "say":
            self._step(game, "say", data["line"])
        elif kind == "decision":
            self._decision(game, data["decision"], data["answer"])

    def _step(self, game: Game, kind: str, text: str, **extra: Any) -> dict[str, Any]:
        if self.steps and self.steps[-1]["round"] != game.state.round:
            self.turn += 1  # a new round opens before its first turn
            self.seat = None
        snapshot = table_snapshot(game)
        snapshot["players"] = [self._board(board) for board in snapshot["players"]]
        if not self.states or self.states[-1] != snapshot:
            self.states.append(snapshot)
        step = {"kind": kind, "round": game.state.round, "turn": self.turn, "seat": self.seat,
                "text": text, "state": len(self.states) - 1, **extra}
        self.steps.append(step)
        return step

    def _board(self, board: dict[str, Any]) -> int:
        key = json.dumps(board, sort_keys=True)
        index = self._board_index.get(key)
        if index is None:
            index = self._board_index[key] = len(self.boards)
            self.boards.append(board)
        return index

    def _decision(self, game: Game, decision: Decision, answer: Any) -> None:
        view = game.views[decision.seat]
        options = decision.options
        values = option_values(game, decision)
        self._step(game, "decision", f"{game.name(game.state.players[decision.seat])}: "
                   f"{question(view, decision)}", decision=decision.kind,
                   by=decision.seat, options=[describe(view, decision, o) for o in options],
                   chosen=options.index(answer), values=values)

    def finish(self, game: Game, result: GameResult) -> dict[str, Any]:
        """The whole record, once the game is over: its meta data, steps and snapshots."""
        self.turn += 1
        self.seat = None
        winners = ", ".join(game.name(game.state.players[s]) for s in result.winners)
        self._step(game, "final", f"Final scoring. Winner{'s' if len(result.winners) > 1 else ''}"
                   f": {winners}", scores=result.scores)
        return self._record(game, result)

    def failed(self, game: Game, error: BaseException) -> dict[str, Any]:
        """The record of a game that stopped on an error, up to the error (its last step)."""
        self._step(game, "failed", f"The game failed here: {type(error).__name__}: {error}")
        return self._record(game, None)

    def _record(self, game: Game, result: GameResult | None) -> dict[str, Any]:
        return {"format": FORMAT, "meta": game_meta(game, result), "steps": self.steps,
                "states": self.states, "boards": self.boards}


def option_values(game: Game, decision: Decision) -> list[float | None] | None:
    """The deciding bot's value of each option (``strategy_values``)."""
    return strategy_values(game.strategies[decision.seat], game.views[decision.seat], decision)


def strategy_values(strategy: Any, view: Any, decision: Decision) -> list[float | None] | None:
    """A bot's value of each option, when it can say (an ``option_values`` method returning
    one number, or None, per option: it must leave the game, the view's RNG and memory as it
    found them). None when the bot weighed none of them."""
    values = getattr(strategy, "option_values", None)
    if values is None:
        return None
    found = values(view, decision)
    if found is None or all(v is None for v in found):
        return None
    return [None if v is None else round(float(v), 2) for v in found]


class GameFailed(Exception):
    """A recorded game stopped on an error; ``record`` holds the game up to it."""

    def __init__(self, error: Exception, record: dict[str, Any]) -> None:
        super().__init__(f"{type(error).__name__}: {error}")
        self.error = error
        self.record = record


def record_game(seated: SeatedGame) -> tuple[GameResult, dict[str, Any]]:
    """Play one game, narrated, and return its result and its step record. A game that fails
    raises ``GameFailed``, with the record up to the failure."""
    game = Game(seated.box, list(seated.strategies), seated.seed, seated.options, narrate=True)
    recorder = StepRecorder()
    game.listen(recorder)
    try:
        result = game.play()
    except Exception as error:
        raise GameFailed(error, recorder.failed(game, error)) from error
    record = recorder.finish(game, result)
    record["positions"] = packed_positions(seated, record["steps"])
    return result, record


POSITION_BREAK = "\x1e"  # between two position texts in the packed list


def positions(seated: SeatedGame, steps: list[dict[str, Any]]) -> list[str]:
    """The position text (``Game.to_text``) at each decision step, in order: the game is played
    again with the answers recorded, every seat answered from outside but Li Si's. The bots'
    own random states are left out of these texts (``zsim play --from`` seeds them afresh)."""
    seats: list[Player | LiSiSeat | None] = [s if isinstance(s, LiSiSeat) else None
                                             for s in seated.strategies]
    game = Game(seated.box, seats, seated.seed, seated.options)
    texts: list[str] = []
    for step in steps:
        if step["kind"] != "decision":
            continue
        decision = game.pending()
        assert decision is not None and decision.kind == step["decision"]
        step["position"] = len(texts)
        texts.append(game.to_text(strategy_rngs=False))
        game.answer(decision.options[step["chosen"]])
    return texts


def packed_positions(seated: SeatedGame, steps: list[dict[str, Any]]) -> str:
    """``positions``, joined and gzipped, as base64 text: consecutive positions differ little,
    so a game's hundreds of texts take a few hundred kB (the page unpacks them on demand)."""
    joined = POSITION_BREAK.join(positions(seated, steps)).encode()
    return base64.b64encode(gzip.compress(joined, compresslevel=9, mtime=0)).decode("ascii")


# --- what a snapshot holds -------------------------------------------------------------------


def table_snapshot(game: Game) -> dict[str, Any]:
    """Everything on the table at this moment (the hands too: the viewer sees them all)."""
    state = game.state
    snapshot: dict[str, Any] = {
        "court": state.court[-1] if state.court else None,
        "court_size": len(state.court),
        "court_free": state.court_free,
        "supply": state.supply[:],
        "large": state.large_on_board[:],
        "decks": [len(deck) for deck in state.decks],
        "order": state.turn_order[:],
        "markers": state.marker_column[:],
        "palaces": [row[:] for row in state.palace_count],
        "palace_tiles": [[game.t.box.palace_tiles[k].id for k in row]
                         for row in state.palace_tiles],
        "governors": [row[:] for row in state.governor_count],
        "governor_slots": [[[game.t.box.governor_tiles[k].id, holder] for k, holder in row]
                           for row in state.governor_slots],
        "walls": [section.slots[:] for section in state.walls],
        "mausoleum": [spot.slots[:] for spot in state.mausoleum],
        "masters": state.master_available[:],
        "players": [_player(state, p) for p in state.players],
    }
    if state.lisi is not None:
        lisi = state.lisi
        snapshot["lisi"] = {"deck": len(lisi.deck), "discard": len(lisi.discard),
                            "palace_tiles": [game.t.box.palace_tiles[k].id
                                             for _, k in lisi.palace_tiles]}
    return snapshot


def _player(state: GameState, p: PlayerState) -> dict[str, Any]:
    return {
        "tableau": [cards[:] for cards in p.tableau],
        "emperor": {str(card): COURT_ACTIONS[action] for card, action in p.emperor.items()},
        "unrest": p.unrest[:],
        "officials": [row[:] for row in p.officials],
        "official_supply": p.official_supply[:],
        "workers": p.workers[:],
        "governors": p.governors,
        "palaces": p.palaces,
        "walls": p.walls,
        "soldiers": p.soldiers,
        "entrance": p.entrance,
        "alchemists": len(p.alchemist_supply),
        "ship": p.ship,
        "tokens": p.tokens[:],
        "large": p.large[:],
        "vp": {category: p.vp.get(category, 0) for category in IN_GAME_CATEGORIES},
        "hand": sorted(state.hands[p.seat]),
    }


def game_meta(game: Game, result: GameResult | None) -> dict[str, Any]:
    """What does not change during the game: who plays, the cards, the board's layout."""
    t, box, state = game.t, game.t.box, game.state
    cards = {}
    for card in range(1, len(t.card_name)):
        if t.card_name[card]:
            ability = t.card_ability[card]
            cards[str(card)] = {"name": t.card_name[card], "type": CARD_TYPES[t.card_type[card]],
                                "trigger": COURT_ACTIONS[t.card_trigger[card]],
                                "text": ability.text if ability else ""}
    walls = []
    for section in state.walls:
        tile = box.wall_tiles[section.wall_tile]
        scoring = tile.a if section.wall_face == "a" else tile.b
        emperor = box.emperor_tiles[section.emperor_tile] if section.emperor_tile >= 0 else None
        walls.append({"site": section.site, "tiers": list(section.tiers), "tile": tile.id,
                      "face": section.wall_face, "scores": _wall_scoring(scoring),
                      "emperor": emperor.action if emperor else None})
    board = box.unification_boards[state.reward_board]
    elixir = box.board.elixir
    return {
        "seed": game.seed,
        "n_players": game.n,
        "players": [{"seat": seat, "colour": seat_colour(game, seat),
                     "strategy": seat_label(game, seat)} for seat in range(game.n)],
        "regions": [r.capitalize() for r in REGIONS],
        "suits": [s.capitalize() for s in SUITS],
        "officials": [o.capitalize() for o in OFFICIALS],
        "rounds": game.rules.rounds,
        "cards": cards,
        "walls": walls,
        "sites": box.board.wall.sites,
        "elixir": {"vp": list(elixir.vp), "symbols": list(elixir.elixir_spaces),
                   "master": elixir.master_alchemist_space},
        "mausoleum": {"columns": len(box.board.mausoleum.grid[0]),
                      "slot_values": list(box.board.mausoleum.slot_values),
                      "usable": t.mausoleum_slots[game.n],
                      "spots": [{"binding": spot.binding, "condition": spot.condition,
                                 "tile": box.mausoleum_tiles[spot.tile].id}
                                for spot in state.mausoleum]},
        "rewards": {"board": board.id, "aspects": [
            {"aspect": a.aspect, "rounds": [box.abilities[r].text for r in a.rewards]}
            for a in board.aspects]},
        "categories": list(CATEGORIES),
        "in_game_categories": list(IN_GAME_CATEGORIES),
        "result": None if result is None else {
            "scores": result.scores, "ranks": result.ranks, "winners": result.winners},
        "solo": state.lisi is not None,
        "lisi_seat": state.lisi.seat if state.lisi is not None else None,
        "variants": played(game.options, box),  # the page names the variant played
    }


def _wall_scoring(scoring: Any) -> str:
    counted = scoring.kind.replace("_", " ")
    if scoring.official:
        counted = counted.replace("official", scoring.official)
    values = "/".join(str(v) for v in scoring.values)
    return f"{values} VP by tier, per {counted}"
