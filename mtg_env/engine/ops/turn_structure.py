"""Ops changing the turn structure (extra turns, additional phases, ending the turn) and creating
delayed triggered abilities; the rules live in :mod:`mtg_env.engine.turn_structure` (2012 500.7,
500.8, 603.7, 713)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import turn_structure
from ..turn_structure import DELAYED_MOMENTS
from . import Args, Param, op, players

if TYPE_CHECKING:
    from ..game import Game
    from ..model import StackItem


@op("extra_turns", target=players(required=True), amount=Param("int", default=1))
def extra_turns(g: Game, item: StackItem, a: Args) -> None:
    """Each referenced player takes N extra turns after this one (2012 500.7)."""
    for kind, pl in a.target(g, item):
        if kind == "p":
            turn_structure.add_extra_turns(g, pl, a.amount)
            g.write_log(f"player {pl} will take {a.amount} extra turn(s) after this one")


@op("additional_combat_phase")
def additional_combat_phase(g: Game, item: StackItem, a: Args) -> None:
    """"After this main phase, there is an additional combat phase followed by an additional
    main phase" (only if it resolves during a main phase; 2012 500.8)."""
    if turn_structure.add_combat_and_main_phase(g):
        g.write_log("an additional combat phase and main phase follow this main phase")


@op("untap_attacked_this_turn")
def untap_attacked_this_turn(g: Game, item: StackItem, a: Args) -> None:
    """Untap all creatures that attacked this turn (declared as attackers in any combat of this
    turn and still the same objects in play)."""
    for pid in g.attacked_this_turn:
        p = g.perms.get(pid)
        if p is not None and "Creature" in p.types:
            p.tapped = False


@op("end_the_turn")
def end_the_turn(g: Game, item: StackItem, a: Args) -> None:
    """End the turn (2012 713.1): remove every object on the stack from the game (this one
    included), remove creatures from combat, skip straight to the cleanup step."""
    turn_structure.end_the_turn(g)


@op("delayed_trigger", at=Param("enum", required=True, choices=DELAYED_MOMENTS,
                                doc="the step at whose beginning it triggers"),
    text=Param("text", required=True, doc="the delayed ability's text (shown on the stack)"),
    effects=Param("effects", required=True, doc="what the delayed ability does"))
def delayed_trigger(g: Game, item: StackItem, a: Args) -> None:
    """Create a delayed triggered ability ("sacrifice it at end of combat"): it triggers once,
    at the beginning of the next ``at`` step; its source and controller are this ability's
    (2012 603.7d-e)."""
    turn_structure.add_delayed_trigger(g, a.at, item.controller, item.source, item.source_name or item.label,
                          item.data.card, a.text, list(a.effects))
