"""The web application of ``zsim serve``: two pages and a small JSON API, on Starlette.

Pages (Jinja2, the script plain JavaScript with no build step):

- ``GET /``: set up a new game, or go back to one of the saved games;
- ``GET /game/ID``: play it; ``GET /game/ID/viewer``: the full game viewer, once it is over.

The API (every answer JSON; an error is ``{"error": "one line"}`` with a 4xx status):

- ``POST /api/games``: a new game from ``NewGame``; ``201 {"id", "url"}``;
- ``GET /api/games/ID?after=N&epoch=E``: the game as the page may see it, with the steps from
  step N on (``Session.payload``);
- ``POST /api/games/ID/answer`` ``{"number", "option"}``, ``/undo`` ``{"number"}``: the game
  moved on, as ``GET`` gives it; ``/hint`` ``{"bot"}``: the bot's choice and values;
- ``GET /api/games/ID/replay``: the game's file (``zsim view FILE`` reads it).
- ``GET /api/games/ID/position``: the game as it stands, as text (``zsim play --from FILE``).

A request body may be ``MAX_BODY`` bytes at most (413 past it: no form comes near), and an error
quotes at most a short prefix of what it was sent (``ECHO``), so that a bad request costs the
server little and its answer stays one short line.

A request that changes something must be ``Content-Type: application/json``: a page of another
site cannot send that without the browser asking this server first, which it never allows; and
on a loopback address only requests naming a loopback host are served, so that no site can
reach the app through a name of its own. Both matter because a bot spec may name a Python file
to load.
"""

from __future__ import annotations

import contextlib
import json
import secrets
from collections.abc import AsyncIterator, Callable
from importlib import resources
from typing import Any, TypeVar

import jinja2
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, ValidationError
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from zsim.paths import configs_dir
from zsim.serve.hosts import LoopbackHostOnly, is_loopback
from zsim.serve.replay import HUMAN, Setup, viewer_record
from zsim.serve.sessions import Refused, Session, Sessions
from zsim.strategies.registry import available
from zsim.viewer.page import board_script, render
from zsim.yamlload import safe_load

MAX_BODY = 64 * 1024  # bytes of a request body: a new game's form is well under 1 KiB
ECHO = 360  # characters of an error message at most: what a request sent is quoted short
Model = TypeVar("Model", bound=BaseModel)


class NewGame(BaseModel):
    """The new-game form."""

    model_config = ConfigDict(extra="forbid")

    players: StrictInt = Field(2, ge=2, le=4)
    solo: StrictBool = False
    lisi_level: StrictInt = Field(1, ge=1, le=4)
    seats: list[str] = Field(min_length=1, max_length=4)
    variants: list[str] = Field(default_factory=list, max_length=100)
    box: str | None = None
    seed: StrictInt | None = Field(None, ge=0, lt=2**63)

    def setup(self) -> Setup:
        seats = [seat.strip() for seat in self.seats]
        wanted = 1 if self.solo else self.players
        if len(seats) != wanted:
            raise Refused(f"seats: {len(seats)} given for "
                          f"{'the solo game' if self.solo else f'{self.players} players'}, "
                          f"which needs {wanted}")
        for number, seat in enumerate(seats, 1):
            if not seat:
                raise Refused(f"seat {number}: say 'human' or name a bot")
            _known_bot(number, seat)
        seed = self.seed if self.seed is not None else secrets.randbelow(1_000_000)
        return Setup(players=2 if self.solo else self.players, seats=tuple(seats), seed=seed,
                     solo=self.solo, lisi_level=self.lisi_level,
                     variants=tuple(v.strip() for v in self.variants if v.strip()),
                     box=(self.box or "").strip() or None)


def _known_bot(number: int, seat: str) -> None:
    """Refuse a seat that names no bot by a bare name, with the name meant: a typo is the
    usual mistake, and the resolver's list of every name is long to read in a form."""
    from difflib import get_close_matches

    if seat == HUMAN or not seat.isidentifier():
        return  # parameters, a file or a class: the resolver says what is wrong with them
    names = [name for name in available() if not name.startswith("lisi")]
    if seat in available():
        return
    close = get_close_matches(seat, [HUMAN, *names], n=1)
    guess = f" (did you mean {close[0]}?)" if close else ""
    raise Refused(f"seat {number}: no bot is called {seat!r}{guess}; say {HUMAN!r} or one of "
                  f"{', '.join(names)}")


class AnswerBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    number: StrictInt
    option: StrictInt


class UndoBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    number: StrictInt


class HintBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    bot: str = Field(min_length=1, max_length=1000)


def templates() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.PackageLoader("zsim.serve", "templates"),
                              autoescape=jinja2.select_autoescape(["html"]))


def variant_files() -> list[dict[str, str]]:
    """The built-in variant files, with their descriptions, for the new-game page."""
    found = []
    for path in sorted(configs_dir("variants").glob("*.yaml")):
        try:
            data = safe_load(path.read_text(encoding="utf-8"))
            description = str(data.get("description", "")) if isinstance(data, dict) else ""
        except Exception:  # a broken file is listed; choosing it says what is wrong
            description = "(cannot be read)"
        found.append({"name": path.stem, "description": description})
    return found


def variant_text(setup: Setup) -> str:
    """The variant of a game in one line, as ``--variant`` takes it (empty: the rules as
    printed), with the box folder when it is not the built-in one."""
    parts = list(setup.variants)
    if setup.box:
        parts.append(f"box {setup.box}")
    return ", ".join(parts)


def create_app(sessions: Sessions, host: str = "127.0.0.1", pace: int = 500) -> Starlette:
    """The application for these games; ``pace`` is the pause (ms) the page makes after each
    bot move, ``host`` the address served (loopback: only loopback host names answered)."""
    pages = templates()

    def page(name: str, status: int = 200, **context: Any) -> HTMLResponse:
        return HTMLResponse(pages.get_template(name).render(**context), status_code=status)

    async def blocking(call: Callable[..., Any], *args: Any) -> Any:
        return await run_in_threadpool(call, *args)

    async def session(request: Request) -> Session:
        found = await blocking(sessions.get, request.path_params["game"])
        return await blocking(sessions.ready, found)

    async def state(request: Request) -> JSONResponse:
        game = await session(request)
        after, epoch = _int(request, "after", 0), _int(request, "epoch", None)
        return JSONResponse(game.payload(after, epoch))

    async def new_page(request: Request) -> HTMLResponse:
        saved = [{"id": game_id, "seats": ", ".join(replay.setup.seats),
                  "status": replay.status, "answers": len(replay.answers),
                  "variants": variant_text(replay.setup) or "as printed"}
                 for game_id, replay in sessions.saved()][:30]
        return page("new.html", strategies=available(), variants=variant_files(), saved=saved,
                    human=HUMAN)

    async def game_page(request: Request) -> HTMLResponse:
        game = await session(request)
        return page("game.html", game=game.id, pace=pace, strategies=available(),
                    variant=variant_text(game.replay.setup))

    async def viewer_page(request: Request) -> HTMLResponse:
        game = await session(request)
        if game.status != "over":
            raise Refused(f"the game is {'not over' if game.status == 'playing' else 'stopped'}"
                          ": the full viewer shows every hand, so it opens once the game is "
                          "over", 409)
        if game.viewer_page is None:
            record = await blocking(viewer_record_of, game)
            game.viewer_page = render(record, f"Zhanguo playtest {game.id}")
        return HTMLResponse(game.viewer_page)

    async def create(request: Request) -> JSONResponse:
        setup = (await _body(request, NewGame)).setup()
        game = await blocking(sessions.new, setup)
        return JSONResponse({"id": game.id, "url": f"/game/{game.id}"}, status_code=201)

    async def answer(request: Request) -> JSONResponse:
        body = await _body(request, AnswerBody)
        game = await session(request)
        await blocking(sessions.answer, game, body.number, body.option)
        return JSONResponse(game.payload(_int(request, "after", 0), game.epoch))

    async def undo(request: Request) -> JSONResponse:
        body = await _body(request, UndoBody)
        game = await session(request)
        await blocking(sessions.undo, game, body.number)
        return JSONResponse(game.payload(0, game.epoch))

    async def hint(request: Request) -> JSONResponse:
        body = await _body(request, HintBody)
        game = await session(request)
        return JSONResponse(await blocking(sessions.hint, game, body.bot.strip()))

    async def replay_file(request: Request) -> JSONResponse:
        game = await session(request)
        data = game.replay.to_json()
        if game.status != "over":  # the seed would tell the deck order: hidden until the end
            data["setup"]["seed"] = None
        return JSONResponse(data, headers={
            "Content-Disposition": f'attachment; filename="zsim-playtest-{game.id}.json"'})

    async def position_file(request: Request) -> Response:
        game = await session(request)
        text = await blocking(sessions.position, game)
        return Response(text, media_type="application/json", headers={
            "Content-Disposition": f'attachment; filename="zsim-position-{game.id}.json"'})

    async def board_js(request: Request) -> Response:
        return Response(board_script(), media_type="text/javascript")

    async def refused(request: Request, error: Exception) -> Response:
        assert isinstance(error, Refused)
        message = _short(str(error), ECHO)
        if not request.url.path.startswith("/api/"):  # a page: a page that says why
            return page("error.html", message=message, status=error.status)
        return JSONResponse({"error": message}, status_code=error.status)

    async def http_error(request: Request, error: Exception) -> Response:
        assert isinstance(error, HTTPException)
        message = {404: f"no page {request.url.path}",
                   405: f"{request.method} is not allowed on {request.url.path}"}.get(
            error.status_code, str(error.detail))
        return JSONResponse({"error": _short(message, ECHO)}, status_code=error.status_code)

    static = resources.files("zsim.serve").joinpath("static")
    routes = [
        Route("/", new_page),
        Route("/game/{game}", game_page),
        Route("/game/{game}/viewer", viewer_page),
        Route("/api/games", create, methods=["POST"]),
        Route("/api/games/{game}", state),
        Route("/api/games/{game}/answer", answer, methods=["POST"]),
        Route("/api/games/{game}/undo", undo, methods=["POST"]),
        Route("/api/games/{game}/hint", hint, methods=["POST"]),
        Route("/api/games/{game}/replay", replay_file),
        Route("/api/games/{game}/position", position_file),
        Route("/static/board.js", board_js),
        Mount("/static", StaticFiles(directory=str(static)), name="static"),
    ]
    checks = [Middleware(LoopbackHostOnly)] if is_loopback(host) else []

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await blocking(sessions.warm)
        yield
        await blocking(sessions.close)

    return Starlette(routes=routes, lifespan=lifespan,
                     middleware=checks,
                     exception_handlers={Refused: refused, HTTPException: http_error})


