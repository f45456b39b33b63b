"""Scenario tests for the cards whose abilities work outside play or take a
variable number of targets: Squee, Goblin Nabob; Guerrilla Tactics; Crucible of Worlds;
Cephalid Constable; Midnight Ritual; Hail of Arrows.

Each test quotes the printed 2007 text it checks. Rule numbers are 2007 CR where known, else 2012
CR: 2012 112.6 (an ability of a card outside play works only if it says so), 2012 603.3a (the
controller of a triggered ability of a card in a graveyard is its owner), 2007 CR 212.6 (playing a
land), 2007 CR 409.1d (targets and the division of damage are chosen on announcement), 2007 CR
413.2a (illegal targets).
"""

from __future__ import annotations

from functools import partial

from mtg_env import DecisionKind
from mtg_env.engine.zones import leave_play
from mtg_env.testing import Scenario, card_names, main, upkeep_of

K = DecisionKind


# -- Squee, Goblin Nabob -------------------------------------------------------------------------
SQUEE = "Squee, Goblin Nabob"
# Player 0's upkeep of turn 5, from player 1's end of turn 4 (libraries of Forests).
to_my_upkeep = partial(upkeep_of, turn=5, from_step="end_of_turn", library=["Forest"] * 5)


def test_squee_returns_from_the_graveyard_at_your_upkeep() -> None:
    """Squee, Goblin Nabob: "At the beginning of your upkeep, you may return Squee, Goblin Nabob
    from your graveyard to your hand." The ability works from the graveyard (2012 112.6): it
    triggers, its owner controls it (2012 603.3a) and chooses yes on resolution."""
    s = to_my_upkeep({"graveyard": [SQUEE]})
    g = s.game
    assert len(g.stack) == 1 and g.stack[0].controller == 0
    s.resolve()
    assert g.decision.kind is K.YES_NO and g.decision.player == 0
    s.do("yes")
    assert card_names(g.players[0].hand) == [SQUEE]
    assert g.players[0].graveyard == []


def test_squee_may_stay_in_the_graveyard() -> None:
    """Squee: "you may return Squee": answering no leaves it in the graveyard."""
    s = to_my_upkeep({"graveyard": [SQUEE]})
    s.resolve()
    s.do("no")
    assert card_names(s.game.players[0].graveyard) == [SQUEE]
    assert s.game.players[0].hand == []


def test_squee_does_not_trigger_at_an_opponents_upkeep() -> None:
    """Squee: "At the beginning of *your* upkeep": the opponent's upkeep doesn't trigger it."""
    s = Scenario({"turn": 3, "step": "end_of_turn",
                  "players": [{"graveyard": [SQUEE], "library": ["Forest"] * 3},
                              {"library": ["Forest"] * 3}]})
    s.advance_to("upkeep", active=1)
    assert s.game.stack == []


def test_squee_does_not_trigger_from_play_or_hand() -> None:
    """Squee: "return Squee, Goblin Nabob *from your graveyard*": in play or in the hand the
    ability does nothing (2012 112.6: only abilities that say so work outside play)."""
    s = to_my_upkeep({"hand": [SQUEE], "in_play": [{"card": SQUEE, "id": "sq"}]})
    assert s.game.stack == []


def test_squee_in_an_opponents_graveyard_is_theirs() -> None:
    """Squee: "your upkeep ... your graveyard": a Squee in player 1's graveyard triggers at player
    1's upkeep and returns to player 1's hand, not at player 0's."""
    s = to_my_upkeep({}, {"graveyard": [SQUEE]})
    assert s.game.stack == []
    s.advance_to("upkeep", active=1)
    g = s.game
    assert len(g.stack) == 1 and g.stack[0].controller == 1
    s.resolve()
    s.do("yes")
    assert card_names(g.players[1].hand)[-1] == SQUEE


def test_squee_that_left_the_graveyard_is_not_returned() -> None:
    """Squee: "return Squee from your graveyard": if it is no longer there when the ability
    resolves (removed from the game in response), nothing happens."""
    s = to_my_upkeep({"graveyard": [SQUEE]})
    g = s.game
    card = g.players[0].graveyard[0]
    g.players[0].graveyard.remove(card)  # as if removed in response
    g.players[0].removed.append(card)
    s.resolve()
    s.do("yes")
    assert g.players[0].hand == [] and card_names(g.players[0].removed) == [SQUEE]


