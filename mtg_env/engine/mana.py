"""Mana payment planning: can a cost be paid, and with which mana?

The automatic payer (CR 409.1g-h) spends floating mana first, then taps sources. Colored
symbols are matched to sources exactly (bipartite matching, so a source that can make several
colors is never wasted on the wrong symbol); generic mana is paid with the sources whose colors
the player's hand needs least. Some colors of a source come with a side cost (a painland's
colored ability deals 1 damage to you): when the plan uses one, it is re-planned as a min-cost
matching (:func:`_min_side_costs`), so a side cost is paid only when no plan avoids it.
"""

from __future__ import annotations

from collections.abc import Sequence

from .model import COLORS

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


def add_colored(colored: tuple, color: str, n: int) -> tuple:
    out = list(colored)
    out[COLORS.index(color)] += n
    return tuple(out)
