"""State-based effects (2007 CR 420.5; RULES_2007 §7), regeneration, and how games end: life,
empty library, poison, draws, concession (2007 CR 102; RULES_2007 §15)."""

from __future__ import annotations

from functools import partial

import pytest

from mtg_env import DecisionKind, IllegalActionError
from mtg_env.testing import Scenario, position

LIB = ["Wall of Wood"] * 5
pos = partial(position, library=LIB)  # both players' libraries are LIB unless given


# -- creatures -------------------------------------------------------------------------------
def test_lethal_damage_destroys() -> None:
    """2007 CR 420.5c: a creature with damage at least its toughness is destroyed."""
    s = Scenario(pos("precombat_main", {"hand": ["Shock"], "in_play": ["Mountain"]},
                     {"in_play": ["Grizzly Bears", "Hill Giant"]}))
    s.do("play Shock", "target Grizzly Bears")
    s.resolve()
    s.assert_zone(1, "graveyard", "Grizzly Bears")
    s2 = Scenario(pos("precombat_main", {"hand": ["Shock"], "in_play": ["Mountain"]},
                      {"in_play": ["Hill Giant"]}))
    s2.do("play Shock", "target Hill Giant")
    s2.resolve()
    s2.assert_damage("Hill Giant", 2)


def test_damage_from_earlier_in_the_turn_adds_up() -> None:
    """Seed glossary "Damage" / 2007 CR 420.5c: damage stays until cleanup, so two Shocks kill a
    3/3 (2 + 2 >= 3)."""
    s = Scenario(pos("precombat_main", {"hand": ["Shock", "Shock"], "in_play": ["Mountain", "Mountain"]},
                     {"in_play": [{"card": "Hill Giant", "damage": 2}]}))
    s.assert_in_play("Hill Giant")
    s.do("play Shock", "target Hill Giant")
    s.resolve()
    s.assert_zone(1, "graveyard", "Hill Giant")


def test_zero_toughness_goes_to_graveyard_without_regeneration() -> None:
    """2007 CR 420.5b: a creature with toughness 0 or less is put into its owner's graveyard;
    regeneration can't replace this (it isn't destruction). Drudge Skeletons with a -1/-1
    counter is 0/0."""
    s = Scenario(pos("precombat_main", {"in_play": [{"card": "Drudge Skeletons", "counters": {"-1/-1": 1}},
                                                    "Swamp"]}))
    s.assert_in_play("Drudge Skeletons", False)
    s.assert_zone(0, "graveyard", "Drudge Skeletons")


def test_regeneration_replaces_destruction_by_lethal_damage() -> None:
    """2007 CR 419.6b (2012 701.12a): "Regenerate" — the next time it would be destroyed this
    turn, instead tap it and remove all damage from it. Drudge Skeletons survives a Shock."""
    s = Scenario(pos("precombat_main", {"hand": ["Shock"], "in_play": ["Mountain"]},
                     {"in_play": ["Drudge Skeletons", "Swamp"]}))
    s.do("play Shock", "target Drudge Skeletons")
    s.pass_priority()
    s.do("activate Drudge Skeletons")
    s.resolve()
    assert s.perm("Drudge Skeletons").regen_shields == 1
    s.resolve()
    s.assert_in_play("Drudge Skeletons")
    p = s.perm("Drudge Skeletons")
    assert p.tapped and p.damage == 0 and p.regen_shields == 0


def test_regeneration_shield_is_used_once() -> None:
    """2007 CR 419.6b: one shield replaces one destruction; a second lethal Shock kills."""
    s = Scenario(pos("precombat_main", {"hand": ["Shock", "Shock"], "in_play": ["Mountain", "Mountain"]},
                     {"in_play": ["Drudge Skeletons", "Swamp"]}))
    s.pass_priority()
    s.do("activate Drudge Skeletons")
    s.resolve()
    s.do("play Shock", "target Drudge Skeletons")
    s.resolve()
    s.assert_in_play("Drudge Skeletons")
    s.do("play Shock#2", "target Drudge Skeletons")
    s.resolve()
    s.assert_zone(1, "graveyard", "Drudge Skeletons")


def test_regeneration_shield_ends_at_cleanup() -> None:
    """2007 CR 419.6b: a regeneration shield lasts until used or until end of turn."""
    s = Scenario(pos("end_of_turn", {"in_play": ["Drudge Skeletons", "Swamp"]},
                     {"hand": ["Shock"], "in_play": ["Mountain"]}))
    s.do("activate Drudge Skeletons")
    s.resolve()
    s.advance_to("upkeep", active=1)
    assert s.perm("Drudge Skeletons").regen_shields == 0
    s.do("play Shock", "target Drudge Skeletons")
    s.resolve()
    s.assert_zone(0, "graveyard", "Drudge Skeletons")


