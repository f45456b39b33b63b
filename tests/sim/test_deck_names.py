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
    with pytest.raises(UnknownCardError, match=r"^unknown card 'Tarmogoyf': not a Tenth Edition "
                                                r"card$"):
        Deck.from_text("36 Forest\n4 Tarmogoyf\n")
    deck = tmp_path / "goyf.txt"
    deck.write_text("36 Forest\n4 Tarmogoyf\n")
    assert _error(["matchup", str(deck), "starter_red", "--no-progress"]) == \
        "error: unknown card 'Tarmogoyf': not a Tenth Edition card"
    # a close name is still offered (a typo is not a Tenth Edition card either)
    with pytest.raises(UnknownCardError, match="not a Tenth Edition card; did you mean "
                                               "'Grizzly Bears'"):
        Deck.from_text("36 Forest\n4 Grizly Bears\n")
