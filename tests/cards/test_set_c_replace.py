"""Scenario tests for the replacement cards: Plagiarize (a draw replaced),
Legacy Weapon (a card's move to a graveyard from anywhere replaced) and Kjeldoran Royal Guard
(combat damage redirected by an activated ability).

Each test quotes the printed 2007 text it checks. Rule numbers are 2007 CR where known (419:
replacement effects), else 2012 CR (120.2 draws one at a time, 614.9 redirection, 112.6b an
ability that says where it functions).
"""

from __future__ import annotations

import pytest

from mtg_env import DecisionKind
from mtg_env.engine.errors import IllegalActionError
from mtg_env.testing import Scenario, logged

K = DecisionKind
LIB0 = ["Forest", "Forest", "Forest", "Forest", "Forest"]
LIB1 = ["Mountain", "Mountain", "Mountain", "Mountain", "Mountain"]


def hand(s: Scenario, pl: int) -> list[str]:
    return [c.name for c in s.game.players[pl].hand]


# -- Plagiarize ---------------------------------------------------------------------------------
def plagiarize_vs_counsel(target: str) -> Scenario:
    """Player 1 plays Counsel of the Soratami ("Draw two cards."); player 0 responds with
    Plagiarize targeting ``target``, which resolves first."""
    s = Scenario({"turn": 3, "active_player": 1, "step": "precombat_main", "players": [
        {"hand": ["Plagiarize"], "in_play": ["Island"] * 4, "library": LIB0},
        {"hand": ["Counsel of the Soratami"], "in_play": ["Island"] * 3, "library": LIB1}]})
    s.do("play Counsel of the Soratami", "pass", "play Plagiarize", f"target {target}")
    s.resolve()
    return s


def test_plagiarize_steals_each_draw_of_a_spell() -> None:
    """Plagiarize: "Until end of turn, if target player would draw a card, instead that player
    skips that draw and you draw a card." Player 1's Counsel of the Soratami draws two cards one
    at a time (2012 120.2): each draw is replaced, so player 0 draws two and player 1 none."""
    s = plagiarize_vs_counsel("player 1")
    s.resolve()
    assert hand(s, 1) == []
    assert hand(s, 0) == ["Forest", "Forest"]
    assert len(s.game.players[1].library) == 5
    assert logged(s, "player 1 skips that draw")


def test_plagiarize_steals_the_draw_step_draw() -> None:
    """Plagiarize (an instant) in player 1's upkeep: "if target player would draw a card,
    instead that player skips that draw and you draw a card" covers the draw of the draw step
    (2007 CR 504.1, a turn-based draw is a draw too)."""
    s = Scenario({"turn": 3, "active_player": 1, "step": "upkeep", "players": [
        {"hand": ["Plagiarize"], "in_play": ["Island"] * 4, "library": LIB0},
        {"library": LIB1}]})
    s.do("pass", "play Plagiarize", "target player 1")
    s.resolve()
    s.advance_to("draw", active=1)
    assert hand(s, 1) == []
    assert hand(s, 0) == ["Forest"]


def test_plagiarize_lasts_until_end_of_turn() -> None:
    """Plagiarize: "Until end of turn": player 1's draw on their next turn is their own (the
    effect ended in the cleanup step, 2012 514.2)."""
    s = Scenario({"turn": 3, "active_player": 0, "step": "precombat_main", "players": [
        {"hand": ["Plagiarize"], "in_play": ["Island"] * 4, "library": LIB0},
        {"library": LIB1}]})
    s.do("play Plagiarize", "target player 1")
    s.resolve()
    assert s.game.replacements
    s.advance_to("precombat_main", active=1)
    assert hand(s, 1) == ["Mountain"]
    assert hand(s, 0) == []
    assert not s.game.replacements


def test_plagiarize_only_replaces_the_target_players_draws() -> None:
    """Plagiarize replaces only "target player['s]" draws: aimed at player 0 (its caster, a
    legal target), player 1's Counsel of the Soratami draws normally."""
    s = plagiarize_vs_counsel("player 0")
    s.resolve()
    assert hand(s, 1) == ["Mountain", "Mountain"]
    assert hand(s, 0) == []


