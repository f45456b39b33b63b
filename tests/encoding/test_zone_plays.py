"""Playing a land card from a graveyard (Crucible of Worlds, 2007 CR 212.6): the option maps to the
card's row of the deciding player's own graveyard band, and the mask stays exact."""

from __future__ import annotations

from mtg_env.encoding import Observer
from mtg_env.testing import Scenario

from .helpers import check_decision


def test_play_a_land_from_the_graveyard_uses_its_graveyard_row() -> None:
    s = Scenario({"turn": 3, "step": "precombat_main",
                  "players": [{"in_play": ["Crucible of Worlds"], "hand": ["Mountain"],
                               "graveyard": ["Shock", "Forest"], "library": ["Plains"] * 3},
                              {"graveyard": ["Island"], "library": ["Plains"] * 3}]})
    obs = Observer()
    legal = check_decision(obs, s.game)
    texts = {a.text: i for i, a in legal.items()}
    lay = obs.act_layout
    forest = s.game.players[0].graveyard[1]
    assert texts[f"play {forest.label} from graveyard"] == lay.offset["graveyard"] + 1
    assert texts["play Mountain"] == lay.offset["hand"] + 0
    assert not any("Island" in t for t in texts)  # the opponent's graveyard: not playable
    # Seen from player 1's side the same state gives player 1 nothing to do here.
    s.do(f"play {forest.label} from graveyard")
    legal = check_decision(obs, s.game)
    assert not any(a.verb == "play" and "from graveyard" in a.text for a in legal.values())


def test_up_to_n_targets_offer_done_in_the_decline_band() -> None:
    """Cephalid Constable's "up to that many target permanents": a TARGET decision with "done"
    (index 0, the decline band) besides the permanents' rows; the mask stays exact."""
    s = Scenario({"turn": 3, "step": "declare_blockers",
                  "players": [{"in_play": [{"card": "Cephalid Constable", "attacking": True}],
                               "library": ["Plains"] * 3},
                              {"in_play": ["Hill Giant", "Island"], "library": ["Plains"] * 3}]})
    s.advance_to("combat_damage")
    s.resolve()
    obs = Observer()
    legal = check_decision(obs, s.game)
    texts = {a.text: i for i, a in legal.items()}
    assert texts["done"] == obs.act_layout.offset["decline"]
    assert {"target Hill Giant", "target Island"} <= set(texts)
