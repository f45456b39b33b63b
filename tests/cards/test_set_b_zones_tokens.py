"""Scenario tests for the Tenth Edition cards with library, hand and graveyard ops
(mill, putting cards from a hand or a graveyard into play, shuffling a graveyard in, moving hand
cards onto a library), tokens, and reveals with what each player then knows.

Each test quotes the printed 2007 text it checks. Rule numbers are 2007 CR where known, else 2012
CR: 217.1 hidden zones, 2012 701.14 reveal, 216 tokens (216.2 owner; a token leaving play ceases
to exist, 2012 110.5f / 704.5d), 2012 303.4f-g an Aura put into play without being played,
2012 701.15 search, 2012 701.19 shuffle.
"""

from __future__ import annotations

import pytest

from mtg_env import DecisionKind
from mtg_env.encoding.observer import Observer
from mtg_env.engine.errors import IllegalActionError
from mtg_env.engine.zones import draw_cards
from mtg_env.testing import Scenario, card_names, logged, main

K = DecisionKind


# -- Academy Researchers -------------------------------------------------------------------------
def test_academy_researchers_puts_an_aura_from_hand_onto_itself() -> None:
    """Academy Researchers: "When Academy Researchers comes into play, you may put an Aura card
    from your hand into play attached to Academy Researchers." Holy Strength (+1/+2) comes into
    play on it without being played (2012 303.4f): no mana is spent, nothing is targeted."""
    s = main({"in_play": ["Island", "Island", "Island"],
              "hand": ["Academy Researchers", "Holy Strength", "Forest", "Grizzly Bears"]})
    s.do("play Academy Researchers")
    s.resolve()
    s.resolve()
    d = s.game.decision
    assert d.kind is K.CHOOSE_CARDS
    # Only an Aura card: not the land, not the creature card.
    assert s.options() == ["put into play Holy Strength", "done"]
    s.do("put into play Holy Strength")
    aura = s.perm("Holy Strength")
    assert aura.attached_to == s.perm("Academy Researchers").id
    assert aura.controller == 0
    s.assert_pt("Academy Researchers", 3, 4)
    s.assert_zone(0, "hand", "Holy Strength", False)


def test_academy_researchers_may_put_nothing() -> None:
    """Academy Researchers: "you may put an Aura card": choosing none leaves the Aura in hand."""
    s = main({"in_play": ["Island", "Island", "Island"],
              "hand": ["Academy Researchers", "Holy Strength"]})
    s.do("play Academy Researchers")
    s.resolve()
    s.resolve()
    s.do("done")
    s.assert_zone(0, "hand", "Holy Strength")
    s.assert_in_play("Holy Strength", False)


def test_academy_researchers_without_an_aura_asks_nothing() -> None:
    """Academy Researchers with no Aura card in hand: the ability does nothing (no decision)."""
    s = main({"in_play": ["Island", "Island", "Island"],
              "hand": ["Academy Researchers", "Grizzly Bears"]})
    s.do("play Academy Researchers")
    s.resolve()
    s.resolve()
    assert s.game.decision.kind is K.PRIORITY
    s.assert_zone(0, "hand", "Grizzly Bears")


# -- Agonizing Memories --------------------------------------------------------------------------
def test_agonizing_memories_puts_two_chosen_cards_on_top_in_chosen_order() -> None:
    """Agonizing Memories: "Look at target player's hand and choose two cards from it. Put them on
    top of that player's library in any order." The caster chooses; the first chosen ends on top."""
    s = main({"in_play": ["Swamp"] * 4, "hand": ["Agonizing Memories"]},
             {"hand": ["Shock", "Grizzly Bears", "Forest"], "library": ["Island"]})
    s.do("play Agonizing Memories", "target player 1")
    s.resolve()
    d = s.game.decision
    assert d.player == 0 and d.kind is K.CHOOSE_CARDS
    assert sorted(s.options()) == ["put on the top Forest", "put on the top Grizzly Bears",
                                   "put on the top Shock"]
    s.do("put on the top Shock", "put on the top Forest")
    p1 = s.game.players[1]
    assert card_names(p1.library) == ["Shock", "Forest", "Island"]
    assert card_names(p1.hand) == ["Grizzly Bears"]


def test_agonizing_memories_with_one_card_in_hand_takes_it() -> None:
    """Agonizing Memories "choose two cards": with one card in hand, that one goes on top."""
    s = main({"in_play": ["Swamp"] * 4, "hand": ["Agonizing Memories"]},
             {"hand": ["Shock"], "library": ["Island"]})
    s.do("play Agonizing Memories", "target player 1")
    s.resolve()
    s.do("put on the top Shock")
    assert card_names(s.game.players[1].library) == ["Shock", "Island"]
    assert not s.game.players[1].hand


# -- Ambassador Laquatus, Millstone, Traumatize (mill) ------------------------------------------
def test_ambassador_laquatus_mills_three() -> None:
    """Ambassador Laquatus: "{3}: Target player puts the top three cards of his or her library
    into his or her graveyard." The top three, in order, go to that player's graveyard."""
    s = main({"in_play": ["Island"] * 3 + ["Ambassador Laquatus"]},
             {"library": ["Forest", "Shock", "Island", "Hill Giant"]})
    s.do("activate Ambassador Laquatus", "target player 1")
    s.resolve()
    p1 = s.game.players[1]
    assert card_names(p1.graveyard) == ["Forest", "Shock", "Island"]
    assert card_names(p1.library) == ["Hill Giant"]


