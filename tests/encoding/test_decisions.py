"""Every decision kind the engine asks, set up as a position: the mask is exact, each index means
what the layout says, and the observation shows the decision's context."""

from __future__ import annotations

import numpy as np
import pytest

from mtg_env.encoding import Capacities, CapacityError, EncodingError, Observer
from mtg_env.encoding.vocab import HIDDEN_ID, card_index
from mtg_env.engine.actions import Action, Decision, DecisionKind
from mtg_env.engine.frames import MulliganFrame
from mtg_env.engine.registry import get_card
from mtg_env.testing import Scenario

from .helpers import check_decision

LIB = ["Plains"] * 5


def _scenario(p0: dict, p1: dict, step: str = "precombat_main", skip_trivial: bool = True) -> Scenario:
    p0.setdefault("library", list(LIB))
    p1.setdefault("library", list(LIB))
    return Scenario({"turn": 3, "step": step, "players": [p0, p1]}, skip_trivial=skip_trivial)


def _game_col(obs: Observer, o: dict, name: str) -> float:
    return float(o["game"][obs.obs_layout.col["game"][name]])


def _index(legal: dict, text: str) -> int:
    return next(i for i, a in legal.items() if a.text == text)


def test_mulligan_keep_and_mulligan_bands() -> None:
    s = Scenario({"players": [{"hand": ["Forest"] * 7, "library": LIB}, {"library": LIB}]})
    g = s.game
    g.frames.append(MulliganFrame(0))
    g.decision = None
    g.run_to_decision()
    obs = Observer()
    legal = check_decision(obs, g)
    assert {a.text: i for i, a in legal.items()} == {"keep": 1, "mulligan": 0}


def test_priority_play_land_spell_and_mana_abilities() -> None:
    s = _scenario({"hand": ["Forest", "Giant Growth", "Grizzly Bears"],
                   "in_play": ["Forest", "Forest", {"card": "Grizzly Bears", "id": "b"}]}, {})
    obs = Observer()
    legal = check_decision(obs, s.game)
    lay = obs.act_layout
    hand = lay.offset["hand"]
    forest, growth = s.game.players[0].hand[:2]
    assert _index(legal, f"play {forest.label}") == hand + 0  # hand order
    assert _index(legal, f"play {growth.label}") == hand + 1
    f1, f2 = (p.card.label for p in s.game.permanents[:2])
    assert _index(legal, f"tap {f1} for G") == lay.offset["ability"] + 0
    assert _index(legal, f"tap {f2} for G") == lay.offset["ability"] + obs.caps.max_ability_slots
    assert _index(legal, "pass") == 0


def test_target_creature_player_and_stack_object() -> None:
    s = _scenario({"hand": ["Grizzly Bears"], "in_play": ["Forest", "Forest"]},
                  {"hand": ["Cancel", "Shock"], "in_play": ["Island", "Island", "Island", "Mountain"]})
    g = s.game
    g.apply("play Grizzly Bears")
    g.apply("play Shock")  # player 1 responds: Shock targets a player or a creature
    obs = Observer()
    legal = check_decision(obs, g)
    o, _ = obs.observe(g, 1)
    assert {a.text for a in legal.values()} == {"target player 0", "target player 1"}
    assert _game_col(obs, o, "kind_target") == 1 and _game_col(obs, o, "target_index") == 1
    focus = int(_game_col(obs, o, "focus_stack"))
    assert focus == 1  # Shock is the top of the stack
    st = obs.obs_layout.col["stack"]
    assert o["stack"][0, st["being_played"]] == 1 and o["stack"][0, st["focus"]] == 1
    assert o["stack"][1, st["card_id"]] == card_index(get_card("Grizzly Bears"))
    g.apply("target player 0")
    g.apply("play Cancel")
    legal = check_decision(obs, g)
    assert {a.text for a in legal.values()} == {"target Shock", "target Grizzly Bears"}
    assert _index(legal, "target Shock") == obs.act_layout.offset["stack"] + 1  # under Cancel


