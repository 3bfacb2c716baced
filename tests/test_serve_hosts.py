"""``zsim serve`` on any spelling of the loopback address: no warning from the command, and the
app answers only requests whose Host names the loopback (a site whose DNS name points at
127.0.0.1, DNS rebinding, is refused)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from click.testing import CliRunner

from zsim.cli import main
from zsim.serve.app import create_app
from zsim.serve.hosts import host_name, is_loopback
from zsim.serve.sessions import Sessions

LOOPBACK = ["127.0.0.1", "127.0.0.2", "127.1.2.3", "127.255.255.254", "127.1", "localhost",
            "LOCALHOST", "localhost.", "::1", "[::1]", "0:0:0:0:0:0:0:1", "0000::0001",
            "::ffff:127.0.0.1", "[0:0:0:0:0:0:0:1]"]
ELSEWHERE = ["0.0.0.0", "::", "192.168.1.1", "10.0.0.1", "evil.example.com",
             "localhost.evil.example.com", "127.0.0.1.evil.example.com", "::2", "[::2]", ""]


@pytest.mark.parametrize("host", LOOPBACK)
def test_every_spelling_of_the_loopback_is_loopback(host):
    assert is_loopback(host)


@pytest.mark.parametrize("host", ELSEWHERE)
def test_other_hosts_are_not(host):
    assert not is_loopback(host)


@pytest.mark.parametrize(("header", "name"), [
    ("127.0.0.1:8000", "127.0.0.1"), ("[::1]:8000", "[::1]"), ("[::1]", "[::1]"),
    ("localhost", "localhost"), ("evil.example.com:80", "evil.example.com")])
def test_the_host_header_is_read_without_its_port(header, name):
    assert host_name(header) == name


def _get(app: Any, host: str) -> int:
    """The status of ``GET /static/board.js`` sent to the ASGI app with this Host header."""
    sent: list[dict[str, Any]] = []
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
             "scheme": "http", "path": "/static/board.js", "raw_path": b"/static/board.js",
             "query_string": b"", "root_path": "", "headers": [(b"host", host.encode())],
             "client": ("127.0.0.1", 5000), "server": ("127.0.0.1", 8000)}

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    asyncio.run(app(scope, receive, send))
    return next(m["status"] for m in sent if m["type"] == "http.response.start")


@pytest.mark.parametrize("served", LOOPBACK)
def test_an_app_served_on_any_loopback_spelling_refuses_other_host_names(tmp_path, served):
    app = create_app(Sessions(tmp_path), host=served)
    assert _get(app, "evil.example.com") == 400
    assert _get(app, "evil.example.com:8000") == 400
    assert _get(app, "") == 400
    for asked in ("127.0.0.1:8000", "localhost:8000", "[::1]:8000", "localhost"):
        assert _get(app, asked) == 200, asked


def test_an_app_served_on_another_address_answers_any_host_name(tmp_path):
    app = create_app(Sessions(tmp_path), host="0.0.0.0")
    assert _get(app, "evil.example.com") == 200


def _serve_output(monkeypatch, tmp_path, host: str) -> str:
    import uvicorn

    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)
    # uvicorn's logging config would hand its handlers the runner's stream, closed once the
    # command returns: every later test of this process would then fail writing to it
    monkeypatch.setattr(uvicorn.Config, "configure_logging", lambda self: None)
    result = CliRunner().invoke(main, ["serve", "--host", host, "--port", "0",
                                       "--games", str(tmp_path)])
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.2", "localhost", "::1", "[::1]",
                                  "0:0:0:0:0:0:0:1"])
def test_zsim_serve_on_a_loopback_spelling_warns_of_nothing(monkeypatch, tmp_path, host):
    try:
        output = _serve_output(monkeypatch, tmp_path, host)
    except AssertionError as error:  # no IPv6 on this machine: nothing to listen on
        if ":" in host and "cannot listen" in str(error):
            pytest.skip("no IPv6 loopback here")
        raise
    assert "warning" not in output


def test_zsim_serve_on_every_address_warns(monkeypatch, tmp_path):
    assert "warning: anyone who can reach 0.0.0.0" in _serve_output(monkeypatch, tmp_path,
                                                                     "0.0.0.0")


class Flag:
    """An object whose unpickling would create a file."""

    path = ""

    def __reduce__(self) -> Any:
        from pathlib import Path

        return (Path.touch, (Path(self.path),))


def test_the_server_never_unpickles_what_a_games_process_sends(tmp_path):
    """A game's process runs bots: the server reads it as JSON text, and a pickle it sends is
    no message (the process is ended, the game stays the server's), never loaded."""
    import types
    from multiprocessing import Pipe

    from zsim.serve.sessions import Worker, WorkerGone

    flag = tmp_path / "ran"
    Flag.path = str(flag)
    here, there = Pipe()
    worker = Worker.__new__(Worker)
    worker.conn, worker.thinking = here, None
    worker.process = types.SimpleNamespace(is_alive=lambda: False, join=lambda seconds: None)
    there.send(("ok", Flag()))
    with pytest.raises(WorkerGone):
        worker.call(None, 5, 5)
    assert not flag.exists()
    here2, there2 = Pipe()
    worker.conn = here2
    there2.send_bytes(b'["ok", {"steps": []}]')
    assert worker.call(None, 5, 5) == ("ok", {"steps": []})
