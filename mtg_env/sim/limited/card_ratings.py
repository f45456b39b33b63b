"""Card ratings for Limited: how much a drafting bot and the deck builder want each card.

The starting ratings are computed from the card data alone, in the spirit of the heuristic
agent's card valuation (``agents/evaluation.py``: a creature is worth ``1 + 1.5 * power +
toughness`` plus its keywords and abilities) with two changes for Limited:

- the mana value is charged (``1.25`` per mana for creatures, and more past five; ``0.6`` for
  other spells), and power or toughness past 5 counts half, so a cheap efficient card beats a
  big clumsy one; a colored mana symbol past the second costs ``0.3`` more (hard to cast in a
  two-color deck);
- instants, sorceries and Auras are valued by their effects: removal (destroy, exile, steal, a
  creature that can't attack or block, a one-sided sweeper most) is worth the most, damage by its
  amount, card draw, discard, bounce, pump and life less; an effect on the card itself or its
  controller (Sleeper Agent's, Fog Elemental's sacrifice) counts against it.

Nothing is tuned to a card name. These numbers are a guess; :func:`improve_ratings` (``mtg-env
draft-ratings``) corrects them from simulated Limited games, and a ratings file written by it (or
by hand) replaces them (``mtg-env draft --ratings FILE``).

A ratings file is JSON: ``{"ratings": {"Card Name": 4.2, ...}, "note": "..."}``. Cards it leaves
out keep their computed rating.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from ...cards.keyword_values import keyword_bonus
from ...engine.errors import MtgError
from ...engine.model import CardDef
from ...engine.registry import get_card
from .boosters import set_cards

__all__ = ["FORMAT", "CardRatings", "data_rating", "default_ratings", "load_ratings"]

FORMAT = "mtg_env card ratings"
"""The ``format`` value of a ratings file."""

_X = 3  # the X an X spell is valued at
_REMOVAL_OPS = ("destroy", "remove_from_game", "exile", "gain_control")


def _amount(v: Any) -> int:
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, int):
        return v
    return _X  # "X" or a count the card computes


def _side(e: dict, targets: tuple) -> tuple[str, int]:
    """What an effect applies to, and whose it is: ``(kind, side)`` with side ``1`` for what the
    caster picks (assumed the opponent's, for a harmful effect, or their own, for a helpful
    one), ``-1`` for the card itself or its controller, ``2`` for all of the opponent's
    permanents and ``0`` for everyone's."""
    t = e.get("target", e.get("who"))
    if isinstance(t, int):
        return (targets[t].kind if t < len(targets) else "player"), 1
    if isinstance(t, dict):
        kind = str(t.get("type", "permanent")).lower()
        return kind, {"opponent": 2, "you": -1}.get(t.get("controller"), 0)
    if t in ("self", "controller"):
        return ("creature" if t == "self" else "player"), -1
    return str(t or ""), 1


