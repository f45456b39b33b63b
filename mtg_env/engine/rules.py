"""Rule checks that read only an object's characteristics, so they work on a
:class:`~mtg_env.engine.model.Permanent` and on a player's
:class:`~mtg_env.engine.view.PermanentView` alike (agents predict blocks and mana with them)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .model import LANDWALK

PROTECTION = {"W": "protection_from_white", "U": "protection_from_blue",
              "B": "protection_from_black", "R": "protection_from_red",
              "G": "protection_from_green"}


def protected_from(p: Any, colors: Iterable[str]) -> bool:
    """Does ``p`` have protection from any of ``colors`` (2012 702.15)?"""
    kw = p.keywords
    return bool(kw) and any(PROTECTION[c] in kw for c in colors if c in PROTECTION)


def block_allowed(blocker: Any, attacker: Any, permanents: Iterable[Any]) -> bool:
    """Could ``blocker`` block ``attacker`` under the restrictions and evasion abilities
    (2007 CR 502: flying/reach, fear, landwalk, unblockable, protection, "can block only
    creatures with flying", "can't block"), ignoring what it already blocks?
    ``permanents`` is every permanent in play (for landwalk)."""
    bkw = blocker.keywords
    if "Creature" not in blocker.types or blocker.tapped or "cant_block" in bkw:
        return False
    kw = attacker.keywords
    if "unblockable" in kw:
        return False
    if "block_only_flyers" in bkw and "flying" not in kw:
        return False
    if "flying" in kw and not ({"flying", "reach"} & bkw):
        return False
    if "fear" in kw and not ("Artifact" in blocker.types or "B" in blocker.colors):
        return False
    for walk, land in LANDWALK.items():
        if walk in kw and any(q.controller == blocker.controller and land in q.subtypes
                              for q in permanents):
            return False
    if protected_from(attacker, blocker.colors):
        return False
    return not ("cant_be_blocked_by_walls" in kw and "Wall" in blocker.subtypes)


def tap_mana_ability(p: Any, once_untapped: bool = False) -> Any | None:
    """The first mana ability of ``p`` whose whole cost is {T}, if ``p`` could play it now
    (untapped, or ``once_untapped``; a creature needs haste or to have been controlled since the
    turn began). Reads the abilities ``p`` has now (printed, copied or granted)."""
    if p.tapped and not once_untapped:
        return None
    for ab in p.activated:
        if ab.mana is not None and ab.tap_only:
            if "Creature" in p.types and p.sick and "haste" not in p.keywords:
                return None
            return ab
    return None
