"""The Emperor variant: two teams of three, each an emperor between two generals (2012 809).

Seats 0, 1, 2 are one team (emperor 1), seats 3, 4, 5 the other (emperor 4); the table is round,
so general 2 sits beside general 3 and general 5 beside general 0. Rules: 809.1-809.2 (teams,
the emperor in the middle), 809.3a (range of influence 2 for emperors, 1 for generals; 801),
809.3b and 804.2 (deploy creatures: "{T}: Target teammate gains control of this creature.
Activate this ability only any time you could cast a sorcery."), 809.3c (a player can attack
only an opponent seated next to them), 809.4 (a random emperor goes first), 809.5 (a team wins
if its emperor wins, loses if its emperor loses).
"""

from __future__ import annotations

import random

import pytest

from mtg_env import Game, MtgError
from mtg_env.engine.deck import STARTER_DECKS, Deck
from mtg_env.engine.seating import opponents, teammates, teams, winners
from mtg_env.testing import Scenario, play_checked_game, table_position

SIX = ["starter_green", "starter_red", "starter_white", "starter_blue_black", "starter_green",
       "starter_red"]


def emperor(*players: object, **top: object) -> Scenario:
    seats = list(players) + [None] * (6 - len(players))
    return Scenario(table_position(*seats, library=["Island"] * 5,  # type: ignore[arg-type]
                                   variant="emperor", **top))


def test_two_teams_of_three_with_their_ranges() -> None:
    g = Game.new(SIX, variant="emperor", seed=2)
    assert teams(g) == ((0, 1, 2), (3, 4, 5))
    assert teammates(g, 1) == (0, 2) and opponents(g, 2) == (3, 4, 5)
    assert g.ranges == (1, 2, 1, 1, 2, 1) and g.attack_option == "multiple"
    assert g.influence[1] == (0, 1, 2, 3, 5)  # the emperor reaches both opposing generals
    assert g.starting_player in (1, 4)  # 809.4: an emperor goes first
    with pytest.raises(MtgError, match="six decks"):
        Game.new(SIX[:4], variant="emperor")
    with pytest.raises(MtgError, match="Emperor fixes"):
        Game.new(SIX, variant="emperor", options={"range": 1})


def test_a_player_attacks_only_an_opponent_seated_next_to_them() -> None:
    # 809.3c: general 2 may attack general 3 only; the emperor can't attack at all.
    s = emperor(None, None, ["Grizzly Bears"], active_player=2, step="beginning_of_combat")
    s.pass_priority(6)
    assert s.options() == ["attack player 3 with Grizzly Bears", "done"]
    s = emperor(None, ["Grizzly Bears"], active_player=1, step="beginning_of_combat")
    s.pass_priority(6)
    assert s.game.step == "declare_attackers" and s.game.decision.kind.value == "priority"


def test_deploy_gives_a_creature_to_a_teammate_at_sorcery_speed() -> None:
    # 804.2: "{T}: Target teammate gains control of this creature."
    s = emperor(None, ["Grizzly Bears"], active_player=1)
    assert "activate Grizzly Bears" in s.options()
    s.do("activate Grizzly Bears")
    assert sorted(s.options()) == ["target player 0", "target player 2"]
    s.do("target player 2")
    s.resolve()
    bears = s.perm("Grizzly Bears")
    assert bears.controller == 2 and bears.tapped


def test_deploy_is_not_offered_out_of_turn_or_to_an_opponent() -> None:
    s = emperor(["Grizzly Bears"], None, None, ["Hill Giant"], active_player=3)
    assert "activate Hill Giant" in s.options()  # player 3's own creature, in their turn
    s.pass_priority(3)  # in another player's turn it waits (804.2: sorcery speed)
    assert s.game.decision.player == 0
    assert "activate Grizzly Bears" not in s.options()


def test_a_general_who_loses_leaves_and_the_team_plays_on() -> None:
    # 809.5: only the emperor's loss ends a team's game.
    s = emperor({"hand": ["Shock"], "in_play": ["Mountain"]}, None, None, None, None,
                {"life": 2})
    s.do("play Shock", "target player 5")
    s.resolve()
    g = s.game
    assert not g.is_over and g.players[5].lost and not g.players[3].lost


def test_the_team_whose_emperor_loses_loses_the_game() -> None:
    # 809.5a-b: the emperor of team 1 loses: the whole team loses, team 0 wins.
    # Nobody reaches an emperor while both of its generals sit between: general 3 leaves first,
    # and emperor 1 (range 2) reaches emperor 4 from the next turn on (801.2c).
    s = emperor(None, {"hand": ["Shock"], "in_play": ["Mountain"]}, None, None, {"life": 2},
                active_player=0, step="end_of_turn")
    g = s.game
    assert 4 not in g.influence[1]
    g.concede(3)
    s.advance_to("precombat_main", active=1)
    assert 4 in g.influence[1]
    s.do("play Shock", "target player 4")
    s.resolve()
    assert g.is_over and winners(g) == (0, 1, 2)


def test_random_emperor_games_keep_every_invariant() -> None:
    for seed in range(2):
        rng = random.Random(seed)
        decks = [Deck.builtin(rng.choice(STARTER_DECKS)) for _ in range(6)]
        g = play_checked_game(decks, seed, variant="emperor", json_every=7,
                              try_all_options=0.03, max_turns=40)
        assert g.is_over
