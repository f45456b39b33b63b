"""Turn structure: phases and steps, untap, draw, cleanup, mana burn, the opening mulligans.

2007 CR 300-314: a turn is beginning (untap 302, upkeep 303, draw 304), precombat main (305), combat
(306-311), postcombat main, end (312 end of turn, 313 cleanup). 300.3: mana pools empty at the end of
each *phase* and each unspent mana costs 1 life (mana burn). 101.4: mulligans, starting player first.
2012 514.3a: a cleanup step in which anything happened gives priority and is followed by another.
"""

from __future__ import annotations

from .actions import KEEP, MULLIGAN, Action, DecisionKind
from .model import (
    Permanent,
)
from .replacement import end_of_turn

STEPS = (
    "untap", "upkeep", "draw", "precombat_main", "beginning_of_combat", "declare_attackers",
    "declare_blockers", "combat_damage", "end_of_combat", "postcombat_main", "end_of_turn",
    "cleanup",
)
STEP_INDEX = {s: i for i, s in enumerate(STEPS)}
MAIN_STEPS = frozenset({"precombat_main", "postcombat_main"})
# 2007 CR 300.3: mana pools empty when a *phase* ends; these are the last steps of each phase.
PHASE_END_STEPS = frozenset({"draw", "precombat_main", "end_of_combat", "postcombat_main", "cleanup"})
COMBAT_STEPS = frozenset({"beginning_of_combat", "declare_attackers", "declare_blockers",
                          "combat_damage", "end_of_combat"})
MAX_HAND_SIZE = 7

K = DecisionKind


