"""Zones: moving cards between zones, permanents coming into play and leaving it, drawing.

2007 CR 217 (zones; 217.1a cards go to their owner's zones; 217.1c an object that changes zones
becomes a new object), 216 (tokens cease to exist outside play), 418.5e/418.3 (timestamps).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import choices as choices_rules
from . import combat, replacement
from . import effects as fx
from .actions import Action, DecisionKind
from .continuous_effects import CopyEffect
from .enter_choices import choices_of, defer_enter_choices
from .errors import MtgError
from .frames_choice import ChooseFrame
from .frames_effects import DrawsFrame, EnterChoiceFrame, EnterTogetherFrame
from .ids import new_object_id, next_timestamp
from .knowledge import BOTH, forget, learn, shuffle_library, to_hand_in_public
from .layers import add_effect, fresh, mark_dirty
from .model import (
    Card,
    Permanent,
)
from .registry import card_key
from .replacement_effects import has_draw_effects
from .replacement_events import DrawEvent
from .rules import aura_can_enchant
from .triggers import report_event

if TYPE_CHECKING:
    from .game import Game


def put_into_play(g: Game, card: Card, controller: int, attach_to: int | None = None,
                   tapped: bool = False, copy_of: str | None = None,
                   cast_from_hand: bool = False, chosen: dict[str, str] | None = None,
                   etb: bool = True, copy_chosen: bool = False,
                   in_play_before: Any = None) -> Permanent:
    """``copy_of``: the name of the card definition whose copiable values it comes into play
    with (Clone: "comes into play as a copy", 2007 CR 418.5 layer 1). ``copy_chosen``: the
    copy choice was made already (a resolving spell's, :func:`stack.ask_copy_choice`), even if it
    was to copy nothing; otherwise a card with one (Clone, Sculpting Steel) put into play by
    an effect (Elvish Piper, Warp World) makes it now, among the permanents in play before
    it (``in_play_before``: permanent ids, for cards put into play together; default all).
    ``cast_from_hand``: it is a resolving spell played from its owner's hand (Phage the
    Untouchable). ``chosen``: its "as it comes into play" choices made before (a resolving
    spell's); if it has such choices and none were made, they are asked now
    (:mod:`.enter_choices`). ``etb=False``: its comes-into-play event is left to the caller
    (:func:`put_together`), unless a choice is asked first (:func:`etb_pending`)."""
    perm = Permanent(new_object_id(g), card, controller, next_timestamp(g))
    perm.attached_to = attach_to
    g.perms[perm.id] = perm
    mark_dirty(g, "comes into play")
    etb_data = {"cast_from_hand": True} if cast_from_hand else {}
    if copy_of is None and not copy_chosen and perm.static:
        spec = next((s for s in perm.static if s.kind == "copy_as_enters"), None)
        if spec is not None and ask_copy_on_entering(g, perm, spec, tapped, etb_data,
                                                            in_play_before):
            return perm
    if copy_of is not None:
        become_copy(g, perm, copy_of)
    finish_entering(g, perm, tapped, chosen, etb_data, etb)
    return perm


def finish_entering(g: Game, perm: Permanent, tapped: bool,
                     chosen: dict[str, str] | None, etb_data: dict[str, Any],
                     etb: bool = True) -> None:
    """The rest of coming into play once its copiable values are set: "comes into play
    tapped", the "as it comes into play" choices, then the comes-into-play event."""
    if not tapped and perm.static and any(s.kind == "enters_tapped" and s.affects == "self"
                                          for s in perm.static):
        tapped = True  # "[This] comes into play tapped" (Treetop Village)
    if not tapped:
        tapped = enters_tapped_by_other(g, perm)
    perm.tapped = tapped
    kinds = choices_of(perm.base) if perm.base.static else ()
    if kinds:
        if chosen is not None and all(k in chosen for k in kinds):
            perm.chosen = {k: chosen[k] for k in kinds}
            mark_dirty(g, "choice as it comes into play")
        else:
            defer_enter_choices(g, perm, kinds, etb_data)
            return
    if etb:
        report_event(g, "etb", perm=perm.id, **etb_data)


def ask_copy_on_entering(g: Game, perm: Permanent, spec: Any, tapped: bool,
                          etb_data: dict[str, Any], in_play_before: Any) -> bool:
    """Clone or Sculpting Steel put into play by an effect: "As [this] comes into play, you
    may choose a creature (an artifact) in play" applies however it comes into play (2012
    614.1c, 706.7a: a replacement effect, not a triggered ability). Pushes the choice (0 or
    1 permanent, not itself, none of those entering with it) and returns True if there is
    one; the rest of coming into play waits for it (:func:`~.choices.apply_choice`)."""
    among = set(g.perms if in_play_before is None else in_play_before) - {perm.id}
    return push_copy_choice(g,
        perm.controller, perm.card.label, spec, among=among,
        then={"op": "copy_entering", "pid": perm.id, "tapped": tapped, "etb": etb_data})


def push_copy_choice(g: Game, controller: int, label: str, spec: Any, then: dict[str, Any],
                      sid: int | None = None, among: Any = None) -> bool:
    """Push the choice of a ``copy_as_enters`` static (the permanent to copy, 0 or 1,
    matching its filter; ``among``: the permanent ids it may be, default any in play). It
    doesn't target (shroud doesn't stop it). Returns False when nothing can be chosen: the
    permanent then comes into play as itself."""
    fresh(g)
    flt = spec.params.get("filter", {})
    cands = [("o", p.id) for p in g.perms.values()
             if (among is None or p.id in among) and fx.matches_filter(p, flt, controller)]
    if not cands:
        return False
    what = str(flt.get("type", "permanent")).lower()
    what = ("an " if what[0] in "aeiou" else "a ") + what
    g.frames.append(choices_rules.choose_frame(g, controller, cands, 0, 1, "copy",
                                          f"{label}: you may choose {what} to copy",
                                          then=then, sid=sid))
    return True


def copied_name(g: Game, pid: int | None, label: str) -> str | None:
    """The card name a permanent coming into play copies, with the chosen permanent ``pid``
    (None if none was chosen or it has left play); logs the copy. 2007 CR 503: the copiable
    values are the original's printed values as modified by other copy effects (its
    ``cdef``), not counters, pumps or Auras."""
    orig = g.perms.get(pid) if pid is not None else None
    if orig is None:
        return None
    name = orig.cdef.name
    what = orig.card.label if name == orig.card.name else f"{orig.card.label} ({name})"
    g.write_log(f"{label} comes into play as a copy of {what}")
    return card_key(orig.cdef)


def enter_as_copy(g: Game, pid: int, copied: int | None, tapped: bool,
                  etb_data: dict[str, Any]) -> None:
    """The copy choice of a permanent put into play by an effect was made (``copied``: the
    chosen permanent's id, or None): apply the copy effect, then finish coming into play."""
    perm = g.perms.get(pid)
    if perm is None:
        return
    name = copied_name(g, copied, perm.card.label)
    if name is not None:
        become_copy(g, perm, name)
    finish_entering(g, perm, tapped, None, etb_data)


def become_copy(g: Game, perm: Permanent, name: str) -> None:
    # The copy effect applies as it comes into play, so its comes-into-play triggers and
    # "comes into play tapped" are the copied card's.
    add_effect(g, CopyEffect(pid=perm.id, card=name))
    fresh(g)


def etb_pending(g: Game, pid: int) -> bool:
    """Is the comes-into-play event of permanent ``pid`` waiting for a choice made as it
    comes into play (a copy choice, or an "as it comes into play" choice)?"""
    for f in g.frames:
        if isinstance(f, EnterChoiceFrame):
            if f.perm_id == pid:
                return True
        elif isinstance(f, ChooseFrame) and f.then and f.then.get("op") == "copy_entering" \
                and f.then["pid"] == pid:
            return True
    return False


def enters_tapped_by_other(g: Game, perm: Permanent) -> bool:
    """"Artifacts and lands come into play tapped" (Root Maze): a static ability of another
    permanent in play (2012 614.1c, 614.12: it applies as ``perm`` comes into play, to its
    characteristics as it would exist in play)."""
    for src in g.perms.values():
        if src is perm or not src.static:
            continue
        for s in src.static:
            if s.kind != "enters_tapped" or s.affected is None:
                continue
            types = s.params.get("types")
            if types and not any(t in perm.types for t in types):
                continue
            if s.affected.test(perm, src.controller):
                return True
    return False


def leave_play(g: Game, perm: Permanent, zone: str, sacrifice: bool = False) -> None:
    """Move a permanent out of play (to graveyard, hand, library top/bottom, removed)."""
    leave_play_together(g, [perm], zone, sacrifice=sacrifice)


def put_together(g: Game, entries: list[tuple[Card, int, int | None]]) -> list[Permanent]:
    """Put cards into play at the same time (2012 603.6a: each comes-into-play ability
    of the permanents entering sees all of them): ``(card, controller, attached to)``
    each, taken from wherever they are. Their comes-into-play events are sent once all are
    in play (one whose "as it comes into play" choice is asked sends its own after it)."""
    perms = []
    before = set(g.perms)
    for card, ctl, host in entries:
        P = g.players[card.owner]
        for zone in (P.library, P.hand, P.graveyard):
            if card in zone:
                zone.remove(card)
                break
        if g.known:
            forget(g, (card,))
        perm = put_into_play(g, card, ctl, attach_to=host, etb=False,
                                   in_play_before=before)
        on = f" attached to {g.perms[host].card.label}" if host in g.perms else ""
        g.write_log(f"{card.label} is put into play under player {ctl}'s control{on}")
        if not etb_pending(g, perm.id):
            perms.append(perm)
    for perm in perms:
        if perm.id in g.perms:
            report_event(g, "etb", perm=perm.id)
    return perms


def put_aura_into_play(g: Game, card: Card, host_id: int, controller: int) -> None:
    """Put an Aura card from a hand, graveyard or library into play attached to ``host_id``,
    without its being played (2012 303.4f), if it still could enchant it; otherwise it stays
    where it is (2012 303.4g)."""
    host = g.perms.get(host_id)
    if host is None or not aura_can_enchant(card.cdef, host, controller):
        return
    P = g.players[card.owner]
    for zone in (P.hand, P.graveyard, P.library):
        if card in zone:
            zone.remove(card)
            break
    else:
        return
    if g.known:
        forget(g, (card,))
    mark_dirty(g, "zone change")
    g.write_log(f"{card.label} is put into play attached to {host.card.label}")
    put_into_play(g, card, controller, attach_to=host_id)


def run_enter_together(g: Game, f: EnterTogetherFrame) -> None:
    """The ``enter_together`` procedure (Warp World): the Aura cards in ``auras`` (card
    ids, the active player's first) each get a host chosen by their owner among the
    permanents they could enchant now (2012 303.4f; not the enchantments coming into play
    with them); one with none stays where it is and joins ``bottom`` (303.4g). Then the
    Auras and the other enchantment cards (``others``) come into play at the same time,
    and the cards of ``bottom`` go to the bottom of their owners' libraries, in that order."""
    fresh(g)
    while f.auras:
        card = g.cards[f.auras[0]]
        hosts = [p for p in g.perms.values()
                 if aura_can_enchant(card.cdef, p, card.owner)]
        if hosts:
            opts = [Action("choose", f"attach {card.label} to {choices_rules.choice_text(g, ['o', p.id])}",
                           (("o", p.id),)) for p in hosts]
            g.ask(card.owner, DecisionKind.CHOOSE_CARDS, opts,
                      f"{f.label}: choose what {card.label} enchants",
                      {"verb": "attach", "card": card.cid, "stack_id": f.item_id,
                       "chosen": [], "min": 1, "max": 1})
            return
        f.auras.pop(0)
        f.bottom.append(card.cid)
        g.write_log(f"{card.label} has nothing it could enchant and stays in the library")
    g.frames.pop()
    cards = g.cards
    put_together(g, [(cards[c], cards[c].owner, None) for c in f.others]
                       + [(cards[c], cards[c].owner, h) for c, h in f.hosts])
    bottom = [cards[c] for c in f.bottom]
    for card in bottom:
        lib = g.players[card.owner].library
        if card in lib:
            lib.remove(card)
            lib.append(card)
    if bottom:
        forget(g, bottom)
        learn(g, bottom, BOTH)  # revealed, and put there in the order revealed
        for pl in range(len(g.players)):
            n = sum(1 for c in bottom if c.owner == pl)
            if n:
                g.write_log(f"player {pl} puts {n} revealed card(s) on the bottom of their "
                          "library")


def answer_enter_together(g: Game, f: EnterTogetherFrame, a: Action) -> None:
    f.hosts.append((f.auras.pop(0), a.args[0][1]))


def leave_play_together(g: Game, perms: list[Permanent], zone: str,
                         verb: str | None = None, sacrifice: bool = False) -> None:
    """Permanents leave play at the same time for ``zone`` (``graveyard``, ``hand``,
    ``library_top``, ``library_bottom``, ``library_shuffle``, ``removed``): every
    leaves-play ability sees them all leave, looking back at the game as it was before
    (2012 603.6c, 603.10a), then all go. A card bound for a graveyard goes
    where its own copiable values say (Legacy Weapon, :func:`replacement.graveyard_destination`);
    a token ceases to exist (2007 CR 216). ``verb``: what the log says; ``sacrifice``: the
    log says its controller sacrifices it. Permanents no longer in play are skipped."""
    perms = [p for p in dict.fromkeys(perms) if p.id in g.perms]
    if not perms:
        return
    fresh(g)
    dest = [replacement.graveyard_destination(g, p.card, p.base.static)
            if zone == "graveyard" and not p.card.is_token else zone for p in perms]
    for perm, to in zip(perms, dest):
        report_event(g, "leaves_play", perm=perm.id, zone=to, snapshot=perm)
    for perm in perms:
        record_leaving_lki(g, perm)
    gone = {p.id for p in perms}
    for perm in perms:
        del g.perms[perm.id]
        if perm.attacking or perm.blocking:
            combat.remove_from_combat(g, perm)
    mark_dirty(g, "leaves play")
    for other in g.perms.values():
        if other.attached_to in gone and "Equipment" in other.subtypes:
            other.attached_to = None  # 2007 CR 420.5k happens as an SBE; unattach now
    if g.effects:
        g.effects = [e for e in g.effects if e.pid not in gone]
    for perm, to in zip(perms, dest):
        g.write_log(f"player {perm.controller} sacrifices {perm.card.label}" if sacrifice
                  else f"{perm.card.label} {verb or _ZONE_VERB[to]}")
        if perm.card.is_token:
            continue
        to_zone(g, perm.card, to)
        if to == "graveyard":
            g.died_this_turn = [*g.died_this_turn, perm.card.cid]


def record_leaving_lki(g: Game, perm: Permanent) -> None:
    """Keep the last known information of a permanent leaving play in the events of the
    triggered abilities about it (2012 608.2g: "its toughness", "its controller"). The event
    dicts are replaced, not changed: game copies share them."""
    lki = {"power": perm.power, "toughness": perm.toughness, "controller": perm.controller}
    for t in g.pending:
        if t.event and t.event.get("perm") == perm.id:
            t.event = {**t.event, "lki": lki}
        if t.source == perm.id:
            t.source_tapped = perm.tapped  # "if Howling Mine is untapped" (its last state)
    for item in g.stack:
        if item.kind != "triggered":
            continue
        ev = item.data.event
        if ev and ev.get("perm") == perm.id:
            item.data.event = {**ev, "lki": lki}
        if item.source == perm.id:
            item.data.source_tapped = perm.tapped


def take_card(g: Game, card: Card, zone: str) -> bool:
    """Take ``card`` out of its owner's ``zone`` (``"hand"``, ``"library"`` or ``"graveyard"``);
    False when it isn't there. What counts graveyard cards (Mortivore, 2007 CR 418.5 layer 6a)
    is recomputed once a card leaves one."""
    cards: list[Card] = getattr(g.players[card.owner], zone)
    if card not in cards:
        return False
    cards.remove(card)
    if zone == "graveyard":
        mark_dirty(g, "graveyard count")
    return True


def take_top(g: Game, pl: int, n: int) -> list[Card]:
    """Take the top ``n`` cards (fewer if the library is smaller) off player ``pl``'s library,
    top first; what anyone knew about those library positions is forgotten."""
    library = g.players[pl].library
    cards = library[:n]
    del library[:len(cards)]
    if g.known:
        forget(g, cards)
    return cards


def move_card(g: Game, card: Card, from_zone: str, zone: str) -> bool:
    """Move ``card`` from its owner's ``from_zone`` to ``zone`` (:func:`take_card`, then
    :func:`to_zone`); False, and nothing moved, when it isn't in ``from_zone``."""
    if not take_card(g, card, from_zone):
        return False
    to_zone(g, card, zone)
    return True


def to_zone(g: Game, card: Card, zone: str) -> None:
    """Put ``card`` (out of every zone) into its owner's ``zone`` (217.1a): ``"graveyard"``
    (where a replacement effect may send it elsewhere), ``"hand"``, ``"library_top"``,
    ``"library_bottom"``, ``"library_shuffle"`` or ``"removed"``; a token goes nowhere."""
    P = g.players[card.owner]  # 217.1a: cards go to their owner's zones
    if card.is_token:
        return
    if zone == "graveyard":
        zone = replacement.graveyard_destination(g, card)
    if zone == "library_shuffle":
        P.library.append(card)
        shuffle_library(g, card.owner)
        g.write_log(f"player {card.owner} reveals {card.label} and shuffles it into their "
                  "library instead of putting it into a graveyard")
    elif zone == "graveyard":
        if card.cid in g.died_this_turn:
            # A new object in the graveyard (2007 CR 217.1c), not one put there from play.
            g.died_this_turn = [c for c in g.died_this_turn if c != card.cid]
        P.graveyard.append(card)
        # Mortivore's characteristic-setting ability counts graveyard cards (2007 CR 418.5, 6a).
        mark_dirty(g, "graveyard count")
    elif zone == "hand":
        P.hand.append(card)
        to_hand_in_public(g, card)  # from play or the stack: everybody saw it
    elif zone == "library_top":
        P.library.insert(0, card)
    elif zone == "library_bottom":
        P.library.append(card)
    elif zone == "removed":
        P.removed.append(card)
    else:
        raise MtgError(f"engine error: unknown zone {zone}")


def draw_cards(g: Game, pl: int, n: int, after: tuple[str, dict[str, Any]] | None = None) -> None:
    """Player ``pl`` draws ``n`` cards, one draw at a time (2012 120.2), each after the
    replacement effects on draws (Plagiarize; :mod:`mtg_env.engine.replacement`); then the
    event ``after`` (``(name, data)``) is sent. With an optional draw replacement in play
    (Abundance) the draws are made by a ``draws`` frame, which may ask its controller."""
    if n > 0 and g.perms and replacement.has_dig_effects(g):
        g.frames.append(DrawsFrame(pl, n, None, after))
        return
    draw_now(g, pl, n)
    if after is not None:
        report_event(g, after[0], **after[1])


def draw_now(g: Game, pl: int, n: int) -> None:
    if n == 1 and not (g.replacements and has_draw_effects(g)):
        draw_one(g, pl)  # the draw step's one card: no batch to gather
        return
    drawn: list[Card] = []  # logged as one line: "player 0 draws 7 cards"
    for _ in range(n):
        if g.replacements and has_draw_effects(g):
            log_draws(g, pl, drawn)
            drawn = []
            replacement.run_event(g, DrawEvent(pl))
        elif not draw_one(g, pl, drawn):
            break
    log_draws(g, pl, drawn)


def draw_one(g: Game, pl: int, batch: list[Card] | None = None) -> bool:
    """One draw no effect replaces any more; False if the library was empty. The card drawn
    is logged at once, or appended to ``batch`` for the caller to log."""
    P = g.players[pl]
    if not P.library:
        P.drew_from_empty = True  # 2007 CR 420.5g: loses at the next SBE check
        if batch:
            log_draws(g, pl, batch)
            batch.clear()
        g.write_log(f"player {pl} draws from an empty library")
        return False
    card = P.library.pop(0)
    P.hand.append(card)
    if g.known:
        g.known.pop(card.cid, None)  # known in the library: a new place now
    if batch is None:  # _log_draws of one card, inline: every draw step comes here
        log = g.log
        g.private_log += ((len(log), pl, f"player {pl} draws {card.label}"),)
        log.append(f"player {pl} draws a card")
    else:
        batch.append(card)
    # Each card drawn is a separate draw (Underworld Dreams triggers once per card).
    report_event(g, "draw", player=pl, n=1)
    return True


def log_draws(g: Game, pl: int, cards: list[Card]) -> None:
    """Log the draw of ``cards`` by ``pl``: the public line counts them, the line ``pl``
    reads names them (a hand is a hidden zone, 2012 CR 400.2)."""
    if not cards:
        return
    if len(cards) == 1:
        public, private = f"player {pl} draws a card", f"player {pl} draws {cards[0].label}"
    else:
        public = f"player {pl} draws {len(cards)} cards"
        private = public + ": " + "; ".join(c.label for c in cards)  # names may hold commas
    g.private_log = (*g.private_log, (len(g.log), pl, private))
    g.write_log(public)


_ZONE_VERB = {
    "graveyard": "is put into its owner's graveyard",
    "hand": "is returned to its owner's hand",
    "library_top": "is put on top of its owner's library",
    "library_bottom": "is put on the bottom of its owner's library",
    "library_shuffle": "is revealed and shuffled into its owner's library instead",
    "removed": "is removed from the game",
}
