"""The game's state is declared once (mtg_env/engine/state.py): construction, copy() and JSON follow
from that declaration, so nothing may live on a game outside it."""

from mtg_env import Deck, Game
from mtg_env.engine.serialize import FORMAT_VERSION, game_to_dict
from mtg_env.engine.state import FIELD_NAMES, FIELDS


def _midgame() -> Game:
    g = Game.new([Deck.builtin("starter_green"), Deck.builtin("starter_red")], seed=3)
    for _ in range(80):
        g.apply(g.decision.options[-1])
    return g


def test_every_attribute_is_declared():
    g = _midgame()
    assert set(vars(g)) == FIELD_NAMES
    assert set(vars(g.copy())) == FIELD_NAMES
    assert set(vars(Game.from_json(g.to_json()))) == FIELD_NAMES


def test_copy_shares_no_mutable_state():
    g = _midgame()
    c = g.copy()
    for f in FIELDS:
        v = getattr(g, f.name)
        if f.copy != "share" and v is not None:
            assert getattr(c, f.name) is not v, f.name


def test_json_stores_every_non_derived_field():
    d = game_to_dict(_midgame())
    assert d["version"] == FORMAT_VERSION
    for f in FIELDS:
        if f.json == "scalar":
            assert f.name in d, f.name
