"""Scenario tests for the Tenth Edition triggered abilities, statics, Auras and Equipment
(`python -m mtg_env.cards where NAME` finds a card's entry in mtg_env/cards/data).

Each test quotes the printed 2007 text it checks. Rule numbers are 2007 CR where known
(../shared/reference/RULES_2007.md), else 2012 CR. Player 0 is active unless stated otherwise.
"""

from __future__ import annotations

import pytest

from mtg_env import DecisionKind, IllegalActionError
from mtg_env.testing import Scenario, attack, block, kind, labels, scenario, to_blockers

K = DecisionKind


def cast_creature(s: Scenario, name: str) -> None:
    """Play a creature spell and let it resolve (its trigger, if any, then waits)."""
    s.do(f"play {name}")
    s.resolve()


# -- Enters-the-battlefield destruction --------------------------------------------------------
def test_aven_cloudchaser_destroys_target_enchantment() -> None:
    """Aven Cloudchaser: "Flying. When Aven Cloudchaser comes into play, destroy target
    enchantment." Only enchantments are targets (either player's); the creature has flying."""
    s = scenario({"hand": ["Aven Cloudchaser"], "in_play": ["Plains"] * 4 + ["Bottle Gnomes"]},
                 {"in_play": ["Upwelling", "Hill Giant"]})
    cast_creature(s, "Aven Cloudchaser")
    assert s.options() == ["target Upwelling"]
    s.do("target Upwelling")
    s.resolve()
    s.assert_in_play("Upwelling", False)
    assert s.perm("Aven Cloudchaser").has("flying")


def test_aven_cloudchaser_trigger_without_an_enchantment_is_removed() -> None:
    """With no enchantment in play the trigger has no legal target and is removed from the
    stack (2012 603.3d); the creature stays."""
    s = scenario({"hand": ["Aven Cloudchaser"], "in_play": ["Plains"] * 4}, {"in_play": ["Bottle Gnomes"]})
    cast_creature(s, "Aven Cloudchaser")
    assert kind(s) is K.PRIORITY and not s.game.stack
    s.assert_in_play("Bottle Gnomes")
    s.assert_in_play("Aven Cloudchaser")


def test_viridian_shaman_destroys_target_artifact() -> None:
    """Viridian Shaman: "When Viridian Shaman comes into play, destroy target artifact." An
    artifact creature is an artifact; an enchantment is not a target."""
    s = scenario({"hand": ["Viridian Shaman"], "in_play": ["Forest"] * 3},
                 {"in_play": ["Bottle Gnomes", "Upwelling"]})
    cast_creature(s, "Viridian Shaman")
    assert s.options() == ["target Bottle Gnomes"]
    s.do("target Bottle Gnomes")
    s.resolve()
    s.assert_in_play("Bottle Gnomes", False)
    s.assert_in_play("Upwelling")


def test_nekrataal_targets_nonartifact_nonblack_creatures_only() -> None:
    """Nekrataal: "destroy target nonartifact, nonblack creature." A black creature and an
    artifact creature are not targets; Grizzly Bears is."""
    s = scenario({"hand": ["Nekrataal"], "in_play": ["Swamp"] * 4},
                 {"in_play": ["Looming Shade", "Bottle Gnomes", "Grizzly Bears"]})
    cast_creature(s, "Nekrataal")
    assert s.options() == ["target Grizzly Bears"]
    s.do("target Grizzly Bears")
    s.resolve()
    s.assert_in_play("Grizzly Bears", False)
    s.assert_in_play("Looming Shade")
    assert s.perm("Nekrataal").has("first_strike")


