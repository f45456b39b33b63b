"""One encoder for the env and the agents: ``Observer.observe_view(view)``
computes, from a player's redacted :class:`~mtg_env.engine.view.PlayerView` only, exactly the
observation and action mask the env gives that player, and the texts of the legal indices.

Checked on random games of every ordered theme-deck pairing and a few constructed pairings, at
every decision, for both players (the decider and the one waiting), with the array equality
exact (``np.array_equal``), so any history the env's observer kept, or any hidden card it read,
would show as a difference.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from agents import HeuristicAgent
from mtg_env.encoding import Observer
from mtg_env.encoding.vocab import HIDDEN_ID, vocabulary
from mtg_env.engine.deck import THEME_DECKS
from mtg_env.engine.view import view_for
from mtg_env.env import raw_env
from mtg_env.testing import scenario

PAIRINGS = list(itertools.product(THEME_DECKS, repeat=2))
CONSTRUCTED = [("blue_black_control", "green_white_auras"), ("red_burn", "white_black_lifedrain"),
               ("artifact_control", "blue_fliers")]


def _same(a, b) -> bool:
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)
    return a.dtype == b.dtype and np.array_equal(a, b)


def _diff(a, b) -> str:
    if isinstance(a, dict):
        return ", ".join(f"{k}: rows {sorted(set(np.argwhere(a[k] != b[k])[:, 0].tolist()))}"
                         for k in a if not np.array_equal(a[k], b[k]))
    return f"flat indices {np.flatnonzero(a != b)[:10].tolist()}"


def play_and_compare(decks: tuple[str, str], seed: int, flatten: bool = False,
                     max_turns: int = 30) -> set[str]:
    """Play one game, the heuristic agent (player 0) against random legal actions (player 1); at
    every decision compare both players' env
    observations with the view encoder's. Returns the decision kinds reached."""
    env = raw_env(decks=list(decks), flatten=flatten, max_turns=max_turns)
    env.reset(seed=seed)
    encoder = Observer(env.observer.caps, flatten=flatten)
    rng = np.random.default_rng(seed)
    kinds: set[str] = set()
    heuristic = HeuristicAgent()
    heuristic.reset(0, seed)
    steps = 0
    while not env.game.is_over:
        game = env.game
        d = game.decision
        kinds.add(d.kind.value)
        for agent, player in (("player_0", 0), ("player_1", 1)):
            want = env.observe(agent)
            obs, mask, texts = encoder.observe_view(view_for(game, player), seed=steps)
            where = f"{decks} seed {seed} step {steps} ({d.kind.value}) player {player}"
            assert _same(want["observation"], obs), f"observation differs at {where}: " + _diff(
                want["observation"], obs)
            assert np.array_equal(want["action_mask"], mask), f"mask differs at {where}"
            if player == 0:
                texts0 = texts
            if player == d.player:
                assert texts == {i: env.action_text(i) for i in np.flatnonzero(mask)}, where
            else:
                assert texts == {} and not mask.any(), where
        if d.player == 0:  # the heuristic agent attacks, blocks and targets sensibly
            view = view_for(game, 0)
            chosen = heuristic.act(view).text
            env.step(next(i for i, t in texts0.items() if t == chosen))
        else:
            env.step(_pick(env, rng))
        steps += 1
    return kinds


def _pick(env, rng: np.random.Generator) -> int:
    """A random legal index that keeps its hand and passes only sometimes when it could do
    something else (so the games go on to combat, spells and choices)."""
    legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
    if 1 in legal:  # keep / yes
        return 1
    if len(legal) > 1 and legal[0] == 0 and rng.random() < 0.7:
        legal = legal[1:]
    return int(rng.choice(legal))


@pytest.mark.parametrize("decks", PAIRINGS, ids=["-".join(p) for p in PAIRINGS])
def test_view_encoder_matches_env_on_theme_pairings(decks: tuple[str, str]) -> None:
    """Every ordered theme-deck pairing: the arrays from the view equal the env's at every
    decision of a random game."""
    kinds = play_and_compare(decks, seed=PAIRINGS.index(decks))
    assert {"mulligan", "priority"} <= kinds


@pytest.mark.parametrize("decks", CONSTRUCTED, ids=["-".join(p) for p in CONSTRUCTED])
def test_view_encoder_matches_env_on_constructed_decks(decks: tuple[str, str]) -> None:
    """A few 60-card constructed pairings, flat observations."""
    play_and_compare(decks, seed=7, flatten=True)


def test_view_encoder_reaches_every_decision_kind() -> None:
    """Over several games the comparison covers the decision kinds play reaches: combat
    (attackers, blockers), targets, X, yes/no and card choices, not just priority."""
    kinds: set[str] = set()
    for i, decks in enumerate(PAIRINGS[::3]):
        kinds |= play_and_compare(decks, seed=200 + i)
    assert {"mulligan", "priority", "target", "declare_attackers", "declare_blockers",
            "choose_cards", "x_value", "yes_no"} <= kinds


