"""The engine: a forward model of one game, and the seats that answer its decisions.

A game is a pure function of (box, options, seats, seed): every shuffle and setup draw comes
from one ``random.Random(seed)``, and each seat's strategy gets its own RNG derived from the
same seed by a one-way hash (``seat_rng``).

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

A game that ``suspends`` (the environments' games do) keeps the segment under way *suspended* at
its question instead: the rules run on a continuation of their own (a greenlet, when the
``greenlet`` package is installed), ``answer`` resumes them where they stopped, and nothing is
replayed. A fork, a restored game and a game without greenlet replay as above; the games are
the same either way. A suspended segment holds its game, so a program that drops a suspending
game at a question first ends it with ``drop_continuation()`` (``zsim.env.episode.Episode``
does).

What a strategy is handed leads back to no object the game plays with (docs/strategies.md,
"What a strategy can and cannot do"): its decision is a copy (the answer is checked against the
engine's own options), its view holds no reference to the game (``zsim.view``), and the game
object keeps its seats' strategies and views out of sight, in ``_SEATED`` under a number of its
own, so that not even the garbage collector's referrers lead from a strategy or its view to the
game. A determinised fork has its own seed and RNG and the searching strategy's own copy of the
box. What slips through anyway (Python keeps nothing private: a strategy may walk every object of
the process) is caught where it counts: ``result`` audits the score sheet against the VP the
game's own events scored (``zsim.invariants.score_audit``).
"""

from __future__ import annotations

import hashlib
import importlib
import itertools
import random
from dataclasses import dataclass, field, fields, replace
from typing import TYPE_CHECKING, Any, Final, Protocol, cast

from zsim import position
from zsim.components import Box
from zsim.components.schema import COLOURS, REGIONS, Rules
from zsim.consult import consult
from zsim.decisions import Decision, IllegalChoice
from zsim.invariants import ScoreAuditError, score_audit
from zsim.kinds import OPTION_TYPES
from zsim.options import GameOptions, OptionError
from zsim.records import RECORD_FIELDS, RESULT_EVENTS, Narration, ResultRecorder
from zsim.rules import constraints, lisi, rewards, scoring, setup, turn
from zsim.rules.hidden import redeal, starting_deal
from zsim.rules.lisi import LiSiSeat
from zsim.rules.tables import Tables, compile_tables
from zsim.state import GameState, PlayerState, Stage
from zsim.view import PLAYING, PlayerView, lisi_card, public_tables, shared_readers

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


# the ``greenlet`` module (None: not installed), imported when a game first suspends, so that
# a game that does not imports no package of an extra
_GREENLET: Final[list[Any]] = []


def greenlet_module() -> Any:
    """The ``greenlet`` module (the continuations of suspending games), or None without it."""
    if not _GREENLET:
        try:
            _GREENLET.append(importlib.import_module("greenlet"))
        except ImportError:
            _GREENLET.append(None)
    return _GREENLET[0]

NO_ANSWER: Final[Any] = object()  # a continuation started, not resumed with an answer


class Paused(Exception):
    """Raised inside the rules when a seat without a strategy must answer: it unwinds the
    segment, which is played again once the question is answered. Never seen by callers."""

    def __init__(self, decision: Decision) -> None:
        super().__init__(decision.kind)
        self.decision = decision


@dataclass
class Checkpoint:
    """A game saved at a question (or between two segments): the state at the start of the
    segment under way and the RNG's state then, the answers given since, and what has been
    recorded and told so far. ``Game.restore`` continues it. The strategies' own per-game memory
    (``PlayerView.memo``) is not part of it; their RNGs are.

    It is plain data, pickled with the standard ``pickle``: load only checkpoints you (or a
    program you trust) wrote, since unpickling runs whatever code the file names."""

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
    # what had been recorded, and how many lines narrated, when the segment under way began,
    # for a segment that draws its chances before it asks (a determinised fork of it draws
    # them again: ``Game.fork``)
    start_records: ResultRecorder | None = None
    start_lines: int = 0

    def __getnewargs__(self) -> tuple[Any, ...]:
        return _fields(self)


class _Snapshot:
    """A segment's start: the state, the RNG's state and how many decisions had been made;
    for a segment that draws chances before it asks, what had been recorded and narrated too."""

    __slots__ = ("decisions", "lines", "records", "rng", "state")

    def __init__(self, state: GameState, rng: tuple[Any, ...], decisions: int,
                 records: ResultRecorder | None = None, lines: int = 0) -> None:
        self.state = state  # never changed: each replay plays on a copy
        self.rng = rng
        self.decisions = decisions
        self.records = records
        self.lines = lines


