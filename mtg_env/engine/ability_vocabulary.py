"""The card language of triggered and static abilities, checked and compiled when card data
loads: each trigger event's filter keys (:data:`TRIGGER_KEYS`, compiled by
:func:`compile_trigger` into ``match(game, source, event)``), static abilities' kinds and
parameters (:data:`STATIC_KINDS`, :func:`check_static`; the rule-modifying ones in
:data:`RULE_KINDS`) and what they affect (:func:`compile_affects`), and the conditions of
effects and of triggers (:data:`CONDITIONS`, :data:`TRIGGER_CONDITIONS`).

It builds on :mod:`mtg_env.engine.filters` (filters, value types, the error site) and
:mod:`mtg_env.engine.references` (the trigger events that carry a player or a permanent).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from .filters import (
    T_BOOL,
    T_CHOICE,
    T_COLOR,
    T_INT,
    T_KEYWORD,
    T_TYPE,
    Filter,
    Site,
    ValueType,
    compile_filter,
    suggest_names,
)
from .references import PERMANENT_EVENTS, PLAYER_EVENTS
from .seating import is_opponent

if TYPE_CHECKING:
    from .game import Game
    from .model import Card


class TriggerSource(Protocol):
    """What a trigger filter reads of the ability's source: a permanent, or a card outside play
    whose ability works from there (``triggers.ZoneSource``: no id, its owner controls it)."""

    @property
    def id(self) -> int | None: ...
    @property
    def controller(self) -> int: ...
    @property
    def attached_to(self) -> int | None: ...
    @property
    def card(self) -> Card: ...


# -- trigger filters per event ----------------------------------------------------------------
# ``match(game, source, event data)``: does the event trigger the ability?
Match = Callable[["Game", TriggerSource, dict[str, Any]], bool]
_WHO_ANY = ("you", "opponent", "any")
T_COLORS = ValueType("list of color letters (WUBRG)")
# Trigger filter keys per event: key -> (allowed values or a value type, default, doc).
TRIGGER_KEYS: dict[str, dict[str, tuple[Any, Any, str]]] = {
    **{e: {"whose": (_WHO_ANY, "you", "whose turn / whose draw")}
       for e in ("upkeep", "end_of_turn", "draw")},
    # "At the beginning of each player's draw step" (after the turn's draw, 2007 CR 304.1).
    "draw_step": {"whose": (_WHO_ANY, "you", "whose draw step")},
    "discard": {"whose": (_WHO_ANY, "any", "who discards"),
                "what": (("any", "self"), "any",
                         "which card: any, or this card (an ability working from the graveyard)"),
                "cause": (("any", "opponent"), "any",
                          "what makes the player discard: anything, or a spell or ability an "
                          "opponent of the discarding player controls (not a cost: Guerrilla "
                          "Tactics)")},
    "tapped_for_mana": {"whose": (_WHO_ANY, "any", "who taps a land for mana"),
                        "what": (("any", "enchanted"), "any",
                                 "which land: any, or the one this enchants (Overgrowth)")},
    **{e: {"what": (("self", "other", "any", "enchanted"), "self",
                    "which permanent: this one, another, any, the one this enchants"),
           "filter": ("permanent filter", None, "what the other permanent must match")}
       for e in PERMANENT_EVENTS},
    "to_graveyard": {
        "what": (("self", "other", "any", "enchanted"), "self",
                 "which permanent: this one, another, any, the one this enchants"),
        "filter": ("permanent filter", None, "what the other permanent must match"),
        "damaged_by_self": (T_BOOL, False,
                            "only a permanent this one dealt damage to this turn (Sengir Vampire)")},
    "cast": {"who": (_WHO_ANY, "any", "who plays the spell"),
             "color": (T_COLOR, None, "the spell's color"),
             "colors_any": (T_COLORS, None, "the spell has at least one of these colors")},
    "deals_damage": {"what": (("self", "enchanted", "equipped"), "self", "the damage source"),
                     "to": (("any", "player", "opponent", "creature"), "any", "what is dealt damage"),
                     "combat": (T_BOOL, False, "combat damage only")},
}
TRIGGER_EVENTS = tuple(TRIGGER_KEYS)


def _who(whose: str, ev: dict[str, Any], p: TriggerSource) -> bool:
    if whose == "you":
        player: int = ev["player"]
        return player == p.controller
    if whose == "opponent":
        return is_opponent(ev["player"], p.controller)
    return True


def compile_trigger(event: str, filters: dict[str, Any] | None, site: Site | None = None) -> Match:
    """Check a triggered ability's filters for its event; return ``match(game, source, event)``."""
    site = site or Site()
    if event not in TRIGGER_KEYS:
        raise site.error(f"unknown trigger event {event!r}" + suggest_names(event, TRIGGER_KEYS))
    spec = TRIGGER_KEYS[event]
    filters = filters or {}
    if not isinstance(filters, dict):
        raise site.error(f"trigger filters must be a mapping, not {filters!r}")
    vals: dict[str, Any] = {}
    for k, v in filters.items():
        if k not in spec:
            raise site.error(f"unknown filter key {k!r} for a {event!r} trigger" + suggest_names(k, spec)
                             + f" (keys: {sorted(spec)})")
        allowed = spec[k][0]
        if allowed is T_COLORS:
            if not isinstance(v, list) or not v:
                raise site.error(f"{k!r} must be a non-empty list of color letters, not {v!r}")
            for c in v:
                T_COLOR.check(c, site, k)
        elif isinstance(allowed, ValueType):
            allowed.check(v, site, k)
        elif isinstance(allowed, tuple) and v not in allowed:
            raise site.error(f"{k!r} must be one of {list(allowed)}, not {v!r}"
                             + suggest_names(v, allowed))
        vals[k] = v
    get = {k: vals.get(k, d[1]) for k, d in spec.items()}
    if event == "discard" and (get["what"] != "any" or get["cause"] != "any"):
        whose, self_only, by_opp = get["whose"], get["what"] == "self", get["cause"] == "opponent"

        def discarded(g: Game, p: TriggerSource, ev: dict[str, Any]) -> bool:
            if self_only and ev.get("card") != p.card.cid:
                return False
            cause = ev.get("cause")
            if by_opp and (cause is None or cause == ev["player"]):
                return False
            return _who(whose, ev, p)
        return discarded
    if event in PLAYER_EVENTS:
        whose = get["whose"]
        if get.get("what") == "enchanted":
            return lambda g, p, ev: (p.attached_to is not None and ev["perm"] == p.attached_to
                                     and _who(whose, ev, p))
        return lambda g, p, ev: _who(whose, ev, p)
    if event in PERMANENT_EVENTS:
        what = get["what"]
        if get.get("damaged_by_self") and what in ("self", "enchanted"):
            raise site.error("'damaged_by_self' needs 'what: other' or 'what: any'")
        if what == "self":
            if "filter" in vals:
                raise site.error("'filter' needs 'what: other' or 'what: any'")
            return lambda g, p, ev: ev["perm"] == p.id
        if what == "enchanted":
            if "filter" in vals:
                raise site.error("'filter' needs 'what: other' or 'what: any'")
            # Only the permanent this one is attached to (Contaminated Bond).
            return lambda g, p, ev: p.attached_to is not None and ev["perm"] == p.attached_to
        test = compile_filter(get["filter"], "permanent", site.at("filter")).test
        skip_self = what == "other"
        if get.get("damaged_by_self"):
            def damaged(g: Game, p: TriggerSource, ev: dict[str, Any]) -> bool:
                other = g.perms.get(ev["perm"])
                if other is None or (skip_self and other.id == p.id):
                    return False
                return [p.id, other.id] in g.damaged_this_turn and test(other, p.controller)
            return damaged

        def match(g: Game, p: TriggerSource, ev: dict[str, Any]) -> bool:
            other = g.perms.get(ev["perm"])
            if other is None or (skip_self and other.id == p.id):
                return False
            return test(other, p.controller)
        return match
    if event == "cast":
        who, color, any_of = get["who"], get["color"], get["colors_any"]
        if any_of is not None:
            wanted = frozenset(any_of)
            return lambda g, p, ev: (_who(who, ev, p) and (color is None or color in ev["colors"])
                                     and not wanted.isdisjoint(ev["colors"]))
        return lambda g, p, ev: _who(who, ev, p) and (color is None or color in ev["colors"])
    what, to, combat = get["what"], get["to"], get["combat"]

    def damage(g: Game, p: TriggerSource, ev: dict[str, Any]) -> bool:
        src = ev.get("src")
        if what == "self" and src != p.id:
            return False
        if what != "self" and (src is None or src != p.attached_to):
            return False
        tkind, tv = ev["target"]
        if to == "player" and tkind != "p":
            return False
        if to == "opponent" and (tkind != "p" or tv == p.controller):
            return False
        if to == "creature" and tkind != "o":
            return False
        return not (combat and not ev.get("combat"))
    return damage