def test_ambassador_laquatus_can_target_its_controller_and_mills_what_there_is() -> None:
    """Ambassador Laquatus targets any player, its controller too; with fewer than three cards
    the whole library goes (no loss until a draw from an empty library, 2007 CR 420.5g)."""
    s = main({"in_play": ["Island"] * 3 + ["Ambassador Laquatus"], "library": ["Forest"]})
    s.do("activate Ambassador Laquatus", "target player 0")
    s.resolve()
    assert card_names(s.game.players[0].graveyard) == ["Forest"]
    assert not s.game.players[0].library
    assert not s.game.is_over


def test_millstone_mills_two_and_taps() -> None:
    """Millstone: "{2}, {T}: Target player puts the top two cards of his or her library into his
    or her graveyard." Tapping is part of the cost: it can't be activated twice."""
    s = main({"in_play": ["Island", "Island", "Island", "Island", "Millstone"]},
             {"library": ["Forest", "Shock", "Island"]})
    s.do("activate Millstone", "target player 1")
    assert not any(o.startswith("activate Millstone") for o in s.options())
    s.resolve()
    assert card_names(s.game.players[1].graveyard) == ["Forest", "Shock"]
    assert card_names(s.game.players[1].library) == ["Island"]


def test_traumatize_mills_half_rounded_down() -> None:
    """Traumatize: "Target player puts the top half of his or her library, rounded down, into his
    or her graveyard." Seven cards: three go."""
    lib = ["Forest", "Shock", "Island", "Hill Giant", "Swamp", "Plains", "Mountain"]
    s = main({"in_play": ["Island"] * 5, "hand": ["Traumatize"]}, {"library": lib})
    s.do("play Traumatize", "target player 1")
    s.resolve()
    assert card_names(s.game.players[1].graveyard) == lib[:3]
    assert card_names(s.game.players[1].library) == lib[3:]


def test_traumatize_with_one_card_mills_nothing() -> None:
    """Traumatize: half of one card, rounded down, is zero."""
    s = main({"in_play": ["Island"] * 5, "hand": ["Traumatize"]}, {"library": ["Forest"]})
    s.do("play Traumatize", "target player 1")
    s.resolve()
    assert card_names(s.game.players[1].library) == ["Forest"]
    assert not s.game.players[1].graveyard


# -- Beacon of Unrest ----------------------------------------------------------------------------
def test_beacon_of_unrest_takes_a_creature_from_an_opponents_graveyard() -> None:
    """Beacon of Unrest: "Put target artifact or creature card in a graveyard into play under
    your control. Shuffle Beacon of Unrest into its owner's library." Any graveyard: player 1's
    Hill Giant comes into play under player 0's control; Beacon goes to the library, not the
    graveyard."""
    s = main({"in_play": ["Swamp"] * 5, "hand": ["Beacon of Unrest"], "library": ["Forest"]},
             {"graveyard": ["Hill Giant"]})
    s.do("play Beacon of Unrest", "target Hill Giant")
    s.resolve()
    giant = s.perm("Hill Giant")
    assert giant.controller == 0 and giant.owner == 1
    assert "Beacon of Unrest" in card_names(s.game.players[0].library)
    assert len(s.game.players[0].library) == 2
    s.assert_zone(0, "graveyard", "Beacon of Unrest", False)


def test_beacon_of_unrest_takes_an_artifact_not_an_instant_or_land() -> None:
    """Beacon of Unrest targets an "artifact or creature card": Millstone is a legal target;
    Shock (instant) and Forest (land) are not."""
    s = main({"in_play": ["Swamp"] * 5, "hand": ["Beacon of Unrest"]},
             {"graveyard": ["Millstone", "Shock", "Forest"]})
    s.do("play Beacon of Unrest")
    assert s.options() == ["target Millstone"]
    s.do("target Millstone")
    s.resolve()
    assert s.perm("Millstone").controller == 0


def test_beacon_of_unrest_cannot_be_played_without_a_target() -> None:
    """Beacon of Unrest with no artifact or creature card in any graveyard can't be played
    (2007 CR 409.1d: a spell needs its targets)."""
    s = main({"in_play": ["Swamp"] * 5, "hand": ["Beacon of Unrest"], "graveyard": ["Shock"]})
    assert "play Beacon of Unrest" not in s.options()


# -- Distress ------------------------------------------------------------------------------------
def test_distress_reveals_and_discards_a_chosen_nonland_card() -> None:
    """Distress: "Target player reveals his or her hand. You choose a nonland card from it. That
    player discards that card." The caster chooses among the nonland cards only; the revealed
    cards left in the hand stay known to both players (2012 701.14)."""
    s = main({"in_play": ["Swamp", "Swamp"], "hand": ["Distress"]},
             {"hand": ["Forest", "Shock", "Grizzly Bears"]})
    s.do("play Distress", "target player 1")
    s.resolve()
    d = s.game.decision
    assert d.player == 0
    assert sorted(s.options()) == ["discard Grizzly Bears", "discard Shock"]
    s.do("discard Shock")
    s.assert_zone(1, "graveyard", "Shock")
    assert logged(s, "player 1 reveals their hand: Forest, Shock, Grizzly Bears")
    assert sorted(card_names(s.game.view(0).opponent.known_hand)) == ["Forest", "Grizzly Bears"]