def test_incinerate_prevents_regeneration() -> None:
    """Incinerate: "A creature dealt damage this way can't be regenerated this turn." (2012
    701.12b)."""
    s = Scenario(pos("precombat_main", {"hand": ["Incinerate"], "in_play": ["Mountain"] * 2},
                     {"in_play": ["Drudge Skeletons", "Swamp"]}))
    s.pass_priority()
    s.do("activate Drudge Skeletons")
    s.resolve()
    s.do("play Incinerate", "target Drudge Skeletons")
    s.resolve()
    s.assert_zone(1, "graveyard", "Drudge Skeletons")


def test_regeneration_removes_from_combat() -> None:
    """2007 CR 419.6b: a regenerated creature is removed from combat. Drudge Skeletons blocks Hill
    Giant, regenerates from the combat damage and is no longer blocking; the Giant stays
    blocked."""
    s = Scenario(pos("declare_blockers", {"in_play": [{"card": "Hill Giant", "id": "g", "attacking": True}]},
                     {"in_play": [{"card": "Drudge Skeletons", "blocking": ["g"]}, "Swamp"]}))
    s.pass_priority()
    s.do("activate Drudge Skeletons")
    s.resolve()
    s.pass_priority(2)
    assert s.game.step == "combat_damage"
    s.pass_priority(2)
    sk = s.perm("Drudge Skeletons")
    assert sk.tapped and sk.damage == 0 and not sk.blocking
    assert s.perm("Hill Giant").blocked
    s.assert_damage("Hill Giant", 1)
    s.assert_life(1, 20)


# -- Auras and Equipment -------------------------------------------------------------------
def test_aura_attached_to_nothing_goes_to_graveyard() -> None:
    """2007 CR 420.5d: an Aura attached to nothing (its creature left play) is put into its
    owner's graveyard."""
    s2 = Scenario(pos("precombat_main", {"hand": ["Unsummon"], "in_play": ["Island"]},
                      {"in_play": [{"card": "Grizzly Bears", "id": "b"},
                                   {"card": "Holy Strength", "attached_to": "b"}]}))
    s2.do("play Unsummon", "target Grizzly Bears")
    s2.resolve()
    s2.assert_zone(1, "hand", "Grizzly Bears")
    s2.assert_zone(1, "graveyard", "Holy Strength")
    s2.assert_in_play("Holy Strength", False)


def test_equipment_stays_in_play_unattached() -> None:
    """2007 CR 420.5k (RULES_2007 §16): Equipment whose creature leaves play becomes unattached
    and stays in play."""
    s = Scenario(pos("precombat_main", {"hand": ["Unsummon"], "in_play": ["Island"]},
                     {"in_play": [{"card": "Grizzly Bears", "id": "b"},
                                  {"card": "Loxodon Warhammer", "attached_to": "b"}]}))
    s.assert_pt("Grizzly Bears", 5, 2)
    s.do("play Unsummon", "target Grizzly Bears")
    s.resolve()
    s.assert_in_play("Loxodon Warhammer")
    assert s.perm("Loxodon Warhammer").attached_to is None


def test_legend_rule_puts_all_same_name_legends_into_graveyards() -> None:
    """2007 CR 420.5e (RULES_2007 §12): two legendary permanents with the same name, regardless
    of controller, are all put into their owners' graveyards."""
    s = Scenario(pos("precombat_main", {"hand": ["Kamahl, Pit Fighter"], "in_play": ["Mountain"] * 6},
                     {"in_play": ["Kamahl, Pit Fighter"]}))
    s.do("play Kamahl, Pit Fighter")
    s.resolve()
    s.assert_zone(0, "graveyard", "Kamahl, Pit Fighter")
    s.assert_zone(1, "graveyard", "Kamahl, Pit Fighter#2")
    assert not any(p.name == "Kamahl, Pit Fighter" for p in s.game.permanents)


def test_zero_toughness_legend_still_counts_for_the_legend_rule() -> None:
    """2007 CR 420.3 / 2012 704.3: all state-based effects are checked and performed at once. A
    Molimo, Maro-Sorcerer with 0 toughness (its controller has no lands, 420.5b) and another
    Molimo under the opponent's control (legend rule, 420.5e): both go to the graveyard, not only
    the 0/0 one."""
    s = Scenario(pos("precombat_main", {"in_play": ["Molimo, Maro-Sorcerer"]},
                     {"in_play": ["Molimo, Maro-Sorcerer"] + ["Forest"] * 4}))
    s.assert_zone(0, "graveyard", "Molimo, Maro-Sorcerer")
    s.assert_zone(1, "graveyard", "Molimo, Maro-Sorcerer#2")
    assert not any(p.name == "Molimo, Maro-Sorcerer" for p in s.game.permanents)


