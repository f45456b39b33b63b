"""The web table in a real headless Chromium (Debian's ``chromium`` driven by Playwright: the
``page`` fixture of ``tests/sim/conftest.py``): whole games against ``random`` and ``heuristic``
played only by clicking ``data-action`` elements (cards, card menus and buttons) until ``data-result``
appears, a card's printed text on hover, refused commands shown in the page, a screenshot, and
the replay the page offers re-running the same game.

Set ``MTG_ENV_SCREENSHOT_DIR`` to also keep the screenshot there (the README's picture is made so).
"""

from __future__ import annotations

import os
import random
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.web.conftest import DECKS, need_web_extra

need_web_extra()

from agents import HeuristicAgent  # noqa: E402
from mtg_env.engine import registry  # noqa: E402
from mtg_env.engine.view import view_for  # noqa: E402
from mtg_env.sim.replay import Replay  # noqa: E402
from mtg_env.web.server import TableServer  # noqa: E402
from mtg_env.web.table import WebTable  # noqa: E402

if TYPE_CHECKING:
    from playwright.sync_api import Page

READY = """() => document.querySelector('[data-result]') ||
  (document.getElementById('decision').dataset.decision && document.body.dataset.pending !== '1')"""
MOVED = """(did) => document.querySelector('[data-result]') ||
  document.getElementById('decision').dataset.decision !== did"""


@pytest.fixture
def serve() -> Iterator[Any]:
    """``serve(opponent, seed, max_turns)``: a table of a browser seat 0 against ``opponent``,
    served on a free port of 127.0.0.1; stopped after the test."""
    servers: list[TableServer] = []

    def start(opponent: str, seed: int, max_turns: int) -> TableServer:
        table = WebTable(list(DECKS), ["human", opponent], seed=seed, max_turns=max_turns)
        servers.append(TableServer(table).start())
        return servers[-1]

    yield start
    for s in servers:
        s.stop()


def _is_subsequence(part: list[str], whole: list[str]) -> bool:
    it = iter(whole)
    return all(any(x == y for y in it) for x in part)


def click_option(page: Page, text: str) -> None:
    """Take the option ``text`` as a person would: click its card (through the card's menu when
    the card has several options), else its button (opening the mana abilities when it is one)."""
    keys = page.evaluate("(t) => Object.keys(ACTIONS).filter((k) => ACTIONS[k].includes(t))", text)
    for key in keys:
        card = page.query_selector(f'[data-key="{key}"]')
        if card is None or not card.is_visible():
            continue
        if card.get_attribute("data-action") == text:
            card.click()
            return
        if card.get_attribute("data-actions"):
            card.click()
            page.wait_for_selector("#menu [data-action]", state="visible")
            next(b for b in page.query_selector_all("#menu [data-action]")
                 if b.get_attribute("data-action") == text).click()
            return
    button = next(b for b in page.query_selector_all("#decision [data-action]")
                  if b.get_attribute("data-action") == text)
    if not button.is_visible():
        page.click("#mana-options summary")
    button.click()


def play_in_page(page: Page, choose: Any, on_decision: Any = None) -> list[str]:
    """Until the game-over banner shows: ``choose(option texts)`` picks an option of the decision
    on show, and :func:`click_option` takes it. Returns the texts taken."""
    clicked: list[str] = []
    while True:
        page.wait_for_function(READY)
        if page.query_selector("[data-result]"):
            return clicked
        if on_decision is not None:
            on_decision()
        did = page.get_attribute("#decision", "data-decision")
        text = choose(page.evaluate("() => S.decision.options.map((o) => o.text)"))
        click_option(page, text)
        clicked.append(text)
        page.wait_for_function(MOVED, arg=did)