def _effect_value(e: dict, targets: tuple) -> float:
    """What one effect is worth in a Limited game, from its op, amount and target."""
    op = e.get("op")
    kind, side = _side(e, targets)
    hits_creatures = "creature" in kind or kind in ("permanent", "artifact_creature_or_land")
    harmful = {1: 1.0, 2: 1.8, 0: 0.3, -1: -1.0}[side]
    helpful = {1: 1.0, 2: 0.0, 0: 0.5, -1: 1.0}[side]
    if op in ("delayed_trigger", "unless_pays", "may_pay"):
        inner = sum(_effect_value(x, targets) for x in e.get("effects", ()))
        return (0.6 if op == "unless_pays" else 0.8) * inner
    if op == "sacrifice_self":
        return -6.0
    if op == "sacrifice":
        return 5.0 * harmful if hits_creatures or kind == "player" else 1.0 * harmful
    if op == "gain_control" and e.get("until") != "forever":  # Threaten: for a turn
        return 2.0 * harmful
    if op in _REMOVAL_OPS:
        if hits_creatures:
            return (7.0 + (1.0 if op == "gain_control" else 0.0)) * harmful
        return (2.5 if kind else 1.5) * harmful  # an artifact, an enchantment, a land, a card
    if op == "deal_damage":
        n = _amount(e.get("amount", 1))
        if hits_creatures and side != -1:
            return min(1.5 + 1.2 * n, 7.0) * harmful
        return 0.7 * n * harmful
    if op == "pump":
        p, t = _amount(e.get("p", 0)), _amount(e.get("t", 0))
        if t < 0:  # -N/-N: a kill spell for small creatures
            return min(1.5 + 1.2 * -t, 7.0) * harmful
        return (1.0 + 0.4 * (p + t)) * helpful
    if op == "draw":
        return 1.8 * _amount(e.get("amount", 1)) * helpful
    if op in ("discard", "mill"):
        return (1.2 if op == "discard" else 0.2) * _amount(e.get("amount", 1)) * harmful
    if op in ("bounce", "hand_to_library", "put_on_library"):
        return (2.5 if hits_creatures else 1.5) * harmful
    if op == "counter_spell":
        return 3.0
    if op in ("tap", "tap_or_untap"):
        return 1.0 * abs(harmful)
    if op == "create_token":
        return 3.0 * _amount(e.get("count", 1))
    if op == "gain_life":
        return 0.3 * _amount(e.get("amount", 1)) * helpful
    if op == "lose_life":
        return 0.4 * _amount(e.get("amount", 1)) * harmful
    if op in ("reanimate", "return_card"):
        return 3.0
    if op == "lose_game":
        return -8.0
    return 1.0


def _static_value(cdef: CardDef) -> float:
    """Auras and Equipment by what they do to the creature they are on; other static abilities
    a flat amount."""
    v = 0.0
    for s in cdef.static:
        on_one = s.affects in ("enchanted", "equipped")
        if s.kind == "control" and s.affects == "enchanted":
            v += 8.0
        elif s.kind == "modify_pt":
            p, t = _amount(s.params.get("p", 0)), _amount(s.params.get("t", 0))
            if on_one and t < 0:
                v += min(1.5 + 1.2 * -t, 7.0)
            else:
                v += (0.8 if on_one else 1.5) * (p + t)
        elif s.kind == "grant":
            kws = set(s.params.get("keywords", ()))
            harmful = kws & {"cant_attack", "cant_block", "doesnt_untap", "defender"}
            if on_one and harmful:
                v += 3.0 + 2.0 * len(harmful)  # Pacifism: removal
            else:
                v += 1.2 * max(len(kws), 1) * (1.0 if on_one else 1.5)
        elif s.kind == "enters_tapped":
            v -= 0.5
        else:
            v += 0.7
    return v


def _ability_value(cdef: CardDef) -> float:
    """Activated and triggered abilities: the heuristic's flat values, a pinger or a tapper more;
    a noncreature permanent's non-mana abilities count twice (it can use them every turn without
    risking a creature)."""
    v = 0.0
    repeat = 1.0 if "Creature" in cdef.types else 2.0
    for ab in cdef.activated:
        ops = {e.get("op") for e in ab.effects}
        if ab.mana is not None:
            v += 0.0 if "Land" in cdef.types else 0.7
        elif ops & {"deal_damage", "destroy"}:
            v += 3.0 * repeat if repeat > 1 else 5.0  # a pinger, Royal Assassin
        elif "tap" in ops:
            v += 3.0 * repeat
        elif "regenerate" in ops:
            v += 2.0
        else:
            v += 1.0 * repeat
    for tr in cdef.triggered:
        effects = sum(_effect_value(e, tr.targets) for e in tr.effects)
        v += min(max(0.5 + 0.7 * effects, -6.0), 8.0)
    return v


def _stat(n: int) -> float:
    """Power or toughness past 5 counts half (an 8/8 is not twice as good as a 4/4)."""
    return n if n <= 5 else 5 + 0.5 * (n - 5)


