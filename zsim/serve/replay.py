"""A played game as plain data: its setup and every answer given, in order.

The playtest app saves each game as such a file (JSON, ``FORMAT``), and ``zsim view FILE`` turns
one into the game viewer page. The answers of the bots are kept with the humans', so a game
replays exactly without asking any bot again (a bot with a time budget, or a bot changed since,
would answer otherwise), and a game saved half-way replays up to where it stands.

The variants are kept as ``KEY=VALUE`` strings, a variant file expanded to its entries, so the
file does not depend on the folder the game was set up from; the component box is kept as the
absolute path of its folder (None: the built-in box).
"""

from __future__ import annotations

import json
import os
from collections import deque
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from zsim.decisions import Decision
from zsim.errors import UserError
from zsim.lineup import SeatedGame, seat_game
from zsim.rules.lisi import LiSiSeat
from zsim.serve.adapter import find_option, option_json
from zsim.strategies.human import HumanStrategy
from zsim.variants import parse as parse_variants
from zsim.viewer.record import GameFailed, record_game

FORMAT = "zsim-replay"
VERSION = 1
HUMAN = "human"  # the seat spec of a seat a person plays


class ReplayError(UserError, ValueError):
    """A replay that cannot be read or no longer fits the game (one line, naming the file)."""


@dataclass(frozen=True)
class Setup:
    """What a game is set up from: who sits where, the variants, the box and the seed.

    ``seats`` has one spec per seat, ``human`` or a bot spec as ``zsim play -s`` takes it; in
    the solo mode, one seat, against Li Si at ``lisi_level``.
    """

    players: int
    seats: tuple[str, ...]
    seed: int
    solo: bool = False
    lisi_level: int = 1
    variants: tuple[str, ...] = ()
    box: str | None = None

    def seated(self) -> SeatedGame:
        """The box, options and strategies (``human`` seats as ``HumanStrategy``), through the
        resolvers ``zsim play`` uses; their errors name the culprit."""
        return seat_game(list(self.seats), self.players, self.seed, self.variants, self.box,
                         self.solo, self.lisi_level)

    def humans(self) -> list[int]:
        """The seats people play."""
        return [seat for seat, spec in enumerate(self.seats) if spec == HUMAN]

    def expanded(self) -> Setup:
        """The same setup with variant files expanded and the box as an absolute path, so
        that it reads the same from any folder."""
        variants = tuple(parse_variants(self.variants).as_strings())
        box = str(Path(self.box).resolve()) if self.box else None
        return Setup(self.players, self.seats, self.seed, self.solo, self.lisi_level,
                     variants, box)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["seats"], data["variants"] = list(self.seats), list(self.variants)
        return data

    @classmethod
    def from_json(cls, data: Any, where: str) -> Setup:
        if not isinstance(data, dict):
            raise ReplayError(f"{where}: 'setup' must be a mapping")
        try:
            setup = cls(players=int(data["players"]), seats=tuple(map(str, data["seats"])),
                        seed=int(data["seed"]), solo=bool(data.get("solo", False)),
                        lisi_level=int(data.get("lisi_level", 1)),
                        variants=tuple(map(str, data.get("variants", ()))),
                        box=None if data.get("box") is None else str(data["box"]))
        except KeyError as error:
            raise ReplayError(f"{where}: setup has no {error.args[0]!r}") from None
        except (TypeError, ValueError) as error:
            raise ReplayError(f"{where}: setup: {error}") from None
        return setup


Answer = tuple[int, Any]  # (seat, the option as JSON)


