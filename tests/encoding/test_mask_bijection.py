"""The action mask is exactly the engine's legal set: over 10,000+ decisions from random games of
every pairing of the default decks (the theme decks once they load), every legal option maps to
one index, every masked index decodes to one legal option, and each index means what the layout
says (the slot it names holds the object the option acts on). Along the way, the incrementally
updated observation equals one encoded from scratch, and the flat one equals the dict one."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import numpy as np

from mtg_env import Game
from mtg_env.encoding import Observer
from mtg_env.env.aec import observation_space

from .helpers import check_decision, decks

MIN_STATES = 10_000


def _policy(rng: random.Random, legal: dict, thrifty: bool) -> object:
    """Uniform over legal options; a "thrifty" player never taps for mana by hand (costs are
    paid automatically), which makes longer games with more combat and more spells."""
    options = list(legal.values())
    if thrifty:
        keep = [a for a in options if a.verb != "mana"]
        options = keep or options
    return rng.choice(options)


def test_mask_is_a_bijection_on_the_legal_set() -> None:
    names = sorted(decks())
    pairs = list(itertools.combinations_with_replacement(names, 2))
    obs = Observer()
    flat = Observer(flatten=True)
    space = observation_space(obs.obs_layout, flatten=False)
    rng = random.Random(20070713)
    kinds: Counter[str] = Counter()
    states = 0
    seed = 0
    while states < MIN_STATES:
        a, b = pairs[seed % len(pairs)]
        g = Game.new([decks()[a], decks()[b]], seed=seed, skip_trivial=seed % 3 != 0,
                     max_turns=40)
        obs.reset()
        flat.reset()
        thrifty = seed % 2 == 1
        while not g.is_over:
            legal = check_decision(obs, g)
            kinds[g.decision.kind.value] += 1
            if states % 10 == 0:
                for viewer in (0, 1):
                    o, m = obs.observe(g, viewer)
                    scratch = Observer()  # no history: what players know is game state
                    o2, m2 = scratch.observe(g, viewer)
                    for k in o:
                        np.testing.assert_array_equal(o[k], o2[k], err_msg=f"{k} at state {states}")
                    np.testing.assert_array_equal(m, m2)
            if states % 25 == 0:
                o, _ = obs.observe(g, g.decision.player)
                f, _ = flat.observe(g, g.decision.player)
                np.testing.assert_array_equal(np.concatenate([x.ravel() for x in o.values()]), f)
                assert space.contains(o), "observation outside its space"
            g.apply(_policy(rng, legal, thrifty))
            flat.note(g)  # what players know of hands depends on every state, observed or not
            states += 1
        seed += 1
    for kind in ("mulligan", "priority", "target", "declare_attackers", "declare_blockers",
                 "choose_cards"):
        assert kinds[kind] > 0, f"no {kind} decision in {states} states: {kinds}"


def test_mask_is_exact_on_a_division_of_damage() -> None:
    """Hail of Arrows' division (``divide``): each amount maps to its ``assign`` slot,
    the recipient is marked and the spell's stack row shows the shares chosen so far."""
    from mtg_env.testing import Scenario

    s = Scenario({"turn": 3, "step": "declare_blockers", "players": [
        {"library": ["Island"] * 3, "in_play": [{"card": c, "attacking": True} for c in
                                                ("Grizzly Bears", "Hill Giant", "Craw Wurm")]},
        {"library": ["Island"] * 3, "hand": ["Hail of Arrows"], "in_play": ["Plains"] * 7}]})
    s.pass_priority(1)
    s.do("play Hail of Arrows", "X=6", "target Grizzly Bears", "target Hill Giant",
         "target Craw Wurm", "assign 2 damage to Grizzly Bears")
    g = s.game
    assert g.decision.kind.value == "divide"
    obs = Observer()
    legal = check_decision(obs, g)
    lay = obs.act_layout
    assert sorted(lay.locate(i) for i in legal) == [("assign", 1), ("assign", 2), ("assign", 3)]
    o, _ = obs.observe(g, 1)
    col = obs.obs_layout.col
    assert o["game"][col["game"]["damage_remaining"]] == 4
    rows = obs.view_rows(1)["permanents"]
    row = next(r for r, p in rows.items() if p.id == s.perm("Hill Giant").id)
    assert o["permanents"][row, col["permanents"]["damage_recipient"]] == 1
    stack = o["stack"][0]
    assert stack[col["stack"]["target0_divided"]] == 2
    assert stack[col["stack"]["target1_divided"]] == 0  # not divided yet


