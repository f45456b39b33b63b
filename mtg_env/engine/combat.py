"""Combat: declaring attackers and blockers, dividing combat damage, first and double strike.

2007 CR 306-311 (combat phase: beginning 307, declare attackers 308, declare blockers 309, combat
damage 310 (damage goes on the stack as one object, 310.2; first strike gives a second damage
step, 310.5), end of combat 311), 502 (evasion and combat keywords: 502.9 trample), 309.2
(blocking restrictions: "can't be blocked by more than one creature", "can block an additional
creature", "can't block [this]").
2012 506.4 (a creature removed from combat), 508.1d ("attacks each turn if able").
"""

from __future__ import annotations

from .actions import DONE, Action, DecisionKind
from .layers import _static_affects
from .model import (
    Permanent,
    StackItem,
)
from .rules import block_allowed

K = DecisionKind


class Combat:
    """Mixed into :class:`~mtg_env.engine.game.Game`."""

    def can_attack(self, p: Permanent) -> bool:
        if not p.is_creature or p.tapped or p.controller != self.active:
            return False
        if p.sick and "haste" not in p.keywords:
            return False
        kw = p.keywords
        if "cant_attack_unless_defender_has_island" in kw and not any(
                q.controller != p.controller and "Island" in q.subtypes
                for q in self.perms.values()):
            return False  # Sea Monster
        return not ({"defender", "cant_attack"} & kw)

    def _run_attack(self, f: dict) -> None:
        self._fresh()
        declared = f["declared"]
        if not f.get("forced"):
            f["forced"] = True  # "attacks each turn if able" (2012 508.1d): declared for the player
            declared.extend(p.id for p in self.perms.values()
                            if "must_attack" in p.keywords and self.can_attack(p))
        cands = [p for p in self.perms.values() if p.id not in declared and self.can_attack(p)]
        if not cands:
            self._finish_attack(f)
            return
        opts = [Action("attack", "attack with " + p.card.label, (p.id,)) for p in cands]
        opts.append(DONE)
        self._ask(f["pl"], K.DECLARE_ATTACKERS, opts,
                  f"player {f['pl']}: declare attackers ({len(declared)} so far)",
                  {"declared": list(declared)})

    def _answer_attack(self, f: dict, a: Action) -> None:
        if a.verb == "done":
            self._finish_attack(f)
        else:
            f["declared"].append(a.args[0])

    def _finish_attack(self, f: dict) -> None:
        self.frames.pop()
        for pid in f["declared"]:
            p = self.perms[pid]
            p.attacking = True
            if "vigilance" not in p.keywords:
                p.tapped = True
        self.any_attackers = bool(f["declared"])
        if f["declared"]:
            self.attacked_this_turn = (*self.attacked_this_turn, *f["declared"])
        if f["declared"]:
            names = ", ".join(f"{self.perms[pid].card.label} ({self.perms[pid].power}/"
                              f"{self.perms[pid].toughness})" for pid in f["declared"])
            self._log(f"player {self.active} attacks with {names}")
        for pid in f["declared"]:
            self._event("attacks", perm=pid)

    def can_block(self, blocker: Permanent, attacker: Permanent) -> bool:
        if blocker.blocking and len(blocker.blocking) >= self._max_blocks(blocker):
            return False
        if "cant_be_blocked_by_more_than_one" in attacker.keywords and attacker.blockers:
            return False
        if self.effects and (blocker.id, attacker.id) in self._cant_block_pairs():
            return False
        return block_allowed(blocker, attacker, self.perms.values())

    def _max_blocks(self, blocker: Permanent, extra: dict[int, int] | None = None) -> float:
        """How many attackers ``blocker`` may block: any number, or one plus one for each
        "can block an additional creature" (High Ground; cumulative, Gatherer 2007-07-15)."""
        if "block_any_number" in blocker.keywords:
            return float("inf")
        if extra is None:
            extra = self._extra_blocks()
        return 1 + extra.get(blocker.id, 0)

    def _extra_blocks(self) -> dict[int, int]:
        """Permanent id -> number of "can block an additional creature" effects on it."""
        out: dict[int, int] = {}
        for src in self.perms.values():
            if src.static:
                for s in src.static:
                    if s.kind == "extra_blocks":
                        for p in _static_affects(self, src, s):
                            out[p.id] = out.get(p.id, 0) + 1
        return out

    def _cant_block_pairs(self) -> set[tuple[int, int]]:
        """(blocker, attacker) pairs of "target creature can't block [this] this turn" effects
        (Duct Crawler)."""
        return {(e["pid"], e["attacker"]) for e in self.effects if e["kind"] == "cant_block"}

    def _run_block(self, f: dict) -> None:
        self._fresh()
        pl = f["pl"]
        perms = self.perms.values()
        attackers = [p for p in perms if p.attacking]
        pairs = {tuple(x) for x in f["pairs"]}
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
                opts.append(Action("block", f"block {a.card.label} with {b.card.label}", (b.id, a.id)))
        if not opts:
            self._finish_block(f)
            return
        opts.append(DONE)
        self._ask(pl, K.DECLARE_BLOCKERS, opts, f"player {pl}: declare blockers",
                  {"pairs": [list(p) for p in f["pairs"]]})

    def _answer_block(self, f: dict, a: Action) -> None:
        if a.verb == "done":
            self._finish_block(f)
        else:
            f["pairs"].append(list(a.args))

    def _finish_block(self, f: dict) -> None:
        self.frames.pop()
        for b_id, a_id in f["pairs"]:
            b, a = self.perms[b_id], self.perms[a_id]
            b.blocking.append(a_id)
            a.blocked = True
            a.blockers.append(b_id)
        for a in self.perms.values():
            if a.attacking:
                by = ", ".join(self.perms[b].card.label for b in a.blockers)
                self._log(f"{a.card.label}: blocked by {by}" if a.blocked else f"{a.card.label}: unblocked")
        for b_id, a_id in f["pairs"]:
            self._event("blocks", perm=b_id, attacker=a_id)
        for b_id, a_id in f["pairs"]:
            self._event("becomes_blocked_by", perm=a_id, blocker=b_id)
        for a in [p for p in self.perms.values() if p.attacking and p.blocked]:
            self._event("becomes_blocked", perm=a.id)

    def _remove_from_combat(self, perm: Permanent) -> None:
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

    def _end_combat(self) -> None:
        for p in self.perms.values():
            p.attacking = False
            p.blocking = []
            p.blocked = False
            p.blockers = []
            p.struck_first = False
        self.fs_checked = False
        self.fs_step = False
        self.any_attackers = False

    def _begin_combat_damage(self) -> None:
        self._fresh()
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
        self.frames.append({"k": "assign", "queue": queue, "qi": 0, "out": [], "cur": None,
                            "fs": fs})

    def _run_assign(self, f: dict) -> None:
        while True:
            cur = f["cur"]
            if cur is None:
                if f["qi"] >= len(f["queue"]):
                    self._finish_assign(f)
                    return
                pid = f["queue"][f["qi"]]
                f["qi"] += 1
                p = self.perms.get(pid)
                if p is None or p.power <= 0:
                    continue
                if f["fs"]:
                    p.struck_first = True
                recips = self._damage_recipients(p)
                if not recips:
                    continue
                cur = {"pid": pid, "rem": p.power, "recips": recips, "ri": 0, "got": []}
                f["cur"] = cur
            p = self.perms.get(cur["pid"])
            recips = cur["recips"]
            rem = cur["rem"]
            ri = cur["ri"]
            trample = p is not None and p.attacking and "trample" in p.keywords
            n_blockers = len(recips) - (1 if recips[-1][0] == "p" and len(recips) > 1 else 0)
            if recips[0][0] == "p" and len(recips) == 1:
                self._assign_out(f, p, recips[0], rem)
                f["cur"] = None
                continue
            if rem == 0 or (ri >= len(recips) - 1 and not (trample and ri == n_blockers - 1)):
                if rem and ri < len(recips):
                    self._assign_out(f, p, recips[ri], rem)
                f["cur"] = None
                continue
            lo, hi = 0, rem
            if trample and ri == n_blockers - 1:
                all_lethal = all(got >= self._lethal(f, recips[i], p)
                                 for i, got in enumerate(cur["got"]))
                if all_lethal and recips[-1][0] == "p":
                    lo = min(self._lethal(f, recips[ri], p), rem)
                else:
                    lo = rem
            if lo == hi:
                self._assign_amount(f, cur, lo)
                continue
            target = recips[ri]
            name = self._ref_text(target)
            opts = [Action("assign", f"assign {n} damage to {name}", (n,)) for n in range(lo, hi + 1)]
            self._ask(p.controller, K.COMBAT_DAMAGE, opts,
                      f"{p.card.label} assigns combat damage ({rem} left)",
                      {"source": p.id, "remaining": rem, "recipient": list(target),
                       "assigned": [e[:4] for e in f["out"]]})
            return

    def _answer_assign(self, f: dict, a: Action) -> None:
        self._assign_amount(f, f["cur"], a.args[0])

    def _assign_amount(self, f: dict, cur: dict, n: int) -> None:
        p = self.perms[cur["pid"]]
        target = cur["recips"][cur["ri"]]
        if n:
            self._assign_out(f, p, target, n)
        cur["got"].append(n)
        cur["rem"] -= n
        cur["ri"] += 1
        if cur["rem"] and cur["ri"] == len(cur["recips"]) - 1:
            self._assign_out(f, p, cur["recips"][cur["ri"]], cur["rem"])
            cur["rem"] = 0
        if cur["rem"] == 0 or cur["ri"] >= len(cur["recips"]):
            f["cur"] = None

    def _lethal(self, f: dict, target: tuple, src: Permanent) -> int:
        if target[0] != "o":
            return 0
        b = self.perms.get(target[1])
        if b is None:
            return 0
        # 2007 CR 502.9: count damage already on it and damage *other* creatures assign to it in
        # this step, not what this source has just assigned to it.
        already = sum(e[3] for e in f["out"]
                      if e[1] == "o" and e[2] == target[1] and e[0] != src.id)
        return max(b.toughness - b.damage - already, 0)

    def _assign_out(self, f: dict, p: Permanent, target: tuple, n: int) -> None:
        if n > 0:
            # The last field: dealt by an unblocked creature (Kjeldoran Royal Guard).
            f["out"].append([p.id, target[0], target[1], n, p.card.label,
                             "".join(sorted(p.colors)), p.controller,
                             bool(p.attacking and not p.blocked)])

    def _damage_recipients(self, p: Permanent) -> list[tuple]:
        if p.attacking:
            dp = ("p", 1 - p.controller)
            if not p.blocked:
                return [dp]
            blockers = [("o", b) for b in p.blockers if b in self.perms and self.perms[b].is_creature]
            if "trample" in p.keywords:
                return [*blockers, dp]
            return blockers
        return [("o", a) for a in p.blocking if a in self.perms and self.perms[a].is_creature]

    def _finish_assign(self, f: dict) -> None:
        self.frames.pop()
        if not f["out"]:
            return
        item = StackItem(self._id(), "combat_damage", self.active, label="combat damage",
                         data={"assign": f["out"], "first_strike": f["fs"]})
        self.stack.append(item)  # 2007 CR 310.2: one stack object for all of it
        parts = [f"{e[4]}: {e[3]} to {self._ref_text((e[1], e[2]))}" for e in f["out"]]
        self._log("combat damage on the stack: " + "; ".join(parts))

    def _resolve_combat_damage(self, item: StackItem) -> None:
        # 2007 CR 310.4: dealt as assigned, even if sources left play or changed.
        for pid, kind, tid, n, label, colors, ctrl, unblocked in item.data["assign"]:
            src = {"pid": pid if pid in self.perms else None, "label": label,
                   "colors": colors, "controller": ctrl, "unblocked": unblocked}
            if kind == "o":
                t = self.perms.get(tid)
                if t is None or not t.is_creature:
                    continue
            self.deal_damage(src, (kind, tid), n, combat=True)

    def dirty_combat(self, perm: Permanent) -> None:
        """A permanent whose controller changed leaves combat (2012 506.4)."""
        if perm.attacking or perm.blocking:
            self._remove_from_combat(perm)
