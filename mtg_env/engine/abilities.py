"""A card's abilities and the targets and costs of its spells and abilities, as rules data.

Built once when card data loads and shared by every game (immutable): :class:`TargetSpec`, what
one target may be (2007 CR 409.1d; its filters compiled by :mod:`mtg_env.engine.filters`);
:class:`Cost`, an activated ability's cost (409.1f-h); :class:`ActivatedAbility`, "[Cost]:
[Effect]", mana abilities included (406); :class:`TriggeredAbility`, "When/Whenever/At ..." (410;
its trigger filters compiled by :mod:`mtg_env.engine.ability_vocabulary`); :class:`StaticAbility`,
a continuous effect or a rule change (418.5). A :class:`~mtg_env.engine.model.CardDef` holds them
and gives each its serialisable reference (``ref``).
"""

from __future__ import annotations

from typing import Any

from .mana_cost import ManaCost


class TargetSpec:
    """What one target of a spell or ability may be.

    ``kind``: ``creature``, ``player``, ``creature_or_player``, ``spell``, ``permanent``,
    ``artifact``, ``enchantment``, ``land``, ``artifact_or_enchantment``, ``card_in_graveyard``.
    ``filters`` narrows it in the card language (:mod:`mtg_env.engine.filters`). Compiled here:
    ``perm``/``player``/``spell``/``card`` (a :class:`~mtg_env.engine.filters.Filter` for each
    context the kind spans, with the kind's own restriction, or None) and ``other``.
    """

    __slots__ = ("card", "count", "distinct", "divided", "filters", "kind", "other", "perm",
                 "player", "spell", "text")

    def __init__(self, kind: str, filters: dict[str, Any] | None = None, text: str = "",
                 site: Any = None, distinct: bool = False, count: str | None = None,
                 divided: bool = False) -> None:
        from .filters import compile_target

        self.kind = kind
        # A variable number of different targets for this one spec (the last of its ability):
        # ``X`` (exactly X), ``up_to_X`` ("any number", at most X) or ``up_to_event_amount``
        # ("up to that many": the triggering event's amount). None: one target.
        self.count = count
        # "another target": not an object or player chosen for an earlier target of the same
        # spell or ability (Cone of Flame).
        self.distinct = distinct
        # "divided as you choose among any number of targets" (2012 601.2d): the amount of the
        # ability's effect marked ``divided`` is divided among these targets as it is played,
        # each getting at least 1 (so at least one target and at most that many).
        self.divided = divided
        self.filters = dict(filters or {})
        self.text = text
        compiled = compile_target(kind, self.filters, site)
        self.perm = compiled.get("permanent")
        self.player = compiled.get("player")
        self.spell = compiled.get("spell")
        self.card = compiled.get("card")
        self.other = self.perm is not None and self.perm.other


class Cost:
    """The non-mana and mana parts of an activated ability's cost (CR 409.1f-h)."""

    __slots__ = (
        "discard",
        "discard_filter",
        "mana",
        "pay_life",
        "return_to_hand",
        "sacrifice",
        "sacrifice_all",
        "sacrifice_filter",
        "sacrifice_self",
        "tap",
    )

    def __init__(self, mana: ManaCost | None = None, tap: bool = False,
                 sacrifice_self: bool = False, sacrifice: dict[str, Any] | None = None,
                 discard: int = 0, pay_life: int = 0, return_to_hand: dict[str, Any] | None = None,
                 site: Any = None, discard_filter: dict[str, Any] | None = None,
                 sacrifice_all: dict[str, Any] | None = None) -> None:
        from .filters import compile_filter

        self.mana = mana or ManaCost()
        self.tap = tap
        self.sacrifice_self = sacrifice_self
        self.sacrifice = sacrifice  # filter of a permanent to sacrifice, or None
        self.sacrifice_filter = (None if sacrifice is None else
                                 compile_filter(sacrifice, "permanent", site))
        self.discard = discard
        # "Discard a land card": the cards in hand that may be discarded (None: any card).
        self.discard_filter = (None if discard_filter is None else
                               compile_filter(discard_filter, "card", site))
        # "Sacrifice all creatures you control": every permanent you control matching it.
        self.sacrifice_all = (None if sacrifice_all is None else
                              compile_filter(sacrifice_all, "permanent", site))
        self.pay_life = pay_life
        self.return_to_hand = return_to_hand