def test_plagiarize_on_yourself_changes_nothing() -> None:
    """Plagiarize on its own caster: "instead that player skips that draw and you draw a card"
    -- the same player draws, once per draw (the effect applies once to each event, 2012 616.1),
    so nothing loops. Player 0 plays Counsel of the Soratami after it and draws two cards."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"hand": ["Plagiarize", "Counsel of the Soratami"], "in_play": ["Island"] * 7,
         "library": LIB0}, {"library": LIB1}]})
    s.do("play Plagiarize", "target player 0")
    s.resolve()
    s.do("play Counsel of the Soratami")
    s.resolve()
    assert hand(s, 0) == ["Forest", "Forest"]
    assert hand(s, 1) == []


def test_two_plagiarizes_on_each_other_cancel_out() -> None:
    """The card's ruling: "If you and your opponent each cast Plagiarize on each other during the
    same turn ... You will draw cards when you normally would and so will your opponent." Player
    1's draw goes to player 0, whose draw (a new draw event) goes back to player 1; each effect
    applies once (2012 616.1)."""
    s = Scenario({"turn": 3, "active_player": 1, "step": "precombat_main", "players": [
        {"hand": ["Plagiarize"], "in_play": ["Island"] * 4, "library": LIB0},
        {"hand": ["Plagiarize", "Counsel of the Soratami"], "in_play": ["Island"] * 7,
         "library": LIB1}]})
    s.do("play Plagiarize#2", "target player 0")
    s.resolve()
    s.do("pass", "play Plagiarize", "target player 1")
    s.resolve()
    s.do("play Counsel of the Soratami")
    s.resolve()
    assert hand(s, 1) == ["Mountain", "Mountain"]
    assert hand(s, 0) == []
    assert s.game.decision.kind is K.PRIORITY


def test_plagiarize_needs_a_player_target() -> None:
    """Plagiarize says "target player": it can't target a creature."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"hand": ["Plagiarize"], "in_play": ["Island"] * 4, "library": LIB0},
        {"in_play": ["Grizzly Bears"]}]})
    s.do("play Plagiarize")
    assert set(s.options()) == {"target player 0", "target player 1"}


# -- Legacy Weapon ------------------------------------------------------------------------------
WUBRG = ["Plains", "Island", "Swamp", "Mountain", "Forest"]


def test_legacy_weapon_removes_target_permanent_from_the_game() -> None:
    """Legacy Weapon: "{W}{U}{B}{R}{G}: Remove target permanent from the game." Player 1's Hill
    Giant goes to the removed-from-the-game zone (2007 CR 217), not the graveyard."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"in_play": ["Legacy Weapon", *WUBRG]}, {"in_play": ["Hill Giant"]}]})
    s.do("activate Legacy Weapon", "target Hill Giant")
    s.resolve()
    s.assert_in_play("Hill Giant", False)
    s.assert_zone(1, "removed", "Hill Giant")
    s.assert_zone(1, "graveyard", "Hill Giant", False)


def test_legacy_weapon_needs_all_five_colors() -> None:
    """Legacy Weapon's cost is {W}{U}{B}{R}{G}: without a Forest (no {G}) it can't be activated."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"in_play": ["Legacy Weapon", "Plains", "Island", "Swamp", "Mountain", "Mountain"]},
        {"in_play": ["Hill Giant"]}]})
    assert "activate Legacy Weapon" not in s.options()
    with pytest.raises(IllegalActionError):
        s.do("activate Legacy Weapon")


def test_legacy_weapon_destroyed_is_shuffled_into_its_library() -> None:
    """Legacy Weapon: "If Legacy Weapon would be put into a graveyard from anywhere, reveal
    Legacy Weapon and shuffle it into its owner's library instead." Naturalize destroys it: it
    goes into player 1's library, never to the graveyard (2007 CR 419.1 "instead")."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"hand": ["Naturalize"], "in_play": ["Forest", "Forest"]},
        {"in_play": ["Legacy Weapon"], "library": LIB1}]})
    s.do("play Naturalize", "target Legacy Weapon")
    s.resolve()
    s.assert_in_play("Legacy Weapon", False)
    s.assert_zone(1, "graveyard", "Legacy Weapon", False)
    s.assert_zone(1, "library", "Legacy Weapon")
    assert len(s.game.players[1].library) == 6
    assert logged(s, "player 1 reveals Legacy Weapon and shuffles it into their library")


def test_legacy_weapon_discarded_is_shuffled_into_its_library() -> None:
    """Legacy Weapon "from anywhere": discarded from the hand (Mind Rot: "Target player discards
    two cards.") it is shuffled into the library; the other card is discarded normally."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"hand": ["Mind Rot"], "in_play": ["Swamp", "Swamp", "Swamp"]},
        {"hand": ["Legacy Weapon", "Hill Giant"], "library": LIB1}]})
    s.do("play Mind Rot", "target player 1")
    s.resolve()
    s.do("discard Legacy Weapon", "discard Hill Giant")
    assert hand(s, 1) == []
    s.assert_zone(1, "library", "Legacy Weapon")
    s.assert_zone(1, "graveyard", "Legacy Weapon", False)
    s.assert_zone(1, "graveyard", "Hill Giant")


