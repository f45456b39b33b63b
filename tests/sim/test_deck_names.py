"""Deck names a new user types: a built-in deck in any case, a "did you mean" for a typo, and a
card the set doesn't have named as such ("not a Tenth Edition card")."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from mtg_env import Deck
from mtg_env.cli import app
from mtg_env.engine.deck import builtin_description, expand_deck_groups
from mtg_env.engine.errors import DeckError, UnknownCardError
from mtg_env.sim.decks import load_deck

runner = CliRunner()


def _error(args: list[str]) -> str:
    res = runner.invoke(app, args)
    assert res.exit_code == 2, res.output
    lines = [line for line in res.output.splitlines() if line.startswith("error:")]
    assert len(lines) == 1 and "Traceback" not in res.output, res.output
    return lines[0]


def test_builtin_deck_names_in_any_case() -> None:
    assert load_deck("Kamahls_Temper").name == "kamahls_temper"
    assert Deck.builtin("STARTER_RED").name == "starter_red"
    assert builtin_description("Molimos_Might") == builtin_description("molimos_might")
    assert expand_deck_groups(["Theme"]) == expand_deck_groups(["theme"])


def test_cli_accepts_a_deck_name_in_any_case(monkeypatch) -> None:
    import mtg_env.cli as cli

    class Checked(Exception):
        pass

    def stop() -> None:
        raise Checked

    monkeypatch.setattr(cli, "_before_games", stop)
    res = runner.invoke(app, ["matchup", "Kamahls_Temper", "STARTER_RED", "-n", "2"])
    assert isinstance(res.exception, Checked), res.output  # every option passed its check


def test_a_mistyped_deck_gets_a_did_you_mean() -> None:
    line = _error(["matchup", "kamahls_tempr", "starter_red", "--no-progress"])
    assert line.startswith("error: unknown deck 'kamahls_tempr'; did you mean 'kamahls_temper'?")
    assert "molimos_might" in line  # the list of built-in decks stays
    line = _error(["matrix", "--decks", "starter_gren,starter_red", "--no-progress"])
    assert "did you mean 'starter_green'" in line
    with pytest.raises(DeckError, match="no built-in deck 'starter_grene'; did you mean "
                                        "'starter_green'"):
        Deck.builtin("starter_grene")


def test_a_card_outside_tenth_edition_says_so(tmp_path) -> None:
    with pytest.raises(UnknownCardError, match=r"^deck line 2: unknown card 'Tarmogoyf': not a "
                                                r"Tenth Edition card$"):
        Deck.from_text("36 Forest\n4 Tarmogoyf\n")
    deck = tmp_path / "goyf.txt"
    deck.write_text("36 Forest\n4 Tarmogoyf\n")
    assert _error(["matchup", str(deck), "starter_red", "--no-progress"]) == \
        "error: goyf line 2: unknown card 'Tarmogoyf': not a Tenth Edition card"
    # a close name is still offered (a typo is not a Tenth Edition card either)
    with pytest.raises(UnknownCardError, match="not a Tenth Edition card; did you mean "
                                               "'Grizzly Bears'"):
        Deck.from_text("36 Forest\n4 Grizly Bears\n")


def test_an_unknown_card_names_the_deck_and_the_line(tmp_path) -> None:
    """Like every other deck error: the file's name and the line, then the card, whether it is a
    Tenth Edition card and the closest names (the line counts comments and blank lines)."""
    deck = tmp_path / "my_deck.txt"
    deck.write_text("# burn\n20 Mountain\n\n16 Shock\nSideboard\n4 Grizly Bears  # typo\n")
    with pytest.raises(UnknownCardError) as exc:
        Deck.from_file(deck)
    assert str(exc.value) == ("my_deck line 6: unknown card 'Grizly Bears': not a Tenth Edition "
                              "card; did you mean 'Grizzly Bears'?")
    assert exc.value.name == "Grizly Bears" and exc.value.suggestions == ["Grizzly Bears"]
    assert _error(["play", str(deck), "starter_red"]) == f"error: {exc.value}"
    with pytest.raises(UnknownCardError, match=r"^mine line 1: unknown card 'Forrest'"):
        Deck.from_text("40 Forrest\n", name="mine")


def test_one_load_deck_for_the_simulator_the_cli_and_the_env(tmp_path) -> None:
    """``load_deck`` is one function (``mtg_env.engine.deck``): a Deck, a built-in name in any
    case, or a deck file's path (a string or a Path), with the same errors everywhere."""
    from pathlib import Path

    import mtg_env
    from mtg_env.engine import deck as engine_deck
    from mtg_env.env import config as env_config
    from mtg_env.sim import load_deck as sim_load_deck

    assert load_deck is sim_load_deck is env_config.load_deck is engine_deck.load_deck
    path = tmp_path / "my_deck.txt"
    path.write_text("36 Forest\n4 Grizzly Bears\n")
    for spec in (str(path), path, Deck.from_file(path)):
        assert load_deck(spec).entries == [(36, "Forest"), (4, "Grizzly Bears")]
    assert load_deck("Starter_Red").name == "starter_red"
    # the env takes the path the CLI and run_matchup take
    e = mtg_env.env(decks=[str(path), "STARTER_RED"], seed=0, max_turns=3)
    e.reset(seed=0)
    assert e.deck_names == ("my_deck", "starter_red")
    e.reset(seed=1, options={"decks": [Path(path), str(path)]})
    assert e.deck_names == ("my_deck", "my_deck")
    # ... and gives the CLI's errors, not "no built-in deck '/.../missing.txt'"
    for spec, message in ((str(tmp_path / "missing.txt"), r"^cannot read deck file '.*missing\.txt': "),
                          ("my_deck", r"^unknown deck 'my_deck'; available: .*give a path to a deck file$"),
                          (3, r"^a deck must be a Deck, a built-in deck name or a deck file path, got 3$")):
        with pytest.raises(DeckError, match=message):
            load_deck(spec)
        with pytest.raises(DeckError, match=message):
            mtg_env.env(decks=[spec, "starter_red"]).reset(seed=0)
    path.write_text("36 Forest\n4 Grizzly Bear\n")
    with pytest.raises(UnknownCardError, match=r"^my_deck line 2: unknown card 'Grizzly Bear'"):
        mtg_env.env(decks=[str(path), "starter_red"]).reset(seed=0)
