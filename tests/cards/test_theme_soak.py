"""Soak test of the five Tenth Edition theme decks: every pairing, mirrors
included, plays 100 seeded games of uniformly random legal actions without error, with the
engine-core invariants checked after every action (card counts conserved, a decision with options
in every unfinished game, every option applies, ``from_json(to_json())`` reproduces the state).
Another 20 games per pairing use a player that rarely floats mana, to reach deeper game states."""

from __future__ import annotations

import itertools

import pytest

from mtg_env import Deck
from mtg_env.testing import play_random_game

THEME = ["arcaniss_guile", "cho_mannos_resolve", "evincars_tyranny", "kamahls_temper", "molimos_might"]
PAIRS = list(itertools.combinations_with_replacement(THEME, 2))


@pytest.mark.parametrize(("a", "b"), PAIRS)
def test_theme_pairing_soak(a: str, b: str) -> None:
    decks = [Deck.builtin(a), Deck.builtin(b)]
    reasons = set()
    for seed in range(100):
        g = play_random_game(decks, seed, max_turns=100, try_all_options=True)
        reasons.add(g.end_reason)
    for seed in range(1000, 1020):
        g = play_random_game(decks, seed, max_turns=100, try_all_options=True, mana_rate=0.03,
                             json_every=5)
        reasons.add(g.end_reason)
    assert reasons <= {"life", "empty library", "poison", "turn limit"}
