"""Positions (Game.from_position / load_position, mtg_env/engine/position.py), PositionError,
lossless JSON (to_json / from_json) and independent copies."""

from __future__ import annotations

import json
import random

import pytest

from mtg_env import DecisionKind, Deck, Game, PositionError, StateError
from mtg_env.testing import Scenario

ISSUE_EXAMPLE = """
turn: 3
active_player: 0
step: precombat_main
players:
  - life: 20
    hand: [Giant Growth]
    library: [Forest, Forest, Forest]
    in_play: [Forest, Forest, {card: Rushwood Dryad, id: dryad}]
  - life: 20
    hand: [Incinerate]
    library: [Mountain, Mountain]
    in_play: [Mountain, Mountain, Mountain]
"""


def check_issue_example(g: Game) -> None:
    assert (g.turn, g.step, g.active_player) == (3, "precombat_main", 0)
    assert g.decision.kind is DecisionKind.PRIORITY and g.decision.player == 0
    assert not g.stack
    P0, P1 = g.players
    assert (P0.life, P1.life) == (20, 20)
    assert [c.name for c in P0.hand] == ["Giant Growth"]
    assert [c.name for c in P1.library] == ["Mountain", "Mountain"]
    assert sorted(p.name for p in g.permanents if p.controller == 0) == ["Forest", "Forest",
                                                                         "Rushwood Dryad"]
    assert [p.name for p in g.permanents if p.controller == 1] == ["Mountain"] * 3
    dryad = g.find_permanent("Rushwood Dryad")
    assert (dryad.power, dryad.toughness, dryad.owner, dryad.tapped, dryad.damage) == (2, 1, 0, False, 0)
    assert not dryad.summoning_sick


def test_issue_example_position_from_yaml_text() -> None:
    """The documented example position loads as described."""
    check_issue_example(Scenario(ISSUE_EXAMPLE).game)


def test_load_position_from_yaml_and_json_files(tmp_path) -> None:
    """Game.load_position(path) reads YAML or JSON files."""
    import yaml

    data = yaml.safe_load(ISSUE_EXAMPLE)
    y = tmp_path / "p.yaml"
    y.write_text(ISSUE_EXAMPLE)
    j = tmp_path / "p.json"
    j.write_text(json.dumps(data))
    check_issue_example(Game.load_position(str(y)))
    check_issue_example(Game.load_position(str(j)))
    check_issue_example(Scenario(str(j)).game)


def test_load_position_file_errors(tmp_path) -> None:
    """A missing or unparsable position file raises PositionError naming it."""
    with pytest.raises(PositionError, match="cannot read"):
        Game.load_position(str(tmp_path / "missing.yaml"))
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(PositionError, match=r"bad\.json"):
        Game.load_position(str(bad))


def test_position_fields() -> None:
    """Position format: life, poison, mana pool, graveyard (bottom first), removed, tapped,
    damage, counters, summoning_sick, controller (owner stays the listing player)."""
    g = Game.from_position({"turn": 6, "active_player": 1, "step": "upkeep", "players": [
        {"life": 7, "poison": 3, "mana_pool": "RRC", "graveyard": ["Shock", "Lava Axe"],
         "removed": ["Cancel"], "library": ["Forest"],
         "in_play": [{"card": "Hill Giant", "tapped": True, "damage": 1, "counters": {"+1/+1": 2}},
                     {"card": "Grizzly Bears", "controller": 1, "summoning_sick": True}]},
        {"library": ["Forest"]}]})
    P0 = g.players[0]
    assert (P0.life, P0.poison, P0.mana_pool) == (7, 3, [0, 0, 0, 2, 0, 1])
    assert [c.name for c in P0.graveyard] == ["Shock", "Lava Axe"]
    assert [c.name for c in P0.removed] == ["Cancel"]
    giant = g.find_permanent("Hill Giant")
    assert (giant.tapped, giant.damage, giant.counters, giant.power, giant.toughness) == \
        (True, 1, {"+1/+1": 2}, 5, 5)
    bears = g.find_permanent("Grizzly Bears")
    assert (bears.owner, bears.controller, bears.summoning_sick) == (0, 1, True)
    assert g.turn == 6 and g.active_player == 1 and g.decision.player == 1


