"""The deploy creatures option: every creature can be handed to a teammate (2012 804; the Emperor
variant always uses it, 809.3b; the 2007 glossary's "Deploy Creatures Option").

2012 804.2: "Each creature has the ability '{T}: Target teammate gains control of this creature.
Activate this ability only any time you could cast a sorcery.'" The rules give the ability, so
no card holds it: :func:`deploy_ability` builds it once from the card language (a player target
whose filter is ``controller: teammate``, the ``gain_control`` op), and the layer system adds it
to every creature of a game that uses the option, after the other abilities (418.5 layer 6).
On the stack it is an activated ability like any other; its reference names the rules, not a
card (``("rules", "deploy", 0)``: :func:`mtg_env.engine.registry.ability_by_ref`).
"""

from __future__ import annotations

from functools import cache

from .abilities import ActivatedAbility, Cost, TargetSpec
from .filters import Site
from .mana_cost import ManaCost

DEPLOY_TEXT = "target teammate gains control of this creature"
DEPLOY_REF = ("rules", "deploy", 0)


@cache
def deploy_ability() -> ActivatedAbility:
    """The deploy ability (built on first use: the effect ops register when the engine loads)."""
    from .ops import compile_effect

    site = Site("rules: deploy creatures (2012 804.2)", targets=("player",), source=True)
    ab = ActivatedAbility(
        0, Cost(mana=ManaCost.parse(""), tap=True),
        (TargetSpec("player", {"controller": "teammate"}, "target teammate", site=site),),
        (compile_effect({"op": "gain_control", "target": "self", "to": 0, "until": "forever"},
                        site),),
        sorcery_speed=True, text=DEPLOY_TEXT)
    ab.ref = DEPLOY_REF
    return ab
