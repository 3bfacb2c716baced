"""A live game in a process of its own: what the server runs each game in.

A bot may loop, sleep, or catch every exception; nothing inside the process can stop it for
sure. So each game runs here, talking to the server over a pipe, and the server ends the process
when a bot overruns its time (``zsim.serve.sessions.Worker``). The game itself is safe: the
server holds every answer given, and builds the game again from them in a new process.

The pipe carries plain data, and what comes back is JSON text, never a pickle: the worker runs
bots, and nothing it sends may run code in the server when read. The server sends
``(command, argument)``; the worker answers ``("ok", data)``, ``("refused", (message,
status))`` for an answer or hint the game cannot take (status: an HTTP status saying whose
fault), and
``("error", message)`` when the game cannot be set up (then it exits). Before a bot thinks it
sends ``("thinking", seat, bot, kind)``: the server counts the bot's time from there.
"""

from __future__ import annotations

import json
from multiprocessing.connection import Connection
from typing import Any

from zsim.components import BoxError
from zsim.lineup import LineupError
from zsim.options import OptionError
from zsim.serve.live import AnswerError, LiveGame
from zsim.serve.replay import Replay, ReplayError
from zsim.strategies.registry import UnknownStrategy

SETUP_ERRORS = (BoxError, OptionError, UnknownStrategy, LineupError, ReplayError)


def main(conn: Connection, replay: dict[str, Any]) -> None:
    """The worker process: set the game up from its replay, then serve commands until the
    pipe closes or ``stop`` comes."""
    try:
        _serve(conn, replay)
    except (EOFError, BrokenPipeError, KeyboardInterrupt):
        pass  # the server went away or stopped us
    except Exception as error:  # a defect here: tell the server, which builds the game anew
        _send(conn, ("error", f"the game's process failed: {type(error).__name__}: {error}"))
    finally:
        conn.close()


def _send(conn: Connection, message: tuple[Any, ...]) -> None:
    """A message to the server, as JSON (``zsim.serve.sessions.Worker.call`` reads it)."""
    conn.send_bytes(json.dumps(message).encode())


def _serve(conn: Connection, data: dict[str, Any]) -> None:
    def thinking(seat: int, bot: str, kind: str) -> None:
        _send(conn, ("thinking", seat, bot, kind))

    try:
        replay = Replay.from_json(data, "the game")
        # a game that failed is shown as it stopped: its bots are not asked again
        live = LiveGame(replay, thinking, think=replay.status != "failed")
    except SETUP_ERRORS as error:
        _send(conn, ("error", str(error)))
        return
    _send(conn, ("ok", live.update(0)))
    known = len(live.recorder.steps)
    while True:
        command, argument = conn.recv()
        if command == "stop":
            return
        try:
            if command == "answer":
                live.answer(*argument)
            elif command == "hint":
                _send(conn, ("ok", live.hint(argument)))
                continue
            elif command == "position":
                try:
                    _send(conn, ("ok", live.game.to_text()))
                except Exception as error:  # a game stopped mid-step has no position
                    _send(conn, ("refused", (f"no position of this game: {error}", 409)))
                continue
            else:
                raise AnswerError(f"unknown command {command!r}")
        except AnswerError as error:  # a hint's too
            _send(conn, ("refused", (str(error), error.status)))
            continue
        _send(conn, ("ok", live.update(known)))
        known = len(live.recorder.steps)
