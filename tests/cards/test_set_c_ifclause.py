"""Scenario tests for the cards with intervening-if triggers, turn history and a
conditional duration: Howling Mine, Lavaborn Muse, Mortal Combat, Phage the Untouchable, No Rest
for the Wicked, Sengir Vampire, Rootwater Matriarch.

Each test quotes the printed 2007 text it checks. Rule numbers are 2007 CR where known, else 2012
CR; rulings are Gatherer rulings printed with the card.
"""

from __future__ import annotations

from mtg_env import DecisionKind
from mtg_env.testing import Scenario, attack, block, combat, main, step_of

K = DecisionKind


def n_triggers(s: Scenario) -> int:
    return sum(1 for x in s.game.stack if x.kind == "triggered")


def hand(s: Scenario, pl: int) -> int:
    return len(s.game.players[pl].hand)


LIB = ["Forest"] * 6


# -- Howling Mine ---------------------------------------------------------------------------------
def test_howling_mine_its_controller_draws_an_extra_card() -> None:
    """Howling Mine: "At the beginning of each player's draw step, if Howling Mine is untapped,
    that player draws a card." The trigger goes on the stack after the turn's draw (2013
    ruling; 2007 CR 304.1, 410.5): player 0 draws 1, then 1 more."""
    s = step_of("draw", 0, {"in_play": ["Howling Mine"], "library": LIB}, {"library": LIB})
    assert hand(s, 0) == 1 and n_triggers(s) == 1
    s.resolve()
    assert hand(s, 0) == 2


def test_howling_mine_triggers_in_each_players_draw_step() -> None:
    """Howling Mine: "each player's draw step ... that player draws a card": the opponent's
    draw step too, and the opponent draws."""
    s = step_of("draw", 1, {"in_play": ["Howling Mine"], "library": LIB}, {"library": LIB})
    assert n_triggers(s) == 1
    s.resolve()
    assert hand(s, 1) == 2 and hand(s, 0) == 0


def test_howling_mine_tapped_does_not_trigger() -> None:
    """Howling Mine: "if Howling Mine is untapped": tapped as the draw step begins, it doesn't
    trigger at all (ruling; 2007 CR 410.11). Player 0's tapped Mine doesn't untap in player 1's
    untap step."""
    s = step_of("draw", 1, {"in_play": [{"card": "Howling Mine", "tapped": True}],
                            "library": LIB}, {"library": LIB})
    assert n_triggers(s) == 0
    assert hand(s, 1) == 1


def test_howling_mine_tapped_in_response_does_nothing() -> None:
    """Howling Mine: "if Howling Mine is untapped" is checked again on resolution (2007 CR
    410.11): tapped with Icy Manipulator in response, the ability does nothing."""
    s = step_of("draw", 0, {"in_play": ["Howling Mine"], "library": LIB},
                {"in_play": ["Island", "Icy Manipulator"], "library": LIB})
    s.pass_priority()
    s.do("activate Icy Manipulator", "target Howling Mine")
    s.resolve()  # Icy's ability: the Mine is tapped
    assert s.perm("Howling Mine").tapped
    s.resolve()
    assert hand(s, 0) == 1


def test_howling_mine_destroyed_in_response_uses_its_last_state() -> None:
    """Howling Mine ruling: "If Howling Mine leaves the battlefield before it resolves, then the
    last known tap or untap state of the card is used" (2012 608.2g): destroyed untapped in
    response, its ability still has player 0 draw."""
    s = step_of("draw", 0, {"in_play": ["Howling Mine"], "library": LIB},
                {"in_play": ["Forest", "Forest"], "hand": ["Naturalize"], "library": LIB})
    s.pass_priority()
    s.do("play Naturalize", "target Howling Mine")
    s.resolve()
    s.assert_in_play("Howling Mine", False)
    s.resolve()
    assert hand(s, 0) == 2


