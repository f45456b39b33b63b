"""The web table's server: a Starlette app over a :class:`~mtg_env.web.table.WebTable`, served by
uvicorn on 127.0.0.1 (another interface only when asked, with a warning).

Routes: ``GET /`` the page; ``GET /api/state?seat=N&token=T&after=V`` the seat's state, held
until its version is past ``V`` (a long poll, at most :data:`POLL_SECONDS`); ``POST /api/command``
a command (:meth:`WebTable.submit`), answered ``{"ok": ...}`` or ``{"error": ...}`` with status
400, 403 or 409; ``GET /api/replay`` the replay file once the game is over; ``POST /api/leave``
closes the table once the game is over.

Every request must come from the page's own origin: an ``Origin`` header naming another origin,
a cross-site fetch (``Sec-Fetch-Site``) or, while bound to a loopback address, a ``Host`` that is
not that address (DNS rebinding) gets 403. A seat's requests also carry its secret token, which
is in the address the server prints.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import socket
import threading
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from .page import page_html
from .table import ActionRejected, WebTable

__all__ = ["POLL_SECONDS", "TableServer", "create_app", "host_warning", "is_loopback"]

POLL_SECONDS = 15.0


def is_loopback(host: str) -> bool:
    """Is ``host`` (an address or ``localhost``) reachable from this machine only?

    >>> is_loopback("127.0.0.1"), is_loopback("::1"), is_loopback("localhost"), is_loopback("0.0.0.0")
    (True, True, True, False)
    """
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def host_warning(host: str) -> str | None:
    """The warning for serving on ``host``, or ``None`` for a loopback address."""
    if is_loopback(host):
        return None
    return (f"warning: serving on {host}, not only on this machine: anyone who can reach it and "
            "has a seat's address (it holds the seat's token) can play that seat and see its hand")


_OTHER_SITES = ("cross-site", "same-site")


class _SameOrigin:
    """Refuse (403) requests from another origin: see the module docstring."""

    def __init__(self, app: ASGIApp, allowed_hosts: set[str] | None) -> None:
        self.app = app
        self.allowed_hosts = allowed_hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        host = headers.get("host", "")
        why = None
        if self.allowed_hosts is not None and host not in self.allowed_hosts:
            why = f"host {host!r} is not this table's address"
        elif "origin" in headers and headers["origin"] != f"http://{host}":
            why = f"requests from {headers['origin']!r} are not accepted (another origin)"
        elif scope["path"].startswith("/api/") and headers.get("sec-fetch-site") in _OTHER_SITES:
            why = "cross-site requests are not accepted"
        if why is not None:
            await JSONResponse({"error": why}, status_code=403)(scope, receive, send)
            return
        await self.app(scope, receive, send)


def _int_param(request: Request, name: str, default: int | None = None) -> int:
    raw = request.query_params.get(name)
    if raw is None and default is not None:
        return default
    try:
        return int(raw)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise ActionRejected(f"query parameter {name!r} must be an integer, got {raw!r}", 400) from None


def create_app(table: WebTable, allowed_hosts: set[str] | None = None,
               on_leave: Any = None, closing: threading.Event | None = None) -> Starlette:
    """The ASGI app of ``table``. ``allowed_hosts`` (``"127.0.0.1:8000"``...) are the ``Host``
    headers accepted (``None``: any); ``on_leave()`` is called when a page leaves the finished
    table; ``closing`` set ends the long polls early (the server is stopping)."""
    closing = closing if closing is not None else threading.Event()

    async def page(request: Request) -> Response:
        return HTMLResponse(page_html(), headers={"Cache-Control": "no-store",
                                                  "Content-Security-Policy": "default-src 'self'; "
                                                  "script-src 'unsafe-inline'; style-src 'unsafe-inline'"})

    def rejected(exc: ActionRejected) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=exc.status)

    async def state(request: Request) -> Response:
        try:
            seat = _int_param(request, "seat")
            token = request.query_params.get("token")
            after = _int_param(request, "after", -1)
            table.state(seat, token)
            loop = asyncio.get_running_loop()
            deadline = loop.time() + POLL_SECONDS
            while table.version <= after and loop.time() < deadline and not closing.is_set():
                await asyncio.sleep(0.03)
            return JSONResponse(table.state(seat, token), headers={"Cache-Control": "no-store"})
        except ActionRejected as exc:
            return rejected(exc)

    async def command(request: Request) -> Response:
        try:
            body = await request.body()
            try:
                data = json.loads(body)
            except (json.JSONDecodeError, UnicodeDecodeError):
                raise ActionRejected("the command is not JSON", 400) from None
            return JSONResponse({"ok": table.submit(data)})
        except ActionRejected as exc:
            return rejected(exc)

    async def replay(request: Request) -> Response:
        try:
            table.state(_int_param(request, "seat"), request.query_params.get("token"))
        except ActionRejected as exc:
            return rejected(exc)
        if not table.finished.is_set() or table.replay is None or table.failure is not None:
            return JSONResponse({"error": "the replay is there once the game is over"}, status_code=409)
        return Response(table.replay.to_json(), media_type="application/json",
                        headers={"Content-Disposition": 'attachment; filename="mtg_env-replay.json"'})

    async def leave(request: Request) -> Response:
        try:
            data = json.loads(await request.body())
            table.state(data.get("seat"), data.get("token"))
        except (json.JSONDecodeError, UnicodeDecodeError, AttributeError):
            return JSONResponse({"error": "the command is not a JSON object"}, status_code=400)
        except ActionRejected as exc:
            return rejected(exc)
        if not table.finished.is_set():
            return JSONResponse({"error": "the game is not over: concede first"}, status_code=409)
        if on_leave is not None:
            on_leave()
        return JSONResponse({"ok": "the table is closed"})

    app = Starlette(routes=[
        Route("/", page), Route("/api/state", state), Route("/api/command", command, methods=["POST"]),
        Route("/api/replay", replay), Route("/api/leave", leave, methods=["POST"]),
        Route("/favicon.ico", lambda request: Response(status_code=204)),
    ])
    app.add_middleware(_SameOrigin, allowed_hosts=allowed_hosts)
    return app


class TableServer:
    """Serve a table: ``start()`` binds ``host:port`` (0: a free port) and serves in a thread;
    ``url(seat)`` is a browser seat's address; ``stop()`` ends the game (a browser seat concedes
    if it is not over) and the server. ``left`` is set when a page leaves the finished table."""

    def __init__(self, table: WebTable, host: str = "127.0.0.1", port: int = 0) -> None:
        self.table = table
        self.host = host
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self._sock = socket.socket(family, socket.SOCK_STREAM)
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            self._sock.bind((host, port))
        except OSError:
            self._sock.close()
            raise
        self.port: int = self._sock.getsockname()[1]
        self.left = threading.Event()
        self._closing = threading.Event()
        allowed = None
        if is_loopback(host):
            names = {host, "localhost", "127.0.0.1", "[::1]"} | ({f"[{host}]"} if ":" in host else set())
            allowed = {f"{n}:{self.port}" for n in names}
        app = create_app(table, allowed, on_leave=self.left.set, closing=self._closing)
        config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=2, lifespan="off")
        self._server = uvicorn.Server(config)
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        if host in ("0.0.0.0", "[::]"):
            host = socket.gethostname()
        return f"http://{host}:{self.port}"

    def url(self, seat: int) -> str:
        """The address of browser seat ``seat`` (with its token)."""
        return f"{self.base_url}/?seat={seat}&token={self.table.tokens[seat]}"

    def start(self) -> TableServer:
        """Start the game and serve it in a background thread; returns once the server listens."""
        self.table.start()
        self._sock.listen(64)
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [self._sock]},
                                        name="mtg-env-web-server", daemon=True)
        self._thread.start()
        while not self._server.started and self._thread.is_alive():
            self.left.wait(0.02)
        return self

    def stop(self) -> None:
        """End the game (if it is not over) and the server."""
        self.table.quit()
        self._closing.set()
        self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(10)
        self._sock.close()
