"""Continuous effects from resolving spells and abilities: +N/+N, setting P/T, granting keywords
(2007 CR 418.5 layers 5 and 6b; they last until end of turn unless stated)."""

from __future__ import annotations

from typing import TYPE_CHECKING

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
