"""Turn structure: phases and steps, untap, draw, cleanup, mana burn, the opening mulligans.

2007 CR 300-314: a turn is beginning (untap 302, upkeep 303, draw 304), precombat main (305), combat
(306-311), postcombat main, end (312 end of turn, 313 cleanup). 300.3: mana pools empty at the end of
each *phase* and each unspent mana costs 1 life (mana burn). 101.4: mulligans, starting player first.
2012 514.3a: a cleanup step in which anything happened gives priority and is followed by another.

The turn is a queue, not a fixed list: ``step_queue`` holds the steps still to come this turn, so
an effect can add phases (2012 500.8: Relentless Assault's additional combat and main phase, the
most recently created first) or skip to the cleanup step (2012 713: Time Stop ends the turn).
``extra_turns`` holds the extra turns to come (2012 500.7: added directly after the current turn,
the most recently created taken first); ``normal_turn`` remembers whose regular turn the game
returns to after them. ``delayed`` holds delayed triggered abilities created by effects (2007
glossary, 404.4; 2012 603.7): each fires once, at the next named moment, and is then gone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .actions import KEEP, MULLIGAN, Action, DecisionKind
from .choices import choose_frame
from .damage import lose_life
from .frames import AttackFrame, BlockFrame, CleanupFrame, MulliganFrame, ResolveFrame
from .knowledge import shuffle_library
from .layers import fresh, mark_dirty
from .model import (
    Permanent,
)
from .replacement_effects import end_of_turn
from .state_based import check_state_based
from .triggers import push_triggers, report_event

if TYPE_CHECKING:
    from .game import GameSelf
    from .state import GameState
else:
    GameState = object  # the state's types are for the type checker only (state.py)

STEPS = (
    "untap", "upkeep", "draw", "precombat_main", "beginning_of_combat", "declare_attackers",
    "declare_blockers", "combat_damage", "end_of_combat", "postcombat_main", "end_of_turn",
    "cleanup",
)
STEP_INDEX = {s: i for i, s in enumerate(STEPS)}
TURN_STEPS = STEPS[1:]  # the steps after the untap step of a normal turn
MAIN_STEPS = frozenset({"precombat_main", "postcombat_main"})
# 2007 CR 300.3: mana pools empty when a *phase* ends; these are the last steps of each phase.
PHASE_END_STEPS = frozenset({"draw", "precombat_main", "end_of_combat", "postcombat_main", "cleanup"})
COMBAT_PHASE = ("beginning_of_combat", "declare_attackers", "declare_blockers", "combat_damage",
                "end_of_combat")
COMBAT_STEPS = frozenset(COMBAT_PHASE)
# Moments a delayed triggered ability can wait for: the beginning of these steps.
DELAYED_MOMENTS = ("end_of_combat", "end_of_turn")
MAX_HAND_SIZE = 7

K = DecisionKind


class TurnStructure(GameState):
    """Mixed into :class:`~mtg_env.engine.game.Game`."""

    def _flow(self: GameSelf) -> None:
        if not self.step_begun:
            self.step_begun = True
            self._begin_step()
            return
        step = self.step
        if step == "untap":
            self._end_step()
            return
        if step == "cleanup" and not self.cleanup_prio:
            acted = check_state_based(self)
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
            check_state_based(self)
            if self.is_over:
                return
        if self.pending:
            push_triggers(self)
            return
        self._ask_priority(self.prio)

    def _begin_step(self: GameSelf) -> None:
        step = self.step
        ap = self.active
        if step == "untap":
            life = ", ".join(f"player {P.index} {P.life} life" for P in self.players)
            self._log(f"--- turn {self.turn}: player {ap} ({life}) ---")
            P = self.players[ap]
            P.lands_played = 0
            if self.attacked_this_turn:
                self.attacked_this_turn = ()
            for p in self.players:
                p.life_lost_this_turn = 0
                p.damage_taken_this_turn = 0
                p.spells_played_this_turn = 0
            if self.died_this_turn:
                self.died_this_turn = []
            if self.damaged_this_turn:
                self.damaged_this_turn = []
            fresh(self)
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
            report_event(self, "upkeep", player=ap)
        elif step == "draw":
            # "At the beginning of each player's draw step" triggers after the turn's draw,
            # a turn-based action (2007 CR 304.1, 410.5).
            if self.turn == 1:
                self._log(f"player {ap} skips the first draw (play/draw rule)")
                report_event(self, "draw_step", player=ap)
            else:
                self._draw(ap, 1, after=("draw_step", {"player": ap}))
        elif step == "declare_attackers":
            self.any_attackers = False
            self.frames.append(AttackFrame(ap, []))
        elif step == "declare_blockers":
            self.frames.append(BlockFrame(1 - ap, []))
        elif step == "combat_damage":
            self._begin_combat_damage()
        elif step == "end_of_combat":
            if self.delayed:
                self._fire_delayed("end_of_combat")
        elif step == "end_of_turn":
            report_event(self, "end_of_turn", player=ap)
            if self.delayed:
                self._fire_delayed("end_of_turn")
        elif step == "cleanup":
            self.cleanup_prio = False
            self.frames.append(CleanupFrame())
            fresh(self)
            excess = len(self.players[ap].hand) - MAX_HAND_SIZE
            if excess > 0 and ap not in self.rule_mods.get("no_max_hand_size", ()):  # Spellbook
                self.frames.append(choose_frame(self,
                    ap, [("h", c.cid) for c in self.players[ap].hand], excess, excess,
                    "discard", f"discard {excess} card(s) down to {MAX_HAND_SIZE}"))

    def _end_step(self: GameSelf) -> None:
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
        queue = self.step_queue
        if step == "declare_attackers" and not self.any_attackers:
            # 2012 508.8: skip the declare blockers and combat damage steps.
            queue = queue[queue.index("end_of_combat"):]
        self.step = queue[0]
        self.step_queue = tuple(queue[1:])

    def _next_turn(self: GameSelf) -> None:
        if self.max_turns is not None and self.turn >= self.max_turns:
            self._log(f"turn limit {self.max_turns} reached")
            self._end_game([0, 1], "turn limit")
            return
        self.turn += 1
        # 2012 500.7: extra turns come directly after the current turn; then the regular order
        # resumes after the player whose regular turn came last.
        normal = self.active if self.normal_turn is None else self.normal_turn
        if self.extra_turns:
            self.normal_turn = normal
            self.active = self.extra_turns[0]
            self.extra_turns = tuple(self.extra_turns[1:])
            self._log(f"player {self.active} takes an extra turn")
        else:
            self.normal_turn = None
            self.active = 1 - normal
        self.step = "untap"
        self.step_queue = TURN_STEPS

    def add_extra_turns(self: GameSelf, player: int, n: int) -> None:
        """2012 500.7: ``player`` takes ``n`` extra turns directly after this one (added one at a
        time, so they come before any extra turn created earlier)."""
        self.extra_turns = (player,) * n + tuple(self.extra_turns)

    def add_combat_and_main_phase(self: GameSelf) -> bool:
        """Relentless Assault: "After this main phase, there is an additional combat phase
        followed by an additional main phase." Only during a main phase (its ruling); the new
        phases come before any other phase added after this one (2012 500.8). The additional
        main phase is a postcombat main phase (2012 505.1a). Returns whether phases were added."""
        if self.step not in MAIN_STEPS:
            return False
        self.step_queue = (*COMBAT_PHASE, "postcombat_main", *self.step_queue)
        return True

    def end_the_turn(self: GameSelf) -> None:
        """End the turn (Time Stop; 2012 713.1): exile every object on the stack, the resolving
        one included (its resolution still finishes); remove all creatures from combat; check
        state-based actions, with no priority and no triggers put on the stack; end the current
        step and phase and skip straight to the cleanup step. Triggers that trigger meanwhile
        wait in ``pending``: they go on the stack in the cleanup step, which then repeats (713.2
        of 2012, 514.3a)."""
        for item in self.stack:
            if item.kind == "spell" and item.card is not None:
                self._spell_off_stack(item, "removed")
        if self.stack:
            self._log("the turn ends: " + ", ".join(s.label for s in self.stack)
                      + " removed from the game")
        else:
            self._log("the turn ends")
        self.stack = []
        # Unwind every procedure in progress (declarations, choices, trigger ordering) except the
        # resolution that is ending the turn, which finishes with nothing left to do.
        top = self.frames[-1] if self.frames else None
        self.frames = [top] if isinstance(top, ResolveFrame) else []
        self._end_combat()
        check_state_based(self)
        if self.is_over:
            return
        self._empty_pools()  # 2007 CR 300.3: the current phase ends
        self.step = "cleanup"
        self.step_queue = ()
        self.step_begun = False
        self.cleanup_prio = False
        self.prio = -1
        self.passes = 0

    def add_delayed_trigger(self: GameSelf, at: str, controller: int, source: int | None, name: str,
                            card: str, text: str, effects: list[dict[str, Any]]) -> None:
        """Create a delayed triggered ability (2012 603.7): at the beginning of the next ``at``
        step (one of :data:`DELAYED_MOMENTS`) it triggers once, controlled by ``controller``,
        its source ``source`` (603.7d-e), and is then gone (603.7b)."""
        self.delayed = (*self.delayed, {"at": at, "ctrl": controller, "src": source,
                                        "name": name, "card": card, "text": text,
                                        "effects": effects})

    def _fire_delayed(self: GameSelf, at: str) -> None:
        keep = []
        for d in self.delayed:
            if d["at"] != at:
                keep.append(d)
                continue
            self.pending.append({"ctrl": d["ctrl"], "src": d["src"], "name": d["name"],
                                 "card": d["card"], "text": d["text"],
                                 "effects": d["effects"], "ev": {}})
        self.delayed = tuple(keep)

    def _empty_pools(self: GameSelf) -> None:
        """2007 CR 300.3: pools empty at the end of each phase; each player loses 1 life per
        unspent mana (mana burn: life loss, not damage)."""
        fresh(self)
        if self.no_mana_empty:
            return
        for P in self.players:
            n = sum(P.mana_pool)
            if n:
                P.mana_pool = [0, 0, 0, 0, 0, 0]
                lose_life(self, P.index, n)
                self._log(f"player {P.index} burns for {n} (unspent mana; life {P.life})")

    def _doesnt_untap(self: GameSelf, perm: Permanent) -> bool:
        return "doesnt_untap" in perm.keywords

    def _run_cleanup(self: GameSelf, f: CleanupFrame) -> None:
        # 2012 514.2: damage wears off and "until end of turn" effects end, simultaneously.
        self.frames.pop()
        for p in self.perms.values():
            p.damage = 0
            p.regen_shields = 0
            p.cant_regen = False
        if self.effects:
            self.effects = [e for e in self.effects if e.get("until") != "eot"]
            mark_dirty(self, "effects ended")
        end_of_turn(self)  # "this turn" shields (2007 CR 419.6b, 419.7)

    def _run_mulligan(self: GameSelf, f: MulliganFrame) -> None:
        pl = f.player
        P = self.players[pl]
        opts = [KEEP, MULLIGAN] if P.hand else [KEEP]
        self._ask(pl, K.MULLIGAN, opts,
                  f"player {pl}: keep {len(P.hand)} cards or mulligan to {max(len(P.hand) - 1, 0)}",
                  {"hand_size": len(P.hand), "mulligans": P.mulligans})

    def _answer_mulligan(self: GameSelf, f: MulliganFrame, a: Action) -> None:
        pl = f.player
        P = self.players[pl]
        if a.verb == "mulligan":
            # 2007 CR 101.4: shuffle the hand in, draw one fewer.
            n = len(P.hand) - 1
            P.library.extend(P.hand)
            P.hand = []
            shuffle_library(self, pl)
            P.mulligans += 1
            self._log(f"player {pl} mulligans to {n}")
            self._draw(pl, n)
            self.pending = []
            return
        self._log(f"player {pl} keeps {len(P.hand)}")
        if f.second:
            self.frames.pop()
            self.pending = []
            self._log("the game begins")
        else:
            f.player = 1 - pl
            f.second = True
