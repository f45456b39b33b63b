"""Scenario tests for the cards proving the replacement and prevention framework:
Furnace of Rath, Bandage and Samite Healer, with regeneration, Pariah and the order decision.

Each test quotes the printed 2007 text it checks. Rule numbers are 2007 CR where known, else 2012
CR (the order of several replacement/prevention effects is 2012 616.1).
"""

from __future__ import annotations

import pytest

from mtg_env import DecisionKind, Game
from mtg_env.testing import Scenario, logged, main

K = DecisionKind
FIRE = "apply Furnace of Rath first"
BANDAGE_FIRST = "apply prevention shield (Bandage) first"


# -- Furnace of Rath ----------------------------------------------------------------------------
def test_furnace_doubles_damage_to_a_player() -> None:
    """Furnace of Rath: "If a source would deal damage to a creature or player, it deals double
    that damage to that creature or player instead." Shock (2) deals 4 to player 1."""
    s = main({"hand": ["Shock"], "in_play": ["Mountain", "Furnace of Rath"]})
    s.do("play Shock", "target player 1")
    s.resolve()
    s.assert_life(1, 16)
    assert logged(s, "Shock deals 4 damage to player 1")


def test_furnace_doubles_damage_to_a_creature() -> None:
    """Furnace of Rath doubles damage to a creature too: Shock kills Hill Giant (3/3) with 4."""
    s = main({"hand": ["Shock"], "in_play": ["Mountain", "Furnace of Rath"]},
             {"in_play": ["Hill Giant"]})
    s.do("play Shock", "target Hill Giant")
    s.resolve()
    s.assert_in_play("Hill Giant", False)
    assert logged(s, "Shock deals 4 damage to Hill Giant")


def test_furnace_doubles_its_controllers_damage_to_themself_and_combat_damage() -> None:
    """Furnace of Rath says "a source": it doubles any player's damage, combat damage included.
    Player 1's Grizzly Bears (2) attack player 0, who controls the Furnace: 4 damage."""
    s = Scenario({"turn": 3, "active_player": 1, "step": "declare_blockers", "players": [
        {"in_play": ["Furnace of Rath"]},
        {"in_play": [{"card": "Grizzly Bears", "attacking": True}]}]})
    s.advance_to("end_of_combat", active=1)
    s.assert_life(0, 16)


def test_two_furnaces_quadruple_without_a_decision() -> None:
    """Two Furnaces of Rath: each applies once (2012 616.1), so Shock's 2 becomes 8. The two
    effects are identical, so the order doesn't matter and nobody is asked."""
    s = main({"hand": ["Shock"], "in_play": ["Mountain", "Furnace of Rath", "Furnace of Rath"]})
    s.do("play Shock", "target player 1")
    s.resolve()
    s.assert_life(1, 12)
    assert s.game.decision.kind is K.PRIORITY


def test_furnace_needs_damage_to_a_creature_or_player_life_loss_is_not_doubled() -> None:
    """Furnace of Rath replaces damage only: mana burn is life loss (2007 CR 300.3), not damage,
    so it is not doubled. Player 0 floats {R} and burns for 1 at the end of the phase."""
    s = Scenario({"turn": 3, "step": "precombat_main",
                  "players": [{"in_play": ["Mountain", "Furnace of Rath"]}, {}]}, manual_mana=True)
    s.do("tap Mountain for R")
    s.pass_priority(2)
    s.assert_life(0, 19)


# -- Bandage -------------------------------------------------------------------------------------
def test_bandage_prevents_the_next_1_damage_to_a_player_and_draws() -> None:
    """Bandage: "Prevent the next 1 damage that would be dealt to target creature or player this
    turn. Draw a card." The shield takes 1 of a Shock; a second Shock is dealt in full ("next 1":
    2007 CR 419.7, the shield is used up). One effect: no order decision."""
    s = main({"hand": ["Bandage", "Shock", "Shock"], "library": ["Forest"],
              "in_play": ["Plains", "Mountain", "Mountain"]})
    s.do("play Bandage", "target player 1")
    s.resolve()
    s.assert_zone(0, "hand", "Forest")
    s.do("play Shock", "target player 1")
    s.resolve()
    assert s.game.decision.kind is K.PRIORITY
    s.assert_life(1, 19)
    s.do("play Shock#2", "target player 1")
    s.resolve()
    s.assert_life(1, 17)


def test_bandage_on_a_creature_saves_it() -> None:
    """Bandage targets a creature as well: with the shield Grizzly Bears (2/2) takes 1 of a
    Shock and survives."""
    s = main({"hand": ["Bandage", "Shock"], "library": ["Forest"],
              "in_play": ["Plains", "Mountain", "Grizzly Bears"]})
    s.do("play Bandage", "target Grizzly Bears")
    s.resolve()
    s.do("play Shock", "target Grizzly Bears")
    s.resolve()
    s.assert_damage("Grizzly Bears", 1)


