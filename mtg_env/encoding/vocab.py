"""The card vocabulary and the static card features.

Every Tenth Edition card and token has a stable integer index (for embeddings) in a versioned
vocabulary, plus a fixed-length feature row (cost, colors, types, base power/toughness, keywords,
mana abilities) so plain MLPs generalise across cards.

Indices 0-2 are reserved: ``0`` marks an empty slot, ``1`` a card whose identity the viewer may
not see, ``2`` a card that is not in the vocabulary (a custom card; its feature row still
describes it). Card names follow, in the order of :data:`~mtg_env.encoding._vocab_v1.NAMES_V1`.
A new version may only append names, so indices of a trained model stay valid.

>>> v = vocabulary()
>>> v.version, v.index("Grizzly Bears") == v.index("Grizzly Bears"), v.name(0)
(1, True, '<none>')
>>> v.index("Forest") > 2, v.index("No Such Card")
(True, 2)
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

import numpy as np

from mtg_env.engine.model import CardDef

from ._vocab_v1 import NAMES_V1

VOCAB_VERSION = 1
NONE_ID, HIDDEN_ID, UNKNOWN_ID = 0, 1, 2
RESERVED = ("<none>", "<hidden>", "<unknown>")

# Keyword flags of a card row, in this fixed order (version 1). Keywords the engine learns later
# are counted in ``kw_other`` until a new version lists them.
KEYWORDS_V1: tuple[str, ...] = (
    "flying", "reach", "haste", "vigilance", "defender", "first_strike", "double_strike",
    "trample", "fear", "lifelink", "shroud", "flash", "plainswalk", "islandwalk", "swampwalk",
    "mountainwalk", "forestwalk", "cant_block", "cant_attack", "unblockable", "doesnt_untap",
    "must_attack", "block_any_number", "block_only_flyers", "cant_be_blocked_by_walls",
    "protection_from_white", "protection_from_blue", "protection_from_black",
    "protection_from_red", "protection_from_green", "protection_from_artifacts",
    # Evasion and targeting restrictions: appended, so earlier columns keep their place.
    "unblockable_except_by_flyers", "unblockable_except_by_walls_and_flyers",
    "cant_be_blocked_by_more_than_one", "cant_attack_unless_defender_has_island",
    "untargetable_by_blue_black_spells", "untargetable_by_opponents",
    # Whole-declaration combat legality (Lure, Viashino Runner, Rhox): appended.
    "must_be_blocked_by_all", "unblockable_except_by_two_or_more", "may_assign_as_unblocked",
)
KEYWORD_INDEX = {k: i for i, k in enumerate(KEYWORDS_V1)}
COLORS = "WUBRG"
MANA = "WUBRGC"
CARD_TYPES = ("Artifact", "Creature", "Enchantment", "Instant", "Land", "Sorcery")

# Columns of a full card row (``card_features``), with (low, high) bounds and meaning.
CARD_COLUMNS: tuple[tuple[str, float, float, str], ...] = (
    ("card_id", 0, 65535, "vocabulary index (0 none, 1 hidden, 2 unknown)"),
    ("cost_generic", 0, 99, "generic mana in the cost"),
    *((f"cost_{c}", 0, 99, f"{{{c}}} symbols in the cost") for c in COLORS),
    ("cost_x", 0, 9, "number of {X} in the cost"),
    ("cmc", 0, 99, "converted mana cost"),
    *((f"color_{c}", 0, 1, f"card is {c}") for c in COLORS),
    *((f"type_{t.lower()}", 0, 1, f"card is an {t}" if t[0] in "AEI" else f"card is a {t}")
      for t in CARD_TYPES),
    ("basic", 0, 1, "basic supertype"),
    ("legendary", 0, 1, "legendary supertype"),
    ("aura", 0, 1, "Aura subtype"),
    ("equipment", 0, 1, "Equipment subtype"),
    ("token", 0, 1, "a token"),
    ("base_power", -99, 99, "printed power (0 for * or none)"),
    ("base_toughness", -99, 99, "printed toughness (0 for * or none)"),
    ("pt_star", 0, 1, "power or toughness is * (set by an ability)"),
    *((f"kw_{k}", 0, 1, f"printed keyword {k}") for k in KEYWORDS_V1),
    ("kw_other", 0, 99, "printed keywords not in this version's list"),
    *((f"makes_{c}", 0, 1, f"has a mana ability that adds {c}") for c in MANA),
    ("n_activated", 0, 99, "activated abilities other than mana abilities"),
    ("n_triggered", 0, 99, "triggered abilities"),
    ("n_static", 0, 99, "static abilities"),
)
CARD_WIDTH = len(CARD_COLUMNS)

# Columns of a compact card row (graveyards, removed cards, revealed cards).
SMALL_COLUMNS: tuple[tuple[str, float, float, str], ...] = (
    ("card_id", 0, 65535, "vocabulary index"),
    ("cmc", 0, 99, "converted mana cost"),
    *((f"color_{c}", 0, 1, f"card is {c}") for c in COLORS),
    *((f"type_{t.lower()}", 0, 1, f"card type {t}") for t in CARD_TYPES),
    ("base_power", -99, 99, "printed power"),
    ("base_toughness", -99, 99, "printed toughness"),
)
SMALL_WIDTH = len(SMALL_COLUMNS)
_SMALL_FROM_FULL = [
    [c[0] for c in CARD_COLUMNS].index(name) for name, *_ in SMALL_COLUMNS
]


class Vocabulary:
    """Card name <-> index, one version. Use :func:`vocabulary` for the shared instance."""

    def __init__(self, names: tuple[str, ...], version: int) -> None:
        self.version = version
        self.names: tuple[str, ...] = RESERVED + names
        self._index = {n: i for i, n in enumerate(self.names)}

    def __len__(self) -> int:
        return len(self.names)

    def index(self, name: str) -> int:
        """The index of a card or token name; :data:`UNKNOWN_ID` for a name not in this version."""
        return self._index.get(name, UNKNOWN_ID)

    def name(self, index: int) -> str:
        return self.names[index]

    def signature(self) -> str:
        """A short hash of the names in index order (what a trained card embedding depends on)."""
        import hashlib

        return hashlib.sha256("\n".join(self.names).encode()).hexdigest()[:16]

    def feature_table(self) -> np.ndarray:
        """``(len(self), CARD_WIDTH)`` float32 feature rows of every entry (reserved rows zero
        except their id), e.g. to initialise an embedding table."""
        return _feature_table(self.version)


@cache
def vocabulary(version: int = VOCAB_VERSION) -> Vocabulary:
    """The card vocabulary of a version (only version 1 exists)."""
    if version != 1:
        raise ValueError(f"unknown card vocabulary version {version}; known: 1")
    return Vocabulary(NAMES_V1, 1)


_TOKEN_SUFFIX = " Token"


def card_index(cdef: CardDef) -> int:
    """The vocabulary index of a card definition (tokens are registered as ``"<Name> Token"``)."""
    v = vocabulary()
    i = v.index(cdef.name)
    if i == UNKNOWN_ID and cdef.is_token and not cdef.name.endswith(_TOKEN_SUFFIX):
        i = v.index(cdef.name + _TOKEN_SUFFIX)
    return i


def _pt_value(v: int | str | None) -> tuple[int, bool]:
    if isinstance(v, int):
        return v, False
    return 0, v is not None


def _keyword_counts(keywords: frozenset[str]) -> tuple[list[int], int]:
    flags = [0] * len(KEYWORDS_V1)
    other = 0
    for k in keywords:
        i = KEYWORD_INDEX.get(k)
        if i is None:
            other += 1
        else:
            flags[i] = 1
    return flags, other


def card_row(cdef: CardDef) -> list[float]:
    """The full feature row of a card definition (see :data:`CARD_COLUMNS`)."""
    cost = cdef.cost
    power, star_p = _pt_value(cdef.power)
    tough, star_t = _pt_value(cdef.toughness)
    kw, other = _keyword_counts(cdef.keywords)
    makes = [0] * 6
    n_act = 0
    for ab in cdef.activated:
        if ab.mana is None:
            n_act += 1
        else:
            for c in "".join(ab.mana):  # an entry may add several symbols ("WUBRG") or none
                makes[MANA.index(c)] = 1
    subtypes = set(cdef.subtypes)
    row: list[float] = [
        card_index(cdef), cost.generic, *cost.colored, cost.x, cost.generic + sum(cost.colored),
        *(1 if c in cdef.colors else 0 for c in COLORS),
        *(1 if t in cdef.types else 0 for t in CARD_TYPES),
        int("Basic" in cdef.supertypes), int("Legendary" in cdef.supertypes),
        int("Aura" in subtypes), int("Equipment" in subtypes), int(cdef.is_token),
        power, tough, int(star_p or star_t), *kw, other, *makes,
        n_act, len(cdef.triggered), len(cdef.static),
    ]
    return row


def small_row(full: list[float] | np.ndarray) -> list[float]:
    """The compact row (see :data:`SMALL_COLUMNS`) taken from a full row."""
    return [full[i] for i in _SMALL_FROM_FULL]


_LINE_KEYWORD = re.compile(r"\([^)]*\)")


def printed_keywords(text: str) -> frozenset[str]:
    """Keywords on a card's printed keyword lines ("Defender, flying (reminder)")."""
    out = set()
    for line in (text or "").splitlines():
        parts = [p.strip().lower().replace(" ", "_").replace("-", "_")
                 for p in _LINE_KEYWORD.sub("", line).split(",")]
        if parts and all(p in KEYWORD_INDEX for p in parts):
            out.update(parts)
    return frozenset(out)


