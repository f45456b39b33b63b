"""Naming a card as a permanent comes into play (2012 614.12, mtg_env/engine/enter_choices.py:
``choose_as_enters`` with ``choice: name``) and the rule-modifying static that reads the name,
``chosen_name_abilities_cant_be_played`` (2007 CR 409.1: an ability that can't be played is not
offered; mana abilities, 2007 CR 411, are untouched). The name is part of the permanent
(``Permanent.chosen = {"name": ...}``): copied, JSON-serialised and checked on load."""

from __future__ import annotations

import pytest

from mtg_env import DecisionKind, Game
from mtg_env.engine.enter_choices import card_names, choice_options, valid_choice
from mtg_env.engine.errors import PositionError, StateError
from mtg_env.engine.layers import fresh
from mtg_env.engine.registry import all_cards
from mtg_env.testing import Scenario

K = DecisionKind
LIB = ["Island"] * 5


def _needled(name: str, p0: list | None = None, p1: list | None = None,
             active: int = 0) -> Scenario:
    return Scenario({"turn": 3, "step": "precombat_main", "active_player": active, "players": [
        {"library": LIB, "in_play": [{"card": "Pithing Needle", "chosen": {"name": name}},
                                     *(p0 or [])]},
        {"library": LIB, "in_play": list(p1 or [])}]})


def test_the_names_are_every_card_the_engine_knows_but_no_token() -> None:
    """A name is any card's name (the Pithing Needle rulings: "You can name any card, even if
    that card doesn't normally have an activated ability. You can't name a token")."""
    names = card_names()
    cards = all_cards()
    assert set(names) >= {n for n, c in cards.items() if not c.is_token}
    assert not [n for n in names if n in cards and cards[n].is_token]
    assert "Grizzly Bears" in names and "Soldier" not in names
    opts = choice_options("name")
    assert len(opts) == len(names) == len({a.text for a in opts})
    assert opts[names.index("Prodigal Pyromancer")].text == "name Prodigal Pyromancer"
    assert valid_choice("name", "Grizzly Bears")
    assert not valid_choice("name", "Soldier") and not valid_choice("name", "No Such Card")
    assert not valid_choice("name", 3)


def test_the_name_is_chosen_before_it_comes_into_play() -> None:
    """2012 614.12: the spell is still on the stack while its controller names a card; it then
    comes into play with the name."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"library": LIB, "hand": ["Pithing Needle"], "in_play": ["Plains"]}, {"library": LIB}]})
    s.do("play Pithing Needle")
    s.resolve()
    g = s.game
    assert g.decision.kind is K.CHOOSE_CARD_NAME and g.decision.player == 0
    assert len(g.decision.options) == len(card_names())
    assert g.stack and g.stack[-1].label == "Pithing Needle"
    assert not s.in_play("Pithing Needle")
    s.do("name Royal Assassin")
    assert s.perm("Pithing Needle").chosen == {"name": "Royal Assassin"}
    assert "player 0 chooses Royal Assassin for Pithing Needle" in g.log


def test_the_static_stops_non_mana_abilities_of_every_source_with_the_name() -> None:
    """The static applies to every source with the name, whoever controls it: both players'
    Prodigal Pyromancers lose their "{T}: deal 1 damage" option; another card's ability stays."""
    s = _needled("Prodigal Pyromancer", ["Prodigal Pyromancer", "Royal Assassin"],
                 ["Prodigal Pyromancer", {"card": "Grizzly Bears", "tapped": True}])
    opts = s.options()
    assert not any("Prodigal Pyromancer" in o for o in opts)
    assert "activate Royal Assassin" in opts
    s.game.apply("pass")
    assert not any("Prodigal Pyromancer" in o for o in s.options())


