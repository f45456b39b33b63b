"""The schema of a stored game state, checked when :meth:`Game.from_json` loads one.

Each checker is a callable ``check(value, path, ctx)`` that raises :class:`StateError` with a
one-line message naming the path (``players[1].hand[3]: unknown card id 77``). The checkers of the
game's fields are declared with the fields themselves (``Field.check`` in
:mod:`mtg_env.engine.state`); :func:`check_state` runs them all, then the checks that relate
objects to each other (every card in exactly one zone, references to cards, permanents and stack
objects that exist, the pending frames and decision fitting the rest).

Free-form data (continuous and replacement effects, waiting triggers, a stack object's ``data``,
frames' events and a decision's ``context``) is plain JSON whose keys are typed by name
(:data:`KEY_TYPES`): ``pid`` is always a permanent id, ``pl`` a player index, and so on.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from .actions import DecisionKind
from .enter_choices import CHOICE_KINDS, valid_choice
from .errors import MtgError, StateError
from .model import BASIC_LAND_TYPES, COLORS, KEYWORDS
from .replacement import DIG_CHOICES

Check = Callable[[Any, str, "Ctx"], None]

BIG = 10**9  # no count, life total or id of a real game comes near this


class Ctx:
    """What the reference checks need: the ids that exist in the state being loaded."""

    __slots__ = ("cards", "next_id", "perms", "stack", "tokens")

    def __init__(self) -> None:
        self.cards: dict[int, int] = {}  # card id -> owner
        self.perms: set[int] = set()
        self.stack: set[int] = set()
        self.tokens: set[int] = set()  # card ids of tokens
        self.next_id = BIG


def fail(path: str, msg: str) -> None:
    raise StateError(f"{path}: {msg}")


def _show(v: Any) -> str:
    return f"{v!r:.40}"


# -- scalar checkers ---------------------------------------------------------------------------
def INT(lo: int = -BIG, hi: int = BIG) -> Check:
    """An integer (not a boolean) in ``[lo, hi]``."""
    def check(v: Any, path: str, ctx: Ctx) -> None:
        if type(v) is not int:
            fail(path, f"expected an integer, got {_show(v)}")
        if not lo <= v <= hi:
            fail(path, f"{v} is out of range [{lo}, {hi}]")
    check.simple = (int, lo, hi)  # type: ignore[attr-defined]  # lets DICT test it inline
    return check


def BOOL(v: Any, path: str, ctx: Ctx) -> None:
    if type(v) is not bool:
        fail(path, f"expected true or false, got {_show(v)}")


def STR(v: Any, path: str, ctx: Ctx) -> None:
    if type(v) is not str:
        fail(path, f"expected a string, got {_show(v)}")


# Lets DICT, LIST and MAP test these inline (a game state holds thousands of them).
BOOL.simple = (bool, None, None)  # type: ignore[attr-defined]
STR.simple = (str, None, None)  # type: ignore[attr-defined]


def ENUM(*values: Any) -> Check:
    allowed = set(values)

    def check(v: Any, path: str, ctx: Ctx) -> None:
        if type(v) not in (str, int, bool, type(None)) or v not in allowed:
            fail(path, f"{_show(v)} is not one of {sorted(map(str, allowed))}")
    return check


def OPT(inner: Check) -> Check:
    """``None`` or what ``inner`` accepts."""
    def check(v: Any, path: str, ctx: Ctx) -> None:
        if v is not None:
            inner(v, path, ctx)
    return check


def ANY(v: Any, path: str, ctx: Ctx) -> None:
    """Plain JSON data; dict keys are typed by name (:data:`KEY_TYPES`)."""
    if v is None or type(v) in (bool, int, str):
        if type(v) is int and not -BIG <= v <= BIG:
            fail(path, f"{v} is out of range")
        return
    if type(v) is list:
        for i, x in enumerate(v):
            ANY(x, f"{path}[{i}]", ctx)
        return
    if type(v) is dict:
        for k, x in v.items():
            if k == "$ability":
                ABILITY(v, path, ctx)
                return
            key_check = KEY_TYPES.get(k)
            (key_check or ANY)(x, f"{path}.{k}", ctx)
        return
    fail(path, f"unexpected value {_show(v)}")


def LIST(item: Check, min_len: int = 0, max_len: int = BIG) -> Check:
    fast = _FAST_LISTS.get(item)  # a quick test of the whole list for the common item kinds
    if fast is None and hasattr(item, "simple"):
        t, lo, hi = item.simple
        if lo is None:
            def fast(v: list, ctx: Ctx) -> bool:
                return all(type(x) is t for x in v)
        else:
            def fast(v: list, ctx: Ctx) -> bool:
                return all(type(x) is t and lo <= x <= hi for x in v)

    def check(v: Any, path: str, ctx: Ctx) -> None:
        if type(v) is not list:
            fail(path, f"expected a list, got {_show(v)}")
        if not min_len <= len(v) <= max_len:
            fail(path, f"expected {min_len} to {max_len} items, got {len(v)}")
        if fast is not None and fast(v, ctx):
            return
        for i, x in enumerate(v):
            item(x, f"{path}[{i}]", ctx)
    return check


def TUPLE(*items: Check) -> Check:
    """A list of exactly ``len(items)`` values, each checked by its own checker."""
    def check(v: Any, path: str, ctx: Ctx) -> None:
        if type(v) is not list or len(v) != len(items):
            fail(path, f"expected a list of {len(items)} values, got {_show(v)}")
        for i, (c, x) in enumerate(zip(items, v)):
            c(x, f"{path}[{i}]", ctx)
    return check


def DICT(required: dict[str, Check], optional: dict[str, Check] | None = None,
         extra: Check | None = None) -> Check:
    """A JSON object with these keys; other keys are refused unless ``extra`` checks them."""
    optional = optional or {}
    # Scalar keys are tested inline (a game state holds thousands of them); the checker itself
    # runs only to word the error.
    simple = [(k, *c.simple) for k, c in required.items() if hasattr(c, "simple")]
    others = [(k, c) for k, c in required.items() if not hasattr(c, "simple")]
    n_required = len(required)

    def check(v: Any, path: str, ctx: Ctx) -> None:
        if type(v) is not dict:
            fail(path, f"expected an object, got {_show(v)}")
        for k, t, lo, hi in simple:
            x = v.get(k, v)
            if type(x) is not t or (lo is not None and not lo <= x <= hi):
                if k not in v:
                    fail(path, f"missing key {k!r}")
                required[k](x, f"{path}.{k}", ctx)
        for k, c in others:
            if k not in v:
                fail(path, f"missing key {k!r}")
            c(v[k], f"{path}.{k}", ctx)
        if len(v) == n_required:
            return  # every key is a required one
        for k, x in v.items():
            if k in required:
                continue
            c = optional.get(k)
            if c is not None:
                c(x, f"{path}.{k}", ctx)
            elif extra is ANY:  # free-form keys are typed by name, as inside ANY
                (KEY_TYPES.get(k) or ANY)(x, f"{path}.{k}", ctx)
            elif extra is not None:
                extra(x, f"{path}.{k}", ctx)
            else:
                fail(path, f"unknown key {_show(k)}")
    return check


def MAP(key: Check, value: Check) -> Check:
    kt = key.simple[0] if hasattr(key, "simple") else None
    vs = value.simple if hasattr(value, "simple") else None

    def check(v: Any, path: str, ctx: Ctx) -> None:
        if type(v) is not dict:
            fail(path, f"expected an object, got {_show(v)}")
        if kt is not None and vs is not None and all(
                type(k) is kt and type(x) is vs[0] and (vs[1] is None or vs[1] <= x <= vs[2])
                for k, x in v.items()):
            return
        for k, x in v.items():
            key(k, f"{path} key", ctx)
            value(x, f"{path}.{k}", ctx)
    return check


# -- references --------------------------------------------------------------------------------
PLAYER = INT(0, 1)
COUNT = INT(0)
ID = INT(1)


def OBJ(v: Any, path: str, ctx: Ctx) -> None:
    """An id the game has handed out (the object may have left the game since)."""
    if type(v) is not int or not 1 <= v < ctx.next_id:
        fail(path, f"expected an object id below next_id {ctx.next_id}, got {_show(v)}")


def CARD(v: Any, path: str, ctx: Ctx) -> None:
    if type(v) is not int or v not in ctx.cards:
        fail(path, f"unknown card id {_show(v)}")


def PERM(v: Any, path: str, ctx: Ctx) -> None:
    if type(v) is not int or v not in ctx.perms:
        fail(path, f"unknown permanent id {_show(v)}")


def STACK(v: Any, path: str, ctx: Ctx) -> None:
    if type(v) is not int or v not in ctx.stack:
        fail(path, f"unknown stack object id {_show(v)}")


def REF(v: Any, path: str, ctx: Ctx) -> None:
    """A target or chosen object: ``[kind, id]`` with kind p(layer), o(bject), s(tack), else a card
    in a zone (h(and), g(raveyard), l(ibrary), ...)."""
    if type(v) is not list or len(v) != 2 or type(v[0]) is not str:
        fail(path, f"expected a reference [kind, id], got {_show(v)}")
    kind, x = v
    if kind == "p":
        PLAYER(x, f"{path}[1]", ctx)
    elif kind in ("o", "s"):
        OBJ(x, f"{path}[1]", ctx)
    elif len(kind) == 1:
        CARD(x, f"{path}[1]", ctx)
    else:
        fail(path, f"unknown reference kind {_show(kind)}")


# The ability lists of a card definition (model._set_refs); "zone_triggered": abilities that work
# from a graveyard (Squee, Goblin Nabob).
ABILITY_KINDS = ("activated", "triggered", "static", "zone_triggered")


def ABILITY(v: Any, path: str, ctx: Ctx) -> None:
    """``{"$ability": [card name, kind, index, ...]}`` naming an ability that exists."""
    from .registry import ability_by_ref

    if type(v) is not dict or set(v) != {"$ability"} or type(v["$ability"]) is not list:
        fail(path, f"expected an ability reference, got {_show(v)}")
    ref = v["$ability"]
    if not ref or not all(type(x) in (str, int) for x in ref):
        fail(path, f"malformed ability reference {_show(ref)}")
    if len(ref) < 3 or ref[1] not in ABILITY_KINDS:
        fail(path, f"{_show(ref)} names no ability list (one of {list(ABILITY_KINDS)})")
    try:
        ability_by_ref(ref)
    except (MtgError, LookupError, TypeError, ValueError, AttributeError):
        fail(path, f"no such ability {_show(ref)}")


def ABILITY_REF(v: Any, path: str, ctx: Ctx) -> None:
    """A bare ability reference ``[card name, kind, index, ...]`` (an animation's granted
    abilities)."""
    ABILITY({"$ability": v} if type(v) is list else v, path, ctx)


_SPECS_OK: set[str] = set()  # effect lists seen valid, as JSON (the op declarations are immutable)


def EFFECT_SPECS(v: Any, path: str, ctx: Ctx) -> None:
    """Effects carried as data and run as they resolve (a delayed triggered ability's, a rules
    trigger's): each must compile against its op's declared parameters as it will when it runs
    (:func:`mtg_env.engine.ops.compile_effect`)."""
    import json

    from .filters import Site
    from .ops import compile_effect

    if type(v) is not list:
        fail(path, f"expected a list of effects, got {_show(v)}")
    try:
        key = json.dumps(v, sort_keys=True)
    except (TypeError, ValueError):
        key = None
    if key is not None and key in _SPECS_OK:
        return
    for i, e in enumerate(v):
        ANY(e, f"{path}[{i}]", ctx)
        if type(e) is not dict or type(e.get("op")) is not str:
            fail(f"{path}[{i}]", f"expected an effect {{op: ...}}, got {_show(e)}")
        try:  # as OPS compiles a plain effect dict when it runs
            compile_effect(e, Site(source=True, event=""))
        except (MtgError, LookupError, TypeError, ValueError, AttributeError) as exc:
            fail(f"{path}[{i}]", str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
    if key is not None and len(_SPECS_OK) < 10_000:
        _SPECS_OK.add(key)


_FAST_LISTS: dict[Check, Callable[[list, Ctx], bool]] = {
    STR: lambda v, ctx: all(type(x) is str for x in v),
    BOOL: lambda v, ctx: all(type(x) is bool for x in v),
    CARD: lambda v, ctx: all(type(x) is int and x in ctx.cards for x in v),
    OBJ: lambda v, ctx: all(type(x) is int and 0 < x < ctx.next_id for x in v),
    PERM: lambda v, ctx: all(type(x) is int and x in ctx.perms for x in v),
}


# -- keys of free-form data, typed by name -----------------------------------------------------
# Free-form data reads its values with ``.get``, so ``None`` is accepted for every key; a key's
# other values must have its type. A key whose values differ in type between uses is left out.
# "cause": the controller of the effect making a player discard (a discard event's).
_PLAYER_KEYS = ("pl", "ctrl", "controller", "player", "src_controller", "owner", "chooser",
                "cause")
_OBJ_KEYS = ("pid", "perm", "source", "copy", "attacker", "sid", "stack_id", "rid")
_INT_KEYS = ("ts", "t", "p", "amount", "left", "id", "x", "i", "n", "mode", "group", "max", "min",
             "qi", "st", "remaining", "hand_size", "mulligans", "target_index", "ab", "rem", "ri")
_STR_KEYS = ("until", "kind", "op", "who", "name", "verb", "prompt", "src_colors",
             "zone", "tt", "dest", "label", "text", "sig", "k", "e", "choice", "effect")
_BOOL_KEYS = ("used", "may", "combat", "reveal", "second", "fs", "forced", "first_strike",
              "no_regen", "combat_only", "unblocked_only", "unblocked", "cast_from_hand",
              "from_hand", "src_tapped", "trigger", "as_unblocked", "ask", "once", "optional",
              "tdone")  # tdone: a cast's variable number of targets is complete


# A keyword ability an effect grants (model.KEYWORDS, as the grant op's parameter takes).
KEYWORD = ENUM(*KEYWORDS)


def _src(v: Any, path: str, ctx: Ctx) -> None:
    """``src``: a permanent id (effects, triggers) or a damage source ``{pid, label, ...}``."""
    if type(v) is dict:
        ANY(v, path, ctx)
    elif v is not None:
        OBJ(v, path, ctx)


def _card(v: Any, path: str, ctx: Ctx) -> None:
    """``card``: a card name (waiting triggers, stack objects' data) or a card id (a discard
    event's card, a choice's Aura card)."""
    if v is not None and type(v) is not str:
        CARD(v, path, ctx)


def _colors(v: Any, path: str, ctx: Ctx) -> None:
    if v is not None and type(v) is not str:
        LIST(STR)(v, path, ctx)


KEY_TYPES: dict[str, Check] = {
    **dict.fromkeys(_PLAYER_KEYS, OPT(PLAYER)),
    **dict.fromkeys(_OBJ_KEYS, OPT(OBJ)),
    **dict.fromkeys(_INT_KEYS, OPT(INT())),
    **dict.fromkeys(_STR_KEYS, OPT(STR)),
    **dict.fromkeys(_BOOL_KEYS, OPT(BOOL)),
    "src": _src,
    "card": _card,
    "colors": _colors,
    "target": OPT(REF),
    "recipient": OPT(REF),
    "add": OPT(LIST(KEYWORD)),
    "legal": OPT(LIST(BOOL)),
    "abl": OPT(ABILITY),
    "effects": OPT(LIST(DICT({}, extra=ANY))),
    "applied": OPT(LIST(STR)),  # the replacement effects already applied to an event
    "while": OPT(ENUM("enchanted")),  # an effect lasting while its permanent is enchanted
    "learn": OPT(INT(0, 3)),  # the players who see the chosen cards (knowledge.py masks)
    "src_card": OPT(CARD),  # the card of an ability working from a graveyard (Squee)
    "removed_this_way": OPT(COUNT),  # objects a resolution's remove_from_game moved
}


_NAMES: dict[str, bool] = {}  # card names seen valid -> is a token (the registry is immutable)


def CARD_NAME(v: Any, path: str, ctx: Ctx) -> None:
    if type(v) is str and v in _NAMES:
        return
    from .registry import card_for_key, get_card

    STR(v, path, ctx)
    try:
        # a token of other colors than its registered one: "Soldier Token#B" (registry.card_key)
        _NAMES[v] = (card_for_key(v) if "#" in v else get_card(v)).is_token
    except MtgError as exc:
        fail(path, str(exc))


def CARDS(v: Any, path: str, ctx: Ctx) -> None:
    """Every card of the game, ``[id, name, owner, label]`` each; fills ``ctx.cards`` and
    ``ctx.tokens`` (one tight loop: a game holds a hundred cards)."""
    if type(v) is not list:
        fail(path, f"expected a list, got {_show(v)}")
    cards = ctx.cards
    tokens = ctx.tokens
    nid = ctx.next_id
    names = _NAMES
    for e in v:
        if type(e) is not list or len(e) != 4:
            break
        cid, name, owner, label = e
        if (type(cid) is not int or type(owner) is not int or type(label) is not str
                or type(name) is not str or not 0 < cid < nid or not 0 <= owner <= 1
                or name not in names):
            break
        cards[cid] = owner
        if names[name]:
            tokens.add(cid)
    else:
        if len(cards) == len(v):
            return
    cards.clear()
    tokens.clear()
    for i, e in enumerate(v):  # again, naming the first problem
        if (type(e) is not list or len(e) != 4 or type(e[0]) is not int or type(e[2]) is not int
                or type(e[3]) is not str):
            CARD_ENTRY(e, f"{path}[{i}]", ctx)  # names the wrong part
        cid, name, owner, _ = e
        if type(name) is not str or name not in _NAMES:
            CARD_NAME(name, f"{path}[{i}][1]", ctx)
        if not 1 <= cid < ctx.next_id or owner not in (0, 1):
            CARD_ENTRY(e, f"{path}[{i}]", ctx)
            OBJ(cid, f"{path}[{i}][0]", ctx)
        if cid in cards:
            fail(f"{path}[{i}]", f"card id {cid} is used twice")
        cards[cid] = owner
        if _NAMES[name]:
            ctx.tokens.add(cid)


def KNOWN(v: Any, path: str, ctx: Ctx) -> None:
    """``Game.known`` as ``[card id, players mask, zone]`` entries, one per card
    (:mod:`mtg_env.engine.knowledge`)."""
    if type(v) is not list:
        fail(path, f"expected a list, got {_show(v)}")
    seen: set[int] = set()
    for i, e in enumerate(v):
        _KNOWN_ENTRY(e, f"{path}[{i}]", ctx)
        if e[0] in seen:
            fail(f"{path}[{i}]", f"card {e[0]} is listed twice")
        seen.add(e[0])


def CHOSEN(v: Any, path: str, ctx: Ctx) -> None:
    """The "as it comes into play" choices made for a permanent (:mod:`.enter_choices`):
    ``{"color": "R"}``, each key a choice kind and each value a legal answer to it."""
    if type(v) is not dict:
        fail(path, f"expected an object of choices, got {_show(v)}")
    for k, x in v.items():
        if k not in CHOICE_KINDS:
            fail(path, f"{_show(k)} is not a choice kind (one of {sorted(CHOICE_KINDS)})")
        if not valid_choice(k, x):
            fail(f"{path}.{k}", f"{_show(x)} is not a legal {k} choice")


# -- the objects of a game ---------------------------------------------------------------------
CARD_ENTRY = TUPLE(ID, CARD_NAME, PLAYER, STR)  # [id, name, owner, label]
_KNOWN_ENTRY = TUPLE(CARD, INT(0, 3), ENUM("h", "l"))

# The stored attributes of a player, a permanent and a stack object (serialize.py stores exactly
# these, plus the zones and references it handles itself).
PLAYER_ATTRS: dict[str, Check] = {
    "life": INT(), "poison": COUNT, "mana_pool": LIST(COUNT, 6, 6), "lands_played": COUNT,
    "drew_from_empty": BOOL, "mulligans": COUNT, "lost": BOOL, "conceded": BOOL,
    "life_lost_this_turn": INT(), "damage_taken_this_turn": INT(),
    "spells_played_this_turn": COUNT,
}
PLAYER_ZONES = ("hand", "library", "graveyard", "removed")
PERM_ATTRS: dict[str, Check] = {
    "id": ID, "base_controller": PLAYER, "controller": PLAYER, "tapped": BOOL, "damage": COUNT,
    "counters": MAP(STR, INT()), "attached_to": OPT(PERM), "sick": BOOL, "timestamp": INT(),
    "regen_shields": COUNT, "cant_regen": BOOL, "attacking": BOOL, "blocking": LIST(OBJ),
    "blocked": BOOL, "blockers": LIST(OBJ), "struck_first": BOOL,
    "chosen": OPT(CHOSEN),
}
STACK_KINDS = ("spell", "activated", "triggered", "combat_damage")
# [source id, "p"|"o", recipient, amount, label, colors, controller, dealt by an unblocked creature]
_ASSIGN = TUPLE(OBJ, ENUM("p", "o"), INT(), INT(), STR, STR, PLAYER, BOOL)
STACK_ATTRS: dict[str, Check] = {
    "id": ID, "kind": ENUM(*STACK_KINDS), "controller": PLAYER, "source": OPT(OBJ),
    "source_name": STR, "ability": INT(), "targets": LIST(REF), "x": COUNT, "mode": INT(-1, 99),
    # "chosen": a resolving permanent spell's choices made as it comes into play, or those of
    # an activated ability's source (its last known information, Story Circle).
    "data": DICT({}, {"assign": LIST(_ASSIGN), "ev": DICT({}, extra=ANY),
                      "effects": EFFECT_SPECS, "chosen": OPT(CHOSEN),
                      # damage divided among its targets as it was played: [kind, id, amount]
                      "divided": LIST(TUPLE(ENUM("p", "o"), INT(), INT(1))),
                      "spell_copy": ENUM(True)}, extra=ANY),
    "label": STR,
}

PLAYER_CHECK = DICT({**PLAYER_ATTRS, **dict.fromkeys(PLAYER_ZONES, LIST(CARD))})
PERM_CHECK = DICT({**PERM_ATTRS, "card": CARD, "used_this_turn": LIST(TUPLE(INT(), INT()))})
STACK_CHECK = DICT({**STACK_ATTRS, "card": OPT(CARD), "ability_def": OPT(ABILITY)})

_UNTIL = OPT(STR)
_TEXT_WORDS = (*COLORS, *BASIC_LAND_TYPES)
_EFFECT_KEYS: dict[str, dict[str, Check]] = {
    "pt": {"pid": OBJ, "p": INT(), "t": INT()},
    "set_pt": {"pid": OBJ, "p": INT(), "t": INT()},
    "grant": {"pid": OBJ, "add": LIST(KEYWORD)},
    "animate": {"pid": OBJ, "types": LIST(STR), "subtypes": LIST(STR)},  # + "abilities"
    "control": {"pid": OBJ, "controller": PLAYER},
    "copy": {"pid": OBJ, "card": CARD_NAME},
    "cant_block": {"pid": OBJ, "attacker": OPT(OBJ)},
    # a text-changing effect (layers.py, layer 3): a color word or a basic land type replaced
    # by a different word of the same kind (checked in TEXT_CHANGE below)
    "text": {"pid": OBJ, "from": ENUM(*_TEXT_WORDS), "to": ENUM(*_TEXT_WORDS)},
}
_EFFECT_BY_KIND = {k: DICT({"kind": STR, "ts": INT(), **keys},
                           {"until": _UNTIL, "colors": LIST(STR), "p": INT(), "t": INT(),
                            "add": LIST(KEYWORD), "abilities": LIST(ABILITY_REF),
                            "while": ENUM("enchanted")}, extra=ANY)
                   for k, keys in _EFFECT_KEYS.items()}


def BY_KIND(key: str, checks: dict[str, Check]) -> Check:
    """An object checked by the checker its ``key`` names (a tagged union)."""
    def check(v: Any, path: str, ctx: Ctx) -> None:
        if type(v) is not dict:
            fail(path, f"expected an object, got {_show(v)}")
        kind = v.get(key)
        c = checks.get(kind) if type(kind) is str else None
        if c is None:
            fail(f"{path}.{key}", f"{_show(kind)} is not one of {sorted(checks)}")
        c(v, path, ctx)
    return check


_TEXT_EFFECT = _EFFECT_BY_KIND["text"]


def _TEXT_CHANGE(v: Any, path: str, ctx: Ctx) -> None:
    """A text change replaces a word by a different word of the same kind (2012 612.2)."""
    _TEXT_EFFECT(v, path, ctx)
    if v["from"] == v["to"] or (v["from"] in COLORS) != (v["to"] in COLORS):
        fail(path, f"cannot replace {_show(v['from'])} with {_show(v['to'])}")


_EFFECT_BY_KIND["text"] = _TEXT_CHANGE
# A continuous effect from a resolved spell or ability (see :mod:`mtg_env.engine.layers`).
EFFECT = BY_KIND("kind", _EFFECT_BY_KIND)


def DAMAGE_REF(v: Any, path: str, ctx: Ctx) -> None:
    """Where damage goes: ``["p", player]`` or ``["o", permanent id]``."""
    if type(v) is not list or len(v) != 2 or v[0] not in ("p", "o"):
        fail(path, f"expected a player or permanent [\"p\"|\"o\", id], got {_show(v)}")
    REF(v, path, ctx)


_REPLACEMENT_KEYS: dict[str, dict[str, Check]] = {
    "prevent": {"name": STR},
    "regenerate": {"name": STR, "pid": OBJ},
    "redirect": {"name": STR, "player": PLAYER, "to": DAMAGE_REF},
    "draw_instead": {"name": STR, "player": PLAYER, "to": PLAYER},
}
# Keys a kind may have: a prevention shield limited to one spell's damage (by stack id; the spell
# may have left the stack since) or used up by the first damage it prevents (Story Circle).
_REPLACEMENT_OPTIONAL: dict[str, dict[str, Check]] = {
    "prevent": {"target": OPT(DAMAGE_REF), "amount": OPT(INT()), "source": OPT(OBJ),
                "source_spell": OBJ, "once": BOOL, "combat_only": BOOL, "source_colors": STR},
}
_REPLACEMENT_BY_KIND = {k: DICT({"kind": STR, "id": INT(), "ts": INT(), **keys},
                                _REPLACEMENT_OPTIONAL.get(k), extra=ANY)
                        for k, keys in _REPLACEMENT_KEYS.items()}


# A replacement or prevention effect from a resolved spell or ability
# (:mod:`mtg_env.engine.replacement`).
REPLACEMENT = BY_KIND("kind", _REPLACEMENT_BY_KIND)


# A triggered ability waiting for the stack; a delayed one (and a rules trigger) carries effects.
PENDING = DICT({"ctrl": PLAYER}, {"effects": EFFECT_SPECS}, extra=ANY)
# A delayed triggered ability waiting for its moment (turn_structure.add_delayed_trigger).
DELAYED = DICT({"at": ENUM("end_of_combat", "end_of_turn"), "ctrl": PLAYER, "src": OPT(OBJ),
                "name": STR, "card": STR, "text": STR, "effects": EFFECT_SPECS})

# A replacement event waiting for the order decision (replacement.py, "Events"), by its "e".
_EVENT_KEYS: dict[str, dict[str, Check]] = {
    "damage": {"src": DICT({}, extra=ANY), "target": DAMAGE_REF, "amount": INT(),
               "combat": BOOL, "no_regen": BOOL},
    "destroy": {"pid": OBJ, "no_regen": BOOL},
    "regenerate": {"pid": OBJ},
    "draw": {"player": PLAYER},
    # A draw replaced by Abundance's "reveal cards until one of the chosen kind" (replacement.dig).
    "dig": {"player": PLAYER, "kind": ENUM(*DIG_CHOICES)},
}
_EVENT_BY_KIND = {k: DICT({"e": STR, "applied": LIST(STR), **keys}, extra=ANY)
                  for k, keys in _EVENT_KEYS.items()}


REPL_EVENT = BY_KIND("e", _EVENT_BY_KIND)

# The attacker whose combat damage is being assigned: an amount to each recipient in turn, or
# first Rhox's "as though it weren't blocked" question ("ask", combat.py).
_ASSIGN_CUR = DICT({"pid": OBJ, "recips": LIST(REF), "got": LIST(INT()), "rem": INT(),
                    "ri": COUNT}, extra=ANY)
_ASSIGN_ASK = DICT({"pid": PERM, "ask": ENUM(True)})


def _ASSIGNING(v: Any, path: str, ctx: Ctx) -> None:
    (_ASSIGN_ASK if type(v) is dict and "ask" in v else _ASSIGN_CUR)(v, path, ctx)


# What a choice does once made (choices.apply_choice), by its "op" where it has its own keys:
# Story Circle's shield against the chosen source (ops/damage_life.py).
_THEN_BY_OP: dict[str, Check] = {
    "prevent_source": DICT({"op": STR, "label": STR, "src": OPT(OBJ), "card": STR}),
    "attach_card": DICT({"op": STR, "card": CARD}),  # the Aura card to put on the chosen host
    "attach": DICT({"op": STR, "aura": OBJ}),  # the Aura to move to the chosen permanent
    # the chosen cards go into play (a chosen Aura card onto "host"), revealed or not
    "play": DICT({"op": STR}, {"host": OBJ}, extra=ANY),
    # a permanent put into play by an effect waits for its copy choice (Clone, Sculpting Steel)
    "copy_entering": DICT({"op": STR, "pid": PERM, "tapped": BOOL,
                           "etb": DICT({}, {"cast_from_hand": BOOL})}),
}
_THEN = DICT({}, extra=ANY)


def _CHOOSE_THEN(v: Any, path: str, ctx: Ctx) -> None:
    op = v.get("op") if type(v) is dict else None
    (_THEN_BY_OP.get(op, _THEN) if type(op) is str else _THEN)(v, path, ctx)


_FRAMES: dict[str, Check] = {
    # "st": the step a procedure has reached (an unknown step would never advance).
    "cast": DICT({"pl": PLAYER, "sid": STACK, "st": ENUM(0, 1, 2, 3, 4)}, extra=ANY),
    # resolve: 5 Clone's copy choice asked, 6 the "as it comes into play" choices asked.
    "resolve": DICT({"sid": STACK, "i": COUNT, "st": ENUM(0, 1, 5, 6)}, extra=ANY),
    "put": DICT({"order": TUPLE(PLAYER, PLAYER), "q": DICT({"0": LIST(PENDING), "1": LIST(PENDING)})},
                extra=ANY),
    "attack": DICT({"pl": PLAYER, "declared": LIST(PERM)}, extra=ANY),
    "block": DICT({"pl": PLAYER, "pairs": LIST(TUPLE(PERM, PERM))}, extra=ANY),
    "assign": DICT({"queue": LIST(OBJ), "qi": COUNT, "out": LIST(ANY), "cur": OPT(_ASSIGNING)},
                   extra=ANY),
    "choose": DICT({"pl": PLAYER, "cands": LIST(REF), "chosen": LIST(REF), "min": COUNT,
                    "max": COUNT, "verb": STR, "prompt": STR, "sid": OPT(OBJ),
                    "then": OPT(_CHOOSE_THEN)}, extra=ANY),
    "yesno": DICT({"pl": PLAYER, "key": STR, "sid": STACK, "prompt": STR}, extra=ANY),
    "cleanup": DICT({}, extra=ANY),
    "shuffle": DICT({"pl": PLAYER}, extra=ANY),
    "mulligan": DICT({"pl": PLAYER, "second": BOOL}, extra=ANY),
    "order_repl": DICT({"ev": REPL_EVENT}, extra=ANY),
    # "As [this] comes into play, choose ..." (enter_choices.py): of a resolving spell ("sid",
    # on its resolve frame) or of a permanent put into play by an effect ("pid", whose
    # comes-into-play event "etb" waits for the choice); the choices made so far come first.
    "enter_choice": DICT({"k": STR, "pl": PLAYER, "kinds": LIST(ENUM(*CHOICE_KINDS), 1),
                          "chosen": CHOSEN, "sid": OPT(STACK), "pid": OPT(PERM), "label": STR,
                          "etb": OPT(DICT({}, {"cast_from_hand": BOOL}))}),
    # A text-changing effect's choices (layers.py, Mind Bend): "what" ("color" or "land") and
    # "from" once chosen, for permanent "pid" as stack object "sid" resolves.
    "text_change": DICT({"k": STR, "pl": PLAYER, "pid": OBJ, "sid": OPT(STACK), "label": STR,
                         "what": OPT(ENUM("color", "land")), "from": OPT(ENUM(*_TEXT_WORDS))}),
    # Cards coming into play at the same time (zones.py, Warp World): Aura cards still to get a
    # host, the hosts chosen, the other cards, the cards then put on the library bottom.
    "enter_together": DICT({"k": STR, "sid": OPT(STACK), "label": STR, "auras": LIST(CARD),
                            "hosts": LIST(TUPLE(CARD, OBJ)), "others": LIST(CARD),
                            "bottom": LIST(CARD)}),
    # Draws made one at a time while an optional draw replacement is in play (Abundance):
    # "n" still to make, the current draw event "ev", then the event "after" (the draw step's).
    "draws": DICT({"k": STR, "pl": PLAYER, "n": COUNT, "ev": OPT(REPL_EVENT),
                   "after": OPT(TUPLE(ENUM("draw_step"), DICT({"player": PLAYER})))}),
    # A cost paid on resolution (ops/payment.py): "ei" is the paying effect of the resolve
    # frame under it (check_state).
    "pay": DICT({"k": STR, "pl": PLAYER, "sid": STACK, "ei": COUNT, "mode": ENUM("unless", "may"),
                 "prompt": STR}),
    # Changing a spell's targets (stack.py): "old" its targets before, "i" the next to choose.
    "retarget": DICT({"k": STR, "pl": PLAYER, "sid": STACK, "mode": ENUM("change", "new"),
                      "old": LIST(REF, 1), "i": COUNT, "by": STR}),
}


def FRAME(v: Any, path: str, ctx: Ctx) -> None:
    """A procedure in progress (see :mod:`mtg_env.engine.game`)."""
    if type(v) is not dict:
        fail(path, f"expected an object, got {_show(v)}")
    k = v.get("k")
    check = _FRAMES.get(k) if type(k) is str else None
    if check is None:
        fail(f"{path}.k", f"{_show(v.get('k'))} is not a known procedure")
    check(v, path, ctx)
    if k == "choose":
        if v["min"] > v["max"]:
            fail(path, f"cannot choose at least {v['min']} and at most {v['max']}")
        if (v["then"] or {}).get("op") == "prevent_source":  # a source: a permanent or a spell
            for key in ("cands", "chosen"):
                for i, r in enumerate(v[key]):
                    if r[0] not in ("o", "s"):
                        fail(f"{path}.{key}[{i}]", f"a source is a permanent or a spell, not "
                                                   f"{_show(r)}")
    elif k == "retarget" and v["i"] >= len(v["old"]):
        fail(f"{path}.i", f"target {v['i']} of {len(v['old'])} is past the last")
    elif k == "enter_choice":
        kinds, chosen = v["kinds"], v["chosen"]
        if list(chosen) != kinds[:len(chosen)] or len(chosen) >= len(kinds):
            fail(f"{path}.chosen", f"{_show(list(chosen))} are not the first choices of {kinds}")
        if (v["sid"] is None) == (v["pid"] is None):
            fail(path, "the choices are made for a resolving spell (sid) or a permanent (pid)")
        if (v["pid"] is None) != (v["etb"] is None):
            fail(f"{path}.etb", "a permanent's comes-into-play event waits with its choices, "
                                "and only then")


# Option arguments by verb.
_ARGS: dict[str, Check] = {
    **dict.fromkeys(("pass", "done", "yes", "no", "keep", "mulligan"), TUPLE()),
    "play": TUPLE(CARD), "mana": TUPLE(PERM, INT(), STR), "target": TUPLE(REF),
    "choose": TUPLE(REF), "attack": TUPLE(PERM), "block": TUPLE(PERM, PERM),
    "activate": TUPLE(PERM, INT()), "assign": TUPLE(INT()), "x": TUPLE(COUNT), "mode": TUPLE(COUNT),
    "color": TUPLE(ENUM(*COLORS)),
}


def OPTION(v: Any, path: str, ctx: Ctx) -> None:
    if type(v) is not list or len(v) != 3 or type(v[0]) is not str or type(v[1]) is not str:
        fail(path, f"expected an option [verb, text, args], got {_show(v)}")
    (_ARGS.get(v[0]) or LIST(ANY))(v[2], f"{path}[2]", ctx)


_DECISION = DICT({"player": PLAYER, "kind": ENUM(*(k.value for k in DecisionKind)), "prompt": STR,
                  "options": LIST(OPTION, 1), "context": DICT({}, extra=ANY)})


def DECISION(v: Any, path: str, ctx: Ctx) -> None:
    if v is None:
        return
    _DECISION(v, path, ctx)
    texts = [o[1] for o in v["options"]]
    if len(set(texts)) != len(texts):
        fail(f"{path}.options", "option texts are not unique")


# -- the whole state ---------------------------------------------------------------------------
# Which decisions each procedure asks (the top frame answers the pending decision; with no frame
# it is a priority decision).
_FRAME_DECISIONS: dict[str | None, frozenset[str]] = {
    None: frozenset({"priority"}),
    "cast": frozenset({"target", "mode", "x_value", "pay_mana", "choose_color", "choose_player",
                       "choose_cards", "yes_no", "divide"}),
    "put": frozenset({"order_triggers"}),
    "attack": frozenset({"declare_attackers"}),
    "block": frozenset({"declare_blockers"}),
    "assign": frozenset({"combat_damage"}),
    "choose": frozenset({"choose_cards"}),
    "yesno": frozenset({"yes_no"}),
    "mulligan": frozenset({"mulligan"}),
    "order_repl": frozenset({"order_replacements"}),
    "pay": frozenset({"yes_no"}),
    "enter_choice": frozenset(d.value for d, _ in CHOICE_KINDS.values()),
    "draws": frozenset({"mode"}),
    "text_change": frozenset({"mode", "choose_color"}),
    "enter_together": frozenset({"choose_cards"}),
    "retarget": frozenset({"target"}),
}


# The rest of a turn, one letter a step (turn_structure.py): the current step and the steps still
# to come must be the end of some turn "untap upkeep draw precombat_main (combat phase,
# postcombat_main)+ end_of_turn cleanup" (2012 500.8: added combat and main phases).
_STEP_LETTER = {"untap": "U", "upkeep": "u", "draw": "d", "precombat_main": "M",
                "beginning_of_combat": "b", "declare_attackers": "a", "declare_blockers": "k",
                "combat_damage": "x", "end_of_combat": "e", "postcombat_main": "P",
                "end_of_turn": "E", "cleanup": "L"}
_TURN_REST = re.compile(r"(?:(?:(?:U?u)?d)?M(?:bakxeP)+|(?:(?:(?:(?:b?a)?k)?x)?e)?P(?:bakxeP)*)?EL"
                        r"|L")


def _check_turn(step: str, queue: list) -> None:
    rest = "".join(_STEP_LETTER[s] for s in (step, *queue))
    if not _TURN_REST.fullmatch(rest):
        fail("step_queue", f"{queue!r:.80} can't follow the {step} step")


def _check_choice_frames(frames: list) -> None:
    """A resolving spell's "as it comes into play" choices sit on its resolution, at the step
    that asks them; a draw waiting for the optional replacement's choice has its event."""
    for j, f in enumerate(frames):
        if f["k"] == "enter_choice" and f["sid"] is not None:
            below = frames[j - 1] if j else None
            if (below is None or below["k"] != "resolve" or below["sid"] != f["sid"]
                    or below["st"] != 6):
                fail(f"frames[{j}]", "a spell's choices must sit on its resolution")
    if frames and frames[-1]["k"] == "draws" and frames[-1]["ev"] is None:
        fail(f"frames[{len(frames) - 1}].ev", "a draw waiting for a choice needs its event")


def _check_zone_sources(d: dict) -> None:
    """A triggered ability working from a graveyard (``src_card``, on the stack or waiting) is
    one of that card's, controlled by its owner (2012 603.3a)."""
    cards = None
    for where, items, ctrl, abl in (("stack", d["stack"], "controller", "ability_def"),
                                    ("pending", d["pending"], "ctrl", "abl")):
        for i, x in enumerate(items):
            data = x.get("data", x) if where == "stack" else x
            cid = data.get("src_card") if type(data) is dict else None
            if cid is None:
                continue
            if cards is None:
                cards = {c[0]: c for c in d["cards"]}
            ref = (x.get(abl) or {}).get("$ability") if type(x.get(abl)) is dict else None
            _, name, owner, _ = cards[cid]
            if not ref or ref[0] != name:
                fail(f"{where}[{i}]", f"card {cid} ({name}) is not the source of its ability")
            if x[ctrl] != owner:
                fail(f"{where}[{i}].{ctrl}", f"an ability of card {cid} in a graveyard is "
                                             f"controlled by its owner, player {owner}")


def _check_pay_frames(frames: list) -> None:
    """A payment asked on resolution sits on the resolve frame of its stack object, whose last
    effect run (``i - 1``) is the one asking."""
    for j, f in enumerate(frames):
        if f["k"] == "pay":
            below = frames[j - 1] if j else None
            if (below is None or below["k"] != "resolve" or below["sid"] != f["sid"]
                    or below["i"] != f["ei"] + 1):
                fail(f"frames[{j}]", "a payment must sit on the resolution of its effect")


def _ids(items: Any, path: str, seen: set[int]) -> set[int]:
    """The ``id`` of each object of a stored list, checked unique (types are checked later)."""
    out: set[int] = set()
    if type(items) is not list:
        return out
    for i, x in enumerate(items):
        v = x.get("id") if type(x) is dict else None
        if type(v) is int:
            if v in seen or v in out:
                fail(f"{path}[{i}].id", f"id {v} is used twice")
            out.add(v)
    return out


def check_state(d: dict, fields: tuple, extra_keys: frozenset[str]) -> None:
    """Check a stored game state (the dict ``serialize.game_to_dict`` makes; a field ``_x`` is
    stored as ``x``) against ``fields``' checkers and the references between its objects; raise
    :class:`StateError` naming the path of the first problem."""
    hit = _STORED.get(id(fields))
    if hit is None or hit[0] is not fields:
        stored = [(f.name.lstrip("_"), f.check) for f in fields if f.json != "derived"]
        hit = _STORED[id(fields)] = (fields, stored, {k for k, _ in stored})
    _, stored, names = hit
    for k in d:
        if k not in names and k not in extra_keys:
            fail(_show(k), "unknown key of a game state")
    for k, _ in stored:
        if k not in d:
            fail(k, "missing")
    ctx = Ctx()
    ID(d["next_id"], "next_id", ctx)
    ctx.next_id = d["next_id"]
    first = ("next_id", "cards")  # the ids every other check refers to
    for k, check in stored:
        if k in first:
            check(d[k], k, ctx)
    ctx.perms = _ids(d["perms"], "perms", set())
    ctx.stack = _ids(d["stack"], "stack", ctx.perms)
    for k, check in stored:
        if k not in first:
            check(d[k], k, ctx)
    if not _zones_ok(d, ctx):
        _check_zones(d, ctx)
    _check_turn(d["step"], d["step_queue"])
    _check_pay_frames(d["frames"])
    _check_choice_frames(d["frames"])
    _check_zone_sources(d)
    # The game's progress: a finished game has no decision and nothing in progress; an unfinished
    # one has a decision of the kind its innermost procedure asks.
    dec = d["decision"]
    if d["is_over"]:
        if dec is not None or d["frames"]:
            fail("decision", "a finished game has no pending decision or procedure")
        return
    if d["winner"] is not None:
        fail("winner", "an unfinished game has no winner")
    if dec is None:
        fail("decision", "no decision pending in an unfinished game")
    top = d["frames"][-1]["k"] if d["frames"] else None
    if top not in _FRAME_DECISIONS or dec["kind"] not in _FRAME_DECISIONS[top]:
        fail("decision.kind", f"a {dec['kind']} decision does not answer "
                              f"{'the ' + top + ' procedure' if top else 'priority'}")


_STORED: dict[int, tuple] = {}  # id(fields) -> (fields, [(stored name, check)], names)


def _zones_ok(d: dict, ctx: Ctx) -> bool:
    """The quick test of :func:`_check_zones` (true when it would pass)."""
    cards = ctx.cards
    ids: list[int] = []
    for pl, P in enumerate(d["players"]):
        for zone in PLAYER_ZONES:
            z = P[zone]
            for c in z:
                if cards[c] != pl:
                    return False
            ids += z
    nid = ctx.next_id
    for p in d["perms"]:
        if not p["id"] < nid:
            return False
        ids.append(p["card"])
    for s in d["stack"]:
        if not s["id"] < nid:
            return False
        if s["kind"] == "spell":
            if s["card"] is None:
                return False
            ids.append(s["card"])
    seen = set(ids)
    return len(seen) == len(ids) and len(seen | ctx.tokens) == len(cards)


def _check_zones(d: dict, ctx: Ctx) -> None:
    """Every card is in one zone (a token that left play is in none), its owner's; permanents
    and stack objects have ids handed out."""
    where: dict[int, tuple] = {}  # card id -> (zone path, index); formatted only on failure
    cards = ctx.cards

    def put(cid: int, path: str, i: int | None) -> None:
        if cid in where:
            zone, j = where[cid]
            fail(f"{path}[{i}]" if i is not None else path,
                 f"card {cid} is also in {zone}[{j}]" if j is not None else
                 f"card {cid} is also in {zone}")
        where[cid] = (path, i)

    for pl, P in enumerate(d["players"]):
        for zone in PLAYER_ZONES:
            zpath = f"players[{pl}].{zone}"
            for i, cid in enumerate(P[zone]):
                if cards[cid] != pl:
                    fail(f"{zpath}[{i}]", f"card {cid} is owned by player {cards[cid]}")
                if cid in where:
                    put(cid, zpath, i)
                where[cid] = (zpath, i)
    for i, p in enumerate(d["perms"]):
        OBJ(p["id"], f"perms[{i}].id", ctx)
        put(p["card"], f"perms[{i}].card", None)
    for i, s in enumerate(d["stack"]):
        OBJ(s["id"], f"stack[{i}].id", ctx)
        if s["kind"] == "spell":
            if s["card"] is None:
                fail(f"stack[{i}].card", "a spell needs its card")
            put(s["card"], f"stack[{i}].card", None)
    for cid in ctx.cards:
        if cid not in where and cid not in ctx.tokens:
            fail("cards", f"card {cid} is in no zone")