def data_rating(cdef: CardDef) -> float:
    """A card's rating computed from its rules data (see the module docstring); at least 0,
    a basic land 0."""
    if "Basic" in cdef.supertypes:
        return 0.0
    if "Land" in cdef.types:
        colors = {c for c in (cdef.mana_colors or ()) if c != "C"}
        utility = any(ab.mana is None for ab in cdef.activated)
        return 2.5 if utility else 1.5 if len(colors) >= 2 else 1.0
    cmc = cdef.cost.cmc + _X * cdef.cost.x
    heavy = 0.3 * max(sum(cdef.cost.colored) - 2, 0)
    if "Creature" in cdef.types:
        power = _stat(cdef.power if isinstance(cdef.power, int) else 2)
        tough = _stat(cdef.toughness if isinstance(cdef.toughness, int) else 2)
        value = (1.0 + 1.5 * power + tough + keyword_bonus(power, tough, cdef.keywords)
                 + _ability_value(cdef) + 0.5 * _static_value(cdef))
        rating = value - 1.25 * cmc - 0.3 * max(cmc - 5, 0) ** 2 - heavy
    else:
        value = sum(_effect_value(e, cdef.spell_targets) for e in cdef.spell_effects)
        if cdef.modes:
            value += max((sum(_effect_value(e, tuple(m.get("targets", ())) or cdef.spell_targets)
                              for e in m.get("effects", ())) for m in cdef.modes), default=0.0)
        value += _static_value(cdef) + _ability_value(cdef)
        if not value:
            value = 2.0  # a card whose effect is custom code: an average card
        if "Instant" in cdef.types:
            value += 0.5
        rating = value - 0.6 * cmc - heavy
    return round(max(rating, 0.0), 2)


class CardRatings(Mapping[str, float]):
    """A rating for every Tenth Edition card (a read-only mapping ``name -> rating``); ``source``
    says where the numbers came from."""

    def __init__(self, ratings: Mapping[str, float], source: str = "computed from card data") -> None:
        self._r = dict(ratings)
        self.source = source

    def __getitem__(self, name: str) -> float:
        return self._r[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._r)

    def __len__(self) -> int:
        return len(self._r)

    def updated(self, changes: Mapping[str, float], source: str) -> CardRatings:
        """A copy with some ratings replaced."""
        return CardRatings({**self._r, **changes}, source)

    def to_json(self, note: str = "") -> dict[str, Any]:
        """The ratings file's content (sorted by name)."""
        return {"format": FORMAT, "note": note or self.source,
                "ratings": {n: round(v, 3) for n, v in sorted(self._r.items())}}

    def save(self, path: str | Path, note: str = "") -> Path:
        """Write the ratings as a ratings file."""
        p = Path(path)
        p.write_text(json.dumps(self.to_json(note), indent=1) + "\n")
        return p


_DEFAULT: CardRatings | None = None


def default_ratings() -> CardRatings:
    """Every Tenth Edition card's rating computed from its card data (:func:`data_rating`)."""
    global _DEFAULT
    if _DEFAULT is None:
        names = [n for slot in set_cards().values() for n in slot]
        _DEFAULT = CardRatings({n: data_rating(get_card(n)) for n in sorted(names)})
    return _DEFAULT


def load_ratings(path: str | Path) -> CardRatings:
    """Ratings from a ratings file: every card it names must be a Tenth Edition card and its
    rating a finite number; cards it leaves out keep their computed rating. Raises
    :class:`~mtg_env.MtgError` with a one-line message for an unreadable or malformed file."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        why = getattr(exc, "strerror", None) or str(exc)
        raise MtgError(f"cannot read ratings file {str(p)!r}: {why}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise MtgError(f"ratings file {str(p)!r} is not valid JSON: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("ratings"), dict):
        raise MtgError(f"ratings file {str(p)!r} must be a JSON object with a \"ratings\" object "
                       "of card names to numbers")
    base = default_ratings()
    out: dict[str, float] = {}
    for name, v in data["ratings"].items():
        if name not in base:
            raise MtgError(f"ratings file {str(p)!r}: {name!r} is not a Tenth Edition card")
        if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
            raise MtgError(f"ratings file {str(p)!r}: the rating of {name!r} must be a number, got {v!r}")
        out[name] = float(v)
    return base.updated(out, f"{p.name} ({len(out)} cards rated)")
