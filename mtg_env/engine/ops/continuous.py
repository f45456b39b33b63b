"""Continuous effects from resolving spells and abilities: +N/+N, setting P/T, granting keywords
(2007 CR 418.5 layers 5 and 6b; they last until end of turn unless stated), and "can't block"
restrictions between two creatures."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import MtgError
from . import Args, Param, amount, op, ref, until

if TYPE_CHECKING:
    from ..game import Game
    from ..model import StackItem


@op("pump", p=amount(default=0), t=amount(default=0), target=ref(required=True), until=until())
def pump(g: Game, item: StackItem, a: Args) -> None:
    """Each referenced permanent gets +p/+t."""
    p, t = a.p(g, item), a.t(g, item)
    for kind, v in a.target(g, item):
        if kind == "o" and v in g.perms:
            g.add_effect({"kind": "pt", "pid": v, "p": p, "t": t, "until": a.until})
            g._log(f"{g.perms[v].card.label} gets {p:+d}/{t:+d}")


@op("set_pt", p=Param("int", required=True), t=Param("int", required=True),
    target=ref(required=True), until=until())
def set_pt(g: Game, item: StackItem, a: Args) -> None:
    """Each referenced permanent has base power and toughness p/t."""
    for kind, v in a.target(g, item):
        if kind == "o" and v in g.perms:
            g.add_effect({"kind": "set_pt", "pid": v, "p": a.p, "t": a.t, "until": a.until})


@op("grant", keywords=Param("keywords", required=True), target=ref(required=True), until=until())
def grant(g: Game, item: StackItem, a: Args) -> None:
    """Each referenced permanent gains the keywords."""
    for kind, v in a.target(g, item):
        if kind == "o" and v in g.perms:
            g.add_effect({"kind": "grant", "pid": v, "add": list(a.keywords), "until": a.until})


@op("animate", target=ref(required=True),
    types=Param("words", choices=("Artifact", "Creature", "Enchantment", "Land")),
    subtypes=Param("words"), colors=Param("words", choices=tuple("WUBRG")),
    p=amount(), t=amount(), keywords=Param("keywords"),
    abilities=Param("abilities", doc="activated abilities it gains (Spawning Pool)"),
    until=until())
def animate(g: Game, item: StackItem, a: Args) -> None:
    """"[This] becomes a 3/3 green Ape creature with trample until end of turn. It's still a
    land." One effect applied in three layers (2007 CR 418.5): card types and subtypes are added
    in layer 4, its color set, keywords and granted activated abilities added in layer 5, its
    P/T set in layer 6b. P/T may be an amount fixed as the ability resolves ("an X/X")."""
    if (a.p is None) != (a.t is None):
        raise MtgError("engine error: animate needs both p and t, or neither")
    p = a.p(g, item) if a.p is not None else None
    t = a.t(g, item) if a.t is not None else None
    for kind, v in a.target(g, item):
        if kind == "o" and v in g.perms:
            e: dict = {"kind": "animate", "pid": v, "types": list(a.types or ()),
                       "subtypes": list(a.subtypes or ()), "until": a.until}
            if a.colors is not None:
                e["colors"] = list(a.colors)
            if p is not None:
                e["p"], e["t"] = p, t
            if a.keywords:
                e["add"] = list(a.keywords)
            if a.abilities:  # their references: the effect stays plain JSON (model._set_refs)
                e["abilities"] = [list(ab.ref) for ab in a.abilities]
            g.add_effect(e)
            g._log(f"{g.perms[v].card.label} becomes a creature until end of turn")


@op("cant_block_this", target=ref(required=True))
def cant_block_this(g: Game, item: StackItem, a: Args) -> None:
    """Each referenced creature can't block the ability's source this turn (Duct Crawler); a
    blocking restriction checked when blockers are declared (2007 CR 309.2)."""
    for kind, v in a.target(g, item):
        if kind == "o" and v in g.perms:
            g.add_effect({"kind": "cant_block", "pid": v, "attacker": item.source,
                          "until": "eot"})
            g._log(f"{g.perms[v].card.label} can't block {item.source_name} this turn")
