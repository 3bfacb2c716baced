"""The engine: a forward model of one game, and the seats that answer its decisions.

A game is a pure function of (box, options, seats, seed): every shuffle and setup draw comes
from one ``random.Random(seed)``, and each seat's strategy gets its own RNG derived from the
same seed.

Where the game stands is data (``GameState.stage``, ``round`` and ``step``), so the game moves in
*segments*: the Starting tiles, the start of a round, one turn, the round's rewards. The rules
of a segment are plain synchronous code that asks its questions through ``Game.ask``. A seat
with a strategy answers at once; a seat without one (``None``) *pauses* the game there, and
``pending()`` returns that question. ``answer(option)`` puts the segment back as it was when it
began and plays it again with the answers given so far plus the new one (the rules are
deterministic, so the replay reaches the same question, and then the next). The replayed
events are not told twice. ``fork()`` copies a game at any question, to be continued
independently; ``fork(seat, rng)`` also redeals the cards that seat cannot see.

Snapshots of the segment's start are taken only when they can be needed: when a seat is
answered from outside, or a seat's strategy says it forks (``forks = True``). Plain runs pay
nothing for the forward model.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, Protocol, cast

from zsim import position
from zsim.components import Box
from zsim.components.schema import COLOURS, REGIONS
from zsim.consult import consult
from zsim.decisions import Decision, IllegalChoice
from zsim.kinds import OPTION_TYPES
from zsim.options import GameOptions, OptionError
from zsim.records import RECORD_FIELDS, RESULT_EVENTS, Narration, ResultRecorder
from zsim.rules import constraints, lisi, rewards, scoring, setup, turn
from zsim.rules.hidden import redeal
from zsim.rules.lisi import LiSiSeat
from zsim.rules.tables import Tables, compile_tables
from zsim.state import GameState, PlayerState, Stage
from zsim.view import PlayerView

if TYPE_CHECKING:
    from zsim.decisions import Player

__all__ = ["RECORD_FIELDS", "Checkpoint", "Game", "GameResult", "Listener", "offered", "play_game"]


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

    def __getnewargs__(self) -> tuple[Any, ...]:
        return _fields(self)

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
    """Someone following a game as it is played (``ResultRecorder``, ``Narration``,
    ``zsim.viewer.record.StepRecorder``).

    Besides the result events (``zsim.records.RESULT_EVENTS``) the engine emits ``say``
    (``line``: a narration line; only when the game is narrated), ``decision`` (``decision``
    and the ``answer`` given, before the rules act on it), ``forced`` (``seat``, ``kind`` and
    the lone ``option`` of a question that had only one, so was never asked), ``turn``
    (``seat``, whose turn begins) and ``phase`` (``phase``: ``rewards`` when the round's
    Unification rewards begin).
    A listener only reads: it must not change the game.
    """

    def event(self, game: Any, kind: str, data: dict[str, Any]) -> None: ...


class Paused(Exception):
    """Raised inside the rules when a seat without a strategy must answer: it unwinds the
    segment, which is played again once the question is answered. Never seen by callers."""

    def __init__(self, decision: Decision) -> None:
        super().__init__(decision.kind)
        self.decision = decision


@dataclass
class Checkpoint:
    """A game saved at a question (or between two segments), as plain picklable data: the
    state at the start of the segment under way and the RNG's state then, the answers given
    since, and what has been recorded and told so far. ``Game.restore`` continues it. The
    strategies' own per-game memory (``PlayerView.memo``) is not part of it; their RNGs are."""

    seed: int
    options: GameOptions
    state: GameState
    rng: tuple[Any, ...]
    decisions: int
    answers: list[Any]
    told: int
    records: ResultRecorder
    narration: list[str] | None
    setup: dict[str, Any]
    view_rngs: list[tuple[Any, ...]]

    def __getnewargs__(self) -> tuple[Any, ...]:
        return _fields(self)


class _Snapshot:
    """A segment's start: the state, the RNG's state and how many events had been told."""

    __slots__ = ("decisions", "rng", "state")

    def __init__(self, state: GameState, rng: tuple[Any, ...], decisions: int) -> None:
        self.state = state  # never changed: each replay plays on a copy
        self.rng = rng
        self.decisions = decisions


