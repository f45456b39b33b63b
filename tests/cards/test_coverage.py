"""Card coverage: every implemented card has a scenario test naming it, the
coverage listing reads the engine's own registry, and the theme decks load by name."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from mtg_env import Deck, UnimplementedCardError
from mtg_env.cards.coverage import coverage, coverage_report
from mtg_env.cards.loader import DATA_DIR
from mtg_env.engine import registry

THEME = ["arcaniss_guile", "cho_mannos_resolve", "evincars_tyranny", "kamahls_temper", "molimos_might"]
TESTS = Path(__file__).resolve().parent


def test_every_implemented_card_is_named_by_a_card_test() -> None:
    sources = "\n".join(p.read_text() for p in TESTS.glob("test_*.py") if p.name != Path(__file__).name)
    names = [n for f in sorted(DATA_DIR.glob("*.yaml")) for n in yaml.safe_load(f.read_text())]
    missing = [n for n in names if n not in sources]
    assert not missing, f"cards without a scenario test: {missing}"


@pytest.mark.parametrize("name", THEME)
def test_theme_decks_load_by_name(name: str) -> None:
    deck = Deck.builtin(name)
    assert len(deck) == 40
    assert all(registry.get_card(n).implemented for n in deck.card_names())


def test_coverage_reads_the_registry() -> None:
    cov = coverage()
    implemented = {n for group in cov.values() for n, ok in group.items() if ok}
    assert implemented == {n for n, c in registry.all_cards().items() if not c.is_token}
    assert sum(len(g) for g in cov.values()) == 368
    assert coverage_report().splitlines()[-1].startswith(f"Total: {len(implemented)}/368")


def test_unimplemented_card_cannot_be_loaded_silently(mind_bend_unimplemented) -> None:
    with pytest.raises(UnimplementedCardError, match="Mind Bend"):
        Deck.from_text("36 Island\n4 Mind Bend")


def test_pending_reasons_name_only_missing_tenth_edition_cards() -> None:
    """A reason in ``PENDING`` must name a real Tenth Edition card the engine still lacks: a card
    implemented later drops its reason, so the listing never calls a working card missing."""
    from mtg_env.cards.loader import load_facts
    from mtg_env.cards.pending import PENDING

    facts = load_facts()["cards"]
    implemented = {n for n, c in registry.all_cards().items() if c.implemented}
    assert not [n for n in PENDING if n not in facts], "reasons for names that are not 10E cards"
    assert not [n for n in PENDING if n in implemented], "reasons kept for implemented cards"


def test_report_summarises_by_color_and_rarity_with_reasons(mind_bend_unimplemented) -> None:
    report = coverage_report(only_missing=True)
    assert report.startswith("By color:") and "By rarity:" in report
    assert "  [ ] Mind Bend: text-changing effects (layer 3)" in report
    assert "[x]" not in report


def test_every_missing_card_has_a_reason() -> None:
    """`mtg-env cards` lists what is left with the mechanism it waits for: no card is missing
    without a reason."""
    from mtg_env.cards.loader import load_facts
    from mtg_env.cards.pending import PENDING

    implemented = {n for n, c in registry.all_cards().items() if c.implemented}
    missing = [n for n in load_facts()["cards"] if n not in implemented]
    assert sorted(n for n in missing if n not in PENDING) == []
    assert "not written yet" not in coverage_report(only_missing=True)
