"""Control-changing effects (2007 CR 418.5 layer 2)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import Args, op, ref, until

if TYPE_CHECKING:
    from ..game import Game
    from ..model import StackItem


@op("gain_control", target=ref(required=True), until=until())
def gain_control(g: Game, item: StackItem, a: Args) -> None:
    """The ability's controller gains control of each referenced permanent."""
    for kind, v in a.target(g, item):
        if kind == "o" and v in g.perms:
            g.add_effect({"kind": "control", "pid": v, "controller": item.controller,
                          "until": a.until})
            g._log(f"player {item.controller} gains control of {g.perms[v].card.label}")
