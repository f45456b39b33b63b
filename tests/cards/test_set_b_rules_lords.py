"""Tenth Edition cards with evasion and attacking/blocking/targeting restrictions,
rule-modifying statics and lords (their entries: mtg_env/cards/data/evasion_and_restrictions.yaml,
rules_modifying_statics.yaml, lords_and_anthems.yaml and variable_power_toughness.yaml).

Each test quotes the printed 2007 text it checks and cites the rule: 2007 CR numbers where known
(502 evasion, 309 declare blockers, 413 targets, 418.5 layers, 420 state-based effects, 313
cleanup), else 2012 CR numbers.
"""

from __future__ import annotations

from functools import partial

import pytest

from mtg_env import DecisionKind, Deck
from mtg_env.engine.combat import can_attack
from mtg_env.engine.continuous_effects import CantBlock
from mtg_env.engine.errors import DeckError, IllegalActionError
from mtg_env.testing import Scenario, position, to_attackers, to_blockers

LIB = ["Craw Wurm"] * 5
pos = partial(position, library=LIB)  # both players' libraries are LIB unless given


def blocks(s: Scenario) -> set[str]:
    return {o for o in s.options() if o.startswith("block ")}


# -- evasion, attacking, blocking and targeting restrictions ------------------------------------

def test_duct_crawler_target_creature_cant_block_it_this_turn() -> None:
    """Printed text: "{1}{R}: Target creature can't block Duct Crawler this turn." A blocking
    restriction between two creatures (2007 CR 309.2): the target may still block another
    attacker, and another creature may still block Duct Crawler."""
    s = Scenario(pos("precombat_main",
                     {"in_play": ["Mountain", "Mountain", "Duct Crawler", "Raging Goblin"]},
                     {"in_play": ["Grizzly Bears", "Wall of Wood"]}))
    s.do("activate Duct Crawler", "target Grizzly Bears")
    s.resolve()
    to_blockers(s, "Duct Crawler", "Raging Goblin")
    assert blocks(s) == {"block Raging Goblin with Grizzly Bears",
                         "block Duct Crawler with Wall of Wood",
                         "block Raging Goblin with Wall of Wood"}


def test_duct_crawler_effect_ends_at_end_of_turn() -> None:
    """"... this turn": the effect ends in the cleanup step (2012 514.2), so next turn the same
    creature may block Duct Crawler again."""
    s = Scenario(pos("precombat_main", {"in_play": ["Mountain", "Mountain", "Duct Crawler"]},
                     {"in_play": ["Grizzly Bears"]}))
    s.do("activate Duct Crawler", "target Grizzly Bears")
    s.resolve()
    assert any(isinstance(e, CantBlock) for e in s.game.effects)
    s.advance_to("upkeep", active=1)
    s.advance_to("precombat_main", active=0)  # player 1's turn passes, then player 0's again
    assert not s.game.effects
    to_blockers(s, "Duct Crawler")
    assert blocks(s) == {"block Duct Crawler with Grizzly Bears"}


def test_elven_riders_blocked_only_by_walls_and_flyers() -> None:
    """Printed text: "Elven Riders can't be blocked except by Walls and/or creatures with
    flying." 2007 CR 502 evasion; Gatherer 2007-05-01: reach is not flying (Giant Spider can't)."""
    s = Scenario(pos("precombat_main", {"in_play": ["Elven Riders"]},
                     {"in_play": ["Grizzly Bears", "Wall of Wood", "Air Elemental",
                                  "Giant Spider"]}))
    to_blockers(s, "Elven Riders")
    assert blocks(s) == {"block Elven Riders with Wall of Wood",
                         "block Elven Riders with Air Elemental"}