def test_distress_with_only_lands_discards_nothing() -> None:
    """Distress: with no nonland card in the hand nothing is discarded."""
    s = main({"in_play": ["Swamp", "Swamp"], "hand": ["Distress"]}, {"hand": ["Forest", "Island"]})
    s.do("play Distress", "target player 1")
    s.resolve()
    assert s.game.decision.kind is K.PRIORITY
    assert card_names(s.game.players[1].hand) == ["Forest", "Island"]


# -- Doomed Necromancer --------------------------------------------------------------------------
def test_doomed_necromancer_returns_a_creature_card_from_your_graveyard_to_play() -> None:
    """Doomed Necromancer: "{B}, {T}, Sacrifice Doomed Necromancer: Return target creature card
    from your graveyard to play." Only a creature card in its controller's graveyard: not Shock,
    not the opponent's Grizzly Bears."""
    s = main({"in_play": ["Swamp", "Doomed Necromancer"], "graveyard": ["Hill Giant", "Shock"]},
             {"graveyard": ["Grizzly Bears"]})
    s.do("activate Doomed Necromancer")
    assert s.options() == ["target Hill Giant"]
    s.do("target Hill Giant")
    s.assert_in_play("Doomed Necromancer", False)
    s.resolve()
    assert s.perm("Hill Giant").controller == 0
    s.assert_zone(0, "graveyard", "Doomed Necromancer")


def test_doomed_necromancer_needs_to_untap() -> None:
    """Doomed Necromancer's cost has {T}: a summoning-sick Necromancer can't use it."""
    s = main({"in_play": ["Swamp", {"card": "Doomed Necromancer", "summoning_sick": True}],
              "graveyard": ["Hill Giant"]})
    assert "activate Doomed Necromancer" not in s.options()


# -- Dreamborn Muse ------------------------------------------------------------------------------
def test_dreamborn_muse_mills_each_upkeep_player_by_their_hand_size() -> None:
    """Dreamborn Muse: "At the beginning of each player's upkeep, that player puts the top X cards
    of his or her library into his or her graveyard, where X is the number of cards in his or her
    hand." On player 1's upkeep, player 1 (two cards in hand) mills two."""
    s = main({"in_play": ["Dreamborn Muse"], "hand": ["Shock"] * 5, "library": ["Forest"] * 5},
             {"hand": ["Shock", "Island"], "library": ["Forest", "Swamp", "Plains", "Mountain"]})
    s.advance_to("upkeep", active=1)
    assert s.game.stack
    s.resolve()
    p1 = s.game.players[1]
    assert card_names(p1.graveyard) == ["Forest", "Swamp"]
    assert not s.game.players[0].graveyard  # only "that player"


def test_dreamborn_muse_triggers_on_its_controllers_upkeep_too() -> None:
    """Dreamborn Muse says "each player's upkeep": its controller (one card in hand) mills one."""
    s = main({"in_play": ["Dreamborn Muse"], "hand": ["Shock"], "library": ["Forest"] * 4},
             {"library": ["Island"] * 4}, active_player=1)
    s.advance_to("upkeep", active=0)
    s.resolve()
    assert card_names(s.game.players[0].graveyard) == ["Forest"]


# -- Elvish Piper --------------------------------------------------------------------------------
def test_elvish_piper_puts_a_creature_card_from_hand_into_play() -> None:
    """Elvish Piper: "{G}, {T}: You may put a creature card from your hand into play." Only a
    creature card is offered; Hill Giant comes into play without being played."""
    s = main({"in_play": ["Forest", "Elvish Piper"], "hand": ["Hill Giant", "Forest", "Shock"]})
    s.do("activate Elvish Piper")
    s.resolve()
    assert s.options() == ["put into play Hill Giant", "done"]
    s.do("put into play Hill Giant")
    assert s.perm("Hill Giant").controller == 0
    s.assert_zone(0, "hand", "Hill Giant", False)


def test_elvish_piper_may_put_nothing() -> None:
    """Elvish Piper: "You may": done leaves the creature card in hand."""
    s = main({"in_play": ["Forest", "Elvish Piper"], "hand": ["Hill Giant"]})
    s.do("activate Elvish Piper")
    s.resolve()
    s.do("done")
    s.assert_zone(0, "hand", "Hill Giant")


# -- Head Games ----------------------------------------------------------------------------------
def test_head_games_replaces_the_hand_with_cards_the_caster_picks() -> None:
    """Head Games: "Target opponent puts the cards from his or her hand on top of his or her
    library. Search that player's library for that many cards. The player puts those cards into
    his or her hand, then shuffles his or her library." The caster picks two of the five cards;
    the caster knows the new hand (they saw it go there)."""
    s = main({"in_play": ["Swamp"] * 5, "hand": ["Head Games"]},
             {"hand": ["Shock", "Grizzly Bears"], "library": ["Forest", "Hill Giant", "Island"]})
    s.do("play Head Games")
    assert s.options() == ["target player 1"]  # "target opponent"
    s.do("target player 1")
    s.resolve()
    d = s.game.decision
    assert d.player == 0 and d.kind is K.CHOOSE_CARDS
    assert len(s.options()) == 5  # every card of the library; no "done": it must find two
    s.do("find Forest", "find Island")
    p1 = s.game.players[1]
    assert sorted(card_names(p1.hand)) == ["Forest", "Island"]
    assert sorted(card_names(p1.library)) == ["Grizzly Bears", "Hill Giant", "Shock"]
    assert logged(s, "player 1 shuffles their library")
    assert sorted(card_names(s.game.view(0).opponent.known_hand)) == ["Forest", "Island"]
    assert not s.game.view(0).opponent.known_library  # the shuffle hid the order


