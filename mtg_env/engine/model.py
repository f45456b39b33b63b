"""Card definitions and the game objects built from them.

A :class:`CardDef` is immutable rules data shared by every game. A :class:`Card` is one physical
card (or token) in one game: also immutable, so the hidden zones copy as lists of references.
A :class:`Permanent` is the mutable object a card becomes when it comes into play; under the
2007 rules (CR 217.1c) an object that changes zones is a new object, so a permanent gets a new
id every time it comes into play. :class:`StackItem` is a spell, ability or combat damage;
:class:`Player` one player's state and zones (217: hand, library, graveyard, removed from the
game). Also here: the colors, mana symbols, basic land types and keywords of the card data, and
:class:`ManaCost` (203.3b: X counts as 0). A card's abilities, targets and costs are in
:mod:`mtg_env.engine.abilities`; :func:`set_ability_refs` gives those of a :class:`CardDef` their
references.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .mana_cost import ManaCost
from .stack_data import StackData

if TYPE_CHECKING:
    from .abilities import Ability, ActivatedAbility, Cost, StaticAbility, TargetSpec, TriggeredAbility

COLORS = "WUBRG"
COLOR_NAMES = {"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green"}
MANA_SYMBOLS = "WUBRGC"  # pool slots; C = colorless
BASIC_LAND_TYPES = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}

KEYWORDS = frozenset(
    {
        "flying", "reach", "haste", "vigilance", "defender", "first_strike", "double_strike",
        "trample", "fear", "lifelink", "shroud", "flash", "plainswalk", "islandwalk",
        "swampwalk", "mountainwalk", "forestwalk", "cant_block", "unblockable",
        "protection_from_white", "protection_from_blue", "protection_from_black",
        "protection_from_red", "protection_from_green", "protection_from_artifacts",
        "cant_attack", "must_attack", "block_only_flyers", "doesnt_untap", "block_any_number",
        # Evasion, blocking, attacking and targeting restrictions (2007 CR 502; Juggernaut,
        # Treetop Bracers, Elven Riders, Stalking Tiger, Sea Monster, Karplusan Strider,
        # Troll Ascetic).
        "cant_be_blocked_by_walls", "unblockable_except_by_flyers",
        "unblockable_except_by_walls_and_flyers", "cant_be_blocked_by_more_than_one",
        "cant_attack_unless_defender_has_island", "untargetable_by_blue_black_spells",
        "untargetable_by_opponents",
        # Whole-declaration blocking rules (2012 509.1b-c: Lure, Viashino Runner) and "assign
        # its combat damage as though it weren't blocked" (2012 510.1c: Rhox).
        "must_be_blocked_by_all", "unblockable_except_by_two_or_more", "may_assign_as_unblocked",
    }
)
LANDWALK = {
    "plainswalk": "Plains", "islandwalk": "Island", "swampwalk": "Swamp",
    "mountainwalk": "Mountain", "forestwalk": "Forest",
}

def set_ability_refs(cdef: CardDef, key: str | None = None) -> None:
    """Give every ability a card defines its serialisable reference: ``(card name, kind, index)``,
    or for an ability granted by a static ability ``(card name, "static", i, "activated", j)``,
    or by an effect of an activated ability ``(card name, "activated", i, "effects", k, j)``.
    Stack objects and permanents hold the ability object itself; JSON stores this reference
    (resolved on load by :func:`mtg_env.engine.registry.ability_by_ref`). ``key``: the name
    to use instead of the card's (a text-changed card's abilities, ``registry.text_key``); with
    it every reference is set again."""
    name = key or cdef.name
    for kind in ("activated", "triggered", "static", "zone_triggered"):
        for i, ab in enumerate(getattr(cdef, kind)):
            if not ab.ref or key:
                ab.ref = (name, kind, i)
            if kind == "static":
                for j, g in enumerate(ab.params.get("abilities", ())):
                    if not g.ref or key:
                        g.ref = (name, "static", i, "activated", j)
            elif kind == "activated":
                for k, spec in enumerate(ab.effects):
                    args = getattr(spec, "args", None)
                    for j, g in enumerate(getattr(args, "abilities", None) or ()):
                        if not g.ref or key:
                            g.ref = (name, "activated", i, "effects", k, j)


def tap_mana_of(abilities: tuple[ActivatedAbility, ...]) -> tuple[int, str, str] | None:
    """``(index of the first, every color made by all, the colors made only with a side
    effect)`` of the mana abilities in ``abilities`` whose whole cost is {T}, or None: what the
    automatic payer can tap the object for (a painland: ``(i, "CWU", "WU")``). Abilities adding
    several mana at once are left to the player."""
    first = -1
    colors = ""
    free = ""
    for i, ab in enumerate(abilities):
        if ab.mana is not None and ab.tap_only and ab.mana_amount == 1 and all(
                len(c) == 1 for c in ab.mana):
            if first < 0:
                first = i
            colors += "".join(c for c in ab.mana if c not in colors)
            if not ab.effects:
                free += "".join(c for c in ab.mana if c not in free)
    if first < 0:
        return None
    return first, colors, "".join(c for c in colors if c not in free)


class CardDef:
    """Immutable rules data for one card name."""

    __slots__ = (
        "__weakref__",
        "activated",
        "additional_cost",
        "colors",
        "cost",
        "enchant",
        "equip",
        "implemented",
        "instant_speed",
        "is_land",
        "is_token",
        "keywords",
        "mana_colors",
        "modes",
        "name",
        "power",
        "rarity",
        "spell_custom",
        "spell_effects",
        "spell_targets",
        "static",
        "subtypes",
        "supertypes",
        "tap_mana",
        "text",
        "toughness",
        "triggered",
        "types",
        "x_color",
        "x_spell",
        "zone_triggered",
    )

    def __init__(self, name: str, cost: ManaCost, colors: frozenset[str], types: frozenset[str],
                 supertypes: frozenset[str] = frozenset(), subtypes: tuple[str, ...] = (),
                 power: int | str | None = None, toughness: int | str | None = None,
                 text: str = "", rarity: str = "", keywords: frozenset[str] = frozenset(),
                 spell_targets: tuple[TargetSpec, ...] = (), spell_effects: tuple[dict[str, Any], ...] = (),
                 activated: tuple[ActivatedAbility, ...] = (),
                 triggered: tuple[TriggeredAbility, ...] = (),
                 static: tuple[StaticAbility, ...] = (), enchant: TargetSpec | None = None,
                 equip: ManaCost | None = None, is_token: bool = False,
                 modes: tuple[dict[str, Any], ...] = (), spell_custom: str | None = None,
                 additional_cost: Cost | None = None, implemented: bool = True,
                 x_color: str | None = None,
                 zone_triggered: tuple[TriggeredAbility, ...] = ()) -> None:
        self.name = name
        self.cost = cost
        self.colors = colors
        self.types = types
        self.supertypes = supertypes
        self.subtypes = subtypes
        self.power = power
        self.toughness = toughness
        self.text = text
        self.rarity = rarity
        self.keywords = keywords
        self.spell_targets = spell_targets
        self.spell_effects = spell_effects
        self.activated = activated
        self.triggered = triggered
        self.static = static
        self.enchant = enchant
        self.equip = equip
        self.is_token = is_token
        self.modes = modes
        self.spell_custom = spell_custom
        self.additional_cost = additional_cost
        self.implemented = implemented
        self.x_spell = cost.x > 0
        self.x_color = x_color  # "Spend only black mana on X" (Consume Spirit)
        # Triggered abilities that work only while the card is in a graveyard (2012 112.6).
        self.zone_triggered = zone_triggered
        self.is_land = "Land" in types
        self.instant_speed = "Instant" in types or "flash" in keywords
        self.mana_colors = tuple(c for a in activated if a.mana for c in a.mana)
        self.tap_mana = tap_mana_of(activated)
        set_ability_refs(self)

    def __reduce_ex__(self, protocol: Any) -> Any:
        # Compiled card language (filters, references) holds generated functions: a registered
        # card pickles as its name, like the JSON format stores it.
        from .registry import card_key, registered

        if registered(self):
            return (_registered_card, (self.name,))
        if self.is_token:  # a token of other colors (registry.token_def)
            return (_registered_card, (card_key(self),))
        return super().__reduce_ex__(protocol)

    @property
    def is_permanent_card(self) -> bool:
        return not ({"Instant", "Sorcery"} & self.types)

    def __repr__(self) -> str:
        return f"<CardDef {self.name}>"


def _registered_card(name: str) -> CardDef:
    from .registry import card_for_key

    return card_for_key(name)


class Card:
    """One physical card (or token) in one game. Immutable; zones hold references to it."""

    __slots__ = ("cdef", "cid", "label", "owner")

    def __init__(self, cid: int, cdef: CardDef, owner: int, label: str) -> None:
        self.cid = cid
        self.cdef = cdef
        self.owner = owner
        self.label = label

    @property
    def name(self) -> str:
        return self.cdef.name

    @property
    def is_token(self) -> bool:
        return self.cdef.is_token

    def __repr__(self) -> str:
        return f"<Card {self.label} of P{self.owner}>"


class PermanentTraits:
    """What a permanent and a player's view of one (``view.PermanentView``) answer alike."""

    __slots__ = ()
    card: Card
    types: frozenset[str]
    keywords: frozenset[str]

    @property
    def label(self) -> str:
        return self.card.label

    @property
    def is_creature(self) -> bool:
        return "Creature" in self.types

    @property
    def is_land(self) -> bool:
        return "Land" in self.types

    def has(self, keyword: str) -> bool:
        return keyword in self.keywords


