"""Ops creating continuous effects from resolving spells and abilities (2007 CR 418): gaining
control (418.5 layer 2), +N/+N, setting P/T, granting keywords, animating (layers 4, 5 and 6b;
they last until end of turn unless stated), and "can't block" restrictions between two
creatures. Each adds an effect with :func:`~mtg_env.engine.layers.add_effect`;
the layer system (:mod:`mtg_env.engine.layers`) applies it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..continuous_effects import (
    Animation,
    CantBlock,
    ControlChange,
    KeywordGrant,
    PowerToughnessBoost,
    PowerToughnessSetting,
)
from ..errors import MtgError
from ..layers import add_effect
from . import Args, Param, amount, flag, op, players, ref, until

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
            add_effect(g, ControlChange(pid=v, controller=new[0], until=a.until,
                                        while_="enchanted" if a.while_enchanted else None))
            g.write_log(f"player {new[0]} gains control of {g.perms[v].card.label}")


@op("pump", p=amount(default=0), t=amount(default=0), target=ref(required=True), until=until())
def pump(g: Game, item: StackItem, a: Args) -> None:
    """Each referenced permanent gets +p/+t."""
    p, t = a.p(g, item), a.t(g, item)
    for kind, v in a.target(g, item):
        if kind == "o" and v in g.perms:
            add_effect(g, PowerToughnessBoost(pid=v, p=p, t=t, until=a.until))
            g.write_log(f"{g.perms[v].card.label} gets {p:+d}/{t:+d}")


@op("set_pt", p=Param("int", required=True), t=Param("int", required=True),
    target=ref(required=True), until=until())
def set_pt(g: Game, item: StackItem, a: Args) -> None:
    """Each referenced permanent has base power and toughness p/t."""
    for kind, v in a.target(g, item):
        if kind == "o" and v in g.perms:
            add_effect(g, PowerToughnessSetting(pid=v, p=a.p, t=a.t, until=a.until))


@op("grant", keywords=Param("keywords", required=True), target=ref(required=True), until=until())
def grant(g: Game, item: StackItem, a: Args) -> None:
    """Each referenced permanent gains the keywords."""
    for kind, v in a.target(g, item):
        if kind == "o" and v in g.perms:
            add_effect(g, KeywordGrant(pid=v, add=tuple(a.keywords), until=a.until))


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
            add_effect(g, Animation(
                pid=v, types=tuple(a.types or ()), subtypes=tuple(a.subtypes or ()),
                colors=None if a.colors is None else tuple(a.colors), p=p, t=t,
                add=tuple(a.keywords or ()), until=a.until,
                # by their references, as they are stored (model.set_ability_refs)
                abilities=tuple(list(ab.ref) for ab in a.abilities or ())))
            g.write_log(f"{g.perms[v].card.label} becomes a creature until end of turn")


@op("cant_block_this", target=ref(required=True))
def cant_block_this(g: Game, item: StackItem, a: Args) -> None:
    """Each referenced creature can't block the ability's source this turn (Duct Crawler); a
    blocking restriction checked when blockers are declared (2007 CR 309.2)."""
    for kind, v in a.target(g, item):
        if kind == "o" and v in g.perms:
            add_effect(g, CantBlock(pid=v, attacker=item.source, until="eot"))
            g.write_log(f"{g.perms[v].card.label} can't block {item.source_name} this turn")
