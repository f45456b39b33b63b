"""Scenario tests for the non-core cards of the red and green theme decks (Kamahl's Temper,
Molimo's Might), with RULES_2007.md §19 scenarios 13 (Molimo's characteristic-setting P/T in
layer 6a, Giant Growth in 6b) and 14 (legend rule), and Threaten's control change (layer 2).

Each test quotes the printed 2007 text it checks. Rule numbers are 2007 CR where known
(RULES_2007.md), else 2012 CR.
"""

from __future__ import annotations

import pytest

from mtg_env import DecisionKind, IllegalActionError
from mtg_env.engine.continuous_effects import ControlChange
from mtg_env.engine.layers import add_effect
from mtg_env.testing import Scenario, attack, block, labels, main


def combat_damage(s: Scenario) -> None:
    """After blockers: go to combat damage, put it on the stack and resolve it."""
    s.pass_priority(2)
    assert s.game.step == "combat_damage"
    assert s.game.stack and s.game.stack[-1].kind == "combat_damage"
    s.resolve()


def cast(s: Scenario, card: str, *targets: str) -> None:
    s.do(f"play {card}", *[f"target {t}" for t in targets])


# =============================================================================================
# Red: Kamahl's Temper
# =============================================================================================

# -- Beacon of Destruction ---------------------------------------------------------------------
def test_beacon_of_destruction_deals_5_to_a_creature_then_shuffles_into_library() -> None:
    """Beacon of Destruction: "Beacon of Destruction deals 5 damage to target creature or player.
    Shuffle Beacon of Destruction into its owner's library." (Craw Wurm 6/4 is destroyed; the
    card goes to the library, not the graveyard.)"""
    s = main({"hand": ["Beacon of Destruction"], "in_play": ["Mountain"] * 5,
              "library": ["Forest", "Forest"]},
             {"in_play": ["Craw Wurm"]})
    cast(s, "Beacon of Destruction", "Craw Wurm")
    s.resolve()
    s.assert_in_play("Craw Wurm", False)
    s.assert_zone(1, "graveyard", "Craw Wurm")
    s.assert_zone(0, "graveyard", "Beacon of Destruction", False)
    s.assert_zone(0, "library", "Beacon of Destruction")
    assert len(s.game.players[0].library) == 3
    assert "Beacon of Destruction is shuffled into its owner's library" in s.game.log


def test_beacon_of_destruction_hits_a_player() -> None:
    """Beacon of Destruction: "deals 5 damage to target creature or player"."""
    s = main({"hand": ["Beacon of Destruction"], "in_play": ["Mountain"] * 5})
    cast(s, "Beacon of Destruction", "player 1")
    s.resolve()
    s.assert_life(1, 15)
    s.assert_zone(0, "library", "Beacon of Destruction")


def test_beacon_of_destruction_countered_goes_to_the_graveyard() -> None:
    """Gatherer ruling (2007-07-15): "If a Beacon is countered or doesn't resolve, it's put into
    its owner's graveyard, not shuffled into the library." Its only target is returned by
    Unsummon in response, so it is countered on resolution (2007 CR 413.2a)."""
    s = main({"hand": ["Beacon of Destruction"], "in_play": ["Mountain"] * 5},
             {"hand": ["Unsummon"], "in_play": ["Island", "Hill Giant"]})
    cast(s, "Beacon of Destruction", "Hill Giant")
    s.pass_priority()
    cast(s, "Unsummon", "Hill Giant")
    s.resolve()  # Unsummon
    s.resolve()  # Beacon: countered
    assert not s.game.stack
    s.assert_zone(1, "hand", "Hill Giant")
    s.assert_zone(0, "graveyard", "Beacon of Destruction")
    s.assert_zone(0, "library", "Beacon of Destruction", False)


def test_beacon_of_destruction_is_an_instant() -> None:
    """Beacon of Destruction is an instant: playable in the opponent's turn."""
    s = main({"in_play": ["Grizzly Bears"]},
             {"hand": ["Beacon of Destruction"], "in_play": ["Mountain"] * 5})
    attack(s, "Grizzly Bears")
    s.pass_priority()  # player 1 gets priority in declare attackers
    cast(s, "Beacon of Destruction", "Grizzly Bears")
    s.resolve()
    s.assert_in_play("Grizzly Bears", False)


# -- Blaze -------------------------------------------------------------------------------------
def test_blaze_deals_x_damage_to_target_creature() -> None:
    """Blaze: "Blaze deals X damage to target creature or player." X=3 kills Hill Giant (3/3);
    the mana available caps X ({X}{R} with four Mountains: X at most 3)."""
    s = main({"hand": ["Blaze"], "in_play": ["Mountain"] * 4}, {"in_play": ["Hill Giant"]})
    s.do("play Blaze")
    assert s.options() == ["X=0", "X=1", "X=2", "X=3"]
    s.do("X=3", "target Hill Giant")
    s.resolve()
    s.assert_in_play("Hill Giant", False)
    assert all(p.tapped for p in s.game.permanents if p.name == "Mountain")


def test_blaze_deals_x_damage_to_target_player() -> None:
    """Blaze: "deals X damage to target creature or player"."""
    s = main({"hand": ["Blaze"], "in_play": ["Mountain"] * 6})
    s.do("play Blaze", "X=5", "target player 1")
    s.resolve()
    s.assert_life(1, 15)


def test_blaze_is_a_sorcery() -> None:
    """Blaze is a sorcery: not playable in the opponent's turn nor with a spell on the stack
    (2012 307.1)."""
    s = main({"in_play": ["Grizzly Bears"]}, {"hand": ["Blaze"], "in_play": ["Mountain"] * 3})
    attack(s, "Grizzly Bears")
    s.pass_priority()
    assert s.game.decision.player == 1
    assert "play Blaze" not in s.options()
    s2 = main({"hand": ["Blaze", "Shock"], "in_play": ["Mountain"] * 3})
    assert "play Blaze" in s2.options()
    cast(s2, "Shock", "player 1")
    assert s2.game.decision.player == 0
    assert "play Blaze" not in s2.options()


# -- Bloodrock Cyclops -------------------------------------------------------------------------
def test_bloodrock_cyclops_attacks_each_turn_if_able() -> None:
    """Bloodrock Cyclops: "Bloodrock Cyclops attacks each turn if able." (2012 508.1d) It is
    declared as an attacker without being offered as a choice."""
    s = main({"in_play": ["Bloodrock Cyclops", "Grizzly Bears"]})
    s.advance_to("beginning_of_combat")
    s.pass_priority(2)
    assert s.options() == ["attack with Grizzly Bears", "done"]
    s.do("done")
    assert s.perm("Bloodrock Cyclops").attacking
    assert not s.perm("Grizzly Bears").attacking
    s.advance_to("end_of_combat")
    s.assert_life(1, 17)


def test_bloodrock_cyclops_no_penalty_if_it_cannot_attack() -> None:
    """Ruling: "There is no penalty if it can't attack." A summoning-sick (or tapped) Cyclops
    just doesn't attack."""
    s = main({"in_play": [{"card": "Bloodrock Cyclops", "summoning_sick": True},
                          {"card": "Bloodrock Cyclops", "tapped": True}]})
    s.advance_to("beginning_of_combat")
    s.pass_priority(2)
    assert s.game.step == "declare_attackers"
    assert s.game.decision.kind is DecisionKind.PRIORITY
    assert not s.perm("Bloodrock Cyclops").attacking
    assert not s.perm("Bloodrock Cyclops#2").attacking
    s.assert_life(1, 20)


# -- Bogardan Firefiend ------------------------------------------------------------------------
def test_bogardan_firefiend_deals_2_to_target_creature_when_it_dies() -> None:
    """Bogardan Firefiend: "When Bogardan Firefiend is put into a graveyard from play, it deals
    2 damage to target creature." Shocked, it kills Grizzly Bears with its trigger."""
    s = main({"hand": ["Shock"], "in_play": ["Mountain"]},
             {"in_play": ["Bogardan Firefiend", "Grizzly Bears"]})
    cast(s, "Shock", "Bogardan Firefiend")
    s.resolve()
    s.assert_zone(1, "graveyard", "Bogardan Firefiend")
    # The trigger is player 1's: they choose its target; only creatures are offered.
    assert s.game.decision.kind is DecisionKind.TARGET
    assert s.game.decision.player == 1
    assert s.options() == ["target Grizzly Bears"]
    s.do("target Grizzly Bears")
    s.resolve()
    s.assert_in_play("Grizzly Bears", False)
    s.assert_life(0, 20)


