"""The schema of each field of a stored game state, checked when :meth:`Game.from_json` loads
one: the stored attributes of players, permanents and stack objects, continuous and replacement
effects, waiting and delayed triggers, replacement events, procedure frames, and the pending
decision. :mod:`mtg_env.engine.state` declares which field has which schema; the building blocks
are :mod:`mtg_env.engine.loaded_state_checkers`.
"""

from __future__ import annotations

from typing import Any

from .actions import DecisionKind
from .enter_choices import CHOICE_KINDS
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
from .replacement_effects import DIG_CHOICES

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
    # "chosen": a resolving permanent spell's choices made as it comes into play, or those of
    # an activated ability's source (its last known information, Story Circle).
    "data": DICT({}, {"assign": LIST(_ASSIGN), "ev": DICT({}, extra=ANY),
                      "effects": EFFECT_SPECS, "chosen": OPT(CHOSEN),
                      # damage divided among its targets as it was played: [kind, id, amount]
                      "divided": LIST(TUPLE(ENUM("p", "o"), INT(), INT(1))),
                      "spell_copy": ENUM(True),
                      # combat damage: [shield id, source id or None] chosen (2012 615.7)
                      "shield_first": LIST(TUPLE(INT(), OPT(OBJ)))}, extra=ANY),
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
            fail(path, f"expected an object, got {show(v)}")
        kind = v.get(key)
        c = checks.get(kind) if type(kind) is str else None
        if c is None:
            fail(f"{path}.{key}", f"{show(kind)} is not one of {sorted(checks)}")
        c(v, path, ctx)
    return check


_TEXT_EFFECT = _EFFECT_BY_KIND["text"]


def _TEXT_CHANGE(v: Any, path: str, ctx: Ctx) -> None:
    """A text change replaces a word by a different word of the same kind (2012 612.2)."""
    _TEXT_EFFECT(v, path, ctx)
    if v["from"] == v["to"] or (v["from"] in COLORS) != (v["to"] in COLORS):
        fail(path, f"cannot replace {show(v['from'])} with {show(v['to'])}")


_EFFECT_BY_KIND["text"] = _TEXT_CHANGE
# A continuous effect from a resolved spell or ability (see :mod:`mtg_env.engine.layers`).
EFFECT = BY_KIND("kind", _EFFECT_BY_KIND)


def DAMAGE_REF(v: Any, path: str, ctx: Ctx) -> None:
    """Where damage goes: ``["p", player]`` or ``["o", permanent id]``."""
    if type(v) is not list or len(v) != 2 or v[0] not in ("p", "o"):
        fail(path, f"expected a player or permanent [\"p\"|\"o\", id], got {show(v)}")
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
# (:mod:`mtg_env.engine.replacement_effects`).
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
        fail(path, f"expected an object, got {show(v)}")
    k = v.get("k")
    check = _FRAMES.get(k) if type(k) is str else None
    if check is None:
        fail(f"{path}.k", f"{show(v.get('k'))} is not a known procedure")
    check(v, path, ctx)
    if k == "choose":
        if v["min"] > v["max"]:
            fail(path, f"cannot choose at least {v['min']} and at most {v['max']}")
        if (v["then"] or {}).get("op") == "prevent_source":  # a source: a permanent or a spell
            for key in ("cands", "chosen"):
                for i, r in enumerate(v[key]):
                    if r[0] not in ("o", "s"):
                        fail(f"{path}.{key}[{i}]", f"a source is a permanent or a spell, not "
                                                   f"{show(r)}")
    elif k == "retarget" and v["i"] >= len(v["old"]):
        fail(f"{path}.i", f"target {v['i']} of {len(v['old'])} is past the last")
    elif k == "enter_choice":
        kinds, chosen = v["kinds"], v["chosen"]
        if list(chosen) != kinds[:len(chosen)] or len(chosen) >= len(kinds):
            fail(f"{path}.chosen", f"{show(list(chosen))} are not the first choices of {kinds}")
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
