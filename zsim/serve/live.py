"""One game being played in the app: the engine paused at a human seat's question.

The human seats are answered from outside (``Game.pending``/``answer``, docs/architecture.md);
the bots sit in their seats and answer on the way from one human question to the next. Every
answer given, the bots' too, is kept in order (a listener on the game's decisions), so the
game is its ``Replay``: undo builds a new ``LiveGame`` from the answers before the decision to
take back, and a worker that had to be stopped is built again the same way. While saved answers
remain, every seat (bots included) takes them instead of thinking, so rebuilding asks no bot
anything it was asked before.

Nothing here limits time: a bot that hangs hangs this game; the worker process it runs in
(``zsim.serve.worker``) is what the server stops.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from zsim.decisions import Decision
from zsim.game import Game, offered
from zsim.rules.lisi import LiSiSeat
from zsim.serve.adapter import option_json, option_words, picks, question_words, targets
from zsim.serve.replay import Answer, Answers, Replay, ReplayEnd, ReplayError
from zsim.strategies.human import HumanStrategy
from zsim.strategies.registry import UnknownStrategy, resolve
from zsim.viewer.record import StepRecorder, game_meta, table_snapshot

Thinking = Callable[[int, str, str], None]  # (seat, bot, decision kind): a bot starts to think


class AnswerError(ValueError):
    """An answer the game cannot take; ``status`` says whose fault as an HTTP status: 400 an
    option that does not exist, 409 a question no longer asked (a stale or repeated answer)."""

    def __init__(self, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.status = status


class HintError(AnswerError):
    """A hint that cannot be given: an unknown bot or one that failed (422), no question
    pending (409)."""

    def __init__(self, message: str, status: int = 422) -> None:
        super().__init__(message, status)


class BotSeat:
    """A bot in its seat: it takes the saved answers while there are any, then thinks (after
    telling ``LiveGame.thinking``, so that the time a bot takes is counted from then)."""

    def __init__(self, bot: Any, live: LiveGame) -> None:
        self.bot = bot
        self.name = bot.name
        self.forks = getattr(bot, "forks", False)
        self.live = live

    def choose(self, view: Any, decision: Decision) -> Any:
        if self.live.answers:
            return self.live.answers.take(decision)
        if not self.live.think:
            raise ReplayEnd("the saved answers end here")
        # who is asked what, as the engine asked it: the bot may write into its copy
        self.live.asking = decision.seat, decision.kind, self.name
        self.live.thinking(decision.seat, self.name, decision.kind)
        answer = self.bot.choose(view, decision)
        self.live.asking = None
        return answer


class LiveGame:
    """A game of the app, from its ``Replay``; see the module docstring."""

    def __init__(self, replay: Replay, thinking: Thinking | None = None,
                 think: bool = True) -> None:
        """Set the game up and play the saved answers. Raises what the resolvers raise for a
        bad setup (``BoxError``, ``OptionError``, ``UnknownStrategy``, ``LineupError``: each
        names its culprit) and ``ReplayError`` for answers that no longer fit.

        ``think`` False: the bots only give their saved answers, and the game stops where they
        end, as a game that failed (``replay.failure``) is shown."""
        setup = replay.setup
        seated = setup.seated()
        self.humans = setup.humans()
        self.answers = Answers(replay.answers)
        self.think = think
        self.stopped = replay.failure  # why a game that failed stopped
        self.thinking: Thinking = thinking or (lambda seat, bot, kind: None)
        self.asking: tuple[int, str, str] | None = None  # (seat, kind, bot) thinking now
        seats: list[Any] = [
            None if isinstance(s, HumanStrategy) else s if isinstance(s, LiSiSeat)
            else BotSeat(s, self) for s in seated.strategies]
        try:
            self.game = Game(seated.box, seats, seated.seed, seated.options, narrate=True)
        except ValueError as error:  # a lineup the engine refuses (Li Si's seat misused)
            raise UnknownStrategy(str(error)) from None
        self.recorder = StepRecorder()
        self.game.listen(self.recorder)
        self.game.listen(self, ("decision",))
        self.saved: list[Answer] = []  # every answer given, in order
        self.marks: list[dict[str, Any]] = []  # the human seats' answers, to undo to
        self.failure: str | None = None
        self.finished = False
        self._play_on(self.game.pending)
        while self.answers and self.failure is None:
            decision = self.pending
            if decision is None:
                raise ReplayError(f"the game ended with {len(self.answers.queue)} saved "
                                  f"answers left")
            option = self.answers.take(decision)
            self._play_on(partial(self.game.answer, option))

    # --- the game's decisions, as a listener ---------------------------------------------------

    def event(self, game: Game, kind: str, data: dict[str, Any]) -> None:
        decision, answer = data["decision"], data["answer"]
        if decision.seat in self.humans:
            view = game.views[decision.seat]
            chosen = option_words(view, decision)[decision.options.index(answer)]
            self.marks.append({"number": len(self.saved), "seat": decision.seat,
                               "kind": decision.kind, "round": game.state.round,
                               "text": f"{question_words(view, decision)} \u2192 {chosen}"})
        self.saved.append((decision.seat, option_json(answer)))

    # --- moving on -----------------------------------------------------------------------------

    def _play_on(self, step: Callable[[], Any]) -> None:
        """Run ``step`` (which plays on to the next human question); a failure ends the game
        with a message naming the bot that failed, or the engine."""
        try:
            step()
        except ReplayError:
            raise
        except ReplayEnd:
            self.failure = self.stopped or "the game stops where its saved answers end"
        except (Exception, SystemExit) as error:  # a bot calling exit() fails the game too
            self.failure = self._blame(error)
        if self.game.over and not self.finished:
            self.finished = True
            self.recorder.finish(self.game, self.game.result())

    def _blame(self, error: BaseException) -> str:
        what = f"{type(error).__name__}: {error}"
        if self.asking is not None:
            seat, kind, name = self.asking
            return (f"the bot {name!r} (seat {seat}) failed at a {kind!r} "
                    f"decision in round {self.game.state.round}: {what}")
        return f"the game stopped on an error: {what}"

    @property
    def pending(self) -> Decision | None:
        """The human question the game waits on (None when over or failed)."""
        if self.failure is not None or self.finished:
            return None
        return self.game.pending()  # the question it is paused at: nothing is played

    def answer(self, number: int, index: int) -> None:
        """Answer the pending question, numbered ``number`` (answers given so far, to refuse
        an answer sent twice or from a stale page), with its option ``index``."""
        decision = self.pending
        if decision is None:
            raise AnswerError("the game is over: there is no question to answer"
                              if self.failure is None else "the game has failed: undo to "
                              "go on from an earlier decision")
        if number != len(self.saved):
            raise AnswerError(f"question {number} is not the one asked (question "
                              f"{len(self.saved)} is): reload the page")
        if not 0 <= index < len(decision.options):
            raise AnswerError(f"option {index} does not exist: the question has options 0 to "
                              f"{len(decision.options) - 1}", 400)
        option = decision.options[index]
        self._play_on(lambda: self.game.answer(option))

    def hint(self, spec: str) -> dict[str, Any]:
        """What the bot ``spec`` would answer to the pending question (its option and, when
        the bot gives them, its value of every option), from the human seat's view of a fork:
        the game itself does not move."""
        decision = self.pending
        if decision is None:
            raise HintError("there is no question to give a hint for", 409)
        try:
            bot = resolve(spec)
        except UnknownStrategy as error:
            raise HintError(str(error)) from None
        if isinstance(bot, (HumanStrategy, LiSiSeat)):
            raise HintError(f"{spec!r} is not a bot that can give a hint")
        fork = self.game.fork()
        view = fork.views[decision.seat]
        asked = fork.pending()
        assert asked is not None
        self.thinking(decision.seat, bot.name, decision.kind)
        try:
            choice = bot.choose(view, asked)
            values_of = getattr(bot, "option_values", None)
            values = values_of(view, asked) if values_of is not None else None
        except (Exception, SystemExit) as error:  # exit() too: the game's process stays
            raise HintError(f"the bot {bot.name!r} failed: {type(error).__name__}: "
                            f"{error}") from None
        if not offered(choice, asked.options):
            raise HintError(f"the bot {bot.name!r} answered {choice!r}, which is not offered")
        index = next(i for i, option in enumerate(asked.options)
                     if option is choice or option == choice)
        if values is not None and any(v is not None for v in values):
            values = [None if v is None else round(float(v), 2) for v in values]
        else:
            values = None  # the bot weighed none of them
        return {"bot": bot.name, "choice": index, "values": values}

    # --- what the server gets ------------------------------------------------------------------

    def question(self) -> dict[str, Any] | None:
        decision = self.pending
        if decision is None:
            return None
        view = self.game.views[decision.seat]
        words = option_words(view, decision)
        return {"number": len(self.saved), "seat": decision.seat, "kind": decision.kind,
                "question": question_words(view, decision),
                "options": [{"text": text, "targets": targets(decision, option)}
                            for text, option in zip(words, decision.options, strict=True)],
                "picks": picks(decision)}

    def update(self, known: int) -> dict[str, Any]:
        """Everything the server keeps of the game, with the steps from step ``known`` on;
        the whole of it: the server filters what each page may see (``seatview``)."""
        game = self.game
        return {
            "meta": game_meta(game, game.result() if self.finished else None)
            if known == 0 or self.finished else None,
            "steps": self.steps(known),
            "table": table_snapshot(game),
            "question": self.question(),
            "answers": list(self.saved),
            "marks": list(self.marks),
            "over": self.finished,
            "failure": self.failure,
        }

    def steps(self, start: int) -> list[dict[str, Any]]:
        """The recorded steps from ``start`` on, each with its table snapshot inlined."""
        recorder = self.recorder
        found = []
        for step in recorder.steps[start:]:
            snapshot = recorder.states[step["state"]]
            table = {**snapshot, "players": [recorder.boards[i] for i in snapshot["players"]]}
            found.append({**step, "snapshot": table})
        return found