def test_head_games_on_an_empty_hand_does_nothing_but_shuffle() -> None:
    """Head Games: with no cards in hand, "that many" is zero."""
    s = main({"in_play": ["Swamp"] * 5, "hand": ["Head Games"]}, {"library": ["Forest", "Island"]})
    s.do("play Head Games", "target player 1")
    s.resolve()
    assert s.game.decision.kind is K.PRIORITY
    assert not s.game.players[1].hand
    assert len(s.game.players[1].library) == 2


# -- Hunted Wumpus -------------------------------------------------------------------------------
def test_hunted_wumpus_lets_the_opponent_put_a_creature_into_play() -> None:
    """Hunted Wumpus: "When Hunted Wumpus comes into play, each other player may put a creature
    card from his or her hand into play." Player 1 decides, and the creature is theirs."""
    s = main({"in_play": ["Forest"] * 4, "hand": ["Hunted Wumpus"]},
             {"hand": ["Grizzly Bears", "Forest"]})
    s.do("play Hunted Wumpus")
    s.resolve()
    s.resolve()
    d = s.game.decision
    assert d.player == 1 and d.kind is K.CHOOSE_CARDS
    assert s.options() == ["put into play Grizzly Bears", "done"]
    s.do("put into play Grizzly Bears")
    assert s.perm("Grizzly Bears").controller == 1


def test_hunted_wumpus_opponent_may_decline() -> None:
    """Hunted Wumpus: "may": player 1 declines; its controller is never asked."""
    s = main({"in_play": ["Forest"] * 4, "hand": ["Hunted Wumpus", "Hill Giant"]},
             {"hand": ["Grizzly Bears"]})
    s.do("play Hunted Wumpus")
    s.resolve()
    s.resolve()
    assert s.game.decision.player == 1
    s.do("done")
    s.assert_zone(1, "hand", "Grizzly Bears")
    s.assert_zone(0, "hand", "Hill Giant")


# -- Nomad Mythmaker -----------------------------------------------------------------------------
def test_nomad_mythmaker_puts_an_aura_from_any_graveyard_on_a_creature_you_control() -> None:
    """Nomad Mythmaker: "{W}, {T}: Put target Aura card in a graveyard into play attached to a
    creature you control. (You control that Aura.)" The host is chosen on resolution among the
    controller's creatures only; player 1's Holy Strength ends up controlled by player 0."""
    s = main({"in_play": ["Plains", "Nomad Mythmaker", "Grizzly Bears"]},
             {"graveyard": ["Holy Strength", "Hill Giant"], "in_play": ["Hill Giant"]})
    s.do("activate Nomad Mythmaker")
    assert s.options() == ["target Holy Strength"]
    s.do("target Holy Strength")
    s.resolve()
    assert sorted(s.options()) == ["attach to Grizzly Bears", "attach to Nomad Mythmaker"]
    s.do("attach to Grizzly Bears")
    aura = s.perm("Holy Strength")
    assert aura.controller == 0 and aura.owner == 1
    assert aura.attached_to == s.perm("Grizzly Bears").id
    s.assert_pt("Grizzly Bears", 3, 4)


def test_nomad_mythmaker_aura_stays_without_a_creature_to_enchant() -> None:
    """Nomad Mythmaker: if the controller has no creature the Aura could enchant when it resolves
    (here the Mythmaker itself was Shocked in response), the Aura stays in the graveyard
    (2012 303.4g)."""
    s = main({"in_play": ["Plains", "Mountain", "Nomad Mythmaker"], "hand": ["Shock"],
              "graveyard": ["Holy Strength"]})
    s.do("activate Nomad Mythmaker", "target Holy Strength")
    s.do("play Shock", "target Nomad Mythmaker")
    s.resolve()
    s.resolve()
    s.assert_zone(0, "graveyard", "Holy Strength")
    s.assert_in_play("Holy Strength", False)


# -- Reminisce -----------------------------------------------------------------------------------
def test_reminisce_shuffles_a_graveyard_into_its_library() -> None:
    """Reminisce: "Target player shuffles his or her graveyard into his or her library." """
    s = main({"in_play": ["Island"] * 3, "hand": ["Reminisce"]},
             {"graveyard": ["Shock", "Hill Giant"], "library": ["Forest"]})
    s.do("play Reminisce", "target player 1")
    s.resolve()
    p1 = s.game.players[1]
    assert not p1.graveyard
    assert sorted(card_names(p1.library)) == ["Forest", "Hill Giant", "Shock"]
    assert logged(s, "player 1 shuffles their graveyard into their library")


def test_reminisce_of_its_own_controller_does_not_include_itself() -> None:
    """Reminisce targeting its caster: it goes to the graveyard only after resolving (2007 CR
    413.2c), so it is not shuffled in."""
    s = main({"in_play": ["Island"] * 3, "hand": ["Reminisce"], "graveyard": ["Shock"]})
    s.do("play Reminisce", "target player 0")
    s.resolve()
    assert card_names(s.game.players[0].graveyard) == ["Reminisce"]
    assert card_names(s.game.players[0].library) == ["Shock"]


