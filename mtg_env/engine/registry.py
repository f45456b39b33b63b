"""The card registry the engine looks names up in.

The engine cannot import the card layer (layers import downwards only), so the card layer
registers a loader here; the first lookup runs it.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .errors import UnimplementedCardError, UnknownCardError
from .model import CardDef

if TYPE_CHECKING:
    from .game import Game
    from .model import StackItem

_CARDS: dict[str, CardDef] = {}
_KNOWN_UNIMPLEMENTED: set[str] = set()
_loaders: list[Callable[[], None]] = []
_loaded = False

# Python escape hatches: named functions a card's data refers to.
CUSTOM: dict[str, Callable[[Game, StackItem], None]] = {}
# The card layer's builder of text-changed card definitions (see :func:`text_changed`).
_text_changer: list[Callable[[str, tuple[tuple[str, str], ...]], CardDef]] = []


def register_loader(fn: Callable[[], None]) -> None:
    """Register a function that fills the registry (called once, on first lookup)."""
    global _loaded
    _loaders.append(fn)
    _loaded = False


def _ensure_loaded() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for fn in list(_loaders):
        fn()


def register(cdef: CardDef) -> None:
    _CARDS[cdef.name] = cdef


def registered(cdef: CardDef) -> bool:
    """Is this very card definition the one registered under its name?"""
    return _CARDS.get(cdef.name) is cdef


def register_unimplemented(name: str) -> None:
    """Record a real card name the engine knows of but can't play yet."""
    _KNOWN_UNIMPLEMENTED.add(name)


def get_card(name: str) -> CardDef:
    """Look a card up by exact name; raise :class:`UnknownCardError` with close matches."""
    _ensure_loaded()
    cdef = _CARDS.get(name)
    if cdef is not None:
        return cdef
    if name in _KNOWN_UNIMPLEMENTED:
        raise UnimplementedCardError([name])
    # Implemented cards are also registered as known names: list each name once.
    pool = list(_CARDS) + sorted(_KNOWN_UNIMPLEMENTED - _CARDS.keys())
    lower = {n.lower(): n for n in pool}
    if name.lower() in lower and lower[name.lower()] in _CARDS:
        return _CARDS[lower[name.lower()]]
    raise UnknownCardError(name, difflib.get_close_matches(name, pool, n=3, cutoff=0.6))


def is_unimplemented(name: str) -> bool:
    _ensure_loaded()
    return name in _KNOWN_UNIMPLEMENTED and name not in _CARDS


def all_cards() -> dict[str, CardDef]:
    _ensure_loaded()
    return dict(_CARDS)


def known_unimplemented() -> set[str]:
    _ensure_loaded()
    return set(_KNOWN_UNIMPLEMENTED) - set(_CARDS)


def register_text_changer(fn: Callable[[str, tuple[tuple[str, str], ...]], CardDef]) -> None:
    """Register the card layer's builder of text-changed card definitions."""
    _text_changer[:] = [fn]


def text_key(name: str, changes: tuple[tuple[str, str], ...]) -> str:
    """The name under which the abilities of ``name`` with its text changed by ``changes``
    (``((from, to), ...)``, in order) are referred to: ``"Bog Wraith|Swamp>Island"``."""
    return name + "".join(f"|{a}>{b}" for a, b in changes)


def text_changed(name: str, changes: tuple[tuple[str, str], ...]) -> CardDef:
    """The card definition of ``name`` with every instance of each ``from`` word replaced by its
    ``to`` word, in order (2007 CR 418.5 layer 3, text-changing effects; 2012 612). Cached by
    the card layer; the card itself when nothing in it changes."""
    _ensure_loaded()
    if not changes:
        return get_card(name)
    return _text_changer[0](name, changes)


_TOKENS: dict[str, CardDef] = {}


def token_def(name: str, colors: frozenset[str]) -> CardDef:
    """The token definition ``name`` (``"Soldier Token"``) with the colors the effect that
    creates it gives it (2012 111.4: a token's characteristics are defined by that effect; a
    text-changed "put a 1/1 white Soldier" makes a black one after "white" -> "black"). The
    registered token when the colors are its own; otherwise a definition named the same,
    stored under :func:`card_key` (``"Soldier Token#B"``)."""
    base = get_card(name)
    colors = frozenset(colors)
    if not base.is_token or not colors <= frozenset("WUBRG"):
        raise UnknownCardError(f"{name}#{''.join(sorted(colors))}", [])
    if colors == base.colors:
        return base
    key = name + "#" + "".join(c for c in "WUBRG" if c in colors)
    cdef = _TOKENS.get(key)
    if cdef is None:
        cdef = _TOKENS[key] = CardDef(
            name=base.name, cost=base.cost, colors=colors, types=base.types,
            supertypes=base.supertypes, subtypes=base.subtypes, power=base.power,
            toughness=base.toughness, text=base.text, rarity=base.rarity,
            keywords=base.keywords, activated=base.activated, triggered=base.triggered,
            static=base.static, is_token=True)
    return cdef


def card_key(cdef: CardDef) -> str:
    """The name under which a card's definition is stored (JSON, copy effects, pickles): its
    name, or for a token of other colors than its registered one ``"<name>#<colors>"``
    (:func:`token_def`)."""
    name = cdef.name
    if cdef.is_token and _CARDS.get(name) is not cdef:
        return name + "#" + "".join(c for c in "WUBRG" if c in cdef.colors)
    return name


def card_for_key(key: str) -> CardDef:
    """The card definition a :func:`text_key`, a :func:`card_key` (or a plain card name)
    names."""
    if "#" in key:
        name, colors = key.split("#", 1)
        return token_def(name, frozenset(colors))
    if "|" not in key:
        return get_card(key)
    name, *rest = key.split("|")
    return text_changed(name, tuple(tuple(r.split(">", 1)) for r in rest))  # type: ignore[misc]  # "old>new": 2


def ability_by_ref(ref: list[Any] | tuple[Any, ...]) -> object:
    """The ability object a serialised reference names (see ``model.set_ability_refs``):
    ``[card, "activated"|"triggered"|"static", i]`` (``card`` a :func:`text_key` for the
    abilities of a text-changed card) or
    ``[card, "static", i, "activated", j]`` for an ability a static ability grants,
    ``[card, "activated", i, "effects", k, j]`` for one an effect of an ability grants."""
    if ref[0] == "rules":  # an ability the rules give (deploy creatures: deploy.py)
        from .deploy import DEPLOY_REF, deploy_ability

        if tuple(ref) == DEPLOY_REF:
            return deploy_ability()
        raise KeyError(f"no ability {list(ref)!r}")
    cdef = card_for_key(ref[0])
    try:
        ab = getattr(cdef, ref[1])[ref[2]]
        if len(ref) == 5:
            ab = ab.params["abilities"][ref[4]]
        elif len(ref) == 6:
            ab = ab.effects[ref[4]].args.abilities[ref[5]]
    except (AttributeError, IndexError, KeyError, TypeError):
        raise KeyError(f"no ability {list(ref)!r}") from None
    return ab
