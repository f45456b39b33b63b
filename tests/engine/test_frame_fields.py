"""Frames' copy and stored form derived from their declared fields (``frame_fields.stored``)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest

from mtg_env.engine.frame_fields import Shape, stored
from mtg_env.engine.frame_kinds import FRAME_CLASSES, frame_from_json
from mtg_env.engine.frames import AssignCursor, AssignFrame, CastFrame, CastStep, PendingTrigger, PutFrame


def _sample(s: Shape) -> Any:
    """A value of shape ``s`` other than any field's default."""
    if s.kind == "opt":
        return _sample(s.args[0])
    if s.refers == "ref":
        return ("o", 7) if s.kind in ("tuple", "vtuple") else ["o", 7]
    if s.kind in ("enum", "literal"):
        return s.cls(s.values[-1]) if s.kind == "enum" else s.values[-1]
    if s.kind == "list":
        return [_sample(s.args[0])]
    if s.kind == "vtuple":
        return (_sample(s.args[0]),)
    if s.kind == "tuple":
        return tuple(_sample(a) for a in s.args)
    if s.kind == "stored":
        return s.cls(*(_sample(f.shape) for f in s.cls.FIELDS))
    return {"int": 3, "bool": True, "str": "x", "dict": {"a": [1]}, "value": "v"}[s.kind]


def _full(cls: type) -> Any:
    return cls(*(_sample(f.shape) for f in cls.FIELDS))


@pytest.mark.parametrize("cls", FRAME_CLASSES, ids=lambda c: c.KIND)
def test_every_frame_round_trips_through_its_stored_form(cls: type) -> None:
    """Every field set away from its default is stored under its key and read back equal,
    through JSON text (``serialize.py`` stores ``to_json()``; ``frame_from_json`` reads it)."""
    f = _full(cls)
    d = json.loads(json.dumps(f.to_json()))
    assert d["k"] == cls.KIND
    assert set(d) == {"k"} | {fld.key for fld in cls.FIELDS}
    assert frame_from_json(d) == f


@pytest.mark.parametrize("cls", FRAME_CLASSES, ids=lambda c: c.KIND)
def test_a_copy_shares_only_what_is_never_changed_in_place(cls: type) -> None:
    f = _full(cls)
    c = f.copy()
    assert c == f and c is not f
    for fld in cls.FIELDS:
        mine, theirs = getattr(f, fld.name), getattr(c, fld.name)
        if isinstance(mine, (list, dict)) and not fld.shape.shared:
            assert theirs is not mine, f"{cls.__name__}.{fld.name} is shared by a copy"
        if fld.shape.shared:
            assert theirs is mine


def test_fields_at_their_defaults_are_left_out_and_read_back() -> None:
    f = CastFrame(0, 12)
    assert f.to_json() == {"k": "cast", "pl": 0, "sid": 12}
    back = CastFrame.from_json({"k": "cast", "pl": 0, "sid": 12})
    assert back == f and back.step is CastStep.MODES
    a = AssignFrame([3, 4])
    assert a.to_json() == {"k": "assign", "queue": [3, 4]}
    read = AssignFrame.from_json({"k": "assign", "queue": [3, 4]})
    assert read.assigned == [] and read.assigned is not AssignFrame.from_json(
        {"k": "assign", "queue": [3, 4]}).assigned  # a default list is never shared


def test_nested_and_copied_items() -> None:
    """A trigger queue's lists are copied (the procedure pops them); the cursor of combat damage
    assignment is stored as its own object, its recipients read back as (kind, id) tuples."""
    waiting = PendingTrigger(1, "Soul Warden", "gain 1 life", 7, 0, card="Soul Warden",
                             event={"perm": 9})
    p = PutFrame((1, 0), [[waiting], []])
    c = p.copy()
    c.queues[0].pop()
    assert p.queues[0] == [waiting]
    stored = json.loads(json.dumps(p.to_json()))
    assert stored["q"][0] == [{"ctrl": 1, "name": "Soul Warden", "text": "gain 1 life",
                               "src": 7, "ab": 0, "card": "Soul Warden", "ev": {"perm": 9}}]
    assert PutFrame.from_json(stored) == p
    a = AssignFrame([5], current=AssignCursor(5, remaining=3, recipients=[("o", 6)], got=[]))
    d = json.loads(json.dumps(a.to_json()))
    assert d["cur"] == {"pid": 5, "rem": 3, "recips": [["o", 6]], "got": []}
    assert AssignFrame.from_json(d).current == AssignCursor(5, False, 3, [("o", 6)], 0, [])


def test_a_field_type_the_stored_form_cannot_hold_is_refused_when_the_class_is_defined() -> None:
    with pytest.raises(TypeError, match="can't have type"):
        @stored("bad")
        @dataclass(slots=True)
        class Bad:
            things: set[int]
