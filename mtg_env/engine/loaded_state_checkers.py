"""The building blocks of the check :meth:`Game.from_json` runs on a stored game state.

Each checker is a callable ``check(value, path, ctx)`` that raises :class:`StateError` with a
one-line message naming the path (``players[1].hand[3]: unknown card id 77``): scalars
(:func:`INT`, :data:`BOOL`, :data:`STR`, :func:`ENUM`), containers (:func:`LIST`, :func:`TUPLE`,
:func:`DICT`, :func:`MAP`, :func:`OPT`), references to the objects of the state being loaded
(:data:`CARD`, :data:`PERM`, :data:`STACK`, :data:`REF`: ids that exist, collected in
:class:`Ctx`), and the card-level values (card names, abilities, effects carried as data,
choices made as a permanent came into play).

Free-form data (continuous and replacement effects, waiting triggers, a stack object's ``data``,
frames' events and a decision's ``context``) is plain JSON whose keys are typed by name
(:data:`KEY_TYPES`): ``pid`` is always a permanent id, ``pl`` a player index, and so on.

The schema of each stored field, built from these, is :mod:`mtg_env.engine.loaded_state_schema`;
the checks relating the objects to each other are :mod:`mtg_env.engine.loaded_state_check`.
This is not a rule of the game: state-based effects (2007 CR 420) are
:mod:`mtg_env.engine.state_based`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NoReturn

from .enter_choices import CHOICE_KINDS, valid_choice
from .errors import MtgError, StateError
from .model import KEYWORDS

Check = Callable[[Any, str, "Ctx"], None]

BIG = 10**9  # no count, life total or id of a real game comes near this


class Ctx:
    """What the reference checks need: the ids that exist in the state being loaded."""

    __slots__ = ("cards", "n_players", "next_id", "perms", "stack", "tokens")

    def __init__(self) -> None:
        self.n_players = 2  # the length of the state's player list, once it is known
        self.cards: dict[int, int] = {}  # card id -> owner
        self.perms: set[int] = set()
        self.stack: set[int] = set()
        self.tokens: set[int] = set()  # card ids of tokens
        self.next_id = BIG


def fail(path: str, msg: str) -> NoReturn:
    raise StateError(f"{path}: {msg}")


def show(v: Any) -> str:
    return f"{v!r:.40}"


# -- scalar checkers ---------------------------------------------------------------------------
def INT(lo: int = -BIG, hi: int = BIG) -> Check:
    """An integer (not a boolean) in ``[lo, hi]``."""
    def check(v: Any, path: str, ctx: Ctx) -> None:
        if type(v) is not int:
            fail(path, f"expected an integer, got {show(v)}")
        if not lo <= v <= hi:
            fail(path, f"{v} is out of range [{lo}, {hi}]")
    check.simple = (int, lo, hi)  # type: ignore[attr-defined]  # lets DICT test it inline
    return check


def BOOL(v: Any, path: str, ctx: Ctx) -> None:
    if type(v) is not bool:
        fail(path, f"expected true or false, got {show(v)}")


def STR(v: Any, path: str, ctx: Ctx) -> None:
    if type(v) is not str:
        fail(path, f"expected a string, got {show(v)}")


# In a ``simple`` triple, the upper bound "the last seat of the game being loaded" (PLAYER).
SEATS = object()

# Lets DICT, LIST and MAP test these inline (a game state holds thousands of them).
BOOL.simple = (bool, None, None)  # type: ignore[attr-defined]
STR.simple = (str, None, None)  # type: ignore[attr-defined]


def ENUM(*values: Any) -> Check:
    allowed = set(values)

    def check(v: Any, path: str, ctx: Ctx) -> None:
        if type(v) not in (str, int, bool, type(None)) or v not in allowed:
            fail(path, f"{show(v)} is not one of {sorted(map(str, allowed))}")
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
    fail(path, f"unexpected value {show(v)}")


def LIST(item: Check, min_len: int = 0, max_len: int = BIG) -> Check:
    fast = _FAST_LISTS.get(item)  # a quick test of the whole list for the common item kinds
    if fast is None and hasattr(item, "simple"):
        t, lo, hi = item.simple
        if hi is SEATS:
            def fast(v: list[Any], ctx: Ctx) -> bool:
                n = ctx.n_players
                return all(type(x) is int and 0 <= x < n for x in v)
        elif lo is None:
            def fast(v: list[Any], ctx: Ctx) -> bool:
                return all(type(x) is t for x in v)
        else:
            def fast(v: list[Any], ctx: Ctx) -> bool:
                return all(type(x) is t and lo <= x <= hi for x in v)

    def check(v: Any, path: str, ctx: Ctx) -> None:
        if type(v) is not list:
            fail(path, f"expected a list, got {show(v)}")
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
            fail(path, f"expected a list of {len(items)} values, got {show(v)}")
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
            fail(path, f"expected an object, got {show(v)}")
        for k, t, lo, hi in simple:
            x = v.get(k, v)
            if hi is SEATS:
                hi = ctx.n_players - 1
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
            opt = optional.get(k)
            if opt is not None:
                opt(x, f"{path}.{k}", ctx)
            elif extra is ANY:  # free-form keys are typed by name, as inside ANY
                (KEY_TYPES.get(k) or ANY)(x, f"{path}.{k}", ctx)
            elif extra is not None:
                extra(x, f"{path}.{k}", ctx)
            else:
                fail(path, f"unknown key {show(k)}")
    return check


def MAP(key: Check, value: Check) -> Check:
    kt = key.simple[0] if hasattr(key, "simple") else None
    vs = value.simple if hasattr(value, "simple") else None
    if vs is not None and vs[2] is SEATS:
        vs = None  # tested one by one, against the number of players
    def check(v: Any, path: str, ctx: Ctx) -> None:
        if type(v) is not dict:
            fail(path, f"expected an object, got {show(v)}")
        if kt is not None and vs is not None and all(
                type(k) is kt and type(x) is vs[0] and (vs[1] is None or vs[1] <= x <= vs[2])
                for k, x in v.items()):
            return
        for k, x in v.items():
            key(k, f"{path} key", ctx)
            value(x, f"{path}.{k}", ctx)
    return check


# -- references --------------------------------------------------------------------------------
def PLAYER(v: Any, path: str, ctx: Ctx) -> None:
    """A player's seat: 0 to the number of players less one."""
    if type(v) is not int:
        fail(path, f"expected an integer, got {show(v)}")
    if not 0 <= v < ctx.n_players:
        fail(path, f"{v} is out of range [0, {ctx.n_players - 1}]")


