"""Continuous effects and the 2007 layer system: recompute every permanent's characteristics
(abilities included) from its card and the continuous effects in play, only when something that
can change them happened: :func:`mark_dirty` (with the reason) says so,
:func:`fresh` recomputes if it was said.

2007 CR 418 (continuous effects), 418.5 (interaction of continuous effects: the layers), in order:

The continuous effects of resolved spells and abilities are the typed values of
:mod:`mtg_env.engine.continuous_effects` (``game.effects``); static abilities are read from the
permanents in play.

- 418.5 layer 1, copy effects (2007 CR 503 copiable values): a :class:`CopyEffect` sets the
  permanent's copiable values (``perm.base``) to the named card definition; Clone.
- 418.5 layer 2, control-changing effects: :class:`ControlChange` and static ``control``
  abilities (Persuasion), in one timestamp order.
- 418.5 layer 3, text-changing effects (2012 612): a :class:`TextChange` replaces every instance
  of one color word or basic land type with another in the permanent's text (Mind Bend; lasts
  indefinitely). Several apply in timestamp order, a later one also changing the words an earlier
  one wrote. The changed card definition (its abilities, keywords and type line: which fields,
  :mod:`mtg_env.cards.text_change`) is built by the card layer through
  :func:`~mtg_env.engine.registry.text_changed`; the copiable values (``perm.base``) don't change
  (2012 706.2: a copy doesn't copy a text change). Applied as each permanent's characteristics are
  first set, before layer 2: no Tenth Edition control-changing effect has a color word or a basic
  land type, so the order between them cannot be seen.
- 418.5 layer 4, type-changing effects: an :class:`Animation`
  adds card types and subtypes (Treetop Village, Faerie Conclave: "It's still a land"); static
  ``type_change`` abilities (March of the Machines: "Each noncreature artifact is an artifact
  creature") apply after them, as they depend on them (2007 glossary "depend on": an animated
  Chimeric Staff is no longer a noncreature artifact). The set of permanents a static
  ``type_change`` affects is fixed in layer 4 and its P/T setting (``pt_cmc``) applies to that
  same set in layer 6b (2012 613.6).
- 418.5 layer 5, every other effect (2007: colors *and* abilities together, in timestamp order):
  keyword grants, granted activated abilities (Arcane Teachings, Joiner Adept's mana ability),
  an animated land's color, keywords and activated abilities (Spawning Pool). Dependency (2007
  glossary "depend on"): within layer 5 the only dependency a Tenth Edition card can create
  is a color-setting effect changing what a color-filtered grant applies to; such grants are
  applied after every color-setting effect. Abilities are characteristics: a permanent's
  ``activated``/``triggered``/``static`` tuples are its card's (or copied card's) tuples,
  replaced by a new tuple only when an effect adds to them.
- 418.5 layer 6a, characteristic-setting abilities (Mortivore, Molimo).
- 418.5 layer 6b, P/T setting effects *and* modifications from resolved spells and abilities, in
  one timestamp order (a 2007 difference: a later "becomes 3/3" overwrites an earlier Giant
  Growth, a later Giant Growth adds to the 3/3).
- 418.5 layer 6c, counters; 418.5 layer 6d, static abilities that modify P/T (Coat of Arms counts
  relative to each creature it affects).

Rule-modifying statics (:data:`~mtg_env.engine.ability_vocabulary.RULE_KINDS`) are collected on the way into
``game.rule_mods`` (kind -> the players controlling one) for the rules that read them.
- 418.5 layer 6e, P/T switching: no Tenth Edition card has one; not implemented.

Within a layer, timestamp order (418.5, 2012 613.6): a static ability's effect has its
permanent's timestamp, a resolved effect its creation time (``effect.ts``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from . import (  # module imports: both import this module
    ability_vocabulary,  # a module import: ability_vocabulary imports references, which imports this module
)
from .abilities import StaticAbility
from .actions import Action, DecisionKind
from .continuous_effects import (
    Animation,
    ContinuousEffect,
    ControlChange,
    CopyEffect,
    KeywordGrant,
    PowerToughnessBoost,
    PowerToughnessSetting,
    TextChange,
)
from .deploy import deploy_ability
from .errors import MtgError
from .frames_effects import TextChangeFrame
from .ids import next_timestamp
from .model import BASIC_LAND_TYPES, COLOR_NAMES, COLORS, CardDef, Permanent
from .registry import ability_by_ref, card_for_key, text_changed
from .rules import PROTECTION
from .triggers import is_mana_trigger

if TYPE_CHECKING:
    from .game import Game

# Subtypes that are not creature types (2007 CR 205.3): land, artifact and enchantment types.
_NOT_CREATURE_TYPES = frozenset({"Plains", "Island", "Swamp", "Mountain", "Forest", "Equipment",
                                 "Aura", "Shrine", "Lair", "Locus", "Urza's"})
_NO_RULE_MODS: dict[Any, Any] = {}  # shared and never mutated (no rule mods, no triggered mana)
# Set to a list to record the reason of each mark_dirty call; None: not recorded.
DIRTY_REASONS: list[str] | None = None


# The words a text-changing effect replaces (2012 612.2): color words and basic land types.
LAND_TYPES = tuple(BASIC_LAND_TYPES)  # Plains Island Swamp Mountain Forest: mode slots 0-4


def text_change_frame(pl: int, pid: int, sid: int | None, label: str) -> TextChangeFrame:
    """The ``text_change`` procedure: player ``pl`` chooses what to replace in permanent ``pid``'s
    text (Mind Bend: "one color word with another or one basic land type with another"): a
    color word or a basic land type (MODE), the word to replace, then a different word to
    replace it with (CHOOSE_COLOR for colors, MODE for land types, in :data:`LAND_TYPES`
    order). The effect lasts indefinitely (2012 612.1)."""
    return TextChangeFrame(pl, pid, sid, label)


def run_text_change(g: Game, f: TextChangeFrame) -> None:
    ctx = {"stack_id": f.item_id, "pid": f.perm_id, "choice": "text_change",
           "what": f.what, "from": f.from_word}
    if f.what is None:
        g.ask(f.player, DecisionKind.MODE,
                  [Action("mode", "replace a color word", (0,)),
                   Action("mode", "replace a basic land type", (1,))],
                  f"{f.label}: replace a color word or a basic land type", ctx)
        return
    verb = "replace" if f.from_word is None else "with"
    if f.what == "color":
        g.ask(f.player, DecisionKind.CHOOSE_COLOR,
                  [Action("color", f"{verb} {COLOR_NAMES[c]}", (c,))
                   for c in COLORS if c != f.from_word], f"{f.label}: {verb} which color word", ctx)
        return
    g.ask(f.player, DecisionKind.MODE,
              [Action("mode", f"{verb} {t}", (i,)) for i, t in enumerate(LAND_TYPES)
               if t != f.from_word], f"{f.label}: {verb} which basic land type", ctx)


def answer_text_change(g: Game, f: TextChangeFrame, a: Action) -> None:
    if f.what is None:
        f.what = "color" if a.args[0] == 0 else "land"
        return
    word = a.args[0] if f.what == "color" else LAND_TYPES[a.args[0]]
    if f.from_word is None:
        f.from_word = word
        return
    g.frames.pop()
    p = g.perms.get(f.perm_id)
    if p is None:
        return
    old = f.from_word
    add_effect(g, TextChange(pid=p.id, from_word=old, to_word=word))
    show = COLOR_NAMES.get
    g.write_log(f"{f.label}: the text of {p.card.label} has every "
              f"{show(old, old)} replaced by {show(word, word)}")

# The layer system caches every permanent's characteristics. ``dirty`` says the cache may be
# stale; mark_dirty is the one way to say so and fresh the one way to bring it up to date
# (``refresh`` clears the flag). ``Game()`` and a loaded game start dirty; ``copy()`` keeps it.


def mark_dirty(g: Game, reason: str) -> None:
    """Something a characteristic may depend on changed: a permanent came into play or left
    it, a card entered or left a graveyard (Mortivore counts them, 418.5 layer 6a), counters
    (6c), an attachment, a choice made as a permanent came into play, a continuous effect
    began or ended. The next :func:`fresh` recomputes every permanent. ``reason`` names
    the change; it is recorded only while :data:`DIRTY_REASONS` is a list (a debugging and
    profiling aid: which changes cause the recomputations)."""
    g.dirty = True
    if DIRTY_REASONS is not None:
        DIRTY_REASONS.append(reason)


def fresh(g: Game) -> None:
    """Bring every permanent's characteristics up to date (2007 CR 418.5): recompute them if
    anything was marked since the last time. Called before the rules read a characteristic
    (power, types, keywords, abilities, controller) or ``rule_mods``. Nothing else may call
    :func:`refresh`. Kept to one attribute test: it runs thousands of times a game."""
    if g.dirty:
        refresh(g)


def add_effect(g: Game, effect: ContinuousEffect) -> None:
    """Add a continuous effect of a resolved spell or ability (it applies from now on), with
    the next timestamp (418.5: its place within its layer). It is not changed after this."""
    effect.ts = next_timestamp(g)
    g.effects.append(effect)
    mark_dirty(g, "effect added")


def static_affects(g: Game, src: Permanent, s: StaticAbility) -> list[Permanent]:
    """The permanents a static ability of ``src`` applies to now: itself, the permanent it
    enchants or equips, or those its filter matches ("other" leaves ``src`` out)."""
    flt = s.affected
    if flt is None:
        if s.affects == "self":
            return [src]
        host = g.perms.get(src.attached_to) if src.attached_to is not None else None
        return [host] if host is not None else []  # enchanted / equipped
    test = flt.test
    ctrl = src.controller
    if g.influence:  # 2012 801.10: only what is within its controller's range of influence
        reach = g.influence[ctrl]
        return [p for p in g.perms.values()
                if p.controller in reach and test(p, ctrl) and not (flt.other and p is src)]
    if flt.other:
        return [p for p in g.perms.values() if test(p, ctrl) and p is not src]
    return [p for p in g.perms.values() if test(p, ctrl)]


def _end_conditional(g: Game, effects: list[ContinuousEffect]) -> list[ContinuousEffect]:
    """End the effects whose duration is a condition that no longer holds: "for as long as
    that creature is enchanted" (Rootwater Matriarch, 2012 611.2b). Once ended, an effect
    doesn't come back even if the condition becomes true again."""
    enchanted = {q.attached_to for q in g.perms.values()
                 if q.attached_to is not None and "Aura" in q.cdef.subtypes}
    return [e for e in effects if e.while_ != "enchanted" or e.pid in enchanted]


