"""Generic choice procedures: choosing cards or permanents (discard, sacrifice, search),
yes/no for "may" abilities, shuffling.

2012 701.15 (search), 2007 CR 101.1/2012 701.7 (discard), 2012 701.13 (sacrifice); choices made on
resolution are decisions of the player the effect names (2007 CR 413.2 / 2012 608.2d).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from . import damage, mana, stack, zones  # module imports: both lead back here through their imports
from .actions import DONE, NO, YES, Action, DecisionKind
from .errors import MtgError
from .frames import PayFrame, ShuffleFrame, YesNoFrame
from .frames_choice import ChooseFrame
from .ids import next_timestamp
from .knowledge import learn, shown_from_hand, shuffle_library, to_hand_in_public
from .layers import mark_dirty
from .seating import in_range
from .targets import ref_player
from .triggers import report_event

if TYPE_CHECKING:
    from .game import Game
    from .model import Permanent, StackItem
    from .ops import Args

K = DecisionKind


def choose_frame(g: Game, pl: int, cands: Iterable[Sequence[Any]], n_min: int,
                  n_max: int, verb: str, prompt: str, then: dict[str, Any] | None = None,
                  sid: int | None = None) -> ChooseFrame:
    """The procedure of player ``pl`` choosing ``n_min`` to ``n_max`` of ``cands`` (references
    to objects, cards or players). Under the limited range of influence option only those
    within ``pl``'s range are offered (2012 801.5a)."""
    if g.influence:
        cands = [c for c in cands
                 if c[0] not in "poshc" or in_range(g, pl, ref_player(g, c))]
    return ChooseFrame(pl, [list(c) for c in cands], n_min, n_max, verb, prompt, [], then, sid)


def run_choose(g: Game, f: ChooseFrame) -> None:
    chosen = f.chosen
    cands = [c for c in f.candidates if c not in chosen and choice_exists(g, c)]
    need_min = min(f.min_count, len(chosen) + len(cands))
    if len(chosen) >= f.max_count or not cands:
        finish_choose(g, f)
        return
    shown_from_hand(g, f.player, cands)
    opts = []
    copy = f.verb == "copy"
    for c in cands:
        text = choice_text(g, c)
        if copy and c[0] == "o":
            # Clone's choice names what it would copy: a Clone that is a Grizzly Bears
            # copies a Grizzly Bears (2007 CR 503: the copiable values, its own copy effect
            # included), "copy Clone (Grizzly Bears)".
            p = g.perms[c[1]]
            if p.cdef.name != p.card.name:
                text += f" ({p.cdef.name})"
        opts.append(Action("choose", f"{f.verb} {text}", (tuple(c),)))
    if len(chosen) >= need_min:
        opts.append(DONE)
    ctx = {"verb": f.verb, "chosen": [list(c) for c in chosen], "stack_id": f.item_id,
           "min": f.min_count, "max": f.max_count}
    if f.info is not None:  # what else the question shows (a shield's: replacement.py)
        ctx.update(f.info)
    g.ask(f.player, K.CHOOSE_CARDS, opts, f.prompt, ctx)


def answer_choose(g: Game, f: ChooseFrame, a: Action) -> None:
    if a.verb == "done":
        finish_choose(g, f)
    else:
        f.chosen.append(list(a.args[0]))


def choice_exists(g: Game, c: Sequence[Any]) -> bool:
    zone, v = c
    if zone == "o":
        return v in g.perms
    if zone == "h":
        return any(x.cid == v for P in g.players for x in P.hand)
    if zone == "c":
        card = g.cards[v]
        P = g.players[card.owner]
        return card in P.library or card in P.graveyard
    if zone == "s":
        return stack.find_item(g, v) is not None
    return True


def choice_text(g: Game, c: Sequence[Any]) -> str:
    zone, v = c
    if zone == "o":
        return g.perms[v].card.label
    if zone == "p":
        return f"player {v}"
    if zone == "s":
        item = stack.find_item(g, v)
        assert item is not None  # a spell chosen among those on the stack
        return f"spell {item.label}"
    return g.cards[v].label


