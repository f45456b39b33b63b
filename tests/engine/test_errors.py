"""Errors and action texts: IllegalActionError leaves the state unchanged; deck lists
(UnknownCardError with close matches, DeckError); Action text format and `Name#2` labels."""

from __future__ import annotations

import pytest

from mtg_env import (
    Action,
    DecisionKind,
    Deck,
    DeckError,
    Game,
    IllegalActionError,
    MtgError,
    UnimplementedCardError,
    UnknownCardError,
)
from mtg_env.testing import Scenario

POSITION = {"turn": 3, "step": "precombat_main", "players": [
    {"hand": ["Grizzly Bears", "Shock", "Forest"], "in_play": ["Forest", "Mountain", "Grizzly Bears"],
     "library": ["Hill Giant"]},
    {"in_play": ["Grizzly Bears"], "library": ["Hill Giant"]}]}


# -- IllegalActionError -------------------------------------------------------------------------
@pytest.mark.parametrize("bad", ["play Lava Axe", "attack with Grizzly Bears", "PASS", "pass ", "",
                                 "play Grizzly Bears#4", "tap Forest for R"])
def test_illegal_action_raises_and_leaves_the_state_unchanged(bad: str) -> None:
    """Anything but an option's exact text raises IllegalActionError, whose
    message lists what was legal; the game state is unchanged."""
    g = Scenario(POSITION).game
    before = g.to_json()
    with pytest.raises(IllegalActionError) as exc:
        g.apply(bad)
    msg = str(exc.value)
    for a in g.decision.options:
        assert repr(a.text) in msg
    assert g.to_json() == before
    g.apply("play Forest")  # still playable afterwards
    assert g.players[0].lands_played == 1


def test_illegal_action_mid_procedure_leaves_the_state_unchanged() -> None:
    """IllegalActionError during a multi-step procedure (choosing a target) changes nothing."""
    g = Scenario(POSITION).game
    g.apply("play Shock")
    assert g.decision.kind is DecisionKind.TARGET
    before = g.to_json()
    with pytest.raises(IllegalActionError):
        g.apply("target Forest")
    with pytest.raises(IllegalActionError):
        g.apply("pass")
    assert g.to_json() == before


def test_action_object_from_another_decision_is_rejected() -> None:
    """apply() accepts an Action from the pending options; an Action with the same text but
    different content is rejected."""
    g = Scenario(POSITION).game
    real = g.decision.find("play Shock")
    fake = Action("play", "play Shock", (999999,))
    before = g.to_json()
    with pytest.raises(IllegalActionError):
        g.apply(fake)
    assert g.to_json() == before
    g.apply(real)
    assert g.decision.kind is DecisionKind.TARGET


def test_illegal_action_error_is_an_mtg_error_and_value_error() -> None:
    """Error hierarchy: every engine error is an MtgError."""
    assert issubclass(IllegalActionError, MtgError) and issubclass(IllegalActionError, ValueError)
    assert issubclass(UnknownCardError, MtgError) and issubclass(DeckError, MtgError)


def test_legal_actions_equals_decision_options() -> None:
    """Public API: game.legal_actions() returns the pending decision's options."""
    g = Scenario(POSITION).game
    assert [a.text for a in g.legal_actions()] == [a.text for a in g.decision.options]
    assert g.decision.prompt


