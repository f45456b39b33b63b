"""Ops changing a permanent's status or attachments: tap, untap, tap or untap, attach, move an
Aura, regenerate, put counters (2007 CR 418.5 layer 6c applies +1/+1 counters)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..choices import choose_frame
from ..ids import next_timestamp
from ..layers import fresh, mark_dirty
from ..replacement_effects import add_regeneration_shield
from ..rules import protected_from
from . import Args, Param, amount, op, ref

if TYPE_CHECKING:
    from ..game import Game
    from ..model import Permanent, StackItem


@op("tap", target=ref(required=True))
def tap(g: Game, item: StackItem, a: Args) -> None:
    """Tap each referenced permanent."""
    for kind, v in a.target(g, item):
        if kind == "o" and v in g.perms:
            g.perms[v].tapped = True


@op("untap", target=ref(required=True))
def untap(g: Game, item: StackItem, a: Args) -> None:
    """Untap each referenced permanent."""
    for kind, v in a.target(g, item):
        if kind == "o" and v in g.perms:
            g.perms[v].tapped = False


@op("tap_or_untap", target=ref(required=True))
def tap_or_untap(g: Game, item: StackItem, a: Args) -> None:
    """"You may tap or untap target permanent": the controller chooses on resolution. Tapping a
    tapped permanent (or untapping an untapped one) does nothing, so the choice is to change
    its status or not (a choice of 0 or 1)."""
    for kind, v in a.target(g, item):
        if kind == "o" and v in g.perms:
            verb = "untap" if g.perms[v].tapped else "tap"
            g.frames.append(choose_frame(g, item.controller, [("o", v)], 0, 1, verb,
                                            f"{item.label}: you may {verb} "
                                            f"{g.perms[v].card.label}",
                                            then={"op": verb}, sid=item.id))


@op("put_counters", target=ref(required=True), amount=amount(default=1),
    kind=Param("enum", default="+1/+1", choices=("+1/+1", "-1/-1")))
def put_counters(g: Game, item: StackItem, a: Args) -> None:
    """Put N counters of a kind on each referenced permanent."""
    n = a.amount(g, item)
    if n <= 0:
        return
    for kind, v in a.target(g, item):
        if kind == "o" and v in g.perms:
            p = g.perms[v]
            p.counters[a.kind] = p.counters.get(a.kind, 0) + n
            mark_dirty(g, "counters")  # 2007 CR 418.5 layer 6c
            g.write_log(f"{p.card.label} gets {n} {a.kind} counter{'s' if n > 1 else ''}")


@op("move_aura", target=ref(required=True))
def move_aura(g: Game, item: StackItem, a: Args) -> None:
    """"Attach it to another permanent it can enchant" (Aura Graft): the controller chooses
    another permanent the referenced Aura could legally enchant (its enchant restriction from
    its controller's side, protection); it stays where it is if there is none."""
    fresh(g)
    for kind, v in a.target(g, item):
        aura = g.perms.get(v) if kind == "o" else None
        if aura is None or "Aura" not in aura.subtypes:
            continue
        cands = [("o", p.id) for p in g.perms.values()
                 if p.id not in (aura.id, aura.attached_to) and can_enchant(g, aura, p)]
        if cands:
            g.frames.append(choose_frame(g, item.controller, cands, 1, 1, "attach to",
                                            f"{item.label}: attach {aura.card.label} to",
                                            then={"op": "attach", "aura": aura.id},
                                            sid=item.id))


def can_enchant(g: Game, aura: Permanent, host: Permanent) -> bool:
    """Could ``aura`` legally be attached to ``host`` (2007 CR 212.4: its enchant ability;
    protection: can't be enchanted by what it is protected from)?"""
    spec = aura.cdef.enchant
    if spec is None or spec.perm is None or protected_from(host, aura.colors):
        return False
    return spec.perm.test(host, aura.controller)


@op("attach", target=ref(required=True))
def attach(g: Game, item: StackItem, a: Args) -> None:
    """Attach the source (an Equipment or Aura) to the referenced permanent."""
    src = g.perms.get(item.source) if item.source is not None else None
    if src is None:
        return
    for kind, v in a.target(g, item):
        # 2007 glossary "Attach": attaching to what it's already attached to does nothing.
        if kind == "o" and v in g.perms and v != src.id and src.attached_to != v:
            src.attached_to = v
            src.timestamp = next_timestamp(g)  # 2007 glossary "Attach": a new timestamp
            mark_dirty(g, "attachment")
            g.write_log(f"{src.card.label} is attached to {g.perms[v].card.label}")


@op("regenerate", target=ref(required=True))
def regenerate(g: Game, item: StackItem, a: Args) -> None:
    """The next time each referenced permanent would be destroyed this turn, regenerate it."""
    # 2007 CR 419.6b: a regeneration shield lasts until used or end of turn.
    for kind, v in a.target(g, item):
        if kind == "o" and v in g.perms:
            add_regeneration_shield(g, g.perms[v], item.label, item.source,
                                    item.data.card)
            g.write_log(f"{g.perms[v].card.label} gets a regeneration shield")