def test_declare_attackers_and_blockers() -> None:
    s = _scenario({"in_play": [{"card": "Grizzly Bears"}, {"card": "Craw Wurm"}]},
                  {"in_play": [{"card": "Grizzly Bears"}, {"card": "Wall of Wood"}]},
                  step="beginning_of_combat")
    g = s.game
    while g.decision.kind is not DecisionKind.DECLARE_ATTACKERS:
        g.apply("pass")
    obs = Observer()
    check_decision(obs, g)
    g.apply("attack with Grizzly Bears")
    legal = check_decision(obs, g)
    o, _ = obs.observe(g, 0)
    pc = obs.obs_layout.col["permanents"]
    assert o["permanents"][0, pc["marked"]] == 1 and o["permanents"][1, pc["marked"]] == 0
    g.apply("attack with Craw Wurm")  # "done" is then the only option: applied automatically
    while g.decision.kind is not DecisionKind.DECLARE_BLOCKERS:
        g.apply("pass")
    legal = check_decision(obs, g)
    P = obs.caps.max_permanents
    i = _index(legal, "block Craw Wurm with Wall of Wood")
    assert i == obs.act_layout.offset["block"] + 1 * P + 1
    g.apply("block Craw Wurm with Wall of Wood")
    check_decision(obs, g)
    o, _ = obs.observe(g, 1)
    assert o["permanents"][1, pc["marked"]] == 1
    assert o["permanents"][1, pc["block_pending_ref"]] == P + 1 + 1  # ref of the Wurm's row
    o0, _ = obs.observe(g, 0)
    assert not o0["permanents"][:, pc["marked"]].any(), "the other player's choices are private"


def test_combat_damage_division() -> None:
    s = _scenario({"in_play": [{"card": "Craw Wurm", "id": "w", "attacking": True}]},
                  {"in_play": [{"card": "Grizzly Bears", "blocking": ["w"]},
                               {"card": "Grizzly Bears", "blocking": ["w"]}]},
                  step="declare_blockers", skip_trivial=False)
    g = s.game
    while g.decision.kind is not DecisionKind.COMBAT_DAMAGE:
        g.apply("pass")
    obs = Observer()
    legal = check_decision(obs, g)
    assert sorted(legal) == [obs.act_layout.offset["assign"] + n for n in range(7)]
    o, _ = obs.observe(g, 0)
    pc = obs.obs_layout.col["permanents"]
    P = obs.caps.max_permanents
    assert _game_col(obs, o, "damage_remaining") == 6
    assert o["permanents"][0, pc["damage_source"]] == 1
    assert o["permanents"][P, pc["damage_recipient"]] == 1
    g.apply("assign 2 damage to Grizzly Bears")
    while g.decision is not None and g.decision.kind is DecisionKind.COMBAT_DAMAGE:
        check_decision(obs, g)
        g.apply(g.decision.options[-1])
    assert g.stack and g.stack[-1].kind == "combat_damage"
    o, _ = obs.observe(g, 1)
    st = obs.obs_layout.col["stack"]
    assert o["stack"][0, st["kind_combat_damage"]] == 1
    assert o["stack"][0, st["damage_to_creatures"]] == 6 + 2 + 2  # both ways
    assert o["permanents"][0, pc["combat_damage_to"]] + o["permanents"][1, pc["combat_damage_to"]] == 6
    assert o["permanents"][P, pc["combat_damage_from"]] == 6  # the Wurm, now the opponent's row
    assert o["permanents"][P, pc["combat_damage_to"]] == 4