# -- Lavaborn Muse ----------------------------------------------------------------------------------
def test_lavaborn_muse_deals_3_to_an_opponent_with_two_cards() -> None:
    """Lavaborn Muse: "At the beginning of each opponent's upkeep, if that player has two or
    fewer cards in hand, Lavaborn Muse deals 3 damage to him or her.\""""
    s = step_of("upkeep", 1, {"in_play": ["Lavaborn Muse"]},
                {"hand": ["Forest", "Forest"], "library": LIB})
    assert n_triggers(s) == 1
    s.resolve()
    s.assert_life(1, 17)
    s.assert_life(0, 20)


def test_lavaborn_muse_no_trigger_with_three_cards() -> None:
    """Lavaborn Muse: "if that player has two or fewer cards in hand": three cards, no trigger
    (2007 CR 410.11)."""
    s = step_of("upkeep", 1, {"in_play": ["Lavaborn Muse"]},
                {"hand": ["Forest"] * 3, "library": LIB})
    assert n_triggers(s) == 0
    s.assert_life(1, 20)


def test_lavaborn_muse_not_in_its_controllers_upkeep() -> None:
    """Lavaborn Muse: "each opponent's upkeep": not its controller's, even with an empty hand."""
    s = step_of("upkeep", 0, {"in_play": ["Lavaborn Muse"], "library": LIB},
                {"library": LIB})
    assert n_triggers(s) == 0
    s.assert_life(0, 20)


def test_lavaborn_muse_rechecks_the_hand_on_resolution() -> None:
    """Lavaborn Muse ruling: "The number of cards in hand is checked both at the beginning of
    upkeep and when the triggered ability resolves." A Boomerang in response gives the
    opponent a third card: no damage."""
    s = step_of("upkeep", 1, {"in_play": ["Lavaborn Muse", "Island", "Island"],
                              "hand": ["Boomerang"], "library": LIB},
                {"hand": ["Forest", "Forest"], "in_play": ["Grizzly Bears"], "library": LIB})
    assert n_triggers(s) == 1
    s.pass_priority()  # player 1, active, passes; player 0 responds
    s.do("play Boomerang", "target Grizzly Bears")
    s.resolve()
    assert hand(s, 1) == 3
    s.resolve()
    s.assert_life(1, 20)


# -- Mortal Combat ----------------------------------------------------------------------------------
CREATURES_20 = ["Grizzly Bears"] * 20


def test_mortal_combat_wins_with_twenty_creature_cards() -> None:
    """Mortal Combat: "At the beginning of your upkeep, if twenty or more creature cards are in
    your graveyard, you win the game." (2007 CR 102.2)"""
    s = step_of("upkeep", 0, {"in_play": ["Mortal Combat"], "graveyard": CREATURES_20,
                              "library": LIB}, {"library": LIB})
    assert n_triggers(s) == 1
    s.resolve()
    s.assert_winner(0)


def test_mortal_combat_nineteen_creature_cards_and_other_cards_do_not_count() -> None:
    """Mortal Combat: "twenty or more creature cards": 19 creature cards and a land are not
    enough: no trigger (2007 CR 410.11)."""
    s = step_of("upkeep", 0, {"in_play": ["Mortal Combat"],
                              "graveyard": [*CREATURES_20[:19], "Forest"], "library": LIB},
                {"library": LIB})
    assert n_triggers(s) == 0
    assert not s.game.is_over


def test_mortal_combat_only_your_graveyard_and_your_upkeep() -> None:
    """Mortal Combat: "your upkeep ... your graveyard": the opponent's upkeep doesn't trigger
    it, nor do creature cards in the opponent's graveyard."""
    s = step_of("upkeep", 1, {"in_play": ["Mortal Combat"], "graveyard": CREATURES_20,
                              "library": LIB}, {"library": LIB})
    assert n_triggers(s) == 0
    s = step_of("upkeep", 0, {"in_play": ["Mortal Combat"], "library": LIB},
                {"graveyard": CREATURES_20, "library": LIB})
    assert n_triggers(s) == 0


