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

from typing import TYPE_CHECKING, Any, get_args

from . import priority  # a module import: priority imports this module
from .actions import KEEP, MULLIGAN, Action, DecisionKind
from .choices import choose_frame
from .combat import end_combat
from .combat_damage import begin_combat_damage
from .damage import lose_life
from .frames import (
    AttackFrame,
    BlockFrame,
    CleanupFrame,
    DelayedMoment,
    DelayedTrigger,
    MulliganFrame,
    PendingTrigger,
    ResolveFrame,
)
from .knowledge import shuffle_library
from .layers import fresh, mark_dirty
from .model import (
    Permanent,
    Player,
)
from .replacement_effects import end_of_turn
from .seating import (
    active_players,
    apnap_order,
    compute_influence,
    defending_player,
    first_priority,
    next_in_turn_order,
    players_in_game,
    previous_in_turn_order,
    team_of,
    teams,
)
from .stack import spell_off_stack
from .state_based import check_state_based
from .triggers import push_triggers, report_event
from .zones import draw_cards

if TYPE_CHECKING:
    from .game import Game

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
DELAYED_MOMENTS: tuple[str, ...] = get_args(DelayedMoment)
MAX_HAND_SIZE = 7

K = DecisionKind


def turn_flow(g: Game) -> None:
    if not g.step_begun:
        g.step_begun = True
        begin_step(g)
        return
    step = g.step
    if step == "untap":
        end_step(g)
        return
    if step == "cleanup" and not g.cleanup_prio:
        acted = check_state_based(g)
        if g.is_over:
            return
        if acted or g.pending:
            g.cleanup_prio = True  # 2012 514.3a: priority, then another cleanup step
        else:
            end_step(g)
            return
    if g.prio < 0:
        g.prio = first_priority(g)
        g.passes = 0
    # 2007 CR 420.3: SBEs until none, then triggers, then priority.
    if g.quiet_action:
        g.quiet_action = False
    else:
        check_state_based(g)
        if g.is_over:
            return
    if g.pending:
        push_triggers(g)
        return
    priority.ask_priority(g, g.prio)