@lru_cache(maxsize=4)
def _feature_table(version: int) -> np.ndarray:
    from mtg_env.cards.loader import load_facts
    from mtg_env.engine.mana_cost import ManaCost
    from mtg_env.engine.registry import all_cards

    v = vocabulary(version)
    implemented = all_cards()
    facts = load_facts()
    allfacts = {**facts["cards"], **facts["tokens"]}
    table = np.zeros((len(v), CARD_WIDTH), np.float32)
    for i, rid in enumerate((NONE_ID, HIDDEN_ID, UNKNOWN_ID)):
        table[i, 0] = rid
    for i, name in enumerate(v.names[len(RESERVED):], start=len(RESERVED)):
        cdef = implemented.get(name)
        if cdef is None:
            f = allfacts[name]
            cdef = CardDef(
                name=name, cost=ManaCost.parse(f.get("mana_cost") or ""),
                colors=frozenset(f.get("colors") or ()), types=frozenset(f.get("types") or ()),
                supertypes=frozenset(f.get("supertypes") or ()),
                subtypes=tuple(f.get("subtypes") or ()),
                power=_parse_pt(f.get("power")), toughness=_parse_pt(f.get("toughness")),
                text=f.get("text") or "", keywords=printed_keywords(f.get("text") or ""),
                is_token=bool(f.get("token")), implemented=False)
        row = card_row(cdef)
        row[0] = i
        table[i] = row
    table.setflags(write=False)
    return table


