"""Combat: declaring attackers and blockers with their restrictions, combat damage as one stack
object, free division among blockers, trample, first strike and double strike.

Rule numbers are 2007 CR where known (RULES_2007.md §6), else 2012 CR.
"""

from __future__ import annotations

import pytest

from mtg_env import DecisionKind, IllegalActionError
from mtg_env.testing import Scenario, attack, attack_options, block, combat, done_if_asked, to_damage


# -- declaring attackers (2007 CR 308; 2012 508.1) ---------------------------------------------
def test_only_untapped_unsick_non_defender_creatures_may_attack() -> None:
    """2012 508.1a / 2007 glossary "Declare Attackers": tapped creatures, creatures not
    controlled continuously since the turn began (without haste) and creatures with defender
    (2012 702.3b) can't attack; lands and the opponent's creatures can't either."""
    s = combat([{"card": "Grizzly Bears", "tapped": True},
                {"card": "Hill Giant", "summoning_sick": True},
                "Wall of Wood", "Forest", "Craw Wurm"],
               ["Goblin Piker"])
    assert attack_options(s) == ["attack with Craw Wurm", "done"]


def test_haste_creature_can_attack_the_turn_it_comes_into_play() -> None:
    """2012 702.10b: haste lets a creature attack although it came under its controller's
    control this turn (Raging Goblin)."""
    s = combat([{"card": "Raging Goblin", "summoning_sick": True},
                {"card": "Goblin Piker", "summoning_sick": True}], [])
    assert attack_options(s) == ["attack with Raging Goblin", "done"]
    s.do("attack with Raging Goblin")
    done_if_asked(s, DecisionKind.DECLARE_ATTACKERS)
    assert s.perm("Raging Goblin").tapped
    s.pass_priority(2)  # declare attackers -> declare blockers (nothing can block)
    to_damage(s)
    s.pass_priority(2)  # damage resolves
    s.assert_life(1, 19)


def test_summoning_sickness_wears_off_at_the_controllers_next_turn() -> None:
    """2007 CR 212.3d: a creature can attack once its controller has controlled it continuously
    since their most recent turn began."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"hand": ["Grizzly Bears"], "in_play": ["Forest", "Forest"], "library": ["Forest"] * 3},
        {"library": ["Forest"] * 3}]})
    s.do("play Grizzly Bears")
    s.resolve()
    assert s.perm("Grizzly Bears").summoning_sick
    s.advance_to("beginning_of_combat")
    s.pass_priority(2)
    assert s.game.step == "declare_attackers"
    # No creature can attack: no declare-attackers decision, the step goes on with priority.
    assert s.game.decision.kind is DecisionKind.PRIORITY
    s.advance_to("beginning_of_combat", active=0)
    assert s.game.turn == 5
    assert not s.perm("Grizzly Bears").summoning_sick
    assert "attack with Grizzly Bears" in attack_options(s)


def test_attacking_taps_the_creature_but_vigilance_does_not() -> None:
    """2012 508.1f: attacking creatures become tapped; 2012 702.19b: vigilance means attacking
    doesn't cause it to tap (Serra Angel)."""
    s = combat(["Serra Angel", "Hill Giant"], [])
    attack(s, "Serra Angel", "Hill Giant")
    assert not s.perm("Serra Angel").tapped
    assert s.perm("Hill Giant").tapped
    assert s.perm("Serra Angel").attacking and s.perm("Hill Giant").attacking


def test_no_attackers_skips_blockers_and_damage_steps() -> None:
    """2012 508.8: if no creatures are declared as attackers, the declare blockers and combat
    damage steps are skipped."""
    s = combat(["Grizzly Bears"], ["Hill Giant"])
    attack(s)  # declare no attackers
    s.pass_priority(2)
    assert s.game.step == "end_of_combat"


def test_cannot_declare_the_same_attacker_twice() -> None:
    """2012 508.1a: each attacker is declared once; declared creatures leave the options."""
    s = combat(["Grizzly Bears", "Hill Giant"], [])
    s.pass_priority(2)
    s.do("attack with Grizzly Bears")
    assert s.options() == ["attack with Hill Giant", "done"]
    with pytest.raises(IllegalActionError):
        s.do("attack with Grizzly Bears")


