"""Engine scenario tests of intervening-if triggers (2007 CR 410.11), the draw-step event, the
turn history (zone changes from play and damage dealt this turn, how a permanent came into
play), win/lose-the-game effects (2007 CR 102) and an effect that lasts as long as a condition
holds (2012 611.2b).
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

from mtg_env import Game
from mtg_env.cards.loader import DATA_DIR, load_facts, load_file
from mtg_env.engine.errors import CardDataError
from mtg_env.testing import Scenario, step_of

FACTS = load_facts()["cards"]
CARDS: dict = yaml.safe_load((DATA_DIR / "intervening_if_and_conditions.yaml").read_text())
LIB = ["Forest"] * 6


def fails(tmp_path: Path, name: str, change, *fragments: str) -> None:
    entry = copy.deepcopy(CARDS[name])
    change(entry)
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump({name: entry}))
    with pytest.raises(CardDataError) as exc:
        load_file(path, FACTS)
    for f in fragments:
        assert f in str(exc.value), f"{f!r} not in {exc.value}"


# -- 2007 CR 410.11: the condition on resolution --------------------------------------------------
def test_condition_false_on_resolution_the_ability_does_nothing() -> None:
    """2007 CR 410.11: an intervening "if" is checked again as the ability resolves; false, the
    ability does nothing. Mortal Combat triggers with 20 creature cards; one leaves the
    graveyard before it resolves: no win."""
    s = step_of("upkeep", 0, {"in_play": ["Mortal Combat"], "graveyard": ["Grizzly Bears"] * 20,
                              "library": LIB}, {"library": LIB})
    assert [x.kind for x in s.game.stack] == ["triggered"]
    g = s.game
    g.players[0].graveyard.pop()  # as an effect removing a card would
    s.resolve()
    assert not g.is_over
    assert any("does nothing: its condition is false" in line for line in g.log)


def test_condition_true_only_on_resolution_does_not_trigger() -> None:
    """2007 CR 410.11: the ability triggers only if the condition is true when the event
    happens: 19 creature cards at the beginning of upkeep, no trigger even if a 20th arrives."""
    s = step_of("upkeep", 0, {"in_play": ["Mortal Combat"], "graveyard": ["Grizzly Bears"] * 19,
                              "library": LIB}, {"library": LIB})
    assert not s.game.stack


# -- the draw-step event ------------------------------------------------------------------------
def test_draw_step_event_follows_the_draw_and_happens_on_turn_one() -> None:
    """2007 CR 304.1 / 410.5: "at the beginning of the draw step" triggers after the turn's draw
    (a turn-based action); the starting player's skipped first draw still has a draw step."""
    s = Scenario({"turn": 1, "step": "upkeep",
                  "players": [{"in_play": ["Howling Mine"], "library": LIB}, {"library": LIB}]})
    s.pass_priority(2)
    g = s.game
    assert g.step == "draw" and len(g.stack) == 1 and len(g.players[0].hand) == 0
    s.resolve()
    assert len(g.players[0].hand) == 1


# -- turn history -------------------------------------------------------------------------------
def test_history_is_declared_state_copied_and_serialised() -> None:
    """The turn history lives in the declared game state: a copy is independent and a JSON
    round trip keeps it."""
    s = Scenario({"turn": 3, "step": "precombat_main",
                  "players": [{"in_play": ["Sengir Vampire", "Mountain"], "hand": ["Shock"]},
                              {"in_play": ["Grizzly Bears"]}]})
    s.do("play Shock", "target Grizzly Bears")
    s.resolve()
    g = s.game
    assert len(g.died_this_turn) == 1
    c = g.copy()
    g.died_this_turn = []
    assert len(c.died_this_turn) == 1
    back = Game.from_json(c.to_json())
    assert back.died_this_turn == c.died_this_turn
    assert back.damaged_this_turn == c.damaged_this_turn == []  # Shock's source is a spell


def test_history_records_damage_by_a_permanent_and_resets_each_turn() -> None:
    """Damage dealt by a permanent to a permanent is recorded for the turn ("dealt damage by
    Sengir Vampire this turn") and forgotten in the next untap step."""
    s = Scenario({"turn": 3, "step": "precombat_main",
                  "players": [{"in_play": ["Prodigal Pyromancer"], "library": LIB},
                              {"in_play": ["Wall of Swords"], "library": LIB}]})
    s.do("activate Prodigal Pyromancer", "target Wall of Swords")
    s.resolve()
    g = s.game
    pyro, wall = s.perm("Prodigal Pyromancer").id, s.perm("Wall of Swords").id
    assert g.damaged_this_turn == [[pyro, wall]]
    s.advance_to("upkeep", active=1)
    assert g.damaged_this_turn == []


# -- 2007 CR 102: winning and losing -----------------------------------------------------------
def test_lose_game_ends_the_game_at_once() -> None:
    """2007 CR 102.3: an effect saying a player loses ends the game immediately, even in the
    middle of a resolution (no state-based check needed)."""
    s = Scenario({"turn": 3, "step": "precombat_main",
                  "players": [{"hand": ["Phage the Untouchable"],
                               "in_play": ["Forest", "Elvish Piper"]}, {}]})
    s.do("activate Elvish Piper")
    s.resolve()
    s.do("put into play Phage the Untouchable")
    s.resolve()
    g = s.game
    assert g.is_over and g.winner == 1 and g.decision is None


# -- load-time checks -------------------------------------------------------------------------
def test_unknown_condition_is_rejected(tmp_path: Path) -> None:
    fails(tmp_path, "Mortal Combat",
          lambda e: e["triggered"][0].update({"if": {"creature_cards": 20}}),
          "unknown trigger condition", "creature_cards_in_graveyard_at_least")


def test_not_cast_from_hand_needs_an_etb_trigger(tmp_path: Path) -> None:
    fails(tmp_path, "Mortal Combat",
          lambda e: e["triggered"][0].update({"if": {"not_cast_from_hand": True}}),
          "only meaningful for an 'etb' trigger")


def test_hand_condition_needs_a_player_event(tmp_path: Path) -> None:
    fails(tmp_path, "Phage the Untouchable",
          lambda e: e["triggered"][0].update({"if": {"event_player_hand_at_most": 2}}),
          "has no player")


def test_damaged_by_self_needs_another_permanent(tmp_path: Path) -> None:
    fails(tmp_path, "Sengir Vampire",
          lambda e: e["triggered"][0]["filters"].update({"what": "self"}),
          "'damaged_by_self' needs")
