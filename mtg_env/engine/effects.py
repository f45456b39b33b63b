"""The effect vocabulary cards are written in, continuous effects in 2007 layers, prevention and
trigger collection.

Each op is ``op(game, stack_item, spec)`` where ``spec`` is the effect's dict from card data,
e.g. ``{"op": "deal_damage", "amount": 3, "target": 0}``. Ops that need a player's choice push
a frame; the resolution continues with the next op once it is answered.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .errors import MtgError
from .model import Permanent, StackItem
from .rules import protected_from

if TYPE_CHECKING:
    from .game import Game

OPS: dict[str, Callable[[Game, StackItem, dict], None]] = {}


def op(name: str):
    def deco(fn):
        OPS[name] = fn
        return fn
    return deco


# -- references -----------------------------------------------------------------------
def refs(g: Game, item: StackItem, spec: dict, key: str = "target") -> list[tuple]:
    """What an effect applies to: a target index (still legal), or a word for a fixed set."""
    v = spec.get(key)
    ctrl = item.controller
    if v is None:
        return []
    if isinstance(v, int):
        if v >= len(item.targets):
            return []
        specs = g.item_def(item)[0]
        if v < len(specs) and not g._target_legal(item, v, specs[v]):
            return []  # 2007 CR 413.2a: an illegal target is not affected
        return [tuple(item.targets[v])]
    if v == "self":
        return [("o", item.source)] if item.source in g.perms else []
    if v == "controller":
        return [("p", ctrl)]
    if v == "opponent":
        return [("p", 1 - ctrl)]
    if v == "each_player":
        return [("p", 0), ("p", 1)]
    if v == "active_player":
        return [("p", g.active)]
    if v == "equipped" or v == "enchanted":
        src = g.perms.get(item.source)
        if src is not None and src.attached_to in g.perms:
            return [("o", src.attached_to)]
        return []
    if v == "event_player":
        return [("p", item.data.get("ev", {}).get("player", ctrl))]
    if isinstance(v, dict):  # a filter over permanents: "each creature without flying"
        g._fresh()
        other = item.source if v.get("other") else None
        return [("o", p.id) for p in list(g.perms.values())
                if p.id != other and perm_matches(g, p, v, ctrl)]
    raise MtgError(f"engine error: unknown reference {v!r}")


def amount(g: Game, item: StackItem, v: Any) -> int:
    if isinstance(v, int):
        return v
    if v == "X":
        return item.x
    if isinstance(v, dict):
        if "count" in v:
            flt = v["count"]
            g._fresh()
            return sum(1 for p in g.perms.values() if perm_matches(g, p, flt, item.controller))
        if "graveyard" in v:
            who = item.controller if v["graveyard"] == "you" else None
            players = [g.players[who]] if who is not None else g.players
            return sum(len(P.graveyard) for P in players)
    raise MtgError(f"engine error: unknown amount {v!r}")


def perm_matches(g: Game | None, p: Permanent, flt: dict, pl: int) -> bool:
    """Does a permanent match a filter from card data (from player ``pl``'s view)?"""
    return matches_filter(p, flt, pl)


def matches_filter(p: Any, flt: dict, pl: int) -> bool:
    """Does a permanent (or a view of one) match a card-data filter, from player ``pl``'s side?

    >>> from types import SimpleNamespace as P
    >>> bear = P(controller=0, types={"Creature"}, colors={"G"}, subtypes=("Bear",), keywords=set(),
    ...          tapped=False, attacking=False, blocking=[], power=2, supertypes=set())
    >>> matches_filter(bear, {"controller": "you", "type": "Creature", "color": "G"}, 0)
    True
    """
    for k, v in flt.items():
        if k == "controller":
            if (v == "you") != (p.controller == pl):
                return False
        elif k == "type":
            if v not in p.types:
                return False
        elif k == "not_type":
            if v in p.types:
                return False
        elif k == "subtype":
            if v not in p.subtypes:
                return False
        elif k == "color":
            if v not in p.colors:
                return False
        elif k == "not_color":
            if v in p.colors:
                return False
        elif k == "keyword":
            if v not in p.keywords:
                return False
        elif k == "not_keyword":
            if v in p.keywords:
                return False
        elif k == "tapped":
            if p.tapped != v:
                return False
        elif k == "attacking":
            if p.attacking != v:
                return False
        elif k == "blocking":
            if bool(p.blocking) != v:
                return False
        elif k == "attacking_or_blocking":
            if (p.attacking or bool(p.blocking)) != v:
                return False
        elif k in ("other", "kind"):
            continue
        elif k == "creature":
            if ("Creature" in p.types) != v:
                return False
        elif k == "power_le":
            if p.power > v:
                return False
        elif k == "supertype":
            if v not in p.supertypes:
                return False
        else:
            raise MtgError(f"engine error: unknown filter key {k!r}")
    return not (flt.get("kind") == "creature" and "Creature" not in p.types)


def check_condition(g: Game, cond: dict, pl: int, perm: Permanent | None) -> bool:
    if "life_at_least" in cond:
        return g.players[pl].life >= cond["life_at_least"]
    if "hand_empty" in cond:
        return not g.players[pl].hand
    raise MtgError(f"engine error: unknown condition {cond!r}")


# -- ops --------------------------------------------------------------------------------
@op("deal_damage")
def _deal_damage(g: Game, item: StackItem, spec: dict) -> None:
    n = amount(g, item, spec.get("amount", 0))
    src = g.src_of(item)
    for ref in refs(g, item, spec):
        g.deal_damage(src, ref, n, no_regen=spec.get("no_regen", False))


@op("pump")
def _pump(g: Game, item: StackItem, spec: dict) -> None:
    p, t = amount(g, item, spec.get("p", 0)), amount(g, item, spec.get("t", 0))
    for kind, v in refs(g, item, spec):
        if kind == "o" and v in g.perms:
            g.add_effect({"kind": "pt", "pid": v, "p": p, "t": t, "until": spec.get("until", "eot")})
            g._log(f"{g.perms[v].card.label} gets {p:+d}/{t:+d}")


@op("set_pt")
def _set_pt(g: Game, item: StackItem, spec: dict) -> None:
    for kind, v in refs(g, item, spec):
        if kind == "o" and v in g.perms:
            g.add_effect({"kind": "set_pt", "pid": v, "p": spec["p"], "t": spec["t"],
                          "until": spec.get("until", "eot")})


@op("grant")
def _grant(g: Game, item: StackItem, spec: dict) -> None:
    for kind, v in refs(g, item, spec):
        if kind == "o" and v in g.perms:
            g.add_effect({"kind": "grant", "pid": v, "add": list(spec.get("keywords", ())),
                          "until": spec.get("until", "eot")})


@op("counter_spell")
def _counter_spell(g: Game, item: StackItem, spec: dict) -> None:
    for kind, v in refs(g, item, spec):
        target = g._item(v) if kind == "s" else None
        if target is not None:
            g._log(f"{target.label} is countered")
            g._counter(target)


@op("bounce")
def _bounce(g: Game, item: StackItem, spec: dict) -> None:
    for kind, v in refs(g, item, spec):
        if kind == "o" and v in g.perms:
            g._leave_play(g.perms[v], "hand")


@op("destroy")
def _destroy(g: Game, item: StackItem, spec: dict) -> None:
    for kind, v in refs(g, item, spec):
        if kind == "o" and v in g.perms:
            g.destroy(g.perms[v], no_regen=spec.get("no_regen", False))


@op("regenerate")
def _regenerate(g: Game, item: StackItem, spec: dict) -> None:
    # 2007 CR 419.6b: a regeneration shield lasts until used or end of turn.
    for kind, v in refs(g, item, spec):
        if kind == "o" and v in g.perms:
            g.perms[v].regen_shields += 1
            g._log(f"{g.perms[v].card.label} gets a regeneration shield")


@op("attach")
def _attach(g: Game, item: StackItem, spec: dict) -> None:
    src = g.perms.get(item.source)
    if src is None:
        return
    for kind, v in refs(g, item, spec):
        # 2007 glossary "Attach": attaching to what it's already attached to does nothing.
        if kind == "o" and v in g.perms and v != src.id and src.attached_to != v:
            src.attached_to = v
            src.timestamp = g._timestamp()  # 2007 glossary "Attach": a new timestamp
            g.dirty = True
            g._log(f"{src.card.label} is attached to {g.perms[v].card.label}")


@op("gain_life")
def _gain_life(g: Game, item: StackItem, spec: dict) -> None:
    n = amount(g, item, spec.get("amount", 0))
    who = spec.get("who", "controller")
    for kind, v in refs(g, item, {"target": who}):
        if kind == "p":
            g._gain_life(v, n)
            g._log(f"player {v} gains {n} life")


@op("lose_life")
def _lose_life(g: Game, item: StackItem, spec: dict) -> None:
    n = amount(g, item, spec.get("amount", 0))
    for kind, v in refs(g, item, {"target": spec.get("who", "controller")}):
        if kind == "p":
            g._lose_life(v, n)
            g._log(f"player {v} loses {n} life")


@op("draw")
def _draw(g: Game, item: StackItem, spec: dict) -> None:
    n = amount(g, item, spec.get("amount", 1))
    for kind, v in refs(g, item, {"target": spec.get("who", "controller")}):
        if kind == "p":
            g._draw(v, n)


@op("tap")
def _tap(g: Game, item: StackItem, spec: dict) -> None:
    for kind, v in refs(g, item, spec):
        if kind == "o" and v in g.perms:
            g.perms[v].tapped = True


@op("untap")
def _untap(g: Game, item: StackItem, spec: dict) -> None:
    for kind, v in refs(g, item, spec):
        if kind == "o" and v in g.perms:
            g.perms[v].tapped = False


@op("choose_permanent")
def _choose_permanent(g: Game, item: StackItem, spec: dict) -> None:
    """A non-targeted choice made on resolution ("return a green creature you control")."""
    chooser = item.controller if spec.get("chooser", "controller") == "controller" else 1 - item.controller
    g._fresh()
    flt = spec.get("filter", {})
    cands = [("o", p.id) for p in g.perms.values() if perm_matches(g, p, flt, item.controller)]
    n = spec.get("n", 1)
    if not cands:
        return
    g.frames.append(g._choose_frame(chooser, cands, min(n, len(cands)), n, spec.get("verb", "choose"),
                                    f"{item.label}: {spec.get('prompt', 'choose')}",
                                    then={"op": spec["then"]}, sid=item.id))


# -- choices ----------------------------------------------------------------------------
def apply_choice(g: Game, f: dict) -> None:
    then = f.get("then") or {}
    action = then.get("op", f["verb"])
    if action in ("hand", "library_top", "library_bottom", "play_tapped", "play"):
        _move_cards(g, f, action, then)
        return
    for zone, v in f["chosen"]:
        if zone == "h":
            card = g.cards[v]
            P = g.players[card.owner]
            if card in P.hand:
                P.hand.remove(card)
                if action in ("discard",):
                    g._log(f"player {card.owner} discards {card.label}")
                    g._to_zone(card, "graveyard")
                    g._event("discard", player=card.owner)
                else:
                    raise MtgError(f"engine error: cannot {action} a card in hand")
        elif zone == "o":
            perm = g.perms.get(v)
            if perm is None:
                continue
            if action == "sacrifice":
                g._log(f"player {perm.controller} sacrifices {perm.card.label}")
                g._leave_play(perm, "graveyard", sacrifice=True)
            elif action in ("bounce", "return"):
                g._leave_play(perm, "hand")
            elif action == "destroy":
                g.destroy(perm)
            else:
                raise MtgError(f"engine error: unknown choice action {action!r}")


def _move_cards(g: Game, f: dict, action: str, then: dict) -> None:
    chosen = [g.cards[v] for zone, v in f["chosen"]]
    if action == "library_top":
        chosen = list(reversed(chosen))  # the first chosen ends up on top
    for card in chosen:
        P = g.players[card.owner]
        for zone in (P.library, P.graveyard, P.hand):
            if card in zone:
                zone.remove(card)
                break
        if action == "hand":
            P.hand.append(card)
            what = card.label if then.get("reveal") else "a card"
            g._log(f"player {card.owner} puts {what} into their hand")
        elif action in ("play", "play_tapped"):
            g._log(f"player {card.owner} puts {card.label} into play")
            g._put_into_play(card, f["pl"], tapped=action == "play_tapped")
        elif action == "library_top":
            P.library.insert(0, card)
        else:
            P.library.append(card)
    if action in ("library_top", "library_bottom") and chosen:
        g._log(f"player {f['pl']} puts {len(chosen)} card(s) on the "
               f"{'top' if action == 'library_top' else 'bottom'} of their library")
    group = f.get("group")
    if group is not None:
        done = {tuple(c) for c in f["chosen"]}
        for other in g.frames:
            if other.get("group") == group:
                other["cands"] = [c for c in other["cands"] if tuple(c) not in done]


def run_custom(g: Game, item: StackItem, name: str) -> None:
    from .registry import CUSTOM
    fn = CUSTOM.get(name)
    if fn is None:
        raise MtgError(f"engine error: custom card function {name!r} is not registered")
    fn(g, item)


# -- prevention -------------------------------------------------------------------------

def apply_prevention(g: Game, src: dict, target: tuple, n: int, combat: bool) -> int:
    """Protection (2012 702.15) and prevention shields (2007 CR 419.7)."""
    if target[0] == "o":
        p = g.perms.get(target[1])
        if p is not None and protected_from(p, src.get("colors", "")):
            return 0
        if p is not None and any(s.kind == "prevent_damage" for s in p.card.cdef.static):
            return 0
    if not g.effects:
        return n
    for e in g.effects:
        if e.get("kind") != "prevent" or e.get("used"):
            continue
        if e.get("combat_only") and not combat:
            continue
        tgt = e.get("target")
        if tgt is not None and tuple(tgt) != tuple(target):
            continue
        left = e.get("amount")
        if left is None:
            return 0
        use = min(left, n)
        e["amount"] = left - use
        if e["amount"] <= 0:
            e["used"] = True
        n -= use
        if n <= 0:
            return 0
    return n


# -- continuous effects: 2007 CR 418.5 layers --------------------------------------------
def _static_affects(g: Game, src: Permanent, affects: str, params: dict) -> list[Permanent]:
    if affects == "self":
        return [src]
    if affects in ("enchanted", "equipped"):
        host = g.perms.get(src.attached_to) if src.attached_to is not None else None
        return [host] if host is not None else []
    ctrl = src.controller
    out = []
    color = params.get("color")
    not_color = params.get("not_color")
    for p in g.perms.values():
        if "Creature" not in p.types:
            continue
        if affects == "creatures_you_control" and p.controller != ctrl:
            continue
        if affects == "other_creatures_you_control" and (p.controller != ctrl or p is src):
            continue
        if affects == "creatures_opponents_control" and p.controller == ctrl:
            continue
        if affects == "other_creatures" and p is src:
            continue
        if color and color not in p.colors:
            continue
        if not_color and not_color in p.colors:
            continue
        out.append(p)
    return out


def refresh(g: Game) -> None:
    """Recompute every permanent's characteristics from its card and the continuous effects."""
    g.dirty = False
    perms = g.perms
    statics = []
    ll: dict[int, int] = {}
    counters = False
    before = {p.id: p.controller for p in perms.values()}
    for p in perms.values():
        cdef = p.card.cdef
        p.controller = p.base_controller
        p.power = cdef.power if isinstance(cdef.power, int) else 0
        p.toughness = cdef.toughness if isinstance(cdef.toughness, int) else 0
        p.keywords = cdef.keywords
        p.colors = cdef.colors
        p.types = cdef.types
        p.subtypes = cdef.subtypes
        if cdef.static:
            for s in cdef.static:
                statics.append((p.timestamp, p, s))
        if p.counters:
            counters = True
        if "lifelink" in cdef.keywords:
            ll[p.id] = 1
    g.no_mana_empty = False
    effects = g.effects
    if not statics and not effects and not counters:
        g._ll = ll
        _control_changed(g, before)
        return
    statics.sort(key=lambda x: x[0])
    # Layer 2: control-changing effects.
    for e in effects:
        if e["kind"] == "control":
            p = perms.get(e["pid"])
            if p is not None:
                p.controller = e["controller"]
    _control_changed(g, before)
    # Layer 4: type-changing; layer 5: everything else (abilities, colors), in timestamp order.
    layer5 = []
    for ts, src, s in statics:
        if s.kind == "grant":
            layer5.append((ts, src, s, None))
        elif s.kind == "no_mana_empty":
            g.no_mana_empty = True
    for e in effects:
        if e["kind"] == "grant":
            layer5.append((e["ts"], None, None, e))
    layer5.sort(key=lambda x: x[0])
    for _, src, s, e in layer5:
        if e is not None:
            targets = [perms[e["pid"]]] if e["pid"] in perms else []
            add = e.get("add", ())
        else:
            targets = _static_affects(g, src, s.affects, s.params)
            add = s.params.get("keywords", ())
        for p in targets:
            p.keywords = p.keywords | frozenset(add)
            if "lifelink" in add:
                ll[p.id] = ll.get(p.id, 0) + 1
    # Layer 6a: characteristic-setting abilities.
    for _, src, s in statics:
        if s.kind == "cda_pt":
            v = amount_cda(g, src, s.params)
            src.power = v if s.params.get("power", True) else src.power
            src.toughness = v + s.params.get("toughness_plus", 0)
    # Layer 6b: resolved P/T effects and setting effects, one timestamp order (2007 difference).
    layer6b = [e for e in effects if e["kind"] in ("pt", "set_pt")]
    layer6b += [{"kind": "static_set", "ts": ts, "src": src, "s": s} for ts, src, s in statics
                if s.kind == "set_pt"]
    layer6b.sort(key=lambda e: e["ts"])
    for e in layer6b:
        if e["kind"] == "static_set":
            for p in _static_affects(g, e["src"], e["s"].affects, e["s"].params):
                p.power, p.toughness = e["s"].params["p"], e["s"].params["t"]
            continue
        p = perms.get(e["pid"])
        if p is None:
            continue
        if e["kind"] == "pt":
            p.power += e["p"]
            p.toughness += e["t"]
        else:
            p.power, p.toughness = e["p"], e["t"]
    # Layer 6c: counters.
    if counters:
        for p in perms.values():
            c = p.counters
            if c:
                n = c.get("+1/+1", 0) - c.get("-1/-1", 0)
                p.power += n
                p.toughness += n
    # Layer 6d: static abilities that modify P/T.
    for _, src, s in statics:
        if s.kind == "modify_pt":
            per = s.params.get("per")
            n = 1 if per is None else sum(1 for q in perms.values()
                                          if perm_matches(g, q, per, src.controller))
            for p in _static_affects(g, src, s.affects, s.params):
                p.power += s.params.get("p", 0) * n
                p.toughness += s.params.get("t", 0) * n
    g._ll = ll


def _control_changed(g: Game, before: dict[int, int]) -> None:
    for p in g.perms.values():
        if before.get(p.id, p.controller) != p.controller:
            p.sick = True  # 2007 CR 212.3d: not controlled continuously since the turn began
            g.dirty_combat(p)


def amount_cda(g: Game, src: Permanent, params: dict) -> int:
    flt = params.get("count")
    if flt is not None:
        return sum(1 for p in g.perms.values() if perm_matches(g, p, flt, src.controller))
    zone = params.get("graveyard_count")
    if zone is not None:
        return sum(1 for P in g.players for c in P.graveyard if zone in c.cdef.types)
    raise MtgError(f"engine error: bad characteristic-setting ability {params!r}")


# -- triggers ---------------------------------------------------------------------------
def collect_triggers(g: Game, name: str, ev: dict) -> None:
    if name == "damage":
        collect_damage_triggers(g, ev)
        return
    names = (name, "to_graveyard") if name == "leaves_play" and ev.get("zone") == "graveyard" else (name,)
    for p in g.perms.values():
        trig = p.card.cdef.triggered
        if not trig:
            continue
        for ab in trig:
            if ab.event not in names:
                continue
            if not _trigger_matches(g, p, ab, ab.event, ev):
                continue
            clean = {k: v for k, v in ev.items() if k != "snapshot"}
            g.pending.append({"ctrl": p.controller, "src": p.id, "ab": ab.index,
                              "card": p.card.cdef.name, "name": p.card.label, "text": ab.text,
                              "ev": clean, "src_colors": "".join(sorted(p.colors))})


def _trigger_matches(g: Game, p: Permanent, ab, event: str, ev: dict) -> bool:
    flt = ab.filters
    if event in ("upkeep", "end_of_turn", "draw"):
        whose = flt.get("whose", "you")
        if whose == "you":
            return ev["player"] == p.controller
        if whose == "opponent":
            return ev["player"] != p.controller
        return True
    if event in ("etb", "leaves_play", "to_graveyard", "attacks", "blocks", "becomes_blocked"):
        what = flt.get("what", "self")
        if what == "self":
            return ev["perm"] == p.id
        other = g.perms.get(ev["perm"])
        if other is None:
            return False
        if what == "other" and other.id == p.id:
            return False
        return perm_matches(g, other, flt.get("filter", {}), p.controller)
    if event == "cast":
        who = flt.get("who", "any")
        if who == "you" and ev["player"] != p.controller:
            return False
        if who == "opponent" and ev["player"] == p.controller:
            return False
        color = flt.get("color")
        return not (color and color not in ev["colors"])
    if event == "deals_damage" or event == "damage":
        return False
    if event == "discard":
        return ev["player"] != p.controller if flt.get("whose") == "opponent" else True
    return False


def collect_damage_triggers(g: Game, ev: dict) -> None:
    for p in g.perms.values():
        trig = p.card.cdef.triggered
        if not trig:
            continue
        for ab in trig:
            if ab.event != "deals_damage":
                continue
            flt = ab.filters
            what = flt.get("what", "self")
            src = ev.get("src")
            if what == "self" and src != p.id:
                continue
            if what in ("enchanted", "equipped") and (src is None or src != p.attached_to):
                continue
            to = flt.get("to", "any")
            tkind, tv = ev["target"]
            if to == "player" and tkind != "p":
                continue
            if to == "opponent" and (tkind != "p" or tv == p.controller):
                continue
            if to == "creature" and tkind != "o":
                continue
            if flt.get("combat") and not ev.get("combat"):
                continue
            g.pending.append({"ctrl": p.controller, "src": p.id, "ab": ab.index,
                              "card": p.card.cdef.name, "name": p.card.label, "text": ab.text,
                              "ev": dict(ev), "src_colors": "".join(sorted(p.colors))})


def redirect(g: Game, target: tuple) -> tuple:
    """Pariah: "All damage that would be dealt to you is dealt to enchanted creature instead"
    (a replacement effect, 2007 CR 419.6)."""
    if target[0] != "p":
        return target
    for p in g.perms.values():
        st = p.card.cdef.static
        if not st or p.controller != target[1]:
            continue
        for s in st:
            if s.kind == "redirect_to_enchanted" and p.attached_to in g.perms:
                return ("o", p.attached_to)
    return target


# -- library, hand and graveyard ops -----------------------------------------------------
def _players(g: Game, item: StackItem, spec: dict, key: str = "target", default: str = "controller"):
    ref = spec.get(key, default)
    return [v for kind, v in refs(g, item, {"target": ref}) if kind == "p"]


@op("search_library")
def _search_library(g: Game, item: StackItem, spec: dict) -> None:
    """Search your library for a card [with a quality], put it somewhere, then shuffle
    (2012 701.15; a search for a card with a stated quality may fail to find)."""
    pl = item.controller
    P = g.players[pl]
    flt = spec.get("filter") or {}
    cands = [("c", c.cid) for c in P.library if card_filter(c.cdef, flt)]
    g.frames.append({"k": "shuffle", "pl": pl})
    if cands:
        n = spec.get("amount", 1)
        g.frames.append(g._choose_frame(pl, cands, 0 if flt else min(n, len(cands)), n, "find",
                                        f"{item.label}: search your library",
                                        then={"op": spec.get("to", "hand"),
                                              "reveal": spec.get("reveal", False)}, sid=item.id))


@op("look_at_top")
def _look_at_top(g: Game, item: StackItem, spec: dict) -> None:
    """Look at the top N cards; move some by the listed choices, the rest top/bottom in any
    order (Commune with Nature, Telling Time, Sage Owl)."""
    pl = item.controller
    P = g.players[pl]
    top = [("c", c.cid) for c in P.library[: amount(g, item, spec.get("amount", 1))]]
    if not top:
        return
    group = item.id
    rest = spec.get("rest", "library_bottom")
    frames = [g._choose_frame(pl, top, len(top), len(top), _VERB[rest],
                              f"{item.label}: order the rest ({_VERB[rest]})",
                              then={"op": rest}, sid=item.id)]
    for ch in spec.get("choices", ()):
        flt = ch.get("filter") or {}
        cands = [c for c in top if card_filter(g.cards[c[1]].cdef, flt)]
        frames.append(g._choose_frame(pl, cands, ch.get("min", 1), ch.get("max", 1),
                                      _VERB[ch["to"]], f"{item.label}: {ch.get('prompt', _VERB[ch['to']])}",
                                      then={"op": ch["to"], "reveal": ch.get("reveal", False)},
                                      sid=item.id))
    for f in frames:
        f["group"] = group
    # Frames run last-in first-out: the rest goes below the choices, the first choice on top.
    g.frames.append(frames[0])
    g.frames.extend(reversed(frames[1:]))


_VERB = {"hand": "put into hand", "library_top": "put on top", "library_bottom": "put on the bottom",
         "play_tapped": "put into play", "play": "put into play"}


@op("discard")
def _discard(g: Game, item: StackItem, spec: dict) -> None:
    n = amount(g, item, spec.get("amount", 1))
    for pl in _players(g, item, spec):
        P = g.players[pl]
        if not P.hand:
            continue
        if spec.get("random"):
            for _ in range(min(n, len(P.hand))):
                card = P.hand[g.rng.below(len(P.hand))]
                P.hand.remove(card)
                g._log(f"player {pl} discards {card.label} at random")
                g._to_zone(card, "graveyard")
                g._event("discard", player=pl)
            continue
        chooser = item.controller if spec.get("chooser") == "controller" else pl
        cands = [("h", c.cid) for c in P.hand]
        k = min(n, len(cands))
        g.frames.append(g._choose_frame(chooser, cands, k, k, "discard",
                                        f"{item.label}: player {pl} discards {k}", sid=item.id))


@op("sacrifice")
def _sacrifice(g: Game, item: StackItem, spec: dict) -> None:
    g._fresh()
    flt = spec.get("filter") or {}
    for pl in _players(g, item, spec):
        cands = [("o", p.id) for p in g.perms.values()
                 if p.controller == pl and perm_matches(g, p, flt, pl)]
        n = min(spec.get("amount", 1), len(cands))
        if n:
            g.frames.append(g._choose_frame(pl, cands, n, n, "sacrifice",
                                            f"{item.label}: player {pl} sacrifices", sid=item.id))


@op("gain_control")
def _gain_control(g: Game, item: StackItem, spec: dict) -> None:
    for kind, v in refs(g, item, spec):
        if kind == "o" and v in g.perms:
            g.add_effect({"kind": "control", "pid": v, "controller": item.controller,
                          "until": spec.get("until", "eot")})
            g._log(f"player {item.controller} gains control of {g.perms[v].card.label}")


@op("put_on_library")
def _put_on_library(g: Game, item: StackItem, spec: dict) -> None:
    """Condemn: put a permanent on top/bottom of its owner's library; optionally its controller
    gains life equal to its toughness (last known information)."""
    g._fresh()
    for kind, v in refs(g, item, spec):
        p = g.perms.get(v) if kind == "o" else None
        if p is None:
            continue
        toughness, ctrl = p.toughness, p.controller
        g._leave_play(p, "library_" + spec.get("position", "top"))
        if spec.get("controller_gains_toughness"):
            g._gain_life(ctrl, max(toughness, 0))
            g._log(f"player {ctrl} gains {max(toughness, 0)} life")


@op("return_card")
def _return_card(g: Game, item: StackItem, spec: dict) -> None:
    """Return a card from a graveyard to its owner's hand (Gravedigger)."""
    for kind, v in refs(g, item, spec):
        if kind != "c":
            continue
        card = g.cards[v]
        P = g.players[card.owner]
        if card in P.graveyard:
            P.graveyard.remove(card)
            P.hand.append(card)
            g.dirty = True  # graveyard counts (Mortivore, 2007 CR 418.5 layer 6a) may change
            g._log(f"{card.label} is returned to player {card.owner}'s hand")


@op("shuffle_self_into_library")
def _shuffle_self(g: Game, item: StackItem, spec: dict) -> None:
    item.data["dest"] = "library_shuffle"


def card_filter(cdef, flt: dict) -> bool:
    for k, v in flt.items():
        if k == "type" and v not in cdef.types:
            return False
        if k == "supertype" and v not in cdef.supertypes:
            return False
        if k == "subtype" and v not in cdef.subtypes:
            return False
        if k == "color" and v not in cdef.colors:
            return False
    return True
