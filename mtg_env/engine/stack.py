"""The stack and resolution: stack objects, what ability a stack object carries, resolving
spells and abilities, countering.

2007 CR 217.6 (the stack), 410/412 (abilities on the stack), 413 (resolving: 413.2a illegal
targets), 416 (resolving spells and abilities; permanent spells come into play), 413.2c (an
instant or sorcery goes to its owner's graveyard as the last step of resolving).

Changing targets and copying spells (2007 CR 503 copying, renumbered 706 in 2012; the 2012
rules 114.6 and 706.10 give the detail, unchanged in substance):

- :func:`choose_new_targets` is the one procedure for both "change the target of
  target spell" (Shunt; 2012 114.6a: each target only to *another legal* target, all or none; a
  target with no other legal target leaves the spell unchanged) and "you may choose new targets
  for the copy" (Twincast; 2012 114.6d, 706.10c: any target may be kept, even an illegal one, the
  others changed to legal ones). Legality is the spell's own, from its controller's side; a
  "distinct" target ("another target") stays different from the others (2012 114.6e: the final
  set is what must be legal). The chooser answers one ``TARGET`` decision per target (the
  ``retarget`` frame), with every legal new target enumerated ("target ...") and, for new
  targets, "keep target ..." (verb ``keep``, the accept band: offered even when the current
  target is gone or illegal, which no target option could name).
- :func:`copy_spell` puts a copy of a spell on the stack (2012 706.10): the
  copy's controller and owner is the player who copies it; it copies the original's copiable
  values and every choice made for it (targets, mode, X, what paid its costs), it is not played
  (no "whenever a player plays a spell" trigger), and it is not a card: it has a card object of
  its own (for its name and characteristics), marked ``spell_copy`` in its data, which never
  reaches a zone and ceases to exist once the copy leaves the stack (706.10a;
  :func:`spell_off_stack`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import effects as fx
from .abilities import TargetSpec
from .actions import Action, DecisionKind
from .combat_damage import resolve_combat_damage
from .damage import flush_damage_triggers
from .enter_choices import ask_enter_choices
from .errors import MtgError
from .frames import ResolveFrame, ResolveStep, RetargetFrame, RetargetMode, YesNoFrame
from .ids import new_object_id
from .knowledge import shuffle_library
from .model import Card, StackItem
from .seating import first_priority
from .targets import assignable_targets, legal_targets, mode_targets, ref_text, spec_for, target_legal
from .triggers import trigger_condition
from .zones import copied_name, push_copy_choice, put_into_play, to_zone

if TYPE_CHECKING:
    from .game import Game


def find_item(g: Game, sid: int | None) -> StackItem | None:
    for s in reversed(g.stack):
        if s.id == sid:
            return s
    return None


def item_def(g: Game, item: StackItem
             ) -> tuple[tuple[TargetSpec, ...], tuple[dict[str, Any], ...], Any]:
    """(target specs, effects, ability object or card def) of a stack item."""
    if item.kind == "spell":
        assert item.card is not None  # a spell's stack object has its card
        cdef = item.card.cdef
        if cdef.enchant is not None:
            return (cdef.enchant,), (), cdef
        if cdef.modes:
            if item.mode < 0:
                return (), (), cdef
            m = cdef.modes[item.mode]
            return mode_targets(m), tuple(m.get("effects", ())), cdef
        return cdef.spell_targets, cdef.spell_effects, cdef
    if item.kind == "combat_damage":
        return (), (), None
    if item.kind == "triggered" and item.data.effects is not None:
        # A rules trigger (lifelink, 2007 CR 502.68) carries its effects and names no card.
        return (), tuple(item.data.effects), None
    # 2007 CR 410/412: an ability on the stack is independent of its source; it holds the
    # ability object itself (copied or granted abilities included).
    ab = item.ability_def
    if ab is None:
        raise MtgError(f"engine error: stack object {item.label} holds no ability")
    # An activated or triggered ability: a static one never goes on the stack.
    return ab.targets, ab.effects, ab  # type: ignore[union-attr]


def run_resolve(g: Game, f: ResolveFrame) -> None:
    item = find_item(g, f.item_id)
    if item is None:  # removed by an effect during resolution
        g.frames.pop()
        return
    if item.kind == "combat_damage":
        # Run again once a player has chosen which damage a shield prevents (2012 615.7).
        f.step = ResolveStep.FOLLOW
        if not resolve_combat_damage(g, item):
            finish_resolve(g, f, item)
        return
    if f.step == ResolveStep.CHECK:
        f.step = ResolveStep.FOLLOW
        specs, _, obj = item_def(g, item)
        if (item.kind == "triggered" and obj is not None and obj.condition
                and not trigger_condition(g, obj.condition, item.controller, item.source,
                                          item.data.event, item.data)):
            # 2007 CR 410.11: an intervening "if" clause is checked again on resolution;
            # if false, the ability is removed from the stack and does nothing.
            g.write_log(f"ability of {item.label} does nothing: its condition is false")
            finish_resolve(g, f, item)
            return
        if specs and (item.targets or specs[-1].count is None):
            # A counted last spec covers every target from its own on; a spell that
            # chose no target at all ("up to", X = 0) is not countered for that.
            legal = [target_legal(g, item, i, spec_for(specs, i))
                     for i in range(max(len(specs), len(item.targets)))
                     if i < len(item.targets) or specs[i].count is None]
            if not any(legal):
                # 2007 CR 413.2a: all targets illegal -> countered on resolution.
                g.write_log(f"{item.label if item.kind == 'spell' else 'ability of ' + item.label} "
                          "is countered: no legal targets")
                counter_item(g, item)
                g.frames.pop()
                return
        if item.kind == "spell" and item.card is not None and item.card.cdef.is_permanent_card:
            f.step = ResolveStep.COPY_CHOICE
            if ask_copy_choice(g, item):
                return
        if item.kind == "triggered" and obj is not None and obj.optional:
            controller = item.controller
            g.frames.append(YesNoFrame(controller, item.id, "may",
                                          f"{item.label}: {obj.text}"))
            return
    if f.step == ResolveStep.COPY_CHOICE:  # made: now the choices it comes into play with
        f.step = ResolveStep.ENTER_CHOICES
        if ask_enter_choices(g, item):
            return
    if f.step == ResolveStep.ENTER_CHOICES:  # each one made (2012 614.12)
        resolve_permanent_spell(g, item)
        finish_resolve(g, f, item, to_play=True)
        return
    if f.step == ResolveStep.FOLLOW:
        if item.data.may is False:
            finish_resolve(g, f, item)
            return
        _, effects, obj = item_def(g, item)
        if obj is not None and getattr(obj, "custom", None) and f.effect_index == 0:
            f.effect_index = len(effects) + 1
            fx.run_custom(g, item, obj.custom)
            return
        if (item.kind == "spell" and item.card is not None and item.card.cdef.spell_custom
                and f.effect_index == 0):
            f.effect_index = len(effects) + 1
            fx.run_custom(g, item, item.card.cdef.spell_custom)
            return
        while f.effect_index < len(effects):
            spec = effects[f.effect_index]
            f.effect_index += 1
            fx.OPS[spec["op"]](g, item, spec)
            if g.is_over or g.frames[-1] is not f:
                return  # an effect asked a player something; continue afterwards
        finish_resolve(g, f, item)


def finish_resolve(g: Game, f: ResolveFrame, item: StackItem, to_play: bool = False) -> None:
    if g.frames and g.frames[-1] is f:
        g.frames.pop()
    if item in g.stack:
        g.stack.remove(item)
        if item.kind == "spell" and not to_play:
            assert item.card is not None  # a spell's stack object has its card
            dest = item.data.dest
            if item.data.spell_copy:
                spell_off_stack(g, item, dest)
            elif dest == "library_shuffle":
                to_zone(g, item.card, "library_top")
                shuffle_library(g, item.card.owner)
                g.write_log(f"{item.label} is shuffled into its owner's library")
            else:
                to_zone(g, item.card, dest)
    flush_damage_triggers(g)
    g.prio = first_priority(g)
    g.passes = 0


def counter_item(g: Game, item: StackItem) -> None:
    if item in g.stack:
        g.stack.remove(item)
        if item.kind == "spell":
            spell_off_stack(g, item, "graveyard")


def spell_off_stack(g: Game, item: StackItem, zone: str) -> None:
    """A spell that left the stack goes to ``zone``; a copy of a spell ceases to exist
    (2012 706.10a): its card object is forgotten, it was never a card of the game."""
    assert item.card is not None  # a spell's stack object has its card
    if item.data.spell_copy:
        g.cards.pop(item.card.cid, None)
        g.write_log(f"{item.label} ceases to exist")
        return
    to_zone(g, item.card, zone)

# -- copying spells, changing targets (2012 706.10, 114.6) ------------------------------

def copy_spell(g: Game, src: StackItem, controller: int, by: str, new_targets: bool) -> StackItem:
    """Put a copy of spell ``src`` on the stack under ``controller``'s control (2012 706.10;
    see the module docstring); with ``new_targets`` its controller may then choose new
    targets for it (706.10c). Returns the copy."""
    assert src.card is not None  # a spell's stack object has its card
    cdef = src.card.cdef
    key = f"copy of {cdef.name}"
    n = g.label_counts.get(key, 0) + 1
    g.label_counts[key] = n
    label = key if n == 1 else f"{key}#{n}"
    card = Card(new_object_id(g), cdef, controller, label)
    g.cards[card.cid] = card
    copy = src.clone()  # its targets, mode, X and the record of its costs (706.10)
    copy.id = new_object_id(g)
    copy.controller = controller
    copy.card = card
    copy.label = label
    copy.data.from_hand = False  # not played at all, so not from a hand
    copy.data.spell_copy = True
    g.stack.append(copy)
    g.write_log(f"{by}: player {controller} puts {label} on the stack")
    if new_targets and copy.targets:
        choose_new_targets(g, copy, controller, "new", by)
    return copy


def choose_new_targets(g: Game, item: StackItem, pl: int, mode: RetargetMode, by: str) -> None:
    """Player ``pl`` changes the targets of ``item`` (``mode`` ``"change"``: 2012 114.6a,
    Shunt) or may choose new ones (``"new"``: 114.6d, Twincast's copy): pushes the
    ``retarget`` frame, which asks one ``TARGET`` decision per target."""
    g.frames.append(RetargetFrame(pl, item.id, mode, tuple(tuple(t) for t in item.targets),
                                     0, by))


def retarget_options(g: Game, item: StackItem, old: list[tuple[Any, ...]],
                      mode: str) -> list[list[tuple[Any, ...]]]:
    """Per target of ``item``: what it may become. "change": every other legal target;
    "new": the current target (kept, legal or not) and every legal target."""
    specs, _, _ = item_def(g, item)
    src = g.perms.get(item.source) if item.source is not None else None
    out = []
    for i, cur in enumerate(old):
        legal = [tuple(c) for c in legal_targets(g, item.controller, spec_for(specs, i),
                                                       item=item, source=src)]
        others = [c for c in legal if c != cur]
        out.append(others if mode == "change" else [cur, *others])
    return out


def run_retarget(g: Game, f: RetargetFrame) -> None:
    item = find_item(g, f.item_id)
    old = list(f.old)
    if item is None or f.index >= len(old) or len(item.targets) != len(old):
        g.frames.pop()
        return
    specs, _, _ = item_def(g, item)
    per = [spec_for(specs, j) for j in range(len(old))]
    opts = retarget_options(g, item, old, f.mode)
    i = f.index
    if i == 0 and f.mode == "change" and not assignable_targets(per, opts, []):
        # 2012 114.6a: a target with no other legal target stays, and then none changes.
        g.write_log(f"{f.by}: {item.label} has no other legal target; its target is "
                  "unchanged")
        g.frames.pop()
        return
    done = [tuple(t) for t in item.targets[:i]]
    cur = old[i]
    cands = [c for c in opts[i] if not (per[i].distinct and c in done)
             and assignable_targets(per[i + 1:], opts[i + 1:], [*done, c])]
    options = [Action("target", "target " + ref_text(g, c), (c,)) for c in cands
               if c != cur]
    if cur in cands:  # "new": keeping it is always allowed (114.6d), legal or not
        options.append(Action("keep", f"keep target {ref_text(g, cur)}", ()))
    if len(options) <= 1:  # nothing to choose: the only possibility (kept if none)
        a = options[0] if options else None
        set_new_target(g, f, item, a.args[0] if a is not None and a.verb == "target"
                             else cur)
        return
    g.ask(f.player, DecisionKind.TARGET, options,
              f"{f.by}: choose the new target {i + 1} of {item.label}",
              {"stack_id": item.id, "target_index": i, "current": list(cur)})


def answer_retarget(g: Game, f: RetargetFrame, a: Action) -> None:
    item = find_item(g, f.item_id)
    if item is not None:
        set_new_target(g, f, item, tuple(a.args[0]) if a.verb == "target"
                             else f.old[f.index])


def set_new_target(g: Game, f: RetargetFrame, item: StackItem, ref: tuple[Any, ...]) -> None:
    i = f.index
    old = f.old[i]
    item.targets[i] = ref
    f.index = i + 1
    if ref != old:
        g.write_log(f"{f.by}: {item.label} now targets {ref_text(g, ref)} instead of "
                  f"{ref_text(g, old)}")
    if f.index >= len(f.old):
        g.frames.pop()


def ask_copy_choice(g: Game, item: StackItem) -> bool:
    """Clone, Sculpting Steel: "As [this] comes into play, you may choose a creature (an
    artifact) in play" (the ``copy_as_enters`` static; its filter says what may be copied).
    The choice is made as the spell resolves, by its controller; it doesn't target (shroud
    doesn't stop it). Pushes a choose-cards decision (0 or 1 permanent) and returns True if
    there is one; with nothing to copy it comes into play as itself."""
    assert item.card is not None  # a spell's stack object has its card
    st = item.card.cdef.static
    spec = next((s for s in st if s.kind == "copy_as_enters"), None) if st else None
    if spec is None:
        return False
    item.data.copy_of = None
    return push_copy_choice(g, item.controller, item.label, spec,
                                  then={"op": "copy_as_enters"}, sid=item.id)


def resolve_permanent_spell(g: Game, item: StackItem) -> None:
    assert item.card is not None  # a spell's stack object has its card
    cdef = item.card.cdef
    attach = None
    if cdef.enchant is not None:
        attach = item.targets[0][1]
    g.write_log(f"{item.label} resolves")
    g.stack.remove(item)
    copy_of = copied_name(g, item.data.copy_of, item.label)
    put_into_play(g, item.card, item.controller, attach_to=attach, copy_of=copy_of,
                        cast_from_hand=bool(item.data.from_hand),
                        chosen=item.data.chosen, copy_chosen=True)