def test_squee_survives_copy_and_json() -> None:
    """The graveyard ability survives ``copy()`` and a JSON round trip (the watch list is
    derived from the game's cards)."""
    from mtg_env.engine.game import Game

    s = Scenario({"turn": 4, "active_player": 1, "step": "end_of_turn",
                  "players": [{"graveyard": [SQUEE], "library": ["Forest"] * 3},
                              {"library": ["Forest"] * 3}]})
    for g in (s.game.copy(), Game.from_json(s.game.to_json())):
        t = Scenario.__new__(Scenario)
        t.game = g
        t.advance_to("upkeep", active=0)
        assert len(g.stack) == 1 and g.stack[0].name == "Squee, Goblin Nabob ability"


# -- Guerrilla Tactics ---------------------------------------------------------------------------
GT = "Guerrilla Tactics"


def test_guerrilla_tactics_deals_2_damage() -> None:
    """Guerrilla Tactics: "Guerrilla Tactics deals 2 damage to target creature or player." """
    s = main({"hand": [GT], "in_play": ["Mountain"] * 2}, {"in_play": ["Hill Giant"]})
    s.do("play Guerrilla Tactics", "target Hill Giant")
    s.resolve()
    s.assert_damage("Hill Giant", 2)


def test_guerrilla_tactics_discarded_by_an_opponents_spell_deals_4() -> None:
    """Guerrilla Tactics: "When a spell or ability an opponent controls causes you to discard
    Guerrilla Tactics, Guerrilla Tactics deals 4 damage to target creature or player." Player 0's
    Mind Rot makes player 1 discard it; player 1 (its owner) controls the trigger and targets
    player 0."""
    s = main({"hand": ["Mind Rot"], "in_play": ["Swamp"] * 3},
             {"hand": [GT, "Forest"]})
    s.do("play Mind Rot", "target player 1")
    s.resolve()
    s.do("discard Guerrilla Tactics", "discard Forest")
    g = s.game
    assert g.decision.kind is K.TARGET and g.decision.player == 1
    s.do("target player 0")
    assert g.stack[-1].controller == 1
    s.resolve()
    s.assert_life(0, 16)


def test_guerrilla_tactics_discarded_at_random_by_an_opponents_ability() -> None:
    """Guerrilla Tactics: "a spell or *ability* an opponent controls": Hypnotic Specter's
    "that player discards a card at random" triggers it (2012 ruling: any discard an opponent's
    effect causes)."""
    s = Scenario({"turn": 3, "step": "declare_attackers",
                  "players": [{"in_play": [{"card": "Hypnotic Specter", "attacking": True}]},
                              {"hand": [GT], "in_play": ["Grizzly Bears"]}]})
    s.advance_to("combat_damage")
    g = s.game
    s.resolve()  # combat damage (on the stack under the 2007 rules, CR 310)
    s.resolve()  # Hypnotic Specter's trigger: player 1 discards Guerrilla Tactics at random
    assert card_names(g.players[1].graveyard) == [GT]
    assert g.decision.kind is K.TARGET and g.decision.player == 1
    s.do("target Hypnotic Specter")
    s.resolve()
    s.assert_in_play("Hypnotic Specter", False)


def test_guerrilla_tactics_discarded_by_its_owners_own_spell_does_nothing() -> None:
    """Guerrilla Tactics: "a spell or ability *an opponent controls*": discarding it to your own
    Sift doesn't trigger it."""
    s = main({"hand": ["Sift", GT], "in_play": ["Island"] * 4,
              "library": ["Forest"] * 3})
    s.do("play Sift")
    s.resolve()
    s.do("discard Guerrilla Tactics")
    g = s.game
    assert GT in card_names(g.players[0].graveyard)
    assert g.stack == [] and g.decision.kind is K.PRIORITY


def test_guerrilla_tactics_discarded_in_cleanup_does_nothing() -> None:
    """Guerrilla Tactics: only "a spell or ability an opponent controls" causes the trigger:
    discarding down to the maximum hand size in the cleanup step (a rule) doesn't."""
    s = Scenario({"turn": 3, "step": "end_of_turn",
                  "players": [{"hand": [GT] + ["Forest"] * 7, "library": ["Forest"] * 3},
                              {"library": ["Forest"] * 3}]})
    s.pass_priority(2)
    g = s.game
    assert g.decision.kind is K.CHOOSE_CARDS
    s.do("discard Guerrilla Tactics")
    assert GT in card_names(g.players[0].graveyard)
    assert g.stack == [] and not g.pending


