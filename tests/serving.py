"""The playtest app's server for the tests: uvicorn in a thread on a free loopback port, and a
plain HTTP client (``urllib``) that returns every answer, errors included, as (status, JSON).
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import uvicorn

from zsim.serve.app import create_app
from zsim.serve.sessions import Sessions


@contextlib.contextmanager
def running(folder: Path, bot_seconds: float = 30.0, pace: int = 0,
            max_running: int = 8) -> Iterator[tuple[str, Sessions]]:
    """A server for games kept in ``folder``: its base URL and its sessions."""
    sessions = Sessions(folder, bot_seconds, max_running)
    app = create_app(sessions, pace=pace)
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}", sessions
    finally:
        server.should_exit = True
        thread.join(30)
        listener.close()


def call(url: str, body: Any = None, method: str | None = None,
         headers: dict[str, str] | None = None, raw: bytes | None = None,
         timeout: float = 120) -> tuple[int, Any]:
    """(status, decoded JSON answer) of one request; ``body`` is sent as JSON."""
    data = raw if raw is not None else None if body is None else json.dumps(body).encode()
    sent = {"Content-Type": "application/json"} if body is not None else {}
    sent.update(headers or {})
    request = urllib.request.Request(url, data=data, method=method, headers=sent)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return answer.status, _decode(answer.read(), answer.headers)
    except urllib.error.HTTPError as error:
        return error.code, _decode(error.read(), error.headers)


def _decode(content: bytes, headers: Any) -> Any:
    if "json" in headers.get("Content-Type", ""):
        return json.loads(content)
    return content.decode()


def new_game(base: str, **setup: Any) -> str:
    status, answer = call(f"{base}/api/games", setup)
    assert status == 201, answer
    return answer["id"]
