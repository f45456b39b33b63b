"""Rule checks that read only an object's characteristics, so they work on a
:class:`~mtg_env.engine.model.Permanent` and on a player's
:class:`~mtg_env.engine.view.PermanentView` alike (agents predict blocks and mana with them):
protection (2012 702.15), what an Aura can enchant (2007 CR 212.4; 2012 303.4f), evasion and
blocking restrictions (2007 CR 502), targeting restrictions, text-changed words, {T} mana
abilities."""

from __future__ import annotations

from collections.abc import Container, Iterable
from typing import TYPE_CHECKING, Any

from .continuous_effects import TextChange
from .model import LANDWALK

if TYPE_CHECKING:
    from .model import CardDef

PROTECTION = {"W": "protection_from_white", "U": "protection_from_blue",
              "B": "protection_from_black", "R": "protection_from_red",
              "G": "protection_from_green"}


def protected_from(p: Any, colors: Iterable[str]) -> bool:
    """Does ``p`` have protection from any of ``colors`` (2012 702.15)?"""
    kw = p.keywords
    return bool(kw) and any(PROTECTION[c] in kw for c in colors if c in PROTECTION)


def aura_can_enchant(cdef: CardDef, host: Any, controller: int) -> bool:
    """Could an Aura card come into play attached to ``host`` under ``controller``'s control
    (its enchant restriction, protection; not shroud: nothing targets)?"""
    spec = cdef.enchant
    if spec is None or spec.perm is None or protected_from(host, cdef.colors):
        return False
    return spec.perm.test(host, controller)


def block_allowed(blocker: Any, attacker: Any, permanents: Iterable[Any],
                  defenders: Container[int] | None = None) -> bool:
    """Could ``blocker`` block ``attacker`` under the restrictions and evasion abilities
    (2007 CR 502: flying/reach, fear, landwalk, unblockable, protection, "can block only
    creatures with flying", "can't block", "can't be blocked except by ...", "can't be blocked
    by Walls"), ignoring what it already blocks and the other blocks declared with it?
    ``permanents`` is every permanent in play (for landwalk); ``defenders``, the players whose
    lands landwalk looks at: the blocker's controller by default, the defending team in
    Two-Headed Giant (2012 810.7d)."""
    bkw = blocker.keywords
    if "Creature" not in blocker.types or blocker.tapped or "cant_block" in bkw:
        return False
    kw = attacker.keywords
    if "unblockable" in kw:
        return False
    if "block_only_flyers" in bkw and "flying" not in kw:
        return False
    if "flying" in kw and not ({"flying", "reach"} & bkw):
        return False
    # "can't be blocked except by creatures with flying" (Treetop Bracers; reach is not flying)
    # / "... except by Walls and/or creatures with flying" (Elven Riders).
    if "unblockable_except_by_flyers" in kw and "flying" not in bkw:
        return False
    if ("unblockable_except_by_walls_and_flyers" in kw and "flying" not in bkw
            and "Wall" not in blocker.subtypes):
        return False
    if "fear" in kw and not ("Artifact" in blocker.types or "B" in blocker.colors):
        return False
    for walk, land in LANDWALK.items():
        if walk in kw and any(land in q.subtypes and (
                q.controller == blocker.controller if defenders is None
                else q.controller in defenders) for q in permanents):
            return False
    if protected_from(attacker, blocker.colors):
        return False
    return not ("cant_be_blocked_by_walls" in kw and "Wall" in blocker.subtypes)


def text_words(g: Any, pid: int, words: tuple[str, ...]) -> tuple[str, ...]:
    """``words`` (color letters or basic land types) as they read in permanent ``pid``'s text
    after its text-changing effects (2007 CR 418.5 layer 3, 2012 612; Mind Bend), applied in
    timestamp order: for the keywords that name their words in their own name ("can't attack
    unless defending player controls an Island", "can't be the target of blue or black
    spells"), whose word is not a separate field of the card data. ``g``: a game, or None
    (a view: the printed words)."""
    effects = getattr(g, "effects", None)
    if not effects:
        return words
    out = list(words)
    for e in effects:
        if isinstance(e, TextChange) and e.pid == pid:
            out = [e.to_word if w == e.from_word else w for w in out]
    return tuple(out)


def targeting_forbidden(p: Any, pl: int, spell_colors: Iterable[str] | None,
                        g: Any = None) -> bool:
    """Do ``p``'s own restrictions stop it being targeted by a spell or ability controlled by
    ``pl`` (``spell_colors``: the colors of a spell, None for an ability)? "Can't be the target
    of spells or abilities your opponents control" (Troll Ascetic), "can't be the target of
    blue or black spells" (Karplusan Strider; its color words follow a text change when ``g``,
    the game, is given). Shroud and protection are checked by the caller."""
    kw = p.keywords
    if "untargetable_by_opponents" in kw and pl != p.controller:
        return True
    if "untargetable_by_blue_black_spells" in kw and spell_colors is not None:
        colors = text_words(g, p.id, ("U", "B"))
        return any(c in spell_colors for c in colors)
    return False


def tap_mana_ability(p: Any, once_untapped: bool = False) -> Any | None:
    """The first mana ability of ``p`` whose whole cost is {T}, if ``p`` could play it now
    (untapped, or ``once_untapped``; a creature needs haste or to have been controlled since the
    turn began). Reads the abilities ``p`` has now (printed, copied or granted)."""
    if p.tapped and not once_untapped:
        return None
    for ab in p.activated:
        if ab.mana is not None and ab.tap_only:
            if "Creature" in p.types and p.sick and "haste" not in p.keywords:
                return None
            return ab
    return None