class Permanent(PermanentTraits):
    """A permanent in play. Characteristic fields (power, keywords, controller...) are the
    values after every continuous effect (CR 418.5) and are refreshed by the game.

    Its abilities are characteristics too (2007 CR 418.5, layers 1 and 5): ``activated``,
    ``triggered`` and ``static`` are the tuples of ability objects it has now. Without an effect
    on them they are its card's own tuples (shared, not copied). ``base`` is the card definition
    of its copiable values (its card's, or the copied card's under a copy effect, layer 1)."""

    __slots__ = (
        "activated",
        "attached_to",
        "attacking",
        "base",
        "base_controller",
        "blocked",
        "blockers",
        "blocking",
        "cant_regen",
        "card",
        "chosen",
        "colors",
        "controller",
        "counters",
        "damage",
        "id",
        "keywords",
        "name",
        "owner",
        "power",
        "regen_shields",
        "sick",
        "static",
        "struck_first",
        "subtypes",
        "supertypes",
        "tapped",
        "timestamp",
        "toughness",
        "triggered",
        "types",
        "used_this_turn",
    )

    def __init__(self, pid: int = 0, card: Card | None = None, controller: int = 0,
                 timestamp: int = 0) -> None:
        if card is None:
            return  # Permanent(): a blank that clone() fills (a compiled class has no __new__ trick)
        cdef = card.cdef
        self.id = pid
        self.card = card
        self.owner = card.owner
        self.base_controller = controller
        self.tapped = False
        self.damage = 0
        self.counters: dict[str, int] = {}
        self.attached_to: int | None = None
        self.sick = True
        self.timestamp = timestamp
        # How many regeneration shields of game.replacements protect it (kept in step by
        # mtg_env/engine/replacement.py for views and the observation; the list is the truth).
        self.regen_shields = 0
        self.cant_regen = False
        self.attacking = False
        self.blocking: list[int] = []
        self.blocked = False
        self.blockers: list[int] = []
        self.struck_first = False
        self.used_this_turn: dict[int, int] = {}
        # "As [this] comes into play, choose ..." (2012 614.12): {"color": "R"} or {"name": ...};
        # replaced, never changed in place (copies share it). Not a copiable value (2012 706.6).
        self.chosen: dict[str, str] | None = None
        self.controller = controller
        self.set_printed(cdef)
        self.supertypes = cdef.supertypes
        self.name = cdef.name
        self.base = cdef
        self.activated = cdef.activated
        self.triggered = cdef.triggered
        self.static = cdef.static

    def set_printed(self, cdef: CardDef) -> None:
        """Power, toughness, keywords, colors, types and subtypes as ``cdef`` gives them (where
        the layers start, 2007 CR 418.5; a ``*`` is 0 until its layer sets it)."""
        self.power = cdef.power if isinstance(cdef.power, int) else 0
        self.toughness = cdef.toughness if isinstance(cdef.toughness, int) else 0
        self.keywords = cdef.keywords
        self.colors = cdef.colors
        self.types = cdef.types
        self.subtypes = cdef.subtypes

    def clone(self) -> Permanent:
        p = Permanent()
        p.id = self.id
        p.card = self.card
        p.owner = self.owner
        p.base_controller = self.base_controller
        p.tapped = self.tapped
        p.damage = self.damage
        p.counters = dict(self.counters) if self.counters else {}
        p.attached_to = self.attached_to
        p.sick = self.sick
        p.timestamp = self.timestamp
        p.regen_shields = self.regen_shields
        p.cant_regen = self.cant_regen
        p.attacking = self.attacking
        p.blocking = list(self.blocking) if self.blocking else []
        p.blocked = self.blocked
        p.blockers = list(self.blockers) if self.blockers else []
        p.struck_first = self.struck_first
        p.used_this_turn = dict(self.used_this_turn) if self.used_this_turn else {}
        p.chosen = self.chosen
        p.controller = self.controller
        p.power = self.power
        p.toughness = self.toughness
        p.keywords = self.keywords
        p.colors = self.colors
        p.types = self.types
        p.subtypes = self.subtypes
        p.supertypes = self.supertypes
        p.name = self.name
        p.base = self.base
        p.activated = self.activated
        p.triggered = self.triggered
        p.static = self.static
        return p

    @property
    def cdef(self) -> CardDef:
        """The card definition of its copiable values: its card's, or under a copy effect the
        copied object's (2007 CR 418.5 layer 1)."""
        return self.base

    @property
    def summoning_sick(self) -> bool:
        """True unless its controller has controlled it continuously since their latest turn
        began (CR 212.3d). Haste is separate: see ``can_tap_for_cost``."""
        return self.sick

    def __repr__(self) -> str:
        extra = f" {self.power}/{self.toughness}" if self.is_creature else ""
        return f"<Permanent {self.card.label}{extra} P{self.controller}{' T' if self.tapped else ''}>"


