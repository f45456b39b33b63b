"""The card language (mtg_env.engine.filters, mtg_env.engine.ops): filters, references, amounts,
trigger filters, static abilities and effect parameters are checked and compiled when card data
loads. A mistake fails at load with a CardDataError naming the file, the card, the ability path
and the key, never mid-game; a key valid in a context works the same wherever that context
appears (one implementation per context)."""

from __future__ import annotations

import copy
from pathlib import Path

import jsonschema
import pytest
import yaml

from mtg_env.cards.language_docs import language_markdown
from mtg_env.cards.loader import DATA_DIR, load_facts, load_file
from mtg_env.engine import registry
from mtg_env.engine.abilities import TargetSpec
from mtg_env.engine.effects import matches_filter
from mtg_env.engine.errors import CardDataError
from mtg_env.engine.filters import compile_filter, compile_target
from mtg_env.engine.model import Card
from mtg_env.engine.ops import OP_DEFS
from mtg_env.engine.targets import legal_targets
from mtg_env.testing import Scenario

ROOT = Path(__file__).resolve().parents[2]
FACTS = load_facts()["cards"]
CARDS = {}
for _p in sorted(DATA_DIR.glob("*.yaml")):
    CARDS.update(yaml.safe_load(_p.read_text()))


def load(tmp_path: Path, name: str, change) -> list:
    """Load a copy of ``name``'s real YAML entry, changed by ``change(entry)``, from bad.yaml."""
    entry = copy.deepcopy(CARDS[name])
    change(entry)
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump({name: entry}))
    return load_file(path, FACTS)


def fails(tmp_path: Path, name: str, change, *fragments: str) -> str:
    with pytest.raises(CardDataError) as exc:
        load(tmp_path, name, change)
    msg = str(exc.value)
    for f in ("bad.yaml", name, *fragments):
        assert f in msg, f"{f!r} not in {msg!r}"
    return msg


def terror_filters(**flt):
    def change(e):
        e["spell"]["targets"][0]["filters"] = flt
    return change


# -- every existing card loads --------------------------------------------------------------
def test_the_generated_card_schema_is_a_valid_json_schema():
    """The loader checks files against one cached validator and never re-checks the schema."""
    from mtg_env.cards.schema import FILE_SCHEMA

    jsonschema.validators.validator_for(FILE_SCHEMA).check_schema(FILE_SCHEMA)


def test_every_card_file_loads_and_compiles():
    n = sum(len(load_file(p, FACTS)) for p in sorted(DATA_DIR.glob("*.yaml")))
    assert n == len(CARDS) >= 106
    assert set(CARDS) <= set(registry.all_cards())


def test_unchanged_entry_loads(tmp_path):
    (cdef,) = load(tmp_path, "Terror", lambda e: None)
    assert cdef.spell_targets[0].perm.expr.startswith("'Creature' in o.types")


# -- filters: unknown key, wrong value, wrong context -----------------------------------------
def test_misspelt_filter_key_fails_with_did_you_mean(tmp_path):
    msg = fails(tmp_path, "Terror", terror_filters(colour="B"),
                "spell/targets/0/filters", "'colour'")
    assert "did you mean 'color'" in msg


@pytest.mark.parametrize("value, hint", [(3, "not 3"), ("Blue", "'Blue'"), ("b", "'B'")])
def test_color_value_must_be_a_wubrg_letter(tmp_path, value, hint):
    fails(tmp_path, "Terror", terror_filters(not_color=value), "'not_color'", "WUBRG"[0], hint)


def test_card_types_are_capitalised(tmp_path):
    msg = fails(tmp_path, "Terror", terror_filters(not_type="artifact"), "'not_type'")
    assert "did you mean 'Artifact'" in msg


def test_unknown_subtype_fails_with_did_you_mean(tmp_path):
    def change(e):
        e["triggered"][0]["targets"][0]["filters"]["subtype"] = "Goblins"
    msg = fails(tmp_path, "Gravedigger", change, "triggered/0/targets/0/filters", "'subtype'")
    assert "did you mean 'Goblin'" in msg


def test_permanent_only_key_on_a_graveyard_card_fails(tmp_path):
    """A card in a graveyard is not tapped or untapped (only permanents are)."""
    def change(e):
        e["triggered"][0]["targets"][0]["filters"]["tapped"] = True
    msg = fails(tmp_path, "Gravedigger", change, "triggered/0/targets/0/filters", "'tapped'")
    assert "makes no sense for a card in a graveyard" in msg


def test_controller_of_a_graveyard_card_fails(tmp_path):
    """Cards in graveyards have owners, not controllers (2007 CR 217.1)."""
    def change(e):
        e["triggered"][0]["targets"][0]["filters"] = {"type": "Creature", "controller": "you"}
    fails(tmp_path, "Gravedigger", change, "'controller'", "makes no sense")


def test_bool_key_needs_a_bool(tmp_path):
    def change(e):
        e["spell"]["targets"][0]["filters"] = {"tapped": "yes"}
    fails(tmp_path, "Terror", change, "'tapped'", "true or false")