def test_bogardan_firefiend_must_target_a_creature_even_its_controllers_own() -> None:
    """Ruling: "You must pick a target creature, even if you are the only player with creatures
    on the battlefield." Firefiend blocked by Hill Giant dies; its trigger must target a
    creature, its controller's own included (here Grizzly Bears, which dies)."""
    s = main({"in_play": ["Bogardan Firefiend", "Grizzly Bears"]}, {"in_play": ["Hill Giant"]})
    attack(s, "Bogardan Firefiend")
    block(s, ("Bogardan Firefiend", "Hill Giant"))
    combat_damage(s)
    s.assert_in_play("Bogardan Firefiend", False)
    assert s.game.decision.kind is DecisionKind.TARGET
    assert s.options() == ["target Grizzly Bears", "target Hill Giant"]
    s.do("target Grizzly Bears")
    s.resolve()
    s.assert_in_play("Grizzly Bears", False)
    s.assert_damage("Hill Giant", 2)
    s.assert_in_play("Hill Giant")


# -- Dragon's Claw / Wurm's Tooth --------------------------------------------------------------
@pytest.mark.parametrize(("artifact", "spell", "land", "target"), [
    ("Dragon's Claw", "Shock", "Mountain", "player 1"),
    ("Wurm's Tooth", "Giant Growth", "Forest", "Grizzly Bears"),
])
def test_color_artifact_gains_life_for_its_controllers_spell(artifact, spell, land, target) -> None:
    """Dragon's Claw: "Whenever a player plays a red spell, you may gain 1 life." Wurm's Tooth:
    "Whenever a player plays a green spell, you may gain 1 life." The trigger goes on the stack
    above the spell and resolves first (ruling 2009-10-01; 2007 CR 410)."""
    s = main({"hand": [spell], "in_play": [artifact, land, "Grizzly Bears"]})
    cast(s, spell, target)
    assert [i.kind for i in s.game.stack] == ["spell", "triggered"]
    s.resolve()
    assert s.game.decision.kind is DecisionKind.YES_NO
    s.do("yes")
    s.assert_life(0, 21)
    assert [i.kind for i in s.game.stack] == ["spell"]


@pytest.mark.parametrize(("artifact", "spell", "land", "target"), [
    ("Dragon's Claw", "Shock", "Mountain", "player 0"),
    ("Wurm's Tooth", "Giant Growth", "Forest", "Grizzly Bears"),
])
def test_color_artifact_triggers_on_an_opponents_spell(artifact, spell, land, target) -> None:
    """"Whenever a player plays a [color] spell": any player, not just you (ruling 2009-10-01);
    the artifact's controller gains the life."""
    s = main({"in_play": [artifact]}, {"hand": [spell], "in_play": [land, "Grizzly Bears"]})
    s.pass_priority()
    cast(s, spell, target)
    s.resolve()
    assert s.game.decision.player == 0
    s.do("yes")
    s.assert_life(0, 21)
    s.assert_life(1, 20)


def test_color_artifact_may_is_optional_and_color_matters() -> None:
    """"you may gain 1 life": answering no gains nothing. A spell of another color (green Giant
    Growth for Dragon's Claw, red Shock for Wurm's Tooth) doesn't trigger it."""
    s = main({"hand": ["Shock", "Giant Growth"],
              "in_play": ["Dragon's Claw", "Mountain", "Forest", "Grizzly Bears"]})
    cast(s, "Shock", "player 1")
    s.resolve()
    s.do("no")
    s.assert_life(0, 20)
    s.resolve()  # Shock
    s.assert_life(1, 18)
    cast(s, "Giant Growth", "Grizzly Bears")
    assert [i.kind for i in s.game.stack] == ["spell"]
    s2 = main({"hand": ["Shock"], "in_play": ["Wurm's Tooth", "Mountain"]})
    cast(s2, "Shock", "player 1")
    assert [i.kind for i in s2.game.stack] == ["spell"]


# -- Furnace Whelp -----------------------------------------------------------------------------
def test_furnace_whelp_firebreathing_until_end_of_turn() -> None:
    """Furnace Whelp: "{R}: Furnace Whelp gets +1/+0 until end of turn." No limit on
    activations; the bonus ends in the cleanup step (2012 514.2)."""
    s = main({"in_play": ["Furnace Whelp"] + ["Mountain"] * 3})
    for _ in range(3):
        s.do("activate Furnace Whelp")
        s.resolve()
    s.assert_pt("Furnace Whelp", 5, 2)
    assert "activate Furnace Whelp" not in s.options()  # no red mana left
    s.advance_to("upkeep", active=1)
    s.assert_pt("Furnace Whelp", 2, 2)


def test_furnace_whelp_flying() -> None:
    """Furnace Whelp: "Flying (This creature can't be blocked except by creatures with flying or
    reach.)" (2012 702.9b): Grizzly Bears can't block it, Canopy Spider (reach) can."""
    s = main({"in_play": ["Furnace Whelp", "Mountain"]},
             {"in_play": ["Grizzly Bears", "Canopy Spider"]})
    attack(s, "Furnace Whelp")
    s.pass_priority(2)
    assert s.options() == ["block Furnace Whelp with Canopy Spider", "done"]


# -- Kamahl, Pit Fighter -----------------------------------------------------------------------
def test_kamahl_taps_for_3_damage_the_turn_it_comes_into_play() -> None:
    """Kamahl, Pit Fighter: "Haste ... {T}: Kamahl, Pit Fighter deals 3 damage to target creature
    or player." Haste lets it use its {T} ability at once (2012 702.10b, 2007 CR 212.3d)."""
    s = main({"hand": ["Kamahl, Pit Fighter"], "in_play": ["Mountain"] * 6},
             {"in_play": ["Hill Giant"]})
    s.do("play Kamahl, Pit Fighter")
    s.resolve()
    assert s.perm("Kamahl, Pit Fighter").summoning_sick
    s.do("activate Kamahl, Pit Fighter")
    assert sorted(s.options()) == ["target Hill Giant", "target Kamahl, Pit Fighter",
                                   "target player 0", "target player 1"]
    s.do("target Hill Giant")
    s.resolve()
    s.assert_in_play("Hill Giant", False)
    assert s.perm("Kamahl, Pit Fighter").tapped
    assert "activate Kamahl, Pit Fighter" not in s.options()  # tapped


def test_kamahl_pings_a_player_and_attacks_with_haste() -> None:
    """Kamahl, Pit Fighter: "Haste (This creature can attack and {T} as soon as it comes under
    your control.)" A summoning-sick Kamahl (6/1) attacks; another time it deals 3 to a player."""
    s = main({"in_play": [{"card": "Kamahl, Pit Fighter", "summoning_sick": True}]})
    attack(s, "Kamahl, Pit Fighter")
    s.advance_to("end_of_combat")
    s.assert_life(1, 14)
    s2 = main({"in_play": [{"card": "Kamahl, Pit Fighter", "summoning_sick": True}]})
    s2.do("activate Kamahl, Pit Fighter", "target player 1")
    s2.resolve()
    s2.assert_life(1, 17)


def test_legend_rule_kamahl_one_per_player_both_go_to_the_graveyard() -> None:
    """RULES_2007.md §19 scenario 14 / 2007 CR 420.5e: "if two or more legendary permanents with
    the same name are in play, regardless of controller, all go to their owners' graveyards"
    (not destruction). Player 1 controls Kamahl; player 0 plays Kamahl: both are put into the
    graveyards."""
    s = main({"hand": ["Kamahl, Pit Fighter"], "in_play": ["Mountain"] * 6},
             {"in_play": ["Kamahl, Pit Fighter"]})
    s.do("play Kamahl, Pit Fighter")
    s.resolve()
    assert not any(p.name == "Kamahl, Pit Fighter" for p in s.game.permanents)
    # Labels follow creation order: player 0's hand first, then player 1's in-play Kamahl.
    s.assert_zone(0, "graveyard", "Kamahl, Pit Fighter")
    s.assert_zone(1, "graveyard", "Kamahl, Pit Fighter#2")


