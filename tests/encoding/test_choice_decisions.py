"""The action mask is exact on the decisions of the cards with choices: the color
chosen as Voice of All comes into play (``choose_color``, the ``color`` band) and Story Circle's
"source of your choice" among permanents and spells (``choose_cards``: the permanent and stack
bands)."""

from __future__ import annotations

from mtg_env import DecisionKind
from mtg_env.encoding import Observer
from mtg_env.testing import Scenario

from .helpers import check_decision

K = DecisionKind


def test_choose_color_mask_is_exact() -> None:
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"hand": ["Voice of All"], "in_play": ["Plains"] * 4}, {}]})
    s.do("play Voice of All")
    s.resolve()
    assert s.game.decision.kind is K.CHOOSE_COLOR
    legal = check_decision(Observer(), s.game)
    assert len(legal) == 5
    lay = Observer().act_layout
    assert {lay.locate(i)[0] for i in legal} == {"color"}


def test_story_circle_source_mask_is_exact() -> None:
    s = Scenario({"turn": 3, "step": "precombat_main", "active_player": 1, "players": [
        {"in_play": [{"card": "Story Circle", "chosen": {"color": "R"}}, "Plains"]},
        {"hand": ["Shock"], "in_play": ["Mountain", "Mountain", "Prodigal Pyromancer"]}]})
    s.do("play Shock", "target player 0", "pass", "activate Story Circle")
    s.resolve()
    assert s.game.decision.kind is K.CHOOSE_CARDS
    legal = check_decision(Observer(), s.game)
    lay = Observer().act_layout
    assert sorted(lay.locate(i)[0] for i in legal) == ["permanent", "stack"]


def test_abundance_choice_mask_is_exact() -> None:
    """Abundance's choice (``mode``: land, nonland; ``decline``: draw normally) and the order
    of the revealed cards (``choose_cards`` over the revealed rows)."""
    s = Scenario({"turn": 3, "step": "upkeep", "players": [
        {"in_play": ["Abundance"], "library": ["Forest", "Island", "Grizzly Bears"]}, {}]})
    s.pass_priority(2)
    assert s.game.decision.kind is K.MODE
    obs = Observer()
    legal = check_decision(obs, s.game)
    assert sorted(obs.act_layout.locate(i)[0] for i in legal) == ["decline", "mode", "mode"]
    s.do("Abundance: reveal until a nonland card")
    assert s.game.decision.kind is K.CHOOSE_CARDS
    legal = check_decision(obs, s.game)
    assert len(legal) == 2
