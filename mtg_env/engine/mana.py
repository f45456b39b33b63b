"""Mana: mana abilities, paying mana costs, and the automatic payer's plan.

2007 CR 406 (mana abilities), 411 (playing mana abilities: no stack, they resolve at once; 411.2 one
may be played while a cost is being paid), 409.1g-h (mana abilities are played before costs are
paid; costs are paid in any order), 203.3b (X is 0 in the converted mana cost). The mana pool
empties as each phase ends, with mana burn (2007 CR 300.3): :mod:`mtg_env.engine.turn_structure`.

The automatic payer (409.1g-h) spends floating mana first, then taps sources (:func:`pay_mana`,
:func:`tap_for`); which mana pays which symbol is planned by :func:`plan_payment`, a pure
function of the pool and the sources. Colored symbols are matched to sources exactly (bipartite
matching, so a source that can make several colors is never wasted on the wrong symbol);
generic mana is paid with the sources whose colors the player's hand needs least. Some colors of
a source come with a side cost (a painland's colored ability deals 1 damage to you): when the
plan uses one, it is re-planned as a min-cost matching (:func:`_min_side_costs`), so a side cost
is paid only when no plan avoids it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from . import damage  # a module import: damage imports replacement and choices, which import this module
from . import effects as fx
from .errors import MtgError
from .mana_cost import ManaCost
from .model import COLORS, CardDef, StackItem, tap_mana_of
from .stack_data import StackData
from .triggers import report_event
from .zones import leave_play

if TYPE_CHECKING:
    from .game import Game

# Ops whose result depends on the mana already in the pool (``double_mana_pool``,
# mtg_env/engine/ops/mana.py): a mana ability running one has its own mana cost paid from
# untapped sources before floating mana (see activate_mana).
POOL_READING_OPS = frozenset({"double_mana_pool"})


def mana_sources(g: Game, pl: int, exclude: int | None = None) -> list[Source]:
    """The permanents ``pl`` could tap for mana now with mana abilities whose whole cost is
    {T}: one source per permanent, ``(id, index of its first such ability, every color its
    {T} mana abilities make, those made only with a side effect)`` (a painland: ``"CWU"``,
    ``"WU"``); :func:`tap_for` picks the ability. Each mana a triggered mana ability adds
    when the permanent is tapped (Overgrowth's {G}{G}) is one more source ``(id, -1, "G",
    "")``: using it taps the permanent (:func:`tap_for`)."""
    out: list[Source] = []
    extra = g.mana_extra
    for perm in g.perms.values():
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


def tap_for(g: Game, pid: int, first: int, color: str) -> None:
    """Tap a source for ``color`` with the cheapest {T} mana ability making it: one without
    side effects (a painland's {1} ability deals no damage) before one with them.
    ``first == -1``: mana a triggered mana ability adds when the permanent is tapped; it is
    already in the pool if the permanent was tapped, else tap it now for any of its mana."""
    perm = g.perms[pid]
    if first < 0:
        if perm.tapped:
            return
        src = tap_mana_of(perm.activated)
        assert src is not None  # a (pid, -1, ...) source is listed only with its own one
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
    activate_mana(g, pid, best, color)


def hand_color_needs(g: Game, pl: int) -> list[float]:
    val = [0.0] * 6
    for card in g.players[pl].hand:
        for i, n in enumerate(card.cdef.cost.colored):
            val[i] += n
    return val


def can_afford(g: Game, pl: int, cost: ManaCost, sources: list[Source],
                exclude: int | None = None) -> bool:
    if cost.free:
        return True
    P = g.players[pl]
    if g.manual_mana:
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


def max_x(g: Game, pl: int, cost: ManaCost, exclude: int | None = None,
           x_color: str | None = None) -> int:
    P = g.players[pl]
    sources = [] if g.manual_mana else mana_sources(g, pl, exclude)
    if plan_payment(P.mana_pool, cost.colored, cost.generic, sources, cheapest=False) is None:
        return -1
    top = (sum(P.mana_pool) + len(sources) - cost.cmc) // max(cost.x, 1)
    if x_color:
        # "Spend only [color] mana on X": X is paid as extra colored symbols.
        while top > 0 and plan_payment(P.mana_pool, add_colored(cost.colored, x_color, top * cost.x),
                                       cost.generic, sources, cheapest=False) is None:
            top -= 1
    return top


def x_color_ok(g: Game, pl: int, cdef: CardDef, sources: list[Source]) -> bool:
    return max_x(g, pl, cdef.cost, None, cdef.x_color) >= 0


def pay_mana(g: Game, pl: int, cost: ManaCost, exclude: int | None = None,
              pool_last: bool = False, auto: bool = False) -> None:
    """Pay ``cost`` automatically: floating mana first, then sources (``pool_last``: sources
    first if they can pay it all, for an ability whose effect reads the pool; ``auto``: tap
    sources even with manual mana, for a cost paid while something resolves)."""
    if cost.is_free():
        return
    P = g.players[pl]
    sources = [] if g.manual_mana and not auto else mana_sources(g, pl, exclude)
    plan = None
    if pool_last and sources:
        plan = plan_payment([0] * 6, cost.colored, cost.generic, sources,
                            hand_color_needs(g, pl))
    if plan is None:
        plan = plan_payment(P.mana_pool, cost.colored, cost.generic, sources,
                            hand_color_needs(g, pl))
    if plan is None:  # guarded by the option generators; reaching here is an engine bug
        raise MtgError(f"engine error: cannot pay {cost.text} for player {pl}")
    spend, taps = plan
    if g.mana_extra:  # a land's own mana ability before its triggered mana (see _tap_for)
        taps = sorted(taps, key=lambda t: sources[t[0]][1] < 0)
    for si, color in taps:
        tap_for(g, sources[si][0], sources[si][1], color)
    parts = []
    if taps:
        parts.append("taps " + ", ".join(g.perms[sources[si][0]].card.label for si, _ in taps))
    if any(spend):
        parts.append("from pool " + "".join(s * n for s, n in zip("WUBRGC", spend)))
    g.write_log(f"player {pl} pays {_cost_text(cost)}: {'; '.join(parts)}")
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


def activate_mana(g: Game, pid: int, ab_index: int, color: str) -> None:
    """Play a mana ability (2007 CR 411): no stack, resolves at once."""
    perm = g.perms[pid]
    ab = perm.activated[ab_index]
    c = ab.cost
    if c.mana.cmc and not can_afford(g, perm.controller, c.mana,
                                           mana_sources(g, perm.controller),
                                           exclude=pid if c.tap else None):
        # Checked before anything changes (a failed activation leaves the state as it was).
        raise MtgError(f"engine error: cannot pay {c.mana.text} for {perm.card.label}'s "
                       "mana ability")
    if c.tap:
        perm.tapped = True
        if "Land" in perm.types:
            # "Whenever a player taps a land for mana" (Manabarbs), the automatic payer's
            # taps included: they are this same mana ability.
            report_event(g, "tapped_for_mana", player=perm.controller, perm=pid)
    if c.mana.cmc:
        pay_mana(g, perm.controller, c.mana, exclude=pid if c.tap else None,
                       pool_last=any(e["op"] in POOL_READING_OPS for e in ab.effects))
    if c.pay_life:
        damage.lose_life(g, perm.controller, c.pay_life)
        g.write_log(f"player {perm.controller} pays {c.pay_life} life "
                  f"(life {g.players[perm.controller].life})")
    pool = g.players[perm.controller].mana_pool
    for sym in color:  # "" adds nothing (Doubling Cube), "WUBRG" all five (Composite Golem)
        pool["WUBRGC".index(sym)] += ab.mana_amount
    for spec in ab.effects:  # side effects such as painlands' damage
        item = StackItem(0, "activated", perm.controller, source=pid,
                         source_name=perm.card.label, ability=ab_index,
                         data=StackData(card=perm.cdef.name), ability_def=ab)
        fx.OPS[spec["op"]](g, item, spec)
    if c.sacrifice_self:
        leave_play(g, perm, "graveyard", sacrifice=True)


def _cost_text(cost: ManaCost) -> str:
    """``{2}{R}`` for a cost with X already chosen (its own text may still say X)."""
    if cost.text and "X" not in cost.text:
        return cost.text
    text = f"{{{cost.generic}}}" if cost.generic else ""
    return text + "".join(f"{{{c}}}" * n for c, n in zip("WUBRG", cost.colored)) or "{0}"


# -- Payment planning: which mana pays which symbol (no game state) --------------------------

# A source is (permanent id, ability index, colors it can make, the colors among them made only
# with a side cost); each makes one mana.
Source = tuple[int, int, str, str]


def _match(needs: list[int], sources: Sequence[Source]) -> list[int] | None:
    """Assign each needed color (index into WUBRG) to a distinct source able to make it.

    Returns, per need, the index of its source, or None if no full matching exists.
    """
    owner: dict[int, int] = {}  # source index -> need index
    cand: list[list[int]] = []
    for color in needs:
        sym = "WUBRG"[color]
        cand.append([i for i, s in enumerate(sources) if sym in s[2]])

    def augment(n: int, seen: set[int]) -> bool:
        for si in cand[n]:
            if si in seen:
                continue
            seen.add(si)
            if si not in owner or augment(owner[si], seen):
                owner[si] = n
                return True
        return False

    for n in range(len(needs)):
        if not cand[n] or not augment(n, set()):
            return None
    result = [0] * len(needs)
    for si, n in owner.items():
        result[n] = si
    return result


def plan_payment(pool: Sequence[int], colored: Sequence[int], generic: int,
                 sources: Sequence[Source], color_value: Sequence[float] = (0, 0, 0, 0, 0),
                 cheapest: bool = True) -> tuple[list[int], list[tuple[int, str]]] | None:
    """Plan paying ``colored`` (WUBRG counts) plus ``generic``.

    Returns ``(spend, taps)``: ``spend`` is how much of each pool slot (WUBRGC) to use, ``taps``
    the ``(source index, color symbol)`` pairs to activate. ``None`` if the cost can't be paid.
    ``color_value`` ranks colors by how much the rest of the hand wants them. ``cheapest``: avoid
    side costs (False when only asking whether the cost can be paid: the answer is the same).
    """
    spend = [0, 0, 0, 0, 0, 0]
    left = list(pool)
    needs: list[int] = []
    for c in range(5):
        need = colored[c]
        if need:
            use = min(need, left[c])
            spend[c] += use
            left[c] -= use
            needs.extend([c] * (need - use))
    gen = generic
    if gen:
        # Floating mana first: colorless, then the colors the hand wants least.
        order = [5, *sorted(range(5), key=lambda c: color_value[c])]
        for c in order:
            if not gen:
                break
            use = min(gen, left[c])
            spend[c] += use
            left[c] -= use
            gen -= use
    if not needs and not gen:
        return spend, []
    if len(needs) + gen > len(sources):
        return None
    # Prefer single-color sources for colored symbols, cheap-to-lose sources for generic.
    order_idx = sorted(range(len(sources)),
                       key=lambda i: (len(sources[i][2]), _value(sources[i][2], color_value)))
    ordered = [sources[i] for i in order_idx]
    matched = _match(needs, ordered) if needs else []
    if matched is None:
        return None
    taps: list[tuple[int, str]] = []
    used = set()
    for n, si in zip(needs, matched):
        used.add(si)
        taps.append((order_idx[si], "WUBRG"[n]))
    if gen:
        rest = [i for i in range(len(ordered)) if i not in used]
        if len(rest) < gen:
            return None
        rest.sort(key=lambda i: _value(ordered[i][2], color_value))
        for i in rest[:gen]:
            taps.append((order_idx[i], _generic_symbol(ordered[i], color_value)))
    if cheapest and any(sources[si][3] and sym in sources[si][3] for si, sym in taps):
        better = _min_side_costs(needs, gen, sources, order_idx, color_value)
        if better is not None:
            taps = better
    return spend, taps


def _generic_symbol(src: Source, color_value: Sequence[float]) -> str:
    """The mana a source makes for generic mana: one without a side cost if it can, then the
    color least wanted elsewhere (it is spent at once anyway)."""
    colors = src[2]
    if src[3]:
        colors = "".join(c for c in colors if c not in src[3]) or colors
    return min(colors, key=lambda s: color_value["WUBRGC".index(s)] if s in "WUBRG" else -1)


def _min_side_costs(needs: list[int], gen: int, sources: Sequence[Source],
                    order_idx: list[int], color_value: Sequence[float]
                    ) -> list[tuple[int, str]] | None:
    """The taps paying ``needs`` (colors) and ``gen`` (generic) with the fewest side costs: a
    min-cost bipartite matching by successive shortest augmenting paths (Bellman-Ford over the
    few symbols; sources tried in the planner's preference order, so ties break as it would)."""
    syms = ["WUBRG"[c] for c in needs] + [""] * gen
    n = len(syms)
    inf = 1 << 20

    def cost(li: int, si: int) -> int:
        src = sources[si]
        sym = syms[li]
        if not sym:
            return 0 if len(src[3]) < len(src[2]) else 1
        if sym not in src[2]:
            return inf
        return 1 if sym in src[3] else 0

    right_of: list[int] = [-1] * n  # symbol -> source
    left_of: dict[int, int] = {}  # source -> symbol
    for start in range(n):
        # dist[l]: cheapest cost change to free symbol l for rematching, starting from ``start``.
        dist = [inf] * n
        prev: list[tuple[int, int]] = [(-1, -1)] * n  # l -> (previous symbol, source taken)
        dist[start] = 0
        changed = True
        rounds = 0
        while changed and rounds <= n:
            changed = False
            rounds += 1
            for a in range(n):
                if dist[a] >= inf:
                    continue
                for si in order_idx:
                    c = cost(a, si)
                    if c >= inf or right_of[a] == si:
                        continue
                    b = left_of.get(si)
                    if b is None or b == a:
                        continue
                    nd = dist[a] + c - cost(b, si)
                    if nd < dist[b]:
                        dist[b] = nd
                        prev[b] = (a, si)
                        changed = True
        best, end_l, end_s = inf, -1, -1
        for a in range(n):
            if dist[a] >= inf:
                continue
            for si in order_idx:
                if si in left_of:
                    continue
                c = cost(a, si)
                if c < inf and dist[a] + c < best:
                    best, end_l, end_s = dist[a] + c, a, si
        if end_l < 0:
            return None
        a, si = end_l, end_s
        while True:  # augment: each symbol on the path takes the source it was relaxed with
            old = right_of[a]
            right_of[a] = si
            left_of[si] = a
            if a == start:
                if old >= 0 and left_of.get(old) == a:
                    del left_of[old]
                break
            a, si = prev[a]
    taps = []
    for li, si in enumerate(right_of):
        sym = syms[li] or _generic_symbol(sources[si], color_value)
        taps.append((si, sym))
    return taps


def _value(colors: str, color_value: Sequence[float]) -> float:
    return max((color_value["WUBRG".index(s)] for s in colors if s in "WUBRG"), default=-1.0)


def max_affordable(pool: Sequence[int], colored: Sequence[int], generic: int,
                   sources: Sequence[Source]) -> int:
    """Largest extra generic amount payable on top of the cost (for X), or -1 if the cost
    itself can't be paid."""
    if plan_payment(pool, colored, generic, sources, cheapest=False) is None:
        return -1
    return sum(pool) + len(sources) - sum(colored) - generic


def add_colored(colored: tuple[int, ...], color: str, n: int) -> tuple[int, ...]:
    out = list(colored)
    out[COLORS.index(color)] += n
    return tuple(out)