# -- Lightning Elemental / Thundering Giant ------------------------------------------------------
@pytest.mark.parametrize(("card", "mountains", "power"), [
    ("Lightning Elemental", 4, 4), ("Thundering Giant", 5, 4)])
def test_haste_creature_attacks_the_turn_it_is_played(card, mountains, power) -> None:
    """Lightning Elemental / Thundering Giant: "Haste (This creature can attack and {T} as soon as
    it comes under your control.)" (2012 702.10b): played in the first main phase, it attacks."""
    s = main({"hand": [card], "in_play": ["Mountain"] * mountains})
    s.do(f"play {card}")
    s.resolve()
    assert s.perm(card).summoning_sick
    attack(s, card)
    assert s.perm(card).attacking
    s.advance_to("end_of_combat")
    s.assert_life(1, 20 - power)


def test_creature_without_haste_cannot_attack_the_turn_it_is_played() -> None:
    """The contrast for haste (2007 CR 212.3d): Spined Wurm, played this turn, can't attack."""
    s = main({"hand": ["Spined Wurm"], "in_play": ["Forest"] * 5})
    s.do("play Spined Wurm")
    s.resolve()
    s.advance_to("beginning_of_combat")
    s.pass_priority(2)
    assert s.game.decision.kind is DecisionKind.PRIORITY  # no attackers to declare


# -- Phyrexian Vault ---------------------------------------------------------------------------
def test_phyrexian_vault_sacrifices_a_creature_to_draw() -> None:
    """Phyrexian Vault: "{2}, {T}, Sacrifice a creature: Draw a card." The sacrifice is a cost
    (paid on activation), the draw happens on resolution."""
    s = main({"in_play": ["Phyrexian Vault", "Mountain", "Mountain", "Grizzly Bears",
                          "Hill Giant"], "library": ["Forest", "Island"]})
    s.do("activate Phyrexian Vault")
    assert s.options() == ["sacrifice Grizzly Bears", "sacrifice Hill Giant"]
    s.do("sacrifice Hill Giant")
    s.assert_zone(0, "graveyard", "Hill Giant")
    assert s.perm("Phyrexian Vault").tapped
    assert labels(s, 0, "hand") == []
    s.resolve()
    assert labels(s, 0, "hand") == ["Forest"]
    assert "activate Phyrexian Vault" not in s.options()  # tapped


def test_phyrexian_vault_needs_a_creature_to_sacrifice() -> None:
    """Phyrexian Vault: the cost "Sacrifice a creature" can't be paid without a creature you
    control (the opponent's creature doesn't count); nor without {2}."""
    s = main({"in_play": ["Phyrexian Vault", "Mountain", "Mountain"]},
             {"in_play": ["Grizzly Bears"]})
    assert "activate Phyrexian Vault" not in s.options()
    s2 = main({"in_play": ["Phyrexian Vault", "Mountain", "Grizzly Bears"]})
    assert "activate Phyrexian Vault" not in s2.options()


# -- Spitting Earth ----------------------------------------------------------------------------
def test_spitting_earth_counts_only_your_mountains() -> None:
    """Spitting Earth: "Spitting Earth deals damage equal to the number of Mountains you control
    to target creature." Three of your Mountains (the opponent's two don't count): 3 damage,
    Craw Wurm (6/4) survives with 3 damage."""
    s = main({"hand": ["Spitting Earth"], "in_play": ["Mountain"] * 3 + ["Forest"]},
             {"in_play": ["Craw Wurm", "Mountain", "Mountain"]})
    cast(s, "Spitting Earth", "Craw Wurm")
    s.resolve()
    s.assert_damage("Craw Wurm", 3)
    s.assert_in_play("Craw Wurm")


def test_spitting_earth_counts_on_resolution_and_targets_only_creatures() -> None:
    """Spitting Earth: the number is counted as it resolves (tapped Mountains count too: 4
    damage kills Craw Wurm); it targets only a creature, never a player."""
    s = main({"hand": ["Spitting Earth"], "in_play": ["Mountain"] * 4},
             {"in_play": ["Craw Wurm"]})
    s.do("play Spitting Earth")
    assert s.options() == ["target Craw Wurm"]
    s.do("target Craw Wurm")
    s.resolve()
    s.assert_in_play("Craw Wurm", False)


def test_spitting_earth_is_a_sorcery() -> None:
    """Spitting Earth is a sorcery: only in your main phase with an empty stack."""
    s = main({"in_play": ["Grizzly Bears"]},
             {"hand": ["Spitting Earth"], "in_play": ["Mountain", "Mountain"]})
    attack(s, "Grizzly Bears")
    s.pass_priority()
    assert s.game.decision.player == 1
    assert "play Spitting Earth" not in s.options()


# -- Threaten (control change, layer 2) ----------------------------------------------------------
def test_threaten_untaps_steals_with_haste_and_returns_at_end_of_turn() -> None:
    """Threaten: "Untap target creature and gain control of it until end of turn. That creature
    gains haste until end of turn." Layer 2 control change (2007 CR 418.5): the tapped Hill
    Giant untaps, is summoning sick under its new controller (2007 CR 212.3d) but attacks thanks
    to haste; the effect ends in the cleanup step (2012 514.2) and its owner gets it back."""
    s = main({"hand": ["Threaten"], "in_play": ["Mountain"] * 3},
             {"in_play": [{"card": "Hill Giant", "tapped": True}], "library": ["Forest"] * 2})
    cast(s, "Threaten", "Hill Giant")
    s.resolve()
    giant = s.perm("Hill Giant")
    assert giant.controller == 0 and giant.card.owner == 1
    assert not giant.tapped
    assert giant.summoning_sick
    assert "haste" in giant.keywords
    attack(s, "Hill Giant")
    s.advance_to("end_of_combat")
    s.assert_life(1, 17)
    s.advance_to("upkeep", active=1)
    giant = s.perm("Hill Giant")
    assert giant.controller == 1
    assert "haste" not in giant.keywords
    assert not giant.tapped  # it untapped in its owner's untap step
    assert not giant.summoning_sick  # controlled by player 1 continuously since their turn began


def test_threatened_creature_without_haste_would_be_summoning_sick() -> None:
    """2007 CR 212.3d: a creature that came under a player's control this turn can't attack or
    {T} unless it has haste. Threaten gives haste, so a stolen Prodigal Pyromancer can tap at
    once for its new controller. A control change alone (layer 2, no haste) leaves the creature
    summoning sick: neither its {T} ability nor an attack is offered."""
    s = main({"hand": ["Threaten"], "in_play": ["Mountain"] * 3},
             {"in_play": ["Prodigal Pyromancer"]})
    cast(s, "Threaten", "Prodigal Pyromancer")
    s.resolve()
    pyro = s.perm("Prodigal Pyromancer")
    assert pyro.summoning_sick and "haste" in pyro.keywords
    s.do("activate Prodigal Pyromancer", "target player 1")
    s.resolve()
    s.assert_life(1, 19)
    # The same layer-2 control change without the haste grant: the creature is summoning sick
    # for its new controller, so it can neither {T} nor attack this turn.
    s2 = main({}, {"in_play": ["Prodigal Pyromancer", "Hill Giant"]})
    for name in ("Prodigal Pyromancer", "Hill Giant"):
        add_effect(s2.game, ControlChange(pid=s2.perm(name).id, controller=0, until="eot"))
    s2.pass_priority(2)  # re-evaluated at the next priority: beginning of combat
    assert s2.perm("Prodigal Pyromancer").controller == 0
    assert s2.perm("Prodigal Pyromancer").summoning_sick
    assert "activate Prodigal Pyromancer" not in s2.options()
    s2.pass_priority(2)
    assert s2.game.step == "declare_attackers"
    assert s2.game.decision.kind is DecisionKind.PRIORITY  # nothing could attack