def test_nekrataal_victim_cant_be_regenerated() -> None:
    """Nekrataal: "That creature can't be regenerated." Grizzly Bears enchanted with
    Regeneration gets a shield in response; it is destroyed anyway (2007 CR 419.6b)."""
    s = scenario({"hand": ["Nekrataal"], "in_play": ["Swamp"] * 4},
                 {"in_play": ["Forest", {"card": "Grizzly Bears", "id": "b"},
                              {"card": "Regeneration", "attached_to": "b"}]})
    cast_creature(s, "Nekrataal")
    s.do("target Grizzly Bears")
    s.pass_priority()
    s.do("activate Regeneration")
    s.resolve()
    bears = s.perm("Grizzly Bears").id
    assert any(r.KIND == "regenerate" and r.pid == bears for r in s.game.replacements)
    s.resolve()
    s.assert_in_play("Grizzly Bears", False)


def test_nekrataal_with_no_legal_target() -> None:
    """With only black or artifact creatures around (Nekrataal itself is black) the trigger is
    removed for lack of a legal target (2012 603.3d)."""
    s = scenario({"hand": ["Nekrataal"], "in_play": ["Swamp"] * 4}, {"in_play": ["Bottle Gnomes"]})
    cast_creature(s, "Nekrataal")
    assert kind(s) is K.PRIORITY and not s.game.stack


# -- Enters-the-battlefield life, cards ----------------------------------------------------------
def test_highway_robber_drains_target_opponent() -> None:
    """Highway Robber: "you gain 2 life and target opponent loses 2 life." Only an opponent is a
    target."""
    s = scenario({"hand": ["Highway Robber"], "in_play": ["Swamp"] * 4})
    cast_creature(s, "Highway Robber")
    assert s.options() == ["target player 1"]
    s.do("target player 1")
    s.resolve()
    s.assert_life(0, 22)
    s.assert_life(1, 18)


def test_phyrexian_rager_draws_and_loses_one() -> None:
    """Phyrexian Rager: "When Phyrexian Rager comes into play, you draw a card and you lose 1
    life." """
    s = scenario({"hand": ["Phyrexian Rager"], "library": ["Island"], "in_play": ["Swamp"] * 3})
    cast_creature(s, "Phyrexian Rager")
    s.resolve()
    assert labels(s, 0, "hand") == ["Island"]
    s.assert_life(0, 19)


def test_ravenous_rats_target_opponent_discards_their_choice() -> None:
    """Ravenous Rats: "target opponent discards a card." The opponent chooses the card (2012
    701.7a); only an opponent is a target."""
    s = scenario({"hand": ["Ravenous Rats"], "in_play": ["Swamp"] * 2},
                 {"hand": ["Shock", "Forest"]})
    cast_creature(s, "Ravenous Rats")
    assert s.options() == ["target player 1"]
    s.do("target player 1")
    s.resolve()
    assert s.game.decision.player == 1
    assert sorted(s.options()) == ["discard Forest", "discard Shock"]
    s.do("discard Shock")
    assert labels(s, 1, "hand") == ["Forest"]
    assert labels(s, 1, "graveyard") == ["Shock"]


def test_treasure_hunter_may_return_artifact_card_from_your_graveyard() -> None:
    """Treasure Hunter: "you may return target artifact card from your graveyard to your hand."
    Only artifact cards in your own graveyard are targets; "may" is asked on resolution."""
    s = scenario({"hand": ["Treasure Hunter"], "graveyard": ["Bottle Gnomes", "Grizzly Bears"],
                  "in_play": ["Plains"] * 3},
                 {"graveyard": ["Loxodon Warhammer"]})
    cast_creature(s, "Treasure Hunter")
    assert s.options() == ["target Bottle Gnomes"]
    s.do("target Bottle Gnomes")
    s.resolve()
    assert kind(s) is K.YES_NO
    s.do("yes")
    assert labels(s, 0, "hand") == ["Bottle Gnomes"]
    assert labels(s, 1, "graveyard") == ["Loxodon Warhammer"]