# -- declaring blockers (2007 CR 309; 2012 509.1) -----------------------------------------------
def test_tapped_creatures_cannot_block_and_blocking_does_not_tap() -> None:
    """2007 glossary "Declare Blockers": only untapped creatures can block; blocking doesn't
    cause creatures to tap. Summoning sickness doesn't matter for blocking."""
    s = combat(["Hill Giant"], [{"card": "Grizzly Bears", "tapped": True},
                                {"card": "Goblin Piker", "summoning_sick": True}])
    attack(s, "Hill Giant")
    s.pass_priority(2)
    assert s.options() == ["block Hill Giant with Goblin Piker", "done"]
    s.do("block Hill Giant with Goblin Piker")
    done_if_asked(s, DecisionKind.DECLARE_BLOCKERS)
    assert not s.perm("Goblin Piker").tapped
    assert s.perm("Hill Giant").blocked


def test_each_creature_blocks_only_one_attacker() -> None:
    """2012 509.1a / rulebook: each creature can block only one attacker."""
    s = combat(["Hill Giant", "Grizzly Bears"], ["Craw Wurm"])
    attack(s, "Hill Giant", "Grizzly Bears")
    s.pass_priority(2)
    assert s.options() == ["block Hill Giant with Craw Wurm", "block Grizzly Bears with Craw Wurm",
                           "done"]
    s.do("block Hill Giant with Craw Wurm")
    # Nothing is left to declare: the declaration ends and the active player gets priority.
    assert s.game.decision.kind is DecisionKind.PRIORITY
    assert s.perm("Craw Wurm").blocking == [s.perm("Hill Giant").id]


def test_several_blockers_may_gang_up_on_one_attacker() -> None:
    """Rulebook "Attacking and Blocking" / 2012 509.1a: multiple blockers can block a single
    attacking creature."""
    s = combat(["Craw Wurm"], ["Grizzly Bears", "Grizzly Bears", "Hill Giant"])
    attack(s, "Craw Wurm")
    block(s, ("Craw Wurm", "Grizzly Bears"), ("Craw Wurm", "Grizzly Bears#2"),
          ("Craw Wurm", "Hill Giant"))
    assert sorted(s.perm(b).label for b in ("Grizzly Bears", "Grizzly Bears#2", "Hill Giant")
                  if s.perm(b).blocking) == ["Grizzly Bears", "Grizzly Bears#2", "Hill Giant"]
    assert len(s.perm("Craw Wurm").blockers) == 3


def test_flying_attacker_blockable_only_by_flying_or_reach() -> None:
    """2012 702.9b (flying) and 702.16b (reach): a creature with flying can't be blocked except
    by creatures with flying and/or reach."""
    s = combat(["Serra Angel"], ["Grizzly Bears", "Giant Spider", "Skyhunter Skirmisher"])
    attack(s, "Serra Angel")
    s.pass_priority(2)
    assert s.options() == ["block Serra Angel with Giant Spider",
                           "block Serra Angel with Skyhunter Skirmisher", "done"]


def test_flying_creature_may_block_a_creature_without_flying() -> None:
    """2012 702.9c: flying doesn't restrict what a creature can block."""
    s = combat(["Grizzly Bears"], ["Serra Angel"])
    attack(s, "Grizzly Bears")
    s.pass_priority(2)
    assert s.options() == ["block Grizzly Bears with Serra Angel", "done"]


def test_forestwalk_unblockable_only_while_defender_controls_a_forest() -> None:
    """2012 702.13b (landwalk): Rushwood Dryad is unblockable as long as the defending player
    controls a Forest; the attacker's own Forest doesn't count."""
    s = combat(["Rushwood Dryad", "Forest"], ["Grizzly Bears", "Forest"])
    attack(s, "Rushwood Dryad")
    s.pass_priority(2)
    assert s.game.step == "declare_blockers"
    assert s.game.decision.kind is DecisionKind.PRIORITY  # nothing could block
    s2 = combat(["Rushwood Dryad", "Forest"], ["Grizzly Bears", "Mountain"])
    attack(s2, "Rushwood Dryad")
    s2.pass_priority(2)
    assert s2.options() == ["block Rushwood Dryad with Grizzly Bears", "done"]


def test_swampwalk() -> None:
    """2012 702.13b: Bog Wraith is unblockable while the defending player controls a Swamp."""
    s = combat(["Bog Wraith"], ["Grizzly Bears", "Swamp"])
    attack(s, "Bog Wraith")
    s.pass_priority(2)
    assert s.game.decision.kind is DecisionKind.PRIORITY
    s2 = combat(["Bog Wraith", "Swamp"], ["Grizzly Bears", "Forest"])
    attack(s2, "Bog Wraith")
    s2.pass_priority(2)
    assert s2.options() == ["block Bog Wraith with Grizzly Bears", "done"]


