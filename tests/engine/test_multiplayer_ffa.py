"""Multiplayer Free-for-All in the engine: seating, priority round the table, mulligans, the attack
options (left, right, multiple players), leaving the game and the end of a multiplayer game.

Rules: 2007 CR 101.4 (mulligans, starting player first), 408 and 413.1 (priority passes in turn
order; all players pass in succession); 2012 800.1 (a multiplayer game has more than two players),
800.4 (a player who loses leaves the game; it goes on), 800.5 (the first mulligan is free), 800.6
(the starting player draws), 800.7 (a player who wins: every opponent loses), 802 (attack
multiple players), 803.1 (attack left, attack right), 806 (Free-for-All), 104.4a (all remaining players lose at once: a draw).
"""

from __future__ import annotations

import random

import pytest

from mtg_env import Game, MtgError, StateError
from mtg_env.engine.seating import apnap_order, next_in_turn_order, opponents
from mtg_env.testing import Scenario, pass_until, play_random_game, table_position

FOUR = ["starter_green", "starter_red", "starter_white", "starter_blue_black"]


def labels(g: Game, pl: int, zone: str) -> list[str]:
    return [c.cdef.name for c in getattr(g.players[pl], zone)]


def test_new_multiplayer_game_defaults_to_free_for_all_attack_left() -> None:
    # 2012 806.2b: exactly one of the attack options is used; the engine's default is left.
    g = Game.new(FOUR, seed=3)
    assert len(g.players) == 4
    assert (g.variant, g.attack_option) == ("free_for_all", "left")
    assert all(len(P.hand) == 7 for P in g.players)
    assert g.decision is not None and g.decision.player == g.starting_player
    assert "die roll" in g.log[0]


def test_mulligans_go_round_the_table_and_the_first_is_free() -> None:
    # 2007 CR 101.4: starting player first, each in turn order; 2012 800.5: in a multiplayer
    # game the first mulligan draws seven cards again, the second six.
    g = Game.new(FOUR, seed=3, starting_player=2)
    order = []
    g.apply("mulligan")
    assert len(g.players[2].hand) == 7
    assert "mulligan to 6" in g.decision.prompt
    g.apply("mulligan")
    assert len(g.players[2].hand) == 6
    while g.decision.kind.value == "mulligan":
        order.append(g.decision.player)
        g.apply("keep")
    assert order == [2, 3, 0, 1]
    assert "the game begins" in g.log


def test_the_starting_player_draws_on_the_first_turn() -> None:
    # 2012 800.6: other than Two-Headed Giant, the starting player doesn't skip the draw.
    g = Game.new(FOUR, seed=5, starting_player=1)
    while g.decision.kind.value == "mulligan":
        g.apply("keep")
    pass_until_step(g, "precombat_main")
    assert len(g.players[1].hand) == 8
    assert not any("skips the first draw" in line for line in g.log)


def pass_until_step(g: Game, step: str) -> None:
    for _ in range(200):
        if g.step == step and g.decision is not None and g.decision.kind.value == "priority":
            return
        g.apply("pass" if "pass" in [a.text for a in g.legal_actions()] else g.legal_actions()[0])
    raise AssertionError(f"never reached {step}")


def shock_table(**top: object) -> Scenario:
    return Scenario(table_position(
        {"hand": ["Shock"], "in_play": ["Mountain"]}, ["Grizzly Bears"], ["Hill Giant"],
        ["Forest"], library=["Island"] * 5, **top))


def test_a_spell_resolves_only_when_every_player_has_passed_in_succession() -> None:
    # 2007 CR 413.1 (2012 116.4): all players pass in succession; priority goes round in
    # turn order (408).
    s = shock_table()
    s.do("play Shock", "target player 3")
    seen = []
    for _ in range(3):
        seen.append(s.game.decision.player)
        assert s.game.stack, "resolved before every player passed"
        s.do("pass")
    seen.append(s.game.decision.player)
    s.do("pass")
    assert seen == [0, 1, 2, 3]
    assert not s.game.stack
    s.assert_life(3, 18)