# -- Reya Dawnbringer ----------------------------------------------------------------------------
def test_reya_dawnbringer_returns_a_creature_card_at_upkeep() -> None:
    """Reya Dawnbringer: "At the beginning of your upkeep, you may return target creature card
    from your graveyard to play." Only its controller's graveyard is searched for targets."""
    s = main({"in_play": ["Reya Dawnbringer"], "graveyard": ["Hill Giant", "Shock"]},
             {"graveyard": ["Grizzly Bears"]}, active_player=1)
    s.game.apply("pass")
    for _ in range(20):
        if s.game.decision.kind is K.TARGET:
            break
        s.game.apply(s.game.decision.options[0])
    assert s.game.step == "upkeep" and s.game.active == 0
    assert s.options() == ["target Hill Giant"]
    s.do("target Hill Giant")
    s.resolve()
    s.do("yes")
    assert s.perm("Hill Giant").controller == 0


def test_reya_dawnbringer_may_decline() -> None:
    """Reya Dawnbringer: "you may": answering no leaves the card in the graveyard."""
    s = main({"in_play": ["Reya Dawnbringer"], "graveyard": ["Hill Giant"]}, active_player=1)
    s.game.apply("pass")
    for _ in range(20):
        if s.game.decision.kind is K.TARGET:
            break
        s.game.apply(s.game.decision.options[0])
    s.do("target Hill Giant")
    s.resolve()
    s.do("no")
    s.assert_zone(0, "graveyard", "Hill Giant")


def test_reya_dawnbringer_does_not_trigger_on_the_opponents_upkeep() -> None:
    """Reya Dawnbringer says "your upkeep": on player 1's upkeep nothing triggers."""
    s = main({"in_play": ["Reya Dawnbringer"], "graveyard": ["Hill Giant"]},
             {"library": ["Forest"] * 3})
    s.advance_to("upkeep", active=1)
    assert not s.game.stack
    s.assert_zone(0, "graveyard", "Hill Giant")


def test_academy_researchers_takes_the_aura_from_the_hand_only() -> None:
    """Academy Researchers: "an Aura card from your hand": an Aura in the graveyard is not
    offered, so nothing is asked."""
    s = main({"in_play": ["Island", "Island", "Island"], "hand": ["Academy Researchers"],
              "graveyard": ["Holy Strength"]})
    s.do("play Academy Researchers")
    s.resolve()
    s.resolve()
    assert s.game.decision.kind is K.PRIORITY
    s.assert_zone(0, "graveyard", "Holy Strength")


# -- Scalpelexis ---------------------------------------------------------------------------------
def _scalpelexis(library: list[str]) -> Scenario:
    s = Scenario({"turn": 3, "step": "declare_blockers", "players": [
        {"in_play": [{"card": "Scalpelexis", "attacking": True}]}, {"library": library}]})
    s.advance_to("end_of_combat")
    return s


def test_scalpelexis_removes_four_and_repeats_on_a_shared_name() -> None:
    """Scalpelexis: "Whenever Scalpelexis deals combat damage to a player, that player removes
    the top four cards of his or her library from the game. If two or more of those cards have
    the same name, repeat this process." The first four hold two Forests: four more go; those
    four have no shared name: it stops."""
    lib = ["Forest", "Forest", "Island", "Shock", "Grizzly Bears", "Hill Giant", "Island",
           "Swamp", "Plains", "Mountain"]
    s = _scalpelexis(lib)
    s.assert_life(1, 19)
    p1 = s.game.players[1]
    assert card_names(p1.removed) == lib[:8]
    assert card_names(p1.library) == ["Plains", "Mountain"]


def test_scalpelexis_stops_after_four_different_names() -> None:
    """Scalpelexis: four cards with different names are removed once."""
    s = _scalpelexis(["Forest", "Island", "Shock", "Swamp", "Forest"])
    assert len(s.game.players[1].removed) == 4
    assert card_names(s.game.players[1].library) == ["Forest"]


def test_scalpelexis_needs_combat_damage_to_a_player() -> None:
    """Scalpelexis: blocked by a creature, it deals combat damage to no player: nothing removed."""
    s = Scenario({"turn": 3, "step": "declare_blockers", "players": [
        {"in_play": [{"card": "Scalpelexis", "attacking": True, "id": "s"}]},
        {"in_play": [{"card": "Aven Fisher", "blocking": ["s"]}],
         "library": ["Forest", "Forest", "Island", "Shock"]}]})
    s.advance_to("end_of_combat")
    assert not s.game.players[1].removed


# -- Skyshroud Ranger ----------------------------------------------------------------------------
def test_skyshroud_ranger_puts_a_land_into_play_without_a_land_play() -> None:
    """Skyshroud Ranger: "{T}: You may put a land card from your hand into play. Play this ability
    only any time you could play a sorcery." Putting a land into play is not playing it: the land
    play is still available afterwards."""
    s = main({"in_play": ["Skyshroud Ranger"], "hand": ["Forest", "Island", "Grizzly Bears"]})
    s.do("activate Skyshroud Ranger")
    s.resolve()
    assert sorted(s.options()) == ["done", "put into play Forest", "put into play Island"]
    s.do("put into play Forest")
    s.assert_in_play("Forest")
    assert s.game.players[0].lands_played == 0
    assert "play Island" in s.options()


def test_skyshroud_ranger_only_as_a_sorcery() -> None:
    """Skyshroud Ranger: "only any time you could play a sorcery": not during combat, not with
    something on the stack."""
    s = Scenario({"turn": 3, "step": "beginning_of_combat", "players": [
        {"in_play": ["Skyshroud Ranger"], "hand": ["Forest"]}, {}]})
    assert "activate Skyshroud Ranger" not in s.options()
    s = main({"in_play": ["Skyshroud Ranger", "Mountain"], "hand": ["Forest", "Shock"]})
    s.do("play Shock", "target player 1")
    assert "activate Skyshroud Ranger" not in s.options()


