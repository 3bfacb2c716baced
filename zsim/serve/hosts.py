"""Which host names are this machine's loopback: one answer for ``zsim serve``'s warning and for
the app's Host check.

A server listening on a loopback address answers only requests whose Host header names a
loopback host: a page of another site whose name its DNS points at 127.0.0.1 (DNS rebinding)
sends its own name as Host, and is refused. The check reads the name as written, never asking
DNS, so every spelling of the loopback address counts: ``localhost``, ``127.x.y.z`` (and the
short forms ``127.1`` that the C library reads), ``::1`` in any of its spellings, bracketed or
not, and the IPv4 loopback mapped into IPv6 (``::ffff:127.0.0.1``).
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an address or name as given to ``--host``, or a Host header's name
    without its port) is this machine's loopback."""
    name = host.strip()
    if name.startswith("[") and name.endswith("]"):
        name = name[1:-1]
    name = name.split("%", 1)[0]  # an IPv6 zone (``::1%lo``) names the interface, not the host
    if name.rstrip(".").lower() == "localhost":
        return True
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return _short_ipv4_loopback(name)
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped.is_loopback
    return address.is_loopback


def _short_ipv4_loopback(name: str) -> bool:
    """``127.1`` and the like, which the C library (and so ``--host``) reads as 127.0.0.1."""
    if not name or not all(part.isascii() and part.isalnum() for part in name.split(".")):
        return False
    try:
        packed = socket.inet_aton(name)
    except OSError:
        return False
    return packed[0] == 127


def host_name(header: str) -> str:
    """The host of a Host header, without its port: ``[::1]:8000`` -> ``[::1]``."""
    if header.startswith("["):
        end = header.find("]")
        return header[:end + 1] if end > 0 else header
    if header.count(":") == 1:
        return header.partition(":")[0]
    return header


class LoopbackHostOnly:
    """ASGI middleware: refuse (400) an HTTP request whose Host header does not name a loopback
    host; used when the app is served on a loopback address."""

    def __init__(self, app: App) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            headers = dict(scope.get("headers") or ())
            host = headers.get(b"host", b"").decode("latin-1")
            if not is_loopback(host_name(host)):
                await _refuse(send)
                return
        await self.app(scope, receive, send)


async def _refuse(send: Send) -> None:
    body = b'{"error": "this server answers requests for its loopback address only"}'
    await send({"type": "http.response.start", "status": 400,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
