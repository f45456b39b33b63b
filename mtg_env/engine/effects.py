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
from .replacement import add_prevention_shield, add_regeneration_shield

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
            add_regeneration_shield(g, g.perms[v], item.label, item.source,
                                    item.data.get("card", ""))
            g._log(f"{g.perms[v].card.label} gets a regeneration shield")


@op("prevent_damage")
def _prevent_damage(g: Game, item: StackItem, spec: dict) -> None:
    """"Prevent the next N damage that would be dealt to X this turn" (2007 CR 419.7): a shield
    in game.replacements (mtg_env/engine/replacement.py)."""
    n = amount(g, item, spec.get("amount"))  # required: amount(None) raises
    for ref in refs(g, item, spec):
        add_prevention_shield(g, ref, n, item.label, item.source, item.data.get("card", ""))
        g._log(f"{item.label}: prevent the next {n} damage to {g._ref_text(ref)} this turn")


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


def run_custom(g: Game, item: StackItem, name: str) -> None:
    from .registry import CUSTOM
    fn = CUSTOM.get(name)
    if fn is None:
        raise MtgError(f"engine error: custom card function {name!r} is not registered")
    fn(g, item)


# -- prevention -------------------------------------------------------------------------


# -- continuous effects: 2007 CR 418.5 layers --------------------------------------------


# -- triggers ---------------------------------------------------------------------------


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
