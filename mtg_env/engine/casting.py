"""Playing spells and activated abilities, and playing lands: the procedure from announcing a
spell or ability to its being played, one decision per choice, and what may be played at all.

2007 CR 409.1 (playing a spell or activated ability, in order: announce it and move it to the
stack 409.1a, modes 409.1b, X 409.1c, targets 409.1d (a divided amount is divided as the targets
are chosen: 2012 601.2d), the total cost 409.1f, mana abilities 409.1g, paying 409.1h, played
409.1i), 409.1 / 409.4 (a spell or ability an effect prohibits isn't offered: Rule of Law, Steel
Golem, Pithing Needle), 212.6 (playing a land: main phase, empty stack, once a turn, no stack),
212.3d (summoning sickness and {T} costs). When a player may play what is the timing rule of
:mod:`mtg_env.engine.priority` (2007 CR 408); mana abilities (2007 CR 411) are played without
the stack by :mod:`mtg_env.engine.mana`.

A spell or ability being played is a :class:`~mtg_env.engine.frames.CastFrame`; its ``step``
(:class:`~mtg_env.engine.frames.CastStep`) is the step of 409.1 it is at: modes, X, targets,
costs, then the payments left and becoming played. A triggered ability's targets are chosen
through the same frame, started at the targets step with ``trigger`` set
(:mod:`mtg_env.engine.triggers`, 2007 CR 410); it stops after the targets.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import effects as fx
from .actions import DONE, Action, DecisionKind
from .choices import choose_frame
from .damage import lose_life
from .errors import MtgError
from .frames import CastFrame, CastStep
from .ids import new_object_id
from .layers import fresh, mark_dirty
from .mana import add_colored, can_afford, max_x, pay_mana
from .mana_cost import ManaCost
from .model import Card, Permanent, StackItem
from .seating import in_range, opponents
from .stack import find_item, item_def
from .stack_data import StackData
from .targets import (
    distinct_candidates,
    legal_targets,
    mode_targets,
    ref_text,
    target_count,
    targets_available,
    targets_text,
)
from .triggers import report_event
from .zones import leave_play, leave_play_together, put_into_play

if TYPE_CHECKING:
    from .abilities import ActivatedAbility, Cost, TargetSpec
    from .game import Game
    from .mana import Source

K = DecisionKind


def can_cast(g: Game, pl: int, card: Card, sources: list[Source],
              cost: ManaCost | None = None) -> bool:
    """Can ``pl`` play ``card`` now with ``sources``: its total cost (``cost``, from
    :func:`spell_cost`; the printed cost if None), its additional costs and targets."""
    cdef = card.cdef
    if not cdef.implemented:
        return False
    if cost is None:
        cost = cdef.cost
    if not can_afford(g, pl, cost, sources):
        return False
    if cdef.x_color and max_x(g, pl, cost, None, cdef.x_color) < 0:
        return False
    if cdef.additional_cost is not None and not can_pay_additional(g,
            pl, cdef.additional_cost, card):
        return False
    if cdef.enchant is not None:
        return targets_available(g, pl, (cdef.enchant,), spell_card=card)
    if cdef.modes:
        return any(targets_available(g, pl, mode_targets(m), spell_card=card)
                   for m in cdef.modes)
    return targets_available(g, pl, cdef.spell_targets, spell_card=card)


def _life_and_sacrifice_payable(g: Game, pl: int, cost: Cost) -> bool:
    """The life a cost asks is no more than ``pl``'s life total, and ``pl`` controls a
    permanent its sacrifice could be paid with (2007 CR 409.1f-h)."""
    if cost.pay_life and g.players[pl].life < cost.pay_life:
        return False
    if cost.sacrifice:
        flt = cost.sacrifice_filter
        assert flt is not None, "a sacrifice cost has its compiled filter"
        return any(p.controller == pl and flt.test(p, pl) for p in g.perms.values())
    return True


def can_pay_additional(g: Game, pl: int, cost: Cost, card: Card | None = None) -> bool:
    if not _life_and_sacrifice_payable(g, pl, cost):
        return False
    # The spell itself is on the stack when the cost is paid, not in the hand.
    hand = [c for c in g.players[pl].hand if c is not card]
    return not (cost.discard and _discardable(hand, cost, pl) < cost.discard)


def can_pay_nonmana(g: Game, pl: int, perm: Permanent, ab: ActivatedAbility) -> bool:
    c = ab.cost
    if c.tap:
        if perm.tapped:
            return False
        if perm.is_creature and perm.sick and "haste" not in perm.keywords:
            return False  # 2007 CR 212.3d
    if not _life_and_sacrifice_payable(g, pl, c):
        return False
    if c.discard and _discardable(g.players[pl].hand, c, pl) < c.discard:
        return False
    return not (ab.condition and not fx.check_condition(g, ab.condition, pl, perm))


def spell_cost(g: Game, pl: int, card: Card) -> ManaCost:
    """The total cost of playing ``card`` as a spell (2007 CR 409.1f): its mana cost plus
    cost increases minus cost reductions; a generic reduction reduces only generic mana (it
    can't reduce colored requirements) and never below zero. X stays X (chosen later).

    Increases: ``spell_cost_more`` statics of the opponent's permanents (Aura of Silence:
    "Artifact and enchantment spells your opponents play cost {2} more to play").
    Reductions: the card's own ``self_cost_less`` static, which works from the hand (Avatar
    of Might: "If an opponent controls at least four more creatures than you, Avatar of
    Might costs {6} less to play")."""
    cdef = card.cdef
    cost = cdef.cost
    generic = cost.generic
    mods = g.rule_mods
    opps = opponents(g, pl) if mods else ()
    if mods and not mods.get("spell_cost_more", frozenset()).isdisjoint(opps):
        types = cdef.types
        for p in g.perms.values():
            if p.controller in opps and p.static and in_range(g, p.controller, pl):
                for s in p.static:
                    if s.kind == "spell_cost_more" and not types.isdisjoint(s.params["types"]):
                        generic += s.params["amount"]
    if cdef.static:
        for s in cdef.static:
            if s.kind == "self_cost_less":
                # Avatar of Might: "If an opponent controls at least four more creatures
                # than you": any one opponent, counted apart (several at a table).
                counts: dict[int, int] = {}
                for p in g.perms.values():
                    if "Creature" in p.types:
                        counts[p.controller] = counts.get(p.controller, 0) + 1
                mine = counts.get(pl, 0)
                theirs = max((counts.get(o, 0) for o in opponents(g, pl)), default=0)
                if theirs - mine >= s.params["opponent_more_creatures"]:
                    generic = max(0, generic - s.params["amount"])
    if generic == cost.generic:
        return cost
    return ManaCost(generic, cost.colored, cost.x)


