"""Combat: attacks, blocks, combat damage assignment and damage divided on announcement.

A part of :class:`~agents.heuristic.HeuristicAgent` (mixed into it), reading the redacted
view and the rules data of the cards."""

from __future__ import annotations

from mtg_env.engine.abilities import TargetSpec
from mtg_env.engine.actions import Action, Decision
from mtg_env.engine.view import PermanentView, PlayerView

from ..evaluation import (
    can_block,
    creature_value,
    fight,
    target_candidates,
    trample_through,
)
from .common import find_option, focus_opponent


class CombatPlay:
    """Mixed into :class:`~agents.heuristic.HeuristicAgent`: combat: attacks, blocks, combat
    damage assignment and damage divided on announcement."""

    # -- combat -------------------------------------------------------------------------------
    def _attack(self, view: PlayerView, d: Decision) -> Action:
        key = ("attack", view.turn)
        if self._plan_key != key:
            self._plan_key = key
            self._plan = [(pid,) for pid in self._plan_attack(view, d)]
        target = focus_opponent(view)
        for a in d.options:
            # Attack multiple players (2012 802.3): every planned attacker attacks the focus
            # opponent when it may, else the first player it may attack.
            if a.verb == "attack" and (a.args[0],) in self._plan and (
                    len(a.args) == 1 or a.args[1] == target
                    or not any(o.args[:2] == (a.args[0], target) for o in d.options)):
                return a
        return find_option(d, "done") or d.options[-1]

    def _plan_attack(self, view: PlayerView, d: Decision) -> list[int]:
        me, opp = view.viewer, focus_opponent(view)
        cands = [view.perm(pid) for pid in dict.fromkeys(a.args[0] for a in d.options
                                                          if a.verb == "attack")]
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
                ok = not self._double_block_wins(a, able)
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

    def _tap_helps_my_attack(self, view: PlayerView) -> bool:
        """Tapping a blocker in my beginning of combat is worth more than keeping the tapper
        for the opponent's turn when I have an attacker and their creatures can't hurt me much
        on the crack-back (their power under half my life)."""
        me = view.viewer
        if not any(c.power > 0 and not c.tapped and (not c.sick or "haste" in c.keywords)
                   and not ({"defender", "cant_attack"} & c.keywords) for c in view.creatures(me)):
            return False
        power = sum(max(c.power, 0) for c in view.creatures(focus_opponent(view)))
        return 2 * power < view.players[me].life

    @staticmethod
    def _double_block_wins(att: PermanentView, able: list[PermanentView]) -> bool:
        """Whether some two of ``able`` blocking ``att`` together kill it and lose at most one
        creature worth less than it: a double block the defender wins. Every pair is tried,
        not only the two strongest: two first strikers kill a 5/4 for free where a first
        striker and a plain 2/2 would trade."""
        worth = creature_value(att)
        for i in range(len(able)):
            for j in range(i + 1, len(able)):
                pair = [able[i], able[j]]
                a_dies, dead = fight(att, pair)
                if not a_dies or len(dead) > 1:
                    continue
                if not dead or creature_value(next(b for b in pair if b.id in dead)) < worth - 0.5:
                    return True
        return False

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
        return find_option(d, "done") or d.options[-1]

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
        yes, no = find_option(d, "yes"), find_option(d, "no")
        src = view.perm(d.context.get("source"))
        if src is None or yes is None or no is None:
            return yes or d.options[0]
        opp = focus_opponent(view)
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