def test_fear_blockable_only_by_black_or_artifact_creatures() -> None:
    """2012 702.34b: a creature with fear can't be blocked except by artifact creatures and/or
    black creatures (Severed Legion; Bottle Gnomes is an artifact creature; a noncreature
    artifact can't block at all)."""
    s = combat(["Severed Legion"], ["Grizzly Bears", "Drudge Skeletons", "Bog Wraith", "Bottle Gnomes",
                                    "Loxodon Warhammer"])
    attack(s, "Severed Legion")
    s.pass_priority(2)
    assert s.options() == ["block Severed Legion with Drudge Skeletons",
                           "block Severed Legion with Bog Wraith",
                           "block Severed Legion with Bottle Gnomes", "done"]


def test_illegal_block_raises_and_changes_nothing() -> None:
    """2012 509.1b: a block that breaks a restriction is illegal (Grizzly Bears can't block
    Serra Angel)."""
    s = combat(["Serra Angel"], ["Grizzly Bears"])
    attack(s, "Serra Angel")
    s.pass_priority(2)
    before = s.game.to_json()
    with pytest.raises(IllegalActionError):
        s.do("block Serra Angel with Grizzly Bears")
    assert s.game.to_json() == before


# -- combat damage (2007 CR 310) ------------------------------------------------------------
def test_unblocked_attacker_damages_defending_player() -> None:
    """2007 CR 310.1 (RULES_2007 §6.2): an unblocked attacker assigns all its damage to the
    defending player."""
    s = combat(["Craw Wurm", "Grizzly Bears"], [])
    attack(s, "Craw Wurm", "Grizzly Bears")
    s.pass_priority(2)  # declare attackers -> no blockers possible
    to_damage_if_needed(s)
    s.pass_priority(2)
    s.assert_life(1, 12)


def to_damage_if_needed(s: Scenario) -> None:
    if s.game.step == "declare_blockers":
        s.pass_priority(2)
    assert s.game.step == "combat_damage"


def test_combat_damage_is_one_stack_object_with_priority_before_it_resolves() -> None:
    """2007 CR 310.2 (RULES_2007 §3, §6.3): all combat damage goes on the stack as a single
    object, and the active player gets priority before it resolves; it is not a spell, so it
    can't be countered or targeted (Cancel has nothing to target)."""
    s = combat(["Hill Giant", "Grizzly Bears"],
               {"hand": ["Cancel"], "in_play": ["Goblin Piker", "Island", "Island", "Island"]})
    attack(s, "Hill Giant", "Grizzly Bears")
    block(s, ("Hill Giant", "Goblin Piker"))
    to_damage(s)
    g = s.game
    assert len(g.stack) == 1 and g.stack[0].kind == "combat_damage"
    assert g.decision.kind is DecisionKind.PRIORITY and g.decision.player == 0
    s.assert_life(1, 20)
    s.assert_damage("Hill Giant", 0)
    s.pass_priority()
    assert g.decision.player == 1
    assert "play Cancel" not in s.options()
    s.pass_priority()
    assert not g.stack
    s.assert_life(1, 18)
    s.assert_damage("Hill Giant", 2)
    s.assert_in_play("Goblin Piker", False)
    # After it resolves the active player gets priority again in the same step.
    assert g.step == "combat_damage" and g.decision.player == 0


def test_example_of_combat() -> None:
    """Rulebook "Example of Combat" (with Tenth Edition vanilla creatures instead of the
    pictured cards): three attackers, two blocked, one let through; the unblocked one deals its
    damage to the defending player, blocked ones and blockers damage each other: the smaller
    creatures die and the bigger live. The smallest creature stays home untapped."""
    s = combat(["Hill Giant", "Grizzly Bears", "Goblin Piker", "Raging Goblin"],
               ["Craw Wurm", "Grizzly Bears", "Goblin Piker"])
    attack(s, "Hill Giant", "Grizzly Bears", "Goblin Piker")
    assert not s.perm("Raging Goblin").tapped
    block(s, ("Hill Giant", "Grizzly Bears#2"), ("Grizzly Bears", "Craw Wurm"))
    to_damage(s)
    s.pass_priority(2)
    s.assert_life(1, 18)  # unblocked Goblin Piker
    s.assert_in_play("Hill Giant")  # 3/3 takes 2
    s.assert_damage("Hill Giant", 2)
    s.assert_in_play("Grizzly Bears#2", False)  # 2/2 takes 3
    s.assert_in_play("Grizzly Bears", False)  # 2/2 takes 6
    s.assert_damage("Craw Wurm", 2)
    s.assert_zone(0, "graveyard", "Grizzly Bears")
    s.assert_zone(1, "graveyard", "Grizzly Bears#2")


