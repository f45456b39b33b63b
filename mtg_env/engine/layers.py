"""Continuous effects and the 2007 layer system: recompute every permanent's characteristics
from its card and the continuous effects in play, only when something that can change them happened.

2007 CR 418 (continuous effects; 418.5 the layers: 1 copy, 2 control, 3 text, 4 type, 5 other
(abilities, colors), 6 power/toughness with 6a characteristic-defining, 6b setting and resolved
modifications, 6c counters, 6d static modifications, 6e switching), 418.5 timestamp order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .game import Game

from .errors import MtgError
from .model import Permanent, StaticAbility


class ContinuousEffects:
    """Mixed into :class:`~mtg_env.engine.game.Game`."""

    def _fresh(self) -> None:
        if self.dirty:
            refresh(self)

    def add_effect(self, effect: dict) -> None:
        effect["ts"] = self._timestamp()
        self.effects.append(effect)
        self.dirty = True


def _static_affects(g: Game, src: Permanent, s: StaticAbility) -> list[Permanent]:
    flt = s.affected
    if flt is None:
        if s.affects == "self":
            return [src]
        host = g.perms.get(src.attached_to) if src.attached_to is not None else None
        return [host] if host is not None else []  # enchanted / equipped
    test = flt.test
    ctrl = src.controller
    if flt.other:
        return [p for p in g.perms.values() if test(p, ctrl) and p is not src]
    return [p for p in g.perms.values() if test(p, ctrl)]


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
            targets = _static_affects(g, src, s)
            add = s.params.get("keywords", ())
        for p in targets:
            p.keywords = p.keywords | frozenset(add)
            if "lifelink" in add:
                ll[p.id] = ll.get(p.id, 0) + 1
    # Layer 6a: characteristic-setting abilities.
    for _, src, s in statics:
        if s.kind == "cda_pt":
            v = amount_cda(g, src, s)
            src.power = v if s.params.get("power", True) else src.power
            src.toughness = v + s.params.get("toughness_plus", 0)
    # Layer 6b: resolved P/T effects and setting effects, one timestamp order (2007 difference).
    layer6b = [e for e in effects if e["kind"] in ("pt", "set_pt")]
    layer6b += [{"kind": "static_set", "ts": ts, "src": src, "s": s} for ts, src, s in statics
                if s.kind == "set_pt"]
    layer6b.sort(key=lambda e: e["ts"])
    for e in layer6b:
        if e["kind"] == "static_set":
            for p in _static_affects(g, e["src"], e["s"]):
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
            per = s.per
            n = 1 if per is None else sum(1 for q in perms.values()
                                          if per.test(q, src.controller))
            for p in _static_affects(g, src, s):
                p.power += s.params.get("p", 0) * n
                p.toughness += s.params.get("t", 0) * n
    g._ll = ll


def _control_changed(g: Game, before: dict[int, int]) -> None:
    for p in g.perms.values():
        if before.get(p.id, p.controller) != p.controller:
            p.sick = True  # 2007 CR 212.3d: not controlled continuously since the turn began
            g.dirty_combat(p)


def amount_cda(g: Game, src: Permanent, s: StaticAbility) -> int:
    flt = s.count
    if flt is not None:
        return sum(1 for p in g.perms.values() if flt.test(p, src.controller))
    zone = s.params.get("graveyard_count")
    if zone is not None:
        return sum(1 for P in g.players for c in P.graveyard if zone in c.cdef.types)
    raise MtgError(f"engine error: bad characteristic-setting ability {s.params!r}")
