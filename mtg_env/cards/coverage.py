"""Which Tenth Edition cards the engine implements, read from the same registry the engine uses."""

from __future__ import annotations

from mtg_env.engine import registry

from .loader import load_facts

GROUPS = [("W", "White"), ("U", "Blue"), ("B", "Black"), ("R", "Red"), ("G", "Green"),
          ("multicolor", "Multicolor"), ("colorless", "Colorless (artifacts and lands)")]


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


def coverage_report(color: str | None = None, only_missing: bool = False) -> str:
    cov = coverage()
    lines = []
    total_done = total = 0
    for key, title in GROUPS:
        if color and key.lower() != color.lower():
            continue
        cards = cov[key]
        done = sum(cards.values())
        total_done += done
        total += len(cards)
        lines.append(f"{title}: {done}/{len(cards)} implemented")
        for name, ok in cards.items():
            if only_missing and ok:
                continue
            lines.append(f"  [{'x' if ok else ' '}] {name}")
    lines.append(f"Total: {total_done}/{total} Tenth Edition cards implemented")
    return "\n".join(lines)
