"""The web table's one page: HTML, CSS and JavaScript inline (no build step, nothing fetched
from the network). The board is drawn by the code shared with the replay viewer
(:mod:`mtg_env.sim.board_html`).

The page reads its seat and token from its address (``/?seat=0&token=...``), long-polls
``/api/state`` for what that seat may see and posts its commands to ``/api/command``.

What tests rely on: every element that takes an option carries ``data-action`` (the option's
exact text); every card ``data-card`` (its name) and ``data-card-text`` (its printed text); the
game-over banner ``#result`` ``data-result`` (``player N wins`` or ``draw``); a refused command's
message is in ``#error``; ``#decision`` carries ``data-decision`` (the id of the decision on
show, empty while none) and ``document.body`` ``data-version`` (the state's version).
"""

from __future__ import annotations

from ..sim.board_html import BOARD_CSS, BOARD_JS, PAGE_CSS

__all__ = ["page_html"]


def page_html() -> str:
    """The table page (the same for every seat: the seat comes from the address)."""
    return (_PAGE.replace("__PAGE_CSS__", PAGE_CSS).replace("__BOARD_CSS__", BOARD_CSS)
            .replace("__BOARD_JS__", BOARD_JS))


_PAGE = r"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>mtg_env table</title>
<style>
:root { --bg:#f6f4ef; --panel:#fff; --ink:#222; --dim:#777; --line:#ddd; --me:#1f6fb2; --opp:#b2411f;
        --hi:#ffe58a; --tap:#eee; --go:#2a8a2a; }
__PAGE_CSS__
header { padding:6px 16px; background:#2b2b2b; color:#fff; display:flex; gap:16px; align-items:baseline; }
#result { display:none; padding:10px 16px; font-size:17px; font-weight:700; background:#fff3bf;
          border-bottom:2px solid #e0c060; }
#result.shown { display:flex; gap:14px; align-items:center; }
#result a, #result button { font-size:13px; font-weight:400; }
#phases { display:grid; grid-template-columns: 120px repeat(10, 1fr); gap:2px; padding:6px 16px;
          background:#e9e5dc; border-bottom:1px solid var(--line); font-size:12px; position:sticky; top:0;
          z-index:3; }
#phases .side { color:var(--dim); align-self:center; }
#phases button { font-size:12px; padding:2px 0; border:1px solid #ccc; border-radius:3px; background:#f7f5f0;
                 color:#555; cursor:pointer; }
#phases button.stop { background:#fff; color:#111; border-color:#888; font-weight:600; }
#phases button.stop::after { content:" \25CF"; color:#c33; }
#phases button.now { background:var(--hi); border-color:#c9a400; color:#000; }
main { display:grid; grid-template-columns: minmax(440px, 3fr) minmax(320px, 2fr); gap:12px;
       padding:10px 16px; }
.panel h2 { font-size:15px; margin:0 0 4px; }
.player.me h2 { color:var(--me); } .player.opp h2 { color:var(--opp); }
__BOARD_CSS__
#decision .prompt { margin:2px 0 6px; }
#decision .waiting { color:var(--dim); font-style:italic; }
#options { display:flex; flex-wrap:wrap; gap:4px; margin:4px 0; }
button.option { font-size:13px; padding:3px 8px; border:1px solid #9bbf9b; background:#f1faef;
                border-radius:4px; cursor:pointer; }
button.option:hover { background:#d4f2cc; }
button.option.pass { font-weight:700; border-color:var(--go); }
#controls { display:flex; flex-wrap:wrap; gap:4px; margin-top:6px; border-top:1px solid var(--line);
             padding-top:6px; }
#controls button { font-size:12px; padding:2px 8px; }
#controls .danger { color:#a00; }
details#mana-options summary { color:var(--dim); cursor:pointer; font-size:12px; }
#notice { color:#8a5a00; margin:4px 0; }
#notice:empty, #error:empty { display:none; }
#error { color:#fff; background:#b3261e; border-radius:4px; padding:4px 8px; margin:4px 0; }
#card-detail:empty { display:none; }
#card-detail .tip-head { display:flex; justify-content:space-between; font-weight:700; }
#card-detail .tip-type { font-style:italic; border-top:1px solid #ddd; border-bottom:1px solid #ddd;
                         margin:3px 0; }