def test_treasure_hunter_may_decline() -> None:
    """Treasure Hunter's return is optional: "no" leaves the card in the graveyard."""
    s = scenario({"hand": ["Treasure Hunter"], "graveyard": ["Bottle Gnomes"], "in_play": ["Plains"] * 3})
    cast_creature(s, "Treasure Hunter")
    s.do("target Bottle Gnomes")
    s.resolve()
    s.do("no")
    assert labels(s, 0, "hand") == []
    assert labels(s, 0, "graveyard") == ["Bottle Gnomes"]


# -- Leaves-play and other creature triggers -------------------------------------------------------
def test_festering_goblin_dying_gives_target_creature_minus_one() -> None:
    """Festering Goblin: "When Festering Goblin is put into a graveyard from play, target
    creature gets -1/-1 until end of turn." Shocked, it kills a 1/1 (2007 CR 420.5c)."""
    s = scenario({"hand": ["Shock"], "in_play": ["Mountain", "Festering Goblin"]},
                 {"in_play": ["Looming Shade", "Hill Giant"]})
    s.do("play Shock", "target Festering Goblin")
    s.resolve()
    assert sorted(s.options()) == ["target Hill Giant", "target Looming Shade"]
    s.do("target Looming Shade")
    s.resolve()
    s.assert_in_play("Looming Shade", False)


def test_festering_goblin_bounced_does_not_trigger() -> None:
    """Festering Goblin triggers only when put into a graveyard from play: returned to hand by
    Unsummon it doesn't."""
    s = scenario({"hand": ["Unsummon"], "in_play": ["Island", "Festering Goblin"]},
                 {"in_play": ["Looming Shade"]})
    s.do("play Unsummon", "target Festering Goblin")
    s.resolve()
    assert kind(s) is K.PRIORITY and not s.game.stack
    s.assert_pt("Looming Shade", 1, 1)


def test_soul_warden_gains_for_each_other_creature_either_side() -> None:
    """Soul Warden: "Whenever another creature comes into play, you gain 1 life." Creatures of
    both players count; Soul Warden itself doesn't ("another") and neither does a land."""
    s = scenario({"hand": ["Soul Warden", "Grizzly Bears", "Forest"], "library": ["Island"] * 2,
                  "in_play": ["Plains", "Forest", "Forest"]},
                 {"hand": ["Looming Shade"], "library": ["Island"] * 2, "in_play": ["Swamp"] * 3})
    cast_creature(s, "Soul Warden")
    assert not s.game.stack
    s.assert_life(0, 20)
    s.do("play Forest")
    assert not s.game.stack
    cast_creature(s, "Grizzly Bears")
    s.resolve()
    s.assert_life(0, 21)
    s.advance_to("precombat_main", active=1)
    cast_creature(s, "Looming Shade")
    s.resolve()
    s.assert_life(0, 22)
    s.assert_life(1, 20)


def test_grave_pact_opponent_sacrifices_when_your_creature_dies() -> None:
    """Grave Pact: "Whenever a creature you control is put into a graveyard from play, each
    other player sacrifices a creature." The opponent chooses which (2012 701.14a)."""
    s = scenario({"hand": ["Shock"], "in_play": ["Mountain", "Grave Pact", "Grizzly Bears"]},
                 {"in_play": ["Hill Giant", "Looming Shade"]})
    s.do("play Shock", "target Grizzly Bears")
    s.resolve()
    assert [x.label for x in s.game.stack] == ["Grave Pact"]
    s.resolve()
    assert s.game.decision.player == 1
    assert sorted(s.options()) == ["sacrifice Hill Giant", "sacrifice Looming Shade"]
    s.do("sacrifice Looming Shade")
    s.assert_in_play("Looming Shade", False)
    s.assert_in_play("Hill Giant")


def test_grave_pact_ignores_opponents_creatures_dying() -> None:
    """Grave Pact sees only "a creature you control": the opponent's creature dying doesn't
    trigger it, nor does a noncreature permanent of yours."""
    s = scenario({"hand": ["Shock", "Naturalize"],
                  "in_play": ["Mountain", "Forest", "Forest", "Grave Pact", "Grizzly Bears",
                              "Upwelling"]},
                 {"in_play": ["Looming Shade", "Hill Giant"]})
    s.do("play Shock", "target Looming Shade")
    s.resolve()
    assert not s.game.stack
    s.do("play Naturalize", "target Upwelling")
    s.resolve()
    assert not s.game.stack
    s.assert_in_play("Hill Giant")


