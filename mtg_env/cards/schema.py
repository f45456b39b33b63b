"""JSON Schema for card definitions (the YAML files under ``mtg_env/cards/data``).

Every key is checked: an unknown key, effect op, keyword or target kind fails at load time with
the file and card named.
"""

from __future__ import annotations

from mtg_env.engine.model import KEYWORDS

TARGET_KINDS = [
    "creature", "player", "creature_or_player", "spell", "permanent", "artifact",
    "enchantment", "land", "artifact_or_enchantment", "nonland_permanent", "card_in_graveyard",
    "artifact_creature_or_land",
]

# Keys each effect op accepts besides "op".
OP_KEYS: dict[str, set[str]] = {
    "deal_damage": {"amount", "target", "no_regen"},
    "pump": {"p", "t", "target", "until"},
    "set_pt": {"p", "t", "target", "until"},
    "grant": {"keywords", "target", "until"},
    "counter_spell": {"target"},
    "bounce": {"target"},
    "destroy": {"target", "no_regen"},
    "regenerate": {"target"},
    "prevent_damage": {"amount", "target"},
    "attach": {"target"},
    "gain_life": {"amount", "who"},
    "lose_life": {"amount", "who"},
    "draw": {"amount", "who"},
    "tap": {"target"},
    "untap": {"target"},
    "choose_permanent": {"filter", "n", "verb", "then", "prompt", "chooser"},
    "search_library": {"filter", "to", "reveal", "amount"},
    "look_at_top": {"amount", "choices", "rest"},
    "discard": {"target", "amount", "random", "chooser"},
    "sacrifice": {"target", "filter", "amount"},
    "gain_control": {"target", "until"},
    "put_on_library": {"target", "position", "controller_gains_toughness"},
    "return_card": {"target"},
    "shuffle_self_into_library": set(),
    "animate": {"types", "subtypes", "colors", "p", "t", "keywords", "target", "until"},
}

_filters = {"type": "object"}
_target = {
    "oneOf": [
        {"type": "string", "enum": TARGET_KINDS},
        {
            "type": "object",
            "additionalProperties": False,
            "required": ["kind"],
            "properties": {
                "kind": {"type": "string", "enum": TARGET_KINDS},
                "filters": _filters,
                "text": {"type": "string"},
            },
        },
    ]
}
_effect = {"type": "object", "required": ["op"], "properties": {"op": {"type": "string"}}}
_cost = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "mana": {"type": "string"},
        "tap": {"type": "boolean"},
        "sacrifice_self": {"type": "boolean"},
        "sacrifice": _filters,
        "discard": {"type": "integer", "minimum": 1},
        "pay_life": {"type": "integer", "minimum": 1},
    },
}
_activated = {
    "type": "object",
    "additionalProperties": False,
    "required": ["cost"],
    "properties": {
        "cost": _cost,
        "targets": {"type": "array", "items": _target},
        "effects": {"type": "array", "items": _effect},
        "add": {"type": "array", "items": {"type": "string", "enum": list("WUBRGC")}},
        "amount": {"type": "integer", "minimum": 1},
        "sorcery_speed": {"type": "boolean"},
        "once_per_turn": {"type": "boolean"},
        "max_per_turn": {"type": "integer", "minimum": 1},
        "x": {"type": "boolean"},
        "custom": {"type": "string"},
        "condition": {"type": "object"},
        "text": {"type": "string"},
    },
}
_triggered = {
    "type": "object",
    "additionalProperties": False,
    "required": ["event"],
    "properties": {
        "event": {"type": "string", "enum": [
            "upkeep", "end_of_turn", "etb", "leaves_play", "to_graveyard", "cast", "attacks",
            "blocks", "becomes_blocked", "deals_damage", "draw", "discard"]},
        "filters": _filters,
        "targets": {"type": "array", "items": _target},
        "effects": {"type": "array", "items": _effect},
        "optional": {"type": "boolean"},
        "custom": {"type": "string"},
        "text": {"type": "string"},
    },
}
_static = {
    "type": "object",
    "additionalProperties": False,
    "required": ["kind"],
    "properties": {
        "kind": {"type": "string", "enum": [
            "modify_pt", "set_pt", "grant", "cda_pt", "no_mana_empty", "prevent_damage",
            "redirect_to_enchanted", "double_damage", "enters_tapped", "copy_as_enters"]},
        "affects": {"type": "string", "enum": [
            "self", "enchanted", "equipped", "creatures_you_control", "other_creatures",
            "other_creatures_you_control", "creatures_opponents_control", "all_creatures"]},
        "p": {"type": "integer"},
        "t": {"type": "integer"},
        "keywords": {"type": "array", "items": {"type": "string", "enum": sorted(KEYWORDS)}},
        "color": {"type": "string"},
        "not_color": {"type": "string"},
        "per": _filters,
        "count": _filters,
        "graveyard_count": {"type": "string"},
        "toughness_plus": {"type": "integer"},
        "abilities": {"type": "array", "items": _activated},
        "filter": _filters,
        "text": {"type": "string"},
    },
}
_mode = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "text": {"type": "string"},
        "targets": {"type": "array", "items": _target},
        "effects": {"type": "array", "items": _effect},
    },
}

CARD_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "required": ["text"],
    "properties": {
        "text": {"type": "string"},
        "keywords": {"type": "array", "items": {"type": "string", "enum": sorted(KEYWORDS)}},
        "spell": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "targets": {"type": "array", "items": _target},
                "effects": {"type": "array", "items": _effect},
                "custom": {"type": "string"},
            },
        },
        "modes": {"type": "array", "items": _mode},
        "enchant": _target,
        "equip": {"type": "string"},
        "activated": {"type": "array", "items": _activated},
        "triggered": {"type": "array", "items": _triggered},
        "static": {"type": "array", "items": _static},
        "additional_cost": _cost,
        "x_color": {"type": "string", "enum": list("WUBRG")},
    },
}

FILE_SCHEMA = {"type": "object", "additionalProperties": CARD_SCHEMA}