class Game:
    """One game: its state, its seats, and the loop that moves it from question to question.

    ``seats`` holds, per seat, a strategy (anything with ``name`` and ``choose(view,
    decision)``), ``LiSiSeat(level)`` for the solo automaton, or ``None`` for a seat answered
    from outside with ``pending()`` / ``answer()``.
    """

    def __init__(self, box: Box, strategies: list[Player | LiSiSeat | None], seed: int,
                 options: GameOptions | None = None, narrate: bool = False, *,
                 blank: bool = False) -> None:
        """``blank``: set nothing up, for ``fork`` and ``restore`` to fill every field
        (compiled classes are made through their constructor)."""
        if blank:
            return
        n = len(strategies)
        if not 2 <= n <= 4:
            raise ValueError(f"a game needs 2 to 4 players, got {n}")
        self.options = options or GameOptions()
        board_ids = [b.id for b in box.unification_boards]
        if self.options.board != "random" and self.options.board not in board_ids:
            raise OptionError(f"variant board={self.options.board!r}: expected random or one "
                              f"of {', '.join(board_ids)}")
        self.t: Tables = compile_tables(box)
        constraints.check(box, self.t, n, self.options)
        self.rules = box.board.rules
        self.n = n
        self._turns_per_round = 3 * self.rules.cards_per_suit_per_round * n
        self.seed = seed
        self.strategies = list(strategies)
        self._wire(ResultRecorder(n), [] if narrate else None)
        self.decisions = 0
        # the forward model: see the module docstring
        self.forkable = any_forks(self.strategies)
        self._snap: _Snapshot | None = None
        self._answers: list[Any] = []  # the answers given since the segment began
        self._cursor = 0  # how many of them the replay has used
        self._pending: Decision | None = None  # the question the game is paused at
        self._asking: Decision | None = None  # the question a strategy is answering now
        self._told = 0  # events emitted since the segment began
        self._mute = 0  # events a replay must not tell again
        self.consults = 0  # strategy calls and outside answers: a view copies once per each
        self.shown: GameState | None = None  # the table last shown to a seat (``PlayerView``)
        # in a determinised fork, the answer from which its own RNG replaces the game's
        self._reseed: tuple[int, tuple[Any, ...]] | None = None
        self.rng = random.Random(seed)
        self.state: GameState = setup.build_state(self, self.options, self.rng)
        solo = [seat for seat, s in enumerate(strategies) if isinstance(s, LiSiSeat)]
        if solo:
            if n != 2 or len(solo) != 1:
                raise ValueError("Li Si plays only in a 2-seat game against one player")
            lisi.setup(self, solo[0], strategies[solo[0]].level)  # type: ignore[union-attr]
        self.setup = self.setup_features()
        self.views = [PlayerView(self, seat, random.Random(seed * 8 + seat + 1))
                      for seat in range(n)]

    # --- listeners -------------------------------------------------------------------------

    def _wire(self, records: ResultRecorder, narration: list[str] | None) -> None:
        """The game's own listeners: its result records, and its narration (``None``: the game
        is not narrated)."""
        self.records = records
        self.narrating = narration is not None
        self.narration = Narration(narration) if narration is not None else None
        self._hooks: dict[str, list[Listener]] = {}
        self.listen(records, RESULT_EVENTS)
        if self.narration is not None:
            self.listen(self.narration, ("say",))

    def listen(self, listener: Listener, kinds: tuple[str, ...] = (
            *RESULT_EVENTS, "say", "decision", "turn", "phase")) -> None:
        """Tell ``listener`` of the events of these kinds from now on."""
        for kind in kinds:
            self._hooks.setdefault(kind, []).append(listener)

    def emit(self, kind: str, data: dict[str, Any]) -> None:
        self._told += 1
        if self._mute:
            self._mute -= 1
            return
        for listener in self._hooks.get(kind, ()):
            listener.event(self, kind, data)

    def say(self, line: str) -> None:
        if self.narrating:
            self.emit("say", {"line": line})

    @property
    def log(self) -> list[str] | None:
        """The narration so far, or None when the game is not narrated."""
        return self.narration.lines if self.narration is not None else None

    def name(self, p: PlayerState) -> str:
        seat = self.strategies[p.seat]
        return f"{COLOURS[p.colour]} ({seat.name if seat is not None else 'outside'})"

    # --- talking to the seats --------------------------------------------------------------

    def ask(self, seat: int, kind: str, options: list, context: dict | None = None) -> Any:
        """Return the seat's choice among ``options``; a lone option needs no question (it is
        only told, as ``forced``, to a listener that counts them)."""
        if len(options) == 1:
            if "forced" in self._hooks:
                self.emit("forced", {"seat": seat, "kind": kind, "option": options[0]})
            return options[0]
        if not options:
            raise RuntimeError(f"engine offered no option for a {kind!r} decision")
        self.decisions += 1
        decision = Decision(kind, seat, options, context)
        keeping = self._snap is not None  # a segment that can be replayed: answers are kept
        if keeping and self._reseed is not None and self._cursor == self._reseed[0]:
            self.rng.setstate(self._reseed[1])
        if keeping and self._cursor < len(self._answers):
            answer = as_offered(self._answers[self._cursor], options)  # a replay: as before
            if answer is NOT_OFFERED:
                raise RuntimeError(f"a replayed {kind!r} answer {self._answers[self._cursor]!r} "
                                   f"is no longer offered (seat {seat}, game seed {self.seed})")
        else:
            strategy = self.strategies[seat]
            if strategy is None:  # only with a snapshot: the game pauses here
                self._pending = decision
                raise Paused(decision)
            self.consults += 1
            self._asking = decision
            # never Li Si's seat: the rules play his turns and ask him nothing
            given = consult(self, cast("Player", strategy), self.views[seat], decision)
            self._asking = None
            answer = as_offered(given, options)
            if answer is NOT_OFFERED:
                raise IllegalChoice(strategy.name, decision, given, self.seed)
            if keeping:
                self._answers.append(answer)
        if keeping:
            self._cursor += 1
        if "decision" in self._hooks:
            self.emit("decision", {"decision": decision, "answer": answer})
        return answer

    # --- the stepping API ------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.state.stage == Stage.OVER

    def pending(self) -> Decision | None:
        """The question the game waits on, playing on to it if need be; None once it is over.
        Seats with a strategy are asked on the way."""
        if self._pending is None:
            self._advance()
        return self._pending

    def answer(self, option: Any) -> Decision | None:
        """Answer the pending question and play on to the next one (returned; None at the end).
        """
        decision = self.pending()
        if decision is None:
            raise RuntimeError(f"the game (seed {self.seed}) is over: no question to answer")
        answer = as_offered(option, decision.options)
        if answer is NOT_OFFERED:
            raise IllegalChoice("the caller", decision, option, self.seed)
        self._answers.append(answer)
        self._pending = None
        self.consults += 1  # the table moves on: a view read from outside is copied again
        self._replay()
        return self.pending()

    def play(self, strategies: list[Player | None] | None = None) -> GameResult:
        """Play on to the end and return the result. ``strategies`` (one per seat, None to
        keep the seat's own) take over the seats first, as a rollout policy would; Li Si keeps
        his seat."""
        if strategies is not None:
            self.strategies = [mine if s is None or isinstance(mine, LiSiSeat) else s
                               for s, mine in zip(strategies, self.strategies, strict=True)]
            self.forkable = any_forks(self.strategies)
        if self._pending is not None:
            if self.strategies[self._pending.seat] is None:
                raise RuntimeError(f"seat {self._pending.seat} has no strategy to answer "
                                   f"{self._pending!r}")
            self._pending = None
            self._replay()
        # the question returned, not ``self._pending`` read again: the type checker takes the
        # attribute for None still, and the compiled code would check that it is
        stuck = self._advance()
        if stuck is not None:
            raise RuntimeError(f"seat {stuck.seat} has no strategy to answer {stuck!r}")
        return self.result()

    def _replay(self) -> None:
        """Put the segment back as it began; the next ``_advance`` replays its answers."""
        snap = self._snap
        assert snap is not None
        self.state = snap.state.copy()
        self.rng.setstate(snap.rng)
        self.decisions = snap.decisions
        self._cursor = 0
        self._mute = self._told
        self._told = 0

    def _advance(self) -> Decision | None:
        """Play segments until a seat without a strategy must answer (that question is
        returned), or the game ends."""
        state = self.state
        keep = self.forkable or None in self.strategies
        while state.stage != Stage.OVER:
            if self._snap is None and keep:
                self._snap = _Snapshot(state.copy(), self.rng.getstate(), self.decisions)
            try:
                self._segment(state)
            except Paused:
                return self._pending
            finally:
                state = self.state
            self._snap = self._reseed = None
            self._answers = []
            self._cursor = self._told = self._mute = 0
        return None

    def _segment(self, state: GameState) -> None:
        """Play the segment the state stands at, and move the state past it."""
        stage = state.stage
        if stage == Stage.TURNS:
            seat = state.turn_order[state.step % self.n]
            if "turn" in self._hooks:
                self.emit("turn", {"seat": seat})
            if state.lisi is not None and seat == state.lisi.seat:
                lisi.take_turn(self)
            elif state.hands[seat]:
                turn.play_turn(self, state.players[seat])
            state.step += 1
            if state.step == self._turns_per_round:
                state.stage = Stage.REWARDS
        elif stage == Stage.ROUND:
            state.round += 1
            self.say(f"=== Round {state.round} ===")
            if self.options.court_reset and state.round > 1:
                state.discard.extend(state.court)
                state.court.clear()
                state.court_free = True
            self.draw_cards()
            state.stage, state.step = Stage.TURNS, 0
        elif stage == Stage.REWARDS:
            if "phase" in self._hooks:
                self.emit("phase", {"phase": "rewards"})
            self.say("--- Unification rewards ---")
            rewards.unification_phase(self)
            if state.lisi is not None:
                lisi.end_round(self)
            state.stage = Stage.ROUND if state.round < self.rules.rounds else Stage.OVER
        else:  # Stage.START
            setup.deal_starting_tiles(self, self.rng)
            state.stage = Stage.ROUND

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

    # --- forks -----------------------------------------------------------------------------

    def fork(self, seat: int | None = None, rng: random.Random | None = None) -> Game:
        """An independent copy of this game, standing at the same question.

        ``fork()`` continues exactly as this game would under the same answers: same state,
        same RNG, same strategies. ``fork(seat, rng)`` is what that seat may search: the cards
        it cannot see (the draw decks, the other hands, Li Si's decks) are redealt at random
        with ``rng``, keeping every hand's size by suit; the fork draws its chances from
        ``rng`` from then on, and every seat of it is answered from outside (``None``), so
        nothing of the other players' strategies or of the real game's RNG is in it.
        """
        other = Game(self.t.box, self.strategies, self.seed, blank=True)
        other.options, other.t, other.rules, other.n = self.options, self.t, self.rules, self.n
        other._turns_per_round = self._turns_per_round
        other.seed, other.setup = self.seed, self.setup
        other._wire(self.records.copy(), self.log[:] if self.log is not None else None)
        for kind in self._hooks:  # the same kinds are emitted (a replay counts them to know
            other._hooks.setdefault(kind, [])  # what it told already), to no one else
        other.decisions = self.decisions
        other.state = self.state.copy()
        other._snap = self._snap  # never changed, so it can be shared
        other._answers = self._answers[:]
        other._cursor = self._cursor
        other._pending = self._pending or self._asking
        if other._pending is not None and self._snap is None:
            raise RuntimeError("this game keeps no snapshot to fork from at a question: a "
                               "strategy that forks must say so with `forks = True`")
        other._asking = None
        other._reseed = self._reseed
        other._told, other._mute = self._told, self._mute
        other.consults, other.shown = 0, None
        if seat is None:
            other.rng = random.Random.__new__(random.Random)
            if other._pending is None:
                other.rng.setstate(self.rng.getstate())
            # else the first answer replays the segment, from the start's RNG state
            other.strategies = self.strategies[:]
            other.views = [view.copy_for(other) for view in self.views]
            other.forkable = True
            return other
        other.rng = rng if rng is not None else random.Random()
        other.strategies = [s if isinstance(s, LiSiSeat) else None for s in self.strategies]
        other.views = [PlayerView(other, s, random.Random(other.rng.getrandbits(32)))
                       for s in range(self.n)]
        other.views[seat].memo = dict(self.views[seat].memo)
        other.forkable = True
        if other._snap is None:
            redeal(other.state, self.t, seat, other.rng)
        else:
            # The segment's start gets the same redeal, so that a replay reaches this state
            # again; the replay draws the chances already drawn with the game's RNG as it was
            # then, and the fork's own from this question on.
            start = other._snap.state.copy()
            redeal(other.state, self.t, seat, other.rng, earlier=start)
            other._snap = _Snapshot(start, other._snap.rng, other._snap.decisions)
            other._reseed = (other._cursor, other.rng.getstate())
        return other

    # --- saving ----------------------------------------------------------------------------

    def checkpoint(self) -> Checkpoint:
        """This game, saved where it stands (see ``Checkpoint``)."""
        snap = self._snap
        if self._pending is None and self._asking is None:
            snap = None  # between segments: the state itself is the start of the next
        elif snap is None:
            raise RuntimeError("this game keeps no snapshot to save at a question: a "
                               "strategy that saves or forks must say so with `forks = True`")
        return Checkpoint(
            seed=self.seed, options=self.options,
            state=(snap.state if snap is not None else self.state).copy(),
            rng=snap.rng if snap is not None else self.rng.getstate(),
            decisions=snap.decisions if snap is not None else self.decisions,
            answers=self._answers[:self._cursor] if snap is not None else [],
            told=self._told if snap is not None else 0,
            records=self.records.copy(),
            narration=self.log[:] if self.log is not None else None,
            setup=dict(self.setup),
            view_rngs=[view.rng.getstate() for view in self.views],
        )

    @classmethod
    def restore(cls, box: Box, saved: Checkpoint,
                strategies: list[Player | LiSiSeat | None]) -> Game:
        """Continue a saved game with these seats (the saved one's Li Si seat, if any, again).
        """
        game = cls(box, strategies, saved.seed, blank=True)
        game.options, game.t, game.rules = saved.options, compile_tables(box), box.board.rules
        game.n, game.seed, game.setup = len(strategies), saved.seed, dict(saved.setup)
        game._turns_per_round = 3 * game.rules.cards_per_suit_per_round * game.n
        game.strategies = list(strategies)
        game._wire(saved.records.copy(),
                   saved.narration[:] if saved.narration is not None else None)
        game.decisions = saved.decisions
        game.forkable = any_forks(game.strategies)
        game.state = saved.state.copy()
        game.rng = random.Random()
        game.rng.setstate(saved.rng)
        game.views = []
        for seat, rng_state in enumerate(saved.view_rngs):
            view = PlayerView(game, seat, random.Random())
            view.rng.setstate(rng_state)
            game.views.append(view)
        game._pending = game._asking = None
        game._answers, game._cursor, game.consults = saved.answers[:], 0, 0
        game.shown = None
        game._told, game._mute = 0, saved.told
        game._reseed = None
        game._snap = (_Snapshot(saved.state.copy(), saved.rng, saved.decisions)
                      if saved.answers else None)
        return game

    # --- positions as text (zsim.position) -------------------------------------------------

    def to_text(self, strategy_rngs: bool = True) -> str:
        """This game where it stands, as a position text (JSON; ``zsim.position``) that
        ``Game.from_text`` continues; at a question, the question in words for the reader.
        Without ``strategy_rngs`` the strategies' own random states are left out."""
        decision = self._pending or self._asking
        question = None
        if decision is not None:
            from zsim.describe import describe  # words for a reader, off the engine's path

            view = self.views[decision.seat]
            question = {"seat": decision.seat, "kind": decision.kind,
                        "context": position.plain(decision.context),
                        "options": [describe(view, decision, o) for o in decision.options]}
        return position.to_text(self.checkpoint(), self.t, question, strategy_rngs)

    @classmethod
    def from_text(cls, text: str, box: Box,
                  strategies: list[Player | LiSiSeat | None] | None = None,
                  narrate: bool = False) -> Game:
        """The game a position text describes, with these seats (by default every seat
        answered from outside, ``pending`` / ``answer``; Li Si's seat is his in a solo game);
        ``narrate``: narrated from here on, if the text brings no narration of its own."""
        saved = Checkpoint(**position.from_text(
            text, box, lambda n, seed, options: cls(box, [None] * n, seed, options).checkpoint()))
        if narrate and saved.narration is None:
            saved.narration = []
        lisi_state = saved.state.lisi
        seats: list[Player | LiSiSeat | None] = (
            list(strategies) if strategies is not None else [None] * saved.state.n)
        if len(seats) != saved.state.n:
            raise position.PositionError(f"the position has {saved.state.n} players, not "
                                         f"{len(seats)} seats")
        if lisi_state is not None:
            seats[lisi_state.seat] = LiSiSeat(lisi_state.card.level)
        return cls.restore(box, saved, seats)

    # --- the end ---------------------------------------------------------------------------

    def result(self) -> GameResult:
        if self.state.stage != Stage.OVER:
            raise RuntimeError(f"the game (seed {self.seed}) is not over")
        scores = scoring.final_scores(self)
        totals = [s["vp_total"] for s in scores]
        best = max(totals)
        records = self.records
        return GameResult(
            seed=self.seed,
            n_players=self.n,
            strategies=[s.name if s is not None else "outside" for s in self.strategies],
            scores=scores,
            ranks=scoring.ranks(totals),
            winners=[seat for seat, t in enumerate(totals) if t == best],
            setup=self.setup,
            start_tiles=records.start_tiles,
            colours=[COLOURS[p.colour] for p in self.state.players],
            stats=[self.final_stats(p) for p in self.state.players],
            walls=records.walls,
            rewards=records.rewards,
            abilities=records.abilities,
            tiles=records.tiles,
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


def _fields(record: GameResult | Checkpoint) -> tuple[Any, ...]:
    """A record's fields in order: what it is unpickled with, through its constructor (compiled
    classes are)."""
    return tuple(getattr(record, f.name) for f in fields(record))


def any_forks(strategies: list[Any]) -> bool:
    """Whether a seat's strategy forks the game (then the game keeps its snapshots)."""
    return any(getattr(s, "forks", False) for s in strategies)


NOT_OFFERED: Any = object()  # what ``as_offered`` returns for an answer not among the options


def offered(answer: Any, options: list) -> bool:
    """Whether ``answer`` is one of ``options`` (see ``as_offered``)."""
    return as_offered(answer, options) is not NOT_OFFERED


def as_offered(answer: Any, options: list) -> Any:
    """The option ``answer`` stands for: the very object offered, or the option equal to a
    value of exactly an option's plain type (an int, a string, a tuple of them: the typed
    options of ``zsim.kinds`` are tuples, and a bot may answer ``("unify", 5, 2)`` for
    ``Unify("unify", 5, 2)``); ``NOT_OFFERED`` for anything else. The rules then read the
    option itself, fields by name.

    ``answer in options`` would ask the answer's own ``__eq__``, which a strategy controls: an
    object equal to everything would pass, and break the engine later, far from the strategy
    that gave it."""
    for option in options:
        if option is answer:
            return option
    kind = type(answer)
    if kind is int or kind is str or ((kind is tuple or kind in OPTION_TYPES)
                                      and _plain(answer)):
        for option in options:
            if option == answer:
                return option
    return NOT_OFFERED


def _plain(value: Any) -> bool:
    """Made only of ints, strings and tuples (plain or of an option type), whose comparisons no
    strategy can change."""
    kind = type(value)
    if kind is int or kind is str:
        return True
    return (kind is tuple or kind in OPTION_TYPES) and all(_plain(part) for part in value)


def play_game(box: Box, strategies: list[Player | LiSiSeat], seed: int,
              options: GameOptions | None = None, narrate: bool = False) -> GameResult:
    """Set up and play one whole game."""
    return Game(box, list(strategies), seed, options, narrate).play()
