"""Agents: the protocol, the random baseline, the heuristic player's rules-aware choices."""

from __future__ import annotations

import itertools

import pytest

from agents import AGENTS, Agent, HeuristicAgent, RandomAgent, index_texts, make_agent
from agents.env_adapter import EnvPolicy, ObservationPolicyAgent
from mtg_env import Deck, Game
from mtg_env.engine.view import view_for
from mtg_env.sim.decks import default_deck_names
from mtg_env.sim.runner import play_game
from mtg_env.testing import Scenario

DECKS = default_deck_names()


def test_registry_and_protocol() -> None:
    for name in AGENTS:
        agent = make_agent(name)
        assert isinstance(agent, Agent) and agent.name == name
    with pytest.raises(ValueError, match="unknown agent 'nope'"):
        make_agent("nope")


def test_random_agent_is_seeded() -> None:
    decks = [Deck.builtin(DECKS[0]), Deck.builtin(DECKS[1])]
    a = play_game(decks, [RandomAgent(), RandomAgent()], seed=4)
    b = play_game(decks, [RandomAgent(), RandomAgent()], seed=4)
    assert a.log == b.log


def test_index_texts_and_masked_entry_points() -> None:
    assert index_texts([1, 0, 1], {0: "pass", 2: "play Forest"}) == {0: "pass", 2: "play Forest"}
    assert index_texts([1, 0, 1], ["pass", "", "play Forest"]) == {0: "pass", 2: "play Forest"}
    with pytest.raises(ValueError, match="legal_texts has 3 entries"):
        index_texts([1, 0, 0, 1], ["a", "b", "c"])
    r = RandomAgent(seed=1)
    assert all(r.act_masked(None, [0, 1, 0, 1]) in (1, 3) for _ in range(20))
    g = Game.new([Deck.builtin(DECKS[0]), Deck.builtin(DECKS[1])], seed=1)
    d = g.decision
    texts = {5 + i: a.text for i, a in enumerate(d.options)}
    mask = [1 if i in texts else 0 for i in range(5 + len(d.options))]
    h = HeuristicAgent(strict=True)
    h.reset(d.player, 0)
    idx = h.act_masked(None, mask, texts, view=view_for(g, d.player))
    assert texts[idx] == h.act(view_for(g, d.player)).text
    with pytest.raises(ValueError, match="decides from the engine view"):
        h.act_masked(None, mask, texts)


def test_env_adapters_without_the_env() -> None:
    g = Game.new([Deck.builtin(DECKS[0]), Deck.builtin(DECKS[1])], seed=2)
    options = g.decision.options

    class FakeEnv:  # what EnvPolicy needs from the env: .game and .action_text(index)
        game = g

        def action_text(self, i: int) -> str:
            return options[i].text

    policy = EnvPolicy(HeuristicAgent(strict=True), FakeEnv())
    idx = policy(None, [1] * len(options))
    assert options[idx].text in ("keep", "mulligan")

    def encode(view):
        return None, [1] * len(view.decision.options), [a.text for a in view.decision.options]

    agent = ObservationPolicyAgent(lambda obs, mask: len(mask) - 1, encode)
    assert agent.act(view_for(g, g.decision.player)) == options[-1]


@pytest.mark.parametrize(("a", "b"), list(itertools.combinations_with_replacement(DECKS, 2)))
def test_heuristic_plays_every_pairing_cleanly(a: str, b: str) -> None:
    """Strict mode: no internal error, never taps mana by hand, so never burns."""
    decks = [Deck.builtin(a), Deck.builtin(b)]
    for seed in range(2):
        g = play_game(decks, [HeuristicAgent(strict=True), HeuristicAgent(strict=True)], seed)
        assert g.is_over
        assert not [line for line in g.log if "burns for" in line]


def test_heuristic_beats_random_by_a_clear_margin() -> None:
    """The full >=90% check over every ordered pairing is benchmarks/heuristic_vs_random.py."""
    wins = games = 0
    for k, (a, b) in enumerate(itertools.product(DECKS, repeat=2)):
        decks = [Deck.builtin(a), Deck.builtin(b)]
        for seat in (0, 1):
            agents = [HeuristicAgent(strict=True), RandomAgent()]
            if seat:
                agents.reverse()
            g = play_game(decks, agents, seed=100 + k)
            games += 1
            wins += g.winner == seat
    assert wins / games >= 0.85, f"heuristic won {wins}/{games}"