def test_attack_left_attacks_the_next_player_and_only_they_block() -> None:
    # 2012 803.1a: attack left, the opponent seated immediately to the left (next in turn order).
    s = Scenario(table_position(["Hill Giant"], ["Grizzly Bears"], ["Grizzly Bears"],
                                step="beginning_of_combat", library=["Island"] * 5))
    assert s.game.defender == 1  # chosen as combat began (2012 506.2a)
    pass_until(s, lambda g: g.decision.kind.value == "declare_attackers")
    assert s.game.defender == 1
    s.do("attack with Hill Giant")
    assert any("player 0 attacks player 1 with Hill Giant" in line for line in s.game.log)
    pass_until(s, lambda g: g.decision is not None and g.decision.kind.value == "declare_blockers")
    assert s.game.decision.player == 1
    s.do("done")
    pass_until(s, lambda g: g.step == "combat_damage" and not g.stack)
    s.assert_life(1, 17)
    s.assert_life(2, 20)


def test_attack_right_attacks_the_previous_player() -> None:
    # 2012 803.1b: attack right, the opponent seated immediately to the right.
    s = Scenario(table_position(["Hill Giant"], [], [], ["Grizzly Bears"], attack="right",
                                step="beginning_of_combat", library=["Island"] * 5))
    assert s.game.defender == 3
    pass_until(s, lambda g: g.decision.kind.value == "declare_attackers")
    s.do("attack with Hill Giant")
    pass_until(s, lambda g: g.decision is not None and g.decision.kind.value == "declare_blockers")
    assert s.game.decision.player == 3


def test_a_player_who_loses_leaves_and_the_game_goes_on() -> None:
    # 2012 800.4a: all objects owned by that player leave the game; effects giving them control
    # end; what they still control is exiled (removed from the game).
    s = Scenario(table_position(
        {"hand": ["Shock"], "in_play": ["Mountain", {"card": "Grizzly Bears", "id": "bears0"}]},
        {"life": 2, "hand": ["Giant Growth"], "graveyard": ["Forest"],
         "in_play": [{"card": "Persuasion", "attached_to": "bears0"}, "Hill Giant"]},
        ["Forest"], library=["Island"] * 5))
    g = s.game
    # player 0's Grizzly Bears is controlled by player 1 through Persuasion
    assert s.perm("Grizzly Bears").controller == 1
    s.do("play Shock", "target player 1")
    for _ in range(3):
        s.do("pass")
    P1 = g.players[1]
    assert P1.lost and not g.is_over
    assert P1.hand == P1.library == P1.graveyard == P1.removed == []
    assert not any(p.owner == 1 for p in g.perms.values())
    assert not any(c.owner == 1 for c in g.cards.values())
    assert s.perm("Grizzly Bears").controller == 0  # the control change ended with Persuasion
    assert any("player 1 loses (life) and leaves the game" in line for line in g.log)
    assert opponents(g, 0) == (2,)
    assert next_in_turn_order(g, 0) == 2
    assert apnap_order(g) == (0, 2)


def test_what_a_departed_player_still_controls_is_removed_from_the_game() -> None:
    # 2012 800.4a: objects still controlled by the player who left are exiled (2007: removed
    # from the game), into their owner's zone.
    s = Scenario(table_position(
        {"hand": ["Shock"], "in_play": ["Mountain", {"card": "Hill Giant", "controller": 1}]},
        {"life": 2}, [], library=["Island"] * 5))
    s.do("play Shock", "target player 1")
    for _ in range(3):
        s.do("pass")
    assert not s.in_play("Hill Giant")
    assert labels(s.game, 0, "removed") == ["Hill Giant"]


def test_a_departed_player_is_no_longer_a_target_and_takes_no_turn() -> None:
    # 2012 800.4a: the player has left; turn order skips them.
    s = Scenario(table_position(
        {"hand": ["Shock", "Shock"], "in_play": ["Mountain", "Mountain"]}, {"life": 1}, [],
        library=["Island"] * 9))
    s.do("play Shock", "target player 1")
    for _ in range(3):
        s.do("pass")
    s.do("play Shock#2")
    assert "target player 1" not in s.options()
    assert {"target player 0", "target player 2"} <= set(s.options())
    s.do("target player 2", "pass", "pass")
    pass_until(s, lambda g: g.turn == 4 and g.step == "upkeep")
    assert s.game.active == 2


