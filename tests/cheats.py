"""Bots that cheat, each in one way a hostile or careless bot author would try: the probes of
``tests/test_fair_play.py``, also played through the runner as ``tests/cheats.py:NAME``.

Each plays exactly as the random bot does (its choices come from its view's RNG alone), so a
cheat that changes nothing leaves the game as ``random`` would have played it.
"""

from __future__ import annotations

import gc
import random
import sys
from typing import Any

from zsim.decisions import Decision
from zsim.strategies.random_bot import RandomStrategy
from zsim.view import PlayerView


class TablesWriter(RandomStrategy):
    """Writes the rules through ``view.tables``: refused (the box is read-only)."""

    name = "tables-writer"

    def choose(self, view: PlayerView, decision: Decision) -> Any:
        view.tables.rules.governor_majority_vp[view.n_players] = 1000
        return super().choose(view, decision)


class TablesDigger(RandomStrategy):
    """Forces its way into the box it is shown, past the read-only tables and frozen models:
    it changes its own copy, never the rules nor another bot's copy."""

    name = "tables-digger"

    def choose(self, view: PlayerView, decision: Decision) -> Any:
        rules = view.tables.rules
        dict.__setitem__(rules.governor_majority_vp, view.n_players, 1000)
        object.__setattr__(rules, "palace_vp", 60)
        rules.__dict__["mausoleum_line_vp"] = 100
        return super().choose(view, decision)


class OptionsAppender(RandomStrategy):
    """Appends the answer it wants to the options (free soldier unlocks): refused."""

    name = "options-appender"

    def choose(self, view: PlayerView, decision: Decision) -> Any:
        if decision.kind == "unlock":
            decision.options.append(())
            return ()
        return super().choose(view, decision)


class Liar(list):
    """A list equal to everything."""

    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = None  # type: ignore[assignment]


class LiarPlanter(RandomStrategy):
    """Puts lists equal to everything into the other players' tokens on its copy, hoping the
    next seat is shown them."""

    name = "liar-planter"

    def choose(self, view: PlayerView, decision: Decision) -> Any:
        for p in view.players:
            if p.seat != view.seat:
                p.tokens = Liar([0, 0, 0])
                p.officials = Liar([Liar([9, 9, 9]) for _ in range(5)])
        for section in view.walls:
            section.slots = Liar([view.seat] * len(section.slots))
        return super().choose(view, decision)


class OwnVP(RandomStrategy):
    """Adds VP to its own copy of its board."""

    name = "own-vp"

    def choose(self, view: PlayerView, decision: Decision) -> Any:
        view.me.vp["vp_cards"] = view.me.vp.get("vp_cards", 0) + 100
        return super().choose(view, decision)


class DeckPeeker(RandomStrategy):
    """Rebuilds the game from what a fork tells (seed, options) to read the real deck order."""

    name = "deck-peeker"
    forks = True
    seen: dict[int, Any] = {}  # noqa: RUF012  (what it saw, by seat, for the test to check)

    def choose(self, view: PlayerView, decision: Decision) -> Any:
        if decision.kind == "turn" and view.seat not in DeckPeeker.seen:
            fork = view.fork(random.Random(0))  # its own RNG untouched: it plays as random does
            snap = getattr(fork, "_snap", None)
            DeckPeeker.seen[view.seat] = (fork.seed, fork.options, fork.rng.getstate(),
                                          snap.rng if snap is not None else None,
                                          [d[:] for d in fork.state.decks])
        return super().choose(view, decision)


def _live_games() -> list[Any]:
    """Every game of the process being played (any the walk finds: Python keeps no secret)."""
    found = []
    for obj in gc.get_objects():
        if type(obj).__name__ == "Game" and getattr(obj, "decisions", 0):
            try:
                if not obj.over:
                    found.append(obj)
            except AttributeError:  # a game not yet set up
                pass
    return found


