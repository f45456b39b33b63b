"""Turn structure: phases and steps, the untap, draw and cleanup game actions, hand size, the
play/draw rule (2007 CR 300-314; 2012 CR 500-514)."""

from __future__ import annotations

from mtg_env import STEPS, DecisionKind, Game
from mtg_env.testing import Scenario


def walk(g: Game, n: int, attack: tuple[str, ...] = ()) -> list[tuple[int, str, int, str]]:
    """Answer ``n`` decisions by passing (attacking with ``attack`` on turn 3); return
    (turn, step, player, kind) of each."""
    seen = []
    for _ in range(n):
        d = g.decision
        seen.append((g.turn, g.step, d.player, d.kind.value))
        if d.kind is DecisionKind.PRIORITY:
            g.apply("pass")
        elif d.kind is DecisionKind.DECLARE_ATTACKERS and g.turn == 3 and attack:
            for name in attack:
                g.apply(f"attack with {name}")
            if g.decision.kind is DecisionKind.DECLARE_ATTACKERS:
                g.apply("done")
        else:
            g.apply("done")
    return seen


def test_step_names_in_order() -> None:
    """2007 CR 300-314: beginning phase (untap, upkeep, draw), precombat main, combat
    (beginning, declare attackers, declare blockers, combat damage, end of combat), postcombat
    main, end phase (end of turn, cleanup)."""
    assert STEPS == ("untap", "upkeep", "draw", "precombat_main", "beginning_of_combat",
                     "declare_attackers", "declare_blockers", "combat_damage", "end_of_combat",
                     "postcombat_main", "end_of_turn", "cleanup")


def test_every_step_with_attackers_and_priority_passing_in_each() -> None:
    """2007 CR 300-314 and 408.1 (2012 116.3-116.4, 500.2): the steps come in order; in each
    step with priority the active player gets it first, then the other player; when both pass in
    succession with an empty stack the step ends. Untap and cleanup have no priority."""
    s = Scenario({"turn": 3, "step": "upkeep", "players": [
        {"in_play": ["Grizzly Bears"], "library": ["Forest"] * 5},
        {"in_play": ["Hill Giant"], "library": ["Mountain"] * 5}]})
    seen = walk(s.game, 25, attack=("Grizzly Bears",))
    expected = []
    for step in ("upkeep", "draw", "precombat_main", "beginning_of_combat"):
        expected += [(3, step, 0, "priority"), (3, step, 1, "priority")]
    expected += [(3, "declare_attackers", 0, "declare_attackers"),
                 (3, "declare_attackers", 0, "priority"), (3, "declare_attackers", 1, "priority"),
                 (3, "declare_blockers", 1, "declare_blockers"),
                 (3, "declare_blockers", 0, "priority"), (3, "declare_blockers", 1, "priority")]
    # The combat damage step: priority with damage on the stack, and again after it resolves.
    expected += [(3, "combat_damage", 0, "priority"), (3, "combat_damage", 1, "priority")] * 2
    for step in ("end_of_combat", "postcombat_main", "end_of_turn"):
        expected += [(3, step, 0, "priority"), (3, step, 1, "priority")]
    expected += [(4, "upkeep", 1, "priority")]
    assert seen == expected


def test_no_attackers_skips_to_end_of_combat() -> None:
    """2012 508.8: with no attackers declared, declare blockers and combat damage are skipped."""
    s = Scenario({"turn": 3, "step": "beginning_of_combat", "players": [
        {"in_play": ["Grizzly Bears"]}, {}]})
    seen = walk(s.game, 5)
    assert [x[1] for x in seen] == ["beginning_of_combat", "beginning_of_combat",
                                    "declare_attackers", "declare_attackers", "declare_attackers"]
    assert s.game.step == "end_of_combat"