PLAYER.simple = (int, 0, SEATS)  # type: ignore[attr-defined]


COUNT: Check = INT(0)
ID: Check = INT(1)


def OBJ(v: Any, path: str, ctx: Ctx) -> None:
    """An id the game has handed out (the object may have left the game since)."""
    if type(v) is not int or not 1 <= v < ctx.next_id:
        fail(path, f"expected an object id below next_id {ctx.next_id}, got {show(v)}")


def CARD(v: Any, path: str, ctx: Ctx) -> None:
    if type(v) is not int or v not in ctx.cards:
        fail(path, f"unknown card id {show(v)}")


def PERM(v: Any, path: str, ctx: Ctx) -> None:
    if type(v) is not int or v not in ctx.perms:
        fail(path, f"unknown permanent id {show(v)}")


def STACK(v: Any, path: str, ctx: Ctx) -> None:
    if type(v) is not int or v not in ctx.stack:
        fail(path, f"unknown stack object id {show(v)}")


def REF(v: Any, path: str, ctx: Ctx) -> None:
    """A target or chosen object: ``[kind, id]`` with kind p(layer), o(bject), s(tack), else a card
    in a zone (h(and), g(raveyard), l(ibrary), ...)."""
    if type(v) is not list or len(v) != 2 or type(v[0]) is not str:
        fail(path, f"expected a reference [kind, id], got {show(v)}")
    kind, x = v
    if kind == "p":
        PLAYER(x, f"{path}[1]", ctx)
    elif kind in ("o", "s"):
        OBJ(x, f"{path}[1]", ctx)
    elif len(kind) == 1:
        CARD(x, f"{path}[1]", ctx)
    else:
        fail(path, f"unknown reference kind {show(kind)}")