def _parse_pt(v: str | None) -> int | str | None:
    if v is None:
        return None
    return int(v) if v.lstrip("-").isdigit() else v


class CardRows:
    """Cache of feature rows per card definition (float32 arrays, read-only)."""

    def __init__(self) -> None:
        self._full: dict[int, tuple[CardDef, np.ndarray, tuple]] = {}
        self._hand: dict[int, tuple[CardDef, np.ndarray]] = {}

    def full(self, cdef: CardDef) -> np.ndarray:
        hit = self._full.get(id(cdef))
        if hit is None or hit[0] is not cdef:
            hit = self._add(cdef)
        return hit[1]

    def hand(self, cdef: CardDef) -> np.ndarray:
        """A known card's hand row: present, known, the full row, not chosen."""
        hit = self._hand.get(id(cdef))
        if hit is None or hit[0] is not cdef:
            row = np.concatenate(([1, 1], self.full(cdef), [0])).astype(np.float32)
            hit = self._hand[id(cdef)] = (cdef, row)
        return hit[1]

    def small(self, cdef: CardDef) -> tuple[float, ...]:
        hit = self._full.get(id(cdef))
        if hit is None or hit[0] is not cdef:
            hit = self._add(cdef)
        return hit[2]

    def _add(self, cdef: CardDef) -> tuple[CardDef, np.ndarray, tuple]:
        row = card_row(cdef)
        arr = np.asarray(row, np.float32)
        arr.setflags(write=False)
        hit = (cdef, arr, tuple(small_row(row)))
        self._full[id(cdef)] = hit
        return hit


__all__ = [
    "CARD_COLUMNS", "CARD_WIDTH", "HIDDEN_ID", "KEYWORDS_V1", "NONE_ID", "SMALL_COLUMNS",
    "SMALL_WIDTH", "UNKNOWN_ID", "VOCAB_VERSION", "CardRows", "Vocabulary", "card_index",
    "card_row", "printed_keywords", "vocabulary",
]