def test_high_ground_each_creature_you_control_can_block_an_additional_creature() -> None:
    """Printed text: "Each creature you control can block an additional creature." 2007 CR
    309.2: one creature blocks two attackers and divides its combat damage among them (2007 CR
    310.1, the defending player divides a blocker's damage)."""
    s = Scenario(pos("precombat_main", {"in_play": ["Raging Goblin", "Goblin Piker"]},
                     {"in_play": ["High Ground", "Grizzly Bears"]}))
    to_blockers(s, "Raging Goblin", "Goblin Piker")
    s.do("block Raging Goblin with Grizzly Bears")
    assert blocks(s) == {"block Goblin Piker with Grizzly Bears"}
    s.do("block Goblin Piker with Grizzly Bears")  # its second block ends the declaration
    assert sorted(s.perm("Grizzly Bears").blocking) == sorted(
        [s.perm("Raging Goblin").id, s.perm("Goblin Piker").id])
    s.pass_priority(2)
    d = s.game.decision
    assert d.kind is DecisionKind.COMBAT_DAMAGE and d.player == 1
    assert s.options() == [f"assign {n} damage to Raging Goblin" for n in range(3)]
    s.do("assign 1 damage to Raging Goblin")  # the last recipient gets the rest
    s.resolve()
    assert not s.in_play("Raging Goblin") and not s.in_play("Goblin Piker")


def test_high_ground_only_your_creatures_and_only_one_more_each() -> None:
    """"Each creature *you control* can block *an* additional creature": the attacker's High
    Ground doesn't help the defender, and a creature with one High Ground blocks at most two."""
    s = Scenario(pos("precombat_main",
                     {"in_play": ["High Ground", "Raging Goblin", "Goblin Piker"]},
                     {"in_play": ["Grizzly Bears"]}))
    to_blockers(s, "Raging Goblin", "Goblin Piker")
    s.do("block Raging Goblin with Grizzly Bears")
    assert s.game.decision.kind is not DecisionKind.DECLARE_BLOCKERS  # no second block
    s = Scenario(pos("precombat_main",
                     {"in_play": ["Raging Goblin", "Goblin Piker", "Mogg Fanatic"]},
                     {"in_play": ["High Ground", "Grizzly Bears"]}))
    to_blockers(s, "Raging Goblin", "Goblin Piker", "Mogg Fanatic")
    s.do("block Raging Goblin with Grizzly Bears", "block Goblin Piker with Grizzly Bears")
    assert s.game.decision.kind is not DecisionKind.DECLARE_BLOCKERS


def test_two_high_grounds_are_cumulative() -> None:
    """Gatherer ruling 2007-07-15: "High Ground's effect is cumulative": with two, a creature
    can block three creatures."""
    s = Scenario(pos("precombat_main",
                     {"in_play": ["Raging Goblin", "Goblin Piker", "Mogg Fanatic"]},
                     {"in_play": ["High Ground", "High Ground", "Grizzly Bears"]}))
    to_blockers(s, "Raging Goblin", "Goblin Piker", "Mogg Fanatic")
    s.do("block Raging Goblin with Grizzly Bears", "block Goblin Piker with Grizzly Bears")
    assert blocks(s) == {"block Mogg Fanatic with Grizzly Bears"}
    s.do("block Mogg Fanatic with Grizzly Bears")
    assert len(s.perm("Grizzly Bears").blocking) == 3


def test_juggernaut_attacks_each_turn_if_able() -> None:
    """Printed text: "Juggernaut attacks each turn if able." (2012 508.1d): it is declared as an
    attacker for its controller, who is not offered the choice."""
    s = Scenario(pos("precombat_main", {"in_play": ["Juggernaut", "Grizzly Bears"]}))
    to_attackers(s)
    assert "attack with Juggernaut" not in s.options()
    s.do("done")
    assert s.perm("Juggernaut").attacking and not s.perm("Grizzly Bears").attacking


def test_juggernaut_cant_be_blocked_by_walls() -> None:
    """Printed text: "Juggernaut can't be blocked by Walls." (2007 CR 502 evasion)."""
    s = Scenario(pos("precombat_main", {"in_play": ["Juggernaut"]},
                     {"in_play": ["Wall of Wood", "Grizzly Bears"]}))
    s.advance_to("beginning_of_combat")
    s.pass_priority(2)  # its only possible declaration is made for its controller
    assert s.perm("Juggernaut").attacking
    s.pass_priority(2)
    assert blocks(s) == {"block Juggernaut with Grizzly Bears"}


