"""A frame's copy, stored form and load-time check, derived from its declared fields.

A frame class (``frames.py``) declares its fields with types; :func:`stored` reads them once,
when the class is defined, and writes the class's ``copy``, ``to_json`` and ``from_json`` as
generated code (as fast as the hand-written methods they replace) and records its
:attr:`FIELDS`, from which ``loaded_state_schema`` builds the check a stored frame passes before
it is read.

What a field's type says:

* ``int``, ``bool``, ``str``, an ``IntEnum`` (stored as its number), a ``Literal`` of values, ``Any``;
  ``X | None``; ``list[X]``; ``tuple[X, ...]`` and ``tuple[A, B]`` (stored as lists);
  ``dict[...]`` (plain JSON data); another :func:`stored` class (stored as its own form).
* ``Annotated[T, ...]`` adds what the type alone can't say: :class:`Refers` names what an
  integer or a list refers to (a player, a stack object, a permanent, ...: the load-time check
  tests that it exists), :data:`SHARED` a list or dict that is replaced and never changed in
  place (a copy shares it), :data:`COPY_ITEMS` a list whose items are lists changed in place
  (a copy copies them too), :data:`NONEMPTY` a list that has at least one item.

Stored form: ``{"k": KIND, key: value, ...}``, each field under its stored key (``keys`` of
:func:`stored`, else :data:`SHORT_KEYS`, else its name); a field with a default is left out
while it holds its default and read back as the default when absent.

Copy: values are shared, lists and dicts copied one level, stored classes by their ``copy``.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable
from enum import IntEnum
from typing import Annotated, Any, ClassVar, Literal, TypeVar, Union

T = TypeVar("T", bound="Stored")
S = TypeVar("S", bound="Stored")


@dataclasses.dataclass(frozen=True, slots=True)
class Refers:
    """What an annotated value refers to, by the load-time check's name for it: ``player``,
    ``stack``, ``perm``, ``object``, ``card``, ``count``, ``ref`` or a stored structure's
    name (``loaded_state_schema.REFERS``)."""

    what: str


@dataclasses.dataclass(frozen=True, slots=True)
class _Marker:
    name: str


SHARED = _Marker("shared")
COPY_ITEMS = _Marker("copy items")
NONEMPTY = _Marker("nonempty")

PlayerIndex = Annotated[int, Refers("player")]
StackId = Annotated[int, Refers("stack")]  # an object on the stack
PermId = Annotated[int, Refers("perm")]  # a permanent in play
ObjectId = Annotated[int, Refers("object")]  # any id handed out (it may have left since)
CardId = Annotated[int, Refers("card")]
Count = Annotated[int, Refers("count")]  # an integer >= 0
RefList = Annotated[list[Any], Refers("ref")]  # [zone, id], a chosen or target object

# The stored keys of fields most frames have.
SHORT_KEYS = {"player": "pl", "item_id": "sid", "perm_id": "pid", "step": "st", "event": "ev"}


@dataclasses.dataclass(frozen=True, slots=True)
class Shape:
    """A field type as the generated code and the load-time check read it."""

    kind: str  # "value", "int", "bool", "str", "enum", "literal", "opt", "list", "vtuple",
    #            "tuple", "dict", "stored"
    args: tuple[Shape, ...] = ()
    values: tuple[Any, ...] = ()  # of an enum or literal
    cls: Any = None  # an enum or stored class
    refers: str | None = None
    shared: bool = False
    copy_items: bool = False
    nonempty: bool = False


@dataclasses.dataclass(frozen=True, slots=True)
class StoredField:
    """One declared field: its name, stored key, shape and default (``has_default``)."""

    name: str
    key: str
    shape: Shape
    has_default: bool
    default: Any


class Stored:
    """A value whose copy and stored form :func:`stored` derives from its declared fields."""

    __slots__ = ()
    FIELDS: ClassVar[tuple[StoredField, ...]] = ()

    def copy(self: S) -> S:
        """An independent copy (what the procedures change in place copied)."""
        raise NotImplementedError

    def to_json(self) -> dict[str, Any]:
        """The stored form (module :mod:`mtg_env.engine.frame_fields`)."""
        raise NotImplementedError

    @classmethod
    def from_json(cls: type[S], d: dict[str, Any]) -> S:
        """The value of a stored form (already checked by ``loaded_state_schema``)."""
        raise NotImplementedError


def shape_of(tp: Any) -> Shape:
    """The shape of a resolved type hint."""
    refers: str | None = None
    flags: set[_Marker] = set()
    while typing.get_origin(tp) is Annotated:
        for m in tp.__metadata__:
            if isinstance(m, Refers):
                refers = refers or m.what
            elif isinstance(m, _Marker):
                flags.add(m)
        tp = tp.__origin__

    def mk(kind: str, args: tuple[Shape, ...] = (), values: tuple[Any, ...] = (),
           cls: Any = None) -> Shape:
        return Shape(kind, args, values, cls, refers, SHARED in flags, COPY_ITEMS in flags,
                     NONEMPTY in flags)

    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (Union, types.UnionType):
        rest = [a for a in args if a is not type(None)]
        if len(rest) != 1 or len(args) != 2:
            raise TypeError(f"only X | None unions are stored, not {tp}")
        inner = shape_of(rest[0])
        return Shape("opt", (inner,), refers=refers, shared=inner.shared)
    if origin is Literal:
        return mk("literal", values=args)
    if origin is list:
        return mk("list", (shape_of(args[0]),))
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return mk("vtuple", (shape_of(args[0]),))
        return mk("tuple", tuple(shape_of(a) for a in args))
    if origin is dict or tp is dict:
        return mk("dict")
    if tp is Any:
        return mk("value")
    if isinstance(tp, type):
        if issubclass(tp, IntEnum):
            return mk("enum", values=tuple(int(m) for m in tp), cls=tp)
        if tp in (int, bool, str):
            return mk(tp.__name__)
        if issubclass(tp, Stored):
            return mk("stored", cls=tp)
    raise TypeError(f"a stored field can't have type {tp}")


def _immutable(s: Shape) -> bool:
    if s.kind in ("opt", "vtuple", "tuple"):
        return all(_immutable(a) for a in s.args)
    return s.kind in ("value", "int", "bool", "str", "enum", "literal")


def _copy_expr(s: Shape, v: str) -> str:
    if s.shared or _immutable(s):
        return v
    if s.kind == "opt":
        return f"(None if {v} is None else {_copy_expr(s.args[0], v)})"
    if s.kind == "list":
        return f"[x[:] for x in {v}]" if s.copy_items else f"{v}[:]"
    if s.kind == "dict":
        return f"{v}.copy()"
    if s.kind == "stored":
        return f"{v}.copy()"
    return v  # tuples holding lists or dicts: replaced whole, never changed in place


def _convert_expr(s: Shape, v: str, out: bool, depth: int = 0) -> str:
    """The expression converting ``v`` of shape ``s`` to its stored form (``out``) or back."""
    x = f"x{depth}"
    if s.kind == "enum":
        return f"int({v})" if out else f"_{s.cls.__name__}({v})"
    if s.kind == "opt":
        inner = _convert_expr(s.args[0], v, out, depth)
        return v if inner == v else f"(None if {v} is None else {inner})"
    if s.kind in ("list", "vtuple"):
        inner = _convert_expr(s.args[0], x, out, depth + 1)
        if out or s.kind == "list":
            return f"list({v})" if inner == x else f"[{inner} for {x} in {v}]"
        return f"tuple({v})" if inner == x else f"tuple({inner} for {x} in {v})"
    if s.kind == "tuple":
        items = [_convert_expr(a, f"{v}[{i}]", out, depth + 1) for i, a in enumerate(s.args)]
        return "[" + ", ".join(items) + "]" if out else "(" + "".join(i + ", " for i in items) + ")"
    if s.kind == "stored":
        return f"{v}.to_json()" if out else f"_{s.cls.__name__}.from_json({v})"
    return v


def _enum_classes(s: Shape, out: dict[str, Any]) -> None:
    if s.kind in ("enum", "stored"):
        out[f"_{s.cls.__name__}"] = s.cls
    for a in s.args:
        _enum_classes(a, out)


def stored(kind: str = "", **keys: str) -> Callable[[type[T]], type[T]]:
    """Class decorator (over ``@dataclass(slots=True)``): derive ``copy``, ``to_json`` and
    ``from_json`` from the declared fields; ``kind`` is the stored ``"k"`` of a frame (none for
    a structure stored inside one); ``keys`` maps field names to their stored keys."""

    def apply(cls: type[T]) -> type[T]:
        hints = typing.get_type_hints(cls, include_extras=True)
        fields = []
        for df in dataclasses.fields(cls):  # type: ignore[arg-type]
            has_default = df.default is not dataclasses.MISSING or \
                df.default_factory is not dataclasses.MISSING
            default = df.default if df.default is not dataclasses.MISSING else \
                df.default_factory() if df.default_factory is not dataclasses.MISSING else None
            fields.append(StoredField(df.name, keys.get(df.name) or SHORT_KEYS.get(df.name, df.name),
                                      shape_of(hints[df.name]), has_default, default))
        name = cls.__name__
        env: dict[str, Any] = {name: cls, "_defaults": [f.default for f in fields]}
        for f in fields:
            _enum_classes(f.shape, env)
        # A class whose fields are keyword-only (a base with defaults, subclasses adding required
        # fields) is built by keywords; the others positionally (faster: frames copy often).
        named = [f"{df.name}=" if df.kw_only else ""
                 for df in dataclasses.fields(cls)]  # type: ignore[arg-type]
        copy_args = ", ".join(n + _copy_expr(f.shape, f"self.{f.name}")
                              for n, f in zip(named, fields))
        lines = [f"def copy(self):\n    return {name}({copy_args})\n",
                 "def to_json(self):\n" + (f"    d = {{'k': {kind!r}}}\n" if kind else
                                           "    d = {}\n")]
        for i, f in enumerate(fields):
            value = _convert_expr(f.shape, f"self.{f.name}", True)
            if f.has_default:
                lines.append(f"    if self.{f.name} != _defaults[{i}]:\n"
                             f"        d[{f.key!r}] = {value}\n")
            else:
                lines.append(f"    d[{f.key!r}] = {value}\n")
        lines.append("    return d\n")
        reads = []
        for i, f in enumerate(fields):
            if f.has_default:
                reads.append(f"{named[i]}{_convert_expr(f.shape, 'v', False)} "
                             f"if (v := d.get({f.key!r}, _miss)) "
                             f"is not _miss else _copy_default({i})")
            else:
                reads.append(named[i] + _convert_expr(f.shape, f"d[{f.key!r}]", False))
        lines.append("def from_json(cls, d):\n    return cls(" + ", ".join(reads) + ")\n")
        env["_miss"] = object()
        env["_copy_default"] = lambda i: (fields[i].default.copy()
                                          if isinstance(fields[i].default, (list, dict))
                                          else fields[i].default)
        code: dict[str, Any] = {}
        exec(compile("".join(lines), f"<stored {name}>", "exec"), env, code)
        code["copy"].__doc__ = "An independent copy (what the procedures change in place copied)."
        code["to_json"].__doc__ = "The stored form (module :mod:`mtg_env.engine.frame_fields`)."
        code["from_json"].__doc__ = "Read back the stored form (checked before)."
        for fn in ("copy", "to_json", "from_json"):
            code[fn].__qualname__ = f"{name}.{fn}"
        derived = {"copy": code["copy"], "to_json": code["to_json"],
                   "from_json": classmethod(code["from_json"]), "FIELDS": tuple(fields)}
        if kind:
            derived["KIND"] = kind
        for attr, value in derived.items():
            setattr(cls, attr, value)
        return cls

    return apply