def test_megrim_punishes_opponent_discards_per_card() -> None:
    """Megrim: "Whenever an opponent discards a card, Megrim deals 2 damage to that player."
    Ravenous Rats make the opponent discard: 2 damage to them."""
    s = scenario({"hand": ["Ravenous Rats"], "in_play": ["Swamp"] * 2 + ["Megrim"]},
                 {"hand": ["Shock"]})
    cast_creature(s, "Ravenous Rats")
    s.do("target player 1")
    s.resolve()
    s.do("discard Shock")
    assert [x.label for x in s.game.stack] == ["Megrim"]
    s.resolve()
    s.assert_life(1, 18)
    s.assert_life(0, 20)


def test_megrim_triggers_once_per_card_discarded() -> None:
    """Megrim triggers for each card an opponent discards: three random discards from Goblin
    Lore are three triggers, 6 damage."""
    s = scenario({"hand": ["Goblin Lore"], "library": ["Forest"] * 4, "in_play": ["Mountain"] * 2},
                 {"in_play": ["Megrim"]})
    s.do("play Goblin Lore")
    s.resolve()
    assert [x.label for x in s.game.stack] == ["Megrim"] * 3
    s.resolve_all()
    s.assert_life(0, 14)
    s.assert_life(1, 20)


def test_megrim_ignores_its_controllers_discards() -> None:
    """Megrim: "Whenever an *opponent* discards a card": its controller's own discard (Sift)
    doesn't trigger it."""
    s = scenario({"hand": ["Sift"], "library": ["Island"] * 3, "in_play": ["Island"] * 4 + ["Megrim"]})
    s.do("play Sift")
    s.resolve()
    s.do("discard Island")
    assert not s.game.stack
    s.assert_life(0, 20)


def test_graveborn_muse_draws_and_loses_per_zombie() -> None:
    """Graveborn Muse: "At the beginning of your upkeep, you draw X cards and you lose X life,
    where X is the number of Zombies you control." The Muse is itself a Zombie; Festering Goblin
    is a Zombie Goblin; the opponent's Zombie doesn't count (upkeep triggers: 2012 503.1a)."""
    s = Scenario({"turn": 2, "active_player": 1, "step": "end_of_turn", "players": [
        {"library": ["Island"] * 4, "in_play": ["Graveborn Muse", "Festering Goblin"]},
        {"in_play": ["Severed Legion"]}]})
    s.advance_to("upkeep", active=0)
    assert [x.label for x in s.game.stack] == ["Graveborn Muse"]
    s.resolve()
    assert len(labels(s, 0, "hand")) == 2
    s.assert_life(0, 18)


def test_graveborn_muse_only_on_your_upkeep() -> None:
    """Graveborn Muse triggers at the beginning of *your* upkeep only."""
    s = Scenario({"turn": 2, "step": "end_of_turn", "players": [
        {"library": ["Island"] * 4, "in_play": ["Graveborn Muse"]}, {"library": ["Forest"] * 2}]})
    s.advance_to("upkeep", active=1)
    assert not s.game.stack
    s.assert_life(0, 20)


def test_goblin_elite_infantry_shrinks_when_it_blocks() -> None:
    """Goblin Elite Infantry: "Whenever Goblin Elite Infantry blocks or becomes blocked, it
    gets -1/-1 until end of turn." Blocking Grizzly Bears it is a 1/1 and dies."""
    s = scenario({"in_play": ["Grizzly Bears"]}, {"in_play": ["Goblin Elite Infantry"]})
    attack(s, "Grizzly Bears")
    block(s, ("Grizzly Bears", "Goblin Elite Infantry"))
    assert [x.label for x in s.game.stack] == ["Goblin Elite Infantry"]
    s.resolve()
    s.assert_pt("Goblin Elite Infantry", 1, 1)
    s.advance_to("end_of_combat")
    s.assert_in_play("Goblin Elite Infantry", False)
    s.assert_in_play("Grizzly Bears")


