"""Replacement and prevention effects: one pipeline for every event they can modify.

2007 CR 419 (replacement and prevention effects); the effects themselves (where they come from,
which apply to an event, what each does: 419.1, 419.6b, 419.7, 419.8) are
:mod:`mtg_env.engine.replacement_effects`. This module runs an event through them and performs
it: 419.6b (regeneration: the permanent is tapped, all damage is removed from it and it is
removed from combat) and, where 2007 is silent, 2012 616.1 (if several replacement and/or
prevention effects would apply to one event, the affected player, or the controller of the
affected object, chooses one to apply; the event is then checked again and each effect applies
at most once) and 615.7 (which of simultaneous damage a prevention shield prevents).

**Events** are the typed values of :mod:`mtg_env.engine.replacement_events`; an effect gives a
new event and never changes one in place, so an event waiting for a decision is data in a frame:

- :class:`~.replacement_events.DamageEvent`: damage about to be dealt;
- :class:`~.replacement_events.DestroyEvent`: a permanent about to be destroyed; regeneration
  replaces it with a :class:`~.replacement_events.RegenerateEvent`. :func:`run_event` returns 1
  when the permanent is to be destroyed, and the caller moves the permanents destroyed at the
  same time to the graveyard together (:func:`~mtg_env.engine.damage.destroy_all`);
- :class:`~.replacement_events.DrawEvent`: one card drawn (each card drawn is a separate event,
  2012 120.2); ``zones.draw_cards`` builds it only when a draw replacement exists. With two
  players the order of "draw_instead" effects never changes who draws (each effect moves the
  draw to its controller once; the draw ends with player 1 exactly when more effects move draws
  from player 0 to player 1 than back), so a draw never waits for the order decision. Abundance
  replaces it with a :class:`~.replacement_events.DigEvent`.

**Zone changes to a graveyard.** Every card put into a graveyard, from play or any other zone,
passes :func:`graveyard_destination` (``zones.leave_play`` and ``zones.to_zone``): "if [this
card] would be put into a graveyard from anywhere, reveal it and shuffle it into its owner's
library instead" (static ``shuffle_instead_of_graveyard``, Legacy Weapon; a self-replacement
that functions in every zone, 2012 112.6b) makes the destination the library. A permanent's
leaves-play event then names the library, so "put into a graveyard" triggers don't fire.

:func:`run_event` applies the effects (re-checking after each one, 2012 616.1) and performs the
result. When the order matters it pushes an ``order_repl`` frame (:func:`run_order_repl` runs it) and
the event waits there for :attr:`DecisionKind.ORDER_REPLACEMENTS`. The order is asked only when
two applicable effects that are not identical lead to different results; otherwise they apply in
timestamp order.

**Fast path.** :func:`~mtg_env.engine.damage.deal_damage` and
:func:`~mtg_env.engine.damage.destroy` call into this module only when
:func:`has_damage_effects` / ``game.replacements`` say something could apply (a scan of the
permanents' printed static abilities, no allocation).

**Extension points** (for new cards): a new event (a zone change "instead", "as ... comes
into play", "comes into play tapped") is a new class in :mod:`.replacement_events`: add its
applicable effects to
:func:`~mtg_env.engine.replacement_effects.applicable`, their effect on the event to
:func:`~mtg_env.engine.replacement_effects.apply_effect`, and its performance to
:func:`perform`; the zone functions (``zones.put_into_play`` / ``leave_play``) then build the
event and call :func:`run_event`. A new static replacement is a new static ``kind`` in
:data:`~mtg_env.engine.replacement_effects.STATIC_KINDS` plus its case in ``applicable`` and
``apply_effect``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import combat as combat_rules
from . import damage
from . import stack as stack_rules
from .actions import Action, DecisionKind
from .choices import choose_frame
from .errors import MtgError
from .frames import ResolveFrame
from .frames_choice import ChooseFrame
from .frames_effects import DrawsFrame, OrderReplFrame
from .knowledge import learn
from .replacement_effects import (
    DIG_CHOICES,
    DIG_KIND,
    ApplicableEffect,
    applicable,
    apply_effect,
    limited_shields,
    replacement_statics,
    spend,
)
from .replacement_events import (
    DamageEvent,
    DestroyEvent,
    DigEvent,
    DrawEvent,
    RegenerateEvent,
    ReplacementEvent,
)
from .rules import PROTECTION
from .targets import ref_text
from .triggers import report_event
from .zones import draw_one

if TYPE_CHECKING:
    from .frames import Frame
    from .game import Game

# Statics that replace a card's own move to a graveyard; they function from every zone.
GRAVEYARD_KINDS = frozenset({"shuffle_instead_of_graveyard"})
# What limited shields gave up on the way to a result: sorted ``(effect key, damage prevented)``.
Spent = tuple[tuple[str, int], ...]


def has_damage_effects(g: Game, target: tuple[str, int]) -> bool:
    """Could any replacement or prevention effect apply to damage to ``target``? (fast path)"""
    if g.replacements:
        return True
    if target[0] == "o":
        p = g.perms.get(target[1])
        if p is not None and p.keywords and any(k in p.keywords for k in PROTECTION.values()):
            return True
    for p in g.perms.values():  # noqa: SIM110 (hot path: a plain loop, no generator)
        if p.base.static and replacement_statics(p.base):
            return True
    return False


# -- the order of several effects (2012 616.1) ---------------------------------------------
def _result_key(ev: ReplacementEvent, used: Spent) -> tuple[Any, ...]:
    if isinstance(ev, DrawEvent):
        return ("draw", ("p", ev.player), 1, used)
    if isinstance(ev, DamageEvent):
        return ("damage", ev.target, ev.amount, used)
    return (ev.name, (), None, used)


def _distinct(effs: list[ApplicableEffect]) -> list[ApplicableEffect]:
    """One effect per signature: identical effects need no choice between them."""
    seen: set[str] = set()
    out = []
    for x in effs:
        if x.sig not in seen:
            seen.add(x.sig)
            out.append(x)
    return out


def outcomes(g: Game, ev: ReplacementEvent, used: Spent = ()) -> set[tuple[Any, ...]]:
    """Every final result reachable from ``ev`` over the orders a player could choose."""
    effs = _distinct(applicable(g, ev))
    if not effs:
        return {_result_key(ev, used)}
    res: set[tuple[Any, ...]] = set()
    for x in effs:
        new, n = apply_effect(ev, x)
        res |= outcomes(g, new, _spend(used, x, n))
    return res


def _spend(used: Spent, x: ApplicableEffect, n: int) -> Spent:
    """Record what a limited shield gave up: it matters for later events (2012 615.7)."""
    if n and x.left is not None:
        return tuple(sorted((*used, (x.key, n))))
    return used


def chooser(g: Game, ev: ReplacementEvent) -> int:
    """The affected player, or the controller of the affected object (2012 616.1)."""
    if isinstance(ev, DamageEvent):
        zone, v = ev.target
        return v if zone == "p" else g.perms[v].controller
    if isinstance(ev, (DrawEvent, DigEvent)):
        return ev.player
    return g.perms[ev.pid].controller


def order_choice(g: Game, ev: ReplacementEvent) -> list[ApplicableEffect] | None:
    """The effects the chooser must pick the first of, or None if the order can't matter."""
    effs = applicable(g, ev)
    if len(effs) < 2:
        return None
    effs = _distinct(effs)
    if len(effs) < 2:
        return None
    results = []
    for x in effs:
        new, n = apply_effect(ev, x)
        res = outcomes(g, new, _spend((), x, n))
        x.outcomes = sorted(res)
        results.append(res)
    if all(r == results[0] for r in results):
        return None
    return effs