def test_mortal_combat_platinum_angel_stops_the_win() -> None:
    """Platinum Angel: "your opponents can't win the game": Mortal Combat's ability resolves
    but player 0 doesn't win (2007 CR 102.2, 101.1)."""
    s = step_of("upkeep", 0, {"in_play": ["Mortal Combat"], "graveyard": CREATURES_20,
                              "library": LIB}, {"in_play": ["Platinum Angel"], "library": LIB})
    s.resolve()
    assert not s.game.is_over


# -- Phage the Untouchable --------------------------------------------------------------------------
PHAGE_MANA = ["Swamp"] * 7


def test_phage_played_from_hand_does_not_lose() -> None:
    """Phage the Untouchable: "When Phage the Untouchable comes into play, if you didn't play it
    from your hand, you lose the game." Played from the hand: no trigger."""
    s = main({"hand": ["Phage the Untouchable"], "in_play": PHAGE_MANA})
    s.do("play Phage the Untouchable")
    s.resolve()
    s.assert_in_play("Phage the Untouchable")
    assert n_triggers(s) == 0 and not s.game.is_over


def test_phage_put_into_play_from_hand_by_an_ability_loses() -> None:
    """Phage ruling: "Putting it onto the battlefield from your hand using a spell or ability
    will cause you to lose the game." Elvish Piper puts it into play: player 0 loses."""
    s = main({"hand": ["Phage the Untouchable"], "in_play": ["Forest", "Elvish Piper"]})
    s.do("activate Elvish Piper")
    s.resolve()
    s.do("put into play Phage the Untouchable")
    s.assert_in_play("Phage the Untouchable")
    assert n_triggers(s) == 1
    s.resolve()
    s.assert_winner(1)


def test_phage_combat_damage_to_a_player_loses_the_game() -> None:
    """Phage: "Whenever Phage deals combat damage to a player, that player loses the game.\""""
    s = combat({"in_play": ["Phage the Untouchable"]}, {"library": LIB})
    attack(s, "Phage the Untouchable")
    s.advance_to("combat_damage")
    s.resolve_all()
    s.assert_winner(0)
    assert "loses the game" in s.game.end_reason


def test_phage_combat_damage_to_a_creature_destroys_it_without_regeneration() -> None:
    """Phage: "Whenever Phage deals combat damage to a creature, destroy that creature. It
    can't be regenerated." A regenerating Wall of Swords (3/5, survives 4 damage) blocks: it is
    destroyed despite its shield."""
    s = combat({"in_play": ["Phage the Untouchable"]},
               {"in_play": ["Drudge Skeletons", "Swamp", "Swamp"], "library": LIB})
    attack(s, "Phage the Untouchable")
    block(s, ("Phage the Untouchable", "Drudge Skeletons"))
    s.pass_priority()  # player 0 passes; player 1 regenerates the Skeletons
    s.do("activate Drudge Skeletons")
    s.resolve()
    s.advance_to("combat_damage")
    s.resolve_all()
    s.assert_in_play("Drudge Skeletons", False)
    assert not s.game.is_over


def test_phage_damage_to_a_blocker_that_survives_is_destroyed() -> None:
    """Phage: "destroy that creature": a blocker the 4 damage doesn't kill (Wall of Swords,
    3/5) is destroyed by the trigger; the defending player doesn't lose (no damage to them)."""
    s = combat({"in_play": ["Phage the Untouchable"]},
               {"in_play": ["Wall of Swords"], "library": LIB})
    attack(s, "Phage the Untouchable")
    block(s, ("Phage the Untouchable", "Wall of Swords"))
    s.advance_to("combat_damage")
    s.resolve()  # combat damage (on the stack, 2007 CR 310.2)
    s.assert_damage("Wall of Swords", 4)
    assert n_triggers(s) == 1
    s.resolve_all()
    s.assert_in_play("Wall of Swords", False)
    assert not s.game.is_over