def test_stolen_creature_goes_to_its_owners_graveyard() -> None:
    """2007 CR 217.1a: a card goes to its owner's graveyard whoever controlled it."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"hand": ["Shock"], "in_play": ["Mountain", {"card": "Grizzly Bears", "controller": 1}],
         "library": ["Forest"]},
        {"library": ["Forest"]}]})
    s.do("play Shock", "target Grizzly Bears")
    s.resolve()
    s.assert_zone(0, "graveyard", "Grizzly Bears")


def test_creature_controlled_through_persuasion_keeps_its_summoning_sick_flag() -> None:
    """Persuasion: "You control enchanted creature." (layer 2, computed as the position loads).
    The position's own ``summoning_sick`` wins: a creature its controller has controlled
    continuously since their turn began can attack (2007 CR 212.3d), one marked sick can't."""
    for sick in (False, True):
        g = Game.from_position({"turn": 3, "step": "beginning_of_combat", "players": [
            {"in_play": [{"card": "Persuasion", "attached_to": "b"}]},
            {"in_play": [{"card": "Grizzly Bears", "id": "b", "summoning_sick": sick}]}]})
        bears = g.find_permanent("Grizzly Bears")
        assert (bears.owner, bears.controller, bears.summoning_sick) == (1, 0, sick)
        s = Scenario.__new__(Scenario)
        s.game = g
        s.pass_priority(2)
        assert ("attack with Grizzly Bears" in s.options()) is not sick


def test_combat_position_attacking_and_blocking() -> None:
    """Position format: `attacking` and `blocking: [id]` in the combat steps."""
    s = Scenario({"turn": 3, "step": "declare_blockers", "players": [
        {"in_play": [{"card": "Hill Giant", "id": "g", "attacking": True}], "library": ["Forest"]},
        {"in_play": [{"card": "Grizzly Bears", "blocking": ["g"]}], "library": ["Forest"]}]})
    giant = s.perm("Hill Giant")
    assert giant.attacking and giant.blocked and giant.blockers == [s.perm("Grizzly Bears").id]
    s.pass_priority(2)
    s.pass_priority(2)
    s.assert_damage("Hill Giant", 2)
    s.assert_in_play("Grizzly Bears", False)