# -- rules-aware choices in set positions ------------------------------------------------------
def _choose(s: Scenario, seat: int = 0) -> str:
    agent = HeuristicAgent(strict=True)
    agent.reset(seat, 0)
    return agent.act(view_for(s.game, s.game.decision.player)).text


def _card_exists(name: str) -> bool:
    from mtg_env.engine.registry import all_cards

    return name in all_cards()


def test_burn_goes_face_when_lethal_else_at_the_best_creature() -> None:
    pos = {"turn": 3, "step": "precombat_main", "players": [
        {"hand": ["Shock"], "in_play": ["Mountain", "Mountain"]},
        {"life": 2, "in_play": ["Grizzly Bears", "Forest"]}]}
    s = Scenario(pos)
    assert _choose(s) == "play Shock"
    s.do("play Shock")
    assert _choose(s) == "target player 1"
    pos["players"][1]["life"] = 20
    pos["players"][1]["in_play"] = ["Grizzly Bears", "Llanowar Elves"] if _card_exists(
        "Llanowar Elves") else ["Grizzly Bears"]
    s = Scenario(pos)
    s.do("play Shock")
    assert _choose(s) == "target Grizzly Bears"


def test_attacks_for_lethal_and_holds_back_a_bad_attack() -> None:
    base = {"turn": 3, "step": "beginning_of_combat", "players": [
        {"in_play": ["Grizzly Bears"]},
        {"life": 2, "in_play": ["Craw Wurm"]}]}
    s = Scenario(base)
    s.pass_priority(2)
    # One attacker, one big blocker: attacking into a 6/4 loses the bear for nothing.
    assert _choose(s) == "done"
    base["players"][1]["in_play"] = []
    s = Scenario(base)
    s.pass_priority(2)
    assert _choose(s) == "attack with Grizzly Bears"


def test_blocks_to_kill_and_chumps_only_to_survive() -> None:
    pos = {"turn": 4, "active_player": 1, "step": "declare_attackers", "players": [
        {"in_play": ["Craw Wurm", "Grizzly Bears"]},
        {"in_play": [{"card": "Hill Giant", "attacking": True}]}]}
    s = Scenario(pos)
    s.pass_priority(2)
    assert _choose(s) == "block Hill Giant with Craw Wurm"
    pos["players"][0]["in_play"] = ["Grizzly Bears"]
    pos["players"][1]["in_play"] = [{"card": "Craw Wurm", "attacking": True}]
    s = Scenario(pos)
    s.pass_priority(2)
    assert _choose(s) == "done"  # 6 damage from 20 life: no chump
    pos["players"][0]["life"] = 6
    s = Scenario(pos)
    s.pass_priority(2)
    assert _choose(s) == "block Craw Wurm with Grizzly Bears"


def test_pump_saves_a_creature_from_burn() -> None:
    s = Scenario({"turn": 4, "active_player": 1, "step": "precombat_main", "players": [
        {"hand": ["Giant Growth"], "in_play": ["Forest", "Grizzly Bears"]},
        {"hand": ["Shock"], "in_play": ["Mountain"]}]})
    s.do("play Shock", "target Grizzly Bears", "pass")
    assert s.game.decision.player == 0
    assert _choose(s) == "play Giant Growth"


def test_mulligan_rules() -> None:
    g = Game.new([Deck.builtin(DECKS[0]), Deck.builtin(DECKS[1])], seed=0)
    agent = HeuristicAgent(strict=True)
    for seed in range(20):
        g = Game.new([Deck.builtin(DECKS[0]), Deck.builtin(DECKS[1])], seed=seed)
        p = g.decision.player
        agent.reset(p, 0)
        lands = sum(c.cdef.is_land for c in g.players[p].hand)
        choice = agent.act(view_for(g, p)).text
        assert choice == ("keep" if 2 <= lands <= 5 else "mulligan")


