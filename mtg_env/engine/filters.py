"""The card language: filters, object references and amounts, compiled once when card data loads.

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

References (``target: 0``, ``self``, ``each_player``, a filter for "each ...") and amounts
(``3``, ``X``, ``{count: filter}``, ``{graveyard: you}``) are compiled here too, into functions of
``(game, stack_item)``. The words of triggered and static abilities built on them (trigger
filters per event, static ability kinds, conditions) are in
:mod:`mtg_env.engine.ability_vocabulary`.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from .errors import CardDataError, MtgError
from .model import COLORS, KEYWORDS

if TYPE_CHECKING:
    from .game import Game
    from .model import Permanent, StackItem

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


def _suggest(word: Any, choices: Iterable[str]) -> str:
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
                                 + _suggest(v, self.choices))
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
                                 + _suggest(v, site.subtypes))
            return
        raise MtgError(f"engine error: value type {self.name!r} has no check")

    def __repr__(self) -> str:
        return self.name


T_WHO = ValueType("you or opponent", WHO)
# "owned by target player": the player an ability targets (its first player target).
T_WHO_T = ValueType("you, opponent or target_player", (*WHO, "target_player"))
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
            return f"{s} {'==' if v == 'you' else '!='} pl"
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

    def __init__(self, spec: dict, context: str, expr: str, other: bool,
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
            f"lambda x, tp, src: lambda o, pl: {expr}")
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


def compile_filter(flt: dict | None, context: str, site: Site | None = None,
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
            raise site.error(f"unknown filter key {k!r}" + _suggest(k, [*KEYS, "other"])
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


_CACHE: dict[tuple, Filter] = {}


def cached_filter(flt: dict | Filter, context: str = "permanent") -> Filter:
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
PLAYER_WORDS = ("controller", "opponent", "each_player", "active_player", "event_player",
                "damaged_player", "event_perm_controller")
OBJECT_WORDS = ("self", "enchanted", "equipped", "event_attacker", "event_blocker",
                "damaged_creature", "self_card")
# References to the triggering event's objects: meaningful only in a triggered ability.
EVENT_WORDS = ("event_player", "damaged_player", "event_perm_controller", "event_attacker",
               "event_blocker", "damaged_creature")


def compile_target(kind: str, filters: dict | None, site: Site | None = None
                   ) -> dict[str, Filter]:
    """The compiled filters of one target spec, by context (the kind's restriction included)."""
    site = site or Site()
    if kind not in TARGET_KINDS:
        raise site.error(f"unknown target kind {kind!r}" + _suggest(kind, TARGET_KINDS))
    contexts, restriction = TARGET_KINDS[kind]
    out = {}
    for c in contexts:
        # A kind's restriction is written for its only context, or for permanents.
        base = (restriction,) if restriction and (c == "permanent" or len(contexts) == 1) else ()
        out[c] = compile_filter(filters, c, site.at("filters"), other=site.source, base=base,
                                allow=("src",) if site.source else ())
    return out


# -- references -------------------------------------------------------------------------------
# Trigger events by what they carry: a player (PLAYER_EVENTS) or a permanent (PERMANENT_EVENTS);
# event references and amounts check their event against these (the triggers' own filter keys
# are in mtg_env.engine.ability_vocabulary).
PLAYER_EVENTS = ("upkeep", "end_of_turn", "draw", "discard", "tapped_for_mana", "draw_step")
# ``becomes_blocked_by``: once per blocking creature (``blocker`` names it); ``blocks``: once
# per blocked creature (``attacker``).
PERMANENT_EVENTS = ("etb", "leaves_play", "to_graveyard", "attacks", "blocks", "becomes_blocked",
                    "becomes_blocked_by")
Ref = Callable[["Game", "StackItem"], list]


def compile_ref(v: Any, site: Site | None = None, players: bool = False) -> Ref:
    """Compile an object reference: a target index, a word, or a filter for "each ...".

    ``players``: only player references are allowed (``who`` of draw, gain_life ...).
    """
    site = site or Site()
    if isinstance(v, bool):
        raise site.error(f"reference must be a target index, a word or a filter, not {v!r}")
    if isinstance(v, int):
        if v < 0 or (site.targets is not None and v >= len(site.targets)):
            n = len(site.targets or ())
            raise site.error(f"target {v} does not exist: the ability has {n} target(s)")
        if players and site.targets is not None and "player" not in TARGET_KINDS[site.targets[v]][0]:
            raise site.error(f"target {v} ({site.targets[v]}) is not a player")
        return _ref_target(v)
    if isinstance(v, str):
        words = PLAYER_WORDS if players else PLAYER_WORDS + OBJECT_WORDS
        if v not in words:
            raise site.error(f"unknown reference {v!r}" + _suggest(v, words)
                             + f" (known: {list(words)} or a target index"
                             + ("" if players else " or a filter") + ")")
        if v in OBJECT_WORDS and not site.source:
            raise site.error(f"reference {v!r} needs a permanent as the ability's source")
        if v in EVENT_WORDS:
            _check_event_word(v, site)
        return _REF_WORDS[v]
    if isinstance(v, dict) and set(v) == {"controller_of"}:
        return _ref_controller_of(v["controller_of"], site)
    if isinstance(v, dict) and not players:
        flt = compile_filter(v, "permanent", site, other=site.source,
                             allow=("x", "tp", "src") if site.source else ("x", "tp"))
        return _ref_each(flt)
    raise site.error(f"bad reference {v!r}: a target index, "
                     f"{'a player word' if players else 'a word or a filter'} expected")


def _events_with(word: str) -> tuple[str, ...]:
    """The trigger events whose event has what an event reference or amount reads."""
    return {"event_player": (*PLAYER_EVENTS, "cast"), "damaged_player": ("deals_damage",),
            "amount": ("deals_damage",), "event_perm_controller": PERMANENT_EVENTS,
            "toughness": PERMANENT_EVENTS, "blockers": PERMANENT_EVENTS,
            "event_attacker": ("blocks",), "event_blocker": ("becomes_blocked_by",),
            "damaged_creature": ("deals_damage",)}[word]


def _check_event_word(word: str, site: Site) -> None:
    """An event reference or amount must name something its trigger event has: a damage event
    has no ``event_player`` (``damaged_player`` is the player dealt damage), and so on."""
    if site.event is None:
        raise site.error(f"{word!r} is only meaningful in a triggered ability")
    if site.event and site.event not in _events_with(word):
        raise site.error(f"{word!r}: a {site.event!r} event has none (it is meaningful for "
                         f"{list(_events_with(word))})")


def _ref_target(i: int) -> Ref:
    def ref(g: Game, item: StackItem) -> list:
        if i >= len(item.targets):
            return []
        specs = g.item_def(item)[0]
        if i < len(specs) and specs[i].count is not None:
            # A spec with a variable number of targets: every one of them still legal.
            spec = specs[i]
            return [tuple(t) for j, t in enumerate(item.targets) if j >= i
                    and g._target_legal(item, j, spec)]
        if i < len(specs) and not g._target_legal(item, i, specs[i]):
            return []  # 2007 CR 413.2a: an illegal target is not affected
        return [tuple(item.targets[i])]
    return ref


def _ref_each(flt: Filter) -> Ref:
    test = flt.test
    other = flt.other
    dynamic = flt.dynamic

    def ref(g: Game, item: StackItem) -> list:
        g._fresh()
        ctrl = item.controller
        skip = item.source if other else None
        t = flt.bind(item.x, targeted_player(g, item), item.source) if dynamic else test
        return [("o", p.id) for p in list(g.perms.values()) if p.id != skip and t(p, ctrl)]
    return ref


def targeted_player(g: Game, item: StackItem) -> int:
    """The player ``item`` targets (its first player target still legal), or -1."""
    specs = g.item_def(item)[0]
    for i, (kind, v) in enumerate(item.targets):
        if kind == "p" and (i >= len(specs) or g._target_legal(item, i, specs[i])):
            return v
    return -1


def _ref_controller_of(i: Any, site: Site) -> Ref:
    """"That permanent's controller": the controller of target ``i``, with last known
    information if an earlier op of the same resolution moved it out of play (2012 608.2g;
    the ops that do so record it in ``item.data["lki"]``)."""
    if isinstance(i, bool) or not isinstance(i, int) or i < 0 or (
            site.targets is not None and i >= len(site.targets)):
        raise site.error(f"'controller_of' must name a target of the ability, not {i!r}")
    if site.targets is not None and "permanent" not in TARGET_KINDS[site.targets[i]][0]:
        raise site.error(f"'controller_of': target {i} ({site.targets[i]}) is not a permanent")
    target = _ref_target(i)

    def ref(g: Game, item: StackItem) -> list:
        if i >= len(item.targets) or item.targets[i][0] != "o":
            return []
        pid = item.targets[i][1]
        if pid in g.perms:
            return [("p", g.perms[pid].controller)] if target(g, item) else []
        ctrl = item.data.get("lki", {}).get(str(pid))
        return [] if ctrl is None else [("p", ctrl)]
    return ref


def record_lki(item: StackItem, perm: Permanent) -> None:
    """Remember who controlled ``perm`` as it leaves play during ``item``'s resolution (read by
    the ``controller_of`` reference)."""
    item.data.setdefault("lki", {})[str(perm.id)] = perm.controller


def _attached(g: Game, item: StackItem) -> list:
    src = g.perms.get(item.source)
    if src is not None and src.attached_to in g.perms:
        return [("o", src.attached_to)]
    return []


_REF_WORDS: dict[str, Ref] = {
    "self": lambda g, item: [("o", item.source)] if item.source in g.perms else [],
    "controller": lambda g, item: [("p", item.controller)],
    "opponent": lambda g, item: [("p", 1 - item.controller)],
    "each_player": lambda g, item: [("p", 0), ("p", 1)],
    "active_player": lambda g, item: [("p", g.active)],
    "enchanted": _attached,
    "equipped": _attached,
    "event_player": lambda g, item: [("p", item.data.get("ev", {}).get("player", item.controller))],
    "damaged_player": lambda g, item: _damaged_player(item),
    "event_perm_controller": lambda g, item: _event_perm_controller(g, item),
    "event_attacker": lambda g, item: _event_object(g, item, "attacker"),
    "event_blocker": lambda g, item: _event_object(g, item, "blocker"),
    "damaged_creature": lambda g, item: _damaged_creature(g, item),
    # The card an ability working from a graveyard belongs to ("return Squee from your
    # graveyard"; ops check it is still there).
    "self_card": lambda g, item: ([("c", item.data["src_card"])] if "src_card" in item.data
                                  else []),
}


def _damaged_creature(g: Game, item: StackItem) -> list:
    """The creature a damage event dealt damage to ("that creature" of Phage), if still in play."""
    target = item.data.get("ev", {}).get("target")
    return [("o", target[1])] if target and target[0] == "o" and target[1] in g.perms else []


def _damaged_player(item: StackItem) -> list:
    """The player a damage event dealt damage to ("that player" of Hypnotic Specter)."""
    target = item.data.get("ev", {}).get("target")
    return [("p", target[1])] if target and target[0] == "p" else []


def _event_perm_controller(g: Game, item: StackItem) -> list:
    """The controller of the event's permanent ("its controller"): now if it is still in play,
    else as it last existed in play (2012 608.2g, last known information)."""
    ev = item.data.get("ev", {})
    p = g.perms.get(ev.get("perm"))
    if p is not None:
        g._fresh()
        return [("p", p.controller)]
    lki = ev.get("lki")
    return [("p", lki["controller"])] if lki else []


def _event_object(g: Game, item: StackItem, key: str) -> list:
    """The event's attacker or blocker ("that creature"), if it is still in play."""
    pid = item.data.get("ev", {}).get(key)
    return [("o", pid)] if pid in g.perms else []


# -- amounts ----------------------------------------------------------------------------------
Amount = Callable[["Game", "StackItem"], int]


EVENT_AMOUNTS = ("amount", "toughness", "blockers")


def compile_amount(v: Any, site: Site | None = None) -> Amount:
    """Compile an amount: an integer, ``X`` or ``-X``, ``{count: filter}`` (permanents in
    play), ``{graveyard: you|any}`` (cards in graveyards), ``{hand_size: player}`` (cards in a
    referenced player's hand), ``{event: amount|toughness|blockers}`` (of a triggered ability's
    event: the damage dealt, the event permanent's toughness, the creatures blocking it),
    ``{sacrificed: power}`` (total power of the permanents sacrificed to pay the cost) or
    ``{removed: this_way}`` (how many objects this resolution's ``remove_from_game`` moved)."""
    site = site or Site()
    if isinstance(v, int) and not isinstance(v, bool):
        return lambda g, item: v
    if v in ("X", "-X"):
        if not site.x:
            raise site.error(f"amount {v!r} but the card or ability has no X")
        if v == "-X":
            return lambda g, item: -item.x
        return lambda g, item: item.x
    if isinstance(v, dict) and len(v) == 1:
        ((k, w),) = v.items()
        if k == "count":
            test = compile_filter(w, "permanent", site.at("count")).test

            def count(g: Game, item: StackItem) -> int:
                g._fresh()
                pl = item.controller
                return sum(1 for p in g.perms.values() if test(p, pl))
            return count
        if k == "graveyard":
            if w not in ("you", "any"):
                raise site.error(f"'graveyard' must be 'you' or 'any', not {w!r}")
            if w == "you":
                return lambda g, item: len(g.players[item.controller].graveyard)
            return lambda g, item: sum(len(P.graveyard) for P in g.players)
        if k == "hand_size":
            who = compile_ref(w, site.at("hand_size"), players=True)
            return lambda g, item: sum(len(g.players[pl].hand) for kind, pl in who(g, item)
                                       if kind == "p")
        if k == "event":
            if w not in EVENT_AMOUNTS:
                raise site.error(f"'event' must be one of {list(EVENT_AMOUNTS)}, not {w!r}"
                                 + _suggest(w, EVENT_AMOUNTS))
            _check_event_word(w, site)
            return _EVENT_AMOUNTS[w]
        if k == "sacrificed":
            if w != "power":
                raise site.error(f"'sacrificed' must be 'power', not {w!r}")
            return lambda g, item: item.data.get("sacrificed_power", 0)
        if k == "removed":
            # "For each creature card removed this way" (Midnight Ritual): counted by the
            # ``remove_from_game`` effects of the same resolution.
            if w != "this_way":
                raise site.error(f"'removed' must be 'this_way', not {w!r}")
            return lambda g, item: item.data.get("removed_this_way", 0)
        raise site.error(f"unknown amount {k!r}" + _suggest(
            k, ("count", "graveyard", "hand_size", "event", "sacrificed", "removed")))
    raise site.error(f"bad amount {v!r}: an integer, 'X', '-X', {{count: filter}}, "
                     "{graveyard: you|any}, {hand_size: player}, {event: ...} or "
                     "{sacrificed: power} expected")


def _event_toughness(g: Game, item: StackItem) -> int:
    """The event permanent's toughness: now, or as it last existed in play (2012 608.2g)."""
    ev = item.data.get("ev", {})
    p = g.perms.get(ev.get("perm"))
    if p is not None:
        g._fresh()
        return p.toughness
    lki = ev.get("lki")
    return lki["toughness"] if lki else 0


def _event_blockers(g: Game, item: StackItem) -> int:
    """How many creatures block the event permanent now ("for each creature blocking it")."""
    p = g.perms.get(item.data.get("ev", {}).get("perm"))
    return len(p.blockers) if p is not None else 0


_EVENT_AMOUNTS: dict[str, Amount] = {
    "amount": lambda g, item: item.data.get("ev", {}).get("amount", 0),
    "toughness": _event_toughness,
    "blockers": _event_blockers,
}
