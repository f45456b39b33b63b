"""A competent rules-aware baseline player.

:class:`HeuristicAgent` reads the card definitions' rules data (effect ops, targets, keywords,
costs, static abilities) from the redacted view, so it plays cards it was never told about:

- **Mulligans**: keeps seven-card hands with two to five lands, six-card hands with two to four,
  anything smaller.
- **Lands and mana**: plays a land every turn (the one whose color the hand needs most) and never
  taps for mana by hand: costs are paid by the engine's automatic payer, so no mana floats and no
  mana burns.
- **Spells**: in the main phase it chooses the set of castable spells worth the most that its mana
  can pay for; removal and burn go to the target worth the most (the opponent's face when it is
  lethal); instants are held for the opponent's turn: removal on attackers or at end of turn,
  counterspells on spells worth countering, pump spells and regeneration to win fights or save a
  creature from damage or destruction on the stack (combat damage included, 2007 rules).
- **Combat**: attacks with creatures that can't be blocked profitably (no blocker kills them
  without dying, or the trade is in its favour), with everything when that is lethal, and keeps
  enough blockers home not to die on the crack-back. Blocks to kill attackers, trade up, absorb
  damage for free and chump only to survive; divides combat damage to kill the most.
- **Abilities**: pingers and other tap abilities at the opponent's end of turn, sacrifice
  abilities when the source is dying anyway or the effect is worth more than the source, equip
  on its best creature, tap effects at the beginning of combat.
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Callable

from mtg_env.engine.actions import Action, Decision, DecisionKind
from mtg_env.engine.effects import matches_filter
from mtg_env.engine.errors import MtgError
from mtg_env.engine.model import COLOR_NAMES, LANDWALK, Card, CardDef, TargetSpec
from mtg_env.engine.rules import tap_mana_ability
from mtg_env.engine.view import PermanentView, PlayerView

from .base import BaseAgent
from .evaluation import (
    LETHAL,
    amount_of,
    can_block,
    card_value,
    creature_value,
    effect_value,
    face_weight,
    fight,
    incoming,
    permanent_value,
    static_aura_value,
    target_candidates,
    threats,
    trample_through,
)

__all__ = ["HeuristicAgent"]

log = logging.getLogger(__name__)
K = DecisionKind
MAIN_STEPS = ("precombat_main", "postcombat_main")
COLOR_LETTERS = "WUBRG"
LAND_TYPES = ("Plains", "Island", "Swamp", "Mountain", "Forest")  # Mind Bend's mode slots
_COLOR_OF = {name: c for c, name in COLOR_NAMES.items()}
HARMFUL_CHOICES = ("discard", "sacrifice", "return", "bounce", "destroy", "remove", "exile", "tap",
                   "put on the top")


class HeuristicAgent(BaseAgent):
    """A rules-aware scripted player (see the module docstring for what it does). It is
    deterministic: the same view always gets the same answer (``seed`` is accepted for the
    common agent signature).

    ``strict=True`` lets an internal error propagate (tests); by default an error is logged once
    and the agent falls back to a safe option, so a long simulation never dies on a card the
    heuristic mis-reads.
    """

    name = "heuristic"

    def __init__(self, seed: int = 0, strict: bool = False) -> None:
        super().__init__(seed)
        self.strict = strict
        self.errors = 0
        self._plan_key: tuple | None = None
        self._plan: list[tuple[int, ...]] = []
        self._redirect_depth = 0  # nesting of copy/retarget valuations (spells on spells)
        self._handlers: dict[DecisionKind, Callable[[PlayerView, Decision], Action | None]] = {
            K.MULLIGAN: self._mulligan,
            K.PRIORITY: self._priority,
            K.TARGET: self._target,
            K.MODE: self._mode,
            K.X_VALUE: self._x_value,
            K.DECLARE_ATTACKERS: self._attack,
            K.DECLARE_BLOCKERS: self._block,
            K.COMBAT_DAMAGE: self._assign,
            K.CHOOSE_CARDS: self._choose,
            K.YES_NO: self._yes_no,
            K.CHOOSE_PLAYER: self._choose_player,
            K.ORDER_REPLACEMENTS: self._order_replacements,
            K.CHOOSE_COLOR: self._choose_color,
            K.DIVIDE: self._divide,
            K.CHOOSE_CARD_NAME: self._name_card,
        }

    def reset(self, player: int, seed: int) -> None:
        super().reset(player, seed)
        self._plan_key = None
        self._plan = []

    # -- entry point --------------------------------------------------------------------------
    def act(self, view: PlayerView) -> Action:
        d = view.decision
        if d is None:
            raise ValueError(f"player {view.viewer} has no decision to make")
        if len(d.options) == 1:
            return d.options[0]
        handler = self._handlers.get(d.kind)
        try:
            choice = handler(view, d) if handler is not None else None
        except Exception:
            if self.strict:
                raise
            self.errors += 1
            if self.errors == 1:
                log.exception("HeuristicAgent failed on %s; falling back", d)
            choice = None
        return choice if choice is not None else self._fallback(d)

    def _fallback(self, d: Decision) -> Action:
        for verb in ("pass", "done", "keep", "no"):
            for a in d.options:
                if a.verb == verb:
                    return a
        return d.options[0]

    # -- helpers ------------------------------------------------------------------------------
    @staticmethod
    def _hand(view: PlayerView) -> dict[int, Card]:
        return {c.cid: c for c in view.me.hand or ()}

    @staticmethod
    def _mana_sources(view: PlayerView, player: int, untapped_only: bool = True) -> list[PermanentView]:
        """The permanents of ``player`` with a {T}-only mana ability they could play now (or
        once untapped, with ``untapped_only=False``)."""
        out = []
        for p in view.permanents:
            if p.controller != player or (untapped_only and p.tapped):
                continue
            if tap_mana_ability(p, once_untapped=True) is not None:
                out.append(p)
        return out

    def _available_mana(self, view: PlayerView) -> int:
        return sum(view.me.mana_pool) + len(self._mana_sources(view, view.viewer))

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

    def _turn_value(self, view: PlayerView, me: int, op: str) -> float:
        """Value for ``me`` of another combat this turn (my creatures able to attack, by power)
        or of ending the turn (the stack removed, like countering all of it; attackers stopped)."""
        if op == "additional_combat_phase":
            if view.active != me:
                return 0.0
            power = sum(max(p.power, 0) for p in view.permanents
                        if p.controller == me and p.is_creature and not p.sick)
            opp_life = view.players[1 - me].life
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
            defender = 1 - att.controller
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
            return creature_value(p) if doomed and p.regen_shields == 0 else 0.0
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
            return [("p", 1 - me)]
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
        opp_life = view.players[1 - tgt.controller].life
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

    # -- mulligan -----------------------------------------------------------------------------
    def _mulligan(self, view: PlayerView, d: Decision) -> Action:
        hand = view.me.hand or ()
        n = len(hand)
        lands = sum(1 for c in hand if c.cdef.is_land)
        keep = n <= 5 or (2 <= lands <= 5 if n >= 7 else 2 <= lands <= 4)
        return _find(d, "keep" if keep else "mulligan") or d.options[0]

    # -- priority -----------------------------------------------------------------------------
    def _priority(self, view: PlayerView, d: Decision) -> Action | None:
        me = view.viewer
        my_turn = view.active == me
        hand = self._hand(view)
        if my_turn and view.step in MAIN_STEPS and not view.stack:
            # Lands in hand, or in the graveyard with Crucible of Worlds.
            cards = {**{c.cid: c for c in view.me.graveyard or ()}, **hand}
            lands = [a for a in d.options if a.verb == "play" and cards.get(a.args[0])
                     and cards[a.args[0]].cdef.is_land]
            if lands:
                return self._best_land(view, lands, cards, hand)
        if view.stack and view.stack[-1].controller == me and view.stack[-1].kind != "combat_damage":
            # Let my own spell or ability resolve, unless a copy of it is worth its cost.
            return self._copy_own_spell(view, d, hand) or _find(d, "pass")
        scored: list[tuple[float, int, Action]] = []
        for i, a in enumerate(d.options):
            if a.verb == "play":
                card = hand.get(a.args[0])
                if card is None or card.cdef.is_land:
                    continue
                val = self._spell_score(view, card)
            elif a.verb == "activate":
                val = self._ability_score(view, a)
            else:
                continue
            if val > 0:
                scored.append((val, -i, a))
        if not scored:
            return _find(d, "pass")
        if my_turn and view.step in MAIN_STEPS and not view.stack:
            return self._main_phase_choice(view, scored, hand)
        scored.sort(key=lambda s: (s[0], s[1]), reverse=True)
        return scored[0][2]

    def _copy_own_spell(self, view: PlayerView, d: Decision, hand: dict[int, Card]) -> Action | None:
        """Twincast on my own spell on top of the stack, if the copy is worth the card."""
        for a in d.options:
            card = hand.get(a.args[0]) if a.verb == "play" else None
            if card is None or not any(e.get("op") == "copy_spell"
                                       for e in card.cdef.spell_effects or ()):
                continue
            if self._nonpermanent_value(view, card) >= 1.5 + 0.5 * card.cdef.cost.cmc:
                return a
        return None

    def _best_land(self, view: PlayerView, lands: list[Action], cards: dict[int, Card],
                   hand: dict[int, Card]) -> Action:
        """The land to play (``cards``: the playable land cards by id); one from the graveyard
        first at equal need, since it keeps a card in hand."""
        need = [0.0] * 5
        for c in hand.values():
            for i, n in enumerate(c.cdef.cost.colored):
                need[i] += n
        have = [0] * 5
        for p in self._mana_sources(view, view.viewer, untapped_only=False):
            for ab in p.activated:
                for col in ab.mana or ():
                    if col in "WUBRG":
                        have["WUBRG".index(col)] += 1

        def score(a: Action) -> tuple[float, int]:
            cdef = cards[a.args[0]].cdef
            s = 0.0
            for col in cdef.mana_colors:
                if col in "WUBRG":
                    i = "WUBRG".index(col)
                    s += need[i] / (1 + have[i])
            s += 0.1 * len(set(cdef.mana_colors))
            if a.args[0] not in hand:
                s += 0.05
            return s, -lands.index(a)

        return max(lands, key=score)

    def _main_phase_choice(self, view: PlayerView, scored: list[tuple[float, int, Action]],
                           hand: dict[int, Card]) -> Action:
        """Pick the next spell or ability in my main phase: the best set my mana can pay for."""
        mana = self._available_mana(view)
        items = []
        for val, order, a in scored:
            if a.verb == "play":
                cdef = hand[a.args[0]].cdef
                cost = cdef.cost.cmc + (max(mana - cdef.cost.cmc, 0) if cdef.x_spell else 0)
            else:
                src = view.perm(a.args[0])
                cost = src.activated[a.args[1]].cost.mana.cmc if src is not None else 0
            items.append((val, cost, order, a))
        items = items[:12]
        best_set: tuple[float, int] = (-1.0, 0)
        best_items: list = []
        n = len(items)
        for mask in range(1, 1 << n):
            total_v, total_c = 0.0, 0
            chosen = []
            for i in range(n):
                if mask >> i & 1:
                    total_v += items[i][0]
                    total_c += items[i][1]
                    chosen.append(items[i])
            if total_c > mana:
                continue
            key = (total_v, total_c)
            if key > best_set:
                best_set, best_items = key, chosen
        if not best_items:
            return max(items, key=lambda it: (it[0], it[2]))[3]
        # Spend the most expensive first, so cheap spells fill what is left.
        return max(best_items, key=lambda it: (it[1], it[0], it[2]))[3]

    # -- spells -------------------------------------------------------------------------------
    def _spell_score(self, view: PlayerView, card: Card) -> float:
        """Value of casting ``card`` now (timing included); <= 0 means not now."""
        cdef = card.cdef
        me = view.viewer
        my_turn = view.active == me
        step = view.step
        main1 = my_turn and step == "precombat_main" and not view.stack
        main2 = my_turn and step == "postcombat_main" and not view.stack
        instant = "Instant" in cdef.types or "flash" in cdef.keywords
        if cdef.is_permanent_card and not instant:
            val = self._permanent_spell_value(view, cdef)
            if "Creature" in cdef.types:
                return val if main2 or (main1 and "haste" in cdef.keywords) else 0.0
            if cdef.enchant is not None or "Equipment" in cdef.subtypes:
                return val if main1 or main2 else 0.0
            return val if main2 else 0.0
        val = self._nonpermanent_value(view, card)
        if val >= LETHAL / 2:
            return val
        threshold = 1.5 + 0.5 * cdef.cost.cmc
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
                        if _matches(p, flt, me)), default=0.0)
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
                p.controller == me and _matches(p, cost.sacrifice, me) for p in
                (view.perm(t) for t in threatened) if p is not None):
            return 0.0  # only sacrifice what is about to die anyway
        if "regenerate" in ops:
            targets = self._refs(view, me, next(e for e in ab.effects if e.get("op") == "regenerate"),
                                 [], pid)
            for kind, tid in targets:
                p = view.perm(tid) if kind == "o" else None
                if p is not None and p.regen_shields == 0 and threatened.get(tid) in ("damage", "destroy"):
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
            return val - penalty if step == "beginning_of_combat" else 0.0
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

    def _target(self, view: PlayerView, d: Decision) -> Action | None:
        item = self._stack_context(view, d)
        if item is None:
            return None
        me = view.viewer
        specs, effects, source, _ = self._item_info(view, item)
        ti = d.context.get("target_index", len(item.targets))
        fixed = [tuple(t) for t in item.targets[:ti]]
        in_combat = self._in_combat(view)
        if item.kind == "spell" and item.card is not None and (
                item.card.cdef.spell_custom == "mind_bend"):
            best = {pid: v for v, pid, _, _ in reversed(self._text_plans(view))}
            return max(d.options, key=lambda a: best.get(a.args[0][1], -LETHAL)
                       if a.args[0][0] == "o" else -LETHAL)
        if item.kind == "spell" and item.card is not None and item.card.cdef.enchant is not None:
            cdef = item.card.cdef

            def score_aura(a: Action) -> float:
                kind, v = a.args[0]
                host = view.perm(v) if kind == "o" else None
                return static_aura_value(cdef, host, me) if host is not None else 0.0

            return max(d.options, key=score_aura)
        if "Equipment" in (view.perm(source).subtypes if source and view.perm(source) else ()):
            src = view.perm(source)

            def score_equip(a: Action) -> float:
                kind, v = a.args[0]
                host = view.perm(v) if kind == "o" else None
                if host is None:
                    return -LETHAL
                return static_aura_value(src.cdef, host, me) + (1.0 if not host.sick else 0.0)

            return max(d.options, key=score_equip)

        if specs and specs[-1].divided:  # damage divided among targets: follow the kill plan
            _, plan = self._divided_plan(view, me, specs[-1], item.x, self._item_info(view, item)[3])
            chosen = {tuple(t) for t in item.targets}
            for ref, _n in plan:
                if ref not in chosen:
                    a = next((o for o in d.options if o.verb == "target"
                              and tuple(o.args[0]) == ref), None)
                    if a is not None:
                        return a
            done = _find(d, "done")
            if done is not None:
                return done
        counted = bool(specs) and getattr(specs[-1], "count", None) is not None
        if counted:  # "up to N" / "X targets": each target valued alone in its spec's place
            fixed = [tuple(t) for t in item.targets[:len(specs) - 1]]

        def score_ref(ref: tuple) -> float:
            targets = [*fixed, ref]
            return self._effects_value(view, me, specs, effects, targets, item.x, source, in_combat)

        def score(a: Action) -> float:
            return score_ref(tuple(a.args[0]))

        opts = [a for a in d.options if a.verb == "target"]
        keep = next((a for a in d.options if a.verb == "keep"), None)
        if keep is not None:  # new targets for a copy (Twincast): keep the current one?
            cur = tuple(d.context.get("current") or ())
            if not opts or (cur and score_ref(cur) >= max(map(score, opts))):
                return keep
        best = max(opts, key=score)
        done = _find(d, "done") if counted else None
        if done is not None and score(best) <= 0:
            return done  # no more targets worth choosing
        return best

    def _mode(self, view: PlayerView, d: Decision) -> Action | None:
        if d.context.get("choice") == "text_change":
            return self._text_change_choice(view, d)
        if d.context.get("choice") == "land_or_nonland":
            # Abundance: instead of a random draw, reveal until the kind of card it needs: a
            # land while it has fewer than five lands in play and in hand, else a nonland.
            lands = sum(1 for p in view.controlled_by(view.viewer) if p.is_land)
            lands += sum(1 for c in view.me.hand or () if c.cdef.is_land)
            return d.options[0] if lands < 5 else d.options[1]
        item = self._stack_context(view, d)
        if item is None or item.card is None:
            return None
        cdef = item.card.cdef
        me = view.viewer

        def score(a: Action) -> float:
            m = cdef.modes[a.args[0]]
            return self._best_targets(view, me, tuple(m.get("targets", ())), tuple(m.get("effects", ())),
                                      item.x, None, cdef.colors, self._in_combat(view))[0]

        return max(d.options, key=score)

    def _x_value(self, view: PlayerView, d: Decision) -> Action | None:
        item = self._stack_context(view, d)
        if item is None:
            return None
        me = view.viewer
        specs, effects, source, colors = self._item_info(view, item)
        if not effects:
            return d.options[-1]
        if specs and specs[-1].divided:
            return max(d.options, key=lambda a: self._divided_plan(
                view, me, specs[-1], a.args[0], colors)[0] - 0.01 * a.args[0])

        def score(a: Action) -> float:
            x = a.args[0]
            return self._best_targets(view, me, specs, effects, x, source, colors,
                                      self._in_combat(view))[0] - 0.01 * x

        return max(d.options, key=score)

    # -- combat -------------------------------------------------------------------------------
    def _attack(self, view: PlayerView, d: Decision) -> Action:
        key = ("attack", view.turn)
        if self._plan_key != key:
            self._plan_key = key
            self._plan = [(pid,) for pid in self._plan_attack(view, d)]
        for a in d.options:
            if a.verb == "attack" and (a.args[0],) in self._plan:
                return a
        return _find(d, "done") or d.options[-1]

    def _plan_attack(self, view: PlayerView, d: Decision) -> list[int]:
        me, opp = view.viewer, 1 - view.viewer
        cands = [view.perm(a.args[0]) for a in d.options if a.verb == "attack"]
        cands = [c for c in cands if c is not None]
        if not cands:
            return []
        blockers = [b for b in view.creatures(opp) if not b.tapped and "cant_block" not in b.keywords]
        opp_life = view.players[opp].life
        my_life = view.players[me].life

        def dmg(a: PermanentView) -> int:
            return max(a.power, 0) * (2 if "double_strike" in a.keywords else 1)

        # Everything, when the opponent can't block enough of it to survive.
        if self._lethal_if_all(view, cands, blockers, opp_life):
            return [c.id for c in cands]
        chosen = []
        for a in cands:
            if a.power <= 0:
                continue
            able = [b for b in blockers if can_block(view, b, a)]
            if "unblockable_except_by_two_or_more" in a.keywords and len(able) < 2:
                able = []
            if not able:
                chosen.append(a)
                continue
            ok = True
            for b in able:
                a_dies, dead = fight(a, [b])
                if a_dies and b.id not in dead:
                    ok = False  # a free kill for the blocker
                    break
                if a_dies and creature_value(b) < creature_value(a) - 0.5:
                    ok = False  # a trade that favours the defender
                    break
            if ok and len(able) >= 2:
                pair = sorted(able, key=lambda b: -b.power)[:2]
                a_dies, dead = fight(a, pair)
                if a_dies and not dead:
                    ok = False
            if ok:
                chosen.append(a)
        # Keep enough blockers home not to die on the crack-back.
        attackers_next = [c for c in view.creatures(opp) if c.power > 0
                          and not ({"defender", "cant_attack"} & c.keywords)]
        while chosen:
            home = [c for c in view.creatures(me) if (c not in chosen or "vigilance" in c.keywords)
                    and not c.tapped]
            incoming = self._crack_back(view, attackers_next, home)
            racing = sum(dmg(c) for c in chosen) >= opp_life + 2 and incoming < my_life + 4
            if incoming < my_life - 2 or racing:
                break
            # Keep home the attacker that blocks best.
            keep = max(chosen, key=lambda c: (c.toughness, -c.power))
            chosen.remove(keep)
        return [c.id for c in chosen]

    def _lethal_if_all(self, view: PlayerView, attackers: list[PermanentView],
                       blockers: list[PermanentView], life: int) -> bool:
        def dmg(a: PermanentView) -> int:
            return max(a.power, 0) * (2 if "double_strike" in a.keywords else 1)

        total = sum(dmg(a) for a in attackers)
        if total < life:
            return False
        # The defender blocks the biggest attackers it can, one blocker each.
        stopped = 0
        free = list(blockers)
        for a in sorted(attackers, key=dmg, reverse=True):
            able = [b for b in free if can_block(view, b, a)]
            if able:
                b = min(able, key=lambda b: b.toughness)
                free.remove(b)
                through = max(a.power - max(b.toughness - b.damage, 0), 0) if "trample" in a.keywords else 0
                stopped += dmg(a) - through
        return total - stopped >= life

    def _crack_back(self, view: PlayerView, attackers: list[PermanentView],
                    home: list[PermanentView]) -> int:
        """Damage the opponent's creatures would deal next turn past my blockers."""
        free = list(home)
        total = 0
        for a in sorted(attackers, key=lambda a: a.power, reverse=True):
            dmg = max(a.power, 0) * (2 if "double_strike" in a.keywords else 1)
            able = [b for b in free if can_block(view, b, a)]
            if able:
                free.remove(min(able, key=lambda b: creature_value(b)))
                continue
            total += dmg
        return total

    def _block(self, view: PlayerView, d: Decision) -> Action:
        key = ("block", view.turn)
        if self._plan_key != key:
            self._plan_key = key
            self._plan = self._plan_blocks(view, d)
        for a in d.options:
            if a.verb == "block" and tuple(a.args) in self._plan:
                return a
        return _find(d, "done") or d.options[-1]

    def _plan_blocks(self, view: PlayerView, d: Decision) -> list[tuple[int, ...]]:
        me = view.viewer
        legal = {tuple(a.args) for a in d.options if a.verb == "block"}
        attackers = sorted((p for p in view.permanents if p.attacking and p.controller != me),
                           key=lambda p: -creature_value(p))
        my_blockers = {b: view.perm(b) for b, _ in legal}
        free = dict(my_blockers)
        plan: list[tuple[int, int]] = []
        blocked: dict[int, list[PermanentView]] = {}
        life = view.players[me].life

        def dmg(a: PermanentView) -> int:
            return max(a.power, 0) * (2 if "double_strike" in a.keywords else 1)

        def options_for(a: PermanentView) -> list[PermanentView]:
            return [b for bid, b in free.items() if (bid, a.id) in legal and b is not None]

        def assign(b: PermanentView, a: PermanentView) -> None:
            plan.append((b.id, a.id))
            blocked.setdefault(a.id, []).append(b)
            free.pop(b.id, None)

        # An attacker that can't be blocked except by two or more creatures (Viashino Runner)
        # is only considered for the double blocks: a single block of it is no declaration.
        for a in attackers:
            if "unblockable_except_by_two_or_more" in a.keywords:
                blocked.setdefault(a.id, [])
        # 1. Blocks that kill the attacker and survive; 2. blocks that survive (free damage
        # soak); 3. trades in my favour.
        for a in attackers:
            if a.id in blocked:
                continue
            good = [b for b in options_for(a) if fight(a, [b]) == (True, set())]
            if good:
                assign(min(good, key=creature_value), a)
        for a in attackers:
            if a.id in blocked:
                continue
            safe = [b for b in options_for(a) if not fight(a, [b])[1]]
            if safe and dmg(a) > 0:
                assign(min(safe, key=creature_value), a)
        for a in attackers:
            if a.id in blocked:
                continue
            trades = [b for b in options_for(a) if fight(a, [b])[0]
                      and creature_value(b) <= creature_value(a) + 0.5]
            if trades:
                assign(min(trades, key=creature_value), a)
        # Double blocks that kill a big attacker at the cost of at most a lesser creature.
        for a in attackers:
            if blocked.get(a.id):
                continue
            opts = options_for(a)
            best = None
            for i in range(len(opts)):
                for j in range(i + 1, len(opts)):
                    pair = [opts[i], opts[j]]
                    a_dies, dead = fight(a, pair)
                    if not a_dies:
                        continue
                    lost = sum(creature_value(b) for b in pair if b.id in dead)
                    gain = creature_value(a) - lost
                    if gain > 0.5 and (best is None or gain > best[0]):
                        best = (gain, pair)
            if best is not None:
                for b in best[1]:
                    assign(b, a)

        # Survive: chump the biggest unblocked attackers until the damage is below my life.
        def incoming() -> int:
            total = 0
            for a in attackers:
                if blocked.get(a.id):
                    total += trample_through(a, blocked[a.id])
                else:
                    total += dmg(a)
            return total

        margin = 1 if life > 4 else 2
        for a in sorted(attackers, key=dmg, reverse=True):
            if incoming() < life - margin + 1:
                break
            if a.id in blocked:
                continue
            opts = options_for(a)
            if opts:
                assign(min(opts, key=creature_value), a)
        return [tuple(p) for p in plan]

    def _assign(self, view: PlayerView, d: Decision) -> Action:
        """Divide combat damage: kill what can be killed, in order."""
        ctx = d.context
        if ctx.get("as_unblocked"):
            return self._as_unblocked(view, d)
        rem = ctx.get("remaining", 0)
        recipient = tuple(ctx.get("recipient", ()))
        amounts = sorted(a.args[0] for a in d.options if a.verb == "assign")
        if not amounts:
            return d.options[0]
        if recipient and recipient[0] == "o":
            target = view.perm(recipient[1])
            lethal = max(target.toughness - target.damage, 0) if target is not None else 0
            want = lethal if lethal <= rem else rem
            if target is not None and target.controller == view.viewer:
                want = amounts[0]
        else:
            want = rem
        pick = min(amounts, key=lambda n: (abs(n - want), -n))
        return next(a for a in d.options if a.verb == "assign" and a.args[0] == pick)

    def _divided_plan(self, view: PlayerView, me: int, spec: TargetSpec, total: int,
                      colors: frozenset[str]) -> tuple[float, list[tuple[tuple, int]]]:
        """How to divide ``total`` damage among ``spec``'s targets (Hail of Arrows): kill the
        opponent's most valuable creatures it can, each given exactly its lethal damage, the
        rest on the first of them. Returns (value of the kills, [(target, share)])."""
        if total <= 0:
            return 0.0, []
        foes = [view.perm(r[1]) for r in target_candidates(view, spec, me, colors) if r[0] == "o"]
        foes = sorted((p for p in foes if p is not None and p.controller != me and p.is_creature),
                      key=creature_value, reverse=True)
        plan: list[list] = []
        value, left = 0.0, total
        for p in foes:
            need = max(p.toughness - p.damage, 1)
            if need <= left:
                plan.append([("o", p.id), need])
                value += creature_value(p)
                left -= need
        if not plan and foes:  # nothing dies: at least weaken the biggest attacker
            plan.append([("o", foes[0].id), 0])
        if plan:
            plan[0][1] += left
        return value, [(r, n) for r, n in plan]

    def _divide(self, view: PlayerView, d: Decision) -> Action:
        """A share of a spell's divided damage for the named target: its share in the kill
        plan, as near as the options allow."""
        item = self._stack_context(view, d)
        rec = tuple(d.context.get("recipient", ()))
        want = 1
        if item is not None and item.target_specs and item.target_specs[-1].divided:
            plan = dict(self._divided_plan(view, view.viewer, item.target_specs[-1], item.x,
                                           self._item_info(view, item)[3])[1])
            rec_perm = view.perm(rec[1]) if rec and rec[0] == "o" else None
            want = plan.get(rec, max(rec_perm.toughness - rec_perm.damage, 1)
                            if rec_perm is not None and rec_perm.controller != view.viewer else 1)
        amounts = [a for a in d.options if a.verb == "assign"]
        return min(amounts, key=lambda a: (abs(a.args[0] - want), a.args[0]))

    def _as_unblocked(self, view: PlayerView, d: Decision) -> Action:
        """"Assign its combat damage as though it weren't blocked" (Rhox): hit the player
        unless the damage kills a blocker worth more than the damage is worth to the player
        (a lethal hit always wins)."""
        yes, no = _find(d, "yes"), _find(d, "no")
        src = view.perm(d.context.get("source"))
        if src is None or yes is None or no is None:
            return yes or d.options[0]
        opp = 1 - view.viewer
        power = d.context.get("remaining", src.power)
        if power >= view.players[opp].life:
            return yes
        left, killed = power, 0.0
        for b in sorted((view.perm(b) for b in src.blockers), key=lambda b: b.toughness if b else 0):
            if b is None:
                continue
            need = max(b.toughness - b.damage, 0)
            if need <= left:
                left -= need
                killed += creature_value(b)
        return no if killed > 1.5 * power else yes

    # -- whole-board spells -------------------------------------------------------------------
    def _text_plans(self, view: PlayerView, pid: int | None = None
                    ) -> list[tuple[float, int, str, str]]:
        """Mind Bend: ``(value for me, permanent, from, to)`` of text changes, best first, read
        from the permanents' keywords and static abilities: a landwalk that starts or stops
        working against its defender (worth its power), an opponent's protection from a color
        of my creatures and cards moved to a color I don't use, and a color-filtered P/T static
        ability (Ascendant Evincar's "Nonblack creatures get -1/-1") pointed at the other side."""
        me = view.viewer
        lands: dict[int, set[str]] = {0: set(), 1: set()}
        mine_colors = {c: 0 for c in COLOR_LETTERS}
        for q in view.permanents:
            if q.is_land:
                lands[q.controller].update(t for t in q.subtypes if t in LAND_TYPES)
            if q.controller == me and q.is_creature:
                for c in q.colors:
                    mine_colors[c] += 1
        for c in view.me.hand or ():
            for col in c.cdef.colors:
                mine_colors[col] += 1
        creatures = [q for q in view.permanents if q.is_creature]
        out = []
        for p in ([view.perm(pid)] if pid is not None else view.permanents):
            if p is None:
                continue
            sign = 1.0 if p.controller == me else -1.0
            defender = lands[1 - p.controller]
            power = max(p.power, 0) if p.is_creature else 0
            for kw in p.keywords:
                if kw in LANDWALK and power:
                    t = LANDWALK[kw]
                    for to in LAND_TYPES:
                        if to != t:
                            out.append((sign * power * ((to in defender) - (t in defender)),
                                        p.id, t, to))
                elif kw.startswith("protection_from_") and p.controller != me:
                    c = _COLOR_OF.get(kw[16:])
                    if c is not None:
                        for to in COLOR_LETTERS:
                            if to != c:
                                out.append((0.5 * (mine_colors[c] - mine_colors[to]) * (
                                    1 + power), p.id, c, to))
            for st in p.static or ():
                if st.kind != "modify_pt":
                    continue
                c = st.params.get("color") or st.params.get("not_color")
                if c is None:
                    continue
                neg = "not_color" in st.params
                dpt = st.params.get("p", 0) + st.params.get("t", 0)
                for to in COLOR_LETTERS:
                    if to == c:
                        continue
                    v = 0.0
                    for q in creatures:
                        if q is p and "other" in str(st.affects):
                            continue
                        now = (c in q.colors) != neg
                        after = (to in q.colors) != neg
                        v += (after - now) * dpt * (1.0 if q.controller == me else -1.0)
                    out.append((v, p.id, c, to))
        out.sort(key=lambda t: -t[0])
        return out

    def _text_change_choice(self, view: PlayerView, d: Decision) -> Action:
        """Mind Bend's choices on resolution: the best plan for the target permanent that fits
        what is chosen so far (a color word or a land type, then the word)."""
        ctx = d.context
        what, frm = ctx.get("what"), ctx.get("from")
        for _, _, f, to in self._text_plans(view, ctx.get("pid")):
            kind = "color" if f in COLOR_LETTERS else "land"
            if (what is not None and kind != what) or (frm is not None and f != frm):
                continue
            if what is None:
                return d.options[0 if kind == "color" else 1]
            word = f if frm is None else to
            for a in d.options:
                if (a.args[0] == word) if kind == "color" else (LAND_TYPES[a.args[0]] == word):
                    return a
        return d.options[0]

    def _warp_world_value(self, view: PlayerView) -> float:
        """Warp World: worth playing only well behind on board (what each side has in play;
        each gets back about as many permanents, drawn at random from its deck)."""
        me = view.viewer
        mine = sum(permanent_value(p, view) for p in view.controlled_by(me) if not p.is_land)
        theirs = sum(permanent_value(p, view) for p in view.controlled_by(1 - me)
                     if not p.is_land)
        return max(theirs - mine - 4.0, 0.0)

    # -- other decisions ----------------------------------------------------------------------
    def _choose_color(self, view: PlayerView, d: Decision) -> Action:
        """"Choose a color" (protection from it, prevention from its sources): the color most
        common among the opponent's permanents, spells and graveyard cards (creatures count
        double); without any, the color of the opponent's lands' mana."""
        if d.context.get("choice") == "text_change":
            return self._text_change_choice(view, d)
        opp = 1 - view.viewer
        count = {c: 0.0 for c in "WUBRG"}
        for p in view.controlled_by(opp):
            for c in p.colors:
                count[c] += 2.0 if p.is_creature else 1.0
            if p.is_land:
                for ab in p.activated:
                    for c in ab.mana or ():
                        if c in count:
                            count[c] += 0.1
        for s in view.stack:
            if s.controller == opp and s.card is not None:
                for c in s.card.cdef.colors:
                    count[c] += 2.0
        for c in view.players[opp].graveyard:
            for col in c.cdef.colors:
                count[col] += 0.5
        best = max("WUBRG", key=lambda c: count[c])
        return next((a for a in d.options if a.args and a.args[0] == best), d.options[0])

    def _name_card(self, view: PlayerView, d: Decision) -> Action:
        """"Name a card" (Pithing Needle: its sources' non-mana activated abilities can't be
        played): the opponent's card with the most valuable non-mana activated ability among
        those seen (in play, on the stack, in the graveyard, removed, known in hand) and not
        named already, more copies breaking ties; the view shows no deck list, so without one
        any name."""
        best = self._best_name_to_stop(view)[0]
        return next((a for a in d.options if a.verb == "name" and a.args[0] == best),
                    d.options[0])

    def _best_name_to_stop(self, view: PlayerView) -> tuple[str | None, float]:
        """(name, worth) of the opponent's card seen with the most valuable non-mana activated
        ability (more copies seen breaking ties); (None, 0) if none."""
        opp = 1 - view.viewer
        seen: dict[str, tuple[CardDef, int]] = {}

        def see(cdef: CardDef) -> None:
            if not cdef.is_token:
                seen[cdef.name] = (cdef, seen.get(cdef.name, (cdef, 0))[1] + 1)

        for p in view.permanents:
            if p.controller == opp or p.owner == opp:
                see(p.cdef)
        for s in view.stack:
            if s.controller == opp and s.card is not None:
                see(s.card.cdef)
        P = view.players[opp]
        for c in (*P.graveyard, *P.removed, *(getattr(P, "known_hand", ()) or ())):
            see(c.cdef)
        named = {p.chosen.get("name") for p in view.permanents if p.chosen}  # already stopped
        best, best_key = None, (0.0, 0)
        for name, (cdef, n) in seen.items():
            if name in named:
                continue
            val = max((_ability_weight(ab) for ab in cdef.activated if ab.mana is None),
                      default=0.0)
            if val > 0 and (val, n) > best_key:
                best, best_key = name, (val, n)
        return best, best_key[0]

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
        for q in view.controlled_by(1 - me):
            if q.attacking and not q.blockers and color in q.colors and q.power > 0:
                best = max(best, 0.5 * q.power)
        return best

    def _choose_source(self, view: PlayerView, d: Decision) -> Action | None:
        """Story Circle's "source of your choice": the opponent's spell on the stack (the most
        recent first), else the opponent's creature most likely to deal damage (attacking,
        then the most power, a damage ability counting as 2)."""
        opp = 1 - view.viewer
        best, best_s = None, -1e9
        for i, a in enumerate(d.options):
            if a.verb != "choose":
                continue
            zone, v = a.args[0]
            score = -100.0
            if zone == "s":
                item = next((s for s in view.stack if s.id == v), None)
                if item is not None and item.controller == opp:
                    score = 100.0 + i
            else:
                p = view.perm(v)
                if p is not None and p.controller == opp:
                    score = (50.0 if p.attacking else 0.0) + max(p.power, 0)
                    if any(e.get("op") == "deal_damage" for ab in p.activated for e in ab.effects):
                        score += 2.0
            if score > best_s:
                best, best_s = a, score
        return best

    def _choose(self, view: PlayerView, d: Decision) -> Action:
        me = view.viewer
        verb = d.context.get("verb", "")
        if verb == "source":
            return self._choose_source(view, d) or d.options[0]
        if verb == "attach" and "card" in d.context:  # an Aura put into play (Warp World)
            card = self._known_cards(view).get(d.context["card"])
            if card is not None:
                def host_value(a: Action) -> float:
                    host = view.perm(a.args[0][1])
                    return static_aura_value(card.cdef, host, me) if host is not None else 0.0
                return max(d.options, key=host_value)
        chosen = d.context.get("chosen", [])
        maximum = d.context.get("max", 1)
        known = self._known_cards(view)
        doomed = threats(view, me)
        scored = []
        for a in d.options:
            if a.verb != "choose":
                continue
            zone, v = a.args[0]
            if zone == "o":
                p = view.perm(v)
                if p is None:
                    continue
                mine = p.controller == me
                # Something the stack is about to kill anyway is the cheapest to give up.
                val = 0.0 if mine and v in doomed else permanent_value(p, view)
            else:
                card = known.get(v)
                cdef = card.cdef if card is not None else _card_from_text(a.text)
                val = self._card_keep_value(view, cdef) if cdef is not None else 1.0
                # A card the decision shows that I can't otherwise see is the opponent's.
                mine = card.owner == me if card is not None else False
            harmful = verb in HARMFUL_CHOICES
            # Good for me: the best of mine for a helpful choice, the worst for a harmful one,
            # the best of the opponent's for a harmful one.
            s = (-val if mine else val) if harmful else (val if mine else -val)
            if verb == "copy":  # Clone: the best creature in play, whoever controls it
                s = val
            scored.append((s, a))
        done = _find(d, "done")
        if not scored:
            return done or d.options[0]
        best_s, best = max(scored, key=lambda t: t[0])
        if done is not None and (best_s < 0 or len(chosen) >= maximum):
            return done
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

    def _yes_no(self, view: PlayerView, d: Decision) -> Action:
        item = self._stack_context(view, d)
        yes, no = _find(d, "yes"), _find(d, "no")
        if item is None or yes is None or no is None:
            return yes or d.options[0]
        specs, effects, source, _ = self._item_info(view, item)
        val = self._effects_value(view, view.viewer, specs, effects, [tuple(t) for t in item.targets],
                                  item.x, source)
        return yes if val >= 0 else no

    def _choose_player(self, view: PlayerView, d: Decision) -> Action:
        prompt = d.prompt.lower()
        helpful = any(w in prompt for w in ("gain", "draw", "untap"))
        want = view.viewer if helpful else 1 - view.viewer
        for a in d.options:
            if a.args and a.args[0] in (want, ("p", want)):
                return a
        return d.options[0]


    def _order_replacements(self, view: PlayerView, d: Decision) -> Action:
        """2012 616.1: pick the effect to apply first whose best reachable result is best for
        this player: least damage to itself or its creatures, most to the opponent's."""
        me = view.viewer

        def harm(out: list) -> int:
            zone, v, n = out
            if zone == "p":
                mine = v == me
            else:
                p = view.perm(v) if v is not None else None
                mine = p is not None and p.controller == me
            return n if mine else -n

        effects = d.context.get("effects", ())
        best, best_score = d.options[0], None
        for a in d.options:
            outs = effects[a.args[0]]["outcomes"] if a.args[0] < len(effects) else ()
            score = min((harm(o) for o in outs), default=0)
            if best_score is None or score < best_score:
                best, best_score = a, score
        return best


