"""Costs paid while an ability or spell resolves: "sacrifice it unless you discard a creature
card" (Hidden Horror), "counter target spell unless its controller pays {1}" (Spiketail
Hatchling), "you may pay {1}{G}. If you do, ..." (Llanowar Sentinel).

2007 CR 413.2 / 2012 608.2d: a choice made on resolution is made by the player the effect names;
paying is optional and is offered only if the player can pay (a player can't pay a cost they
can't pay). Mana paid this way may come from mana abilities played during the resolution (2007
CR 411.2 / 2012 605.3a: a mana ability may be played while paying a cost): the engine's automatic
payer taps sources for it as it does for a spell's cost (with manual mana too: no decision
kind exists for tapping lands in the middle of a resolution). The question is a yes/no decision of
the paying player; the discarded card is then chosen with the usual choose-cards decision.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import mana  # the module: mana.py imports the op registry, so read its names at call time
from ..choices import run_pay_effects
from ..errors import MtgError
from ..frames import PayFrame, PayMode, ResolveFrame
from ..mana import mana_sources
from ..mana_cost import ManaCost
from ..stack import find_item, item_def
from . import Args, Param, op

if TYPE_CHECKING:
    from ..game import Game
    from ..model import StackItem

_PAYER = Param("enum", default="controller", choices=("controller", "target_controller"),
               doc="who may pay: the ability's controller, or the controller of target 0 (a "
                   "spell or permanent: \"unless its controller pays\")")
_MANA = Param("text", default="", doc="the mana to pay, e.g. \"{1}{G}\"")
_DISCARD = Param("filter", default=None, context="card",
                 doc="pay by discarding one card matching it (\"unless you discard a creature "
                     "card\"; {} for any card)")


@op("unless_pays", payer=_PAYER, mana=_MANA, discard=_DISCARD,
    effects=Param("effects", required=True, doc="effects if the player doesn't pay"))
def unless_pays(g: Game, item: StackItem, a: Args) -> None:
    """"[Effects] unless [player] pays [cost]": the player may pay; if they don't (or can't),
    the effects happen."""
    _ask_payment(g, item, a, "unless")


@op("may_pay", mana=_MANA,
    effects=Param("effects", required=True, doc="effects if the player pays"))
def may_pay(g: Game, item: StackItem, a: Args) -> None:
    """"You may pay [cost]. If you do, [effects]"."""
    _ask_payment(g, item, a, "may")


def payer_of(g: Game, item: StackItem, a: Args) -> int | None:
    """The player who may pay (None: the target's controller can't be found)."""
    if getattr(a, "payer", "controller") == "controller":
        return item.controller
    if not item.targets:
        return None
    kind, v = item.targets[0]
    if kind == "s":
        target = find_item(g, v)
        return None if target is None else target.controller
    if kind == "o":
        p = g.perms.get(v)
        return None if p is None else p.controller
    return None


def can_pay(g: Game, pl: int, a: Args) -> bool:
    """Can ``pl`` pay this cost now (mana from their pool and untapped sources, or a card)?"""
    if a.mana:
        cost = ManaCost.parse(a.mana)
        # Mana abilities may be played while paying (even with manual mana: the payer taps).
        if mana.plan_payment(g.players[pl].mana_pool, cost.colored, cost.generic,
                        mana_sources(g, pl), cheapest=False) is None:
            return False
    if getattr(a, "discard", None) is not None:
        test = a.discard.test
        if not any(test(c, pl) for c in g.players[pl].hand):
            return False
    return True


def _ask_payment(g: Game, item: StackItem, a: Args, mode: PayMode) -> None:
    f = g.frames[-1] if g.frames else None
    if not isinstance(f, ResolveFrame) or f.item_id != item.id:
        raise MtgError("engine error: a payment on resolution must be a top-level effect")
    pl = payer_of(g, item, a)
    if pl is None or not can_pay(g, pl, a):
        if mode == "unless":
            if pl is not None:
                g.write_log(f"player {pl} can't pay")
            run_pay_effects(g, item, a)
        return
    what = f"pay {a.mana}" if a.mana else "discard a card"
    if getattr(a, "discard", None) is not None and a.discard.spec:
        what = "discard a card matching " + ", ".join(f"{k}={v}" for k, v in a.discard.spec.items())
    text = getattr(item_def(g, item)[2], "text", "") or item.label
    prompt = f"{item.label} ({text}): player {pl}, {what}?"
    g.frames.append(PayFrame(pl, item.id, f.effect_index - 1, mode, prompt))