def test_order_triggers() -> None:
    s = _scenario({"hand": ["Giant Growth"],
                   "in_play": ["Forest", "Wurm's Tooth", "Wurm's Tooth", "Grizzly Bears"]}, {})
    g = s.game
    g.apply("play Giant Growth")
    assert g.decision.kind is DecisionKind.ORDER_TRIGGERS
    obs = Observer()
    legal = check_decision(obs, g)
    assert sorted(legal) == [obs.act_layout.offset["order"] + i for i in (0, 1)]
    o, _ = obs.observe(g, 0)
    tc = obs.obs_layout.col["triggers"]
    assert o["triggers"][:2, tc["present"]].tolist() == [1, 1]
    assert o["triggers"][0, tc["card_id"]] == card_index(get_card("Wurm's Tooth"))
    g.apply(g.decision.options[1])
    o, _ = obs.observe(g, g.decision.player)
    assert not o["triggers"].any()


def test_yes_no_and_graveyard_target() -> None:
    s = _scenario({"hand": ["Gravedigger"], "graveyard": ["Grizzly Bears", "Shock", "Craw Wurm"],
                   "in_play": ["Swamp"] * 4}, {"graveyard": ["Craw Wurm"]})
    g = s.game
    g.apply("play Gravedigger")
    obs = Observer()
    legal = check_decision(obs, g)
    gy = obs.act_layout.offset["graveyard"]
    assert {a.text: i for i, a in legal.items()} == {"target Grizzly Bears": gy + 0,
                                                    "target Craw Wurm": gy + 2}
    g.apply("target Craw Wurm")
    while g.decision.kind is not DecisionKind.YES_NO:
        g.apply("pass")
    legal = check_decision(obs, g)
    assert {a.text: i for i, a in legal.items()} == {"yes": 1, "no": 0}


def test_library_search_shows_candidates_to_the_searcher_only() -> None:
    s = _scenario({"hand": ["Diabolic Tutor"], "library": ["Shock", "Forest", "Grizzly Bears"],
                   "in_play": ["Swamp"] * 4}, {})
    g = s.game
    g.apply("play Diabolic Tutor")
    assert g.decision.kind is DecisionKind.CHOOSE_CARDS
    obs = Observer()
    legal = check_decision(obs, g)
    rev = obs.act_layout.offset["revealed"]
    assert sorted(legal) == [rev + i for i in range(3)]
    o, _ = obs.observe(g, 0)
    rc = obs.obs_layout.col["revealed"]
    assert o["revealed"][:3, rc["zone"]].tolist() == [3, 3, 3]  # library
    assert _game_col(obs, o, "choose_find") == 1
    other, _ = obs.observe(g, 1)
    assert not other["revealed"].any()
    g.apply("find Grizzly Bears")
    o, _ = obs.observe(g, 1 - g.decision.player if g.decision else 1)
    assert not o["revealed"].any()


def test_look_at_the_top_cards() -> None:
    s = _scenario({"hand": ["Telling Time"], "library": ["Shock", "Forest", "Grizzly Bears", "Forest"],
                   "in_play": ["Island"] * 2}, {})
    g = s.game
    g.apply("play Telling Time")
    obs = Observer()
    while g.decision is not None and g.decision.kind is DecisionKind.CHOOSE_CARDS:
        check_decision(obs, g)
        g.apply(g.decision.options[0])


def test_choosing_from_the_opponents_hand_reveals_it() -> None:
    s = _scenario({"in_play": ["Swamp", "Swamp", {"card": "Thrull Surgeon", "summoning_sick": False}]},
                  {"hand": ["Shock", "Forest", "Giant Growth"]})
    g = s.game
    g.apply("activate Thrull Surgeon")
    g.apply("target player 1")
    assert g.decision.kind is DecisionKind.CHOOSE_CARDS
    obs = Observer()
    legal = check_decision(obs, g)
    H = obs.caps.max_hand
    assert sorted(legal) == [obs.act_layout.offset["hand"] + H + i for i in range(3)]
    o, _ = obs.observe(g, 0)
    hc = obs.obs_layout.col["hand"]
    assert o["hand"][H:H + 3, hc["known"]].tolist() == [1, 1, 1]
    g.apply(next(a for a in g.decision.options if a.text.startswith("discard Forest")))
    o, _ = obs.observe(g, 0)
    assert o["hand"][H:H + 2, hc["known"]].tolist() == [1, 1], "looked-at cards stay known"