def test_guerrilla_tactics_other_card_discarded_does_nothing() -> None:
    """Guerrilla Tactics: "causes you to discard *Guerrilla Tactics*": an opponent making you
    discard another card doesn't trigger the one already in your graveyard."""
    s = main({"hand": ["Mind Rot"], "in_play": ["Swamp"] * 3},
             {"hand": ["Forest", "Island"], "graveyard": [GT]})
    s.do("play Mind Rot", "target player 1")
    s.resolve()
    s.do("discard Forest", "discard Island")
    assert s.game.stack == [] and s.game.decision.kind is K.PRIORITY


# -- Crucible of Worlds --------------------------------------------------------------------------
CRUCIBLE = "Crucible of Worlds"


def test_crucible_plays_a_land_from_the_graveyard() -> None:
    """Crucible of Worlds: "You may play land cards from your graveyard." The land play is the
    turn's one land play (2007 CR 212.6): afterwards no other land can be played."""
    s = main({"in_play": [CRUCIBLE], "graveyard": ["Forest", "Shock"], "hand": ["Mountain"]})
    assert "play Forest from graveyard" in s.options()
    assert not any(o.startswith("play Shock") for o in s.options())  # land cards only
    s.do("play Forest from graveyard")
    g = s.game
    s.assert_in_play("Forest")
    assert card_names(g.players[0].graveyard) == ["Shock"] and g.players[0].lands_played == 1
    assert not any(o.startswith("play ") for o in s.options())  # the land play is used


def test_crucible_land_play_counts_against_the_hand() -> None:
    """Crucible of Worlds gives no extra land play: after playing a land from the hand, the
    graveyard's lands can't be played (2007 CR 212.6)."""
    s = main({"in_play": [CRUCIBLE], "graveyard": ["Forest"], "hand": ["Mountain"]})
    s.do("play Mountain")
    assert "play Forest from graveyard" not in s.options()


def test_crucible_only_at_sorcery_timing() -> None:
    """Crucible of Worlds doesn't change when lands can be played: not in the opponent's turn
    nor with a spell on the stack (2007 CR 212.6)."""
    s = main({"in_play": [CRUCIBLE, "Mountain"], "graveyard": ["Forest"]},
             {"hand": ["Shock"], "in_play": ["Mountain"]})
    s.do("pass")  # player 1 gets priority in player 0's turn
    assert not any("from graveyard" in o for o in s.options())
    s = main({"in_play": [CRUCIBLE, "Mountain"], "graveyard": ["Forest"], "hand": ["Shock"]})
    s.do("play Shock", "target player 1")
    assert not any("from graveyard" in o for o in s.options())


def test_crucible_only_your_graveyard_and_only_while_in_play() -> None:
    """Crucible of Worlds: "from *your* graveyard": not the opponent's lands; and an opponent's
    Crucible gives player 0 nothing; without a Crucible no graveyard land can be played."""
    s = main({"in_play": [CRUCIBLE]}, {"graveyard": ["Forest"]})
    assert not any("from graveyard" in o for o in s.options())
    s = main({"graveyard": ["Forest"]}, {"in_play": [CRUCIBLE]})
    assert not any("from graveyard" in o for o in s.options())
    s = main({"graveyard": ["Forest"], "in_play": ["Mountain"]})
    assert not any("from graveyard" in o for o in s.options())


def test_heuristic_agent_plays_a_land_from_the_graveyard_first() -> None:
    """The heuristic agent uses Crucible of Worlds: with the same land in hand and in the
    graveyard it plays the graveyard's (keeping the card in hand)."""
    from agents import HeuristicAgent
    from mtg_env.engine.view import view_for

    s = main({"in_play": [CRUCIBLE], "graveyard": ["Forest"], "hand": ["Forest"]})
    h = HeuristicAgent(strict=True)
    h.reset(0, 0)
    a = h.act(view_for(s.game, 0))
    assert a.text.endswith("from graveyard")
    s.do(a.text)
    assert len(s.game.players[0].hand) == 1 and s.game.players[0].graveyard == []


# -- Cephalid Constable --------------------------------------------------------------------------
CONSTABLE = "Cephalid Constable"


def constable_hits(p0_extra: list, p1: dict, pump: bool = False) -> Scenario:
    """Cephalid Constable attacks unblocked; combat damage resolves; its trigger asks."""
    s = Scenario({"turn": 3, "step": "declare_attackers",
                  "players": [{"in_play": [{"card": CONSTABLE, "attacking": True}, *p0_extra],
                               "hand": ["Giant Growth"] if pump else []}, p1]})
    s.advance_to("combat_damage")
    s.resolve()  # combat damage (on the stack, 2007 CR 310)
    return s