def test_goblin_elite_infantry_shrinks_when_blocked_not_when_unblocked() -> None:
    """Goblin Elite Infantry "becomes blocked": attacking unblocked it stays 2/2 and deals 2;
    blocked by Vampire Bats on the next attack it becomes 1/1."""
    s = scenario({"in_play": ["Goblin Elite Infantry"]}, {"in_play": ["Vampire Bats"]})
    attack(s, "Goblin Elite Infantry")
    to_blockers(s)
    s.do("done")
    assert not s.game.stack
    s.advance_to("end_of_combat")
    s.assert_life(1, 18)
    s2 = scenario({"in_play": ["Goblin Elite Infantry"]}, {"in_play": ["Vampire Bats"]})
    attack(s2, "Goblin Elite Infantry")
    block(s2, ("Goblin Elite Infantry", "Vampire Bats"))
    s2.resolve()
    s2.assert_pt("Goblin Elite Infantry", 1, 1)


def test_sunken_hope_each_upkeep_that_player_returns_a_creature() -> None:
    """Sunken Hope: "At the beginning of each player's upkeep, that player returns a creature
    he or she controls to its owner's hand." In the opponent's upkeep the opponent chooses among
    their own creatures; in its controller's upkeep the controller does."""
    s = Scenario({"turn": 2, "step": "end_of_turn", "players": [
        {"library": ["Island"] * 3, "in_play": ["Sunken Hope", "Grizzly Bears", "Hill Giant"]},
        {"library": ["Forest"] * 3, "in_play": ["Looming Shade", "Craw Wurm"]}]})
    s.advance_to("upkeep", active=1)
    assert [x.label for x in s.game.stack] == ["Sunken Hope"]
    s.resolve()
    assert s.game.decision.player == 1
    assert sorted(s.options()) == ["return Craw Wurm", "return Looming Shade"]
    s.do("return Craw Wurm")
    assert labels(s, 1, "hand") == ["Craw Wurm"]
    s.advance_to("upkeep", active=0)
    s.resolve()
    assert s.game.decision.player == 0
    assert sorted(s.options()) == ["return Grizzly Bears", "return Hill Giant"]
    s.do("return Hill Giant")
    assert "Hill Giant" in labels(s, 0, "hand")


def test_sunken_hope_with_no_creature_does_nothing() -> None:
    """Sunken Hope with no creature for that player: nothing is returned, no decision."""
    s = Scenario({"turn": 2, "step": "end_of_turn", "players": [
        {"library": ["Island"] * 3, "in_play": ["Sunken Hope", "Grizzly Bears"]},
        {"library": ["Forest"] * 3}]})
    s.advance_to("upkeep", active=1)
    s.resolve()
    assert kind(s) is K.PRIORITY
    s.assert_in_play("Grizzly Bears")


# -- Static abilities --------------------------------------------------------------------------
def test_glorious_anthem_pumps_only_your_creatures() -> None:
    """Glorious Anthem: "Creatures you control get +1/+1." (layer 6d, 2007 CR 418.5) A creature
    coming into play later gets it too; the opponent's don't."""
    s = scenario({"hand": ["Grizzly Bears"], "in_play": ["Glorious Anthem", "Hill Giant", "Forest",
                                                          "Forest"]},
                 {"in_play": ["Craw Wurm"]})
    s.assert_pt("Hill Giant", 4, 4)
    s.assert_pt("Craw Wurm", 6, 4)
    cast_creature(s, "Grizzly Bears")
    s.assert_pt("Grizzly Bears", 3, 3)


