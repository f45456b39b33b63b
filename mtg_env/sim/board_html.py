"""The board in HTML: the CSS and JavaScript that draw a board snapshot
(:func:`mtg_env.env.board.board_snapshot`) in a page, the pages' common look (``PAGE_CSS``), and
the printed card facts the pages show on hover. Shared by the replay viewer
(:mod:`mtg_env.sim.viewer`) and the web table (:mod:`mtg_env.web`), so a card, a board and the
stack look the same in both.

Every card element carries ``data-card`` (the card's name) and, when its printed facts are known,
``data-card-text`` (its printed Tenth Edition rules text); hovering it shows the name, cost, type
line, text and power/toughness in a floating box (``#card-tip``).

>>> from mtg_env.engine import registry
>>> f = card_facts(registry.get_card("Grizzly Bears"))
>>> f["cost"], f["type"], f["pt"]
('{1}{G}', 'Creature — Bear', '2/2')
>>> label_name("Grizzly Bears#3")
'Grizzly Bears'
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from typing import Any

from ..cards.loader import load_facts
from ..engine import registry
from ..engine.errors import MtgError
from ..engine.model import CardDef

__all__ = ["BOARD_CSS", "BOARD_JS", "PAGE_CSS", "card_facts", "facts_for_labels", "label_name"]

_COPY = re.compile(r"#\d+$")
_TYPE_ORDER = ("Tribal", "Artifact", "Enchantment", "Land", "Creature", "Planeswalker", "Instant",
               "Sorcery")


def label_name(label: str) -> str:
    """The card name of a card label (``"Shock#2"`` is the second Shock of a game)."""
    return _COPY.sub("", label)


@functools.lru_cache(maxsize=1)
def _printed() -> dict[str, dict[str, Any]]:
    facts = load_facts()
    return {**facts.get("tokens", {}), **facts["cards"]}


def _type_line(cdef: CardDef) -> str:
    types = [t for t in _TYPE_ORDER if t in cdef.types] + sorted(set(cdef.types) - set(_TYPE_ORDER))
    line = " ".join(sorted(cdef.supertypes) + (["Token"] if cdef.is_token else []) + types)
    return line + (" — " + " ".join(cdef.subtypes) if cdef.subtypes else "")


def card_facts(cdef: CardDef) -> dict[str, Any]:
    """What a card says, as plain data: ``name``, ``cost`` (``"{1}{G}"``, empty for a land),
    ``type`` (its type line), ``text`` (its printed rules text; empty for a basic land, whose
    mana ability is then in ``note``) and ``pt`` (``"2/2"``, or ``None``)."""
    printed = _printed().get(cdef.name)
    type_line = printed["type_line"] if printed and printed.get("type_line") else _type_line(cdef)
    pt = None
    if "Creature" in cdef.types and cdef.power is not None:
        pt = f"{cdef.power}/{cdef.toughness}"
    out: dict[str, Any] = {"name": cdef.name, "cost": cdef.cost.text or "", "type": type_line,
                           "text": cdef.text, "pt": pt}
    if not cdef.text and "Basic" in cdef.supertypes and cdef.mana_colors:
        out["note"] = " ".join(f"({{T}}: Add {{{c}}}.)" for c in dict.fromkeys(cdef.mana_colors))
    return out


def facts_for_labels(labels: Iterable[str]) -> tuple[dict[str, str], dict[str, dict[str, Any]]]:
    """For a spectator page: the card name of each label and the facts of each name found in the
    card registry (a label that names no card, like ``combat damage``, is left out of both)."""
    names: dict[str, str] = {}
    cards: dict[str, dict[str, Any]] = {}
    for label in labels:
        name = label_name(label)
        if name not in cards:
            try:
                cards[name] = card_facts(registry.get_card(name))
            except MtgError:
                continue
        names[label] = name
    return names, cards


PAGE_CSS = """
* { box-sizing: border-box; }
body { margin:0; font:14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; background:var(--bg);
       color:var(--ink); }