@dataclass
class Replay:
    """A game: its setup, the answers given so far (every seat's), and how it stands."""

    setup: Setup
    answers: list[Answer] = field(default_factory=list)
    status: str = "playing"  # playing | over | failed
    failure: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "version": VERSION, "setup": self.setup.to_json(),
                "answers": [[seat, answer] for seat, answer in self.answers],
                "status": self.status, "failure": self.failure}

    @classmethod
    def from_json(cls, data: Any, where: str) -> Replay:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ReplayError(f"{where}: not a zsim replay (no \"format\": \"{FORMAT}\")")
        if data.get("version") != VERSION:
            raise ReplayError(f"{where}: replay version {data.get('version')!r}; this zsim "
                              f"reads version {VERSION}")
        answers = data.get("answers", [])
        if not isinstance(answers, list) or not all(
                isinstance(a, list) and len(a) == 2 and isinstance(a[0], int) for a in answers):
            raise ReplayError(f"{where}: 'answers' must be a list of [seat, answer] pairs")
        status = data.get("status", "playing")
        if status not in ("playing", "over", "failed"):
            raise ReplayError(f"{where}: status {status!r} is not playing, over or failed")
        return cls(Setup.from_json(data.get("setup"), where),
                   [(seat, answer) for seat, answer in answers], status, data.get("failure"))

    def save(self, path: Path) -> None:
        """Write the file whole or not at all (a new file renamed over the old one)."""
        partial = path.with_name(path.name + ".partial")
        partial.write_text(json.dumps(self.to_json(), indent=1), encoding="utf-8")
        os.replace(partial, path)


def load(path: str | Path) -> Replay:
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise ReplayError(f"{path}: cannot be read ({error.strerror})") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ReplayError(f"{path}: not JSON ({error})") from None
    return Replay.from_json(data, str(path))


# --- playing the answers again -----------------------------------------------------------------


class ReplayMismatch(ReplayError):
    """A saved answer that the game does not offer (the rules, the box or zsim changed)."""


class ReplayEnd(Exception):
    """Every saved answer is used and a seat is asked again: the saved game stops here."""


class Answers:
    """The saved answers, taken in turn by the seats asked."""

    def __init__(self, answers: list[Answer]) -> None:
        self.queue: deque[Answer] = deque(answers)
        self.used = 0

    def __bool__(self) -> bool:
        return bool(self.queue)

    def take(self, decision: Decision) -> Any:
        """The next saved answer, which must be for this seat and one of its options."""
        seat, saved = self.queue[0]
        if seat != decision.seat:
            raise ReplayMismatch(f"saved answer {self.used + 1} is seat {seat}'s, but seat "
                                 f"{decision.seat} is asked ({decision.kind})")
        option = find_option(decision.options, saved)
        if option is None:
            raise ReplayMismatch(f"saved answer {self.used + 1} ({saved!r}) is not offered to "
                                 f"seat {seat} any more ({decision.kind}: "
                                 f"{[option_json(o) for o in decision.options]})")
        self.queue.popleft()
        self.used += 1
        return option


class SavedSeat:
    """A seat that answers from the saved answers, under the name of who played it."""

    def __init__(self, name: str, answers: Answers) -> None:
        self.name = name
        self.answers = answers

    def choose(self, view: Any, decision: Decision) -> Any:
        if not self.answers:
            raise ReplayEnd(f"the saved game stops here ({self.answers.used} answers)")
        return self.answers.take(decision)


def replayed(replay: Replay) -> SeatedGame:
    """The game of a replay, every seat but Li Si's answering from the saved answers."""
    seated = replay.setup.seated()
    answers = Answers(replay.answers)
    seats: list[Any] = [
        s if isinstance(s, LiSiSeat)  # Li Si is asked nothing
        else SavedSeat(HUMAN if isinstance(s, HumanStrategy) else s.name, answers)
        for s in seated.strategies]
    return SeatedGame(seated.box, seated.options, seats, seated.seed)


def viewer_record(replay: Replay) -> dict[str, Any]:
    """The game viewer's step record of a replay (``zsim.viewer``): the whole game, or the
    game up to where it was saved."""
    try:
        _, record = record_game(replayed(replay))
    except GameFailed as failure:
        if isinstance(failure.error, ReplayMismatch):
            raise ReplayMismatch(str(failure.error)) from None
        if not isinstance(failure.error, ReplayEnd):
            raise
        record = failure.record
        record["steps"][-1]["text"] = (
            f"The game failed here: {replay.failure}" if replay.failure else
            f"The game was saved here, after {len(replay.answers)} answers.")
    return record