# -- static abilities: what they affect ---------------------------------------------------------
AFFECTS_WORDS: dict[str, dict[str, Any]] = {
    "creatures_you_control": {"type": "Creature", "controller": "you"},
    "other_creatures": {"type": "Creature", "other": True},
    "other_creatures_you_control": {"type": "Creature", "controller": "you", "other": True},
    "creatures_opponents_control": {"type": "Creature", "controller": "opponent"},
    "all_creatures": {"type": "Creature"},
    "all_permanents": {},
}
# Static-ability parameters that narrow ``affects`` (folded into its filter).
AFFECTS_PARAMS = ("color", "not_color")


def compile_affects(affects: str | dict[str, Any], params: dict[str, Any],
                    site: Site | None = None) -> Filter | None:
    """The filter of the permanents a static ability affects (None: ``self``, ``enchanted``,
    ``equipped``, found from the source itself)."""
    site = site or Site()
    extra = {k: params[k] for k in AFFECTS_PARAMS if k in params}
    if affects in ("self", "enchanted", "equipped"):
        if extra:
            raise site.error(f"{sorted(extra)} narrow a group; 'affects: {affects}' is one object")
        return None
    if isinstance(affects, str):
        if affects not in AFFECTS_WORDS:
            words = ["self", "enchanted", "equipped", *AFFECTS_WORDS]
            raise site.error(f"unknown 'affects' {affects!r}" + suggest_names(affects, words)
                             + f" (known: {words} or a filter)")
        flt = {**AFFECTS_WORDS[affects], **extra}
    elif isinstance(affects, dict):
        flt = {**affects, **extra}
    else:
        raise site.error(f"'affects' must be a word or a filter, not {affects!r}")
    return compile_filter(flt, "permanent", site.at("affects"), other=True)


