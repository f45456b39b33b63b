"""Ops on the mana pool, run by mana abilities (2007 CR 406, 411: no stack; the procedures are
:mod:`mtg_env.engine.mana`'s)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import MtgError
from . import Args, Param, op, players

if TYPE_CHECKING:
    from ..game import Game
    from ..model import StackItem


@op("add_mana", mana=Param("text", required=True, doc="the mana symbols, e.g. GG"),
    to=players(default="controller"))
def add_mana(g: Game, item: StackItem, a: Args) -> None:
    """The referenced player adds the mana to his or her mana pool ("its controller adds {G}{G}
    to his or her mana pool": Overgrowth's triggered mana ability, ``to: event_player``)."""
    if not a.mana or any(c not in "WUBRGC" for c in a.mana):
        raise MtgError(f"engine error: add_mana needs mana symbols WUBRGC, not {a.mana!r}")
    for kind, v in a.to(g, item):
        if kind == "p":
            pool = g.players[v].mana_pool
            for c in a.mana:
                pool["WUBRGC".index(c)] += 1
            g.write_log(f"player {v} adds {a.mana} (now {g.players[v].pool_text()})")


@op("double_mana_pool")
def double_mana_pool(g: Game, item: StackItem, a: Args) -> None:
    """Double the amount of each type of mana in the controller's mana pool (Doubling Cube; the
    type of mana is its color or colorlessness)."""
    P = g.players[item.controller]
    for i in range(6):
        P.mana_pool[i] *= 2
    g.write_log(f"player {item.controller}'s mana pool is doubled to {P.pool_text()}")