# -- action texts and labels -------------------------------------------------------------------
def test_action_texts_name_the_verb_and_objects() -> None:
    """Action texts such as `pass`, `play Forest`, `play Giant Growth`,
    `tap Forest for G`, `activate Prodigal Pyromancer`, `target Rushwood Dryad`,
    `attack with Grizzly Bears`, `done`, `block Craw Wurm with Grizzly Bears`,
    `assign 2 damage to Hill Giant`, `discard Shock`, `X=3`, `keep`, `mulligan`, `yes`/`no`."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"hand": ["Forest", "Giant Growth"], "in_play": ["Forest", "Prodigal Pyromancer", "Rushwood Dryad"],
         "library": ["Hill Giant"]},
        {"library": ["Hill Giant"]}]})
    assert s.options() == ["pass", "play Forest", "play Giant Growth", "tap Forest#2 for G",
                           "activate Prodigal Pyromancer"]
    s.do("play Giant Growth")
    assert "target Rushwood Dryad" in s.options()
    for a in s.game.decision.options:
        assert str(a) == a.text
    assert str(Action("x", "X=3", (3,))) == "X=3"


def test_labels_tell_same_named_objects_apart_and_are_stable() -> None:
    """Objects sharing a name are told apart by `Name#2`, stable for the
    life of the object (a label isn't reused when the first one leaves)."""
    s = Scenario({"turn": 3, "step": "beginning_of_combat", "players": [
        {"in_play": ["Grizzly Bears", "Grizzly Bears", "Grizzly Bears"], "library": ["Hill Giant"]},
        {"in_play": ["Mountain"], "hand": ["Shock"], "library": ["Hill Giant"]}]})
    s.pass_priority()
    s.do("play Shock", "target Grizzly Bears")
    s.resolve()
    s.assert_zone(0, "graveyard", "Grizzly Bears")
    s.pass_priority(2)
    assert s.options() == ["attack with Grizzly Bears#2", "attack with Grizzly Bears#3", "done"]
    labels = {p.id: p.label for p in s.game.permanents}
    s.do("attack with Grizzly Bears#3")
    assert {p.id: p.label for p in s.game.permanents} == labels


def test_option_texts_are_unique_within_a_decision() -> None:
    """An action's text is unique within its decision."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"hand": ["Shock", "Shock", "Forest", "Forest"], "in_play": ["Mountain", "Mountain", "Grizzly Bears"],
         "library": ["Hill Giant"]},
        {"in_play": ["Grizzly Bears"], "library": ["Hill Giant"]}]})
    texts = s.options()
    assert len(texts) == len(set(texts))
    assert texts == ["pass", "play Shock", "play Shock#2", "play Forest", "play Forest#2",
                     "tap Mountain for R", "tap Mountain#2 for R"]
    s.do("play Shock")
    texts = s.options()
    assert texts == ["target player 0", "target player 1", "target Grizzly Bears", "target Grizzly Bears#2"]


def test_decision_kind_values() -> None:
    """The decision kinds' names."""
    names = {k.value for k in DecisionKind}
    assert {"mulligan", "priority", "target", "mode", "x_value", "declare_attackers",
            "declare_blockers", "combat_damage", "order_triggers", "choose_cards", "yes_no",
            "choose_color", "choose_player"} <= names


# -- decks -------------------------------------------------------------------------------------
def test_deck_from_text_with_comments_blank_lines_and_sideboard() -> None:
    """Issue "Public API": `N Card Name` per line, blank lines and `#` comments allowed, an
    optional Sideboard section ignored for play."""
    d = Deck.from_text("# my deck\n20 Forest\n\n4 Grizzly Bears  # bears\n16 Mountain\n"
                       "Sideboard\n4 Shock\n")
    assert len(d) == 40
    assert d.entries == [(20, "Forest"), (4, "Grizzly Bears"), (16, "Mountain")]
    assert d.sideboard == [(4, "Shock")]
    assert d.card_names().count("Grizzly Bears") == 4
    assert "Shock" not in d.card_names()


def test_unknown_card_names_the_card_and_close_matches() -> None:
    """An unknown card raises UnknownCardError naming it, with close matches
    (each listed once)."""
    with pytest.raises(UnknownCardError) as exc:
        Deck.from_text("36 Forest\n4 Grizly Bears\n")
    assert exc.value.name == "Grizly Bears"
    assert exc.value.suggestions == ["Grizzly Bears"]
    assert "Grizly Bears" in str(exc.value) and "did you mean 'Grizzly Bears'" in str(exc.value)


def test_unknown_card_without_matches() -> None:
    """UnknownCardError for a name far from every card: no suggestions."""
    with pytest.raises(UnknownCardError) as exc:
        Deck.from_text("36 Forest\n4 Qwzxv\n")
    assert exc.value.suggestions == []


def test_card_names_are_case_insensitive() -> None:
    """Deck lists accept a card name in any case and canonicalise it."""
    d = Deck.from_text("36 forest\n4 grizzly bears\n")
    assert d.entries == [(36, "Forest"), (4, "Grizzly Bears")]


def test_deck_smaller_than_40_is_an_error_unless_relaxed() -> None:
    """Fewer than 40 cards -> DeckError with the reason; a flag relaxes it."""
    with pytest.raises(DeckError, match=r"39 cards.*at least 40"):
        Deck.from_text("35 Forest\n4 Grizzly Bears\n")
    assert len(Deck.from_text("3 Forest\n", min_size=0)) == 3


def test_more_than_four_copies_is_an_error_except_basic_lands() -> None:
    """More than four copies of a nonbasic card -> DeckError; basic lands
    are unlimited. Copies are counted across lines."""
    with pytest.raises(DeckError, match="5 copies of Grizzly Bears"):
        Deck.from_text("35 Forest\n5 Grizzly Bears\n")
    with pytest.raises(DeckError, match="5 copies of Shock"):
        Deck.from_text("35 Forest\n3 Shock\n2 Shock\n")
    assert len(Deck.from_text("60 Forest\n")) == 60


def test_malformed_deck_line() -> None:
    """DeckError for a line that isn't `N Card Name`, naming the line."""
    with pytest.raises(DeckError, match="line 2"):
        Deck.from_text("36 Forest\nfour Grizzly Bears\n")
    with pytest.raises(DeckError, match="positive"):
        Deck.from_text("0 Forest\n40 Mountain\n")


def test_unimplemented_card_error(mind_bend_unimplemented) -> None:
    """A real Tenth Edition card the engine doesn't implement raises UnimplementedCardError."""
    with pytest.raises(UnimplementedCardError, match="Mind Bend"):
        Deck.from_text("36 Island\n4 Mind Bend\n")


def test_deck_from_file_and_builtin(tmp_path) -> None:
    """Deck.from_file(path) and Deck.builtin(name); a missing file is a DeckError."""
    p = tmp_path / "mine.txt"
    p.write_text("36 Forest\n4 Grizzly Bears\n")
    d = Deck.from_file(p)
    assert len(d) == 40 and d.name == "mine"
    with pytest.raises(DeckError, match="cannot read"):
        Deck.from_file(tmp_path / "nope.txt")
    assert len(Deck.builtin("starter_green")) >= 40
    with pytest.raises(DeckError, match="no built-in deck"):
        Deck.builtin("nope")


def test_game_new_accepts_decks_and_name_lists() -> None:
    """Game.new takes Deck objects or lists of card names."""
    d = Deck.from_text("40 Forest\n")
    g = Game.new([d, ["Mountain"] * 40], seed=0, starting_player=0)
    assert {c.name for c in g.players[0].hand} == {"Forest"}
    assert {c.name for c in g.players[1].hand} == {"Mountain"}


def test_new_accepts_builtin_deck_names_and_names_what_it_got_otherwise() -> None:
    """``Game.new`` takes Decks, built-in deck names or lists of card names; anything else is a
    clear MtgError naming the seat and what it got (a string is not iterated as card names)."""
    from mtg_env import Deck, Game, MtgError
    from mtg_env.engine.errors import DeckError

    g = Game.new(["starter_green", "starter_red"], seed=1)
    h = Game.new([Deck.builtin("starter_green"), Deck.builtin("starter_red")], seed=1)
    assert g.to_json() == h.to_json()
    with pytest.raises(DeckError, match="no built-in deck 'starter_grene'"):
        Game.new(["starter_grene", "starter_red"])
    with pytest.raises(MtgError, match="deck 1 must be a Deck"):
        Game.new(["starter_green", 5])
    with pytest.raises(MtgError, match="a list of 2 to 6 decks"):
        Game.new("starter_green")


@pytest.mark.parametrize("bad", [None, 5, ("pass",), b"pass"])
def test_apply_rejects_non_actions_and_leaves_the_state_unchanged(bad) -> None:
    """``apply`` takes an Action of the pending decision or its exact text; anything else raises
    IllegalActionError and changes nothing."""
    from mtg_env import Game

    g = Game.new(["starter_green", "starter_red"], seed=2)
    before = g.to_json()
    with pytest.raises(IllegalActionError, match="takes an Action"):
        g.apply(bad)
    assert g.to_json() == before