def viewer_record_of(game: Session) -> dict[str, Any]:
    return viewer_record(game.replay)


def _int(request: Request, name: str, default: int | None) -> Any:
    value = request.query_params.get(name)
    if value is None:
        return default
    try:
        return int(value)
    except ValueError:
        raise Refused(f"{name}={_short(value, 40)!r} is not a whole number") from None


def _short(text: str, most: int) -> str:
    """``text``, or its first words within ``most`` characters and a mark that there was
    more: a message quotes what it was sent, which may be anything."""
    if len(text) <= most:
        return text
    cut = text[:most - 1]
    words = cut.rsplit(" ", 1)[0] if " " in cut[most // 2:] else cut
    return f"{words.rstrip(',;:')}…"


async def _body(request: Request, model: type[Model]) -> Model:
    """The request's JSON body checked against ``model``; ``Refused`` says what is wrong."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise Refused("send the request as JSON (Content-Type: application/json)", 415)
    body = await _read(request)
    try:
        data = json.loads(body)
    except RecursionError:  # the parser recurses once per nested array or object
        raise Refused("the request is not JSON that can be read: nested too deep") from None
    except ValueError as error:  # a UnicodeDecodeError too
        raise Refused(f"the request is not JSON: {_short(str(error), 80)}") from None
    try:
        return model.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "the request"
        raise Refused(f"{where}: {first['msg']}") from None


async def _read(request: Request) -> bytes:
    """The request's body, refused (413) once it is over ``MAX_BODY``: told by its length
    header, or found so while it is read, so that no more of it is held."""
    told = request.headers.get("content-length", "")
    if told.isdigit() and int(told) > MAX_BODY:
        raise Refused(f"the request is over {MAX_BODY // 1024} KiB", 413)
    body = bytearray()
    async for part in request.stream():
        body += part
        if len(body) > MAX_BODY:
            raise Refused(f"the request is over {MAX_BODY // 1024} KiB", 413)
    return bytes(body)
