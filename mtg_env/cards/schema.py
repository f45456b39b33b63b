"""JSON Schema for card definitions (the YAML files under ``mtg_env/cards/data``).

Every key is checked: an unknown key, effect op, keyword or target kind fails at load time with
the file and card named. The vocabularies come from the engine's declarations: effect ops and
their parameters (:mod:`mtg_env.engine.ops`), target kinds (:mod:`mtg_env.engine.filters`),
trigger events and static ability kinds (:mod:`mtg_env.engine.ability_vocabulary`), keywords
(:mod:`mtg_env.engine.model`). Filters are checked in depth by :mod:`mtg_env.engine.filters`,
references and amounts by :mod:`mtg_env.engine.references`, when the loader compiles them.
"""

from __future__ import annotations

from typing import Any

from mtg_env.engine.ability_vocabulary import STATIC_KINDS, TRIGGER_EVENTS
from mtg_env.engine.filters import TARGET_KINDS
from mtg_env.engine.model import KEYWORDS
from mtg_env.engine.ops import effect_schema

_filters = {"type": "object"}  # keys and values are checked by the card language at load


def _closed(properties: dict[str, Any], required: tuple[str, ...] = ()) -> dict[str, Any]:
    """An object with only the keys in ``properties``, each valid against its schema, and the
    ``required`` keys present."""
    schema: dict[str, Any] = {"type": "object", "additionalProperties": False}
    if required:
        schema["required"] = list(required)
    schema["properties"] = properties
    return schema


_target = {
    "oneOf": [
        {"type": "string", "enum": sorted(TARGET_KINDS)},
        _closed({
            "kind": {"type": "string", "enum": sorted(TARGET_KINDS)},
            "filters": _filters,
            "text": {"type": "string"},
            "distinct": {"type": "boolean"},
            # The effect's amount is divided among these targets as it is played (2012 601.2d).
            "divided": {"type": "boolean"},
            # A variable number of different targets (2007 CR 409.1d): exactly X, any number
            # up to X, or up to the triggering event's amount ("up to that many").
            "count": {"type": "string", "enum": ["X", "up_to_X", "up_to_event_amount"]},
        }, required=("kind",)),
    ]
}
# What a spell, a mode or an ability does: the targets it chooses and its effects.
_resolves = {
    "targets": {"type": "array", "items": _target},
    "effects": {"type": "array", "items": effect_schema()},
}
_cost = _closed({
    "mana": {"type": "string"},
    "tap": {"type": "boolean"},
    "sacrifice_self": {"type": "boolean"},
    "sacrifice": _filters,
    "discard": {"type": "integer", "minimum": 1},
    "discard_filter": _filters,
    "sacrifice_all": _filters,
    "pay_life": {"type": "integer", "minimum": 1},
})
_activated = _closed({
    "cost": _cost,
    **_resolves,
    # The mana a mana ability adds: one of the listed (a choice), all of them at once with
    # add_all, or none itself (an empty list: its effects change the pool, Doubling Cube).
    "add": {"type": "array", "items": {"type": "string", "enum": list("WUBRGC")}},
    "add_all": {"type": "boolean"},
    "amount": {"type": "integer", "minimum": 1},
    "sorcery_speed": {"type": "boolean"},
    "once_per_turn": {"type": "boolean"},
    "max_per_turn": {"type": "integer", "minimum": 1},
    "x": {"type": "boolean"},
    "custom": {"type": "string"},
    "condition": {"type": "object"},
    "text": {"type": "string"},
}, required=("cost",))
_triggered = _closed({
    "event": {"type": "string", "enum": list(TRIGGER_EVENTS)},
    "filters": _filters,
    "if": {"type": "object"},
    **_resolves,
    "optional": {"type": "boolean"},
    # "... from your graveyard": the ability works while the card is in a graveyard
    # (2012 112.6), not in play.
    "zone": {"type": "string", "enum": ["in_play", "graveyard"]},
    "custom": {"type": "string"},
    "text": {"type": "string"},
}, required=("event",))
_static_params = sorted({k for params in STATIC_KINDS.values() for k in params})
_static = _closed({
    "kind": {"type": "string", "enum": list(STATIC_KINDS)},
    "affects": {"oneOf": [{"type": "string"}, {"type": "object"}]},
    **{k: {} for k in _static_params},  # checked per kind by ability_vocabulary.check_static
    "abilities": {"type": "array", "items": _activated},  # granted activated abilities
    "text": {"type": "string"},
}, required=("kind",))
_mode = _closed({"text": {"type": "string"}, **_resolves})

CARD_SCHEMA = _closed({
    "text": {"type": "string"},
    "keywords": {"type": "array", "items": {"type": "string", "enum": sorted(KEYWORDS)}},
    "spell": _closed({**_resolves, "custom": {"type": "string"}}),
    "modes": {"type": "array", "items": _mode},
    "enchant": _target,
    "equip": {"type": "string"},
    "activated": {"type": "array", "items": _activated},
    "triggered": {"type": "array", "items": _triggered},
    "static": {"type": "array", "items": _static},
    "additional_cost": _cost,
    "x_color": {"type": "string", "enum": list("WUBRG")},
}, required=("text",))

FILE_SCHEMA = {"type": "object", "additionalProperties": CARD_SCHEMA}