def test_bandage_shield_only_protects_its_target() -> None:
    """Bandage prevents damage to its target only: a Shock at the other player is dealt in full
    and the shield stays."""
    s = main({"hand": ["Bandage", "Shock"], "library": ["Forest"],
              "in_play": ["Plains", "Mountain"]})
    s.do("play Bandage", "target player 1")
    s.resolve()
    s.do("play Shock", "target player 0")
    s.resolve()
    s.assert_life(0, 18)
    assert [r.target for r in s.game.replacements] == [("p", 1)]


def test_bandage_shield_ends_at_cleanup() -> None:
    """Bandage: "... this turn": the shield ends in the cleanup step (2012 514.2); next turn a
    Shock is dealt in full."""
    s = main({"hand": ["Bandage"], "library": ["Forest", "Forest"], "in_play": ["Plains"]},
             {"hand": ["Shock"], "in_play": ["Mountain"], "library": ["Forest"]})
    s.do("play Bandage", "target player 0")
    s.resolve()
    assert s.game.replacements
    s.advance_to("upkeep", active=1)
    assert s.game.replacements == []
    s.do("play Shock", "target player 0")
    s.resolve()
    s.assert_life(0, 18)


# -- Samite Healer --------------------------------------------------------------------------------
def test_samite_healer_prevents_the_next_1_damage() -> None:
    """Samite Healer: "{T}: Prevent the next 1 damage that would be dealt to target creature or
    player this turn." The Healer taps; 1 of Shock's 2 damage to Hill Giant is prevented."""
    s = main({"hand": ["Shock"], "in_play": ["Mountain", "Samite Healer"]},
             {"in_play": ["Hill Giant"]})
    s.do("activate Samite Healer", "target Hill Giant")
    s.resolve()
    assert s.perm("Samite Healer").tapped
    s.do("play Shock", "target Hill Giant")
    s.resolve()
    s.assert_damage("Hill Giant", 1)


def test_samite_healer_needs_to_tap() -> None:
    """Samite Healer's cost is {T}: a tapped Healer can't activate it, and neither can one its
    controller hasn't controlled continuously since the turn began (2012 302.6, summoning
    sickness)."""
    s = main({"in_play": [{"card": "Samite Healer", "tapped": True}]})
    assert not [o for o in s.options() if o.startswith("activate Samite Healer")]
    s = main({"in_play": [{"card": "Samite Healer", "summoning_sick": True}]})
    assert not [o for o in s.options() if o.startswith("activate Samite Healer")]


def test_two_samite_healer_shields_are_identical_no_decision() -> None:
    """Two 1-damage shields from two Samite Healers on one player are identical effects: the order
    can't matter, so there is no decision (2012 616.1); together they prevent all of Shock's 2
    and are used up."""
    s = main({"hand": ["Shock"], "in_play": ["Mountain", "Samite Healer", "Samite Healer"]})
    s.do("activate Samite Healer", "target player 1")
    s.resolve()
    s.do("activate Samite Healer#2", "target player 1")
    s.resolve()
    s.do("play Shock", "target player 1")
    s.resolve()
    assert s.game.decision.kind is K.PRIORITY
    s.assert_life(1, 20)
    assert s.game.replacements == []


# -- Furnace + a prevention shield: the affected player orders them (2012 616.1) ---------------
def furnace_and_bandage() -> Scenario:
    """Player 1 has a Bandage shield; player 0 controls Furnace of Rath and Shocks player 1."""
    s = main({"hand": ["Bandage", "Shock"], "library": ["Forest"],
              "in_play": ["Plains", "Mountain", "Furnace of Rath"]})
    s.do("play Bandage", "target player 1")
    s.resolve()
    s.do("play Shock", "target player 1")
    s.pass_priority(2)
    d = s.game.decision
    assert d.kind is K.ORDER_REPLACEMENTS and d.player == 1
    assert s.options() == [FIRE, BANDAGE_FIRST]
    return s


def test_prevention_first_then_double() -> None:
    """2012 616.1: the affected player chooses. Prevent first: 2 -> 1, then doubled -> 2."""
    s = furnace_and_bandage()
    s.do(BANDAGE_FIRST)
    s.assert_life(1, 18)
    assert s.game.replacements == []
    assert s.game.decision.kind is K.PRIORITY


def test_double_first_then_prevention() -> None:
    """2012 616.1: double first: 2 -> 4, then the shield prevents 1 -> 3."""
    s = furnace_and_bandage()
    s.do(FIRE)
    s.assert_life(1, 17)
    assert s.game.replacements == []