def test_regenerates_and_sacrifices_what_is_about_to_die() -> None:
    s = Scenario({"turn": 4, "active_player": 1, "step": "precombat_main", "players": [
        {"in_play": ["Swamp", "Drudge Skeletons", "Mogg Fanatic"]},
        {"hand": ["Shock", "Shock"], "in_play": ["Mountain", "Mountain", "Grizzly Bears"]}]})
    s.do("play Shock", "target Drudge Skeletons", "pass")
    assert _choose(s) == "activate Drudge Skeletons"
    s = Scenario({"turn": 4, "active_player": 1, "step": "precombat_main", "players": [
        {"in_play": ["Mogg Fanatic"]},
        {"hand": ["Shock"], "in_play": ["Mountain", "Forest"]}]})
    s.do("play Shock", "target Mogg Fanatic", "pass")
    assert _choose(s) == "activate Mogg Fanatic"  # it dies anyway: ping something first


def test_does_not_regenerate_again_while_a_shield_is_on_the_way() -> None:
    """Drudge Skeletons, "{B}: Regenerate Drudge Skeletons": with combat damage on the stack
    (2007 CR 510.1) each player regenerates their blocked or blocking Skeletons once. A second
    activation while the first is still on the stack above the damage buys nothing; activating
    each time priority came back used to run both players out of mana and pile up the stack
    (19 objects in an Evincar's Tyranny mirror of Mortivores, beyond the env's max_stack=16)."""
    s = Scenario({"turn": 4, "active_player": 1, "step": "declare_attackers", "players": [
        {"in_play": ["Swamp", "Swamp", "Swamp", "Drudge Skeletons"]},
        {"in_play": ["Swamp", "Swamp", "Swamp", {"card": "Drudge Skeletons", "attacking": True}]}]})
    s.do("pass", "pass", "block Drudge Skeletons#2 with Drudge Skeletons", "pass", "pass")
    assert s.game.step == "combat_damage" and len(s.game.stack) == 1
    assert _choose(s, 1) == "activate Drudge Skeletons#2"
    s.do("activate Drudge Skeletons#2", "pass")
    assert _choose(s, 0) == "activate Drudge Skeletons"
    s.do("activate Drudge Skeletons", "pass")
    assert _choose(s, 1) == "pass"  # both shields are on their way, above the damage
    s.do("pass")
    assert _choose(s, 1) == "pass"  # the first resolved; the Skeletons' own is still to come


def test_never_burns_mana_over_many_games() -> None:
    """The heuristic never taps a land by hand: mana burn only ever hits the random player."""
    decks = [Deck.builtin(DECKS[0]), Deck.builtin(DECKS[-1])]
    for seed in range(4):
        g = play_game(decks, [HeuristicAgent(strict=True), RandomAgent()], seed)
        assert not [line for line in g.log if line.startswith("player 0 burns")]


def test_cracks_a_fetch_land_at_an_end_of_turn() -> None:
    """Terramorphic Expanse: traded for a basic land at an end of turn (the tapped land untaps
    before it is needed), not in the main phase."""
    def expanse(step: str, active: int) -> Scenario:
        return Scenario({"turn": 4, "active_player": active, "step": step, "players": [
            {"in_play": ["Terramorphic Expanse"], "library": ["Forest", "Island"]}, {}]})
    assert _choose(expanse("precombat_main", 0)) == "pass"
    s = expanse("end_of_turn", 1)
    s.pass_priority(1)
    assert _choose(s) == "activate Terramorphic Expanse"


def test_the_heuristic_reads_a_target_filter_with_a_colour_list(caplog) -> None:
    """Sky Weaver: "{2}: Target white or black creature gains flying until end of turn." Its
    filter (``colors_any: [W, B]``) holds a list; the heuristic used to fail to hash it while
    valuing the ability and fall back to a default move (logged)."""
    import logging

    from mtg_env.engine.filters import cached_filter
    from mtg_env.testing import Scenario

    assert cached_filter({"colors_any": ["W", "B"]}) is not None
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"in_play": ["Plains", "Plains", "Plains", "Sky Weaver", "Suntail Hawk"]},
        {"in_play": ["Mountain"]}]})
    agent = HeuristicAgent()
    agent.reset(0, 1)
    with caplog.at_level(logging.ERROR):
        agent.act(s.game.view(0))
    assert "falling back" not in caplog.text
