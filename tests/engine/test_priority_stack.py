"""Priority, passing in succession and the stack (2007 CR 408-413; 2012 CR 116, 405, 608)."""

from __future__ import annotations

from mtg_env import DecisionKind
from mtg_env.testing import Scenario


def dryad_position() -> dict:
    return {"turn": 3, "step": "precombat_main", "players": [
        {"hand": ["Giant Growth"], "in_play": ["Forest", {"card": "Rushwood Dryad", "id": "dryad"}],
         "library": ["Forest"] * 3},
        {"hand": ["Incinerate"], "in_play": ["Mountain", "Mountain", "Mountain"],
         "library": ["Mountain"] * 3}]}


def test_rulebook_giant_growth_in_response_to_incinerate() -> None:
    """Rulebook "In Response" example (2007 CR 408.1, 413.1): the opponent plays Incinerate on
    Rushwood Dryad; in response its controller plays Giant Growth. Giant Growth resolves first
    (last in, first out): the Dryad is 5/4 and survives Incinerate's 3 damage."""
    s = Scenario(dryad_position())
    s.pass_priority()
    s.do("play Incinerate", "target Rushwood Dryad")
    s.pass_priority()
    s.do("play Giant Growth", "target Rushwood Dryad")
    assert [x.label for x in s.game.stack] == ["Incinerate", "Giant Growth"]
    s.resolve()
    s.assert_pt("Rushwood Dryad", 5, 4)
    assert [x.label for x in s.game.stack] == ["Incinerate"]
    s.resolve()
    s.assert_in_play("Rushwood Dryad")
    s.assert_damage("Rushwood Dryad", 3)
    s.assert_zone(1, "graveyard", "Incinerate")
    s.assert_zone(0, "graveyard", "Giant Growth")


def test_rulebook_giant_growth_first_then_incinerate_in_response() -> None:
    """Rulebook "In Response" continued (2007 CR 413.2a): if Giant Growth is played first, the
    Incinerate played in response resolves first and destroys the Dryad; Giant Growth's only
    target is gone, so it is countered and does nothing."""
    s = Scenario(dryad_position())
    s.do("play Giant Growth", "target Rushwood Dryad")
    s.pass_priority()
    s.do("play Incinerate", "target Rushwood Dryad")
    s.resolve()
    s.assert_in_play("Rushwood Dryad", False)
    s.assert_zone(0, "graveyard", "Rushwood Dryad")
    s.resolve()
    assert not s.game.stack
    s.assert_zone(0, "graveyard", "Giant Growth")
    assert any("Giant Growth is countered" in line for line in s.game.log)
    assert not any("gets +3/+3" in line for line in s.game.log)


def test_active_player_gets_priority_first_then_the_other_player() -> None:
    """2007 CR 408.1 (2012 116.3a-b): the active player receives priority at the start of each
    step; passing gives it to the other player."""
    s = Scenario(dryad_position())
    assert s.game.decision.player == 0 and s.game.priority_player == 0
    s.pass_priority()
    assert s.game.decision.player == 1 and s.game.step == "precombat_main"
    s.pass_priority()
    assert s.game.step == "beginning_of_combat" and s.game.decision.player == 0


def test_player_who_plays_a_spell_receives_priority_again() -> None:
    """2012 116.3c: after a player plays a spell, that player receives priority."""
    s = Scenario(dryad_position())
    s.do("play Giant Growth", "target Rushwood Dryad")
    assert s.game.decision.player == 0 and s.game.decision.kind is DecisionKind.PRIORITY
    assert len(s.game.stack) == 1


def test_one_pass_does_not_resolve_both_must_pass_in_succession() -> None:
    """2007 CR 408.1 / seed glossary "Pass in Succession": the top object resolves only when all
    players pass in succession without acting in between."""
    s = Scenario(dryad_position())
    s.do("play Giant Growth", "target Rushwood Dryad")
    s.pass_priority()
    assert len(s.game.stack) == 1 and s.game.decision.player == 1
    # Player 1 acts instead of passing: the succession is broken.
    s.do("play Incinerate", "target player 0")
    s.pass_priority()  # player 1 passes
    assert len(s.game.stack) == 2 and s.game.decision.player == 0
    s.pass_priority()  # player 0 passes: both passed in succession
    assert [x.label for x in s.game.stack] == ["Giant Growth"]
    s.assert_life(0, 17)