def check_replay(page: Page, server: TableServer, clicked: list[str]) -> None:
    """The page's replay link gives a file that re-runs the same game, with every click in it."""
    href = page.get_attribute("#result a", "href")
    res = page.request.get(server.base_url + href)
    assert res.ok, res.text()
    rep = Replay.from_json(res.text())
    table = server.table
    game = rep.run()
    assert rep.actions == table.actions and game.log == table.game.log
    assert (game.winner, game.end_reason) == (table.game.winner, table.game.end_reason)
    assert _is_subsequence(clicked, rep.actions)


def test_a_whole_game_against_random_by_clicking(serve, page: Page) -> None:
    server = serve("random", seed=11, max_turns=8)
    page.goto(server.url(0))
    page.wait_for_function(READY)
    # a card's printed text on hover
    card = next(e for e in page.query_selector_all("#hand-0 [data-card]") if e.get_attribute("data-card-text"))
    name, text = card.get_attribute("data-card"), card.get_attribute("data-card-text")
    assert text == registry.get_card(name).text
    card.hover()
    page.wait_for_selector("#card-tip", state="visible")
    tip = page.inner_text("#card-tip")
    assert name in tip and " ".join(text.split()) in " ".join(tip.split())
    assert registry.get_card(name).cost.text in tip
    # refused commands: an error in the page, and the game goes on
    did = page.get_attribute("#decision", "data-decision")
    page.evaluate("(did) => send({kind: 'act', decision: Number(did), action: 'no such option'})", did)
    page.wait_for_function("() => document.getElementById('error').textContent.includes('is not an option')")
    page.evaluate("() => send({kind: 'act', decision: -1, action: 'pass'})")
    page.wait_for_function("() => document.getElementById('error').textContent.includes('already answered')")
    assert page.get_attribute("#decision", "data-decision") == did
    # a stop set on the phase strip reaches the table
    page.click("#phases [data-side=theirs][data-step=end_of_turn]")
    page.wait_for_selector("#phases [data-side=theirs][data-step=end_of_turn].stop")
    assert server.table.seats[0].stops["theirs"] == {"declare_attackers", "end_of_turn"}
    rng = random.Random(11)
    clicked = play_in_page(page, rng.choice)
    assert len(clicked) >= 3
    result = page.get_attribute("[data-result]", "data-result")
    assert result in ("player 0 wins", "player 1 wins", "draw")
    assert page.inner_text("#result").startswith("Game over")
    check_replay(page, server, clicked)


def test_a_whole_game_against_heuristic_with_a_screenshot(serve, page: Page, tmp_path: Path) -> None:
    server = serve("heuristic", seed=12, max_turns=10)
    page.goto(server.url(0))
    shot = tmp_path / "web_table.png"
    busiest = [0]

    def maybe_shoot() -> None:
        # the busiest board of the game, with a creature's text shown as on hover
        n = len(page.query_selector_all(".player .card[data-card]"))
        creature = page.query_selector("#board-opp .card[data-card] .pt") or page.query_selector(".card .pt")
        if n > busiest[0] and creature is not None:
            busiest[0] = n
            creature.hover()
            page.wait_for_selector("#card-tip", state="visible")
            bottom = page.evaluate("() => Math.ceil(document.querySelector('main').getBoundingClientRect().bottom)")
            page.screenshot(path=shot, clip={"x": 0, "y": 0, "width": 1400, "height": min(bottom + 4, 1000)})

    me = HeuristicAgent()
    me.reset(0, 12)

    def choose(texts: list[str]) -> str:
        # the seat is deciding: the game thread waits for it, so the game holds still
        text = me.act(view_for(server.table.game, 0)).text
        assert text in texts
        return text

    clicked = play_in_page(page, choose, maybe_shoot)
    assert page.get_attribute("[data-result]", "data-result") in ("player 0 wins", "player 1 wins", "draw")
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 30_000
    check_replay(page, server, clicked)
    keep = os.environ.get("MTG_ENV_SCREENSHOT_DIR")
    if keep:
        shutil.copy(shot, Path(keep) / "web_table.png")