def play_land(g: Game, pl: int, card: Card) -> None:
    # 2007 CR 212.6: one land per turn, main phase, empty stack; doesn't use the stack.
    # From the hand, or from the graveyard with Crucible of Worlds.
    P = g.players[pl]
    if card in P.hand:
        P.hand.remove(card)
        g.write_log(f"player {pl} plays {card.label}")
    else:
        P.graveyard.remove(card)
        mark_dirty(g, "graveyard count")  # Mortivore, 2007 CR 418.5 layer 6a
        g.write_log(f"player {pl} plays {card.label} from their graveyard")
    P.lands_played += 1
    put_into_play(g, card, pl)


def begin_cast(g: Game, pl: int, card: Card) -> None:
    P = g.players[pl]
    P.hand.remove(card)
    item = StackItem(new_object_id(g), "spell", pl, card=card, label=card.label,
                     data=StackData(card=card.cdef.name, from_hand=True))
    g.stack.append(item)  # 2007 CR 409.1a: the card moves to the stack on announcement
    g.frames.append(CastFrame(pl, item.id))


def begin_activate(g: Game, pl: int, pid: int, ab_index: int) -> None:
    perm = g.perms[pid]
    item = StackItem(new_object_id(g), "activated", pl, source=pid, source_name=perm.card.label,
                     ability=ab_index, label=perm.card.label,
                     data=StackData(card=perm.cdef.name,
                                    source_colors="".join(sorted(perm.colors))),
                     ability_def=perm.activated[ab_index])
    if perm.chosen:  # "the chosen color" of its source, should the source leave play
        item.data.chosen = perm.chosen
    g.stack.append(item)
    g.frames.append(CastFrame(pl, item.id))