def test_threaten_stolen_creature_can_be_sacrificed_and_goes_to_its_owners_graveyard() -> None:
    """Threaten + Phyrexian Vault: the controller may sacrifice the stolen creature ("Sacrifice
    a creature" means one you control); the card goes to its owner's graveyard (2007 CR
    217.1a)."""
    s = main({"hand": ["Threaten"], "in_play": ["Mountain"] * 5 + ["Phyrexian Vault"],
              "library": ["Forest"]},
             {"in_play": ["Craw Wurm"]})
    assert "activate Phyrexian Vault" not in s.options()
    cast(s, "Threaten", "Craw Wurm")
    s.resolve()
    s.do("activate Phyrexian Vault", "sacrifice Craw Wurm")
    s.resolve()
    s.assert_zone(1, "graveyard", "Craw Wurm")
    s.assert_zone(0, "graveyard", "Craw Wurm", False)
    assert labels(s, 0, "hand") == ["Forest"]


def test_threaten_is_a_sorcery_and_targets_any_creature() -> None:
    """Threaten is a sorcery (main phase, empty stack) and targets "target creature": your own
    too (untapping it and giving it haste), but not a land."""
    s = main({"hand": ["Threaten", "Grizzly Bears"], "in_play": ["Mountain"] * 3 + ["Forest"] * 2},
             {"in_play": ["Hill Giant"]})
    s.do("play Grizzly Bears")
    assert "play Threaten" not in s.options()  # the stack isn't empty
    s.resolve()
    s.do("play Threaten")
    assert sorted(s.options()) == ["target Grizzly Bears", "target Hill Giant"]
    s.do("target Grizzly Bears")
    s.resolve()
    attack(s, "Grizzly Bears")  # the Bears came into play this turn: haste lets it attack
    assert s.perm("Grizzly Bears").attacking


def test_rootwalla_once_each_turn_counts_across_a_control_change() -> None:
    """Rootwalla ruling (2006-02-01): "If this card's ability is activated by one player, then
    another player takes control of it on the same turn, the second player can't activate its
    ability that turn." Player 1 pumps Rootwalla in response to Threaten."""
    s = main({"hand": ["Threaten"], "in_play": ["Mountain"] * 3 + ["Forest"] * 2},
             {"in_play": ["Rootwalla", "Forest", "Forest"]})
    cast(s, "Threaten", "Rootwalla")
    s.pass_priority()
    s.do("activate Rootwalla")
    s.resolve()  # the pump
    s.assert_pt("Rootwalla", 4, 4)
    s.resolve()  # Threaten
    assert s.perm("Rootwalla").controller == 0
    assert "activate Rootwalla" not in s.options()


# -- Viashino Sandscout ------------------------------------------------------------------------
def test_viashino_sandscout_attacks_with_haste_and_returns_to_hand_at_end_of_turn() -> None:
    """Viashino Sandscout: "Haste ... At end of turn, return Viashino Sandscout to its owner's
    hand." The trigger happens as the end of turn step begins (2007 CR 313.1)."""
    s = main({"hand": ["Viashino Sandscout"], "in_play": ["Mountain"] * 2})
    s.do("play Viashino Sandscout")
    s.resolve()
    attack(s, "Viashino Sandscout")
    s.advance_to("end_of_combat")
    s.assert_life(1, 18)
    s.advance_to("postcombat_main")
    s.pass_priority(2)
    assert s.game.step == "end_of_turn"
    assert s.game.stack and s.game.stack[-1].kind == "triggered"
    s.resolve()
    s.assert_in_play("Viashino Sandscout", False)
    s.assert_zone(0, "hand", "Viashino Sandscout")


def test_viashino_sandscout_returns_at_the_end_of_every_turn() -> None:
    """"At end of turn" means every turn's end, the opponent's too."""
    s = main({}, {"in_play": ["Viashino Sandscout"]})
    s.advance_to("end_of_turn")
    s.resolve()
    s.assert_zone(1, "hand", "Viashino Sandscout")


def test_viashino_sandscout_only_if_in_play() -> None:
    """"(Return it only if it's in play.)" Shocked in response to its trigger, it stays in the
    graveyard."""
    s = main({"in_play": ["Viashino Sandscout"]}, {"hand": ["Shock"], "in_play": ["Mountain"]})
    s.advance_to("end_of_turn")
    s.pass_priority()
    cast(s, "Shock", "Viashino Sandscout")
    s.resolve()  # Shock
    s.resolve()  # the trigger: nothing to return
    s.assert_zone(0, "graveyard", "Viashino Sandscout")
    s.assert_zone(0, "hand", "Viashino Sandscout", False)


def test_viashino_sandscout_returns_to_its_owners_hand_when_stolen() -> None:
    """"return Viashino Sandscout to its owner's hand": stolen with Threaten, it goes back to the
    owner's hand (2007 CR 217.1a), not the thief's."""
    s = main({"hand": ["Threaten"], "in_play": ["Mountain"] * 3},
             {"in_play": ["Viashino Sandscout"]})
    cast(s, "Threaten", "Viashino Sandscout")
    s.resolve()
    attack(s, "Viashino Sandscout")
    s.advance_to("end_of_combat")
    s.assert_life(1, 18)
    s.advance_to("end_of_turn")
    s.resolve()
    s.assert_zone(1, "hand", "Viashino Sandscout")
    s.assert_zone(0, "hand", "Viashino Sandscout", False)


# =============================================================================================
# Green: Molimo's Might
# =============================================================================================

# -- Blanchwood Armor --------------------------------------------------------------------------
def test_blanchwood_armor_counts_forests_you_control() -> None:
    """Blanchwood Armor: "Enchanted creature gets +1/+1 for each Forest you control." Three of
    your Forests (the opponent's Forest doesn't count): Grizzly Bears 5/5; a fourth Forest
    played later makes it 6/6 (a static ability, layer 6d, 2007 CR 418.5)."""
    s = main({"hand": ["Blanchwood Armor", "Forest"],
              "in_play": ["Forest"] * 3 + ["Grizzly Bears"]},
             {"in_play": ["Forest"]})
    cast(s, "Blanchwood Armor", "Grizzly Bears")
    s.resolve()
    assert s.perm("Blanchwood Armor").attached_to == s.perm("Grizzly Bears").id
    s.assert_pt("Grizzly Bears", 5, 5)
    s.do("play Forest")
    s.assert_pt("Grizzly Bears", 6, 6)


def test_blanchwood_armor_on_an_opponents_creature_counts_its_controllers_forests() -> None:
    """"you" is the Aura's controller: on the opponent's Hill Giant, the Armor counts its
    controller's Forests (3), not the enchanted creature's controller's (1)."""
    s = main({"hand": ["Blanchwood Armor"], "in_play": ["Forest"] * 3},
             {"in_play": ["Hill Giant", "Forest"]})
    s.do("play Blanchwood Armor")
    assert s.options() == ["target Hill Giant"]  # "Enchant creature": no land, no player
    s.do("target Hill Giant")
    s.resolve()
    s.assert_pt("Hill Giant", 6, 6)


def test_blanchwood_armor_goes_to_the_graveyard_with_its_creature() -> None:
    """Enchant creature: when the creature leaves play the Aura is put into its owner's graveyard
    as a state-based effect (2007 CR 420.5d). With one Forest the Bears is 3/3; Shock's 2
    damage isn't lethal, Incinerate's 3 is."""
    s = main({"hand": ["Shock", "Incinerate"],
              "in_play": ["Mountain"] * 3 + ["Forest", {"card": "Grizzly Bears", "id": "b"},
                                               {"card": "Blanchwood Armor", "attached_to": "b"}]})
    s.assert_pt("Grizzly Bears", 3, 3)
    cast(s, "Shock", "Grizzly Bears")
    s.resolve()
    s.assert_damage("Grizzly Bears", 2)
    cast(s, "Incinerate", "Grizzly Bears")
    s.resolve()
    s.assert_in_play("Grizzly Bears", False)
    s.assert_in_play("Blanchwood Armor", False)
    s.assert_zone(0, "graveyard", "Blanchwood Armor")


# -- Canopy Spider -----------------------------------------------------------------------------
def test_canopy_spider_reach_blocks_a_flyer() -> None:
    """Canopy Spider: "Reach (This creature can block creatures with flying.)" (2012 702.16b).
    It blocks Wild Griffin (2/2 flier) and survives with 2 damage (1/3); Grizzly Bears can't
    block the Griffin."""
    s = main({"in_play": ["Wild Griffin"]}, {"in_play": ["Canopy Spider", "Grizzly Bears"]})
    attack(s, "Wild Griffin")
    s.pass_priority(2)
    assert s.options() == ["block Wild Griffin with Canopy Spider", "done"]
    s.do("block Wild Griffin with Canopy Spider")
    combat_damage(s)
    s.assert_damage("Canopy Spider", 2)
    s.assert_damage("Wild Griffin", 1)
    s.assert_life(1, 20)