header h1 { font-size:16px; margin:0; font-weight:600; }
header .sub { color:#bbb; font-size:12px; }
.panel { background:var(--panel); border:1px solid var(--line); border-radius:6px; padding:8px 10px;
         margin-bottom:10px; }
.player.deciding { box-shadow: 0 0 0 3px var(--hi); }
"""
"""The look both pages share (the replay viewer and the web table): the page, its header's title,
the panels and the highlight of the player who decides; each page's ``:root`` names the colors."""

BOARD_CSS = """
.card { display:inline-block; border:1px solid #bbb; border-radius:4px; padding:1px 6px; margin:2px 3px 2px 0;
        background:#fafafa; white-space:nowrap; cursor:default; }
.card.tapped { background:var(--tap, #eee); color:#666; border-style:dashed; }
.card.attacking { border-color:#c00; background:#fde8e8; }
.card.blocking { border-color:#06c; background:#e6f0fb; }
.card .flags { color:var(--dim, #777); font-size:12px; }
.card .pt { font-weight:600; }
.card.hidden { color:var(--dim, #777); font-style:italic; }
.card.known { border-style:dotted; }
.card.actionable { border:2px solid #2a8a2a; background:#eaf8e6; cursor:pointer; }
.card.actionable:hover { background:#d4f2cc; }
.card.aura { margin-left:14px; }
.zone { margin:3px 0; }
.zone .label { color:var(--dim, #777); font-size:12px; margin-right:4px; }
.stats { display:flex; flex-wrap:wrap; gap:4px 14px; margin-bottom:6px; }
.stats .life { font-size:20px; font-weight:700; }
.player-target { cursor:pointer; border:2px solid #2a8a2a; border-radius:4px; padding:0 4px;
                 background:#eaf8e6; }
#stack .item { margin:2px 0; }
#card-tip { position:fixed; z-index:50; display:none; width:290px; background:#fffdf5; color:#222;
            border:2px solid #6b5b3e; border-radius:8px; padding:8px 10px; box-shadow:0 4px 14px #0004;
            font:13px/1.4 system-ui, sans-serif; pointer-events:none; }
#card-tip .tip-head { display:flex; justify-content:space-between; gap:8px; font-weight:700; }
#card-tip .tip-cost { font-family:ui-monospace, Menlo, monospace; font-weight:400; }
#card-tip .tip-type { border-top:1px solid #d8ccb0; border-bottom:1px solid #d8ccb0; margin:4px 0;
                      padding:2px 0; font-style:italic; }
#card-tip .tip-text { white-space:pre-wrap; }
#card-tip .tip-note { color:#666; font-style:italic; }
#card-tip .tip-pt { text-align:right; font-weight:700; }
"""

# Plain functions (no modules: the replay viewer is one self-contained file). ``ctx`` is
# {names: {label: card name}, cards: {name: facts}, keys: {label: key} (optional),
#  actionsFor(key) -> option texts (optional)}; a card with exactly one option carries it in
# data-action, one with several is marked actionable and the page offers them on click.
BOARD_JS = r"""
function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}
function cardName(ctx, label) {
  return (ctx.names && ctx.names[label]) || label.replace(/#\d+$/, "");
}
function markActions(ctx, node, key) {
  if (!key) return;
  node.dataset.key = key;
  const acts = ctx.actionsFor ? ctx.actionsFor(key) : [];
  if (!acts.length) return;
  node.classList.add("actionable");
  if (acts.length === 1) node.dataset.action = acts[0];
  else node.dataset.actions = String(acts.length);
  node.title = acts.join("\n");
}
function tagCard(ctx, node, label, key) {
  const name = cardName(ctx, label);
  node.dataset.card = name;
  const f = ctx.cards && ctx.cards[name];
  if (f) node.dataset.cardText = f.text;
  markActions(ctx, node, key);
  return node;
}
function zoneCard(ctx, label, cls) {
  const c = el("span", "card" + (cls ? " " + cls : ""), label);
  return tagCard(ctx, c, label, ctx.keys ? ctx.keys[label] : undefined);
}
function permEl(ctx, p) {
  const c = el("span", "card");
  if (p.tapped) c.classList.add("tapped");
  if (p.attacking) c.classList.add("attacking");
  if (p.blocking.length) c.classList.add("blocking");
  if (p.attached_to) c.classList.add("aura");
  c.append(p.label);
  if (p.pt) c.append(" ", el("span", "pt", p.pt));
  const f = [];
  if (p.tapped) f.push("tapped");
  if (p.sick) f.push("sick");
  if (p.damage) f.push(p.damage + " dmg");
  for (const [k, n] of Object.entries(p.counters)) f.push(n + " " + k);
  if (p.attached_to) f.push("on " + p.attached_to);
  if (p.attacking) f.push("attacking");
  if (p.blocked_by.length) f.push("blocked by " + p.blocked_by.join(", "));
  if (p.blocking.length) f.push("blocking " + p.blocking.join(", "));
  if (p.owner !== p.controller) f.push("owned by player " + p.owner);
  if (f.length) c.append(" ", el("span", "flags", "(" + f.join(", ") + ")"));
  c.dataset.card = p.name;
  const facts = ctx.cards && ctx.cards[p.name];
  if (facts) c.dataset.cardText = facts.text;
  markActions(ctx, c, "o:" + p.id);
  return c;
}
function zone(label, items) {
  const z = el("div", "zone");
  z.append(el("span", "label", label));
  if (!items.length) z.append(el("span", "muted", "-"));
  for (const it of items) z.append(it);
  return z;
}
// Auras and equipment right after what they are attached to.
function withAttachments(perms, all) {
  const host = (p) => all.find((q) => q.label === p.attached_to && q.controller === p.controller);
  const out = [], later = perms.filter((p) => p.attached_to && host(p));
  for (const p of perms) {
    if (later.includes(p)) continue;
    out.push(p);
    for (const a of later) if (a.attached_to === p.label) out.push(a);
  }
  for (const a of later) if (!out.includes(a)) out.push(a);
  return out;
}
// One player's box: `title` heads it; life is #life-i and the hand #hand-i.
function renderPlayer(ctx, box, b, i, title) {
  const P = b.players[i];
  box.replaceChildren();
  const h = el("h2", null, title);
  markActions(ctx, h, "p:" + i);
  if (h.classList.contains("actionable")) {
    h.classList.remove("actionable");
    h.classList.add("player-target");
  }
  box.append(h);
  const s = el("div", "stats");
  const life = el("span", "life", String(P.life)); life.id = "life-" + i;
  s.append(el("span", null, "life "), life);
  if (P.poison) s.append(el("span", null, "poison " + P.poison));
  s.append(el("span", null, "library " + P.library), el("span", null, "hand " + P.hand_size),
           el("span", null, "graveyard " + P.graveyard.length), el("span", null, "mana pool " + P.mana_pool));
  if (P.removed.length) s.append(el("span", null, "removed " + P.removed.length));
  box.append(s);
  const mine = b.permanents.filter((p) => p.controller === i);
  for (const [kind, label] of [["land", "lands"], ["creature", "creatures"], ["other", "other"]]) {
    const group = mine.filter((p) => p.kind === kind);
    box.append(zone(label + ":", withAttachments(group, mine).map((p) => permEl(ctx, p))));
  }
  let hand;
  if (P.hand === null) {
    const known = P.known || [];
    hand = known.map((h) => zoneCard(ctx, h, "known"));
    const hidden = P.hand_size - known.length;
    if (hidden > 0 || !known.length) hand.push(el("span", "card hidden", hidden + " hidden"));
  } else {
    hand = P.hand.map((h) => zoneCard(ctx, h));
  }
  const hz = zone("hand:", hand); hz.id = "hand-" + i; box.append(hz);
  box.append(zone("graveyard:", P.graveyard.map((g) => zoneCard(ctx, g))));
  if (P.removed.length) box.append(zone("removed from the game:", P.removed.map((g) => zoneCard(ctx, g))));
}
function renderStack(ctx, box, b) {
  box.replaceChildren(el("h2", null, "Stack (top first)"));
  if (!b.stack.length) box.append(el("div", "muted", "empty"));
  for (const it of b.stack) {
    const row = el("div", "item");
    const c = el("span", "card", it.label);
    tagCard(ctx, c, it.label, it.id !== undefined ? "s:" + it.id : undefined);
    if (!(ctx.cards && ctx.cards[c.dataset.card])) delete c.dataset.card;
    let t = " " + it.kind + ", player " + it.controller;
    if (it.x) t += ", X=" + it.x;
    if (it.targets.length) t += ", targeting " + it.targets.join(", ");
    if (it.assignments) t += ": " + it.assignments.join("; ");
    row.append(c, el("span", null, t));
    box.append(row);
  }
}
// The floating card box shown while the pointer is over an element with data-card (not while
// `quiet()` is true: a menu is open).
function installCardTip(getCards, quiet) {
  const tip = el("div"); tip.id = "card-tip"; document.body.append(tip);
  function show(target, x, y) {
    const f = getCards()[target.dataset.card];
    if (!f || (quiet && quiet())) { tip.style.display = "none"; return; }
    const head = el("div", "tip-head");
    head.append(el("span", "tip-name", f.name), el("span", "tip-cost", f.cost));
    tip.replaceChildren(head, el("div", "tip-type", f.type));
    if (f.text) tip.append(el("div", "tip-text", f.text));
    if (f.note) tip.append(el("div", "tip-note", f.note));
    if (f.pt) tip.append(el("div", "tip-pt", f.pt));
    tip.style.display = "block";
    const w = tip.offsetWidth, hgt = tip.offsetHeight;
    tip.style.left = Math.max(4, Math.min(x + 14, window.innerWidth - w - 8)) + "px";
    tip.style.top = Math.max(4, Math.min(y + 14, window.innerHeight - hgt - 8)) + "px";
  }
  document.addEventListener("mouseover", (e) => {
    const t = e.target.closest ? e.target.closest("[data-card]") : null;
    if (t) show(t, e.clientX, e.clientY); else tip.style.display = "none";
  });
  document.addEventListener("mousemove", (e) => {
    if (tip.style.display !== "block") return;
    const t = e.target.closest ? e.target.closest("[data-card]") : null;
    if (t) show(t, e.clientX, e.clientY);
  });
  return tip;
}
"""