# -- Tokens: Dragon Roost, Mobilization, Siege-Gang Commander, The Hive, Verdant Force -----------
def test_dragon_roost_puts_a_5_5_flying_dragon_token_into_play() -> None:
    """Dragon Roost: "{5}{R}{R}: Put a 5/5 red Dragon creature token with flying into play." """
    s = main({"in_play": ["Mountain"] * 7 + ["Dragon Roost"]})
    s.do("activate Dragon Roost")
    s.resolve()
    dragon = s.perm("Dragon Token")
    assert dragon.card.is_token and dragon.controller == 0 and dragon.owner == 0
    assert (dragon.power, dragon.toughness) == (5, 5)
    assert dragon.colors == frozenset("R") and "Dragon" in dragon.subtypes
    assert dragon.has("flying")


def test_mobilization_makes_soldiers_with_vigilance() -> None:
    """Mobilization: "Soldier creatures have vigilance. {2}{W}: Put a 1/1 white Soldier creature
    token into play." Every Soldier has vigilance, the opponent's Aven Windreader (a Bird Soldier
    Wizard) too; a non-Soldier doesn't."""
    s = main({"in_play": ["Plains"] * 3 + ["Mobilization", "Grizzly Bears"]},
             {"in_play": ["Aven Windreader"]})
    s.do("activate Mobilization")
    s.resolve()
    token = s.perm("Soldier Token")
    assert (token.power, token.toughness) == (1, 1) and token.colors == frozenset("W")
    assert token.has("vigilance")
    assert s.perm("Aven Windreader").has("vigilance")
    assert not s.perm("Grizzly Bears").has("vigilance")


def test_mobilization_soldier_attacks_without_tapping() -> None:
    """Mobilization: a Soldier with vigilance doesn't tap to attack (2007 CR 502.16)."""
    s = Scenario({"turn": 3, "step": "beginning_of_combat", "players": [
        {"in_play": ["Mobilization", "Soldier Token"]}, {}]})
    s.pass_priority(2)
    s.do("attack with Soldier Token")
    assert not s.perm("Soldier Token").tapped


def test_siege_gang_commander_makes_three_goblins() -> None:
    """Siege-Gang Commander: "When Siege-Gang Commander comes into play, put three 1/1 red Goblin
    creature tokens into play." """
    s = main({"in_play": ["Mountain"] * 5, "hand": ["Siege-Gang Commander"]})
    s.do("play Siege-Gang Commander")
    s.resolve()
    s.resolve()
    goblins = [p for p in s.game.permanents if p.card.name == "Goblin Token"]
    assert len(goblins) == 3
    assert all(g.controller == 0 and (g.power, g.toughness) == (1, 1) and g.card.is_token
               for g in goblins)


def test_siege_gang_commander_sacrifices_a_goblin_for_two_damage_and_the_token_is_gone() -> None:
    """Siege-Gang Commander: "{1}{R}, Sacrifice a Goblin: Siege-Gang Commander deals 2 damage to
    target creature or player." The sacrificed Goblin token ceases to exist: it is in no
    graveyard (2007 CR 216; 2012 110.5f, 704.5d)."""
    s = main({"in_play": ["Mountain", "Mountain", "Siege-Gang Commander", "Goblin Token",
                          "Grizzly Bears"]})
    s.do("activate Siege-Gang Commander", "target player 1")
    # The cost is paid after targets are chosen (2007 CR 409.1f): only a Goblin may go.
    assert sorted(s.options()) == ["sacrifice Goblin Token", "sacrifice Siege-Gang Commander"]
    s.do("sacrifice Goblin Token")
    s.resolve()
    s.assert_life(1, 18)
    s.assert_in_play("Goblin Token", False)
    assert not s.game.players[0].graveyard
    assert all(not c.is_token for P in s.game.players for c in P.graveyard + P.hand + P.library)


def test_siege_gang_commander_can_sacrifice_itself() -> None:
    """Siege-Gang Commander is a Goblin itself: "Sacrifice a Goblin" may be itself; the ability
    still deals its damage (its source's last known information)."""
    s = main({"in_play": ["Mountain", "Mountain", "Siege-Gang Commander"]},
             {"in_play": ["Grizzly Bears"]})
    s.do("activate Siege-Gang Commander", "target Grizzly Bears",
         "sacrifice Siege-Gang Commander")
    s.resolve()
    s.assert_zone(0, "graveyard", "Siege-Gang Commander")
    s.assert_in_play("Grizzly Bears", False)


def test_the_hive_makes_a_flying_wasp_artifact_creature() -> None:
    """The Hive: "{5}, {T}: Put a 1/1 Insect artifact creature token with flying named Wasp into
    play." """
    s = main({"in_play": ["Island"] * 5 + ["The Hive"]})
    s.do("activate The Hive")
    s.resolve()
    wasp = s.perm("Wasp Token")
    assert wasp.cdef.name == "Wasp Token" and wasp.card.is_token
    assert wasp.types == frozenset({"Artifact", "Creature"}) and "Insect" in wasp.subtypes
    assert wasp.has("flying") and (wasp.power, wasp.toughness) == (1, 1)
    assert not wasp.colors
    assert s.perm("The Hive").tapped


