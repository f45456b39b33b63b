"""Which Tenth Edition cards the engine implements, read from the same registry the engine uses,
with coverage by color and by rarity and the reason each missing card waits for
(:data:`~mtg_env.cards.pending.PENDING`)."""

from __future__ import annotations

from mtg_env.engine import registry

from .loader import load_facts
from .pending import PENDING

GROUPS = [("W", "White"), ("U", "Blue"), ("B", "Black"), ("R", "Red"), ("G", "Green"),
          ("multicolor", "Multicolor"), ("colorless", "Colorless (artifacts and lands)")]
RARITIES = ("common", "uncommon", "rare")


def _group(colors: list[str]) -> str:
    if not colors:
        return "colorless"
    return colors[0] if len(colors) == 1 else "multicolor"


def coverage() -> dict[str, dict[str, bool]]:
    """``{group: {card name: implemented}}`` for every Tenth Edition card."""
    implemented = registry.all_cards()
    out: dict[str, dict[str, bool]] = {g: {} for g, _ in GROUPS}
    for name, f in sorted(load_facts()["cards"].items()):
        cdef = implemented.get(name)
        out[_group(f.get("colors") or [])][name] = cdef is not None and cdef.implemented
    return out


def coverage_by_rarity() -> dict[str, tuple[int, int]]:
    """``{rarity: (implemented, total)}`` over the Tenth Edition cards."""
    implemented = registry.all_cards()
    out = {r: [0, 0] for r in RARITIES}
    for name, f in load_facts()["cards"].items():
        cdef = implemented.get(name)
        out[f["rarity"]][0] += cdef is not None and cdef.implemented
        out[f["rarity"]][1] += 1
    return {r: (done, total) for r, (done, total) in out.items()}


def _row(title: str, done: int, total: int) -> str:
    return f"  {title:<32} {done:>3}/{total:<3} {100 * done / total:5.1f}%"


def coverage_report(color: str | None = None, only_missing: bool = False) -> str:
    """The text of ``mtg-env cards``: a summary by color and by rarity, then every card of the
    selected groups (``[x]`` implemented, ``[ ]`` missing with its reason)."""
    cov = coverage()
    lines = ["By color:"]
    for key, title in GROUPS:
        cards = cov[key]
        if cards:  # the Tenth Edition has no multicolored card
            lines.append(_row(title, sum(cards.values()), len(cards)))
    lines.append("By rarity:")
    for rarity, (done, total) in coverage_by_rarity().items():
        lines.append(_row(rarity, done, total))
    lines.append("")
    total_done = total = 0
    for key, title in GROUPS:
        cards = cov[key]
        done = sum(cards.values())
        total_done += done
        total += len(cards)
        if color and key.lower() != color.lower():
            continue
        lines.append(f"{title}: {done}/{len(cards)} implemented")
        for name, ok in cards.items():
            if ok:
                if not only_missing:
                    lines.append(f"  [x] {name}")
            else:
                lines.append(f"  [ ] {name}: {PENDING.get(name, 'not written yet')}")
    lines.append(f"Total: {total_done}/{total} Tenth Edition cards implemented")
    return "\n".join(lines)