def finish_choose(g: Game, f: ChooseFrame) -> None:
    g.frames.pop()
    apply_choice(g, f)


def run_shuffle(g: Game, f: ShuffleFrame) -> None:
    g.frames.pop()
    shuffle_library(g, f.player)
    g.write_log(f"player {f.player} shuffles their library")


def run_yesno(g: Game, f: YesNoFrame) -> None:
    g.ask(f.player, K.YES_NO, [YES, NO], f.prompt, {"stack_id": f.item_id})


def answer_yesno(g: Game, f: YesNoFrame, a: Action) -> None:
    g.frames.pop()
    item = stack.find_item(g, f.item_id)
    if item is not None:
        setattr(item.data, f.key, a.verb == "yes")


def run_pay(g: Game, f: PayFrame) -> None:
    """A cost paid on resolution (:mod:`mtg_env.engine.ops.payment`): ask the payer."""
    g.ask(f.player, K.YES_NO, [YES, NO], f.prompt, {"stack_id": f.item_id})


def answer_pay(g: Game, f: PayFrame, a: Action) -> None:
    from .mana_cost import ManaCost
    from .ops import effect_args
    from .ops.payment import can_pay

    g.frames.pop()
    item = stack.find_item(g, f.item_id)
    if item is None:
        return
    args = effect_args(stack.item_def(g, item)[1][f.effect_index])  # plain data in a rules trigger
    pl = f.player
    paid = a.verb == "yes" and can_pay(g, pl, args)
    if paid:
        if args.mana:
            mana.pay_mana(g, pl, ManaCost.parse(args.mana), auto=True)
        if getattr(args, "discard", None) is not None:
            test = args.discard.test
            cands = [("h", c.cid) for c in g.players[pl].hand if test(c, pl)]
            g.frames.append(choose_frame(g, pl, cands, 1, 1, "discard",
                                                  f"{item.label}: discard to pay",
                                                  sid=item.id))
    else:
        g.write_log(f"player {pl} doesn't pay")
    if paid == (f.mode == "may"):
        run_pay_effects(g, item, args)


def run_pay_effects(g: Game, item: StackItem, args: Args) -> None:
    """Run the effects of a payment on resolution (paid for "may", unpaid for "unless")."""
    from .ops import run_effects

    run_effects(g, item, args.effects)


