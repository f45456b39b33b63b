"""Damage and life: dealing damage to players and creatures, life gain and loss, destroy,
lifelink.

2007 CR 212 (damage, 212.5b damage to a creature), 502.68 (lifelink, a triggered ability in 2007),
2012 119 (life). Regeneration (419.6b), prevention (419.7) and "instead" effects on damage and
destruction are applied by :mod:`mtg_env.engine.replacement` (2007 CR 419).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import replacement  # a module import: replacement calls back into this module
from .frames import PendingTrigger
from .layers import fresh
from .model import Permanent, StackItem
from .replacement_events import DamageEvent, DestroyEvent
from .seating import teammates
from .targets import ref_text
from .triggers import report_event
from .zones import leave_play_together

if TYPE_CHECKING:
    from .game import Game


def lose_life(g: Game, pl: int, n: int) -> None:
    if n <= 0:
        return
    P = g.players[pl]
    P.life -= n
    P.life_lost_this_turn += n
    if g.variant == "two_headed_giant":
        share_life(g, pl)


def gain_life(g: Game, pl: int, n: int) -> None:
    if n > 0:
        g.players[pl].life += n
        if g.variant == "two_headed_giant":
            share_life(g, pl)


def share_life(g: Game, pl: int) -> None:
    """Two-Headed Giant: damage, life loss and life gain happen to a player, and the result
    applies to the team's shared life total (2012 810.9), which each teammate's ``life``
    holds."""
    life = g.players[pl].life
    for q in teammates(g, pl):
        g.players[q].life = life


def deal_damage(g: Game, src: dict[str, Any], target: tuple[str, int], amount: int,
                combat: bool = False, no_regen: bool = False) -> int:
    """Deal damage from a source (``{'pid', 'label', 'colors', 'controller'}``) to a player
    or creature, after replacement and prevention effects (2007 CR 419, see
    :mod:`mtg_env.engine.replacement`). Returns the damage actually dealt; 0 also when the
    event waits for the affected player to order the effects (it is then dealt when they
    have chosen)."""
    if amount <= 0:
        return 0
    if replacement.has_damage_effects(g, target):
        dealt = replacement.run_event(g, DamageEvent(src, target, amount, combat, no_regen))
        return dealt or 0
    return perform_damage(g, src, target, amount, combat, no_regen)


def perform_damage(g: Game, src: dict[str, Any], target: tuple[str, int], amount: int, combat: bool,
          no_regen: bool) -> int:
    """Deal damage no effect modifies any more (2007 CR 212)."""
    if amount <= 0:
        return 0
    kind, v = target
    if kind == "p":
        P = g.players[v]
        P.life -= amount
        P.life_lost_this_turn += amount
        P.damage_taken_this_turn += amount
        if g.variant == "two_headed_giant":
            share_life(g, v)
    else:
        p = g.perms.get(v)
        if p is None or not p.is_creature:
            return 0
        p.damage += amount
        if src.get("pid") is not None:  # "a creature dealt damage by [it] this turn"
            g.damaged_this_turn = [*g.damaged_this_turn, [src["pid"], v]]
        if no_regen:
            p.cant_regen = True
    life = f" (life {g.players[v].life})" if kind == "p" else ""
    g.write_log(f"{src['label']} deals {amount} damage to {ref_text(g, target)}{life}")
    report_event(g, "damage", src=src.get("pid"), target=list(target), amount=amount,
                combat=combat, src_controller=src.get("controller"))
    pid = src.get("pid")
    if pid is not None and g.lifelink.get(pid):
        g.lifelink_dealt[pid] = g.lifelink_dealt.get(pid, 0) + amount
    return amount


def flush_damage_triggers(g: Game) -> None:
    """2007 CR 502.68: lifelink triggers once per instance for the damage of one event."""
    acc = g.lifelink_dealt
    if not acc:
        return
    g.lifelink_dealt = {}
    fresh(g)
    for pid, amount in acc.items():
        perm = g.perms.get(pid)
        if perm is None:
            continue
        for _ in range(g.lifelink.get(pid, 0)):
            g.pending.append(PendingTrigger(perm.controller, perm.card.label,
                                            f"lifelink: gain {amount} life", pid,
                                            special="gain_life", amount=amount))


def src_of(g: Game, item: StackItem) -> dict[str, Any]:
    """Damage-source info for a stack item (last known information if it left play)."""
    if item.kind == "spell":
        assert item.card is not None  # a spell's stack object has its card
        return {"pid": None, "sid": item.id, "label": item.label, "controller": item.controller,
                "colors": "".join(sorted(item.card.cdef.colors))}
    perm = g.perms.get(item.source) if item.source is not None else None
    if perm is not None:
        return {"pid": perm.id, "label": perm.card.label, "controller": perm.controller,
                "colors": "".join(sorted(perm.colors))}
    return {"pid": None, "label": item.source_name, "controller": item.controller,
            "colors": item.data.source_colors or ""}


def destroy(g: Game, perm: Permanent, no_regen: bool = False) -> bool:
    """Destroy one permanent (see :func:`destroy_all`). Returns True if it left play."""
    destroy_all(g, [perm], no_regen)
    return perm.id not in g.perms


def destroy_all(g: Game, perms: list[Permanent], no_regen: bool = False,
                also: list[Permanent] | None = None) -> None:
    """Destroy permanents at the same time ("destroy all creatures", Wrath of God; lethal
    damage, 2007 CR 420.5c), after replacement effects: a regeneration shield replaces a
    permanent's destruction (2007 CR 419.6b). The rest leave play together, with ``also``
    (put into the graveyard by the same state-based check, 420.3), so each leaves-play
    ability sees all of them (2012 603.10a)."""
    going = list(also or ())
    if g.replacements:
        for perm in perms:
            if perm.id in g.perms and replacement.run_event(g, DestroyEvent(perm.id, no_regen)):
                going.append(perm)  # not regenerated: it leaves with the others
    else:
        going.extend(perms)
    leave_play_together(g, going, "graveyard")
