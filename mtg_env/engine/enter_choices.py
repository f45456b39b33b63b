""""As [this] comes into play, choose ..." (Voice of All, Story Circle: a color; Pithing Needle:
name a card).

2012 614.1c and 614.12: "As [this permanent] comes into play ..." is a replacement effect that
applies *before* the permanent comes into play: the choice is made first, then it comes into play
with it (2012 607.2 / 706.7a: the ability that refers to "the chosen color" is linked to it). The
choice is not a copiable value: a permanent coming into play as a copy of one makes its own
choice (2012 706.6, Clone copying Voice of All). The 2007 glossary ("Color"): a chosen color is
one of the five colors, never colorless.

A card declares its choices with the static ability ``choose_as_enters`` (``choice: color`` or
``choice: name``). The choice is stored on the permanent (``Permanent.chosen``, ``{"color": "R"}``
or ``{"name": "Prodigal Sorcerer"}``; JSON-serialised with it, checked on load by
:mod:`mtg_env.engine.loaded_state_checkers`) and read by the abilities linked to it: the
``protection_from_chosen_color`` static (layer 5, :mod:`mtg_env.engine.layers`), the
``prevent_next_from_chosen_source`` op and the ``chosen_name_abilities_cant_be_played`` static
(collected by the layer pass into ``game.rule_mods``, read where activated abilities are offered,
:mod:`mtg_env.engine.priority`). A name is any card name the engine knows, never a token's.

**Where the choice is asked.** A permanent spell's controller chooses as the spell resolves,
before it leaves the stack (:func:`ask_enter_choices`, called by the resolution frame, after
Clone's copy choice so a copy chooses for the copied card). A permanent put into play by an
effect (returned from a graveyard, put from a hand) is created, the ``enter_choice`` frame asks
its controller at once and only then is its comes-into-play event sent: nothing can happen in
between (no player gets priority, no trigger is put on the stack), so the choice is in place
before anything can see the permanent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import stack as stack_rules
from .actions import Action, DecisionKind
from .frames_effects import EnterChoiceFrame
from .layers import mark_dirty
from .model import COLORS
from .triggers import report_event

if TYPE_CHECKING:
    from .game import Game

# choice kind -> its decision kind and the word of the prompt.
CHOICE_KINDS: dict[str, tuple[DecisionKind, str]] = {
    "color": (DecisionKind.CHOOSE_COLOR, "choose a color"),
    "name": (DecisionKind.CHOOSE_CARD_NAME, "name a card"),
}
COLOR_WORDS = {"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green"}
_cache: dict[int, tuple[Any, tuple[str, ...]]] = {}


def choices_of(cdef: Any) -> tuple[str, ...]:
    """The "as it comes into play" choices of a card definition, in text order (cached)."""
    st = cdef.static
    if not st:
        return ()
    key = id(cdef)
    hit = _cache.get(key)
    if hit is None or hit[0] is not cdef:
        hit = (cdef, tuple(s.params["choice"] for s in st if s.kind == "choose_as_enters"))
        _cache[key] = hit
    return hit[1]


def card_names() -> tuple[str, ...]:
    """Every name a "name a card" choice may take, sorted: the card names the engine knows (its
    registry, implemented or not), never a token's (the Pithing Needle ruling: "You can't name
    a token unless that token has the same name as a card")."""
    from .registry import all_cards, known_unimplemented

    cards = all_cards()
    key = (len(cards), len(known_unimplemented()))
    hit = _names_cache.get("names")
    if hit is None or hit[0] != key:
        names = {n for n, c in cards.items() if not c.is_token} | known_unimplemented()
        hit = (key, tuple(sorted(names)),)
        _names_cache["names"] = hit
        _names_cache.pop("options", None)
    return hit[1]


_names_cache: dict[str, Any] = {}


def valid_choice(kind: str, value: Any) -> bool:
    """Is ``value`` a legal answer to a choice of ``kind``?"""
    if kind == "color":  # one color letter ("WU" and "" are substrings of COLORS, not colors)
        return type(value) is str and len(value) == 1 and value in COLORS
    if kind == "name":
        return type(value) is str and value in card_names()
    return False


def choice_options(kind: str) -> list[Action]:
    """Every legal option of a choice of ``kind``: the five colors (2007 glossary "Color"), or
    every card name (:func:`card_names`, one option each, built once)."""
    if kind == "color":
        return [Action("color", f"choose {COLOR_WORDS[c]}", (c,)) for c in COLORS]
    if kind == "name":
        names = card_names()
        opts = _names_cache.get("options")
        if opts is None:
            opts = _names_cache["options"] = [Action("name", f"name {n}", (n,)) for n in names]
        return list(opts)
    raise ValueError(f"unknown choice kind {kind!r}")


def chosen_name(g: Game, pid: int | None) -> str | None:
    """The card name chosen for permanent ``pid`` as it came into play (Pithing Needle)."""
    p = g.perms.get(pid) if pid is not None else None
    return (p.chosen or {}).get("name") if p is not None else None


def chosen_color(g: Game, pid: int | None, item: Any = None) -> str | None:
    """The color chosen for permanent ``pid``, or the one recorded on ``item`` (a stack object
    of its ability) when the permanent has left play: its last known information."""
    p = g.perms.get(pid) if pid is not None else None
    if p is not None:
        return (p.chosen or {}).get("color")
    if item is not None:
        return (item.data.chosen or {}).get("color")
    return None


def ask_enter_choices(g: Game, item: Any) -> bool:
    """A resolving permanent spell: push the frame of its "as it comes into play" choices
    (those of the card it will copy, if any); True if there is one."""
    cdef = item.card.cdef
    pid = item.data.copy_of
    if pid is not None and pid in g.perms:
        cdef = g.perms[pid].cdef
    kinds = choices_of(cdef)
    item.data.chosen = None
    if not kinds:
        return False
    g.frames.append(EnterChoiceFrame(item.controller, list(kinds), {}, item.id, None,
                                        item.label))
    return True


def defer_enter_choices(g: Game, perm: Any, kinds: tuple[str, ...], etb: dict[str, Any]) -> None:
    """A permanent put into play by an effect: ask now; ``etb`` is its comes-into-play
    event's data, sent once the choice is made."""
    g.frames.append(EnterChoiceFrame(perm.controller, list(kinds), {}, None, perm.id,
                                        perm.card.label, etb))


def run_enter_choice(g: Game, f: EnterChoiceFrame) -> None:
    kind = f.kinds[len(f.chosen)]
    dk, word = CHOICE_KINDS[kind]
    g.ask(f.player, dk, choice_options(kind), f"{f.label}: as it comes into play, {word}",
              {"stack_id": f.item_id, "pid": f.perm_id, "choice": kind})


def answer_enter_choice(g: Game, f: EnterChoiceFrame, a: Action) -> None:
    kind = f.kinds[len(f.chosen)]
    f.chosen[kind] = a.args[0]
    g.write_log(f"player {f.player} chooses {_word(kind, a.args[0])} for {f.label}")
    if len(f.chosen) < len(f.kinds):
        return
    g.frames.pop()
    chosen = dict(f.chosen)
    if f.item_id is not None:
        item = stack_rules.find_item(g, f.item_id)
        if item is not None:
            item.data.chosen = chosen
        return
    perm = None if f.perm_id is None else g.perms.get(f.perm_id)
    if perm is None:
        return
    perm.chosen = chosen
    mark_dirty(g, "choice as it comes into play")
    report_event(g, "etb", perm=perm.id, **(f.etb or {}))


def _word(kind: str, v: str) -> str:
    return COLOR_WORDS.get(v, v) if kind == "color" else v  # a name is its own word