def test_token_returned_to_hand_ceases_to_exist() -> None:
    """A token that leaves play goes nowhere (2007 CR 216; 2012 110.5f): Wasp bounced by Boomerang
    is in no hand."""
    s = main({"in_play": ["Island", "Island", "Wasp Token"], "hand": ["Boomerang"]})
    s.do("play Boomerang", "target Wasp Token")
    s.resolve()
    s.assert_in_play("Wasp Token", False)
    assert card_names(s.game.players[0].hand) == []


def test_verdant_force_makes_a_saproling_each_upkeep_for_its_controller() -> None:
    """Verdant Force: "At the beginning of each upkeep, put a 1/1 green Saproling creature token
    into play under your control." On the opponent's upkeep too, and the token is its
    controller's."""
    s = main({"in_play": ["Verdant Force"], "library": ["Forest"] * 3},
             {"library": ["Forest"] * 3})
    s.advance_to("upkeep", active=1)
    s.resolve()
    sap = s.perm("Saproling Token")
    assert sap.controller == 0 and sap.owner == 0 and sap.colors == frozenset("G")
    s.advance_to("upkeep", active=0)
    s.resolve()
    assert s.in_play("Saproling Token#2")


# -- Reveals and knowledge: Aven Windreader, Peek, Telepathy -------------------------------------
def test_peek_shows_the_hand_to_the_caster_and_draws() -> None:
    """Peek: "Look at target player's hand. Draw a card." Player 0's view and observation show
    player 1's hand cards from then on; determinize(0) keeps them; player 1 learns nothing."""
    s = main({"in_play": ["Island"], "hand": ["Peek"], "library": ["Forest"]},
             {"hand": ["Shock", "Grizzly Bears"], "library": ["Hill Giant", "Island", "Swamp"]})
    s.do("play Peek", "target player 1")
    s.resolve()
    assert card_names(s.game.players[0].hand) == ["Forest"]
    v = s.game.view(0)
    assert v.opponent.hand is None
    assert card_names(v.opponent.known_hand) == ["Shock", "Grizzly Bears"]
    assert card_names(s.game.view(1).opponent.known_hand) == []
    for seed in range(5):
        assert card_names(s.game.determinize(0, seed).players[1].hand) == ["Shock", "Grizzly Bears"]
    obs = Observer()
    obs.observe(s.game, 0)
    rows = obs.view_rows(0)["hand"]
    shown = {s.game.cards[cid].label for r, cid in rows.items() if r >= obs.caps.max_hand}
    assert shown == {"Shock", "Grizzly Bears"}


def test_peek_knowledge_ends_when_the_card_leaves_the_hand() -> None:
    """Peek: a looked-at card known until it changes zone to a hidden zone: the two cards
    Agonizing Memories puts back on the library are no longer listed in the hand; the card still
    in the hand stays known."""
    s = main({"in_play": ["Island"] + ["Swamp"] * 4, "hand": ["Peek", "Agonizing Memories"],
              "library": ["Forest"]},
             {"hand": ["Shock", "Grizzly Bears", "Hill Giant"], "library": ["Island"]})
    s.do("play Peek", "target player 1")
    s.resolve()
    s.do("play Agonizing Memories", "target player 1")
    s.resolve()
    s.do("put on the top Shock", "put on the top Grizzly Bears")
    assert card_names(s.game.view(0).opponent.known_hand) == ["Hill Giant"]


def test_peek_on_yourself_just_draws() -> None:
    """Peek may target its caster ("target player"): looking at your own hand tells nothing new."""
    s = main({"in_play": ["Island"], "hand": ["Peek"], "library": ["Forest"]})
    s.do("play Peek", "target player 0")
    s.resolve()
    assert card_names(s.game.players[0].hand) == ["Forest"]
    assert not s.game.known


def test_aven_windreader_reveals_the_top_card_to_both_players() -> None:
    """Aven Windreader: "{1}{U}: Target player reveals the top card of his or her library."
    Both players know it (2012 701.14): each view lists it at place 0; determinize keeps it on
    top for either player; the observation shows it in the revealed table."""
    s = main({"in_play": ["Island", "Island", "Aven Windreader"]},
             {"library": ["Hill Giant", "Forest", "Island", "Swamp"]})
    s.do("activate Aven Windreader", "target player 1")
    s.resolve()
    assert logged(s, "player 1 reveals the top of their library: Hill Giant")
    for viewer in (0, 1):
        kl = s.game.view(viewer).players[1].known_library
        assert [(i, c.label) for i, c in kl] == [(0, "Hill Giant")]
        for seed in range(5):
            assert s.game.determinize(viewer, seed).players[1].library[0].label == "Hill Giant"
    obs = Observer()
    obs.observe(s.game, 0)
    assert [s.game.cards[c].label for c in obs.view_rows(0)["revealed"].values()] == ["Hill Giant"]


def test_aven_windreader_knowledge_is_dropped_by_a_shuffle() -> None:
    """Aven Windreader's revealed card: once its library is shuffled (Reminisce), nobody knows
    where it is (2012 701.19)."""
    s = main({"in_play": ["Island"] * 5 + ["Aven Windreader"], "hand": ["Reminisce"]},
             {"library": ["Hill Giant", "Forest"], "graveyard": ["Shock"]})
    s.do("activate Aven Windreader", "target player 1")
    s.resolve()
    assert s.game.view(0).players[1].known_library
    s.do("play Reminisce", "target player 1")
    s.resolve()
    assert not s.game.view(0).players[1].known_library
    assert not s.game.view(1).players[1].known_library


