"""Text-changing effects on card data (2007 CR 418.5 layer 3; 2012 612, Mind Bend).

Card rules are structured data, so "the words used in the correct way" (2012 612.2) are the
values of the fields that hold a color or a basic land type. Replacing one color word with
another (``"B" -> "G"``) or one basic land type with another (``"Forest" -> "Island"``)
rewrites, everywhere in a card's YAML entry and in its type line:

- color words: the filter keys ``color``, ``not_color``, ``colors_any`` (targets, affected
  groups, trigger filters: "nonblack creature", "target green or blue creature", "whenever a
  player plays a white spell"), an animation's ``colors`` ("becomes a 2/1 blue Faerie") and the
  keywords ``protection_from_<color>``;
- basic land types: the filter keys ``subtype``, ``not_subtype``, ``subtypes_any`` ("the number
  of Swamps you control", "for each Forest you control"), the keywords ``<type>walk`` (printed or
  granted: Goblin King), and the subtypes of the type line, so a Forest changed to an Island
  has "{T}: Add {U}" (2007 CR 212.6d: the intrinsic mana ability follows the type);
- the ``text`` of each ability, for the log and the view (the card's name is a proper noun and
  is never changed: Karplusan Forest).

- the color of the token a token-making ability makes ("put a 1/1 white Soldier creature
  token": ``create_token`` gets the changed ``colors``; 2012 111.4, the effect that creates a
  token defines its characteristics).

Mana symbols are not words ({G} stays {G}); the card's own color and name never change. The two
keywords that name a color or a land type in their own name (Sea Monster's
``cant_attack_unless_defender_has_island``, Karplusan Strider's
``untargetable_by_blue_black_spells``) keep their name: the rules that read them map their words
through the permanent's text-changing effects (``mtg_env.engine.rules.text_words``). Token
definitions themselves hold no color word or basic land type.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from mtg_env.engine import registry
from mtg_env.engine.model import BASIC_LAND_TYPES, COLOR_NAMES, CardDef

# name -> (facts, YAML entry, file name): filled by the loader for every card it builds.
RAW: dict[str, tuple[dict, dict, str]] = {}

_COLOR_KEYS = frozenset({"color", "not_color", "colors_any", "colors"})
_LAND_KEYS = frozenset({"subtype", "not_subtype", "subtypes_any", "subtypes"})
_KEYWORD_KEYS = frozenset({"keywords", "keyword", "not_keyword"})


def is_color(word: str) -> bool:
    """Is ``word`` a color letter (``W U B R G``)?"""
    return word in COLOR_NAMES


def is_land_type(word: str) -> bool:
    """Is ``word`` a basic land type?"""
    return word in BASIC_LAND_TYPES


def _keyword(kw: str, frm: str, to: str) -> str:
    if is_color(frm):
        if kw == f"protection_from_{COLOR_NAMES[frm]}":
            return f"protection_from_{COLOR_NAMES[to]}"
    elif kw == f"{frm.lower()}walk":
        return f"{to.lower()}walk"
    return kw


def _value(key: str, v: Any, frm: str, to: str) -> Any:
    """The value of ``key`` with ``frm`` replaced by ``to`` if the key holds that kind of word."""
    if key in _KEYWORD_KEYS:
        fn = lambda x: _keyword(x, frm, to) if isinstance(x, str) else x  # noqa: E731
    elif (key in _COLOR_KEYS) == is_color(frm) and (key in _COLOR_KEYS or key in _LAND_KEYS):
        fn = lambda x: to if x == frm else x  # noqa: E731
    else:
        return v
    if isinstance(v, list):
        out: list = []
        for x in v:
            y = fn(x)
            if y not in out:  # "green or blue" changed to "blue or blue" is "blue"
                out.append(y)
        return out
    return fn(v)


def _word_pattern(frm: str) -> re.Pattern[str]:
    if is_color(frm):
        return re.compile(rf"\b(non)?({COLOR_NAMES[frm]})\b", re.I)
    return re.compile(rf"\b()({frm})(?=s\b|walk\b|\b)", re.I)


def _text(s: str, name: str, frm: str, to: str) -> str:
    """Printed-style text with the word replaced, the card's name left alone."""
    word = COLOR_NAMES[to] if is_color(to) else to
    pat = _word_pattern(frm)

    def sub(m: re.Match[str]) -> str:
        w = m.group(2)
        new = word.capitalize() if w[0].isupper() else word.lower()
        return (m.group(1) or "") + new

    return name.join(pat.sub(sub, part) for part in s.split(name))


def _token_colors(effect: dict) -> list[str]:
    """The colors of the token a ``create_token`` effect makes, as its ability's words: its
    ``colors``, else the token's own ("put a 1/1 white Soldier creature token")."""
    if "colors" in effect:
        return list(effect["colors"])
    own = registry.get_card(str(effect.get("token")) + " Token").colors
    return [c for c in "WUBRG" if c in own]


def _rewrite(v: Any, name: str, frm: str, to: str, key: str = "") -> Any:
    if isinstance(v, dict):
        out = {k: _rewrite(x, name, frm, to, k) for k, x in v.items()}
        if v.get("op") == "create_token" and is_color(frm):
            # The token's color is a word of the ability (2012 111.4, 612.2): written out only
            # when it changes, so an ability the change doesn't reach stays the card's own.
            printed = _token_colors(v)
            colors = _value("colors", printed, frm, to)
            if colors != printed:
                out["colors"] = colors
        return out
    if key == "text" and isinstance(v, str):
        return _text(v, name, frm, to)
    if key in _COLOR_KEYS or key in _LAND_KEYS or key in _KEYWORD_KEYS:
        return _value(key, v, frm, to)
    if isinstance(v, list):
        return [_rewrite(x, name, frm, to) for x in v]
    return v


@functools.cache
def text_changed_card(name: str, changes: tuple[tuple[str, str], ...]) -> CardDef:
    """``name``'s definition with each ``(from, to)`` word replacement applied in order (a later
    change also rewrites the words an earlier one wrote). The card itself when no field
    changes (the card has no such word, or it is a token: no token has one)."""
    from .loader import build_card

    base = registry.get_card(name)
    raw = RAW.get(name)
    if raw is None:
        return base
    facts, entry, where = raw
    new_facts, new_entry = facts, entry
    for frm, to in changes:
        if is_color(frm) != is_color(to) or frm == to or not (
                (is_color(frm) or is_land_type(frm)) and (is_color(to) or is_land_type(to))):
            raise ValueError(f"not a text change: {frm!r} -> {to!r}")
        printed = new_entry.get("text")
        new_entry = _rewrite(new_entry, name, frm, to)
        new_entry["text"] = printed  # the printed text stays what build_card checks against
        if new_facts.get("subtypes"):
            new_facts = {**new_facts, "subtypes": _value("subtypes", list(new_facts["subtypes"]),
                                                         frm, to)}
    if new_facts == facts and new_entry == entry:
        return base
    cdef = build_card(name, new_facts, new_entry, where)
    from mtg_env.engine.model import set_ability_refs

    set_ability_refs(cdef, registry.text_key(name, changes))
    return cdef