def apply_choice(g: Game, f: ChooseFrame) -> None:
    """Do what a finished choice says (``f.then``'s op, else its verb) with the chosen."""
    then = f.then or {}
    action = then.get("op", f.verb)
    chosen = f.chosen
    if action == "copy_as_enters":
        # Clone's "as ... comes into play, you may choose": recorded on the resolving spell.
        item = stack.find_item(g, f.item_id)
        if item is not None:
            item.data.copy_of = chosen[0][1] if chosen else None
        return
    if action == "copy_entering":
        # Clone put into play by an effect: it comes into play as a copy of the chosen one.
        zones.enter_as_copy(g, then["pid"], chosen[0][1] if chosen else None,
                        then["tapped"], then["etb"])
        return
    if action == "shield_first":
        # Which source's damage a shield prevents (2012 615.7): kept on the combat damage
        # being dealt; ``done`` (nothing chosen) names a source that has left play.
        item = stack.find_item(g, f.item_id)
        if item is not None:
            pid = chosen[0][1] if chosen else None
            item.data.shield_first = [*item.data.shield_first, [then["rid"], pid]]
            what = g.perms[pid].card.label if pid in g.perms else "a source that has left play"
            g.write_log(f"player {f.player} chooses the damage from {what} for the prevention shield")
        return
    if action == "prevent_source":
        from .ops.damage import shield_from_chosen_source

        if chosen:
            shield_from_chosen_source(g, f, tuple(chosen[0]))
        return
    if action == "attach_card" or (action == "play" and then.get("host") is not None):
        for _zone, v in chosen:
            if action == "attach_card":  # the host was chosen: put the Aura card on it
                zones.put_aura_into_play(g, g.cards[then["card"]], v, f.player)
            else:  # the Aura card was chosen: attach it to the named host
                zones.put_aura_into_play(g, g.cards[v], then["host"], f.player)
        return
    if action in ("hand", "library_top", "library_bottom", "play_tapped", "play"):
        _move_cards(g, f, action, then)
        return
    leaving: list[Permanent] = []  # chosen permanents sacrificed, returned or destroyed at the same time
    for zone, v in chosen:
        if zone == "h":
            card = g.cards[v]
            if zones.take_card(g, card, "hand"):
                if action in ("discard",):
                    g.write_log(f"player {card.owner} discards {card.label}")
                    zones.to_zone(g, card, "graveyard")
                    if "cause" in then:  # an effect's discard, not a cost's
                        report_event(g, "discard", player=card.owner, card=card.cid,
                                 cause=then["cause"])
                    else:
                        report_event(g, "discard", player=card.owner, card=card.cid)
                else:
                    raise MtgError(f"engine error: cannot {action} a card in hand")
        elif zone == "o":
            perm = g.perms.get(v)
            if perm is None:
                continue
            if action in ("sacrifice", "bounce", "return", "destroy"):
                leaving.append(perm)
            elif action in ("tap", "untap"):
                perm.tapped = action == "tap"
                g.write_log(f"{perm.card.label} is {action}ped")
            elif action == "attach":
                _attach_aura(g, then["aura"], perm)
            else:
                raise MtgError(f"engine error: unknown choice action {action!r}")
    if not leaving:
        return
    if action == "destroy":
        damage.destroy_all(g, leaving)
    else:
        zones.leave_play_together(g, leaving, "graveyard" if action == "sacrifice" else "hand",
                               sacrifice=action == "sacrifice")


def _attach_aura(g: Game, aura_id: int, host: Permanent) -> None:
    """Attach an Aura to a new permanent (2007 glossary "Attach": a new timestamp)."""
    aura = g.perms.get(aura_id)
    if aura is None or aura.attached_to == host.id:
        return
    aura.attached_to = host.id
    aura.timestamp = next_timestamp(g)
    mark_dirty(g, "attachment")
    g.write_log(f"{aura.card.label} is attached to {host.card.label}")


def _move_cards(g: Game, f: ChooseFrame, action: str, then: dict[str, Any]) -> None:
    chosen = [g.cards[v] for zone, v in f.chosen]
    if action == "library_top":
        chosen = list(reversed(chosen))  # the first chosen ends up on top
    for card in chosen:
        P = g.players[card.owner]
        public = False
        for zone in ("library", "graveyard", "hand"):
            if zones.take_card(g, card, zone):
                public = zone == "graveyard"
                break
        if g.known:
            g.known.pop(card.cid, None)
        if action == "hand":
            P.hand.append(card)
            if public:
                to_hand_in_public(g, card)
            what = card.label if then.get("reveal") else "a card"
            g.write_log(f"player {card.owner} puts {what} into their hand")
        elif action in ("play", "play_tapped"):
            g.write_log(f"player {card.owner} puts {card.label} into play")
            zones.put_into_play(g, card, f.player, tapped=action == "play_tapped")
        elif action == "library_top":
            P.library.insert(0, card)
        else:
            P.library.append(card)
    if action in ("library_top", "library_bottom") and chosen:
        g.write_log(f"player {f.player} puts {len(chosen)} card(s) on the "
               f"{'top' if action == 'library_top' else 'bottom'} of their library")
    if then.get("learn") and chosen:  # revealed, or seen by the searcher: known where it went
        learn(g, chosen, then["learn"])
    group = f.group
    if group is not None:
        done = {tuple(c) for c in f.chosen}
        for other in g.frames:
            if isinstance(other, ChooseFrame) and other.group == group:
                other.candidates = [c for c in other.candidates if tuple(c) not in done]