def test_karplusan_strider_cant_be_the_target_of_blue_or_black_spells() -> None:
    """Printed text: "Karplusan Strider can't be the target of blue or black spells." (2007 CR
    413): Unsummon (blue) and Terror (black) have no legal target, Shock (red) has."""
    s = Scenario(pos("precombat_main",
                     {"hand": ["Unsummon", "Terror", "Shock"], "mana_pool": "UBBRR"},
                     {"in_play": ["Karplusan Strider"]}))
    opts = s.options()
    assert "play Unsummon" not in opts and "play Terror" not in opts
    s.do("play Shock")
    assert "target Karplusan Strider" in s.options()


def test_karplusan_strider_can_be_targeted_by_abilities() -> None:
    """"... blue or black *spells*": an ability (Prodigal Pyromancer's) may target it."""
    s = Scenario(pos("precombat_main", {"in_play": ["Prodigal Pyromancer"]},
                     {"in_play": ["Karplusan Strider"]}))
    s.do("activate Prodigal Pyromancer")
    assert "target Karplusan Strider" in s.options()


def test_sea_monster_cant_attack_unless_defending_player_controls_an_island() -> None:
    """Printed text: "Sea Monster can't attack unless defending player controls an Island."
    Its controller's own Island doesn't count (2012 508.1c attack restrictions)."""
    s = Scenario(pos("precombat_main", {"in_play": ["Sea Monster", "Grizzly Bears", "Island"]}))
    to_attackers(s)
    assert s.options() == ["attack with Grizzly Bears", "done"]
    s = Scenario(pos("precombat_main", {"in_play": ["Sea Monster"]}, {"in_play": ["Island"]}))
    to_attackers(s)
    assert "attack with Sea Monster" in s.options()


def test_stalking_tiger_cant_be_blocked_by_more_than_one_creature() -> None:
    """Printed text: "Stalking Tiger can't be blocked by more than one creature." (2007 CR
    309.2): once one creature blocks it, no other block of it is offered; the other creatures
    may still block other attackers."""
    s = Scenario(pos("precombat_main", {"in_play": ["Stalking Tiger", "Grizzly Bears"]},
                     {"in_play": ["Grizzly Bears", "Wall of Wood"]}))
    to_blockers(s, "Stalking Tiger", "Grizzly Bears")
    assert "block Stalking Tiger with Wall of Wood" in blocks(s)
    s.do("block Stalking Tiger with Grizzly Bears#2")
    assert blocks(s) == {"block Grizzly Bears with Wall of Wood"}
    s.do("done")
    assert s.perm("Stalking Tiger").blockers == [s.perm("Grizzly Bears#2").id]


def test_treetop_bracers_plus_one_and_blocked_only_by_flyers() -> None:
    """Printed text: "Enchanted creature gets +1/+1 and can't be blocked except by creatures
    with flying." Gatherer 2007-05-01: reach is not flying."""
    s = Scenario(pos("precombat_main",
                     {"hand": ["Treetop Bracers"], "in_play": ["Forest", "Forest",
                                                               "Grizzly Bears"]},
                     {"in_play": ["Air Elemental", "Giant Spider", "Wall of Wood"]}))
    s.do("play Treetop Bracers", "target Grizzly Bears")
    s.resolve()
    s.assert_pt("Grizzly Bears", 3, 3)
    to_blockers(s, "Grizzly Bears")
    assert blocks(s) == {"block Grizzly Bears with Air Elemental"}


def test_troll_ascetic_cant_be_the_target_of_opponents_spells_or_abilities() -> None:
    """Printed text: "Troll Ascetic can't be the target of spells or abilities your opponents
    control." (2007 CR 413): the opponent's Shock and Prodigal Pyromancer can't target it."""
    s = Scenario(pos("precombat_main", {"in_play": ["Troll Ascetic"]},
                     {"hand": ["Shock"], "mana_pool": "R", "in_play": ["Prodigal Pyromancer"]}))
    s.pass_priority()
    assert s.game.decision.player == 1
    s.do("play Shock")
    assert "target Troll Ascetic" not in s.options()
    s.do("target player 0")
    s.resolve()
    s.pass_priority()
    s.do("activate Prodigal Pyromancer")
    assert "target Troll Ascetic" not in s.options()