class _Chain:
    """A segment's start on a game's continuation, kept without a copy: an earlier segment's
    snapshot (``base``) and the answers of every segment since (``segments``, the first
    ``base``'s); ``Game._settle`` replays them when the start is needed (a fork, a save, a
    replay). A copy of the state at every segment would cost a suspended game more than all
    else it does between two questions."""

    __slots__ = ("base", "decisions", "segments")

    def __init__(self, base: _Snapshot, segments: list[list[Any]], decisions: int) -> None:
        self.base = base
        self.segments = segments
        self.decisions = decisions  # how many decisions had been made when the segment began


CHAIN: Final = 16  # segments chained at most before a segment's start is copied again


def seat_rng(seed: int, seat: int) -> random.Random:
    """The RNG of ``seat``'s strategy in a game of ``seed``, seeded by a one-way hash of both:
    a strategy can read its RNG's whole state, and Python's seeding can be run backwards to the
    number it was seeded with, which must not give the game's seed (and with it every hidden
    card) back."""
    digest = hashlib.blake2b(f"zsim seat {seed} {seat}".encode(), digest_size=16).digest()
    return random.Random(int.from_bytes(digest, "big"))


class Seats:
    """The seats of one game: their strategies and their views. The game keeps them in
    ``_SEATED``, not on itself, so that nothing a strategy is handed (its view, the memory and
    RNG in it, the strategy itself) has the game among the objects that refer to it."""

    __slots__ = ("strategies", "views")

    def __init__(self, strategies: list[Any], views: list[PlayerView]) -> None:
        self.strategies = strategies
        self.views = views