def begin_step(g: Game) -> None:
    step = g.step
    ap = g.active
    if step == "untap" and g.ranges:
        g.influence = compute_influence(g)  # 2012 801.2c: as each turn begins
    # The active players: the player whose turn it is, or a Two-Headed Giant team (805.4).
    if g.variant == "two_headed_giant":
        team = active_players(g)
    else:
        team = () if g.players[ap].lost else (ap,)
    if step == "untap":
        life = ", ".join(f"player {P.index} {P.life} life" for P in g.players if not P.lost)
        whose = f"player {ap}" if len(team) == 1 else "players " + " and ".join(map(str, team))
        g.write_log(f"--- turn {g.turn}: {whose} ({life}) ---")
        for pl in team:
            g.players[pl].lands_played = 0
        if g.attacked_this_turn:
            g.attacked_this_turn = ()
        for p in g.players:
            p.life_lost_this_turn = 0
            p.damage_taken_this_turn = 0
            p.spells_played_this_turn = 0
        if g.died_this_turn:
            g.died_this_turn = []
        if g.damaged_this_turn:
            g.damaged_this_turn = []
        fresh(g)
        # Seedborn Muse: "Untap all permanents you control during each other player's untap
        # step." ("doesn't untap during its controller's untap step" doesn't stop that.)
        others = g.rule_mods.get("untap_during_others_untap", ())
        for perm in g.perms.values():
            perm.used_this_turn = {}
            if perm.controller in team:
                perm.sick = False
                if perm.tapped and not doesnt_untap(g, perm):
                    perm.tapped = False
            elif perm.controller in others:
                perm.tapped = False
    elif step == "upkeep":
        # The upkeep of a player who left still happens (2012 800.4h).
        for pl in (team if g.variant == "two_headed_giant" else (ap,)):
            report_event(g, "upkeep", player=pl)
    elif step == "draw":
        # "At the beginning of each player's draw step" triggers after the turn's draw,
        # a turn-based action (2007 CR 304.1, 410.5). A team's players draw in APNAP order.
        for pl in team:
            if g.turn == 1 and (len(g.players) == 2 or g.variant == "two_headed_giant"):
                # 2007 CR 101.6 (the play/draw rule); in Two-Headed Giant the team that
                # plays first skips its first draw (2007 glossary; 2012 810.6); other
                # multiplayer games don't use the rule (2012 800.6).
                g.write_log(f"player {pl} skips the first draw (play/draw rule)")
                report_event(g, "draw_step", player=pl)
            else:
                draw_cards(g, pl, 1, after=("draw_step", {"player": pl}))
    elif step == "beginning_of_combat":
        if len(g.players) > 2 and g.variant != "two_headed_giant":
            choose_defender(g)
    elif step == "declare_attackers":
        g.any_attackers = False
        if g.variant == "two_headed_giant":
            # 2012 810.7a, 810.7c: the active team declares one combined attack, each player
            # the creatures they control, in APNAP order (the frame on top runs first).
            for pl in reversed(team):
                g.frames.append(AttackFrame(pl, []))
        elif team and (len(g.players) == 2 or g.defender >= 0 or g.attack_option == "multiple"):
            g.frames.append(AttackFrame(ap, []))
    elif step == "declare_blockers":
        if g.variant == "two_headed_giant":
            # 2012 810.7d: the defending team declares one combined block, each player with the
            # creatures they control, which may block any attacker; in APNAP order.
            for pl in reversed([q for q in apnap_order(g) if q not in team]):
                g.frames.append(BlockFrame(pl, []))
        elif g.attack_whom:
            # 2012 802.4: each defending player attacked declares blockers, in APNAP order
            # (the frame on top runs first).
            attacked = {pl for _, pl in g.attack_whom}
            for pl in reversed(apnap_order(g)):
                if pl in attacked:
                    g.frames.append(BlockFrame(pl, []))
        elif g.attack_option != "multiple":
            defender = defending_player(g)
            if not g.players[defender].lost:  # 2012 800.4a: a player who left declares nothing
                g.frames.append(BlockFrame(defender, []))
    elif step == "combat_damage":
        begin_combat_damage(g)
    elif step == "end_of_combat":
        if g.delayed:
            fire_delayed(g, "end_of_combat")
    elif step == "end_of_turn":
        report_event(g, "end_of_turn", player=ap)
        if g.delayed:
            fire_delayed(g, "end_of_turn")
    elif step == "cleanup":
        g.cleanup_prio = False
        g.frames.append(CleanupFrame())
        fresh(g)
        for pl in reversed(team):  # in APNAP order: the frame on top runs first
            excess = len(g.players[pl].hand) - MAX_HAND_SIZE
            if excess > 0 and pl not in g.rule_mods.get("no_max_hand_size", ()):  # Spellbook
                g.frames.append(choose_frame(g,
                    pl, [("h", c.cid) for c in g.players[pl].hand], excess, excess,
                    "discard", f"discard {excess} card(s) down to {MAX_HAND_SIZE}"))


def end_step(g: Game) -> None:
    step = g.step
    g.prio = -1
    g.passes = 0
    g.step_begun = False
    if step == "cleanup" and g.cleanup_prio:
        return  # 2012 514.3a: after priority in a cleanup step, another cleanup step follows
    if step in PHASE_END_STEPS:
        empty_pools(g)
    if step == "end_of_combat":
        end_combat(g)
    if step == "cleanup":
        next_turn(g)
        return
    if step == "combat_damage" and g.fs_step:
        g.fs_step = False  # 2007 CR 310.5: a second combat damage step follows
        return
    queue = g.step_queue
    if step == "declare_attackers" and not g.any_attackers:
        # 2012 508.8: skip the declare blockers and combat damage steps.
        queue = queue[queue.index("end_of_combat"):]
    g.step = queue[0]
    g.step_queue = tuple(queue[1:])