def test_mana_abilities_of_the_named_source_stay() -> None:
    """"... unless they're mana abilities" (the ruling: "If you name a card that has both a mana
    ability and another activated ability, the mana ability can be activated but the other
    ability can't"): Quicksand still taps for mana, its sacrifice ability is gone."""
    s2 = Scenario({"turn": 3, "step": "declare_blockers", "active_player": 1, "players": [
        {"library": LIB, "in_play": [{"card": "Pithing Needle", "chosen": {"name": "Quicksand"}},
                                     "Quicksand"]},
        {"library": LIB, "in_play": [{"card": "Grizzly Bears", "attacking": True}]}]})
    s2.game.apply("pass")
    opts = s2.options()
    assert any(o.startswith("tap Quicksand for") for o in opts)
    assert not any(o.startswith("activate Quicksand") for o in opts)
    # without the Needle, the sacrifice ability is offered in the same position
    s3 = Scenario({"turn": 3, "step": "declare_blockers", "active_player": 1, "players": [
        {"library": LIB, "in_play": ["Quicksand"]},
        {"library": LIB, "in_play": [{"card": "Grizzly Bears", "attacking": True}]}]})
    s3.game.apply("pass")
    assert any(o.startswith("activate Quicksand") for o in s3.options())


def test_the_abilities_come_back_when_the_needle_leaves_play() -> None:
    """A static ability stops applying when its permanent leaves play (the 2009 ruling: "Once
    Pithing Needle has left the battlefield, activated abilities of sources with the chosen name
    can be activated again")."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"library": LIB, "in_play": ["Prodigal Pyromancer", "Forest", "Forest",
                                    {"card": "Pithing Needle",
                                     "chosen": {"name": "Prodigal Pyromancer"}}],
         "hand": ["Naturalize"]},
        {"library": LIB}]})
    assert "activate Prodigal Pyromancer" not in s.options()
    s.do("play Naturalize", "target Pithing Needle")
    s.resolve()
    assert not s.in_play("Pithing Needle")
    assert "activate Prodigal Pyromancer" in s.options()


def test_two_needles_stop_two_names() -> None:
    """The static's names are collected from every source of it (a rule modification of the
    layer pass, game.rule_mods)."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"library": LIB, "in_play": [
            {"card": "Pithing Needle", "chosen": {"name": "Prodigal Pyromancer"}},
            {"card": "Pithing Needle", "chosen": {"name": "Royal Assassin"}},
            "Prodigal Pyromancer", "Royal Assassin"]},
        {"library": LIB, "in_play": [{"card": "Grizzly Bears", "tapped": True}]}]})
    assert s.options() == ["pass"]
    fresh(s.game)
    assert s.game.rule_mods["chosen_name_abilities_cant_be_played"] == {
        "Prodigal Pyromancer", "Royal Assassin"}


def test_the_name_survives_copy_and_json_and_is_checked_on_load() -> None:
    """The chosen name is state: copy() and a JSON round trip keep it (and its effect); a name
    that is no card's, or a token's, fails the load check (engine/loaded_state_checkers.py)."""
    s = _needled("Prodigal Pyromancer", ["Prodigal Pyromancer"])
    g = s.game
    for h in (g.copy(), Game.from_json(g.to_json())):
        needle = next(p for p in h.permanents if p.card.name == "Pithing Needle")
        assert needle.chosen == {"name": "Prodigal Pyromancer"}
        assert "activate Prodigal Pyromancer" not in [a.text for a in h.decision.options]
    text = g.to_json()
    assert '{"name":"Prodigal Pyromancer"}' in text
    for bad in ("No Such Card", "Soldier"):
        with pytest.raises(StateError):
            Game.from_json(text.replace('{"name":"Prodigal Pyromancer"}', f'{{"name":"{bad}"}}'))


def test_a_position_checks_the_name() -> None:
    with pytest.raises(PositionError, match="not a valid choice"):
        _needled("No Such Card")


def test_the_choice_waits_as_plain_data() -> None:
    """While the name is being chosen, copy() and to_json() continue the same way."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"library": LIB, "hand": ["Pithing Needle"], "in_play": ["Plains"]}, {"library": LIB}]})
    s.do("play Pithing Needle")
    s.resolve()
    g = s.game
    games = [g, g.copy(), Game.from_json(g.to_json())]
    for x in games:
        x.apply("name Grizzly Bears")
    assert games[0].to_json() == games[1].to_json() == games[2].to_json()