def test_phage_platinum_angel_keeps_the_player_in_the_game() -> None:
    """Platinum Angel: "You can't lose the game": Phage's damage doesn't make its controller
    lose (2007 CR 102.3)."""
    s = combat({"in_play": ["Phage the Untouchable"]},
               {"in_play": [{"card": "Platinum Angel", "tapped": True}], "library": LIB})
    attack(s, "Phage the Untouchable")
    s.advance_to("combat_damage")
    s.resolve_all()
    assert not s.game.is_over
    s.assert_life(1, 16)


# -- No Rest for the Wicked ----------------------------------------------------------------------
def test_no_rest_returns_creatures_put_into_your_graveyard_this_turn() -> None:
    """No Rest for the Wicked: "Sacrifice No Rest for the Wicked: Return to your hand all
    creature cards that were put into your graveyard from play this turn." A creature destroyed
    this turn comes back; one already in the graveyard from before does not."""
    s = main({"in_play": ["No Rest for the Wicked", "Grizzly Bears"],
              "graveyard": ["Hill Giant"]},
             {"in_play": ["Swamp", "Swamp"], "hand": ["Terror"]})
    s.pass_priority()
    s.do("play Terror", "target Grizzly Bears")
    s.resolve()
    s.assert_zone(0, "graveyard", "Grizzly Bears")
    s.do("activate No Rest for the Wicked")
    s.resolve()
    s.assert_zone(0, "hand", "Grizzly Bears")
    s.assert_zone(0, "graveyard", "Hill Giant")
    s.assert_zone(0, "hand", "Hill Giant", False)
    s.assert_zone(0, "graveyard", "No Rest for the Wicked")


def test_no_rest_only_creature_cards_from_play() -> None:
    """No Rest for the Wicked: "creature cards that were put into your graveyard from play":
    a destroyed enchantment (Pacifism) and a creature card discarded from the hand this turn
    stay in the graveyard."""
    s = main({"in_play": ["No Rest for the Wicked", {"card": "Grizzly Bears", "id": "bears"},
                          {"card": "Pacifism", "attached_to": "bears"}],
              "hand": ["Hill Giant"]},
             {"in_play": ["Forest", "Forest", "Swamp", "Swamp"],
              "hand": ["Naturalize", "Mind Rot"]})
    s.pass_priority()
    s.do("play Naturalize", "target Pacifism")
    s.resolve()
    s.assert_zone(0, "graveyard", "Pacifism")
    s.do("activate No Rest for the Wicked")
    s.resolve()
    s.assert_zone(0, "graveyard", "Pacifism")
    assert [c.label for c in s.game.players[0].hand] == ["Hill Giant"]


def test_no_rest_history_is_for_this_turn_only() -> None:
    """No Rest for the Wicked: "this turn": a creature that died in an earlier turn is not
    returned (the turn history resets each turn)."""
    s = Scenario({"turn": 2, "active_player": 1, "step": "postcombat_main",
                  "players": [{"in_play": ["No Rest for the Wicked", "Grizzly Bears"],
                               "library": LIB},
                              {"in_play": ["Swamp", "Swamp"], "hand": ["Terror"],
                               "library": LIB}]})
    s.do("play Terror", "target Grizzly Bears")
    s.resolve()
    s.advance_to("upkeep", active=0)
    s.do("activate No Rest for the Wicked")
    s.resolve()
    s.assert_zone(0, "graveyard", "Grizzly Bears")