def test_view_encoder_ignores_hidden_cards() -> None:
    """Resampling what the viewer can't see (the opponent's hand, library order) with any seed
    gives the same arrays: the encoder reads only the redacted view."""
    env = raw_env(decks=["molimos_might", "evincars_tyranny"], max_turns=10)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    encoder = Observer(env.observer.caps)
    for _ in range(60):
        if env.game.is_over:
            break
        view = view_for(env.game, env.game.decision.player)
        first = encoder.observe_view(view, seed=1)
        for s in (2, 3):
            again = encoder.observe_view(view, seed=s)
            assert _same(first[0], again[0]) and np.array_equal(first[1], again[1])
            assert first[2] == again[2]
        env.step(_pick(env, rng))


# -- what the viewer knows of the opponent's hand is game state --------------------------------
def _opponent_hand_ids(g, viewer: int) -> list[int]:
    """Card ids of the opponent's hand rows the viewer's observation shows (1 = hidden)."""
    obs = Observer()
    o, _ = obs.observe(g, viewer)
    H, col = obs.caps.max_hand, obs.obs_layout.col["hand"]["card_id"]
    rows = o["hand"][H:]
    return [int(r[col]) for r in rows if r[0]]


def _check_both_ways(g, viewer: int) -> None:
    env_obs, env_mask = Observer().observe(g, viewer)
    obs, mask, _ = Observer().observe_view(view_for(g, viewer), seed=9)
    assert _same(env_obs, obs) and np.array_equal(env_mask, mask)


def test_a_bounced_card_stays_known_in_the_opponents_hand() -> None:
    """Unsummon: "Return target creature to its owner's hand." The creature went to the hand
    from play, a public zone, so the other player knows that card while it stays there (2007 CR
    217.1: the hand is hidden, but everybody saw which card went into it): the view lists it in
    ``known_hand``, the observation shows its card id, a determinized copy keeps it, and the
    view encoder agrees with the env's observer."""
    s = scenario({"hand": ["Unsummon"], "in_play": ["Island"]},
                 {"hand": ["Shock"], "in_play": ["Hill Giant"]})
    s.do("play Unsummon", "target Hill Giant")
    s.resolve()
    g = s.game
    assert [c.label for c in g.players[1].hand] == ["Shock", "Hill Giant"]
    assert [c.cdef.name for c in view_for(g, 0).opponent.known_hand] == ["Hill Giant"]
    assert _opponent_hand_ids(g, 0) == [vocabulary().index("Hill Giant"), HIDDEN_ID]
    for seed in range(5):
        assert "Hill Giant" in [c.cdef.name for c in g.determinize(0, seed).players[1].hand]
    _check_both_ways(g, 0)


def test_a_card_returned_from_a_graveyard_is_known() -> None:
    """Gravedigger: "When Gravedigger comes into play, you may return target creature card from
    your graveyard to your hand." The returned card came from a public zone: the opponent knows
    it in that hand."""
    s = scenario({"hand": ["Gravedigger"], "graveyard": ["Hill Giant"], "in_play": ["Swamp"] * 4},
                 {})
    s.do("play Gravedigger")
    s.resolve()
    s.do("target Hill Giant")
    s.resolve()
    s.do("yes")
    g = s.game
    assert [c.cdef.name for c in view_for(g, 1).opponent.known_hand] == ["Hill Giant"]
    assert _opponent_hand_ids(g, 1) == [vocabulary().index("Hill Giant")]
    _check_both_ways(g, 1)


def test_cards_a_decision_showed_stay_known_after_it() -> None:
    """Thrull Surgeon: "Look at target player's hand and choose a card from it. That player
    discards that card." The chooser saw the whole hand: the cards left in it stay known to
    them after the choice (and not to anyone else), in the view and the observation alike."""
    s = scenario({"in_play": ["Thrull Surgeon", "Swamp", "Swamp"]},
                 {"hand": ["Shock", "Giant Growth", "Forest"]})
    s.do("activate Thrull Surgeon", "target player 1")
    s.resolve()
    _check_both_ways(s.game, 0)
    s.do("discard Giant Growth")
    g = s.game
    assert sorted(c.cdef.name for c in view_for(g, 0).opponent.known_hand) == ["Forest", "Shock"]
    assert not view_for(g, 1).opponent.known_hand
    v = vocabulary()
    assert _opponent_hand_ids(g, 0) == [v.index("Shock"), v.index("Forest")]
    _check_both_ways(g, 0)
    _check_both_ways(g, 1)
