"""The trigger vocabulary and other card-data mechanisms, tested on the engine: one draw
event per card drawn, ``tapped_for_mana`` from the automatic payer, per-blocker events, last known
information of an event's permanent, distinct targets, coin flips from the seeded generator,
nested effects, costs, and the load-time checks of the new card-language words.

Rule numbers are 2007 CR where known, else 2012 CR.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

from mtg_env import Game
from mtg_env.cards.loader import DATA_DIR, load_facts, load_file
from mtg_env.engine.abilities import TargetSpec
from mtg_env.engine.errors import CardDataError, MtgError
from mtg_env.engine.filters import Site
from mtg_env.engine.model import StackItem
from mtg_env.engine.ops import OPS, compile_effect
from mtg_env.engine.references import compile_amount, compile_ref
from mtg_env.engine.targets import assignable_targets
from mtg_env.engine.zones import draw_cards
from mtg_env.testing import Scenario, main, watch_events

FACTS = load_facts()["cards"]
CARDS: dict = {}
for _p in sorted(DATA_DIR.glob("*.yaml")):
    CARDS.update(yaml.safe_load(_p.read_text()))


def spy(s: Scenario, monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, dict]]:
    """Record every event the game fires from now on."""
    seen: list[tuple[str, dict]] = []
    watch_events(monkeypatch, s.game, lambda name, ev: seen.append((name, ev)))
    return seen


def fails(tmp_path: Path, name: str, change, *fragments: str) -> None:
    entry = copy.deepcopy(CARDS[name])
    change(entry)
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump({name: entry}))
    with pytest.raises(CardDataError) as exc:
        load_file(path, FACTS)
    for f in fragments:
        assert f in str(exc.value), f"{f!r} not in {exc.value}"


# -- events ------------------------------------------------------------------------------------
def test_each_card_drawn_is_a_separate_draw_event(monkeypatch: pytest.MonkeyPatch) -> None:
    """2007 CR: each card drawn is a separate draw (Underworld Dreams triggers per card): drawing
    three fires three ``draw`` events; an empty library stops the events with the draws."""
    s = main({"library": ["Forest", "Forest"]})
    seen = spy(s, monkeypatch)
    draw_cards(s.game, 0, 3)
    assert [(n, ev["player"]) for n, ev in seen if n == "draw"] == [("draw", 0), ("draw", 0)]
    assert s.game.players[0].drew_from_empty


def test_automatic_payer_taps_fire_tapped_for_mana_per_land(monkeypatch: pytest.MonkeyPatch) -> None:
    """Manabarbs' event: the automatic payer taps lands with their mana abilities, so each land
    tapped for a spell fires ``tapped_for_mana`` for its controller."""
    s = main({"hand": ["Hill Giant"], "in_play": ["Mountain"] * 5})
    seen = spy(s, monkeypatch)
    s.do("play Hill Giant")
    taps = [ev for n, ev in seen if n == "tapped_for_mana"]
    assert len(taps) == 4
    assert {ev["player"] for ev in taps} == {0}


def test_becomes_blocked_by_fires_once_per_blocker(monkeypatch: pytest.MonkeyPatch) -> None:
    """2007 CR 309 (declare blockers): ``becomes_blocked_by`` fires for each blocking creature,
    ``becomes_blocked`` once for the attacker."""
    s = Scenario({"turn": 3, "step": "beginning_of_combat", "players": [
        {"in_play": ["Hill Giant"]}, {"in_play": ["Grizzly Bears", "Grizzly Bears"]}]})
    s.pass_priority(2)
    s.do("attack with Hill Giant")
    s.pass_priority(2)
    seen = spy(s, monkeypatch)
    s.do("block Hill Giant with Grizzly Bears", "block Hill Giant with Grizzly Bears#2")
    names = [n for n, _ in seen]
    assert names.count("becomes_blocked_by") == 2
    assert names.count("becomes_blocked") == 1
    blockers = {ev["blocker"] for n, ev in seen if n == "becomes_blocked_by"}
    assert blockers == {s.perm("Grizzly Bears").id, s.perm("Grizzly Bears#2").id}


# -- last known information of the event's permanent -----------------------------------------------
def _chorus_with_bears_dead(copy_first: bool) -> tuple[Game, Game | None]:
    s = main({"hand": ["Grizzly Bears", "Shock"],
              "in_play": ["Angelic Chorus", "Forest", "Forest", "Mountain"]})
    s.do("play Grizzly Bears")
    s.resolve()
    before = s.game.copy() if copy_first else None
    s.do("play Shock", "target Grizzly Bears")
    s.resolve()
    return s.game, before


def test_lki_is_recorded_without_changing_game_copies() -> None:
    """2012 608.2g: the Chorus trigger keeps the Bears' toughness as it last existed in play. The
    event dict is replaced, so a copy made before the Bears died doesn't see it (the state stays
    copyable)."""
    g, before = _chorus_with_bears_dead(copy_first=True)
    (trig,) = [x for x in g.stack if x.kind == "triggered"]
    assert trig.data.event["lki"] == {"power": 2, "toughness": 2, "controller": 0}
    (old,) = [x for x in before.stack if x.kind == "triggered"]
    assert "lki" not in old.data.event


def test_lki_survives_json() -> None:
    """The last known information is plain data: a JSON round trip resolves the same way."""
    g, _ = _chorus_with_bears_dead(copy_first=False)
    g2 = Game.from_json(g.to_json())
    for game in (g, g2):
        while game.stack:
            game.apply("pass")
        assert game.players[0].life == 22


# -- distinct targets ------------------------------------------------------------------------------
def test_distinct_targets_search_avoids_dead_ends() -> None:
    """"another target": each distinct target differs from the earlier ones; the search finds
    an assignment when one exists and refuses when too few different candidates exist."""
    a = TargetSpec("creature_or_player")
    b = TargetSpec("creature_or_player", distinct=True)
    assert assignable_targets((a, b), [[("p", 0)], [("p", 0), ("p", 1)]], [])
    assert not assignable_targets((a, b), [[("p", 0)], [("p", 0)]], [])
    # Without ``distinct`` the same object may be chosen again.
    assert assignable_targets((a, a), [[("p", 0)], [("p", 0)]], [])


def test_cone_of_flame_third_target_must_be_the_creature_left() -> None:
    """With one creature and two players, after both players are chosen the third target can
    only be the creature; choosing the creature first leaves the players."""
    s = main({"hand": ["Cone of Flame"], "in_play": ["Mountain"] * 5}, {"in_play": ["Hill Giant"]})
    s.do("play Cone of Flame", "target player 0", "target player 1")
    assert s.options() == ["target Hill Giant"]


# -- coin flips, nested effects ----------------------------------------------------------------------
def test_coin_flip_uses_the_games_generator_and_copies_agree() -> None:
    """A coin flip draws from the game's seeded generator: a copy of the game flips the same."""
    s = Scenario({"turn": 2, "active_player": 1, "step": "postcombat_main", "seed": 5,
                  "players": [{"in_play": ["Scoria Wurm"], "library": ["Forest"]}, {}]})
    s.advance_to("upkeep", active=0)
    twin = s.game.copy()
    for g in (s.game, twin):
        g.apply("pass")
        g.apply("pass")
    assert s.game.log[-3:] == twin.log[-3:]
    assert any("flips a coin" in line for line in s.game.log)


