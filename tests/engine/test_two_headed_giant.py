"""Two-Headed Giant in the engine: two teams of two with shared turns, a shared life total and
their own combat rules.

Rules (2012 numbers; the 2007 glossary and play/draw rule name the variant, 2007 CR 606 held the
same rules): 810.1 (two teams of two), 810.2 and 805.4 (shared team turns: both players of the
active team are active players), 810.3 (each team sits together: seats 0 and 1 against 2 and 3),
810.4 (a shared life total starting at 30), 810.6 (the team that plays first skips its first
draw; 2007 glossary "play/draw rule"), 810.7a-f (the team's combined attack and block; landwalk
and "defending player" read both defending players; each unblocked attacker's damage goes to
one defending player its controller chooses), 810.8a (players win and lose as a team), 810.9
(damage, life loss and gain happen to a player and apply to the team's total).
"""

from __future__ import annotations

import random

import pytest

from mtg_env import Game, MtgError
from mtg_env.engine.deck import STARTER_DECKS, Deck
from mtg_env.engine.position import PositionError
from mtg_env.engine.seating import apnap_order, opponents, teammates, teams, winners
from mtg_env.testing import Scenario, play_checked_game, table_position

FOUR = ["starter_green", "starter_red", "starter_white", "starter_blue_black"]


def giant(*players: object, **top: object) -> Scenario:
    """A Two-Headed Giant position: player 0's team (seats 0 and 1) is active, turn 3."""
    return Scenario(table_position(*players, library=["Island"] * 5,  # type: ignore[arg-type]
                                   variant="two_headed_giant", **top))


def keep_all(g: Game) -> None:
    while g.decision is not None and g.decision.kind.value == "mulligan":
        g.apply("keep")


def pass_to_step(g: Game, step: str) -> None:
    for _ in range(300):
        if g.step == step and g.decision is not None and g.decision.kind.value == "priority":
            return
        texts = [a.text for a in g.legal_actions()]
        g.apply("pass" if "pass" in texts else "done" if "done" in texts else texts[0])
    raise AssertionError(f"never reached {step}")


# --- set-up: teams, life, the first turn -----------------------------------------------------

def test_two_teams_of_two_share_thirty_life() -> None:
    # 810.1, 810.3, 810.4
    g = Game.new(FOUR, variant="two_headed_giant", seed=1)
    assert g.variant == "two_headed_giant" and g.attack_option == ""
    assert teams(g) == ((0, 1), (2, 3))
    assert teammates(g, 2) == (3,) and opponents(g, 0) == (2, 3)
    assert [P.life for P in g.players] == [30, 30, 30, 30]


def test_a_two_headed_giant_game_needs_four_decks_and_no_attack_option() -> None:
    with pytest.raises(MtgError, match="needs four decks"):
        Game.new(FOUR[:3], variant="two_headed_giant")
    with pytest.raises(MtgError, match="attack option is for multiplayer Free-for-All"):
        Game.new(FOUR, variant="two_headed_giant", options={"attack": "left"})


def test_the_team_that_plays_first_skips_its_first_draw_and_shares_the_turn() -> None:
    # 810.6 (the play/draw rule), 805.4: both players of the first team are active on turn 1;
    # on turn 2 both players of the other team draw.
    g = Game.new(FOUR, variant="two_headed_giant", seed=4, starting_player=3)
    assert g.starting_player == 2  # the team of seat 3 plays first; seat 2 is its first seat
    keep_all(g)
    pass_to_step(g, "precombat_main")
    assert g.turn == 1 and [len(P.hand) for P in g.players] == [7, 7, 7, 7]
    assert sum("skips the first draw" in line for line in g.log) == 2
    assert "--- turn 1: players 2 and 3" in "\n".join(g.log)
    pass_to_step(g, "end_of_turn")
    pass_to_step(g, "precombat_main")
    assert g.turn == 2 and g.active == 0
    assert [len(P.hand) for P in g.players[:2]] == [8, 8]


def test_priority_goes_round_the_table_from_the_active_team() -> None:
    # 805.4 with 2007 CR 408: each player of the active team, then the other team.
    s = giant(["Forest"], ["Forest"], ["Forest"], ["Forest"])
    g = s.game
    assert apnap_order(g) == (0, 1, 2, 3)
    seen = []
    for _ in range(4):
        seen.append(g.decision.player)
        g.apply("pass")
    assert seen == [0, 1, 2, 3]
    assert g.step == "beginning_of_combat"


def test_both_active_players_play_lands_and_sorcery_speed_spells() -> None:
    # 805.4: each player of the active team may play a land and sorcery-speed spells in the
    # team's main phase; the other team may not.
    s = giant({"hand": ["Forest"]}, {"hand": ["Forest", "Grizzly Bears"], "in_play": ["Forest", "Forest"]},
              {"hand": ["Forest"]}, None)
    s.do("play Forest")
    s.pass_priority()
    assert s.game.decision.player == 1
    assert "play Forest#2" in s.options() and "play Grizzly Bears" in s.options()
    s.do("play Forest#2")
    s.pass_priority()
    assert s.game.decision.player == 2
    assert not any(o.startswith("play Forest") for o in s.options())