BAD_POSITIONS = [
    ({"players": [{"hand": ["Grizly Bears"]}, {}]}, "players\\[0\\].hand\\[0\\]: unknown card 'Grizly Bears': not a Tenth Edition card; did you mean 'Grizzly Bears'\\?"),
    ({"players": [{"in_play": ["Holy Strength"]}, {}]}, "Holy Strength: an Aura must be attached"),
    ({"players": [{"in_play": [{"card": "Forest", "id": "f"}, {"card": "Holy Strength", "attached_to": "f"}]}, {}]},
     "Aura must be attached to a permanent it can enchant"),
    ({"players": [{"in_play": [{"card": "Holy Strength", "attached_to": "x"}]}, {}]}, "no permanent has id 'x'"),
    ({"players": [{"in_play": [{"card": "Grizzly Bears", "damage": -1}]}, {}]}, "in_play\\[0\\].damage: must be at least 0"),
    ({"players": [{"in_play": ["Shock"]}, {}]}, "Shock is an instant or sorcery"),
    ({"step": "untap", "players": [{}, {}]}, "not a step with priority"),
    ({"step": "cleanup", "players": [{}, {}]}, "not a step with priority"),
    ({"step": "main", "players": [{}, {}]}, "not a step with priority"),
    ({"players": [{}]}, "list of 2 to 6 player entries"),
    ({"players": [{"lfe": 3}, {}]}, "unknown key\\(s\\) \\['lfe'\\]"),
    ({"turns": 3, "players": [{}, {}]}, "unknown top-level key"),
    ({"players": [{"in_play": [{"card": "Forest", "tap": True}]}, {}]}, "unknown key\\(s\\) \\['tap'\\]"),
    ({"players": [{"in_play": [{"card": "Grizzly Bears", "attacking": True}]}, {}]}, "'attacking' needs a combat step"),
    ({"step": "declare_attackers", "players": [{}, {"in_play": [{"card": "Grizzly Bears", "attacking": True}]}]},
     "only the active player's creatures can attack"),
    ({"step": "declare_blockers", "players": [
        {"in_play": [{"card": "Grizzly Bears", "id": "a", "attacking": True}, {"card": "Hill Giant", "blocking": ["a"]}]}, {}]},
     "only the defending player's creatures can block"),
    ({"step": "declare_blockers", "players": [{"in_play": [{"card": "Grizzly Bears", "id": "a"}]},
                                             {"in_play": [{"card": "Grizzly Bears", "blocking": ["a"]}]}]},
     "not the id of an attacking creature"),
    ({"players": [{"in_play": [{"card": "Forest", "id": "a"}, {"card": "Forest", "id": "a"}]}, {}]}, "duplicate id 'a'"),
    ({"players": [{"mana_pool": "GX"}, {}]}, "'X' is not a mana symbol"),
    ({"active_player": 2, "players": [{}, {}]}, "active_player must be 0 or 1"),
    ({"turn": 0, "players": [{}, {}]}, "turn: must be at least 1"),
    ({"players": [{"life": "20"}, {}]}, "players\\[0\\].life: expected an integer"),
    ({"players": [{"poison": -1}, {}]}, "poison: must be at least 0"),
    ([1, 2], "must be a mapping"),
    ({"players": [{"in_play": [{"card": "Forest", "id": "f"}, {"card": "Grizzly Bears", "attached_to": "f"}]}, {}]},
     "only Auras and Equipment can be attached"),
    ({"players": [{"in_play": [{"card": "Forest", "id": "f"}, {"card": "Loxodon Warhammer", "attached_to": "f"}]}, {}]},
     "Equipment can be attached only to a creature"),
    ({"players": [{"in_play": [{"card": "Grizzly Bears", "counters": {"+1/+1": -1}}]}, {}]}, "counters"),
    ({"players": [{"hand": "Forest"}, {}]}, "hand: must be a list"),
    ({"players": [{"in_play": [{"card": "Forest", "controller": 5}]}, {}]}, "controller: must be 0 or 1"),
    ({"players": [{"hand": ["Mind Bend"]}, {}]}, "not implemented yet: Mind Bend"),
]


@pytest.mark.parametrize(("data", "message"), BAD_POSITIONS)
@pytest.mark.usefixtures("mind_bend_unimplemented")
def test_position_errors(data, message: str) -> None:
    """A position that breaks the rules raises PositionError saying what and
    where."""
    with pytest.raises(PositionError, match=message):
        Game.from_position(data)


# -- JSON -------------------------------------------------------------------------------------
def midcombat() -> Scenario:
    s = Scenario({"turn": 3, "step": "declare_blockers", "seed": 9, "players": [
        {"in_play": [{"card": "Craw Wurm", "id": "w", "attacking": True},
                     {"card": "Loxodon Warhammer", "attached_to": "w"}, "Forest"],
         "hand": ["Giant Growth"], "library": ["Forest", "Hill Giant", "Shock"]},
        {"in_play": [{"card": "Grizzly Bears", "blocking": ["w"]},
                     {"card": "Grizzly Bears", "blocking": ["w"]}, "Mountain"],
         "hand": ["Shock"], "library": ["Mountain"] * 3, "mana_pool": "R"}]})
    s.pass_priority(2)
    return s