def test_nested_effect_asking_a_question_before_others_is_an_engine_error() -> None:
    """Nested effects (a coin flip's outcome) run at once: one that asks a player something
    while more follow would run them before the answer, so it is refused."""
    eff = compile_effect({"op": "coin_flip",
                          "win": [{"op": "discard"}, {"op": "gain_life", "amount": 1}],
                          "lose": [{"op": "discard"}, {"op": "gain_life", "amount": 1}]},
                         Site(source=True, event="upkeep"))
    s = main({"hand": ["Forest", "Shock"], "in_play": ["Scoria Wurm"]})
    item = StackItem(999, "triggered", 0, source=s.perm("Scoria Wurm").id, label="test")
    with pytest.raises(MtgError, match="asks a question"):
        OPS["coin_flip"](s.game, item, eff)


# -- costs ------------------------------------------------------------------------------------------
def test_sacrifice_all_cost_is_paid_after_the_mana() -> None:
    """2007 CR 409.1g-h: costs are paid after mana abilities: Soulblast's "sacrifice all creatures
    you control" is paid after the mana, and the total power is kept on the spell."""
    s = main({"hand": ["Soulblast"], "in_play": ["Mountain"] * 6 + ["Grizzly Bears"]})
    s.do("play Soulblast", "target player 1")
    spell = s.game.stack[-1]
    assert spell.data.sacrificed_power == 2
    assert all(p.tapped for p in s.game.permanents if p.card.name == "Mountain")


