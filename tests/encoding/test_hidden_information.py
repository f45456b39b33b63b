"""Two states that differ only in what the viewer may not see (the opponent's hand, the order of
either library) give the viewer identical observations and masks."""

from __future__ import annotations

import itertools
import random

import numpy as np

from mtg_env import Game
from mtg_env.encoding import Observer
from mtg_env.engine.knowledge import known_cards

from .helpers import decks


def _hide_differently(g: Game, viewer: int, rng: random.Random) -> Game:
    """A copy where the opponent's hand holds other cards (swapped with its library) and both
    libraries are reshuffled, except the cards the viewer knows (``mtg_env.engine.knowledge.known_cards``: revealed,
    looked at, or gone to the hand from a public zone), which stay where they are."""
    h = g.copy()
    known = known_cards(g, viewer)
    opp = h.players[1 - viewer]
    hand_free = [i for i, c in enumerate(opp.hand) if c.cid not in known]
    lib_free = [i for i, c in enumerate(opp.library) if c.cid not in known]
    for i in hand_free[:len(lib_free)]:
        j = rng.choice(lib_free)
        opp.hand[i], opp.library[j] = opp.library[j], opp.hand[i]
    for P in h.players:
        free = [i for i, c in enumerate(P.library) if c.cid not in known]
        cards = [P.library[i] for i in free]
        rng.shuffle(cards)
        for i, c in zip(free, cards, strict=True):
            P.library[i] = c
    return h


def _looks_at_opponents_hand(g: Game, viewer: int) -> bool:
    """The viewer's decision shows it the opponent's hand (the hand is then not hidden)."""
    d = g.decision
    opp = {c.cid for c in g.players[1 - viewer].hand}
    return d.player == viewer and any(
        a.verb == "choose" and a.args[0][0] == "h" and a.args[0][1] in opp for a in d.options)


def _same(a: dict, b: dict) -> None:
    for k in a:
        np.testing.assert_array_equal(a[k], b[k], err_msg=k)


def test_hidden_zones_do_not_reach_the_observation() -> None:
    rng = random.Random(5)
    names = sorted(decks())
    compared = 0
    for seed, (a, b) in enumerate(itertools.islice(itertools.cycle(
            itertools.combinations_with_replacement(names, 2)), 6)):
        g = Game.new([decks()[a], decks()[b]], seed=seed, skip_trivial=True, max_turns=12)
        while not g.is_over:
            viewer = g.decision.player if compared % 2 == 0 else 1 - g.decision.player
            if _looks_at_opponents_hand(g, viewer):
                g.apply(rng.choice(g.decision.options))
                continue
            h = _hide_differently(g, viewer, rng)
            if any(x.cid != y.cid for x, y in zip(g.players[1 - viewer].hand,
                                                  h.players[1 - viewer].hand, strict=True)) \
                    or compared % 5 == 0:
                o1, m1 = Observer().observe(g, viewer)
                o2, m2 = Observer().observe(h, viewer)
                _same(o1, o2)
                np.testing.assert_array_equal(m1, m2)
                compared += 1
            g.apply(rng.choice(g.decision.options))
    assert compared > 100


def test_hidden_cards_never_show_their_identity() -> None:
    g = Game.new([decks()[sorted(decks())[0]]] * 2, seed=1)
    obs = Observer()
    viewer = g.decision.player
    o, _ = obs.observe(g, viewer)
    H = obs.caps.max_hand
    hand = o["hand"]
    col = obs.obs_layout.col["hand"]
    n = len(g.players[1 - viewer].hand)
    assert hand[H:H + n, col["present"]].tolist() == [1] * n
    assert hand[H:H + n, col["card_id"]].tolist() == [1] * n  # the hidden marker
    assert not hand[H:, col["known"]].any()
    assert not hand[H:, col["cmc"]].any()
