"""The decision part of a viewer's observation buffer: the game scalars, the players' fields,
the marks the pending decision puts on rows (chosen, attacking, damage assigned ...), the revealed
cards and the triggers and replacement effects being ordered (:class:`DecisionRows`, a part of
:class:`~mtg_env.encoding.observer.Observer`'s per-player view). The decider's details stay the
decider's: the other player sees who decides and what kind of decision it is.
"""

from __future__ import annotations

from typing import Any

from mtg_env.engine.actions import DecisionKind as _K
from mtg_env.engine.errors import MtgError
from mtg_env.engine.frames import AssignFrame, PutFrame
from mtg_env.engine.game import STEPS, Game
from mtg_env.engine.registry import get_card

from .layout import (
    CHOOSE_VERBS,
    DECISION_KINDS,
    GAME_SCALARS,
    MULTIPLAYER_FIELDS,
    PILE_ZONES,
    PLAYER_FIELDS,
    CapacityError,
    game_columns,
)
from .vocab import card_index

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
_N_PLAYER, _N_MULTI = len(PLAYER_FIELDS), len(MULTIPLAYER_FIELDS)
_ZONE_CODE = {z: i + 1 for i, z in enumerate(PILE_ZONES)}


class DecisionRows:
    """The decision part of :class:`~mtg_env.encoding.observer._View` (mixed into it)."""

    def _decision(self, game: Game, d: Any, deciding: bool, frames: list) -> None:
        me = self.me
        buf = self.buf
        if self.marks:
            for i in self.marks:
                buf[i] = 0
        marks: list[int] = []
        pend = None  # combat damage assigned to each relative seat, not yet dealt (if any)
        kind = d.kind if d is not None else None
        target_index = n_opts = cmin = cmax = ccount = dmg_rem = dmg_me = dmg_opp = focus = 0
        ch_me = ch_opp = 0
        verb = None
        if game.stack:
            for s in game.stack:
                if s.kind == "combat_damage":
                    pend = pend or [0] * self.n
                    self._combat_pending(s.data.assign, marks, pend)
        if deciding:
            ctx = d.context
            n_opts = len(d.options)
            sid = ctx.get("stack_id") if ctx else None
            if sid is None and frames:
                f = frames[-1]
                sid = getattr(f, "item_id", None)
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
                        if isinstance(f, AssignFrame):
                            pend = pend or [0] * self.n
                            self._combat_pending(f.assigned, marks, pend)
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
                1 if game.prio in self.opp_set else 0, 1 if deciding else 0, n_opts, target_index,
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
        if self.two:
            my, op = game.players[me], game.players[self.opp]
            pvals = (my.life, my.poison, len(my.library), len(my.hand), len(my.graveyard),
                     len(my.removed), *my.mana_pool, my.lands_played, my.mulligans,
                     my.life_lost_this_turn, pend[0] if pend else 0,
                     op.life, op.poison, len(op.library), len(op.hand), len(op.graveyard),
                     len(op.removed), *op.mana_pool, op.lands_played, op.mulligans,
                     op.life_lost_this_turn, pend[1] if pend else 0)
            if pvals != self.player_key:
                self.player_key = pvals
                g[_PLAYERS_AT:] = pvals
            return
        self._seat_fields(game, d, deciding, pend or [0] * self.n, marks)

    def _seat_fields(self, game: Game, d: Any, deciding: bool, pend: list[int],
                     marks: list[int]) -> None:
        """A multiplayer observation's seat blocks (:data:`PLAYER_FIELDS` then
        :data:`MULTIPLAYER_FIELDS`, one block per seat in the viewer's order) and the
        ``attacks_seat`` column of the attacking creatures, and of those the viewer is
        declaring (a declaration in progress is the decider's, like its other choices)."""
        attackers = [0] * self.n
        attacked: set[int] = set()
        whom = dict(game.attack_whom) if game.attack_whom else None
        declared: tuple = ()
        chosen_seats: tuple = ()
        rec_seat = -1
        ctx = d.context if deciding else None
        if ctx and d.kind is _CHOOSE_CARDS:
            chosen_seats = tuple(v for zone, v in ctx.get("chosen", ()) if zone == "p")
        elif ctx and (d.kind is _COMBAT_DAMAGE or d.kind is _DIVIDE):
            rec = ctx.get("recipient")
            if rec is not None and rec[0] == "p":
                rec_seat = rec[1]
        elif ctx and d.kind is _DECLARE_ATTACKERS:
            pairs = ctx.get("whom")
            declared = tuple(zip(ctx.get("declared", ()), pairs, strict=True)) if pairs else \
                tuple((pid, game.defender) for pid in ctx.get("declared", ()))
        two_headed = game.variant == "two_headed_giant"
        n_attacking = 0
        for p in game.permanents:
            if p.attacking:
                n_attacking += 1
                q = whom.get(p.id, game.defender) if whom else game.defender
                self._attack_mark(p.id, q, attackers, attacked, marks)
        for pid, q in declared:
            p = game.perms.get(pid)
            if p is not None and not p.attacking:
                self._attack_mark(pid, q, attackers, attacked, marks)
        if two_headed and (n_attacking or declared):
            attacked.update(q for q in range(self.n) if q // 2 != game.active // 2)
        if game.defender >= 0:
            attacked.add(game.defender)
        players = game.players
        active_team = game.active // 2 if two_headed else game.active
        vals: list[float] = []
        for k, q in enumerate(self.seats):
            P = players[q]
            vals += (P.life, P.poison, len(P.library), len(P.hand), len(P.graveyard),
                     len(P.removed), *P.mana_pool, P.lands_played, P.mulligans,
                     P.life_lost_this_turn, pend[k],
                     1 if P.lost else 0, 1 if q in self.team else 0,
                     1 if (q // 2 if two_headed else q) == active_team else 0,
                     1 if game.prio == q else 0, 1 if d is not None and d.player == q else 0,
                     1 if q in attacked else 0, attackers[k], 1 if q in chosen_seats else 0,
                     1 if q == rec_seat else 0)
        key = tuple(vals)
        if key != self.seat_key:
            self.seat_key = key
            self.sec["game"][_PLAYERS_AT:] = key

    def _attack_mark(self, pid: Any, q: int, attackers: list[int], attacked: set[int],
                     marks: list[int]) -> None:
        """Attacker ``pid`` attacks seat ``q`` (-1: not one player, Two-Headed Giant's team)."""
        if q < 0:
            return
        k = self.rel[q]
        attackers[k] += 1
        attacked.add(q)
        self._mark_perm(pid, "attacks_seat", k + 1, marks)

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

    def _combat_pending(self, assign: Any, marks: list[int], pend: list[int]) -> None:
        """Add combat damage assignments to the permanents' from/to columns, and the damage
        going to each player to ``pend`` (by relative seat)."""
        lay = self.o.obs_layout
        pbase = lay.offset["permanents"]
        pw = lay.shapes["permanents"][1]
        c_from = lay.col["permanents"]["combat_damage_from"]
        c_to = lay.col["permanents"]["combat_damage_to"]
        buf = self.buf
        rel = self.rel
        for e in assign:
            src, kind, tid, n = e[0], e[1], e[2], e[3]
            r = self.pid_row.get(src)
            if r is not None:
                i = pbase + r * pw + c_from
                buf[i] += n
                marks.append(i)
            if kind == "p":
                pend[rel[tid]] += n
            else:
                r = self.pid_row.get(tid)
                if r is not None:
                    i = pbase + r * pw + c_to
                    buf[i] += n
                    marks.append(i)

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
            if isinstance(f, PutFrame):
                for pl in f.order:
                    if f.queues[pl]:
                        queue = f.queues[pl]
                        break
                break
        cap = self.o.caps.max_triggers
        if len(queue) > cap:
            raise CapacityError("max_triggers", cap, len(queue), "the triggers to order")
        tab = self.sec["triggers"]
        for i, t in enumerate(queue):
            name = t.card
            src = t.source
            cid = _named_card_index(name)
            if not name and src in self.pid_row:
                r = self.pid_row[src]
                P = self.o.caps.max_permanents
                p = self.seat_rows[r // P][r % P]
                cid = card_index(p.card.cdef)
            tab[i] = (1, cid, self.pid_row.get(src, -1) + 1 if src is not None else 0,
                      t.ability_index + 1, 1 if t.special == "gain_life" else 0,
                      1 if t.controller == self.me else 0)
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
        for i, e in enumerate(effects):
            cid = _named_card_index(e.get("card") or "")
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


def _named_card_index(name: str) -> int:
    """The vocabulary index of the card named ``name`` (a trigger's or an effect's source):
    0 for no name, 2 (a card outside the vocabulary) for one the registry lacks."""
    if not name:
        return 0
    try:
        return card_index(get_card(name))
    except MtgError:
        return 2
