"""The env for multiplayer games: 3 to 6 players (Free-for-All, attack left / right / multiple) and
Two-Headed Giant teams. PettingZoo's API and seed tests, whole games to the end with the mask
checked against the engine's options at every step, seat-relative observations, hidden hands,
players leaving mid-game (terminated with -1, the others play on), team rewards, config errors."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import mtg_env
from mtg_env import Deck
from mtg_env.encoding.layout import layout_signature, relative_seats
from mtg_env.engine.seating import winners
from mtg_env.env import raw_env
from mtg_env.env.aec import IllegalActionWarning

from ..encoding.helpers import check_decision

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")  # api_test's advice on Dict spaces

FAST = ["white_weenie", "red_green_beats", "red_burn", "molimos_might", "kamahls_temper",
        "white_weenie"]
"""Aggressive decks: games where players attack end with players leaving the game."""
SHORT = Deck.from_text("9 Plains", name="Nine Plains", min_size=0)
"""A deck that runs out of cards on its owner's second or third turn: the owner loses for
drawing from an empty library and leaves the game."""


def _aggressive(rng: random.Random, legal: dict) -> int:
    """A random player that attacks with everything it can, never blocks and keeps its hand,
    so that games end (and players leave them) in a few hundred steps."""
    by_verb: dict[str, list[int]] = {}
    for i, a in legal.items():
        by_verb.setdefault(a.verb, []).append(i)
    if "attack" in by_verb:
        return rng.choice(by_verb["attack"])
    if "block" in by_verb and "done" in by_verb:
        return by_verb["done"][0]
    if "keep" in by_verb:
        return by_verb["keep"][0]
    plays = by_verb.get("play", []) + by_verb.get("activate", [])
    if plays and rng.random() < 0.7:
        return rng.choice(plays)
    return rng.choice([i for i, a in legal.items() if a.verb != "mana"] or list(legal))


def _play_out(e, seed: int, check: bool = True, seen: Counter | None = None
              ) -> tuple[dict[str, float], list[tuple]]:
    """Play ``e`` (already reset) to the end through the AEC API: returns each agent's summed
    reward and, in order, ``(agent, game over?, reward)`` for each terminated agent's last
    step. ``check``: the mask is checked against the engine's options at every decision;
    ``seen`` counts the (decision kind, action band) pairs of the legal indices."""
    rng = random.Random(seed)
    bare = e.unwrapped
    totals = {a: 0.0 for a in e.possible_agents}
    ends = []
    for agent in e.agent_iter(max_iter=20_000):
        obs, reward, term, trunc, _info = e.last()
        totals[agent] += reward
        if term or trunc:
            ends.append((agent, bare.game.is_over, reward))
            e.step(None)
            continue
        game = bare.game
        assert agent == f"player_{game.decision.player}"
        if check:
            legal = check_decision(bare.observer, game)
            assert set(np.flatnonzero(obs["action_mask"])) == set(legal)
        else:
            legal = bare.legal_actions()
        if seen is not None:
            seen.update((game.decision.kind.value, bare.observer.act_layout.locate(i)[0])
                        for i in legal)
        e.step(_aggressive(rng, legal))
    assert not e.agents
    return totals, ends


# -- PettingZoo's own tests ----------------------------------------------------------------
@pytest.mark.parametrize("config", [
    {"num_players": 3},
    {"num_players": 3, "attack": "right", "flatten": True},
    {"num_players": 4, "attack": "multiple"},
    {"num_players": 4, "attack": "multiple", "flatten": True},
    {"num_players": 4, "variant": "two_headed_giant"},
    {"num_players": 6, "variant": "emperor"},
    {"num_players": 5, "attack": "multiple", "range": 1},
])
def test_pettingzoo_api(config: dict) -> None:
    api_test(mtg_env.env(seed=0, max_turns=10, **config), num_cycles=300)


@pytest.mark.parametrize("config", [{"num_players": 3}, {"num_players": 4, "attack": "multiple"}])
def test_pettingzoo_seed_determinism(config: dict) -> None:
    seed_test(lambda: mtg_env.env(seed=0, max_turns=8, **config), num_cycles=200)


def test_api_test_across_players_leaving_the_game() -> None:
    """PettingZoo's API test over games in which a player leaves before the end (its agent
    terminated early and removed by its ``None`` step): one seat's deck runs out."""
    config = {"num_players": 3, "decks": [FAST[0], SHORT, FAST[1]], "max_turns": 30}
    e = mtg_env.env(**config)
    e.reset(seed=1)
    _totals, ends = _play_out(e, 1)
    assert ends[0][:2] == ("player_1", False), "player_1 should leave a game that goes on"
    api_test(mtg_env.env(seed=1, **config), num_cycles=1000)


