"""Hail of Arrows (damage divided among targets as it is played, 2007 CR
409.1d / 2012 601.2d) and Pithing Needle (a card named as it comes into play, 2012 614.12; a
rule-modifying static on activated abilities, 2007 CR 409.1). Each test quotes the printed text it
checks and cites the rule."""

from __future__ import annotations

from mtg_env import DecisionKind
from mtg_env.engine.registry import get_card
from mtg_env.testing import Scenario
from tests.agent_helpers import heuristic_choice

K = DecisionKind
LIB = ["Island"] * 5
HAIL = "Hail of Arrows deals X damage divided as you choose among any number of target attacking creatures."


def _combat(p0_in_play: list, p1: dict) -> Scenario:
    """Player 0 attacks; player 1 gets priority in the declare-blockers step."""
    s = Scenario({"turn": 3, "step": "declare_blockers", "players": [
        {"library": LIB, "in_play": p0_in_play}, {"library": LIB, **p1}]})
    s.pass_priority(1)
    assert s.game.decision.player == 1
    return s


# -- Hail of Arrows ---------------------------------------------------------------------------

def test_hail_of_arrows_divides_x_damage_among_attackers() -> None:
    """Hail of Arrows: "... deals X damage divided as you choose among any number of target
    attacking creatures." X = 5 among Grizzly Bears (2) and Hill Giant (3): both die (2012
    601.2d: the division is announced as it is played)."""
    s = _combat([{"card": "Grizzly Bears", "attacking": True},
                 {"card": "Hill Giant", "attacking": True}],
                {"hand": ["Hail of Arrows"], "in_play": ["Plains"] * 6})
    s.do("play Hail of Arrows", "X=5", "target Grizzly Bears", "target Hill Giant")
    assert s.game.decision.kind is K.DIVIDE
    s.do("assign 2 damage to Grizzly Bears")
    assert "Grizzly Bears (2 damage), Hill Giant (3 damage)" in s.game.log[-1]
    s.resolve()
    s.assert_in_play("Grizzly Bears", False)
    s.assert_in_play("Hill Giant", False)
    assert s.game.players[1].graveyard[-1].name == "Hail of Arrows"
    assert get_card("Hail of Arrows").text == HAIL


def test_hail_of_arrows_targets_only_attacking_creatures() -> None:
    """"target attacking creatures": a creature that isn't attacking (here a blocker, and an
    untapped creature at home) is not offered; an attacking creature of either player is."""
    s = _combat([{"card": "Grizzly Bears", "attacking": True, "id": "gb"}, "Craw Wurm"],
                {"hand": ["Hail of Arrows"],
                 "in_play": ["Plains"] * 3 + [{"card": "Hill Giant", "blocking": "gb"}]})
    s.do("play Hail of Arrows", "X=2")
    assert s.options() == ["target Grizzly Bears"]


def test_hail_of_arrows_each_target_gets_at_least_one() -> None:
    """"divided as you choose": every target is dealt at least 1 (2012 601.2d), so X = 3 among
    three attackers leaves no choice, and X = 1 allows a single target."""
    s = _combat([{"card": "Grizzly Bears", "attacking": True},
                 {"card": "Hill Giant", "attacking": True},
                 {"card": "Craw Wurm", "attacking": True}],
                {"hand": ["Hail of Arrows"], "in_play": ["Plains"] * 4})
    s.do("play Hail of Arrows", "X=3", "target Grizzly Bears", "target Hill Giant",
         "target Craw Wurm")
    assert s.game.decision.kind is K.PRIORITY
    assert [e[2] for e in s.game.stack[-1].data.divided] == [1, 1, 1]


