"""The scenario builder of ``mtg_env.testing``: each helper does what its docstring says."""

from __future__ import annotations

import pytest

from mtg_env import DecisionKind
from mtg_env.testing import (
    Scenario,
    ScenarioError,
    attack,
    attack_options,
    block,
    block_options,
    card_names,
    combat,
    done_if_asked,
    kind,
    labels,
    logged,
    main,
    pass_until,
    player_zones,
    position,
    scenario,
    step_of,
    to_attackers,
    to_blockers,
    to_damage,
    upkeep_of,
)

K = DecisionKind
LIB = ["Island"] * 5


# -- builders ---------------------------------------------------------------------------------
def test_player_zones_takes_a_dict_a_list_or_nothing() -> None:
    zones = {"hand": ["Shock"]}
    d = player_zones(zones)
    assert d == {"hand": ["Shock"]} and d is not zones
    assert player_zones(["Forest", "Grizzly Bears"]) == {"in_play": ["Forest", "Grizzly Bears"]}
    assert player_zones(None) == {}
    assert player_zones(None, LIB) == {"library": LIB}
    # A library the player names wins over the default one.
    assert player_zones({"library": ["Forest"]}, LIB) == {"library": ["Forest"]}
    with pytest.raises(TypeError):
        player_zones("Forest")


def test_position_is_step_first_turn_3_player_0_and_top_level_keys_override() -> None:
    assert position() == {"turn": 3, "step": "precombat_main", "players": [{}, {}]}
    p = position("upkeep", {"hand": ["Shock"]}, ["Forest"], library=LIB, active_player=1, seed=7)
    assert p == {"turn": 3, "step": "upkeep", "active_player": 1, "seed": 7,
                 "players": [{"hand": ["Shock"], "library": LIB}, {"in_play": ["Forest"], "library": LIB}]}
    assert position(turn=5)["turn"] == 5
    Scenario(p)  # a position the engine accepts


def test_scenario_is_players_first_with_step_library_and_game_options() -> None:
    s = scenario(["Grizzly Bears"], {"hand": ["Shock"]})
    g = s.game
    assert (g.turn, g.step, g.active) == (3, "precombat_main", 0)
    assert kind(s) is K.PRIORITY and g.decision.player == 0
    assert labels(s, 1, "hand") == ["Shock"] and not s.perm("Grizzly Bears").summoning_sick
    s = scenario(step="beginning_of_combat", library=LIB, active_player=1)
    assert (s.game.step, s.game.active) == ("beginning_of_combat", 1)
    assert len(s.game.players[0].library) == len(s.game.players[1].library) == 5
    assert scenario(options={"manual_mana": True}).game.manual_mana
    assert not scenario().game.manual_mana


def test_main_and_combat_shortcuts() -> None:
    s = main({"in_play": ["Forest"]})
    assert (s.game.turn, s.game.step, s.game.active) == (3, "precombat_main", 0)
    assert main(step="postcombat_main").game.step == "postcombat_main"
    s = combat(["Grizzly Bears"], ["Hill Giant"])
    assert (s.game.step, s.game.active) == ("beginning_of_combat", 0)
    assert s.in_play("Grizzly Bears") and s.in_play("Hill Giant")
    assert combat(active_player=1).game.active == 1


def test_step_of_passes_into_the_step_so_its_triggers_fire() -> None:
    """Stampeding Wildebeests: "At the beginning of your upkeep, return a green creature you
    control to its owner's hand." Reached by passing, the trigger is on the stack."""
    s = step_of("upkeep", 0, ["Stampeding Wildebeests"], library=LIB)
    g = s.game
    assert (g.turn, g.step, g.active) == (3, "upkeep", 0)
    assert kind(s) is K.PRIORITY and [x.kind for x in g.stack] == ["triggered"]
    s = step_of("draw", 1, library=LIB)
    assert (s.game.turn, s.game.step, s.game.active) == (3, "draw", 1)
    assert len(s.game.players[1].hand) == 1  # the draw step's draw happened


def test_upkeep_of_starts_where_asked() -> None:
    s = upkeep_of(["Stampeding Wildebeests"], library=LIB)
    assert (s.game.turn, s.game.step, s.game.active) == (3, "upkeep", 0) and len(s.game.stack) == 1
    s = upkeep_of(None, ["Stampeding Wildebeests"], active=1, turn=5, from_step="end_of_turn",
                  library=LIB)
    assert (s.game.turn, s.game.step, s.game.active) == (5, "upkeep", 1) and len(s.game.stack) == 1


# -- passing ----------------------------------------------------------------------------------
def test_pass_until_checks_before_passing_and_stops_where_asked() -> None:
    s = main(library=LIB)
    pass_until(s, lambda g: True)
    assert s.game.step == "precombat_main"  # nothing passed
    pass_until(s, lambda g: g.step == "end_of_turn")
    assert s.game.step == "end_of_turn" and kind(s) is K.PRIORITY


def test_pass_until_raises_at_another_decision_the_end_of_the_game_or_too_many_passes() -> None:
    s = combat(["Grizzly Bears"], library=LIB)
    to_attackers(s)
    with pytest.raises(ScenarioError, match="mine"):
        pass_until(s, lambda g: False, what="mine")  # the declare-attackers decision
    s = main(library=LIB)
    seen = []
    with pytest.raises(ScenarioError, match="not reached in 3 passes"):
        pass_until(s, lambda g: seen.append(g.decision.player) or False, max_passes=3)
    assert seen == [0, 1, 0, 1]  # checked before each of the 3 passes and after the last
    s.game.concede(1)
    with pytest.raises(ScenarioError, match="end of the game"):
        pass_until(s, lambda g: False)