def test_canopy_spider_reach_does_not_give_flying() -> None:
    """Reach is not flying: an attacking Canopy Spider can be blocked by a creature without
    flying or reach."""
    s = main({"in_play": ["Canopy Spider"]}, {"in_play": ["Grizzly Bears"]})
    attack(s, "Canopy Spider")
    s.pass_priority(2)
    assert s.options() == ["block Canopy Spider with Grizzly Bears", "done"]


# -- Civic Wayfinder ---------------------------------------------------------------------------
def test_civic_wayfinder_finds_a_basic_land_and_shuffles() -> None:
    """Civic Wayfinder: "When Civic Wayfinder comes into play, you may search your library for a
    basic land card, reveal it, and put it into your hand. If you do, shuffle your library."
    Only basic lands are offered (not Giant Growth nor the creature)."""
    s = main({"hand": ["Civic Wayfinder"], "in_play": ["Forest"] * 3,
              "library": ["Giant Growth", "Mountain", "Grizzly Bears", "Forest"]})
    s.do("play Civic Wayfinder")
    s.resolve()  # the creature spell; its trigger goes on the stack
    s.resolve()  # the trigger asks "may"
    assert s.game.decision.kind is DecisionKind.YES_NO
    s.do("yes")
    assert sorted(s.options()) == ["done", "find Forest", "find Mountain"]
    s.do("find Mountain")
    assert labels(s, 0, "hand") == ["Mountain"]
    assert sorted(labels(s, 0, "library")) == ["Forest", "Giant Growth", "Grizzly Bears"]
    # Revealed: the log names the card (an unrevealed card would be logged as "a card").
    assert s.game.log[-2:] == ["player 0 puts Mountain into their hand",
                               "player 0 shuffles their library"]


def test_civic_wayfinder_may_decline() -> None:
    """"you may search": answering no leaves the library untouched (no search, no shuffle)."""
    s = main({"hand": ["Civic Wayfinder"], "in_play": ["Forest"] * 3,
              "library": ["Giant Growth", "Mountain", "Forest"]})
    s.do("play Civic Wayfinder")
    s.resolve()
    s.resolve()
    s.do("no")
    assert labels(s, 0, "hand") == []
    assert labels(s, 0, "library") == ["Giant Growth", "Mountain", "Forest"]
    assert not any("shuffles" in line for line in s.game.log)


# -- Commune with Nature -----------------------------------------------------------------------
def test_commune_with_nature_takes_a_creature_and_puts_the_rest_on_the_bottom() -> None:
    """Commune with Nature: "Look at the top five cards of your library. You may reveal a
    creature card from among them and put it into your hand. Put the rest on the bottom of your
    library in any order." Only the creature cards among the top five are offered."""
    s = main({"hand": ["Commune with Nature"], "in_play": ["Forest"],
              "library": ["Forest", "Grizzly Bears", "Shock", "Craw Wurm", "Mountain",
                          "Hill Giant"]})
    s.do("play Commune with Nature")
    s.resolve()
    assert sorted(s.options()) == ["done", "put into hand Craw Wurm", "put into hand Grizzly Bears"]
    s.do("put into hand Craw Wurm")
    # The rest (four cards) go on the bottom in the order chosen.
    assert s.game.decision.kind is DecisionKind.CHOOSE_CARDS
    for name in ("Shock", "Forest", "Mountain", "Grizzly Bears"):
        s.do(f"put on the bottom {name}")
    if s.game.decision.kind is DecisionKind.CHOOSE_CARDS:
        s.do("done")
    assert labels(s, 0, "hand") == ["Craw Wurm"]
    assert "player 0 puts Craw Wurm into their hand" in s.game.log  # revealed
    assert labels(s, 0, "library") == ["Hill Giant", "Shock", "Forest", "Mountain",
                                     "Grizzly Bears"]
    s.assert_zone(0, "graveyard", "Commune with Nature")


def test_commune_with_nature_may_take_nothing() -> None:
    """Ruling (2004-12-01): "If you don't reveal a creature card, put all the revealed cards on
    the bottom of your library in any order." With fewer than five cards, all are looked at."""
    s = main({"hand": ["Commune with Nature"], "in_play": ["Forest"],
              "library": ["Grizzly Bears", "Shock"]})
    s.do("play Commune with Nature")
    s.resolve()
    s.do("done")
    s.do("put on the bottom Shock")
    if s.game.decision and s.game.decision.kind is DecisionKind.CHOOSE_CARDS:
        s.do("put on the bottom Grizzly Bears")
    assert labels(s, 0, "hand") == []
    assert labels(s, 0, "library") == ["Shock", "Grizzly Bears"]


# -- Enormous Baloth / Spined Wurm (vanilla) -----------------------------------------------------
def test_enormous_baloth_is_a_7_7_for_seven() -> None:
    """Enormous Baloth: {6}{G} Creature — Beast 7/7, no abilities. It blocks and kills Craw Wurm
    (6/4) and survives with 6 damage."""
    s = main({"hand": ["Enormous Baloth"], "in_play": ["Forest"] * 7})
    s.do("play Enormous Baloth")
    s.resolve()
    s.assert_pt("Enormous Baloth", 7, 7)
    assert s.perm("Enormous Baloth").keywords == frozenset()
    s2 = main({"in_play": ["Craw Wurm"]}, {"in_play": ["Enormous Baloth"]})
    attack(s2, "Craw Wurm")
    block(s2, ("Craw Wurm", "Enormous Baloth"))
    combat_damage(s2)
    s2.assert_in_play("Craw Wurm", False)
    s2.assert_damage("Enormous Baloth", 6)


def test_spined_wurm_is_a_5_4_for_five() -> None:
    """Spined Wurm: {4}{G} Creature — Wurm 5/4, no abilities. Unblocked it deals 5; it can't
    be played with four lands."""
    s = main({"hand": ["Spined Wurm"], "in_play": ["Forest"] * 4})
    assert "play Spined Wurm" not in s.options()
    s2 = main({"in_play": ["Spined Wurm"]})
    s2.assert_pt("Spined Wurm", 5, 4)
    attack(s2, "Spined Wurm")
    s2.advance_to("end_of_combat")
    s2.assert_life(1, 15)


# -- Hurricane ---------------------------------------------------------------------------------
def test_hurricane_hits_each_flyer_and_each_player() -> None:
    """Hurricane: "Hurricane deals X damage to each creature with flying and each player." X=2:
    both Wild Griffins (2/2) die, Canopy Spider (reach, no flying) and Grizzly Bears are
    untouched; both players (the caster too) lose 2."""
    s = main({"hand": ["Hurricane"], "in_play": ["Forest"] * 3 + ["Wild Griffin", "Canopy Spider"]},
             {"in_play": ["Wild Griffin", "Grizzly Bears"]})
    s.do("play Hurricane")
    assert s.options() == ["X=0", "X=1", "X=2"]
    s.do("X=2")
    s.resolve()
    s.assert_in_play("Wild Griffin", False)
    s.assert_in_play("Wild Griffin#2", False)
    s.assert_damage("Canopy Spider", 0)
    s.assert_damage("Grizzly Bears", 0)
    s.assert_life(0, 18)
    s.assert_life(1, 18)


def test_hurricane_checks_flying_on_resolution() -> None:
    """Ruling (2004-10-04): "Whether or not a creature has flying is only checked on
    resolution." Mantis Engine gains flying in response and is hit; X=3 kills it."""
    s = main({"hand": ["Hurricane"], "in_play": ["Forest"] * 4},
             {"in_play": ["Mantis Engine", "Mountain", "Mountain"]})
    s.do("play Hurricane", "X=3")
    s.pass_priority()
    s.do("activate Mantis Engine ability 1")
    s.resolve()  # flying
    assert "flying" in s.perm("Mantis Engine").keywords
    s.resolve()  # Hurricane
    s.assert_in_play("Mantis Engine", False)
    s.assert_life(0, 17)
    s.assert_life(1, 17)