def test_troll_ascetic_its_controller_may_target_it_and_it_regenerates() -> None:
    """"... your *opponents* control": its controller's own spells may target it. "{1}{G}:
    Regenerate Troll Ascetic." (2007 CR 419.6b): destroyed by lethal damage, it is tapped and
    stays in play instead."""
    s = Scenario(pos("precombat_main", {"hand": ["Shock"], "mana_pool": "GG",
                                        "in_play": ["Mountain", "Troll Ascetic"]}))
    s.do("activate Troll Ascetic")
    s.resolve()
    s.do("play Shock", "target Troll Ascetic")
    s.resolve()
    s.assert_in_play("Troll Ascetic")
    assert s.perm("Troll Ascetic").tapped and s.perm("Troll Ascetic").damage == 0


# -- rule-modifying statics -------------------------------------------------------------------

def _counter_scenario(herald_side: int) -> Scenario:
    p0 = {"hand": ["Grizzly Bears", "Giant Growth"], "mana_pool": "GGG",
          "in_play": ["Grizzly Bears"]}
    p1 = {"hand": ["Cancel", "Cancel"], "in_play": ["Island"] * 6}
    (p0 if herald_side == 0 else p1)["in_play"] = [
        *(p0 if herald_side == 0 else p1)["in_play"], "Gaea's Herald"]
    return Scenario(pos("precombat_main", p0, p1))


@pytest.mark.parametrize("herald_side", [0, 1])
def test_gaeas_herald_creature_spells_cant_be_countered(herald_side: int) -> None:
    """Printed text: "Creature spells can't be countered." Gatherer: it applies to the
    opponent's spells as well. Cancel may target the creature spell, which resolves anyway
    (2012 101.2: "can't" wins)."""
    s = _counter_scenario(herald_side)
    s.do("play Grizzly Bears")
    s.pass_priority()
    s.do("play Cancel", "target Grizzly Bears")
    s.resolve()
    s.resolve()
    s.assert_in_play("Grizzly Bears")


def test_gaeas_herald_noncreature_spells_can_still_be_countered() -> None:
    """"*Creature* spells can't be countered": Giant Growth is countered by Cancel."""
    s = _counter_scenario(0)
    s.do("play Giant Growth", "target Grizzly Bears#2")
    s.pass_priority()
    s.do("play Cancel", "target Giant Growth")
    s.resolve()
    assert not s.game.stack
    s.assert_zone(0, "graveyard", "Giant Growth")
    s.assert_pt("Grizzly Bears#2", 2, 2)


def test_persuasion_you_control_enchanted_creature_until_it_leaves() -> None:
    """Printed text: "You control enchanted creature." A control-changing static ability
    (2007 CR 418.5 layer 2): control returns when Persuasion leaves play; the stolen creature
    can't attack this turn (2007 CR 212.3d, summoning sickness)."""
    s = Scenario(pos("precombat_main",
                     {"hand": ["Persuasion"], "in_play": ["Island"] * 5},
                     {"hand": ["Boomerang"], "in_play": ["Island", "Island", "Grizzly Bears"]}))
    s.do("play Persuasion", "target Grizzly Bears")
    s.resolve()
    assert s.perm("Grizzly Bears").controller == 0
    assert not can_attack(s.game, s.perm("Grizzly Bears"))
    s.pass_priority()
    s.do("play Boomerang", "target Persuasion")
    s.resolve()
    assert s.perm("Grizzly Bears").controller == 1
    s.assert_zone(0, "hand", "Persuasion")


def test_platinum_angel_you_cant_lose_at_zero_life() -> None:
    """Printed text: "You can't lose the game and your opponents can't win the game." 2007 CR
    420.5a: a player at 0 life doesn't lose while controlling it, and loses as soon as it
    leaves play."""
    s = Scenario(pos("precombat_main",
                     {"life": 2, "hand": ["Unsummon"], "in_play": ["Island", "Platinum Angel"]},
                     {"hand": ["Shock"], "in_play": ["Mountain"]}))
    s.pass_priority()
    s.do("play Shock", "target player 0")
    s.resolve()
    assert s.game.players[0].life == 0 and not s.game.is_over
    s.do("play Unsummon", "target Platinum Angel")
    s.resolve()
    s.assert_winner(1)