# -- load-time checks of the new words ----------------------------------------------------------------
def test_event_amounts_and_refs_need_a_triggered_ability() -> None:
    """``{event: ...}`` and the event references mean something only in a triggered ability."""
    with pytest.raises(CardDataError, match="only meaningful in a triggered ability"):
        compile_amount({"event": "amount"}, Site(source=False))
    for word in ("damaged_player", "event_perm_controller"):
        with pytest.raises(CardDataError, match="only meaningful in a triggered ability"):
            compile_ref(word, Site(source=True), players=True)
    with pytest.raises(CardDataError, match="only meaningful in a triggered ability"):
        compile_ref("event_attacker", Site(source=True))
    with pytest.raises(CardDataError, match="'event' must be one of"):
        compile_amount({"event": "power"}, Site(source=True, event="etb"))


@pytest.mark.parametrize(("word", "event"), [
    ("event_player", "deals_damage"), ("event_player", "etb"), ("damaged_player", "upkeep"),
    ("event_perm_controller", "draw"), ("event_attacker", "attacks"),
    ("event_blocker", "blocks")])
def test_event_references_must_fit_the_event(word: str, event: str) -> None:
    """An event reference names something of its trigger's event: a damage event has no
    ``event_player`` (it used to fall back silently to the controller), a player event no
    permanent, ``blocks`` names the attacker and ``becomes_blocked_by`` the blocker."""
    players = word not in ("event_attacker", "event_blocker")
    with pytest.raises(CardDataError, match="event has none"):
        compile_ref(word, Site(source=True, event=event), players=players)


@pytest.mark.parametrize(("amount", "event"), [("amount", "etb"), ("toughness", "upkeep"),
                                               ("blockers", "deals_damage")])
def test_event_amounts_must_fit_the_event(amount: str, event: str) -> None:
    with pytest.raises(CardDataError, match="event has none"):
        compile_amount({"event": amount}, Site(source=True, event=event))


def test_sacrifice_self_needs_the_abilitys_controller_to_control_it() -> None:
    """2012 701.13a: a player sacrifices only a permanent they control: "sacrifice Spark
    Elemental" does nothing when the ability's controller no longer controls it."""
    s = main({"in_play": ["Spark Elemental"]})
    src = s.perm("Spark Elemental").id
    theirs = StackItem(998, "triggered", 1, source=src, label="Spark Elemental")
    OPS["sacrifice_self"](s.game, theirs, {"op": "sacrifice_self"})
    s.assert_in_play("Spark Elemental")
    mine = StackItem(999, "triggered", 0, source=src, label="Spark Elemental")
    OPS["sacrifice_self"](s.game, mine, {"op": "sacrifice_self"})
    s.assert_in_play("Spark Elemental", False)


def test_minus_x_needs_an_x() -> None:
    with pytest.raises(CardDataError, match="'-X' but the card or ability has no X"):
        compile_amount("-X", Site())
    game = Game.new(["starter_green", "starter_red"], seed=1)
    item = StackItem(997, "spell", 0, x=3, label="Blaze")
    assert compile_amount("-X", Site(x=True))(game, item) == -3


def test_enchanted_trigger_takes_no_filter(tmp_path) -> None:
    def change(e):
        e["triggered"][0]["filters"] = {"what": "enchanted", "filter": {"type": "Creature"}}
    fails(tmp_path, "Contaminated Bond", change, "'filter' needs 'what: other' or 'what: any'")


def test_colors_any_must_be_color_letters(tmp_path) -> None:
    def change(e):
        e["triggered"][0]["filters"]["colors_any"] = ["W", "Blue"]
    fails(tmp_path, "Quirion Dryad", change, "'colors_any'", "'Blue'")


def test_your_upkeep_condition_must_be_true(tmp_path) -> None:
    def change(e):
        e["activated"][0]["condition"] = {"your_upkeep": False}
    fails(tmp_path, "Colossus of Sardia", change, "'your_upkeep' must be true")


def test_other_is_refused_where_the_op_would_ignore_it() -> None:
    """``other: true`` is allowed only in filters whose op excludes the source (sacrifice); in
    another op's filter it would be silently ignored, so it is an error."""
    compile_effect({"op": "sacrifice", "filter": {"type": "Creature", "other": True}},
                   Site(source=True, event="upkeep"))
    with pytest.raises(CardDataError, match="'other'"):
        compile_effect({"op": "choose_permanent", "then": "bounce",
                        "filter": {"type": "Creature", "other": True}}, Site(source=True))