# The ability lists of a card definition (model.set_ability_refs); "zone_triggered": abilities that work
# from a graveyard (Squee, Goblin Nabob).
ABILITY_KINDS = ("activated", "triggered", "static", "zone_triggered")


def ABILITY(v: Any, path: str, ctx: Ctx) -> None:
    """``{"$ability": [card name, kind, index, ...]}`` naming an ability that exists."""
    from .registry import ability_by_ref

    if type(v) is not dict or set(v) != {"$ability"} or type(v["$ability"]) is not list:
        fail(path, f"expected an ability reference, got {show(v)}")
    ref = v["$ability"]
    if not ref or not all(type(x) in (str, int) for x in ref):
        fail(path, f"malformed ability reference {show(ref)}")
    if len(ref) < 3 or (ref[1] not in ABILITY_KINDS and ref[0] != "rules"):
        fail(path, f"{show(ref)} names no ability list (one of {list(ABILITY_KINDS)})")
    try:
        ability_by_ref(ref)
    except (MtgError, LookupError, TypeError, ValueError, AttributeError):
        fail(path, f"no such ability {show(ref)}")


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
        fail(path, f"expected a list of effects, got {show(v)}")
    try:
        key = json.dumps(v, sort_keys=True)
    except (TypeError, ValueError):
        key = None
    if key is not None and key in _SPECS_OK:
        return
    for i, e in enumerate(v):
        ANY(e, f"{path}[{i}]", ctx)
        if type(e) is not dict or type(e.get("op")) is not str:
            fail(f"{path}[{i}]", f"expected an effect {{op: ...}}, got {show(e)}")
        try:  # as OPS compiles a plain effect dict when it runs
            compile_effect(e, Site(source=True, event=""))
        except (MtgError, LookupError, TypeError, ValueError, AttributeError) as exc:
            fail(f"{path}[{i}]", str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
    if key is not None and len(_SPECS_OK) < 10_000:
        _SPECS_OK.add(key)


_FAST_LISTS: dict[Check, Callable[[list[Any], Ctx], bool]] = {
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
    "learn": OPT(INT(0, 2**6 - 1)),  # the players who see the chosen cards (knowledge.py masks)
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


# An entry of the game's card list, and of what the players know of hidden cards (``known``).
CARD_ENTRY = TUPLE(ID, CARD_NAME, PLAYER, STR)  # [id, name, owner, label]
_KNOWN_ENTRY = TUPLE(CARD, INT(0, 2**6 - 1), ENUM("h", "l"))  # a bit per player


def CARDS(v: Any, path: str, ctx: Ctx) -> None:
    """Every card of the game, ``[id, name, owner, label]`` each; fills ``ctx.cards`` and
    ``ctx.tokens`` (one tight loop: a game holds a hundred cards)."""
    if type(v) is not list:
        fail(path, f"expected a list, got {show(v)}")
    cards = ctx.cards
    tokens = ctx.tokens
    nid = ctx.next_id
    names = _NAMES
    for e in v:
        if type(e) is not list or len(e) != 4:
            break
        cid, name, owner, label = e
        if (type(cid) is not int or type(owner) is not int or type(label) is not str
                or type(name) is not str or not 0 < cid < nid or not 0 <= owner < ctx.n_players
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
        if not 1 <= cid < ctx.next_id or not 0 <= owner < ctx.n_players:
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
        fail(path, f"expected a list, got {show(v)}")
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
        fail(path, f"expected an object of choices, got {show(v)}")
    for k, x in v.items():
        if k not in CHOICE_KINDS:
            fail(path, f"{show(k)} is not a choice kind (one of {sorted(CHOICE_KINDS)})")
        if not valid_choice(k, x):
            fail(f"{path}.{k}", f"{show(x)} is not a legal {k} choice")
