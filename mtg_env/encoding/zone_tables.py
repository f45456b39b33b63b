"""The zone tables of a viewer's observation buffer: permanents, hands, graveyards and removed
cards, and the stack, each rewritten only where what it shows changed (:class:`ZoneTables`, a
part of :class:`~mtg_env.encoding.observer.Observer`'s per-player view).

The permanents' rows are compared by a key per permanent (:func:`_perm_keys`); a tap alone
rewrites one column.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mtg_env.engine.errors import MtgError
from mtg_env.engine.frames import CastFrame, ResolveFrame
from mtg_env.engine.game import Game
from mtg_env.engine.model import CardDef
from mtg_env.engine.registry import get_card

from .layout import PERMANENT_STATE, STACK_KINDS, CapacityError
from .vocab import CARD_WIDTH, COLORS, HIDDEN_ID, KEYWORD_INDEX, KEYWORDS_V1

_PERM_TYPES = ("Artifact", "Creature", "Enchantment", "Land")
_STACK_CARD = 1 + len(STACK_KINDS) + 1
_STACK_REST = _STACK_CARD + CARD_WIDTH
_STACK_KIND_HOT = {k: tuple(1 if j == k else 0 for j in STACK_KINDS) for k in STACK_KINDS}
_TARGET_KIND = {"p": 1, "o": 2, "s": 3, "c": 4}
_N_STATE = 6 + len(KEYWORDS_V1) + 1 + 5 + len(_PERM_TYPES) + 11
_STATE_AT = 1 + CARD_WIDTH
_TAPPED = _STATE_AT + 1
_FLAGS_AT = _STATE_AT + 17
_STATE_END = _STATE_AT + _N_STATE
# The permanent state columns this module writes per row, followed by the six columns the pending
# decision sets (marked ... damage_recipient).
assert len(PERMANENT_STATE) == _N_STATE + 6, "permanent columns and the observer disagree"
_HIDDEN_ROW = np.zeros(2 + CARD_WIDTH + 1, np.float32)
_HIDDEN_ROW[0] = 1  # present, not known
_HIDDEN_ROW[2] = HIDDEN_ID


class _Caches:
    """Memoised rows for frozenset-valued characteristics and ability slot tables."""

    def __init__(self) -> None:
        self.flag_rows: dict[tuple, np.ndarray] = {}
        self.abslots: dict[int, tuple[tuple, dict]] = {}

    def flags(self, kws: frozenset, colors: frozenset, types: frozenset) -> np.ndarray:
        """The ``has_*``, ``is_<color>`` and ``is_<type>`` columns of a permanent row."""
        key = (kws, colors, types)
        row = self.flag_rows.get(key)
        if row is None:
            flags = [0] * (len(KEYWORDS_V1) + 1)
            for k in kws:
                i = KEYWORD_INDEX.get(k)
                if i is None:
                    flags[-1] += 1
                else:
                    flags[i] = 1
            flags += [1 if c in colors else 0 for c in COLORS]
            flags += [1 if t in types else 0 for t in _PERM_TYPES]
            row = self.flag_rows[key] = np.asarray(flags, np.float32)
        return row

    def ability_slots(self, abilities: tuple) -> dict:
        """``{(ability index, color or None): slot}``: a permanent's activated abilities as it has
        them now (printed, copied or granted; 2007 CR 418.5) in order, a mana ability taking one
        slot per color it can add. A permanent without effects on its abilities shares its card's
        tuple, so this is cached per tuple."""
        hit = self.abslots.get(id(abilities))
        if hit is None or hit[0] is not abilities:
            slots: dict = {}
            for i, ab in enumerate(abilities):
                if ab.mana is None:
                    slots[(i, None)] = len(slots)
                else:
                    for c in ab.mana:
                        slots.setdefault((i, c), len(slots))
            if len(self.abslots) > 10_000:
                self.abslots.clear()
            hit = self.abslots[id(abilities)] = (abilities, slots)
        return hit[1]



def _perm_keys(perms: list) -> list[tuple]:
    """What each permanent's row shows; the containers come last (the cache keeps copies, since
    the engine mutates them in place)."""
    return [(p.controller, p.tapped, p.sick, p.damage, p.power, p.toughness, p.keywords, p.colors,
             p.types, p.attacking, p.blocked, p.attached_to, p.regen_shields, p.blocking,
             p.blockers, p.counters, p.used_this_turn) for p in perms]


def _focus_sid(d: Any, frames: list) -> int | None:
    sid = d.context.get("stack_id") if d.context else None
    if sid is None and frames:
        f = frames[-1]
        sid = getattr(f, "item_id", None)
    return sid


def _stack_cdef(game: Game, s: Any) -> CardDef | None:
    if s.card is not None:
        return s.card.cdef
    if s.source is not None:
        p = game.perms.get(s.source)
        if p is not None:
            return p.card.cdef
    name = s.data.card
    if name:
        try:
            return get_card(name)
        except MtgError:  # a source the registry no longer knows
            return None
    return None



class ZoneTables:
    """The zone tables of :class:`~mtg_env.encoding.observer._View` (mixed into it)."""

    # -- permanents --------------------------------------------------------------------
    def _permanents(self, perms: list) -> None:
        keys = _perm_keys(perms)
        old_list = self.perm_list
        n = len(old_list)
        appended = len(perms) > n and perms[:n] == old_list
        if appended or perms == old_list:
            old = self.perm_keys
            if keys == old:
                return
            changed = [i for i in range(n) if keys[i] != old[i]]
            if all(keys[i][0] == old[i][0] for i in changed):
                new_rows = self._place_new(perms, keys, n) if appended else []
                rowof = self.perm_rowof
                for i in changed:
                    r = rowof[i]
                    self._write_perm(r, perms[i], keys[i])
                    old[i] = self.row_key[r]
                if appended:
                    self._write_new(perms, keys, n, new_rows)
                return
        self._relayout(perms, keys)

    def _place_new(self, perms: list, keys: list, n: int) -> list[int]:
        """Permanents came into play (the common case): they take the next rows of their
        controller's table and nothing else moves. Rows are assigned before anything is written,
        so references between permanents resolve."""
        P = self.o.caps.max_permanents
        rel = self.rel
        seat_rows = self.seat_rows
        rows = []
        over = False
        for i in range(n, len(perms)):
            p = perms[i]
            k = rel[keys[i][0]]
            block = seat_rows[k]
            r = k * P + len(block)
            block.append(p)
            over = over or len(block) > P
            rows.append(r)
            self.pid_row[p.id] = r
        if over:
            raise CapacityError("max_permanents", P, max(map(len, seat_rows)),
                                "the permanents one player controls")
        return rows

    def _write_new(self, perms: list, keys: list, n: int, new_rows: list[int]) -> None:
        tab = self.sec["permanents"]
        full = self.o.rows.full
        for i, r in zip(range(n, len(perms)), new_rows, strict=True):
            p = perms[i]
            self.row_obj[r] = p
            self.row_key[r] = None
            tab[r, 0] = 1
            tab[r, 1:1 + CARD_WIDTH] = full(p.card.cdef)
            self._write_perm(r, p, keys[i])
            self.perm_rowof.append(r)
            self.perm_keys.append(self.row_key[r])
        self.perm_list = list(perms)
        self.layout += 1
        self.ref_layout += 1
        self.perm_layout += 1

    def _relayout(self, perms: list, keys: list) -> None:
        """The permanents in play (or their controllers) changed: assign rows again."""
        P = self.o.caps.max_permanents
        rel = self.rel
        rowof: list[int] = []
        seat_rows: list[list] = [[] for _ in rel]
        for p, k in zip(perms, keys, strict=True):
            s = rel[k[0]]
            block = seat_rows[s]
            rowof.append(s * P + len(block))
            block.append(p)
        most = max(map(len, seat_rows))
        if most > P:
            raise CapacityError("max_permanents", P, most, "the permanents one player controls")
        pid_row = {p.id: r for p, r in zip(perms, rowof, strict=True)}
        moved = pid_row != self.pid_row
        self.pid_row = pid_row
        tab = self.sec["permanents"]
        row_obj, row_key = self.row_obj, self.row_key
        full = self.o.rows.full
        for p, k, r in zip(perms, keys, rowof, strict=True):
            if row_obj[r] is not p:
                row_obj[r] = p
                row_key[r] = None
                tab[r, 0] = 1
                tab[r, 1:1 + CARD_WIDTH] = full(p.card.cdef)
                self._write_perm(r, p, k)
            elif moved and (k[11] is not None or k[13]):
                row_key[r] = None  # its references moved: write everything
                self._write_perm(r, p, k)
            elif row_key[r] != k:
                self._write_perm(r, p, k)
        for s, block in enumerate(seat_rows):
            for r in range(s * P + len(block), (s + 1) * P):
                if row_obj[r] is None:
                    break
                row_obj[r] = None
                row_key[r] = None
                tab[r] = 0
        self.perm_list = list(perms)
        self.perm_rowof = rowof
        self.perm_keys = [row_key[r] for r in rowof]
        self.seat_rows = seat_rows
        self.own_rows = seat_rows[0]
        self.opp_rows = seat_rows[1]
        self.layout += 1
        self.ref_layout += 1
        self.perm_layout += 1

    def _write_perm(self, r: int, p: Any, k: tuple) -> None:
        """Write a permanent's state columns from its key (see ``_perm_keys``)."""
        old = self.row_key[r]
        row = self.perm_row_views[r]
        if (old is not None and old[1] != k[1] and old[0] == k[0] and old[2:13] == k[2:13]
                and old[13:] == k[13:]):
            row[_TAPPED] = k[1]  # just tapped or untapped: the usual change
            self.row_key[r] = (old[0], k[1], *old[2:])
            return
        pid_row = self.pid_row
        blocking, blockers, counters, used = k[13], k[14], k[15], k[16]
        att = k[11]
        bref = pid_row.get(blocking[0], -1) + 1 if blocking else 0
        aref = pid_row.get(att, -1) + 1 if att is not None else 0
        c1 = c2 = co = 0
        if counters:
            for name, n in counters.items():
                if name == "+1/+1":
                    c1 += n
                elif name == "-1/-1":
                    c2 += n
                else:
                    co += n
        row[_STATE_AT:_FLAGS_AT] = (
            1 if p.owner == self.me else 0, k[1], k[2], k[3], k[4], k[5], c1, c2, co, k[9],
            k[10], len(blockers), len(blocking), bref, aref, k[12],
            sum(used.values()) if used else 0)
        row[_FLAGS_AT:_STATE_END] = self.o.caches.flags(k[6], k[7], k[8])
        self.row_key[r] = (*k[:13], list(blocking), list(blockers), dict(counters), dict(used))

    # -- hands -------------------------------------------------------------------------
    def _hand(self, hand: list) -> None:
        if hand == self.hand_own:
            return
        H = self.o.caps.max_hand
        if len(hand) > H:
            raise CapacityError("max_hand", H, len(hand), "a hand")
        tab = self.sec["hand"]
        old = self.hand_own
        hand_row = self.o.rows.hand
        n_old = len(old)
        for i, c in enumerate(hand):
            if i < n_old and old[i] is c:
                continue
            tab[i] = hand_row(c.cdef)
        for i in range(len(hand), n_old):
            tab[i] = 0
        self.hand_own = list(hand)
        self.hand_row = {c.cid: i for i, c in enumerate(hand)}
        self.layout += 1

    def _other_hands(self, game: Game) -> None:
        """The other seats' hands: the cards of each the viewer knows, then one hidden
        placeholder per other card (``opp_hand_row`` maps the known ones to their rows)."""
        extra = self.extra
        if self.two:  # the common case, unrolled
            hand = game.players[self.opp].hand
            known = tuple(c for c in hand if c.cid in extra) if extra else ()
            old = self.opp_key[1]
            if known == old[0] and len(hand) == old[1]:
                return
            if self._other_hand(hand, 1, known):
                self.opp_hand_row = {c.cid: self.o.caps.max_hand + i
                                     for i, c in enumerate(known)}
            return
        players, seats = game.players, self.seats
        relaid = False
        for s in range(1, len(seats)):
            hand = players[seats[s]].hand
            known = tuple(c for c in hand if c.cid in extra) if extra else ()
            old = self.opp_key[s]
            if known != old[0] or len(hand) != old[1]:
                relaid = self._other_hand(hand, s, known) or relaid
        if relaid:
            H = self.o.caps.max_hand
            self.opp_hand_row = {c.cid: s * H + i for s in range(1, len(seats))
                                 for i, c in enumerate(self.opp_key[s][0])}

    def _other_hand(self, hand: list, s: int, known: tuple) -> bool:
        """Rewrite the rows of relative seat ``s``'s hand, which changed (``known``: its cards
        the viewer knows); whether the known cards changed (the caller then maps them to their
        rows)."""
        old_known, old_n = self.opp_key[s]
        n = len(hand)
        H = self.o.caps.max_hand
        if n > H:
            raise CapacityError("max_hand", H, n, "the opponent's hand" if len(self.seats) == 2
                                else f"the hand of player {self.seats[s]}")
        tab = self.sec["hand"]
        base = s * H
        relaid = known != old_known
        if relaid:
            rows = self.o.rows
            for i, c in enumerate(known):
                tab[base + i] = rows.hand(c.cdef)
            start = len(known)
            self.layout += 1
        else:
            start = min(n, old_n)
        for i in range(start, n):
            tab[base + i] = _HIDDEN_ROW
        if n < old_n:
            tab[base + n:base + old_n] = 0
        self.opp_key[s] = (known, n)
        return relaid

    # -- graveyards and removed cards --------------------------------------------------
    def _piles(self, game: Game) -> None:
        g, r = self.piles["graveyards"], self.piles["removed"]
        if self.two:
            mine, theirs = game.players[self.me], game.players[self.opp]
            if (mine.graveyard == g[0] and theirs.graveyard == g[1] and mine.removed == r[0]
                    and theirs.removed == r[1]):
                return
            by_seat: list = [mine, theirs]
        else:
            players = game.players
            by_seat = [players[q] for q in self.seats]
            if all(P.graveyard == g[k] and P.removed == r[k] for k, P in enumerate(by_seat)):
                return
        self.layout += 1
        self.ref_layout += 1
        caps = self.o.caps
        small = self.o.rows.small
        for name, attr, cap, key, zone in (
                ("graveyards", "graveyard", caps.max_graveyard, "max_graveyard", 1),
                ("removed", "removed", caps.max_removed, "max_removed", 2)):
            cached = self.piles[name]
            rowmap = self.pile_row[name]
            tab = self.sec[name]
            for side, P in enumerate(by_seat):
                pile = getattr(P, attr)
                old = cached[side]
                if pile == old:
                    continue
                if len(pile) > cap:
                    raise CapacityError(key, cap, len(pile), f"a player's {attr} zone")
                base = side * cap
                owner_me = 1 if side == 0 else 0
                n_old = len(old)
                for c in old:
                    if c not in pile:
                        rowmap.pop(c.cid, None)
                for i, c in enumerate(pile):
                    if i < n_old and old[i] is c:
                        continue
                    tab[base + i] = (1, *small(c.cdef), 0, owner_me, zone)
                    rowmap[c.cid] = base + i
                if len(pile) < n_old:
                    tab[base + len(pile):base + n_old] = 0
                cached[side] = list(pile)

    # -- stack -------------------------------------------------------------------------
    def _stack(self, game: Game, frames: list, d: Any) -> None:
        stack = game.stack
        n = len(stack)
        if n == 0:
            if self.stack_rows:
                self.sec["stack"][:self.stack_rows] = 0
                self.stack_rows = 0
                self.stack_row = {}
                self.stack_sig = None
                self.layout += 1
            return
        caps = self.o.caps
        if n > caps.max_stack:
            raise CapacityError("max_stack", caps.max_stack, n, "the stack")
        casting = tuple(f.item_id for f in frames if type(f) is CastFrame)
        resolving = tuple(f.item_id for f in frames if type(f) is ResolveFrame)
        focus = _focus_sid(d, frames) if d is not None else None
        # The targets themselves, not their number: Shunt changes a target in place.
        sig = ([(s, tuple(s.targets), s.x, s.mode, s.controller, len(s.data.divided))
                for s in stack], casting,
               resolving, focus, self.ref_layout)
        if sig == self.stack_sig:
            return
        self.stack_sig = sig
        tab = self.sec["stack"]
        me = self.me
        self.stack_row = {s.id: i for i, s in enumerate(reversed(stack))}
        self.layout += 1
        pid_row = self.pid_row
        full = self.o.rows.full
        T = caps.max_targets
        for i, s in enumerate(reversed(stack)):
            cdef = _stack_cdef(game, s)
            targets = s.targets
            if len(targets) > T:
                raise CapacityError("max_targets", T, len(targets), "a stack object's targets")
            tvals: list[float] = []
            shares = s.data.divided
            by_ref = {(k, v): n for k, v, n in shares} if shares else None
            for ref in targets:
                tvals.append(_TARGET_KIND.get(ref[0], 0))
                tvals.append(self._target_ref(ref))
                tvals.append(by_ref.get((ref[0], ref[1]), 0) if by_ref else 0)
            tvals += [0] * (3 * (T - len(targets)))
            to_me = to_opp = to_cr = 0
            if s.kind == "combat_damage":
                for e in s.data.assign:
                    if e[1] == "p":
                        if e[2] == me:
                            to_me += e[3]
                        else:
                            to_opp += e[3]
                    else:
                        to_cr += e[3]
            src = s.source
            row = tab[i]
            row[:_STACK_CARD] = (1, *_STACK_KIND_HOT.get(s.kind, (0, 0, 0, 0)),
                                 1 if s.controller == me else 0)
            if cdef is not None:
                row[_STACK_CARD:_STACK_REST] = full(cdef)
            else:
                row[_STACK_CARD:_STACK_REST] = 0
            rest = (
                pid_row.get(src, -1) + 1 if src is not None else 0,
                s.ability + 1 if s.kind != "spell" and s.ability >= 0 else 0,
                s.x, s.mode + 1 if s.mode >= 0 else 0, len(targets), *tvals,
                1 if s.id == focus else 0, 1 if s.id in casting else 0,
                1 if s.id in resolving else 0, to_me, to_opp, to_cr)
            if self.multi:  # controller_seat
                rest = (*rest, self.rel[s.controller] + 1)
            row[_STACK_REST:] = rest
        for i in range(n, self.stack_rows):
            tab[i] = 0
        self.stack_rows = n

    def _target_ref(self, ref: Any) -> int:
        kind, v = ref[0], ref[1]
        if kind == "p":
            return self.rel[v] + 1  # 1 me, 2 the opponent (two players), else relative seat + 1
        if kind == "o":
            return self.pid_row.get(v, -1) + 1
        if kind == "s":
            return self.stack_row.get(v, -1) + 1
        if kind == "c":
            return self.pile_row["graveyards"].get(v, -1) + 1
        return 0