def test_other_needs_a_source(tmp_path):
    """A spell has no source permanent to exclude: ``other`` on an instant's target fails."""
    fails(tmp_path, "Terror", terror_filters(other=True), "'other'", "no source")


def test_sacrifice_cost_filter_is_checked(tmp_path):
    def change(e):
        e["activated"][0]["cost"]["sacrifice"] = {"typ": "Creature"}
    name = next(n for n, e in CARDS.items()
                if any("sacrifice" in a.get("cost", {}) for a in e.get("activated", ())))
    msg = fails(tmp_path, name, change, "activated/0/cost/sacrifice", "'typ'")
    assert "did you mean 'type'" in msg


# -- references and amounts -----------------------------------------------------------------
def test_target_index_must_exist(tmp_path):
    def change(e):
        e["spell"]["effects"][0]["target"] = 1
    fails(tmp_path, "Giant Growth", change, "spell/effects/0/target", "target 1 does not exist",
          "1 target(s)")


def test_unknown_reference_word_fails(tmp_path):
    def change(e):
        e["activated"][0]["effects"][0]["target"] = "selff"
    msg = fails(tmp_path, "Furnace Whelp", change, "activated/0/effects/0/target", "'selff'")
    assert "did you mean 'self'" in msg


def test_player_reference_to_a_creature_target_fails(tmp_path):
    def change(e):
        e["spell"]["effects"].append({"op": "draw", "who": 0})
    fails(tmp_path, "Giant Growth", change, "spell/effects/1/who", "not a player")


def test_self_in_an_instant_fails(tmp_path):
    def change(e):
        e["spell"]["effects"][0]["target"] = "self"
    fails(tmp_path, "Giant Growth", change, "'self'", "needs a permanent")


def test_x_only_where_the_card_has_x(tmp_path):
    def change(e):
        e["spell"]["effects"][0]["amount"] = "X"
    fails(tmp_path, "Shock", change, "spell/effects/0/amount", "has no X")
    (cdef,) = load(tmp_path, "Hurricane", lambda e: None)  # {X}{G}: X is fine
    assert cdef.x_spell


def test_count_amount_filter_is_checked(tmp_path):
    def change(e):
        e["spell"]["effects"][0]["amount"] = {"count": {"controller": "you", "subtype": "mountain"}}
    fails(tmp_path, "Spitting Earth", change, "amount/count", "'subtype'", "capitalised")


# -- triggers and statics -------------------------------------------------------------------
def test_trigger_filter_key_must_fit_the_event(tmp_path):
    def change(e):
        e["triggered"][0]["filters"] = {"whose": "you"}
    msg = fails(tmp_path, "Gravedigger", change, "triggered/0/filters", "'whose'", "'etb'")
    assert "keys: ['filter', 'what']" in msg


def test_trigger_filter_value_is_checked(tmp_path):
    def change(e):
        e["triggered"][0]["filters"] = {"what": "self", "to": "opponents"}
    msg = fails(tmp_path, "Thieving Magpie", change, "'to'")
    assert "did you mean 'opponent'" in msg


def test_static_affects_and_params_are_checked(tmp_path):
    name = next(n for n, e in CARDS.items()
                if any(s.get("affects") == "all_creatures" for s in e.get("static", ())))

    def bad_affects(e):
        e["static"][0]["affects"] = "all_creature"
    msg = fails(tmp_path, name, bad_affects, "static/0", "'all_creature'")
    assert "did you mean 'all_creatures'" in msg

    def bad_param(e):
        e["static"][0]["colour"] = "W"
    fails(tmp_path, name, bad_param, "static/0", "'colour'")


# -- effect ops -----------------------------------------------------------------------------
def test_unknown_op_fails(tmp_path):
    def change(e):
        e["spell"]["effects"][0]["op"] = "deal_damgae"
    fails(tmp_path, "Shock", change, "deal_damgae")


def test_misspelt_op_key_fails_with_did_you_mean(tmp_path):
    def change(e):
        e["spell"]["effects"][0] = {"op": "destroy", "target": 0, "no_regn": True}
    msg = fails(tmp_path, "Terror", change, "spell/effects/0", "'no_regn'")
    assert "did you mean 'no_regen'" in msg


def test_missing_required_op_parameter_fails(tmp_path):
    def change(e):
        e["spell"]["effects"][0] = {"op": "deal_damage", "amount": 2}
    fails(tmp_path, "Shock", change, "spell/effects/0", "'target'")


def test_every_op_declares_its_parameters():
    assert {"deal_damage", "destroy", "regenerate", "search_library", "counter_spell"} <= set(OP_DEFS)
    for d in OP_DEFS.values():
        assert d.doc, f"op {d.name} has no docstring"


# -- one implementation per context: subtype works on graveyard cards -----------------------
def _card(name: str, owner: int = 0) -> Card:
    return Card(0, registry.get_card(name), owner, name)


