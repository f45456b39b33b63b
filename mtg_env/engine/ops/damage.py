"""Ops on damage and life: deal damage, gain and lose life, prevent or redirect damage, take a
player's draws, win or lose the game. The procedures are :mod:`mtg_env.engine.damage`'s (2007 CR
212 damage, 2012 119 life); prevention and redirection shields are replacement effects
(2007 CR 419.7, :mod:`mtg_env.engine.replacement_effects`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import damage, state_based
from ..choices import choice_text, choose_frame
from ..layers import fresh
from ..replacement_effects import add_draw_replacement, add_prevention_shield, add_redirect
from ..targets import ref_text
from . import Args, Param, amount, flag, op, players, ref

if TYPE_CHECKING:
    from ..frames_choice import ChooseFrame
    from ..game import Game
    from ..model import StackItem


@op("deal_damage", amount=amount(required=True), target=ref(required=True),
    no_regen=flag("the damaged creature can't be regenerated"),
    divided=flag("N damage divided as its controller chose among the targets of a `divided` "
                 "target spec while playing it (2012 601.2d); each still-legal target is dealt "
                 "its share, an illegal one's share is not dealt (2012 608.2b)"))
def deal_damage(g: Game, item: StackItem, a: Args) -> None:
    """The source deals N damage to each referenced creature or player (with ``divided``: the
    share of N assigned to it as the spell was played)."""
    src = damage.src_of(g, item)
    if a.divided:
        shares = {(k, v): n for k, v, n in item.data.divided}
        for r in a.target(g, item):
            n = shares.get(tuple(r), 0)
            if n:
                damage.deal_damage(g, src, r, n, no_regen=a.no_regen)
        return
    n = a.amount(g, item)
    for r in a.target(g, item):
        damage.deal_damage(g, src, r, n, no_regen=a.no_regen)


def _change_life(g: Game, item: StackItem, a: Args, gain: bool) -> None:
    n = a.amount(g, item)
    for kind, v in a.who(g, item):
        if kind == "p":
            (damage.gain_life if gain else damage.lose_life)(g, v, n)
            g.write_log(f"player {v} {'gains' if gain else 'loses'} {n} life "
                        f"(life {g.players[v].life})")


@op("gain_life", amount=amount(required=True), who=players(default="controller"))
def gain_life(g: Game, item: StackItem, a: Args) -> None:
    """Each referenced player gains N life."""
    _change_life(g, item, a, gain=True)


@op("lose_life", amount=amount(required=True), who=players(default="controller"))
def lose_life(g: Game, item: StackItem, a: Args) -> None:
    """Each referenced player loses N life."""
    _change_life(g, item, a, gain=False)


@op("lose_life_per_permanent", who=players(default="each_player"),
    filter=Param("filter", default={}, doc="the permanents counted, \"you\" being that player"))
def lose_life_per_permanent(g: Game, item: StackItem, a: Args) -> None:
    """Each referenced player loses 1 life for each permanent matching the filter that he or
    she controls (Stronghold Discipline). Every count is taken first, then the losses happen
    together (no state-based check between them)."""
    fresh(g)
    test = a.filter.test
    losses = [(v, sum(1 for p in g.perms.values() if p.controller == v and test(p, v)))
              for kind, v in a.who(g, item) if kind == "p"]
    for v, n in losses:
        damage.lose_life(g, v, n)
        g.write_log(f"player {v} loses {n} life (life {g.players[v].life})")


@op("double_life", target=players(required=True))
def double_life(g: Game, item: StackItem, a: Args) -> None:
    """Double each referenced player's life total (Beacon of Immortality): they gain that much
    life, or lose it if the total is negative (-10 becomes -20, a Gatherer ruling)."""
    for kind, v in a.target(g, item):
        if kind != "p":
            continue
        life = g.players[v].life
        if life > 0:
            damage.gain_life(g, v, life)
        elif life < 0:
            damage.lose_life(g, v, -life)
        g.write_log(f"player {v}'s life total is doubled (life {g.players[v].life})")


@op("prevent_damage", amount=amount(required=True), target=ref(required=True))
def prevent_damage(g: Game, item: StackItem, a: Args) -> None:
    """"Prevent the next N damage that would be dealt to X this turn" (2007 CR 419.7): a shield
    in game.replacements (mtg_env/engine/replacement_effects.py)."""
    n = a.amount(g, item)
    for r in a.target(g, item):
        add_prevention_shield(g, r, n, item.label, item.source, item.data.card)
        g.write_log(f"{item.label}: prevent the next {n} damage to {ref_text(g, r)} this turn")


@op("prevent_all_damage", combat_only=flag("only combat damage"),
    source_colors=Param("words", choices=tuple("WUBRG"),
                        doc="only damage dealt by sources of one of these colors"))
def prevent_all_damage(g: Game, item: StackItem, a: Args) -> None:
    """"Prevent all [combat] damage [that sources of these colors would deal] this turn"
    (2007 CR 419.8): a shield with no amount and no target in game.replacements (Holy Day,
    Luminesce)."""
    colors = "".join(a.source_colors or ())
    what = ("combat " if a.combat_only else "") + "damage"
    if colors:
        what += " from " + " and ".join(f"{_COLOR_WORD[c]} sources" for c in colors)
    add_prevention_shield(g, None, None, item.label, item.source, item.data.card,
                          combat_only=a.combat_only, source_colors=colors)
    g.write_log(f"{item.label}: prevent all {what} this turn")


@op("redirect_combat_damage_to_self", unblocked_only=flag("only damage dealt by unblocked creatures"))
def redirect_combat_damage_to_self(g: Game, item: StackItem, a: Args) -> None:
    """"All combat damage that would be dealt to you [by unblocked creatures] this turn is dealt to
    [this permanent] instead" (Kjeldoran Royal Guard; 2007 CR 419.1, a redirection effect,
    2012 614.9: it does nothing if the permanent has left play or is no longer a creature)."""
    if item.source is None:
        return
    add_redirect(g, item.controller, ("o", item.source), item.label, item.source,
                 item.data.card, combat_only=True, unblocked_only=a.unblocked_only)
    who = "unblocked creatures" if a.unblocked_only else "sources"
    g.write_log(f"{item.label}: all combat damage {who} would deal to player {item.controller} this "
           "turn is dealt to it instead")


@op("steal_draws", who=players(required=True))
def steal_draws(g: Game, item: StackItem, a: Args) -> None:
    """"Until end of turn, if [player] would draw a card, instead that player skips that draw and
    you draw a card" (Plagiarize; 2007 CR 419.1, a replacement effect of a resolved spell)."""
    for kind, v in a.who(g, item):
        if kind == "p":
            add_draw_replacement(g, v, item.controller, item.label, item.source,
                                 item.data.card)
            g.write_log(f"{item.label}: until end of turn, player {item.controller} draws each card "
                   f"player {v} would draw")