# -- a shield against simultaneous damage (2012 615.7) ---------------------------------------
SHIELD_VERB = "prevent damage from"


def shield_split_question(g: Game, evs: list[DamageEvent],
                          decided: list[list[Any]]) -> ChooseFrame | None:
    """A choose frame asking which source's damage a shield prevents, or None if none is due.

    ``evs``: damage events dealt simultaneously (combat damage); ``decided``: ``[rid, pid]`` of
    the shields already asked about. When damage from several sources would be dealt at the same
    time and one prevention shield could apply to more than one of them, the player the damage
    would be dealt to, or the controller of the creature, chooses which of it the shield
    prevents (2012 615.7; the 2007 rules agree). Asked only when the choice can matter: the
    shield applies to damage from two or more sources and cannot prevent all of it. A source
    that has left play (its damage is still dealt, 2007 CR 310.4) cannot be pointed at: the
    answer ``done`` then gives the shield to such a source's damage."""
    if len(evs) < 2:
        return None
    shields = limited_shields(g)
    if not shields:
        return None
    asked = {d[0] for d in decided}
    for r in shields:
        shielded, amount = r.target, r.amount
        if r.id in asked or shielded is None or amount is None:
            continue
        key = f"r{r.id}"
        hits = [ev for ev in evs if ev.target == shielded
                and any(x.key == key for x in applicable(g, ev))]
        sources = {ev.source.get("pid") for ev in hits}
        if len(sources) < 2 or sum(ev.amount for ev in hits) <= amount:
            continue
        in_play = [pid for pid in dict.fromkeys(ev.source.get("pid") for ev in hits)
                   if pid is not None]
        gone = None in sources
        what = ref_text(g, shielded)
        f = choose_frame(g, chooser(g, hits[0]), [("o", pid) for pid in in_play],
                            0 if gone else 1, 1, SHIELD_VERB,
                            f"{r.name}: choose the source whose damage to {what} the shield "
                            f"prevents (it prevents {amount} more)"
                            + (" (done: a source that has left play)" if gone else ""),
                            then={"op": "shield_first", "rid": r.id})
        # What the decision context shows (choices.py): the shield and the damage it could meet.
        f.info = {"shield": {"amount": amount, "target": list(shielded)},
                     "damage": [[ev.source.get("pid"), ev.amount] for ev in hits]}
        return f
    return None