def test_primal_rage_gives_your_creatures_trample() -> None:
    """Primal Rage: "Creatures you control have trample." Craw Wurm (6/4) blocked by Grizzly
    Bears assigns lethal 2 and tramples 4 over (2007 CR 502.9); the opponent's creature doesn't
    get trample."""
    s = scenario({"in_play": ["Primal Rage", "Craw Wurm"]}, {"in_play": ["Grizzly Bears"]})
    assert s.perm("Craw Wurm").has("trample")
    assert not s.perm("Grizzly Bears").has("trample")
    attack(s, "Craw Wurm")
    block(s, ("Craw Wurm", "Grizzly Bears"))
    while kind(s) is not K.PRIORITY or s.game.step != "end_of_combat":
        if kind(s) is K.PRIORITY:
            s.pass_priority()
        else:
            opts = s.options()
            pick = [o for o in opts if "Grizzly Bears" in o and "2" in o]
            s.do(pick[0] if pick else opts[0])
    s.assert_life(1, 16)
    s.assert_in_play("Grizzly Bears", False)


def test_yavimaya_enchantress_counts_every_enchantment_in_play() -> None:
    """Yavimaya Enchantress: "gets +1/+1 for each enchantment in play" (both players', Auras
    included); it changes as enchantments leave."""
    s = scenario({"hand": ["Naturalize"], "in_play": ["Forest", "Forest", "Yavimaya Enchantress",
                                                       {"card": "Grizzly Bears", "id": "b"},
                                                       {"card": "Holy Strength", "attached_to": "b"}]},
                 {"in_play": ["Upwelling", "Bottle Gnomes"]})
    s.assert_pt("Yavimaya Enchantress", 4, 4)
    s.do("play Naturalize", "target Upwelling")
    s.resolve()
    s.assert_pt("Yavimaya Enchantress", 3, 3)


def test_scion_of_the_wild_counts_creatures_you_control() -> None:
    """Scion of the Wild: "power and toughness are each equal to the number of creatures you
    control" (a characteristic-defining ability, layer 6a, 2007 CR 418.5). It counts itself;
    the opponent's creatures don't count."""
    s = scenario({"hand": ["Grizzly Bears"], "in_play": ["Scion of the Wild", "Hill Giant", "Forest",
                                                          "Forest"]},
                 {"in_play": ["Craw Wurm", "Looming Shade"]})
    s.assert_pt("Scion of the Wild", 2, 2)
    cast_creature(s, "Grizzly Bears")
    s.assert_pt("Scion of the Wild", 3, 3)


def test_nightmare_counts_swamps_you_control_and_flies() -> None:
    """Nightmare: "Flying. Nightmare's power and toughness are each equal to the number of
    Swamps you control." The opponent's Swamps don't count; with none it is 0/0 and dies
    (2007 CR 420.5b)."""
    s = scenario({"in_play": ["Nightmare", "Swamp", "Swamp", "Forest"]}, {"in_play": ["Swamp"]})
    s.assert_pt("Nightmare", 2, 2)
    assert s.perm("Nightmare").has("flying")
    s2 = scenario({"hand": ["Nightmare"], "mana_pool": "BBBBBB"}, {"in_play": ["Swamp"] * 3})
    s2.do("play Nightmare")
    s2.resolve()
    s2.assert_in_play("Nightmare", False)
    assert labels(s2, 0, "graveyard") == ["Nightmare"]


def test_robe_of_mirrors_gives_shroud() -> None:
    """Robe of Mirrors: "Enchanted creature has shroud. (It can't be the target of spells or
    abilities.)" After the Robe, Shock can't target the creature (2012 702.17)."""
    s = scenario({"hand": ["Robe of Mirrors"], "in_play": ["Island", "Grizzly Bears"]},
                 {"hand": ["Shock"], "in_play": ["Mountain"]})
    s.do("play Robe of Mirrors", "target Grizzly Bears")
    s.resolve()
    assert s.perm("Grizzly Bears").has("shroud")
    s.pass_priority()
    s.do("play Shock")
    assert "target Grizzly Bears" not in s.options()