def _grant_deploy(perms: Iterable[Permanent], touched: list[int]) -> None:
    """2012 804.2, 809.3b: each creature has the deploy ability, after its other abilities
    (layer 6; undone with the others at the next refresh)."""
    deploy = deploy_ability()
    for p in perms:
        if "Creature" in p.types:
            p.activated = (*p.activated, deploy)
            touched.append(p.id)


def refresh(g: Game) -> None:
    """Recompute every permanent's characteristics from its card and the continuous effects
    (2007 CR 418.5, layers 1-6 in order)."""
    g.dirty = False
    perms = g.perms
    effects = g.effects
    if effects and any(e.while_ for e in effects):
        effects = g.effects = _end_conditional(g, effects)
    statics = []
    ll: dict[int, int] = {}
    counters = False
    before = {p.id: p.controller for p in perms.values()}
    # Undo the previous refresh's layer 1 and layer 5 changes to abilities: only the permanents
    # it changed, so a permanent no effect touches keeps sharing its card's tuples for free.
    if g._abl_mod:
        for pid in g._abl_mod:
            p = perms.get(pid)
            if p is not None:
                _reset_base(p, p.card.cdef)
    touched: list[int] = []
    animated: list[Animation] = []
    texts: dict[int, list[tuple[str, str]]] | None = None
    extra = _NO_RULE_MODS
    if effects:
        # 418.5 layer 1: copy effects, timestamp order (a later one overwrites an earlier one).
        for e in effects:
            if isinstance(e, CopyEffect):
                p = perms.get(e.pid)
                if p is not None:
                    _reset_base(p, card_for_key(e.card))
                    touched.append(p.id)
            elif isinstance(e, Animation):
                animated.append(e)
            elif isinstance(e, TextChange):
                if texts is None:
                    texts = {}
                texts.setdefault(e.pid, []).append((e.from_word, e.to_word))
    g._abl_mod = touched
    for p in perms.values():
        cdef = p.base
        if texts is not None and p.id in texts and not cdef.is_token:
            # 418.5 layer 3: the permanent's text with the words changed (module docstring).
            # A token's color is no word of its own text but of the effect that made it, and
            # no Tenth Edition token has a word in its text: a token keeps its definition.
            cdef = text_changed(cdef.name, tuple(texts[p.id]))
            p.activated = cdef.activated
            p.triggered = cdef.triggered
            p.static = cdef.static
            touched.append(p.id)
        p.controller = p.base_controller
        p.set_printed(cdef)
        if cdef.static:
            for s in cdef.static:
                statics.append((p.timestamp, p, s))
        if p.counters:
            counters = True
        if "lifelink" in cdef.keywords:
            ll[p.id] = 1
        if p.attached_to is not None and p.triggered:
            extra = _mana_trigger_extra(p, extra)
    g.mana_extra = extra
    g.no_mana_empty = False
    if not statics and not effects and not counters:
        g.lifelink = ll
        g.rule_mods = _NO_RULE_MODS
        _control_changed(g, before)
        if g.variant == "emperor":
            _grant_deploy(perms.values(), touched)
        return
    statics.sort(key=lambda x: x[0])
    # 418.5 layer 2: control-changing effects, resolved ones and static ones (Persuasion: "You
    # control enchanted creature", which ends when the Aura leaves play), in timestamp order.
    control: list[tuple[int, ControlChange | None, Permanent | None, StaticAbility | None]] = [
        (e.ts, e, None, None) for e in effects if isinstance(e, ControlChange)]
    if statics:
        control += [(ts, None, src, s) for ts, src, s in statics if s.kind == "control"]
        control.sort(key=lambda x: x[0])
    for _, effect, source, static in control:  # either the effect or the source and the static
        if effect is not None:
            p = perms.get(effect.pid)
            if p is not None:
                p.controller = effect.controller
        else:
            assert source is not None and static is not None, "a static entry has its source"
            for p in static_affects(g, source, static):
                p.controller = source.controller
    _control_changed(g, before)
    # 418.5 layer 3 (text-changing) was applied as the characteristics were first set above.
    # 418.5 layer 4: type-changing effects.
    for a in animated:
        p = perms.get(a.pid)
        if p is not None:
            p.types = p.types | frozenset(a.types)
            p.subtypes = p.subtypes + tuple(t for t in a.subtypes if t not in p.subtypes)
    typed = []  # (timestamp, affected permanents) of type_change statics setting P/T
    for ts, src, s in statics:
        if s.kind == "type_change":
            add: Any = frozenset(s.params["types"])  # reused: types, then keywords (a tuple)
            affected = static_affects(g, src, s)
            for p in affected:
                p.types = p.types | add
            if s.params.get("pt_cmc"):
                typed.append((ts, affected))
    # 418.5 layer 5: abilities and colors, timestamp order; a color-filtered grant depends on
    # color-setting effects (applied after them).
    layer5: list[tuple[int, int, Permanent | None, StaticAbility | None,
                       KeywordGrant | Animation | None]] = []
    rule_mods: dict[str, set[int | str]] = {}
    for ts, src, s in statics:
        if s.kind == "grant":
            dep = 1 if animated and ("color" in s.params or "not_color" in s.params) else 0
            layer5.append((dep, ts, src, s, None))
        elif s.kind == "protection_from_chosen_color":
            layer5.append((0, ts, src, s, None))
        elif s.kind == "no_mana_empty":
            g.no_mana_empty = True
        elif s.kind in ability_vocabulary.RULE_KINDS:
            rule_mods.setdefault(s.kind, set()).add(src.controller)
        elif s.kind == "chosen_name_abilities_cant_be_played":
            # Pithing Needle: the names whose sources' non-mana abilities can't be played (a
            # set of card names, not of players).
            name = (src.chosen or {}).get("name")
            if name is not None:
                rule_mods.setdefault(s.kind, set()).add(name)
    g.rule_mods = ({k: frozenset(v) for k, v in rule_mods.items()} if rule_mods
                   else _NO_RULE_MODS)
    for e in effects:
        if isinstance(e, (KeywordGrant, Animation)):
            layer5.append((0, e.ts, None, None, e))
    layer5.sort(key=lambda x: (x[0], x[1]))
    for _, _, source, static, grant in layer5:  # either the source and the static or the effect
        abilities: tuple[Any, ...] = ()
        if grant is not None:
            targets = [perms[grant.pid]] if grant.pid in perms else []
            add = grant.add
            if isinstance(grant, Animation):
                if grant.colors is not None:
                    for p in targets:
                        p.colors = frozenset(grant.colors)
                if grant.abilities:
                    abilities = tuple(ability_by_ref(r) for r in grant.abilities)
        else:
            assert source is not None and static is not None, "a static entry has its source"
            targets = static_affects(g, source, static)
            add = static.params.get("keywords", ())
            if static.kind == "protection_from_chosen_color":  # Voice of All (enter_choices.py)
                c = source.chosen.get("color") if source.chosen else None
                add = (PROTECTION[c],) if c else ()
            abilities = static.params.get("abilities", ())
        for p in targets:
            if add:
                p.keywords = p.keywords | frozenset(add)
                if "lifelink" in add:
                    ll[p.id] = ll.get(p.id, 0) + 1
            if abilities:
                p.activated = p.activated + abilities
                touched.append(p.id)
    if g.variant == "emperor":
        _grant_deploy(perms.values(), touched)
    # 418.5 layer 6a: characteristic-setting abilities.
    for _, src, s in statics:
        if s.kind == "cda_pt":
            v = amount_cda(g, src, s)
            src.power = v if s.params.get("power", True) else src.power
            src.toughness = v + s.params.get("toughness_plus", 0)
    # 418.5 layer 6b: resolved P/T effects and setting effects, one timestamp order (2007
    # difference); an animated land's "becomes a 3/3" is a setting effect here.
    # Each entry: (timestamp, a resolved effect, or a static setting P/T with its source, or the
    # permanents a type-changing static's P/T setting applies to).
    layer6b: list[tuple[int, ContinuousEffect | None, Permanent | None, StaticAbility | None,
                        list[Permanent] | None]] = [
        (e.ts, e, None, None, None) for e in effects
        if isinstance(e, (PowerToughnessBoost, PowerToughnessSetting))
        or (isinstance(e, Animation) and e.p is not None)]
    layer6b += [(ts, None, src, s, None) for ts, src, s in statics if s.kind == "set_pt"]
    layer6b += [(ts, None, None, None, affected) for ts, affected in typed]
    layer6b.sort(key=lambda x: x[0])
    for _, pt, source, static, typed_set in layer6b:
        if static is not None:
            assert source is not None, "a static entry has its source"
            for p in static_affects(g, source, static):
                p.power, p.toughness = static.params["p"], static.params["t"]
        elif typed_set is not None:
            for p in typed_set:
                p.power = p.toughness = p.base.cost.cmc  # copiable values; X counts as 0
        elif isinstance(pt, PowerToughnessBoost):
            p = perms.get(pt.pid)
            if p is not None:
                p.power += pt.p
                p.toughness += pt.t
        elif isinstance(pt, (PowerToughnessSetting, Animation)):
            p = perms.get(pt.pid)
            if p is not None and pt.p is not None and pt.t is not None:
                p.power, p.toughness = pt.p, pt.t
    # 418.5 layer 6c: counters.
    if counters:
        for p in perms.values():
            cnt = p.counters
            if cnt:
                n = cnt.get("+1/+1", 0) - cnt.get("-1/-1", 0)
                p.power += n
                p.toughness += n
    # 418.5 layer 6d: static abilities that modify P/T.
    for _, src, s in statics:
        if s.kind == "modify_pt":
            per = s.per
            if per is None:
                n = 1
            else:
                test, skip = per.test, src if per.other else None
                n = sum(1 for q in perms.values() if q is not skip and test(q, src.controller))
            for p in static_affects(g, src, s):
                p.power += s.params.get("p", 0) * n
                p.toughness += s.params.get("t", 0) * n
        elif s.kind == "pt_per_shared_creature_type":
            _shared_type_bonus(g, src, s)
    # 418.5 layer 6e (switching): no Tenth Edition card; see the module docstring.
    g.lifelink = ll