def test_json_round_trip_mid_decision_and_continues_identically() -> None:
    """to_json()/from_json() is lossless mid-combat (a combat-damage
    decision pending), and the restored game continues exactly as the original."""
    s = midcombat()
    g = s.game
    assert g.decision.kind is DecisionKind.COMBAT_DAMAGE
    text = g.to_json()
    h = Game.from_json(text)
    assert h.to_json() == text
    for a in ("assign 3 damage to Grizzly Bears", "assign 2 damage to Grizzly Bears#2", "pass",
              "play Shock#2", "target Craw Wurm", "pass", "pass", "pass", "pass"):
        g.apply(a)
        h.apply(a)
        assert g.to_json() == h.to_json()
    # 4 trampled over; the Wurm died (Shock + blockers) but its lifelink trigger waits.
    assert [P.life for P in h.players] == [20, 16]
    assert [x.source_name for x in h.stack] == ["Craw Wurm"]
    h.apply("pass")
    h.apply("pass")
    assert h.players[0].life == 29


def test_json_round_trip_of_a_random_game_keeps_the_rng() -> None:
    """from_json restores the RNG: shuffles after restoring match."""
    decks = [Deck.builtin("starter_green"), Deck.builtin("starter_red")]
    g = Game.new(decks, seed=21)
    rng = random.Random(21)
    for _ in range(80):
        g.apply(rng.choice(g.decision.options))
    h = Game.from_json(g.to_json())
    assert h.rng.state == g.rng.state
    for _ in range(300):
        if g.is_over:
            break
        a = rng.choice(g.decision.options).text
        g.apply(a)
        h.apply(a)
    assert g.to_json() == h.to_json()


def test_from_json_errors() -> None:
    """Game.from_json rejects text that is not a game state with StateError."""
    with pytest.raises(StateError):
        Game.from_json("not json")
    with pytest.raises(StateError, match="missing 'format'"):
        Game.from_json("{}")
    text = json.loads(midcombat().game.to_json())
    text["version"] = 999
    with pytest.raises(StateError, match="version"):
        Game.from_json(json.dumps(text))


def test_finished_game_round_trips() -> None:
    """A finished game serializes and restores with its result."""
    s = Scenario({"turn": 3, "step": "upkeep", "players": [{"life": 0}, {}]})
    h = Game.from_json(s.game.to_json())
    assert h.is_over and h.winner == 1 and h.decision is None


# -- copies -----------------------------------------------------------------------------------
def test_copy_is_independent() -> None:
    """game.copy() is independent: playing on the copy leaves the original
    unchanged (permanents, zones, stack, frames, life, mana, effects, RNG)."""
    s = midcombat()
    g = s.game
    before = g.to_json()
    c = g.copy()
    assert c.to_json() == before
    for a in ("assign 0 damage to Grizzly Bears", "pass", "play Shock#2", "target Craw Wurm",
              "pass", "pass", "pass", "pass"):
        c.apply(a)
    c.rng.below(100)
    c.players[0].life = 1
    assert g.to_json() == before
    assert g.decision.kind is DecisionKind.COMBAT_DAMAGE
    # And the original can still play on exactly as before.
    g.apply("assign 0 damage to Grizzly Bears")
    assert g.decision.kind is DecisionKind.PRIORITY


def test_copy_plays_on_like_the_original() -> None:
    """game.copy() continues exactly as the original with the same actions."""
    decks = [Deck.builtin("starter_white"), Deck.builtin("starter_blue_black")]
    g = Game.new(decks, seed=4)
    rng = random.Random(4)
    for _ in range(100):
        g.apply(rng.choice(g.decision.options))
    c = g.copy()
    for _ in range(400):
        if g.is_over:
            break
        a = rng.choice(g.decision.options).text
        g.apply(a)
        c.apply(a)
    assert g.to_json() == c.to_json()