def test_aven_windreader_revealed_card_drawn_is_no_longer_known() -> None:
    """Aven Windreader's revealed card, once drawn, has moved to a hidden zone: the knowledge ends
    (the hand is hidden)."""
    s = main({"in_play": ["Island", "Island", "Aven Windreader"], "library": ["Forest", "Island"]})
    s.do("activate Aven Windreader", "target player 0")
    s.resolve()
    assert [c.label for _, c in s.game.view(1).players[0].known_library] == ["Forest"]
    draw_cards(s.game, 0, 1)
    assert not s.game.view(1).players[0].known_library
    assert not s.game.view(1).players[0].known_hand


def test_telepathy_reveals_opponents_hand() -> None:
    """Telepathy: "Your opponents play with their hands revealed." Player 0 sees player 1's whole
    hand (view, observation, determinize); player 1 still doesn't see player 0's."""
    s = main({"in_play": ["Telepathy"], "hand": ["Forest"]},
             {"hand": ["Shock", "Hill Giant"], "library": ["Island", "Swamp"]})
    v0 = s.game.view(0)
    assert card_names(v0.opponent.hand) == ["Shock", "Hill Giant"]
    assert s.game.view(1).opponent.hand is None
    assert not s.game.view(1).opponent.known_hand
    for seed in range(5):
        assert card_names(s.game.determinize(0, seed).players[1].hand) == ["Shock", "Hill Giant"]
    obs = Observer()
    obs.observe(s.game, 0)
    assert len([r for r in obs.view_rows(0)["hand"] if r >= obs.caps.max_hand]) == 2
    obs.observe(s.game, 1)
    assert not [r for r in obs.view_rows(1)["hand"] if r >= obs.caps.max_hand]


def test_telepathy_stops_when_it_leaves_play() -> None:
    """Telepathy is a static ability: gone from play, the hand is hidden again."""
    s = main({"in_play": ["Island", "Island", "Telepathy"], "hand": ["Boomerang"]},
             {"hand": ["Shock"]})
    s.do("play Boomerang", "target Telepathy")
    s.resolve()
    assert s.game.view(0).opponent.hand is None


def test_tokens_only_in_play_in_a_position() -> None:
    """A token exists only in play (2007 CR 216): a position can't put one in a hand."""
    from mtg_env.engine.errors import PositionError
    with pytest.raises(PositionError):
        main({"hand": ["Goblin Token"]})


def test_illegal_target_for_head_games_is_refused() -> None:
    """Head Games: "Target opponent": its caster can't target themself."""
    s = main({"in_play": ["Swamp"] * 5, "hand": ["Head Games"], "library": ["Forest"]})
    s.do("play Head Games")
    with pytest.raises(IllegalActionError):
        s.do("target player 0")


# -- the heuristic agent reads the new ops ---------------------------------------------------------
def _heuristic_turn(pos: dict, actions: int = 40) -> list[str]:
    from agents import HeuristicAgent

    s = Scenario(pos)
    g = s.game
    agents = (HeuristicAgent(strict=True), HeuristicAgent(strict=True))
    done: list[str] = []
    for _ in range(actions):
        if g.is_over:
            break
        pl = g.decision.player
        a = agents[pl].act(g.view(pl))
        if a.text not in ("pass", "done"):
            done.append(f"{pl}: {a.text}")
        g.apply(a)
    return done


def test_heuristic_mills_the_opponent_at_their_end_of_turn() -> None:
    """The heuristic agent uses Millstone ("Target player puts the top two cards of his or her
    library into his or her graveyard") on its opponent, not on itself."""
    done = _heuristic_turn({"turn": 4, "active_player": 1, "step": "end_of_turn", "players": [
        {"in_play": ["Island", "Island", "Millstone"], "library": ["Forest"] * 5},
        {"library": ["Forest"] * 10}]}, actions=6)
    assert "0: activate Millstone" in done and "0: target player 1" in done


def test_heuristic_makes_tokens_and_puts_creatures_from_hand() -> None:
    """The heuristic agent values a token (Dragon Roost) and a free creature from its hand
    (Elvish Piper), using them at the opponent's end of turn."""
    done = _heuristic_turn({"turn": 4, "active_player": 1, "step": "end_of_turn", "players": [
        {"in_play": ["Mountain"] * 7 + ["Dragon Roost"], "library": ["Forest"] * 5},
        {"library": ["Forest"] * 10}]}, actions=6)
    assert "0: activate Dragon Roost" in done
    done = _heuristic_turn({"turn": 4, "active_player": 1, "step": "end_of_turn", "players": [
        {"in_play": ["Forest", "Elvish Piper"], "hand": ["Hill Giant"], "library": ["Forest"] * 5},
        {"library": ["Forest"] * 10}]}, actions=6)
    assert "0: activate Elvish Piper" in done and "0: put into play Hill Giant" in done


def test_heuristic_uses_skyshroud_ranger_in_its_main_phase() -> None:
    """Skyshroud Ranger's ability is sorcery-speed: the heuristic agent uses it in its own main
    phase to put an extra land into play."""
    done = _heuristic_turn({"turn": 3, "step": "precombat_main", "players": [
        {"in_play": ["Skyshroud Ranger"], "hand": ["Forest", "Forest"], "library": ["Forest"] * 5},
        {"library": ["Forest"] * 10}]}, actions=8)
    assert "0: activate Skyshroud Ranger" in done