def test_kind_is_the_pending_decision_kind_or_none_once_over() -> None:
    s = main()
    assert kind(s) is K.PRIORITY
    s.game.concede(0)
    assert kind(s) is None


def test_done_if_asked_ends_a_pending_declaration_only() -> None:
    s = combat(["Grizzly Bears", "Hill Giant"])
    done_if_asked(s, K.DECLARE_ATTACKERS)  # priority: nothing to end
    assert kind(s) is K.PRIORITY and s.game.step == "beginning_of_combat"
    to_attackers(s)
    s.do("attack with Grizzly Bears")
    assert kind(s) is K.DECLARE_ATTACKERS
    done_if_asked(s, K.DECLARE_ATTACKERS)
    assert kind(s) is K.PRIORITY and s.perm("Grizzly Bears").attacking
    assert not s.perm("Hill Giant").attacking


# -- combat -----------------------------------------------------------------------------------
def test_to_attackers_reaches_the_declaration_from_a_main_phase() -> None:
    s = main(["Grizzly Bears"])
    to_attackers(s)
    assert s.game.step == "declare_attackers" and kind(s) is K.DECLARE_ATTACKERS
    to_attackers(s)  # already there: nothing passed
    assert kind(s) is K.DECLARE_ATTACKERS


def test_to_attackers_without_a_possible_attacker_stops_at_priority_in_the_step() -> None:
    s = main(["Forest"])
    to_attackers(s)
    assert s.game.step == "declare_attackers" and kind(s) is K.PRIORITY
    assert attack_options(s) == []


def test_attack_options_lists_the_declaration() -> None:
    s = combat(["Grizzly Bears", "Wall of Wood"])
    assert attack_options(s) == ["attack with Grizzly Bears", "done"]


def test_attack_declares_and_ends_the_declaration() -> None:
    s = combat(["Grizzly Bears", "Hill Giant"])
    attack(s, "Grizzly Bears")
    assert s.perm("Grizzly Bears").attacking and not s.perm("Hill Giant").attacking
    assert s.game.step == "declare_attackers" and kind(s) is K.PRIORITY
    s = main(["Grizzly Bears", "Hill Giant"])
    attack(s, "Grizzly Bears", "Hill Giant")  # the engine ends it when nobody is left
    assert s.perm("Grizzly Bears").attacking and s.perm("Hill Giant").attacking
    s = combat(["Grizzly Bears"])
    attack(s)  # no attackers
    assert not s.perm("Grizzly Bears").attacking and kind(s) is K.PRIORITY


def test_to_blockers_attacks_first_when_given_attackers() -> None:
    s = combat(["Grizzly Bears"], ["Hill Giant"])
    to_blockers(s, "Grizzly Bears")
    assert s.perm("Grizzly Bears").attacking
    assert s.game.step == "declare_blockers" and kind(s) is K.DECLARE_BLOCKERS
    assert s.game.decision.player == 1
    s = combat(["Grizzly Bears"], ["Forest"])
    attack(s, "Grizzly Bears")
    to_blockers(s)  # nobody can block: priority in the step
    assert s.game.step == "declare_blockers" and kind(s) is K.PRIORITY


def test_block_options_and_block() -> None:
    s = combat(["Grizzly Bears"], ["Hill Giant", "Forest"])
    attack(s, "Grizzly Bears")
    assert block_options(s) == ["block Grizzly Bears with Hill Giant", "done"]
    block(s, ("Grizzly Bears", "Hill Giant"))
    assert s.perm("Hill Giant").blocking and kind(s) is K.PRIORITY
    s = combat(["Grizzly Bears"], ["Forest"])
    attack(s, "Grizzly Bears")
    assert block_options(s) == []
    s = combat(["Grizzly Bears"], ["Hill Giant"])
    attack(s, "Grizzly Bears")
    block(s)  # no blockers
    assert not s.perm("Hill Giant").blocking and kind(s) is K.PRIORITY


def test_to_damage_reaches_the_combat_damage_step() -> None:
    s = combat(["Grizzly Bears"], ["Hill Giant"], library=LIB)
    attack(s, "Grizzly Bears")
    block(s)
    to_damage(s)
    assert s.game.step == "combat_damage"
    s.resolve_all()
    s.assert_life(1, 18)


# -- looking ----------------------------------------------------------------------------------
def test_labels_card_names_and_logged() -> None:
    s = main({"hand": ["Shock", "Shock", "Forest"], "graveyard": ["Hill Giant"],
              "in_play": ["Mountain"]}, {"in_play": ["Grizzly Bears"]})
    assert labels(s, 0, "hand") == ["Shock", "Shock#2", "Forest"]
    assert labels(s, 0, "graveyard") == ["Hill Giant"] and labels(s, 1, "hand") == []
    assert card_names(s.game.players[0].hand) == ["Shock", "Shock", "Forest"]
    assert not logged(s, "Shock deals")
    s.do("play Shock", "target Grizzly Bears")
    s.resolve()
    assert logged(s, "Grizzly Bears")
    assert not logged(s, "no such line")