def test_untap_step_untaps_only_the_active_players_permanents() -> None:
    """2007 CR 302.2 (2012 502.2): the active player untaps all their permanents; the other
    player's stay tapped. Lands played reset for the new turn."""
    s = Scenario({"turn": 3, "step": "end_of_turn", "players": [
        {"in_play": [{"card": "Forest", "tapped": True}, {"card": "Grizzly Bears", "tapped": True}],
         "library": ["Island"] * 3, "lands_played": 1},
        {"in_play": [{"card": "Mountain", "tapped": True}, {"card": "Hill Giant", "tapped": True}],
         "library": ["Island"] * 3, "lands_played": 1}]})
    s.advance_to("upkeep", active=1)
    assert s.game.turn == 4
    assert not s.perm("Mountain").tapped and not s.perm("Hill Giant").tapped
    assert s.perm("Forest").tapped and s.perm("Grizzly Bears").tapped
    assert s.game.players[1].lands_played == 0
    s.advance_to("upkeep", active=0)
    assert not s.perm("Forest").tapped and not s.perm("Grizzly Bears").tapped


def test_draw_step_draws_the_top_card() -> None:
    """2007 CR 304.1 (2012 504.1): the active player draws a card (the top of the library) as
    the draw step begins, before anyone gets priority."""
    s = Scenario({"turn": 3, "step": "upkeep", "players": [
        {"hand": [], "library": ["Shock", "Forest", "Forest"]}, {"library": ["Mountain"]}]})
    s.pass_priority(2)
    assert s.game.step == "draw"
    assert [c.name for c in s.game.players[0].hand] == ["Shock"]
    assert [c.name for c in s.game.players[0].library] == ["Forest", "Forest"]
    assert len(s.game.players[1].hand) == 0


def test_play_draw_rule_starting_player_skips_first_draw() -> None:
    """2007 CR 101.6 / seed glossary "Play/Draw Rule": whoever plays first skips the draw step
    of their first turn; the other player draws normally on their first turn."""
    deck = ["Forest"] * 40
    g = Game.new([deck, deck], seed=5, starting_player=1)
    g.apply("keep")
    g.apply("keep")
    assert g.turn == 1 and g.active_player == 1
    while g.step != "precombat_main":
        g.apply("pass")
    assert len(g.players[1].hand) == 7
    assert len(g.players[1].library) == 33
    while g.turn == 1:
        g.apply(g.decision.options[0] if g.decision.kind is not DecisionKind.PRIORITY else "pass")
    while g.step != "precombat_main":
        g.apply("pass")
    assert g.turn == 2 and g.active_player == 0
    assert len(g.players[0].hand) == 8


def test_cleanup_discards_down_to_seven() -> None:
    """2007 CR 314.1 (2012 514.1): in cleanup the active player discards down to the maximum
    hand size of seven, choosing the cards; the other player keeps a larger hand."""
    hand = ["Forest", "Forest", "Shock", "Shock", "Giant Growth", "Hill Giant", "Craw Wurm",
            "Lava Axe", "Cancel"]
    s = Scenario({"turn": 3, "step": "end_of_turn", "players": [
        {"hand": hand, "library": ["Forest"] * 3}, {"hand": hand, "library": ["Forest"] * 3}]})
    s.pass_priority(2)
    g = s.game
    assert g.step == "cleanup"
    d = g.decision
    assert d.kind is DecisionKind.CHOOSE_CARDS and d.player == 0
    assert s.options() == ["discard Forest", "discard Forest#2", "discard Shock", "discard Shock#2",
                           "discard Giant Growth", "discard Hill Giant", "discard Craw Wurm",
                           "discard Lava Axe", "discard Cancel"]
    s.do("discard Lava Axe")
    assert "done" not in s.options()  # exactly two cards must go
    s.do("discard Forest#2")
    assert g.turn == 4 and g.active_player == 1
    assert [c.name for c in g.players[0].graveyard] == ["Lava Axe", "Forest"]
    assert len(g.players[0].hand) == 7
    assert len(g.players[1].hand) == 9  # not the active player's cleanup


def test_cleanup_with_seven_cards_asks_nothing() -> None:
    """2012 514.1: no discard at or below the maximum hand size."""
    s = Scenario({"turn": 3, "step": "end_of_turn", "players": [
        {"hand": ["Forest"] * 7, "library": ["Forest"] * 3}, {"library": ["Forest"] * 3}]})
    s.pass_priority(2)
    assert s.game.turn == 4 and s.game.step == "upkeep"
    assert len(s.game.players[0].hand) == 7


