"""Engine tests of the replacement events beyond damage and destruction
(mtg_env/engine/replacement.py): draws, every move to a graveyard, and redirection effects created
by a resolved ability.

Rules: 2007 CR 419.1 (replacement effects: "instead", "skip"), 2012 120.2 (cards are drawn one
at a time), 614.6 (a replaced event never happens; the modified event happens instead), 614.9
(redirection effects do nothing if the new recipient has left play or is no longer a creature),
616.1 (the affected player chooses the order of several effects; each applies once), 112.6b
(an ability that says where it functions, "from anywhere").
"""

from __future__ import annotations

import pytest

from mtg_env import DecisionKind
from mtg_env.engine.damage import deal_damage
from mtg_env.engine.frames_effects import OrderReplFrame
from mtg_env.engine.replacement import graveyard_destination
from mtg_env.engine.replacement_effects import add_draw_replacement, add_prevention_shield, add_redirect
from mtg_env.engine.zones import draw_cards, leave_play
from mtg_env.testing import Scenario, card_names, main, watch_events

K = DecisionKind


# -- draws ----------------------------------------------------------------------------------------
def test_each_card_drawn_is_a_separate_replaced_event() -> None:
    """2012 120.2: a player told to draw three cards performs three draws; a draw replacement
    (player 1's draws go to player 0, 2007 CR 419.1) replaces each one."""
    s = main({"library": ["Forest"] * 5}, {"library": ["Mountain"] * 5})
    g = s.game
    add_draw_replacement(g, 1, 0, "test")
    draw_cards(g, 1, 3)
    assert card_names(g.players[0].hand) == ["Forest"] * 3
    assert g.players[1].hand == []
    assert len(g.players[1].library) == 5


def test_replaced_draw_from_an_empty_library() -> None:
    """2012 614.6: the modified event happens instead: player 1's draw becomes player 0's draw,
    and player 0, whose library is empty, is the one who draws from an empty library (2007 CR
    420.5g); player 1 is not."""
    s = main({"library": []}, {"library": ["Mountain"]})
    g = s.game
    add_draw_replacement(g, 1, 0, "test")
    draw_cards(g, 1, 1)
    assert g.players[0].drew_from_empty
    assert not g.players[1].drew_from_empty
    assert card_names(g.players[1].library) == ["Mountain"]


def test_draw_replacements_each_apply_once_and_need_no_order_in_two_player_games() -> None:
    """2012 616.1: each replacement effect applies at most once to an event. Player 0's draw is
    moved to player 1, back to player 0, and to player 1 again (three effects): player 1 draws
    one card, and nobody is asked for an order (with two players it can't change who draws)."""
    s = main({"library": ["Forest"]}, {"library": ["Mountain"]})
    g = s.game
    add_draw_replacement(g, 0, 1, "a")
    add_draw_replacement(g, 1, 0, "b")
    add_draw_replacement(g, 0, 1, "c")
    draw_cards(g, 0, 1)
    assert card_names(g.players[1].hand) == ["Mountain"]
    assert g.players[0].hand == []
    assert not any(isinstance(f, OrderReplFrame) for f in g.frames)


def test_draw_replacements_end_at_cleanup() -> None:
    """"Until end of turn" replacement effects end in the cleanup step (2012 514.2)."""
    s = main({"library": ["Forest"] * 3}, {"library": ["Mountain"] * 3})
    add_draw_replacement(s.game, 1, 0, "test")
    s.advance_to("precombat_main", active=1)
    assert card_names(s.game.players[1].hand) == ["Mountain"]
    assert s.game.players[0].hand == []


# -- the graveyard checkpoint ---------------------------------------------------------------------
def test_graveyard_checkpoint_only_for_cards_that_say_so() -> None:
    """2007 CR 419.1: only a card with "if [this] would be put into a graveyard from anywhere
    ... instead" goes elsewhere; other cards go to the graveyard."""
    s = main({"hand": ["Legacy Weapon", "Grizzly Bears"]})
    lw, bears = s.game.players[0].hand
    assert graveyard_destination(s.game, lw) == "library_shuffle"
    assert graveyard_destination(s.game, bears) == "graveyard"


