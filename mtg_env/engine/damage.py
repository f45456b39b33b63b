"""Damage and life: dealing damage to players and creatures, life gain and loss, destroy and
regeneration, lifelink.

2007 CR 212 (damage, 212.5b damage to a creature), 419.6b (regeneration: a shield replaces
destruction), 419.7 (prevention), 502.68 (lifelink, a triggered ability in 2007),
2012 119 (life).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .game import Game

from .model import Permanent, StackItem
from .rules import protected_from


class DamageAndLife:
    """Mixed into :class:`~mtg_env.engine.game.Game`."""

    def _lose_life(self, pl: int, n: int) -> None:
        if n <= 0:
            return
        P = self.players[pl]
        P.life -= n
        P.life_lost_this_turn += n

    def _gain_life(self, pl: int, n: int) -> None:
        if n > 0:
            self.players[pl].life += n

    def deal_damage(self, src: dict, target: tuple, amount: int, combat: bool = False,
                    no_regen: bool = False) -> int:
        """Deal damage from a source (``{'pid', 'label', 'colors', 'controller'}``) to a player
        or creature. Returns the damage actually dealt after prevention."""
        if amount <= 0:
            return 0
        target = redirect(self, target)
        kind, v = target
        amount = apply_prevention(self, src, target, amount, combat)
        if amount <= 0:
            return 0
        if kind == "p":
            P = self.players[v]
            P.life -= amount
            P.life_lost_this_turn += amount
            P.damage_taken_this_turn += amount
        else:
            p = self.perms.get(v)
            if p is None or not p.is_creature:
                return 0
            p.damage += amount
            if no_regen:
                p.cant_regen = True
        self._log(f"{src['label']} deals {amount} damage to {self._ref_text(target)}")
        self._event("damage", src=src.get("pid"), target=list(target), amount=amount,
                    combat=combat, src_controller=src.get("controller"))
        pid = src.get("pid")
        if pid is not None and self._ll.get(pid):
            self._ll_acc[pid] = self._ll_acc.get(pid, 0) + amount
        return amount

    def _flush_damage_triggers(self) -> None:
        """2007 CR 502.68: lifelink triggers once per instance for the damage of one event."""
        acc = self._ll_acc
        if not acc:
            return
        self._ll_acc = {}
        self._fresh()
        for pid, amount in acc.items():
            perm = self.perms.get(pid)
            if perm is None:
                continue
            for _ in range(self._ll.get(pid, 0)):
                self.pending.append({"special": "gain_life", "ctrl": perm.controller,
                                     "amount": amount, "src": pid, "name": perm.card.label,
                                     "text": f"lifelink: gain {amount} life"})

    def src_of(self, item: StackItem) -> dict:
        """Damage-source info for a stack item (last known information if it left play)."""
        if item.kind == "spell":
            return {"pid": None, "label": item.label, "controller": item.controller,
                    "colors": "".join(sorted(item.card.cdef.colors))}
        perm = self.perms.get(item.source) if item.source is not None else None
        if perm is not None:
            return {"pid": perm.id, "label": perm.card.label, "controller": perm.controller,
                    "colors": "".join(sorted(perm.colors))}
        return {"pid": None, "label": item.source_name, "controller": item.controller,
                "colors": item.data.get("src_colors", "")}

    def destroy(self, perm: Permanent, no_regen: bool = False) -> bool:
        """Destroy (2007 CR 419.6b regeneration applies). Returns True if it left play."""
        if perm.regen_shields > 0 and not perm.cant_regen and not no_regen:
            perm.regen_shields -= 1
            perm.tapped = True
            perm.damage = 0
            if perm.attacking or perm.blocking:
                self._remove_from_combat(perm)
            self._log(f"{perm.card.label} regenerates")
            return False
        self._leave_play(perm, "graveyard", destroyed=True)
        return True


def apply_prevention(g: Game, src: dict, target: tuple, n: int, combat: bool) -> int:
    """Protection (2012 702.15) and prevention shields (2007 CR 419.7)."""
    if target[0] == "o":
        p = g.perms.get(target[1])
        if p is not None and protected_from(p, src.get("colors", "")):
            return 0
        if p is not None and any(s.kind == "prevent_damage" for s in p.card.cdef.static):
            return 0
    if not g.effects:
        return n
    for e in g.effects:
        if e.get("kind") != "prevent" or e.get("used"):
            continue
        if e.get("combat_only") and not combat:
            continue
        tgt = e.get("target")
        if tgt is not None and tuple(tgt) != tuple(target):
            continue
        left = e.get("amount")
        if left is None:
            return 0
        use = min(left, n)
        e["amount"] = left - use
        if e["amount"] <= 0:
            e["used"] = True
        n -= use
        if n <= 0:
            return 0
    return n


def redirect(g: Game, target: tuple) -> tuple:
    """Pariah: "All damage that would be dealt to you is dealt to enchanted creature instead"
    (a replacement effect, 2007 CR 419.6)."""
    if target[0] != "p":
        return target
    for p in g.perms.values():
        st = p.card.cdef.static
        if not st or p.controller != target[1]:
            continue
        for s in st:
            if s.kind == "redirect_to_enchanted" and p.attached_to in g.perms:
                return ("o", p.attached_to)
    return target