def test_blocked_attacker_deals_no_damage_to_player_and_stays_blocked() -> None:
    """2012 506.4 / RULES_2007 §6: a blocked creature stays blocked even if its blocker leaves
    combat; with no blockers left (and no trample) it assigns no damage."""
    s = combat({"hand": ["Unsummon"], "in_play": ["Hill Giant", "Island"]}, ["Grizzly Bears"])
    attack(s, "Hill Giant")
    block(s, ("Hill Giant", "Grizzly Bears"))
    s.do("play Unsummon", "target Grizzly Bears")
    s.resolve()
    s.assert_zone(1, "hand", "Grizzly Bears")
    assert s.perm("Hill Giant").blocked
    s.pass_priority(2)
    assert s.game.step == "combat_damage" and not s.game.stack
    s.pass_priority(2)
    s.assert_life(1, 20)


def test_free_split_three_hill_giants_block_craw_wurm() -> None:
    """RULES_2007 §19 scenario 8 (2007 CR 310.1, free division): three Hill Giants block Craw
    Wurm (6/4); its controller may assign 2/2/2, so nothing dies (illegal in 2012)."""
    s = combat(["Craw Wurm"], ["Hill Giant", "Hill Giant", "Hill Giant"])
    attack(s, "Craw Wurm")
    block(s, ("Craw Wurm", "Hill Giant"), ("Craw Wurm", "Hill Giant#2"), ("Craw Wurm", "Hill Giant#3"))
    to_damage(s)
    d = s.game.decision
    assert d.kind is DecisionKind.COMBAT_DAMAGE and d.player == 0
    # Every amount from 0 to 6 may go to the first blocker: no lethal-first duty.
    assert s.options() == [f"assign {n} damage to Hill Giant" for n in range(7)]
    s.do("assign 2 damage to Hill Giant", "assign 2 damage to Hill Giant#2")
    # The rest goes to the last blocker automatically.
    assert s.game.decision.kind is DecisionKind.PRIORITY
    s.pass_priority(2)
    for g in ("Hill Giant", "Hill Giant#2", "Hill Giant#3"):
        s.assert_damage(g, 2)
    s.assert_in_play("Craw Wurm", False)  # 9 damage to a 6/4


def test_all_damage_to_one_blocker_zero_to_others() -> None:
    """2007 CR 310.1 (RULES_2007 §6.2): all to one blocker and zero to the others is legal."""
    s = combat(["Craw Wurm"], ["Grizzly Bears", "Grizzly Bears"])
    attack(s, "Craw Wurm")
    block(s, ("Craw Wurm", "Grizzly Bears"), ("Craw Wurm", "Grizzly Bears#2"))
    to_damage(s)
    s.do("assign 0 damage to Grizzly Bears")
    s.pass_priority(2)
    s.assert_damage("Grizzly Bears", 0)
    s.assert_in_play("Grizzly Bears#2", False)
    s.assert_zone(0, "graveyard", "Craw Wurm")  # 2 + 2 damage to a 6/4


def test_no_order_locked_in_giant_growth_on_one_blocker() -> None:
    """RULES_2007 §19 scenario 9: Hill Giant blocked by two Grizzly Bears; in declare blockers
    the defender gives one Bears Giant Growth. 2007: the Giant may assign 2 to the other Bears
    (it dies) and 1 to the pumped one."""
    s = combat(["Hill Giant"],
               {"in_play": ["Grizzly Bears", "Grizzly Bears", "Forest"], "hand": ["Giant Growth"]})
    attack(s, "Hill Giant")
    block(s, ("Hill Giant", "Grizzly Bears"), ("Hill Giant", "Grizzly Bears#2"))
    s.pass_priority()
    s.do("play Giant Growth", "target Grizzly Bears")
    s.resolve()
    s.assert_pt("Grizzly Bears", 5, 5)
    s.pass_priority(2)
    assert s.game.step == "combat_damage"
    s.do("assign 1 damage to Grizzly Bears")
    s.pass_priority(2)
    s.assert_damage("Grizzly Bears", 1)
    s.assert_zone(1, "graveyard", "Grizzly Bears#2")
    s.assert_in_play("Hill Giant", False)  # 5 + 2 damage


