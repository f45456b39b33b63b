"""The cache of card files that passed the schema check (``mtg_env.cards.loader``): an unchanged
file is not checked again at the next start, and any change to a file means it is checked."""

from __future__ import annotations

from pathlib import Path

import pytest

from mtg_env.cards import loader
from mtg_env.cards.loader import DATA_DIR, file_digest, load_facts, load_file
from mtg_env.engine.errors import CardDataError

FACTS = load_facts()["cards"]
CORE = DATA_DIR / "creatures_keywords.yaml"


def _no_validator(*_a, **_k):
    raise AssertionError("the schema check ran for a file the cache lists")


def test_a_checked_file_is_listed_and_then_not_checked_again(monkeypatch) -> None:
    validated: set[str] = set()
    first = load_file(CORE, FACTS, validated)
    assert validated == {file_digest(CORE.read_text())}
    monkeypatch.setattr(loader, "_file_validator", _no_validator)
    again = load_file(CORE, FACTS, validated)
    assert [c.name for c in again] == [c.name for c in first]


def test_a_changed_file_is_checked_even_if_its_old_text_is_listed(tmp_path: Path) -> None:
    text = CORE.read_text()
    validated = {file_digest(text)}
    bad = tmp_path / "creatures_keywords.yaml"
    assert 'Grizzly Bears: {text: ""}' in text
    bad.write_text(text.replace('Grizzly Bears: {text: ""}',
                                'Grizzly Bears: {text: "", bogus_key: 1}'))
    with pytest.raises(CardDataError, match="bogus_key"):
        load_file(bad, FACTS, validated)
    assert file_digest(bad.read_text()) not in validated


def test_the_digest_depends_on_the_schema(monkeypatch) -> None:
    text = CORE.read_text()
    before = file_digest(text)
    monkeypatch.setattr(loader, "_schema_digest", lambda: b"another schema")
    assert file_digest(text) != before


def test_cache_location_and_round_trip(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("MTG_ENV_CACHE", "")
    assert loader.validation_cache_path() is None
    monkeypatch.setenv("MTG_ENV_CACHE", str(tmp_path))
    path = loader.validation_cache_path()
    assert path == tmp_path / "validated_card_files.json"
    assert loader._read_validated(path) == []  # none yet
    loader._write_validated(path, ["a", "b"])
    assert loader._read_validated(path) == ["a", "b"]
    path.write_text("{not json")
    assert loader._read_validated(path) == []  # a damaged cache means: check every file
    loader._write_validated(path, [str(i) for i in range(1000)])
    assert len(loader._read_validated(path)) == loader._CACHE_KEEP


def test_an_unwritable_cache_is_ignored(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    loader._write_validated(blocker / "sub" / "validated_card_files.json", ["a"])  # no error