class HeapWalker(RandomStrategy):
    """Walks every object of the process to find the game it plays, and scores 9,477 VP in
    it: out of reach of the contract, caught by the end-of-game audit."""

    name = "heap-walker"

    def choose(self, view: PlayerView, decision: Decision) -> Any:
        if decision.kind == "turn" and view.round == 5 and not view.memo.get("done"):
            view.memo["done"] = True
            for game in _live_games():
                if game.n == view.n_players:
                    p = game.state.players[view.seat]
                    p.vp["vp_cards"] = p.vp.get("vp_cards", 0) + 9477
        return super().choose(view, decision)


class StackWalker(RandomStrategy):
    """Finds the game in the locals of the engine's frames, and scores VP in it."""

    name = "stack-walker"

    def choose(self, view: PlayerView, decision: Decision) -> Any:
        if decision.kind == "turn" and view.round == 5 and not view.memo.get("done"):
            view.memo["done"] = True
            frame = sys._getframe(1)
            while frame is not None and "game" not in frame.f_locals:
                frame = frame.f_back
            if frame is not None:
                p = frame.f_locals["game"].state.players[view.seat]
                p.vp["vp_rewards"] = p.vp.get("vp_rewards", 0) + 50
        return super().choose(view, decision)


class Sabotage(RandomStrategy):
    """Walks the heap to take VP from the other seats: the audit names the seats, and blames
    no honest strategy."""

    name = "sabotage"

    def choose(self, view: PlayerView, decision: Decision) -> Any:
        if decision.kind == "turn" and view.round == 5 and not view.memo.get("done"):
            view.memo["done"] = True
            for game in _live_games():
                for p in game.state.players:
                    if p.seat != view.seat:
                        p.vp["vp_palaces"] = p.vp.get("vp_palaces", 0) - 6
        return super().choose(view, decision)


class Framer(RandomStrategy):
    """Writes its opponent's seat into its copy of the question, then fails: blamed itself."""

    name = "framer"

    def choose(self, view: PlayerView, decision: Decision) -> Any:
        if decision.kind == "turn" and view.round == 2:
            decision.seat = 1 - view.seat
            raise RuntimeError("look over there")
        return super().choose(view, decision)


class SlowFramer(RandomStrategy):
    """Writes its opponent's seat into its copy of the question, then overruns the decision
    time limit: blamed itself."""

    name = "slow-framer"

    def choose(self, view: PlayerView, decision: Decision) -> Any:
        if decision.kind == "turn" and view.round == 2:
            import time

            decision.seat = 1 - view.seat
            time.sleep(60)
        return super().choose(view, decision)


class OpponentVP(RandomStrategy):
    """Walks the heap and writes 1 VP on its opponent's sheet, hoping the audit blames the
    opponent for the VP it gained."""

    name = "opponent-vp"

    def choose(self, view: PlayerView, decision: Decision) -> Any:
        if decision.kind == "turn" and view.round == 5 and not view.memo.get("done"):
            view.memo["done"] = True
            for game in _live_games():
                if game.n == view.n_players:
                    p = game.state.players[1 - view.seat]
                    p.vp["vp_cards"] = p.vp.get("vp_cards", 0) + 1
        return super().choose(view, decision)


class LedgerWriter(RandomStrategy):
    """Writes 9,134 VP on its own sheet and in the game's ledger of scored VP too, so that the
    end-of-game audit adds up."""

    name = "ledger-writer"

    def choose(self, view: PlayerView, decision: Decision) -> Any:
        if decision.kind == "turn" and view.round == 5 and not view.memo.get("done"):
            view.memo["done"] = True
            for game in _live_games():
                if game.n == view.n_players:
                    p = game.state.players[view.seat]
                    p.vp["vp_cards"] = p.vp.get("vp_cards", 0) + 9134
                    ledger = game.records.ledger[view.seat]
                    ledger["vp_cards"] = ledger.get("vp_cards", 0) + 9134
        return super().choose(view, decision)


class ExitFramer(RandomStrategy):
    """Writes its opponent's seat into its copy of the question, then ends its process."""

    name = "exit-framer"

    def choose(self, view: PlayerView, decision: Decision) -> Any:
        if decision.kind == "turn" and view.round == 2:
            import os

            decision.seat = 1 - view.seat
            os._exit(0)
        return super().choose(view, decision)