def test_permanent_pump_on_copy_does_not_leak() -> None:
    """copy(): a continuous effect created on the copy doesn't change the original's P/T."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"hand": ["Giant Growth"], "in_play": ["Forest", "Grizzly Bears"], "library": ["Forest"]},
        {"library": ["Forest"]}]})
    c = s.game.copy()
    c.apply("play Giant Growth")
    c.apply("target Grizzly Bears")
    c.apply("pass")
    c.apply("pass")
    assert (c.find_permanent("Grizzly Bears").power, s.perm("Grizzly Bears").power) == (5, 2)
    assert s.game.players[0].hand and not c.players[0].hand


def test_public_state_attributes() -> None:
    """The read-only state: game.is_over, winner, turn, step, active_player,
    players[i] (.life .poison .mana_pool .hand .library .graveyard .removed), game.permanents
    (.name .owner .controller .tapped .damage .power .toughness .counters .attached_to
    .summoning_sick), game.stack and game.log; the zones of 2007 CR 217."""
    s = Scenario({"turn": 5, "step": "precombat_main", "players": [
        {"life": 12, "poison": 2, "mana_pool": "U", "hand": ["Shock"], "library": ["Forest", "Island"],
         "graveyard": ["Lava Axe"], "removed": ["Cancel"],
         "in_play": ["Mountain", {"card": "Grizzly Bears", "id": "b", "damage": 1, "tapped": True,
                                  "counters": {"+1/+1": 1}},
                     {"card": "Holy Strength", "attached_to": "b"}]},
        {"in_play": [{"card": "Hill Giant", "summoning_sick": True}], "library": ["Forest"]}]})
    g = s.game
    assert (g.is_over, g.winner, g.turn, g.step, g.active_player) == (False, None, 5, "precombat_main", 0)
    P = g.players[0]
    assert (P.life, P.poison, P.mana_pool) == (12, 2, [0, 1, 0, 0, 0, 0])
    assert ([c.name for c in P.hand], [c.name for c in P.library], [c.name for c in P.graveyard],
            [c.name for c in P.removed]) == (["Shock"], ["Forest", "Island"], ["Lava Axe"], ["Cancel"])
    bears = g.find_permanent("Grizzly Bears")
    assert (bears.name, bears.owner, bears.controller, bears.tapped, bears.damage, bears.power,
            bears.toughness, bears.counters, bears.attached_to, bears.summoning_sick) == \
        ("Grizzly Bears", 0, 0, True, 1, 4, 5, {"+1/+1": 1}, None, False)
    assert g.find_permanent("Holy Strength").attached_to == bears.id
    assert g.find_permanent("Hill Giant").summoning_sick
    s.do("play Shock", "target Hill Giant")
    assert [x.name for x in g.stack] == ["Shock"]
    s.resolve()
    assert [c.name for c in g.players[0].graveyard] == ["Lava Axe", "Shock"]
    assert any("Shock" in line for line in g.log)


def test_determinize_hides_only_what_the_player_cannot_see() -> None:
    """Information sets for search agents: the opponent's hand and library are resampled
    together, both library orders shuffled; everything public and the viewer's hand stay."""
    from mtg_env import Deck, Game

    g = Game.new([Deck.builtin("starter_green"), Deck.builtin("starter_red")], seed=5)
    me = g.decision.player
    d = g.determinize(me, seed=11)
    opp = 1 - me
    assert [c.cid for c in d.players[me].hand] == [c.cid for c in g.players[me].hand]
    assert len(d.players[opp].hand) == len(g.players[opp].hand)
    assert sorted(c.cid for c in d.players[opp].hand + d.players[opp].library) == sorted(
        c.cid for c in g.players[opp].hand + g.players[opp].library)
    assert [c.cid for c in d.players[opp].hand] != [c.cid for c in g.players[opp].hand]
    assert sorted(c.cid for c in d.players[me].library) == sorted(c.cid for c in g.players[me].library)
    assert d.decision.options == g.decision.options
    d.apply(d.decision.options[0])
    assert g.decisions_made == 0  # the original is untouched