def shield_split_order(g: Game, evs: list[DamageEvent],
                       decided: list[list[Any]]) -> list[DamageEvent]:
    """``evs`` in the order that gives each shield to the damage its player chose (2012 615.7):
    the chosen damage is dealt first, and each of those events skips the shields chosen for a
    later one, so a shield meets its chosen damage first and whatever it has left then meets the
    rest. (``decided``: ``[rid, pid]``, ``pid`` None for a source that has left play.)"""
    by_rid = {r.id: r for r in limited_shields(g)}
    picks = []  # (shield key, target, pid)
    for rid, pid in decided:
        r = by_rid.get(rid)
        if r is not None and r.target is not None:
            picks.append((f"r{rid}", r.target, pid))

    def chosen_for(ev: DamageEvent) -> set[str]:
        return {k for k, t, pid in picks if ev.target == t and ev.source.get("pid") == pid}

    first = [ev for ev in evs if chosen_for(ev)]
    rest = [ev for ev in evs if not chosen_for(ev)]
    out = []
    for i, ev in enumerate(first):
        later = set().union(*(chosen_for(x) for x in first[i + 1:]))
        skip = sorted(later - chosen_for(ev))
        out.append(DamageEvent(ev.source, ev.target, ev.amount, ev.combat, ev.no_regen,
                               tuple(skip)) if skip else ev)
    return out + rest


# -- running an event ----------------------------------------------------------------------
def run_event(g: Game, ev: ReplacementEvent, frame: OrderReplFrame | None = None) -> int | None:
    """Apply replacement/prevention effects to ``ev`` until none is left, then perform it.

    Returns what :func:`perform` returns (the damage dealt; 1 for a permanent to be destroyed),
    or None if the event waits for the affected player to order the effects: then an
    ``order_repl`` frame holds it (``frame``, if given, is that frame already on the stack)."""
    while True:
        effs = applicable(g, ev)
        if not effs:
            if frame is not None:
                _drop(g.frames, frame)
            return perform(g, ev)
        if len(effs) > 1 and order_choice(g, ev) is not None:
            if not isinstance(ev, DamageEvent):
                raise MtgError("engine error: ordering replacement effects of a "
                               f"{ev.name} event is not implemented")
            if frame is None:
                # Also while a spell's costs are paid (a painland's damage): the cast frame
                # finishes once this decision is answered (casting.run_cast).
                g.frames.append(OrderReplFrame(ev))
            else:
                frame.event = ev
            return None
        ev = commit(g, ev, effs[0])
        if frame is not None and isinstance(ev, DamageEvent):
            frame.event = ev


def _drop(frames: list[Frame], frame: OrderReplFrame) -> None:
    for i in range(len(frames) - 1, -1, -1):
        if frames[i] is frame:
            del frames[i]
            return


