"""Ops changing a permanent's status or attachments: tap, untap, attach, regenerate."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..replacement import add_regeneration_shield
from . import Args, op, ref

if TYPE_CHECKING:
    from ..game import Game
    from ..model import StackItem


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


@op("attach", target=ref(required=True))
def attach(g: Game, item: StackItem, a: Args) -> None:
    """Attach the source (an Equipment or Aura) to the referenced permanent."""
    src = g.perms.get(item.source)
    if src is None:
        return
    for kind, v in a.target(g, item):
        # 2007 glossary "Attach": attaching to what it's already attached to does nothing.
        if kind == "o" and v in g.perms and v != src.id and src.attached_to != v:
            src.attached_to = v
            src.timestamp = g._timestamp()  # 2007 glossary "Attach": a new timestamp
            g.dirty = True
            g._log(f"{src.card.label} is attached to {g.perms[v].card.label}")


@op("regenerate", target=ref(required=True))
def regenerate(g: Game, item: StackItem, a: Args) -> None:
    """The next time each referenced permanent would be destroyed this turn, regenerate it."""
    # 2007 CR 419.6b: a regeneration shield lasts until used or end of turn.
    for kind, v in a.target(g, item):
        if kind == "o" and v in g.perms:
            add_regeneration_shield(g, g.perms[v], item.label, item.source,
                                    item.data.get("card", ""))
            g._log(f"{g.perms[v].card.label} gets a regeneration shield")
