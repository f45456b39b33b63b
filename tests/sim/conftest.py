"""The browser for the browser tests: Playwright driving Debian's ``chromium`` package through
``executable_path`` (Playwright's own browser download is never needed). A test that takes the
``page`` fixture is skipped, with the install command in its reason, when either is missing."""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page


def chromium_binary() -> str | None:
    """Debian's chromium (``apt-get install chromium``), if installed."""
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    return None


def _descendants(pid: int) -> set[int]:
    """The live (not zombie) processes under ``pid``, from /proc (empty where there is no /proc)."""
    parent: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        state, ppid = text[text.rindex(")") + 2:].split()[:2]
        if state != "Z":
            parent[int(stat.parent.name)] = int(ppid)
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {p for p, pp in parent.items() if pp in frontier} - found
        found |= frontier
    return found


def _alive(pids: set[int]) -> set[int]:
    alive = set()
    for pid in pids:
        try:
            if Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z":
                alive.add(pid)
        except (OSError, IndexError):
            pass
    return alive


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """One headless Chromium per test module, closed with Playwright's driver after the module, so
    no browser process outlives it (nor Playwright's event loop, which other tests' asyncio would
    otherwise meet)."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("playwright is not installed (it is in the [dev] extra: pip install -e '.[dev]')")
    binary = chromium_binary()
    if binary is None:
        pytest.skip("Debian's chromium is not installed (an optional system package: "
                    "sudo apt-get install chromium)")
    before = _descendants(os.getpid())
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=binary, headless=True, timeout=60_000)
        started = _descendants(os.getpid()) - before  # Playwright's driver, chromium and its children
        try:
            yield b
        finally:
            b.close()
    deadline = time.monotonic() + 10
    while _alive(started) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = _alive(started)
    assert not left, f"browser processes left behind: {sorted(left)}"


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    """A fresh 1400×1000 page in its own browser context, closed after the test."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    context.set_default_timeout(30_000)
    try:
        yield context.new_page()
    finally:
        context.close()