def test_the_last_player_standing_wins_and_a_concession_leaves_the_game() -> None:
    # 2012 800.4: the game goes on after a player leaves, until one player remains.
    g = Game.new(["starter_green", "starter_red", "starter_white"], seed=1)
    g.concede(1)
    assert g.players[1].lost and not g.is_over
    assert g.decision is not None and g.decision.player != 1
    g.concede(2)
    assert g.is_over and g.winner == 0
    assert g.end_reason == "concession"


def test_all_remaining_players_losing_at_once_is_a_draw() -> None:
    # 2012 104.4a: if all the players remaining in a game lose simultaneously, it's a draw.
    # Hurricane: "Hurricane deals X damage to each creature with flying and each player."
    s = Scenario(table_position(
        {"life": 1, "hand": ["Hurricane"], "in_play": ["Forest", "Forest"]},
        {"life": 1}, {"life": 1}, {"life": 5}, library=["Island"] * 5))
    s.do("play Hurricane", "X=1")
    pass_until(s, lambda g: g.is_over or not g.stack)
    # the three at 1 life lose together; the fourth is the last player standing
    assert s.game.is_over and s.game.winner == 3


def test_the_last_players_losing_together_draw() -> None:
    # 2012 104.4a: the game is a draw when every player still in it loses at the same time.
    s = Scenario(table_position(
        {"life": 1, "hand": ["Hurricane"], "in_play": ["Forest", "Forest"]},
        {"life": 1}, {"life": 1}, library=["Island"] * 5))
    s.do("play Hurricane", "X=1")
    pass_until(s, lambda g: g.is_over or not g.stack)
    assert s.game.is_over and s.game.winner is None


def test_a_player_who_wins_makes_every_opponent_lose() -> None:
    # 2012 800.7: "wins the game": all of that player's opponents lose instead (Mortal Combat:
    # "At the beginning of your upkeep, if twenty or more creature cards are in your
    # graveyard, you win the game.").
    s = Scenario(table_position(
        {"in_play": ["Mortal Combat"], "graveyard": ["Grizzly Bears"] * 20}, [], [],
        turn=3, active_player=2, library=["Island"] * 5))
    pass_until(s, lambda g: g.is_over or (g.active == 0 and g.step == "precombat_main"))
    assert s.game.is_over and s.game.winner == 0


def test_every_card_reads_its_players_for_several_opponents() -> None:
    # No Tenth Edition card's data names "the opponent" as one player in an effect: a
    # multiplayer game refuses none of them.
    from mtg_env.engine.multiplayer_cards import not_multiplayer_ready
    from mtg_env.engine.registry import all_cards

    assert not_multiplayer_ready(all_cards().values()) == []


def test_card_data_that_reads_a_single_opponent_is_reported_by_name() -> None:
    # A card whose effect names "opponent" (one player) would be played wrong with several
    # opponents: reported by name, never played (the Hunted Wumpus data of before, who:
    # opponent, stands for any such card).
    from mtg_env.cards.loader import build_card, load_facts
    from mtg_env.engine.multiplayer_cards import not_multiplayer_ready

    old = build_card("Hunted Wumpus", load_facts()["cards"]["Hunted Wumpus"], {
        "text": load_facts()["cards"]["Hunted Wumpus"]["text"],
        "triggered": [{"event": "etb", "text": "each other player may put a creature card",
                       "effects": [{"op": "put_from_hand", "who": "opponent",
                                    "filter": {"type": "Creature"}, "optional": True}]}]})
    assert not_multiplayer_ready([old]) == ["Hunted Wumpus"]


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"decks": FOUR * 2}, "2 to 6 decks"),
    ({"decks": FOUR, "variant": "two_player"}, "two decks"),
    ({"decks": FOUR[:2], "variant": "free_for_all"}, "3 to 6 decks"),
    ({"decks": FOUR, "variant": "monarch"}, "unknown variant"),
    ({"decks": FOUR, "options": {"attack": "up"}}, "unknown attack option"),
    ({"decks": FOUR, "options": {"deploy": True}}, "unknown game option"),
    ({"decks": FOUR[:2], "options": {"attack": "left"}}, "multiplayer"),
    ({"decks": FOUR, "starting_player": 4}, "0 to 3"),
])
def test_bad_multiplayer_arguments_are_refused(kwargs: dict, message: str) -> None:
    with pytest.raises(MtgError, match=message):
        Game.new(**kwargs)