def test_legacy_weapon_milled_is_shuffled_into_its_library() -> None:
    """Legacy Weapon "from anywhere": put into the graveyard from the library (Millstone: "Target
    player puts the top two cards of his or her library into his or her graveyard.") it is
    shuffled back into the library instead."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"in_play": ["Millstone", "Island", "Island"]},
        {"library": ["Legacy Weapon", "Mountain", "Mountain"]}]})
    s.do("activate Millstone", "target player 1")
    s.resolve()
    s.assert_zone(1, "graveyard", "Mountain")
    s.assert_zone(1, "graveyard", "Legacy Weapon", False)
    s.assert_zone(1, "library", "Legacy Weapon")
    assert len(s.game.players[1].library) == 2


def test_legacy_weapon_countered_is_shuffled_into_its_library() -> None:
    """Legacy Weapon "from anywhere": a countered Legacy Weapon spell (Cancel: "Counter target
    spell.") would go from the stack to the graveyard; it is shuffled into the library."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"hand": ["Legacy Weapon"], "in_play": ["Plains"] * 7, "library": LIB0},
        {"hand": ["Cancel"], "in_play": ["Island"] * 3}]})
    s.do("play Legacy Weapon", "pass", "play Cancel", "target Legacy Weapon")
    s.resolve()
    s.assert_zone(0, "graveyard", "Legacy Weapon", False)
    s.assert_zone(0, "library", "Legacy Weapon")
    s.assert_zone(1, "graveyard", "Cancel")


def test_legacy_weapon_only_replaces_its_own_move_to_a_graveyard() -> None:
    """"If Legacy Weapon would be put into a graveyard": another artifact destroyed while Legacy
    Weapon is in play still goes to the graveyard."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"hand": ["Naturalize"], "in_play": ["Forest", "Forest"]},
        {"in_play": ["Legacy Weapon", "Millstone"]}]})
    s.do("play Naturalize", "target Millstone")
    s.resolve()
    s.assert_zone(1, "graveyard", "Millstone")
    s.assert_in_play("Legacy Weapon")


def test_legacy_weapon_only_replaces_the_graveyard() -> None:
    """"... would be put into a graveyard": a move to another zone is not replaced. Player 0's
    Legacy Weapon removes itself from the game with its own ability and stays removed."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"in_play": ["Legacy Weapon", *WUBRG]}, {}]})
    s.do("activate Legacy Weapon", "target Legacy Weapon")
    s.resolve()
    s.assert_zone(0, "removed", "Legacy Weapon")
    s.assert_zone(0, "library", "Legacy Weapon", False)


# -- Kjeldoran Royal Guard ----------------------------------------------------------------------
def guard_combat(attackers: list, blockers: list | None = None, activate: bool = True,
                 guard_blocks: str | None = None) -> Scenario:
    """Player 1 attacks player 0, who controls Kjeldoran Royal Guard (2/5); in the declare
    blockers step player 0 activates the Guard; combat damage is then dealt."""
    guard: dict = {"card": "Kjeldoran Royal Guard"}
    if guard_blocks:
        guard["blocking"] = [guard_blocks]
    s = Scenario({"turn": 3, "active_player": 1, "step": "declare_blockers", "players": [
        {"in_play": [guard, *(blockers or [])]}, {"in_play": attackers}]})
    if activate:
        s.do("pass", "activate Kjeldoran Royal Guard")
        s.resolve()
    s.advance_to("end_of_combat", active=1)
    return s


def test_royal_guard_takes_the_unblocked_creatures_combat_damage() -> None:
    """Kjeldoran Royal Guard: "{T}: All combat damage that would be dealt to you by unblocked
    creatures this turn is dealt to Kjeldoran Royal Guard instead." Two unblocked Grizzly Bears
    (2 each): player 0 takes none, the Guard takes 4 (a redirection effect, 2012 614.9)."""
    s = guard_combat([{"card": "Grizzly Bears", "attacking": True},
                      {"card": "Grizzly Bears", "attacking": True}])
    s.assert_life(0, 20)
    s.assert_damage("Kjeldoran Royal Guard", 4)


def test_royal_guard_dies_from_redirected_damage() -> None:
    """The redirected damage is dealt to the Guard (2/5): two unblocked Hill Giants (3 each) deal
    6 to it and it is put into the graveyard (2007 CR 420.5c)."""
    s = guard_combat([{"card": "Hill Giant", "attacking": True},
                      {"card": "Hill Giant", "attacking": True}])
    s.assert_life(0, 20)
    s.assert_in_play("Kjeldoran Royal Guard", False)
    s.assert_zone(0, "graveyard", "Kjeldoran Royal Guard")