def commit(g: Game, ev: ReplacementEvent, eff: ApplicableEffect) -> ReplacementEvent:
    """Apply one effect for real: the event changes and a shield is used up (2007 CR 419.7)."""
    new, used = apply_effect(ev, eff)
    if eff.rid is not None:
        spend(g, eff.rid, used)
    op = eff.op
    if isinstance(new, DamageEvent):
        if op == "prevent" and used:
            g.write_log(f"{eff.name}: {used} damage to {ref_text(g, new.target)} is prevented")
        elif op == "double":
            g.write_log(f"{eff.name}: the damage is doubled to {new.amount}")
        elif op == "redirect":
            g.write_log(f"{eff.name}: the damage is dealt to {ref_text(g, new.target)} "
                        "instead")
    elif isinstance(ev, DrawEvent):
        if op == "draw_instead":
            g.write_log(f"{eff.name}: player {ev.player} skips that draw; player {eff.to_player} "
                        "draws a card instead")
        elif op == "dig":
            g.write_log(f"{eff.name}: instead of drawing, player {ev.player} reveals cards "
                        f"until a {eff.choice} card")
    return new


def perform(g: Game, ev: ReplacementEvent) -> int:
    """Carry out an event once no effect modifies it any more; returns the damage dealt, or 1
    for a permanent to be destroyed (the caller moves it with the others destroyed at the same
    time, :func:`~mtg_env.engine.damage.destroy_all`)."""
    if isinstance(ev, DamageEvent):
        return damage.perform_damage(g, ev.source, ev.target, ev.amount, ev.combat, ev.no_regen)
    if isinstance(ev, DestroyEvent):
        return 1 if ev.pid in g.perms else 0
    if isinstance(ev, RegenerateEvent):
        p = g.perms.get(ev.pid)
        if p is not None:
            _regenerate(g, p)
    elif isinstance(ev, DrawEvent):
        draw_one(g, ev.player)
    else:
        dig(g, ev.player, ev.kind)
    return 0


def _regenerate(g: Game, perm: Any) -> None:
    """2007 CR 419.6b: tap it, remove all damage from it, remove it from combat."""
    perm.regen_shields = max(perm.regen_shields - 1, 0)
    perm.tapped = True
    perm.damage = 0
    if perm.attacking or perm.blocking:
        combat_rules.remove_from_combat(g, perm)
    g.write_log(f"{perm.card.label} regenerates")


# -- draws and moves to a graveyard ---------------------------------------------------------
_dig_cache: dict[int, tuple[Any, bool]] = {}


def has_dig_effects(g: Game) -> bool:
    """Is a permanent with an optional draw replacement (Abundance) in play? Its controller's
    draws then go through the ``draws`` frame, which can ask them."""
    for p in g.perms.values():
        st = p.base.static
        if not st:
            continue
        key = id(st)
        hit = _dig_cache.get(key)
        if hit is None or hit[0] is not st:
            hit = (st, any(x.kind == DIG_KIND for x in st))
            _dig_cache[key] = hit
        if hit[1]:
            return True
    return False


def dig(g: Game, pl: int, kind: str) -> None:
    """Abundance's replacement: "reveal cards from the top of your library until you reveal a card
    of the chosen kind. Put that card into your hand and put all other cards revealed this way on
    the bottom of your library in any order." Nothing is drawn (no draw triggers; an empty
    library is no draw from an empty library). The player orders the other revealed cards (a
    ``choose_cards`` decision, first chosen highest) unless they all share one name, when the
    order can't matter."""
    from .knowledge import BOTH

    P = g.players[pl]
    revealed = []
    found = None
    for card in P.library:
        revealed.append(card)
        if ("Land" in card.cdef.types) == (kind == "land"):
            found = card
            break
    if revealed:
        learn(g, revealed, BOTH)
        g.write_log(f"player {pl} reveals " + ", ".join(c.label for c in revealed))
    if found is not None:
        P.library.remove(found)
        P.hand.append(found)
        g.write_log(f"player {pl} puts {found.label} into their hand")
    else:
        g.write_log(f"player {pl} reveals no {kind} card")
    rest = [c for c in revealed if c is not found]
    if len({c.cdef.name for c in rest}) > 1:
        g.frames.append(choose_frame(g, pl, [("c", c.cid) for c in rest], len(rest), len(rest),
                                        "put on the bottom",
                                        "put the revealed cards on the bottom of your library "
                                        "(the first chosen highest)",
                                        then={"op": "library_bottom", "learn": BOTH}))
    elif rest:
        for c in rest:
            P.library.remove(c)
            P.library.append(c)
        learn(g, rest, BOTH)
        g.write_log(f"player {pl} puts {len(rest)} card(s) on the bottom of their library")


_gy_cache: dict[int, tuple[Any, bool]] = {}


