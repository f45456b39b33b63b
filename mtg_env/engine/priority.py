"""Timing and priority: who may act when, and what a player may do when they have priority.

2007 CR 408 (timing, priority and the stack; 408.1 sorcery timing: main phase, empty stack), 413.1
(when both players pass in succession the top object of the stack resolves; with an empty stack
the step ends). The options offered are the spells, lands and abilities the player could play
now: whether a spell or ability can be played and how it is played (2007 CR 409, 212.6) are
:mod:`mtg_env.engine.casting`'s; mana abilities (2007 CR 411) are :mod:`mtg_env.engine.mana`'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import (
    casting,  # a module import: casting's imports lead back here
    turn_structure,  # a module import: turn_structure imports this module
)
from .actions import PASS, Action, Decision, DecisionKind
from .frames import ResolveFrame
from .layers import fresh
from .mana import activate_mana, can_afford, mana_sources
from .model import (
    Card,
    Permanent,
)
from .seating import first_priority, in_range, is_active, next_in_turn_order, players_in_game
from .targets import targets_available

if TYPE_CHECKING:
    from .abilities import ActivatedAbility
    from .game import Game

K = DecisionKind


def ask_priority(g: Game, pl: int) -> None:
    opts = priority_options(g, pl)
    if len(opts) == 1:
        if g.skip_trivial:
            # What Game.run_to_decision would do with the pass-only decision, without building it.
            g.auto_applied += 1
            g.decisions_made += 1
            answer_priority(g, pl, PASS)
            return
        g.decision = _pass_only_decision(pl)
    else:
        g.ask(pl, K.PRIORITY, opts, f"player {pl}: {g.step}, priority")


def answer_priority(g: Game, pl: int, a: Action) -> None:
    verb = a.verb
    if verb == "pass":
        g.passes += 1
        # 2007 CR 413.1: all players pass in succession (2012 116.4: every player in the game).
        if g.passes >= (2 if len(g.players) == 2 else len(players_in_game(g))):
            g.passes = 0
            if g.stack:
                g.frames.append(ResolveFrame(g.stack[-1].id))
                g.prio = first_priority(g)
            else:
                turn_structure.end_step(g)
        else:
            g.prio = next_in_turn_order(g, pl)
            g.quiet_action = True  # passing priority changes nothing an SBE or trigger looks at
        return
    g.passes = 0
    g.prio = pl
    if verb == "play":
        card = g.cards[a.args[0]]
        if card.cdef.is_land:
            casting.play_land(g, pl, card)
        else:
            casting.begin_cast(g, pl, card)
    elif verb == "mana":
        pid, ab, color = a.args
        perm = g.perms[pid]
        ability = perm.activated[ab]
        g.write_log(f"player {pl} {'taps' if ability.cost.tap and color else 'activates'} "
                  f"{perm.card.label}" + (f" for {color * ability.mana_amount}" if color else ""))
        activate_mana(g, pid, ab, color)
        # A {T}-only mana ability with no other effect changes nothing an SBE or trigger
        # looks at (2007 CR 411: it doesn't use the stack).
        g.quiet_action = ability.tap_only and not ability.effects
    elif verb == "activate":
        pid, ab = a.args
        casting.begin_activate(g, pl, pid, ab)


def priority_options(g: Game, pl: int) -> list[Action]:
    fresh(g)
    P = g.players[pl]
    opts = [PASS]
    sorcery_ok = ((pl == g.active or (g.variant == "two_headed_giant" and is_active(g, pl)))
                  and g.step in turn_structure.MAIN_STEPS and not g.stack)
    sources = None
    mods = g.rule_mods
    # Rule of Law: "Each player can't play more than one spell each turn." (it counts the
    # spells played before it came into play too); Steel Golem: "You can't play creature
    # spells." (2007 CR 409.1: a spell that can't be played isn't offered).
    spells_ok = not (mods and "one_spell_per_turn" in mods and P.spells_played_this_turn
                     and any(isinstance(c, int) and in_range(g, c, pl)
                             for c in mods["one_spell_per_turn"]))  # 2012 801.10
    # Pithing Needle: "Activated abilities of sources with the chosen name can't be played
    # unless they're mana abilities." (2007 CR 409.1: not offered.)
    pithed = mods.get("chosen_name_abilities_cant_be_played") if mods else None
    no_creatures = bool(mods) and pl in mods.get("cant_play_creature_spells", ())
    for card in P.hand:
        cdef = card.cdef
        if cdef.is_land:
            if sorcery_ok and P.lands_played < 1:
                opts.append(_play_action(card))
            continue
        if not spells_ok or not (sorcery_ok or cdef.instant_speed):
            continue
        if no_creatures and "Creature" in cdef.types:
            continue
        if sources is None:
            sources = mana_sources(g, pl)
            avail = sum(P.mana_pool) + len(sources)
        cost = cdef.cost
        if cdef.static or (mods and "spell_cost_more" in mods):
            cost = casting.spell_cost(g, pl, card)
        if cost.cmc > avail:
            continue
        if casting.can_cast(g, pl, card, sources, cost):
            opts.append(_play_action(card))
    if (sorcery_ok and P.lands_played < 1 and mods
            and pl in mods.get("play_lands_from_graveyard", ())):
        for card in P.graveyard:  # Crucible of Worlds
            if card.cdef.is_land:
                opts.append(_play_from_graveyard_action(card))
    for perm in g.perms.values():
        if perm.controller != pl:
            continue
        acts = perm.activated  # its abilities now: printed, copied or granted (418.5)
        if not acts:
            continue
        n_nonmana = -1
        i = -1  # the ability's position in ``acts`` (cheaper than enumerate for 1-2 abilities)
        for ab in acts:
            i += 1
            if ab.tap_only:  # the common case (lands): {T} is the whole cost
                if perm.tapped or (perm.sick and "Creature" in perm.types
                                   and "haste" not in perm.keywords):
                    continue
            elif not casting.can_pay_nonmana(g, pl, perm, ab):
                continue
            elif ab.mana is not None and not ab.cost.mana.free:
                # A mana ability is offered only when its whole cost can be paid.
                if sources is None:
                    sources = mana_sources(g, pl)
                if not can_afford(g, pl, ab.cost.mana, sources,
                                        exclude=perm.id if ab.cost.tap else None):
                    continue
            if ab.mana is not None:
                if acts is perm.base.activated:
                    for color in ab.mana:
                        opts.append(_mana_action(perm, ab, i, color))
                else:
                    _add_granted_mana(opts, perm, acts, i)
                continue
            if n_nonmana < 0:
                n_nonmana = sum(1 for a in acts if a.mana is None)
            if pithed and perm.cdef.name in pithed:
                continue
            if ab.sorcery_speed and not sorcery_ok:
                continue
            if ab.max_per_turn and perm.used_this_turn.get(i, 0) >= ab.max_per_turn:
                continue
            if sources is None:
                sources = mana_sources(g, pl)
            if not can_afford(g, pl, ab.cost.mana, sources,
                                    exclude=perm.id if ab.cost.tap else None):
                continue
            if not targets_available(g, pl, ab.targets, source=perm):
                continue
            opts.append(_activate_action(perm, i, n_nonmana > 1))
    return opts


_ACTION_CACHE: dict[tuple[object, ...], Action] = {}


def _store(key: tuple[object, ...], verb: str, text: str, args: tuple[Any, ...]) -> Action:
    """Option objects are immutable, so the same option is built once and reused: the builders
    below look ``key`` up first and build the text only when it isn't there."""
    if len(_ACTION_CACHE) > 100_000:
        _ACTION_CACHE.clear()
    a = _ACTION_CACHE[key] = Action(verb, text, args)
    return a


