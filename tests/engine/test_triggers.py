"""Triggered abilities: the stack, APNAP order, a controller ordering their own triggers,
upkeep, "at end of turn" and leaves-play triggers, lifelink as a trigger (2007 CR 404, 410,
502.68; RULES_2007 §8, §11)."""

from __future__ import annotations

from functools import partial

from mtg_env import DecisionKind
from mtg_env.testing import Scenario, position, upkeep_of

LIB = ["Wall of Wood"] * 5
pos = partial(position, library=LIB)  # both players' libraries are LIB unless given


def test_upkeep_trigger_goes_on_the_stack_before_priority() -> None:
    """2007 CR 410.1-410.3 (2012 603.3): a triggered ability is put on the stack the next time a
    player would receive priority; it can be responded to. Stampeding Wildebeests triggers at
    the beginning of its controller's upkeep."""
    s = Scenario(pos("end_of_turn", {"in_play": ["Forest"]},
                     {"in_play": ["Stampeding Wildebeests", "Grizzly Bears"]}))
    s.pass_priority(2)
    g = s.game
    assert g.turn == 4 and g.step == "upkeep"
    assert [x.kind for x in g.stack] == ["triggered"]
    assert g.stack[0].controller == 1
    assert g.decision.kind is DecisionKind.PRIORITY and g.decision.player == 1


def test_wildebeests_returns_a_green_creature_chosen_on_resolution() -> None:
    """Stampeding Wildebeests: "At the beginning of your upkeep, return a green creature you
    control to its owner's hand." The choice (not a target) is made on resolution; a non-green
    creature can't be chosen."""
    s = upkeep_of(["Stampeding Wildebeests", "Grizzly Bears", "Hill Giant"], turn=5,
                  from_step="end_of_turn", library=LIB)
    assert len(s.game.stack) == 1
    s.resolve()
    d = s.game.decision
    assert d.kind is DecisionKind.CHOOSE_CARDS and d.player == 0
    assert s.options() == ["return Stampeding Wildebeests", "return Grizzly Bears"]
    s.do("return Grizzly Bears")
    s.assert_zone(0, "hand", "Grizzly Bears")
    s.assert_in_play("Stampeding Wildebeests")
    s.assert_in_play("Hill Giant")


def test_wildebeests_returns_itself_when_it_is_the_only_green_creature() -> None:
    """Stampeding Wildebeests: with no other green creature it must return itself."""
    s = upkeep_of(["Stampeding Wildebeests", "Hill Giant"], turn=5, from_step="end_of_turn", library=LIB)
    s.resolve()
    assert s.options() == ["return Stampeding Wildebeests"]
    s.do("return Stampeding Wildebeests")
    s.assert_zone(0, "hand", "Stampeding Wildebeests")
    s.assert_in_play("Hill Giant")


def test_wildebeests_does_not_trigger_in_the_opponents_upkeep() -> None:
    """Stampeding Wildebeests: "your upkeep" only."""
    s = Scenario(pos("end_of_turn", {"in_play": ["Stampeding Wildebeests", "Grizzly Bears"]}))
    s.pass_priority(2)
    assert s.game.turn == 4 and s.game.step == "upkeep" and not s.game.stack


def test_controller_orders_their_own_simultaneous_triggers() -> None:
    """2007 CR 410.2 (2012 603.3b): a player puts their simultaneous triggers on the stack in any
    order they choose; the first one put resolves last."""
    s = Scenario(pos("end_of_turn", {}, {"in_play": ["Stampeding Wildebeests", "Stampeding Wildebeests",
                                                     "Grizzly Bears"]}))
    s.pass_priority(2)
    d = s.game.decision
    assert d.kind is DecisionKind.ORDER_TRIGGERS and d.player == 1
    assert s.options() == [
        "put Stampeding Wildebeests: return a green creature you control to its owner's hand",
        "put Stampeding Wildebeests#2: return a green creature you control to its owner's hand"]
    s.do(s.options()[1])
    g = s.game
    assert [x.source_name for x in g.stack] == ["Stampeding Wildebeests#2", "Stampeding Wildebeests"]
    assert g.decision.kind is DecisionKind.PRIORITY and g.decision.player == 1


