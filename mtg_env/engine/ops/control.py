"""Control-changing effects (2007 CR 418.5 layer 2)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import Args, flag, op, players, ref, until

if TYPE_CHECKING:
    from ..game import Game
    from ..model import StackItem


@op("gain_control", target=ref(required=True), until=until(),
    to=players(default="controller"),
    while_enchanted=flag("the effect lasts only as long as that creature is enchanted"))
def gain_control(g: Game, item: StackItem, a: Args) -> None:
    """The referenced player (the ability's controller unless ``to`` says otherwise: "target
    opponent gains control of it") gains control of each referenced permanent. With
    ``while_enchanted`` the effect ends once the permanent has no Aura attached (Rootwater
    Matriarch; an unenchanted target is not affected at all)."""
    new = [v for kind, v in a.to(g, item) if kind == "p"]
    if not new:
        return  # the player was an illegal target (2007 CR 413.2a)
    for kind, v in a.target(g, item):
        if kind == "o" and v in g.perms:
            e = {"kind": "control", "pid": v, "controller": new[0], "until": a.until}
            if a.while_enchanted:
                e["while"] = "enchanted"
            g.add_effect(e)
            g._log(f"player {new[0]} gains control of {g.perms[v].card.label}")