def test_no_rest_a_creature_back_in_the_graveyard_another_way_is_a_new_object() -> None:
    """No Rest for the Wicked: "put into your graveyard from play": a creature that died, was
    returned to the hand and then discarded (Mind Rot) is a new object put there from the hand
    (2007 CR 217.1c): it stays."""
    s = main({"in_play": ["No Rest for the Wicked", "Grizzly Bears"]},
             {"in_play": ["Swamp"] * 5, "hand": ["Terror", "Mind Rot"]}, active_player=1)
    s.do("play Terror", "target Grizzly Bears")
    s.resolve()
    P = s.game.players[0]
    bears = next(c for c in P.graveyard if c.label.startswith("Grizzly"))
    P.graveyard.remove(bears)  # as Gravedigger's ability would: back to the hand
    P.hand.append(bears)
    s.do("play Mind Rot", "target player 0")
    s.resolve()
    s.do("discard Grizzly Bears")  # player 0's only card
    s.assert_zone(0, "graveyard", "Grizzly Bears")
    s.pass_priority()  # player 1 passes: player 0 has priority
    s.do("activate No Rest for the Wicked")
    s.resolve()
    s.assert_zone(0, "graveyard", "Grizzly Bears")
    s.assert_zone(0, "hand", "Grizzly Bears", False)


# -- Sengir Vampire -------------------------------------------------------------------------------
def test_sengir_vampire_gets_a_counter_when_a_creature_it_damaged_dies() -> None:
    """Sengir Vampire: "Whenever a creature dealt damage by Sengir Vampire this turn is put into
    a graveyard, put a +1/+1 counter on Sengir Vampire." It blocks and kills Hill Giant."""
    s = Scenario({"turn": 3, "active_player": 1, "step": "beginning_of_combat",
                  "players": [{"in_play": ["Sengir Vampire"], "library": LIB},
                              {"in_play": ["Hill Giant"], "library": LIB}]})
    attack(s, "Hill Giant")
    block(s, ("Hill Giant", "Sengir Vampire"))
    s.advance_to("combat_damage")
    s.resolve()  # combat damage (on the stack, 2007 CR 310.2)
    s.assert_in_play("Hill Giant", False)
    assert n_triggers(s) == 1
    s.resolve_all()
    s.assert_pt("Sengir Vampire", 5, 5)


def test_sengir_vampire_later_death_of_a_damaged_creature_counts() -> None:
    """Sengir Vampire ruling: nonlethal damage, then the creature is put into a graveyard later
    in the turn by another effect: the ability triggers. Wall of Swords (3/5) takes 4 from the
    Vampire, then a Shock destroys it."""
    s = combat({"in_play": ["Sengir Vampire", "Mountain"], "hand": ["Shock"]},
               {"in_play": ["Wall of Swords"], "library": LIB})
    attack(s, "Sengir Vampire")
    block(s, ("Sengir Vampire", "Wall of Swords"))
    s.advance_to("combat_damage")
    s.resolve_all()
    s.assert_in_play("Wall of Swords")
    assert n_triggers(s) == 0
    s.do("play Shock", "target Wall of Swords")
    s.resolve()
    assert n_triggers(s) == 1
    s.resolve()
    s.assert_pt("Sengir Vampire", 5, 5)


def test_sengir_vampire_ignores_creatures_it_did_not_damage() -> None:
    """Sengir Vampire: "a creature dealt damage by Sengir Vampire": another creature dying
    (Shocked Grizzly Bears) doesn't trigger it."""
    s = main({"in_play": ["Sengir Vampire", "Mountain"], "hand": ["Shock"]},
             {"in_play": ["Grizzly Bears"]})
    s.do("play Shock", "target Grizzly Bears")
    s.resolve()
    s.assert_in_play("Grizzly Bears", False)
    assert n_triggers(s) == 0
    s.assert_pt("Sengir Vampire", 4, 4)