# -- static abilities: parameters per kind -----------------------------------------------------
# kind -> {param: value kind}; value kinds: a ValueType, "filter" (permanents), "keywords".
_NARROW = {"color": T_COLOR, "not_color": T_COLOR}
STATIC_KINDS: dict[str, dict[str, Any]] = {
    "modify_pt": {"p": T_INT, "t": T_INT, "per": "filter", **_NARROW},
    "set_pt": {"p": T_INT, "t": T_INT, **_NARROW},
    "grant": {"keywords": "keywords", "abilities": "abilities", **_NARROW},
    "cda_pt": {"count": "filter", "graveyard_count": T_TYPE, "toughness_plus": T_INT},
    "no_mana_empty": {},
    "prevent_damage": {"dealt_to": T_BOOL, "dealt_by": T_BOOL},
    "redirect_to_enchanted": {},
    "double_damage": {},
    "shuffle_instead_of_graveyard": {},
    "enters_tapped": {"types": "types"},
    # March of the Machines: the affected permanents gain card types (layer 4) and, with
    # ``pt_cmc``, have P/T equal to their converted mana cost (layer 6b).
    "type_change": {"types": "types", "pt_cmc": T_BOOL},
    "copy_as_enters": {"filter": "filter"},
    # "As [this] comes into play, choose a color" (2012 614.12, engine/enter_choices.py) and
    # the abilities linked to the choice: "[this] has protection from the chosen color".
    "choose_as_enters": {"choice": T_CHOICE},
    "protection_from_chosen_color": {},
    # Pithing Needle: "Activated abilities of sources with the chosen name can't be played unless
    # they're mana abilities." (the name chosen as it came into play; engine/priority.py).
    "chosen_name_abilities_cant_be_played": {},
    # Abundance: an optional replacement of its controller's draws (engine/replacement.py).
    "reveal_until_kind_instead_of_draw": {},
    # Blocking (High Ground), control (Persuasion), P/T counted per affected creature (Coat of
    # Arms) and a deck-construction rule (Relentless Rats).
    "extra_blocks": {},
    "control": {},
    "pt_per_shared_creature_type": {"p": T_INT, "t": T_INT},
    "any_number_in_deck": {},
    # Rule-modifying statics (see RULE_KINDS).
    "cant_lose": {},
    "one_spell_per_turn": {},
    "untap_during_others_untap": {},
    "no_max_hand_size": {},
    "cant_play_creature_spells": {},
    "player_shroud": {},
    "creature_spells_cant_be_countered": {},
    "opponents_hands_revealed": {},
    # Crucible of Worlds: "You may play land cards from your graveyard." (2007 CR 212.6: the
    # usual land play, from another zone).
    "play_lands_from_graveyard": {},
    # Cost modification (2007 CR 409.1f): Aura of Silence, Avatar of Might.
    "spell_cost_more": {"types": "types", "amount": T_INT},
    "self_cost_less": {"amount": T_INT, "opponent_more_creatures": T_INT},
    # A cost to attack (2012 508.1d, 508.1g-h): Windborn Muse, {amount} for each creature
    # attacking its controller.
    "attack_tax": {"amount": T_INT},
}
# Rule-modifying static kinds: the layer system records which players control a source of each
# (``game.rule_mods``: kind -> frozenset of those players) for the rules that read them.
RULE_KINDS = frozenset({"cant_lose", "one_spell_per_turn", "untap_during_others_untap",
                        "no_max_hand_size", "cant_play_creature_spells", "player_shroud",
                        "creature_spells_cant_be_countered", "spell_cost_more", "attack_tax",
                        "play_lands_from_graveyard"})