def run_cast(g: Game, f: CastFrame) -> None:
    item = find_item(g, f.item_id)
    assert item is not None, "the object being played stays on the stack until it is played"
    # The card of a spell (None for an ability): a spell's stack object has its card.
    spell = item.card if item.kind == "spell" else None
    assert spell is not None or item.kind != "spell", "a spell's stack object has its card"
    pl = f.player
    specs, _, obj = item_def(g, item)
    st = f.step
    if st == CastStep.MODES:  # 2007 CR 409.1b
        f.step = CastStep.X
        if spell is not None and spell.cdef.modes:
            cdef = spell.cdef
            opts = [Action("mode", f"mode {i + 1}: {m.get('text', '')}".rstrip(": "), (i,))
                    for i, m in enumerate(cdef.modes)
                    if targets_available(g, pl, mode_targets(m), spell_card=spell)]
            g.ask(pl, K.MODE, opts, f"choose a mode for {item.label}",
                      {"stack_id": item.id})
            return
    if st == CastStep.X:  # 2007 CR 409.1c
        f.step = CastStep.TARGETS
        x_cost = None
        x_color = None
        exclude = None
        if spell is not None and spell.cdef.x_spell:
            x_cost = spell_cost(g, pl, spell)
            x_color = spell.cdef.x_color
        elif item.kind == "activated" and obj.x:
            x_cost = obj.cost.mana
            exclude = item.source if obj.cost.tap else None
        if x_cost is not None:
            top = max_x(g, pl, x_cost, exclude, x_color)
            if specs and specs[-1].count == "X":
                # "X target cards": X can't exceed the legal targets (2012 601.2c)
                top = min(top, len(legal_targets(g, pl, specs[-1], item=item)))
            elif specs and specs[-1].divided and not legal_targets(g,
                    pl, specs[-1], item=item, first_only=True):
                # X damage divided among targets: each gets at least 1, so X > 0 needs
                # a target (2012 601.2d)
                top = 0
            opts = [Action("x", f"X={n}", (n,)) for n in range(max(top, 0) + 1)]
            g.ask(pl, K.X_VALUE, opts, f"choose X for {item.label}", {"stack_id": item.id})
            return
    if st == CastStep.TARGETS:  # 2007 CR 409.1d, one decision per target
        ti = len(item.targets)
        if specs and specs[-1].count is not None and ti >= len(specs) - 1:
            # "up to N" / "X target ...": one decision per target, "done" once enough
            if ask_counted_target(g, f, pl, item, specs[-1], len(specs) - 1):
                return
            if specs[-1].divided and ask_division(g, pl, item, len(specs) - 1):
                return
            ti = len(specs)
        if ti < len(specs):
            spec = specs[ti]
            src = g.perms.get(item.source) if item.source is not None else None
            cands = legal_targets(g, pl, spec, item=item, source=src)
            if any(s.distinct for s in specs):
                cands = distinct_candidates(g, pl, specs, item, cands)
            if not cands:
                # Only reachable for triggers (spells/abilities are offered only with targets).
                g.write_log(f"ability of {item.label}: no legal target, removed")
                g.stack.remove(item)
                g.frames.pop()
                return
            opts = [Action("target", "target " + ref_text(g, r), (r,)) for r in cands]
            g.ask(pl, K.TARGET, opts, f"choose target {ti + 1} for {item.label}: "
                      + (spec.text or spec.kind), {"stack_id": item.id, "target_index": ti})
            return
        f.step = CastStep.COSTS
    if st == CastStep.COSTS:  # 2007 CR 409.1f-h
        f.step = CastStep.PLAYED
        f.targets_text = targets_text(g, item)
        if f.trigger:
            g.frames.pop()
            g.write_log(f"ability of {item.label} triggers" + f.targets_text)
            return
        if spell is not None:
            cdef = spell.cdef
            total = spell_cost(g, pl, spell)  # 2007 CR 409.1f
            cost = total.with_x(item.x) if cdef.x_spell else total
            if cdef.x_color and item.x:
                cost = ManaCost(total.generic, add_colored(total.colored, cdef.x_color,
                                                           item.x * total.x))
            add = cdef.additional_cost
            if add is not None and (add.sacrifice or add.discard):
                push_cost_choices(g, pl, add, item)
                f.mana_due = (cost.generic, tuple(cost.colored))
                return
            pay_mana(g, pl, cost)
            if add is not None and add.sacrifice_all is not None:
                pay_sacrifice_all(g, pl, add, item)
        else:
            ab = obj
            assert item.source is not None, "an activated ability has its source"
            perm = g.perms[item.source]
            cost = ab.cost.mana.with_x(item.x) if ab.x else ab.cost.mana
            if ab.cost.tap:
                perm.tapped = True
            pay_mana(g, pl, cost, exclude=perm.id if ab.cost.tap else None)
            if ab.cost.sacrifice_all is not None:
                pay_sacrifice_all(g, pl, ab.cost, item)
            if ab.cost.pay_life:
                lose_life(g, pl, ab.cost.pay_life)
                g.write_log(f"player {pl} pays {ab.cost.pay_life} life (life {g.players[pl].life})")
            perm.used_this_turn[item.ability] = perm.used_this_turn.get(item.ability, 0) + 1
            if ab.cost.sacrifice or ab.cost.discard:
                push_cost_choices(g, pl, ab.cost, item)
                if ab.cost.sacrifice_self:
                    f.sacrifice_self = True
                return
            if ab.cost.sacrifice_self:
                leave_play(g, perm, "graveyard", sacrifice=True)
        if g.frames[-1] is not f:
            return  # a mana ability's damage waits for its order decision (painland, 616.1)
    if f.step == CastStep.PLAYED:
        if f.mana_due is not None:
            gen, col = f.mana_due
            f.mana_due = None
            pay_mana(g, pl, ManaCost(gen, col))
            add = spell.cdef.additional_cost if spell is not None else None
            if add is not None and add.sacrifice_all is not None:
                pay_sacrifice_all(g, pl, add, item)
            if g.frames[-1] is not f:
                return  # a replacement order decision (a painland's damage) comes first
        sacrifice_self = f.sacrifice_self
        f.sacrifice_self = False
        if sacrifice_self and item.source is not None and item.source in g.perms:
            leave_play(g, g.perms[item.source], "graveyard", sacrifice=True)
        g.frames.pop()
        finish_cast(g, item, f.targets_text)