def test_hurricane_can_make_both_players_lose_a_draw() -> None:
    """Hurricane deals damage to each player at once: both at 3 or less lose together, a draw
    (2007 CR 102 / 420.5a)."""
    s = main({"hand": ["Hurricane"], "in_play": ["Forest"] * 4, "life": 3}, {"life": 2})
    s.do("play Hurricane", "X=3")
    s.resolve()
    s.assert_winner(None)
    assert s.game.is_over


# -- Kavu Climber ------------------------------------------------------------------------------
def test_kavu_climber_draws_a_card_when_it_comes_into_play() -> None:
    """Kavu Climber: "When Kavu Climber comes into play, draw a card." (not a "may")"""
    s = main({"hand": ["Kavu Climber"], "in_play": ["Forest"] * 5,
              "library": ["Shock", "Island"]})
    s.do("play Kavu Climber")
    s.resolve()  # the creature spell resolves; its trigger goes on the stack
    assert labels(s, 0, "hand") == []
    assert s.game.stack[-1].kind == "triggered"
    s.resolve()
    assert labels(s, 0, "hand") == ["Shock"]
    s.assert_pt("Kavu Climber", 3, 3)


def test_kavu_climber_with_an_empty_library_loses_the_game() -> None:
    """Kavu Climber's draw is mandatory: with an empty library its controller loses at the next
    state-based check (2007 CR 420.5g)."""
    s = main({"hand": ["Kavu Climber"], "in_play": ["Forest"] * 5}, {"library": ["Forest"]})
    s.do("play Kavu Climber")
    s.resolve()
    s.resolve()
    s.assert_winner(1)


# -- Mantis Engine -----------------------------------------------------------------------------
def test_mantis_engine_gains_flying_until_end_of_turn() -> None:
    """Mantis Engine: "{2}: Mantis Engine gains flying until end of turn." With flying only
    Canopy Spider (reach) may block it; the ability ends in the cleanup step."""
    s = main({"in_play": ["Mantis Engine", "Mountain", "Mountain"]},
             {"in_play": ["Grizzly Bears", "Canopy Spider"]})
    assert "flying" not in s.perm("Mantis Engine").keywords
    s.do("activate Mantis Engine ability 1")
    s.resolve()
    assert "flying" in s.perm("Mantis Engine").keywords
    attack(s, "Mantis Engine")
    s.pass_priority(2)
    assert s.options() == ["block Mantis Engine with Canopy Spider", "done"]
    s.do("done")
    s.advance_to("upkeep", active=1)
    assert "flying" not in s.perm("Mantis Engine").keywords
    s.assert_life(1, 17)


def test_mantis_engine_gains_first_strike() -> None:
    """Mantis Engine: "{2}: Mantis Engine gains first strike until end of turn." Blocked by Hill
    Giant (3/3), it deals its 3 first (2007 CR 310.5) and takes no damage."""
    s = main({"in_play": ["Mantis Engine", "Mountain", "Mountain"]}, {"in_play": ["Hill Giant"]})
    attack(s, "Mantis Engine")
    block(s, ("Mantis Engine", "Hill Giant"))
    s.do("activate Mantis Engine ability 2")
    s.resolve()
    assert "first_strike" in s.perm("Mantis Engine").keywords
    combat_damage(s)  # first-strike damage
    s.assert_in_play("Hill Giant", False)
    s.advance_to("end_of_combat")
    s.assert_damage("Mantis Engine", 0)


def test_mantis_engine_is_an_artifact_creature_with_two_priced_abilities() -> None:
    """Mantis Engine ({5} Artifact Creature 3/3): each ability costs {2}, any mana (colorless
    cost); with one land neither is offered, with four both can be played."""
    s = main({"in_play": ["Mantis Engine", "Plains"]})
    assert not [o for o in s.options() if o.startswith("activate")]
    s2 = main({"in_play": ["Mantis Engine", "Plains", "Island", "Swamp", "Forest"]})
    s2.do("activate Mantis Engine ability 1")
    s2.resolve()
    s2.do("activate Mantis Engine ability 2")
    s2.resolve()
    assert {"flying", "first_strike"} <= s2.perm("Mantis Engine").keywords
    assert "Artifact" in s2.perm("Mantis Engine").types
    s2.assert_pt("Mantis Engine", 3, 3)


# -- Molimo, Maro-Sorcerer (RULES_2007.md §19 scenario 13) ---------------------------------------
def test_molimo_power_and_toughness_equal_lands_you_control() -> None:
    """Molimo, Maro-Sorcerer: "Molimo, Maro-Sorcerer's power and toughness are each equal to the
    number of lands you control." Only its controller's lands (tapped ones too) count."""
    s = main({"in_play": ["Molimo, Maro-Sorcerer", {"card": "Forest", "tapped": True},
                          "Forest", "Mountain"]},
             {"in_play": ["Forest"] * 5})
    s.assert_pt("Molimo, Maro-Sorcerer", 3, 3)


def test_scenario_13_molimo_cda_in_6a_then_giant_growth_in_6b() -> None:
    """RULES_2007.md §19 scenario 13 / §9: a characteristic-setting ability applies in layer 6a,
    resolved pumps in 6b, so Giant Growth always adds to Molimo's current land count: 4 lands ->
    4/4; Giant Growth -> 7/7; a fifth land (played after the Growth) -> 8/8, not 5/5. The Growth
    ends at cleanup: 5/5."""
    s = main({"hand": ["Giant Growth", "Forest"],
              "in_play": ["Molimo, Maro-Sorcerer"] + ["Forest"] * 4})
    s.assert_pt("Molimo, Maro-Sorcerer", 4, 4)
    cast(s, "Giant Growth", "Molimo, Maro-Sorcerer")
    s.resolve()
    s.assert_pt("Molimo, Maro-Sorcerer", 7, 7)
    s.do("play Forest")
    s.assert_pt("Molimo, Maro-Sorcerer", 8, 8)
    s.advance_to("upkeep", active=1)
    s.assert_pt("Molimo, Maro-Sorcerer", 5, 5)


def test_molimo_with_rampant_growth_and_blanchwood_armor() -> None:
    """Layers 6a and 6d together: Molimo (3 lands: 3/3) with Blanchwood Armor (+1/+1 per Forest
    you control, 6d) is 6/6; Rampant Growth puts a fourth land (Forest) into play: 4 + 4 = 8/8."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"hand": ["Rampant Growth"], "library": ["Forest"],
         "in_play": [{"card": "Molimo, Maro-Sorcerer", "id": "m"},
                     {"card": "Blanchwood Armor", "attached_to": "m"}, "Forest", "Forest",
                     "Forest"]},
        {}]})
    s.assert_pt("Molimo, Maro-Sorcerer", 6, 6)
    s.do("play Rampant Growth")
    s.resolve()
    s.do("find Forest")
    s.assert_pt("Molimo, Maro-Sorcerer", 8, 8)


def test_molimo_with_no_lands_is_put_into_the_graveyard() -> None:
    """Molimo with 0 lands is 0/0: put into its owner's graveyard as a state-based effect
    (2007 CR 420.5b): Boomerang on its controller's only land shrinks it at once (the count is
    continuous)."""
    s = main({"hand": ["Boomerang"], "in_play": ["Island", "Island"]},
             {"in_play": ["Molimo, Maro-Sorcerer", "Forest"]})
    s.assert_pt("Molimo, Maro-Sorcerer", 1, 1)
    cast(s, "Boomerang", "Forest")
    s.resolve()
    s.assert_in_play("Molimo, Maro-Sorcerer", False)
    s.assert_zone(1, "graveyard", "Molimo, Maro-Sorcerer")


def test_molimo_trample() -> None:
    """Molimo: "Trample" (2007 CR 502.9): with 6 lands (6/6), blocked by Grizzly Bears (2/2), it
    assigns lethal 2 to the Bears and tramples 4 over."""
    s = main({"in_play": ["Molimo, Maro-Sorcerer"] + ["Forest"] * 6}, {"in_play": ["Grizzly Bears"]})
    attack(s, "Molimo, Maro-Sorcerer")
    block(s, ("Molimo, Maro-Sorcerer", "Grizzly Bears"))
    s.pass_priority(2)
    assert s.game.decision.kind is DecisionKind.COMBAT_DAMAGE
    assert s.options() == [f"assign {n} damage to Grizzly Bears" for n in range(2, 7)]
    s.do("assign 2 damage to Grizzly Bears")
    s.resolve()
    s.assert_in_play("Grizzly Bears", False)
    s.assert_life(1, 16)


def test_legend_rule_molimo_one_per_player_both_go_to_the_graveyard() -> None:
    """RULES_2007.md §19 scenario 14 / 2007 CR 420.5e: player 1 controls Molimo; player 0 plays
    a second Molimo: both go to their owners' graveyards."""
    s = main({"hand": ["Molimo, Maro-Sorcerer"], "in_play": ["Forest"] * 7},
             {"in_play": ["Molimo, Maro-Sorcerer", "Forest"]})
    s.do("play Molimo, Maro-Sorcerer")
    s.resolve()
    assert not any(p.name == "Molimo, Maro-Sorcerer" for p in s.game.permanents)
    s.assert_zone(0, "graveyard", "Molimo, Maro-Sorcerer")
    s.assert_zone(1, "graveyard", "Molimo, Maro-Sorcerer#2")


