"""Triggered abilities that work from a graveyard (2012 112.6: an ability of an object outside
play works only if the ability says so; 2012 603.3a: its controller is the card's owner).

The game watches only the cards that have such an ability (``Game.zone_watch``, derived from its
cards), so an event never scans every graveyard card.
"""

from __future__ import annotations

from mtg_env.engine.game import Game
from mtg_env.testing import Scenario


def test_a_game_without_such_cards_watches_nothing() -> None:
    """No card with a graveyard ability: the watch list is empty (events cost nothing more)."""
    g = Game.new([["Forest"] * 40, ["Mountain"] * 40], seed=1)
    assert g.zone_watch == {}


def test_the_watch_list_names_the_cards_per_event() -> None:
    """Each card with an ability working from a graveyard is watched for its event only."""
    s = Scenario({"turn": 3, "step": "precombat_main",
                  "players": [{"graveyard": ["Squee, Goblin Nabob", "Grizzly Bears"],
                               "hand": ["Guerrilla Tactics"]}, {}]})
    g = s.game
    squee = g.players[0].graveyard[0].cid
    tactics = g.players[0].hand[0].cid
    assert g.zone_watch == {"upkeep": (squee,), "discard": (tactics,)}
    assert Game.from_json(g.to_json()).zone_watch == g.zone_watch


def test_a_graveyard_ability_does_not_trigger_from_play() -> None:
    """A permanent never has the abilities its card has only in a graveyard (2012 112.6)."""
    s = Scenario({"turn": 3, "step": "precombat_main",
                  "players": [{"in_play": ["Squee, Goblin Nabob"]}, {}]})
    p = s.perm("Squee, Goblin Nabob")
    assert p.triggered == () and len(p.cdef.zone_triggered) == 1