def test_platinum_angel_drawing_from_an_empty_library() -> None:
    """2007 CR 420.5g: a player who drew from an empty library loses; with Platinum Angel they
    don't, and the draw is not held against them later (only draws "since the last time
    state-based effects were checked" count). The opponent's Angel doesn't protect you."""
    s = Scenario(pos("upkeep", {"library": [], "hand": ["Unsummon"],
                                "in_play": ["Island", "Platinum Angel"]}))
    s.advance_to("draw")
    assert s.game.players[0].drew_from_empty is False and not s.game.is_over
    s.do("play Unsummon", "target Platinum Angel")
    s.resolve()
    assert not s.game.is_over
    s = Scenario(pos("upkeep", {"library": []}, {"in_play": ["Platinum Angel"]}))
    s.pass_priority(2)
    s.assert_winner(1)


def test_root_maze_artifacts_and_lands_come_into_play_tapped() -> None:
    """Printed text: "Artifacts and lands come into play tapped." (2012 614.1c, 614.12: it
    applies as they come into play); a creature isn't affected, nor is Root Maze itself."""
    s = Scenario(pos("precombat_main",
                     {"hand": ["Forest", "Spellbook", "Grizzly Bears", "Root Maze"],
                      "mana_pool": "GGG"}))
    s.do("play Root Maze")
    s.resolve()
    assert not s.perm("Root Maze").tapped
    s.do("play Forest", "play Spellbook")
    s.resolve()
    s.do("play Grizzly Bears")
    s.resolve()
    assert s.perm("Forest").tapped and s.perm("Spellbook").tapped
    assert not s.perm("Grizzly Bears").tapped


def test_root_maze_affects_every_player() -> None:
    """"Artifacts and lands": the opponent's too (no "you control")."""
    s = Scenario(pos("precombat_main", {"in_play": ["Root Maze"]},
                     {"hand": ["Bottle Gnomes"], "mana_pool": "CCC"}, active_player=1))
    s.do("play Bottle Gnomes")
    s.resolve()
    assert s.perm("Bottle Gnomes").tapped


def test_rule_of_law_each_player_one_spell_each_turn() -> None:
    """Printed text: "Each player can't play more than one spell each turn." Gatherer: the
    spell that put it in play counts (the whole turn counts). Each player has their own limit."""
    s = Scenario(pos("precombat_main",
                     {"hand": ["Rule of Law", "Shock"], "in_play": ["Plains"] * 3,
                      "mana_pool": "R"},
                     {"hand": ["Shock", "Giant Growth"], "mana_pool": "RG",
                      "in_play": ["Grizzly Bears"]}))
    s.do("play Rule of Law")
    s.resolve()
    assert "play Shock" not in s.options()
    s.pass_priority()
    assert "play Shock#2" in s.options()
    s.do("play Shock#2", "target player 0")
    s.resolve()
    s.pass_priority()
    assert s.game.decision.player == 1
    assert "play Giant Growth" not in s.options()


def test_rule_of_law_limit_resets_each_turn() -> None:
    """"... each *turn*": on the next turn a player may play a spell again."""
    s = Scenario(pos("precombat_main", {"in_play": ["Rule of Law"]},
                     {"hand": ["Shock", "Shock"], "in_play": ["Mountain", "Mountain"]}))
    s.pass_priority()
    s.do("play Shock", "target player 0")
    s.resolve()
    s.pass_priority()
    assert s.game.decision.player == 1 and "play Shock#2" not in s.options()
    s.advance_to("upkeep", active=1)
    assert s.game.decision.player == 1 and "play Shock#2" in s.options()


def test_seedborn_muse_untaps_your_permanents_in_other_players_untap_steps() -> None:
    """Printed text: "Untap all permanents you control during each other player's untap step."
    (2007 CR 302.2: the untap step.)"""
    s = Scenario(pos("end_of_turn",
                     {"in_play": ["Seedborn Muse", {"card": "Forest", "tapped": True},
                                  {"card": "Grizzly Bears", "tapped": True}]},
                     {"in_play": [{"card": "Mountain", "tapped": True}]}))
    s.advance_to("upkeep", active=1)
    assert not s.perm("Forest").tapped and not s.perm("Grizzly Bears").tapped
    assert not s.perm("Mountain").tapped  # its own untap step, as always