def test_after_resolution_the_active_player_gets_priority() -> None:
    """2012 116.3b: after a spell resolves the active player receives priority, even if the
    other player played it."""
    s = Scenario(dryad_position())
    s.pass_priority()
    s.do("play Incinerate", "target player 0")
    s.pass_priority()
    s.pass_priority()
    assert not s.game.stack
    assert s.game.decision.player == 0 and s.game.step == "precombat_main"


def test_empty_stack_both_pass_ends_the_step() -> None:
    """2007 CR 408.1 / 2012 500.2: when all players pass in succession with an empty stack, the
    step ends."""
    s = Scenario({"turn": 3, "step": "upkeep", "players": [
        {"library": ["Forest"] * 3}, {"library": ["Forest"] * 3}]})
    s.pass_priority(2)
    assert s.game.step == "draw"


def test_land_play_does_not_use_the_stack_and_keeps_priority() -> None:
    """2007 CR 212.6 (RULES_2007 §3): playing a land doesn't use the stack; the player keeps
    priority afterwards."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"hand": ["Forest"], "library": ["Island"] * 3}, {"library": ["Island"] * 3}]})
    s.do("play Forest")
    assert not s.game.stack
    s.assert_in_play("Forest")
    assert s.game.decision.player == 0


def test_mana_abilities_do_not_use_the_stack() -> None:
    """2007 CR 406, 411 (2012 605.3): a mana ability resolves at once, without the stack, and
    its player keeps priority."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"in_play": ["Forest"], "library": ["Island"] * 3}, {"library": ["Island"] * 3}]})
    s.do("tap Forest for G")
    assert not s.game.stack
    assert s.game.players[0].mana_pool == [0, 0, 0, 0, 1, 0]
    assert s.perm("Forest").tapped
    assert s.game.decision.player == 0


def test_activated_ability_uses_the_stack_and_can_be_responded_to() -> None:
    """2007 CR 409, 413 (2012 602.2, 608): an activated ability goes on the stack and waits;
    the source leaving play doesn't stop it (rulebook "Activated abilities")."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"in_play": ["Prodigal Pyromancer"], "library": ["Island"] * 3},
        {"in_play": ["Mountain"], "hand": ["Shock"], "library": ["Island"] * 3}]})
    s.do("activate Prodigal Pyromancer", "target player 1")
    assert [x.kind for x in s.game.stack] == ["activated"]
    assert s.perm("Prodigal Pyromancer").tapped
    s.pass_priority()
    s.do("play Shock", "target Prodigal Pyromancer")
    s.resolve()
    s.assert_in_play("Prodigal Pyromancer", False)
    s.resolve()
    s.assert_life(1, 19)


def test_state_based_effects_are_checked_before_priority() -> None:
    """2007 CR 420.3 (RULES_2007 §3): before a player would receive priority, state-based
    effects are checked; a creature with lethal damage is gone before anyone can act."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"in_play": ["Mountain"], "hand": ["Shock"], "library": ["Island"] * 3},
        {"in_play": ["Grizzly Bears", "Forest"], "hand": ["Giant Growth"], "library": ["Island"] * 3}]})
    s.do("play Shock", "target Grizzly Bears")
    s.resolve()
    s.assert_in_play("Grizzly Bears", False)
    assert s.game.decision.player == 0
    assert "play Giant Growth" not in s.options()


def test_stack_state_is_public() -> None:
    """2012 405.1: the stack is a zone; game.stack lists its objects bottom first, each with its
    controller and targets."""
    s = Scenario(dryad_position())
    s.pass_priority()
    s.do("play Incinerate", "target Rushwood Dryad")
    item = s.game.stack[0]
    assert item.kind == "spell" and item.controller == 1 and item.label == "Incinerate"
    assert item.targets == [("o", s.perm("Rushwood Dryad").id)]
    assert not any(c.name == "Incinerate" for c in s.game.players[1].hand)