def test_constable_returns_up_to_that_many_permanents() -> None:
    """Cephalid Constable: "Whenever Cephalid Constable deals combat damage to a player, return up
    to that many target permanents that player controls to their owners' hands." It deals 1
    damage: one target at most (2007 CR 409.1d), then the ability goes on the stack."""
    s = constable_hits([], {"in_play": ["Hill Giant", "Forest"]})
    g = s.game
    assert g.decision.kind is K.TARGET and g.decision.player == 0
    assert set(s.options()) == {"done", "target Hill Giant", "target Forest"}
    s.do("target Hill Giant")
    assert len(g.stack[-1].targets) == 1  # no second target offered (1 damage)
    s.resolve()
    s.assert_in_play("Hill Giant", False)
    assert card_names(g.players[1].hand) == ["Hill Giant"]
    s.assert_in_play("Forest")


def test_constable_with_more_damage_takes_more_targets() -> None:
    """Cephalid Constable pumped by Giant Growth deals 4 combat damage: up to four targets, each
    different, and the player may stop early ("up to")."""
    s = Scenario({"turn": 3, "step": "declare_attackers",
                  "players": [{"in_play": [{"card": CONSTABLE, "attacking": True}, "Forest"],
                               "hand": ["Giant Growth"]},
                              {"in_play": ["Hill Giant", "Grizzly Bears", "Island"]}]})
    s.advance_to("declare_blockers")
    s.do("play Giant Growth", "target Cephalid Constable")
    s.resolve()
    s.advance_to("combat_damage")
    s.resolve()
    g = s.game
    s.do("target Hill Giant")
    assert "target Hill Giant" not in s.options() and "done" in s.options()
    s.do("target Grizzly Bears", "done")
    assert len(g.stack[-1].targets) == 2
    s.resolve()
    assert sorted(card_names(g.players[1].hand)) == ["Grizzly Bears", "Hill Giant"]
    s.assert_in_play("Island")


def test_constable_only_that_players_permanents() -> None:
    """Cephalid Constable: "target permanents *that player controls*": its controller's own
    permanents can't be chosen."""
    s = constable_hits(["Island"], {"in_play": ["Forest"]})
    assert set(s.options()) == {"done", "target Forest"}


def test_constable_may_choose_no_target() -> None:
    """Cephalid Constable: "up to that many": zero targets is allowed; the ability then does
    nothing (and isn't countered for having none)."""
    s = constable_hits([], {"in_play": ["Forest"]})
    s.do("done")
    g = s.game
    assert g.stack and g.stack[-1].targets == []
    s.resolve()
    s.assert_in_play("Forest")


def test_constable_illegal_target_is_not_returned() -> None:
    """2007 CR 413.2a: a target that became illegal is not affected; the legal ones are."""
    s = Scenario({"turn": 3, "step": "declare_attackers",
                  "players": [{"in_play": [{"card": CONSTABLE, "attacking": True}, "Forest"],
                               "hand": ["Giant Growth"]},
                              {"in_play": ["Hill Giant", "Grizzly Bears"]}]})
    s.advance_to("declare_blockers")
    s.do("play Giant Growth", "target Cephalid Constable")
    s.resolve()
    s.advance_to("combat_damage")
    s.resolve()
    s.do("target Hill Giant", "target Grizzly Bears")
    g = s.game
    bears = s.perm("Grizzly Bears")
    leave_play(g, bears, "graveyard")  # as if destroyed in response
    s.resolve()
    assert card_names(g.players[1].hand) == ["Hill Giant"]
    assert card_names(g.players[1].graveyard) == ["Grizzly Bears"]


def test_constable_blocked_deals_no_damage_to_a_player() -> None:
    """Cephalid Constable: "deals combat damage *to a player*": blocked, it doesn't trigger."""
    s = Scenario({"turn": 3, "step": "declare_blockers",
                  "players": [{"in_play": [{"card": CONSTABLE, "id": "c", "attacking": True}]},
                              {"in_play": [{"card": "Grizzly Bears", "blocking": ["c"]},
                                           "Forest"]}]})
    s.advance_to("combat_damage")
    s.resolve()
    assert s.game.decision.kind is K.PRIORITY and not any(
        x.kind == "triggered" for x in s.game.stack)


# -- Midnight Ritual -----------------------------------------------------------------------------
RITUAL = "Midnight Ritual"


def zombies(s: Scenario, player: int = 0) -> int:
    return sum(p.card.name == "Zombie Token" and p.controller == player
               for p in s.game.permanents)