def test_both_active_players_untap_and_their_upkeep_abilities_trigger() -> None:
    # 805.4: the untap step untaps both active players' permanents, and "at the beginning of
    # your upkeep" triggers for each of them (Lord of the Pit, player 1's).
    s = giant([{"card": "Forest", "tapped": True}],
              [{"card": "Grizzly Bears", "tapped": True}, "Lord of the Pit"],
              [{"card": "Hill Giant", "tapped": True}], None, step="end_of_turn", active_player=2)
    s.advance_to("upkeep", active=0)
    assert not s.perm("Forest").tapped and not s.perm("Grizzly Bears").tapped
    assert s.perm("Hill Giant").tapped
    assert [item.label for item in s.game.stack] == ["Lord of the Pit"]


# --- life and the end of the game ------------------------------------------------------------

def test_damage_to_one_player_comes_off_the_team_total() -> None:
    # 810.9: damage happens to a player and applies to the team's shared life total.
    s = giant({"hand": ["Shock"], "in_play": ["Mountain"]}, None, None, None)
    s.do("play Shock", "target player 3")
    s.resolve()
    assert [P.life for P in s.game.players] == [30, 30, 28, 28]


def test_life_gain_goes_to_the_team_total() -> None:
    # 810.9: Venerable Monk's "you gain 2 life" raises the team's total.
    s = giant(None, {"hand": ["Venerable Monk"], "in_play": ["Plains", "Plains", "Plains"]},
              None, None, active_player=1)
    s.do("play Venerable Monk")
    s.resolve_all()
    assert [P.life for P in s.game.players] == [32, 32, 30, 30]


def test_a_team_at_zero_life_loses_together_and_the_other_team_wins() -> None:
    # 810.8a, 810.8c (2007 CR 420.5a for the team's total)
    s = giant({"hand": ["Shock"], "in_play": ["Mountain"]}, None, {"life": 2}, {"life": 2})
    s.do("play Shock", "target player 3")
    s.resolve()
    g = s.game
    assert g.is_over and g.winner == 0 and winners(g) == (0, 1)
    assert "the team of players 0 and 1 wins" in g.log[-1]


def test_a_player_who_draws_from_an_empty_library_takes_the_team_down() -> None:
    # 810.8a: "If either player on a team loses the game, the team loses the game."
    s = giant(None, {"library": []}, None, None, step="end_of_turn", active_player=2)
    g = s.game
    while not g.is_over and (g.turn == 3 or g.step != "precombat_main"):
        g.apply("pass")
    assert g.is_over and g.turn == 4 and winners(g) == (2, 3)
    assert "empty library" in g.end_reason


def test_platinum_angel_keeps_its_controllers_whole_team_in_the_game() -> None:
    # 810.8a example: neither player of the Angel's team can lose.
    s = giant({"hand": ["Shock"], "in_play": ["Mountain"]}, None, {"life": 2},
              {"life": 2, "in_play": ["Platinum Angel"]})
    s.do("play Shock", "target player 2")
    s.resolve()
    g = s.game
    assert not g.is_over and [P.life for P in g.players] == [30, 30, 0, 0]


def test_teammates_life_totals_must_match_in_a_position_and_a_stored_state() -> None:
    with pytest.raises(PositionError, match="shares one life total"):
        giant({"life": 20}, {"life": 25}, None, None)
    with pytest.raises(PositionError, match="4 players"):
        Scenario(table_position(None, None, None, variant="two_headed_giant"))
    g = giant(None, None, None, None).game
    broken = g.to_json().replace('"life":30', '"life":29', 1)
    with pytest.raises(MtgError, match="teammates share one life total"):
        Game.from_json(broken)


# --- combat ----------------------------------------------------------------------------------

def to_attack(s: Scenario) -> None:
    s.advance_to("declare_attackers")


def test_the_active_team_declares_one_combined_attack_player_by_player() -> None:
    # 810.7a, 810.7c: each player of the active team is an attacking player; player 0 then
    # player 1 declare their own creatures.
    s = giant(["Grizzly Bears"], ["Hill Giant"], None, None, step="beginning_of_combat")
    s.pass_priority(4)
    g = s.game
    assert g.decision.kind.value == "declare_attackers" and g.decision.player == 0
    assert s.options() == ["attack with Grizzly Bears", "done"]
    s.do("attack with Grizzly Bears")  # nothing else can attack: player 0's part is over
    assert g.decision.player == 1 and s.options() == ["attack with Hill Giant", "done"]
    s.do("attack with Hill Giant")
    assert s.perm("Grizzly Bears").attacking and s.perm("Hill Giant").attacking
    assert any("attacks the team of players 2 and 3" in line for line in g.log)