# -- whole games ---------------------------------------------------------------------------
@pytest.mark.parametrize("config,seed", [
    ({"num_players": 3}, 1),
    ({"num_players": 3, "attack": "right"}, 2),
    ({"num_players": 4, "attack": "multiple"}, 1),
    ({"num_players": 4}, 3),
    ({"num_players": 6, "attack": "multiple"}, 0),
])
def test_random_games_to_the_end_with_exact_masks(config: dict, seed: int) -> None:
    n = config["num_players"]
    e = mtg_env.env(decks=FAST[:n], max_turns=120, **config)
    e.reset(seed=seed)
    totals, ends = _play_out(e, seed)
    game = e.unwrapped.game
    assert game.is_over and game.winner is not None, game.end_reason
    early = [a for a, over, _ in ends if not over]
    assert early, "some player should leave the game before it ends"
    for a, over, reward in ends:
        assert reward == (1.0 if a == f"player_{game.winner}" else -1.0), (a, over, reward)
    assert totals == {a: 1.0 if a == f"player_{game.winner}" else -1.0 for a in totals}
    assert [p.lost for p in game.players].count(True) == len(early)


def test_an_emperor_team_shares_its_reward_and_deploys() -> None:
    """Emperor (2012 809): six seats, two teams of three; the winning team's seats still in the
    game get +1, the others -1 (a general who left the game got its -1 as it left, even if its
    team wins later)."""
    e = mtg_env.env(num_players=6, variant="emperor", decks=FAST[:2] * 3, max_turns=200)
    e.reset(seed=4)
    seen: Counter = Counter()
    totals, _ends = _play_out(e, 4, seen=seen)
    game = e.unwrapped.game
    assert game.is_over
    won = set(winners(game))
    assert won in ({0, 1, 2}, {3, 4, 5}) or not won
    lost = {s for s in range(6) if game.players[s].lost}
    assert totals == {f"player_{s}": -1.0 if s in lost else 1.0 if s in won else
                      -1.0 if won else 0.0 for s in range(6)}
    assert seen[("declare_attackers", "attack_player")], "Emperor attacks name the player"


