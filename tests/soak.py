"""Random-play soak helpers shared by the soak tests (invariants checked after every action)."""

from __future__ import annotations

import random
from collections import Counter

from mtg_env import Game


def card_counts(g: Game) -> Counter:
    c: Counter = Counter()
    for P in g.players:
        for zone in (P.hand, P.library, P.graveyard, P.removed):
            for card in zone:
                c[card.owner] += 1
    for p in g.perms.values():
        if not p.card.is_token:
            c[p.owner] += 1
    for s in g.stack:
        if s.kind == "spell" and not s.card.is_token:
            c[s.card.owner] += 1
    return c


def check_invariants(g: Game, expected: Counter, try_all_options: bool = False,
                     check_json: bool = True) -> None:
    assert card_counts(g) == expected, (card_counts(g), expected, g.log[-10:])
    if g.is_over:
        assert g.decision is None
        return
    d = g.decision
    assert d is not None and d.options, "an unfinished game must have a decision with options"
    texts = [a.text for a in d.options]
    assert len(set(texts)) == len(texts), f"duplicate option texts: {texts}"
    if check_json:
        s = g.to_json()
        assert Game.from_json(s).to_json() == s
    if try_all_options:
        for a in d.options:
            h = g.copy()
            h.apply(a)
            assert card_counts(h) == expected


def play_random_game(decks, seed: int, max_turns: int = 60, try_all_options: bool = False,
                     check_json: bool = True, json_every: int = 1, mana_rate: float = 1.0) -> Game:
    """A seeded game of uniformly random legal actions with the invariants checked after every
    action. ``mana_rate`` < 1 makes the player skip most bare mana abilities (floating mana at
    random mostly ends games by mana burn; this reaches deeper game states)."""
    g = Game.new(decks, seed=seed, max_turns=max_turns)
    rng = random.Random(seed)
    expected = card_counts(g)
    n = 0
    check_invariants(g, expected, try_all_options, check_json)
    while not g.is_over:
        opts = g.decision.options
        if mana_rate < 1.0 and rng.random() > mana_rate:
            opts = [o for o in opts if o.verb != "mana"] or opts
        g.apply(rng.choice(opts))
        n += 1
        check_invariants(g, expected, try_all_options, check_json and n % json_every == 0)
        assert n < 20000, "runaway game"
    return g