def test_fear_aura_blocks_only_by_black_or_artifact() -> None:
    """Fear: "Enchanted creature has fear. (It can't be blocked except by artifact creatures
    and/or black creatures.)" Hill Giant can't block it; Bottle Gnomes and Looming Shade can."""
    s = scenario({"hand": ["Fear"], "in_play": ["Swamp", "Swamp", "Grizzly Bears"]},
                 {"in_play": ["Hill Giant", "Bottle Gnomes", "Looming Shade"]})
    s.do("play Fear", "target Grizzly Bears")
    s.resolve()
    attack(s, "Grizzly Bears")
    to_blockers(s)
    opts = s.options()
    assert "block Grizzly Bears with Bottle Gnomes" in opts
    assert "block Grizzly Bears with Looming Shade" in opts
    assert "block Grizzly Bears with Hill Giant" not in opts


def test_dehydration_keeps_the_creature_tapped() -> None:
    """Dehydration: "Enchanted creature doesn't untap during its controller's untap step."
    The opponent's tapped Hill Giant stays tapped through their untap step; their other
    creature untaps (2012 502.2)."""
    s = scenario({"hand": ["Dehydration"], "in_play": ["Island"] * 4},
                 {"library": ["Forest"] * 2, "in_play": [{"card": "Hill Giant", "tapped": True},
                                                         {"card": "Grizzly Bears", "tapped": True}]})
    s.do("play Dehydration", "target Hill Giant")
    s.resolve()
    s.advance_to("upkeep", active=1)
    assert s.perm("Hill Giant").tapped
    assert not s.perm("Grizzly Bears").tapped


def test_uncontrollable_anger_flash_pump_and_must_attack() -> None:
    """Uncontrollable Anger: "Flash. Enchanted creature gets +2/+2 and attacks each turn if
    able." Played on the opponent's turn (flash, 2012 702.8); on its controller's turn the
    creature must be declared as an attacker (2012 508.1d)."""
    s2 = scenario({}, {"hand": ["Uncontrollable Anger"], "library": ["Forest"] * 2,
                       "in_play": ["Mountain"] * 4 + ["Grizzly Bears"]})
    s2.pass_priority()
    s2.do("play Uncontrollable Anger", "target Grizzly Bears")
    s2.resolve()
    s2.assert_pt("Grizzly Bears", 4, 4)
    s2.advance_to("declare_attackers", active=1)
    # The only legal declaration includes the creature, so it is made without a decision.
    assert s2.perm("Grizzly Bears").attacking
    s2.advance_to("end_of_combat", active=1)
    s2.assert_life(0, 16)


def test_leonin_scimitar_equip_one_plus_one() -> None:
    """Leonin Scimitar: "Equipped creature gets +1/+1. Equip {1}." Equip targets only a
    creature you control (2012 702.6a); moving it ends the bonus on the first creature."""
    s = scenario({"hand": [], "in_play": ["Leonin Scimitar", "Plains", "Plains", "Grizzly Bears",
                                          "Hill Giant"]},
                 {"in_play": ["Craw Wurm"]})
    s.do("activate Leonin Scimitar")
    assert sorted(s.options()) == ["target Grizzly Bears", "target Hill Giant"]
    s.do("target Grizzly Bears")
    s.resolve()
    s.assert_pt("Grizzly Bears", 3, 3)
    s.do("activate Leonin Scimitar", "target Hill Giant")
    s.resolve()
    s.assert_pt("Grizzly Bears", 2, 2)
    s.assert_pt("Hill Giant", 4, 4)


def test_leonin_scimitar_equip_only_as_a_sorcery() -> None:
    """"Equip only as a sorcery": not on the opponent's turn nor with a spell on the stack."""
    s = scenario({"in_play": ["Leonin Scimitar", "Plains", "Grizzly Bears"]}, {}, active_player=1)
    s.pass_priority()
    assert "activate Leonin Scimitar" not in s.options()
    s2 = scenario({"hand": ["Shock"], "in_play": ["Leonin Scimitar", "Plains", "Mountain",
                                                  "Grizzly Bears"]})
    assert "activate Leonin Scimitar" in s2.options()
    s2.do("play Shock", "target player 1")
    assert "activate Leonin Scimitar" not in s2.options()


