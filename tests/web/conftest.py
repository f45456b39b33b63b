"""What the web table's tests share: a table with its Starlette test client, a seat's state read
through the API, and the headless browser of the replay viewer's tests (``tests/sim/conftest.py``:
Playwright driving Debian's chromium, skipped with the install command when either is missing)."""

from __future__ import annotations

import time
import warnings
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from tests.sim.conftest import browser, page  # noqa: F401  (the fixtures, for the tests here)

DECKS = ("starter_green", "starter_red")


def need_web_extra() -> None:
    """Skip the calling module when the [web] extra (or httpx, for the test client) is missing."""
    for module in ("starlette", "uvicorn", "httpx"):
        pytest.importorskip(module, reason=f"the web table's tests need {module} (the [web] extra and "
                            "httpx are in [dev]: pip install -e '.[dev]')")


def get_state(client: Any, table: Any, seat: int, after: int = -1) -> dict[str, Any]:
    """Seat ``seat``'s state through ``GET /api/state`` (held until its version is past ``after``)."""
    r = client.get("/api/state", params={"seat": seat, "token": table.tokens[seat], "after": after})
    assert r.status_code == 200, r.text
    return r.json()


def next_decision(client: Any, table: Any, seat: int, old: int | None = None,
                  timeout: float = 30.0) -> dict[str, Any]:
    """Seat ``seat``'s state once it shows a decision other than decision ``old``, or the game is
    over."""
    deadline = time.monotonic() + timeout
    s = get_state(client, table, seat)
    while not (s["over"] or (s["decision"] is not None and s["decision"]["id"] != old)):
        assert time.monotonic() < deadline, f"no new decision for seat {seat} in {timeout} s: {s['waiting']}"
        s = get_state(client, table, seat, s["version"])
    return s


def act(client: Any, table: Any, seat: int, state: dict[str, Any], text: str) -> Any:
    """Answer the decision on show in ``state`` with the option ``text``."""
    return client.post("/api/command", json={"seat": seat, "token": table.tokens[seat], "kind": "act",
                                             "decision": state["decision"]["id"], "action": text})


@pytest.fixture
def make_table() -> Iterator[Any]:
    """``make_table(agents, seed=, max_turns=)``: a started table (human seats are "human") and
    its test client; every table made is stopped after the test."""
    with warnings.catch_warnings():
        # Newer Starlette prefers the httpx2 package for its test client; httpx serves every version.
        warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
        from starlette.testclient import TestClient

    from mtg_env.web.server import create_app
    from mtg_env.web.table import WebTable

    made: list[Any] = []

    def make(agents: Sequence[str] = ("human", "random"), seed: int = 0, max_turns: int = 100,
             decks: Sequence[str] = DECKS) -> tuple[Any, Any]:
        table = WebTable(list(decks), list(agents), seed=seed, max_turns=max_turns).start()
        made.append(table)
        return table, TestClient(create_app(table))

    yield make
    for table in made:
        table.quit()