def _play_action(card: Card) -> Action:
    key = ("play", card.cid, card.label)
    a = _ACTION_CACHE.get(key)
    return a if a is not None else _store(key, "play", "play " + card.label, (card.cid,))


def _play_from_graveyard_action(card: Card) -> Action:
    """Play a land card from the graveyard (Crucible of Worlds): the same ``play`` verb, which
    the env maps to the card's graveyard row."""
    key = ("play_gy", card.cid, card.label)
    a = _ACTION_CACHE.get(key)
    return a if a is not None else _store(key, "play", f"play {card.label} from graveyard",
                                          (card.cid,))


def _activate_action(perm: Permanent, index: int, numbered: bool) -> Action:
    """``index`` is the ability's position among the permanent's abilities now (printed first,
    then granted ones)."""
    label = perm.card.label
    key = ("activate", perm.id, label, index, numbered)
    a = _ACTION_CACHE.get(key)
    if a is None:
        a = _store(key, "activate", f"activate {label}" + (f" ability {index + 1}" if numbered else ""),
                   (perm.id, index))
    return a


def _add_granted_mana(opts: list[Action], perm: Permanent, acts: tuple[ActivatedAbility, ...],
                      i: int) -> None:
    """Offer mana ability ``acts[i]`` of a permanent with granted abilities (Joiner Adept's
    "{T}: Add one mana of any color" on a Swamp): an option whose text another of its mana
    abilities already offers is offered once, by the ability without a side effect (a painland's
    colored mana from the granted ability, not its own painful one)."""
    ab = acts[i]
    assert ab.mana is not None  # the caller passes a mana ability
    for color in ab.mana:
        act = _mana_action(perm, ab, i, color)
        for k, o in enumerate(opts):
            if o.text == act.text:
                if acts[o.args[1]].effects and not ab.effects:
                    opts[k] = act
                break
        else:
            opts.append(act)


def _mana_action(perm: Permanent, ab: ActivatedAbility, index: int, color: str) -> Action:
    label = perm.card.label
    key = ("mana", perm.id, label, index, color, ab)
    a = _ACTION_CACHE.get(key)
    if a is None:
        text = (f"{'tap' if ab.cost.tap else 'activate'} {label} for {color * ab.mana_amount}"
                if color
                # no mana of its own (Doubling Cube); distinct from a non-mana ability
                else f"activate {label} (mana ability)")
        a = _store(key, "mana", text, (perm.id, index, color))
    return a


_PASS_ONLY: dict[int, Decision] = {}


def _pass_only_decision(pl: int) -> Decision:
    """One shared, immutable decision object for the common pass-only priority."""
    d = _PASS_ONLY.get(pl)
    if d is None:
        d = Decision(pl, K.PRIORITY, [PASS], f"player {pl}: priority (nothing to do but pass)")
        _PASS_ONLY[pl] = d
    return d