def answer_cast(g: Game, f: CastFrame, a: Action) -> None:
    item = find_item(g, f.item_id)
    assert item is not None, "the object being played stays on the stack until it is played"
    if a.verb == "done":  # no more targets for a counted target spec
        f.targets_done = True
    elif a.verb == "assign":  # a target's share of the divided amount
        shares = item.data.divided
        first = len(item_def(g, item)[0]) - 1
        kind, v = item.targets[first + len(shares)]
        shares.append([kind, v, a.args[0]])
    elif a.verb == "mode":
        item.mode = a.args[0]
    elif a.verb == "x":
        item.x = a.args[0]
    elif a.verb == "target":
        item.targets.append(a.args[0])


def ask_counted_target(g: Game, f: CastFrame, pl: int, item: StackItem,
                        spec: TargetSpec, first: int) -> bool:
    """Ask for the next target of a spec taking a variable number of different targets
    (targets ``first`` on); False once no more can or will be chosen. "done" is offered once
    the minimum is reached (2007 CR 409.1d; 2012 601.2c: the same object can't be chosen
    twice for one word "target")."""
    lo, hi = target_count(item, spec)
    if spec.divided:  # each target gets at least 1 of the amount divided (2012 601.2d)
        total = divided_total(g, item)
        lo, hi = min(max(lo, 1), total), min(hi, total)
    chosen = [tuple(t) for t in item.targets[first:]]
    n = len(chosen)
    if f.targets_done or n >= hi:
        return False
    src = g.perms.get(item.source) if item.source is not None else None
    cands = [c for c in legal_targets(g, pl, spec, item=item, source=src)
             if tuple(c) not in chosen]
    if not cands:
        if n < lo:  # X is offered only up to the number of legal targets
            raise MtgError(f"engine error: {item.label} needs {lo} targets, has {n}")
        return False
    opts = [Action("target", "target " + ref_text(g, r), (r,)) for r in cands]
    if n >= lo:
        opts.insert(0, DONE)
    g.ask(pl, K.TARGET, opts, f"choose target {first + n + 1} for {item.label}: "
              + (spec.text or spec.kind) + f" ({n} of up to {hi} chosen)",
              {"stack_id": item.id, "target_index": first + n})
    return True


