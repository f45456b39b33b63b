"""The stack and resolution: stack objects, what ability a stack object carries, resolving
spells and abilities, countering.

2007 CR 217.6 (the stack), 410/412 (abilities on the stack), 413 (resolving: 413.2a illegal
targets), 416 (resolving spells and abilities; permanent spells come into play), 413.2c (an
instant or sorcery goes to its owner's graveyard as the last step of resolving).
"""

from __future__ import annotations

from typing import Any

from . import effects as fx
from .errors import MtgError
from .model import (
    StackItem,
    TargetSpec,
)
from .targets import mode_targets, spec_for
from .triggers import trigger_condition


class StackResolution:
    """Mixed into :class:`~mtg_env.engine.game.Game`."""

    def _item(self, sid: int) -> StackItem | None:
        for s in reversed(self.stack):
            if s.id == sid:
                return s
        return None

    def item_def(self, item: StackItem) -> tuple[tuple[TargetSpec, ...], tuple[dict, ...], Any]:
        """(target specs, effects, ability object or card def) of a stack item."""
        if item.kind == "spell":
            cdef = item.card.cdef
            if cdef.enchant is not None:
                return (cdef.enchant,), (), cdef
            if cdef.modes:
                if item.mode < 0:
                    return (), (), cdef
                m = cdef.modes[item.mode]
                return mode_targets(m), tuple(m.get("effects", ())), cdef
            return cdef.spell_targets, cdef.spell_effects, cdef
        if item.kind == "combat_damage":
            return (), (), None
        if item.kind == "triggered" and "effects" in item.data:
            # A rules trigger (lifelink, 2007 CR 502.68) carries its effects and names no card.
            return (), tuple(item.data["effects"]), None
        # 2007 CR 410/412: an ability on the stack is independent of its source; it holds the
        # ability object itself (copied or granted abilities included).
        ab = item.ability_def
        if ab is None:
            raise MtgError(f"engine error: stack object {item.label} holds no ability")
        return ab.targets, ab.effects, ab

    def _run_resolve(self, f: dict) -> None:
        item = self._item(f["sid"])
        if item is None:  # removed by an effect during resolution
            self.frames.pop()
            return
        if f["st"] == 0:
            f["st"] = 1
            if item.kind == "combat_damage":
                self._resolve_combat_damage(item)
                self._finish_resolve(f, item)
                return
            specs, _, obj = self.item_def(item)
            if (item.kind == "triggered" and obj is not None and obj.condition
                    and not trigger_condition(self, obj.condition, item.controller, item.source,
                                              item.data.get("ev", {}), item.data)):
                # 2007 CR 410.11: an intervening "if" clause is checked again on resolution;
                # if false, the ability is removed from the stack and does nothing.
                self._log(f"ability of {item.label} does nothing: its condition is false")
                self._finish_resolve(f, item)
                return
            if specs and (item.targets or specs[-1].count is None):
                # A counted last spec covers every target from its own on; a spell that
                # chose no target at all ("up to", X = 0) is not countered for that.
                legal = [self._target_legal(item, i, spec_for(specs, i))
                         for i in range(max(len(specs), len(item.targets)))
                         if i < len(item.targets) or specs[i].count is None]
                f["legal"] = legal
                if not any(legal):
                    # 2007 CR 413.2a: all targets illegal -> countered on resolution.
                    self._log(f"{item.label if item.kind == 'spell' else 'ability of ' + item.label} "
                              "is countered: no legal targets")
                    self._counter(item)
                    self.frames.pop()
                    return
            if item.kind == "spell" and item.card.cdef.is_permanent_card:
                f["st"] = 5
                if self._ask_copy_choice(item):
                    return
            if item.kind == "triggered" and obj is not None and obj.optional:
                controller = item.controller
                self.frames.append({"k": "yesno", "pl": controller, "key": "may", "sid": item.id,
                                    "prompt": f"{item.label}: {obj.text}"})
                return
        if f["st"] == 5:  # Clone's copy choice is made: now the choices it comes into play with
            f["st"] = 6
            if self.ask_enter_choices(item):
                return
        if f["st"] == 6:  # every "as it comes into play" choice has been made (2012 614.12)
            self._resolve_permanent_spell(item)
            self._finish_resolve(f, item, to_play=True)
            return
        if f["st"] == 1:
            if item.data.get("may") is False:
                self._finish_resolve(f, item)
                return
            _, effects, obj = self.item_def(item)
            if obj is not None and getattr(obj, "custom", None) and f["i"] == 0:
                f["i"] = len(effects) + 1
                fx.run_custom(self, item, obj.custom)
                return
            if item.kind == "spell" and item.card.cdef.spell_custom and f["i"] == 0:
                f["i"] = len(effects) + 1
                fx.run_custom(self, item, item.card.cdef.spell_custom)
                return
            while f["i"] < len(effects):
                spec = effects[f["i"]]
                f["i"] += 1
                fx.OPS[spec["op"]](self, item, spec)
                if self.is_over or self.frames[-1] is not f:
                    return  # an effect asked a player something; continue afterwards
            self._finish_resolve(f, item)

    def _finish_resolve(self, f: dict, item: StackItem, to_play: bool = False) -> None:
        if self.frames and self.frames[-1] is f:
            self.frames.pop()
        if item in self.stack:
            self.stack.remove(item)
            if item.kind == "spell" and not to_play:
                dest = item.data.get("dest", "graveyard")
                if dest == "library_shuffle":
                    self._to_zone(item.card, "library_top")
                    self._shuffle_library(item.card.owner)
                    self._log(f"{item.label} is shuffled into its owner's library")
                else:
                    self._to_zone(item.card, dest)
        self._flush_damage_triggers()
        self.prio = self.active
        self.passes = 0

    def _counter(self, item: StackItem) -> None:
        if item in self.stack:
            self.stack.remove(item)
            if item.kind == "spell":
                self._to_zone(item.card, "graveyard")

    def _ask_copy_choice(self, item: StackItem) -> bool:
        """Clone: "As Clone comes into play, you may choose a creature in play." The choice is
        made as the spell resolves, by its controller; it doesn't target (shroud doesn't stop
        it). Pushes a choose-cards decision (0 or 1 creature) and returns True if there is one."""
        st = item.card.cdef.static
        spec = next((s for s in st if s.kind == "copy_as_enters"), None) if st else None
        if spec is None:
            return False
        self._fresh()
        flt = spec.params.get("filter", {})
        cands = [("o", p.id) for p in self.perms.values()
                 if fx.matches_filter(p, flt, item.controller)]
        item.data["copy"] = None
        if not cands:
            return False
        self.frames.append(self._choose_frame(item.controller, cands, 0, 1, "copy",
                                              f"{item.label}: you may choose a creature to copy",
                                              then={"op": "copy_as_enters"}, sid=item.id))
        return True

    def _resolve_permanent_spell(self, item: StackItem) -> None:
        cdef = item.card.cdef
        attach = None
        if cdef.enchant is not None:
            attach = item.targets[0][1]
        self._log(f"{item.label} resolves")
        self.stack.remove(item)
        copy_of = None
        pid = item.data.get("copy")
        if pid is not None and pid in self.perms:
            # 2007 CR 503 (copy): the copiable values are the original's printed values as
            # modified by other copy effects (its ``cdef``), not counters, pumps or Auras.
            copy_of = self.perms[pid].cdef.name
            self._log(f"{item.label} comes into play as a copy of {self.perms[pid].card.label}")
        self._put_into_play(item.card, item.controller, attach_to=attach, copy_of=copy_of,
                            cast_from_hand=bool(item.data.get("from_hand")),
                            chosen=item.data.get("chosen"))