def test_heuristic_casts_hail_of_arrows_to_kill_attackers() -> None:
    """The heuristic player, defending against Grizzly Bears and Hill Giant with five Plains,
    plays Hail of Arrows with X = 5 and divides it 2 / 3 (or 3 / 2) to kill both."""
    s = _combat([{"card": "Grizzly Bears", "attacking": True},
                 {"card": "Hill Giant", "attacking": True}],
                {"hand": ["Hail of Arrows"], "in_play": ["Plains"] * 6})
    assert heuristic_choice(s) == "play Hail of Arrows"
    s.do("play Hail of Arrows")
    assert heuristic_choice(s) == "X=5"
    s.do("X=5")
    for _ in range(4):
        if s.game.decision.kind is K.PRIORITY:
            break
        s.do(heuristic_choice(s))
    s.resolve()
    s.assert_in_play("Grizzly Bears", False)
    s.assert_in_play("Hill Giant", False)


# -- Pithing Needle ---------------------------------------------------------------------------

NEEDLE = ("As Pithing Needle comes into play, name a card.\nActivated abilities of sources with "
          "the chosen name can't be played unless they're mana abilities.")


def test_pithing_needle_names_a_card_and_stops_its_abilities() -> None:
    """Pithing Needle: "As Pithing Needle comes into play, name a card. Activated abilities of
    sources with the chosen name can't be played unless they're mana abilities." Named as it
    comes into play (2012 614.12), the opponent's Prodigal Pyromancer can no longer be
    activated (2007 CR 409.1)."""
    assert get_card("Pithing Needle").text == NEEDLE
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"library": LIB, "hand": ["Pithing Needle"], "in_play": ["Plains"]},
        {"library": LIB, "in_play": ["Prodigal Pyromancer"]}]})
    s.do("play Pithing Needle")
    s.pass_priority(1)
    assert "activate Prodigal Pyromancer" in s.options()  # still on the stack: not yet
    s.do("pass")
    assert s.game.decision.kind is K.CHOOSE_CARD_NAME
    s.do("name Prodigal Pyromancer")
    s.pass_priority(1)
    assert s.game.decision.player == 1
    assert "activate Prodigal Pyromancer" not in s.options()


def test_pithing_needle_leaves_mana_abilities_alone() -> None:
    """"... unless they're mana abilities": naming Llanowar Elves doesn't stop its mana."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"library": LIB, "in_play": [{"card": "Pithing Needle",
                                      "chosen": {"name": "Llanowar Elves"}}, "Llanowar Elves"]},
        {"library": LIB}]})
    assert "tap Llanowar Elves for G" in s.options()


def test_pithing_needle_only_stops_the_chosen_name() -> None:
    """"sources with the chosen name": Royal Assassin, not named, is still activated."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"library": LIB, "in_play": [{"card": "Pithing Needle",
                                      "chosen": {"name": "Prodigal Pyromancer"}},
                                     "Royal Assassin", "Prodigal Pyromancer"]},
        {"library": LIB, "in_play": [{"card": "Grizzly Bears", "tapped": True}]}]})
    assert "activate Royal Assassin" in s.options()
    assert "activate Prodigal Pyromancer" not in s.options()


def test_pithing_needle_does_not_stop_triggered_abilities() -> None:
    """Only activated abilities: naming Venerable Monk (a comes-into-play trigger) doesn't stop
    its trigger (the ruling: "Triggered abilities and static abilities of the named card work
    normally")."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"library": LIB, "hand": ["Venerable Monk"], "in_play": [
            {"card": "Pithing Needle", "chosen": {"name": "Venerable Monk"}}, "Plains", "Plains",
            "Plains"]},
        {"library": LIB}]})
    s.do("play Venerable Monk")
    s.resolve()  # the Monk
    s.resolve()  # its trigger
    s.assert_life(0, 22)


def test_heuristic_names_the_opponents_best_activated_ability() -> None:
    """The heuristic player names the opponent's card with the most valuable non-mana activated
    ability it has seen: Prodigal Pyromancer (damage), not Llanowar Elves (mana only) nor its
    own Royal Assassin."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"library": LIB, "hand": ["Pithing Needle"], "in_play": ["Plains", "Royal Assassin"]},
        {"library": LIB, "in_play": ["Llanowar Elves", "Prodigal Pyromancer"],
         "graveyard": ["Grizzly Bears"]}]})
    s.do("play Pithing Needle")
    s.resolve()
    assert heuristic_choice(s) == "name Prodigal Pyromancer"