def _mana_trigger_extra(p: Permanent, extra: dict[int, str]) -> dict[int, str]:
    """Add to ``extra`` (land id -> mana symbols) the mana an Aura's triggered mana ability adds
    for its enchanted land's controller whenever that land is tapped for mana (Overgrowth: "GG"),
    so the automatic payer counts it (2007 glossary "Mana ability"; 2012 605.1b)."""
    host = p.attached_to
    assert host is not None, "called only for an attached permanent"
    for ab in p.triggered:
        if ab.event != "tapped_for_mana" or ab.filters.get("what") != "enchanted":
            continue
        if not is_mana_trigger(ab) or ab.filters.get("whose", "any") != "any":
            continue
        syms = "".join(e["mana"] for e in ab.effects if e.get("to") == "event_player")
        if syms:
            if extra is _NO_RULE_MODS:
                extra = {}
            extra[host] = extra.get(host, "") + syms
    return extra


def _creature_types(p: Permanent) -> frozenset[str]:
    return frozenset(p.subtypes) - _NOT_CREATURE_TYPES


def _shared_type_bonus(g: Game, src: Permanent, s: StaticAbility) -> None:
    """Coat of Arms: each affected creature gets +p/+t for each *other* creature in play that
    shares a creature type with it, counted relative to that creature (418.5 layer 6d)."""
    reach = g.influence[src.controller] if g.influence else None  # 2012 801.11 example
    creatures = [(q, _creature_types(q)) for q in g.perms.values() if "Creature" in q.types
                 and (reach is None or q.controller in reach)]
    dp, dt = s.params["p"], s.params["t"]
    for p in static_affects(g, src, s):
        mine = _creature_types(p)
        if not mine:
            continue
        n = sum(1 for q, theirs in creatures if q is not p and mine & theirs)
        p.power += dp * n
        p.toughness += dt * n


