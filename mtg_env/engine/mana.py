"""Mana payment planning: can a cost be paid, and with which mana?

The automatic payer (CR 409.1g-h) spends floating mana first, then taps sources. Colored
symbols are matched to sources exactly (bipartite matching, so a source that can make several
colors is never wasted on the wrong symbol); generic mana is paid with the sources whose colors
the player's hand needs least.
"""

from __future__ import annotations

from collections.abc import Sequence

from .model import COLORS

# A source is (permanent id, ability index, colors it can make); each makes one mana.
Source = tuple[int, int, str]


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
                 sources: Sequence[Source], color_value: Sequence[float] = (0, 0, 0, 0, 0)
                 ) -> tuple[list[int], list[tuple[int, str]]] | None:
    """Plan paying ``colored`` (WUBRG counts) plus ``generic``.

    Returns ``(spend, taps)``: ``spend`` is how much of each pool slot (WUBRGC) to use, ``taps``
    the ``(source index, color symbol)`` pairs to activate. ``None`` if the cost can't be paid.
    ``color_value`` ranks colors by how much the rest of the hand wants them.
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
            src_colors = ordered[i][2]
            # Make the color least wanted elsewhere; it is spent at once anyway.
            sym = min(src_colors, key=lambda s: color_value["WUBRGC".index(s)] if s in "WUBRG" else -1)
            taps.append((order_idx[i], sym))
    return spend, taps


def _value(colors: str, color_value: Sequence[float]) -> float:
    return max((color_value["WUBRG".index(s)] for s in colors if s in "WUBRG"), default=-1.0)


def max_affordable(pool: Sequence[int], colored: Sequence[int], generic: int,
                   sources: Sequence[Source]) -> int:
    """Largest extra generic amount payable on top of the cost (for X), or -1 if the cost
    itself can't be paid."""
    if plan_payment(pool, colored, generic, sources) is None:
        return -1
    return sum(pool) + len(sources) - sum(colored) - generic


def add_colored(colored: tuple, color: str, n: int) -> tuple:
    out = list(colored)
    out[COLORS.index(color)] += n
    return tuple(out)
