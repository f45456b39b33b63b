"""The ten 60-card constructed decks: they load, hold only implemented cards, describe
themselves, can be named by group everywhere decks are named, and survive a soak of random play
with every invariant checked after every action (each deck against the next one in the list and
in the mirror; `benchmarks/soak.py` plays every pairing of every built-in deck)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from mtg_env import Deck
from mtg_env.cli import app
from mtg_env.engine import registry
from mtg_env.engine.deck import (
    CONSTRUCTED_DECKS,
    DECK_GROUPS,
    builtin_description,
    builtin_names,
    expand_deck_groups,
)
from mtg_env.env.config import EnvConfig
from mtg_env.testing import play_random_game


@pytest.mark.parametrize("name", CONSTRUCTED_DECKS)
def test_constructed_deck_loads_with_sixty_implemented_cards(name: str) -> None:
    deck = Deck.builtin(name)
    assert len(deck) == 60
    assert all(registry.get_card(n).implemented for n in deck.card_names())
    colors = {c for n in deck.card_names() for c in registry.get_card(n).colors}
    assert 1 <= len(colors) <= 2, f"{name} is not a one- or two-color deck: {colors}"
    assert builtin_description(name)


def test_every_built_in_deck_is_in_a_group_and_described() -> None:
    grouped = [n for names in DECK_GROUPS.values() for n in names]
    assert sorted(grouped) == builtin_names()
    assert all(builtin_description(n) for n in builtin_names())


def test_group_names_expand_wherever_decks_are_named() -> None:
    assert expand_deck_groups(["constructed"]) == list(CONSTRUCTED_DECKS)
    assert expand_deck_groups(["all"]) == builtin_names()
    assert EnvConfig.from_kwargs({"deck_pool": "constructed"}).deck_pool == CONSTRUCTED_DECKS
    assert EnvConfig.from_kwargs({"deck_pool": ["theme", "red_burn"]}).deck_pool[-1] == "red_burn"


def test_cli_lists_the_decks_by_group() -> None:
    result = CliRunner().invoke(app, ["decks"])
    assert result.exit_code == 0
    assert "constructed:" in result.output and "white_weenie" in result.output
    assert "60  White weenie" in result.output


PAIRS = [(a, CONSTRUCTED_DECKS[(i + 1) % len(CONSTRUCTED_DECKS)])
         for i, a in enumerate(CONSTRUCTED_DECKS)] + [(a, a) for a in CONSTRUCTED_DECKS[::3]]


@pytest.mark.parametrize(("a", "b"), PAIRS)
def test_constructed_pairing_soak(a: str, b: str) -> None:
    decks = [Deck.builtin(a), Deck.builtin(b)]
    reasons = set()
    for seed in range(12):
        g = play_random_game(decks, seed, max_turns=100, try_all_options=True, json_every=7)
        reasons.add(g.end_reason)
    for seed in range(1000, 1004):
        g = play_random_game(decks, seed, max_turns=100, try_all_options=True, mana_rate=0.03,
                             json_every=5)
        reasons.add(g.end_reason)
    assert reasons <= {"life", "empty library", "poison", "turn limit"}
