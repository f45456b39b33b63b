"""The HTML replay viewer in a real headless Chromium (Debian's ``chromium`` package, driven by
Playwright: the ``page`` fixture in ``conftest.py``): open the file, step with the arrow keys and the
slider, assert on the rendered DOM, take a screenshot.

Set ``MTG_ENV_SCREENSHOT_DIR`` to also keep the screenshot there (the README's picture is made so).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from typer.testing import CliRunner

from agents import HeuristicAgent
from mtg_env.cli import app
from mtg_env.engine import registry
from mtg_env.sim.replay import record_game, replay_steps
from mtg_env.sim.viewer import render_html

if TYPE_CHECKING:
    from playwright.sync_api import Page


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    _, rep = record_game(["kamahls_temper", "molimos_might"], [HeuristicAgent(), HeuristicAgent()], seed=3)
    path = rep.save(tmp_path_factory.mktemp("viewer") / "game.json")
    steps, _ = replay_steps(rep)
    return rep, path, steps


def test_the_page_is_self_contained(game) -> None:
    rep, _, steps = game
    page = render_html(rep)
    assert page.startswith("<!DOCTYPE html>") and "http://" not in page and "https://" not in page
    assert "<script src" not in page and "<link" not in page and page.count("</script>") == 2
    assert len(steps) == len(rep.actions) + 1 and steps[-1]["kind"] == "game_over"


def _dom(page: Page) -> dict:
    return page.evaluate("""(() => ({
        life0: document.getElementById('life-0').textContent,
        life1: document.getElementById('life-1').textContent,
        decision: document.getElementById('decision-no').textContent,
        turn: document.getElementById('turn-no').textContent,
        step: document.getElementById('step-name').textContent,
        slider: document.getElementById('slider').value,
        options: [...document.querySelectorAll('#options li')].map(li => li.textContent),
        chosen: [...document.querySelectorAll('#options li.chosen')].map(li => li.textContent),
        hand0: document.getElementById('hand-0').textContent,
        logLines: document.querySelectorAll('#log-lines div').length,
        meta: document.getElementById('meta').textContent,
    }))()""")


def _expect(dom: dict, steps: list[dict], i: int) -> None:
    s = steps[i]
    b = s["board"]
    assert dom["life0"] == str(b["players"][0]["life"]) and dom["life1"] == str(b["players"][1]["life"])
    assert dom["step"] == b["step"].replace("_", " ") and dom["turn"] == f"turn {b['turn']}"
    assert dom["slider"] == str(i) and dom["logLines"] == s["log_end"]
    if s["player"] is None:
        assert dom["decision"] == "game over" and dom["options"] == []
    else:
        assert dom["decision"].startswith(f"decision {s['n']} of ")
        assert dom["options"] == s["options"] and dom["chosen"] == [s["options"][s["chosen"]]]
    for card in b["players"][0]["hand"]:
        assert card in dom["hand0"]


def test_the_viewer_steps_through_a_game_in_headless_chromium(game, page: Page, tmp_path: Path) -> None:
    _, path, steps = game
    html = tmp_path / "game.html"
    res = CliRunner().invoke(app, ["replay", str(path), "--html", str(html), "--quiet"])
    assert res.exit_code == 0, res.output
    page.goto(html.resolve().as_uri())
    first = _dom(page)
    _expect(first, steps, 0)
    assert first["life0"] == first["life1"] == "20" and "Spectator view" in first["meta"]
    for _ in range(40):
        page.keyboard.press("ArrowRight")
    _expect(_dom(page), steps, 40)
    page.keyboard.press("ArrowLeft")
    _expect(_dom(page), steps, 39)
    # the slider: jump to the first decision after somebody lost life
    k = next(i for i, s in enumerate(steps) if s["board"]["players"][0]["life"] != 20
             or s["board"]["players"][1]["life"] != 20)
    page.evaluate(f"(() => {{ const s = document.getElementById('slider'); s.value = '{k}';"
                  "s.dispatchEvent(new Event('input', {bubbles: true})); })()")
    dom = _dom(page)
    _expect(dom, steps, k)
    assert "20" in (dom["life0"], dom["life1"]) and dom["life0"] != dom["life1"]
    page.keyboard.press("End")
    last = _dom(page)
    _expect(last, steps, len(steps) - 1)
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    _expect(_dom(page), steps, 2)
    # every card names its card; hovering one shows its printed text, cost and type
    cards = page.query_selector_all("#board-0 .card:not(.hidden), #board-1 .card:not(.hidden)")
    assert cards and all(c.get_attribute("data-card") for c in cards)
    card = next(c for c in page.query_selector_all("#hand-0 [data-card]") if c.get_attribute("data-card-text"))
    cdef = registry.get_card(card.get_attribute("data-card"))
    assert card.get_attribute("data-card-text") == cdef.text
    card.hover()
    page.wait_for_selector("#card-tip", state="visible")
    tip = " ".join(page.inner_text("#card-tip").split())
    assert cdef.name in tip and " ".join(cdef.text.split()) in tip and cdef.cost.text in tip
    # the screenshot: the busiest board with something on the stack
    busy = max((i for i, s in enumerate(steps) if s["board"]["stack"]),
               key=lambda i: len(steps[i]["board"]["permanents"]))
    page.evaluate(f"(() => {{ const s = document.getElementById('slider'); s.value = '{busy}';"
                  "s.dispatchEvent(new Event('input', {bubbles: true})); })()")
    _expect(_dom(page), steps, busy)
    png = page.screenshot(path=tmp_path / "viewer.png")
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 20_000
    keep = os.environ.get("MTG_ENV_SCREENSHOT_DIR")
    if keep:
        shutil.copy(tmp_path / "viewer.png", Path(keep) / "viewer.png")