def next_turn(g: Game) -> None:
    if g.max_turns is not None and g.turn >= g.max_turns:
        g.write_log(f"turn limit {g.max_turns} reached")
        g.end_game(list(players_in_game(g)), "turn limit")
        return
    g.turn += 1
    # 2012 500.7: extra turns come directly after the current turn; then the regular order
    # resumes after the player whose regular turn came last.
    normal = g.active if g.normal_turn is None else g.normal_turn
    while g.extra_turns and g.players[g.extra_turns[0]].lost:
        g.extra_turns = tuple(g.extra_turns[1:])  # 2012 800.4a: a player who left takes no turn
    if g.extra_turns:
        g.normal_turn = normal
        g.active = g.extra_turns[0]
        g.extra_turns = tuple(g.extra_turns[1:])
        g.write_log(f"player {g.active} takes an extra turn")
    else:
        g.normal_turn = None
        # Shared team turns (2012 805.4): the turn passes to the next team, whose first seat
        # is its active player of record.
        last = teams(g)[team_of(g, normal)][-1] if g.variant == "two_headed_giant" else normal
        g.active = next_in_turn_order(g, last)
    g.step = "untap"
    g.step_queue = TURN_STEPS


def choose_defender(g: Game) -> None:
    """Multiplayer: the defending player of this combat, chosen as it begins (2012 506.2a) by
    the attack option: the nearest opponent to the active player's left (attack left: the next
    player in turn order) or right (2012 803.1a-b). Players who have left the game have no seat.
    With no such opponent, or a departed active player, there is none and nobody attacks.
    Under the attack multiple players option every opponent is a defending player (802.2):
    there is no single one, and each attacker's is chosen as it is declared."""
    ap = g.active
    if g.players[ap].lost or g.attack_option == "multiple":
        g.defender = -1
        return
    d = (next_in_turn_order(g, ap) if g.attack_option == "left"
         else previous_in_turn_order(g, ap))
    # 2012 801.3: an opponent out of range can't be attacked.
    g.defender = d if d != ap and (not g.influence or d in g.influence[ap]) else -1


def add_extra_turns(g: Game, player: int, n: int) -> None:
    """2012 500.7: ``player`` takes ``n`` extra turns directly after this one (added one at a
    time, so they come before any extra turn created earlier)."""
    g.extra_turns = (player,) * n + tuple(g.extra_turns)


def add_combat_and_main_phase(g: Game) -> bool:
    """Relentless Assault: "After this main phase, there is an additional combat phase
    followed by an additional main phase." Only during a main phase (its ruling); the new
    phases come before any other phase added after this one (2012 500.8). The additional
    main phase is a postcombat main phase (2012 505.1a). Returns whether phases were added."""
    if g.step not in MAIN_STEPS:
        return False
    g.step_queue = (*COMBAT_PHASE, "postcombat_main", *g.step_queue)
    return True


def end_the_turn(g: Game) -> None:
    """End the turn (Time Stop; 2012 713.1): exile every object on the stack, the resolving
    one included (its resolution still finishes); remove all creatures from combat; check
    state-based actions, with no priority and no triggers put on the stack; end the current
    step and phase and skip straight to the cleanup step. Triggers that trigger meanwhile
    wait in ``pending``: they go on the stack in the cleanup step, which then repeats (713.2
    of 2012, 514.3a)."""
    for item in g.stack:
        if item.kind == "spell" and item.card is not None:
            spell_off_stack(g, item, "removed")
    if g.stack:
        g.write_log("the turn ends: " + ", ".join(s.label for s in g.stack)
                  + " removed from the game")
    else:
        g.write_log("the turn ends")
    g.stack = []
    # Unwind every procedure in progress (declarations, choices, trigger ordering) except the
    # resolution that is ending the turn, which finishes with nothing left to do.
    top = g.frames[-1] if g.frames else None
    g.frames = [top] if isinstance(top, ResolveFrame) else []
    end_combat(g)
    check_state_based(g)
    if g.is_over:
        return
    empty_pools(g)  # 2007 CR 300.3: the current phase ends
    g.step = "cleanup"
    g.step_queue = ()
    g.step_begun = False
    g.cleanup_prio = False
    g.prio = -1
    g.passes = 0


