"""The schema of each field of a stored game state, checked when :meth:`Game.from_json` loads
one: the stored attributes of players, permanents and stack objects, continuous and replacement
effects, waiting and delayed triggers, replacement events, procedure frames, and the pending
decision. :mod:`mtg_env.engine.state` declares which field has which schema; the building blocks
are :mod:`mtg_env.engine.loaded_state_checkers`.
"""

from __future__ import annotations

from typing import Any

from .actions import DecisionKind
from .continuous_effects import EFFECT_CLASSES
from .enter_choices import CHOICE_KINDS
from .frame_fields import Shape, Stored
from .frame_kinds import FRAME_CLASSES
from .frames import DelayedTrigger, PendingTrigger
from .loaded_state_checkers import (
    ABILITY,
    ABILITY_REF,
    ANY,
    BOOL,
    CARD,
    CARD_NAME,
    CHOSEN,
    COUNT,
    DICT,
    EFFECT_SPECS,
    ENUM,
    ID,
    INT,
    KEYWORD,
    LIST,
    MAP,
    OBJ,
    OPT,
    PERM,
    PLAYER,
    REF,
    STACK,
    STR,
    TUPLE,
    Check,
    Ctx,
    fail,
    show,
)
from .model import BASIC_LAND_TYPES, COLORS
from .replacement_events import REPLACEMENT_CLASSES
from .stack_data import StackData

# -- the objects of a game ---------------------------------------------------------------------

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
    # what it records (stack_data.StackData; checked by _STACK_DATA, defined below)
    "data": lambda v, path, ctx: _STACK_DATA(v, path, ctx),
    "label": STR,
}

PLAYER_CHECK: Check = DICT({**PLAYER_ATTRS, **dict.fromkeys(PLAYER_ZONES, LIST(CARD))})
PERM_CHECK: Check = DICT({**PERM_ATTRS, "card": CARD, "used_this_turn": LIST(TUPLE(INT(), INT()))})
STACK_CHECK: Check = DICT({**STACK_ATTRS, "card": OPT(CARD), "ability_def": OPT(ABILITY)})

_TEXT_WORDS = (*COLORS, *BASIC_LAND_TYPES)


def BY_KIND(key: str, checks: dict[str, Check]) -> Check:
    """An object checked by the checker its ``key`` names (a tagged union)."""
    def check(v: Any, path: str, ctx: Ctx) -> None:
        if type(v) is not dict:
            fail(path, f"expected an object, got {show(v)}")
        kind = v.get(key)
        c = checks.get(kind) if type(kind) is str else None
        if c is None:
            fail(f"{path}.{key}", f"{show(kind)} is not one of {sorted(checks)}")
        c(v, path, ctx)
    return check


def DAMAGE_REF(v: Any, path: str, ctx: Ctx) -> None:
    """Where damage goes: ``["p", player]`` or ``["o", permanent id]``."""
    if type(v) is not list or len(v) != 2 or v[0] not in ("p", "o"):
        fail(path, f"expected a player or permanent [\"p\"|\"o\", id], got {show(v)}")
    REF(v, path, ctx)