class Departed:
    """What stays in a seat once its game is played out: the strategy's name (the strategy
    itself is let go, so that a strategy holding the game it played does not keep it alive)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name


# Each game's seats, by the game's number (``Game.token``); a game removes its own when it goes.
_SEATED: dict[int, Seats] = {}
_TOKENS = itertools.count(1)


class Game:
    """One game: its state, its seats, and the loop that moves it from question to question.

    ``seats`` holds, per seat, a strategy (anything with ``name`` and ``choose(view,
    decision)``), ``LiSiSeat(level)`` for the solo automaton, or ``None`` for a seat answered
    from outside with ``pending()`` / ``answer()``.
    """

    # Every field of a game, each set by ``_fill`` alone: construction, ``fork`` and
    # ``restore`` differ only in the values they give it.
    token: int  # the game's number: its seats in ``_SEATED``, its place in ``zsim.view.PLAYING``
    t: Tables  # the box's tables: the engine's own, or a strategy's copy in a fork it searches
    rules: Rules
    options: GameOptions
    n: int
    seed: int
    setup: dict[str, Any]
    state: GameState
    rng: random.Random
    decisions: int
    forkable: bool  # snapshots are kept (a strategy forks, or a seat is answered from outside)
    consults: int  # strategy calls and outside answers: a view copies once per each
    records: ResultRecorder
    narrating: bool
    narration: Narration | None
    _public: bool  # ``t`` is a strategy's copy of the box (in a fork it searches)
    _turns_per_round: int
    _hooks: dict[str, list[Listener]]
    _snap: _Snapshot | None
    _chain: _Chain | None  # the segment's start, when ``_snap`` is an earlier one's (``_Chain``)
    _answers: list[Any]  # the answers given since the segment began
    _asked: list[Decision]  # their questions, as far as known (a restored game knows none)
    _cursor: int  # how many of them the replay has used
    _pending: Decision | None  # the question the game is paused at
    _asking: Decision | None  # the question a strategy is answering now
    asked_seat: int  # its seat (-1: none): the one seat whose own view may read the game now
    _told: int  # events emitted since the segment began
    _mute: int  # events a replay must not tell again
    _deal: dict[int, list[int]] | None  # a determinised fork's Starting tiles, dealt already
    suspends: bool  # keep the segment suspended at a question (a continuation), not replayed
    _runner: Any  # that continuation (a greenlet), while the segment stands at a question

    def __init__(self, box: Box, strategies: list[Player | LiSiSeat | None], seed: int,
                 options: GameOptions | None = None, narrate: bool = False, *,
                 blank: bool = False) -> None:
        """``blank``: set nothing up, for ``fork`` and ``restore`` to fill every field
        (compiled classes are made through their constructor)."""
        self.token = 0  # no seats yet (``__del__`` reads it)
        if blank:
            return
        n = len(strategies)
        if not 2 <= n <= 4:
            raise ValueError(f"a game needs 2 to 4 players, got {n}")
        options = options or GameOptions()
        board_ids = [b.id for b in box.unification_boards]
        if options.board != "random" and options.board not in board_ids:
            raise OptionError(f"variant board={options.board!r}: expected random or one "
                              f"of {', '.join(board_ids)}")
        t = compile_tables(box)
        constraints.check(box, t, n, options)
        token = next(_TOKENS)
        self._fill(token=token, t=t, public=False, options=options, seed=seed, n=n,
                   strategies=list(strategies), forkable=any_forks(strategies),
                   views=[PlayerView(token, seat, seat_rng(seed, seat)) for seat in range(n)],
                   rng=random.Random(seed), records=ResultRecorder(n),
                   narration=[] if narrate else None)
        self.state = setup.build_state(self, options, self.rng)
        solo = [seat for seat, s in enumerate(strategies) if isinstance(s, LiSiSeat)]
        if solo:
            if n != 2 or len(solo) != 1:
                raise ValueError("Li Si plays only in a 2-seat game against one player")
            lisi.setup(self, solo[0], strategies[solo[0]].level)  # type: ignore[union-attr]
        self.setup = self.setup_features()

    def _fill(self, *, token: int, t: Tables, public: bool, options: GameOptions, seed: int,
              n: int, strategies: list[Any], forkable: bool, views: list[PlayerView],
              rng: random.Random, records: ResultRecorder, narration: list[str] | None,
              state: GameState | None = None, setup: dict[str, Any] | None = None,
              decisions: int = 0, snap: _Snapshot | None = None,
              answers: list[Any] | None = None, asked: list[Decision] | None = None,
              cursor: int = 0,
              pending: Decision | None = None, told: int = 0, mute: int = 0,
              listened: tuple[str, ...] = (), deal: dict[int, list[int]] | None = None
              ) -> None:
        """Set every field of the game (see the class body); ``state`` and ``setup`` are left
        for the construction to deal when not given. ``listened``: kinds of events to emit
        with no one listening (a fork emits what its game did, so that its replays count the
        same events)."""
        self.token = token
        self.t, self.rules, self.options, self.n = t, t.box.board.rules, options, n
        self._public = public
        self._turns_per_round = 3 * self.rules.cards_per_suit_per_round * n
        self.seed = seed
        if state is not None:
            self.state = state
        if setup is not None:
            self.setup = setup
        _SEATED[token] = Seats(strategies, views)
        self.forkable = forkable
        self._wire(records, narration)
        for kind in listened:
            self._hooks.setdefault(kind, [])
        self.rng = rng
        self.decisions = decisions
        self._snap = snap
        self._chain = None
        self._answers = answers if answers is not None else []
        self._asked = asked if asked is not None else []
        self._cursor = cursor
        self._pending = pending
        self._asking = None
        self.asked_seat = -1
        self._told, self._mute = told, mute
        self._deal = deal
        self.consults = 0
        self.suspends = False
        self._runner = None

    def __del__(self) -> None:
        """The game's seats go with it."""
        try:  # noqa: SIM105  (no context manager: the interpreter may be shutting down)
            _SEATED.pop(self.token, None)
        except Exception:  # the module is gone already
            pass

    def __reduce__(self) -> tuple[Any, ...]:
        raise TypeError("a Game cannot be pickled: save it with game.checkpoint() (plain data) "
                        "and continue it with Game.restore(box, checkpoint, strategies)")

    # --- seats -----------------------------------------------------------------------------

    def _seats(self) -> Seats:
        return _SEATED[self.token]

    @property
    def strategies(self) -> list[Any]:
        """What sits in each seat: a strategy, ``LiSiSeat``, or None (answered from outside);
        once the game is played out, ``Departed`` (the strategy's name)."""
        return self._seats().strategies

    def seat_view(self, seat: int) -> PlayerView:
        """The view the engine hands to ``seat``'s strategy (it reads the game only while the
        game is being played: ``view`` is the one to read from outside)."""
        return self._seats().views[seat]

    def view(self, seat: int) -> PlayerView:
        """``seat``'s view of this game, for the program that holds the game (it holds the game,
        so it reads it at any time); its RNG and memory are the seat's own."""
        self._check_seat(seat, "view")
        return PlayerView(self.token, seat, self.seat_view(seat).rng, owner=self)

    @property
    def views(self) -> list[PlayerView]:
        """Every seat's ``view``."""
        return [self.view(seat) for seat in range(self.n)]

    def public_tables(self, seat: int) -> Tables:
        """The tables ``seat``'s strategy is shown: its own copy of the box
        (``zsim.view.public_tables``); in a fork, the searching strategy's, which the fork plays
        by; for a seat answered from outside, the game's own."""
        if self._public:
            return self.t
        strategy = self._seats().strategies[seat]
        if strategy is None or isinstance(strategy, (LiSiSeat, Departed)):
            return self.t
        return public_tables(self.t, strategy)

    def shares_table(self, seat: int) -> bool:
        """Is ``seat``'s strategy shown the table itself rather than a copy? In a game, only a
        built-in bot that never writes to it, by its exact class (``zsim.view.shared_readers``).
        In a fork, which is the searching strategy's own game (nothing in it is the real
        game's), also a strategy that says it only reads (``reads_only``: a search's driver
        whose playout policy is such a bot)."""
        strategy = self._seats().strategies[seat]
        if type(strategy) in shared_readers():
            return True
        return self._public and getattr(strategy, "reads_only", False) is True

    def _check_seat(self, seat: Any, what: str) -> None:
        if type(seat) is not int or not 0 <= seat < self.n:
            raise ValueError(f"{what}(seat={seat!r}): a seat of this game is an int from 0 "
                             f"to {self.n - 1}")

    def _release(self) -> None:
        """Let the strategies go once the game is played out (see ``Departed``)."""
        seats = self._seats()
        seats.strategies = [s if s is None or isinstance(s, (LiSiSeat, Departed))
                            else Departed(s.name) for s in seats.strategies]

    # --- listeners -------------------------------------------------------------------------

    def _wire(self, records: ResultRecorder, narration: list[str] | None) -> None:
        """The game's own listeners: its result records, and its narration (``None``: the game
        is not narrated)."""
        self.records = records
        self.narrating = narration is not None
        self.narration = Narration(narration) if narration is not None else None
        self._hooks = {}
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
        replayed = keeping and self._cursor < len(self._answers)
        if replayed:
            answer = as_offered(self._answers[self._cursor], options)  # a replay: as before
            if answer is NOT_OFFERED:
                raise RuntimeError(f"a replayed {kind!r} answer {self._answers[self._cursor]!r} "
                                   f"is no longer offered (seat {seat}, game seed {self.seed})")
        else:
            seats = self._seats()
            strategy = seats.strategies[seat]
            if strategy is None:  # only with a snapshot: the game pauses here
                answer = self._pause(decision)
            else:
                self.consults += 1
                self._asking = decision
                self.asked_seat = seat
                # The strategy gets a copy of the question: the answer is checked against the
                # engine's own options, whatever the strategy does to its list. Never Li Si's
                # seat: the rules play his turns and ask him nothing.
                shown = Decision(kind, seat, options[:], dict(decision.context))
                if self.token in PLAYING:
                    given = consult(self, cast("Player", strategy), seats.views[seat], shown)
                else:  # a rule called from outside the game's play (a test of one rule)
                    PLAYING[self.token] = self
                    try:
                        given = consult(self, cast("Player", strategy), seats.views[seat],
                                        shown)
                    finally:
                        del PLAYING[self.token]
                answer = as_offered(given, options)
                if answer is NOT_OFFERED:
                    self._asking, self.asked_seat = None, -1
                    raise IllegalChoice(strategy.name, decision, given, self.seed)
        if "decision" in self._hooks:
            # told while the game still stands at the question, its answer not logged yet, so
            # that a listener may ask a bot about it: a search forks from the question (the
            # game viewer's values), the seat's own view reading the game as in its decision
            self.asked_seat = seat
            self.emit("decision", {"decision": decision, "answer": answer})
        self._asking, self.asked_seat = None, -1
        if keeping:
            if not replayed:
                self._answers.append(answer)
                self._asked.append(decision)
            self._cursor += 1
        return answer

    def _pause(self, decision: Decision) -> Any:
        """Stop at a question for a seat answered from outside: on the game's continuation,
        switch out of it and return the answer ``answer`` resumes it with (checked there);
        otherwise unwind the segment (``Paused``), to be replayed once it is answered."""
        self._pending = decision
        runner = self._runner
        if runner is None or greenlet_module().getcurrent() is not runner:
            raise Paused(decision)
        return runner.parent.switch(decision)

    # --- the stepping API ------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.state.stage == Stage.OVER

    def pending(self) -> Decision | None:
        """The question the game waits on, playing on to it if need be; None once it is over.
        Seats with a strategy are asked on the way."""
        if self._pending is None:
            self._run()
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
        self._pending = None
        self.consults += 1  # the table moves on: a view read from outside is copied again
        if self._runner is not None:  # the segment waits on its continuation: resume it
            return self._run(answer)
        self._answers.append(answer)
        self._asked.append(decision)
        self._replay()
        return self.pending()

    def drop_continuation(self) -> None:
        """End the suspended segment's continuation, if any (the game stays at its question,
        which is then answered by a replay): what a program that drops a suspending game at a
        question does first, since the continuation holds the game."""
        runner, self._runner = self._runner, None
        if runner is not None and not runner.dead:
            runner.parent = greenlet_module().getcurrent()
            runner.throw()  # GreenletExit unwinds the rules' frames; the state is left as is

    def play(self, strategies: list[Player | None] | None = None) -> GameResult:
        """Play on to the end and return the result. ``strategies`` (one per seat, None to
        keep the seat's own) take over the seats first, as a rollout policy would; Li Si keeps
        his seat. Once played out (or stopped by an error), the game lets its strategies go
        (``Departed``)."""
        self.drop_continuation()  # the strategies answer now: the segment is replayed
        seats = self._seats()
        if strategies is not None:
            seats.strategies = [mine if s is None or isinstance(mine, LiSiSeat) else s
                                for s, mine in zip(strategies, seats.strategies, strict=True)]
            self.forkable = any_forks(seats.strategies)
        try:
            if self._pending is not None:
                if seats.strategies[self._pending.seat] is None:
                    raise RuntimeError(f"seat {self._pending.seat} has no strategy to answer "
                                       f"{self._pending!r}")
                self._pending = None
                self._replay()
            # the question returned, not ``self._pending`` read again: the type checker takes
            # the attribute for None still, and the compiled code would check that it is
            stuck = self._run()
            if stuck is not None:
                raise RuntimeError(f"seat {stuck.seat} has no strategy to answer {stuck!r}")
            return self.result()
        finally:
            if self.over or self._pending is None:
                self._release()

    def _replay(self) -> None:
        """Put the segment back as it began; the next ``_advance`` replays its answers."""
        self._settle()
        snap = self._snap
        assert snap is not None
        self.state = snap.state.copy()
        self.rng.setstate(snap.rng)
        self.decisions = snap.decisions
        self._cursor = 0
        self._mute = self._told
        self._told = 0

    def _run(self, answer: Any = NO_ANSWER) -> Decision | None:
        """``_advance``, with the game listed as being played (``zsim.view.PLAYING``: where its
        seats' views find it) meanwhile: on the game's continuation when it suspends (resumed
        with ``answer``, the question's answer, when the segment waits there)."""
        token = self.token
        if token in PLAYING:  # already being played: a listener asked for more
            return self._advance()
        PLAYING[token] = self
        try:
            if self._runner is not None or (self.suspends and greenlet_module() is not None):
                return self._resume(answer)
            return self._advance()
        finally:
            del PLAYING[token]

    def _resume(self, answer: Any) -> Decision | None:
        """Play on the game's continuation (started here if need be) until it stops at a
        question (returned) or the game ends (None; the continuation is then gone)."""
        runner = self._runner
        greenlet = greenlet_module()
        try:
            if runner is None:
                runner = greenlet.greenlet(self._advance)
                self._runner = runner
                stopped = runner.switch()
            else:
                runner.parent = greenlet.getcurrent()
                stopped = runner.switch(answer)
        finally:
            if runner is not None and runner.dead:
                self._runner = None
        return cast("Decision | None", stopped)

    def _advance(self) -> Decision | None:
        """Play segments until a seat without a strategy must answer (that question is
        returned), or the game ends."""
        state = self.state
        keep = self.forkable or None in self._seats().strategies
        chained = self._runner is not None  # on the continuation: segments' starts are chained
        while state.stage != Stage.OVER:
            if self._snap is None and keep:
                self._snap = self._snapshot(state)
            try:
                self._segment(state)
            except Paused:
                return self._pending
            finally:
                state = self.state
            done, chain, answers = self._snap, self._chain, self._answers
            self._snap = self._chain = None
            self._answers = []
            self._asked = []
            self._cursor = self._told = self._mute = 0
            if (chained and done is not None and state.stage != Stage.OVER
                    and (chain is None or len(chain.segments) < CHAIN)
                    and not self._draws_first(state)):
                # the next segment's start: this one's and its answers, replayed if need be
                chain = (_Chain(done, [answers], self.decisions) if chain is None
                         else _Chain(chain.base, [*chain.segments, answers], self.decisions))
                self._snap, self._chain = chain.base, chain
        return None

    def _settle(self) -> None:
        """Make the segment's start a snapshot of its own, if it is chained (``_Chain``): a
        game played apart from this one replays the chained segments from their base."""
        chain = self._chain
        if chain is None:
            return
        base = chain.base
        token = next(_TOKENS)
        rng = random.Random()
        rng.setstate(base.rng)
        apart = Game(self.t.box, [], self.seed, blank=True)
        apart._fill(token=token, t=self.t, public=self._public, options=self.options,
                    seed=self.seed, n=self.n,
                    strategies=[s if isinstance(s, LiSiSeat) else None
                                for s in self._seats().strategies],
                    forkable=True, views=[PlayerView(token, s, random.Random(0))
                                          for s in range(self.n)],
                    rng=rng, records=ResultRecorder(self.n),
                    narration=[] if self.narrating else None, state=base.state.copy(),
                    setup=self.setup, decisions=base.decisions, snap=base, deal=self._deal)
        for answers in chain.segments:  # every question is answered: nothing pauses
            apart._answers, apart._cursor = answers, 0
            apart._segment(apart.state)
        self._snap = _Snapshot(apart.state, rng.getstate(), chain.decisions)
        self._chain = None

    def _snapshot(self, state: GameState) -> _Snapshot:
        """The start of the segment ``state`` stands at: a copy of it, the RNG's state, and
        for a segment that draws chances before it asks, what had been recorded and told."""
        if not self._draws_first(state):
            return _Snapshot(state.copy(), self.rng.getstate(), self.decisions)
        log = self.log
        return _Snapshot(state.copy(), self.rng.getstate(), self.decisions,
                         self.records.copy(), len(log) if log is not None else 0)

    def _draws_first(self, state: GameState) -> bool:
        """Whether the segment ``state`` stands at draws chances before it asks anything: the
        Starting tiles are dealt before the players choose, and Li Si reveals an action card
        (and may shuffle or choose at random) before his opponent places his soldiers. The
        other segments draw nothing before their last question."""
        if state.stage == Stage.START:
            return True
        lisi_state = state.lisi
        return (lisi_state is not None and state.stage == Stage.TURNS
                and state.turn_order[state.step % self.n] == lisi_state.seat)

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
            setup.deal_starting_tiles(self, self.rng, self._deal)
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
        with ``rng``, keeping every hand's size by suit; the fork has its own seed and draws
        its chances from ``rng``; every seat of it is answered from outside (``None``); and it
        plays by that seat's strategy's own copy of the box. Nothing of the other players'
        strategies, of the real game's seed or RNG, or of the engine's box is in it.

        A determinised fork stands at the same question when it is the seat's own; another
        seat's question is asked again there, from the redealt cards (its options may name
        cards the real one did not). The Starting tiles, and in the solo game Li Si's turn,
        draw chances before they ask: at the seat's own Starting tile question the fork deals
        it the same tiles and the others tiles drawn from the rest (the seats before it keep
        the one tile they are dealt, unseen) and stands at that question; at the seat's own
        question once the tiles are kept (its tile's ability), every seat keeps one tile, the
        revealed ones theirs, the others one the seat has not seen, and the fork stands at that
        question (when the game knows the questions answered since the deal: a restored game
        does not); at the seat's own question in Li Si's turn before any chance is drawn in it,
        it stands at that question too; otherwise it goes back to the start of that deal or
        turn and draws it again, and stands at its first question.
        """
        asked = self._pending or self._asking
        self._settle()
        if asked is not None and self._snap is None:
            raise RuntimeError("this game keeps no snapshot to fork from at a question: a "
                               "strategy that forks must say so with `forks = True`")
        if seat is not None:
            self._check_seat(seat, "fork")
            return self._determinised(seat, rng if rng is not None else random.Random(), asked)
        token = next(_TOKENS)
        other = Game(self.t.box, [], self.seed, blank=True)
        copied = random.Random.__new__(random.Random)
        if asked is None:
            copied.setstate(self.rng.getstate())
        # else the first answer replays the segment, from the start's RNG state
        seats = self._seats()
        other._fill(token=token, t=self.t, public=self._public, options=self.options,
                    seed=self.seed, n=self.n, strategies=seats.strategies[:], forkable=True,
                    views=[view.copy_for(token) for view in seats.views], rng=copied,
                    records=self.records.copy(), narration=_lines(self.log),
                    state=self.state.copy(), setup=self.setup, decisions=self.decisions,
                    snap=self._snap,  # never changed, so it can be shared
                    answers=self._answers[:], asked=self._asked[:], cursor=self._cursor,
                    pending=asked, told=self._told, mute=self._mute, listened=tuple(self._hooks),
                    deal=self._deal)
        return other

    def _determinised(self, seat: int, rng: random.Random, asked: Decision | None) -> Game:
        """``fork(seat, rng)``: see ``fork``."""
        token = next(_TOKENS)
        t = self.public_tables(seat)
        seed = rng.getrandbits(32)
        seats = self._seats()
        views = [PlayerView(token, s, random.Random(rng.getrandbits(32))) for s in range(self.n)]
        views[seat] = PlayerView(token, seat, views[seat].rng, dict(seats.views[seat].memo))
        other = Game(t.box, [], seed, blank=True)
        snap = self._snap
        # where the fork stands: by default at the game's own question, as the game stands
        decisions, records, lines = self.decisions, self.records, self.log
        answers: list[Any] = self._answers[:]
        known = self._asked[:]  # the answers' questions (a replay from the start knows none)
        cursor, told, mute = self._cursor, self._told, self._mute
        pending: Decision | None = None
        deal = None
        own = asked is not None and asked.seat == seat
        if snap is None:  # between two segments: nothing to replay
            state = self.state.copy()
            redeal(state, t, seat, rng)
        elif snap.records is not None and not (own and self.state.stage != Stage.START
                                               and self.rng.getstate() == snap.rng):
            # The segment drew chances before it asked (in Li Si's turn, unless it has drawn
            # none yet, when the branch below applies): they are drawn again.
            state = snap.state.copy()
            redeal(state, t, seat, rng)
            answers, known, cursor, told, mute = [], [], 0, 0, 0
            if own and state.stage == Stage.START and asked.kind == "start_tile":
                # at its own Starting tile question the seat keeps the tiles it was dealt
                deal = starting_deal(state, t, seat, list(asked.options), rng)
            elif own and state.stage == Stage.START and len(self._asked) == self._cursor:
                # at its own question once the tiles are kept: every seat keeps one tile
                deal, answers = self._kept_deal(t, seat, rng)
            decisions, records = snap.decisions, snap.records
            lines = lines[:snap.lines] if lines is not None else None
            snap = None
        else:
            # The segment's start gets the same redeal, so that a replay reaches this state
            # again; it draws nothing before this question, so the replay can draw from the
            # fork's own RNG from the start.
            start = snap.state.copy()
            state = self.state.copy()
            redeal(state, t, seat, rng, earlier=start)
            if own:  # the seat's own question stands
                pending = Decision(asked.kind, seat, asked.options[:], dict(asked.context))
            else:  # asked again, from the redealt cards: the replay begins at the start
                state = start.copy()
                decisions, cursor, mute, told = snap.decisions, 0, told, 0
            snap = _Snapshot(start, rng.getstate(), snap.decisions)
        options = replace(self.options)
        for board in (state, snap.state if snap is not None else None):
            if board is not None and board.lisi is not None:
                board.lisi.card = lisi_card(board.lisi.card, self.t, t)
        other._fill(token=token, t=t, public=True, options=options, seed=seed, n=self.n,
                    strategies=[s if isinstance(s, LiSiSeat) else None for s in seats.strategies],
                    forkable=True, views=views, rng=rng, records=records.copy(),
                    narration=_lines(lines), state=state, setup=dict(self.setup),
                    decisions=decisions, snap=snap, answers=answers, asked=known,
                    cursor=cursor,
                    pending=pending, told=told, mute=mute, listened=tuple(self._hooks),
                    deal=deal)
        return other

    def _kept_deal(self, t: Tables, seat: int, rng: random.Random
                   ) -> tuple[dict[int, list[int]], list[Any]]:
        """For a determinised fork at ``seat``'s own question in the Starting tiles once the
        tiles are kept (a question of its tile's ability): a deal of one tile to each seat, the
        tile it kept for the seats whose tile is revealed (``seat`` and those resolved before
        it), a tile drawn with ``rng`` from those ``seat`` has not seen for the others; and the
        answers given since the deal but the Starting tile choices (which a deal of one tile
        does not ask), so that the fork's replay stands at the same question."""
        box = t.box
        index = {tile.id: i for i, tile in enumerate(box.starting_tiles)}
        kept = {s: index[tile] for s, tile in enumerate(self.records.start_tiles) if tile}
        unseen = [i for i, tile in enumerate(box.starting_tiles) for _ in range(tile.copies)]
        mine = [d for d in self._asked if d.seat == seat and d.kind == "start_tile"]
        seen = list(mine[0].options) if mine else [kept[seat]] * 2  # a lone pair is one tile
        for tile in [*seen, *(k for s, k in kept.items() if s != seat)]:
            if tile in unseen:
                unseen.remove(tile)
        rng.shuffle(unseen)
        lisi_seat = self.state.lisi.seat if self.state.lisi is not None else -1
        deal = {s: [kept[s] if s in kept else unseen.pop()]
                for s in self.state.turn_order if s != lisi_seat}
        answers = [a for a, d in zip(self._answers, self._asked, strict=True)
                   if d.kind != "start_tile"]
        return deal, answers

    # --- saving ----------------------------------------------------------------------------

    def checkpoint(self) -> Checkpoint:
        """This game, saved where it stands (see ``Checkpoint``)."""
        self._settle()
        snap = self._snap
        if self._pending is None and self._asking is None:
            snap = None  # between segments: the state itself is the start of the next
        elif snap is None:
            raise RuntimeError("this game keeps no snapshot to save at a question: a "
                               "strategy that saves or forks must say so with `forks = True`")
        seats = self._seats()
        return Checkpoint(
            seed=self.seed, options=self.options,
            state=(snap.state if snap is not None else self.state).copy(),
            rng=snap.rng if snap is not None else self.rng.getstate(),
            decisions=snap.decisions if snap is not None else self.decisions,
            answers=self._answers[:self._cursor] if snap is not None else [],
            told=self._told if snap is not None else 0,
            records=self.records.copy(),
            narration=_lines(self.log),
            setup=dict(self.setup),
            view_rngs=[view.rng.getstate() for view in seats.views],
            start_records=(snap.records.copy() if snap is not None and snap.records is not None
                           else None),
            start_lines=snap.lines if snap is not None else 0,
        )

    @classmethod
    def restore(cls, box: Box, saved: Checkpoint,
                strategies: list[Player | LiSiSeat | None]) -> Game:
        """Continue a saved game with these seats (the saved one's Li Si seat, if any, again).
        """
        n = saved.state.n
        if len(strategies) != n:
            raise ValueError(f"the saved game has {n} seats: restore it with {n} strategies "
                             f"(or None for a seat answered from outside), not {len(strategies)}")
        lisi_seat = saved.state.lisi.seat if saved.state.lisi is not None else -1
        for s, strategy in enumerate(strategies):
            if isinstance(strategy, LiSiSeat) != (s == lisi_seat):
                where = f"seat {lisi_seat}" if lisi_seat >= 0 else "no seat"
                raise ValueError(f"seat {s}: Li Si sits in {where} of the saved game, and a "
                                 f"restored game keeps him there")
        token = next(_TOKENS)
        views = []
        for seat, rng_state in enumerate(saved.view_rngs):
            rng = random.Random()
            rng.setstate(rng_state)
            views.append(PlayerView(token, seat, rng))
        rng = random.Random()
        rng.setstate(saved.rng)
        snap = None
        if saved.answers:
            snap = _Snapshot(saved.state.copy(), saved.rng, saved.decisions,
                             saved.start_records.copy() if saved.start_records is not None
                             else None, saved.start_lines)
        game = cls(box, strategies, saved.seed, blank=True)
        game._fill(token=token, t=compile_tables(box), public=False, options=saved.options,
                   seed=saved.seed, n=n, strategies=list(strategies),
                   forkable=any_forks(strategies), views=views, rng=rng,
                   records=saved.records.copy(), narration=_lines(saved.narration),
                   state=saved.state.copy(), setup=dict(saved.setup),
                   decisions=saved.decisions, snap=snap, answers=saved.answers[:],
                   mute=saved.told)
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

            view = self.view(decision.seat)
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
        names = [s.name if s is not None else "outside" for s in self.strategies]
        self._audit(names)
        totals = [s["vp_total"] for s in scores]
        best = max(totals)
        records = self.records
        return GameResult(
            seed=self.seed,
            n_players=self.n,
            strategies=names,
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

    def _audit(self, names: list[str]) -> None:
        """Fail the game when its score sheet is not what its own events scored (``vp``
        events): something wrote VP into the game besides the rules. VP written while a
        strategy answers fail the game at that answer, naming that strategy
        (``zsim.consult``); what this finds appeared outside every strategy call (a position
        written by hand, a thread a bot left running), so it blames no seat: the seat whose
        sheet is wrong need not be the one that wrote it."""
        wrong = score_audit([p.vp for p in self.state.players], self.records.ledger)
        if not wrong:
            return
        told = "; ".join(f"seat {seat} ({names[seat]}) has {abs(extra)} VP "
                         f"{'more' if extra > 0 else 'fewer'} in {category} than it scored"
                         for seat, category, extra in wrong)
        raise ScoreAuditError(f"the score sheet of game seed {self.seed} is not what the game "
                              f"scored: {told}; it changed outside every strategy's "
                              f"decision, so no strategy is named", None)

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


def _lines(log: list[str] | None) -> list[str] | None:
    """A copy of a narration (None: not narrated)."""
    return log[:] if log is not None else None


def _fields(record: GameResult | Checkpoint) -> tuple[Any, ...]:
    """A record's fields in order: what it is unpickled with, through its constructor (compiled
    classes are)."""
    return tuple(getattr(record, f.name) for f in fields(record))


def any_forks(strategies: list[Any]) -> bool:
    """Whether a seat's strategy forks the game (then the game keeps its snapshots)."""
    return any(getattr(s, "forks", False) for s in strategies)


# what ``as_offered`` returns for an answer not among the options
NOT_OFFERED: Final[Any] = object()


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