def test_midnight_ritual_removes_x_creature_cards_and_makes_zombies() -> None:
    """Midnight Ritual: "Remove X target creature cards in your graveyard from the game. For each
    creature card removed this way, put a 2/2 black Zombie creature token into play." X = 2:
    exactly two targets (no "done" before), each a different card."""
    s = main({"hand": [RITUAL], "in_play": ["Swamp"] * 5,
              "graveyard": ["Grizzly Bears", "Hill Giant", "Shock"]})
    s.do("play Midnight Ritual")
    g = s.game
    assert [o for o in s.options()] == ["X=0", "X=1", "X=2"]  # two creature cards to target
    s.do("X=2")
    assert set(s.options()) == {"target Grizzly Bears", "target Hill Giant"}
    s.do("target Grizzly Bears")
    assert s.options() == ["target Hill Giant"]  # exactly X: no "done", no repeat
    s.do("target Hill Giant")
    s.resolve()
    assert sorted(card_names(g.players[0].removed)) == ["Grizzly Bears", "Hill Giant"]
    assert card_names(g.players[0].graveyard) == ["Shock", RITUAL]
    assert zombies(s) == 2
    z = next(p for p in g.permanents if p.card.name == "Zombie Token")
    assert (z.power, z.toughness, z.colors) == (2, 2, frozenset("B"))


def test_midnight_ritual_only_your_graveyard() -> None:
    """Midnight Ritual: "creature cards *in your graveyard*": the opponent's aren't targets, so
    X can't exceed your own creature cards."""
    s = main({"hand": [RITUAL], "in_play": ["Swamp"] * 5, "graveyard": ["Grizzly Bears"]},
             {"graveyard": ["Hill Giant", "Craw Wurm"]})
    s.do("play Midnight Ritual")
    assert s.options() == ["X=0", "X=1"]
    s.do("X=1")
    assert s.options() == ["target Grizzly Bears"]


def test_midnight_ritual_counts_only_cards_removed_this_way() -> None:
    """Midnight Ritual: "For each creature card *removed this way*": a target that left the
    graveyard before it resolves is not removed and makes no Zombie (2007 CR 413.2a)."""
    s = main({"hand": [RITUAL], "in_play": ["Swamp"] * 5,
              "graveyard": ["Grizzly Bears", "Hill Giant"]})
    s.do("play Midnight Ritual", "X=2", "target Grizzly Bears", "target Hill Giant")
    g = s.game
    giant = next(c for c in g.players[0].graveyard if c.name == "Hill Giant")
    g.players[0].graveyard.remove(giant)  # as if returned to the hand in response
    g.players[0].hand.append(giant)
    s.resolve()
    assert card_names(g.players[0].removed) == ["Grizzly Bears"]
    assert zombies(s) == 1


def test_midnight_ritual_x_zero() -> None:
    """Midnight Ritual with X = 0: no target, no token; it resolves (not countered)."""
    s = main({"hand": [RITUAL], "in_play": ["Swamp"] * 3}, {})
    s.do("play Midnight Ritual", "X=0")
    s.resolve()
    assert zombies(s) == 0 and card_names(s.game.players[0].graveyard) == [RITUAL]
    assert any("Midnight Ritual resolves" in line or "Midnight Ritual" in line
               for line in s.game.log[-3:])


def test_heuristic_agent_plays_midnight_ritual_and_constable_targets() -> None:
    """The heuristic agent reads the ops: it plays Midnight Ritual for as many creature cards as
    it can target, and Cephalid Constable's trigger returns the opponent's best permanent."""
    from agents import HeuristicAgent
    from mtg_env.engine.view import view_for

    def run(s: Scenario, n: int) -> list[str]:
        agents = [HeuristicAgent(strict=True), HeuristicAgent(strict=True)]
        for i, h in enumerate(agents):
            h.reset(i, 0)
        out = []
        for _ in range(n):
            d = s.game.decision
            a = agents[d.player].act(view_for(s.game, d.player))
            out.append(a.text)
            s.do(a.text)
        return out

    s = main({"hand": [RITUAL], "in_play": ["Swamp"] * 6,
              "graveyard": ["Grizzly Bears", "Hill Giant", "Shock", "Craw Wurm"]})
    assert run(s, 5)[:2] == ["play Midnight Ritual", "X=3"]
    s.resolve()
    assert zombies(s) == 3
    s = Scenario({"turn": 3, "step": "declare_blockers",
                  "players": [{"in_play": [{"card": CONSTABLE, "attacking": True}]},
                              {"in_play": ["Hill Giant", "Air Elemental", "Island"]}]})
    assert "target Air Elemental" in run(s, 5)