def add_delayed_trigger(g: Game, at: DelayedMoment, controller: int, source: int | None,
                        name: str, card: str, text: str, effects: list[dict[str, Any]]) -> None:
    """Create a delayed triggered ability (2012 603.7): at the beginning of the next ``at``
    step (one of :data:`DELAYED_MOMENTS`) it triggers once, controlled by ``controller``,
    its source ``source`` (603.7d-e), and is then gone (603.7b)."""
    g.delayed = (*g.delayed, DelayedTrigger(at, controller, source, name, card, text, effects))


def fire_delayed(g: Game, at: str) -> None:
    keep = []
    for d in g.delayed:
        if d.at != at:
            keep.append(d)
            continue
        g.pending.append(PendingTrigger(d.controller, d.name, d.text, d.source, card=d.card,
                                        effects=d.effects))
    g.delayed = tuple(keep)


def empty_pools(g: Game) -> None:
    """2007 CR 300.3: pools empty at the end of each phase; each player loses 1 life per
    unspent mana (mana burn: life loss, not damage)."""
    fresh(g)
    if g.no_mana_empty:
        return
    for P in g.players:
        n = sum(P.mana_pool)
        if n:
            P.mana_pool = [0, 0, 0, 0, 0, 0]
            lose_life(g, P.index, n)
            g.write_log(f"player {P.index} burns for {n} (unspent mana; life {P.life})")


def doesnt_untap(g: Game, perm: Permanent) -> bool:
    return "doesnt_untap" in perm.keywords


def run_cleanup(g: Game, f: CleanupFrame) -> None:
    # 2012 514.2: damage wears off and "until end of turn" effects end, simultaneously.
    g.frames.pop()
    for p in g.perms.values():
        p.damage = 0
        p.regen_shields = 0
        p.cant_regen = False
    if g.effects:
        g.effects = [e for e in g.effects if e.until != "eot"]
        mark_dirty(g, "effects ended")
    end_of_turn(g)  # "this turn" shields (2007 CR 419.6b, 419.7)


def mulligan_size(g: Game, P: Player) -> int:
    """The hand a mulligan draws (2007 CR 101.4: one card fewer); in a multiplayer game the
    first mulligan draws as many again (2012 800.5: seven; from July 2007, RULES_2007.md)."""
    if P.mulligans == 0 and len(g.players) > 2:
        return len(P.hand)
    return max(len(P.hand) - 1, 0)


def run_mulligan(g: Game, f: MulliganFrame) -> None:
    pl = f.player
    P = g.players[pl]
    opts = [KEEP, MULLIGAN] if P.hand else [KEEP]
    g.ask(pl, K.MULLIGAN, opts,
              f"player {pl}: keep {len(P.hand)} cards or mulligan to {mulligan_size(g, P)}",
              {"hand_size": len(P.hand), "mulligans": P.mulligans})


def answer_mulligan(g: Game, f: MulliganFrame, a: Action) -> None:
    pl = f.player
    P = g.players[pl]
    if a.verb == "mulligan":
        n = mulligan_size(g, P)
        P.library.extend(P.hand)
        P.hand = []
        shuffle_library(g, pl)
        P.mulligans += 1
        g.write_log(f"player {pl} mulligans to {n}")
        draw_cards(g, pl, n)
        g.pending = []
        return
    g.write_log(f"player {pl} keeps {len(P.hand)}")
    next_to_keep(g, f)


def next_to_keep(g: Game, f: MulliganFrame) -> None:
    """``f.player`` is done with mulligans: the next player in turn order decides, or, once
    every seat from the starting player round to this one has decided, the game begins."""
    pl = f.player
    nxt = next_in_turn_order(g, pl)
    n = len(g.players)
    first = g.starting_player
    if nxt == pl or (nxt - first) % n <= (pl - first) % n:
        g.frames.pop()
        g.pending = []
        g.write_log("the game begins")
    else:
        f.player = nxt
