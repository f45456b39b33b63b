"""Zones: moving cards between zones, permanents coming into play and leaving it, drawing.

2007 CR 217 (zones; 217.1a cards go to their owner's zones; 217.1c an object that changes zones
becomes a new object), 216 (tokens cease to exist outside play), 418.5e/418.3 (timestamps).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import effects as fx
from .actions import Action, DecisionKind
from .choices import choice_text, choose_frame
from .enter_choices import choices_of, defer_enter_choices
from .errors import MtgError
from .frames_choice import ChooseFrame
from .frames_effects import DrawsFrame, EnterChoiceFrame, EnterTogetherFrame
from .knowledge import BOTH, forget, learn, shuffle_library, to_hand_in_public
from .layers import add_effect, fresh, mark_dirty
from .model import (
    Card,
    Permanent,
)
from .registry import card_key
from .replacement import graveyard_destination, has_dig_effects, has_draw_effects, run_event
from .rules import aura_can_enchant
from .triggers import report_event

if TYPE_CHECKING:
    from .game import GameSelf
    from .state import GameState
else:
    GameState = object  # the state's types are for the type checker only (state.py)


class Zones(GameState):
    """Mixed into :class:`~mtg_env.engine.game.Game`."""

    def _id(self: GameSelf) -> int:
        self.next_id += 1
        return self.next_id - 1

    def _put_into_play(self: GameSelf, card: Card, controller: int, attach_to: int | None = None,
                       tapped: bool = False, copy_of: str | None = None,
                       cast_from_hand: bool = False, chosen: dict[str, str] | None = None,
                       etb: bool = True, copy_chosen: bool = False,
                       in_play_before: Any = None) -> Permanent:
        """``copy_of``: the name of the card definition whose copiable values it comes into play
        with (Clone: "comes into play as a copy", 2007 CR 418.5 layer 1). ``copy_chosen``: the
        copy choice was made already (a resolving spell's, :meth:`_ask_copy_choice`), even if it
        was to copy nothing; otherwise a card with one (Clone, Sculpting Steel) put into play by
        an effect (Elvish Piper, Warp World) makes it now, among the permanents in play before
        it (``in_play_before``: permanent ids, for cards put into play together; default all).
        ``cast_from_hand``: it is a resolving spell played from its owner's hand (Phage the
        Untouchable). ``chosen``: its "as it comes into play" choices made before (a resolving
        spell's); if it has such choices and none were made, they are asked now
        (:mod:`.enter_choices`). ``etb=False``: its comes-into-play event is left to the caller
        (:meth:`_put_together`), unless a choice is asked first (:meth:`etb_pending`)."""
        perm = Permanent(self._id(), card, controller, self._timestamp())
        perm.attached_to = attach_to
        self.perms[perm.id] = perm
        mark_dirty(self, "comes into play")
        etb_data = {"cast_from_hand": True} if cast_from_hand else {}
        if copy_of is None and not copy_chosen and perm.static:
            spec = next((s for s in perm.static if s.kind == "copy_as_enters"), None)
            if spec is not None and self._ask_copy_on_entering(perm, spec, tapped, etb_data,
                                                                in_play_before):
                return perm
        if copy_of is not None:
            self._become_copy(perm, copy_of)
        self._finish_entering(perm, tapped, chosen, etb_data, etb)
        return perm

    def _finish_entering(self: GameSelf, perm: Permanent, tapped: bool,
                         chosen: dict[str, str] | None, etb_data: dict[str, Any],
                         etb: bool = True) -> None:
        """The rest of coming into play once its copiable values are set: "comes into play
        tapped", the "as it comes into play" choices, then the comes-into-play event."""
        if not tapped and perm.static and any(s.kind == "enters_tapped" and s.affects == "self"
                                              for s in perm.static):
            tapped = True  # "[This] comes into play tapped" (Treetop Village)
        if not tapped:
            tapped = self._enters_tapped_by_other(perm)
        perm.tapped = tapped
        kinds = choices_of(perm.base) if perm.base.static else ()
        if kinds:
            if chosen is not None and all(k in chosen for k in kinds):
                perm.chosen = {k: chosen[k] for k in kinds}
                mark_dirty(self, "choice as it comes into play")
            else:
                defer_enter_choices(self, perm, kinds, etb_data)
                return
        if etb:
            report_event(self, "etb", perm=perm.id, **etb_data)

    def _ask_copy_on_entering(self: GameSelf, perm: Permanent, spec: Any, tapped: bool,
                              etb_data: dict[str, Any], in_play_before: Any) -> bool:
        """Clone or Sculpting Steel put into play by an effect: "As [this] comes into play, you
        may choose a creature (an artifact) in play" applies however it comes into play (2012
        614.1c, 706.7a: a replacement effect, not a triggered ability). Pushes the choice (0 or
        1 permanent, not itself, none of those entering with it) and returns True if there is
        one; the rest of coming into play waits for it (:func:`~.choices.apply_choice`)."""
        among = set(self.perms if in_play_before is None else in_play_before) - {perm.id}
        return self._push_copy_choice(
            perm.controller, perm.card.label, spec, among=among,
            then={"op": "copy_entering", "pid": perm.id, "tapped": tapped, "etb": etb_data})

    def _push_copy_choice(self: GameSelf, controller: int, label: str, spec: Any, then: dict[str, Any],
                          sid: int | None = None, among: Any = None) -> bool:
        """Push the choice of a ``copy_as_enters`` static (the permanent to copy, 0 or 1,
        matching its filter; ``among``: the permanent ids it may be, default any in play). It
        doesn't target (shroud doesn't stop it). Returns False when nothing can be chosen: the
        permanent then comes into play as itself."""
        fresh(self)
        flt = spec.params.get("filter", {})
        cands = [("o", p.id) for p in self.perms.values()
                 if (among is None or p.id in among) and fx.matches_filter(p, flt, controller)]
        if not cands:
            return False
        what = str(flt.get("type", "permanent")).lower()
        what = ("an " if what[0] in "aeiou" else "a ") + what
        self.frames.append(choose_frame(self, controller, cands, 0, 1, "copy",
                                              f"{label}: you may choose {what} to copy",
                                              then=then, sid=sid))
        return True

    def _copied_name(self: GameSelf, pid: int | None, label: str) -> str | None:
        """The card name a permanent coming into play copies, with the chosen permanent ``pid``
        (None if none was chosen or it has left play); logs the copy. 2007 CR 503: the copiable
        values are the original's printed values as modified by other copy effects (its
        ``cdef``), not counters, pumps or Auras."""
        orig = self.perms.get(pid) if pid is not None else None
        if orig is None:
            return None
        name = orig.cdef.name
        what = orig.card.label if name == orig.card.name else f"{orig.card.label} ({name})"
        self._log(f"{label} comes into play as a copy of {what}")
        return card_key(orig.cdef)

    def enter_as_copy(self: GameSelf, pid: int, copied: int | None, tapped: bool,
                      etb_data: dict[str, Any]) -> None:
        """The copy choice of a permanent put into play by an effect was made (``copied``: the
        chosen permanent's id, or None): apply the copy effect, then finish coming into play."""
        perm = self.perms.get(pid)
        if perm is None:
            return
        name = self._copied_name(copied, perm.card.label)
        if name is not None:
            self._become_copy(perm, name)
        self._finish_entering(perm, tapped, None, etb_data)

    def _become_copy(self: GameSelf, perm: Permanent, name: str) -> None:
        # The copy effect applies as it comes into play, so its comes-into-play triggers and
        # "comes into play tapped" are the copied card's.
        add_effect(self, {"kind": "copy", "pid": perm.id, "card": name})
        fresh(self)

    def etb_pending(self: GameSelf, pid: int) -> bool:
        """Is the comes-into-play event of permanent ``pid`` waiting for a choice made as it
        comes into play (a copy choice, or an "as it comes into play" choice)?"""
        for f in self.frames:
            if isinstance(f, EnterChoiceFrame):
                if f.perm_id == pid:
                    return True
            elif isinstance(f, ChooseFrame) and f.then and f.then.get("op") == "copy_entering" \
                    and f.then["pid"] == pid:
                return True
        return False

    def _enters_tapped_by_other(self: GameSelf, perm: Permanent) -> bool:
        """"Artifacts and lands come into play tapped" (Root Maze): a static ability of another
        permanent in play (2012 614.1c, 614.12: it applies as ``perm`` comes into play, to its
        characteristics as it would exist in play)."""
        for src in self.perms.values():
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

    def _timestamp(self: GameSelf) -> int:
        self.ts += 1
        return self.ts

    def _leave_play(self: GameSelf, perm: Permanent, zone: str, sacrifice: bool = False) -> None:
        """Move a permanent out of play (to graveyard, hand, library top/bottom, removed)."""
        self._leave_play_together([perm], zone, sacrifice=sacrifice)

    def _put_together(self: GameSelf, entries: list[tuple[Card, int, int | None]]) -> list[Permanent]:
        """Put cards into play at the same time (2012 603.6a: each comes-into-play ability
        of the permanents entering sees all of them): ``(card, controller, attached to)``
        each, taken from wherever they are. Their comes-into-play events are sent once all are
        in play (one whose "as it comes into play" choice is asked sends its own after it)."""
        perms = []
        before = set(self.perms)
        for card, ctl, host in entries:
            P = self.players[card.owner]
            for zone in (P.library, P.hand, P.graveyard):
                if card in zone:
                    zone.remove(card)
                    break
            if self.known:
                forget(self, (card,))
            perm = self._put_into_play(card, ctl, attach_to=host, etb=False,
                                       in_play_before=before)
            on = f" attached to {self.perms[host].card.label}" if host in self.perms else ""
            self._log(f"{card.label} is put into play under player {ctl}'s control{on}")
            if not self.etb_pending(perm.id):
                perms.append(perm)
        for perm in perms:
            if perm.id in self.perms:
                report_event(self, "etb", perm=perm.id)
        return perms

    def put_aura_into_play(self: GameSelf, card: Card, host_id: int, controller: int) -> None:
        """Put an Aura card from a hand, graveyard or library into play attached to ``host_id``,
        without its being played (2012 303.4f), if it still could enchant it; otherwise it stays
        where it is (2012 303.4g)."""
        host = self.perms.get(host_id)
        if host is None or not aura_can_enchant(card.cdef, host, controller):
            return
        P = self.players[card.owner]
        for zone in (P.hand, P.graveyard, P.library):
            if card in zone:
                zone.remove(card)
                break
        else:
            return
        if self.known:
            forget(self, (card,))
        mark_dirty(self, "zone change")
        self._log(f"{card.label} is put into play attached to {host.card.label}")
        self._put_into_play(card, controller, attach_to=host_id)

    def _run_enter_together(self: GameSelf, f: EnterTogetherFrame) -> None:
        """The ``enter_together`` procedure (Warp World): the Aura cards in ``auras`` (card
        ids, the active player's first) each get a host chosen by their owner among the
        permanents they could enchant now (2012 303.4f; not the enchantments coming into play
        with them); one with none stays where it is and joins ``bottom`` (303.4g). Then the
        Auras and the other enchantment cards (``others``) come into play at the same time,
        and the cards of ``bottom`` go to the bottom of their owners' libraries, in that order."""
        fresh(self)
        while f.auras:
            card = self.cards[f.auras[0]]
            hosts = [p for p in self.perms.values()
                     if aura_can_enchant(card.cdef, p, card.owner)]
            if hosts:
                opts = [Action("choose", f"attach {card.label} to {choice_text(self, ['o', p.id])}",
                               (("o", p.id),)) for p in hosts]
                self._ask(card.owner, DecisionKind.CHOOSE_CARDS, opts,
                          f"{f.label}: choose what {card.label} enchants",
                          {"verb": "attach", "card": card.cid, "stack_id": f.item_id,
                           "chosen": [], "min": 1, "max": 1})
                return
            f.auras.pop(0)
            f.bottom.append(card.cid)
            self._log(f"{card.label} has nothing it could enchant and stays in the library")
        self.frames.pop()
        cards = self.cards
        self._put_together([(cards[c], cards[c].owner, None) for c in f.others]
                           + [(cards[c], cards[c].owner, h) for c, h in f.hosts])
        bottom = [cards[c] for c in f.bottom]
        for card in bottom:
            lib = self.players[card.owner].library
            if card in lib:
                lib.remove(card)
                lib.append(card)
        if bottom:
            forget(self, bottom)
            learn(self, bottom, BOTH)  # revealed, and put there in the order revealed
            for pl in (0, 1):
                n = sum(1 for c in bottom if c.owner == pl)
                if n:
                    self._log(f"player {pl} puts {n} revealed card(s) on the bottom of their "
                              "library")

    def _answer_enter_together(self: GameSelf, f: EnterTogetherFrame, a: Action) -> None:
        f.hosts.append((f.auras.pop(0), a.args[0][1]))

    def _leave_play_together(self: GameSelf, perms: list[Permanent], zone: str,
                             verb: str | None = None, sacrifice: bool = False) -> None:
        """Permanents leave play at the same time for ``zone`` (``graveyard``, ``hand``,
        ``library_top``, ``library_bottom``, ``library_shuffle``, ``removed``): every
        leaves-play ability sees them all leave, looking back at the game as it was before
        (2012 603.6c, 603.10a), then all go. A card bound for a graveyard goes
        where its own copiable values say (Legacy Weapon, :func:`graveyard_destination`);
        a token ceases to exist (2007 CR 216). ``verb``: what the log says; ``sacrifice``: the
        log says its controller sacrifices it. Permanents no longer in play are skipped."""
        perms = [p for p in dict.fromkeys(perms) if p.id in self.perms]
        if not perms:
            return
        fresh(self)
        dest = [graveyard_destination(self, p.card, p.base.static)
                if zone == "graveyard" and not p.card.is_token else zone for p in perms]
        for perm, to in zip(perms, dest):
            report_event(self, "leaves_play", perm=perm.id, zone=to, snapshot=perm)
        for perm in perms:
            self._record_lki(perm)
        gone = {p.id for p in perms}
        for perm in perms:
            del self.perms[perm.id]
            if perm.attacking or perm.blocking:
                self._remove_from_combat(perm)
        mark_dirty(self, "leaves play")
        for other in self.perms.values():
            if other.attached_to in gone and "Equipment" in other.subtypes:
                other.attached_to = None  # 2007 CR 420.5k happens as an SBE; unattach now
        if self.effects:
            self.effects = [e for e in self.effects if e.get("pid") not in gone]
        for perm, to in zip(perms, dest):
            self._log(f"player {perm.controller} sacrifices {perm.card.label}" if sacrifice
                      else f"{perm.card.label} {verb or _ZONE_VERB[to]}")
            if perm.card.is_token:
                continue
            self._to_zone(perm.card, to)
            if to == "graveyard":
                self.died_this_turn = [*self.died_this_turn, perm.card.cid]

    def _record_lki(self: GameSelf, perm: Permanent) -> None:
        """Keep the last known information of a permanent leaving play in the events of the
        triggered abilities about it (2012 608.2g: "its toughness", "its controller"). The event
        dicts are replaced, not changed: game copies share them."""
        lki = {"power": perm.power, "toughness": perm.toughness, "controller": perm.controller}
        for t in self.pending:
            ev = t.get("ev")
            if ev and ev.get("perm") == perm.id:
                t["ev"] = {**ev, "lki": lki}
            if t.get("src") == perm.id:
                t["src_tapped"] = perm.tapped  # "if Howling Mine is untapped" (its last state)
        for item in self.stack:
            if item.kind != "triggered":
                continue
            ev = item.data.get("ev")
            if ev and ev.get("perm") == perm.id:
                item.data["ev"] = {**ev, "lki": lki}
            if item.source == perm.id:
                item.data["src_tapped"] = perm.tapped

    def _to_zone(self: GameSelf, card: Card, zone: str) -> None:
        P = self.players[card.owner]  # 217.1a: cards go to their owner's zones
        if card.is_token:
            return
        if zone == "graveyard":
            zone = graveyard_destination(self, card)
        if zone == "library_shuffle":
            P.library.append(card)
            shuffle_library(self, card.owner)
            self._log(f"player {card.owner} reveals {card.label} and shuffles it into their "
                      "library instead of putting it into a graveyard")
        elif zone == "graveyard":
            if card.cid in self.died_this_turn:
                # A new object in the graveyard (2007 CR 217.1c), not one put there from play.
                self.died_this_turn = [c for c in self.died_this_turn if c != card.cid]
            P.graveyard.append(card)
            # Mortivore's characteristic-setting ability counts graveyard cards (2007 CR 418.5, 6a).
            mark_dirty(self, "graveyard count")
        elif zone == "hand":
            P.hand.append(card)
            to_hand_in_public(self, card)  # from play or the stack: everybody saw it
        elif zone == "library_top":
            P.library.insert(0, card)
        elif zone == "library_bottom":
            P.library.append(card)
        elif zone == "removed":
            P.removed.append(card)
        else:
            raise MtgError(f"engine error: unknown zone {zone}")

    def _draw(self: GameSelf, pl: int, n: int, after: tuple[str, dict[str, Any]] | None = None) -> None:
        """Player ``pl`` draws ``n`` cards, one draw at a time (2012 120.2), each after the
        replacement effects on draws (Plagiarize; :mod:`mtg_env.engine.replacement`); then the
        event ``after`` (``(name, data)``) is sent. With an optional draw replacement in play
        (Abundance) the draws are made by a ``draws`` frame, which may ask its controller."""
        if n > 0 and self.perms and has_dig_effects(self):
            self.frames.append(DrawsFrame(pl, n, None, after))
            return
        self._draw_now(pl, n)
        if after is not None:
            report_event(self, after[0], **after[1])

    def _draw_now(self: GameSelf, pl: int, n: int) -> None:
        if n == 1 and not (self.replacements and has_draw_effects(self)):
            self._draw_one(pl)  # the draw step's one card: no batch to gather
            return
        drawn: list[Card] = []  # logged as one line: "player 0 draws 7 cards"
        for _ in range(n):
            if self.replacements and has_draw_effects(self):
                self._log_draws(pl, drawn)
                drawn = []
                run_event(self, {"e": "draw", "player": pl, "applied": []})
            elif not self._draw_one(pl, drawn):
                break
        self._log_draws(pl, drawn)

    def _draw_one(self: GameSelf, pl: int, batch: list[Card] | None = None) -> bool:
        """One draw no effect replaces any more; False if the library was empty. The card drawn
        is logged at once, or appended to ``batch`` for the caller to log."""
        P = self.players[pl]
        if not P.library:
            P.drew_from_empty = True  # 2007 CR 420.5g: loses at the next SBE check
            if batch:
                self._log_draws(pl, batch)
                batch.clear()
            self._log(f"player {pl} draws from an empty library")
            return False
        card = P.library.pop(0)
        P.hand.append(card)
        if self.known:
            self.known.pop(card.cid, None)  # known in the library: a new place now
        if batch is None:  # _log_draws of one card, inline: every draw step comes here
            log = self.log
            self.private_log += ((len(log), pl, f"player {pl} draws {card.label}"),)
            log.append(f"player {pl} draws a card")
        else:
            batch.append(card)
        # Each card drawn is a separate draw (Underworld Dreams triggers once per card).
        report_event(self, "draw", player=pl, n=1)
        return True

    def _log_draws(self: GameSelf, pl: int, cards: list[Card]) -> None:
        """Log the draw of ``cards`` by ``pl``: the public line counts them, the line ``pl``
        reads names them (a hand is a hidden zone, 2012 CR 400.2)."""
        if not cards:
            return
        if len(cards) == 1:
            public, private = f"player {pl} draws a card", f"player {pl} draws {cards[0].label}"
        else:
            public = f"player {pl} draws {len(cards)} cards"
            private = public + ": " + "; ".join(c.label for c in cards)  # names may hold commas
        self.private_log = (*self.private_log, (len(self.log), pl, private))
        self._log(public)


_ZONE_VERB = {
    "graveyard": "is put into its owner's graveyard",
    "hand": "is returned to its owner's hand",
    "library_top": "is put on top of its owner's library",
    "library_bottom": "is put on the bottom of its owner's library",
    "library_shuffle": "is revealed and shuffled into its owner's library instead",
    "removed": "is removed from the game",
}