def test_late_giant_growth_after_damage_is_on_the_stack() -> None:
    """RULES_2007 §19 scenario 6 (2007 CR 310.4): the defender's Grizzly Bears blocks Hill
    Giant; with damage on the stack the defender plays Giant Growth on the Bears: the Bears
    survives (3 damage, 5/5) and the Giant takes only the 2 already assigned."""
    s = combat(["Hill Giant"], {"in_play": ["Grizzly Bears", "Forest"], "hand": ["Giant Growth"]})
    attack(s, "Hill Giant")
    block(s, ("Hill Giant", "Grizzly Bears"))
    to_damage(s)
    s.pass_priority()
    s.do("play Giant Growth", "target Grizzly Bears")
    s.resolve()
    s.resolve()  # combat damage
    s.assert_pt("Grizzly Bears", 5, 5)
    s.assert_damage("Grizzly Bears", 3)
    s.assert_damage("Hill Giant", 2)
    s.assert_in_play("Hill Giant")


def test_mogg_fanatic_sacrificed_with_damage_on_the_stack_deals_both() -> None:
    """RULES_2007 §19 scenario 5 (2007 CR 310.4; 2012 510.2 note): Goblin Piker and Raging
    Goblin attack; Mogg Fanatic blocks the Piker. With damage on the stack the defender
    sacrifices the Fanatic to ping Raging Goblin (dies). Damage resolves: the Piker still takes
    the Fanatic's 1 and dies; Raging Goblin's 1 still hits the defender."""
    s = combat(["Goblin Piker", "Raging Goblin"], ["Mogg Fanatic"])
    attack(s, "Goblin Piker", "Raging Goblin")
    block(s, ("Goblin Piker", "Mogg Fanatic"))
    to_damage(s)
    s.pass_priority()
    s.do("activate Mogg Fanatic", "target Raging Goblin")
    s.assert_zone(1, "graveyard", "Mogg Fanatic")  # sacrificed as a cost
    s.resolve()
    s.assert_in_play("Raging Goblin", False)
    s.resolve()  # the combat damage
    s.assert_in_play("Goblin Piker", False)
    s.assert_life(1, 19)


def test_blocker_removed_with_damage_on_stack_still_deals_its_damage() -> None:
    """2007 CR 310.4 (RULES_2007 §6.4): a creature bounced after damage is on the stack still
    deals its damage; damage assigned to it is not dealt."""
    s = combat(["Hill Giant"], {"in_play": ["Grizzly Bears", "Island"], "hand": ["Unsummon"]})
    attack(s, "Hill Giant")
    block(s, ("Hill Giant", "Grizzly Bears"))
    to_damage(s)
    s.pass_priority()
    s.do("play Unsummon", "target Grizzly Bears")
    s.resolve()
    s.resolve()
    s.assert_damage("Hill Giant", 2)
    s.assert_zone(1, "hand", "Grizzly Bears")
    s.assert_life(1, 20)


# -- trample (2007 CR 502.9) ----------------------------------------------------------------
def test_trample_excess_damage_to_player() -> None:
    """2007 CR 502.9: a trampler blocked by Grizzly Bears must assign lethal (2) to it and may
    assign the rest to the defending player."""
    s = combat(["Stampeding Wildebeests"], ["Grizzly Bears"])
    attack(s, "Stampeding Wildebeests")
    block(s, ("Stampeding Wildebeests", "Grizzly Bears"))
    to_damage(s)
    assert s.options() == [f"assign {n} damage to Grizzly Bears" for n in range(2, 6)]
    s.do("assign 2 damage to Grizzly Bears")
    s.pass_priority(2)
    s.assert_life(1, 17)
    s.assert_in_play("Grizzly Bears", False)


def test_trample_counts_damage_already_on_the_blocker() -> None:
    """2007 CR 502.9: lethal damage accounts for damage already on the blocker."""
    s = combat(["Stampeding Wildebeests"], [{"card": "Hill Giant", "damage": 2}])
    attack(s, "Stampeding Wildebeests")
    block(s, ("Stampeding Wildebeests", "Hill Giant"))
    to_damage(s)
    assert s.options()[0] == "assign 1 damage to Hill Giant"
    s.do("assign 1 damage to Hill Giant")
    s.pass_priority(2)
    s.assert_life(1, 16)


def test_trample_may_assign_everything_to_the_blocker() -> None:
    """2007 CR 502.9: trample lets, but doesn't force, excess damage go to the player."""
    s = combat(["Stampeding Wildebeests"], ["Grizzly Bears"])
    attack(s, "Stampeding Wildebeests")
    block(s, ("Stampeding Wildebeests", "Grizzly Bears"))
    to_damage(s)
    s.do("assign 5 damage to Grizzly Bears")
    s.pass_priority(2)
    s.assert_life(1, 20)