def test_sengir_vampire_damage_of_an_earlier_turn_does_not_count() -> None:
    """Sengir Vampire: "this turn": a creature it damaged in an earlier turn doesn't trigger it
    when it dies now (Terror in the next upkeep)."""
    s = combat({"in_play": ["Sengir Vampire", "Swamp", "Swamp"], "hand": ["Terror"],
                "library": LIB},
               {"in_play": ["Wall of Swords"], "library": LIB})
    attack(s, "Sengir Vampire")
    block(s, ("Sengir Vampire", "Wall of Swords"))
    s.advance_to("combat_damage")
    s.resolve()
    s.assert_damage("Wall of Swords", 4)
    s.advance_to("upkeep", active=1)
    s.pass_priority()  # player 1 passes: player 0 has priority
    s.do("play Terror", "target Wall of Swords")
    s.resolve()
    s.assert_in_play("Wall of Swords", False)
    assert n_triggers(s) == 0
    s.assert_pt("Sengir Vampire", 4, 4)


# -- Rootwater Matriarch ---------------------------------------------------------------------------
def test_rootwater_matriarch_gains_control_of_an_enchanted_creature() -> None:
    """Rootwater Matriarch: "{T}: Gain control of target creature as long as that creature is
    enchanted." (2007 CR 418.5 layer 2)"""
    s = main({"in_play": ["Rootwater Matriarch"]},
             {"in_play": [{"card": "Hill Giant", "id": "giant"}, {"card": "Holy Strength", "attached_to": "giant"}]})
    s.do("activate Rootwater Matriarch", "target Hill Giant")
    s.resolve()
    assert s.perm("Hill Giant").controller == 0


def test_rootwater_matriarch_unenchanted_target_is_unaffected() -> None:
    """Rootwater Matriarch ruling: "Can target an unenchanted creature but has no effect on that
    creature" (and enchanting it later doesn't start the effect)."""
    s = main({"in_play": ["Rootwater Matriarch", "Plains"], "hand": ["Holy Strength"]},
             {"in_play": ["Hill Giant"]})
    s.do("activate Rootwater Matriarch", "target Hill Giant")
    s.resolve()
    assert s.perm("Hill Giant").controller == 1
    s.do("play Holy Strength", "target Hill Giant")
    s.resolve()
    assert s.perm("Hill Giant").controller == 1


def test_rootwater_matriarch_control_ends_when_no_aura_is_attached() -> None:
    """Rootwater Matriarch ruling: "The effect ends if at any time the creature has no Auras on
    it" (2012 611.2b): the Aura is destroyed, control returns, and a new Aura doesn't bring it
    back."""
    s = main({"in_play": ["Rootwater Matriarch", "Plains"], "hand": ["Holy Strength"]},
             {"in_play": [{"card": "Hill Giant", "id": "giant"}, {"card": "Holy Strength", "attached_to": "giant"},
                          "Forest", "Forest"], "hand": ["Naturalize"]})
    s.do("activate Rootwater Matriarch", "target Hill Giant")
    s.resolve()
    assert s.perm("Hill Giant").controller == 0
    s.pass_priority()
    s.do("play Naturalize")
    s.do(next(o for o in s.options() if "Holy Strength" in o))
    s.resolve()
    assert s.perm("Hill Giant").controller == 1
    s.do("play Holy Strength", "target Hill Giant")
    s.resolve()
    assert s.perm("Hill Giant").controller == 1


def test_rootwater_matriarch_control_outlasts_the_matriarch() -> None:
    """Rootwater Matriarch ruling: the effect "will continue to apply even if Rootwater Matriarch
    has left the battlefield"."""
    s = main({"in_play": ["Rootwater Matriarch"]},
             {"in_play": [{"card": "Hill Giant", "id": "giant"},
                          {"card": "Pacifism", "attached_to": "giant"}, "Swamp", "Swamp"],
              "hand": ["Terror"]})
    s.do("activate Rootwater Matriarch", "target Hill Giant")
    s.resolve()
    s.pass_priority()
    s.do("play Terror", "target Rootwater Matriarch")
    s.resolve()
    s.assert_in_play("Rootwater Matriarch", False)
    assert s.perm("Hill Giant").controller == 0
