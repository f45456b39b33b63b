"""A minimal headless-Chromium driver for tests: the DevTools protocol over a pipe
(``--remote-debugging-pipe``: commands on fd 3, answers on fd 4, NUL-separated JSON), so no
WebDriver, websocket library or downloaded browser is needed, only Debian's ``chromium``.
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-extensions",
         "--disable-dev-shm-usage", "--remote-debugging-pipe"]


def chromium_binary() -> str | None:
    """Debian's chromium, if installed."""
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    return None


class Chromium:
    """One headless browser with one page. Use as a context manager."""

    def __init__(self, binary: str, width: int = 1400, height: int = 1000, timeout: float = 30.0) -> None:
        self.timeout = timeout
        self._next = 0
        self._buf = b""
        self._profile = tempfile.TemporaryDirectory(prefix="mtg-chromium-")
        to_chrome_r, to_chrome_w = os.pipe()
        from_chrome_r, from_chrome_w = os.pipe()
        # Park the child's ends above fd 4 so the dup2 calls below cannot clobber each other.
        child_r = fcntl.fcntl(to_chrome_r, fcntl.F_DUPFD_CLOEXEC, 10)
        child_w = fcntl.fcntl(from_chrome_w, fcntl.F_DUPFD_CLOEXEC, 10)
        os.close(to_chrome_r)
        os.close(from_chrome_w)

        def wire() -> None:  # in the child: dup2 leaves fds 3 and 4 open across exec
            os.dup2(child_r, 3)
            os.dup2(child_w, 4)

        self.proc = subprocess.Popen(
            [binary, *FLAGS, f"--user-data-dir={self._profile.name}", f"--window-size={width},{height}",
             "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=wire, close_fds=False)  # every other fd of ours is close-on-exec (PEP 446)
        os.close(child_r)
        os.close(child_w)
        self._w = to_chrome_w
        self._r = from_chrome_r
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        self.send("Page.enable", session=True)
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}, session=True)

    # -- protocol --------------------------------------------------------------------------------
    def send(self, method: str, params: dict[str, Any] | None = None, session: bool = False) -> dict[str, Any]:
        """Send one command and wait for its answer (events in between are dropped)."""
        self._next += 1
        msg: dict[str, Any] = {"id": self._next, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = self.session
        os.write(self._w, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        while True:
            while b"\0" in self._buf:
                raw, self._buf = self._buf.split(b"\0", 1)
                reply = json.loads(raw)
                if reply.get("id") == self._next:
                    if "error" in reply:
                        raise RuntimeError(f"{method}: {reply['error']}")
                    return reply.get("result", {})
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"chromium did not answer {method} in {self.timeout}s")
            ready, _, _ = select.select([self._r], [], [], left)
            if ready:
                chunk = os.read(self._r, 1 << 20)
                if not chunk:
                    raise RuntimeError("chromium closed the DevTools pipe")
                self._buf += chunk

    # -- page helpers ----------------------------------------------------------------------------
    def open(self, path: str | Path) -> None:
        """Load a local file and wait until it has loaded."""
        self.send("Page.navigate", {"url": Path(path).resolve().as_uri()}, session=True)
        deadline = time.monotonic() + self.timeout
        while self.eval("document.readyState") != "complete":
            if time.monotonic() > deadline:
                raise TimeoutError("the page did not finish loading")
            time.sleep(0.05)

    def eval(self, expression: str) -> Any:
        """Evaluate JavaScript in the page and return its (JSON) value."""
        res = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True}, session=True)
        if "exceptionDetails" in res:
            raise RuntimeError(f"JavaScript error: {res['exceptionDetails']}")
        return res["result"].get("value")

    def press(self, key: str, code: int) -> None:
        """A real key press (keyDown + keyUp) delivered to the focused page."""
        for kind in ("keyDown", "keyUp"):
            self.send("Input.dispatchKeyEvent", {"type": kind, "key": key, "code": key,
                                                 "windowsVirtualKeyCode": code,
                                                 "nativeVirtualKeyCode": code}, session=True)

    def screenshot(self, path: str | Path) -> bytes:
        """Save a PNG of the page (full page height) and return its bytes."""
        data = base64.b64decode(self.send("Page.captureScreenshot", {"format": "png"}, session=True)["data"])
        Path(path).write_bytes(data)
        return data

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.send("Browser.close")
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self._w, self._r):
            with contextlib.suppress(OSError):
                os.close(fd)
        self._profile.cleanup()

    def __enter__(self) -> Chromium:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