def divided_total(g: Game, item: StackItem) -> int:
    """The amount a spell or ability divides among its ``divided`` targets: the amount of
    its effect marked ``divided`` (X is chosen before the targets, 2007 CR 409.1c-d)."""
    for e in item_def(g, item)[1]:
        args = getattr(e, "args", None)
        if args is not None and getattr(args, "divided", False):
            amount: int = args.amount(g, item)
            return max(amount, 0)
    return 0


def ask_division(g: Game, pl: int, item: StackItem, first: int) -> bool:
    """Divide the amount among the targets from ``first`` on as the spell is played (2007 CR
    409.1d, 2012 601.2d): one decision per target but the last, which gets the rest; each
    target gets at least 1. The shares are ``item.data.divided``, ``[kind, id, n]`` in
    target order. False once the division is complete."""
    targets = item.targets[first:]
    n = len(targets)
    if not n:
        return False
    shares = item.data.divided
    total = divided_total(g, item)
    while len(shares) < n:
        i = len(shares)
        rem = total - sum(e[2] for e in shares)
        hi = rem - (n - 1 - i)  # leave at least 1 for each later target
        kind, v = targets[i]
        if i == n - 1 or hi <= 1:
            shares.append([kind, v, rem if i == n - 1 else 1])
            continue
        name = ref_text(g, targets[i])
        opts = [Action("assign", f"assign {k} damage to {name}", (k,))
                for k in range(1, hi + 1)]
        g.ask(pl, K.DIVIDE, opts, f"{item.label}: divide {rem} damage ({n - i} "
                  "targets left)", {"stack_id": item.id, "remaining": rem,
                                    "recipient": [kind, v],
                                    "divided": [list(e) for e in shares]})
        return True
    return False


def push_cost_choices(g: Game, pl: int, cost: Cost, item: StackItem) -> None:
    if cost.sacrifice:
        flt = cost.sacrifice_filter
        assert flt is not None, "a sacrifice cost has its compiled filter"
        cands = [("o", p.id) for p in g.perms.values()
                 if p.controller == pl and flt.test(p, pl)]
        g.frames.append(choose_frame(g, pl, cands, 1, 1, "sacrifice",
                                              f"sacrifice to pay for {item.label}"))
    if cost.discard:
        flt = cost.discard_filter
        cands = [("h", c.cid) for c in g.players[pl].hand
                 if flt is None or flt.test(c, pl)]
        g.frames.append(choose_frame(g, pl, cands, cost.discard, cost.discard, "discard",
                                              f"discard to pay for {item.label}"))


def pay_sacrifice_all(g: Game, pl: int, cost: Cost, item: StackItem) -> None:
    """Pay "sacrifice all creatures you control" (Soulblast), after the mana (so a creature
    may first be tapped for mana, 2007 CR 409.1g-h). Their total power as they were last
    in play is kept for ``{sacrificed: power}``."""
    fresh(g)
    flt = cost.sacrifice_all
    assert flt is not None, "called only for a cost that sacrifices all of a kind"
    test = flt.test
    gone = [p for p in g.perms.values() if p.controller == pl and test(p, pl)]
    item.data.sacrificed_power = sum(p.power for p in gone)
    leave_play_together(g, gone, "graveyard", sacrifice=True)  # one event


def finish_cast(g: Game, item: StackItem, targets_text: str) -> None:
    pl = item.controller
    if item.kind == "spell":
        g.players[pl].spells_played_this_turn += 1
        g.write_log(f"player {pl} plays {item.label}" + targets_text)
        card = item.card
        assert card is not None, "a spell's stack object has its card"
        cdef = card.cdef
        report_event(g, "cast", player=pl, colors="".join(sorted(cdef.colors)), sid=item.id)
    else:
        g.write_log(f"player {pl} activates ability of {item.label}" + targets_text)
    g.prio = pl
    g.passes = 0


def _discardable(hand: list[Card], cost: Cost, pl: int) -> int:
    """How many cards of ``hand`` a discard cost accepts ("discard a land card")."""
    flt = cost.discard_filter
    return len(hand) if flt is None else sum(1 for c in hand if flt.test(c, pl))