def test_trample_with_two_blockers_needs_lethal_to_each_before_the_player() -> None:
    """2007 CR 502.9: every blocker must be assigned lethal damage before any goes to the
    player; otherwise the damage is split among the blockers only. Wildebeests (5/4) blocked by
    two Grizzly Bears: 1 to the first forces the other 4 onto the second Bears."""
    s = combat(["Stampeding Wildebeests"], ["Grizzly Bears", "Grizzly Bears"])
    attack(s, "Stampeding Wildebeests")
    block(s, ("Stampeding Wildebeests", "Grizzly Bears"), ("Stampeding Wildebeests", "Grizzly Bears#2"))
    to_damage(s)
    s.do("assign 1 damage to Grizzly Bears")
    # 1 is not lethal for the first Bears, so nothing may go to the player.
    assert s.game.decision.kind is DecisionKind.PRIORITY
    s.pass_priority(2)
    s.assert_life(1, 20)
    s.assert_damage("Grizzly Bears", 1)
    s.assert_zone(1, "graveyard", "Grizzly Bears#2")


def test_trample_with_two_blockers_lethal_to_both_rest_to_player() -> None:
    """2007 CR 502.9: with lethal assigned to every blocker, the rest may go to the player."""
    s = combat(["Stampeding Wildebeests"], ["Grizzly Bears", "Grizzly Bears"])
    attack(s, "Stampeding Wildebeests")
    block(s, ("Stampeding Wildebeests", "Grizzly Bears"), ("Stampeding Wildebeests", "Grizzly Bears#2"))
    to_damage(s)
    s.do("assign 2 damage to Grizzly Bears")
    assert s.options() == ["assign 2 damage to Grizzly Bears#2", "assign 3 damage to Grizzly Bears#2"]
    s.do("assign 2 damage to Grizzly Bears#2")
    s.pass_priority(2)
    s.assert_life(1, 19)


def test_trample_with_all_blockers_removed_deals_all_to_player() -> None:
    """2007 CR 502.9 (RULES_2007 §6): a trampler whose blockers are all gone assigns all its
    damage to the defending player."""
    s = combat(["Stampeding Wildebeests"], {"in_play": ["Grizzly Bears", "Island"], "hand": ["Unsummon"]})
    attack(s, "Stampeding Wildebeests")
    block(s, ("Stampeding Wildebeests", "Grizzly Bears"))
    s.pass_priority()
    s.do("play Unsummon", "target Grizzly Bears")
    s.resolve()
    s.pass_priority(2)
    s.pass_priority(2)
    s.assert_life(1, 15)


# -- first strike and double strike (2007 CR 310.5, 502.2, 502.28) -----------------------------
def test_first_strike_kills_before_regular_damage() -> None:
    """2007 CR 310.5 / 502.2: with a first striker in combat there are two combat damage steps;
    Youthful Knight (2/1 first strike) kills Grizzly Bears before the Bears can deal damage."""
    s = combat(["Youthful Knight"], ["Grizzly Bears"])
    attack(s, "Youthful Knight")
    block(s, ("Youthful Knight", "Grizzly Bears"))
    to_damage(s)
    item = s.game.stack[0]
    assert item.kind == "combat_damage" and item.data.first_strike
    assert item.data.assign == [[s.perm("Youthful Knight").id, "o", s.perm("Grizzly Bears").id,
                                    2, "Youthful Knight", "W", 0, False]]
    s.pass_priority(2)
    s.assert_in_play("Grizzly Bears", False)
    s.pass_priority(2)  # the first combat damage step ends
    assert s.game.step == "combat_damage" and not s.game.stack  # second step: nothing to deal
    s.pass_priority(2)
    assert s.game.step == "end_of_combat"
    s.assert_damage("Youthful Knight", 0)


def test_first_strike_blocker_and_regular_attacker() -> None:
    """2007 CR 310.5: a first-striking blocker deals damage in the first step, the attacker (if
    it survives) in the second; Youthful Knight blocking Hill Giant deals 2, then takes 3."""
    s = Scenario({"turn": 4, "active_player": 1, "step": "beginning_of_combat", "players": [
        {"in_play": ["Youthful Knight"]}, {"in_play": ["Hill Giant"]}]})
    attack(s, "Hill Giant")
    block(s, ("Hill Giant", "Youthful Knight"))
    to_damage(s)
    s.pass_priority(2)
    s.assert_damage("Hill Giant", 2)
    s.assert_in_play("Youthful Knight")
    s.pass_priority(2)
    assert s.game.step == "combat_damage" and s.game.stack
    s.pass_priority(2)
    s.assert_in_play("Youthful Knight", False)
    s.assert_damage("Hill Giant", 2)


