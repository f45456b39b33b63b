"""Combat: declaring attackers and blockers, dividing combat damage, first and double strike.

2007 CR 306-311 (combat phase: beginning 307, declare attackers 308, declare blockers 309, combat
damage 310 (damage goes on the stack as one object, 310.2; first strike gives a second damage
step, 310.5), end of combat 311), 502 (evasion and combat keywords: 502.9 trample), 309.2
(blocking restrictions: "can't be blocked by more than one creature", "can block an additional
creature", "can't block [this]").
2012 506.4 (a creature removed from combat), 508.1d ("attacks each turn if able"; a cost to
attack is never required), 508.1f-i (costs to attack: Windborn Muse), 509.1b-c (blocking
restrictions and requirements checked on the whole declaration: Lure, "can't be blocked except
by two or more creatures"), 510.1c (Rhox: "as though it weren't blocked").
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations
from typing import TYPE_CHECKING

from .actions import DONE, NO, YES, Action, DecisionKind
from .damage import deal_damage
from .frames import AssignCursor, AssignFrame, AttackFrame, BlockFrame
from .layers import _static_affects, fresh
from .mana import Source, mana_sources, pay_mana, plan_payment
from .model import ManaCost, Permanent, StackItem
from .replacement import limited_shields, run_event, shield_split_order, shield_split_question
from .rules import block_allowed, text_words
from .targets import ref_text
from .triggers import report_event

if TYPE_CHECKING:
    from .game import GameSelf
    from .state import GameState
else:
    GameState = object  # the state's types are for the type checker only (state.py)

K = DecisionKind


class Combat(GameState):
    """Mixed into :class:`~mtg_env.engine.game.Game`."""

    def can_attack(self: GameSelf, p: Permanent) -> bool:
        if not p.is_creature or p.tapped or p.controller != self.active:
            return False
        if p.sick and "haste" not in p.keywords:
            return False
        kw = p.keywords
        if "cant_attack_unless_defender_has_island" in kw:
            # Sea Monster; its "Island" follows a text change (Mind Bend, 2012 612.2).
            land = text_words(self, p.id, ("Island",))[0]
            if not any(q.controller != p.controller and land in q.subtypes
                       for q in self.perms.values()):
                return False
        return not ({"defender", "cant_attack"} & kw)

    def _run_attack(self: GameSelf, f: AttackFrame) -> None:
        fresh(self)
        declared = f.declared
        tax = self._attack_tax(1 - self.active)
        if not f.forced:
            f.forced = True
            # "attacks each turn if able" (2012 508.1d): declared for the player, unless
            # attacking has a cost, which no requirement makes the player pay.
            if not tax:
                declared.extend(p.id for p in self.perms.values()
                                if "must_attack" in p.keywords and self.can_attack(p))
        cands = [p for p in self.perms.values() if p.id not in declared and self.can_attack(p)]
        if tax and cands:
            cands = [p for p in cands if self._can_pay_attack_tax(tax, [*declared, p.id])]
        if not cands:
            self._finish_attack(f)
            return
        opts = [Action("attack", "attack with " + p.card.label, (p.id,)) for p in cands]
        opts.append(DONE)
        prompt = f"player {f.player}: declare attackers ({len(declared)} so far)"
        if tax:
            prompt += f"; each costs {{{tax}}} to attack"
        self._ask(f.player, K.DECLARE_ATTACKERS, opts, prompt, {"declared": list(declared)})

    def _answer_attack(self: GameSelf, f: AttackFrame, a: Action) -> None:
        if a.verb == "done":
            self._finish_attack(f)
        else:
            f.declared.append(a.args[0])

    def _attack_tax(self: GameSelf, defender: int) -> int:
        """The generic mana each creature attacking ``defender`` costs: the sum of the
        ``attack_tax`` statics ``defender`` controls (Windborn Muse; cumulative, ruling
        2004-10-04)."""
        mods = self.rule_mods
        if not mods or defender not in mods.get("attack_tax", ()):
            return 0
        return sum(s.params["amount"] for p in self.perms.values()
                   if p.controller == defender and p.static
                   for s in p.static if s.kind == "attack_tax")

    def _attack_tax_sources(self: GameSelf, declared: list[int]) -> list[Source]:
        """The mana sources left to pay a cost to attack once ``declared`` are tapped as
        attackers (2012 508.1f taps them before the cost is paid, 508.1g-h)."""
        tapping = {pid for pid in declared if "vigilance" not in self.perms[pid].keywords}
        return [s for s in mana_sources(self, self.active) if s[0] not in tapping]

    def _can_pay_attack_tax(self: GameSelf, tax: int, declared: list[int]) -> bool:
        """Can the active player pay ``tax`` for each of ``declared``, with floating mana and
        the sources the automatic payer may tap (:meth:`_attack_tax_sources`)?"""
        return plan_payment(self.players[self.active].mana_pool, (0,) * 5, tax * len(declared),
                            self._attack_tax_sources(declared), cheapest=False) is not None

    def _finish_attack(self: GameSelf, f: AttackFrame) -> None:
        self.frames.pop()
        for pid in f.declared:
            p = self.perms[pid]
            p.attacking = True
            if "vigilance" not in p.keywords:
                p.tapped = True
        tax = self._attack_tax(1 - self.active) * len(f.declared)
        if tax:
            # 2012 508.1g-i: the total is locked in and paid after the attackers tap; every
            # attacker was offered only if the total stayed payable.
            pay_mana(self, self.active, ManaCost.parse(f"{{{tax}}}"), auto=True)
        self.any_attackers = bool(f.declared)
        if f.declared:
            self.attacked_this_turn = (*self.attacked_this_turn, *f.declared)
            names = ", ".join(f"{self.perms[pid].card.label} ({self.perms[pid].power}/"
                              f"{self.perms[pid].toughness})" for pid in f.declared)
            self._log(f"player {self.active} attacks with {names}")
        for pid in f.declared:
            report_event(self, "attacks", perm=pid)

    def _max_blocks(self: GameSelf, blocker: Permanent, extra: dict[int, int] | None = None) -> float:
        """How many attackers ``blocker`` may block: any number, or one plus one for each
        "can block an additional creature" (High Ground; cumulative, Gatherer 2007-07-15)."""
        if "block_any_number" in blocker.keywords:
            return float("inf")
        if extra is None:
            extra = self._extra_blocks()
        return 1 + extra.get(blocker.id, 0)

    def _extra_blocks(self: GameSelf) -> dict[int, int]:
        """Permanent id -> number of "can block an additional creature" effects on it."""
        out: dict[int, int] = {}
        for src in self.perms.values():
            if src.static:
                for s in src.static:
                    if s.kind == "extra_blocks":
                        for p in _static_affects(self, src, s):
                            out[p.id] = out.get(p.id, 0) + 1
        return out

    def _cant_block_pairs(self: GameSelf) -> set[tuple[int, int]]:
        """(blocker, attacker) pairs of "target creature can't block [this] this turn" effects
        (Duct Crawler)."""
        return {(e["pid"], e["attacker"]) for e in self.effects if e["kind"] == "cant_block"}

    def _run_block(self: GameSelf, f: BlockFrame) -> None:
        fresh(self)
        pl = f.player
        perms = self.perms.values()
        attackers = [p for p in perms if p.attacking]
        if any(not _WHOLE_DECLARATION.isdisjoint(a.keywords) for a in attackers):
            self._run_block_exact(f, attackers)
            return
        pairs = set(f.pairs)
        # Blocks become real only when declared as a whole, so every restriction is checked
        # against the pairs declared so far. Each is a limit (no requirement), so any set of
        # pairs passing these checks one at a time is a legal declaration and every offered
        # option is legal (2007 CR 309.2).
        n_blocking: dict[int, int] = {}
        blocked: set[int] = set()
        for b_id, a_id in pairs:
            n_blocking[b_id] = n_blocking.get(b_id, 0) + 1
            blocked.add(a_id)
        extra = self._extra_blocks()
        forbidden = self._cant_block_pairs() if self.effects else ()
        opts = []
        for b in self.perms.values():
            if b.controller != pl or not b.is_creature:
                continue
            if n_blocking.get(b.id, 0) >= self._max_blocks(b, extra):
                continue
            for a in attackers:
                if (b.id, a.id) in pairs or not block_allowed(b, a, perms):
                    continue
                if "cant_be_blocked_by_more_than_one" in a.keywords and a.id in blocked:
                    continue  # Stalking Tiger
                if forbidden and (b.id, a.id) in forbidden:
                    continue
                opts.append(self._block_action(b, a))
        self._offer_blocks(f, opts, True)

    def _offer_blocks(self: GameSelf, f: BlockFrame, opts: list[Action], can_finish: bool) -> None:
        """Ask for the next blocking pair; ``done`` is offered when the pairs so far are a legal
        declaration (``can_finish``), and the declaration ends at once if nothing can be added."""
        if can_finish:
            if not opts:
                self._finish_block(f)
                return
            opts.append(DONE)
        pl = f.player
        self._ask(pl, K.DECLARE_BLOCKERS, opts, f"player {pl}: declare blockers",
                  {"pairs": [list(p) for p in f.pairs]})

    @staticmethod
    def _block_action(b: Permanent, a: Permanent) -> Action:
        return Action("block", f"block {a.card.label} with {b.card.label}", (b.id, a.id))

    def _run_block_exact(self: GameSelf, f: BlockFrame, attackers: list[Permanent]) -> None:
        """Declare blockers when a requirement (Lure) or a restriction that only the whole
        declaration can meet ("can't be blocked except by two or more creatures") applies
        (2012 509.1b-c). The declaration is still made one pair at a time, so a pair is offered
        only if some legal full declaration contains it with the pairs so far, and ``done``
        only when the pairs so far are themselves a legal declaration: one that breaks no
        restriction and obeys the maximum number of requirements that could be obeyed."""
        pl = f.player
        fixed = f.pairs[:]
        prob = _BlockProblem(self, pl, attackers)
        target = prob.best(())
        have = set(fixed)
        n_blocking: dict[int, int] = {}
        blocked: set[int] = set()
        for b_id, a_id in fixed:
            n_blocking[b_id] = n_blocking.get(b_id, 0) + 1
            blocked.add(a_id)
        opts = []
        for b in prob.blockers:
            if n_blocking.get(b.id, 0) >= prob.cap[b.id]:
                continue
            for a in attackers:
                x = (b.id, a.id)
                if x in have or a.id not in prob.allowed[b.id]:
                    continue
                if a.id in prob.max1 and a.id in blocked:
                    continue
                if prob.best((*fixed, x)) == target:
                    opts.append(self._block_action(b, a))
        self._offer_blocks(f, opts, prob.legal(fixed) and prob.obeyed(fixed) == target)

    def _answer_block(self: GameSelf, f: BlockFrame, a: Action) -> None:
        if a.verb == "done":
            self._finish_block(f)
        else:
            f.pairs.append((a.args[0], a.args[1]))

    def _finish_block(self: GameSelf, f: BlockFrame) -> None:
        self.frames.pop()
        for b_id, a_id in f.pairs:
            b, a = self.perms[b_id], self.perms[a_id]
            b.blocking.append(a_id)
            a.blocked = True
            a.blockers.append(b_id)
        for a in self.perms.values():
            if a.attacking:
                by = ", ".join(self.perms[b].card.label for b in a.blockers)
                self._log(f"{a.card.label}: blocked by {by}" if a.blocked else f"{a.card.label}: unblocked")
        for b_id, a_id in f.pairs:
            report_event(self, "blocks", perm=b_id, attacker=a_id)
        for b_id, a_id in f.pairs:
            report_event(self, "becomes_blocked_by", perm=a_id, blocker=b_id)
        for a in [p for p in self.perms.values() if p.attacking and p.blocked]:
            report_event(self, "becomes_blocked", perm=a.id)

    def _remove_from_combat(self: GameSelf, perm: Permanent) -> None:
        perm.attacking = False
        for aid in perm.blocking:
            a = self.perms.get(aid)
            if a is not None and perm.id in a.blockers:
                a.blockers.remove(perm.id)  # the attacker stays blocked (2012 506.4)
        perm.blocking = []
        for bid in perm.blockers:
            b = self.perms.get(bid)
            if b is not None and perm.id in b.blocking:
                b.blocking.remove(perm.id)
        perm.blockers = []

    def _end_combat(self: GameSelf) -> None:
        for p in self.perms.values():
            p.attacking = False
            p.blocking = []
            p.blocked = False
            p.blockers = []
            p.struck_first = False
        self.fs_checked = False
        self.fs_step = False
        self.any_attackers = False

    def _begin_combat_damage(self: GameSelf) -> None:
        fresh(self)
        combatants = [p for p in self.perms.values() if p.attacking or p.blocking]
        if not self.fs_checked:
            self.fs_checked = True
            self.fs_step = any({"first_strike", "double_strike"} & p.keywords for p in combatants)
        fs = self.fs_step
        queue = []
        for p in combatants:
            kw = p.keywords
            if fs:
                ok = "first_strike" in kw or "double_strike" in kw
            else:
                ok = not p.struck_first or "double_strike" in kw
            if ok:
                queue.append(p.id)
        # Attackers first (AP), then blockers (DP): 2007 CR 310.1.
        queue.sort(key=lambda pid: 0 if self.perms[pid].attacking else 1)
        self.frames.append(AssignFrame(queue, first_strike=fs))

    def _run_assign(self: GameSelf, f: AssignFrame) -> None:
        while True:
            cur = f.current
            if cur is None:
                if f.next_index >= len(f.queue):
                    self._finish_assign(f)
                    return
                pid = f.queue[f.next_index]
                f.next_index += 1
                p = self.perms.get(pid)
                if p is None or p.power <= 0:
                    continue
                if f.first_strike:
                    p.struck_first = True
                if p.attacking and p.blocked and "may_assign_as_unblocked" in p.keywords:
                    # Rhox: its controller chooses as it assigns (2012 510.1c); asked even
                    # when no blocker remains, since it can still hit the player.
                    f.current = AssignCursor(pid, ask=True)
                    self._ask(p.controller, K.COMBAT_DAMAGE, [YES, NO],
                              f"{p.card.label}: assign its combat damage to player "
                              f"{1 - p.controller} as though it weren't blocked?",
                              {"source": pid, "remaining": p.power,
                               "recipient": ["p", 1 - p.controller], "as_unblocked": True,
                               "assigned": [e[:4] for e in f.assigned]})
                    return
                recips = self._damage_recipients(p)
                if not recips:
                    continue
                cur = f.current = AssignCursor(pid, False, p.power, recips, 0, [])
            p = self.perms.get(cur.perm_id)
            recips = cur.recipients
            rem = cur.remaining
            ri = cur.index
            trample = p is not None and p.attacking and "trample" in p.keywords
            n_blockers = len(recips) - (1 if recips[-1][0] == "p" and len(recips) > 1 else 0)
            if recips[0][0] == "p" and len(recips) == 1:
                self._assign_out(f, p, recips[0], rem)
                f.current = None
                continue
            if rem == 0 or (ri >= len(recips) - 1 and not (trample and ri == n_blockers - 1)):
                if rem and ri < len(recips):
                    self._assign_out(f, p, recips[ri], rem)
                f.current = None
                continue
            lo, hi = 0, rem
            if trample and ri == n_blockers - 1:
                all_lethal = all(got >= self._lethal(f, recips[i], p)
                                 for i, got in enumerate(cur.got))
                if all_lethal and recips[-1][0] == "p":
                    lo = min(self._lethal(f, recips[ri], p), rem)
                else:
                    lo = rem
            if lo == hi:
                self._assign_amount(f, cur, lo)
                continue
            target = recips[ri]
            name = ref_text(self, target)
            opts = [Action("assign", f"assign {n} damage to {name}", (n,)) for n in range(lo, hi + 1)]
            self._ask(p.controller, K.COMBAT_DAMAGE, opts,
                      f"{p.card.label} assigns combat damage ({rem} left)",
                      {"source": p.id, "remaining": rem, "recipient": list(target),
                       "assigned": [e[:4] for e in f.assigned]})
            return

    def _answer_assign(self: GameSelf, f: AssignFrame, a: Action) -> None:
        cur = f.current
        if cur.ask:
            p = self.perms[cur.perm_id]
            recips = [("p", 1 - p.controller)] if a.verb == "yes" else self._damage_recipients(p)
            if a.verb == "yes":
                self._log(f"{p.card.label} assigns its combat damage as though it weren't blocked")
            f.current = AssignCursor(p.id, False, p.power, recips, 0, []) if recips else None
            return
        self._assign_amount(f, cur, a.args[0])

    def _assign_amount(self: GameSelf, f: AssignFrame, cur: AssignCursor, n: int) -> None:
        p = self.perms[cur.perm_id]
        recips = cur.recipients
        if n:
            self._assign_out(f, p, recips[cur.index], n)
        cur.got.append(n)
        cur.remaining -= n
        cur.index += 1
        if cur.remaining and cur.index == len(recips) - 1:
            self._assign_out(f, p, recips[cur.index], cur.remaining)
            cur.remaining = 0
        if cur.remaining == 0 or cur.index >= len(recips):
            f.current = None

    def _lethal(self: GameSelf, f: AssignFrame, target: tuple[str, int], src: Permanent) -> int:
        if target[0] != "o":
            return 0
        b = self.perms.get(target[1])
        if b is None:
            return 0
        # 2007 CR 502.9: count damage already on it and damage *other* creatures assign to it in
        # this step, not what this source has just assigned to it.
        already: int = sum(e[3] for e in f.assigned
                      if e[1] == "o" and e[2] == target[1] and e[0] != src.id)
        return max(b.toughness - b.damage - already, 0)

    def _assign_out(self: GameSelf, f: AssignFrame, p: Permanent, target: tuple[str, int],
                    n: int) -> None:
        if n > 0:
            # The last field: dealt by an unblocked creature (Kjeldoran Royal Guard).
            f.assigned.append([p.id, target[0], target[1], n, p.card.label,
                             "".join(sorted(p.colors)), p.controller,
                             bool(p.attacking and not p.blocked)])

    def _damage_recipients(self: GameSelf, p: Permanent) -> list[tuple[str, int]]:
        if p.attacking:
            dp = ("p", 1 - p.controller)
            if not p.blocked:
                return [dp]
            blockers = [("o", b) for b in p.blockers if b in self.perms and self.perms[b].is_creature]
            if "trample" in p.keywords:
                return [*blockers, dp]
            return blockers
        return [("o", a) for a in p.blocking if a in self.perms and self.perms[a].is_creature]

    def _finish_assign(self: GameSelf, f: AssignFrame) -> None:
        self.frames.pop()
        if not f.assigned:
            return
        item = StackItem(self._id(), "combat_damage", self.active, label="combat damage",
                         data={"assign": f.assigned, "first_strike": f.first_strike})
        self.stack.append(item)  # 2007 CR 310.2: one stack object for all of it
        parts = [f"{e[4]}: {e[3]} to {ref_text(self, (e[1], e[2]))}" for e in f.assigned]
        self._log("combat damage on the stack: " + "; ".join(parts))

    def _resolve_combat_damage(self: GameSelf, item: StackItem) -> bool:
        """Deal the combat damage on the stack. Returns True while it waits for a player to
        choose which of this damage a prevention shield prevents (2012 615.7), else False."""
        # 2007 CR 310.4: dealt as assigned, even if sources left play or changed.
        if self.replacements and len(item.data["assign"]) > 1 and limited_shields(self):
            return self._combat_damage_with_shields(item)
        for pid, kind, tid, n, label, colors, ctrl, unblocked in item.data["assign"]:
            src = {"pid": pid if pid in self.perms else None, "label": label,
                   "colors": colors, "controller": ctrl, "unblocked": unblocked}
            if kind == "o":
                t = self.perms.get(tid)
                if t is None or not t.is_creature:
                    continue
            deal_damage(self, src, (kind, tid), n, combat=True)
        return False

    def _combat_damage_with_shields(self: GameSelf, item: StackItem) -> bool:
        """Combat damage while a "prevent the next N damage" shield is up: its player first
        chooses which source's damage it prevents when it could meet several (2012 615.7,
        :func:`~mtg_env.engine.replacement.shield_split_question`); the answers are kept on the
        stack object (``shield_first``)."""
        evs = []
        for pid, kind, tid, n, label, colors, ctrl, unblocked in item.data["assign"]:
            if kind == "o":
                t = self.perms.get(tid)
                if t is None or not t.is_creature:
                    continue
            src = {"pid": pid if pid in self.perms else None, "label": label,
                   "colors": colors, "controller": ctrl, "unblocked": unblocked}
            evs.append({"e": "damage", "src": src, "target": [kind, tid], "amount": n,
                        "combat": True, "no_regen": False, "applied": []})
        decided = item.data.get("shield_first", [])
        f = shield_split_question(self, evs, decided)
        if f is not None:
            f.item_id = item.id
            self.frames.append(f)
            return True
        for ev in shield_split_order(self, evs, decided) if decided else evs:
            run_event(self, ev)
        return False

    def leave_combat_on_control_change(self: GameSelf, perm: Permanent) -> None:
        """A permanent whose controller changed leaves combat (2012 506.4)."""
        if perm.attacking or perm.blocking:
            self._remove_from_combat(perm)


# Attacker keywords that make the one-pair-at-a-time check insufficient: a requirement (Lure)
# or a restriction a single pair can't satisfy (Viashino Runner).
_WHOLE_DECLARATION = frozenset({"must_be_blocked_by_all", "unblockable_except_by_two_or_more"})


class _BlockProblem:
    """The blocking restrictions and requirements of one defending player (2012 509.1b-c), as a
    small optimisation: which full declarations break no restriction, and how many
    requirements each obeys.

    Restrictions: the evasion rules of :func:`block_allowed`, "can't block [this]" effects, how
    many attackers each blocker may block, "can't be blocked by more than one creature" (at
    most one blocker) and "can't be blocked except by two or more creatures" (none or at least
    two). Requirements: "All creatures able to block [this] do so" (Lure) is one requirement
    per creature able to block that attacker, obeyed when it blocks it.
    """

    def __init__(self, g: Combat, pl: int, attackers: list[Permanent]) -> None:
        perms = g.perms.values()
        extra = g._extra_blocks()
        forbidden = g._cant_block_pairs() if g.effects else ()
        self.blockers = [b for b in perms if b.controller == pl and b.is_creature]
        self.allowed: dict[int, frozenset[int]] = {
            b.id: frozenset(a.id for a in attackers if block_allowed(b, a, perms)
                            and (b.id, a.id) not in forbidden)
            for b in self.blockers}
        self.cap = {b.id: g._max_blocks(b, extra) for b in self.blockers}
        self.lure = frozenset(a.id for a in attackers if "must_be_blocked_by_all" in a.keywords)
        self.min2 = frozenset(a.id for a in attackers
                              if "unblockable_except_by_two_or_more" in a.keywords)
        self.max1 = frozenset(a.id for a in attackers
                              if "cant_be_blocked_by_more_than_one" in a.keywords)
        # Attackers whose number of blockers matters, in a fixed order (the search state).
        self.tracked = sorted(self.min2 | self.max1)
        self._col = {a: i for i, a in enumerate(self.tracked)}

    def obeyed(self, pairs: Iterable[tuple[int, int]]) -> int:
        """How many requirements ``pairs`` obeys."""
        return sum(1 for b, a in pairs if a in self.lure and a in self.allowed.get(b, ()))

    def legal(self, pairs: list[tuple[int, int]]) -> bool:
        """Does the full declaration ``pairs`` break no restriction? (Pairs are only ever built
        from allowed pairs within each blocker's limit, so the counts are what remain.)"""
        count: dict[int, int] = {}
        for _, a in pairs:
            count[a] = count.get(a, 0) + 1
        return (all(count.get(a, 0) != 1 for a in self.min2)
                and all(count.get(a, 0) <= 1 for a in self.max1))

    def best(self, fixed: tuple[tuple[int, int], ...] | list[tuple[int, int]]) -> int:
        """The most requirements obeyed by a declaration that contains ``fixed`` and breaks
        no restriction, or -1 if there is none. Pairs beyond ``fixed`` matter only if they
        obey a requirement or help an attacker that needs two blockers; any other pair can
        only use up a blocker, so the search leaves it out. Dynamic programming over the
        blockers, the state being how many blockers each tracked attacker has so far
        (capped at 2)."""
        by_b: dict[int, list[int]] = {}
        for b, a in fixed:
            by_b.setdefault(b, []).append(a)
        col = self._col
        min2, max1, lure = self.min2, self.max1, self.lure
        # For each blocker: the choices of pairs beyond the fixed ones, each as (requirements
        # obeyed, increments of the tracked counts).
        levels: list[list[tuple[int, tuple[int, ...]]]] = []
        for blk in self.blockers:
            allowed = self.allowed[blk.id]
            have = by_b.get(blk.id, [])
            useful = sorted(a for a in allowed if (a in lure or a in min2) and a not in have)
            room = self.cap[blk.id] - len(have)
            if room < 0:
                return -1
            k = int(min(room, len(useful)))
            choices = []
            for size in range(k + 1):
                for extra in combinations(useful, size):
                    chosen = (*have, *extra)
                    inc = [0] * len(col)
                    for a in chosen:
                        if a in col:
                            inc[col[a]] += 1
                    choices.append((sum(1 for a in chosen if a in lure and a in allowed),
                                    tuple(inc)))
            levels.append(choices)
        limit = tuple(1 if a in max1 else 2 for a in self.tracked)  # 2 = "two or more"
        need2 = tuple(a in min2 for a in self.tracked)
        memo: dict[tuple[int, tuple[int, ...]], int] = {}

        def go(i: int, state: tuple[int, ...]) -> int:
            if i == len(levels):
                return -1 if any(n and c == 1 for n, c in zip(need2, state, strict=True)) else 0
            key = (i, state)
            if key in memo:
                return memo[key]
            best = -1
            for got, inc in levels[i]:
                nxt = []
                for c, d, lim in zip(state, inc, limit, strict=True):
                    v = c + d
                    if v > 1 and lim == 1:
                        break
                    nxt.append(min(v, lim))
                else:
                    rest = go(i + 1, tuple(nxt))
                    if rest >= 0 and got + rest > best:
                        best = got + rest
            memo[key] = best
            return best

        return go(0, (0,) * len(self.tracked))