def graveyard_destination(g: Game, card: Any, statics: Any = None) -> str:
    """Where ``card`` goes when it would be put into a graveyard: the one checkpoint of every
    move to a graveyard (2007 CR 419.1 "instead"). ``statics``: the static abilities it has
    (a permanent's copiable values; default its printed card). Returns ``"graveyard"`` or
    ``"library_shuffle"`` (Legacy Weapon: "reveal it and shuffle it into its owner's library
    instead")."""
    cdef = card.cdef
    if statics is None:
        statics = cdef.static
    if not statics:
        return "graveyard"
    key = id(statics)
    hit = _gy_cache.get(key)
    if hit is None or hit[0] is not statics:
        hit = (statics, any(s.kind in GRAVEYARD_KINDS for s in statics))
        _gy_cache[key] = hit
    return "library_shuffle" if hit[1] else "graveyard"


def run_draws(g: Game, f: DrawsFrame) -> None:
    """The draws still to make, the current draw event, and an event to send once all are
    made (the draw step's)."""
    ev = f.event
    if ev is None:
        if f.remaining <= 0 or g.is_over:
            g.frames.pop()
            if f.after:
                name, data = f.after
                report_event(g, name, **data)
            return
        f.remaining -= 1
        ev = f.event = DrawEvent(f.player)
    while True:
        effs = applicable(g, ev)
        opt = next((x for x in effs if x.optional), None)
        if opt is not None:
            # 2012 616.1: the affected player chooses; an optional effect ("you may
            # instead") may be declined, and then the others apply.
            opts = [Action("mode", f"{opt.name}: reveal until a {c} card", (i,))
                    for i, c in enumerate(DIG_CHOICES)]
            opts.append(Action("no", "draw the card"))
            g.ask(ev.player, DecisionKind.MODE, opts,
                      f"{opt.name}: you may instead choose land or nonland and reveal "
                      "cards until one of that kind",
                      {"effect": opt.key, "choice": "land_or_nonland"})
            return
        if not effs:
            f.event = None
            perform(g, ev)
            return
        new = commit(g, ev, effs[0])
        if not isinstance(new, DrawEvent):  # Abundance's dig: nothing applies to it
            f.event = None
            perform(g, new)
            return
        ev = f.event = new


def answer_draws(g: Game, f: DrawsFrame, a: Action) -> None:
    ev = f.event
    if ev is None:
        raise MtgError("engine error: no draw waits for a replacement choice")
    opt = next(x for x in applicable(g, ev) if x.optional)
    if a.verb == "no":
        f.event = DrawEvent(ev.player, (*ev.applied, opt.key))
        return
    new = commit(g, ev, opt.chosen(DIG_CHOICES[a.args[0]]))
    if isinstance(new, DrawEvent):
        f.event = new
    else:  # Abundance's dig: nothing applies to it, it is performed now
        f.event = None
        perform(g, new)


def run_order_repl(g: Game, f: OrderReplFrame) -> None:
    ev = f.event
    effs = order_choice(g, ev)
    if effs is None:
        if run_event(g, ev, f) is not None:
            _after_event(g)
        return
    opts = [Action("order", f"apply {x.name} first", (i, x.key)) for i, x in enumerate(effs)]
    ctx = {"event": ev.to_json(), "effects": [
        {"key": x.key, "src": x.src, "card": x.card,
         "outcomes": [[o[1][0], o[1][1], o[2]] if o[1] else [None, None, o[2]]
                      for o in x.outcomes]} for x in effs]}
    g.ask(chooser(g, ev), DecisionKind.ORDER_REPLACEMENTS, opts,
          f"choose which effect applies first to {ev.amount} damage to "
          f"{ref_text(g, ev.target)}", ctx)


def answer_order_repl(g: Game, f: OrderReplFrame, a: Action) -> None:
    key = a.args[1]
    for x in applicable(g, f.event):
        if x.key == key:
            new = commit(g, f.event, x)
            if not isinstance(new, DamageEvent):  # pragma: no cover - apply_effect keeps damage
                raise MtgError("engine error: a damage event stopped being damage")
            f.event = new
            return
    raise MtgError(f"engine error: replacement effect {key!r} no longer applies")


def _after_event(g: Game) -> None:
    # Damage suspended by the order decision is dealt after its spell/ability's other effects
    # were checked; lifelink for it triggers now unless a resolution will flush it (502.68).
    if not any((isinstance(f, ResolveFrame) and stack_rules.find_item(g, f.item_id) is not None)
               or isinstance(f, OrderReplFrame) for f in g.frames):
        damage.flush_damage_triggers(g)