def test_apnap_order_active_players_triggers_go_on_the_stack_first() -> None:
    """2007 CR 410.2 (APNAP; 2012 603.3b): the active player's triggers go on the stack first,
    then the other player's, so the non-active player's resolve first. Both players' Warhammer
    lifelink triggers from one combat damage event."""
    s = Scenario(pos("declare_blockers", {
        "in_play": [{"card": "Grizzly Bears", "id": "a", "attacking": True},
                    {"card": "Loxodon Warhammer", "attached_to": "a"}]},
        {"in_play": [{"card": "Hill Giant", "id": "b", "blocking": ["a"]},
                     {"card": "Loxodon Warhammer", "attached_to": "b"}]}))
    s.pass_priority(2)  # to combat damage
    assert s.game.step == "combat_damage"
    s.do("assign 5 damage to Hill Giant")  # trample: could go on to the player; all to the Giant
    s.pass_priority(2)
    g = s.game
    assert [(x.kind, x.controller) for x in g.stack] == [("triggered", 0), ("triggered", 1)]
    s.resolve()
    s.assert_life(1, 26)  # the Giant dealt 6 (3 + 3)
    s.assert_life(0, 20)
    s.resolve()
    s.assert_life(0, 25)


def test_lifelink_is_a_trigger_that_can_be_responded_to() -> None:
    """RULES_2007 §11 (2007 CR 502.68): lifelink is a triggered ability using the stack."""
    s = Scenario(pos("precombat_main", {"in_play": [{"card": "Prodigal Pyromancer", "id": "p"},
                                                    {"card": "Loxodon Warhammer", "attached_to": "p"}]}))
    s.do("activate Prodigal Pyromancer", "target player 1")
    s.resolve()
    s.assert_life(1, 19)
    assert [x.kind for x in s.game.stack] == ["triggered"]
    s.assert_life(0, 20)
    s.resolve()
    s.assert_life(0, 21)


def test_scenario_12_lifelink_source_gone_gives_no_life() -> None:
    """RULES_2007 §19 scenario 12 (§11): Prodigal Pyromancer with Loxodon Warhammer pings the
    defender, who Shocks the Pyromancer in response: the defender takes 1, nobody gains life."""
    s = Scenario(pos("precombat_main",
                     {"in_play": [{"card": "Prodigal Pyromancer", "id": "p"},
                                  {"card": "Loxodon Warhammer", "attached_to": "p"}]},
                     {"hand": ["Shock"], "in_play": ["Mountain"]}))
    s.do("activate Prodigal Pyromancer", "target player 1")
    s.pass_priority()
    s.do("play Shock", "target Prodigal Pyromancer")
    s.resolve()
    s.assert_in_play("Prodigal Pyromancer", False)
    s.assert_in_play("Loxodon Warhammer")
    s.resolve()
    s.assert_life(1, 19)
    assert not s.game.stack
    s.assert_life(0, 20)


def test_scenario_11_two_warhammers_trigger_separately() -> None:
    """RULES_2007 §19 scenario 11 (§11): each lifelink instance triggers separately: a creature
    with two Warhammers dealing 8 gains its controller 16."""
    s = Scenario(pos("declare_blockers", {
        "in_play": [{"card": "Grizzly Bears", "id": "a", "attacking": True},
                    {"card": "Loxodon Warhammer", "attached_to": "a"},
                    {"card": "Loxodon Warhammer", "attached_to": "a"}]}))
    s.assert_pt("Grizzly Bears", 8, 2)
    s.pass_priority(2)
    s.pass_priority(2)
    s.assert_life(1, 12)
    assert len(s.game.stack) == 2
    s.resolve()
    s.resolve()
    s.assert_life(0, 36)