def test_legend_rule_needs_the_same_name() -> None:
    """Kamahl ruling (2004-10-04): "The Legend rule only applies to two legendary permanents with
    identical names." Kamahl and Molimo coexist."""
    s = main({"hand": ["Kamahl, Pit Fighter"], "in_play": ["Mountain"] * 6},
             {"in_play": ["Molimo, Maro-Sorcerer", "Forest"]})
    s.do("play Kamahl, Pit Fighter")
    s.resolve()
    s.assert_in_play("Kamahl, Pit Fighter")
    s.assert_in_play("Molimo, Maro-Sorcerer")


# -- Overrun -----------------------------------------------------------------------------------
def test_overrun_pumps_and_gives_trample_to_your_creatures_only() -> None:
    """Overrun: "Creatures you control get +3/+3 and gain trample until end of turn." The
    opponent's creature is unaffected; Grizzly Bears (5/5, trample) blocked by Hill Giant (3/3)
    tramples 2 over; everything wears off in the cleanup step."""
    s = main({"hand": ["Overrun"], "in_play": ["Forest"] * 5 + ["Grizzly Bears", "Wild Griffin"]},
             {"in_play": ["Hill Giant"]})
    s.do("play Overrun")
    s.resolve()
    s.assert_pt("Grizzly Bears", 5, 5)
    s.assert_pt("Wild Griffin", 5, 5)
    s.assert_pt("Hill Giant", 3, 3)
    assert "trample" in s.perm("Grizzly Bears").keywords
    assert "trample" not in s.perm("Hill Giant").keywords
    attack(s, "Grizzly Bears", "Wild Griffin")
    block(s, ("Grizzly Bears", "Hill Giant"))
    s.pass_priority(2)
    s.do("assign 3 damage to Hill Giant")
    s.resolve()
    s.assert_in_play("Hill Giant", False)
    s.assert_life(1, 20 - 2 - 5)
    s.advance_to("upkeep", active=1)
    s.assert_pt("Grizzly Bears", 2, 2)
    assert "trample" not in s.perm("Grizzly Bears").keywords


def test_overrun_affects_only_creatures_controlled_as_it_resolves() -> None:
    """Ruling (2009-10-01, unchanged from 2007 behaviour): "Overrun affects only creatures you
    control at the time it resolves." A creature played afterwards is not pumped."""
    s = main({"hand": ["Overrun", "Grizzly Bears"], "in_play": ["Forest"] * 7 + ["Hill Giant"]})
    s.do("play Overrun")
    s.resolve()
    s.do("play Grizzly Bears")
    s.resolve()
    s.assert_pt("Hill Giant", 6, 6)
    s.assert_pt("Grizzly Bears", 2, 2)
    assert "trample" not in s.perm("Grizzly Bears").keywords


def test_overrun_is_a_sorcery() -> None:
    """Overrun is a sorcery: not playable during combat."""
    s = main({"hand": ["Overrun"], "in_play": ["Forest"] * 5 + ["Grizzly Bears"]})
    attack(s, "Grizzly Bears")
    assert "play Overrun" not in s.options()


# -- Rampant Growth ----------------------------------------------------------------------------
def test_rampant_growth_puts_a_basic_land_into_play_tapped() -> None:
    """Rampant Growth: "Search your library for a basic land card and put that card into play
    tapped. Then shuffle your library." Ruling: the land doesn't count toward the one land per
    turn (a land can still be played)."""
    s = main({"hand": ["Rampant Growth", "Forest"], "in_play": ["Forest", "Forest"],
              "library": ["Shock", "Mountain", "Grizzly Bears"]})
    s.do("play Rampant Growth")
    s.resolve()
    assert sorted(s.options()) == ["done", "find Mountain"]
    s.do("find Mountain")
    assert s.perm("Mountain").tapped
    assert s.perm("Mountain").controller == 0
    assert sorted(labels(s, 0, "library")) == ["Grizzly Bears", "Shock"]
    assert any("shuffles" in line for line in s.game.log[-3:])
    s.do("play Forest")  # the land drop is unused
    s.assert_in_play("Forest")


def test_rampant_growth_may_fail_to_find() -> None:
    """Ruling (2004-10-04): "Because the 'search' requires you to find a card with certain
    characteristics, you don't have to find the card if you don't want to." (2012 701.15b)"""
    s = main({"hand": ["Rampant Growth"], "in_play": ["Forest", "Forest"],
              "library": ["Mountain"]})
    s.do("play Rampant Growth")
    s.resolve()
    s.do("done")
    assert labels(s, 0, "library") == ["Mountain"]
    assert not s.in_play("Mountain")
    assert "player 0 shuffles their library" in s.game.log  # "Then shuffle your library."
    s.assert_zone(0, "graveyard", "Rampant Growth")


# -- Rootwalla ---------------------------------------------------------------------------------
def test_rootwalla_pumps_once_each_turn() -> None:
    """Rootwalla: "{1}{G}: Rootwalla gets +2/+2 until end of turn. Play this ability only once
    each turn." After one activation it isn't offered again that turn (2012 602.5b); the
    next turn it can be played again."""
    s = main({"in_play": ["Rootwalla"] + ["Forest"] * 4}, {"in_play": ["Forest", "Forest"]})
    s.do("activate Rootwalla")
    s.resolve()
    s.assert_pt("Rootwalla", 4, 4)
    assert "activate Rootwalla" not in s.options()
    with pytest.raises(IllegalActionError):
        s.do("activate Rootwalla")
    s.advance_to("upkeep", active=1)
    s.assert_pt("Rootwalla", 2, 2)
    s.pass_priority()  # player 1 (active) passes; player 0 has two untapped Forests left
    s.do("activate Rootwalla")  # a new turn (the opponent's): allowed again
    s.resolve()
    s.assert_pt("Rootwalla", 4, 4)
    assert "activate Rootwalla" not in s.options()


def test_rootwalla_once_each_turn_counts_on_activation_even_if_countered() -> None:
    """"Play this ability only once each turn" counts activations, not resolutions: with the
    pump on the stack it can't be played again (2012 602.5b)."""
    s = main({"in_play": ["Rootwalla"] + ["Forest"] * 4})
    s.do("activate Rootwalla")
    assert "activate Rootwalla" not in s.options()


# -- combinations with control change --------------------------------------------------------------
def test_threatened_molimo_counts_its_new_controllers_lands() -> None:
    """Layer 2 (control) applies before layer 6a (2007 CR 418.5): Molimo stolen by Threaten
    counts the lands of its new controller ("lands you control"): 5/5 instead of 2/2, and
    2/2 again once it returns."""
    s = main({"hand": ["Threaten"], "in_play": ["Mountain"] * 5},
             {"in_play": ["Molimo, Maro-Sorcerer", "Forest", "Forest"]})
    s.assert_pt("Molimo, Maro-Sorcerer", 2, 2)
    cast(s, "Threaten", "Molimo, Maro-Sorcerer")
    s.resolve()
    s.assert_pt("Molimo, Maro-Sorcerer", 5, 5)
    s.advance_to("upkeep", active=1)
    s.assert_pt("Molimo, Maro-Sorcerer", 2, 2)