def test_order_decision_survives_copy_and_json() -> None:
    """The event waiting for the order decision is plain data in a frame: ``copy()`` and a JSON
    round trip in the middle of it give independent games that finish the same way."""
    s = furnace_and_bandage()
    g = s.game
    c = g.copy()
    j = Game.from_json(g.to_json())
    assert j.to_json() == g.to_json()
    g.apply(BANDAGE_FIRST)
    assert g.players[1].life == 18
    assert c.decision.kind is K.ORDER_REPLACEMENTS and c.players[1].life == 20
    c.apply(FIRE)
    j.apply(FIRE)
    assert c.players[1].life == 17 and j.players[1].life == 17
    assert c.to_json() == j.to_json()


def test_illegal_order_option_leaves_state_unchanged() -> None:
    """An option that isn't offered raises and changes nothing."""
    s = furnace_and_bandage()
    before = s.game.to_json()
    with pytest.raises(Exception, match="not a legal option"):
        s.do("apply Pariah first")
    assert s.game.to_json() == before


# -- regeneration ---------------------------------------------------------------------------------
def test_furnace_lethal_damage_and_regeneration() -> None:
    """Drudge Skeletons: "{B}: Regenerate Drudge Skeletons." With Furnace of Rath, Shock deals 4
    (lethal); the regeneration shield replaces the destruction (2007 CR 419.6b): it stays, tapped,
    with no damage."""
    s = main({"hand": ["Shock"], "in_play": ["Mountain", "Furnace of Rath"]},
             {"in_play": ["Drudge Skeletons", "Swamp"]})
    s.do("play Shock", "target Drudge Skeletons")
    s.pass_priority()
    s.do("activate Drudge Skeletons")
    s.resolve()
    s.resolve()
    p = s.perm("Drudge Skeletons")
    assert p.tapped and p.damage == 0 and p.regen_shields == 0
    assert logged(s, "Shock deals 4 damage to Drudge Skeletons")
    assert s.game.replacements == []


# -- Pariah ---------------------------------------------------------------------------------------
def test_pariah_and_furnace_double_once() -> None:
    """Pariah: "All damage that would be dealt to you is dealt to enchanted creature instead."
    With Furnace of Rath the damage is doubled once, whichever applies first (2012 616.1: each
    effect applies once to the event), so the order doesn't matter and nobody is asked: Shock at
    player 1 deals 4 to Enormous Baloth (7/7), not 8."""
    s = main({"hand": ["Shock"], "in_play": ["Mountain", "Furnace of Rath"]},
             {"in_play": [{"card": "Enormous Baloth", "id": "b"},
                          {"card": "Pariah", "attached_to": "b"}]})
    s.do("play Shock", "target player 1")
    s.resolve()
    assert s.game.decision.kind is K.PRIORITY
    s.assert_life(1, 20)
    s.assert_damage("Enormous Baloth", 4)


def test_pariah_and_bandage_on_the_player_are_ordered() -> None:
    """Pariah and a Bandage shield on player 1 both apply to damage to player 1: they choose.
    Shield first: 1 is prevented, the other 1 goes to the creature. Pariah first: the damage is
    now to the creature, so the shield (on the player) no longer applies: 2 to the creature and
    the shield stays."""
    for first, damage, shields in (("apply prevention shield (Bandage) first", 1, 0),
                                   ("apply Pariah first", 2, 1)):
        s = main({"hand": ["Bandage", "Shock"], "library": ["Forest"],
                  "in_play": ["Plains", "Mountain"]},
                 {"in_play": [{"card": "Enormous Baloth", "id": "b"},
                              {"card": "Pariah", "attached_to": "b"}]})
        s.do("play Bandage", "target player 1")
        s.resolve()
        s.do("play Shock", "target player 1")
        s.pass_priority(2)
        assert s.game.decision.kind is K.ORDER_REPLACEMENTS
        s.do(first)
        s.assert_life(1, 20)
        s.assert_damage("Enormous Baloth", damage)
        assert len(s.game.replacements) == shields


def test_two_pariahs_the_player_chooses_which_creature() -> None:
    """Two Pariahs controlled by player 1 on two creatures: both would replace the damage to
    player 1, so player 1 chooses which applies (2012 616.1); the other then no longer applies
    (the damage is to a creature now)."""
    s = main({"hand": ["Shock"], "in_play": ["Mountain"]},
             {"in_play": [{"card": "Enormous Baloth", "id": "b"}, {"card": "Hill Giant", "id": "g"},
                          {"card": "Pariah", "attached_to": "b"},
                          {"card": "Pariah", "attached_to": "g"}]})
    s.do("play Shock", "target player 1")
    s.pass_priority(2)
    assert s.game.decision.kind is K.ORDER_REPLACEMENTS and s.game.decision.player == 1
    assert s.options() == ["apply Pariah first", "apply Pariah#2 first"]
    s.do("apply Pariah#2 first")
    s.assert_life(1, 20)
    s.assert_damage("Hill Giant", 2)
    s.assert_damage("Enormous Baloth", 0)