def test_mask_is_exact_on_naming_a_card() -> None:
    """Pithing Needle's "name a card" (``choose_card_name``): one option per card name,
    each at its card vocabulary index in the ``card_name`` band."""
    from mtg_env.encoding.vocab import vocabulary
    from mtg_env.testing import Scenario

    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"library": ["Island"] * 3, "hand": ["Pithing Needle"], "in_play": ["Plains"]},
        {"library": ["Island"] * 3}]})
    s.do("play Pithing Needle")
    s.resolve()
    g = s.game
    assert g.decision.kind.value == "choose_card_name"
    obs = Observer()
    legal = check_decision(obs, g)
    lay = obs.act_layout
    assert len(legal) == len(g.decision.options) > 300
    assert {lay.locate(i)[0] for i in legal} == {"card_name"}
    i = next(i for i, a in legal.items() if a.text == "name Prodigal Pyromancer")
    assert lay.locate(i) == ("card_name", vocabulary().index("Prodigal Pyromancer"))
    assert lay.describe(i) == "name Prodigal Pyromancer"
    o, _ = obs.observe(g, 0)
    assert o["game"][obs.obs_layout.col["game"]["kind_choose_card_name"]] == 1


MULTIPLAYER_TABLES = (
    (3, None, "left"), (4, None, "multiple"), (5, None, "right"), (6, None, "multiple"),
    (4, "two_headed_giant", None),
)


def test_mask_is_a_bijection_at_multiplayer_tables() -> None:
    """Tables of 3 to 6 players (each attack option) and Two-Headed Giant: every legal option
    maps to one index that means what the layout says for the seat-relative blocks (the
    ``player``, hand, permanent, graveyard and removed blocks, ``block`` against every other
    seat, ``attack_player``); the incrementally updated observation of every seat equals one
    encoded from scratch, the flat one the dict one, and both lie in the observation space."""
    names = sorted(decks())
    kinds: Counter[str] = Counter()
    bands: Counter[str] = Counter()
    for t, (n, variant, attack) in enumerate(MULTIPLAYER_TABLES):
        for seed in range(2):
            g = Game.new([decks()[names[(seed + t + i) % len(names)]] for i in range(n)],
                         seed=seed, skip_trivial=True, max_turns=12, variant=variant,
                         options={"attack": attack} if attack else None)
            multiple = attack == "multiple"
            obs = Observer(players=n, attack_multiple=multiple)
            flat = Observer(flatten=True, players=n, attack_multiple=multiple)
            space = observation_space(obs.obs_layout, flatten=False)
            rng = random.Random(seed)
            states = 0
            while not g.is_over:
                legal = check_decision(obs, g)
                kinds[g.decision.kind.value] += 1
                bands.update(obs.act_layout.locate(i)[0] for i in legal)
                if states % 13 == 0:
                    for viewer in range(n):
                        o, m = obs.observe(g, viewer)
                        o2, m2 = Observer(players=n, attack_multiple=multiple).observe(g, viewer)
                        for k in o:
                            np.testing.assert_array_equal(o[k], o2[k], err_msg=f"{k} {n} {states}")
                        np.testing.assert_array_equal(m, m2)
                        f, _ = flat.observe(g, viewer)
                        np.testing.assert_array_equal(
                            np.concatenate([x.ravel() for x in o.values()]), f)
                        assert space.contains(o), "observation outside its space"
                g.apply(_policy(rng, legal, thrifty=True))
                states += 1
    for kind in ("mulligan", "priority", "target", "declare_attackers", "declare_blockers"):
        assert kinds[kind] > 0, f"no {kind} decision: {kinds}"
    for band in ("player", "hand", "permanent", "block", "attack_player"):
        assert bands[band] > 0, f"no option in the {band} band: {bands}"


def test_a_multiplayer_observer_refuses_a_game_of_another_size() -> None:
    import pytest

    from mtg_env import MtgError

    g = Game.new([decks()[n] for n in sorted(decks())[:3]], seed=1, options={"attack": "multiple"})
    with pytest.raises(MtgError, match="encodes games of 2 players, not a game of 3"):
        Observer().observe(g, 0)
    with pytest.raises(MtgError, match="attack_multiple=True"):
        Observer(players=3).observe(g, 0)
    with pytest.raises(ValueError, match="num_players must be an integer from 2 to 6"):
        Observer(players=7)
    with pytest.raises(ValueError, match="multiplayer layout"):
        Observer(attack_multiple=True)