def test_royal_guard_ignores_blocked_creatures_damage() -> None:
    """"by unblocked creatures": only the unblocked Grizzly Bears' 2 damage goes to the Guard;
    the Hill Giant blocked by player 0's Spined Wurm deals its 3 damage to the Wurm."""
    s = guard_combat([{"card": "Grizzly Bears", "attacking": True},
                      {"card": "Hill Giant", "id": "giant", "attacking": True}],
                     blockers=[{"card": "Spined Wurm", "blocking": ["giant"]}])
    s.assert_life(0, 20)
    s.assert_damage("Kjeldoran Royal Guard", 2)
    s.assert_damage("Spined Wurm", 3)


def test_royal_guard_ignores_a_blocked_tramplers_excess_damage() -> None:
    """"by unblocked creatures": a blocked trampler is not unblocked, so the damage it tramples
    over to player 0 is dealt to player 0. Stampeding Wildebeests (5/4, trample) blocked by
    Grizzly Bears assign 2 to the Bears and 3 to player 0."""
    s = Scenario({"turn": 3, "active_player": 1, "step": "declare_blockers", "players": [
        {"in_play": ["Kjeldoran Royal Guard", {"card": "Grizzly Bears", "blocking": ["wb"]}]},
        {"in_play": [{"card": "Stampeding Wildebeests", "id": "wb", "attacking": True}]}]})
    s.do("pass", "activate Kjeldoran Royal Guard")
    s.resolve()
    g = s.game
    for _ in range(20):
        if g.decision.kind is K.COMBAT_DAMAGE:
            # Lethal damage (2) to the blocker; the rest tramples over to player 0.
            g.apply("assign 2 damage to Grizzly Bears")
        elif g.step == "end_of_combat":
            break
        else:
            g.apply("pass")
    s.assert_in_play("Grizzly Bears", False)
    s.assert_life(0, 17)
    s.assert_damage("Kjeldoran Royal Guard", 0)


def test_royal_guard_without_activation_damage_is_dealt_to_you() -> None:
    """Without the activation the damage is dealt to player 0 as usual (the effect is created
    only by "{T}: ...")."""
    s = guard_combat([{"card": "Grizzly Bears", "attacking": True}], activate=False)
    s.assert_life(0, 18)
    s.assert_damage("Kjeldoran Royal Guard", 0)


def test_royal_guard_only_redirects_combat_damage() -> None:
    """"All combat damage": Shock (2 damage, not combat damage) to player 0 after the activation
    is dealt to player 0."""
    s = Scenario({"turn": 3, "active_player": 1, "step": "precombat_main", "players": [
        {"in_play": ["Kjeldoran Royal Guard"]},
        {"hand": ["Shock"], "in_play": ["Mountain"]}]})
    s.do("pass", "activate Kjeldoran Royal Guard")
    s.resolve()
    s.do("play Shock", "target player 0")
    s.resolve()
    s.assert_life(0, 18)
    s.assert_damage("Kjeldoran Royal Guard", 0)


def test_royal_guard_gone_damage_is_dealt_to_you() -> None:
    """The card's ruling: "If you activate the ability but Kjeldoran Royal Guard leaves the
    battlefield before combat damage is dealt, the combat damage from unblocked creatures won't be
    redirected" (2012 614.9). Player 1 Unsummons the Guard after the activation."""
    s = Scenario({"turn": 3, "active_player": 1, "step": "declare_blockers", "players": [
        {"in_play": ["Kjeldoran Royal Guard"]},
        {"hand": ["Unsummon"], "in_play": ["Island", {"card": "Grizzly Bears",
                                                        "attacking": True}]}]})
    s.do("pass", "activate Kjeldoran Royal Guard")
    s.resolve()
    s.do("play Unsummon", "target Kjeldoran Royal Guard")
    s.resolve()
    s.advance_to("end_of_combat", active=1)
    s.assert_life(0, 18)
    s.assert_zone(0, "hand", "Kjeldoran Royal Guard")


def test_royal_guard_redirects_only_damage_to_you() -> None:
    """"dealt to you": combat damage to player 0's other blocking creature is not redirected.
    Player 0's Grizzly Bears block a Hill Giant and take its 3 damage."""
    s = guard_combat([{"card": "Hill Giant", "id": "giant", "attacking": True}],
                     blockers=[{"card": "Grizzly Bears", "blocking": ["giant"]}])
    s.assert_in_play("Grizzly Bears", False)
    s.assert_damage("Kjeldoran Royal Guard", 0)
    s.assert_life(0, 20)
