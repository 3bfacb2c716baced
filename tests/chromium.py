"""Headless Chromium for the tests of the pages zsim writes (the report, the game viewer).

``chromium()`` finds the browser (the tests that need it are skipped without one). ``Browser``
drives it through the DevTools protocol over a pipe (``--remote-debugging-pipe``: JSON messages
separated by NUL bytes on file descriptors 3 and 4), so that a test can press keys, read the
page and take screenshots with no extra package and no network port.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync")


def chromium() -> str | None:
    for name in ("/usr/bin/chromium", "chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


def _onto_3_and_4(commands: int, answers: int) -> None:
    """In the child: Chromium reads commands from fd 3 and writes its answers to fd 4."""
    commands, answers = os.dup(commands), os.dup(answers)  # neither is 3 or 4 any more
    while 3 in (commands, answers) or 4 in (commands, answers):
        commands, answers = os.dup(commands), os.dup(answers)
    os.dup2(commands, 3)
    os.dup2(answers, 4)


class Browser:
    """One headless Chromium with one page, driven over the DevTools pipe."""

    def __init__(self, profile: Path, width: int = 1500, height: int = 1300) -> None:
        to_browser_read, self._write = os.pipe()
        self._read, from_browser_write = os.pipe()
        self._process = subprocess.Popen(
            [chromium() or "chromium", *FLAGS, f"--user-data-dir={profile}",
             "--remote-debugging-pipe", f"--window-size={width},{height}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            close_fds=False,  # keeps fds 3 and 4, made below; the pipes' own ends close at exec
            preexec_fn=lambda: _onto_3_and_4(to_browser_read, from_browser_write))
        os.close(to_browser_read)
        os.close(from_browser_write)
        self._buffer = b""
        self._next_id = 0
        self.events: list[dict[str, Any]] = []
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self._session = self.call("Target.attachToTarget", targetId=target,
                                  flatten=True)["sessionId"]
        self.call("Page.enable", session=True)
        self.call("Runtime.enable", session=True)
        self.call("Emulation.setDeviceMetricsOverride", session=True, width=width,
                  height=height, deviceScaleFactor=1, mobile=False)

    def close(self) -> None:
        with contextlib.suppress(OSError, RuntimeError):  # it may be gone already
            self.call("Browser.close")
        try:
            self._process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        os.close(self._write)
        os.close(self._read)

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- the protocol ------------------------------------------------------------------------

    def call(self, method: str, session: bool = False, timeout: float = 60,
             **params: Any) -> dict[str, Any]:
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = self._session
        os.write(self._write, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            answer = self._receive(deadline)
            if answer.get("id") == self._next_id:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer.get("result", {})
            self.events.append(answer)

    def _receive(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            if time.monotonic() > deadline or self._process.poll() is not None:
                raise RuntimeError("Chromium stopped answering")
            chunk = os.read(self._read, 1 << 16)
            if not chunk:
                raise RuntimeError("Chromium closed its pipe")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    # --- what a test does --------------------------------------------------------------------

    def open(self, url: str) -> None:
        """Load ``url`` and wait for its load event."""
        self.events.clear()
        self.call("Page.navigate", session=True, url=url)
        deadline = time.monotonic() + 60
        while not any(e.get("method") == "Page.loadEventFired" for e in self.events):
            self.events.append(self._receive(deadline))

    def evaluate(self, expression: str) -> Any:
        result = self.call("Runtime.evaluate", session=True, expression=expression,
                           returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, expression: str, timeout: float = 120) -> Any:
        """The value of an expression that gives a promise, once it settles."""
        result = self.call("Runtime.evaluate", session=True, expression=expression,
                           returnByValue=True, awaitPromise=True, timeout=timeout)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def click(self, selector: str) -> None:
        """Press and release the mouse button on the element's middle, as a person clicks
        (the element scrolled into view first)."""
        x, y = self._middle(selector)
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", session=True, type=kind, x=x, y=y,
                      button="left", clickCount=1)

    def hover(self, selector: str) -> None:
        x, y = self._middle(selector)
        self.call("Input.dispatchMouseEvent", session=True, type="mouseMoved", x=x, y=y)

    def _middle(self, selector: str) -> tuple[float, float]:
        found = self.evaluate(
            f"(() => {{ const e = document.querySelector({json.dumps(selector)});"
            " if (!e) return null; e.scrollIntoView({block: 'center'});"
            " const r = e.getBoundingClientRect(); return [r.x + r.width / 2,"
            " r.y + r.height / 2]; })()")
        if found is None:
            raise RuntimeError(f"no element {selector!r} on the page")
        return found[0], found[1]

    def press(self, key: str, code: int, shift: bool = False) -> None:
        """Press and release a key (``key`` as the DOM names it, ``code`` its key code)."""
        modifiers = 8 if shift else 0
        for kind in ("keyDown", "keyUp"):
            self.call("Input.dispatchKeyEvent", session=True, type=kind, key=key, code=key,
                      windowsVirtualKeyCode=code, modifiers=modifiers)

    def console_errors(self) -> list[dict[str, Any]]:
        return [e for e in self.events if e.get("method") == "Runtime.exceptionThrown"
                or (e.get("method") == "Runtime.consoleAPICalled"
                    and e["params"].get("type") == "error")]

    def screenshot(self, path: Path) -> Path:
        data = self.call("Page.captureScreenshot", session=True, format="png")["data"]
        path.write_bytes(base64.b64decode(data))
        return path