def test_seedborn_muse_only_your_permanents() -> None:
    """"... permanents *you* control": the opponent's Seedborn Muse doesn't untap yours in
    your opponent's untap step."""
    s = Scenario(pos("end_of_turn", {"in_play": [{"card": "Forest", "tapped": True}]},
                     {"in_play": ["Seedborn Muse"]}))
    s.advance_to("upkeep", active=1)
    assert s.perm("Forest").tapped


def test_spellbook_no_maximum_hand_size() -> None:
    """Printed text: "You have no maximum hand size." 2007 CR 313.1: in the cleanup step the
    active player discards down to seven, unless (Spellbook) there is no maximum."""
    hand = ["Grizzly Bears"] * 9
    s = Scenario(pos("end_of_turn", {"hand": hand, "in_play": ["Spellbook"]}))
    s.advance_to("upkeep", active=1)
    assert len(s.game.players[0].hand) == 9


def test_spellbook_only_its_controller() -> None:
    """"*You* have no maximum hand size": the opponent's Spellbook doesn't help you."""
    s = Scenario(pos("end_of_turn", {"hand": ["Grizzly Bears"] * 9},
                     {"in_play": ["Spellbook"]}))
    s.pass_priority(2)
    assert s.game.decision.kind is DecisionKind.CHOOSE_CARDS
    assert "discard 2" in s.game.decision.prompt


def test_steel_golem_you_cant_play_creature_spells() -> None:
    """Printed text: "You can't play creature spells." Artifact creatures are creature spells
    (Gatherer 2008-04-01); other spells and the opponent's creature spells are unaffected."""
    s = Scenario(pos("precombat_main",
                     {"hand": ["Grizzly Bears", "Juggernaut", "Giant Growth", "Spellbook"],
                      "mana_pool": "GGGGG", "in_play": ["Steel Golem"]},
                     {"hand": ["Benalish Knight"], "mana_pool": "WWW"}))
    opts = s.options()
    assert "play Grizzly Bears" not in opts and "play Juggernaut" not in opts
    assert "play Giant Growth" in opts and "play Spellbook" in opts
    s.pass_priority()
    assert "play Benalish Knight" in s.options()  # flash, the opponent's creature spell


def test_true_believer_you_have_shroud() -> None:
    """Printed text: "You have shroud. (You can't be the target of spells or abilities.)"
    (2012 702.18): neither player may target its controller; its controller's creatures may
    still be targeted."""
    s = Scenario(pos("precombat_main", {"hand": ["Shock"], "mana_pool": "R",
                                        "in_play": ["True Believer"]},
                     {"hand": ["Shock"], "mana_pool": "R"}))
    s.do("play Shock")
    assert "target player 0" not in s.options()
    assert {"target player 1", "target True Believer"} <= set(s.options())
    s.do("target player 1")
    s.pass_priority()
    s.do("play Shock#2")
    assert "target player 0" not in s.options()


def test_true_believer_shroud_ends_when_it_leaves_play() -> None:
    """The shroud is a static ability of True Believer (2007 CR 418.3): once it leaves play its
    controller may be targeted again."""
    s = Scenario(pos("precombat_main", {"hand": ["Unsummon", "Shock"], "mana_pool": "UR",
                                        "in_play": ["True Believer"]}))
    s.do("play Unsummon", "target True Believer")
    s.resolve()
    s.do("play Shock")
    assert "target player 0" in s.options()


# -- lords and relative counts ----------------------------------------------------------------

def test_coat_of_arms_counts_creatures_sharing_a_type_with_each_creature() -> None:
    """Printed text: "Each creature gets +1/+1 for each other creature in play that shares a
    creature type with it." Counted for each creature (2007 CR 418.5 layer 6d); sharing two
    types counts once (Gatherer 2009-10-01); every player's creatures count."""
    s = Scenario(pos("precombat_main",
                     {"in_play": ["Coat of Arms", "Goblin Piker", "Raging Goblin",
                                  "Grizzly Bears"]},
                     {"in_play": ["Mass of Ghouls", "Civic Wayfinder"]}))
    # Goblin Piker (Goblin Warrior) shares with Raging Goblin (Goblin), Mass of Ghouls (Zombie
    # Warrior) and Civic Wayfinder (Elf Warrior Druid): +3.
    s.assert_pt("Goblin Piker", 5, 4)
    s.assert_pt("Raging Goblin", 2, 2)
    s.assert_pt("Mass of Ghouls", 7, 5)
    s.assert_pt("Civic Wayfinder", 4, 4)
    s.assert_pt("Grizzly Bears", 2, 2)


