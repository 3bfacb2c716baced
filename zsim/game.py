"""The round and phase loop, the seat that asks strategies, and the result of a game.

A game is a pure function of (box, options, strategies by seat, seed): every shuffle and setup
draw comes from one ``random.Random(seed)``, and each seat's strategy gets its own RNG derived
from the same seed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from zsim.components import Box
from zsim.components.schema import COLOURS, COURT_ACTIONS, REGIONS
from zsim.decisions import Decision, IllegalChoice
from zsim.options import GameOptions, OptionError
from zsim.rules import constraints, lisi, rewards, scoring, setup, turn
from zsim.rules.lisi import LiSiSeat
from zsim.rules.tables import ALCHEMIST, CARD_TYPES, Tables, compile_tables
from zsim.state import GameState, PlayerState
from zsim.view import PlayerView

if TYPE_CHECKING:
    from strategies.base import Strategy

# What the long tables' records hold, field by field. A record is a plain tuple, not a dict: a
# game makes dozens, and a tuple takes a quarter of a dict's time to make and is turned into
# columns by a plain zip (``zsim.runner.tables``).
RECORD_FIELDS: dict[str, tuple[str, ...]] = {
    "walls": ("seat", "section", "tier", "vp", "tile", "face"),
    "rewards": ("round", "aspect", "seat", "reward"),
    "abilities": ("round", "seat", "card", "source", "suit", "trigger", "emperor", "ability",
                  "option", "vp"),
    "tiles": ("round", "seat", "kind", "tile", "region", "section"),
}


@dataclass
class GameResult:
    """Everything a game produces for the result tables (plain data, no engine objects)."""

    seed: int
    n_players: int
    strategies: list[str]
    scores: list[dict[str, int]]  # per seat: vp_* categories and vp_total
    ranks: list[int]
    winners: list[int]
    setup: dict[str, Any]
    stats: list[dict[str, int]]  # per seat activity counters
    start_tiles: list[str]  # the Starting tile each seat kept
    colours: list[str]  # the colour dealt to each seat (and with it its Alchemist set)
    # the long tables' records, tuples of RECORD_FIELDS[name]
    walls: list[tuple[Any, ...]] = field(default_factory=list)
    rewards: list[tuple[Any, ...]] = field(default_factory=list)
    abilities: list[tuple[Any, ...]] = field(default_factory=list)  # tableau activations
    tiles: list[tuple[Any, ...]] = field(default_factory=list)  # tiles the players got
    decisions: int = 0
    log: list[str] | None = None

    def player_rows(self) -> list[dict[str, Any]]:
        rows = []
        for seat in range(self.n_players):
            row: dict[str, Any] = {
                "seat": seat,
                "strategy": self.strategies[seat],
                "n_players": self.n_players,
                "seed": self.seed,
                "start_tile": self.start_tiles[seat],
                "colour": self.colours[seat],
                **self.scores[seat],
                "rank": self.ranks[seat],
                "winner": seat in self.winners,
                "win_share": 1.0 / len(self.winners) if seat in self.winners else 0.0,
            }
            row.update(self.stats[seat])
            rows.append(row)
        return rows


class Listener(Protocol):
    """Someone following a game as it is played (``zsim.viewer.record.StepRecorder``).

    ``kind`` is ``say`` (``line``: a narration line; the game is narrated), ``decision``
    (``decision`` and the ``answer`` given, before the rules act on it), ``turn`` (``seat``,
    whose turn begins) or ``phase`` (``phase``: ``rewards`` when the round's Unification
    rewards begin). The engine only reports; a listener must not change the game.
    """

    def event(self, game: Game, kind: str, data: dict[str, Any]) -> None: ...


class Game:
    """Holds the state of one game and asks each seat's strategy for its decisions."""

    def __init__(self, box: Box, strategies: list[Strategy], seed: int,
                 options: GameOptions | None = None, narrate: bool = False) -> None:
        n = len(strategies)
        if not 2 <= n <= 4:
            raise ValueError(f"a game needs 2 to 4 players, got {n}")
        self.options = options or GameOptions()
        board_ids = [b.id for b in box.unification_boards]
        if self.options.board not in ("random", *board_ids):
            raise OptionError(f"variant board={self.options.board!r}: expected random or one "
                              f"of {', '.join(board_ids)}")
        self.t: Tables = compile_tables(box)
        constraints.check(box, self.t, n, self.options)
        self.rules = box.board.rules
        self.n = n
        self.seed = seed
        self.strategies = strategies
        self.log: list[str] | None = [] if narrate else None
        # Set to follow the game step by step; None in plain runs, where it costs one test per
        # decision and per turn.
        self.listener: Listener | None = None
        self.decisions = 0
        self.walls: list[tuple[Any, ...]] = []
        self.rewards: list[tuple[Any, ...]] = []
        self.abilities: list[tuple[Any, ...]] = []
        self.tiles: list[tuple[Any, ...]] = []
        self.rng = random.Random(seed)
        self.state: GameState = setup.build_state(self, self.options, self.rng)
        solo = [seat for seat, s in enumerate(strategies) if isinstance(s, LiSiSeat)]
        if solo:
            if n != 2 or len(solo) != 1:
                raise ValueError("Li Si plays only in a 2-seat game against one player")
            lisi.setup(self, solo[0], strategies[solo[0]].level)
        self.setup = self.setup_features()
        self.start_tiles = [""] * n
        self.views = [PlayerView(self, seat, random.Random(seed * 8 + seat + 1))
                      for seat in range(n)]

    # --- talking to strategies -------------------------------------------------------------

    def ask(self, seat: int, kind: str, options: list, context: dict | None = None) -> Any:
        """Return the seat's choice among ``options``; a lone option needs no question."""
        if len(options) == 1:
            return options[0]
        if not options:
            raise RuntimeError(f"engine offered no option for a {kind!r} decision")
        self.decisions += 1
        decision = Decision(kind, seat, options, context)
        strategy = self.strategies[seat]
        answer = strategy.choose(self.views[seat], decision)
        if not offered(answer, options):
            raise IllegalChoice(strategy.name, decision, answer, self.seed)
        if self.listener is not None:
            self.listener.event(self, "decision", {"decision": decision, "answer": answer})
        return answer

    def say(self, line: str) -> None:
        if self.log is not None:
            self.log.append(line)
            if self.listener is not None:
                self.listener.event(self, "say", {"line": line})

    def name(self, p: PlayerState) -> str:
        return f"{COLOURS[p.colour]} ({self.strategies[p.seat].name})"

    def record_reward(self, seat: int, aspect: str, reward: str) -> None:
        self.rewards.append((self.state.round, aspect, seat, reward))

    def record_ability(self, seat: int, card: int, option: int, vp: int) -> None:
        """One activation of a tableau card's ability, for the cards report."""
        t = self.t
        player = self.state.players[seat]
        trigger = player.emperor.get(card, t.card_trigger[card])
        source = ("master" if card in t.master_cards else
                  "alchemist" if t.card_type[card] == ALCHEMIST else "card")
        self.abilities.append((
            self.state.round, seat, t.card_name[card], source, CARD_TYPES[t.card_type[card]],
            COURT_ACTIONS[trigger], card in player.emperor, t.card_ability_id[card], option, vp,
        ))

    def record_tile(self, seat: int, kind: str, index: int, region: int | None = None,
                    section: int | None = None) -> None:
        """A tile the seat got (``kind`` palace, governor, emperor or starting; ``index`` into
        the box's tiles of that kind), where it lay, and when, for the tiles table."""
        self.tiles.append((
            self.state.round, seat, kind, getattr(self.t.box, f"{kind}_tiles")[index].id,
            REGIONS[region] if region is not None else None, section,
        ))

    def record_walls(self, seat: int, walls: list[tuple[int, int, int]]) -> None:
        box = self.t.box
        for section, tier, vp in walls:
            wall = self.state.walls[section]
            self.walls.append((seat, section, tier, vp, box.wall_tiles[wall.wall_tile].id,
                               wall.wall_face))

    # --- the loop --------------------------------------------------------------------------

    def play(self) -> GameResult:
        state, rules = self.state, self.rules
        setup.deal_starting_tiles(self, self.rng)
        for round_number in range(1, rules.rounds + 1):
            state.round = round_number
            if self.log is not None:
                self.say(f"=== Round {round_number} ===")
            if self.options.court_reset and round_number > 1:
                state.discard.extend(state.court)
                state.court.clear()
                state.court_free = True
            self.draw_cards()
            for _ in range(3 * rules.cards_per_suit_per_round):
                for seat in state.turn_order:
                    if self.listener is not None:
                        self.listener.event(self, "turn", {"seat": seat})
                    if state.lisi is not None and seat == state.lisi.seat:
                        lisi.take_turn(self)
                    elif state.hands[seat]:
                        turn.play_turn(self, state.players[seat])
            if self.listener is not None:
                self.listener.event(self, "phase", {"phase": "rewards"})
            if self.log is not None:
                self.say("--- Unification rewards ---")
            rewards.unification_phase(self)
            if state.lisi is not None:
                lisi.end_round(self)
        return self.result()

    def draw_cards(self) -> None:
        """Each seat draws from every suit; Li Si's cards form his face-down Unification deck."""
        state = self.state
        for seat in state.turn_order:
            hand = state.hands[seat]
            for deck in state.decks:
                for _ in range(self.rules.cards_per_suit_per_round):
                    if deck:
                        hand.append(deck.pop())
            if state.lisi is not None and seat == state.lisi.seat:
                self.rng.shuffle(hand)
            else:
                hand.sort()

    def result(self) -> GameResult:
        scores = scoring.final_scores(self)
        totals = [s["vp_total"] for s in scores]
        best = max(totals)
        return GameResult(
            seed=self.seed,
            n_players=self.n,
            strategies=[s.name for s in self.strategies],
            scores=scores,
            ranks=scoring.ranks(totals),
            winners=[seat for seat, t in enumerate(totals) if t == best],
            setup=self.setup,
            start_tiles=self.start_tiles,
            colours=[COLOURS[p.colour] for p in self.state.players],
            stats=[self.final_stats(p) for p in self.state.players],
            walls=self.walls,
            rewards=self.rewards,
            abilities=self.abilities,
            tiles=self.tiles,
            decisions=self.decisions,
            log=self.log,
        )

    def final_stats(self, p: PlayerState) -> dict[str, int]:
        stats = dict(p.stats)
        stats["n_ship"] = p.ship
        stats["n_soldiers_left"] = p.entrance
        return stats

    def setup_features(self) -> dict[str, Any]:
        """What setup drew, for the games table and the component reports."""
        box, state = self.t.box, self.state
        features: dict[str, Any] = {
            "unification_board": box.unification_boards[state.reward_board].id,
            "mausoleum_mode": self.options.mausoleum,
            "court_reset": self.options.court_reset,
            "mausoleum_layout": "|".join(
                f"{spot.binding}:{spot.condition}" for spot in state.mausoleum),
            "first_player": state.turn_order[0],
            "lisi_level": state.lisi.card.level if state.lisi is not None else 0,
        }
        for s, section in enumerate(state.walls, start=1):
            features[f"wall_tile_{s}"] = box.wall_tiles[section.wall_tile].id
            features[f"wall_face_{s}"] = section.wall_face
            features[f"emperor_tile_{s}"] = (
                box.emperor_tiles[section.emperor_tile].id if section.emperor_tile >= 0 else "")
        for r, region in enumerate(REGIONS):
            features[f"palace_tiles_{region}"] = ",".join(
                box.palace_tiles[kind].id for kind in state.palace_tiles[r])
            features[f"governor_tiles_{region}"] = ",".join(
                box.governor_tiles[kind].id for kind, _ in state.governor_slots[r])
        features["master_alchemists"] = ",".join(
            self.t.card_name[c] for c in state.master_available)
        return features


def offered(answer: Any, options: list) -> bool:
    """Whether ``answer`` is one of ``options``: the very object offered, or a value of exactly
    an option's type (ints, strings and tuples of them) equal to it.

    ``answer in options`` would ask the answer's own ``__eq__``, which a strategy controls: an
    object equal to everything would pass, and break the engine later, far from the strategy
    that gave it."""
    kind = type(answer)
    if kind is int or kind is str:
        return answer in options
    for option in options:
        if option is answer:
            return True
    return kind is tuple and _plain(answer) and answer in options


def _plain(value: Any) -> bool:
    """Made only of ints, strings and tuples, whose comparisons no strategy can change."""
    kind = type(value)
    if kind is int or kind is str:
        return True
    return kind is tuple and all(_plain(part) for part in value)


def play_game(box: Box, strategies: list[Strategy], seed: int,
              options: GameOptions | None = None, narrate: bool = False) -> GameResult:
    """Set up and play one whole game."""
    return Game(box, strategies, seed, options, narrate).play()