def test_positions_check_seats_and_the_attack_option() -> None:
    from mtg_env import PositionError
    with pytest.raises(PositionError, match="0 to 2"):
        Game.from_position(table_position([], [], [], active_player=3))
    with pytest.raises(PositionError, match="attack must be"):
        Game.from_position(table_position([], [], [], attack="up"))
    with pytest.raises(PositionError, match="multiplayer"):
        Game.from_position({"players": [{}, {}], "attack": "left"})


def test_json_round_trip_and_load_check_of_a_multiplayer_game() -> None:
    g = Game.new(FOUR, seed=11, max_turns=12)
    rng = random.Random(2)
    while not g.is_over and g.turn < 6:
        g.apply(rng.choice(g.legal_actions()))
    text = g.to_json()
    h = Game.from_json(text)
    assert h.to_json() == text and len(h.players) == 4
    bad = text.replace(f'"active":{g.active}', '"active":4')
    with pytest.raises(StateError, match="active"):
        Game.from_json(bad)


def test_views_list_every_opponent() -> None:
    g = Game.new(FOUR, seed=2)
    v = g.view(1)
    assert [p.index for p in v.opponents] == [2, 3, 0]
    assert v.players[1].hand is not None and v.players[2].hand is None
    with pytest.raises(MtgError, match="single opponent"):
        v.opponent  # noqa: B018
    with pytest.raises(ValueError, match="0 to 3"):
        g.view(4)


@pytest.mark.parametrize("seed", range(3))
def test_random_four_player_games_keep_the_invariants(seed: int) -> None:
    from mtg_env.engine.deck import Deck
    g = play_random_game([Deck.builtin(n) for n in FOUR], seed, max_turns=40, json_every=7)
    assert g.is_over


def test_the_observation_refuses_a_game_of_another_size_clearly() -> None:
    # An observer is built for one number of seats (the env's num_players): a game of another
    # size is a clear error, not a wrong array.
    from mtg_env.encoding import Observer
    g = Game.new(FOUR, seed=1)
    with pytest.raises(MtgError, match="encodes games of 2 players, not a game of 4"):
        Observer(flatten=True).observe(g, 0)


def multiple_table(*players: object, **top: object) -> Scenario:
    return Scenario(table_position(*players, attack="multiple", step="beginning_of_combat",
                                   library=["Island"] * 5, **top))


def test_attack_multiple_players_each_attacker_chooses_its_defending_player() -> None:
    # 2012 802.2-802.3: every opponent is a defending player; as each attacker is declared, its
    # controller chooses the player it attacks.
    s = multiple_table(["Hill Giant", "Grizzly Bears"], [], [], [])
    pass_until(s, lambda g: g.decision.kind.value == "declare_attackers")
    opts = s.options()
    assert {f"attack player {o} with Hill Giant" for o in (1, 2, 3)} <= set(opts)
    s.do("attack player 3 with Hill Giant", "attack player 1 with Grizzly Bears")
    log = "\n".join(s.game.log)
    assert "player 0 attacks player 1 with Grizzly Bears (2/2)" in log
    assert "player 0 attacks player 3 with Hill Giant (3/3)" in log
    pass_until(s, lambda g: g.step == "end_of_combat")
    s.assert_life(1, 18)
    s.assert_life(3, 17)
    s.assert_life(2, 20)


