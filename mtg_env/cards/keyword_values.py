"""What a creature's keywords are worth, in the units of a card's value where a 2/2 vanilla
creature is about 5: the heuristic agent's valuation (``agents.evaluation``) and the Limited
card ratings (``mtg_env.sim.limited.card_ratings``) both use this one table."""

from __future__ import annotations

from collections.abc import Iterable

from mtg_env.engine.model import LANDWALK

__all__ = ["keyword_bonus"]


def keyword_bonus(power: int, toughness: int, keywords: Iterable[str]) -> float:
    """Extra worth of a creature's keywords (negative for drawbacks such as defender).

    >>> keyword_bonus(2, 2, ["flying"])
    2.2
    >>> keyword_bonus(0, 4, ["defender"])
    -0.5
    """
    kw = set(keywords)
    b = 0.0
    if "flying" in kw:
        b += 1.0 + 0.6 * power
    if kw & {"fear", "unblockable", *LANDWALK}:
        b += 0.5 + 0.5 * power
    if "first_strike" in kw:
        b += 0.5 + 0.3 * power
    if "double_strike" in kw:
        b += 0.5 + 1.0 * power
    if "trample" in kw:
        b += 0.3 * power
    if "lifelink" in kw:
        b += 0.5 * power
    if "vigilance" in kw:
        b += 0.5
    if "haste" in kw:
        b += 0.3
    if "reach" in kw:
        b += 0.3
    if "shroud" in kw:
        b += 1.0
    if any(k.startswith("protection_from") for k in kw):
        b += 1.0
    if kw & {"defender", "cant_attack"}:
        b -= 1.2 * power + 0.5
    if "cant_block" in kw:
        b -= 0.3 * toughness
    if "doesnt_untap" in kw:
        b -= 0.5 * power + 0.5 * toughness
    return b