def test_cleanup_removes_damage_and_ends_until_end_of_turn_effects() -> None:
    """2007 CR 314.2 (2012 514.2): in cleanup all damage is removed from permanents and
    "until end of turn" effects end. Damage stays until then (rulebook: it doesn't wear off
    until the turn ends)."""
    s = Scenario({"turn": 3, "step": "postcombat_main", "players": [
        {"in_play": [{"card": "Craw Wurm", "damage": 3}, "Forest"], "hand": ["Giant Growth"],
         "library": ["Forest"] * 3},
        {"library": ["Forest"] * 3}]})
    s.do("play Giant Growth", "target Craw Wurm")
    s.resolve()
    s.assert_pt("Craw Wurm", 9, 7)
    s.pass_priority(2)
    assert s.game.step == "end_of_turn"
    s.assert_damage("Craw Wurm", 3)
    s.assert_pt("Craw Wurm", 9, 7)
    s.advance_to("upkeep", active=1)
    s.assert_damage("Craw Wurm", 0)
    s.assert_pt("Craw Wurm", 6, 4)


def test_damage_and_pump_wear_off_together() -> None:
    """2012 514.2: damage removal and the end of "until end of turn" effects are simultaneous,
    so a creature kept alive by Giant Growth with 4 damage on it survives the cleanup."""
    s = Scenario({"turn": 3, "step": "postcombat_main", "players": [
        {"in_play": ["Grizzly Bears", "Forest"], "hand": ["Giant Growth"], "library": ["Forest"] * 3},
        {"in_play": ["Mountain", "Mountain", "Mountain"], "hand": ["Incinerate"],
         "library": ["Forest"] * 3}]})
    s.do("play Giant Growth", "target Grizzly Bears")
    s.resolve()
    s.pass_priority()
    s.do("play Incinerate", "target Grizzly Bears")
    s.resolve()
    s.assert_damage("Grizzly Bears", 3)
    s.advance_to("upkeep", active=1)
    s.assert_in_play("Grizzly Bears")
    s.assert_damage("Grizzly Bears", 0)


def test_turns_alternate_and_count() -> None:
    """2007 CR 300.1: players alternate turns; the turn counter advances each turn."""
    s = Scenario({"turn": 3, "step": "end_of_turn", "players": [
        {"library": ["Forest"] * 3}, {"library": ["Forest"] * 3}]})
    s.advance_to("end_of_turn", active=1)
    assert s.game.turn == 4
    s.advance_to("end_of_turn", active=0)
    assert s.game.turn == 5


def test_untap_and_cleanup_give_no_priority() -> None:
    """2007 CR 302.3 / 314.3 (2012 502.3, 514.3): no player receives priority in the untap step
    or (normally) in the cleanup step."""
    s = Scenario({"turn": 3, "step": "end_of_turn", "players": [
        {"library": ["Forest"] * 3, "in_play": ["Forest"]},
        {"library": ["Forest"] * 3, "in_play": ["Island"]}]})
    steps = {x[1] for x in walk(s.game, 30)}
    assert "untap" not in steps and "cleanup" not in steps


def test_skip_trivial_applies_one_option_decisions() -> None:
    """README: skip_trivial=True applies one-option decisions automatically and
    counts them in auto_applied; the game stops at the first real choice."""
    s = Scenario({"turn": 3, "step": "upkeep", "players": [
        {"hand": ["Forest"], "library": ["Island"] * 3}, {"library": ["Island"] * 3}]},
        skip_trivial=True)
    g = s.game
    assert g.step == "precombat_main" and g.decision.player == 0
    assert s.options() == ["pass", "play Forest", "play Island"]  # Island drawn
    assert g.auto_applied == 4  # upkeep and draw: two passes each
    assert g.decisions_made == 4


def test_turn_limit_ends_the_game_in_a_draw() -> None:
    """A turn cap ends a runaway game as a draw, reported as such."""
    s = Scenario({"turn": 3, "step": "end_of_turn", "players": [
        {"library": ["Island"] * 3}, {"library": ["Island"] * 3}]}, max_turns=3)
    s.pass_priority(2)
    g = s.game
    assert g.is_over and g.winner is None and g.end_reason == "turn limit"
