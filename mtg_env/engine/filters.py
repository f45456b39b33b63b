"""The card language's filters and target kinds, compiled once when card data loads.

A *filter* is a dict from card data (``{type: Creature, controller: you, color: G}``). Every key
is defined once in :data:`KEYS`: its value type and, for each context where it makes sense, the
attribute it tests. The contexts are

- ``permanent``: a permanent in play (or a :class:`~mtg_env.engine.view.PermanentView`), with its
  current characteristics after continuous effects (2007 CR 418.5);
- ``card``: a :class:`~mtg_env.engine.model.Card` in a graveyard, library or hand, with the
  printed characteristics of its card (2007 CR 217.1: only the printed object exists there);
- ``spell``: a spell on the stack (a :class:`~mtg_env.engine.model.StackItem`), its card's
  characteristics and its controller;
- ``player``: a player index.

:func:`compile_filter` checks every key and value against that table and returns a
:class:`Filter` whose ``test(obj, pl)`` is one generated Python expression (no dict walk at
play time). A bad key or value raises :class:`~mtg_env.engine.errors.CardDataError` naming the
site (file, card, ability path) and the key, with a did-you-mean.

:data:`TARGET_KINDS` says what each target kind may be (its contexts and its own restriction);
:func:`compile_target` compiles a target spec's filters for each of them.

Built on these: references (``target: 0``, ``self``, ``each_player``, a filter for "each ...")
and amounts (``3``, ``X``, ``{count: filter}``, ``{graveyard: you}``) in
:mod:`mtg_env.engine.references`; the words of triggered and static abilities (trigger filters
per event, static ability kinds, conditions) in :mod:`mtg_env.engine.ability_vocabulary`.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable
from typing import Any

from .errors import CardDataError, MtgError
from .model import COLORS, KEYWORDS
from .seating import TEAM_SIZE

CONTEXTS = ("permanent", "card", "spell", "player")
CONTEXT_TEXT = {"permanent": "a permanent in play", "card": "a card in a graveyard, library or hand",
                "spell": "a spell on the stack", "player": "a player"}

# 2007 CR 205.2 (card types) and 205.4 (supertypes) as printed in Tenth Edition.
CARD_TYPES = ("Artifact", "Creature", "Enchantment", "Instant", "Land", "Sorcery")
SUPERTYPES = ("Basic", "Legendary", "Snow", "World")
WHO = ("you", "opponent")


class Site:
    """Where a piece of card data sits, for error messages and context-dependent checks.

    ``where``: "file: card ability path"; ``x``: the card or ability has an X to refer to;
    ``targets``: the target kinds of the ability (for ``target: N``); ``event``: the trigger event
    of a triggered ability; ``source``: the ability belongs to a permanent (so ``self``,
    ``other``, ``enchanted`` mean something); ``subtypes``: every known subtype, to check
    ``subtype`` values against (None: only the spelling is checked).
    """

    __slots__ = ("event", "source", "subtypes", "targets", "where", "x")

    def __init__(self, where: str = "", x: bool = False, targets: tuple[str, ...] | None = None,
                 event: str | None = None, source: bool = True,
                 subtypes: frozenset[str] | None = None) -> None:
        self.where = where
        self.x = x
        self.targets = targets
        self.event = event
        self.source = source
        self.subtypes = subtypes

    def at(self, path: str | int) -> Site:
        """The same site one step deeper: ``Card/spell/targets/0/filters`` (the path format of
        the JSON schema's errors)."""
        where = f"{self.where}/{path}" if self.where else str(path)
        return Site(where, self.x, self.targets, self.event, self.source, self.subtypes)

    def error(self, msg: str) -> CardDataError:
        return CardDataError(f"{self.where}: {msg}" if self.where else msg)


def suggest_names(word: Any, choices: Iterable[str]) -> str:
    """A "did you mean" hint for an unknown word of card data: the closest of ``choices``
    (an empty string when none is close)."""
    if not isinstance(word, str):
        return ""
    pool = list(choices)
    close = difflib.get_close_matches(word, pool, n=2, cutoff=0.6)
    lower = [c for c in pool if c.lower() == word.lower() and c != word]
    close = lower + [c for c in close if c not in lower]
    return f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""


# -- value types ------------------------------------------------------------------------------
class ValueType:
    """A kind of value a key takes: a name for docs and a check raising at load."""

    def __init__(self, name: str, choices: tuple[str, ...] | None = None,
                 py: type | None = None) -> None:
        self.name = name
        self.choices = choices
        self.py = py

    def check(self, v: Any, site: Site, key: str) -> None:
        if self.choices is not None:
            if not isinstance(v, str) or v not in self.choices:
                raise site.error(f"{key!r} must be one of {list(self.choices)}, not {v!r}"
                                 + suggest_names(v, self.choices))
            return
        if self.py is bool:
            if not isinstance(v, bool):
                raise site.error(f"{key!r} must be true or false, not {v!r}")
            return
        if self.py is str:
            if not isinstance(v, str) or not v.strip():
                raise site.error(f"{key!r} must be a card name, not {v!r}")
            return
        if self.py is int:
            if isinstance(v, bool) or not isinstance(v, int):
                raise site.error(f"{key!r} must be an integer, not {v!r}")
            return
        if self.name == "int or X":
            if v == "X":
                if not site.x:
                    raise site.error(f"{key!r}: X but the card or ability has no X")
                return
            if isinstance(v, bool) or not isinstance(v, int):
                raise site.error(f"{key!r} must be an integer or X, not {v!r}")
            return
        if self.name == "subtype":
            if not isinstance(v, str) or not v[:1].isupper() or not v.replace("-", "").replace(
                    "'", "").isalpha():
                raise site.error(f"{key!r} must be a capitalised subtype such as 'Goblin', not {v!r}")
            if site.subtypes is not None and v not in site.subtypes:
                raise site.error(f"{key!r}: {v!r} is not a Tenth Edition subtype"
                                 + suggest_names(v, site.subtypes))
            return
        raise MtgError(f"engine error: value type {self.name!r} has no check")

    def __repr__(self) -> str:
        return self.name


T_WHO = ValueType("you or opponent", WHO)
# "owned by target player": the player an ability targets (its first player target).
T_WHO_T = ValueType("you, opponent, teammate or target_player", (*WHO, "teammate", "target_player"))
T_TYPE = ValueType("card type", CARD_TYPES)
T_SUPERTYPE = ValueType("supertype", SUPERTYPES)
T_SUBTYPE = ValueType("subtype")
T_COLOR = ValueType("color letter (WUBRG)", tuple(COLORS))
T_KEYWORD = ValueType("keyword", tuple(sorted(KEYWORDS)))
T_BOOL = ValueType("bool", py=bool)
T_NAME = ValueType("card name", py=str)
T_INT = ValueType("int", py=int)
T_INT_X = ValueType("int or X")
T_CHOICE = ValueType("choice made as a permanent comes into play", ("color", "name"))


class ListType(ValueType):
    """A non-empty list of values of one type (the "or" keys: ``colors_any: [G, W]``)."""

    def __init__(self, item: ValueType) -> None:
        super().__init__(f"list of {item.name}")
        self.item = item

    def check(self, v: Any, site: Site, key: str) -> None:
        if not isinstance(v, list) or not v:
            raise site.error(f"{key!r} must be a non-empty list of {self.item.name}, not {v!r}")
        for w in v:
            self.item.check(w, site, key)


# -- filter keys ------------------------------------------------------------------------------
# The expression each context tests its characteristics on: a permanent's current values, the
# printed values of a card, the printed values of a spell's card.
_CHAR = {"permanent": "o", "card": "o.cdef", "spell": "o.card.cdef"}


class Key:
    """One filter key: its value type, how it tests, and the subject it tests in each context.

    ``test``: ``in`` / ``not_in`` (value in a set characteristic), ``who`` (the subject is player
    ``pl`` for ``you``, the targeted player ``tp`` for ``target_player``), ``bool``, ``le`` (at
    most; ``X`` is the ability's X), ``eq`` (equal), ``any`` (one of a list of values is in the
    characteristic), ``has_src`` (the ability's source ``src`` is in the subject). ``subjects``:
    context -> Python expression of the object ``o``.
    """

    def __init__(self, name: str, vtype: ValueType, test: str, subjects: dict[str, str],
                 doc: str) -> None:
        self.name = name
        self.vtype = vtype
        self.test = test
        self.subjects = subjects
        self.doc = doc

    def expr(self, context: str, v: Any) -> str:
        s = self.subjects[context]
        if self.test == "in":
            return f"{v!r} in {s}"
        if self.test == "not_in":
            return f"{v!r} not in {s}"
        if self.test == "who":
            if v == "target_player":
                return f"{s} == tp"
            if v == "you":
                return f"{s} == pl"
            if v == "teammate":  # another player of the same team (deploy creatures, 2012 804)
                return f"({s} != pl and {s} // _T[0] == pl // _T[0])"
            # "an opponent": another player, or in a team game a player of another team
            # (2012 102.3; seating.TEAM_SIZE holds the seats per team).
            return f"({s} != pl if _T[0] == 1 else {s} // _T[0] != pl // _T[0])"
        if self.test == "bool":
            return f"bool({s})" if v else f"not {s}"
        if self.test == "eq":
            return f"{s} == {v!r}"
        if self.test == "le":
            return f"{s} <= {'x' if v == 'X' else repr(v)}"
        if self.test == "any":
            return f"not {frozenset(v)!r}.isdisjoint({s})"
        if self.test == "has_src":
            return f"src in {s}" if v else f"src not in {s}"
        raise MtgError(f"engine error: filter test {self.test!r}")


def _chars(attr: str, contexts: tuple[str, ...] = ("permanent", "card", "spell")) -> dict[str, str]:
    return {c: f"{_CHAR[c]}.{attr}" for c in contexts}


KEYS: dict[str, Key] = {k.name: k for k in (
    Key("controller", T_WHO_T, "who", {"permanent": "o.controller", "spell": "o.controller",
                                     "player": "o"},
        "controlled by (a player: is) you / an opponent / the targeted player"),
    Key("owner", T_WHO_T, "who", {"permanent": "o.owner", "card": "o.owner", "spell": "o.card.owner"},
        "owned by you / an opponent / the targeted player (a card: in that player's zone)"),
    Key("type", T_TYPE, "in", _chars("types"), "has this card type"),
    Key("not_type", T_TYPE, "not_in", _chars("types"), "doesn't have this card type"),
    Key("supertype", T_SUPERTYPE, "in", _chars("supertypes"), "has this supertype"),
    Key("subtype", T_SUBTYPE, "in", _chars("subtypes"), "has this subtype"),
    Key("not_subtype", T_SUBTYPE, "not_in", _chars("subtypes"), "doesn't have this subtype"),
    Key("color", T_COLOR, "in", _chars("colors"), "is this color"),
    Key("not_color", T_COLOR, "not_in", _chars("colors"), "isn't this color"),
    Key("keyword", T_KEYWORD, "in", _chars("keywords"), "has this keyword ability"),
    Key("not_keyword", T_KEYWORD, "not_in", _chars("keywords"), "doesn't have this keyword"),
    Key("tapped", T_BOOL, "bool", {"permanent": "o.tapped"}, "is (true) / isn't tapped"),
    Key("attacking", T_BOOL, "bool", {"permanent": "o.attacking"}, "is attacking"),
    Key("blocking", T_BOOL, "bool", {"permanent": "o.blocking"}, "is blocking"),
    Key("attacking_or_blocking", T_BOOL, "bool",
        {"permanent": "(o.attacking or o.blocking)"}, "is attacking or blocking"),
    Key("power_le", T_INT, "le", {"permanent": "o.power"}, "has power at most N"),
    Key("attached", T_BOOL, "bool", {"permanent": "(o.attached_to is not None)"},
        "is (true) / isn't attached to a permanent (an Aura or Equipment)"),
    Key("name", T_NAME, "eq", _chars("name", ("card", "spell")) | {"permanent": "o.name"},
        "has this name"),
    Key("types_any", ListType(T_TYPE), "any", _chars("types"), "has one of these card types"),
    Key("subtypes_any", ListType(T_SUBTYPE), "any", _chars("subtypes"),
        "has one of these subtypes (\"Plains or Island\")"),
    Key("colors_any", ListType(T_COLOR), "any", _chars("colors"),
        "is one of these colors (\"green or white\")"),
    Key("cmc_le", T_INT_X, "le", {"permanent": "o.cdef.cost.cmc", "card": "o.cdef.cost.cmc"},
        "has converted mana cost at most N (or X, the ability's X)"),
    Key("single_target", T_BOOL, "bool", {"spell": "(len(o.targets) == 1)"},
        "has (true) / hasn't exactly one target: one object or player, targeted once (Shunt)"),
    Key("blocking_source", T_BOOL, "has_src", {"permanent": "o.blocking"},
        "is blocking the ability's source (\"target creature blocking ~\")"),
)}
# Names a filter expression may use besides ``o`` and ``pl``: values known only when an ability
# is played or resolves (its X, its targeted player, its source). A filter using them is
# *dynamic*: see :meth:`Filter.bind`.
DYNAMIC_NAMES = ("x", "tp", "src")
# Not a property of the object but of the reference: "another ..." excludes the ability's source.
OTHER_DOC = "not the ability's own source (\"other\", \"another\")"


class Filter:
    """A compiled filter. ``test(obj, pl)``: does ``obj`` match from player ``pl``'s side?

    ``other``: exclude the ability's source (checked by the caller, who knows the source);
    ``spec``: the filter dict it was compiled from; ``context``: what ``obj`` is.
    """

    __slots__ = ("context", "dynamic", "expr", "make", "other", "spec", "test")

    def __init__(self, spec: dict[str, Any], context: str, expr: str, other: bool,
                 dynamic: frozenset[str] = frozenset()) -> None:
        self.spec = spec
        self.context = context
        self.expr = expr
        self.other = other
        # ``dynamic``: which of DYNAMIC_NAMES the expression reads; such a filter has no plain
        # ``test`` (it would silently read nothing): callers that support it use ``bind``.
        self.dynamic = dynamic
        # The values in ``expr`` were checked against closed sets / types above, so the source
        # is made only of known attribute names and literals.
        self.make: Callable[..., Callable[[Any, int], bool]] = eval(
            f"lambda x, tp, src: lambda o, pl: {expr}", {"_T": TEAM_SIZE})
        self.test: Callable[[Any, int], bool] = (self.make(0, -1, -1) if not dynamic
                                                 else self._unbound)

    def _unbound(self, o: Any, pl: int) -> bool:
        raise MtgError(f"engine error: filter {self.spec} needs {sorted(self.dynamic)} "
                       "(its caller must use Filter.bind)")

    def bind(self, x: int = 0, tp: int = -1, src: int | None = -1) -> Callable[[Any, int], bool]:
        """The test of a dynamic filter with its values: the ability's ``x``, its targeted
        player ``tp``, its source ``src`` (the plain ``test`` for a static filter)."""
        if not self.dynamic:
            return self.test
        return self.make(x, tp, src)

    def __repr__(self) -> str:
        return f"Filter({self.context}: {self.expr})"


def compile_filter(flt: dict[str, Any] | None, context: str, site: Site | None = None,
                   other: bool = False, base: tuple[str, ...] = (),
                   allow: tuple[str, ...] = ()) -> Filter:
    """Check a filter dict for ``context`` and compile it.

    ``other``: the ``other`` key is allowed (the filter has a source to exclude); ``base``:
    extra tested expressions (a target kind's own restriction, e.g. ``'Creature' in o.types``);
    ``allow``: the :data:`DYNAMIC_NAMES` this caller binds (a key needing another one is an error
    at load).
    """
    site = site or Site()
    if flt is None:
        flt = {}
    if not isinstance(flt, dict):
        raise site.error(f"a filter must be a mapping of keys to values, not {flt!r}")
    parts = list(base)
    is_other = False
    for k, v in flt.items():
        if k == "other" and context == "permanent":
            if not other:
                raise site.error("filter key 'other': there is no source to exclude here")
            T_BOOL.check(v, site, k)
            is_other = v
            continue
        key = KEYS.get(k)
        if key is None:
            raise site.error(f"unknown filter key {k!r}" + suggest_names(k, [*KEYS, "other"])
                             + f" (keys for {CONTEXT_TEXT.get(context, context)}: "
                             f"{sorted(keys_for(context))})")
        if context not in key.subjects:
            raise site.error(f"filter key {k!r} makes no sense for {CONTEXT_TEXT[context]} "
                             f"(it applies to: {', '.join(key.subjects)})")
        key.vtype.check(v, site, k)
        parts.append(key.expr(context, v))
    parts = list(dict.fromkeys(parts))  # a kind's restriction repeated as a key: test once
    expr = " and ".join(parts) or "True"
    dynamic = frozenset(n for n in DYNAMIC_NAMES
                        if any(n in compile(p, "<filter>", "eval").co_names for p in parts))
    missing = dynamic - set(allow)
    if missing:
        raise site.error(f"filter {flt}: {_DYNAMIC_TEXT[min(missing)]} is not known here")
    if "tp" in dynamic and site.targets is not None and not any(
            "player" in TARGET_KINDS[t][0] for t in site.targets):
        raise site.error(f"filter {flt}: 'target_player' but the ability targets no player")
    return Filter(flt, context, expr, is_other, dynamic)


_DYNAMIC_TEXT = {"x": "X (cmc_le: X)", "tp": "the targeted player (target_player)",
                 "src": "the ability's source (blocking_source)"}


def keys_for(context: str) -> list[str]:
    """Every filter key valid in ``context``."""
    out = [k for k, key in KEYS.items() if context in key.subjects]
    return out + (["other"] if context == "permanent" else [])


_CACHE: dict[tuple[str, tuple[tuple[str, Any], ...]], Filter] = {}


def cached_filter(flt: dict[str, Any] | Filter, context: str = "permanent") -> Filter:
    """Compile a filter dict built at run time (agents, tests), caching by its contents."""
    if isinstance(flt, Filter):
        return flt
    try:
        key = (context, tuple(sorted(flt.items())))
        hash(key)  # a list value (``colors_any: [W, B]``) makes the key unhashable
    except TypeError:
        return compile_filter(flt, context, other=True)
    f = _CACHE.get(key)
    if f is None:
        if len(_CACHE) > 4096:
            _CACHE.clear()
        f = _CACHE[key] = compile_filter(flt, context, other=True)
    return f


# -- target kinds -----------------------------------------------------------------------------
# What each target kind may be: its contexts and, for permanents, the kind's own restriction.
TARGET_KINDS: dict[str, tuple[tuple[str, ...], str | None]] = {
    "creature": (("permanent",), "'Creature' in o.types"),
    "player": (("player",), None),
    "creature_or_player": (("permanent", "player"), "'Creature' in o.types"),
    "spell": (("spell",), None),
    "permanent": (("permanent",), None),
    "artifact": (("permanent",), "'Artifact' in o.types"),
    "enchantment": (("permanent",), "'Enchantment' in o.types"),
    "land": (("permanent",), "'Land' in o.types"),
    "artifact_or_enchantment": (("permanent",), "('Artifact' in o.types or 'Enchantment' in o.types)"),
    "nonland_permanent": (("permanent",), "'Land' not in o.types"),
    "card_in_graveyard": (("card",), None),
    "artifact_or_creature_card": (
        ("card",), "('Artifact' in o.cdef.types or 'Creature' in o.cdef.types)"),
    "artifact_creature_or_land": (
        ("permanent",), "('Artifact' in o.types or 'Creature' in o.types or 'Land' in o.types)"),
}

def compile_target(kind: str, filters: dict[str, Any] | None, site: Site | None = None
                   ) -> dict[str, Filter]:
    """The compiled filters of one target spec, by context (the kind's restriction included)."""
    site = site or Site()
    if kind not in TARGET_KINDS:
        raise site.error(f"unknown target kind {kind!r}" + suggest_names(kind, TARGET_KINDS))
    contexts, restriction = TARGET_KINDS[kind]
    out = {}
    for c in contexts:
        # A kind's restriction is written for its only context, or for permanents.
        base = (restriction,) if restriction and (c == "permanent" or len(contexts) == 1) else ()
        out[c] = compile_filter(filters, c, site.at("filters"), other=site.source, base=base,
                                allow=("src",) if site.source else ())
    return out