# What a choice does once made (choices.apply_choice), by its "op" where it has its own keys:
# Story Circle's shield against the chosen source (ops/damage.py).
_THEN_BY_OP: dict[str, Check] = {
    "prevent_source": DICT({"op": STR, "label": STR, "src": OPT(OBJ), "card": STR}),
    # which source's damage a prevention shield ("rid") prevents (replacement.py, 2012 615.7)
    "shield_first": DICT({"op": STR, "rid": INT()}),
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


# The checker of each name a frame field's annotation refers to (``frame_fields.Refers``).
REFERS: dict[str, Check] = {
    "player": PLAYER, "stack": STACK, "perm": PERM, "object": OBJ, "card": CARD, "count": COUNT,
    "ref": REF,
    "effects": EFFECT_SPECS,  # a delayed triggered ability's effects
    # a replacement event's damage (replacement_events.DamageEvent): its target and source
    "damage_ref": DAMAGE_REF,
    "damage_source": DICT({}, extra=ANY),
    "chosen": CHOSEN,  # "as it comes into play" choices made
    "choice_kind": ENUM(*CHOICE_KINDS),
    "choose_then": _CHOOSE_THEN,
    "text_word": ENUM(*_TEXT_WORDS),
    # a stack object's record (stack_data.StackData): damage divided as it was played
    # [kind, id, amount]; combat damage's assignments; [shield id, source id or None] chosen
    # (2012 615.7)
    "divided": LIST(TUPLE(ENUM("p", "o"), INT(), INT(1))),
    "assign": LIST(_ASSIGN),
    "shield_first": LIST(TUPLE(INT(), OPT(OBJ))),
    "keyword": KEYWORD,
    "card_name": CARD_NAME,
    "ability_ref": ABILITY_REF,
    # a permanent's comes-into-play event data, waiting for its choices
    "etb": DICT({}, {"cast_from_hand": BOOL}),
    # the event sent once the draws are made: the draw step's
    "draw_after": TUPLE(ENUM("draw_step"), DICT({"player": PLAYER})),
}


def shape_check(s: Shape) -> Check:
    """The checker of a stored value of shape ``s`` (``frame_fields.shape_of``)."""
    if s.kind == "opt":
        return OPT(shape_check(s.args[0]))
    if s.refers is not None:
        return REFERS[s.refers]
    if s.kind == "int":
        return INT()
    if s.kind in ("enum", "literal"):
        return ENUM(*s.values)
    if s.kind in ("list", "vtuple"):
        return LIST(shape_check(s.args[0]), 1 if s.nonempty else 0)
    if s.kind == "tuple":
        return TUPLE(*(shape_check(a) for a in s.args))
    if s.kind == "stored":
        return stored_check(s.cls)
    return {"bool": BOOL, "str": STR, "dict": DICT({}, extra=ANY), "value": ANY}[s.kind]


def stored_check(cls: type[Stored]) -> Check:
    """The checker of a stored :func:`frame_fields.stored` value: its fields without a default
    required, the others optional (stored only while they differ from their defaults)."""
    required: dict[str, Check] = {"k": STR} if getattr(cls, "KIND", "") else {}
    optional: dict[str, Check] = {}
    for f in cls.FIELDS:
        if not f.has_default:
            required[f.key] = shape_check(f.shape)
        else:
            optional[f.key] = shape_check(f.shape)
    return DICT(required, optional)


_STACK_DATA: Check = stored_check(StackData)
_FRAMES: dict[str, Check] = {cls.KIND: stored_check(cls) for cls in FRAME_CLASSES}
PENDING: Check = stored_check(PendingTrigger)
"""A triggered ability waiting for the stack (``frames.PendingTrigger``)."""
DELAYED: Check = stored_check(DelayedTrigger)
"""A delayed triggered ability waiting for its moment (``frames.DelayedTrigger``)."""
_EFFECTS: dict[str, Check] = {c.KIND: stored_check(c) for c in EFFECT_CLASSES}
_TEXT_EFFECT = _EFFECTS["text"]


def _TEXT_CHANGE(v: Any, path: str, ctx: Ctx) -> None:
    """A text change replaces a word by a different word of the same kind (2012 612.2)."""
    _TEXT_EFFECT(v, path, ctx)
    if v["from"] == v["to"] or (v["from"] in COLORS) != (v["to"] in COLORS):
        fail(path, f"cannot replace {show(v['from'])} with {show(v['to'])}")


_EFFECTS["text"] = _TEXT_CHANGE
EFFECT: Check = BY_KIND("k", _EFFECTS)
"""A continuous effect of a resolved spell or ability (``continuous_effects``)."""
REPLACEMENT: Check = BY_KIND("k", {c.KIND: stored_check(c) for c in REPLACEMENT_CLASSES})
"""A replacement or prevention effect of a resolved spell or ability (``replacement_events``)."""


def FRAME(v: Any, path: str, ctx: Ctx) -> None:
    """A procedure in progress (see :mod:`mtg_env.engine.frames`); the checks relating its
    fields to each other and to the frames around it are ``loaded_state_check``'s."""
    if type(v) is not dict:
        fail(path, f"expected an object, got {show(v)}")
    k = v.get("k")
    check = _FRAMES.get(k) if type(k) is str else None
    if check is None:
        fail(f"{path}.k", f"{show(v.get('k'))} is not a known procedure")
    check(v, path, ctx)


_ATTACK_ONE = TUPLE(PERM)
_ATTACK_WHOM = TUPLE(PERM, PLAYER)


def _ATTACK(v: Any, path: str, ctx: Ctx) -> None:
    """An attack option's arguments: the creature, and under the attack multiple players
    option the player it attacks (2012 802.3)."""
    (_ATTACK_WHOM if type(v) is list and len(v) == 2 else _ATTACK_ONE)(v, path, ctx)


# Option arguments by verb.
_ARGS: dict[str, Check] = {
    **dict.fromkeys(("pass", "done", "yes", "no", "keep", "mulligan"), TUPLE()),
    "play": TUPLE(CARD), "mana": TUPLE(PERM, INT(), STR), "target": TUPLE(REF),
    "choose": TUPLE(REF), "attack": _ATTACK, "block": TUPLE(PERM, PERM),
    "activate": TUPLE(PERM, INT()), "assign": TUPLE(INT()), "x": TUPLE(COUNT), "mode": TUPLE(COUNT),
    "color": TUPLE(ENUM(*COLORS)),
}


def OPTION(v: Any, path: str, ctx: Ctx) -> None:
    if type(v) is not list or len(v) != 3 or type(v[0]) is not str or type(v[1]) is not str:
        fail(path, f"expected an option [verb, text, args], got {show(v)}")
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
