"""The replay viewer: one self-contained HTML file (inline CSS and JS, the replay and a board
snapshot per decision embedded as JSON; no network, no server).

The page shows a spectator's view of the board at every decision (every player's life, counts,
mana pools and permanents, the stack, and every hand: it is a replay, nothing is hidden any
more), the decision with its options and the one taken highlighted, and the log up to that
point. Hovering a card shows its printed text, cost and type. A slider, the buttons and the
arrow keys (Left/Right, Home/End) step through the game; ``file.html#12`` opens decision 12. The
board is drawn by the code it shares with the web table (:mod:`mtg_env.sim.board_html`).

A multiplayer game shows every seat: a Free-for-All table as a grid of seats in seat order above
the stack, a Two-Headed Giant game as its two teams (each headed by its shared life) with the stack
between them. A player who has left the game is greyed out and marked so.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

from .board_html import BOARD_CSS, BOARD_JS, PAGE_CSS, facts_for_labels
from .replay import Replay, replay_steps

__all__ = ["render_html", "write_html"]


def _embed(data: Any) -> str:
    # Safe inside <script type="application/json">: no "</script>" or "<!--" can appear.
    return json.dumps(data, separators=(",", ":")).replace("<", "\\u003c").replace(">", "\\u003e")


def render_html(replay: Replay, steps: list[dict[str, Any]] | None = None,
                log: list[str] | None = None) -> str:
    """The viewer page of ``replay`` as a string (re-runs the replay unless ``steps`` and ``log``
    from :func:`~mtg_env.sim.replay.replay_steps` are given)."""
    if steps is None or log is None:
        steps, game = replay_steps(replay)
        log = game.log
    meta = {
        "decks": [d.name for d in replay.decks], "agents": list(replay.agents), "seed": replay.seed,
        "winner": replay.winner, "end_reason": replay.end_reason, "decisions": len(replay.actions),
        "engine_version": replay.engine_version, "variant": replay.variant,
        "result": replay.result_text(),
    }
    title = _title(replay)
    names, cards = facts_for_labels(_labels(steps))
    data = {"meta": meta, "steps": steps, "log": log, "names": names, "cards": cards}
    return (_TEMPLATE.replace("__PAGE_CSS__", PAGE_CSS).replace("__BOARD_CSS__", BOARD_CSS)
            .replace("__BOARD_JS__", BOARD_JS)
            .replace("__TITLE__", html.escape(title)).replace("__DATA__", _embed(data)))


def _title(replay: Replay) -> str:
    """The page's title: the seats (deck and agent) and the seed, and a multiplayer table's
    variant."""
    seats = [f"{d.name} ({a})" for d, a in zip(replay.decks, replay.agents, strict=True)]
    if replay.variant == "two_headed_giant":
        return (f"Two-Headed Giant: {seats[0]} + {seats[1]} vs {seats[2]} + {seats[3]}, "
                f"seed {replay.seed}")
    if replay.players > 2:
        attack = replay.options.get("attack", "left")
        return (f"{replay.players}-player Free-for-All (attack {attack}): {' · '.join(seats)}, "
                f"seed {replay.seed}")
    return f"{seats[0]} vs {seats[1]}, seed {replay.seed}"


def _labels(steps: list[dict[str, Any]]) -> set[str]:
    """Every card label on the boards of ``steps`` (hands, graveyards, removed cards, permanents
    and the stack)."""
    out: set[str] = set()
    for s in steps:
        b = s["board"]
        for P in b["players"]:
            out.update(P["hand"] or ())
            out.update(P["graveyard"])
            out.update(P["removed"])
        out.update(p["label"] for p in b["permanents"])
        out.update(it["label"] for it in b["stack"])
    return out


def write_html(replay: Replay, path: str | Path, steps: list[dict[str, Any]] | None = None,
               log: list[str] | None = None) -> Path:
    """Write the viewer page of ``replay`` to ``path``; returns the path."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(render_html(replay, steps, log), encoding="utf-8")
    return p