def test_scenario_10_combat_lifelink_comes_too_late() -> None:
    """RULES_2007 §19 scenario 10 (§11, 2007 CR 420.3): the defender at 3 blocks Goblin Piker with
    Grizzly Bears carrying Loxodon Warhammer (5/2) while Hill Giant is unblocked: the defender
    drops to 0 and loses to the state-based check before the lifelink trigger resolves."""
    s = Scenario(pos("declare_blockers", {
        "in_play": [{"card": "Hill Giant", "attacking": True},
                    {"card": "Goblin Piker", "id": "piker", "attacking": True}]},
        {"life": 3, "in_play": [{"card": "Grizzly Bears", "id": "b", "blocking": ["piker"]},
                                {"card": "Loxodon Warhammer", "attached_to": "b"}]}))
    s.pass_priority(2)
    assert s.game.step == "combat_damage"
    s.pass_priority(2)
    assert s.game.is_over and s.game.winner == 0
    assert s.game.players[1].life == 0


def test_at_end_of_turn_trigger() -> None:
    """RULES_2007 §8 (2007 CR 313.1): a printed "At end of turn" ability triggers as the end of
    turn step begins (Viashino Sandscout returns to its owner's hand)."""
    s = Scenario(pos("postcombat_main", {"in_play": ["Viashino Sandscout"]}))
    s.pass_priority(2)
    assert s.game.step == "end_of_turn"
    assert [x.kind for x in s.game.stack] == ["triggered"]
    s.resolve()
    s.assert_zone(0, "hand", "Viashino Sandscout")


def test_at_end_of_turn_triggers_in_each_players_end_step() -> None:
    """2007 CR 313.1: "At end of turn" (not "your end of turn") triggers in every turn's end of
    turn step; a position starts after the step's own triggers (position format)."""
    s = Scenario(pos("end_of_turn", {"in_play": ["Viashino Sandscout"]}))
    assert not s.game.stack
    s.advance_to("end_of_turn", active=1)
    assert [x.source_name for x in s.game.stack] == ["Viashino Sandscout"]
    assert s.game.stack[0].controller == 0
    s.resolve()
    s.assert_zone(0, "hand", "Viashino Sandscout")


def test_leaves_play_trigger_looks_back() -> None:
    """2012 603.6c / 603.10 (RULES_2007 §8): "When ~ is put into a graveyard from play" triggers
    after it has left play (Aven Fisher destroyed by lethal damage; "may": its controller
    chooses)."""
    s = Scenario(pos("precombat_main", {"hand": ["Shock"], "in_play": ["Mountain"]},
                     {"in_play": ["Aven Fisher"], "library": ["Craw Wurm"]}))
    s.do("play Shock", "target Aven Fisher")
    s.resolve()
    s.assert_zone(1, "graveyard", "Aven Fisher")
    assert len(s.game.stack) == 1 and s.game.stack[0].controller == 1
    s.resolve()
    d = s.game.decision
    assert d.kind is DecisionKind.YES_NO and d.player == 1
    s.do("yes")
    s.assert_zone(1, "hand", "Craw Wurm")


def test_leaves_play_trigger_not_for_other_zones() -> None:
    """Aven Fisher: returning it to hand is not being put into a graveyard: no trigger."""
    s = Scenario(pos("precombat_main", {"hand": ["Unsummon"], "in_play": ["Island"]},
                     {"in_play": ["Aven Fisher"]}))
    s.do("play Unsummon", "target Aven Fisher")
    s.resolve()
    assert not s.game.stack


def test_trigger_resolves_after_its_source_left_play() -> None:
    """Rulebook "Triggered abilities": if the permanent leaves play after its ability triggered,
    the ability still resolves. Stampeding Wildebeests is Unsummoned in response to its upkeep
    trigger; its controller must still return a green creature (Grizzly Bears)."""
    s = Scenario({"turn": 4, "active_player": 1, "step": "end_of_turn", "players": [
        {"library": LIB, "in_play": ["Stampeding Wildebeests", "Grizzly Bears"]},
        {"library": LIB, "in_play": ["Island"], "hand": ["Unsummon"]}]})
    s.pass_priority(2)
    assert len(s.game.stack) == 1
    s.pass_priority()
    s.do("play Unsummon", "target Stampeding Wildebeests")
    s.resolve()
    s.assert_zone(0, "hand", "Stampeding Wildebeests")
    s.resolve()
    assert s.options() == ["return Grizzly Bears"]
    s.do("return Grizzly Bears")
    s.assert_zone(0, "hand", "Grizzly Bears")