class TurnStructure:
    """Mixed into :class:`~mtg_env.engine.game.Game`."""

    def _flow(self) -> None:
        if not self.step_begun:
            self.step_begun = True
            self._begin_step()
            return
        step = self.step
        if step == "untap":
            self._end_step()
            return
        if step == "cleanup" and not self.cleanup_prio:
            acted = self._sba_loop()
            if self.is_over:
                return
            if acted or self.pending:
                self.cleanup_prio = True  # 2012 514.3a: priority, then another cleanup step
            else:
                self._end_step()
                return
        if self.prio < 0:
            self.prio = self.active
            self.passes = 0
        # 2007 CR 420.3: SBEs until none, then triggers, then priority.
        if self._quiet:
            self._quiet = False
        else:
            self._sba_loop()
            if self.is_over:
                return
        if self.pending:
            self._push_triggers()
            return
        self._ask_priority(self.prio)

    def _begin_step(self) -> None:
        step = self.step
        ap = self.active
        if step == "untap":
            life = ", ".join(f"player {P.index} {P.life} life" for P in self.players)
            self._log(f"--- turn {self.turn}: player {ap} ({life}) ---")
            P = self.players[ap]
            P.lands_played = 0
            for p in self.players:
                p.life_lost_this_turn = 0
                p.damage_taken_this_turn = 0
                p.spells_played_this_turn = 0
            self._fresh()
            # Seedborn Muse: "Untap all permanents you control during each other player's untap
            # step." ("doesn't untap during its controller's untap step" doesn't stop that.)
            others = self.rule_mods.get("untap_during_others_untap", ())
            for perm in self.perms.values():
                perm.used_this_turn = {}
                if perm.controller == ap:
                    perm.sick = False
                    if perm.tapped and not self._doesnt_untap(perm):
                        perm.tapped = False
                elif perm.controller in others:
                    perm.tapped = False
        elif step == "upkeep":
            self._event("upkeep", player=ap)
        elif step == "draw":
            if self.turn == 1:
                self._log(f"player {ap} skips the first draw (play/draw rule)")
            else:
                self._draw(ap, 1)
        elif step == "declare_attackers":
            self.any_attackers = False
            self.frames.append({"k": "attack", "pl": ap, "declared": []})
        elif step == "declare_blockers":
            self.frames.append({"k": "block", "pl": 1 - ap, "pairs": []})
        elif step == "combat_damage":
            self._begin_combat_damage()
        elif step == "end_of_turn":
            self._event("end_of_turn", player=ap)
        elif step == "cleanup":
            self.cleanup_prio = False
            self.frames.append({"k": "cleanup"})
            self._fresh()
            excess = len(self.players[ap].hand) - MAX_HAND_SIZE
            if excess > 0 and ap not in self.rule_mods.get("no_max_hand_size", ()):  # Spellbook
                self.frames.append(self._choose_frame(
                    ap, [("h", c.cid) for c in self.players[ap].hand], excess, excess,
                    "discard", f"discard {excess} card(s) down to {MAX_HAND_SIZE}"))

    def _end_step(self) -> None:
        step = self.step
        self.prio = -1
        self.passes = 0
        self.step_begun = False
        if step == "cleanup" and self.cleanup_prio:
            return  # 2012 514.3a: after priority in a cleanup step, another cleanup step follows
        if step in PHASE_END_STEPS:
            self._empty_pools()
        if step == "end_of_combat":
            self._end_combat()
        if step == "cleanup":
            self._next_turn()
            return
        if step == "combat_damage" and self.fs_step:
            self.fs_step = False  # 2007 CR 310.5: a second combat damage step follows
            return
        if step == "declare_attackers" and not self.any_attackers:
            self.step = "end_of_combat"  # 2012 508.8: skip blockers and damage
            return
        self.step = STEPS[STEP_INDEX[step] + 1]

    def _next_turn(self) -> None:
        if self.max_turns is not None and self.turn >= self.max_turns:
            self._log(f"turn limit {self.max_turns} reached")
            self._end_game([0, 1], "turn limit")
            return
        self.turn += 1
        self.active = 1 - self.active
        self.step = "untap"

    def _empty_pools(self) -> None:
        """2007 CR 300.3: pools empty at the end of each phase; each player loses 1 life per
        unspent mana (mana burn: life loss, not damage)."""
        self._fresh()
        if self.no_mana_empty:
            return
        for P in self.players:
            n = sum(P.mana_pool)
            if n:
                P.mana_pool = [0, 0, 0, 0, 0, 0]
                self._lose_life(P.index, n)
                self._log(f"player {P.index} burns for {n} (unspent mana; life {P.life})")

    def _doesnt_untap(self, perm: Permanent) -> bool:
        return "doesnt_untap" in perm.keywords

    def _run_cleanup(self, f: dict) -> None:
        # 2012 514.2: damage wears off and "until end of turn" effects end, simultaneously.
        self.frames.pop()
        for p in self.perms.values():
            p.damage = 0
            p.regen_shields = 0
            p.cant_regen = False
        if self.effects:
            self.effects = [e for e in self.effects if e.get("until") != "eot"]
            self.dirty = True
        end_of_turn(self)  # "this turn" shields (2007 CR 419.6b, 419.7)

    def _run_mulligan(self, f: dict) -> None:
        pl = f["pl"]
        P = self.players[pl]
        opts = [KEEP, MULLIGAN] if P.hand else [KEEP]
        self._ask(pl, K.MULLIGAN, opts,
                  f"player {pl}: keep {len(P.hand)} cards or mulligan to {max(len(P.hand) - 1, 0)}",
                  {"hand_size": len(P.hand), "mulligans": P.mulligans})

    def _answer_mulligan(self, f: dict, a: Action) -> None:
        pl = f["pl"]
        P = self.players[pl]
        if a.verb == "mulligan":
            # 2007 CR 101.4: shuffle the hand in, draw one fewer.
            n = len(P.hand) - 1
            P.library.extend(P.hand)
            P.hand = []
            self._shuffle_library(pl)
            P.mulligans += 1
            self._log(f"player {pl} mulligans to {n}")
            self._draw(pl, n)
            self.pending = []
            return
        self._log(f"player {pl} keeps {len(P.hand)}")
        if f["second"]:
            self.frames.pop()
            self.pending = []
            self._log("the game begins")
        else:
            f["pl"] = 1 - pl
            f["second"] = True