class ActivatedAbility:
    """``[Cost]: [Effect]``. ``mana`` lists the choices of mana a mana ability can add (CR 406):
    each entry the symbols added together (``"G"``; ``"WUBRG"`` for Composite Golem; ``""`` for an
    ability adding none itself, whose effects change the pool: Doubling Cube)."""

    __slots__ = (
        "condition",
        "cost",
        "custom",
        "effects",
        "index",
        "mana",
        "mana_amount",
        "max_per_turn",
        "tap_only",
        "once_per_turn",
        "ref",
        "sorcery_speed",
        "targets",
        "text",
        "x",
        "zone",
    )

    def __init__(self, index: int, cost: Cost, targets: tuple[TargetSpec, ...] = (),
                 effects: tuple[dict[str, Any], ...] = (), sorcery_speed: bool = False,
                 once_per_turn: bool = False, mana: tuple[str, ...] | None = None,
                 mana_amount: int = 1, text: str = "", zone: str = "in_play", x: bool = False,
                 custom: str | None = None, condition: dict[str, Any] | None = None,
                 max_per_turn: int = 0) -> None:
        self.index = index
        self.cost = cost
        self.targets = targets
        self.effects = effects
        self.sorcery_speed = sorcery_speed
        self.once_per_turn = once_per_turn
        self.mana = mana
        self.mana_amount = mana_amount
        self.text = text
        self.zone = zone
        self.x = x
        self.custom = custom
        self.condition = condition
        # "Play this ability only once each turn" / "no more than twice each turn": 0 = no limit.
        self.max_per_turn = max_per_turn or (1 if once_per_turn else 0)
        self.tap_only = (cost.tap and cost.mana.free and not cost.sacrifice_self
                         and not cost.sacrifice and not cost.discard and not cost.pay_life
                         and cost.sacrifice_all is None and condition is None)
        self.ref: tuple[str | int, ...] = ()  # set by the CardDef that defines it (see CardDef.__init__)

    @property
    def is_mana_ability(self) -> bool:
        return self.mana is not None


class TriggeredAbility:
    """``When/Whenever/At ..., [effect]``. ``event`` names what it waits for; ``filters`` narrow it."""

    __slots__ = (
        "condition",
        "custom",
        "effects",
        "event",
        "filters",
        "index",
        "match",
        "optional",
        "ref",
        "targets",
        "text",
        "zone",
    )

    def __init__(self, index: int, event: str, filters: dict[str, Any] | None = None,
                 targets: tuple[TargetSpec, ...] = (), effects: tuple[dict[str, Any], ...] = (),
                 optional: bool = False, text: str = "", custom: str | None = None,
                 condition: dict[str, Any] | None = None, site: Any = None, zone: str = "in_play") -> None:
        from .ability_vocabulary import compile_trigger

        self.index = index
        self.event = event
        self.filters = dict(filters or {})
        # match(game, source permanent, event) -> bool: the filters compiled for the event.
        self.match = compile_trigger(event, self.filters, site)
        self.targets = targets
        self.effects = effects
        self.optional = optional
        self.text = text
        self.custom = custom
        self.condition = condition
        # Where its source must be for it to trigger: ``in_play``, or ``graveyard`` for an
        # ability that says it works from there (Squee, Goblin Nabob; 2012 112.6). Such
        # abilities live in ``CardDef.zone_triggered``, not ``CardDef.triggered``.
        self.zone = zone
        self.ref: tuple[str | int, ...] = ()


class StaticAbility:
    """A static ability producing a continuous effect or a rule change.

    ``kind``: ``modify_pt`` / ``set_pt`` / ``grant`` (keywords) / ``cda_pt`` / ``no_mana_empty``
    / ``prevent_damage`` / ``redirect_to_enchanted``; ``affects``: ``self``, ``enchanted``,
    ``equipped``, ``creatures_you_control``, ``other_creatures_you_control``, ``all_creatures``,
    ... or a filter. Compiled: ``affected`` (the filter of a group it affects, None for ``self``/
    ``enchanted``/``equipped``), ``per`` and ``count`` (filters of those parameters, or None).
    A ``grant`` may carry ``params["abilities"]``: activated abilities the affected permanents
    have (2007 CR 418.5 layer 5), e.g. Arcane Teachings.
    """

    __slots__ = ("affected", "affects", "count", "kind", "params", "per", "ref", "text")

    def __init__(self, kind: str, affects: str | dict[str, Any] = "self",
                 params: dict[str, Any] | None = None, text: str = "", site: Any = None) -> None:
        from .ability_vocabulary import check_static, compile_affects

        self.kind = kind
        self.affects = affects
        self.params = dict(params or {})
        self.text = text
        self.ref: tuple[str | int, ...] = ()
        compiled = check_static(kind, self.params, site)
        self.affected = compile_affects(affects, self.params, site)
        self.per = compiled.get("per")
        self.count = compiled.get("count")


Ability = ActivatedAbility | TriggeredAbility | StaticAbility