def test_coat_of_arms_two_of_one_type_and_a_creature_leaving() -> None:
    """"... for each *other* creature": a creature doesn't count itself; the bonus follows the
    creatures in play (a continuous effect, 2007 CR 418.3)."""
    s = Scenario(pos("precombat_main", {"hand": ["Shock"], "mana_pool": "R",
                                        "in_play": ["Coat of Arms", "Grizzly Bears",
                                                    "Grizzly Bears", "Grizzly Bears"]}))
    s.assert_pt("Grizzly Bears", 4, 4)
    s.do("play Shock", "target Grizzly Bears#3")
    s.resolve()
    s.assert_pt("Grizzly Bears#3", 4, 4)  # still alive: 4 toughness, 2 damage
    assert s.perm("Grizzly Bears#3").damage == 2


def test_elvish_champion_other_elves_get_plus_one_and_forestwalk() -> None:
    """Printed text: "Other Elf creatures get +1/+1 and have forestwalk." Not itself ("other");
    every player's Elves (Gatherer 2004-10-04); forestwalk (2007 CR 502.13) makes Civic Wayfinder
    unblockable while the defending player controls a Forest."""
    s = Scenario(pos("precombat_main",
                     {"in_play": ["Elvish Champion", "Civic Wayfinder", "Grizzly Bears"]},
                     {"in_play": ["Gaea's Herald", "Forest", "Wall of Wood"]}))
    s.assert_pt("Elvish Champion", 2, 2)
    s.assert_pt("Civic Wayfinder", 3, 3)
    s.assert_pt("Gaea's Herald", 2, 2)
    s.assert_pt("Grizzly Bears", 2, 2)
    assert s.perm("Civic Wayfinder").has("forestwalk")
    assert not s.perm("Elvish Champion").has("forestwalk")
    to_blockers(s, "Civic Wayfinder", "Elvish Champion")
    assert blocks(s) == {"block Elvish Champion with Gaea's Herald",
                         "block Elvish Champion with Wall of Wood"}


def test_field_marshal_other_soldiers_plus_one_and_first_strike() -> None:
    """Printed text: "Other Soldier creatures get +1/+1 and have first strike." Two Field
    Marshals give each other the bonus (each is "other" to the other)."""
    s = Scenario(pos("precombat_main",
                     {"in_play": ["Field Marshal", "Aven Fisher", "Grizzly Bears"]}))
    s.assert_pt("Aven Fisher", 3, 3)
    assert s.perm("Aven Fisher").has("first_strike")
    s.assert_pt("Field Marshal", 2, 2)
    assert not s.perm("Field Marshal").has("first_strike")
    s.assert_pt("Grizzly Bears", 2, 2)
    s = Scenario(pos("precombat_main", {"in_play": ["Field Marshal", "Field Marshal"]}))
    s.assert_pt("Field Marshal", 3, 3)
    s.assert_pt("Field Marshal#2", 3, 3)
    assert s.perm("Field Marshal").has("first_strike")


def test_goblin_king_other_goblins_plus_one_and_mountainwalk() -> None:
    """Printed text: "Other Goblin creatures get +1/+1 and have mountainwalk." Gatherer
    2005-08-01: two Goblin Kings give each other the bonus."""
    s = Scenario(pos("precombat_main",
                     {"in_play": ["Goblin King", "Goblin King", "Mogg Fanatic", "Grizzly Bears"]},
                     {"in_play": ["Mountain", "Wall of Wood"]}))
    s.assert_pt("Mogg Fanatic", 3, 3)
    s.assert_pt("Goblin King", 3, 3)
    s.assert_pt("Grizzly Bears", 2, 2)
    to_blockers(s, "Mogg Fanatic", "Grizzly Bears")
    assert blocks(s) == {"block Grizzly Bears with Wall of Wood"}