class StackItem:
    """A spell, activated or triggered ability, or the combat damage of one step (2007 CR 310)."""

    __slots__ = (
        "ability",
        "ability_def",
        "card",
        "controller",
        "data",
        "id",
        "kind",
        "label",
        "mode",
        "source",
        "source_name",
        "targets",
        "x",
    )

    def __init__(self, sid: int = -1, kind: str = "", controller: int = 0, card: Card | None = None,
                 source: int | None = None, source_name: str = "", ability: int = -1,
                 targets: list[Any] | None = None, x: int = 0, mode: int = -1,
                 data: StackData | None = None, label: str = "",
                 ability_def: Ability | None = None) -> None:
        if sid < 0:
            return  # StackItem(): a blank that clone() fills
        self.id = sid
        self.kind = kind  # spell | activated | triggered | combat_damage
        self.controller = controller
        self.card = card
        self.source = source  # permanent id of the source (abilities)
        self.source_name = source_name
        self.ability = ability  # index into the source's ability list when it was played
        # The ability itself (immutable, shared): a stack object is independent of its source
        # (2007 CR 410/412), so it never looks its ability up again.
        self.ability_def = ability_def
        self.targets = targets if targets is not None else []
        self.x = x
        self.mode = mode
        self.data = data if data is not None else StackData()
        self.label = label

    def clone(self) -> StackItem:
        s = StackItem()
        s.id = self.id
        s.kind = self.kind
        s.controller = self.controller
        s.card = self.card
        s.source = self.source
        s.source_name = self.source_name
        s.ability = self.ability
        s.ability_def = self.ability_def
        s.targets = list(self.targets)
        s.x = self.x
        s.mode = self.mode
        s.data = self.data.copy()
        s.label = self.label
        return s

    @property
    def name(self) -> str:
        if self.kind == "spell" and self.card is not None:
            return self.card.name
        if self.kind == "combat_damage":
            return "combat damage"
        return f"{self.source_name} ability"

    def __repr__(self) -> str:
        return f"<StackItem {self.kind} {self.label}>"