_TEMPLATE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>mtg_env replay: __TITLE__</title>
<style>
:root { --bg:#f6f4ef; --panel:#fff; --ink:#222; --dim:#777; --line:#ddd; --p0:#1f6fb2; --p1:#b2411f;
        --hi:#ffe58a; --tap:#eee; }
__PAGE_CSS__
header { padding:8px 16px; background:#2b2b2b; color:#fff; }
#controls { display:flex; align-items:center; gap:10px; padding:8px 16px; background:#e9e5dc;
            border-bottom:1px solid var(--line); position:sticky; top:0; z-index:2; }
#controls button { font-size:16px; padding:2px 10px; }
#slider { flex:1; }
#position { min-width:210px; font-variant-numeric:tabular-nums; }
#step-name { font-weight:600; }
main { display:grid; grid-template-columns: minmax(420px, 3fr) minmax(300px, 2fr); gap:12px;
       padding:12px 16px; }
.player h2 { font-size:15px; margin:0 0 4px; }
.player.p0 h2 { color:var(--p0); } .player.p1 h2 { color:var(--p1); }
.player.p2 h2 { color:#2a7a3a; } .player.p3 h2 { color:#7a3aa0; } .player.p4 h2 { color:#a07a10; }
.player.p5 h2 { color:#107a8a; }
.player.left { opacity:.45; filter:grayscale(1); }
.seats { display:grid; grid-template-columns:repeat(auto-fit, minmax(360px, 1fr)); gap:0 10px; }
.team { border:1px solid var(--line); border-radius:8px; padding:6px 8px 0; margin-bottom:10px;
        background:#efece4; }
.team h2.team-head { font-size:15px; margin:0 0 6px; }
.team.won { border-color:#2a8a2a; }
__BOARD_CSS__
#decision h2, #log h2, #stack h2 { font-size:15px; margin:0 0 4px; }
#options { margin:4px 0 0; padding-left:28px; }
#options li { padding:1px 4px; border-radius:3px; }
#options li.chosen { background:var(--hi); font-weight:700; }
#log-lines { max-height:55vh; overflow:auto; font:12px/1.35 ui-monospace, Menlo, Consolas, monospace;
             white-space:pre-wrap; }
#log-lines .new { background:#fff6c9; }
.muted { color:var(--dim); }
</style>
</head>
<body>
<header>
  <h1>__TITLE__</h1>
  <div class="sub" id="meta"></div>
</header>
<div id="controls">
  <button id="prev" title="previous decision (Left arrow)">&#9664;</button>
  <input id="slider" type="range" min="0" value="0" step="1" aria-label="decision">
  <button id="next" title="next decision (Right arrow)">&#9654;</button>
  <span id="position"><span id="decision-no"></span> &middot; <span id="turn-no"></span> &middot;
    <span id="step-name"></span></span>
</div>
<main>
  <section id="table">
    <div id="stack" class="panel"></div>
  </section>
  <section>
    <div id="decision" class="panel"></div>
    <div id="log" class="panel"><h2>Log</h2><div id="log-lines"></div></div>
  </section>
</main>
<script id="replay-data" type="application/json">__DATA__</script>
<script>
"use strict";
const DATA = JSON.parse(document.getElementById("replay-data").textContent);
const steps = DATA.steps, meta = DATA.meta;
let cur = 0;
const $ = (id) => document.getElementById(id);
__BOARD_JS__
const ctx = {names: DATA.names, cards: DATA.cards};
const N = steps[0].board.players.length, GIANT = meta.variant === "two_headed_giant";
function winners() {
  if (meta.winner === null) return [];
  return GIANT ? [meta.winner - meta.winner % 2, meta.winner - meta.winner % 2 + 1] : [meta.winner];
}
function result() {
  const w = winners();
  if (!w.length) return meta.result;
  return meta.result.replace(/ wins? /, (m) => " (" + w.map((i) => meta.agents[i]).join(", ") + ")" + m);
}
function seatBox(i) {
  const d = el("div", "panel player p" + i); d.id = "board-" + i; return d;
}
// The seats around the stack: two players face each other across it (player 1 on top); a
// Two-Headed Giant game shows team 1, the stack, then team 0; a Free-for-All table its seats
// in seat order, then the stack.
(function layout() {
  const table = $("table"), stack = $("stack");
  if (N === 2) { table.prepend(seatBox(1)); table.append(seatBox(0)); return; }
  if (GIANT) {
    for (const t of [1, 0]) {
      const box = el("div", "team"); box.id = "team-" + t;
      const head = el("h2", "team-head"); head.id = "team-head-" + t;
      const grid = el("div", "seats"); grid.append(seatBox(2 * t), seatBox(2 * t + 1));
      box.append(head, grid);
      if (t === 1) table.insertBefore(box, stack); else table.append(box);
    }
    return;
  }
  const grid = el("div", "seats"); grid.id = "seats";
  for (let i = 0; i < N; i++) grid.append(seatBox(i));
  table.insertBefore(grid, stack);
})();
$("meta").textContent = "Spectator view: every hand is shown (this is a replay). " + meta.decisions +
  " recorded decisions; result: " + result() + "; engine " + meta.engine_version +
  ". Keys: Left/Right arrows, Home/End. Hover a card for its text.";
function playerTitle(b, i) {
  const active = GIANT ? Math.floor(b.active / 2) === Math.floor(i / 2) : b.active === i;
  return "Player " + i + " \\u2014 " + meta.agents[i] + ", " + meta.decks[i] +
    (active ? " (active)" : "") + (b.players[i].lost ? " \\u2014 left the game" : "");
}
function show(n) {
  cur = Math.max(0, Math.min(steps.length - 1, n));
  const s = steps[cur], b = s.board;
  $("slider").value = String(cur);
  $("decision-no").textContent = s.player === null ? "game over"
    : "decision " + s.n + " of " + meta.decisions;
  $("turn-no").textContent = "turn " + b.turn;
  $("step-name").textContent = b.step.replace(/_/g, " ");
  for (let i = 0; i < N; i++) {
    renderPlayer(ctx, $("board-" + i), b, i, playerTitle(b, i));
    $("board-" + i).classList.toggle("deciding", s.player === i);
    $("board-" + i).classList.toggle("left", !!b.players[i].lost);
  }
  if (GIANT) {
    for (const t of [0, 1]) {
      const won = b.is_over && b.winner !== null && Math.floor(b.winner / 2) === t;
      $("team-head-" + t).textContent = "Team " + t + " (players " + 2 * t + " and " + (2 * t + 1) +
        "): life " + b.players[2 * t].life + (won ? " \\u2014 won" : "");
      $("team-" + t).classList.toggle("won", won);
    }
  }
  renderStack(ctx, $("stack"), b);
  const d = $("decision"); d.replaceChildren();
  if (s.player === null) {
    d.append(el("h2", null, "Game over"), el("div", null, s.prompt));
  } else {
    d.append(el("h2", null, "Player " + s.player + " decides: " + s.kind.replace(/_/g, " ")),
             el("div", "muted", s.prompt));
    const ol = el("ol"); ol.id = "options";
    s.options.forEach((o, k) => { const li = el("li", k === s.chosen ? "chosen" : null, o); ol.append(li); });
    d.append(ol);
  }
  const prev = cur > 0 ? steps[cur - 1].log_end : 0;
  const lines = $("log-lines"); lines.replaceChildren();
  DATA.log.slice(0, s.log_end).forEach((line, k) => lines.append(el("div", k >= prev ? "new" : null, line)));
  lines.scrollTop = lines.scrollHeight;
  if (location.hash !== "#" + s.n) history.replaceState(null, "", "#" + s.n);
}
$("slider").max = String(steps.length - 1);
$("slider").addEventListener("input", (e) => show(Number(e.target.value)));
$("prev").addEventListener("click", () => show(cur - 1));
$("next").addEventListener("click", () => show(cur + 1));
document.addEventListener("keydown", (e) => {
  if (e.target && e.target.id === "slider" && (e.key === "ArrowLeft" || e.key === "ArrowRight")) return;
  if (e.key === "ArrowRight") { show(cur + 1); e.preventDefault(); }
  else if (e.key === "ArrowLeft") { show(cur - 1); e.preventDefault(); }
  else if (e.key === "Home") { show(0); e.preventDefault(); }
  else if (e.key === "End") { show(steps.length - 1); e.preventDefault(); }
});
installCardTip(() => DATA.cards);
const start = Number((location.hash || "#1").slice(1));
show(Number.isFinite(start) && start >= 1 ? start - 1 : 0);
</script>
</body>
</html>
"""