#card-detail .tip-text { white-space:pre-wrap; }
#log-lines { max-height:42vh; overflow:auto; font:12px/1.35 ui-monospace, Menlo, Consolas, monospace;
             white-space:pre-wrap; }
#log-lines .new { background:#fff6c9; }
#menu { position:absolute; z-index:40; display:none; background:#fff; border:1px solid #888;
        border-radius:6px; padding:6px; box-shadow:0 4px 14px #0003; max-width:360px; }
#menu button { display:block; width:100%; text-align:left; margin:2px 0; }
.muted { color:var(--dim); }
body[data-pending="1"] button.option, body[data-pending="1"] .card.actionable { opacity:0.6; }
</style>
</head>
<body data-version="0">
<header><h1 id="title">mtg_env table</h1><span class="sub" id="subtitle">connecting...</span></header>
<div id="result"></div>
<div id="phases"></div>
<main>
  <section>
    <div id="board-opp" class="panel player opp"></div>
    <div id="stack" class="panel"></div>
    <div id="board-me" class="panel player me"></div>
  </section>
  <section>
    <div id="decision" class="panel" data-decision=""></div>
    <div id="card-detail" class="panel"></div>
    <div id="log" class="panel"><h2>Log</h2><div id="log-lines"></div></div>
  </section>
</main>
<div id="menu"></div>
<script>
"use strict";
__BOARD_JS__
const params = new URLSearchParams(location.search);
const SEAT = Number(params.get("seat") || "0"), TOKEN = params.get("token") || "";
const STEP_NAMES = {upkeep: "upkeep", draw: "draw", precombat_main: "main 1",
  beginning_of_combat: "begin combat", declare_attackers: "attackers", declare_blockers: "blockers",
  combat_damage: "damage",
  end_of_combat: "end combat", postcombat_main: "main 2", end_of_turn: "end"};
const $ = (id) => document.getElementById(id);
let S = null, version = 0, logSeen = 0, left = false;

function setError(msg) { $("error") && ($("error").textContent = msg || ""); }
async function send(cmd) {
  document.body.dataset.pending = "1";
  let answer;
  try {
    const body = JSON.stringify(Object.assign({seat: SEAT, token: TOKEN}, cmd));
    const headers = {"Content-Type": "application/json"};
    const r = await fetch("/api/command", {method: "POST", headers, body});
    answer = await r.json().catch(() => ({error: "the server answered " + r.status}));
    if (!r.ok) {
      document.body.dataset.pending = "";
      setError(answer.error || ("error " + r.status));
      return false;
    }
  } catch (e) {
    document.body.dataset.pending = ""; setError("could not reach the server: " + e); return false;
  }
  setError("");
  return true;
}
function act(text) {
  if (!S || !S.decision || document.body.dataset.pending === "1") return;
  closeMenu();
  send({kind: "act", decision: S.decision.id, action: text});
}
function optionButton(text, cls) {
  const b = el("button", "option" + (cls ? " " + cls : ""), text);
  b.dataset.action = text;
  return b;
}
function closeMenu() { $("menu").style.display = "none"; }
function openMenu(node, texts) {
  const m = $("menu");
  m.replaceChildren(el("div", "muted", node.dataset.card || ""));
  for (const t of texts) m.append(optionButton(t));
  const r = node.getBoundingClientRect();
  m.style.left = (window.scrollX + r.left) + "px";
  m.style.top = (window.scrollY + r.bottom + 4) + "px";
  m.style.display = "block";
  $("card-tip").style.display = "none";
}
function showDetail(name) {
  const f = S && S.cards[name], box = $("card-detail");
  if (!f) { box.replaceChildren(); return; }
  const head = el("div", "tip-head");
  head.append(el("span", null, f.name), el("span", null, f.cost));
  box.replaceChildren(head, el("div", "tip-type", f.type));
  if (f.text) box.append(el("div", "tip-text", f.text));
  if (f.note) box.append(el("div", "muted", f.note));
  if (f.pt) box.append(el("div", null, f.pt));
  box.dataset.card = name;
  box.dataset.cardText = f.text;
}
document.addEventListener("click", (e) => {
  const t = e.target;
  const opt = t.closest("[data-action]");
  if (opt) { e.preventDefault(); act(opt.dataset.action); return; }
  const cmd = t.closest("[data-command]");
  if (cmd) { e.preventDefault(); command(cmd); return; }
  const step = t.closest("[data-step]");
  if (step) { toggleStop(step.dataset.side, step.dataset.step); return; }
  const many = t.closest("[data-actions]");
  if (many && S && S.decision) { openMenu(many, actionsFor(many.dataset.key)); e.stopPropagation(); return; }
  if (!t.closest("#menu")) closeMenu();
  const card = t.closest("[data-card]");
  if (card && card.id !== "card-detail") showDetail(card.dataset.card);
});
function command(btn) {
  const c = btn.dataset.command;
  if (c === "pass_until") send({kind: "pass_until", decision: S.decision.id, until: btn.dataset.until});
  else if (c === "undo") send({kind: "undo", decision: S.decision.id});
  else if (c === "concede") {
    if (btn.dataset.armed !== "1") { btn.dataset.armed = "1"; btn.textContent = "really concede?"; return; }
    send({kind: "concede"});
  } else if (c === "leave") {
    fetch("/api/leave", {method: "POST", headers: {"Content-Type": "application/json"},
                         body: JSON.stringify({seat: SEAT, token: TOKEN})})
      .then(() => {
        left = true;
        $("result").append(el("span", "muted", " (the server is closed; you can close this tab)"));
      });
  }
}
function toggleStop(side, step) {
  const cur = new Set(S.stops[side]);
  if (cur.has(step)) cur.delete(step); else cur.add(step);
  const body = {kind: "stops", mine: S.stops.mine, theirs: S.stops.theirs};
  body[side] = [...cur];
  send(body);
}
let ACTIONS = {};
function actionsFor(key) { return ACTIONS[key] || []; }