def test_double_strike_deals_damage_in_both_steps() -> None:
    """2007 CR 502.28: Skyhunter Skirmisher (1/1 flying, double strike) unblocked deals 1 in
    the first-strike step and 1 in the regular step."""
    s = combat(["Skyhunter Skirmisher"], [])
    attack(s, "Skyhunter Skirmisher")
    s.pass_priority(2)
    to_damage(s)
    assert s.game.step == "combat_damage" and s.game.stack[0].data.first_strike
    s.pass_priority(2)
    s.assert_life(1, 19)
    s.pass_priority(2)
    assert s.game.step == "combat_damage"
    assert not s.game.stack[0].data.first_strike
    s.pass_priority(2)
    s.assert_life(1, 18)


def test_regular_creatures_deal_damage_only_in_the_second_step() -> None:
    """2007 CR 310.5: when a first striker is in combat, creatures without first or double
    strike assign only in the second combat damage step; a first striker doesn't strike
    again."""
    s = combat(["Youthful Knight", "Grizzly Bears"], [])
    attack(s, "Youthful Knight", "Grizzly Bears")
    s.pass_priority(2)
    to_damage(s)
    s.pass_priority(2)
    s.assert_life(1, 18)
    s.pass_priority(2)
    s.pass_priority(2)
    s.assert_life(1, 16)
    s.pass_priority(2)
    assert s.game.step == "end_of_combat"


def test_no_first_strike_means_a_single_combat_damage_step() -> None:
    """2007 CR 310.5: without first or double strike there is one combat damage step."""
    s = combat(["Grizzly Bears"], [])
    attack(s, "Grizzly Bears")
    s.pass_priority(2)
    to_damage(s)
    s.pass_priority(2)
    s.assert_life(1, 18)
    s.pass_priority(2)
    assert s.game.step == "end_of_combat"


# -- the defending player assigns blockers' damage -------------------------------------------
def test_attackers_assign_first_then_blockers_in_one_object() -> None:
    """2007 CR 310.1 / glossary "Assign Combat Damage": the active player announces attackers'
    assignments, then the defending player announces the blockers'; all of it becomes one
    stack object."""
    s = combat(["Craw Wurm", "Hill Giant"], ["Grizzly Bears", "Grizzly Bears", "Goblin Piker"])
    attack(s, "Craw Wurm", "Hill Giant")
    block(s, ("Craw Wurm", "Grizzly Bears"), ("Craw Wurm", "Grizzly Bears#2"),
          ("Hill Giant", "Goblin Piker"))
    to_damage(s)
    d = s.game.decision
    assert d.kind is DecisionKind.COMBAT_DAMAGE and d.player == 0
    s.do("assign 3 damage to Grizzly Bears")
    assert s.game.decision.kind is DecisionKind.PRIORITY
    assert len(s.game.stack) == 1
    out = s.game.stack[0].data.assign
    sources = [e[4] for e in out]
    assert sources == ["Craw Wurm", "Craw Wurm", "Hill Giant", "Grizzly Bears", "Grizzly Bears#2",
                       "Goblin Piker"]
    s.pass_priority(2)
    s.assert_zone(0, "graveyard", "Craw Wurm")
    s.assert_damage("Hill Giant", 2)
    s.assert_life(1, 20)


def test_double_strike_trample_with_lifelink_after_blocker_dies() -> None:
    """2007 CR 502.28 and 502.9: Skyhunter Skirmisher with Loxodon Warhammer (4/1 flying, double
    strike, trample, lifelink) blocked by Giant Spider (2/4): the first-strike step must assign
    lethal (4) to the Spider; in the regular step the Spider is gone, so trample sends all 4 to
    the player. Each step's damage triggers lifelink separately (4 + 4)."""
    s = combat([{"card": "Skyhunter Skirmisher", "id": "s"},
                {"card": "Loxodon Warhammer", "attached_to": "s"}], ["Giant Spider"])
    s.assert_pt("Skyhunter Skirmisher", 4, 1)
    attack(s, "Skyhunter Skirmisher")
    block(s, ("Skyhunter Skirmisher", "Giant Spider"))
    to_damage(s)
    # Lethal for the 2/4 Spider is all 4: nothing is left to choose.
    assert s.game.decision.kind is DecisionKind.PRIORITY
    s.pass_priority(2)
    s.assert_zone(1, "graveyard", "Giant Spider")
    s.resolve()  # lifelink
    s.assert_life(0, 24)
    s.pass_priority(2)  # end of the first combat damage step
    assert s.game.step == "combat_damage"
    assert s.game.stack[0].data.assign[0][1:4] == ["p", 1, 4]
    s.pass_priority(2)
    s.assert_life(1, 16)
    s.resolve()
    s.assert_life(0, 28)