def test_x_value() -> None:
    s = _scenario({"hand": ["Blaze"], "in_play": ["Mountain"] * 4}, {"in_play": ["Grizzly Bears"]})
    g = s.game
    g.apply("play Blaze")
    obs = Observer()
    legal = check_decision(obs, g)
    assert sorted(legal) == [obs.act_layout.offset["x"] + n for n in range(4)]


def test_bounced_card_is_known_in_the_opponents_hand() -> None:
    s = _scenario({"hand": ["Unsummon"], "in_play": ["Island"]},
                  {"in_play": ["Grizzly Bears"], "hand": ["Forest"]})
    g = s.game
    obs = Observer()
    obs.observe(g, 0)
    g.apply("play Unsummon")
    obs.note(g)
    while g.stack:
        g.apply("pass")
        obs.note(g)
    o, _ = obs.observe(g, 0)
    H = obs.caps.max_hand
    hc = obs.obs_layout.col["hand"]
    assert o["hand"][H, hc["known"]] == 1
    assert o["hand"][H, hc["card_id"]] == card_index(get_card("Grizzly Bears"))
    assert o["hand"][H + 1, hc["known"]] == 0 and o["hand"][H + 1, hc["card_id"]] == HIDDEN_ID


@pytest.mark.parametrize(("verb", "args", "band", "slot"), [
    ("color", ("R",), "color", 3), ("player", (1,), "player", 1), ("mode", (2,), "mode", 2),
    ("player", (0,), "player", 0),
])
def test_decisions_the_engine_may_ask(verb: str, args: tuple, band: str, slot: int) -> None:
    """Kinds no card asks yet (choose color, choose player, mode): mapped by verb all the same."""
    s = _scenario({"in_play": ["Forest"]}, {})
    g = s.game
    kind = {"color": DecisionKind.CHOOSE_COLOR, "player": DecisionKind.CHOOSE_PLAYER,
            "mode": DecisionKind.MODE}[verb]
    g.decision = Decision(0, kind, [Action(verb, f"{verb} {args[0]}", args)], "test")
    obs = Observer()
    legal = check_decision(obs, g)
    assert list(legal) == [obs.act_layout.offset[band] + slot]


def test_capacity_error_names_the_config_key() -> None:
    s = _scenario({"hand": ["Forest"] * 6}, {})
    obs = Observer(Capacities(max_hand=5))
    with pytest.raises(CapacityError, match="max_hand=5") as exc:
        obs.observe(s.game, 0)
    assert exc.value.key == "max_hand" and exc.value.needed == 6


def test_capacity_error_for_x() -> None:
    s = _scenario({"hand": ["Blaze"], "in_play": ["Mountain"] * 8}, {"in_play": ["Grizzly Bears"]})
    g = s.game
    g.apply("play Blaze")
    obs = Observer(Capacities(max_x=4))
    with pytest.raises(CapacityError, match="max_x"):
        obs.legal(g)


def test_unknown_verb_is_an_error_not_a_silent_drop() -> None:
    s = _scenario({"in_play": ["Forest"]}, {})
    g = s.game
    g.decision = Decision(0, DecisionKind.PRIORITY, [Action("pass", "pass"),
                                                     Action("sing", "sing", ())], "test")
    with pytest.raises(EncodingError, match="sing"):
        Observer().legal(g)


def test_observation_is_a_fresh_copy() -> None:
    s = _scenario({"hand": ["Forest"]}, {})
    obs = Observer()
    o1, m1 = obs.observe(s.game, 0)
    o1["hand"][:] = 7
    m1[:] = 0
    o2, m2 = obs.observe(s.game, 0)
    assert o2["hand"][0, 0] == 1 and m2.any()
    flat = Observer(flatten=True)
    f1, _ = flat.observe(s.game, 0)
    f1[:] = -1
    f2, _ = flat.observe(s.game, 0)
    assert (f2 >= 0).all()
    np.testing.assert_array_equal(f2, np.concatenate([a.ravel() for a in o2.values()]))
