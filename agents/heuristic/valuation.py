"""How much effects, spells, permanents and abilities are worth to the player deciding (the scores
every decision handler compares).

A part of :class:`~agents.heuristic.HeuristicAgent` (mixed into it), reading the redacted
view and the rules data of the cards."""

from __future__ import annotations

import copy

from mtg_env.engine.abilities import TargetSpec
from mtg_env.engine.actions import Action, Decision
from mtg_env.engine.effects import matches_filter
from mtg_env.engine.errors import MtgError
from mtg_env.engine.filters import cached_filter
from mtg_env.engine.model import Card, CardDef
from mtg_env.engine.view import PermanentView, PlayerView

from ..evaluation import (
    LETHAL,
    amount_of,
    card_value,
    creature_value,
    effect_value,
    face_weight,
    fight,
    incoming,
    permanent_value,
    regeneration_on_the_way,
    static_aura_value,
    target_candidates,
    threats,
    trample_through,
)
from .common import MAIN_STEPS, OP_WEIGHT, filter_matches, focus_opponent, other_side


class Valuation:
    """Mixed into :class:`~agents.heuristic.HeuristicAgent`: how much effects, spells,
    permanents and abilities are worth to the player deciding (the scores every decision
    handler compares)."""

    def _effects_value(self, view: PlayerView, me: int, specs: tuple[TargetSpec, ...],
                       effects: tuple[dict, ...], targets: list[tuple | None], x: int,
                       source: int | None = None, in_combat: bool = False) -> float:
        """Value for ``me`` of resolving ``effects`` with these targets."""
        total = 0.0
        for e in effects:
            if e.get("op") == "prevent_all_damage":
                total += self._prevent_all_value(view, me, e) if in_combat else 0.0
                continue
            if e.get("op") == "prevent_next_from_chosen_source":
                total += self._chosen_source_value(view, me, source)
                continue
            if e.get("op") in ("copy_spell", "change_target"):
                if self._redirect_depth > 3:  # Twincasts copying Twincasts (Shunt can loop them)
                    continue
                self._redirect_depth += 1
                try:
                    total += sum(self._spell_redirect_value(view, me, e["op"], ref, in_combat)
                                 for ref in self._refs(view, me, e, targets, source))
                finally:
                    self._redirect_depth -= 1
                continue
            if e.get("op") in ("additional_combat_phase", "end_the_turn"):
                total += self._turn_value(view, me, e["op"])
                continue
            if e.get("op") == "search_library":  # I search: no reference to resolve
                total += self._search_value(view, me, e)
                continue
            if e.get("op") in ("unless_pays", "may_pay"):
                # A cost paid on resolution: the nested effects happen if it is (may) or isn't
                # (unless) paid; an "unless" may well be paid, so it counts for half.
                inner = self._effects_value(view, me, specs, tuple(e.get("effects", ())), targets,
                                            x, source, in_combat)
                total += inner if e["op"] == "may_pay" else 0.5 * inner
                continue
            for ref in self._refs(view, me, e, targets, source):
                op = e.get("op")
                if op in ("pump", "regenerate", "grant") and ref[0] == "o":
                    saved = self._save_value(view, me, ref[1], e, x)
                    if saved:
                        total += saved
                        continue
                if in_combat and op in ("pump", "grant") and ref[0] == "o":
                    total += self._combat_pump_value(view, me, ref[1], e, x)
                else:
                    total += effect_value(view, me, e, ref, x, in_combat)
        return total

    def _search_value(self, view: PlayerView, me: int, e: dict) -> float:
        """A card searched out of my library (Rampant Growth, Diabolic Tutor): a basic land put
        into play is a land drop ahead, worth most while my hand holds spells my lands can't pay
        for yet; a card to my hand is a card drawn; nothing when no card of my library matches."""
        try:
            test = cached_filter(e.get("filter") or {}, "card").test
            found = [c for c in view.library if test(c, me)]
        except MtgError:  # a filter on X (Citanul Flute): any card may do
            found = list(view.library)
        if not found:
            return 0.0
        if e.get("to") in ("play", "play_tapped") and all(c.cdef.is_land for c in found):
            lands = sum(1 for p in view.controlled_by(me) if p.is_land)
            if lands >= 7:
                return 1.0
            waiting = sum(1 for c in view.me.hand or () if not c.cdef.is_land
                          and c.cdef.cost.cmc > lands)
            return 3.0 + 0.5 * min(waiting, 3)
        return OP_WEIGHT["search_library"]

    def _turn_value(self, view: PlayerView, me: int, op: str) -> float:
        """Value for ``me`` of another combat this turn (my creatures able to attack, by power)
        or of ending the turn (the stack removed, like countering all of it; attackers stopped)."""
        if op == "additional_combat_phase":
            if view.active != me:
                return 0.0
            power = sum(max(p.power, 0) for p in view.permanents
                        if p.controller == me and p.is_creature and not p.sick)
            opp_life = view.players[focus_opponent(view)].life
            return LETHAL if power and power >= opp_life else power * face_weight(opp_life)
        total = sum(effect_value(view, me, {"op": "counter_spell"}, ("s", s.id))
                    for s in view.stack)
        life = view.players[me].life
        hit = sum(max(p.power, 0) for p in view.permanents if p.attacking and p.controller != me)
        if hit:
            total += LETHAL if hit >= life else hit * face_weight(life)
        return total

    def _spell_redirect_value(self, view: PlayerView, me: int, op: str, ref: tuple,
                              in_combat: bool) -> float:
        """Value for ``me`` of copying a spell with the best targets, the current ones kept if
        better (Twincast), or of moving a single-target spell's target to the best other one,
        against where it goes now (Shunt: an opponent's burn turned on them)."""
        s = view.stack_object(ref[1]) if ref[0] == "s" else None
        if s is None or s.kind != "spell" or s.card is None:
            return 0.0
        specs, effects, _, colors = self._item_info(view, s)
        cur = [tuple(t) for t in s.targets]
        now = self._effects_value(view, me, specs, effects, cur, s.x, None, in_combat)
        if op == "copy_spell":
            if not s.card.cdef.types & {"Instant", "Sorcery"} or any(
                    e.get("op") == "copy_spell" for e in effects):
                # A copy of a Twincast could copy that Twincast again and again: never worth it.
                return 0.0
            if not cur:
                return now
            best = self._best_targets(view, me, specs, effects, s.x, None, colors, in_combat)[0]
            return max(now, best)
        if len(cur) != 1 or not specs:
            return 0.0
        others = [c for c in target_candidates(view, specs[0], s.controller, colors)
                  if c != cur[0] and c != ref]
        if not others:
            return 0.0
        best = max(self._effects_value(view, me, specs, effects, [c], s.x, None, in_combat)
                   for c in others)
        return best - now

    def _prevent_all_value(self, view: PlayerView, me: int, e: dict) -> float:
        """Value for ``me`` of preventing all combat damage this turn (Holy Day), or all damage
        from sources of some colors (Luminesce), judged on the combat in progress."""
        colors = set(e.get("source_colors") or ())

        def stopped(p: PermanentView) -> bool:  # is this creature's damage prevented?
            return not colors or bool(colors & p.colors)

        def side(p: PermanentView) -> float:
            return 1.0 if p.controller == me else -1.0

        total = 0.0
        for att in view.permanents:
            if not att.attacking or not stopped(att):
                continue
            defender = other_side(view, att.controller)
            life = view.players[defender].life
            blockers = [b for b in (view.perm(i) for i in att.blockers) if b is not None]
            face = att.power if not att.blocked else trample_through(att, blockers)
            if face > 0:
                gain = LETHAL if face >= life else face * face_weight(life)
                total += gain if defender == me else -gain
            if blockers:
                _, dying = fight(att, blockers)
                total += sum(side(b) * creature_value(b) for b in blockers if b.id in dying)
        for att in view.permanents:  # attackers the blockers' damage would kill
            if att.attacking and att.blocked:
                blockers = [b for b in (view.perm(i) for i in att.blockers) if b is not None]
                if blockers and all(stopped(b) for b in blockers) and fight(att, blockers)[0]:
                    total += side(att) * creature_value(att)
        return total

    def _save_value(self, view: PlayerView, me: int, pid: int, e: dict, x: int) -> float:
        """Value of an effect that saves my creature from what the stack is about to do to it."""
        p = view.perm(pid)
        if p is None or p.controller != me or not p.is_creature:
            return 0.0
        dmg, destroy = incoming(view, me)
        left = p.toughness - p.damage
        n = dmg.get(pid, 0)
        op = e.get("op")
        if op == "regenerate":
            doomed = destroy.get(pid) == "destroy" or n >= left
            shielded = p.regen_shields > 0 or pid in regeneration_on_the_way(view)
            return creature_value(p) if doomed and not shielded else 0.0
        if op == "pump" and pid not in destroy and n >= left:
            t = amount_of(e.get("t", 0), x)
            return creature_value(p) if n < left + t else 0.0
        if op == "grant" and pid in dmg and any(k.startswith("protection_from") or k == "shroud"
                                                for k in e.get("keywords", ())):
            return creature_value(p) if n >= left else 0.0
        return 0.0

    def _refs(self, view: PlayerView, me: int, e: dict, targets: list[tuple | None],
              source: int | None) -> list[tuple]:
        key = "target" if "target" in e else "who" if "who" in e else None
        v = e.get(key) if key else ("controller" if e.get("op") in (
            "gain_life", "draw", "lose_life", "create_token", "put_from_hand") else None)
        if v is None:
            return []
        if isinstance(v, int):
            if v < len(targets) and targets[v] is not None:
                return [targets[v]]
            return []
        if v == "self":
            return [("o", source)] if source is not None else []
        if v == "controller":
            return [("p", me)]
        if v == "opponent":
            return [("p", focus_opponent(view))]
        if v == "each_player":
            return [("p", 0), ("p", 1)]
        if isinstance(v, dict) and "controller_of" in v:  # "that permanent's controller"
            t = v["controller_of"]
            tgt = targets[t] if isinstance(t, int) and t < len(targets) else None
            p = view.perm(tgt[1]) if tgt is not None and tgt[0] == "o" else None
            return [("p", p.controller)] if p is not None else []
        if isinstance(v, dict) and "target_player" in v.values():  # "target player owns"
            tp = next((t[1] for t in targets if t is not None and t[0] == "p"), None)
            if tp is None:
                return []
            v = {k: ("you" if tp == me else "opponent") if w == "target_player" else w
                 for k, w in v.items()}
        if isinstance(v, dict):
            out = []
            for p in view.permanents:
                try:
                    if matches_filter(p, v, me):
                        out.append(("o", p.id))
                except (MtgError, AttributeError):
                    continue
            return out
        if v in ("equipped", "enchanted") and source is not None:
            src = view.perm(source)
            if src is not None and src.attached_to is not None:
                return [("o", src.attached_to)]
        return []

    def _best_targets(self, view: PlayerView, me: int, specs: tuple[TargetSpec, ...],
                      effects: tuple[dict, ...], x: int, source: int | None,
                      colors: frozenset[str], in_combat: bool,
                      fixed: list[tuple] | None = None) -> tuple[float, list[tuple | None]]:
        """Choose each target in turn to maximise the value; returns (value, targets)."""
        targets: list[tuple | None] = list(fixed or [])
        for ti in range(len(targets), len(specs)):
            cands = target_candidates(view, specs[ti], me, colors)
            cands = [c for c in cands if c not in targets]
            if not cands:
                return -LETHAL, targets
            best, best_v = None, -float("inf")
            for c in cands:
                val = self._effects_value(view, me, specs, effects, [*targets, c], x, source, in_combat)
                if val > best_v:
                    best, best_v = c, val
            targets.append(best)
        return self._effects_value(view, me, specs, effects, targets, x, source, in_combat), targets

    def _in_combat(self, view: PlayerView) -> bool:
        """Blockers are declared and combat damage is still to be dealt (2007: or it is on the
        stack, where a pump or regeneration still changes who dies)."""
        if not any(p.attacking for p in view.permanents):
            return False
        if view.step == "declare_blockers":
            return True
        return view.step == "combat_damage" and any(s.kind == "combat_damage" for s in view.stack)

    def _combat_pump_value(self, view: PlayerView, me: int, pid: int, e: dict, x: int) -> float:
        tgt = view.perm(pid)
        if tgt is None or not tgt.is_creature:
            return 0.0
        op = e.get("op")
        if op == "pump":
            p = e.get("p", 0) if isinstance(e.get("p", 0), int) else x
            t = e.get("t", 0) if isinstance(e.get("t", 0), int) else x
            kws: tuple = ()
        else:
            p = t = 0
            kws = tuple(e.get("keywords", ()))
        sign = 1.0 if tgt.controller == me else -1.0
        if not (tgt.attacking or tgt.blocking):
            return sign * 0.05 * (p + t)
        pumped = copy.copy(tgt)
        if view.step == "declare_blockers":
            pumped.power += p  # once combat damage is on the stack only toughness still counts
        pumped.toughness += t
        if kws:
            pumped.keywords = tgt.keywords | frozenset(kws)
        value = 0.0
        opp_life = view.players[other_side(view, tgt.controller)].life
        if tgt.attacking:
            blockers = [b for b in (view.perm(i) for i in tgt.blockers) if b is not None]
            if not tgt.blocked:
                if view.step != "declare_blockers":
                    return 0.0  # its damage is already assigned
                gain = pumped.power - tgt.power
                unblocked = self._unblocked_damage(view, tgt.controller)
                if gain > 0 and unblocked < opp_life <= unblocked + gain:
                    return sign * LETHAL
                return sign * gain * face_weight(opp_life) * 0.6
            if not blockers:
                return 0.0
            a0, d0 = fight(tgt, blockers)
            a1, d1 = fight(pumped, blockers)
            value += (creature_value(tgt) if a0 and not a1 else 0.0)
            value += sum(creature_value(b) for b in blockers if b.id in d1 and b.id not in d0)
            gain = trample_through(pumped, blockers) - trample_through(tgt, blockers)
            if view.step != "declare_blockers":
                gain = 0
            value += gain * face_weight(opp_life) * 0.6
        else:
            for aid in tgt.blocking:
                att = view.perm(aid)
                if att is None:
                    continue
                group = [b for b in (view.perm(i) for i in att.blockers) if b is not None]
                a0, d0 = fight(att, group)
                a1, d1 = fight(att, [pumped if b.id == tgt.id else b for b in group])
                value += creature_value(att) if a1 and not a0 else 0.0
                value += creature_value(tgt) if tgt.id in d0 and tgt.id not in d1 else 0.0
        return sign * value

    def _unblocked_damage(self, view: PlayerView, attacker_player: int) -> int:
        total = 0
        for p in view.permanents:
            if p.controller == attacker_player and p.attacking:
                if not p.blocked:
                    total += max(p.power, 0) * (2 if "double_strike" in p.keywords else 1)
                else:
                    bl = [b for b in (view.perm(i) for i in p.blockers) if b is not None]
                    total += trample_through(p, bl)
        return total

    # -- spells -------------------------------------------------------------------------------
    def _spell_score(self, view: PlayerView, card: Card) -> float:
        """Value of casting ``card`` now (timing included); <= 0 means not now."""
        cdef = card.cdef
        me = view.viewer
        my_turn = view.active == me
        step = view.step
        main1 = my_turn and step == "precombat_main" and not view.stack
        main2 = my_turn and step == "postcombat_main" and not view.stack
        if cdef.is_permanent_card:
            val = self._permanent_spell_value(view, cdef)
            if "Creature" in cdef.types:
                if "flash" in cdef.keywords:
                    # A flash creature comes in on the opponent's turn: a blocker they did not
                    # see when they attacked, or at their end of turn with the mana I kept.
                    return val if (not my_turn and not view.stack
                                   and step in ("declare_attackers", "end_of_turn")) else 0.0
                return val if main2 or (main1 and "haste" in cdef.keywords) else 0.0
            if cdef.enchant is not None or "Equipment" in cdef.subtypes:
                return val if main1 or main2 else 0.0
            return val if main2 else 0.0
        instant = "Instant" in cdef.types
        val = self._nonpermanent_value(view, card)
        if val >= LETHAL / 2:
            return val
        threshold = 1.5 + 0.5 * cdef.cost.cmc
        if (instant and not my_turn and step == "end_of_turn" and not view.stack
                and any(e.get("op") == "draw" and "target" not in e for e in cdef.spell_effects)):
            threshold = 1.5  # a cantrip at the opponent's end of turn costs no mana I could use
        if not instant:
            return val - threshold + 0.01 if (main1 or main2) and val >= threshold else 0.0
        # An instant: use it when the moment is right.
        top = view.stack[-1] if view.stack else None
        if top is not None and top.controller != me:
            return val - threshold + 0.01 if val >= threshold else 0.0  # a response
        if threats(view, me):
            return val - threshold + 0.01 if val >= threshold else 0.0
        if self._in_combat(view) and step == "declare_blockers":
            return val - threshold + 0.01 if val >= threshold else 0.0
        if not my_turn and step in ("declare_attackers", "end_of_turn"):
            return val - threshold + 0.01 if val >= threshold else 0.0
        if main1 and val >= threshold + 1.0:
            return val - threshold
        return 0.0

    def _permanent_spell_value(self, view: PlayerView, cdef: CardDef) -> float:
        me = view.viewer
        if "Creature" in cdef.types:
            return card_value(cdef) + 1.0
        if cdef.enchant is not None:
            best = -LETHAL
            for ref in target_candidates(view, cdef.enchant, me, cdef.colors):
                if ref[0] != "o":
                    continue
                host = view.perm(ref[1])
                if host is not None:
                    best = max(best, static_aura_value(cdef, host, me))
            return best
        if "Equipment" in cdef.subtypes:
            return 1.0 + 0.5 * max((static_aura_value(cdef, p, me) for p in view.creatures(me)),
                                   default=0.0)
        if cdef.static and any(s.kind == "chosen_name_abilities_cant_be_played"
                               for s in cdef.static):
            # Pithing Needle: worth what it would stop among the opponent's cards seen so far.
            return self._best_name_to_stop(view)[1]
        copy = next((s for s in cdef.static or () if s.kind == "copy_as_enters"), None)
        if copy is not None:  # Sculpting Steel: worth the best artifact it may copy
            flt = copy.params.get("filter", {})
            return max((permanent_value(p, view) for p in view.permanents
                        if filter_matches(p, flt, me)), default=0.0)
        return 1.0 + 0.5 * cdef.cost.cmc

    def _nonpermanent_value(self, view: PlayerView, card: Card) -> float:
        cdef = card.cdef
        me = view.viewer
        in_combat = self._in_combat(view)
        x = max(self._available_mana(view) - cdef.cost.cmc, 0) if cdef.x_spell else 0
        if cdef.modes:
            return max((self._best_targets(view, me, tuple(m.get("targets", ())), tuple(m.get("effects", ())),
                                           x, None, cdef.colors, in_combat)[0] for m in cdef.modes),
                       default=0.0)
        if cdef.spell_custom == "mind_bend":
            plans = self._text_plans(view)
            return 2.0 + plans[0][0] if plans and plans[0][0] > 0 else 0.0
        if cdef.spell_custom == "warp_world":
            return self._warp_world_value(view) if view.step in MAIN_STEPS else 0.0
        if not cdef.spell_effects:
            return 0.5 + 0.5 * cdef.cost.cmc if view.step in MAIN_STEPS else 0.0
        if cdef.spell_targets and cdef.spell_targets[-1].divided:
            return max(self._divided_plan(view, me, cdef.spell_targets[-1], xi, cdef.colors)[0]
                       - 0.01 * xi for xi in range(x + 1))
        if cdef.x_spell:
            return max(self._best_targets(view, me, cdef.spell_targets, cdef.spell_effects, xi, None,
                                          cdef.colors, in_combat)[0] - 0.01 * xi
                       for xi in range(x + 1))
        return self._best_targets(view, me, cdef.spell_targets, cdef.spell_effects, 0, None,
                                  cdef.colors, in_combat)[0]

    # -- abilities ----------------------------------------------------------------------------
    def _ability_score(self, view: PlayerView, a: Action) -> float:
        me = view.viewer
        pid, index = a.args
        src = view.perm(pid)
        if src is None:
            return 0.0
        ab = src.activated[index]
        cost = ab.cost
        my_turn = view.active == me
        step = view.step
        threatened = threats(view, me)
        dying = pid in threatened
        ops = {e.get("op") for e in ab.effects}
        in_combat = self._in_combat(view)
        # Equip: sorcery speed, onto the best creature that isn't carrying it.
        if ops == {"attach"}:
            if not (my_turn and step == "precombat_main"):
                return 0.0
            host = view.perm(src.attached_to) if src.attached_to is not None else None
            mine = host is not None and host.controller == me
            current = static_aura_value(src.cdef, host, me) if mine else 0.0
            best = max((static_aura_value(src.cdef, p, me) + (1.0 if not p.sick else 0.0)
                        for p in view.creatures(me) if p.id != src.attached_to), default=0.0)
            return best - current - 0.5 if host is None or best > current + 1.5 else 0.0
        if cost.pay_life and view.me.life - cost.pay_life < 8:
            return 0.0
        if cost.discard:
            return 0.0
        if cost.sacrifice and not dying and not any(
                p.controller == me and filter_matches(p, cost.sacrifice, me) for p in
                (view.perm(t) for t in threatened) if p is not None):
            return 0.0  # only sacrifice what is about to die anyway
        if "regenerate" in ops:
            targets = self._refs(view, me, next(e for e in ab.effects if e.get("op") == "regenerate"),
                                 [], pid)
            coming = regeneration_on_the_way(view)
            for kind, tid in targets:
                p = view.perm(tid) if kind == "o" else None
                if (p is not None and p.regen_shields == 0 and tid not in coming
                        and threatened.get(tid) in ("damage", "destroy")):
                    return creature_value(p)
            return 0.0
        if ops == {"search_library"} and cost.sacrifice_self and "Land" in src.types:
            # A fetch land (Terramorphic Expanse) is worth trading for the land it finds; at an
            # end of turn the tapped land it puts into play untaps before it is needed.
            return 0.6 if step == "end_of_turn" else 0.0
        x = max(self._available_mana(view) - cost.mana.cmc, 0) if ab.x else 0
        colors = src.colors
        val, _ = self._best_targets(view, me, ab.targets, ab.effects, x, pid, colors,
                                    in_combat and ops <= {"pump", "grant"} | {"deal_damage"})
        if val <= 0:
            return 0.0
        if val >= LETHAL / 2:
            return val
        # What it costs to use: the source when sacrificed, the creature's attack when tapped.
        penalty = 0.0
        if cost.sacrifice_self:
            penalty += 0.0 if dying else permanent_value(src) + 0.5
        if cost.tap and src.is_creature and my_turn and step in ("precombat_main", "beginning_of_combat"):
            penalty += 1.0
        if cost.pay_life:
            penalty += 0.5 * cost.pay_life
        if ops <= {"pump", "grant"}:
            return val - 0.2 - 0.1 * cost.mana.cmc if in_combat else 0.0
        if "tap" in ops and not ops & {"deal_damage", "destroy"}:
            if step != "beginning_of_combat":
                return 0.0
            if my_turn and not self._tap_helps_my_attack(view):
                return 0.0  # kept for the opponent's combat: a tapper used now is tapped then
            return val - penalty
        # Mana spent in my own combat is mana my second main phase can't use: only for a kill.
        combat_ok = in_combat and (not my_turn or cost.mana.cmc == 0 or val >= 2.0)
        timing_ok = (dying or combat_ok or (not my_turn and step == "end_of_turn")
                     or (view.stack and view.stack[-1].controller != me)
                     or (ab.sorcery_speed and my_turn and step in MAIN_STEPS))
        if not cost.tap and not cost.sacrifice_self and cost.mana.cmc == 0:
            timing_ok = timing_ok or step == "end_of_turn"
        if not timing_ok:
            return 0.0
        if cost.sacrifice_self and not dying and val - penalty < 0.5:
            return 0.0
        return val - penalty - 0.05

    # -- targets, modes, X --------------------------------------------------------------------
    def _stack_context(self, view: PlayerView, d: Decision):
        sid = d.context.get("stack_id")
        return view.stack_object(sid) if sid is not None else None

    def _item_info(self, view: PlayerView, item) -> tuple[tuple, tuple, int | None, frozenset[str]]:
        """(target specs, effects, source permanent id, source colors) of a stack object."""
        if item.kind == "spell" and item.card is not None:
            cdef = item.card.cdef
            if cdef.enchant is not None:
                return (cdef.enchant,), (), None, cdef.colors
            return item.target_specs, item.effects, None, cdef.colors
        src = view.perm(item.source) if item.source is not None else None
        return item.target_specs, item.effects, item.source, src.colors if src else frozenset()

    def _warp_world_value(self, view: PlayerView) -> float:
        """Warp World: worth playing only well behind on board (what each side has in play;
        each gets back about as many permanents, drawn at random from its deck)."""
        me = view.viewer
        mine = sum(permanent_value(p, view) for p in view.controlled_by(me) if not p.is_land)
        theirs = sum(permanent_value(p, view) for p in view.controlled_by(focus_opponent(view))
                     if not p.is_land)
        return max(theirs - mine - 4.0, 0.0)

    def _chosen_source_value(self, view: PlayerView, me: int, source: int | None) -> float:
        """Story Circle's shield is worth the damage an opponent's source of the chosen color is
        about to deal to ``me``: a spell on the stack aimed at me, or an unblocked attacker."""
        p = view.perm(source) if source is not None else None
        color = (p.chosen or {}).get("color") if p is not None else None
        if color is None:
            return 0.0
        best = 0.0
        for s in view.stack:
            if (s.kind == "spell" and s.controller != me and s.card is not None
                    and color in s.card.cdef.colors and ("p", me) in s.targets):
                best = max(best, 3.0)
        for q in view.controlled_by(focus_opponent(view)):
            if q.attacking and not q.blockers and color in q.colors and q.power > 0:
                best = max(best, 0.5 * q.power)
        return best

    def _known_cards(self, view: PlayerView) -> dict[int, Card]:
        out: dict[int, Card] = {}
        for P in view.players:
            for zone in (P.hand or P.known_hand, P.graveyard, P.removed):
                for c in zone:
                    out[c.cid] = c
        for c in view.library:
            out[c.cid] = c
        for s in view.stack:
            if s.card is not None:
                out[s.card.cid] = s.card
        return out

    def _card_keep_value(self, view: PlayerView, cdef: CardDef) -> float:
        """What a card in hand or library is worth keeping, given the lands already in play."""
        if cdef.is_land:
            lands = sum(1 for p in view.controlled_by(view.viewer) if p.is_land)
            hand_lands = sum(1 for c in view.me.hand or () if c.cdef.is_land)
            return 6.0 if lands + hand_lands < 5 else 1.0
        return card_value(cdef) - 0.3 * max(cdef.cost.cmc - self._available_mana(view) - 1, 0)