STATIC_REQUIRED = {"set_pt": ("p", "t"), "copy_as_enters": ("filter",), "type_change": ("types",),
                   "choose_as_enters": ("choice",),
                   "pt_per_shared_creature_type": ("p", "t"),
                   "spell_cost_more": ("types", "amount"),
                   "self_cost_less": ("amount", "opponent_more_creatures"),
                   "attack_tax": ("amount",)}


def check_static(kind: str, params: dict[str, Any], site: Site | None = None) -> dict[str, Filter]:
    """Check a static ability's parameters for its kind; return its compiled filter params."""
    site = site or Site()
    if kind not in STATIC_KINDS:
        raise site.error(f"unknown static ability kind {kind!r}" + suggest_names(kind, STATIC_KINDS))
    allowed = STATIC_KINDS[kind]
    out = {}
    for k, v in params.items():
        vt = allowed.get(k)
        if vt is None:
            raise site.error(f"static {kind!r} has no parameter {k!r}" + suggest_names(k, allowed)
                             + f" (parameters: {sorted(allowed)})")
        if vt == "filter":
            # "for each other ..." (Relentless Rats): ``other`` excludes the source.
            out[k] = compile_filter(v, "permanent", site.at(k), other=k == "per")
        elif vt == "types":
            if not isinstance(v, list) or not v:
                raise site.error(f"{k!r} must be a list of card types, not {v!r}")
            for w in v:
                T_TYPE.check(w, site, k)
        elif vt == "abilities":  # activated abilities a grant gives, built by the card loader
            if not isinstance(v, tuple) or not v:
                raise site.error(f"{k!r} must be a non-empty list of activated abilities")
        elif vt == "keywords":
            if not isinstance(v, list) or not v:
                raise site.error(f"{k!r} must be a list of keywords, not {v!r}")
            for w in v:
                T_KEYWORD.check(w, site, k)
        else:
            vt.check(v, site, k)
    for k in STATIC_REQUIRED.get(kind, ()):
        if k not in params:
            raise site.error(f"static {kind!r} needs {k!r}")
    if kind == "grant" and not ({"keywords", "abilities"} & params.keys()):
        raise site.error("static 'grant' needs 'keywords' or 'abilities'")
    if kind == "cda_pt" and ("count" in params) == ("graveyard_count" in params):
        raise site.error("static 'cda_pt' needs exactly one of 'count' and 'graveyard_count'")
    return out