def test_two_headed_giant_teams_share_their_reward() -> None:
    e = mtg_env.env(num_players=4, variant="two_headed_giant", decks=FAST[:4], max_turns=120)
    e.reset(seed=1)
    seen: Counter = Counter()
    totals, ends = _play_out(e, 1, seen=seen)
    game = e.unwrapped.game
    assert game.is_over and game.winner is not None
    # Which defending player an unblocked attacker damages: a combat_damage decision's players.
    assert seen["combat_damage", "player"] > 0, seen
    won = game.winner // 2
    assert totals == {f"player_{q}": 1.0 if q // 2 == won else -1.0 for q in range(4)}
    assert all(over for _, over, _ in ends), "a Two-Headed Giant team loses together: no early exits"


def test_turn_limit_truncates_every_remaining_agent_with_zero_reward() -> None:
    e = raw_env(seed=1, num_players=5, max_turns=2)
    e.reset()
    while not e.truncations[e.agent_selection]:
        e.step(min(e.legal_actions()))
    assert set(e.truncations) == set(e.possible_agents)
    assert all(e.truncations.values()) and not any(e.terminations.values())
    assert all(r == 0.0 for r in e._cumulative_rewards.values())


# -- leaving the game mid-game -------------------------------------------------------------
def test_a_seat_that_leaves_is_terminated_at_once_with_minus_one() -> None:
    e = raw_env(seed=2, num_players=4)
    e.reset()
    deciding = e.agent_selection
    leaver = next(a for a in e.possible_agents if a != deciding)
    e.concede(leaver)
    assert e.terminations[leaver] and e._cumulative_rewards[leaver] == -1.0
    assert e.infos[leaver]["left_game"]
    assert e.agent_selection == leaver, "a terminated agent takes its None step first"
    others = [a for a in e.agents if a != leaver]
    assert not any(e.terminations[a] or e.truncations[a] for a in others)
    e.step(None)
    assert leaver not in e.agents and leaver not in e.rewards
    assert e.agent_selection == deciding, "the game goes on with the agent that was deciding"
    assert e.game.players[int(leaver[-1])].lost and not e.game.is_over
    obs = e.observe(deciding)
    assert obs["action_mask"].any()


def test_running_out_of_cards_leaves_the_game_at_that_step() -> None:
    e = raw_env(seed=3, num_players=4, decks=[FAST[0], FAST[1], SHORT, FAST[2]])
    e.reset()
    rng = random.Random(0)
    while not e.terminations["player_2"]:
        assert not any(e.terminations.values())
        e.step(_aggressive(rng, e.legal_actions()))
    assert e.game.players[2].lost and not e.game.is_over
    assert e.rewards["player_2"] == -1.0 and e._cumulative_rewards["player_2"] == -1.0
    assert [a for a, t in e.terminations.items() if t] == ["player_2"]
    assert e.agent_selection == "player_2"
    e.step(None)
    assert e.agents == ["player_0", "player_1", "player_3"]
    assert e.agent_selection == f"player_{e.game.decision.player}"
    assert all(r == 0.0 for r in e._cumulative_rewards.values())


def test_an_illegal_action_is_a_loss_of_that_seat_only() -> None:
    e = raw_env(seed=4, num_players=3)
    e.reset()
    agent = e.agent_selection
    bad = int(np.flatnonzero(e.observe(agent)["action_mask"] == 0)[0])
    with pytest.warns(IllegalActionWarning):
        e.step(bad)
    assert e.terminations[agent] and e._cumulative_rewards[agent] == -1.0
    assert "illegal_action" in e.infos[agent]
    assert not e.game.is_over and sum(p.lost for p in e.game.players) == 1
    e.step(None)
    assert len(e.agents) == 2 and agent not in e.agents


def test_an_illegal_action_in_two_headed_giant_loses_for_the_team() -> None:
    e = raw_env(seed=4, num_players=4, variant="two_headed_giant")
    e.reset()
    agent = e.agent_selection
    seat = int(agent[-1])
    bad = int(np.flatnonzero(e.observe(agent)["action_mask"] == 0)[0])
    with pytest.warns(IllegalActionWarning):
        e.step(bad)
    assert e.game.is_over
    for q in range(4):
        a = f"player_{q}"
        assert e.terminations[a]
        assert e._cumulative_rewards[a] == (-1.0 if q // 2 == seat // 2 else 1.0)


def test_reward_shaping_sums_to_the_plain_reward() -> None:
    totals = []
    for shaping in (0.0, 0.5):
        e = mtg_env.env(num_players=3, decks=FAST[:3], max_turns=120, reward_shaping=shaping)
        e.reset(seed=1)
        totals.append(_play_out(e, 1, check=False)[0])
    plain, shaped = totals
    assert sorted(plain.values()) == [-1.0, -1.0, 1.0]
    for a in plain:
        assert shaped[a] == pytest.approx(plain[a], abs=1e-9)


# -- observations --------------------------------------------------------------------------
def test_the_seat_blocks_are_in_the_viewers_order() -> None:
    e = raw_env(seed=3, num_players=4, max_turns=30)
    e.reset()
    game = e.game
    for q, P in enumerate(game.players):
        P.life = 10 + q
        P.poison = q
    col = e.observer.obs_layout.col["game"]
    prefixes = ("me", "seat1", "seat2", "seat3")
    for viewer in range(4):
        obs = e.observe(f"player_{viewer}")["observation"]["game"]
        order = tuple(viewer if k == 0 else (viewer + k) % 4 for k in range(4))
        assert e.observer.seat_order(viewer) == order == relative_seats(4, viewer)
        assert [obs[col[f"{p}_life"]] for p in prefixes] == [10 + q for q in order]
        assert [obs[col[f"{p}_poison"]] for p in prefixes] == list(order)
        assert [obs[col[f"{p}_deciding"]] for p in prefixes] == [
            float(q == game.decision.player) for q in order]
    # Permanents: each seat's rows lie in its relative block.
    while not game.permanents and not game.is_over:
        e.step(_aggressive(random.Random(0), e.legal_actions()))
    P = e.observer.caps.max_permanents
    for viewer in range(4):
        e.observe(f"player_{viewer}")
        order = e.observer.seat_order(viewer)
        for row, perm in e.observer.view_rows(viewer)["permanents"].items():
            assert order[row // P] == perm.controller


def test_two_headed_giant_lists_the_teammate_second() -> None:
    e = raw_env(seed=3, num_players=4, variant="two_headed_giant")
    e.reset()
    col = e.observer.obs_layout.col["game"]
    for viewer, order in ((0, (0, 1, 2, 3)), (1, (1, 0, 2, 3)), (2, (2, 3, 0, 1)), (3, (3, 2, 0, 1))):
        obs = e.observe(f"player_{viewer}")["observation"]["game"]
        assert e.observer.seat_order(viewer) == order
        assert [obs[col[f"{p}_teammate"]] for p in ("me", "seat1", "seat2", "seat3")] == [0, 1, 0, 0]


def test_seats_that_left_and_the_attacked_player_are_shown() -> None:
    e = raw_env(num_players=4, attack="multiple", decks=FAST[:4], max_turns=120)
    e.reset(seed=1)
    rng = random.Random(1)
    lay = e.observer.obs_layout
    gcol, pcol = lay.col["game"], lay.col["permanents"]
    seen_attack = seen_left = False
    while not e.game.is_over and not (seen_attack and seen_left):
        agent = e.agent_selection
        if e.terminations[agent]:
            e.step(None)
            continue
        game = e.game
        viewer = game.decision.player
        obs = e.observe(agent)["observation"]
        order = e.observer.seat_order(viewer)
        prefixes = ["me"] + [f"seat{k}" for k in range(1, 4)]
        assert [obs["game"][gcol[f"{p}_left_game"]] for p in prefixes] == [
            float(game.players[q].lost) for q in order]
        seen_left = seen_left or any(p.lost for p in game.players)
        for row, perm in e.observer.view_rows(viewer)["permanents"].items():
            whom = dict(game.attack_whom).get(perm.id)
            if perm.attacking and whom is not None:
                seen_attack = True
                assert obs["permanents"][row, pcol["attacks_seat"]] == order.index(whom) + 1
                assert obs["game"][gcol[f"{prefixes[order.index(whom)]}_defending"]] == 1
            elif not perm.attacking and perm.id not in game.decision.context.get("declared", ()):
                assert obs["permanents"][row, pcol["attacks_seat"]] == 0
        e.step(_aggressive(rng, e.legal_actions()))
    assert seen_attack and seen_left


def test_another_seats_hidden_hand_does_not_change_my_observation() -> None:
    e = raw_env(seed=5, num_players=3, flatten=True)
    e.reset()
    game = e.game
    viewer = game.decision.player
    other = (viewer + 2) % 3
    before = e.observe(f"player_{viewer}")["observation"].copy()
    theirs = e.observe(f"player_{other}")["observation"].copy()
    hand, library = game.players[other].hand, game.players[other].library
    swap = next(j for j, c in enumerate(library) if c.cdef.name != hand[0].cdef.name)
    hand[0], library[swap] = library[swap], hand[0]
    game.decisions_made += 1  # the observer's cache key: the state changed
    np.testing.assert_array_equal(e.observe(f"player_{viewer}")["observation"], before)
    assert not np.array_equal(e.observe(f"player_{other}")["observation"], theirs), \
        "the owner of the hand sees the change"


@pytest.mark.parametrize("config", [
    {"num_players": 3}, {"num_players": 4, "attack": "multiple"},
    {"num_players": 4, "variant": "two_headed_giant"},
])
def test_a_redacted_view_gives_the_envs_observation(config: dict) -> None:
    """``Observer.observe_view`` encodes a game sampled from a seat's redacted view (every card
    that seat can't see resampled: the other hands, teammates' included, and the libraries):
    the arrays equal the env's, so nothing hidden reaches a seat's observation."""
    from mtg_env.encoding import Observer

    n = config["num_players"]
    e = raw_env(decks=FAST[:n], max_turns=40, flatten=True, **config)
    e.reset(seed=2)
    other = Observer(flatten=True, players=n, attack_multiple=config.get("attack") == "multiple")
    rng = random.Random(2)
    checked = 0
    step = 0
    while e.agents and not e.game.is_over:
        agent = e.agent_selection
        if e.terminations[agent]:
            e.step(None)
            continue
        step += 1
        if step % 20 == 0:
            for q in range(n):
                if not e.game.players[q].lost:
                    o = e.observe(f"player_{q}")
                    o2, m2, _texts = other.observe_view(e.game.view(q), seed=step)
                    np.testing.assert_array_equal(o["observation"], o2)
                    np.testing.assert_array_equal(o["action_mask"], m2)
                    checked += 1
        e.step(_aggressive(rng, e.legal_actions()))
    assert checked >= 10 * n


# -- layout and config ---------------------------------------------------------------------
def test_layout_has_one_block_per_seat_and_the_attack_band_only_for_attack_multiple() -> None:
    two = raw_env()
    left = raw_env(num_players=3)
    multiple = raw_env(num_players=3, attack="multiple")
    caps = two.observer.caps
    for e, n in ((two, 2), (left, 3), (multiple, 3)):
        shapes = e.observer.obs_layout.shapes
        assert shapes["hand"][0] == n * caps.max_hand
        assert shapes["permanents"][0] == n * caps.max_permanents
        bands = dict(e.observer.act_layout.bands)
        assert bands["player"] == n
        assert bands["block"] == caps.max_permanents * (n - 1) * caps.max_permanents
    assert "attack_player" not in dict(left.observer.act_layout.bands)
    assert dict(multiple.observer.act_layout.bands)["attack_player"] == 2 * caps.max_permanents
    assert len({layout_signature(caps), layout_signature(caps, 3),
                layout_signature(caps, 3, attack_multiple=True)}) == 3
    assert two.possible_agents == ["player_0", "player_1"]
    assert multiple.possible_agents == ["player_0", "player_1", "player_2"]


@pytest.mark.parametrize("config,error", [
    ({"num_players": 1}, "num_players must be an integer from 2 to 6, got 1"),
    ({"num_players": 7}, "num_players must be an integer from 2 to 6"),
    ({"num_players": 3.0}, "num_players must be an integer"),
    ({"num_players": 3, "variant": "two_player"}, "'two_player' needs num_players=2, got 3"),
    ({"variant": "free_for_all"}, "'free_for_all' needs num_players from 3 to 6, got 2"),
    ({"num_players": 3, "variant": "two_headed_giant"}, "'two_headed_giant' needs num_players=4"),
    ({"num_players": 4, "variant": "2hg"}, "variant must be one of"),
    ({"attack": "left"}, "attack is an option of free_for_all games"),
    ({"num_players": 4, "variant": "two_headed_giant", "attack": "left"},
     "not of a two_headed_giant game"),
    ({"num_players": 3, "attack": "north"}, "attack must be one of"),
    ({"num_players": 4, "variant": "emperor"}, "'emperor' needs num_players=6"),
    ({"num_players": 5, "range": 3}, "range must be a number of seats from 1 to 2"),
    ({"num_players": 4, "variant": "two_headed_giant", "range": 1},
     "range is an option of free_for_all games"),
    ({"num_players": 3, "decks": ["white_weenie", "red_burn"]},
     r"decks must name exactly 3 decks \(num_players=3\), got 2"),
])
def test_config_errors(config: dict, error: str) -> None:
    with pytest.raises(ValueError, match=error):
        raw_env(**config)


def test_reset_options_need_one_deck_per_seat() -> None:
    e = raw_env(num_players=3)
    with pytest.raises(ValueError, match="exactly 3 decks"):
        e.reset(options={"decks": ["white_weenie", "red_burn"]})
    e.reset(seed=1, options={"decks": FAST[:3]})
    assert e.deck_names == tuple(Deck.builtin(name).name for name in FAST[:3])


def test_deck_pool_is_sampled_per_seat_and_render_lists_every_seat() -> None:
    e = raw_env(num_players=5, deck_pool=["white_weenie", "red_burn"], render_mode="ansi")
    e.reset(seed=0)
    assert len(e.deck_names) == 5 and len(set(e.deck_names)) == 2
    text = e.render()
    for q in range(5):
        assert f"player_{q} (player {q})" in text


def test_the_one_opponent_wrappers_refuse_multiplayer_configs() -> None:
    from mtg_env.env import SingleAgentEnv
    from mtg_env.vector import MtgVectorEnv

    with pytest.raises(ValueError, match="SingleAgentEnv plays two-player games"):
        SingleAgentEnv(num_players=3)
    with pytest.raises(ValueError, match="vector envs play two-player games"):
        MtgVectorEnv(2, num_players=4)