def test_first_strike_blocker_kills_attacker_before_it_deals_damage() -> None:
    """2007 CR 310.5: Goblin Piker blocked by Youthful Knight and Grizzly Bears dies to the
    Knight's first-strike damage; in the regular step the Piker is gone and the Bears, with no
    attacker left, deals nothing."""
    s = combat(["Goblin Piker"], ["Youthful Knight", "Grizzly Bears"])
    attack(s, "Goblin Piker")
    block(s, ("Goblin Piker", "Youthful Knight"), ("Goblin Piker", "Grizzly Bears"))
    to_damage(s)
    assert [e[4] for e in s.game.stack[0].data.assign] == ["Youthful Knight"]
    s.pass_priority(2)
    s.assert_zone(0, "graveyard", "Goblin Piker")
    s.pass_priority(2)
    assert s.game.step == "combat_damage" and not s.game.stack
    s.assert_damage("Youthful Knight", 0)
    s.assert_damage("Grizzly Bears", 0)


def test_attacker_divides_damage_among_first_strike_survivors() -> None:
    """2007 CR 310.5 with free division: Hill Giant blocked by Youthful Knight and Grizzly Bears
    takes 2 first-strike damage, then divides its 3 freely between both blockers."""
    s = combat(["Hill Giant"], ["Youthful Knight", "Grizzly Bears"])
    attack(s, "Hill Giant")
    block(s, ("Hill Giant", "Youthful Knight"), ("Hill Giant", "Grizzly Bears"))
    to_damage(s)
    s.pass_priority(2)
    s.assert_damage("Hill Giant", 2)
    s.pass_priority(2)
    assert s.game.decision.kind is DecisionKind.COMBAT_DAMAGE
    assert s.options() == [f"assign {n} damage to Youthful Knight" for n in range(4)]
    s.do("assign 1 damage to Youthful Knight")
    s.pass_priority(2)
    s.assert_zone(1, "graveyard", "Youthful Knight")
    s.assert_zone(1, "graveyard", "Grizzly Bears")
    s.assert_zone(0, "graveyard", "Hill Giant")  # 2 + 2 (the Bears' regular damage)


def test_cant_attack_and_cant_block() -> None:
    """2012 508.1c / 509.1b: "can't attack" and "can't block" restrictions (Pacifism: enchanted
    creature can't attack or block)."""
    s = combat([{"card": "Hill Giant", "id": "g"}, {"card": "Pacifism", "attached_to": "g"},
                "Grizzly Bears"],
               [{"card": "Craw Wurm", "id": "w"}, {"card": "Pacifism", "attached_to": "w"},
                "Goblin Piker"])
    assert attack_options(s) == ["attack with Grizzly Bears", "done"]
    s.do("attack with Grizzly Bears")
    done_if_asked(s, DecisionKind.DECLARE_ATTACKERS)
    s.pass_priority(2)
    assert s.options() == ["block Grizzly Bears with Goblin Piker", "done"]


def test_unblockable() -> None:
    """2012 509.1b: an unblockable creature can't be blocked (Phantom Warrior)."""
    s = combat(["Phantom Warrior"], ["Serra Angel", "Giant Spider"])
    attack(s, "Phantom Warrior")
    s.pass_priority(2)
    assert s.game.step == "declare_blockers" and s.game.decision.kind is DecisionKind.PRIORITY
    s.pass_priority(2)
    s.pass_priority(2)
    s.assert_life(1, 18)


def test_scenario_7_condemn_with_damage_on_the_stack() -> None:
    """RULES_2007 §19 scenario 7 (2007 CR 310.4): Craw Wurm is blocked by Grizzly Bears; with
    damage on the stack the defender Condemns the Wurm: its controller gains 4 and the Wurm's 6
    damage still kills the Bears."""
    s = combat(["Craw Wurm"], {"in_play": ["Grizzly Bears", "Plains"], "hand": ["Condemn"]})
    attack(s, "Craw Wurm")
    block(s, ("Craw Wurm", "Grizzly Bears"))
    to_damage(s)
    s.pass_priority()
    s.do("play Condemn", "target Craw Wurm")
    s.resolve()
    assert s.game.players[0].library[-1].name == "Craw Wurm"
    s.assert_life(0, 24)
    s.resolve()
    s.assert_zone(1, "graveyard", "Grizzly Bears")