def test_attack_multiple_each_defender_blocks_only_their_attackers_in_apnap_order() -> None:
    # 2012 802.4: each defending player in APNAP order declares blockers; 802.4a: their
    # creatures can block only creatures attacking them.
    s = multiple_table(["Hill Giant", "Grizzly Bears"], [], ["Grizzly Bears"], ["Grizzly Bears"],
                       active_player=0)
    pass_until(s, lambda g: g.decision.kind.value == "declare_attackers")
    s.do("attack player 3 with Hill Giant", "attack player 2 with Grizzly Bears")
    pass_until(s, lambda g: g.decision.kind.value == "declare_blockers")
    assert s.game.decision.player == 2
    assert s.options() == ["block Grizzly Bears with Grizzly Bears#2", "done"]
    s.do("done")
    assert s.game.decision.player == 3
    assert s.options() == ["block Hill Giant with Grizzly Bears#3", "done"]
    s.do("block Hill Giant with Grizzly Bears#3")
    pass_until(s, lambda g: g.step == "end_of_combat")
    s.assert_life(2, 18)
    s.assert_life(3, 20)
    assert not s.in_play("Grizzly Bears#3")


def test_windborn_muse_taxes_only_creatures_attacking_its_controller() -> None:
    # Windborn Muse: "Creatures can't attack you unless their controller pays {2} for each
    # creature he or she controls that's attacking you." (2012 802.3a: a restriction about
    # attacking a specific player applies only to creatures attacking that player.)
    s = multiple_table(["Hill Giant", "Grizzly Bears"], ["Windborn Muse"], [])
    pass_until(s, lambda g: g.decision.kind.value == "declare_attackers")
    opts = s.options()
    assert "attack player 2 with Hill Giant" in opts
    assert "attack player 1 with Hill Giant" not in opts  # no mana for the tax


def test_positions_name_the_attacked_player_under_attack_multiple() -> None:
    s = Scenario(table_position(
        [{"card": "Hill Giant", "id": "giant", "attacking": 2}],
        [], [{"card": "Grizzly Bears", "blocking": "giant"}],
        attack="multiple", step="declare_blockers", library=["Island"] * 5))
    assert s.game.attack_whom == ((s.perm("Hill Giant").id, 2),)
    from mtg_env import PositionError
    with pytest.raises(PositionError, match="the player it attacks"):
        Game.from_position(table_position([{"card": "Hill Giant", "attacking": True}], [], [],
                                          attack="multiple", step="declare_blockers"))
    with pytest.raises(PositionError, match="defending player"):
        Game.from_position(table_position(
            [{"card": "Hill Giant", "id": "giant", "attacking": 2}],
            [{"card": "Grizzly Bears", "blocking": "giant"}], [],
            attack="multiple", step="declare_blockers"))


@pytest.mark.parametrize("seed", range(2))
def test_random_attack_multiple_games_keep_the_invariants(seed: int) -> None:
    from mtg_env.engine.deck import Deck
    from mtg_env.testing import play_checked_game, random_chooser
    decks = [Deck.builtin(n) for n in FOUR]
    g = Game.new(decks, seed=seed, options={"attack": "multiple"}, max_turns=40)
    assert g.attack_option == "multiple"
    del g
    end = play_checked_game(decks, seed, random_chooser(), max_turns=40, json_every=5,
                            options={"attack": "multiple"})
    assert end.is_over and end.attack_option == "multiple"


@pytest.mark.parametrize(("attack", "can"), [("left", False), ("multiple", True)])
def test_sea_monster_reads_the_player_it_would_attack(attack: str, can: bool) -> None:
    # Sea Monster: "Sea Monster can't attack unless defending player controls an Island."
    # (2012 802.2a: the defending player is the one it would attack.) Only player 2, who is not
    # the player to the left, controls an Island.
    s = Scenario(table_position(["Sea Monster", "Grizzly Bears"], [], ["Island"], attack=attack,
                                step="beginning_of_combat", library=["Island"] * 5))
    pass_until(s, lambda g: g.decision.kind.value == "declare_attackers")
    opts = s.options()
    monster = [o for o in opts if o.endswith("with Sea Monster")]
    assert monster == (["attack player 2 with Sea Monster"] if can else [])
    assert any(o.endswith("with Grizzly Bears") for o in opts)