def _reset_base(p: Permanent, cdef: CardDef) -> None:
    """Give ``p`` the copiable values and abilities of ``cdef`` (418.5 layer 1)."""
    p.base = cdef
    p.name = cdef.name
    p.supertypes = cdef.supertypes
    p.activated = cdef.activated
    p.triggered = cdef.triggered
    p.static = cdef.static


def _control_changed(g: Game, before: dict[int, int]) -> None:
    # Imported here: combat imports this module, and this runs only when a controller changed.
    from .combat import leave_combat_on_control_change

    for p in g.perms.values():
        if before.get(p.id, p.controller) != p.controller:
            p.sick = True  # 2007 CR 212.3d: not controlled continuously since the turn began
            leave_combat_on_control_change(g, p)


def amount_cda(g: Game, src: Permanent, s: StaticAbility) -> int:
    flt = s.count
    reach = g.influence[src.controller] if g.influence else None  # 2012 801.11
    if flt is not None:
        return sum(1 for p in g.perms.values() if flt.test(p, src.controller)
                   and (reach is None or p.controller in reach))
    zone = s.params.get("graveyard_count")
    if zone is not None:
        return sum(1 for P in g.players if reach is None or P.index in reach
                   for c in P.graveyard if zone in c.cdef.types)
    raise MtgError(f"engine error: bad characteristic-setting ability {s.params!r}")