class Player:
    """One player's public and private state."""

    __slots__ = (
        "conceded",
        "damage_taken_this_turn",
        "drew_from_empty",
        "graveyard",
        "hand",
        "index",
        "lands_played",
        "library",
        "life",
        "life_lost_this_turn",
        "lost",
        "mana_pool",
        "mulligans",
        "poison",
        "removed",
        "spells_played_this_turn",
    )

    def __init__(self, index: int = -1) -> None:
        if index < 0:
            return  # Player(): a blank that clone() fills
        self.index = index
        self.life = 20
        self.poison = 0
        self.mana_pool = [0, 0, 0, 0, 0, 0]
        self.hand: list[Card] = []
        self.library: list[Card] = []  # index 0 is the top
        self.graveyard: list[Card] = []  # last item is the top
        self.removed: list[Card] = []
        self.lands_played = 0
        self.drew_from_empty = False
        self.mulligans = 0
        self.lost = False  # lost and left a multiplayer game that goes on (2012 800.4)
        self.conceded = False
        self.life_lost_this_turn = 0
        self.damage_taken_this_turn = 0
        self.spells_played_this_turn = 0  # Rule of Law counts the whole turn

    def clone(self) -> Player:
        p = Player()
        p.index = self.index
        p.life = self.life
        p.poison = self.poison
        p.mana_pool = list(self.mana_pool)
        p.hand = list(self.hand)
        p.library = list(self.library)
        p.graveyard = list(self.graveyard)
        p.removed = list(self.removed)
        p.lands_played = self.lands_played
        p.drew_from_empty = self.drew_from_empty
        p.mulligans = self.mulligans
        p.lost = self.lost
        p.conceded = self.conceded
        p.life_lost_this_turn = self.life_lost_this_turn
        p.damage_taken_this_turn = self.damage_taken_this_turn
        p.spells_played_this_turn = self.spells_played_this_turn
        return p

    def pool_total(self) -> int:
        return sum(self.mana_pool)

    def pool_text(self) -> str:
        return "".join(s * n for s, n in zip(MANA_SYMBOLS, self.mana_pool)) or "-"

    def __repr__(self) -> str:
        return f"<Player {self.index} life={self.life} hand={len(self.hand)} library={len(self.library)}>"