def test_the_defending_team_blocks_any_attacker_and_damage_goes_to_a_chosen_player() -> None:
    # 810.7d: either defending player's creatures may block any attacker; 810.7f: the
    # attacking player chooses which defending player an unblocked attacker damages.
    s = giant(["Grizzly Bears"], ["Hill Giant"], ["Llanowar Elves"], ["Spined Wurm"],
              step="beginning_of_combat")
    s.pass_priority(4)
    s.do("attack with Grizzly Bears", "attack with Hill Giant")
    s.pass_priority(4)
    g = s.game
    assert g.decision.kind.value == "declare_blockers" and g.decision.player == 2
    assert set(s.options()) == {"block Grizzly Bears with Llanowar Elves",
                                "block Hill Giant with Llanowar Elves", "done"}
    s.do("done")
    assert g.decision.player == 3
    s.do("block Hill Giant with Spined Wurm")
    s.pass_priority(4)
    assert g.decision.player == 0
    assert s.options() == ["Grizzly Bears assigns its combat damage to player 2",
                           "Grizzly Bears assigns its combat damage to player 3"]
    s.do("Grizzly Bears assigns its combat damage to player 3")
    s.resolve_all()
    assert [P.life for P in g.players] == [30, 30, 28, 28]
    s.assert_in_play("Hill Giant", False)


def test_landwalk_looks_at_both_defending_players_lands() -> None:
    # 810.7d example: forestwalk can't be blocked if either defending player controls a Forest.
    for forest_of, blockable in ((None, True), (3, False), (2, False)):
        players: list[object] = [["Rushwood Dryad"], None, ["Grizzly Bears"], None]
        if forest_of is not None:
            players[forest_of] = [*(players[forest_of] or []), "Forest"]
        s = giant(*players, step="beginning_of_combat")
        s.pass_priority(4)
        s.do("attack with Rushwood Dryad")
        s.pass_priority(4)
        g = s.game
        assert g.step == "declare_blockers"
        offered = g.decision.kind.value == "declare_blockers"
        assert offered == blockable, forest_of
        if offered:
            assert "block Rushwood Dryad with Grizzly Bears" in s.options()


def test_sea_monster_attacks_if_either_defending_player_controls_an_island() -> None:
    # 810.7b: a positive comparison about "defending player" is yes if it is for either one;
    # the teammate's Island doesn't count.
    for island_of, can in ((3, True), (2, True), (1, False)):
        players: list[object] = [["Sea Monster", "Grizzly Bears"], None, None, None]
        players[island_of] = ["Island"]
        s = giant(*players, step="beginning_of_combat")
        s.pass_priority(4)
        assert s.game.decision.kind.value == "declare_attackers"
        assert ("attack with Sea Monster" in s.options()) == can, island_of


# --- whole games -----------------------------------------------------------------------------

def test_random_two_headed_giant_games_keep_every_invariant() -> None:
    # Card counts, JSON round trips, every option applicable, shared life in step.
    for seed in range(3):
        rng = random.Random(seed)
        decks = [Deck.builtin(rng.choice(STARTER_DECKS)) for _ in range(4)]
        g = play_checked_game(decks, seed, variant="two_headed_giant", json_every=5,
                              try_all_options=0.05)
        assert g.is_over and (g.winner is None or len(winners(g)) == 2)


# --- "an opponent" is a player of the other team ---------------------------------------------

def test_target_opponent_can_only_be_a_player_of_the_other_team() -> None:
    # 2012 102.3: in a team game a player's opponents are the players of the other team.
    s = giant({"hand": ["Cruel Edict"], "in_play": ["Swamp", "Swamp"]}, ["Grizzly Bears"],
              ["Hill Giant"], ["Craw Wurm"])
    s.do("play Cruel Edict")
    assert sorted(s.options()) == ["target player 2", "target player 3"]


def test_an_opponents_draw_triggers_and_a_teammates_does_not() -> None:
    # Underworld Dreams: "Whenever an opponent draws a card, Underworld Dreams deals 1 damage
    # to that player." Both players of the other team draw in their draw step: two triggers.
    s = giant(["Underworld Dreams"], None, None, None, step="upkeep", active_player=2)
    s.pass_priority(4)
    g = s.game
    assert g.step == "draw" and [x.label for x in g.stack] == ["Underworld Dreams"] * 2
    s.resolve_all()
    assert [P.life for P in g.players] == [30, 30, 28, 28]
    # The teammate's draw (Counsel of the Soratami: "Draw two cards.") triggers nothing.
    s = giant(["Underworld Dreams"], {"hand": ["Counsel of the Soratami"],
                                      "in_play": ["Island", "Island", "Island"]}, None, None)
    s.pass_priority()
    s.do("play Counsel of the Soratami")
    s.resolve()
    assert len(s.game.players[1].hand) == 2 and not s.game.stack