# -- losing and winning --------------------------------------------------------------------
def test_zero_life_loses() -> None:
    """2007 CR 420.5a: a player with 0 or less life loses (Lava Axe from 5)."""
    s = Scenario(pos("precombat_main", {"hand": ["Lava Axe"], "in_play": ["Mountain"] * 5},
                     {"life": 5}))
    s.do("play Lava Axe", "target player 1")
    s.resolve()
    g = s.game
    assert g.is_over and g.winner == 0 and g.end_reason == "life"
    assert g.decision is None and g.legal_actions() == []
    with pytest.raises(IllegalActionError):
        g.apply("pass")


def test_negative_life_loses() -> None:
    """2007 CR 420.5a: "0 or less"."""
    s = Scenario(pos("precombat_main", {"hand": ["Lava Axe"], "in_play": ["Mountain"] * 5},
                     {"life": 2}))
    s.do("play Lava Axe", "target player 1")
    s.resolve()
    assert s.game.players[1].life == -3
    s.assert_winner(0)


def test_life_zero_in_a_position_loses_at_once() -> None:
    """2007 CR 420.3: state-based effects are checked before anyone gets priority."""
    s = Scenario(pos("upkeep", {"life": 0}))
    s.assert_winner(1)


def test_drawing_from_an_empty_library_loses() -> None:
    """2007 CR 420.5g: a player who tried to draw from an empty library loses at the next check
    (here, the draw step)."""
    s = Scenario({"turn": 3, "step": "upkeep", "players": [{"library": []}, {"library": LIB}]})
    assert not s.game.is_over  # an empty library alone doesn't lose
    s.pass_priority(2)
    s.assert_winner(1)
    assert s.game.end_reason == "empty library"


def test_ten_poison_counters_lose() -> None:
    """2007 CR 420.5h: a player with ten or more poison counters loses."""
    s = Scenario(pos("upkeep", {}, {"poison": 10}))
    s.assert_winner(0)
    assert s.game.end_reason == "poison"
    s2 = Scenario(pos("upkeep", {}, {"poison": 9}))
    assert not s2.game.is_over


def test_simultaneous_loss_is_a_draw() -> None:
    """2007 CR 102 (RULES_2007 §15): if both players lose at once the game is a draw."""
    s = Scenario(pos("upkeep", {"life": 0}, {"life": -1}))
    g = s.game
    assert g.is_over and g.winner is None
    s.assert_winner(None)


def test_concession() -> None:
    """2007 CR 102.3a (2012 104.3a): a player may concede at any time; they lose and the other
    player wins."""
    s = Scenario(pos("precombat_main", {}))
    s.game.concede(0)
    assert s.game.is_over and s.game.winner == 1
    assert s.game.players[0].conceded
    assert s.game.end_reason == "concession"
    with pytest.raises(IllegalActionError):
        s.game.apply("pass")


def test_concession_by_the_player_not_deciding() -> None:
    """2012 104.3a: concession doesn't need priority."""
    s = Scenario(pos("precombat_main", {}))
    assert s.game.decision.player == 0
    s.game.concede(1)
    s.assert_winner(0)


def test_sba_checked_in_cleanup() -> None:
    """2007 CR 314.3 (RULES_2007 §7: checks happen in cleanup too): a player at 0 life from mana
    burn in the end of turn step loses before the next turn's priority."""
    s = Scenario(pos("end_of_turn", {"life": 1, "in_play": ["Swamp"]}))
    s.do("tap Swamp for B")
    s.pass_priority(2)
    s.assert_winner(1)


def test_state_is_checked_repeatedly_until_nothing_happens() -> None:
    """2007 CR 420.3: SBEs are checked again after they act: the Aura of a creature destroyed
    by lethal damage goes to the graveyard in the next round of checks, before anyone gets
    priority."""
    s = Scenario(pos("precombat_main", {"hand": ["Incinerate"], "in_play": ["Mountain", "Mountain"]},
                     {"in_play": [{"card": "Grizzly Bears", "id": "b", "damage": 1},
                                  {"card": "Holy Strength", "attached_to": "b"}]}))
    s.assert_pt("Grizzly Bears", 3, 4)
    s.do("play Incinerate", "target Grizzly Bears")
    s.resolve()
    assert s.game.decision.kind is DecisionKind.PRIORITY and s.game.decision.player == 0
    s.assert_zone(1, "graveyard", "Grizzly Bears")
    s.assert_zone(1, "graveyard", "Holy Strength")