def test_subtype_filter_on_graveyard_cards():
    """A card in a graveyard has its printed subtypes: ``subtype`` works there as anywhere."""
    flt = compile_target("card_in_graveyard", {"subtype": "Goblin", "owner": "you"})["card"]
    assert flt.test(_card("Goblin Piker"), 0)
    assert not flt.test(_card("Grizzly Bears"), 0)
    assert not flt.test(_card("Goblin Piker", owner=1), 0)


def test_graveyard_target_filtered_by_subtype_in_a_game():
    """Gravedigger-like target "target Goblin card from your graveyard": only your Goblin cards
    are legal targets (2007 CR 413: a target must meet the stated requirements)."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"graveyard": ["Goblin Piker", "Grizzly Bears", "Raging Goblin"]},
        {"graveyard": ["Goblin Piker"]}]})
    g = s.game
    spec = TargetSpec("card_in_graveyard", {"subtype": "Goblin", "owner": "you"})
    got = sorted(g.cards[v].label for _, v in legal_targets(g, 0, spec))
    assert got == ["Goblin Piker", "Raging Goblin"]
    assert legal_targets(g, 1, spec) and all(
        g.cards[v].owner == 1 for _, v in legal_targets(g, 1, spec))


def test_spell_filter_sees_the_controller():
    """``controller`` works on spells too (one definition per key)."""
    flt = compile_filter({"type": "Creature", "controller": "opponent"}, "spell")
    # "an opponent": another player, or a player of another team (seating.TEAM_SIZE)
    assert flt.expr == ("'Creature' in o.card.cdef.types and (o.controller != pl if _T[0] == 1 "
                        "else o.controller // _T[0] != pl // _T[0])")


# -- the public helper agents use -----------------------------------------------------------
def test_matches_filter_on_views_and_bad_keys():
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"in_play": ["Grizzly Bears"]}, {"in_play": ["Goblin Piker"]}]})
    view = s.game.view(0)
    bears = next(p for p in view.permanents if p.name == "Grizzly Bears")
    assert matches_filter(bears, {"type": "Creature", "controller": "you", "color": "G"}, 0)
    assert not matches_filter(bears, {"subtype": "Goblin"}, 0)
    with pytest.raises(CardDataError, match="did you mean 'color'"):
        matches_filter(bears, {"colour": "G"}, 0)


def test_docs_card_language_reference_is_up_to_date():
    text = (ROOT / "docs" / "rules.md").read_text()
    assert language_markdown() in text, (
        "docs/rules.md is out of date: paste the output of `python -m mtg_env.cards.language_docs`")


# -- misspelt names the schema checks: a "did you mean" before the list ------------------------
def _set(*path, value):
    def change(e):
        node = e
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
    return change


@pytest.mark.parametrize("name, change, fragment", [
    ("Terror", _set("spell", "effects", 0, "op", value="destory"),
     "spell/effects/0/op: unknown effect op 'destory'; did you mean 'destroy'? (known: ['add_mana'"),
    ("Terror", _set("spell", "effects", 0, "op", value="Destroy"),
     "unknown effect op 'Destroy'; did you mean 'destroy'?"),
    ("Terror", _set("spell", "targets", 0, "kind", value="creatur"),
     "spell/targets/0/kind: unknown target kind 'creatur'; did you mean 'creature'"),
    ("Terror", _set("keywords", value=["flyng"]), "keywords/0: unknown keyword 'flyng'; did you mean 'flying'?"),
    ("Gravedigger", _set("triggered", 0, "event", value="etbb"),
     "triggered/0/event: unknown trigger event 'etbb'; did you mean 'etb'?"),
    ("Terror", _set("static", value=[{"kind": "modify_ptt"}]),
     "static/0/kind: unknown static ability kind 'modify_ptt'; did you mean 'modify_pt'?"),
    ("Terror", _set("spell", "tagets", value=[]),
     "Terror/spell: unknown key 'tagets'; did you mean 'targets'? (allowed: ['custom', 'effects', 'targets'])"),
])
def test_misspelt_schema_names_get_a_did_you_mean(tmp_path, name, change, fragment):
    fails(tmp_path, name, change, fragment)


def test_a_misspelt_op_reads_the_same_from_the_schema_and_the_compiler(tmp_path):
    """The schema check runs first; its message for an unknown op is the compiler's own."""
    from mtg_env.engine.filters import Site
    from mtg_env.engine.ops import compile_effect

    msg = fails(tmp_path, "Terror", _set("spell", "effects", 0, "op", value="destory"))
    with pytest.raises(CardDataError) as exc:
        compile_effect({"op": "destory", "target": 0}, Site("x", targets=("creature",)))
    assert msg.split(": ", 2)[2] == str(exc.value).removeprefix("x: ")
    assert "did you mean" not in fails(tmp_path, "Terror", _set("spell", "effects", 0, "op", value="zzz"))


def test_a_yaml_syntax_error_says_where_on_one_line(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("Terror:\n  text: [a\n  spell: 1\n")
    with pytest.raises(CardDataError) as exc:
        load_file(path, FACTS)
    assert str(exc.value) == ("bad.yaml: not valid YAML: line 3, column 8: did not find expected "
                              "',' or ']' (while parsing a flow sequence)")