# -- conditions of activated abilities -----------------------------------------------------------
CONDITIONS: dict[str, ValueType] = {"life_at_least": T_INT, "hand_empty": T_BOOL,
                                    "your_upkeep": T_BOOL}


# -- intervening "if" conditions of triggered abilities (2007 CR 410.11) -------------------------
TRIGGER_CONDITIONS: dict[str, tuple[ValueType, str]] = {
    "source_untapped": (T_BOOL, "this permanent is untapped (Howling Mine)"),
    "event_player_hand_at_most": (T_INT, "the event's player has at most N cards in hand"),
    "creature_cards_in_graveyard_at_least": (
        T_INT, "at least N creature cards are in the controller's graveyard"),
    "not_cast_from_hand": (T_BOOL, "it came into play other than as a spell played from "
                                   "its owner's hand (an 'etb' trigger)"),
}


def check_trigger_condition_spec(cond: Any, event: str, site: Site | None = None) -> None:
    """Check a triggered ability's ``if`` (one key of :data:`TRIGGER_CONDITIONS`)."""
    site = site or Site()
    if not isinstance(cond, dict) or len(cond) != 1:
        raise site.error(f"an 'if' condition must be one of {sorted(TRIGGER_CONDITIONS)} with "
                         f"its value, not {cond!r}")
    ((k, v),) = cond.items()
    if k not in TRIGGER_CONDITIONS:
        raise site.error(f"unknown trigger condition {k!r}" + suggest_names(k, TRIGGER_CONDITIONS)
                         + f" (known: {sorted(TRIGGER_CONDITIONS)})")
    TRIGGER_CONDITIONS[k][0].check(v, site, k)
    if k in ("source_untapped", "not_cast_from_hand") and v is not True:
        raise site.error(f"{k!r} must be true")
    if k == "not_cast_from_hand" and event != "etb":
        raise site.error("'not_cast_from_hand' is only meaningful for an 'etb' trigger")
    if k == "event_player_hand_at_most" and event not in PLAYER_EVENTS:
        raise site.error(f"'event_player_hand_at_most': a {event!r} event has no player")


def check_condition_spec(cond: Any, site: Site | None = None) -> None:
    """Check an activated ability's ``condition`` (one key of :data:`CONDITIONS`)."""
    site = site or Site()
    if not isinstance(cond, dict) or len(cond) != 1:
        raise site.error(f"a condition must be one of {sorted(CONDITIONS)} with its value, "
                         f"not {cond!r}")
    ((k, v),) = cond.items()
    if k not in CONDITIONS:
        raise site.error(f"unknown condition {k!r}" + suggest_names(k, CONDITIONS)
                         + f" (known: {sorted(CONDITIONS)})")
    CONDITIONS[k].check(v, site, k)
    if k in ("hand_empty", "your_upkeep") and v is not True:
        raise site.error(f"{k!r} must be true")