def test_lord_of_the_undead_other_zombies_plus_one() -> None:
    """Printed text: "Other Zombie creatures get +1/+1." (2007 CR 418.5 layer 6d)."""
    s = Scenario(pos("precombat_main", {"in_play": ["Lord of the Undead", "Severed Legion",
                                                    "Grizzly Bears"]},
                     {"in_play": ["Gravedigger"]}))
    s.assert_pt("Lord of the Undead", 2, 2)
    s.assert_pt("Severed Legion", 3, 3)
    s.assert_pt("Gravedigger", 3, 3)
    s.assert_pt("Grizzly Bears", 2, 2)


def test_lord_of_the_undead_returns_target_zombie_card_from_your_graveyard() -> None:
    """Printed text: "{1}{B}, {T}: Return target Zombie card from your graveyard to your hand."
    Only Zombie cards, only from its controller's graveyard (2007 CR 413 legal targets)."""
    s = Scenario(pos("precombat_main",
                     {"in_play": ["Swamp", "Swamp", "Lord of the Undead"],
                      "graveyard": ["Gravedigger", "Grizzly Bears"]},
                     {"graveyard": ["Mass of Ghouls"]}))
    s.do("activate Lord of the Undead")
    assert [o for o in s.options() if o.startswith("target")] == ["target Gravedigger"]
    s.do("target Gravedigger")
    s.resolve()
    s.assert_zone(0, "hand", "Gravedigger")
    assert s.perm("Lord of the Undead").tapped


def test_relentless_rats_plus_one_for_each_other_rats() -> None:
    """Printed text: "Relentless Rats gets +1/+1 for each other creature in play named
    Relentless Rats." Every player's Rats count, not itself."""
    s = Scenario(pos("precombat_main", {"in_play": ["Relentless Rats"]}))
    s.assert_pt("Relentless Rats", 2, 2)
    s = Scenario(pos("precombat_main", {"in_play": ["Relentless Rats", "Relentless Rats"]},
                     {"in_play": ["Relentless Rats", "Grizzly Bears"]}))
    for label in ("Relentless Rats", "Relentless Rats#2", "Relentless Rats#3"):
        s.assert_pt(label, 4, 4)


def test_relentless_rats_any_number_in_a_deck() -> None:
    """Printed text: "A deck can have any number of cards named Relentless Rats." (2007 CR
    100.2a: otherwise at most four copies of a card other than a basic land)."""
    deck = Deck.from_text("24 Relentless Rats\n16 Swamp")
    assert len(deck) == 40
    with pytest.raises(DeckError):
        Deck.from_text("5 Grizzly Bears\n35 Forest")


def test_steel_golem_creature_spell_cant_be_played_at_all() -> None:
    """"You can't play creature spells": the action is refused, not just left out of the
    options (2007 CR 409.1)."""
    s = Scenario(pos("precombat_main", {"hand": ["Grizzly Bears"], "mana_pool": "GG",
                                        "in_play": ["Steel Golem"]}))
    with pytest.raises(IllegalActionError):
        s.do("play Grizzly Bears")


def test_heuristic_agent_steals_with_persuasion_and_enchants_its_own_with_bracers() -> None:
    """The heuristic agent reads the ops and statics: Persuasion ("You control enchanted
    creature") goes on the opponent's creature, Treetop Bracers (+1/+1, evasion) on its own."""
    from agents import HeuristicAgent
    from mtg_env.engine.view import view_for

    for aura, mana, want in (("Persuasion", "Island", "Hill Giant"),
                             ("Treetop Bracers", "Forest", "Grizzly Bears")):
        s = Scenario(pos("precombat_main", {"hand": [aura], "in_play": [mana] * 5 + ["Grizzly Bears"]},
                         {"in_play": ["Hill Giant"]}))
        h = HeuristicAgent(strict=True)
        h.reset(0, 0)
        picks = []
        for _ in range(2):
            a = h.act(view_for(s.game, 0))
            picks.append(a.text)
            s.do(a.text)
        assert picks == [f"play {aura}", f"target {want}"]
