"""Mana abilities and the automatic mana payer.

2007 CR 406 (mana abilities), 411 (playing mana abilities: no stack, resolve at once),
409.1g-h (mana abilities are played before costs are paid; costs are paid in any order),
203.3b (X is 0 in the converted mana cost). The matching of symbols to sources lives in
:mod:`mtg_env.engine.mana`.
"""

from __future__ import annotations

from . import effects as fx
from .errors import MtgError
from .mana import add_colored, plan_payment
from .model import (
    CardDef,
    ManaCost,
    StackItem,
    tap_mana_of,
)
from .ops.mana_ops import POOL_READING_OPS


class ManaAbilities:
    """Mixed into :class:`~mtg_env.engine.game.Game`."""

    def _mana_sources(self, pl: int, exclude: int | None = None) -> list:
        """The permanents ``pl`` could tap for mana now with mana abilities whose whole cost is
        {T}: one source per permanent, ``(id, index of its first such ability, every color its
        {T} mana abilities make, those made only with a side effect)`` (a painland: ``"CWU"``,
        ``"WU"``); :meth:`_tap_for` picks the ability. Each mana a triggered mana ability adds
        when the permanent is tapped (Overgrowth's {G}{G}) is one more source ``(id, -1, "G",
        "")``: using it taps the permanent (:meth:`_tap_for`)."""
        out = []
        extra = self.mana_extra
        for perm in self.perms.values():
            if perm.controller != pl or perm.tapped or perm.id == exclude:
                continue
            acts = perm.activated
            base = perm.base
            # Its card's abilities (the common case): the card's precomputed answer.
            src = base.tap_mana if acts is base.activated else tap_mana_of(acts)
            if src is None or (perm.sick and "Creature" in perm.types
                               and "haste" not in perm.keywords):
                continue
            out.append((perm.id, src[0], src[1], src[2]))
            if extra and perm.id in extra:
                out.extend((perm.id, -1, sym, "") for sym in extra[perm.id])
        return out

    def _tap_for(self, pid: int, first: int, color: str) -> None:
        """Tap a source for ``color`` with the cheapest {T} mana ability making it: one without
        side effects (a painland's {1} ability deals no damage) before one with them.
        ``first == -1``: mana a triggered mana ability adds when the permanent is tapped; it is
        already in the pool if the permanent was tapped, else tap it now for any of its mana."""
        perm = self.perms[pid]
        if first < 0:
            if perm.tapped:
                return
            src = tap_mana_of(perm.activated)
            first = src[0]
            color = ("".join(c for c in src[1] if c not in src[2]) or src[1])[0]
        acts = perm.activated
        best = -1
        for i in range(first, len(acts)):
            ab = acts[i]
            if ab.mana is not None and ab.tap_only and color in ab.mana:
                if not ab.effects:
                    best = i
                    break
                if best < 0:
                    best = i
        if best < 0:
            raise MtgError(f"engine error: no mana ability of {pid} makes {color}")
        self._activate_mana(pid, best, color)

    def _color_value(self, pl: int) -> list[float]:
        val = [0.0] * 6
        for card in self.players[pl].hand:
            for i, n in enumerate(card.cdef.cost.colored):
                val[i] += n
        return val

    def _can_afford(self, pl: int, cost: ManaCost, sources: list,
                    exclude: int | None = None) -> bool:
        if cost.free:
            return True
        P = self.players[pl]
        if self.manual_mana:
            return plan_payment(P.mana_pool, cost.colored, cost.generic, ()) is not None
        if exclude is not None:
            sources = [s for s in sources if s[0] != exclude]
        pool = P.mana_pool
        if cost.cmc > sum(pool) + len(sources):
            return False
        # Fast path: with only one-color sources, per-color counts decide it exactly.
        counts = list(pool[:5])
        for s in sources:
            c = s[2]
            if len(c) != 1:
                return plan_payment(pool, cost.colored, cost.generic, sources,
                                    cheapest=False) is not None
            if c != "C":
                counts["WUBRG".index(c)] += 1
        return all(need <= have for need, have in zip(cost.colored, counts))

    def _max_x(self, pl: int, cost: ManaCost, exclude: int | None = None,
               x_color: str | None = None) -> int:
        P = self.players[pl]
        sources = [] if self.manual_mana else self._mana_sources(pl, exclude)
        if plan_payment(P.mana_pool, cost.colored, cost.generic, sources, cheapest=False) is None:
            return -1
        top = (sum(P.mana_pool) + len(sources) - cost.cmc) // max(cost.x, 1)
        if x_color:
            # "Spend only [color] mana on X": X is paid as extra colored symbols.
            while top > 0 and plan_payment(P.mana_pool, add_colored(cost.colored, x_color, top * cost.x),
                                           cost.generic, sources, cheapest=False) is None:
                top -= 1
        return top

    def x_color_ok(self, pl: int, cdef: CardDef, sources: list) -> bool:
        return self._max_x(pl, cdef.cost, None, cdef.x_color) >= 0

    def _pay_mana(self, pl: int, cost: ManaCost, exclude: int | None = None,
                  pool_last: bool = False, auto: bool = False) -> None:
        """Pay ``cost`` automatically: floating mana first, then sources (``pool_last``: sources
        first if they can pay it all, for an ability whose effect reads the pool; ``auto``: tap
        sources even with manual mana, for a cost paid while something resolves)."""
        if cost.is_free():
            return
        P = self.players[pl]
        sources = [] if self.manual_mana and not auto else self._mana_sources(pl, exclude)
        plan = None
        if pool_last and sources:
            plan = plan_payment([0] * 6, cost.colored, cost.generic, sources,
                                self._color_value(pl))
        if plan is None:
            plan = plan_payment(P.mana_pool, cost.colored, cost.generic, sources,
                                self._color_value(pl))
        if plan is None:  # guarded by the option generators; reaching here is an engine bug
            raise MtgError(f"engine error: cannot pay {cost.text} for player {pl}")
        spend, taps = plan
        if self.mana_extra:  # a land's own mana ability before its triggered mana (see _tap_for)
            taps = sorted(taps, key=lambda t: sources[t[0]][1] < 0)
        for si, color in taps:
            self._tap_for(sources[si][0], sources[si][1], color)
        parts = []
        if taps:
            parts.append("taps " + ", ".join(self.perms[sources[si][0]].card.label for si, _ in taps))
        if any(spend):
            parts.append("from pool " + "".join(s * n for s, n in zip("WUBRGC", spend)))
        self._log(f"player {pl} pays {_cost_text(cost)}: {'; '.join(parts)}")
        spent = [0] * 6
        for i in range(6):
            spent[i] = spend[i]
        # The mana just made goes to the remaining symbols.
        pool = P.mana_pool
        for i in range(6):
            pool[i] -= spend[i]
        made = [0] * 6
        for _, color in taps:
            made["WUBRGC".index(color)] += 1
        for i in range(6):
            pool[i] -= made[i]
        if min(pool) < 0:
            raise MtgError("engine error: mana pool went negative")

    def _activate_mana(self, pid: int, ab_index: int, color: str) -> None:
        """Play a mana ability (2007 CR 411): no stack, resolves at once."""
        perm = self.perms[pid]
        ab = perm.activated[ab_index]
        c = ab.cost
        if c.mana.cmc and not self._can_afford(perm.controller, c.mana,
                                               self._mana_sources(perm.controller),
                                               exclude=pid if c.tap else None):
            # Checked before anything changes (a failed activation leaves the state as it was).
            raise MtgError(f"engine error: cannot pay {c.mana.text} for {perm.card.label}'s "
                           "mana ability")
        if c.tap:
            perm.tapped = True
            if "Land" in perm.types:
                # "Whenever a player taps a land for mana" (Manabarbs), the automatic payer's
                # taps included: they are this same mana ability.
                self._event("tapped_for_mana", player=perm.controller, perm=pid)
        if c.mana.cmc:
            self._pay_mana(perm.controller, c.mana, exclude=pid if c.tap else None,
                           pool_last=any(e["op"] in POOL_READING_OPS for e in ab.effects))
        if c.pay_life:
            self._lose_life(perm.controller, c.pay_life)
            self._log(f"player {perm.controller} pays {c.pay_life} life "
                      f"(life {self.players[perm.controller].life})")
        pool = self.players[perm.controller].mana_pool
        for sym in color:  # "" adds nothing (Doubling Cube), "WUBRG" all five (Composite Golem)
            pool["WUBRGC".index(sym)] += ab.mana_amount
        for spec in ab.effects:  # side effects such as painlands' damage
            item = StackItem(0, "activated", perm.controller, source=pid,
                             source_name=perm.card.label, ability=ab_index,
                             data={"card": perm.cdef.name}, ability_def=ab)
            fx.OPS[spec["op"]](self, item, spec)
        if c.sacrifice_self:
            self._leave_play(perm, "graveyard", sacrifice=True)


def _cost_text(cost: ManaCost) -> str:
    """``{2}{R}`` for a cost with X already chosen (its own text may still say X)."""
    if cost.text and "X" not in cost.text:
        return cost.text
    text = f"{{{cost.generic}}}" if cost.generic else ""
    return text + "".join(f"{{{c}}}" * n for c, n in zip("WUBRG", cost.colored)) or "{0}"