def test_sacrificed_permanent_goes_through_the_checkpoint(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every path to a graveyard passes the checkpoint: a sacrificed Legacy Weapon (a permanent
    put into the graveyard from play) is shuffled into its owner's library; its leaves-play
    event names the library, not the graveyard (2012 614.6: the replaced event never happens)."""
    s = main({"in_play": ["Legacy Weapon"], "library": ["Forest", "Forest"]})
    g = s.game
    perm = s.perm("Legacy Weapon")
    seen: list = []
    watch_events(monkeypatch, g, lambda name, ev: seen.append((name, ev.get("zone"))))
    leave_play(g, perm, "graveyard", sacrifice=True)
    assert ("leaves_play", "library_shuffle") in seen
    assert g.players[0].graveyard == []
    assert card_names(g.players[0].library).count("Legacy Weapon") == 1
    assert len(g.players[0].library) == 3


def test_other_zones_than_the_graveyard_are_not_replaced() -> None:
    """The checkpoint watches moves to a graveyard only: returned to its owner's hand, Legacy
    Weapon goes to the hand."""
    s = main({"in_play": ["Legacy Weapon"]})
    g = s.game
    leave_play(g, s.perm("Legacy Weapon"), "hand")
    assert card_names(g.players[0].hand) == ["Legacy Weapon"]


# -- redirection from a resolved ability ----------------------------------------------------------
def test_redirect_sends_damage_to_the_creature() -> None:
    """2012 614.9: a redirection effect: damage that would be dealt to player 0 is dealt to
    player 0's Hill Giant instead (here for any damage, not only combat damage)."""
    s = main({"in_play": ["Hill Giant"]}, {"hand": ["Shock"], "in_play": ["Mountain"]})
    g = s.game
    add_redirect(g, 0, ("o", s.perm("Hill Giant").id), "test")
    src = {"pid": None, "label": "Shock", "colors": "R", "controller": 1}
    assert deal_damage(g, src, ("p", 0), 2) == 2
    s.assert_life(0, 20)
    s.assert_damage("Hill Giant", 2)


def test_redirect_does_nothing_once_the_creature_is_gone() -> None:
    """2012 614.9: "If [the creature] is no longer on the battlefield when the damage would be
    redirected ... the effect does nothing": the damage is dealt to player 0."""
    s = main({"in_play": ["Hill Giant"]})
    g = s.game
    giant = s.perm("Hill Giant")
    add_redirect(g, 0, ("o", giant.id), "test")
    leave_play(g, giant, "hand")
    deal_damage(g, {"pid": None, "label": "Shock", "colors": "R", "controller": 1}, ("p", 0), 2)
    s.assert_life(0, 18)


def test_redirect_combat_only_and_unblocked_only() -> None:
    """A redirection limited to combat damage from unblocked creatures ignores other damage:
    noncombat damage, and combat damage from a source not marked unblocked, reach player 0."""
    s = main({"in_play": ["Hill Giant"]})
    g = s.game
    add_redirect(g, 0, ("o", s.perm("Hill Giant").id), "test", combat_only=True,
                 unblocked_only=True)
    src = {"pid": None, "label": "X", "colors": "", "controller": 1}
    deal_damage(g, src, ("p", 0), 1)
    deal_damage(g, {**src, "unblocked": False}, ("p", 0), 1, combat=True)
    s.assert_life(0, 18)
    deal_damage(g, {**src, "unblocked": True}, ("p", 0), 1, combat=True)
    s.assert_life(0, 18)
    s.assert_damage("Hill Giant", 1)


def test_redirect_and_prevention_shield_the_affected_player_orders_them() -> None:
    """2012 616.1: two effects apply to 2 damage to player 0 -- a prevention shield for player 0
    and a redirection to player 0's Hill Giant -- with different results, so player 0 chooses.
    Redirecting first deals the damage to the Giant (the shield no longer applies)."""
    s = Scenario({"turn": 3, "active_player": 1, "step": "precombat_main", "players": [
        {"in_play": ["Hill Giant"]}, {"hand": ["Shock"], "in_play": ["Mountain"]}]})
    g = s.game
    giant = s.perm("Hill Giant")
    add_prevention_shield(g, ("p", 0), 2, "shield")
    add_redirect(g, 0, ("o", giant.id), "redirect")
    s.do("play Shock", "target player 0")
    s.resolve()
    d = g.decision
    assert d.kind is K.ORDER_REPLACEMENTS and d.player == 0
    assert len(d.options) == 2
    g.apply("apply redirect first")
    s.assert_life(0, 20)
    s.assert_damage("Hill Giant", 2)