function renderPhases(b) {
  const ph = $("phases"); ph.replaceChildren();
  for (const [side, label] of [["mine", "your turn"], ["theirs", "opponent's turn"]]) {
    ph.append(el("span", "side", label));
    const active = (b.active === SEAT) === (side === "mine");
    for (const st of S.steps) {
      const btn = el("button", null, STEP_NAMES[st] || st);
      btn.dataset.step = st; btn.dataset.side = side;
      if (S.stops[side].includes(st)) btn.classList.add("stop");
      if (active && b.step === st) btn.classList.add("now");
      btn.title = (S.stops[side].includes(st) ? "stop" : "no stop") + " at " + (STEP_NAMES[st] || st) +
        " on " + label + ": click to toggle (without a stop, priority there is passed for you " +
        "unless the opponent has something on the stack)";
      ph.append(btn);
    }
  }
}
function playerTitle(b, i) {
  const who = i === SEAT ? "You (player " + i + ")" : "Player " + i + " (" + S.agents[i] + ")";
  return who + " \u2014 " + S.decks[i] + (b.active === i ? " \u00b7 active" : "") +
    (b.deciding === i ? " \u00b7 deciding" : "");
}
function renderDecision() {
  const d = $("decision"); d.replaceChildren();
  const notice = el("div"); notice.id = "notice"; notice.textContent = S.notice || "";
  const err = el("div"); err.id = "error"; err.setAttribute("role", "alert");
  const D = S.decision;
  d.dataset.decision = D ? String(D.id) : "";
  if (S.over) {
    d.append(el("h2", null, "Game over"), el("div", null, S.over.text), notice, err);
    return;
  }
  if (!D) {
    d.append(el("h2", null, "Waiting"), el("div", "waiting", S.waiting || "..."), notice, err);
    const c = el("div"); c.id = "controls";
    const con = el("button", "danger", "concede"); con.dataset.command = "concede";
    c.append(con); d.append(c);
    return;
  }
  d.append(el("h2", null, "Your decision: " + D.kind.replace(/_/g, " ")), el("div", "prompt", D.prompt),
           notice, err);
  const opts = el("div"); opts.id = "options";
  const mana = [];
  let hasPass = false;
  for (const o of D.options) {
    if (o.text === "pass") { hasPass = true; continue; }
    if (o.verb === "mana") { mana.push(o); continue; }
    opts.append(optionButton(o.text));
  }
  if (hasPass) opts.prepend(optionButton("pass", "pass"));
  d.append(opts);
  if (mana.length) {
    const det = el("details"); det.id = "mana-options";
    det.append(el("summary", null, "mana abilities (" + mana.length + "): or click a land"));
    const box = el("div"); box.id = "mana-buttons";
    for (const o of mana) box.append(optionButton(o.text));
    det.append(box); d.append(det);
  }
  const c = el("div"); c.id = "controls";
  if (hasPass) {
    for (const [k, text] of Object.entries(S.until_texts)) {
      const b = el("button", null, text); b.dataset.command = "pass_until"; b.dataset.until = k; c.append(b);
    }
  }
  const u = el("button", null, "undo"); u.dataset.command = "undo"; u.title = "take back your last decision";
  const con = el("button", "danger", "concede"); con.dataset.command = "concede";
  c.append(u, con);
  d.append(c);
}
function renderLog() {
  const lines = $("log-lines"); lines.replaceChildren();
  const first = S.log_size - S.log.length;
  S.log.forEach((line, k) => lines.append(el("div", first + k >= logSeen ? "new" : null, line)));
  lines.scrollTop = lines.scrollHeight;
}
function render(state) {
  S = state;
  version = S.version;
  const b = S.board, opp = 1 - SEAT;
  ACTIONS = {};
  for (const o of S.decision ? S.decision.options : []) {
    for (const k of o.about) (ACTIONS[k] = ACTIONS[k] || []).push(o.text);
  }
  const ctx = {names: S.names, cards: S.cards, keys: S.keys, actionsFor};
  $("title").textContent = "mtg_env table \u2014 you are player " + SEAT + " (" + S.decks[SEAT] + ")";
  $("subtitle").textContent = "turn " + b.turn + " \u00b7 " + b.step.replace(/_/g, " ") + " \u00b7 active: " +
    (b.active === SEAT ? "you" : "player " + b.active) + " \u00b7 hover or click a card for its text";
  if (S.goldfish) {
    const dead = S.goldfish.dead_turn;
    $("subtitle").textContent += " \u00b7 goldfish (player " + S.goldfish.seat + "): " +
      (dead === null ? "life not yet at 0" : "life first at 0 on turn " + dead);
  }
  renderPhases(b);
  renderPlayer(ctx, $("board-opp"), b, opp, playerTitle(b, opp));
  renderPlayer(ctx, $("board-me"), b, SEAT, playerTitle(b, SEAT));
  $("board-opp").classList.toggle("deciding", b.deciding === opp);
  $("board-me").classList.toggle("deciding", b.deciding === SEAT);
  renderStack(ctx, $("stack"), b);
  renderDecision();
  renderLog();
  logSeen = S.log_size;
  const res = $("result");
  if (S.over) {
    res.replaceChildren(el("span", null, S.over.text));
    res.dataset.result = S.over.result;
    if (S.over.replay) {
      const a = el("a", null, "download the replay");
      a.href = "/api/replay?seat=" + SEAT + "&token=" + encodeURIComponent(TOKEN);
      a.download = "mtg_env-replay.json";
      res.append(a);
    }
    const leave = el("button", null, "leave the table (stop the server)"); leave.dataset.command = "leave";
    res.append(leave);
    res.classList.add("shown");
  }
  closeMenu();
  document.body.dataset.pending = "";
  document.body.dataset.version = String(version);
}
async function poll() {
  while (!left) {
    try {
      const q = "seat=" + SEAT + "&token=" + encodeURIComponent(TOKEN) + "&after=" + version;
      const r = await fetch("/api/state?" + q);
      const j = await r.json().catch(() => ({error: "the server answered " + r.status}));
      if (!r.ok) {
        $("subtitle").textContent = j.error || ("error " + r.status);
        await new Promise((f) => setTimeout(f, 3000));
        continue;
      }
      if (j.version !== version) render(j);
    } catch (e) {
      $("subtitle").textContent = "lost the connection to the server; retrying...";
      await new Promise((f) => setTimeout(f, 1500));
    }
  }
}
installCardTip(() => (S ? S.cards : {}), () => $("menu").style.display === "block");
poll();
</script>
</body>
</html>
"""