# Rough worth of what an activated ability's effects do, for naming it with Pithing Needle.
_OP_WEIGHT = {"deal_damage": 3.0, "destroy": 4.0, "counter_spell": 4.0, "bounce": 3.0,
              "draw": 2.5, "pump": 2.0, "regenerate": 2.0, "tap": 2.0, "search_library": 2.5,
              "create_token": 2.5, "gain_control": 5.0, "prevent_damage": 1.5}


def _ability_weight(ab) -> float:
    """Worth of a non-mana activated ability: the weights of its effects' ops (1 for others);
    every such ability is worth something."""
    return 1.0 + sum(_OP_WEIGHT.get(e.get("op"), 1.0) for e in ab.effects)


def _find(d: Decision, text: str) -> Action | None:
    return d.find(text)


def _matches(p: PermanentView, flt: dict, player: int) -> bool:
    try:
        return matches_filter(p, flt, player)
    except (MtgError, AttributeError):
        return False


def _card_from_text(text: str) -> CardDef | None:
    """The card an option like ``discard Shock#2`` names (the decision shows it)."""
    from mtg_env.engine.registry import get_card

    words = text.split(" ")
    for i in range(1, len(words)):
        name = " ".join(words[i:]).rsplit("#", 1)[0]
        try:
            return get_card(name)
        except MtgError:
            continue
    return None
