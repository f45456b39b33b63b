"""The card vocabulary (stable, versioned, complete), card features, capacities and the layout."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import numpy as np
import pytest

from mtg_env.cards.loader import load_facts
from mtg_env.encoding import (
    ActionLayout,
    Capacities,
    CapacityError,
    ObservationLayout,
    vocabulary,
)
from mtg_env.encoding.docs import reference_markdown
from mtg_env.encoding.vocab import (
    CARD_COLUMNS,
    CARD_WIDTH,
    KEYWORDS_V1,
    card_index,
    card_row,
    printed_keywords,
)
from mtg_env.engine.model import KEYWORDS
from mtg_env.engine.registry import all_cards

ROOT = Path(__file__).resolve().parents[2]

# Version 1 is frozen: these pins fail if a name is reordered, renamed or removed.
V1_SIZE = 3 + 368 + 6
V1_DIGEST = "12483b01ac62a093f5f2c9d10d01d6f162214d048796771e0eef5ab211672f25"


def _names_digest() -> str:
    return hashlib.sha256("\n".join(vocabulary().names).encode()).hexdigest()


def test_vocabulary_covers_every_card_and_token() -> None:
    v = vocabulary()
    facts = load_facts()
    names = set(v.names)
    assert set(facts["cards"]) <= names
    assert set(facts["tokens"]) <= names
    assert v.names[:3] == ("<none>", "<hidden>", "<unknown>")
    assert len(v) == len(set(v.names))
    for name, cdef in all_cards().items():
        assert card_index(cdef) >= 3, f"{name} has no vocabulary index"


def test_vocabulary_v1_is_frozen() -> None:
    v = vocabulary(1)
    assert len(v) == V1_SIZE
    assert v.index("Abundance") == 3
    assert v.index("Dragon Token") == 3 + 368
    assert _names_digest() == V1_DIGEST, "version 1 of the card vocabulary must never change"
    with pytest.raises(ValueError, match="version"):
        vocabulary(2)


def test_feature_table_matches_card_rows() -> None:
    v = vocabulary()
    table = v.feature_table()
    assert table.shape == (len(v), CARD_WIDTH) and table.dtype == np.float32
    assert table[:, 0].tolist() == list(range(len(v)))
    for name, cdef in all_cards().items():
        np.testing.assert_array_equal(table[v.index(name)], np.asarray(card_row(cdef), np.float32),
                                      err_msg=name)
    bears = table[v.index("Grizzly Bears")]
    col = {c[0]: i for i, c in enumerate(CARD_COLUMNS)}
    assert bears[col["cost_G"]] == 1 and bears[col["cost_generic"]] == 1
    assert bears[col["base_power"]] == 2 and bears[col["type_creature"]] == 1
    lo = np.array([c[1] for c in CARD_COLUMNS])
    hi = np.array([c[2] for c in CARD_COLUMNS])
    assert ((table >= lo) & (table <= hi)).all()


def test_keyword_list_covers_the_engine() -> None:
    """The engine learnt a keyword this vocabulary version doesn't list: it is only counted in
    ``kw_other``; list it in a new version."""
    assert set(KEYWORDS) <= set(KEYWORDS_V1)


def test_printed_keywords() -> None:
    assert printed_keywords("Defender, flying (This creature can't attack.)") == {"defender",
                                                                                  "flying"}
    assert printed_keywords("Protection from red\n{T}: Draw a card.") == {"protection_from_red"}
    assert printed_keywords("Flying isn't a keyword line here.") == set()


def test_capacities_validate_and_name_their_key() -> None:
    with pytest.raises(ValueError, match="max_hand"):
        Capacities(max_hand=0)
    err = CapacityError("max_stack", 16, 17, "the stack")
    assert "max_stack=16" in str(err) and "17" in str(err)


def test_layouts_are_contiguous_and_described() -> None:
    caps = Capacities(max_hand=5, max_permanents=6)
    acts = ActionLayout(caps)
    seen = 0
    for name, n in acts.bands:
        assert acts.offset[name] == seen
        seen += n
        assert acts.locate(acts.offset[name]) == (name, 0)
        assert acts.locate(acts.offset[name] + n - 1) == (name, n - 1)
    assert seen == acts.size
    assert all(acts.describe(i) for i in range(acts.size))
    with pytest.raises(IndexError):
        acts.locate(acts.size)
    obs = ObservationLayout(caps)
    assert obs.shapes["hand"][0] == 10 and obs.shapes["permanents"][0] == 12
    lo, hi = obs.flat_bounds()
    assert lo.shape == hi.shape == (obs.size,) and (lo <= hi).all()


def test_docs_reference_is_up_to_date() -> None:
    text = (ROOT / "docs" / "env.md").read_text()
    assert reference_markdown() in text, (
        "docs/env.md is out of date: paste the output of `python -m mtg_env.encoding.docs`")


def test_env_docstring_tables_match_the_layout() -> None:
    from mtg_env.env import aec

    acts = ActionLayout(Capacities())
    rows = dict(re.findall(r"^\| `(\w+)` +\| (\d+(?:-\d+)?) +\|", aec.__doc__, re.M))
    for name, n in acts.bands:
        lo = acts.offset[name]
        assert rows[name] == (str(lo) if n == 1 else f"{lo}-{lo + n - 1}"), name
    obs = ObservationLayout(Capacities())
    shapes = dict(re.findall(r"^\| `(\w+)` +\| (\([\d, ]+\)) +\|", aec.__doc__, re.M))
    for name, shape in obs.shapes.items():
        assert shapes[name] == str(shape), name
    assert f"Discrete({acts.size})" in aec.__doc__
    assert f"({obs.size},)" in aec.__doc__


def test_every_decision_kind_has_its_own_game_column() -> None:
    """No engine decision is shown only as `kind_other`: a policy can tell every kind apart."""
    from mtg_env.encoding.layout import DECISION_KINDS
    from mtg_env.engine.actions import DecisionKind

    assert sorted(DECISION_KINDS) == sorted(k.value for k in DecisionKind)