def test_whispersilk_cloak_unblockable_and_shroud() -> None:
    """Whispersilk Cloak: "Equipped creature is unblockable and has shroud." Nothing may block
    it, and the opponent's Shock can't target it."""
    s = scenario({"in_play": ["Whispersilk Cloak", "Plains", "Plains", "Grizzly Bears"]},
                 {"hand": ["Shock"], "in_play": ["Hill Giant", "Mountain"]})
    s.do("activate Whispersilk Cloak", "target Grizzly Bears")
    s.resolve()
    assert s.perm("Grizzly Bears").has("unblockable") and s.perm("Grizzly Bears").has("shroud")
    attack(s, "Grizzly Bears")
    s.pass_priority()
    assert kind(s) is K.PRIORITY and s.game.decision.player == 1
    s.do("play Shock")
    assert "target Grizzly Bears" not in s.options()
    s.do("target player 0")
    s.resolve()
    s.advance_to("end_of_combat")
    s.assert_life(1, 18)


def test_firebreathing_pumps_enchanted_creature_per_red() -> None:
    """Firebreathing: "{R}: Enchanted creature gets +1/+0 until end of turn." Each activation
    adds one; it ends at cleanup."""
    s = scenario({"in_play": ["Mountain", "Mountain", {"card": "Grizzly Bears", "id": "b"},
                              {"card": "Firebreathing", "attached_to": "b"}]})
    s.do("activate Firebreathing")
    s.resolve()
    s.do("activate Firebreathing")
    s.resolve()
    s.assert_pt("Grizzly Bears", 4, 2)
    s.advance_to("upkeep", active=1)
    s.assert_pt("Grizzly Bears", 2, 2)


def test_regeneration_saves_enchanted_creature_from_lethal_damage() -> None:
    """Regeneration: "{G}: Regenerate enchanted creature." With a shield, Grizzly Bears dealt
    lethal damage by Shock is regenerated: tapped, damage removed (2007 CR 419.6b)."""
    s = scenario({"in_play": ["Forest", {"card": "Grizzly Bears", "id": "b"},
                              {"card": "Regeneration", "attached_to": "b"}]},
                 {"hand": ["Shock"], "in_play": ["Mountain"]}, active_player=1)
    s.do("play Shock", "target Grizzly Bears")
    s.pass_priority()
    s.do("activate Regeneration")
    s.resolve()
    s.resolve()
    s.assert_in_play("Grizzly Bears")
    assert s.perm("Grizzly Bears").tapped
    s.assert_damage("Grizzly Bears", 0)


def test_shimmering_wings_flying_and_returns_to_hand() -> None:
    """Shimmering Wings: "Enchanted creature has flying. {U}: Return Shimmering Wings to its
    owner's hand." After the return the creature loses flying."""
    s = scenario({"in_play": ["Island", {"card": "Grizzly Bears", "id": "b"},
                              {"card": "Shimmering Wings", "attached_to": "b"}]})
    assert s.perm("Grizzly Bears").has("flying")
    s.do("activate Shimmering Wings")
    s.resolve()
    assert labels(s, 0, "hand") == ["Shimmering Wings"]
    assert not s.perm("Grizzly Bears").has("flying")


def test_aura_needs_a_creature_target() -> None:
    """An Aura with "Enchant creature" targets a creature as it is played (2012 303.4a):
    with no creature in play Fear can't be played."""
    s = scenario({"hand": ["Fear"], "in_play": ["Swamp", "Swamp"]})
    assert "play Fear" not in s.options()
    with pytest.raises(IllegalActionError):
        s.do("play Fear")
