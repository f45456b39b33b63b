"""Every implemented card in random play (the soak test covers decks containing every
card): the implemented cards, tokens and basic lands aside, are dealt in name order into
test decks of 15 cards x 2 copies plus 30 basic lands; each deck plays random games against the
next with every invariant checked after every action and JSON round trips (see
:func:`mtg_env.testing.play_random_game`). Random play reaches far more corners than the built-in
decks, which leave out about 200 implemented cards."""

from __future__ import annotations

import pytest

from mtg_env import Deck
from mtg_env.engine import registry
from mtg_env.testing import play_random_game

BASICS = ("Plains", "Island", "Swamp", "Mountain", "Forest")
BATCH = 15


def _cards() -> list[str]:
    out = []
    for name in sorted(registry.all_cards()):
        cdef = registry.get_card(name)
        if cdef.implemented and name not in BASICS and "Token" not in name:
            out.append(name)
    return out


CARDS = _cards()
BATCHES = [CARDS[i:i + BATCH] for i in range(0, len(CARDS), BATCH)]


def _deck(i: int) -> Deck:
    entries = [(2, n) for n in BATCHES[i]] + [(6, b) for b in BASICS]
    return Deck(entries, name=f"every_card_{i}")


def test_the_batches_hold_every_implemented_card() -> None:
    dealt = [n for b in BATCHES for n in b]
    assert sorted(dealt) == CARDS and len(CARDS) > 300
    assert not [n for n in CARDS if not registry.get_card(n).implemented]


@pytest.mark.parametrize("i", range(len(BATCHES)))
def test_every_card_batch_survives_random_play(i: int) -> None:
    decks = [_deck(i), _deck((i + 1) % len(BATCHES))]
    for seed in range(4):
        g = play_random_game(decks, 1000 * i + seed, max_turns=30, json_every=5)
        assert g.is_over