_COLOR_WORD = {"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green"}


@op("lose_game", who=players(required=True))
def lose_game(g: Game, item: StackItem, a: Args) -> None:
    """Each referenced player loses the game (2007 CR 102.3: "that player loses the game")."""
    for kind, v in a.who(g, item):
        if kind == "p" and not g.is_over:
            state_based.lose_game(g, v, f"{item.label}: player {v} loses the game")


@op("win_game", who=players(default="controller"))
def win_game(g: Game, item: StackItem, a: Args) -> None:
    """The referenced player wins the game (2007 CR 102.2: "you win the game")."""
    for kind, v in a.who(g, item):
        if kind == "p" and not g.is_over:
            state_based.win_game(g, v, f"{item.label}: player {v} wins the game")


@op("prevent_next_from_chosen_source")
def prevent_next_from_chosen_source(g: Game, item: StackItem, a: Args) -> None:
    """"The next time a source of your choice of the chosen color would deal damage to you this
    turn, prevent that damage." (Story Circle.) On resolution the controller chooses a source of
    the color chosen as the ability's source came into play (mtg_env/engine/enter_choices.py):
    a permanent in play or a spell on the stack (2012 609.7a); the shield prevents all of that
    source's next damage to them this turn and is then used up (2007 CR 419.7)."""
    from ..enter_choices import COLOR_WORDS, chosen_color

    c = chosen_color(g, item.source, item)
    if c is None:
        return  # no color was chosen: the ability refers to nothing (2012 706.7a)
    fresh(g)
    cands = [("o", p.id) for p in g.perms.values() if c in p.colors]
    cands += [("s", s.id) for s in g.stack
              if s.kind == "spell" and s.card is not None and c in s.card.cdef.colors]
    if not cands:
        g.write_log(f"{item.label}: there is no {COLOR_WORDS[c]} source to choose")
        return
    g.frames.append(choose_frame(g, item.controller, cands, 1, 1, "source",
                                    f"{item.label}: choose a {COLOR_WORDS[c]} source",
                                    then={"op": "prevent_source", "label": item.label,
                                          "src": item.source, "card": item.data.card},
                                    sid=item.id))


def shield_from_chosen_source(g: Game, f: ChooseFrame, ref: tuple[Any, ...]) -> None:
    """The shield of :func:`prevent_next_from_chosen_source` once the source is chosen."""
    then = f.then
    assert then is not None  # set by prevent_next_from_chosen_source
    pl = f.player
    zone, v = ref
    add_prevention_shield(g, ("p", pl), None, then["label"], then.get("src"), then.get("card", ""),
                          source=v if zone == "o" else None,
                          source_spell=v if zone == "s" else None, once=True)
    what = g.perms[v].card.label if zone == "o" and v in g.perms else choice_text(g, list(ref))
    g.write_log(f"{then['label']}: the next time {what} would deal damage to player {pl} this turn, "
           "prevent that damage")
