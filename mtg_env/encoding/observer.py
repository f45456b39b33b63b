"""The observer: a game state -> fixed-shape float32 tensors for one player, plus the action mask.

Each viewer has a preallocated flat buffer that is updated in place: a table row is rewritten only
when what it shows changed (a permanent's state, a hand or graveyard that grew), and every
observation handed out is a fresh copy of the buffer, so callers may keep or modify it.

What the viewer may not see never enters its buffer: the opponent's hand shows only its size and
the cards of it the viewer knows (``Game.known_cards``: cards that went there from a public zone,
that a decision showed the viewer, revealed or looked at: Peek, Distress) and the whole hand when
it is played revealed (Telepathy); libraries show only their sizes, plus the cards a
decision of the viewer shows from them (a library search) and the library cards the viewer knows
(Aven Windreader), in the revealed table. The pending decision's details (options, choices so
far) are the decider's only; the other player sees who decides and what kind of decision it is.

An observation depends only on the game as it is now (the knowledge of hidden cards is game
state), so :meth:`Observer.observe_view` computes it from an agent's redacted view, identical to
the env's.

>>> from mtg_env import Deck, Game
>>> g = Game.new([Deck.builtin("starter_green"), Deck.builtin("starter_red")], seed=1)
>>> obs = Observer()
>>> o, mask = obs.observe(g, g.decision.player)
>>> sorted(obs.legal(g).values(), key=str)
[Action('keep'), Action('mulligan')]
>>> int(mask.sum()), o["game"].shape == obs.obs_layout.shapes["game"]
(2, True)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mtg_env.engine.actions import Action
from mtg_env.engine.actions import DecisionKind as _K
from mtg_env.engine.errors import MtgError
from mtg_env.engine.game import STEPS, Game
from mtg_env.engine.model import CardDef
from mtg_env.engine.registry import get_card
from mtg_env.engine.view import PlayerView, sample_game

from .layout import (
    CHOOSE_VERBS,
    DECISION_KINDS,
    GAME_SCALARS,
    PERMANENT_STATE,
    PILE_ZONES,
    PLAYER_FIELDS,
    STACK_KINDS,
    ActionLayout,
    Capacities,
    CapacityError,
    EncodingError,
    ObservationLayout,
    game_columns,
)
from .vocab import (
    CARD_WIDTH,
    COLORS,
    HIDDEN_ID,
    KEYWORD_INDEX,
    KEYWORDS_V1,
    RESERVED,
    CardRows,
    vocabulary,
)

_GAME_COL = {c[0]: i for i, c in enumerate(game_columns())}
_N_SCALARS = len(GAME_SCALARS)
_STEP_COL = {st: _GAME_COL[f"step_{st}"] for st in STEPS}
# Keyed by the member's id: hashing an Enum member runs Python code (its __hash__), and this is
# looked up at every observation. Enum attribute access is slow too, hence the constants below.
_KIND_COL = {id(_K(k)): _GAME_COL[f"kind_{k}"] for k in DECISION_KINDS}
_PRIORITY, _TARGET, _CHOOSE_CARDS = _K.PRIORITY, _K.TARGET, _K.CHOOSE_CARDS
_DECLARE_ATTACKERS, _DECLARE_BLOCKERS = _K.DECLARE_ATTACKERS, _K.DECLARE_BLOCKERS
_COMBAT_DAMAGE, _DIVIDE = _K.COMBAT_DAMAGE, _K.DIVIDE
_ORDER_TRIGGERS, _ORDER_REPLACEMENTS = _K.ORDER_TRIGGERS, _K.ORDER_REPLACEMENTS
_KIND_OTHER_COL = _GAME_COL["kind_other"]
_VERB_COL = {v: _GAME_COL[f"choose_{v.replace(' ', '_')}"] for v in CHOOSE_VERBS}
_VERB_OTHER_COL = _GAME_COL["choose_other"]
_PLAYERS_AT = len(game_columns()) - 2 * len(PLAYER_FIELDS)
_PERM_TYPES = ("Artifact", "Creature", "Enchantment", "Land")
_STACK_CARD = 1 + len(STACK_KINDS) + 1
_STACK_REST = _STACK_CARD + CARD_WIDTH
_STACK_KIND_HOT = {k: tuple(1 if j == k else 0 for j in STACK_KINDS) for k in STACK_KINDS}
_ZONE_CODE = {z: i + 1 for i, z in enumerate(PILE_ZONES)}
_DECLINE = frozenset({"pass", "done", "no", "mulligan"})
_ACCEPT = frozenset({"keep", "yes"})
_TARGET_KIND = {"p": 1, "o": 2, "s": 3, "c": 4}
_PERM_VERBS = frozenset({"mana", "activate", "attack", "block"})  # indices from permanent rows only


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


class _View:
    """One viewer's buffer and what it currently shows (for incremental updates)."""

    def __init__(self, obs: Observer, me: int) -> None:
        self.o = obs
        self.me = me
        lay = obs.obs_layout
        self.buf = np.zeros(lay.size, np.float32)
        self.sec = {name: self.buf[lay.offset[name]:lay.offset[name] + int(np.prod(shape))]
                    .reshape(shape) for name, shape in lay.shapes.items()}
        self.game: Game | None = None
        self.stamp = -1
        self.stamp_decision: Any = None
        self.mask = np.zeros(obs.act_layout.size, np.int8)  # handed out by observe(copy=False)
        self.mask_set: list[int] = []  # the indices set in ``mask``
        self.clear()

    def clear(self) -> None:
        caps = self.o.caps
        self.buf[:] = 0
        self.mask[:] = 0
        self.mask_set = []
        self.layout = 0  # bumped whenever a row's meaning changes (the action mapping cache)
        self.ref_layout = 0  # bumped when permanent or graveyard rows change (stack refs)
        self.stack_sig: Any = None
        self.idx_cache: dict[int, tuple[Action, int]] = {}
        self.idx_layout = -1
        self.perm_layout = 0  # bumped when permanents change rows
        self.perm_idx_cache: dict[int, tuple[Action, int]] = {}
        self.perm_idx_layout = -1
        self.perm_row_views = list(self.sec["permanents"])
        self.row_obj: list[Any] = [None] * (2 * caps.max_permanents)
        self.row_key: list[Any] = [None] * (2 * caps.max_permanents)
        self.perm_list: list = []
        self.perm_keys: list = []
        self.perm_rowof: list[int] = []
        self.hand_own: list = []
        self.opp_key: tuple = ((), 0)
        self.piles: dict[str, list[list]] = {"graveyards": [[], []], "removed": [[], []]}
        self.stack_rows = 0
        self.revealed_rows = 0
        self.revealed_key: tuple | None = None  # the known library cards the table shows
        self.extra: set[int] = set()  # card ids in hidden zones the viewer knows (Game.known_cards)
        self.trigger_rows = 0
        self.marks: list[int] = []
        self.scalars: tuple | None = None
        self.hot: tuple = ()
        self.player_key: tuple | None = None
        # id -> row maps used by the action mapping
        self.pid_row: dict[int, int] = {}
        self.hand_row: dict[int, int] = {}
        self.opp_hand_row: dict[int, int] = {}
        self.pile_row: dict[str, dict[int, int]] = {"graveyards": {}, "removed": {}}
        self.stack_row: dict[int, int] = {}
        self.revealed_row: dict[int, int] = {}
        self.own_rows: list = []
        self.opp_rows: list = []

    # -- the whole update --------------------------------------------------------------
    def update(self, game: Game) -> None:
        d = game.decision
        if game is not self.game:
            self.clear()
            self.game = game
        elif game.decisions_made == self.stamp and d is self.stamp_decision:
            return
        self.stamp = -1  # stays invalid if an update fails half-way (a CapacityError)
        me = self.me
        deciding = d is not None and d.player == me
        perms = game.permanents
        self.extra = game.known_cards(me)
        self._opponent_hand(game)
        self._permanents(perms)
        self._hand(game.players[me].hand)
        self._piles(game)
        frames = game.frames
        self._stack(game, frames, d if deciding else None)
        self._decision(game, d, deciding, frames)
        self.stamp = game.decisions_made
        self.stamp_decision = d

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
        me = self.me
        P = self.o.caps.max_permanents
        own, opp = self.own_rows, self.opp_rows
        rows = []
        for i in range(n, len(perms)):
            p = perms[i]
            if keys[i][0] == me:
                r = len(own)
                own.append(p)
            else:
                r = P + len(opp)
                opp.append(p)
            rows.append(r)
            self.pid_row[p.id] = r
        if len(own) > P or len(opp) > P:
            raise CapacityError("max_permanents", P, max(len(own), len(opp)),
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
        me = self.me
        P = self.o.caps.max_permanents
        rowof: list[int] = []
        own: list = []
        opp: list = []
        for p, k in zip(perms, keys, strict=True):
            if k[0] == me:
                rowof.append(len(own))
                own.append(p)
            else:
                rowof.append(P + len(opp))
                opp.append(p)
        if len(own) > P or len(opp) > P:
            raise CapacityError("max_permanents", P, max(len(own), len(opp)),
                                "the permanents one player controls")
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
        for lo, hi in ((len(own), P), (P + len(opp), 2 * P)):
            for r in range(lo, hi):
                if row_obj[r] is None:
                    break
                row_obj[r] = None
                row_key[r] = None
                tab[r] = 0
        self.perm_list = list(perms)
        self.perm_rowof = rowof
        self.perm_keys = [row_key[r] for r in rowof]
        self.own_rows = own
        self.opp_rows = opp
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

    def _opponent_hand(self, game: Game) -> None:
        hand = game.players[1 - self.me].hand
        extra = self.extra
        known = tuple(c for c in hand if c.cid in extra) if extra else ()
        old_known, old_n = self.opp_key
        n = len(hand)
        if known == old_known and n == old_n:
            return
        H = self.o.caps.max_hand
        if n > H:
            raise CapacityError("max_hand", H, n, "the opponent's hand")
        tab = self.sec["hand"]
        if known != old_known:
            rows = self.o.rows
            for i, c in enumerate(known):
                tab[H + i] = rows.hand(c.cdef)
            start = len(known)
            self.opp_hand_row = {c.cid: H + i for i, c in enumerate(known)}
            self.layout += 1
        else:
            start = min(n, old_n)
        for i in range(start, n):
            tab[H + i] = _HIDDEN_ROW
        if n < old_n:
            tab[H + n:H + old_n] = 0
        self.opp_key = (known, n)

    # -- graveyards and removed cards --------------------------------------------------
    def _piles(self, game: Game) -> None:
        me = self.me
        mine, theirs = game.players[me], game.players[1 - me]
        g, r = self.piles["graveyards"], self.piles["removed"]
        if (mine.graveyard == g[0] and theirs.graveyard == g[1] and mine.removed == r[0]
                and theirs.removed == r[1]):
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
            for side, P in ((0, mine), (1, theirs)):
                pile = getattr(P, attr)
                old = cached[side]
                if pile == old:
                    continue
                if len(pile) > cap:
                    raise CapacityError(key, cap, len(pile), f"a player's {attr} zone")
                base = side * cap
                owner_me = 1 - side
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
        casting = tuple(f.get("sid") for f in frames if f.get("k") == "cast")
        resolving = tuple(f.get("sid") for f in frames if f.get("k") == "resolve")
        focus = _focus_sid(d, frames) if d is not None else None
        # The targets themselves, not their number: Shunt changes a target in place.
        sig = ([(s, tuple(s.targets), s.x, s.mode, s.controller, len(s.data.get("divided", ())))
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
            shares = s.data.get("divided")
            by_ref = {(k, v): n for k, v, n in shares} if shares else None
            for ref in targets:
                tvals.append(_TARGET_KIND.get(ref[0], 0))
                tvals.append(self._target_ref(ref))
                tvals.append(by_ref.get((ref[0], ref[1]), 0) if by_ref else 0)
            tvals += [0] * (3 * (T - len(targets)))
            to_me = to_opp = to_cr = 0
            if s.kind == "combat_damage":
                for e in s.data.get("assign", ()):
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
            row[_STACK_REST:] = (
                pid_row.get(src, -1) + 1 if src is not None else 0,
                s.ability + 1 if s.kind != "spell" and s.ability >= 0 else 0,
                s.x, s.mode + 1 if s.mode >= 0 else 0, len(targets), *tvals,
                1 if s.id == focus else 0, 1 if s.id in casting else 0,
                1 if s.id in resolving else 0, to_me, to_opp, to_cr)
        for i in range(n, self.stack_rows):
            tab[i] = 0
        self.stack_rows = n

    def _target_ref(self, ref: Any) -> int:
        kind, v = ref[0], ref[1]
        if kind == "p":
            return 1 if v == self.me else 2
        if kind == "o":
            return self.pid_row.get(v, -1) + 1
        if kind == "s":
            return self.stack_row.get(v, -1) + 1
        if kind == "c":
            return self.pile_row["graveyards"].get(v, -1) + 1
        return 0

    # -- the pending decision ----------------------------------------------------------
    def _decision(self, game: Game, d: Any, deciding: bool, frames: list) -> None:
        me = self.me
        buf = self.buf
        if self.marks:
            for i in self.marks:
                buf[i] = 0
        marks: list[int] = []
        pend_me = pend_opp = 0
        kind = d.kind if d is not None else None
        target_index = n_opts = cmin = cmax = ccount = dmg_rem = dmg_me = dmg_opp = focus = 0
        ch_me = ch_opp = 0
        verb = None
        if game.stack:
            for s in game.stack:
                if s.kind == "combat_damage":
                    pend = self._combat_pending(s.data.get("assign", ()), marks)
                    pend_me += pend[0]
                    pend_opp += pend[1]
        if deciding:
            ctx = d.context
            n_opts = len(d.options)
            sid = ctx.get("stack_id") if ctx else None
            if sid is None and frames:
                sid = frames[-1].get("sid")
            if sid is not None:
                focus = self.stack_row.get(sid, -1) + 1
            if kind is _PRIORITY:
                pass
            elif kind is _TARGET:
                target_index = ctx.get("target_index", 0) + 1
            elif kind is _DECLARE_ATTACKERS:
                for pid in ctx.get("declared", ()):
                    self._mark_perm(pid, "marked", 1, marks)
            elif kind is _DECLARE_BLOCKERS:
                for b, a in ctx.get("pairs", ()):
                    self._mark_perm(b, "marked", 1, marks)
                    if not self._perm_value(b, "block_pending_ref"):
                        self._mark_perm(b, "block_pending_ref", self.pid_row.get(a, -1) + 1, marks)
            elif kind is _COMBAT_DAMAGE or kind is _DIVIDE:
                # DIVIDE: a spell's damage divided among its targets on announcement (601.2d)
                dmg_rem = ctx.get("remaining", 0)
                rec = ctx.get("recipient")
                if rec is not None:
                    if rec[0] == "p":
                        dmg_me, dmg_opp = (1, 0) if rec[1] == me else (0, 1)
                    else:
                        self._mark_perm(rec[1], "damage_recipient", 1, marks)
                if kind is _COMBAT_DAMAGE:
                    self._mark_perm(ctx.get("source"), "damage_source", 1, marks)
                    for f in frames:
                        if f.get("k") == "assign":
                            pend = self._combat_pending(f.get("out", ()), marks)
                            pend_me += pend[0]
                            pend_opp += pend[1]
            elif kind is _CHOOSE_CARDS:
                verb = ctx.get("verb", "")
                cmin, cmax = ctx.get("min", 0), ctx.get("max", 0)
                chosen = ctx.get("chosen", ())
                ccount = len(chosen)
                for zone, v in chosen:
                    if zone == "p":
                        if v == me:
                            ch_me = 1
                        else:
                            ch_opp = 1
                    else:
                        self._mark_chosen(zone, v, marks)
        opp_rows = self.opp_hand_row
        lib_known = [cid for cid in self.extra if cid not in opp_rows] if self.extra else ()
        if deciding and (kind is _CHOOSE_CARDS or kind is _TARGET):
            self._revealed(game, d, lib_known)
        elif lib_known:
            self._revealed(game, None, lib_known)
        elif self.revealed_rows or self.revealed_row:
            self._clear_revealed()
        if deciding and kind is _ORDER_TRIGGERS:
            self._triggers(game, frames)
        elif deciding and kind is _ORDER_REPLACEMENTS:
            self._replacement_rows(game, d)
        elif self.trigger_rows:
            self._clear_triggers()
        self.marks = marks
        g = self.sec["game"]
        scal = (game.turn, 1 if game.active == me else 0, 1 if game.prio == me else 0,
                1 if game.prio == 1 - me else 0, 1 if deciding else 0, n_opts, target_index,
                cmin, cmax, ccount, dmg_rem, dmg_me, dmg_opp, focus, ch_me, ch_opp)
        if scal != self.scalars:
            self.scalars = scal
            g[:_N_SCALARS] = scal
        hot = (_STEP_COL[game.step],
               _KIND_COL.get(id(kind), _KIND_OTHER_COL) if kind is not None else -1,
               _VERB_COL.get(verb, _VERB_OTHER_COL) if verb is not None else -1)
        if hot != self.hot:
            for i in self.hot:
                if i >= 0:
                    g[i] = 0
            for i in hot:
                if i >= 0:
                    g[i] = 1
            self.hot = hot
        my, op = game.players[me], game.players[1 - me]
        pvals = (my.life, my.poison, len(my.library), len(my.hand), len(my.graveyard),
                 len(my.removed), *my.mana_pool, my.lands_played, my.mulligans,
                 my.life_lost_this_turn, pend_me,
                 op.life, op.poison, len(op.library), len(op.hand), len(op.graveyard),
                 len(op.removed), *op.mana_pool, op.lands_played, op.mulligans,
                 op.life_lost_this_turn, pend_opp)
        if pvals != self.player_key:
            self.player_key = pvals
            g[_PLAYERS_AT:] = pvals

    def _perm_col(self, pid: Any, col: str) -> int | None:
        r = self.pid_row.get(pid)
        if r is None:
            return None
        lay = self.o.obs_layout
        return lay.offset["permanents"] + r * lay.shapes["permanents"][1] + lay.col["permanents"][col]

    def _mark_perm(self, pid: Any, col: str, value: float, marks: list[int]) -> None:
        i = self._perm_col(pid, col)
        if i is not None:
            self.buf[i] = value
            marks.append(i)

    def _perm_value(self, pid: Any, col: str) -> float:
        i = self._perm_col(pid, col)
        return 0.0 if i is None else float(self.buf[i])

    def _combat_pending(self, assign: Any, marks: list[int]) -> tuple[int, int]:
        """Add combat damage assignments to the permanents' from/to columns; return the damage
        going to (me, opponent)."""
        lay = self.o.obs_layout
        pbase = lay.offset["permanents"]
        pw = lay.shapes["permanents"][1]
        c_from = lay.col["permanents"]["combat_damage_from"]
        c_to = lay.col["permanents"]["combat_damage_to"]
        buf = self.buf
        to_me = to_opp = 0
        for e in assign:
            src, kind, tid, n = e[0], e[1], e[2], e[3]
            r = self.pid_row.get(src)
            if r is not None:
                i = pbase + r * pw + c_from
                buf[i] += n
                marks.append(i)
            if kind == "p":
                if tid == self.me:
                    to_me += n
                else:
                    to_opp += n
            else:
                r = self.pid_row.get(tid)
                if r is not None:
                    i = pbase + r * pw + c_to
                    buf[i] += n
                    marks.append(i)
        return to_me, to_opp

    def _mark_chosen(self, zone: str, v: int, marks: list[int]) -> None:
        lay = self.o.obs_layout
        if zone == "o":
            r = self.pid_row.get(v)
            name, col = "permanents", "marked"
        elif zone == "h":
            r = self.hand_row.get(v, self.opp_hand_row.get(v))
            name, col = "hand", "chosen"
        else:
            name, col = "graveyards", "chosen"
            r = self.pile_row["graveyards"].get(v)
            if r is None:
                name = "removed"
                r = self.pile_row["removed"].get(v)
        if r is None:
            return  # shown in the revealed table, which marks its own chosen cards
        i = lay.offset[name] + r * lay.shapes[name][1] + lay.col[name][col]
        self.buf[i] = 1
        marks.append(i)

    def _revealed(self, game: Game, d: Any, known: Any = ()) -> None:
        """Cards a decision of the viewer shows from a hidden zone (library search...), then the
        library cards the viewer knows (``known``: card ids)."""
        refs: list[tuple[Any, int]] = []
        if d is not None:
            for zone, v in d.context.get("chosen", ()):
                refs.append(((zone, v), 1))
            for a in d.options:
                if a.verb in ("choose", "target"):
                    refs.append((a.args[0], 0))
        if known:
            seen = {r[1] for r, _ in refs if r[0] == "c"}
            refs.extend((("c", cid), 0) for cid in sorted(known) if cid not in seen)
        hidden: list[tuple[int, int]] = []
        piles = self.pile_row
        for ref, chosen in refs:
            zone, v = ref[0], ref[1]
            if zone != "c" or v in piles["graveyards"] or v in piles["removed"]:
                continue
            if v in self.hand_row or v in self.opp_hand_row:
                continue
            hidden.append((v, chosen))
        if not hidden and self.revealed_rows == 0:
            self.revealed_row = {}
            self.revealed_key = None
            return
        # Without a decision the rows are the known library cards alone: unchanged if they are.
        key = tuple(hidden) if d is None else None
        if key is not None and key == self.revealed_key:
            return
        self.revealed_key = key
        cap = self.o.caps.max_revealed
        if len(hidden) > cap:
            raise CapacityError("max_revealed", cap, len(hidden), "the cards a decision shows")
        tab = self.sec["revealed"]
        small = self.o.rows.small
        rowmap = {}
        for i, (cid, chosen) in enumerate(hidden):
            card = game.cards[cid]
            owner = card.owner
            P = game.players[owner]
            zone = ("library" if card in P.library else "hand" if card in P.hand
                    else "graveyard" if card in P.graveyard else "removed" if card in P.removed
                    else "other")
            tab[i] = (1, *small(card.cdef), chosen, 1 if owner == self.me else 0, _ZONE_CODE[zone])
            rowmap[cid] = i
        for i in range(len(hidden), self.revealed_rows):
            tab[i] = 0
        self.revealed_rows = len(hidden)
        self.revealed_row = rowmap
        self.layout += 1

    def _clear_revealed(self) -> None:
        self.revealed_key = None
        if self.revealed_rows:
            self.sec["revealed"][:self.revealed_rows] = 0
            self.revealed_rows = 0
        self.revealed_row = {}

    def _triggers(self, game: Game, frames: list) -> None:
        queue: list = []
        for f in reversed(frames):
            if f.get("k") == "put":
                q = f.get("q", {})
                for pl in f.get("order", ()):
                    if q.get(str(pl)):
                        queue = q[str(pl)]
                        break
                break
        cap = self.o.caps.max_triggers
        if len(queue) > cap:
            raise CapacityError("max_triggers", cap, len(queue), "the triggers to order")
        tab = self.sec["triggers"]
        from .vocab import card_index
        for i, t in enumerate(queue):
            name = t.get("card") or ""
            src = t.get("src")
            cid = 0
            if name:
                try:
                    cid = card_index(get_card(name))
                except MtgError:  # a trigger of a card the registry lacks
                    cid = 2
            elif src in self.pid_row:
                r = self.pid_row[src]
                p = self.own_rows[r] if r < self.o.caps.max_permanents else \
                    self.opp_rows[r - self.o.caps.max_permanents]
                cid = card_index(p.card.cdef)
            tab[i] = (1, cid, self.pid_row.get(src, -1) + 1 if src is not None else 0,
                      t.get("ab", -1) + 1, 1 if t.get("special") == "gain_life" else 0,
                      1 if t.get("ctrl") == self.me else 0)
        for i in range(len(queue), self.trigger_rows):
            tab[i] = 0
        self.trigger_rows = len(queue)

    def _replacement_rows(self, game: Game, d: Any) -> None:
        """Decision ``order_replacements`` (2012 616.1): the triggers table lists the replacement
        and prevention effects in the order the ``order`` band indexes them: the source card,
        its permanent ref, whether the viewer controls the source."""
        effects = d.context.get("effects", ())
        cap = self.o.caps.max_triggers
        if len(effects) > cap:
            raise CapacityError("max_triggers", cap, len(effects), "the effects to order")
        tab = self.sec["triggers"]
        from .vocab import card_index
        for i, e in enumerate(effects):
            name = e.get("card") or ""
            try:
                cid = card_index(get_card(name)) if name else 0
            except MtgError:
                cid = 2
            src = e.get("src")
            perm = game.perms.get(src) if src is not None else None
            tab[i] = (1, cid, self.pid_row.get(src, -1) + 1 if src is not None else 0, 0, 0,
                      1 if perm is not None and perm.controller == self.me else 0)
        for i in range(len(effects), self.trigger_rows):
            tab[i] = 0
        self.trigger_rows = len(effects)

    def _clear_triggers(self) -> None:
        if self.trigger_rows:
            self.sec["triggers"][:self.trigger_rows] = 0
            self.trigger_rows = 0

    # -- the action mapping ------------------------------------------------------------
    def index_of(self, a: Action) -> int:
        """The action index of one legal option (the view must be up to date)."""
        lay = self.o.act_layout
        off = lay.offset
        caps = self.o.caps
        verb = a.verb
        args = a.args
        if verb == "mana" or verb == "activate":
            pid, ab = args[0], args[1]
            r = self.pid_row.get(pid)
            if r is None or r >= caps.max_permanents:
                raise EncodingError(f"{a.text!r}: permanent {pid} is not one the deciding "
                                    "player controls")
            p = self.own_rows[r]
            slots = self.o.caches.ability_slots(p.activated)
            slot = slots.get((ab, args[2] if verb == "mana" else None))
            if slot is None:
                raise EncodingError(f"{a.text!r}: ability {ab} of {p.card.label} has no "
                                    "ability slot")
            if slot >= caps.max_ability_slots:
                raise CapacityError("max_ability_slots", caps.max_ability_slots, slot + 1,
                                    f"the abilities of {p.card.label}")
            return off["ability"] + r * caps.max_ability_slots + slot
        if verb in _DECLINE:
            return off["decline"]
        if verb == "play":
            r = self.hand_row.get(args[0])
            if r is None:
                # A land played from the graveyard (Crucible of Worlds): its graveyard row.
                r = self.pile_row["graveyards"].get(args[0])
                if r is None:
                    raise EncodingError(f"{a.text!r}: card {args[0]} is not in the player's "
                                        "hand or graveyard")
                return off["graveyard"] + r
            return off["hand"] + r
        if verb == "choose" or verb == "target":
            return self._ref_index(args[0], a)
        if verb in _ACCEPT:
            return off["accept"]
        if verb == "attack":
            return self._perm_index(args[0], a)
        if verb == "block":
            P = caps.max_permanents
            b, att = self.pid_row.get(args[0]), self.pid_row.get(args[1])
            if b is None or att is None or b >= P or att < P:
                raise EncodingError(f"{a.text!r}: the blocker must be the deciding player's and "
                                    "the attacker the opponent's")
            return off["block"] + b * P + (att - P)
        if verb in ("x", "assign", "mode", "order"):
            n = args[0]
            band = verb
            size = lay.band_size[band]
            if not 0 <= n < size:
                key = {"x": "max_x", "assign": "max_damage", "mode": "max_modes",
                       "order": "max_triggers"}[verb]
                limit = getattr(caps, key)
                raise CapacityError(key, limit, n, f"option {a.text!r}")
            return off[band] + n
        if verb == "color":
            if args[0] not in COLORS:
                raise EncodingError(f"{a.text!r}: unknown color {args[0]!r}")
            return off["color"] + COLORS.index(args[0])
        if verb == "player":
            return off["player"] + (0 if args[0] == self.me else 1)
        if verb == "name":  # a card name (Pithing Needle): its card vocabulary index
            i = vocabulary().index(args[0])
            if i < len(RESERVED):
                raise EncodingError(f"{a.text!r}: {args[0]!r} is not in the card vocabulary")
            return off["card_name"] + i
        raise EncodingError(f"option {a.text!r} has verb {verb!r}, which the action layout "
                            "does not know")

    def _perm_index(self, pid: int, a: Action) -> int:
        r = self.pid_row.get(pid)
        if r is None:
            raise EncodingError(f"{a.text!r}: permanent {pid} is not in play")
        return self.o.act_layout.offset["permanent"] + r

    def _ref_index(self, ref: Any, a: Action) -> int:
        off = self.o.act_layout.offset
        zone, v = ref[0], ref[1]
        if zone == "o":
            return self._perm_index(v, a)
        if zone == "p":
            return off["player"] + (0 if v == self.me else 1)
        if zone == "s":
            r = self.stack_row.get(v)
            if r is None:
                raise EncodingError(f"{a.text!r}: stack object {v} is not on the stack")
            return off["stack"] + r
        if zone == "h":
            r = self.hand_row.get(v)
            if r is None:
                r = self.opp_hand_row.get(v)
            if r is None:
                raise EncodingError(f"{a.text!r}: card {v} is in no hand slot")
            return off["hand"] + r
        if zone == "c":
            piles = self.pile_row
            r = piles["graveyards"].get(v)
            if r is not None:
                return off["graveyard"] + r
            r = piles["removed"].get(v)
            if r is not None:
                return off["removed"] + r
            r = self.hand_row.get(v, self.opp_hand_row.get(v))
            if r is not None:
                return off["hand"] + r
            r = self.revealed_row.get(v)
            if r is not None:
                return off["revealed"] + r
            raise EncodingError(f"{a.text!r}: card {v} is in no visible slot")
        raise EncodingError(f"{a.text!r}: unknown reference {ref!r}")


_N_STATE = 6 + len(KEYWORDS_V1) + 1 + 5 + len(_PERM_TYPES) + 11
_STATE_AT = 1 + CARD_WIDTH
_TAPPED = _STATE_AT + 1
_FLAGS_AT = _STATE_AT + 17
_STATE_END = _STATE_AT + _N_STATE


def _perm_keys(perms: list) -> list[tuple]:
    """What each permanent's row shows; the containers come last (the cache keeps copies, since
    the engine mutates them in place)."""
    return [(p.controller, p.tapped, p.sick, p.damage, p.power, p.toughness, p.keywords, p.colors,
             p.types, p.attacking, p.blocked, p.attached_to, p.regen_shields, p.blocking,
             p.blockers, p.counters, p.used_this_turn) for p in perms]
# The permanent state columns this module writes per row, followed by the six columns the pending
# decision sets (marked ... damage_recipient).
assert len(PERMANENT_STATE) == _N_STATE + 6, "permanent columns and the observer disagree"
_HIDDEN_ROW = np.zeros(2 + CARD_WIDTH + 1, np.float32)
_HIDDEN_ROW[0] = 1  # present, not known
_HIDDEN_ROW[2] = HIDDEN_ID


def _focus_sid(d: Any, frames: list) -> int | None:
    sid = d.context.get("stack_id") if d.context else None
    if sid is None and frames:
        sid = frames[-1].get("sid")
    return sid


def _stack_cdef(game: Game, s: Any) -> CardDef | None:
    if s.card is not None:
        return s.card.cdef
    if s.source is not None:
        p = game.perms.get(s.source)
        if p is not None:
            return p.card.cdef
    name = s.data.get("card") if s.data else None
    if name:
        try:
            return get_card(name)
        except MtgError:  # a source the registry no longer knows
            return None
    return None


class Observer:
    """Encodes a game for either player into the observation tensors and the action mask.

    ``observe(game, player)`` returns ``(observation, mask)``: the observation is a dict of
    float32 arrays (or one flat float32 vector with ``flatten=True``), the mask an int8 vector of
    the action space's size, all zeros unless ``player`` is deciding. ``legal(game)`` maps every
    legal index of the pending decision to its engine :class:`Action`.
    """

    def __init__(self, caps: Capacities | None = None, flatten: bool = False) -> None:
        self.caps = caps or Capacities()
        self.flatten = flatten
        self.obs_layout = ObservationLayout(self.caps)
        self.act_layout = ActionLayout(self.caps)
        self.rows = CardRows()
        self.caches = _Caches()
        self._views = (_View(self, 0), _View(self, 1))
        self._legal_game: Game | None = None
        self._legal_decision: Any = None
        self._legal_stamp = -1
        self._legal: dict[int, Action] = {}

    def reset(self) -> None:
        """Forget everything shown so far (start of a new game)."""
        for v in self._views:
            v.clear()
            v.game = None
        self._legal_game = None
        self._legal_decision = None
        self._legal = {}

    def note(self, game: Game) -> None:
        """Nothing to record: what each player knows of hidden cards is game state
        (:mod:`mtg_env.engine.knowledge`), so an observation depends only on the game as it is
        now. Kept so callers written for the older history-keeping observer still work."""

    def observe(self, game: Game, player: int, copy: bool = True) -> tuple[Any, np.ndarray]:
        """``player``'s observation and action mask. ``copy=False`` returns the observer's own
        buffers (valid until the next call for that player) instead of copies."""
        view = self._views[player]
        view.update(game)
        d = game.decision
        legal = self.legal(game) if d is not None and d.player == player else ()
        if not copy:
            mask = view.mask
            for i in view.mask_set:
                mask[i] = 0
            for i in legal:
                mask[i] = 1
            view.mask_set = list(legal)
            return (view.buf if self.flatten else dict(view.sec)), mask
        mask = np.zeros(self.act_layout.size, np.int8)
        for i in legal:
            mask[i] = 1
        if self.flatten:
            return view.buf.copy(), mask
        return {name: a.copy() for name, a in view.sec.items()}, mask

    def observe_view(self, view: PlayerView, seed: int = 0
                     ) -> tuple[Any, np.ndarray, dict[int, str]]:
        """``(observation, action_mask, legal_texts)`` for the viewer of a redacted
        :class:`~mtg_env.engine.view.PlayerView`: the same arrays as the env's observation and mask
        for that player at that moment, and ``{index: engine text}`` of the legal indices ({}
        unless the viewer decides).

        It observes a game consistent with the view (:func:`~mtg_env.engine.view.sample_game`,
        the hidden cards resampled with ``seed``): the observation reads only what the viewer may
        see, so the sample gives the arrays of the real game. Only valid while the game has not
        moved on since the view was taken.
        """
        game = sample_game(view, seed)
        obs, mask = self.observe(game, view.viewer)
        texts = ({i: a.text for i, a in self.legal(game).items()}
                 if view.decision is not None else {})
        return obs, mask, texts

    def observe_into(self, game: Game, player: int, obs_out: np.ndarray,
                     mask_out: np.ndarray) -> None:
        """Write ``player``'s flat observation and action mask into preallocated arrays (rows of
        a vector env's batch), without the copies :meth:`observe` returns."""
        if not self.flatten:
            raise ValueError("observe_into needs an Observer built with flatten=True")
        view = self._views[player]
        view.update(game)
        obs_out[:] = view.buf
        mask_out[:] = 0
        d = game.decision
        if d is not None and d.player == player:
            for i in self.legal(game):
                mask_out[i] = 1

    def legal(self, game: Game) -> dict[int, Action]:
        """``{index: action}`` for every legal option of the pending decision ({} when over)."""
        d = game.decision
        if d is None:
            return {}
        if (d is self._legal_decision and game is self._legal_game
                and game.decisions_made == self._legal_stamp):
            return self._legal
        view = self._views[d.player]
        view.update(game)
        out: dict[int, Action] = {}
        if view.idx_layout != view.layout:
            view.idx_cache = {}
            view.idx_layout = view.layout
        if view.perm_idx_layout != view.perm_layout:
            view.perm_idx_cache = {}
            view.perm_idx_layout = view.perm_layout
        cache = view.idx_cache
        perm_cache = view.perm_idx_cache
        for a in d.options:
            # Engine actions are often the same objects from one decision to the next (mana
            # abilities especially); their index holds while the rows they name don't move.
            c = perm_cache if a.verb in _PERM_VERBS else cache
            hit = c.get(id(a))
            if hit is not None and hit[0] is a:
                i = hit[1]
            else:
                i = view.index_of(a)
                c[id(a)] = (a, i)
            if i in out:
                raise EncodingError(f"options {out[i].text!r} and {a.text!r} of player "
                                    f"{d.player}'s {d.kind.value} decision both map to index {i}")
            out[i] = a
        self._legal_game = game
        self._legal_decision = d
        self._legal_stamp = game.decisions_made
        self._legal = out
        return out

    def legal_indices(self, game: Game) -> np.ndarray:
        """The legal indices of the pending decision, ascending, as a new int64 array (empty
        when the game is over)."""
        if game.decision is None:
            return np.zeros(0, np.int64)
        return np.array(sorted(self.legal(game)), np.int64)

    def view_rows(self, player: int) -> dict[str, Any]:
        """What each row of ``player``'s last observation shows, for debugging and tests:
        permanents by row, hand card ids by row, graveyard/removed/revealed card ids by row and
        stack object ids by row."""
        v = self._views[player]
        P = self.caps.max_permanents
        perms = {i: p for i, p in enumerate(v.own_rows)}
        perms.update({P + j: p for j, p in enumerate(v.opp_rows)})
        inv = {}
        for name in ("graveyards", "removed"):
            inv[name] = {r: cid for cid, r in v.pile_row[name].items()}
        return {"permanents": perms,
                "hand": {r: cid for cid, r in {**v.hand_row, **v.opp_hand_row}.items()},
                "graveyards": inv["graveyards"], "removed": inv["removed"],
                "revealed": {r: cid for cid, r in v.revealed_row.items()},
                "stack": {r: sid for sid, r in v.stack_row.items()}}


__all__ = ["Observer"]
