"""Combat damage: the combat damage step, dividing each creature's damage, first and double
strike, and damage prevention shields among simultaneous combat damage.

2007 CR 310 (combat damage: damage goes on the stack as one object, 310.2; attackers' damage is
divided first, 310.1; first strike gives a second combat damage step, 310.5), 502.9 (trample:
lethal damage to the blockers first), 2012 510.1c (Rhox: "as though it weren't blocked"),
615.7 (which of simultaneous damage a prevention shield prevents). Declaring attackers and
blockers is :mod:`mtg_env.engine.combat`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import NO, YES, Action, DecisionKind
from .combat import defender_of
from .damage import deal_damage
from .frames import AssignCursor, AssignFrame
from .ids import new_object_id
from .layers import fresh
from .model import Permanent, StackItem
from .replacement import run_event, shield_split_order, shield_split_question
from .replacement_effects import limited_shields
from .replacement_events import DamageEvent
from .seating import opponents
from .stack_data import StackData
from .targets import ref_text

if TYPE_CHECKING:
    from .game import Game

K = DecisionKind


def begin_combat_damage(g: Game) -> None:
    fresh(g)
    combatants = [p for p in g.perms.values() if p.attacking or p.blocking]
    if not g.fs_checked:
        g.fs_checked = True
        g.fs_step = any({"first_strike", "double_strike"} & p.keywords for p in combatants)
    fs = g.fs_step
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
    queue.sort(key=lambda pid: 0 if g.perms[pid].attacking else 1)
    if g.variant == "two_headed_giant":
        g.attack_whom = ()  # chosen again in each combat damage step (2012 810.7f)
    g.frames.append(AssignFrame(queue, first_strike=fs))


def run_assign(g: Game, f: AssignFrame) -> None:
    while True:
        cur = f.current
        if cur is None:
            if f.next_index >= len(f.queue):
                finish_assign(g, f)
                return
            pid = f.queue[f.next_index]
            f.next_index += 1
            p = g.perms.get(pid)
            if p is None or p.power <= 0:
                continue
            if f.first_strike:
                p.struck_first = True
            if (g.variant == "two_headed_giant" and p.attacking
                    and (not p.blocked or not {"trample", "may_assign_as_unblocked"}.isdisjoint(
                        p.keywords))
                    and all(pid != a for a, _ in g.attack_whom)):
                ask_defending_player(g, f, p)
                return
            if (p.attacking and p.blocked and "may_assign_as_unblocked" in p.keywords
                    and not g.players[defender_of(g, pid)].lost):
                # Rhox: its controller chooses as it assigns (2012 510.1c); asked even
                # when no blocker remains, since it can still hit the player.
                f.current = AssignCursor(pid, ask=True)
                g.ask(p.controller, K.COMBAT_DAMAGE, [YES, NO],
                          f"{p.card.label}: assign its combat damage to player "
                          f"{defender_of(g, pid)} as though it weren't blocked?",
                          {"source": pid, "remaining": p.power,
                           "recipient": ["p", defender_of(g, pid)], "as_unblocked": True,
                           "assigned": [e[:4] for e in f.assigned]})
                return
            recipients = damage_recipients(g, p)
            if not recipients:
                continue
            cur = f.current = AssignCursor(pid, False, p.power, recipients, 0, [])
        # Nothing is played while combat damage is assigned (2007 CR 310.4), so the creature
        # is still in play; a cursor that isn't asking (Rhox) has its recipients.
        p = g.perms.get(cur.perm_id)
        assert p is not None, "the creature assigning combat damage is in play"
        recips = cur.recipients
        assert recips is not None and cur.got is not None, "an assigning cursor has recipients"
        rem = cur.remaining
        ri = cur.index
        trample = p.attacking and "trample" in p.keywords
        n_blockers = len(recips) - (1 if recips[-1][0] == "p" and len(recips) > 1 else 0)
        if recips[0][0] == "p" and len(recips) == 1:
            assign_out(g, f, p, recips[0], rem)
            f.current = None
            continue
        if rem == 0 or (ri >= len(recips) - 1 and not (trample and ri == n_blockers - 1)):
            if rem and ri < len(recips):
                assign_out(g, f, p, recips[ri], rem)
            f.current = None
            continue
        lo, hi = 0, rem
        if trample and ri == n_blockers - 1:
            all_lethal = all(got >= lethal_damage(g, f, recips[i], p)
                             for i, got in enumerate(cur.got))
            if all_lethal and recips[-1][0] == "p":
                lo = min(lethal_damage(g, f, recips[ri], p), rem)
            else:
                lo = rem
        if lo == hi:
            assign_amount(g, f, cur, lo)
            continue
        target = recips[ri]
        name = ref_text(g, target)
        opts = [Action("assign", f"assign {n} damage to {name}", (n,)) for n in range(lo, hi + 1)]
        g.ask(p.controller, K.COMBAT_DAMAGE, opts,
                  f"{p.card.label} assigns combat damage ({rem} left)",
                  {"source": p.id, "remaining": rem, "recipient": list(target),
                   "assigned": [e[:4] for e in f.assigned]})
        return


def ask_defending_player(g: Game, f: AssignFrame, p: Permanent) -> None:
    """Two-Headed Giant: an attacking creature that would assign combat damage to the defending
    team assigns it to one defending player, whom its controller chooses as the combat damage
    step begins (2012 810.7f); the choice is kept in ``attack_whom`` for this step."""
    f.current = AssignCursor(p.id, ask=True)
    opts = [Action("player", f"{p.card.label} assigns its combat damage to player {d}", (d,))
            for d in opponents(g, p.controller)]
    g.ask(p.controller, K.COMBAT_DAMAGE, opts,
          f"{p.card.label}: which defending player does it assign its combat damage to?",
          {"source": p.id, "remaining": p.power, "assigned": [e[:4] for e in f.assigned]})


def answer_assign(g: Game, f: AssignFrame, a: Action) -> None:
    cur = f.current
    assert cur is not None, "an answer about combat damage is about the current creature"
    if cur.ask and a.verb == "player":
        g.attack_whom = (*g.attack_whom, (cur.perm_id, a.args[0]))
        g.write_log(f"{g.perms[cur.perm_id].card.label} assigns its combat damage to player "
                    f"{a.args[0]}")
        f.current = None
        f.next_index -= 1  # the same creature again, now with its defending player
        return
    if cur.ask:
        p = g.perms[cur.perm_id]
        recips = [("p", defender_of(g, p.id))] if a.verb == "yes" else damage_recipients(g, p)
        if a.verb == "yes":
            g.write_log(f"{p.card.label} assigns its combat damage as though it weren't blocked")
        f.current = AssignCursor(p.id, False, p.power, recips, 0, []) if recips else None
        return
    assign_amount(g, f, cur, a.args[0])


def assign_amount(g: Game, f: AssignFrame, cur: AssignCursor, n: int) -> None:
    p = g.perms[cur.perm_id]
    recips = cur.recipients
    got = cur.got
    assert recips is not None and got is not None, "an assigning cursor has recipients"
    if n:
        assign_out(g, f, p, recips[cur.index], n)
    got.append(n)
    cur.remaining -= n
    cur.index += 1
    if cur.remaining and cur.index == len(recips) - 1:
        assign_out(g, f, p, recips[cur.index], cur.remaining)
        cur.remaining = 0
    if cur.remaining == 0 or cur.index >= len(recips):
        f.current = None


def lethal_damage(g: Game, f: AssignFrame, target: tuple[str, int], src: Permanent) -> int:
    if target[0] != "o":
        return 0
    b = g.perms.get(target[1])
    if b is None:
        return 0
    # 2007 CR 502.9: count damage already on it and damage *other* creatures assign to it in
    # this step, not what this source has just assigned to it.
    already: int = sum(e[3] for e in f.assigned
                  if e[1] == "o" and e[2] == target[1] and e[0] != src.id)
    return max(b.toughness - b.damage - already, 0)


def assign_out(g: Game, f: AssignFrame, p: Permanent, target: tuple[str, int],
                n: int) -> None:
    if n > 0:
        # The last field: dealt by an unblocked creature (Kjeldoran Royal Guard).
        f.assigned.append([p.id, target[0], target[1], n, p.card.label,
                         "".join(sorted(p.colors)), p.controller,
                         bool(p.attacking and not p.blocked)])


def damage_recipients(g: Game, p: Permanent) -> list[tuple[str, int]]:
    if p.attacking:
        if p.blocked and "trample" not in p.keywords:
            return [("o", b) for b in p.blockers if b in g.perms and g.perms[b].is_creature]
        defender = defender_of(g, p.id)
        # 2012 800.4e: no combat damage is assigned to a player who left the game.
        to_player: list[tuple[str, int]] = [] if g.players[defender].lost else [("p", defender)]
        if not p.blocked:
            return to_player
        blockers = [("o", b) for b in p.blockers if b in g.perms and g.perms[b].is_creature]
        return [*blockers, *to_player]
    return [("o", a) for a in p.blocking if a in g.perms and g.perms[a].is_creature]


def finish_assign(g: Game, f: AssignFrame) -> None:
    g.frames.pop()
    if not f.assigned:
        return
    item = StackItem(new_object_id(g), "combat_damage", g.active, label="combat damage",
                     data=StackData(assign=f.assigned, first_strike=f.first_strike))
    g.stack.append(item)  # 2007 CR 310.2: one stack object for all of it
    parts = [f"{e[4]}: {e[3]} to {ref_text(g, (e[1], e[2]))}" for e in f.assigned]
    g.write_log("combat damage on the stack: " + "; ".join(parts))


def resolve_combat_damage(g: Game, item: StackItem) -> bool:
    """Deal the combat damage on the stack. Returns True while it waits for a player to
    choose which of this damage a prevention shield prevents (2012 615.7), else False."""
    # 2007 CR 310.4: dealt as assigned, even if sources left play or changed.
    if g.replacements and len(item.data.assign) > 1 and limited_shields(g):
        return combat_damage_with_shields(g, item)
    for pid, kind, tid, n, label, colors, ctrl, unblocked in item.data.assign:
        src = {"pid": pid if pid in g.perms else None, "label": label,
               "colors": colors, "controller": ctrl, "unblocked": unblocked}
        if kind == "o":
            t = g.perms.get(tid)
            if t is None or not t.is_creature:
                continue
        deal_damage(g, src, (kind, tid), n, combat=True)
    return False


def combat_damage_with_shields(g: Game, item: StackItem) -> bool:
    """Combat damage while a "prevent the next N damage" shield is up: its player first
    chooses which source's damage it prevents when it could meet several (2012 615.7,
    :func:`~mtg_env.engine.replacement.shield_split_question`); the answers are kept on the
    stack object (``shield_first``)."""
    evs = []
    for pid, kind, tid, n, label, colors, ctrl, unblocked in item.data.assign:
        if kind == "o":
            t = g.perms.get(tid)
            if t is None or not t.is_creature:
                continue
        src = {"pid": pid if pid in g.perms else None, "label": label,
               "colors": colors, "controller": ctrl, "unblocked": unblocked}
        evs.append(DamageEvent(src, (kind, tid), n, True))
    decided = item.data.shield_first
    f = shield_split_question(g, evs, decided)
    if f is not None:
        f.item_id = item.id
        g.frames.append(f)
        return True
    for ev in shield_split_order(g, evs, decided) if decided else evs:
        run_event(g, ev)
    return False