def test_phyrexian_vault_sacrificing_bogardan_firefiend_triggers_it() -> None:
    """Phyrexian Vault's sacrifice puts Bogardan Firefiend into the graveyard from play, so its
    trigger deals 2 damage to target creature; the draw resolves after it (the trigger goes on
    the stack above the Vault's ability)."""
    s = main({"in_play": ["Phyrexian Vault", "Mountain", "Mountain", "Bogardan Firefiend"],
              "library": ["Island"]},
             {"in_play": ["Grizzly Bears"]})
    s.do("activate Phyrexian Vault", "sacrifice Bogardan Firefiend")
    assert s.game.decision.kind is DecisionKind.TARGET
    s.do("target Grizzly Bears")
    assert [i.kind for i in s.game.stack] == ["activated", "triggered"]
    s.resolve()
    s.assert_in_play("Grizzly Bears", False)
    assert labels(s, 0, "hand") == []
    s.resolve()
    assert labels(s, 0, "hand") == ["Island"]


def test_bloodrock_cyclops_alone_attacks_without_a_declaration() -> None:
    """Bloodrock Cyclops as the only possible attacker: it is declared for its controller and
    nothing is left to choose."""
    s = main({"in_play": ["Bloodrock Cyclops"]}, {"in_play": ["Grizzly Bears"]})
    s.advance_to("beginning_of_combat")
    s.pass_priority(2)
    assert s.game.step == "declare_attackers"
    assert s.game.decision.kind is DecisionKind.PRIORITY
    assert s.perm("Bloodrock Cyclops").attacking
    assert s.perm("Bloodrock Cyclops").tapped


def test_bogardan_firefiend_trigger_without_a_creature_to_target_does_nothing() -> None:
    """A triggered ability with no legal target is removed from the stack (2012 603.3d):
    Firefiend Shocked with no other creature in play deals no damage."""
    s = main({"hand": ["Shock"], "in_play": ["Mountain"]}, {"in_play": ["Bogardan Firefiend"]})
    cast(s, "Shock", "Bogardan Firefiend")
    s.resolve()
    assert not s.game.stack
    assert s.game.decision.kind is DecisionKind.PRIORITY
    s.assert_life(0, 20)
    s.assert_life(1, 20)


def test_phyrexian_vault_is_played_at_instant_speed() -> None:
    """Phyrexian Vault's ability has no timing restriction: in response to Shock on Grizzly Bears
    its controller sacrifices the Bears to draw; Shock is then countered for lack of a legal
    target (2007 CR 413.2a)."""
    s = main({"hand": ["Shock"], "in_play": ["Mountain"]},
             {"in_play": ["Phyrexian Vault", "Swamp", "Swamp", "Grizzly Bears"],
              "library": ["Island"]})
    cast(s, "Shock", "Grizzly Bears")
    s.pass_priority()
    s.do("activate Phyrexian Vault", "sacrifice Grizzly Bears")
    s.resolve()  # the Vault's ability
    assert labels(s, 1, "hand") == ["Island"]
    s.resolve()  # Shock: countered on resolution
    assert not s.game.stack
    s.assert_zone(0, "graveyard", "Shock")
    s.assert_life(1, 20)


def test_dragons_claw_ignores_abilities_and_wurms_tooth_sees_creature_spells() -> None:
    """"Whenever a player plays a red spell": Furnace Whelp's and Kamahl's activated abilities
    are not spells (2012 602.1) and don't trigger Dragon's Claw. Wurm's Tooth triggers on a
    green creature spell (Grizzly Bears) and its trigger resolves before the Bears does."""
    s = main({"in_play": ["Dragon's Claw", "Furnace Whelp", "Mountain"]})
    s.do("activate Furnace Whelp")
    assert [i.kind for i in s.game.stack] == ["activated"]
    s2 = main({"hand": ["Grizzly Bears"], "in_play": ["Wurm's Tooth", "Forest", "Forest"]})
    s2.do("play Grizzly Bears")
    assert [i.kind for i in s2.game.stack] == ["spell", "triggered"]
    s2.resolve()
    s2.do("yes")
    s2.assert_life(0, 21)
    assert not s2.in_play("Grizzly Bears")
    s2.resolve()
    s2.assert_in_play("Grizzly Bears")


# -- pumps and abilities with combat damage on the stack (RULES_2007.md §6) -----------------------
def test_furnace_whelp_pump_after_damage_is_on_the_stack_changes_nothing_assigned() -> None:
    """2007 CR 310.4 (RULES_2007.md §6): combat damage is dealt as assigned. Furnace Whelp (2/2)
    blocked by Canopy Spider (1/3) assigns 2; pumping it twice with damage on the stack doesn't
    raise that: the Spider survives with 2 damage."""
    s = main({"in_play": ["Furnace Whelp", "Mountain", "Mountain"]},
             {"in_play": ["Canopy Spider"]})
    attack(s, "Furnace Whelp")
    block(s, ("Furnace Whelp", "Canopy Spider"))
    s.pass_priority(2)
    assert s.game.stack[-1].kind == "combat_damage"
    s.do("activate Furnace Whelp")
    s.resolve()
    s.do("activate Furnace Whelp")
    s.resolve()
    s.assert_pt("Furnace Whelp", 4, 2)
    s.resolve()  # combat damage
    s.assert_in_play("Canopy Spider")
    s.assert_damage("Canopy Spider", 2)
    s.assert_damage("Furnace Whelp", 1)


def test_rootwalla_pump_after_damage_is_on_the_stack_saves_it() -> None:
    """RULES_2007.md §6: "A pump after that point raises toughness, not the damage already
    assigned." Rootwalla (2/2) blocks Hill Giant (3/3); with damage on the stack it gets +2/+2:
    it survives the Giant's 3 and deals only its assigned 2."""
    s = main({"in_play": ["Hill Giant"]}, {"in_play": ["Rootwalla", "Forest", "Forest"]})
    attack(s, "Hill Giant")
    block(s, ("Hill Giant", "Rootwalla"))
    s.pass_priority(2)
    assert s.game.stack[-1].kind == "combat_damage"
    s.pass_priority()  # player 0 passes; player 1 responds
    s.do("activate Rootwalla")
    s.resolve()
    s.resolve()  # combat damage
    s.assert_in_play("Rootwalla")
    s.assert_damage("Rootwalla", 3)
    s.assert_damage("Hill Giant", 2)
    s.assert_in_play("Hill Giant")


def test_mantis_engine_first_strike_too_late_does_not_deal_damage_twice() -> None:
    """RULES_2007.md §6 / 2007 CR 502.2c: gaining first strike after combat damage is on the
    stack neither stops the creature dealing damage nor lets it deal damage twice. Mantis
    Engine (3/3) blocked by Grizzly Bears deals 3 once; there is no second damage step."""
    s = main({"in_play": ["Mantis Engine", "Mountain", "Mountain"]},
             {"in_play": ["Grizzly Bears"]})
    attack(s, "Mantis Engine")
    block(s, ("Mantis Engine", "Grizzly Bears"))
    s.pass_priority(2)
    assert s.game.stack[-1].kind == "combat_damage"
    s.do("activate Mantis Engine ability 2")
    s.resolve()
    s.resolve()  # combat damage
    s.assert_in_play("Grizzly Bears", False)
    s.assert_damage("Mantis Engine", 2)
    s.pass_priority(2)
    assert s.game.step == "end_of_combat"
    s.assert_damage("Mantis Engine", 2)


def test_viashino_sandscout_in_play_after_end_of_turn_began_waits_for_the_next_turn() -> None:
    """RULES_2007.md §8 (2007 CR 313.2): "At end of turn" triggers as the end of turn step
    begins; a Sandscout already past that point (the position starts inside the step) stays
    until the next turn's end of turn step."""
    s = main({"in_play": ["Viashino Sandscout"]}, {"library": ["Forest"]}, step="end_of_turn")
    assert not s.game.stack
    s.advance_to("upkeep", active=1)
    s.assert_in_play("Viashino Sandscout")
    s.advance_to("end_of_turn", active=1)
    s.resolve()
    s.assert_zone(0, "hand", "Viashino Sandscout")
